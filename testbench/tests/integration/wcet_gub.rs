//! The multi-phase bound (GUB) on the compute unit's own wavefronts (`cu::wcet::gub`): computed
//! once per launch, it holds for random inputs, both work-conserving schedulers, several
//! wavefronts per SIMD, random kernels and memory that returns early; the mutations that drop
//! the other wavefronts' exec cycles or under-cost a section are caught.

use crate::wcet::{all_kernels, case, generated, Kernel};
use proptest::prelude::*;
use rtgpu_firmware::gen_kernel::GenOptions;
use rtgpu_firmware::launch::Dims;
use rtgpu_hw::cu::Mode;
use rtgpu_hw::sched::model::Policy;
use rtgpu_testbench::cu::wcet::gub::{bound, MultiPhase, Section};
use rtgpu_testbench::cu::wcet::inputs::{random_input, run_inputs};
use rtgpu_testbench::cu::wcet::phases::{self, LemmaCheck};
use rtgpu_testbench::cu::wcet::{analyze, observe, observe_with, WcetCase};

/// A change to the sections before they are summed.
type Mutation = dyn Fn(&mut [Section]);

/// The launches of the sweep: the kernel's own shape on 4 SIMDs, its grid ×4 (several
/// wavefronts per SIMD), and on one SIMD (every wavefront of the launch on one "SM", the
/// paper's setting), under `policy`, no splitting.
fn launches(k: &Kernel, policy: Policy) -> Vec<WcetCase> {
    let d = k.1.dims;
    let shapes = [(4, d), (4, grown(d, 4)), (1, d)];
    shapes
        .into_iter()
        .map(|(n_simd, dims)| {
            let mut c = case(k, dims, Mode::NoSplit, 1);
            c.policy = policy;
            c.cfg.n_simd = n_simd;
            c
        })
        .collect()
}

fn grown(d: Dims, by: u32) -> Dims {
    Dims {
        grid: d.grid * by,
        ..d
    }
}

/// The bound of `c` with `mutate` on its sections (`None`: it does not apply to `c`).
fn gub_of(c: &WcetCase, mutate: &Mutation) -> Option<MultiPhase> {
    let a = analyze(c).unwrap();
    let m = bound(c, &a, mutate).unwrap();
    m.not_applicable.is_none().then_some(m)
}

/// Runs `n` random inputs of `c` against its multi-phase bound (computed once); the worst
/// observed and the number of inputs above the bound. `None` when the bound does not apply.
fn inputs_against(c: &WcetCase, n: u64, mutate: &Mutation) -> Option<(u64, usize)> {
    let a = analyze(c).unwrap();
    let m = bound(c, &a, mutate).unwrap();
    if m.not_applicable.is_some() {
        return None;
    }
    let r = run_inputs(c, &a, Some(m.wcet), n, &|| {}).unwrap();
    Some((r.worst, r.multiphase_violations.len()))
}

/// Every kernel of the sweep, every launch shape, GTO and LRR, `n` inputs each: no input
/// above the bound; the number of (kernel, launch) pairs the bound applied to.
fn sweep(n: u64) -> usize {
    let mut applied = 0;
    for (name, k) in all_kernels() {
        for policy in [Policy::Gto, Policy::Lrr] {
            for c in launches(&k, policy) {
                let what = format!("{name} {policy:?} n_simd {} {:?}", c.cfg.n_simd, c.dims);
                if let Some((worst, bad)) = inputs_against(&c, n, &|_| {}) {
                    assert_eq!(bad, 0, "{what}: worst {worst}");
                    applied += 1;
                }
            }
        }
    }
    applied
}

/// Short sweep (3 inputs per launch). The bound must apply to most launches: a refusal
/// everywhere would make the sweep vacuous.
#[test]
fn gub_holds_for_every_kernel_over_inputs() {
    let applied = sweep(3);
    assert!(
        applied >= 20,
        "the bound applied to only {applied} launches"
    );
}

/// The long run: 1,000 inputs per launch (`cargo test --release ... -- --ignored gub_`).
#[test]
#[ignore]
fn gub_inputs_long() {
    sweep(1000);
}

/// Memory returns early at random (`lat.jitter`), the bound computed for the nominal
/// latencies: never above it, under both schedulers, with several wavefronts per SIMD.
#[test]
fn gub_holds_when_memory_returns_early() {
    for (name, k) in all_kernels() {
        for policy in [Policy::Gto, Policy::Lrr] {
            for c in launches(&k, policy) {
                let Some(m) = gub_of(&c, &|_| {}) else {
                    continue;
                };
                let a = analyze(&c).unwrap();
                for i in 0..2 {
                    let (mut j, _) = random_input(&c, i);
                    j.cfg.lat.jitter = 7919 * (i + 1);
                    let o = observe(&j, &a).unwrap();
                    assert_eq!(o.status, "done", "{name}");
                    assert!(o.cycles <= m.wcet, "{name} {policy:?}: {o:?} > {}", m.wcet);
                }
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    /// Random kernels (data-dependent branches and loops), one or four SIMDs, one to eight
    /// work-groups, random latencies, both schedulers, memory jitter on or off: the bound
    /// computed once holds for two random inputs.
    #[test]
    fn gub_holds_for_random_kernels(
        seed in 0u64..1_000_000,
        groups in 1u32..=8,
        one_simd in any::<bool>(),
        lrr in any::<bool>(),
        flat in 1u32..300,
        valu in 1u32..8,
        jitter in 0u64..3,
    ) {
        let gen = GenOptions { inputs: true, ..GenOptions::default() };
        let k = generated(seed, &gen);
        let mut c = case(&k, Dims { grid: 64 * groups, wg: 64 }, Mode::NoSplit, 1);
        c.policy = if lrr { Policy::Lrr } else { Policy::Gto };
        c.cfg.n_simd = if one_simd { 1 } else { 4 };
        (c.cfg.lat.flat, c.cfg.lat.valu, c.cfg.lat.jitter) = (flat, valu, jitter * 31);
        let what = format!("kernel {seed} {:?} {:?} {:?}", c.dims, c.policy, c.cfg.lat);
        if let Some((worst, bad)) = inputs_against(&c, 2, &|_| {}) {
            prop_assert_eq!(bad, 0, "{}: worst {}", what, worst);
        }
    }
}

/// The mutations the input runs catch: without the other wavefronts' exec cycles (Lemma 7's
/// interference term dropped: E = 0) and with every section's isolated time halved, some
/// launch with several wavefronts per SIMD goes above the bound.
#[test]
fn an_unsafe_gub_is_caught_by_the_input_runs() {
    let mutations: [(&str, &Mutation); 2] = [
        ("E = 0", &|s| s.iter_mut().for_each(|x| x.exec = 0)),
        ("T / 2", &|s| s.iter_mut().for_each(|x| x.t_iso /= 2)),
    ];
    for (what, mutate) in mutations {
        let caught = all_kernels().iter().any(|(_, k)| {
            let c = &launches(k, Policy::Lrr)[2];
            inputs_against(c, 2, mutate).is_some_and(|(_, bad)| bad > 0)
        });
        assert!(caught, "{what}: no input exceeded the mutated bound");
    }
}

/// With several wavefronts on one SIMD the multi-phase bound is tighter than the PWS
/// analysis's `k·E_WF` (it charges the other wavefronts their exec cycles only, not their
/// idle waits), and the same for GTO and LRR (it never looks at the schedule).
#[test]
fn gub_is_below_the_serialised_bound_and_policy_free() {
    let k = &all_kernels()
        .into_iter()
        .find(|(n, _)| n.ends_with("vector_add.s"))
        .unwrap()
        .1;
    let [gto, lrr] = [Policy::Gto, Policy::Lrr].map(|p| {
        let c = &launches(k, p)[2];
        let a = analyze(c).unwrap();
        let m = bound(c, &a, &|_| {}).unwrap();
        assert!(m.not_applicable.is_none(), "{m:?}");
        assert!(m.k > 1, "{m:?}");
        assert!(m.wcet < a.wcet, "GUB {} vs PWS {}", m.wcet, a.wcet);
        m.wcet
    });
    assert_eq!(gto, lrr);
}

/// The run's Lemma 7/8 checks of `c` (one SIMD, its bound applying) with or without the other
/// wavefronts' exec cycles in PUB.
fn lemmas(c: &WcetCase, interference: bool) -> Option<LemmaCheck> {
    let a = analyze(c).unwrap();
    let m = bound(c, &a, &|_| {}).unwrap();
    if !m.lemmas_apply(c, &a) {
        return None;
    }
    let (o, log) = observe_with(c, &a, true).unwrap();
    assert_eq!(o.status, "done");
    Some(phases::check(&a.compiled.code, &c.cfg, &log, interference))
}

/// Lemmas 7 and 8 per phase, every kernel on one SIMD (four or more wavefronts), GTO and
/// LRR, three random inputs each, with and without memory jitter: the real end of every exec
/// phase's last initiation and of every phase's latencies is within its PUB. The mutation
/// that drops the other wavefronts' exec cycles from PUB (Lemma 7's interference term) is
/// caught: some phase ends after it.
#[test]
fn lemmas_7_and_8_hold_per_phase_on_one_simd() {
    let (mut checked, mut caught) = (0, 0);
    for (name, k) in all_kernels() {
        for policy in [Policy::Gto, Policy::Lrr] {
            let c = &launches(&k, policy)[2];
            for i in 0..3 {
                let (mut input, _) = random_input(c, i);
                input.cfg.lat.jitter = i * 7919;
                let Some(l) = lemmas(&input, true) else {
                    continue;
                };
                let what = format!("{name} {policy:?} input {i}");
                assert!(l.lemma7.is_empty() && l.lemma8.is_empty(), "{what}: {l:?}");
                checked += l.phases;
                let m = lemmas(&input, false).unwrap();
                caught += m.lemma7.len() + m.lemma8.len();
            }
        }
    }
    assert!(checked > 1000, "only {checked} phases checked");
    assert!(caught > 0, "dropping the interference term was not caught");
}
