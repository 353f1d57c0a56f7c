//! The multi-phase analysis (wcet/src/multiphase.rs) against the SM issue model
//! (testbench/src/sm/), each written without the other, and the RTL warp scheduler inside the
//! SM model (spec/001-multiphase.md §9.3: C1 single-warp exactness, C2 safety, C6 anomalies,
//! C7 golden examples).

use proptest::prelude::*;
use rtgpu_testbench::sm::{simulate, Policy, PolicyScheduler, Scheduler, SmRun};
use rtgpu_testbench::tb::sched::{fig3_block, RtlScheduler};
use rtgpu_wcet::multiphase::{build_profile, gub, gub_sections, PhaseKind};
use rtgpu_wcet::trace::{Block, DynInst, FuSpec, HwDesc};

fn run(block: &Block, hw: &HwDesc, sched: &mut dyn Scheduler) -> SmRun {
    simulate(block, hw, sched).unwrap_or_else(|e| panic!("{e}"))
}

fn policy_run(block: &Block, hw: &HwDesc, policy: Policy) -> SmRun {
    run(block, hw, &mut PolicyScheduler::new(policy, block.len()))
}

/// The same block on the RTL scheduler (64-warp instance) in the harness.
fn rtl_run(block: &Block, hw: &HwDesc, policy: Policy) -> SmRun {
    let mut rtl = RtlScheduler::<64>::new(policy).unwrap_or_else(|e| panic!("{e}"));
    let r = run(block, hw, &mut rtl);
    assert!(rtl.error.is_none(), "{:?}", rtl.error);
    r
}

#[test]
fn fig3_gto_17_lrr_18_gub_23_on_the_rtl_scheduler() {
    let (block, hw) = fig3_block();
    let profile = build_profile(&block[0], &hw).unwrap();
    let phases: Vec<(PhaseKind, u64, u64)> = profile
        .phases
        .iter()
        .map(|p| (p.kind, p.start, p.dur))
        .collect();
    assert_eq!(
        phases,
        [
            (PhaseKind::Exec, 0, 7),
            (PhaseKind::Idle, 7, 1),
            (PhaseKind::Exec, 8, 2),
            (PhaseKind::Idle, 10, 4)
        ]
    );
    let bound = gub(&[profile.clone(), profile]).gub;
    assert_eq!(bound, 23);
    for (policy, time) in [(Policy::Gto, 17), (Policy::Lrr, 18)] {
        let model = policy_run(&block, &hw, policy);
        let rtl = rtl_run(&block, &hw, policy);
        assert_eq!(rtl, model, "{policy:?}: the RTL scheduler changes the run");
        assert_eq!(rtl.block_time, time, "{policy:?}");
        assert!(rtl.block_time <= bound);
    }
}

fn inst(fu: usize, srcs: &[u16], dst: u16) -> DynInst {
    DynInst::new(fu, srcs, Some(dst))
}

fn hw2(a: (u32, u32), b: (u32, u32)) -> HwDesc {
    HwDesc::from_costs(&[a, b])
}

#[test]
fn appendix_b_anomalies_reproduce_and_stay_under_the_gub() {
    let lrr: Block = vec![
        vec![inst(0, &[], 0), inst(1, &[0], 0)],
        vec![
            inst(0, &[], 0),
            inst(1, &[0], 0),
            inst(0, &[0], 2),
            inst(1, &[], 0),
        ],
        vec![inst(0, &[], 0), inst(0, &[], 0), inst(1, &[0], 1)],
    ];
    let gto: Block = vec![
        vec![
            inst(1, &[], 2),
            inst(0, &[2], 2),
            inst(1, &[2], 0),
            inst(1, &[2], 1),
        ],
        vec![inst(0, &[], 0), inst(0, &[0], 0), inst(1, &[0], 0)],
        vec![inst(1, &[], 2), inst(1, &[2], 1)],
    ];
    // (block, policy, FU0, FU1 latencies, makespan, GUB): a shorter FU1 latency lengthens the run.
    let cases = [
        (&lrr, Policy::Lrr, (4, 5), 3, 30, 36),
        (&lrr, Policy::Lrr, (4, 5), 2, 32, 35),
        (&gto, Policy::Gto, (4, 7), 1, 25, 33),
        (&gto, Policy::Gto, (4, 7), 0, 28, 32),
    ];
    for (block, policy, fu0, lat1, makespan, bound) in cases {
        let hw = hw2(fu0, (1, lat1));
        let rtl = rtl_run(block, &hw, policy);
        assert_eq!(rtl.block_time, makespan, "{policy:?} lat {lat1}");
        assert_eq!(gub_sections(block, &hw).unwrap().gub, bound);
        assert!(makespan <= bound);
    }
}

/// A random block as spec §9.3 / Appendix A draws them: 2–6 warps, 1–4 units, init 1–8,
/// lat 0–30, 1–25 instructions per warp, dependences with a random probability, 2–12
/// registers, and the same number (0–2) of barriers in every warp.
fn random_block() -> impl Strategy<Value = (Block, HwDesc)> {
    let hw = prop::collection::vec((1u32..=8, 0u32..=30), 1..=4).prop_map(|fus| HwDesc {
        fus: fus
            .into_iter()
            .map(|(init, lat)| FuSpec { init, lat })
            .collect(),
    });
    (
        hw,
        2usize..=6,
        0usize..=2,
        2u16..=12,
        0.0f64..=1.0,
        any::<u64>(),
    )
        .prop_map(|(hw, warps, barriers, regs, dep, seed)| {
            let mut rng = Lcg(seed | 1);
            let n_fu = hw.fus.len();
            let block = (0..warps)
                .map(|_| random_path(&mut rng, n_fu, barriers, regs, dep))
                .collect();
            (block, hw)
        })
}

/// A small deterministic generator inside a proptest case (the case's seed is shrunk with it).
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (self.0 >> 33) % n.max(1)
    }

    fn chance(&mut self, p: f64) -> bool {
        (self.below(1 << 20) as f64) < p * f64::from(1u32 << 20)
    }
}

fn random_path(rng: &mut Lcg, n_fu: usize, barriers: usize, regs: u16, dep: f64) -> Vec<DynInst> {
    let len = 1 + rng.below(25) as usize;
    let mut path: Vec<DynInst> = (0..len)
        .map(|_| {
            let fu = rng.below(n_fu as u64) as usize;
            let mut srcs = Vec::new();
            for _ in 0..2 {
                if rng.chance(dep) {
                    srcs.push(rng.below(u64::from(regs)) as u16);
                }
            }
            let dst = rng.chance(0.9).then(|| rng.below(u64::from(regs)) as u16);
            DynInst::new(fu, &srcs, dst)
        })
        .collect();
    for _ in 0..barriers {
        let at = rng.below(path.len() as u64 + 1) as usize;
        path.insert(at, DynInst::barrier(rng.below(n_fu as u64) as usize));
    }
    path
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, ..ProptestConfig::default() })]

    /// C1: a warp alone: every instruction's analysed issue, dispatch, initiation end and
    /// completion equal the simulated ones, and the phases add up to the simulated time.
    #[test]
    fn single_warp_analysis_equals_simulation((block, hw) in random_block()) {
        let path = block[0].iter().filter(|i| !i.barrier).cloned().collect::<Vec<_>>();
        let alone: Block = vec![path.clone()];
        let sim = policy_run(&alone, &hw, Policy::Gto);
        let profile = build_profile(&path, &hw).unwrap();
        prop_assert_eq!(profile.t_iso(), sim.block_time);
        for (k, iso) in profile.iso.iter().enumerate() {
            let e = sim.event(0, k).unwrap();
            prop_assert_eq!(
                (iso.issue, iso.dispatch, iso.init_end, iso.complete),
                (e.issue, e.dispatch, e.init_end, e.complete),
                "instruction {}", k
            );
        }
    }

    /// C2: the simulated block time never exceeds the GUB (summed over barrier sections),
    /// under LRR and GTO.
    #[test]
    fn gub_is_never_below_the_simulated_time((block, hw) in random_block()) {
        let bound = gub_sections(&block, &hw).unwrap().gub;
        for policy in [Policy::Lrr, Policy::Gto] {
            let t = policy_run(&block, &hw, policy).block_time;
            prop_assert!(t <= bound, "{:?}: simulated {} > GUB {}", policy, t, bound);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    /// The RTL scheduler in the SM model gives exactly the behavioural scheduler's run.
    #[test]
    fn rtl_scheduler_runs_equal_the_model((block, hw) in random_block(), gto in any::<bool>()) {
        let policy = if gto { Policy::Gto } else { Policy::Lrr };
        prop_assert_eq!(rtl_run(&block, &hw, policy), policy_run(&block, &hw, policy));
    }
}

/// The toy SGEMM of Appendix A: the GUB covers every simulated time, and the overestimation
/// follows the paper's Table 4 trends (§6.3).
#[test]
fn sgemm_overestimation_trends() {
    use rtgpu_testbench::multiphase::{cell, Variant};
    let ovr = |v, l, w| {
        let c = cell(v, l, w, Policy::Lrr).unwrap();
        assert!(c.simulated <= c.gub, "{c:?}");
        c.overestimation_pct
    };
    // Fewer warps: each warp's latencies weigh more, the bound is looser.
    for v in [Variant::Naive, Variant::DoubleBuffering] {
        assert!(ovr(v, 200, 4) > ovr(v, 200, 8) && ovr(v, 200, 8) > ovr(v, 200, 32));
    }
    // Naive: lower latency is hidden by initiations, the bound is looser.
    assert!(ovr(Variant::Naive, 5, 4) > ovr(Variant::Naive, 400, 4));
    // Double buffering: flat up to 100 cycles, then the jump at 200-400.
    let db = |l| ovr(Variant::DoubleBuffering, l, 4);
    assert!((db(5) - db(100)).abs() < 1.0);
    assert!(db(400) > db(200) && db(200) > 2.0 * db(100));
    // Naive is tighter than double buffering at long latency.
    assert!(ovr(Variant::Naive, 400, 4) < db(400));
}
