//! `rtgpu bench`: simulated cycles/s of the harness (VCD off/on), rust-hdl's Simulation and
//! Verilator -O3.

use crate::common::{print_json_or, Fail};
use rtgpu_hw::isa::{InsnDecode, PwsDecode};
use rtgpu_testbench::bench::{self, BenchRow, PwsS3};
use rtgpu_testbench::paths;
use rtgpu_testbench::tb::Counter32;
use std::fmt::Write;
use std::path::Path;

/// The arguments of `rtgpu bench`.
#[derive(clap::Args)]
pub struct BenchArgs {
    /// Cycles for the harness runs.
    #[arg(long, default_value_t = 2_000_000)]
    cycles: u64,
    /// Cycles for rust-hdl's threaded Simulation (slow).
    #[arg(long, default_value_t = 20_000)]
    sim_cycles: u64,
    /// Cycles for Verilator.
    #[arg(long, default_value_t = 50_000_000)]
    verilator_cycles: u64,
    /// Skip Verilator.
    #[arg(long)]
    no_verilator: bool,
    /// Print JSON.
    #[arg(long)]
    json: bool,
}

/// Runs every benchmark (files under target/bench) and prints the rows, after the DRAM LID
/// table's time in text.
pub fn run(a: &BenchArgs) -> Result<(), Fail> {
    let dir = paths::repo_root().join("target").join("bench");
    let mut rows = in_process(a.cycles, a.sim_cycles, &dir)?;
    if !a.no_verilator {
        rows.extend(verilator(a.verilator_cycles, &dir)?);
    }
    let sweep = bench::dram_sweep()?;
    print_json_or(a.json, &rows, |rows| text(sweep, rows))
}

/// The harness, rust-hdl Simulation, DRAM and IDU runs; VCDs go to `dir`.
fn in_process(cycles: u64, sim_cycles: u64, dir: &Path) -> Result<Vec<BenchRow>, Fail> {
    Ok(vec![
        bench::harness::<Counter32>(cycles, None)?,
        bench::harness::<Counter32>(cycles / 4, Some(&dir.join("counter.vcd")))?,
        bench::rust_hdl_sim::<Counter32>(sim_cycles)?,
        bench::harness::<PwsDecode>(cycles, None)?,
        bench::harness::<PwsDecode>(cycles / 4, Some(&dir.join("decode.vcd")))?,
        bench::rust_hdl_sim::<PwsDecode>(sim_cycles)?,
        bench::harness::<InsnDecode>(cycles / 4, None)?,
        bench::harness::<InsnDecode>(cycles / 16, Some(&dir.join("insn.vcd")))?,
        bench::harness::<PwsS3>(cycles / 64, None)?,
        bench::harness::<PwsS3>(cycles / 256, Some(&dir.join("pws-s3.vcd")))?,
        bench::dram(cycles / 64, true)?,
        bench::dram(cycles * 2, false)?,
        bench::idu(cycles as usize / 64, true)?,
        bench::idu(cycles as usize * 2, false)?,
    ])
}

/// The Verilator runs of `n` cycles each, built under `dir`.
fn verilator(n: u64, dir: &Path) -> Result<Vec<BenchRow>, Fail> {
    Ok(vec![
        bench::verilator::<Counter32>(n, &dir.join("vl_counter"))?,
        bench::verilator::<PwsDecode>(n, &dir.join("vl_decode"))?,
        bench::verilator::<InsnDecode>(n, &dir.join("vl_insn"))?,
        bench::verilator::<PwsS3>(n, &dir.join("vl_pws_s3"))?,
    ])
}

/// The text report: the DRAM LID table's `sweep` seconds, then one line per row.
fn text(sweep: f64, rows: &[BenchRow]) -> String {
    let mut s = format!("dram LID table (128 sizes x 4096 alignments, all cores): {sweep:.2} s\n");
    let _ = writeln!(
        s,
        "{:<10} {:<20} {:>12} {:>10} {:>16}",
        "block", "engine", "cycles", "seconds", "cycles/s"
    );
    for r in rows {
        let _ = writeln!(
            s,
            "{:<10} {:<20} {:>12} {:>10.3} {:>16.0}",
            r.block, r.engine, r.cycles, r.seconds, r.cycles_per_s
        );
    }
    s
}
