//! `rtgpu reproduce pws`: the paper's Table 3 shape and Fig. 11's average-case speedup on the
//! model (docs/works/pws.md#table-3, docs/works/pws.md#fig-11), as a table, JSON and a PNG.
//!
//! - **Table 3**: the synthetic kernel (firmware/kernels/synthetic.s) at full divergence
//!   (D = 3: eight paths per wavefront), no non-divergent loop (N1 = 0), the S shallowest
//!   ifs marked for PWS ("as many split points as there are SpSIMD units"), every if for DWS
//!   (it may split at any divergent branch, up to S live splits), one work-group
//!   per SIMD (k = 1, the paper's setting); for S = 1, 3, 7 the observed and analytical
//!   cycles of no-split, DWS and PWS, and PWS's analytical reduction against DWS.
//! - **Speedup**: every kernel of firmware/kernels at `scale` × its default grid, no-split on
//!   N_SIMD SIMDs against PWS with S = 1 on N_SIMD/2 SIMDs (the total SIMD count held
//!   constant, as Fig. 11), re-provisioned by Eq. 2 when the kernel does not split.

use super::loops::Facts;
use super::{analyze, load_with_facts, observe, Analysis, Observed, WcetCase};
use crate::cu::sweep::kernels_in;
use crate::plot::{bar_charts_png, BarChart, Series};
use rtgpu_firmware::launch::{Arg, Dims};
use rtgpu_firmware::pws_pass::Marks;
use rtgpu_hw::cu::{CuConfig, Mode};
use rtgpu_hw::sched::model::Policy;
use serde::Serialize;
use std::path::{Path, PathBuf};

/// The arguments of `rtgpu reproduce`.
#[derive(Clone, Debug, clap::Args)]
pub struct ReproduceOpts {
    /// The experiment: `pws`.
    #[arg(value_parser = ["pws"])]
    pub what: String,
    /// Where to write the plot (`pws.png`).
    #[arg(long, default_value = ".")]
    pub out: PathBuf,
    /// The kernels: synthetic.s for Table 3, every .s for the speedups (default:
    /// firmware/kernels under the current directory).
    #[arg(long, value_name = "DIR")]
    pub kernel_dir: Option<PathBuf>,
    /// Leaf loop iterations of the synthetic kernel (N2): the divergent work per path
    /// (1..=1024).
    #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub n2: u32,
    /// The speedup runs use this many times each kernel's default grid (1..=64).
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u32).range(1..=64))]
    pub scale: u32,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

/// One row of the paper's Table 3 (thousands of cycles).
#[derive(Clone, Copy, Debug)]
pub struct PaperRow {
    /// S.
    pub s: u32,
    /// No-split, DWS, PWS as (observed, analytical).
    pub cells: [(u32, u32); 3],
    /// PWS's analytical reduction against DWS, percent.
    pub reduction: u32,
}

/// The PWS paper's Table 3 (docs/works/pws.md#table-3).
pub const PAPER_TABLE3: [PaperRow; 3] = [
    PaperRow {
        s: 1,
        cells: [(500, 680), (140, 600), (150, 300)],
        reduction: 50,
    },
    PaperRow {
        s: 3,
        cells: [(500, 680), (50, 870), (30, 220)],
        reduction: 75,
    },
    PaperRow {
        s: 7,
        cells: [(500, 680), (45, 1440), (15, 180)],
        reduction: 88,
    },
];

/// One cell pair of Table 3.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct Cell {
    /// Simulated cycles.
    pub observed: u64,
    /// Analytical WCET, cycles.
    pub analytical: u64,
}

/// One row of Table 3 on the model.
#[derive(Clone, Debug, Serialize)]
pub struct Row {
    /// S.
    pub s: u32,
    /// No-split, DWS, PWS.
    pub cells: [Cell; 3],
    /// |SB| of the PWS analysis.
    pub sb: usize,
    /// 1 − PWS analytical / DWS analytical.
    pub pws_vs_dws: f64,
    /// 1 − PWS analytical / no-split analytical.
    pub pws_vs_nosplit: f64,
}

/// One kernel's average-case speedup.
#[derive(Clone, Debug, Serialize)]
pub struct Speedup {
    /// Kernel file name.
    pub kernel: String,
    /// No-split cycles on N_SIMD SIMDs.
    pub nosplit: u64,
    /// PWS S = 1 cycles on N_SIMD/2 SIMDs (re-provisioned).
    pub pws: u64,
    /// SIMDs of the PWS run after Eq. 2.
    pub pws_simds: usize,
    /// nosplit / pws.
    pub speedup: f64,
    /// PWS S = 1 cycles on N_SIMD SIMDs, each with its SpSIMD (hardware added).
    pub pws_added: u64,
    /// nosplit / pws_added.
    pub speedup_added: f64,
}

/// The whole reproduction.
#[derive(Clone, Debug, Serialize)]
pub struct Reproduction {
    /// Table 3 on the model.
    pub table3: Vec<Row>,
    /// Per kernel.
    pub speedups: Vec<Speedup>,
    /// Geometric mean of the speedups.
    pub geomean: f64,
    /// Arithmetic mean of the speedups.
    pub mean: f64,
    /// Geometric mean of the speedups with the SpSIMDs added.
    pub geomean_added: f64,
    /// The plot.
    pub png: PathBuf,
}

fn reduction(a: u64, b: u64) -> f64 {
    1.0 - a as f64 / b.max(1) as f64
}

fn synthetic_case(kernels: &Path, n2: u32, mode: Mode, s: u32) -> Result<WcetCase, String> {
    let (code, meta, facts) = load_with_facts(&kernels.join("synthetic.s"))?;
    let args = ["int:grid", "zero:grid", "0", &n2.to_string(), "3"]
        .iter()
        .map(|a| Arg::parse(a).map_err(|e| e.0))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(WcetCase {
        code,
        lds: meta.lds,
        dims: Dims { grid: 256, wg: 64 },
        args,
        seed: 1,
        cfg: CuConfig::default(),
        mode,
        s,
        // PWS: the S shallowest ifs (the paper's annotation); DWS: every divergent branch.
        marks: match mode {
            Mode::Pws => Marks::Shallowest(s as usize),
            _ => Marks::All,
        },
        reprovision: false,
        policy: Policy::Gto,
        timeout: 100_000_000,
        // The table is for these argument values: they are the shape, not ranges.
        facts: Facts {
            ranges: Vec::new(),
            ..facts
        },
        reorder: false,
    })
}

/// Analyses and simulates `case`; `Err` unless the launch finished.
fn finished(case: &WcetCase) -> Result<(Analysis, Observed), String> {
    let a = analyze(case).map_err(|e| e.to_string())?;
    let o = observe(case, &a)?;
    match o.status.as_str() {
        "done" => Ok((a, o)),
        s => Err(format!("{} S={}: the launch ended in {s}", a.mode, a.s)),
    }
}

fn cell(case: &WcetCase) -> Result<(Cell, usize), String> {
    let (a, o) = finished(case)?;
    let cell = Cell {
        observed: o.cycles,
        analytical: a.wcet,
    };
    Ok((cell, a.pass.kept))
}

/// Table 3 on the model (`kernels`: the repository's kernel directory).
pub fn table3(kernels: &Path, n2: u32) -> Result<Vec<Row>, String> {
    let (nosplit, _) = cell(&synthetic_case(kernels, n2, Mode::NoSplit, 1)?)?;
    [1, 3, 7]
        .into_iter()
        .map(|s| {
            let (dws, _) = cell(&synthetic_case(kernels, n2, Mode::Dws, s)?)?;
            let (pws, sb) = cell(&synthetic_case(kernels, n2, Mode::Pws, s)?)?;
            Ok(Row {
                s,
                cells: [nosplit, dws, pws],
                sb,
                pws_vs_dws: reduction(pws.analytical, dws.analytical),
                pws_vs_nosplit: reduction(pws.analytical, nosplit.analytical),
            })
        })
        .collect()
}

fn speedup_of(path: &Path, scale: u32) -> Result<Speedup, String> {
    let (code, meta, facts) = load_with_facts(path)?;
    let dims = Dims {
        grid: meta.dims.grid * scale,
        wg: meta.dims.wg,
    };
    let base = CuConfig::default();
    let case = |mode, n_simd, reprovision| WcetCase {
        code: code.clone(),
        lds: meta.lds,
        dims,
        args: meta.args.clone(),
        seed: 1,
        cfg: CuConfig { n_simd, ..base },
        mode,
        s: 1,
        marks: Marks::Source,
        reprovision,
        policy: Policy::Gto,
        timeout: 100_000_000,
        facts: facts.clone(),
        reorder: false,
    };
    // The analysis also gives the launch's shape (the re-provisioned SIMDs).
    let run = |c: &WcetCase| -> Result<(u64, usize), String> {
        let (a, o) = finished(c).map_err(|e| format!("{}: {e}", path.display()))?;
        Ok((o.cycles, a.n_simd))
    };
    let (nosplit, _) = run(&case(Mode::NoSplit, base.n_simd, false))?;
    let (pws, pws_simds) = run(&case(Mode::Pws, base.n_simd / 2, true))?;
    let (pws_added, _) = run(&case(Mode::Pws, base.n_simd, false))?;
    Ok(Speedup {
        kernel: path
            .file_name()
            .map_or(String::new(), |n| n.to_string_lossy().into()),
        nosplit,
        pws,
        pws_simds,
        speedup: nosplit as f64 / pws.max(1) as f64,
        pws_added,
        speedup_added: nosplit as f64 / pws_added.max(1) as f64,
    })
}

/// Runs the whole reproduction on the kernels in `kernels` and draws it into `out/pws.png`.
pub fn run(kernels: &Path, n2: u32, scale: u32, out: &Path) -> Result<Reproduction, String> {
    let table3 = table3(kernels, n2)?;
    let speedups = kernels_in(kernels)?
        .iter()
        .map(|k| speedup_of(k, scale))
        .collect::<Result<Vec<_>, _>>()?;
    let n = speedups.len().max(1) as f64;
    let geo = |f: fn(&Speedup) -> f64| (speedups.iter().map(|s| f(s).ln()).sum::<f64>() / n).exp();
    let geomean = geo(|s| s.speedup);
    let geomean_added = geo(|s| s.speedup_added);
    let mean = speedups.iter().map(|s| s.speedup).sum::<f64>() / n;
    std::fs::create_dir_all(out).map_err(|e| format!("{}: {e}", out.display()))?;
    let png = out.join("pws.png");
    let r = Reproduction {
        table3,
        speedups,
        geomean,
        mean,
        geomean_added,
        png,
    };
    draw(&r)?;
    Ok(r)
}

fn draw(r: &Reproduction) -> Result<(), String> {
    let names = ["no-split", "DWS", "PWS"];
    let mut series = Vec::new();
    for (m, name) in names.iter().enumerate() {
        for (kind, pick) in [("observed", false), ("analytical", true)] {
            series.push(Series {
                name: format!("{name} {kind}"),
                values: r
                    .table3
                    .iter()
                    .map(|row| {
                        let c = row.cells[m];
                        (if pick { c.analytical } else { c.observed }) as f64 / 1000.0
                    })
                    .collect(),
            });
        }
    }
    let table = BarChart {
        title: "Table 3 on the model: synthetic kernel, full divergence".into(),
        x_label: "S (SpSIMDs per SIMD / live splits)".into(),
        y_label: "thousands of cycles".into(),
        categories: r
            .table3
            .iter()
            .map(|row| format!("S = {}", row.s))
            .collect(),
        series,
    };
    let mut categories: Vec<String> = r.speedups.iter().map(|s| s.kernel.clone()).collect();
    categories.push("geomean".into());
    let series = |name: &str, f: fn(&Speedup) -> f64, g: f64| Series {
        name: name.into(),
        values: r.speedups.iter().map(f).chain([g]).collect(),
    };
    let speed = BarChart {
        title: "Average case: PWS S = 1 vs no-split".into(),
        x_label: "kernel".into(),
        y_label: "speedup (no-split cycles / PWS cycles)".into(),
        categories,
        series: vec![
            series("SIMD count held constant", |s| s.speedup, r.geomean),
            series("SpSIMDs added", |s| s.speedup_added, r.geomean_added),
        ],
    };
    bar_charts_png(&[table, speed], &r.png, 1200, 1000)
}

impl Reproduction {
    /// The tables as text, the paper's numbers beside the model's.
    pub fn text(&self) -> String {
        let mut t = String::from(
            "Table 3 (synthetic, full divergence), cycles on the model; paper in thousands\n",
        );
        t += "  S | no-split obs/ana   | DWS obs/ana        | PWS obs/ana      | |SB| | PWS vs DWS (paper) | PWS vs no-split\n";
        for (row, paper) in self.table3.iter().zip(PAPER_TABLE3) {
            let c = &row.cells;
            t += &format!(
                "  {} | {:>7} / {:>7}  | {:>7} / {:>7}  | {:>6} / {:>7} | {:>4} | {:>5.1}% ({}%)     | {:>5.1}%\n",
                row.s,
                c[0].observed,
                c[0].analytical,
                c[1].observed,
                c[1].analytical,
                c[2].observed,
                c[2].analytical,
                row.sb,
                100.0 * row.pws_vs_dws,
                paper.reduction,
                100.0 * row.pws_vs_nosplit,
            );
        }
        t += "paper (k cycles): ";
        for PaperRow { s, cells, .. } in PAPER_TABLE3 {
            t += &format!(
                "S={s}: {}/{} {}/{} {}/{}; ",
                cells[0].0, cells[0].1, cells[1].0, cells[1].1, cells[2].0, cells[2].1
            );
        }
        t += "\n\nAverage-case speedup of PWS S = 1 against no-split on 4 SIMDs: SIMD count held\n";
        t += "constant (2 SIMDs + 2 SpSIMDs, re-provisioned by Eq. 2) and SpSIMDs added (4 + 4)\n";
        for s in &self.speedups {
            t += &format!(
                "  {:<20} no-split {:>8}  PWS {:>8} ({} SIMDs) {:.3}  added {:>8} {:.3}\n",
                s.kernel, s.nosplit, s.pws, s.pws_simds, s.speedup, s.pws_added, s.speedup_added
            );
        }
        t += &format!(
            "  geometric mean {:+.1}% (paper: +11% on Rodinia), arithmetic mean {:+.1}% (paper: +18%)\n",
            100.0 * (self.geomean - 1.0),
            100.0 * (self.mean - 1.0)
        );
        t += &format!(
            "  with the SpSIMDs added: geometric mean {:+.1}%\n",
            100.0 * (self.geomean_added - 1.0)
        );
        t += &format!("plot: {}\n", self.png.display());
        t
    }
}

/// `rtgpu reproduce`.
pub fn reproduce(o: &ReproduceOpts) -> Result<(), (u8, String)> {
    if o.n2 == 0 || o.scale == 0 {
        return Err((2, "--n2 and --scale must be at least 1".into()));
    }
    let kernels = crate::paths::kernel_dir(o.kernel_dir.as_deref())?;
    let r = run(&kernels, o.n2, o.scale, &o.out).map_err(|m| (1, m))?;
    if o.json {
        let j = serde_json::to_string_pretty(&r).map_err(|e| (1, e.to_string()))?;
        println!("{j}");
    } else {
        print!("{}", r.text());
    }
    Ok(())
}
