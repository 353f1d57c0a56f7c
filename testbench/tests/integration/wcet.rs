//! The PWS WCET analysis against the simulator: the analytical bound holds for
//! every kernel, mode, S, input and random divergent kernel; Table 3's shape on the model.

use crate::common::SPLIT_MODES;
use proptest::prelude::*;
use rtgpu_firmware::gen_kernel::{divergent_kernel, GenOptions};
use rtgpu_firmware::isa::assemble;
use rtgpu_firmware::launch::{Arg, Dims, KernelMeta};
use rtgpu_firmware::pws_pass::Marks;
use rtgpu_hw::cu::{CuConfig, Mode};
use rtgpu_hw::sched::model::Policy;
use rtgpu_testbench::cu::sweep::kernels_in;
use rtgpu_testbench::cu::wcet::inputs::{random_input, run_inputs};
use rtgpu_testbench::cu::wcet::loops::Facts;
use rtgpu_testbench::cu::wcet::reproduce::table3;
use rtgpu_testbench::cu::wcet::{
    analyze, analyze_with, gub, load_with_facts, observe, Analysis, WcetCase,
};
use std::path::{Path, PathBuf};

/// The repository's kernels (tests run in testbench/).
pub(crate) fn kernel_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../firmware/kernels")
}

pub(crate) type Kernel = (Vec<u32>, KernelMeta, Facts);

fn load_kernel(path: &Path) -> Result<Kernel, String> {
    load_with_facts(path)
}

pub(crate) fn case((code, meta, facts): &Kernel, dims: Dims, mode: Mode, s: u32) -> WcetCase {
    WcetCase {
        code: code.clone(),
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
        facts: facts.clone(),
        reorder: false,
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

#[test]
fn wcet_bound_holds_for_every_kernel_mode_and_grid() {
    for path in kernels_in(&kernel_dir()).unwrap() {
        let k = load_kernel(&path).unwrap();
        let meta = k.1.clone();
        for scale in [1, 12] {
            let dims = Dims {
                grid: meta.dims.grid * scale,
                ..meta.dims
            };
            for (mode, s) in SPLIT_MODES {
                for policy in [Policy::Gto, Policy::Lrr] {
                    let mut c = case(&k, dims, mode, s);
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
    let k = load_kernel(&path).unwrap();
    let meta = k.1.clone();
    for (mode, s) in SPLIT_MODES
        .into_iter()
        .chain([(Mode::Pws, 7), (Mode::Dws, 7)])
    {
        let mut c = case(&k, meta.dims, mode, s);
        c.marks = if mode == Mode::Pws {
            Marks::Shallowest(s as usize)
        } else {
            Marks::All
        };
        check(&c, &format!("synthetic mark-all {mode:?} S={s}"));
    }
    for path in kernels_in(&kernel_dir()).unwrap() {
        let k = load_kernel(&path).unwrap();
        let meta = k.1.clone();
        let mut c = case(&k, meta.dims, Mode::Pws, 1);
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

fn regression(name: &str) -> Kernel {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/integration/wcet_kernels")
        .join(name);
    load_kernel(&path).unwrap()
}

/// Every wavefront of the launch issues bursts of DS instructions at once
/// (`wcet_kernels/lds_burst.s`): the LDS, one DS instruction every `lds_period` cycles, is the
/// bottleneck. The PWS bound and the multi-phase bound hold for `lds_period` 1, 4 (the
/// default) and 16, without splitting and under PWS, GTO and LRR (docs/assumptions.md#A105).
/// Mutation: the other contexts' DS instructions not charged (`lds_interference` returning
/// 0) fails it (no-split, period 4, GTO: observed above the bound).
#[test]
fn wcet_bounds_hold_under_lds_contention() {
    let k = regression("lds_burst.s");
    for lds_period in [1, 4, 16] {
        for (mode, s) in [(Mode::NoSplit, 1), (Mode::Pws, 1)] {
            for policy in [Policy::Gto, Policy::Lrr] {
                let mut c = case(&k, k.1.dims, mode, s);
                c.cfg.lat.lds_period = lds_period;
                c.policy = policy;
                let what = format!("lds_burst {mode:?} {policy:?} lds_period {lds_period}");
                let (a, observed) = check(&c, &what);
                let m = gub::bound(&c, &a, &|_| {}).unwrap();
                println!(
                    "{what}: observed {observed} bound {} gub {:?}",
                    a.wcet,
                    m.not_applicable.is_none().then_some(m.wcet)
                );
                if m.not_applicable.is_none() {
                    assert!(
                        observed <= m.wcet,
                        "{what}: observed {observed} > GUB {}",
                        m.wcet
                    );
                }
            }
        }
    }
}

/// The review's two counterexamples: more sequential DWS splits than S with costly
/// split/merge, and a VALU busy into the next block (`issue_period` > `valu`).
#[test]
fn wcet_bound_holds_for_the_review_counterexamples() {
    let k = regression("seq_empty.s");
    let meta = k.1.clone();
    let mut c = case(&k, meta.dims, Mode::Dws, 1);
    c.cfg.lat.e_split = 15;
    c.cfg.lat.e_merge = 15;
    let (a, _) = check(&c, "seq_empty DWS S=1 e_s = e_m = 15");
    assert_eq!(a.pass.kept, 20);
    let k = regression("hazard.s");
    let meta = k.1.clone();
    for mode in [Mode::Pws, Mode::Dws, Mode::NoSplit] {
        let mut c = case(&k, meta.dims, mode, 1);
        c.cfg.lat.issue_period = 64;
        c.cfg.lat.valu = 1;
        c.cfg.lat.e_split = 1;
        c.cfg.lat.e_merge = 1;
        check(&c, &format!("hazard {mode:?} issue_period 64 valu 1"));
    }
}

fn random_kernel(seed: u64) -> Kernel {
    generated(seed, &GenOptions::default())
}

pub(crate) fn generated(seed: u64, opts: &GenOptions) -> Kernel {
    let src = divergent_kernel(seed, opts);
    let prog = assemble(&src, "random").unwrap();
    let meta = KernelMeta::parse(&src).unwrap();
    let facts = Facts::parse(&src, &prog, &meta.args).unwrap();
    (prog.words(), meta, facts)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// Random divergent kernels, inputs, modes, S and grids: simulated ≤ analytical.
    #[test]
    fn wcet_bound_holds_for_random_divergent_kernels(
        seed in 0u64..1_000_000,
        input in 0u64..1000,
        m in 0usize..SPLIT_MODES.len(),
        groups in 1u32..12,
        lrr in any::<bool>(),
    ) {
        let k = random_kernel(seed);
        let meta = k.1.clone();
        let (mode, s) = SPLIT_MODES[m];
        let s = if mode == Mode::Pws { s.max(meta.min_s) } else { s };
        let dims = Dims { grid: 64 * groups, wg: 64 };
        let mut c = case(&k, dims, mode, s);
        c.seed = input;
        c.policy = if lrr { Policy::Lrr } else { Policy::Gto };
        check(&c, &format!("random kernel {seed} input {input} {mode:?} S={s} {dims:?}"));
    }

    /// Random kernels on random compute-unit shapes and latencies, with work-groups of one to
    /// four wavefronts.
    #[test]
    fn wcet_bound_holds_for_random_configurations(
        seed in 0u64..1_000_000,
        m in 0usize..SPLIT_MODES.len(),
        lat in proptest::collection::vec(1u32..16, 8),
        flat in 1u32..300,
        n_simd in 1usize..=8,
        n_wfc in 4usize..=10,
        waves in 1u32..=4,
        groups in 1u32..10,
    ) {
        let k = random_kernel(seed);
        let (mode, s) = SPLIT_MODES[m];
        let dims = Dims { grid: 64 * waves * groups, wg: 64 * waves };
        let mut c = case(&k, dims, mode, s);
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
        m in 0usize..SPLIT_MODES.len(),
        n in 0u32..5,
        d in 0u32..4,
    ) {
        let kernels = kernels_in(&kernel_dir()).unwrap();
        let path = &kernels[k % kernels.len()];
        let k = load_kernel(path).unwrap();
        let meta = k.1.clone();
        let (mode, s) = SPLIT_MODES[m];
        let mut c = case(&k, meta.dims, mode, s);
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

/// Every kernel of firmware/kernels and the regression kernels, with their flow facts.
pub(crate) fn all_kernels() -> Vec<(String, Kernel)> {
    let regress = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/integration/wcet_kernels");
    kernels_in(&kernel_dir())
        .unwrap()
        .into_iter()
        .chain(["guarded_heavy.s", "bfs_loop.s"].map(|k| regress.join(k)))
        .map(|p| (p.display().to_string(), load_kernel(&p).unwrap()))
        .collect()
}

/// The bound is computed once on the launch's own input; then `n` random inputs (random
/// buffers, ranged scalar arguments drawn) must stay within it.
pub(crate) fn once_then_inputs(c: &WcetCase, n: u64, what: &str) -> (u64, u64) {
    let a = analyze(c).unwrap_or_else(|e| panic!("{what}: analysis: {e}"));
    let r = run_inputs(c, &a, None, n, &|| {}).unwrap_or_else(|e| panic!("{what}: run: {e}"));
    assert!(
        r.violations.is_empty(),
        "{what}: bound {} exceeded: {:?}",
        a.wcet,
        r.violations
    );
    (a.wcet, r.worst)
}

/// The configurations the input sweeps cover: every mode, S, both schedulers.
pub(crate) const SWEEP: [(Mode, u32, Policy); 6] = [
    (Mode::NoSplit, 1, Policy::Gto),
    (Mode::NoSplit, 1, Policy::Lrr),
    (Mode::Dws, 2, Policy::Gto),
    (Mode::Pws, 1, Policy::Lrr),
    (Mode::Pws, 2, Policy::Gto),
    (Mode::Pws, 3, Policy::Lrr),
];

/// Tightness (bound / worst observed over the short sweep's inputs) kept from regressing:
/// per kernel, the largest over the no-split and PWS configurations, 10 % above what it was
/// when written down (docs/results.md#wcet-tightness). DWS's bound is loose by design (its
/// (S + 1) factor) and not held here.
const TIGHTNESS: [(&str, f64); 8] = [
    ("fig2_divergent.s", 1.30),
    ("fig5_nested.s", 1.32),
    ("lds_reduce.s", 5.13),
    ("loop.s", 1.24),
    ("synthetic.s", 3.18),
    ("vector_add.s", 1.44),
    ("guarded_heavy.s", 3.49),
    ("bfs_loop.s", 1.40),
];

/// `k` at its launch's shape in one configuration (mode, S, policy), PWS at no less than the
/// kernel's least S.
pub(crate) fn sweep_case(k: &Kernel, (mode, s, policy): (Mode, u32, Policy)) -> WcetCase {
    let s = if mode == Mode::Pws {
        s.max(k.1.min_s)
    } else {
        s
    };
    let mut c = case(k, k.1.dims, mode, s);
    c.policy = policy;
    c
}

fn sweep_inputs(n: u64) {
    for (name, k) in all_kernels() {
        for (mode, s, policy) in SWEEP {
            let mut c = sweep_case(&k, (mode, s, policy));
            let s = c.s;
            c.seed = 1000;
            let what = format!("{name} {mode:?} S={s} {policy:?}");
            let (bound, worst) = once_then_inputs(&c, n, &what);
            println!("{what}: bound {bound} worst {worst}");
            let ceiling = TIGHTNESS
                .iter()
                .find(|(f, _)| name.ends_with(f))
                .map(|t| t.1);
            if mode != Mode::Dws {
                let ceiling = ceiling.unwrap_or_else(|| panic!("{name}: no tightness entry"));
                let t = bound as f64 / worst as f64;
                assert!(t <= ceiling, "{what}: tightness {t:.2} > {ceiling}");
            }
        }
    }
}

/// The `x > T` regression: analysed on the input where no x exceeds T (T = 1000, the
/// then-arm never runs), the bound holds for T = 0 and T = −200, where every lane runs it.
/// Before the static block costs, the arm was charged 0 ("not reached") and T = 0 exceeded
/// the bound.
#[test]
fn wcet_bound_holds_when_another_input_reaches_the_heavy_arm() {
    let k = regression("guarded_heavy.s");
    for (mode, s) in [(Mode::NoSplit, 1), (Mode::Pws, 1), (Mode::Dws, 1)] {
        let c = case(&k, k.1.dims, mode, s);
        let a = analyze(&c).unwrap();
        let unreached: u64 = a
            .blocks
            .iter()
            .filter(|b| !b.cost.reached)
            .map(|b| b.static_cycles)
            .sum();
        assert!(
            unreached > 200,
            "{mode:?}: the arm is costed: {:?}",
            a.blocks
        );
        let mut cycles = Vec::new();
        for t in [1000i32, 0, -200] {
            let mut c2 = c.clone();
            c2.args[2] = Arg::Scalar(t as u32);
            let o = observe(&c2, &a).unwrap();
            assert!(o.within, "{mode:?} T={t}: {} > {}", o.cycles, a.wcet);
            cycles.push(o.cycles);
        }
        // The arm is heavy: a bound without it would be exceeded.
        assert!(cycles[2] > cycles[0] + 150, "{cycles:?}");
        if mode != Mode::Dws {
            assert!(
                a.wcet < cycles[0] + unreached + 400,
                "{mode:?}: {} {cycles:?}",
                a.wcet
            );
        }
        // The check itself can fail: a bound one below the worst is reported.
        let mut lower = a.clone();
        lower.wcet = cycles[2] - 1;
        let r = run_inputs(&c, &lower, None, 8, &|| {}).unwrap();
        assert!(!r.violations.is_empty(), "{mode:?}");
    }
}

/// Splits inside loops (the bfs pattern, `bfs_loop.s`): the kernel keeps its in-loop split in
/// DWS and PWS (the pass alone rejects it: without `loop_splits::hide` the analysis is an
/// error), every run splits once per level, and the bound computed once holds for 40 random
/// inputs (data and level count) per mode, S and scheduler. Each level's split and merge are
/// charged: raising e_split and e_merge from 1 to 15 raises the loop's static cost by
/// 6 levels × 28 cycles exactly (the mutation that drops `split_costs` is caught here).
#[test]
fn wcet_bound_holds_for_splits_inside_loops() {
    let k = regression("bfs_loop.s");
    for (mode, s, policy) in SWEEP {
        let mut c = case(&k, k.1.dims, mode, s);
        c.policy = policy;
        c.seed = 77;
        let what = format!("bfs_loop {mode:?} S={s} {policy:?}");
        let (bound, worst) = once_then_inputs(&c, 40, &what);
        println!("{what}: bound {bound} worst {worst}");
    }
    let mut c = case(&k, k.1.dims, Mode::Pws, 1);
    let a = analyze(&c).unwrap();
    let splits = a
        .compiled
        .code
        .iter()
        .filter(|&&w| w >> 16 == 0xBF7F)
        .count();
    assert_eq!(splits, 1, "the in-loop split is kept");
    let o = observe(&c, &a).unwrap();
    assert!(o.within, "{o:?}");
    let static_of = |c: &WcetCase| -> u64 {
        analyze(c)
            .unwrap()
            .blocks
            .iter()
            .map(|b| b.static_cycles)
            .max()
            .unwrap()
    };
    (c.cfg.lat.e_split, c.cfg.lat.e_merge) = (1, 1);
    let low = static_of(&c);
    (c.cfg.lat.e_split, c.cfg.lat.e_merge) = (15, 15);
    let high = static_of(&c);
    assert_eq!(high - low, 6 * 28, "{low} {high}");
}

/// The configurations of the generated-kernel input runs: every mode with S = 1 and 3, both
/// schedulers.
const GEN_SWEEP: [(Mode, u32); 5] = [
    (Mode::NoSplit, 1),
    (Mode::Dws, 1),
    (Mode::Dws, 3),
    (Mode::Pws, 1),
    (Mode::Pws, 3),
];

/// Generated kernels with input-dependent timing (`GenOptions::inputs`: loops of `levels`
/// trips, heavy arms behind `thresh`): per kernel and configuration the bound is computed
/// once on the launch's input, then `n` random inputs (buffers, `levels`, `thresh`) run
/// against it. Returns (inputs run, worst tightness).
fn generated_inputs(seed: u64, n: u64) -> (u64, f64) {
    let opts = GenOptions {
        inputs: true,
        ..GenOptions::default()
    };
    let k = generated(seed, &opts);
    let (mut runs, mut loosest) = (0, 0f64);
    for (mode, s) in GEN_SWEEP {
        for policy in [Policy::Gto, Policy::Lrr] {
            let c = sweep_case(&k, (mode, s, policy));
            let s = c.s;
            let what = format!("generated kernel {seed} {mode:?} S={s} {policy:?}");
            let (bound, worst) = once_then_inputs(&c, n, &what);
            runs += n;
            loosest = loosest.max(bound as f64 / worst as f64);
        }
    }
    (runs, loosest)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 4, ..ProptestConfig::default() })]

    /// Safety over inputs on generated kernels with data-dependent trip counts and heavy arms
    /// reached only for some inputs: 4 kernels × 10 configurations × 6 inputs (240) in CI;
    /// the long run is `wcet_generated_inputs_long`. The check can fail: see
    /// `an_under_costed_block_is_caught_by_the_input_runs`.
    #[test]
    fn wcet_bound_holds_for_generated_kernels_over_inputs(seed in 0u64..1_000_000) {
        generated_inputs(seed, 6);
    }
}

/// The long run of the generated-kernel safety test: 20 kernels × 10 configurations × 10
/// inputs = 2,000 inputs, the bound computed once per kernel and configuration.
#[test]
#[ignore]
fn wcet_generated_inputs_long() {
    let (mut runs, mut loosest) = (0, 0f64);
    for seed in 0..20 {
        let (r, t) = generated_inputs(0xC0FFEE + seed, 10);
        runs += r;
        loosest = loosest.max(t);
    }
    println!("generated kernels: {runs} inputs, 0 violations, loosest tightness {loosest:.2}");
}

/// The mutation the input runs must catch: the costliest block of a generated kernel charged
/// nothing. Over a few generated kernels (no-split, the bound is the longest path's sum), the
/// under-costed bound is exceeded by some random input.
#[test]
fn an_under_costed_block_is_caught_by_the_input_runs() {
    let opts = GenOptions {
        inputs: true,
        ..GenOptions::default()
    };
    let zero_costliest = |c: &mut [u64]| {
        if let Some(m) = c.iter_mut().max() {
            *m = 0;
        }
    };
    let caught = (0..6u64).any(|seed| {
        let k = generated(seed, &opts);
        let c = case(&k, k.1.dims, Mode::NoSplit, 1);
        let a = analyze_with(&c, &zero_costliest).unwrap();
        let r = run_inputs(&c, &a, None, 8, &|| {}).unwrap();
        !r.violations.is_empty()
    });
    assert!(caught, "no input exceeded an under-costed bound");
}

/// Jitter: memory returns early at random (`lat.jitter`: each fixed-latency access takes
/// 1..=its latency cycles), the bound computed once for the nominal latencies. Every kernel
/// of the input sweep (the bfs pattern included) and two generated kernels with
/// input-dependent timing, every mode and both schedulers, 4 jitter seeds × 3 inputs each:
/// never above the bound. The hook really shortens accesses: with it, some run is faster
/// than the same input without it (the mutation `jittered` = nominal fails that check).
#[test]
fn wcet_bound_holds_when_memory_returns_early() {
    let gen = GenOptions {
        inputs: true,
        ..GenOptions::default()
    };
    let kernels = all_kernels()
        .into_iter()
        .chain((0..2).map(|s| (format!("generated {s}"), generated(100 + s, &gen))));
    let mut faster = 0;
    for (name, k) in kernels {
        for (mode, s, policy) in SWEEP {
            let c = sweep_case(&k, (mode, s, policy));
            let s = c.s;
            let a = analyze(&c).unwrap();
            for i in 0..3 {
                let (input, _) = random_input(&c, i);
                let nominal = observe(&input, &a).unwrap();
                for seed in 1..=4u64 {
                    let mut j = input.clone();
                    j.cfg.lat.jitter = seed * 7919 + i;
                    let o = observe(&j, &a).unwrap();
                    let what = format!("{name} {mode:?} S={s} {policy:?} input {i} jitter {seed}");
                    assert!(
                        o.within && o.status == "done",
                        "{what}: {o:?} bound {}",
                        a.wcet
                    );
                    faster += usize::from(o.cycles < nominal.cycles);
                }
            }
        }
    }
    assert!(faster > 0, "the jitter never shortened a run");
}

/// A loop without a derivable bound or an annotation is an error naming it; with the
/// annotation it is analysed.
#[test]
fn an_unbounded_loop_is_an_error_naming_it() {
    let mut k = load_kernel(&kernel_dir().join("loop.s")).unwrap();
    k.2.loops.iter_mut().for_each(|l| l.bound = None);
    let e = analyze(&case(&k, k.1.dims, Mode::NoSplit, 1)).unwrap_err();
    assert_eq!(e.code(), 2);
    assert!(e.to_string().contains("`lane_loop`"), "{e}");
    // The uniform loop's bound follows its argument's range: 16 iterations at most.
    let mut k = load_kernel(&kernel_dir().join("loop.s")).unwrap();
    let small = analyze(&case(&k, k.1.dims, Mode::NoSplit, 1)).unwrap().wcet;
    k.2.ranges[0].hi = 64;
    let big = analyze(&case(&k, k.1.dims, Mode::NoSplit, 1)).unwrap().wcet;
    assert!(big > small + 48 * 4, "{small} {big}");
}

/// Safety over inputs, short: every kernel, every mode, S and scheduler, the bound computed
/// once, a few random inputs each (the long run: `wcet_inputs_long`).
#[test]
fn wcet_bound_computed_once_holds_for_random_inputs() {
    sweep_inputs(3);
}

/// Safety over inputs, long: 1,000 random inputs per kernel and configuration
/// (`cargo test --release -p rtgpu-testbench --test integration wcet:: -- --ignored --nocapture`).
#[test]
#[ignore]
fn wcet_inputs_long() {
    sweep_inputs(1000);
}

/// The static block costs are never below what the launch's own input measured in isolation
/// (blocks holding a barrier aside: their measured visits include the wait for the other
/// wavefronts, which the bound covers at the wavefront level).
#[test]
fn static_block_costs_cover_the_measured_visits() {
    use rtgpu_hw::isa::insn_model::{decode_fields, unit};
    for (name, k) in all_kernels() {
        for (mode, s) in [(Mode::NoSplit, 1), (Mode::Pws, 3)] {
            let a = analyze(&case(&k, k.1.dims, mode, s)).unwrap();
            let code = &a.compiled.code;
            let barrier_pcs: Vec<u32> = (0..code.len())
                .filter(|&i| {
                    let f = decode_fields(code[i], code.get(i + 1).copied().unwrap_or(0));
                    f.unit == unit::SYNC && f.opcode == 0x0A
                })
                .map(|i| 4 * i as u32)
                .collect();
            let st = &a.compiled.structure;
            let owners_with_barrier: Vec<_> = barrier_pcs
                .iter()
                .filter_map(|&pc| st.owner_of(pc))
                .collect();
            for b in &a.blocks {
                let owner = st.owner_of(b.pc).unwrap();
                if owners_with_barrier.contains(&owner) {
                    continue;
                }
                assert!(
                    b.cost.cycles <= b.static_cycles,
                    "{name} {mode:?}: {} measured {} > static {}",
                    b.name,
                    b.cost.cycles,
                    b.static_cycles
                );
            }
        }
    }
}
