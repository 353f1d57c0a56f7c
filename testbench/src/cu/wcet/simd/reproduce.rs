//! `rtgpu reproduce simd`: the shape of the Sim-D paper's Table 5 and Figs. 7–8 on our
//! kernels (docs/works/simd.md#evaluation): per kernel the simulated cycles without the phase
//! rules (`simd-free`, the paper's "unconstrained") and with them, the bounds (Eq. 14's lower,
//! Eq. 10's serial, and the kernel WCET), the WCET's tightness over the simulated run, the
//! phase rules' cost over free scheduling, and the DRAM bus use; the paper's numbers beside.
//! The kernels: vector_add and stencil, and generated programs of different tile shapes.

use super::{bound, observe, SimdBound};
use crate::cu::simd::run_simd;
use crate::cu::simd_gen::{Load, SimdProgram};
use crate::cu::system::load_kernel;
use rtgpu_firmware::launch::{Dims, KernelMeta};
use rtgpu_hw::cu::CuConfig;
use rtgpu_hw::simd::Exec;
use serde::Serialize;
use std::path::Path;

/// The paper's average WCET overestimate (scratchpad as access), Fig. 8.
pub const PAPER_TIGHTNESS: f64 = 0.127;
/// The paper's average cost of its best phase-rule policy over all 15 kernels, Fig. 7.
pub const PAPER_PENALTY: f64 = 0.092;
/// The paper's cost of pairwise admission alone (13 kernels), Fig. 7.
pub const PAPER_PAIRWISE: f64 = 0.059;
/// Eq. 15's bus use of a 4 KiB read (318 cycles for 64 bursts).
pub const PAPER_BUS_4K: f64 = 0.805;

/// One kernel's row.
#[derive(Clone, Debug, Serialize)]
pub struct Row {
    /// The kernel.
    pub kernel: String,
    /// Work-groups.
    pub groups: u64,
    /// Simulated cycles under free scheduling (`simd-free`).
    pub free: u64,
    /// Simulated cycles under the phase rules (`simd`).
    pub rules: u64,
    /// Eq. 14 (with the launch and Eq. 19).
    pub lower: u64,
    /// Eq. 10 (with the launch and Eq. 19).
    pub upper: u64,
    /// The kernel WCET.
    pub wcet: u64,
    /// wcet / rules − 1.
    pub tightness: f64,
    /// rules / free − 1: the phase rules' cost.
    pub penalty: f64,
    /// DRAM bus use within the tile requests (phase rules).
    pub bus_in_requests: f64,
    /// DRAM bus use over the launch (phase rules).
    pub bus: f64,
}

/// The experiment.
#[derive(Clone, Debug, Serialize)]
pub struct SimdRepro {
    /// Per kernel.
    pub rows: Vec<Row>,
    /// Mean tightness.
    pub mean_tightness: f64,
    /// Mean phase-rule penalty.
    pub mean_penalty: f64,
    /// Mean bus use within requests.
    pub mean_bus_in_requests: f64,
    /// Rows whose simulated run exceeded the bound (must be 0).
    pub violations: usize,
}

/// A generated program: `loads` tiles after `compute` steps each, `groups` work-groups of
/// 1024 work-items.
fn generated(loads: &[(u32, u32, u32)], groups: u32) -> SimdProgram {
    let phases = loads
        .iter()
        .enumerate()
        .map(|(i, &(words, rows, period))| {
            let load = Load {
                words,
                rows,
                period,
                start: 5 + 4096 * i as u32,
            };
            (24, load)
        })
        .collect();
    SimdProgram {
        wg: 1024,
        groups,
        phases,
        tail: 24,
    }
}

/// The generated kernels: 1D tiles of 256 B, 4 KiB and 16 KiB, 2D tiles of 32×32 and 8×64.
fn generated_set(long: bool) -> Vec<(String, SimdProgram)> {
    let groups = if long { 32 } else { 8 };
    let mut set = vec![
        ("gen 1d 4x256B", vec![(64, 1, 64); 4]),
        ("gen 1d 2x4KiB", vec![(1024, 1, 1024); 2]),
        ("gen 2d 2x32x32", vec![(32, 32, 128); 2]),
        ("gen 2d 8x64", vec![(8, 64, 160)]),
    ];
    if long {
        set.push(("gen 1d 16KiB", vec![(4096, 1, 4096)]));
        set.push(("gen 2d 3x16x32", vec![(16, 32, 96); 3]));
    }
    set.into_iter()
        .map(|(n, l)| (n.to_string(), generated(&l, groups)))
        .collect()
}

/// One kernel's row: the bound, the run under the rules, the run without.
fn row(name: &str, (code, meta): (&[u32], &KernelMeta), dims: Dims) -> Result<Row, String> {
    let cfg = CuConfig::default();
    let mut b: SimdBound = bound(code, dims, &cfg).map_err(|e| format!("{name}: {e}"))?;
    let o = observe((code, meta), dims, &cfg, 1, &mut b).map_err(|e| format!("{name}: {e}"))?;
    let free = run_simd((code, meta), dims, Exec::SimdFree, &cfg, 1)?;
    if o.status != "done" || free.result.is_err() {
        return Err(format!("{name}: the launch failed"));
    }
    Ok(Row {
        kernel: name.to_string(),
        groups: b.groups,
        free: free.cycles,
        rules: o.cycles,
        lower: b.lower,
        upper: b.upper,
        wcet: b.wcet,
        tightness: o.tightness,
        penalty: o.cycles as f64 / free.cycles.max(1) as f64 - 1.0,
        bus_in_requests: o.summary.bus_utilisation_in_requests,
        bus: o.summary.bus_utilisation,
    })
}

/// Runs the experiment on the Sim-D kernels in `simd_dir` and the generated programs;
/// `tick` after each kernel. By default the kernels run a quarter of their grids and the
/// generated programs 8 work-groups; `long`: the full grids, 32 work-groups, more shapes.
pub fn reproduce(simd_dir: &Path, long: bool, tick: &dyn Fn()) -> Result<SimdRepro, String> {
    let mut rows = Vec::new();
    for name in ["vector_add.s", "stencil.s"] {
        let (code, meta) = load_kernel(&simd_dir.join(name))?;
        let scale = if long { 1 } else { 4 };
        let dims = Dims {
            grid: meta.dims.grid / scale,
            wg: meta.dims.wg,
        };
        rows.push(row(name.trim_end_matches(".s"), (&code, &meta), dims)?);
        tick();
    }
    for (name, p) in generated_set(long) {
        let (code, meta) = p.kernel()?;
        let dims = Dims {
            grid: p.wg * p.groups,
            wg: p.wg,
        };
        rows.push(row(&name, (&code, &meta), dims)?);
        tick();
    }
    let mean = |f: fn(&Row) -> f64| rows.iter().map(f).sum::<f64>() / rows.len().max(1) as f64;
    Ok(SimdRepro {
        mean_tightness: mean(|r| r.tightness),
        mean_penalty: mean(|r| r.penalty),
        mean_bus_in_requests: mean(|r| r.bus_in_requests),
        violations: rows.iter().filter(|r| r.rules > r.wcet).count(),
        rows,
    })
}

impl SimdRepro {
    /// The table and the paper's numbers beside ours.
    pub fn text(&self) -> String {
        let mut s = format!(
            "{:<16} {:>3} {:>9} {:>9} {:>9} {:>9} {:>9} {:>7} {:>7} {:>6}\n",
            "kernel",
            "wgs",
            "free",
            "WCET^L",
            "WCET^U",
            "rules",
            "WCET",
            "tight%",
            "rules%",
            "bus%"
        );
        for r in &self.rows {
            s += &format!(
                "{:<16} {:>3} {:>9} {:>9} {:>9} {:>9} {:>9} {:>7.1} {:>7.1} {:>6.1}\n",
                r.kernel,
                r.groups,
                r.free,
                r.lower,
                r.upper,
                r.rules,
                r.wcet,
                100.0 * r.tightness,
                100.0 * r.penalty,
                100.0 * r.bus_in_requests
            );
        }
        s + &format!(
            "mean: WCET over simulated {:.1} % (paper, Fig. 8: {:.1} %); phase rules over free \
             scheduling {:.1} % (paper, Fig. 7: {:.1} % best policy, {:.1} % pairwise alone); \
             bus use within requests {:.1} % (Eq. 15, 4 KiB read: {:.1} %); {} kernels over \
             their bound\n",
            100.0 * self.mean_tightness,
            100.0 * PAPER_TIGHTNESS,
            100.0 * self.mean_penalty,
            100.0 * PAPER_PENALTY,
            100.0 * PAPER_PAIRWISE,
            100.0 * self.mean_bus_in_requests,
            100.0 * PAPER_BUS_4K,
            self.violations
        )
    }
}
