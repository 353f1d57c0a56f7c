//! Cosimulation end to end: Icarus replays the Rust run's vectors and says TESTBENCH OK; the
//! checker reports a wrong expected vector and a mutated Verilog line; Verilator lint and Yosys
//! synthesis pass. These tests need iverilog, verilator and yosys (scripts/setup installs them).

use rtgpu_testbench::sim::cosim::{self, SimOutcome};
use rtgpu_testbench::sim::ports::PortVectors;
use rtgpu_testbench::sim::signals::Role;
use rtgpu_testbench::tb::{self, BlockTb, TbOptions};
use std::path::PathBuf;

fn workdir(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join("cosim")
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn vectors(t: &dyn BlockTb, cycles: u64) -> PortVectors {
    let opts = TbOptions {
        record_ports: true,
        cycles,
        seed: 7,
        ..TbOptions::default()
    };
    t.run(&opts)
        .expect("testbench passes")
        .vectors
        .expect("vectors recorded")
}

/// Fails with the tool's message (e.g. "run scripts/setup") instead of passing silently.
fn ok<T>(r: Result<T, cosim::ToolError>) -> T {
    r.unwrap_or_else(|e| panic!("{e}"))
}

fn cosimulate(t: &dyn BlockTb) {
    if let Some(why) = t.not_cosimulated_in_ci() {
        eprintln!("{}: not cosimulated here ({why})", t.name());
        return;
    }
    let v = vectors(t, 500);
    let verilog = t.verilog().unwrap();
    let dir = workdir(t.name());
    match ok(cosim::replay(&dir, &verilog, &v)) {
        SimOutcome::Ok(line) => {
            // (A block of several clocks is replayed per instant.)
            let rows = if v.per_instant { "instants" } else { "cycles" };
            let n = format!("{} {rows}", v.cycles());
            assert!(line.contains(&n), "{line}");
        }
        other => panic!("{}: {other:?} (files in {})", t.name(), dir.display()),
    }
    let kinds = t.lint_kind_waivers();
    let lint = ok(cosim::lint_kinds(&dir, &verilog, t.lint_waivers(), kinds));
    assert!(lint.clean, "{}: {:?}", t.name(), lint.findings);
    if let Some(why) = t.not_synthesized_in_ci() {
        eprintln!("{}: not synthesized here ({why})", t.name());
        return;
    }
    if let Some(other) = t.synthesized_by() {
        // Synthesized with `other`: the same block, so the same ports by name.
        let other = tb::find(other).unwrap().verilog().unwrap();
        assert_eq!(port_names(&other), port_names(&verilog), "{}", t.name());
        return;
    }
    let synth = ok(cosim::synth_with(&dir, &verilog, t.synth_script()));
    assert!(synth.cells > 0, "{}: {}", t.name(), synth.stat);
}

/// The names of the top module's ports (`exec$3` counted as `exec`: the number of elements
/// of a port array is the block's size).
fn port_names(verilog: &str) -> std::collections::BTreeSet<String> {
    let top = verilog.split("endmodule").next().unwrap_or_default();
    top.lines()
        .map(str::trim)
        .filter(|l| l.starts_with("input") || l.starts_with("output"))
        .filter_map(|l| l.trim_end_matches([';', ',']).split_whitespace().last())
        .map(|n| n.split('$').next().unwrap_or(n).to_string())
        .collect()
}

/// Every block, on every core (Yosys takes a minute or two on the LDS and the contexts).
#[test]
fn every_block_cosimulates_lints_and_synthesizes() {
    // (The blocks listed last are the larger ones: start with them.)
    let blocks: Vec<&dyn BlockTb> = tb::all().into_iter().rev().collect();
    let next = std::sync::atomic::AtomicUsize::new(0);
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    std::thread::scope(|s| {
        for _ in 0..cores {
            // (rust-hdl builds a block on the stack: the LDS takes more than a thread's default.)
            std::thread::Builder::new()
                .stack_size(rtgpu_testbench::sim::twin::RTL_STACK)
                .spawn_scoped(s, || loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some(t) = blocks.get(i) else { break };
                    let start = std::time::Instant::now();
                    cosimulate(*t);
                    // (Where CI's time goes: `-- --nocapture` shows it.)
                    eprintln!("{}: {:.1} s", t.name(), start.elapsed().as_secs_f64());
                })
                .expect("a cosimulation thread starts");
        }
    });
}

#[test]
fn the_vectors_record_the_decode_ports_every_cycle() {
    let v = vectors(tb::find("decode").unwrap(), 300);
    assert_eq!(v.cycles(), 300);
    let names = |role| {
        v.columns(role)
            .map(|(_, p)| p.name.clone())
            .collect::<Vec<_>>()
    };
    assert_eq!(names(Role::Input), ["reset", "insn", "valid"]);
    assert_eq!(
        names(Role::Output),
        [
            "out_valid",
            "is_sopc",
            "is_sopp",
            "is_split",
            "is_merge",
            "ssrc0",
            "ssrc1",
            "illegal"
        ]
    );
    assert_eq!(v.clocks.len(), 1);
    // Cycle 1 presents `split vcc_lo, vcc_hi`; cycle 2 shows it decoded.
    let col = |name: &str| v.ports.iter().position(|p| p.name == name).unwrap();
    let insn = rtgpu_testbench::sim::signals::to_u64(&v.rows[1][col("insn")]);
    assert_eq!(insn, 0xBF7F_6B6A);
    assert!(v.rows[2][col("is_split")][0]);
}

#[test]
fn a_wrong_expected_vector_is_reported_with_cycle_and_signal() {
    let t = tb::find("decode").unwrap();
    let mut v = vectors(t, 100);
    let col = v.ports.iter().position(|p| p.name == "is_split").unwrap();
    let flipped = !v.rows[2][col][0];
    v.rows[2][col].set(0, flipped);
    let dir = workdir("decode_bad_vector");
    let outcome = ok(cosim::replay(&dir, &t.verilog().unwrap(), &v));
    assert_eq!(
        outcome,
        SimOutcome::Mismatch {
            cycle: 2,
            signal: "is_split".into(),
            expected: "0".into(),
            got: "1".into()
        }
    );
    assert!(
        dir.join("cosim.vcd").is_file(),
        "Icarus' waves are kept for a person to open"
    );
}

#[test]
fn a_mutated_verilog_line_is_reported() {
    let t = tb::find("decode").unwrap();
    let v = vectors(t, 100);
    let verilog = t.verilog().unwrap();
    // Change the split opcode in the Verilog only: cycle 2's `split vcc_lo, vcc_hi` is missed.
    let mutated = verilog.replacen("split_opc16 = 16'hbf7f", "split_opc16 = 16'hbf7e", 1);
    assert_ne!(mutated, verilog, "the constant to mutate is in the Verilog");
    let dir = workdir("decode_mutant");
    match ok(cosim::replay(&dir, &mutated, &v)) {
        SimOutcome::Mismatch { cycle, signal, .. } => {
            assert_eq!((cycle, signal.as_str()), (2, "is_split"))
        }
        SimOutcome::Ok(line) => panic!("the mutant passed: {line}"),
    }
}

/// The SGPR file's synthesis description (`ifdef SYNTHESIS`) replayed too: a mutation there
/// only (read port 0's `lo` with bit 0 flipped, every word) is caught by the second replay.
#[test]
fn a_mutated_synthesis_description_is_reported() {
    let t = tb::find("ctx").unwrap();
    let v = vectors(t, 1000);
    let verilog = t.verilog().unwrap();
    assert!(
        verilog.contains("`ifdef SYNTHESIS"),
        "the SGPR file has two descriptions"
    );
    let mutated = verilog.replace("lo$0 = ({32{r0_k", "lo$0 = 32'h1 ^ ({32{r0_k");
    assert_ne!(mutated, verilog, "the line to mutate is in the Verilog");
    let dir = workdir("ctx_synthesis_mutant");
    match ok(cosim::replay(&dir, &mutated, &v)) {
        SimOutcome::Mismatch { signal, .. } => assert_eq!(signal, "rdata$0"),
        SimOutcome::Ok(line) => panic!("the mutant passed: {line}"),
    }
}

#[test]
fn an_unknown_output_is_a_mismatch() {
    let t = tb::find("decode").unwrap();
    let v = vectors(t, 50);
    let verilog = t.verilog().unwrap();
    let mutated = verilog.replacen("ssrc1 = word$q[(32'h8)+:(8)];", "ssrc1 = 8'bx;", 1);
    assert_ne!(mutated, verilog, "the line to mutate is in the Verilog");
    match ok(cosim::replay(&workdir("decode_x"), &mutated, &v)) {
        SimOutcome::Mismatch {
            cycle, signal, got, ..
        } => assert_eq!((cycle, signal.as_str(), got.as_str()), (0, "ssrc1", "xx")),
        SimOutcome::Ok(line) => panic!("an X output passed: {line}"),
    }
}

#[test]
fn a_vector_file_that_does_not_load_fails_the_run() {
    let t = tb::find("counter").unwrap();
    let v = vectors(t, 20);
    let dir = workdir("counter_missing_file");
    cosim::write_files(&dir, &t.verilog().unwrap(), &v).unwrap();
    std::fs::remove_file(dir.join("col0.hex")).unwrap();
    let err = cosim::tools::icarus(&dir).unwrap_err();
    assert!(
        matches!(err, cosim::ToolError::Failed { tool: "vvp", .. }),
        "{err}"
    );
}

#[test]
fn an_empty_recording_is_an_error_not_a_pass() {
    let t = tb::find("counter").unwrap();
    let empty = PortVectors {
        rows: Vec::new(),
        ..vectors(t, 1)
    };
    let err = cosim::replay(&workdir("empty"), &t.verilog().unwrap(), &empty).unwrap_err();
    assert!(matches!(err, cosim::ToolError::NoVectors));
}

/// `SynthScript::BySubBlock` (what `rtgpu synth cu` runs) on the SALU: each of its sub-blocks
/// (adder, logic unit, multiplier, shifter, decode) is synthesized and counted, the top's own
/// registers and glue too, and the parts add up to about the flat synthesis of the same
/// Verilog (no optimisation crosses a sub-block's ports, and the runs leave ABC out: within
/// −5 % and +25 %: 7,012 without ABC against 7,125 with it; leaving the top's glue out,
/// 17 % of the cells, fails it).
#[test]
fn cells_per_sub_block_add_up_to_the_total() {
    let t = tb::find("salu").unwrap();
    let verilog = t.verilog().unwrap();
    let dir = workdir("salu_by_sub_block");
    let r = ok(cosim::synth_with(
        &dir,
        &verilog,
        cosim::SynthScript::BySubBlock,
    ));
    let names: Vec<&str> = r.sub_blocks.iter().map(|(m, _)| m.as_str()).collect();
    assert!(
        names.len() >= 4 && names.last() == Some(&"top"),
        "{names:?}"
    );
    assert!(
        r.sub_blocks.iter().all(|(_, n)| *n > 0),
        "{:?}",
        r.sub_blocks
    );
    let sum: u64 = r.sub_blocks.iter().map(|(_, n)| n).sum();
    assert_eq!(sum, r.cells, "{}", r.stat);
    let flat = ok(cosim::synth_with(
        &workdir("salu_flat"),
        &verilog,
        cosim::SynthScript::FlatNoShare,
    ));
    assert!(
        (flat.cells * 19 / 20..=flat.cells * 5 / 4).contains(&r.cells),
        "{} cells by sub-block, {} flat: {:?}",
        r.cells,
        flat.cells,
        r.sub_blocks
    );
}
