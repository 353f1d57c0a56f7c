//! `rtgpu synth`: a block through Yosys, and its cell count; `rtgpu synth cu`: the compute
//! unit's RTL top with the cells of each sub-block (a Yosys run per sub-block, in parallel).

use crate::common::{find, print_json_or, progress, spinner, Fail};
use rtgpu_testbench::paths;
use rtgpu_testbench::sim::cosim::{self, SynthReport};
use serde::Serialize;
use std::fmt::Write as _;

/// The name that synthesizes the compute unit's RTL top per sub-block.
const CU: &str = "cu";

/// The testbench whose Verilog `rtgpu synth cu` synthesizes.
const CU_TOP: &str = "cu_top";

/// The arguments of `rtgpu synth`.
#[derive(clap::Args)]
pub struct SynthArgs {
    /// Block name (see `rtgpu list`), or `cu`: the compute unit's RTL top (`cu_top`) with the
    /// cells of each sub-block.
    name: String,
    /// Print the whole `stat` report.
    #[arg(long)]
    stat: bool,
    /// Print the result as JSON.
    #[arg(long)]
    json: bool,
    /// Parallel Yosys runs for `cu` (default: the available cores). The largest (the
    /// four-unit top's SGPR file) takes above 13 GB.
    #[arg(long)]
    jobs: Option<usize>,
}

/// One sub-block's cells.
#[derive(Serialize)]
struct SubBlock {
    /// The instance in the top (`top`: the top's own registers and glue).
    name: String,
    /// Its cells, its own sub-blocks included.
    cells: u64,
}

/// What `rtgpu synth` prints.
#[derive(Serialize)]
struct SynthOut {
    /// The block.
    block: String,
    /// The Yosys `synth` command.
    script: &'static str,
    /// The cells of the whole design.
    cells: u64,
    /// Per sub-block (`cu` only).
    sub_blocks: Vec<SubBlock>,
    /// The runs (`cu` only: sub-blocks, or `top`) whose cells were read back from an earlier
    /// run on the same Verilog (kept in the synthesis directory's `yosys-memo/`).
    remembered: Vec<String>,
    /// Yosys's wall-clock time.
    seconds: f64,
}

/// Synthesizes the block's Verilog in its cosimulation directory and prints the cell count
/// (after the `stat` report if asked).
pub fn run(a: &SynthArgs) -> Result<(), Fail> {
    let t = find(if a.name == CU { CU_TOP } else { &a.name })?;
    let verilog = t.verilog()?;
    let dir = paths::cosim_dir(&a.name);
    let clock = std::time::Instant::now();
    let report = if a.name == CU {
        let jobs = rtgpu_testbench::cu::sweep::jobs(a.jobs).map_err(|e| Fail(2, e))?;
        let bar = progress(0, "yosys");
        let report = cosim::synth_by_sub_block(&dir, &verilog, jobs, |done, total, name| {
            bar.set_length(total as u64);
            bar.set_position(done as u64);
            bar.set_message(name.to_string());
        });
        bar.finish_and_clear();
        report
    } else {
        let bar = spinner(&format!("yosys: {}", a.name));
        let report = cosim::synth_with(&dir, &verilog, t.synth_script());
        bar.finish_and_clear();
        report
    }?;
    if a.stat && !a.json {
        println!("{}", report.stat);
    }
    let out = summary(&a.name, &report, clock.elapsed().as_secs_f64());
    print_json_or(a.json, &out, text)
}

fn summary(block: &str, r: &SynthReport, seconds: f64) -> SynthOut {
    let sub_blocks = r
        .sub_blocks
        .iter()
        .map(|(m, cells)| SubBlock {
            name: short(m).to_string(),
            cells: *cells,
        })
        .collect();
    SynthOut {
        block: block.to_string(),
        script: r.script.synth_command(),
        cells: r.cells,
        sub_blocks,
        remembered: r.remembered.iter().map(|m| short(m).to_string()).collect(),
        seconds,
    }
}

/// A sub-block's instance name (its module without the `top$` prefix).
fn short(module: &str) -> &str {
    module.strip_prefix("top$").unwrap_or(module)
}

fn text(o: &SynthOut) -> String {
    let mut s = String::new();
    for b in &o.sub_blocks {
        let name = match b.name.as_str() {
            "top" => "(the top's registers and glue)",
            n => n,
        };
        let _ = writeln!(s, "  {name:<32} {:>9} cells", b.cells);
    }
    let _ = writeln!(
        s,
        "{}: yosys {}: {} cells ({:.0} s)",
        o.block, o.script, o.cells, o.seconds
    );
    if !o.remembered.is_empty() {
        let _ = writeln!(
            s,
            "  (read back from earlier runs on the same Verilog: {}; delete {}/ to run them again)",
            o.remembered.join(", "),
            cosim::synth_memo::MEMO_DIR
        );
    }
    s
}
