//! `rtgpu bench`: simulated cycles/s of the harness (VCD off/on), rust-hdl's Simulation and
//! Verilator -O3.

use crate::common::{print_json_or, progress, Fail};
use rtgpu_hw::isa::{InsnDecode, PwsDecode};
use rtgpu_testbench::bench::engines::EngineCycles;
use rtgpu_testbench::bench::{self, BenchRow, PwsS3};
use rtgpu_testbench::paths;
use rtgpu_testbench::tb;
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
    /// Cycles of the engine table's Verilator runs (heavy blocks take a tenth).
    #[arg(long, default_value_t = 5_000_000)]
    verilator_cycles: u64,
    /// Cycles of the engine table's harness runs (heavy blocks take a tenth).
    #[arg(long, default_value_t = 200_000)]
    harness_cycles: u64,
    /// Only the engine table (harness, Verilator from Rust, pure C++ Verilator).
    #[arg(long)]
    engines_only: bool,
    /// Skip the engine table (needs verilator and g++).
    #[arg(long)]
    no_verilator: bool,
    /// Only the behavioural GPU's speed on whole launches (fig2 and vector_add, fixed memory
    /// and the hierarchy), idle-cycle skipping off/on × VCD off/on.
    #[arg(long)]
    system: bool,
    /// Only the RTL system's speed (the compute unit's RTL top behind the register map,
    /// Verilated) on vector_add and fig2_divergent without splitting, through the driver,
    /// beside the behavioural GPU of the same shape on the same launches.
    #[arg(long)]
    cu_rtl: bool,
    /// Work-items of the `--system` and `--cu-rtl` launches (kernels read from firmware/kernels under the
    /// current directory).
    #[arg(long, default_value_t = 65536, value_parser = clap::value_parser!(u32).range(256..=4_194_304))]
    grid: u32,
    /// The engine table's blocks, comma-separated (default: all eight).
    #[arg(long, value_delimiter = ',', value_name = "LIST")]
    blocks: Vec<String>,
    /// Print JSON.
    #[arg(long)]
    json: bool,
}

/// Runs every benchmark (files under target/bench) and prints the rows, after the DRAM LID
/// table's time in text.
pub fn run(a: &BenchArgs) -> Result<(), Fail> {
    for (name, v, most) in [
        ("cycles", a.cycles, 1_000_000_000),
        ("sim-cycles", a.sim_cycles, 10_000_000),
        ("verilator-cycles", a.verilator_cycles, 10_000_000_000),
        ("harness-cycles", a.harness_cycles, 1_000_000_000),
    ] {
        if !(1..=most).contains(&v) {
            return Err(Fail(2, format!("--{name} {v} is outside 1..={most}")));
        }
    }
    let dir = paths::target_dir().join("bench");
    if a.system {
        return system(a, &dir);
    }
    if a.cu_rtl {
        return cu_rtl(a);
    }
    let mut rows = Vec::new();
    if !a.engines_only {
        rows = in_process(a.cycles, a.sim_cycles, &dir)?;
    }
    let n = EngineCycles {
        harness: a.harness_cycles,
        verilator: a.verilator_cycles,
    };
    let engines = if a.no_verilator {
        Vec::new()
    } else {
        engine_table(n, &a.blocks, &dir)?
    };
    let sweep = (!a.engines_only).then(bench::dram_sweep).transpose()?;
    rows.extend(engines.iter().cloned());
    print_json_or(a.json, &rows, |rows| {
        let old: Vec<BenchRow> = rows[..rows.len() - engines.len()].to_vec();
        text(sweep, &old) + &engines_text(&engines)
    })
}

/// `--system`: the launch table (its VCDs under `dir`).
fn system(a: &BenchArgs, dir: &Path) -> Result<(), Fail> {
    use rtgpu_testbench::bench::system;
    std::fs::create_dir_all(dir).map_err(|e| Fail(1, format!("{}: {e}", dir.display())))?;
    let kernels = paths::kernel_dir(None).map_err(Fail::coded)?;
    let bar = progress(4 * system::WORKLOADS.len() as u64, "system");
    let rows = system::table(&kernels, a.grid, dir, || bar.inc(1)).map_err(|e| Fail(1, e))?;
    bar.finish_and_clear();
    print_json_or(a.json, &rows, |rows| system::text(rows))
}

/// `--cu-rtl`: the RTL system beside the behavioural GPU.
fn cu_rtl(a: &BenchArgs) -> Result<(), Fail> {
    use rtgpu_testbench::bench::cu_rtl;
    let kernels = paths::kernel_dir(None).map_err(Fail::coded)?;
    let bar = progress(cu_rtl::KERNELS.len() as u64, "cu-rtl");
    let mut rows = Vec::new();
    for k in cu_rtl::KERNELS {
        rows.extend(cu_rtl::measure(&kernels, k, a.grid).map_err(|(c, e)| Fail(c, e))?);
        bar.inc(1);
    }
    bar.finish_and_clear();
    print_json_or(a.json, &rows, |rows| cu_rtl::text(rows))
}

/// The blocks of the engine table (testbench names) and the share of the cycles each runs
/// (the heavy blocks a tenth).
const ENGINE_BLOCKS: [(&str, u64); 8] = [
    ("counter", 1),
    ("decode", 1),
    ("insn", 1),
    ("pws-s3", 10),
    ("dram-mixed", 10),
    ("reorder-example", 10),
    ("l1-cache", 10),
    ("idu-fig43", 10),
];

/// Harness, Verilator from Rust and pure C++ Verilator, VCD off and on, per block of
/// `only` (all of them when empty).
fn engine_table(n: EngineCycles, only: &[String], dir: &Path) -> Result<Vec<BenchRow>, Fail> {
    if let Some(b) = only
        .iter()
        .find(|b| !ENGINE_BLOCKS.iter().any(|(n, _)| n == b))
    {
        let names: Vec<&str> = ENGINE_BLOCKS.iter().map(|(n, _)| *n).collect();
        return Err(Fail(
            2,
            format!(
                "--blocks: no engine benchmark {b:?} (blocks: {})",
                names.join(", ")
            ),
        ));
    }
    let chosen: Vec<(&str, u64)> = ENGINE_BLOCKS
        .into_iter()
        .filter(|(name, _)| only.is_empty() || only.iter().any(|b| b == name))
        .collect();
    let bar = progress(chosen.len() as u64, "engines");
    let mut rows = Vec::new();
    for (name, share) in chosen {
        bar.set_message(name);
        let n = EngineCycles {
            harness: n.harness / share,
            verilator: n.verilator / share,
        };
        let tb = tb::find(name)?;
        let r = tb
            .bench(n, dir)
            .ok_or_else(|| Fail(1, format!("{name}: no engine benchmark")))??;
        rows.extend(r);
        bar.inc(1);
    }
    bar.finish_and_clear();
    Ok(rows)
}

/// The engine table: cycles/s per engine, Verilator-from-Rust against pure C++ and against
/// the harness.
fn engines_text(rows: &[BenchRow]) -> String {
    let mut s = String::from(
        "\nengines (cycles/s; one recorded stimulus per block, every output word folded and \
         checked equal across engines)\n",
    );
    let _ = writeln!(
        s,
        "{:<16} {:>11} {:>11} {:>11} {:>11} {:>11} {:>11} {:>8} {:>9}",
        "block", "harness", "+vcd", "vl Rust", "+vcd", "vl C++", "+vcd", "Rust/C++", "Rust/hns"
    );
    for block in rows.chunks(6) {
        let c = |i: usize| block[i].cycles_per_s;
        let _ = writeln!(
            s,
            "{:<16} {:>11.0} {:>11.0} {:>11.0} {:>11.0} {:>11.0} {:>11.0} {:>8.2} {:>8.0}x",
            block[0].block,
            c(0),
            c(1),
            c(2),
            c(3),
            c(4),
            c(5),
            c(2) / c(4),
            c(2) / c(0)
        );
    }
    s
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

/// The text report: the DRAM LID table's `sweep` seconds, then one line per row; a harness
/// run's speed per CPU second too, and a recording's cost: the same block's harness speed
/// over its speed with the VCD, per CPU second.
fn text(sweep: Option<f64>, rows: &[BenchRow]) -> String {
    let Some(sweep) = sweep else {
        return String::new();
    };
    let mut s = format!("dram LID table (128 sizes x 4096 alignments, all cores): {sweep:.2} s\n");
    let _ = writeln!(
        s,
        "{:<10} {:<20} {:>12} {:>10} {:>16} {:>16} {:>8}",
        "block", "engine", "cycles", "seconds", "cycles/s", "cycles/cpu-s", "vcd cost"
    );
    for (i, r) in rows.iter().enumerate() {
        let cpu = r.cycles_per_cpu_s.map_or("-".into(), |c| format!("{c:.0}"));
        let _ = writeln!(
            s,
            "{:<10} {:<20} {:>12} {:>10.3} {:>16.0} {:>16} {:>8}",
            r.block,
            r.engine,
            r.cycles,
            r.seconds,
            r.cycles_per_s,
            cpu,
            vcd_cost(&rows[..i], r).map_or(String::new(), |x| format!("{x:.2}x"))
        );
    }
    s
}

/// For a `harness+vcd` row: the speed of the block's last `harness` row before it over its
/// own, per CPU second.
fn vcd_cost(before: &[BenchRow], r: &BenchRow) -> Option<f64> {
    let base = before
        .iter()
        .rev()
        .find(|b| b.block == r.block && b.engine == "harness")?;
    (r.engine == "harness+vcd").then_some(base.cycles_per_cpu_s? / r.cycles_per_cpu_s?.max(1e-12))
}
