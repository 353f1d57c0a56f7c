//! Synthesis of a top one sub-block at a time ([`SynthScript::BySubBlock`], what `rtgpu synth
//! cu` runs): a Yosys process per sub-block of the top, on `jobs` cores, and one for the top's
//! own registers and glue with the sub-blocks as black boxes.
//!
//! One Yosys run over the compute unit's whole top did not finish in 30 minutes (4.6 GB and
//! still optimising): its passes run one after the other over every sub-block. Separate runs
//! use the cores, keep each run's memory to its own sub-block, and synthesize a sub-block
//! whose module tree is the same text as an earlier one's (the issue units) once: rust-hdl
//! names the modules by their path, so the twin's tree differs only in that prefix.
//!
//! Each sub-block is flattened and synthesized on its own, so no optimisation crosses its
//! ports: the total is that of a design kept hierarchical, at or above a flat synthesis's.

use super::synth_memo::SynthMemo;
use super::tools::{sub_blocks, yosys_run, yosys_version, SynthReport, SynthScript, ToolError};
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};

/// The synthesis of module `m` in each run: Yosys' `synth` without `share` (the VALU's fp32
/// lanes) and without ABC. The count is of Yosys' own gates after its optimisations, without
/// ABC's logic mapping: on the contexts' register file (1.8 million gates, 30,000 inputs) ABC
/// was killed for memory, with its default script and with `-fast`.
fn synth_of(m: &str) -> String {
    format!("synth -flatten -noshare -noabc -top {m}")
}

/// Each module of `modules` with every module named below it (its module tree), as one text
/// with the module's own name replaced, so that two trees that differ only in the name prefix
/// are the same text.
pub fn trees(verilog: &str, modules: &[String]) -> Vec<String> {
    let texts = module_texts(verilog);
    modules.iter().map(|m| tree(&texts, m)).collect()
}

/// For each tree of `trees` ([`trees`]), the index of an earlier one with the same text, if
/// any.
pub fn twins(trees: &[String]) -> Vec<Option<usize>> {
    (0..trees.len())
        .map(|i| (0..i).find(|&j| trees[j] == trees[i]))
        .collect()
}

/// Each module's text by its name.
fn module_texts(verilog: &str) -> BTreeMap<&str, &str> {
    verilog
        .split("\nmodule ")
        .skip(1)
        .filter_map(|m| Some((m.split('(').next()?.trim(), m)))
        .collect()
}

/// The texts of `m` and the modules below it (`m$…`), in name order, `m` renamed to `@`.
fn tree(texts: &BTreeMap<&str, &str>, m: &str) -> String {
    let below = format!("{m}$");
    texts
        .range(m..)
        .take_while(|(name, _)| **name == m || name.starts_with(&below))
        .map(|(_, text)| text.replace(m, "@"))
        .collect()
}

/// The Yosys script of one sub-block.
fn sub_block_script(m: &str) -> String {
    format!(
        "read_verilog top.v; hierarchy -top {m}; {}; stat -top {m}",
        synth_of(m)
    )
}

/// The Yosys script of the top with `modules` as black boxes.
fn glue_script(modules: &[String]) -> String {
    format!(
        "read_verilog top.v; hierarchy -top top; blackbox {}; {}; stat -top top",
        modules.join(" "),
        synth_of("top")
    )
}

/// Synthesizes `dir/top.v` per sub-block on `jobs` cores; `tick(done, total, name)` after each
/// Yosys run. The largest sub-blocks (by Verilog text) start first. A run that finished
/// before on the same Verilog ([`SynthMemo`]) is not run again: its result is read back.
pub fn synth(
    dir: &Path,
    jobs: usize,
    mut tick: impl FnMut(usize, usize, &str),
) -> Result<SynthReport, ToolError> {
    let verilog = std::fs::read_to_string(dir.join("top.v"))?;
    let modules = sub_blocks(&verilog);
    let trees = trees(&verilog, &modules);
    let twin = twins(&trees);
    let mut runs: Vec<Option<usize>> = (0..modules.len())
        .filter(|&i| twin[i].is_none())
        .map(Some)
        .collect();
    runs.sort_by_key(|r| r.map(|i| std::cmp::Reverse(trees[i].len())));
    runs.push(None);
    let total = runs.len();
    let name = |r: &Option<usize>| r.map_or("top", |i| modules[i].as_str()).to_string();
    let (memo, version) = (SynthMemo::new(dir), yosys_version(dir)?);
    let key = |r: &Option<usize>| match r {
        Some(i) => SynthMemo::key(&[&version, &sub_block_script("@"), &trees[*i]]),
        None => SynthMemo::key(&[&version, &glue_script(&modules), &verilog]),
    };
    // After a failed run the runs not yet started are skipped (`None`): the first error ends
    // the command without waiting for them.
    let failed = AtomicBool::new(false);
    let results = crate::cu::sweep::parallel(
        &runs,
        jobs,
        |r| {
            let (name, key) = (name(r), key(r));
            if let Some(kept) = memo.load(&key, &name) {
                return Some((Ok(kept), true));
            }
            if failed.load(Ordering::Relaxed) {
                return None;
            }
            let out = match r {
                Some(_) => yosys_run(dir, &sub_block_script(&name), &name),
                None => yosys_run(dir, &glue_script(&modules), "top"),
            };
            failed.fetch_or(out.is_err(), Ordering::Relaxed);
            if let Ok(o) = &out {
                memo.store(&key, &name, o);
            }
            Some((out, false))
        },
        |done, i, _| tick(done, total, &name(&runs[i])),
    );
    let mut cells: BTreeMap<String, (u64, String)> = BTreeMap::new();
    let mut remembered = Vec::new();
    for (r, out) in runs.iter().zip(results) {
        if let Some((out, kept)) = out {
            cells.insert(name(r), out?);
            if kept {
                remembered.push(name(r));
            }
        }
    }
    Ok(SynthReport {
        remembered,
        ..report(&modules, &twin, &cells)?
    })
}

/// The report: each sub-block's cells (a twin's those of its first), the top's own (its
/// cells less the black-box instances), their sum, and the runs' `stat` sections.
fn report(
    modules: &[String],
    twin: &[Option<usize>],
    cells: &BTreeMap<String, (u64, String)>,
) -> Result<SynthReport, ToolError> {
    let of = |m: &str| cells.get(m).cloned().unwrap_or_default();
    let mut sub_blocks: Vec<(String, u64)> = modules
        .iter()
        .zip(twin)
        .map(|(m, t)| (m.clone(), of(t.map_or(m, |j| &modules[j])).0))
        .collect();
    let (top, top_stat) = of("top");
    let glue = top.checked_sub(modules.len() as u64).ok_or_else(|| {
        ToolError::Io(std::io::Error::other(format!(
            "yosys counted {top} cells in the top, fewer than its {} sub-blocks",
            modules.len()
        )))
    })?;
    sub_blocks.push(("top".to_string(), glue));
    let mut stat = String::new();
    for (m, t) in modules.iter().zip(twin) {
        match t {
            None => stat.push_str(&of(m).1),
            Some(j) => stat.push_str(&format!(
                "\n=== {m} ===\n   (the same module tree as {}: not synthesized again)\n",
                modules[*j]
            )),
        }
    }
    stat.push_str(&top_stat);
    Ok(SynthReport {
        cells: sub_blocks.iter().map(|s| s.1).sum(),
        stat,
        script: SynthScript::BySubBlock,
        sub_blocks,
        remembered: Vec::new(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A top with two instances of one tree (`u0`, `u1`, each with a sub-module) and a third
    /// that differs in one character.
    const TOP_V: &str = "module top(clock);\n    top$u0 u0(\n    );\n    top$u1 u1(\n    );\n    top$u2 u2(\n    );\nendmodule // top\n\
        \nmodule top$u0(a);\n    top$u0$add add(\n    );\nendmodule\n\nmodule top$u0$add(a);\nassign a = 1;\nendmodule\n\
        \nmodule top$u1(a);\n    top$u1$add add(\n    );\nendmodule\n\nmodule top$u1$add(a);\nassign a = 1;\nendmodule\n\
        \nmodule top$u2(a);\n    top$u2$add add(\n    );\nendmodule\n\nmodule top$u2$add(a);\nassign a = 0;\nendmodule\n";

    #[test]
    fn a_sub_block_with_the_same_tree_is_a_twin() {
        let modules = sub_blocks(TOP_V);
        assert_eq!(modules, ["top$u0", "top$u1", "top$u2"]);
        assert_eq!(twins(&trees(TOP_V, &modules)), [None, Some(0), None]);
    }

    #[test]
    fn a_twin_counts_its_firsts_cells_and_the_top_leaves_the_instances_out() {
        let modules: Vec<String> = ["top$u0", "top$u1"].map(String::from).into();
        let cells = BTreeMap::from([
            ("top$u0".to_string(), (120, "=== top$u0 ===\n".to_string())),
            ("top".to_string(), (32, "=== top ===\n".to_string())),
        ]);
        let r = report(&modules, &[None, Some(0)], &cells).unwrap();
        assert_eq!(
            r.sub_blocks,
            [
                ("top$u0".to_string(), 120),
                ("top$u1".to_string(), 120),
                ("top".to_string(), 30)
            ]
        );
        assert_eq!(r.cells, 270);
        assert!(r.stat.contains("same module tree as top$u0"), "{}", r.stat);
    }

    /// A top with two sub-blocks Yosys can synthesize.
    const SMALL_V: &str = "module top(a,y0,y1);\ninput [3:0] a;\noutput [3:0] y0;\noutput [3:0] y1;\n    top$u0 u0(\n    .a(a), .y(y0)\n    );\n    top$u1 u1(\n    .a(a), .y(y1)\n    );\nendmodule // top\n\
        \nmodule top$u0(a,y);\ninput [3:0] a;\noutput [3:0] y;\nassign y = a + 4'd1;\nendmodule\n\
        \nmodule top$u1(a,y);\ninput [3:0] a;\noutput [3:0] y;\nassign y = a ^ 4'd5;\nendmodule\n";

    /// The second run on the same Verilog reads every run back; after a change to `u1`, only
    /// `u0`'s run is read back (the glue's key is the whole text). Fails if the memo is not
    /// consulted, or keyed on too little (the changed sub-block read back).
    #[test]
    fn a_second_run_reads_back_the_runs_whose_verilog_is_unchanged() {
        let dir = std::env::temp_dir().join(format!("rtgpu-by-sub-block-{}", std::process::id()));
        let run = |v: &str| {
            crate::sim::cosim::synth_by_sub_block(&dir, v, 2, |_, _, _| {}).expect("yosys")
        };
        let first = run(SMALL_V);
        assert!(first.remembered.is_empty(), "{:?}", first.remembered);
        let second = run(SMALL_V);
        let mut kept = second.remembered.clone();
        kept.sort();
        assert_eq!(kept, ["top", "top$u0", "top$u1"]);
        assert_eq!(
            (second.cells, &second.sub_blocks),
            (first.cells, &first.sub_blocks)
        );
        let changed = run(&SMALL_V.replace("a ^ 4'd5", "a & 4'd5"));
        assert_eq!(changed.remembered, ["top$u0"]);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn the_glue_runs_with_every_sub_block_black_boxed() {
        let s = glue_script(&sub_blocks(TOP_V));
        assert!(s.contains("blackbox top$u0 top$u1 top$u2;"), "{s}");
        assert!(sub_block_script("top$u0").contains("-noshare -noabc -top top$u0;"));
    }
}
