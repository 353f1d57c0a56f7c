//! `rtgpu reproduce reorder-wcet`: the reordering paper's WCET estimate (Eqs. 1–4,
//! docs/works/reorder.md#eq-1, docs/works/reorder.md#eq-3) applied to the compute unit's
//! kernels, without and with the static L1 miss information: the shape of its Fig. 16.
//!
//! Per kernel (no splitting, LRR, the memory hierarchy with the reordering unit on): every
//! wavefront's issue sequence of the simulated launch is cut into segments, each ending at a
//! global access (FLAT) and the last at the wavefront's end. A segment's issue latency LI is
//! the sum of its instructions' issue latencies under the compute unit's timing rules, its
//! execution latency LE the global latency of the access that ends it:
//!
//! - **Eq. 3** (no miss information): `COAL_max + L_base + COAL_max · N_ConflictSM`;
//! - **Eq. 4** (the kernel's estimated miss rate MR): `COAL_max + MR · (L_base + COAL_max ·
//!   N_ConflictSM)`;
//! - **per access** (ours, the estimator's worst missing lines of that PC): `COAL_i + (m_i >
//!   0 ? L_base + m_i · N_ConflictSM : 0)`.
//!
//! On the compute unit `COAL` is the lines of one access (the analyzer's, at most 32), `L_base`
//! a lone line's trip through the hierarchy (the memory bound's fixed part plus one controller
//! slot) and `N_ConflictSM` the cycles each further line waits for the controller (one slot).
//! Eqs. 1–2 then schedule the segments round-robin over every wavefront of the launch. These
//! are the paper's equations, not a bound of the compute unit (its issue is not the paper's
//! segment round-robin): the table says where they fall below the simulated time.

use super::graph::Graph;
use super::memory::{MemBound, Traffic};
use super::timing::Rules;
use crate::cu::sweep::kernels_in;
use crate::cu::system::{launch_analysis, Launched, SysCase};
use crate::plot::{bar_chart_png, BarChart, Series};
use rtgpu_firmware::ldst_trace::{sequence_major, LINE_BYTES};
use rtgpu_hw::cu::{resident_wgs, CuConfig, IssueRecord, Mode};
use rtgpu_hw::isa::insn_model::unit;
use rtgpu_hw::sched::model::Policy;
use rtgpu_wcet::reorder::analyzer::Analysis;
use rtgpu_wcet::reorder::estimator::{estimate, CacheConfig, Estimate, WritePolicy};
use rtgpu_wcet::reorder::order::{release_order, Rule};
use rtgpu_wcet::reorder::wcet_eq::{global_latency, safe_latency, wcet, worst_per_pc, Worst};
use serde::Serialize;
use std::path::Path;

/// One kernel's estimates.
#[derive(Clone, Debug, Serialize)]
pub struct EqRow {
    /// Kernel file name.
    pub kernel: String,
    /// N: wavefronts of the launch.
    pub waves: usize,
    /// COAL_max: the most lines of one access.
    pub coal_max: u32,
    /// The estimated L1 miss rate (misses / line accesses).
    pub miss_rate: f64,
    /// Eq. 1–2 with Eq. 3's latency (no miss information).
    pub wcet_no_mr: u64,
    /// Eq. 1–2 with Eq. 4's latency (the estimated miss rate).
    pub wcet_mr: u64,
    /// Eq. 1–2 with the per-access latency.
    pub wcet_per_access: u64,
    /// The simulated launch (reordering on).
    pub observed: u64,
}

impl EqRow {
    fn ovr(&self, w: u64) -> f64 {
        100.0 * (w as f64 - self.observed as f64) / self.observed.max(1) as f64
    }
}

/// The reproduction.
#[derive(Clone, Debug, Serialize)]
pub struct ReorderWcet {
    /// Per kernel.
    pub rows: Vec<EqRow>,
    /// The plot.
    pub png: String,
}

/// The latency parameters of the hierarchy: (L_base, N_ConflictSM).
fn latency_params(cfg: &CuConfig, coal: u32, waves: usize) -> Result<(u64, u32), String> {
    let t = Traffic {
        lines_per_access: u64::from(coal),
        waves: waves as u64,
        pending: 1,
        units: cfg.n_simd as u64,
    };
    let mb = MemBound::new(cfg, t)?;
    Ok((mb.fixed + mb.per_line, mb.per_line as u32))
}

/// Per wavefront: its issued PCs in order.
fn issue_paths(log: &[IssueRecord], waves: usize) -> Vec<Vec<u32>> {
    let mut p = vec![Vec::new(); waves];
    for r in log {
        if let Some(v) = p.get_mut(r.wave as usize) {
            v.push(r.pc);
        }
    }
    p
}

/// (LI, the ending access's PC or `None` for the tail) per segment of one issue path.
fn segments(path: &[u32], g: &Graph, rules: &Rules) -> Vec<(u64, Option<u32>)> {
    let mut out = Vec::new();
    let mut li = 0;
    for &pc in path {
        let Ok(i) = g.nodes.binary_search_by_key(&pc, |n| n.pc) else {
            continue;
        };
        let n = &g.nodes[i];
        li += rules.latency(n);
        if n.f.unit == unit::VMEM {
            out.push((li, Some(pc)));
            li = 0;
        }
    }
    out.push((li, None));
    out
}

/// The L1 estimate of `a` in its release order (rounds of `resident` work-groups) and the
/// worst lines and missing lines per PC.
fn miss_info(
    a: &Analysis,
    resident: usize,
    cfg: &CuConfig,
) -> Result<(Estimate, Vec<Worst>), String> {
    let order = release_order(&sequence_major(a), Rule::R1 { epoch_major: true }, resident)
        .map_err(|e| e.to_string())?;
    let cc = CacheConfig {
        sets: cfg.memory.l1_sets as u32,
        ways: cfg.memory.l1_ways as u32,
        line_bytes: LINE_BYTES,
        write: WritePolicy::EvictNoAllocate,
    };
    let est = estimate(a, &order, cc).map_err(|e| e.to_string())?;
    let worst = worst_per_pc(a, &order, &est).map_err(|e| e.to_string())?;
    Ok((est, worst))
}

/// Eq. 1–2 over the segments with `le(pc)` for an access's LE (0 for the tail); shorter
/// wavefronts padded with empty segments.
fn schedule(segs: &[Vec<(u64, Option<u32>)>], le: &dyn Fn(u32) -> u64) -> Result<u64, String> {
    let s = segs.iter().map(Vec::len).max().unwrap_or(0);
    let pad = |v: Vec<u64>| {
        let mut v = v;
        v.resize(s, 0);
        v
    };
    let li: Vec<Vec<u64>> = segs
        .iter()
        .map(|w| pad(w.iter().map(|x| x.0).collect()))
        .collect();
    let les: Vec<Vec<u64>> = segs
        .iter()
        .map(|w| pad(w.iter().map(|x| x.1.map_or(0, le)).collect()))
        .collect();
    wcet(&li, &les).map_err(|e| e.to_string())
}

/// The row of one kernel at `scale` × its default grid.
fn row(path: &Path, scale: u32) -> Result<EqRow, String> {
    let mut cfg = CuConfig::default();
    cfg.memory.hierarchy = true;
    let (_, meta) = crate::cu::system::load_kernel(path)?;
    let case = SysCase {
        kernel: path.to_path_buf(),
        cfg,
        mode: Mode::NoSplit,
        s: 1,
        policy: Policy::Lrr,
        reorder: true,
        idu: None,
        dims: Some(rtgpu_firmware::launch::Dims {
            grid: meta.dims.grid * scale,
            wg: meta.dims.wg,
        }),
        seed: 1,
        timeout: 10_000_000,
    };
    let Launched {
        out,
        mut gpu,
        code,
        image,
        dims,
        ..
    } = case.launch_logged()?;
    out.result.map_err(|e| format!("{}: {e}", path.display()))?;
    let a = launch_analysis(&code, &meta, &image, dims)?;
    let resident = resident_wgs(&cfg, dims.grid, dims.wg, meta.lds) as usize;
    let (est, worst) = miss_info(&a, resident, &cfg)?;
    let coal_max = worst.iter().map(|w| w.coal).max().unwrap_or(1).clamp(1, 32);
    let waves = a.warps.len();
    let (l_base, n_conflict) = latency_params(&cfg, coal_max, waves)?;
    let g = Graph::new(&code)?;
    let rules = Rules {
        lat: cfg.lat,
        pipe_wait: 0,
        vmem_wait: 0,
    };
    let log = gpu.cu_mut().issue_log.take().unwrap_or_default();
    let segs: Vec<_> = issue_paths(&log, waves)
        .iter()
        .map(|p| segments(p, &g, &rules))
        .collect();
    let mr = est.misses as f64 / est.accesses.max(1) as f64;
    let eq = |mr: Option<f64>| -> Result<u64, String> {
        let l = global_latency(coal_max, l_base, n_conflict, mr).map_err(|e| e.to_string())?;
        schedule(&segs, &|_| l.ceil() as u64)
    };
    let idx = |pc: u32| a.ldst_pcs.binary_search(&pc).ok();
    let per_access = |pc: u32| {
        let w = idx(pc)
            .and_then(|i| worst.get(i))
            .copied()
            .unwrap_or_default();
        let coal = w.coal.clamp(1, 32);
        safe_latency(coal, w.misses.min(coal), l_base, n_conflict).unwrap_or(u64::MAX / 4)
    };
    Ok(EqRow {
        kernel: path
            .file_name()
            .map_or(String::new(), |n| n.to_string_lossy().into()),
        waves,
        coal_max,
        miss_rate: mr,
        wcet_no_mr: eq(None)?,
        wcet_mr: eq(Some(mr))?,
        wcet_per_access: schedule(&segs, &per_access)?,
        observed: out.counters.get("cycles"),
    })
}

/// Every kernel of `dir` at `scale` × its default grid; draws `out/reorder-wcet.png`.
pub fn reorder_wcet(dir: &Path, scale: u32, out: &Path) -> Result<ReorderWcet, String> {
    let rows = kernels_in(dir)?
        .iter()
        .map(|p| row(p, scale))
        .collect::<Result<Vec<_>, _>>()?;
    let r = ReorderWcet {
        rows,
        png: out.join("reorder-wcet.png").display().to_string(),
    };
    let series = |name: &str, f: &dyn Fn(&EqRow) -> u64| Series {
        name: name.into(),
        values: r.rows.iter().map(|x| x.ovr(f(x))).collect(),
    };
    let chart = BarChart {
        title: "Eqs. 1-4 on the compute unit: WCET estimate over the simulated time".into(),
        x_label: "kernel".into(),
        y_label: "(estimate - simulated) / simulated (%)".into(),
        categories: r.rows.iter().map(|x| x.kernel.clone()).collect(),
        series: vec![
            series("Eq. 3 (no miss rate)", &|x| x.wcet_no_mr),
            series("Eq. 4 (miss rate)", &|x| x.wcet_mr),
            series("per access", &|x| x.wcet_per_access),
        ],
    };
    bar_chart_png(&chart, Path::new(&r.png), 1100, 600)?;
    Ok(r)
}

impl ReorderWcet {
    /// The table as text.
    pub fn text(&self) -> String {
        let mut t = String::from(
            "Eqs. 1-4 on the compute unit (reordering on, LRR): estimate and overestimation\n\
             kernel             waves coal   MR    simulated   Eq.3 (ovr)        Eq.4 (ovr)        per access (ovr)\n",
        );
        for r in &self.rows {
            t += &format!(
                "{:<18} {:>5} {:>4} {:>5.2} {:>10}",
                r.kernel, r.waves, r.coal_max, r.miss_rate, r.observed
            );
            for w in [r.wcet_no_mr, r.wcet_mr, r.wcet_per_access] {
                t += &format!(" {w:>9} ({:>6.1} %)", r.ovr(w));
            }
            t += "\n";
        }
        t += "paper (Fig. 16): Eq. 3 60-80 % above the actual time on average, Eq. 4 20-40 %\n";
        t += &format!("plot: {}\n", self.png);
        t
    }
}
