//! `rtgpu reproduce multiphase`: the analogue of the multi-phase paper's Table 3
//! (docs/works/multiphase.md#table-3): the overestimation of the multi-phase bound
//! ([`super::gub`]) over the simulated time, per kernel, memory latency and scheduler, with
//! the paper's mean, max, weighted mean and standard deviation beside ours.
//!
//! The setting is the paper's: every wavefront of the launch on one SIMD (the paper's one
//! block on one SM; `n_simd = 1`, the kernel's default launch cut to the work-groups that fit
//! at once), no splitting, the global memory latency `lat.flat` swept over the paper's seven
//! values. The kernels are the assembly kernels (firmware/kernels). Unlike the paper, whose
//! bound is for the one path its trace recorded, ours holds for every input (loops at their
//! bounds, the longest arm of every branch), and it includes the launch (dispatch, first
//! issue, the last access's drain).

use super::{analyze, gub, load_with_facts, observe, WcetCase};
use crate::cu::sweep::kernels_in;
use crate::plot::{bar_chart_png, BarChart, Series};
use rtgpu_firmware::launch::Dims;
use rtgpu_firmware::pws_pass::Marks;
use rtgpu_hw::cu::{resident_wgs, CuConfig, Mode};
use rtgpu_hw::sched::model::Policy;
use serde::Serialize;
use std::path::Path;

/// The paper's memory latencies (cycles).
pub const LATENCIES: [u32; 7] = [5, 10, 25, 50, 100, 200, 400];

/// The paper's Table 3 (percent): per latency (the order of [`LATENCIES`]), LRR then GTO,
/// (mean, max, weighted mean, standard deviation).
pub const PAPER: [[(f64, f64, f64, f64); 2]; 7] = [
    [(26.00, 46.38, 28.17, 6.81), (27.04, 46.67, 30.82, 5.91)],
    [(23.46, 49.77, 27.86, 8.58), (29.32, 46.36, 31.96, 7.58)],
    [(21.81, 72.47, 26.84, 8.32), (27.88, 60.12, 31.83, 8.26)],
    [(19.97, 69.83, 26.05, 7.88), (25.56, 70.56, 31.52, 9.16)],
    [(16.70, 44.97, 22.44, 6.96), (19.83, 44.37, 26.21, 7.89)],
    [(12.31, 40.34, 16.83, 6.07), (15.37, 40.06, 20.16, 5.31)],
    [(8.21, 33.45, 11.35, 4.73), (10.68, 34.84, 13.87, 3.66)],
];

/// One kernel at one latency under one scheduler.
#[derive(Clone, Debug, Serialize)]
pub struct Cell {
    /// Kernel file name.
    pub kernel: String,
    /// `lat.flat`.
    pub latency: u32,
    /// `lrr` or `gto`.
    pub policy: &'static str,
    /// Wavefronts on the SIMD.
    pub waves: u64,
    /// The multi-phase WCET of the launch.
    pub gub: u64,
    /// The simulated launch on its own input.
    pub observed: u64,
    /// (gub − observed) / observed, percent.
    pub ovr: f64,
}

/// The statistics of one (latency, scheduler) over the kernels, as the paper's Table 3.
#[derive(Clone, Debug, Serialize)]
pub struct Summary {
    /// `lat.flat`.
    pub latency: u32,
    /// `lrr` or `gto`.
    pub policy: &'static str,
    /// Mean, max, weighted mean (Σ(GUB − T)/ΣT), population standard deviation, percent.
    pub ours: [f64; 4],
    /// The paper's four values.
    pub paper: [f64; 4],
}

/// The reproduction.
#[derive(Clone, Debug, Serialize)]
pub struct Table3 {
    /// Per kernel, latency and scheduler.
    pub cells: Vec<Cell>,
    /// Per latency and scheduler.
    pub summary: Vec<Summary>,
    /// Kernels the bound does not apply to, with the reason.
    pub skipped: Vec<(String, String)>,
    /// The plot.
    pub png: String,
}

/// The case of `path` at latency `lat` under `policy`, in the paper's setting.
fn one_simd_case(path: &Path, lat: u32, policy: Policy) -> Result<WcetCase, String> {
    let (code, meta, facts) = load_with_facts(path)?;
    let mut cfg = CuConfig {
        n_simd: 1,
        ..CuConfig::default()
    };
    cfg.lat.flat = lat;
    let d = meta.dims;
    let fit = resident_wgs(&cfg, d.grid, d.wg, meta.lds);
    Ok(WcetCase {
        code,
        lds: meta.lds,
        dims: Dims {
            grid: d.grid.min(fit * d.wg),
            ..d
        },
        args: meta.args,
        seed: 1,
        cfg,
        mode: Mode::NoSplit,
        s: 1,
        marks: Marks::Source,
        reprovision: false,
        policy,
        timeout: 50_000_000,
        facts,
        reorder: false,
    })
}

/// One cell, or why the bound does not apply.
fn cell(path: &Path, lat: u32, policy: Policy) -> Result<Result<Cell, String>, String> {
    let c = one_simd_case(path, lat, policy)?;
    let a = analyze(&c).map_err(|e| e.to_string())?;
    let m = gub::bound(&c, &a, &|_| {}).map_err(|e| e.to_string())?;
    if let Some(why) = m.not_applicable {
        return Ok(Err(why));
    }
    let o = observe(&c, &a)?;
    if o.status != "done" {
        return Err(format!(
            "{}: the launch ended in {}",
            path.display(),
            o.status
        ));
    }
    Ok(Ok(Cell {
        kernel: name_of(path),
        latency: lat,
        policy: policy.name(),
        waves: u64::from(c.dims.waves_per_group() * c.dims.groups()),
        gub: m.wcet,
        observed: o.cycles,
        ovr: 100.0 * (m.wcet as f64 - o.cycles as f64) / o.cycles.max(1) as f64,
    }))
}

fn name_of(p: &Path) -> String {
    p.file_name()
        .map_or_else(|| p.display().to_string(), |n| n.to_string_lossy().into())
}

/// Mean, max, weighted mean and population standard deviation of the cells' overestimation.
fn stats(cells: &[&Cell]) -> [f64; 4] {
    let n = cells.len().max(1) as f64;
    let mean = cells.iter().map(|c| c.ovr).sum::<f64>() / n;
    let max = cells.iter().map(|c| c.ovr).fold(0.0, f64::max);
    let excess: f64 = cells.iter().map(|c| c.gub as f64 - c.observed as f64).sum();
    let total: f64 = cells.iter().map(|c| c.observed as f64).sum();
    let var = cells.iter().map(|c| (c.ovr - mean).powi(2)).sum::<f64>() / n;
    [mean, max, 100.0 * excess / total.max(1.0), var.sqrt()]
}

/// Runs every kernel of `dir` at every latency under LRR and GTO and draws
/// `out/multiphase-table3.png`.
pub fn table3(dir: &Path, out: &Path) -> Result<Table3, String> {
    let mut t = Table3 {
        cells: Vec::new(),
        summary: Vec::new(),
        skipped: Vec::new(),
        png: out.join("multiphase-table3.png").display().to_string(),
    };
    for path in kernels_in(dir)? {
        for lat in LATENCIES {
            for policy in [Policy::Lrr, Policy::Gto] {
                match cell(&path, lat, policy)? {
                    Ok(c) => t.cells.push(c),
                    Err(why) if lat == LATENCIES[0] && policy == Policy::Lrr => {
                        t.skipped.push((name_of(&path), why));
                    }
                    Err(_) => {}
                }
            }
        }
    }
    for (i, lat) in LATENCIES.into_iter().enumerate() {
        for (j, policy) in [Policy::Lrr, Policy::Gto].into_iter().enumerate() {
            let of: Vec<&Cell> = t
                .cells
                .iter()
                .filter(|c| c.latency == lat && c.policy == policy.name())
                .collect();
            let p = PAPER[i][j];
            t.summary.push(Summary {
                latency: lat,
                policy: policy.name(),
                ours: stats(&of),
                paper: [p.0, p.1, p.2, p.3],
            });
        }
    }
    draw(&t, Path::new(&t.png))?;
    Ok(t)
}

fn draw(t: &Table3, png: &Path) -> Result<(), String> {
    let series = |who: &str, policy: &str, pick: &dyn Fn(&Summary) -> f64| Series {
        name: format!("{who} {policy}"),
        values: t
            .summary
            .iter()
            .filter(|s| s.policy == policy)
            .map(pick)
            .collect(),
    };
    let chart = BarChart {
        title: "Multi-phase GUB: mean overestimation over the simulated time".into(),
        x_label: "global memory latency (cycles)".into(),
        y_label: "mean overestimation (%)".into(),
        categories: LATENCIES.iter().map(|l| l.to_string()).collect(),
        series: vec![
            series("ours", "lrr", &|s| s.ours[0]),
            series("ours", "gto", &|s| s.ours[0]),
            series("paper", "lrr", &|s| s.paper[0]),
            series("paper", "gto", &|s| s.paper[0]),
        ],
    };
    bar_chart_png(&chart, png, 1100, 600)
}

impl Table3 {
    /// The tables as text.
    pub fn text(&self) -> String {
        let mut t = String::from(
            "Multi-phase GUB over the simulated time, one SIMD, no splitting (percent)\n\
             kernel              lat  policy waves     GUB  observed    ovr\n",
        );
        for c in &self.cells {
            t += &format!(
                "{:<18} {:>4}  {:<6} {:>5} {:>7} {:>9} {:>6.1}\n",
                c.kernel, c.latency, c.policy, c.waves, c.gub, c.observed, c.ovr
            );
        }
        for (k, why) in &self.skipped {
            t += &format!("{k}: not applicable: {why}\n");
        }
        t += "\nTable 3: ours (paper), percent\n lat  policy  mean           max            weighted       std dev\n";
        for s in &self.summary {
            t += &format!("{:>4}  {:<6}", s.latency, s.policy);
            for (o, p) in s.ours.iter().zip(s.paper) {
                t += &format!("  {o:>5.1} ({p:>5.2})");
            }
            t += "\n";
        }
        t += &format!("plot: {}\n", self.png);
        t
    }
}
