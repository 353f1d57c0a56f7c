//! `rtgpu reproduce lee-ch3`: Chapter 3 of Lee's thesis on the model (docs/works/thesis.md#ch3).
//! For every kernel (the assembly kernels and the compiled OpenCL C suite), before and after
//! the BuildFromBottom pass: the vulnerable period measured on the compute unit and estimated
//! by Algorithm 1, the cycles, and the outcomes of single-bit-flip injections, with the
//! thesis' numbers beside.

use super::{Campaign, Tally};
use crate::cu::run::Kernel;
use crate::cu::vuln::{attach, collect, VulnReport};
use rtgpu_firmware::launch::{Image, KernelMeta};
use rtgpu_firmware::vuln::{run_case, schedule, Case};
use rtgpu_hw::cu::CuConfig;
use serde::Serialize;
use std::path::{Path, PathBuf};

/// The thesis' Chapter 3 results quoted beside ours (Section 3.5.2).
pub const THESIS: &str = "thesis (Section 3.5.2, GPGPU-Sim, 9 benchmarks): reliability +23 % on \
average (up to 64 %) over the two protection methods it compares with, +12 % (up to 52 %) over \
performance-aware scheduling; performance overhead 125 % on average, 47 % without Mandelbrot; \
vulnerable period the smallest of the four methods for every benchmark but Hotspot";

/// One code variant of a kernel: its vulnerable periods, cycles and injection outcomes.
#[derive(Clone, Debug, Serialize)]
pub struct Variant {
    /// Measured and estimated vulnerable periods, cycles.
    pub vuln: VulnReport,
    /// Injection outcomes.
    pub faults: Tally,
}

/// One kernel's row.
#[derive(Clone, Debug, Serialize)]
pub struct Row {
    /// The kernel's file name.
    pub kernel: String,
    /// Instructions the pass moved.
    pub moved: usize,
    /// The original code.
    pub before: Variant,
    /// After the pass.
    pub after: Variant,
}

impl Row {
    /// Measured vulnerable period after / before.
    pub fn vp_ratio(&self) -> f64 {
        self.after.vuln.measured.total() as f64 / self.before.vuln.measured.total().max(1) as f64
    }

    /// Cycle overhead of the pass, in percent.
    pub fn overhead(&self) -> f64 {
        let (b, a) = (self.before.vuln.cycles, self.after.vuln.cycles);
        100.0 * (a as f64 - b as f64) / b.max(1) as f64
    }
}

/// The experiment's result.
#[derive(Clone, Debug, Serialize)]
pub struct LeeCh3 {
    /// Injections per kernel and variant.
    pub injections: u64,
    /// The campaign seed.
    pub seed: u64,
    /// Per kernel.
    pub rows: Vec<Row>,
    /// Kernels left out, with the reason.
    pub skipped: Vec<(String, String)>,
    /// The thesis' numbers.
    pub thesis: &'static str,
}

/// The launch case of the kernel at `path` (assembly or OpenCL C) with its default launch.
pub fn load(path: &Path) -> Result<Case, String> {
    let k = Kernel::load(path).map_err(|e| e.1)?;
    if k.prog.entry_pc() != 0 {
        return Err("the entry is not the first instruction".into());
    }
    let meta: KernelMeta = k.meta.clone();
    let image: Image = k.image(&meta.args, meta.dims, 1)?;
    Ok(Case {
        code: k.prog.words(),
        meta,
        image,
    })
}

/// Vulnerable periods and cycles of `case` on `cfg`.
fn measure(case: &Case, cfg: CuConfig) -> Result<VulnReport, String> {
    let (out, mut gpu) =
        run_case(case, cfg, 50_000_000, |cu| attach(cu, &case.code)).map_err(|e| e.to_string())?;
    out.result.map_err(|e| e.to_string())?;
    collect(gpu.cu_mut(), &case.code, case.meta.dims).ok_or_else(|| "no tracker".to_string())
}

/// One variant: measured, then `n` injections from `seed`; `tick` after each injection.
fn variant(case: Case, n: u64, seed: u64, tick: &(dyn Fn() + Sync)) -> Result<Variant, String> {
    let cfg = CuConfig::default();
    let vuln = measure(&case, cfg)?;
    let faults = Campaign::new(case, cfg)?.run(n, seed, tick)?;
    Ok(Variant { vuln, faults })
}

/// One kernel's row.
fn row(path: &Path, n: u64, seed: u64, tick: &(dyn Fn() + Sync)) -> Result<Row, String> {
    let case = load(path)?;
    let s = schedule(&case.code).map_err(|e| e.to_string())?;
    let after = Case {
        code: s.code,
        ..case.clone()
    };
    Ok(Row {
        kernel: path
            .file_name()
            .map_or(String::new(), |f| f.to_string_lossy().into()),
        moved: s.moved,
        before: variant(case, n, seed, tick)?,
        after: variant(after, n, seed, tick)?,
    })
}

/// The experiment over `kernels`, `n` injections per kernel and variant from `seed`; `tick`
/// after each injection.
pub fn lee_ch3(kernels: &[PathBuf], n: u64, seed: u64, tick: &(dyn Fn() + Sync)) -> LeeCh3 {
    let mut out = LeeCh3 {
        injections: n,
        seed,
        rows: Vec::new(),
        skipped: Vec::new(),
        thesis: THESIS,
    };
    for p in kernels {
        match row(p, n, seed, tick) {
            Ok(r) => out.rows.push(r),
            Err(e) => out.skipped.push((p.display().to_string(), e)),
        }
    }
    out
}

/// `a` of `b` with its 95 % interval, as `12 % [5, 25]`.
fn rate(t: &Tally) -> String {
    let (p, lo, hi) = t.failure_rate();
    format!("{:.0} % [{:.0}, {:.0}]", 100.0 * p, 100.0 * lo, 100.0 * hi)
}

impl LeeCh3 {
    /// The table.
    pub fn text(&self) -> String {
        let mut s = format!(
            "{:<20} {:>5} {:>13} {:>13} {:>6} {:>9} {:>9} {:>7} {:>18} {:>18}\n",
            "kernel",
            "moved",
            "VP measured",
            "VP est.",
            "after",
            "cycles",
            "after",
            "ovh %",
            "fail before",
            "fail after"
        );
        for r in &self.rows {
            let (b, a) = (&r.before, &r.after);
            s += &format!(
                "{:<20} {:>5} {:>13} {:>13} {:>6.3} {:>9} {:>9} {:>7.1} {:>18} {:>18}\n",
                r.kernel,
                r.moved,
                b.vuln.measured.total(),
                b.vuln.estimated.total(),
                r.vp_ratio(),
                b.vuln.cycles,
                a.vuln.cycles,
                r.overhead(),
                rate(&b.faults),
                rate(&a.faults)
            );
        }
        s += &self.summary();
        for (k, e) in &self.skipped {
            s += &format!("skipped {k}: {e}\n");
        }
        s + &format!("{}\n", self.thesis)
    }

    /// The means over the kernels: vulnerable period ratio, overhead, failure rates.
    fn summary(&self) -> String {
        let n = self.rows.len().max(1) as f64;
        let vp = self.rows.iter().map(Row::vp_ratio).sum::<f64>() / n;
        let ovh = self.rows.iter().map(Row::overhead).sum::<f64>() / n;
        let sum = |f: fn(&Row) -> &Tally| {
            self.rows.iter().fold(Tally::default(), |mut t, r| {
                let x = f(r);
                t.masked += x.masked;
                t.sdc += x.sdc;
                t.detected += x.detected;
                t.hang += x.hang;
                t
            })
        };
        let (b, a) = (sum(|r| &r.before.faults), sum(|r| &r.after.faults));
        format!(
            "ours ({} injections per kernel and variant, seed {}): measured vulnerable period after \
             the pass {:.3} of before on average; cycle overhead {:.1} % on average; failures \
             {} before, {} after (all kernels)\n",
            self.injections,
            self.seed,
            vp,
            ovh,
            rate(&b),
            rate(&a)
        )
    }
}
