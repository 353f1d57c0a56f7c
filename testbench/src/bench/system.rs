//! `rtgpu bench --system`: the behavioural GPU's speed on whole launches, side by side with
//! idle-cycle skipping on and off and the waveform off and on.

use crate::cu::{run, RunOpts};
use clap::Parser;
use serde::Serialize;
use std::path::Path;

/// The launches measured: kernel (in `firmware/kernels`), its run arguments.
pub const WORKLOADS: [(&str, &[&str]); 4] = [
    ("fig2_divergent.s", &["--mode", "pws", "--s", "1"]),
    (
        "fig2_divergent.s",
        &["--mode", "pws", "--s", "1", "--memory", "hierarchy"],
    ),
    ("vector_add.s", &["--mode", "nosplit"]),
    (
        "vector_add.s",
        &["--mode", "nosplit", "--memory", "hierarchy"],
    ),
];

/// One launch's speed.
#[derive(Clone, Debug, Serialize)]
pub struct SystemRow {
    /// Kernel file name.
    pub kernel: String,
    /// `fixed` or `hierarchy`.
    pub memory: &'static str,
    /// Idle-cycle skipping on.
    pub skip: bool,
    /// A VCD written.
    pub vcd: bool,
    /// Simulated cycles.
    pub cycles: u64,
    /// Wall-clock seconds of the launch.
    pub seconds: f64,
    /// Simulated cycles per second.
    pub cycles_per_s: f64,
    /// Seconds the launch's thread ran on a core (`None` where the system does not tell).
    pub cpu_seconds: Option<f64>,
    /// Simulated cycles per second on a core: per CPU second of the launch's thread, which a
    /// loaded machine does not slow as it slows the wall clock (`None` without CPU time).
    pub cycles_per_cpu_s: Option<f64>,
}

#[derive(Parser)]
struct Args {
    #[command(flatten)]
    opts: RunOpts,
}

/// Runs workload `w` (an index of [`WORKLOADS`]) at `grid` work-items from `kernels`, with
/// skipping and a VCD (written in `dir`) as asked.
pub fn measure(
    kernels: &Path,
    w: usize,
    grid: u32,
    (skip, vcd): (bool, bool),
    dir: &Path,
) -> Result<SystemRow, String> {
    let (kernel, extra) = WORKLOADS[w];
    let path = kernels.join(kernel);
    let wave = dir.join(format!("system-{w}.vcd"));
    let grid = grid.to_string();
    let mut argv: Vec<&str> = vec!["run", path.to_str().ok_or("a non-UTF-8 path")?];
    argv.extend_from_slice(extra);
    argv.extend(["--grid", &grid, "--bench"]);
    if !skip {
        argv.push("--no-skip");
    }
    let wave_arg = wave.to_str().ok_or("a non-UTF-8 path")?;
    if vcd {
        argv.extend(["--vcd", wave_arg]);
    }
    let opts = Args::try_parse_from(argv).map_err(|e| e.to_string())?.opts;
    let r = run(&opts).map_err(|e| e.1)?;
    let speed = r.speed.ok_or("no speed measured")?;
    Ok(SystemRow {
        kernel: kernel.to_string(),
        memory: if extra.contains(&"hierarchy") {
            "hierarchy"
        } else {
            "fixed"
        },
        skip,
        vcd,
        cycles: r.perf.get("cycles"),
        seconds: speed.seconds,
        cycles_per_s: speed.cycles_per_second,
        cpu_seconds: speed.cpu_seconds,
        cycles_per_cpu_s: speed
            .cpu_seconds
            .map(|c| r.perf.get("cycles") as f64 / c.max(1e-9)),
    })
}

/// The table: per workload, skipping off/on × VCD off/on (VCD files left in `dir`).
pub fn table(
    kernels: &Path,
    grid: u32,
    dir: &Path,
    mut tick: impl FnMut(),
) -> Result<Vec<SystemRow>, String> {
    let mut rows = Vec::new();
    for w in 0..WORKLOADS.len() {
        for variant in [(false, false), (true, false), (false, true), (true, true)] {
            rows.push(measure(kernels, w, grid, variant, dir)?);
            tick();
        }
    }
    Ok(rows)
}

/// The table as text: one line per workload and variant, with the speed relative to the
/// same launch without skipping and without a waveform; then the same per CPU second of the
/// launch's thread (the speed on one core when other processes share the machine).
pub fn text(rows: &[SystemRow]) -> String {
    let mut s = format!(
        "{:<18} {:<9} {:<5} {:<4} {:>10} {:>9} {:>12} {:>6} {:>13} {:>6}\n",
        "kernel",
        "memory",
        "skip",
        "vcd",
        "cycles",
        "seconds",
        "cycles/s",
        "×base",
        "cycles/cpu-s",
        "×base"
    );
    for chunk in rows.chunks(4) {
        let base = chunk[0].cycles_per_s.max(1e-9);
        let cpu_base = chunk[0].cycles_per_cpu_s.unwrap_or(0.0).max(1e-9);
        for r in chunk {
            let cpu = r.cycles_per_cpu_s.unwrap_or(0.0);
            s += &format!(
                "{:<18} {:<9} {:<5} {:<4} {:>10} {:>9.3} {:>12.0} {:>6.2} {:>13.0} {:>6.2}\n",
                r.kernel,
                r.memory,
                if r.skip { "on" } else { "off" },
                if r.vcd { "on" } else { "off" },
                r.cycles,
                r.seconds,
                r.cycles_per_s,
                r.cycles_per_s / base,
                cpu,
                cpu / cpu_base
            );
        }
    }
    s
}
