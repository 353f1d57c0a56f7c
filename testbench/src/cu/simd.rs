//! What a Sim-D launch measured ([`SimdSummary`]): its phases, the tile requests and the DRAM
//! data-bus use, from the compute unit's Sim-D state after the run; and a launch with its
//! oracles ([`run_simd`]).

use super::system::check_trace;
use crate::oracle::ddr4::{CheckStats, Violation};
use rtgpu_firmware::driver::{self, Driver, LaunchDesc};
use rtgpu_firmware::interp::{self, InterpConfig};
use rtgpu_firmware::launch::{Dims, Image, KernelMeta};
use rtgpu_hw::cu::{CuConfig, IssueRecord, Mode};
use rtgpu_hw::gpu::Gpu;
use rtgpu_hw::sched::model::Policy;
use rtgpu_hw::simd::sched::{Phase, PhaseKind};
use rtgpu_hw::simd::{Exec, SimdExec};
use serde::Serialize;

/// A Sim-D launch's phases and DRAM use (`rtgpu run --exec simd`).
#[derive(Clone, Debug, Default, Serialize)]
pub struct SimdSummary {
    /// `simd` (phase rules) or `simd-free`.
    pub exec: &'static str,
    /// Compute phases.
    pub compute_phases: usize,
    /// Access phases (tile transfers).
    pub access_phases: usize,
    /// Tile requests the DRAM controller completed.
    pub requests: u64,
    /// Their mean LID (DRAM command-clock cycles).
    pub mean_lid: f64,
    /// Their largest LID.
    pub max_lid: u32,
    /// DRAM data-bus utilisation over the launch: cycles with data / DRAM cycles.
    pub bus_utilisation: f64,
    /// DRAM data-bus utilisation while a tile request was in the controller: data cycles /
    /// the requests' LIDs.
    pub bus_utilisation_in_requests: f64,
    /// Bytes moved.
    pub bytes: u64,
    /// REF commands.
    pub refreshes: u64,
    /// Every phase (core cycles from the launch).
    #[serde(skip)]
    pub phases: Vec<Phase>,
}

impl SimdSummary {
    /// The summary of `s` (rules on or off).
    pub fn of(s: &SimdExec) -> Self {
        let c = s.access.counters;
        let count = |k| s.sched.log.iter().filter(|p| p.kind == k).count();
        let ratio = |a: u64, b: u64| if b == 0 { 0.0 } else { a as f64 / b as f64 };
        SimdSummary {
            exec: if s.sched.rules { "simd" } else { "simd-free" },
            compute_phases: count(PhaseKind::Compute),
            access_phases: count(PhaseKind::Access),
            requests: c.requests,
            mean_lid: ratio(c.lid_sum, c.requests),
            max_lid: c.lid_max,
            bus_utilisation: ratio(c.dq_cycles, c.dram_cycles),
            bus_utilisation_in_requests: ratio(c.dq_cycles, c.lid_sum),
            bytes: c.bytes,
            refreshes: c.refreshes,
            phases: s.sched.log.clone(),
        }
    }

    /// The human-readable lines.
    pub fn text(&self) -> String {
        format!(
            "sim-d ({}): {} compute + {} access phases; {} tile requests, {} bytes, LID mean \
             {:.1} max {} DRAM cycles; DRAM bus use {:.1} % of the launch, {:.1} % within \
             requests; {} refreshes\n",
            self.exec,
            self.compute_phases,
            self.access_phases,
            self.requests,
            self.bytes,
            self.mean_lid,
            self.max_lid,
            100.0 * self.bus_utilisation,
            100.0 * self.bus_utilisation_in_requests,
            self.refreshes
        )
    }
}

/// A Sim-D launch with its oracles: the interpreter's buffers and the DDR4 checker.
#[derive(Clone, Debug)]
pub struct SimdOutcome {
    /// `Ok` when the GPU reported done, else the driver's message.
    pub result: Result<(), String>,
    /// Core cycles of the launch.
    pub cycles: u64,
    /// The buffers equal the interpreter's (`None` when the launch failed).
    pub exact: Option<bool>,
    /// The DDR4 checker over every DRAM command: its statistics or the first violation.
    pub ddr4: Result<CheckStats, Violation>,
    /// Phases and DRAM use.
    pub summary: SimdSummary,
    /// Instructions (other than `s_endpgm`) issued outside a compute phase of their
    /// work-group.
    pub stray_issues: usize,
}

/// The issues of `log` (other than `s_endpgm`, `0xBF810000`) outside every compute phase of
/// their work-group (`waves` wavefronts each).
fn stray_issues(log: &[IssueRecord], phases: &[Phase], code: &[u32], waves: u32) -> usize {
    let inside = |r: &IssueRecord| {
        let wg = r.wave / waves;
        phases.iter().any(|p| {
            p.wg == wg && p.kind == PhaseKind::Compute && (p.start..p.end).contains(&r.cycle)
        })
    };
    log.iter()
        .filter(|r| code.get(r.pc as usize / 4) != Some(&0xBF81_0000) && !inside(r))
        .count()
}

/// Runs `kernel` (code and header) with `dims` under `exec` on configuration `cfg`, seed
/// `seed`; compares the buffers with the interpreter's and checks every DRAM command.
pub fn run_simd(
    (code, meta): (&[u32], &KernelMeta),
    dims: Dims,
    exec: Exec,
    cfg: &CuConfig,
    seed: u64,
) -> Result<SimdOutcome, String> {
    let image = Image::build(&meta.args, dims, seed);
    let mut gpu = Gpu::new(*cfg)?;
    gpu.cu_mut().record_dram = true;
    gpu.cu_mut().issue_log = Some(Vec::new());
    let mut drv = Driver::new(gpu).map_err(|e| e.to_string())?;
    let desc = LaunchDesc {
        exec,
        ..LaunchDesc::new(image.kernarg, dims, meta.lds, Mode::NoSplit, 1, Policy::Gto)
    };
    let out = driver::run(&mut drv, code, &image, desc, 50_000_000).map_err(|e| e.to_string())?;
    let gpu = drv.into_bus();
    let s = gpu.cu().simd().ok_or("the launch ran without Sim-D")?;
    let trace = s.access.trace.as_deref().unwrap_or(&[]);
    let ddr4 = check_trace(trace, s.access.counters.dram_cycles, cfg)?;
    let exact = match out.result {
        Ok(()) => Some(
            out.buffers
                == interp::buffers(code, dims, meta.lds, &image, &InterpConfig::default())
                    .map_err(|e| format!("interpreter: {e}"))?,
        ),
        Err(_) => None,
    };
    let log = gpu.cu().issue_log.as_deref().unwrap_or(&[]);
    let phases = &s.sched.log;
    Ok(SimdOutcome {
        stray_issues: stray_issues(log, phases, code, dims.wg.div_ceil(64)),
        result: out.result.map_err(|e| e.to_string()),
        cycles: out.counters.get("cycles"),
        exact,
        ddr4,
        summary: SimdSummary::of(s),
    })
}
