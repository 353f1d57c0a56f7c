//! `rtgpu reproduce`: a paper's results on the model, printed and drawn.

use crate::common::{print_json_or, Fail};
use rtgpu_testbench::cu::evals;
use rtgpu_testbench::cu::sweep::kernels_in;
use rtgpu_testbench::cu::wcet::reproduce::{self, ReproduceOpts};
use rtgpu_testbench::fault::lee_ch3;
use std::path::PathBuf;

/// The arguments of `rtgpu reproduce`.
#[derive(Clone, Debug, clap::Args)]
pub struct ReproduceArgs {
    /// The experiment: `pws` (Table 3 and the kernel set's speedups), `pws-fig11` (the
    /// OpenCL C suite's speedups), `pws-fig12` (SpSIMD reuse), `reorder` (the reordering
    /// paper's miss-estimate accuracy and its cycles against pure round-robin) or
    /// `multiphase` (the multi-phase paper's Table 3: the GUB's overestimation per kernel,
    /// memory latency and scheduler) or `reorder-wcet` (the reordering paper's Eqs. 1–4 on the
    /// kernel set, without and with the miss information: its Fig. 16) or `sgemm` (the
    /// multi-phase paper's Table 4: the GUB's overestimation for the OpenCL C SGEMM, naive and
    /// double-buffered, by wavefront count and memory latency, over random inputs) or
    /// `lee-ch3` (Lee's thesis, Chapter 3: vulnerable periods measured and estimated, before
    /// and after the BuildFromBottom pass, bit-flip injection outcomes, the pass's cycle cost).
    /// `lee-ch5` (the thesis' Section 5.4: random sets of its Table 5.1 applications on 13
    /// compute units, deadlines met per priority class under its scheduler, FIFO and EDF).
    /// `simd` (the Sim-D paper's Table 5 and Figs. 7–8: the WCET's tightness over the
    /// simulated run, the phase rules' cost over free scheduling and the bus use, on the Sim-D
    /// kernels and generated programs of several tile shapes).
    #[arg(value_parser = ["pws", "pws-fig11", "pws-fig12", "reorder", "multiphase", "reorder-wcet", "sgemm", "lee-ch3", "lee-ch5", "simd"])]
    pub what: String,
    /// Where to write the plot (`pws.png`, `pws-fig11.png`, `pws-fig12.png`,
    /// `reorder-eval.png`, `multiphase-table3.png`, `reorder-wcet.png`,
    /// `multiphase-table4.png`).
    #[arg(long, default_value = ".")]
    pub out: PathBuf,
    /// The assembly kernels: synthetic.s (pws, pws-fig12), the kernel set (pws, reorder,
    /// multiphase, reorder-wcet)
    /// (default: firmware/kernels under the current directory).
    #[arg(long, value_name = "DIR")]
    pub kernel_dir: Option<PathBuf>,
    /// The OpenCL C suite (pws-fig11, sgemm; default: firmware/suite under the current
    /// directory).
    #[arg(long, value_name = "DIR")]
    pub suite_dir: Option<PathBuf>,
    /// Leaf loop iterations of the synthetic kernel (N2): the divergent work per path
    /// (1..=1024).
    #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub n2: u32,
    /// pws, reorder and reorder-wcet run this many times each kernel's default grid (1..=64).
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u32).range(1..=64))]
    pub scale: u32,
    /// pws-fig11 runs the suite at this `rtgpu suite --size` (1..=64).
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u32).range(1..=64))]
    pub size: u32,
    /// sgemm: random inputs per cell (1..=10000; the worst is the observed time).
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u64).range(1..=10000))]
    pub inputs: u64,
    /// lee-ch3: injections per kernel and variant (default 24; with --long 400).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    pub injections: Option<u64>,
    /// The long run: lee-ch3 with 400 injections per kernel and variant; lee-ch5 with the
    /// full set (20 to 100 applications, the scalability analysis 3 to 15, three random sets
    /// per point; several minutes); simd with the kernels' full grids, 32 work-groups per
    /// generated program and more tile shapes.
    #[arg(long)]
    pub long: bool,
    /// lee-ch3: seed of the injection campaigns.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

/// Reproduces the results; prints the tables (or JSON) and draws the plot.
pub fn run(o: &ReproduceArgs) -> Result<(), Fail> {
    let kernels = || rtgpu_testbench::paths::kernel_dir(o.kernel_dir.as_deref());
    let fail = |m: String| Fail(1, m);
    match o.what.as_str() {
        "lee-ch5" => lee_ch5(o),
        "simd" => simd(o),
        "pws-fig11" => {
            let f = evals::fig11(o.suite_dir.as_deref(), o.size, &o.out).map_err(fail)?;
            print_json_or(o.json, &f, evals::Fig11::text)
        }
        "pws-fig12" => {
            let k = kernels().map_err(Fail::coded)?;
            let f = evals::fig12(&k, o.n2, &o.out).map_err(fail)?;
            print_json_or(o.json, &f, evals::Fig12::text)
        }
        "multiphase" => {
            let k = kernels().map_err(Fail::coded)?;
            let t = rtgpu_testbench::cu::wcet::mp_table::table3(&k, &o.out).map_err(fail)?;
            print_json_or(o.json, &t, |t| t.text())
        }
        "sgemm" => {
            let dir = o
                .suite_dir
                .clone()
                .unwrap_or_else(|| PathBuf::from("firmware/suite"));
            let t = rtgpu_testbench::cu::wcet::sgemm_table::table4(&dir, o.inputs, &o.out)
                .map_err(fail)?;
            print_json_or(o.json, &t, |t| t.text())
        }
        "reorder-wcet" => {
            let k = kernels().map_err(Fail::coded)?;
            let r = rtgpu_testbench::cu::wcet::reorder_eq::reorder_wcet(&k, o.scale, &o.out)
                .map_err(fail)?;
            print_json_or(o.json, &r, |r| r.text())
        }
        "lee-ch3" => lee_ch3(o),
        "reorder" => {
            let k = kernels().map_err(Fail::coded)?;
            let e = evals::reorder_eval(&k, o.scale, &o.out).map_err(fail)?;
            print_json_or(o.json, &e, evals::ReorderEval::text)
        }
        _ => reproduce::reproduce(&ReproduceOpts {
            what: o.what.clone(),
            out: o.out.clone(),
            kernel_dir: o.kernel_dir.clone(),
            n2: o.n2,
            scale: o.scale,
            json: o.json,
        })
        .map_err(Fail::coded),
    }
}

/// `reproduce lee-ch3`: the assembly kernels and the OpenCL C suite.
fn lee_ch3(o: &ReproduceArgs) -> Result<(), Fail> {
    let k = rtgpu_testbench::paths::kernel_dir(o.kernel_dir.as_deref()).map_err(Fail::coded)?;
    let suite = o
        .suite_dir
        .clone()
        .unwrap_or_else(|| PathBuf::from("firmware/suite"));
    let mut kernels = kernels_in(&k).map_err(|e| Fail(2, e))?;
    let mut cl: Vec<PathBuf> = std::fs::read_dir(&suite)
        .map_err(|e| Fail(2, format!("{}: {e}", suite.display())))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "cl"))
        .collect();
    cl.sort();
    kernels.extend(cl);
    let n = o.injections.unwrap_or(if o.long { 400 } else { 24 });
    let bar = crate::common::progress(2 * n * kernels.len() as u64, "lee-ch3");
    let r = lee_ch3::lee_ch3(&kernels, n, o.seed, &|| bar.inc(1));
    bar.finish_and_clear();
    print_json_or(o.json, &r, lee_ch3::LeeCh3::text)
}

/// `reproduce lee-ch5`: the thesis' Section 5.4 on the model, with a progress bar.
fn lee_ch5(o: &ReproduceArgs) -> Result<(), Fail> {
    use rtgpu_firmware::rtsched::eval::{evaluate, EvalConfig};
    let cfg = if o.long {
        EvalConfig::long()
    } else {
        EvalConfig::short()
    };
    let bar = crate::common::progress(0, "lee-ch5");
    let r = evaluate(&cfg, &mut |done, total| {
        bar.set_length(total as u64);
        bar.set_position(done as u64);
    })
    .map_err(|e| Fail(1, e))?;
    bar.finish_and_clear();
    print_json_or(o.json, &r, |r| r.text())
}

/// `reproduce simd`: the Sim-D kernels (firmware/kernels/simd) and generated programs, with a
/// progress bar; exit 1 if a kernel exceeds its bound.
fn simd(o: &ReproduceArgs) -> Result<(), Fail> {
    use rtgpu_testbench::cu::wcet::simd::reproduce as sr;
    let k = rtgpu_testbench::paths::kernel_dir(o.kernel_dir.as_deref()).map_err(Fail::coded)?;
    let bar = crate::common::progress(0, "simd");
    let r = sr::reproduce(&k.join("simd"), o.long, &|| bar.inc(1)).map_err(|e| Fail(1, e))?;
    bar.finish_and_clear();
    print_json_or(o.json, &r, sr::SimdRepro::text)?;
    match r.violations {
        0 => Ok(()),
        n => Err(Fail(1, format!("{n} kernels exceed their Sim-D WCET"))),
    }
}
