//! The evaluations of `rtgpu reproduce` beyond Table 3 (which lives with the WCET analysis):
//!
//! - **`pws-fig11`**: the PWS paper's Fig. 11 on the OpenCL C suite — every suite kernel with
//!   no-split and with PWS S = 1 (fixed memory latency, GTO, the SpSIMDs added beside the
//!   SIMDs), the speedup and its geometric and arithmetic means (docs/works/pws.md#fig-11).
//!   A compiled kernel splits where the PWS pass places split points in clang's code
//!   (`Marks::Auto`: two-armed ifs, and one-armed ifs inside loop bodies such as bfs's);
//!   without any, PWS runs the code no-split runs.
//! - **`pws-fig12`**: the PWS paper's Fig. 12 — SpSIMD reuse (re-provisioning, Eq. 2): the
//!   synthetic kernel at full divergence (D = 3, N1 = 0) on 2 SIMDs with S = 3 (the paper has
//!   4; the compute unit holds at most 8 SIMDs, the 2 × 4 units re-provisioned), with 0 to 3
//!   annotated split points, each run with the idle SpSIMDs left unused and re-provisioned as
//!   SIMDs; the gain is the cycles without reuse over the cycles with it, minus one.
//! - **`reorder`**: the reordering paper's evaluation (docs/works/reorder.md#evaluation) on
//!   the kernel set — the static L1 miss estimate against the measured misses with
//!   reordering on (its Fig. 14), and the cycles of three configurations on the memory
//!   hierarchy: default (LRR), reordering (LRR + the unit) and pure round-robin (its Fig. 12),
//!   with reordering's improvement over pure RR both as a relative reduction and as a
//!   difference of cycles normalised to default.

use super::suite::{self, SuiteOpts};
use super::sweep::{catch_panic, kernels_in, parallel};
use super::system::{load_kernel, run_case, SysCase, SysOutcome};
use super::wcet::loops::Facts;
use super::wcet::{analyze, load_with_facts, observe, WcetCase};
use crate::plot::{bar_charts_png, BarChart, Series};
use rtgpu_firmware::launch::{Arg, Dims};
use rtgpu_firmware::pws_pass::Marks;
use rtgpu_hw::cu::{CuConfig, Mode};
use rtgpu_hw::sched::model::Policy;
use serde::Serialize;
use std::path::{Path, PathBuf};

/// The PWS paper's Fig. 11 geometric-mean speedup (Rodinia, PWS S = 1 against no-split).
pub const PAPER_FIG11_GEOMEAN: f64 = 1.11;
/// Its arithmetic mean.
pub const PAPER_FIG11_MEAN: f64 = 1.18;
/// Its bfs speedup (the only benchmark named).
pub const PAPER_FIG11_BFS: f64 = 3.0;
/// The `rtgpu suite --size` at which Fig. 11 also runs bfs, as the paper measured it (large
/// Rodinia graphs, the SIMDs contended): 4,096 nodes, 64 wavefronts on the 4 SIMDs, more than
/// their 4 × 10 contexts hold.
pub const FIG11_BFS_SIZE: u32 = 16;
/// The PWS paper's Fig. 12: reuse gives up to this much better performance.
pub const PAPER_FIG12_MAX_GAIN: f64 = 0.31;
/// The reordering paper: reordering is this much better than pure round-robin on average.
pub const PAPER_REORDER_VS_RR: f64 = 0.244;

fn geomean(v: &[f64]) -> f64 {
    (v.iter().map(|x| x.ln()).sum::<f64>() / v.len().max(1) as f64).exp()
}

fn mean(v: &[f64]) -> f64 {
    v.iter().sum::<f64>() / v.len().max(1) as f64
}

fn out_png(out: &Path, name: &str) -> Result<PathBuf, String> {
    std::fs::create_dir_all(out).map_err(|e| format!("{}: {e}", out.display()))?;
    Ok(out.join(name))
}

/// One suite kernel of Fig. 11.
#[derive(Clone, Debug, Serialize)]
pub struct Fig11Row {
    /// Kernel name.
    pub kernel: String,
    /// No-split cycles.
    pub nosplit: u64,
    /// PWS S = 1 cycles.
    pub pws: u64,
    /// Splits the PWS run made.
    pub splits: u64,
    /// nosplit / pws.
    pub speedup: f64,
}

/// Fig. 11 on the suite.
#[derive(Clone, Debug, Serialize)]
pub struct Fig11 {
    /// Per kernel, at the run's size.
    pub rows: Vec<Fig11Row>,
    /// Geometric mean of the speedups of `rows`.
    pub geomean: f64,
    /// Arithmetic mean of `rows`.
    pub mean: f64,
    /// bfs at [`FIG11_BFS_SIZE`] (or the run's size, if larger): the paper's setting.
    pub bfs_contended: Option<Fig11Row>,
    /// The size of `bfs_contended`.
    pub bfs_size: u32,
    /// Geometric mean with bfs at `bfs_size` (the other kernels at the run's size).
    pub geomean_contended: f64,
    /// Arithmetic mean with bfs at `bfs_size`.
    pub mean_contended: f64,
    /// The plot.
    pub png: PathBuf,
}

/// Fig. 11: every suite kernel in `suite_dir` at `size` × its launch, and bfs also at
/// [`FIG11_BFS_SIZE`] (when larger).
pub fn fig11(suite_dir: Option<&Path>, size: u32, out: &Path) -> Result<Fig11, String> {
    let rows = fig11_rows(suite_dir, size, &[])?;
    let bfs_size = size.max(FIG11_BFS_SIZE);
    let bfs_contended = match rows.iter().find(|r| r.kernel == "bfs") {
        None => None,
        Some(r) if bfs_size == size => Some(r.clone()),
        Some(_) => fig11_rows(suite_dir, bfs_size, &["bfs"])?.pop(),
    };
    let s: Vec<f64> = rows.iter().map(|r| r.speedup).collect();
    let sc: Vec<f64> = rows
        .iter()
        .map(|r| match (&bfs_contended, r.kernel.as_str()) {
            (Some(b), "bfs") => b.speedup,
            _ => r.speedup,
        })
        .collect();
    let f = Fig11 {
        geomean: geomean(&s),
        mean: mean(&s),
        geomean_contended: geomean(&sc),
        mean_contended: mean(&sc),
        bfs_contended,
        bfs_size,
        rows,
        png: out_png(out, "pws-fig11.png")?,
    };
    let mut categories: Vec<String> = f.rows.iter().map(|r| r.kernel.clone()).collect();
    let mut ours: Vec<f64> = s.clone();
    let mut paper: Vec<f64> = f
        .rows
        .iter()
        .map(|r| match r.kernel.as_str() {
            "bfs" => PAPER_FIG11_BFS,
            _ => f64::NAN,
        })
        .collect();
    if let Some(b) = &f.bfs_contended {
        categories.push(format!("bfs x{}", f.bfs_size));
        ours.push(b.speedup);
        paper.push(PAPER_FIG11_BFS);
    }
    categories.extend(["geomean".into(), "mean".into()]);
    ours.extend([f.geomean_contended, f.mean_contended]);
    paper.extend([PAPER_FIG11_GEOMEAN, PAPER_FIG11_MEAN]);
    let chart = BarChart {
        title: "PWS Fig. 11 on the OpenCL C suite: PWS S = 1 vs no-split".into(),
        x_label: "kernel".into(),
        y_label: "speedup (no-split cycles / PWS cycles)".into(),
        categories,
        series: vec![
            Series {
                name: "rtgpu".into(),
                values: ours,
            },
            Series {
                name: "paper (Rodinia)".into(),
                values: paper,
            },
        ],
    };
    bar_charts_png(&[chart], &f.png, 1000, 600)?;
    Ok(f)
}

/// Fig. 11's rows: the suite kernels `only` (all when empty) at `size`, no-split and PWS S = 1.
fn fig11_rows(suite_dir: Option<&Path>, size: u32, only: &[&str]) -> Result<Vec<Fig11Row>, String> {
    #[derive(clap::Parser)]
    struct Line {
        #[command(flatten)]
        o: SuiteOpts,
    }
    // `rtgpu suite`'s defaults, at this size and folder.
    let mut o = <Line as clap::Parser>::try_parse_from(["suite"])
        .map_err(|e| e.to_string())?
        .o;
    o.size = size;
    o.suite_dir = suite_dir.map(Path::to_path_buf);
    o.kernels = only.iter().map(|k| k.to_string()).collect();
    let cfg = CuConfig::default();
    let kernels = suite::load(&o, &cfg).map_err(|e| e.1)?;
    let fixed = suite::Memory {
        hierarchy: false,
        reorder: false,
    };
    let points: Vec<suite::Point> = (0..kernels.len())
        .flat_map(|kernel| {
            [Mode::NoSplit, Mode::Pws].map(|mode| suite::Point {
                kernel,
                mode,
                s: 1,
                sched: Policy::Gto,
                memory: fixed,
            })
        })
        .collect();
    let jobs = super::sweep::default_jobs();
    let runs = parallel(
        &points,
        jobs,
        |p| suite::run_point(&o, cfg, &kernels[p.kernel], p),
        |_, _, _| {},
    );
    let mut rows = Vec::new();
    for pair in runs.chunks(2) {
        let (ns, pw) = (&pair[0], &pair[1]);
        if let Some(bad) = pair.iter().find(|r| !r.passed) {
            return Err(format!(
                "{} {}: {} {}",
                bad.kernel,
                bad.mode_label(),
                bad.status,
                bad.difference
            ));
        }
        rows.push(Fig11Row {
            kernel: ns.kernel.clone(),
            nosplit: ns.cycles,
            pws: pw.cycles,
            splits: pw.get("splits"),
            speedup: ns.cycles as f64 / pw.cycles.max(1) as f64,
        });
    }
    Ok(rows)
}

impl Fig11 {
    /// The table, the paper's numbers beside.
    pub fn text(&self) -> String {
        let mut t = String::from(
            "PWS Fig. 11 on the OpenCL C suite: PWS S = 1 vs no-split (fixed latency, GTO)\n\
             kernel       no-split      PWS  splits  speedup  paper\n",
        );
        for r in &self.rows {
            let paper = match r.kernel.as_str() {
                "bfs" => format!("{PAPER_FIG11_BFS:.1}x"),
                _ => "-".into(),
            };
            t += &format!(
                "{:<12} {:>8} {:>8} {:>7} {:>8.3}  {paper}\n",
                r.kernel, r.nosplit, r.pws, r.splits, r.speedup
            );
        }
        if let Some(b) = &self.bfs_contended {
            t +=
                &format!(
                "{:<12} {:>8} {:>8} {:>7} {:>8.3}  {PAPER_FIG11_BFS:.1}x  (bfs at --size {}: the \
                 paper's setting, {} wavefronts for 4 SIMDs of 10 contexts)\n",
                "bfs", b.nosplit, b.pws, b.splits, b.speedup, self.bfs_size, 4 * self.bfs_size
            );
        }
        t += &format!(
            "geomean {:+.1}% (paper +{:.0}%), mean {:+.1}% (paper +{:.0}%) with bfs at --size \
             {}; every kernel at the run's size: geomean {:+.1}%, mean {:+.1}%\n",
            100.0 * (self.geomean_contended - 1.0),
            100.0 * (PAPER_FIG11_GEOMEAN - 1.0),
            100.0 * (self.mean_contended - 1.0),
            100.0 * (PAPER_FIG11_MEAN - 1.0),
            self.bfs_size,
            100.0 * (self.geomean - 1.0),
            100.0 * (self.mean - 1.0),
        );
        if self.bfs_contended.is_some() {
            t += "bfs: the split keeps the then-arm's lanes (all the loop's work) on the SIMD and \
                  sends the lanes that skip the arm to the SpSIMD, so the SIMD still issues every \
                  instruction of the loop plus the split, the merge and the waits around them; \
                  contended, the SIMD's issue slots bound the run and the split cannot pay (with \
                  the halves exchanged the model measures 1.31x at --size 16; \
                  docs/assumptions.md#A72)\n";
        }
        if self.rows.iter().all(|r| r.splits == 0) {
            t += "no suite kernel split: their compiled code has no split points, so PWS ran as \
                  no-split\n";
        }
        t + &format!("plot: {}\n", self.png.display())
    }
}

/// One split-point count of Fig. 12.
#[derive(Clone, Debug, Serialize)]
pub struct Fig12Row {
    /// Split points the pass kept (|SB|).
    pub split_points: usize,
    /// Cycles with the idle SpSIMDs unused.
    pub no_reuse: u64,
    /// Cycles with them re-provisioned as SIMDs.
    pub reuse: u64,
    /// SIMDs of the re-provisioned run (Eq. 2).
    pub reuse_simds: usize,
    /// no_reuse / reuse − 1.
    pub gain: f64,
}

/// Fig. 12 on the model.
#[derive(Clone, Debug, Serialize)]
pub struct Fig12 {
    /// Per split-point count, 0 to 3.
    pub rows: Vec<Fig12Row>,
    /// The plot.
    pub png: PathBuf,
}

/// SIMDs of Fig. 12's compute unit.
const FIG12_SIMDS: usize = 2;
/// S of Fig. 12.
const FIG12_S: u32 = 3;

/// Fig. 12: the synthetic kernel of `kernels` with leaf loops of `n2` iterations.
pub fn fig12(kernels: &Path, n2: u32, out: &Path) -> Result<Fig12, String> {
    let (code, meta, facts) = load_with_facts(&kernels.join("synthetic.s"))?;
    let args = ["int:grid", "zero:grid", "0", &n2.to_string(), "3"]
        .iter()
        .map(|a| Arg::parse(a).map_err(|e| e.0))
        .collect::<Result<Vec<_>, _>>()?;
    let base = CuConfig {
        n_simd: FIG12_SIMDS,
        ..CuConfig::default()
    };
    // Enough wavefronts for every re-provisioned SIMD (2 × (1 + 3)) twice over.
    let wg = meta.dims.wg;
    let dims = Dims {
        grid: wg * (FIG12_SIMDS as u32 * (1 + FIG12_S)) * 2,
        wg,
    };
    let case = |mode, marks, n_simd, reprovision| WcetCase {
        code: code.clone(),
        lds: meta.lds,
        dims,
        args: args.clone(),
        seed: 1,
        cfg: CuConfig { n_simd, ..base },
        mode,
        s: FIG12_S,
        marks,
        reprovision,
        policy: Policy::Gto,
        timeout: 100_000_000,
        facts: Facts {
            ranges: Vec::new(),
            ..facts.clone()
        },
        reorder: false,
    };
    let cycles = |c: &WcetCase| -> Result<(u64, usize, usize), String> {
        let a = analyze(c).map_err(|e| e.to_string())?;
        let o = observe(c, &a)?;
        match o.status.as_str() {
            "done" => Ok((o.cycles, a.n_simd, a.pass.kept)),
            s => Err(format!("synthetic {} S={}: {s}", a.mode, a.s)),
        }
    };
    // No split point: no-split on the SIMDs alone, or on every unit as a SIMD.
    let all_units = FIG12_SIMDS * (1 + FIG12_S as usize);
    let (no_reuse, _, _) = cycles(&case(Mode::NoSplit, Marks::Source, FIG12_SIMDS, false))?;
    let (reuse, _, _) = cycles(&case(Mode::NoSplit, Marks::Source, all_units, false))?;
    let mut rows = vec![Fig12Row {
        split_points: 0,
        no_reuse,
        reuse,
        reuse_simds: all_units,
        gain: no_reuse as f64 / reuse.max(1) as f64 - 1.0,
    }];
    for marks in [Marks::Source, Marks::Shallowest(2), Marks::Shallowest(3)] {
        let (no_reuse, _, kept) = cycles(&case(Mode::Pws, marks, FIG12_SIMDS, false))?;
        let (reuse, simds, _) = cycles(&case(Mode::Pws, marks, FIG12_SIMDS, true))?;
        rows.push(Fig12Row {
            split_points: kept,
            no_reuse,
            reuse,
            reuse_simds: simds,
            gain: no_reuse as f64 / reuse.max(1) as f64 - 1.0,
        });
    }
    let f = Fig12 {
        rows,
        png: out_png(out, "pws-fig12.png")?,
    };
    let chart = BarChart {
        title: format!(
            "PWS Fig. 12 on the model: SpSIMD reuse (paper: up to +{:.0}%)",
            100.0 * PAPER_FIG12_MAX_GAIN
        ),
        x_label: "annotated split points".into(),
        y_label: "gain of reuse (%)".into(),
        categories: f.rows.iter().map(|r| r.split_points.to_string()).collect(),
        series: vec![Series {
            name: "rtgpu".into(),
            values: f.rows.iter().map(|r| 100.0 * r.gain).collect(),
        }],
    };
    bar_charts_png(&[chart], &f.png, 800, 500)?;
    Ok(f)
}

impl Fig12 {
    /// The table, the paper's number beside.
    pub fn text(&self) -> String {
        let mut t = format!(
            "PWS Fig. 12 on the model: SpSIMD reuse, synthetic (D = 3, N1 = 0), {FIG12_SIMDS} \
             SIMDs, S = {FIG12_S}\nsplit points  no reuse     reuse  SIMDs (reuse)   gain\n"
        );
        for r in &self.rows {
            t += &format!(
                "{:>12} {:>9} {:>9} {:>14} {:>+6.1}%\n",
                r.split_points,
                r.no_reuse,
                r.reuse,
                r.reuse_simds,
                100.0 * r.gain
            );
        }
        t += &format!(
            "paper: fewer split points, bigger gain; up to +{:.0}%\nplot: {}\n",
            100.0 * PAPER_FIG12_MAX_GAIN,
            self.png.display()
        );
        t
    }
}

/// One kernel of the reordering evaluation.
#[derive(Clone, Debug, Serialize)]
pub struct ReorderRow {
    /// Kernel file name.
    pub kernel: String,
    /// Cycles under LRR without reordering (default).
    pub default: u64,
    /// Cycles under LRR with reordering.
    pub reorder: u64,
    /// Cycles under pure round-robin without reordering.
    pub pure_rr: u64,
    /// L1 accesses (reordering on).
    pub l1_accesses: u64,
    /// L1 misses measured (reordering on).
    pub misses: u64,
    /// The static estimate.
    pub estimated: u64,
}

impl ReorderRow {
    /// Estimated / measured misses (1 when both are 0).
    pub fn ratio(&self) -> f64 {
        match self.misses {
            0 if self.estimated == 0 => 1.0,
            m => self.estimated as f64 / m.max(1) as f64,
        }
    }
}

/// The reordering evaluation.
#[derive(Clone, Debug, Serialize)]
pub struct ReorderEval {
    /// Per kernel.
    pub rows: Vec<ReorderRow>,
    /// Mean over the kernels of (pure RR − reorder) / pure RR.
    pub improvement_relative: f64,
    /// Mean over the kernels of pure RR / default − reorder / default.
    pub improvement_normalised: f64,
    /// Geometric mean of reorder / default (reordering's overhead).
    pub overhead_reorder: f64,
    /// Geometric mean of pure RR / default.
    pub overhead_pure_rr: f64,
    /// The plot.
    pub png: PathBuf,
}

/// The reordering evaluation on every kernel of `kernels` (no-split, `scale` × each default
/// grid, the default configuration with the memory hierarchy).
pub fn reorder_eval(kernels: &Path, scale: u32, out: &Path) -> Result<ReorderEval, String> {
    let files = kernels_in(kernels)?;
    let configs = [
        (Policy::Lrr, false),
        (Policy::Lrr, true),
        (Policy::Rr, false),
    ];
    let mut cases = Vec::new();
    for f in &files {
        let (_, meta) = load_kernel(f)?;
        for (policy, reorder) in configs {
            cases.push(SysCase {
                kernel: f.clone(),
                cfg: CuConfig::default(),
                mode: Mode::NoSplit,
                s: 1,
                policy,
                reorder,
                idu: None,
                dims: Some(Dims {
                    grid: meta.dims.grid * scale,
                    wg: meta.dims.wg,
                }),
                seed: 1,
                timeout: 10_000_000,
            });
        }
    }
    let jobs = super::sweep::default_jobs();
    let runs = parallel(&cases, jobs, |c| catch_panic(|| run_case(c)), |_, _, _| {});
    let mut rows = Vec::new();
    for (f, three) in files.iter().zip(runs.chunks(3)) {
        let name = f
            .file_name()
            .map_or(String::new(), |n| n.to_string_lossy().into());
        let done = |r: &Result<SysOutcome, String>, what: &str| -> Result<SysOutcome, String> {
            match r {
                Ok(o) if o.status == "done" && o.exact == Some(true) => Ok(o.clone()),
                Ok(o) => Err(format!("{name} {what}: {} (exact {:?})", o.status, o.exact)),
                Err(e) => Err(format!("{name} {what}: {e}")),
            }
        };
        let (d, r, p) = (
            done(&three[0], "default")?,
            done(&three[1], "reorder")?,
            done(&three[2], "pure RR")?,
        );
        rows.push(ReorderRow {
            kernel: name,
            default: d.get("cycles"),
            reorder: r.get("cycles"),
            pure_rr: p.get("cycles"),
            l1_accesses: r.get("l1_accesses"),
            misses: r.get("l1_misses"),
            estimated: r.predicted_misses.unwrap_or(0),
        });
    }
    let norm = |r: &ReorderRow, c: u64| c as f64 / r.default.max(1) as f64;
    let e = ReorderEval {
        improvement_relative: mean(
            &rows
                .iter()
                .map(|r| 1.0 - r.reorder as f64 / r.pure_rr.max(1) as f64)
                .collect::<Vec<_>>(),
        ),
        improvement_normalised: mean(
            &rows
                .iter()
                .map(|r| norm(r, r.pure_rr) - norm(r, r.reorder))
                .collect::<Vec<_>>(),
        ),
        overhead_reorder: geomean(&rows.iter().map(|r| norm(r, r.reorder)).collect::<Vec<_>>()),
        overhead_pure_rr: geomean(&rows.iter().map(|r| norm(r, r.pure_rr)).collect::<Vec<_>>()),
        rows,
        png: out_png(out, "reorder-eval.png")?,
    };
    let categories: Vec<String> = e.rows.iter().map(|r| r.kernel.clone()).collect();
    let accuracy = BarChart {
        title: "Miss estimate / measured L1 misses with reordering (paper Fig. 14: ~1.0)".into(),
        x_label: "kernel".into(),
        y_label: "estimated / measured".into(),
        categories: categories.clone(),
        series: vec![Series {
            name: "rtgpu".into(),
            values: e.rows.iter().map(ReorderRow::ratio).collect(),
        }],
    };
    let series = |name: &str, f: fn(&ReorderRow) -> u64| Series {
        name: name.into(),
        values: e.rows.iter().map(|r| norm(r, f(r))).collect(),
    };
    let cycles = BarChart {
        title: "Cycles normalised to default (paper Fig. 12: reordering 24.4% better than pure RR)"
            .into(),
        x_label: "kernel".into(),
        y_label: "cycles / default".into(),
        categories,
        series: vec![
            series("default (LRR)", |r| r.default),
            series("reordering (LRR)", |r| r.reorder),
            series("pure round-robin", |r| r.pure_rr),
        ],
    };
    bar_charts_png(&[accuracy, cycles], &e.png, 1200, 1000)?;
    Ok(e)
}

impl ReorderEval {
    /// The tables, the paper's numbers beside.
    pub fn text(&self) -> String {
        let mut t = String::from(
            "Reordering evaluation (no-split, memory hierarchy): L1 miss estimate and cycles\n\
             kernel                  accesses  misses  estimate  ratio    default  reorder  pure RR\n",
        );
        for r in &self.rows {
            t += &format!(
                "{:<22} {:>9} {:>7} {:>9} {:>6.3} {:>10} {:>8} {:>8}\n",
                r.kernel,
                r.l1_accesses,
                r.misses,
                r.estimated,
                r.ratio(),
                r.default,
                r.reorder,
                r.pure_rr
            );
        }
        t += &format!(
            "miss estimate: {} of {} kernels exact (paper: \"very accurate\", ratio ~1.0)\n",
            self.rows.iter().filter(|r| r.misses == r.estimated).count(),
            self.rows.len()
        );
        t += &format!(
            "cycles / default (geomean): reordering {:.3}, pure RR {:.3}\n\
             reordering better than pure RR: {:.1}% relative, {:.1} points of normalised cycles \
             (paper: {:.1}%)\nplot: {}\n",
            self.overhead_reorder,
            self.overhead_pure_rr,
            100.0 * self.improvement_relative,
            100.0 * self.improvement_normalised,
            100.0 * PAPER_REORDER_VS_RR,
            self.png.display()
        );
        t
    }
}
