//! `rtgpu reproduce sgemm`: the analogue of the multi-phase paper's Table 4 (the GUB's
//! overestimation for SGEMM, naive and double-buffered, by number of warps and memory
//! latency) with real kernels on the compute unit.
//!
//! The kernels are OpenCL C, compiled by clang-14: `firmware/suite/sgemm.cl` (naive: every
//! iteration of its inner loop loads an element of A and one of B from global memory and waits
//! for them) and `firmware/suite/sgemm_db.cl` (double buffering: B in local memory in tiles of
//! four rows, two buffers, the next tile's loads in flight while the current one is used, one
//! barrier per tile). Both compute a (64·W / 16) × 16 block of C = αAB + βC, n = 16, one element
//! per work-item, in one work-group of W wavefronts on one SIMD (the paper's one block on one
//! SM), no splitting, the global memory at the fixed latency `lat.flat` swept over the paper's
//! seven values. W ∈ {2, 4, 8, 16} (a SIMD holds at most 16 wavefronts), set beside the
//! paper's {4, 8, 16, 32} in rank order.
//!
//! Per cell: the multi-phase WCET ([`super::gub`], computed once, for every input) and the
//! worst simulated time over random inputs (random A, B and C; `n`, α and β are the launch
//! shape); the overestimation is (GUB − worst) / worst. Any input above the GUB is an error.

use super::mp_table::LATENCIES;
use super::{analyze, gub, inputs::random_input, load_with_facts, observe, WcetCase};
use crate::plot::{bar_charts_png, BarChart, Series};
use rtgpu_firmware::launch::{Arg, Dims};
use rtgpu_firmware::pws_pass::Marks;
use rtgpu_hw::cu::{CuConfig, Mode};
use rtgpu_hw::sched::model::Policy;
use serde::Serialize;
use std::path::Path;

/// Wavefronts in the work-group (the paper's warps per block, halved: 4 → 2 … 32 → 16).
pub const WAVES: [u32; 4] = [2, 4, 8, 16];

/// The two variants: name and kernel file of the suite.
pub const VARIANTS: [(&str, &str); 2] =
    [("naive", "sgemm.cl"), ("double buffering", "sgemm_db.cl")];

/// The paper's Table 4 (percent, LRR): per variant (naive, double buffering), per latency
/// (the order of [`LATENCIES`]), per warp count 4, 8, 16, 32.
pub const PAPER: [[[f64; 4]; 7]; 2] = [
    [
        [23.69, 22.03, 11.50, 5.87],
        [23.24, 22.04, 12.06, 6.16],
        [22.00, 21.45, 12.31, 7.00],
        [20.18, 20.37, 11.97, 7.11],
        [17.32, 18.47, 11.36, 6.93],
        [13.49, 15.56, 10.29, 6.57],
        [9.36, 11.84, 8.67, 5.96],
    ],
    [
        [41.60, 23.59, 13.97, 8.32],
        [41.59, 23.57, 13.98, 8.33],
        [41.54, 23.59, 14.01, 8.35],
        [41.42, 23.65, 14.06, 8.39],
        [41.08, 23.57, 14.11, 8.44],
        [40.40, 23.37, 14.12, 8.51],
        [58.21, 33.08, 19.19, 11.15],
    ],
];

/// One variant at one latency and wavefront count under one scheduler.
#[derive(Clone, Debug, Serialize)]
pub struct Cell {
    /// `naive` or `double buffering`.
    pub variant: &'static str,
    /// `lat.flat`.
    pub latency: u32,
    /// Wavefronts in the work-group.
    pub waves: u32,
    /// `lrr` or `gto`.
    pub policy: &'static str,
    /// The multi-phase WCET (for every input).
    pub gub: u64,
    /// The most cycles over the random inputs.
    pub worst: u64,
    /// (gub − worst) / worst, percent.
    pub ovr: f64,
    /// The paper's value for the same variant, latency and rank of warp count (LRR).
    pub paper: f64,
}

/// The reproduction.
#[derive(Clone, Debug, Serialize)]
pub struct Table4 {
    /// Random inputs per cell.
    pub inputs: u64,
    /// The cells.
    pub cells: Vec<Cell>,
    /// The plot.
    pub png: String,
}

/// The case of `variant` (its kernel in `suite`) with `waves` wavefronts at latency `lat`.
pub fn case(
    suite: &Path,
    file: &str,
    waves: u32,
    lat: u32,
    policy: Policy,
) -> Result<WcetCase, String> {
    let (code, meta, facts) = load_with_facts(&suite.join(file))?;
    let mut cfg = CuConfig {
        n_simd: 1,
        n_wfc: 16,
        ..CuConfig::default()
    };
    cfg.memory.hierarchy = false;
    cfg.lat.flat = lat;
    let args = [
        "float:grid",
        "float:256",
        "float:grid",
        "16",
        "f32:1.5",
        "f32:0.5",
    ]
    .iter()
    .map(|a| Arg::parse(a).map_err(|e| e.0))
    .collect::<Result<Vec<_>, _>>()?;
    Ok(WcetCase {
        code,
        lds: meta.lds,
        dims: Dims {
            grid: 64 * waves,
            wg: 64 * waves,
        },
        args,
        seed: 1,
        cfg,
        mode: Mode::NoSplit,
        s: 1,
        marks: Marks::Source,
        reprovision: false,
        policy,
        timeout: 50_000_000,
        // n, α and β are the shape: no ranges.
        facts,
        reorder: false,
    })
}

/// The GUB of `c` and the worst of `inputs` random inputs; `Err` if the GUB does not apply
/// or an input exceeds it or fails.
pub fn measure(c: &WcetCase, inputs: u64) -> Result<(u64, u64), String> {
    let a = analyze(c).map_err(|e| e.to_string())?;
    let m = gub::bound(c, &a, &|_| {}).map_err(|e| e.to_string())?;
    if let Some(why) = m.not_applicable {
        return Err(format!("the multi-phase bound does not apply: {why}"));
    }
    let mut worst = 0;
    for i in 0..inputs.max(1) {
        let (ci, _) = random_input(c, i);
        let o = observe(&ci, &a)?;
        if o.status != "done" || o.cycles > m.wcet {
            return Err(format!(
                "input {i} (seed {}): {} cycles ({}) against the GUB {}",
                ci.seed, o.cycles, o.status, m.wcet
            ));
        }
        worst = worst.max(o.cycles);
    }
    Ok((m.wcet, worst))
}

/// Every cell under LRR and GTO, with `inputs` random inputs each; draws
/// `out/multiphase-table4.png`.
pub fn table4(suite: &Path, inputs: u64, out: &Path) -> Result<Table4, String> {
    let mut t = Table4 {
        inputs,
        cells: Vec::new(),
        png: out.join("multiphase-table4.png").display().to_string(),
    };
    for (v, (variant, file)) in VARIANTS.into_iter().enumerate() {
        for (li, lat) in LATENCIES.into_iter().enumerate() {
            for (wi, waves) in WAVES.into_iter().enumerate() {
                for policy in [Policy::Lrr, Policy::Gto] {
                    let c = case(suite, file, waves, lat, policy)?;
                    let (gub, worst) = measure(&c, inputs)
                        .map_err(|e| format!("{variant}, {waves} waves, latency {lat}: {e}"))?;
                    t.cells.push(Cell {
                        variant,
                        latency: lat,
                        waves,
                        policy: policy.name(),
                        gub,
                        worst,
                        ovr: 100.0 * (gub as f64 - worst as f64) / worst.max(1) as f64,
                        paper: PAPER[v][li][wi],
                    });
                }
            }
        }
    }
    draw(&t, Path::new(&t.png))?;
    Ok(t)
}

fn draw(t: &Table4, png: &Path) -> Result<(), String> {
    let charts: Vec<BarChart> = VARIANTS
        .iter()
        .map(|(variant, _)| {
            let mut series = Vec::new();
            for (wi, w) in WAVES.iter().enumerate() {
                series.push(Series {
                    name: format!("ours {w} waves (LRR)"),
                    values: LATENCIES
                        .iter()
                        .map(|&l| t.get(variant, l, *w, "lrr").map_or(0.0, |c| c.ovr))
                        .collect(),
                });
                series.push(Series {
                    name: format!("paper {} warps", 4 << wi),
                    values: LATENCIES
                        .iter()
                        .map(|&l| t.get(variant, l, *w, "lrr").map_or(0.0, |c| c.paper))
                        .collect(),
                });
            }
            BarChart {
                title: format!("SGEMM, {variant}: GUB overestimation over the worst observed"),
                x_label: "global memory latency (cycles)".into(),
                y_label: "overestimation (%)".into(),
                categories: LATENCIES.iter().map(|l| l.to_string()).collect(),
                series,
            }
        })
        .collect();
    bar_charts_png(&charts, png, 1400, 900)
}

impl Table4 {
    /// The cell of `variant` at `latency` with `waves` under `policy`.
    pub fn get(&self, variant: &str, latency: u32, waves: u32, policy: &str) -> Option<&Cell> {
        self.cells.iter().find(|c| {
            c.variant == variant && c.latency == latency && c.waves == waves && c.policy == policy
        })
    }

    /// The table as text: per variant and latency, the overestimation by wavefront count,
    /// LRR (the paper's beside it) and GTO.
    pub fn text(&self) -> String {
        let mut t = format!(
            "Table 4 analogue: SGEMM, multi-phase GUB over the worst of {} random inputs, \
             one work-group on one SIMD (percent; paper's LRR value for 2x the warps in \
             parentheses)\n",
            self.inputs
        );
        t += "variant           lat  policy";
        for w in WAVES {
            t += &format!("  {w:>2} waves (paper)");
        }
        t += "\n";
        for (variant, _) in VARIANTS {
            for lat in LATENCIES {
                for policy in ["lrr", "gto"] {
                    t += &format!("{variant:<16} {lat:>4}  {policy:<6}");
                    for w in WAVES {
                        match self.get(variant, lat, w, policy) {
                            Some(c) if policy == "lrr" => {
                                t += &format!("  {:>6.2}% ({:>5.2}%)", c.ovr, c.paper)
                            }
                            Some(c) => t += &format!("  {:>6.2}%         ", c.ovr),
                            None => t += "  -                ",
                        }
                    }
                    t += "\n";
                }
            }
        }
        t += "\nGUB / worst observed cycles (LRR)\n";
        for c in self.cells.iter().filter(|c| c.policy == "lrr") {
            t += &format!(
                "{:<16} {:>4} {:>2} waves: {:>7} / {:>7}\n",
                c.variant, c.latency, c.waves, c.gub, c.worst
            );
        }
        t += &format!("plot: {}\n", self.png);
        t
    }
}
