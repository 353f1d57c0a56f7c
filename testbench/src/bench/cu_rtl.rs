//! `rtgpu bench --cu-rtl`: the RTL system (the register map in front of the compute unit's RTL
//! top, Verilated) running whole launches through the firmware driver, beside the behavioural
//! GPU of the same shape on the same launches.
//!
//! Only the launch is timed, from the doorbell to the driver seeing it done: loading the image
//! and reading the buffers back are one bus access per dword, which on the RTL system are
//! more cycles than the launch itself at large grids.

use crate::cu::rtl_run::{self, RtlLaunch};
use crate::cu::RunOpts;
use crate::sim::twin::on_rtl_stack;
use clap::Parser;
use rtgpu_firmware::driver::{Bus, Driver};
use rtgpu_hw::gpu::Gpu;
use serde::Serialize;
use std::path::Path;
use std::time::Instant;

/// The kernels measured (in `firmware/kernels`), without splitting.
pub const KERNELS: [&str; 2] = ["vector_add.s", "fig2_divergent.s"];

/// Cycles a launch may take.
const TIMEOUT: u64 = 100_000_000;

/// One launch on one engine.
#[derive(Clone, Debug, Serialize)]
pub struct CuRtlRow {
    /// Kernel file name.
    pub kernel: String,
    /// `behavioural` or `rtl (verilator)`.
    pub engine: &'static str,
    /// Work-items.
    pub grid: u32,
    /// The launch's cycles (the `cycles` counter).
    pub cycles: u64,
    /// Wall-clock seconds of the launch (doorbell to done).
    pub seconds: f64,
    /// Simulated cycles per second.
    pub cycles_per_s: f64,
}

#[derive(Parser)]
struct Args {
    #[command(flatten)]
    opts: RunOpts,
}

/// Loads launch `l` through `drv`, then runs it: its cycles and the seconds it took.
fn timed<B: Bus>(drv: &mut Driver<B>, l: &RtlLaunch) -> Result<(u64, f64), String> {
    let e = |e: rtgpu_firmware::driver::DriverError| e.to_string();
    drv.load_code(&l.code).map_err(e)?;
    drv.write_mem(0, &l.image.mem).map_err(e)?;
    let t0 = Instant::now();
    drv.launch(&l.desc).map_err(e)?;
    drv.wait(TIMEOUT, 64).map_err(e)?;
    let seconds = t0.elapsed().as_secs_f64();
    Ok((drv.counters().map_err(e)?.get("cycles"), seconds))
}

/// The rows of `kernel` (in `kernels`) at `grid`: the behavioural GPU of the RTL system's
/// shape, then the RTL system (its Verilator model built or found in the cache first). An
/// error carries its exit code: 2 for a launch the RTL system refuses, else 1.
pub fn measure(kernels: &Path, kernel: &str, grid: u32) -> Result<[CuRtlRow; 2], (u8, String)> {
    let l = launch(kernels, kernel, grid)?;
    rows(kernel, grid, &l).map_err(|e| (1, e))
}

/// The checked launch of `kernel` at `grid`, as `rtgpu run --top rtl` would run it.
fn launch(kernels: &Path, kernel: &str, grid: u32) -> Result<RtlLaunch, (u8, String)> {
    let path = kernels.join(kernel);
    let grid_arg = grid.to_string();
    let argv = [
        "run",
        path.to_str().ok_or((2, "a non-UTF-8 path".to_string()))?,
        "--top",
        "rtl",
        "--grid",
        &grid_arg,
    ];
    let opts = Args::try_parse_from(argv)
        .map_err(|e| (2, e.to_string()))?
        .opts;
    rtl_run::prepare(&opts).map_err(|r| r.coded())
}

/// Launch `l` on both sides: the rows, which must agree on the cycles.
fn rows(kernel: &str, grid: u32, l: &RtlLaunch) -> Result<[CuRtlRow; 2], String> {
    let mut drv = Driver::new(Gpu::new(l.cfg)?).map_err(|e| e.to_string())?;
    let behavioural = timed(&mut drv, l)?;
    let rtl = on_rtl_stack(|| {
        let bus = rtl_run::system_bus::<rtgpu_hw::cu_system::CuSystemSim>()?;
        timed(&mut Driver::new(bus).map_err(|e| e.to_string())?, l)
    })?;
    if behavioural.0 != rtl.0 {
        return Err(format!(
            "{kernel}: the RTL system took {} cycles, the behavioural GPU {}",
            rtl.0, behavioural.0
        ));
    }
    let row = |engine, (cycles, seconds): (u64, f64)| CuRtlRow {
        kernel: kernel.to_string(),
        engine,
        grid,
        cycles,
        seconds,
        cycles_per_s: cycles as f64 / seconds.max(1e-9),
    };
    Ok([row("behavioural", behavioural), row("rtl (verilator)", rtl)])
}

/// The table as text, the RTL's speed as a fraction of the behavioural model's.
pub fn text(rows: &[CuRtlRow]) -> String {
    let mut s = format!(
        "{:<18} {:<16} {:>8} {:>10} {:>9} {:>12} {:>8}\n",
        "kernel", "engine", "grid", "cycles", "seconds", "cycles/s", "×behav."
    );
    for pair in rows.chunks(2) {
        let base = pair[0].cycles_per_s.max(1e-9);
        for r in pair {
            s += &format!(
                "{:<18} {:<16} {:>8} {:>10} {:>9.3} {:>12.0} {:>8.4}\n",
                r.kernel,
                r.engine,
                r.grid,
                r.cycles,
                r.seconds,
                r.cycles_per_s,
                r.cycles_per_s / base
            );
        }
    }
    s
}
