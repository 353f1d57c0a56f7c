//! The PWS WCET analysis against the simulator: the analytical bound holds for
//! every kernel, mode, S, input and random divergent kernel; Table 3's shape on the model.

use proptest::prelude::*;
use rtgpu_firmware::gen_kernel::{divergent_kernel, GenOptions};
use rtgpu_firmware::isa::assemble;
use rtgpu_firmware::launch::{Arg, Dims, KernelMeta};
use rtgpu_firmware::pws_pass::Marks;
use rtgpu_hw::cu::{CuConfig, Mode};
use rtgpu_hw::sched::model::Policy;
use rtgpu_testbench::cu::sweep::kernels_in;
use rtgpu_testbench::cu::system::load_kernel;
use rtgpu_testbench::cu::wcet::reproduce::table3;
use rtgpu_testbench::cu::wcet::{analyze, observe, Analysis, WcetCase};
use std::path::{Path, PathBuf};

/// The repository's kernels (tests run in testbench/).
fn kernel_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../firmware/kernels")
}

fn case(code: Vec<u32>, meta: &KernelMeta, dims: Dims, mode: Mode, s: u32) -> WcetCase {
    WcetCase {
        code,
        lds: meta.lds,
        dims,
        args: meta.args.clone(),
        seed: 1,
        cfg: CuConfig::default(),
        mode,
        s,
        marks: Marks::Source,
        reprovision: false,
        policy: Policy::Gto,
        timeout: 50_000_000,
    }
}

/// Analyses and simulates `c`; panics with the whole story when the bound does not hold.
fn check(c: &WcetCase, what: &str) -> (Analysis, u64) {
    let a = analyze(c).unwrap_or_else(|e| panic!("{what}: analysis: {e}"));
    let o = observe(c, &a).unwrap_or_else(|e| panic!("{what}: run: {e}"));
    assert_eq!(o.status, "done", "{what}");
    assert!(
        o.cycles <= a.wcet,
        "{what}: observed {} > analytical {} ({a:#?})",
        o.cycles,
        a.wcet
    );
    (a, o.cycles)
}

const MODES: [(Mode, u32); 6] = [
    (Mode::NoSplit, 1),
    (Mode::Dws, 1),
    (Mode::Dws, 3),
    (Mode::Pws, 1),
    (Mode::Pws, 2),
    (Mode::Pws, 3),
];

#[test]
fn wcet_bound_holds_for_every_kernel_mode_and_grid() {
    for path in kernels_in(&kernel_dir()).unwrap() {
        let (code, meta) = load_kernel(&path).unwrap();
        for scale in [1, 12] {
            let dims = Dims {
                grid: meta.dims.grid * scale,
                ..meta.dims
            };
            for (mode, s) in MODES {
                for policy in [Policy::Gto, Policy::Lrr] {
                    let mut c = case(code.clone(), &meta, dims, mode, s);
                    c.policy = policy;
                    let what = format!("{} {dims:?} {mode:?} S={s} {policy:?}", path.display());
                    check(&c, &what);
                }
            }
        }
    }
}

#[test]
fn wcet_bound_holds_with_every_if_marked_and_with_reprovisioning() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../firmware/kernels/synthetic.s");
    let (code, meta) = load_kernel(&path).unwrap();
    for (mode, s) in MODES.into_iter().chain([(Mode::Pws, 7), (Mode::Dws, 7)]) {
        let mut c = case(code.clone(), &meta, meta.dims, mode, s);
        c.marks = if mode == Mode::Pws {
            Marks::Shallowest(s as usize)
        } else {
            Marks::All
        };
        check(&c, &format!("synthetic mark-all {mode:?} S={s}"));
    }
    for path in kernels_in(&kernel_dir()).unwrap() {
        let (code, meta) = load_kernel(&path).unwrap();
        let mut c = case(code, &meta, meta.dims, Mode::Pws, 1);
        c.cfg.n_simd = 2;
        c.reprovision = true;
        let (a, _) = check(&c, &format!("{} re-provisioned", path.display()));
        // Eq. 2 with swfCount: a kernel without splits gets all its SpSIMDs back as SIMDs.
        let expect = if a.pass.swf_count == 0 { 4 } else { 2 };
        assert_eq!(a.n_simd, expect, "{}", path.display());
    }
}

/// The synthetic kernel at full divergence, every if marked: PWS's bound falls with S and
/// stays below no-split's; DWS's grows with S (the (S+1) factor of Eq. 8); every observed
/// time is within its bound (Table 3's shape).
#[test]
fn wcet_table3_shape() {
    let rows = table3(&kernel_dir(), 8).unwrap();
    assert_eq!(rows.iter().map(|r| r.s).collect::<Vec<_>>(), [1, 3, 7]);
    assert_eq!(rows.iter().map(|r| r.sb).collect::<Vec<_>>(), [1, 3, 7]);
    for r in &rows {
        for c in r.cells {
            assert!(c.observed <= c.analytical, "{r:?}");
        }
        let [nosplit, dws, pws] = r.cells;
        // One wavefront per SIMD (k = 1): the bound is close, not vacuous.
        for c in [nosplit, pws] {
            assert!(10 * c.observed >= 6 * c.analytical, "{r:?}");
        }
        assert!(pws.analytical < nosplit.analytical, "{r:?}");
        assert!(pws.analytical < dws.analytical, "{r:?}");
        assert!(pws.observed < nosplit.observed, "{r:?}");
    }
    for w in rows.windows(2) {
        assert!(w[1].cells[2].analytical < w[0].cells[2].analytical);
        assert!(w[1].cells[1].analytical > w[0].cells[1].analytical);
        assert!(w[1].pws_vs_dws > w[0].pws_vs_dws);
    }
}

fn regression(name: &str) -> (Vec<u32>, KernelMeta) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/wcet_kernels")
        .join(name);
    load_kernel(&path).unwrap()
}

/// The review's two counterexamples: more sequential DWS splits than S with costly
/// split/merge, and a VALU busy into the next block (`issue_period` > `valu`).
#[test]
fn wcet_bound_holds_for_the_review_counterexamples() {
    let (code, meta) = regression("seq_empty.s");
    let mut c = case(code, &meta, meta.dims, Mode::Dws, 1);
    c.cfg.lat.e_split = 15;
    c.cfg.lat.e_merge = 15;
    let (a, _) = check(&c, "seq_empty DWS S=1 e_s = e_m = 15");
    assert_eq!(a.pass.kept, 20);
    let (code, meta) = regression("hazard.s");
    for mode in [Mode::Pws, Mode::Dws, Mode::NoSplit] {
        let mut c = case(code.clone(), &meta, meta.dims, mode, 1);
        c.cfg.lat.issue_period = 64;
        c.cfg.lat.valu = 1;
        c.cfg.lat.e_split = 1;
        c.cfg.lat.e_merge = 1;
        check(&c, &format!("hazard {mode:?} issue_period 64 valu 1"));
    }
}

fn random_kernel(seed: u64) -> (Vec<u32>, KernelMeta) {
    let src = divergent_kernel(seed, &GenOptions::default());
    let code = assemble(&src, "random").unwrap().words();
    (code, KernelMeta::parse(&src).unwrap())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// Random divergent kernels, inputs, modes, S and grids: simulated ≤ analytical.
    #[test]
    fn wcet_bound_holds_for_random_divergent_kernels(
        seed in 0u64..1_000_000,
        input in 0u64..1000,
        m in 0usize..MODES.len(),
        groups in 1u32..12,
        lrr in any::<bool>(),
    ) {
        let (code, meta) = random_kernel(seed);
        let (mode, s) = MODES[m];
        let s = if mode == Mode::Pws { s.max(meta.min_s) } else { s };
        let dims = Dims { grid: 64 * groups, wg: 64 };
        let mut c = case(code, &meta, dims, mode, s);
        c.seed = input;
        c.policy = if lrr { Policy::Lrr } else { Policy::Gto };
        check(&c, &format!("random kernel {seed} input {input} {mode:?} S={s} {dims:?}"));
    }

    /// Random kernels on random compute-unit shapes and latencies, with work-groups of one to
    /// four wavefronts.
    #[test]
    fn wcet_bound_holds_for_random_configurations(
        seed in 0u64..1_000_000,
        m in 0usize..MODES.len(),
        lat in proptest::collection::vec(1u32..16, 8),
        flat in 1u32..300,
        n_simd in 1usize..=8,
        n_wfc in 4usize..=10,
        waves in 1u32..=4,
        groups in 1u32..10,
    ) {
        let (code, meta) = random_kernel(seed);
        let (mode, s) = MODES[m];
        let dims = Dims { grid: 64 * waves * groups, wg: 64 * waves };
        let mut c = case(code, &meta, dims, mode, s);
        let l = &mut c.cfg.lat;
        (l.issue_period, l.valu, l.salu, l.branch) = (lat[0], lat[1], lat[2], lat[3]);
        (l.smem, l.lds, l.flat) = (lat[4] * 4, lat[5] * 2, flat);
        (l.e_split, l.e_merge) = (lat[6] as u8, lat[7] as u8);
        (c.cfg.n_simd, c.cfg.n_wfc) = (n_simd, n_wfc);
        let what = format!("random kernel {seed} {mode:?} S={s} {dims:?} {:?}", c.cfg.lat);
        check(&c, &format!("{what} n_simd {n_simd} n_wfc {n_wfc}"));
    }

    /// The kernels of firmware/kernels over random inputs and argument values.
    #[test]
    fn wcet_bound_holds_over_inputs(
        input in 0u64..10_000,
        k in 0usize..6,
        m in 0usize..MODES.len(),
        n in 0u32..5,
        d in 0u32..4,
    ) {
        let kernels = kernels_in(&kernel_dir()).unwrap();
        let path = &kernels[k % kernels.len()];
        let (code, meta) = load_kernel(path).unwrap();
        let (mode, s) = MODES[m];
        let mut c = case(code, &meta, meta.dims, mode, s);
        c.seed = input;
        if path.ends_with("synthetic.s") {
            c.args = ["int:grid", "zero:grid", &n.to_string(), &(n + 1).to_string(), &d.to_string()]
                .iter()
                .map(|a| Arg::parse(a).unwrap())
                .collect();
        }
        check(&c, &format!("{} input {input} {mode:?} S={s} n={n} d={d}", path.display()));
    }
}
