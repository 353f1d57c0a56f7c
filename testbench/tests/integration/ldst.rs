//! The LD/ST path on the reference models (warps → reordering unit → coalescer → L1 →
//! memory): the paper's example, order sensitivity, the credit gate, the loop + barrier
//! kernel, and the exactness property: with reordering the L1 sees exactly the
//! estimator's sequence (so the miss counts are equal) whatever the timing; without, the miss
//! count moves with the memory latency's jitter.

use proptest::prelude::*;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rtgpu_testbench::tb::ldst::system::{
    estimate_traffic, run_models, Geometry, Mode, SysConfig, SysRun,
};
use rtgpu_testbench::tb::ldst::traffic::{RandomTraffic, Traffic, WarpInsn, LANES};
use rtgpu_wcet::reorder::analyzer::analyze;
use rtgpu_wcet::reorder::kernels::BUILTIN;
use rtgpu_wcet::reorder::ptx::Kernel;
use std::collections::BTreeSet;

fn builtin(name: &str) -> Traffic {
    let l = BUILTIN.iter().find(|l| l.name == name).unwrap();
    let k = Kernel::parse(l.source).unwrap();
    Traffic::from_analysis(&analyze(&k, l.params, l.grid, l.block).unwrap()).unwrap()
}

fn cfg(mode: Mode) -> SysConfig {
    SysConfig {
        mode,
        ..SysConfig::default()
    }
}

/// The (line, store, hit) sequence the L1 saw.
fn seen(r: &SysRun) -> Vec<(u32, bool, bool)> {
    r.events.iter().map(|e| (e.line, e.store, e.hit)).collect()
}

/// A one-line instruction.
fn insn(pc_idx: u8, line: u32, store: bool) -> WarpInsn {
    WarpInsn {
        pc_idx,
        store,
        addr: [line << 7; LANES],
        mask: u32::MAX,
        epoch: 0,
    }
}

#[test]
fn paper_example_12_misses_of_16_in_the_fig7_order() {
    let t = builtin("example");
    assert_eq!(t.warps.len(), 4);
    // Table 1: B1W0 → slot 0, B1W1 → 1, B0W0 → 2, B0W1 → 3.
    let c = SysConfig {
        slots: vec![2, 3, 0, 1],
        ..cfg(Mode::Reorder)
    };
    let r = run_models(&t, Geometry::paper(), c.clone()).unwrap();
    assert_eq!(r.releases, [(0, 0), (1, 0), (2, 0), (3, 0)]);
    let lines: Vec<u32> = r.events.iter().map(|e| e.line).collect();
    assert_eq!(
        lines,
        [0, 1, 2, 3, 0, 1, 2, 3, 16, 17, 18, 19, 16, 17, 18, 19]
    );
    assert_eq!((r.accesses, r.misses), (16, 12));
    let e = estimate_traffic(&t, Geometry::paper()).unwrap();
    assert_eq!((e.accesses, e.misses), (16, 12));
    // Pure round-robin follows the runtime warp IDs: block 1's stores first.
    let rr = run_models(
        &t,
        Geometry::paper(),
        SysConfig {
            mode: Mode::PureRr,
            ..c
        },
    )
    .unwrap();
    assert_eq!(rr.releases, [(2, 0), (3, 0), (0, 0), (1, 0)]);
    assert_eq!(rr.misses, 12);
}

/// Order sensitivity: W0 loads A twice, W1 loads B then C, on one set of two ways.
fn order_sensitive() -> Traffic {
    let (a, b, c) = (0, 1, 2);
    Traffic {
        warps_per_block: 2,
        ldst_pcs: vec![0x10, 0x20],
        warps: vec![
            vec![insn(0, a, false), insn(1, a, false)],
            vec![insn(0, b, false), insn(1, c, false)],
        ],
    }
}

const ONE_SET: Geometry = Geometry {
    slots: 2,
    depth: 4,
    sets: 1,
    ways: 2,
};

#[test]
fn order_sensitivity_3_of_4_with_reordering_4_of_4_possible_without() {
    let t = order_sensitive();
    let mut default = BTreeSet::new();
    for seed in 0..40 {
        let timed = |mode| SysConfig {
            jitter: 30,
            seed,
            ..cfg(mode)
        };
        let r = run_models(&t, ONE_SET, timed(Mode::Reorder)).unwrap();
        assert_eq!((r.accesses, r.misses), (4, 3), "seed {seed}");
        default.insert(
            run_models(&t, ONE_SET, timed(Mode::Default))
                .unwrap()
                .misses,
        );
    }
    assert_eq!(default, BTreeSet::from([3, 4]));
}

#[test]
fn a_full_channel_holds_its_warp_and_the_target_still_gets_through() {
    // Warp 1 issues 12 stores at once; warp 0's load (first in the order) comes at cycle 60.
    let stores = (1..=12)
        .map(|pc| insn(pc, 100 + u32::from(pc), true))
        .collect();
    let t = Traffic {
        warps_per_block: 2,
        ldst_pcs: (0..13).map(|i| 8 * i).collect(),
        warps: vec![vec![insn(0, 7, false)], stores],
    };
    let g = Geometry {
        slots: 2,
        depth: 10,
        sets: 4,
        ways: 2,
    };
    let c = SysConfig {
        gap: 0,
        first_issue: vec![60, 0],
        ..cfg(Mode::Reorder)
    };
    let r = run_models(&t, g, c).unwrap();
    assert_eq!(r.max_occupancy, 10);
    assert!(r.credit_stalls >= 50, "{} credit stalls", r.credit_stalls);
    assert_eq!(r.releases[0], (0, 0));
    assert_eq!(r.releases.len(), 13);
}

#[test]
fn loop_barrier_kernel_completes_and_matches_the_estimate() {
    let t = builtin("loop-barrier");
    let g = Geometry::paper();
    let e = estimate_traffic(&t, g).unwrap();
    for seed in 0..5 {
        let c = SysConfig {
            jitter: 40,
            seed,
            ..cfg(Mode::Reorder)
        };
        let r = run_models(&t, g, c).unwrap();
        assert_eq!((r.accesses, r.misses), (e.accesses, e.misses));
        for mode in [Mode::Default, Mode::PureRr] {
            let r = run_models(&t, g, SysConfig { seed, ..cfg(mode) }).unwrap();
            assert_eq!(r.accesses, e.accesses);
        }
    }
}

fn conflicting(seed: u64) -> Traffic {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let p = RandomTraffic {
        warps: 8,
        warps_per_block: 4,
        pcs: 6,
        iterations: 2,
        lines: 24,
        store_percent: 20,
    };
    Traffic::random(&mut rng, p)
}

const SMALL: Geometry = Geometry {
    slots: 8,
    depth: 4,
    sets: 2,
    ways: 2,
};

#[test]
fn without_reordering_the_miss_count_moves_with_jitter_with_it_does_not() {
    let t = conflicting(3);
    let e = estimate_traffic(&t, SMALL).unwrap();
    let mut default = BTreeSet::new();
    for seed in 0..20 {
        let timed = |mode| SysConfig {
            jitter: 50,
            seed,
            ..cfg(mode)
        };
        let r = run_models(&t, SMALL, timed(Mode::Reorder)).unwrap();
        assert_eq!(r.misses, e.misses, "seed {seed}");
        default.insert(run_models(&t, SMALL, timed(Mode::Default)).unwrap().misses);
    }
    assert!(
        default.len() >= 3,
        "default miss counts over 20 seeds: {default:?}"
    );
}

fn geometry() -> impl Strategy<Value = Geometry> {
    (1usize..=8, 1usize..=10, 0u32..=5, 0u32..=3).prop_map(|(slots, depth, s, w)| Geometry {
        slots,
        depth,
        sets: 1 << s,
        ways: 1 << w,
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// With reordering, the L1 sees the estimator's line sequence, hit for hit,
    /// for random traffic, warp counts, slot maps, latencies, jitter and cache geometries.
    #[test]
    fn with_reordering_the_l1_sees_exactly_the_estimate(
        g in geometry(),
        seed in any::<u64>(),
        wpb in 1u32..=4,
        pcs in 1usize..=6,
        iterations in 1usize..=3,
        lines in 1u32..=64,
        latency in 1u64..=60,
        jitter in 0u64..=60,
        gap in 0u64..=6,
        parallel in any::<bool>(),
    ) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let warps = 1 + (seed as usize % g.slots);
        let p = RandomTraffic { warps, warps_per_block: wpb, pcs, iterations, lines, store_percent: 30 };
        let t = Traffic::random(&mut rng, p);
        let mut slots: Vec<u8> = (0..g.slots as u8).collect();
        slots.rotate_left(seed as usize % g.slots);
        slots.truncate(warps);
        let c = SysConfig {
            latency, jitter, gap, parallel_search: parallel, seed, slots,
            ..cfg(Mode::Reorder)
        };
        let r = run_models(&t, g, c).unwrap();
        let e = estimate_traffic(&t, g).unwrap();
        let want: Vec<(u32, bool, bool)> = e.events.iter().map(|x| (x.line, x.is_store, x.hit)).collect();
        prop_assert_eq!(seen(&r), want);
        prop_assert_eq!((r.accesses, r.misses), (e.accesses, e.misses));
        prop_assert_eq!(r.releases.len(), t.instructions());
    }
}

/// The `reorder-example` testbench (the RTL path under the system, RTL == model every cycle,
/// the paper's example, misses = estimate in every reordering episode) on two seeds.
#[test]
fn the_reorder_example_testbench_passes() {
    use rtgpu_testbench::tb::{self, TbOptions};
    let t = tb::find("reorder-example").unwrap();
    for seed in [1, 7] {
        let opts = TbOptions {
            seed,
            cycles: 4000,
            ..TbOptions::default()
        };
        let run = t.run(&opts).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        assert!(run.summary.contains("12 misses of 16"), "{}", run.summary);
    }
}

/// The README's load-use table (32 random warps, 16 kB, latency 200 + U(0..100), gap 4,
/// 5 seeds): mean cycles of default / reorder / pure RR, pinned.
#[test]
fn the_readme_load_use_table() {
    use rtgpu_testbench::tb::ldst::compare::{compare, CompareArgs, Workload};
    let mut rows = Vec::new();
    for load_use in [0, 2, 4] {
        let args = CompareArgs {
            workload: Workload::Random {
                warps: 32,
                lines: 256,
                seed: 1,
            },
            caches: vec![16],
            slots: 48,
            depth: 10,
            latency: 200,
            jitter: 100,
            gap: 4,
            load_use,
            queue: 10,
            seeds: 5,
        };
        let r = compare(&args).unwrap();
        assert!(r.caches[0].exact);
        let m: Vec<u64> = r.caches[0]
            .modes
            .iter()
            .map(|m| m.cycles.mean.round() as u64)
            .collect();
        rows.push(m);
    }
    assert_eq!(
        rows,
        [[3693, 11922, 4570], [3290, 3210, 3261], [3110, 2950, 3110]]
    );
}

/// A path whose coalescer reports line + 1 from its `from`-th cycle on: a wrong implementation.
struct WrongLine {
    inner: rtgpu_hw::ldst::model::PathModel,
    from: u64,
    cycle: u64,
}

impl rtgpu_hw::block::Clocked for WrongLine {
    type In = rtgpu_hw::ldst::model::PathIn;
    type Out = rtgpu_hw::ldst::model::PathOut;
    fn outputs(&self, i: &Self::In) -> Self::Out {
        let mut o = rtgpu_hw::block::Clocked::outputs(&self.inner, i);
        if self.cycle >= self.from && o.coal.line_valid {
            o.coal.line += 1;
        }
        o
    }
    fn step(&mut self, i: &Self::In) {
        self.inner.step(i);
        self.cycle += 1;
    }
}

/// The system drives the path through the block interface, so the generic lock-step checker
/// runs an implementation under test against the model: two models agree on the paper's
/// example, and a coalescer that reports a wrong line stops the run with the block, cycle,
/// port and both values. Mutation: with `from` beyond the run the wrong line never shows and
/// the `unwrap_err` fails.
#[test]
fn a_wrong_path_output_is_caught_by_the_lock_step_checker() {
    use rtgpu_hw::ldst::model::PathModel;
    use rtgpu_testbench::sim::lockstep::LockStep;
    use rtgpu_testbench::tb::ldst::system::System;
    let t = builtin("example");
    let model = || PathModel::new(4, 4, 8, 4, 2).unwrap();
    let c = SysConfig {
        slots: vec![2, 3, 0, 1],
        latency: 20,
        ..cfg(Mode::Reorder)
    };
    let mut good = LockStep::new("ldst", model(), model());
    System::new(&t, c.clone(), 4)
        .unwrap()
        .run(&mut good)
        .unwrap();
    let wrong = WrongLine {
        inner: model(),
        from: 30,
        cycle: 0,
    };
    let mut bad = LockStep::new("ldst", model(), wrong);
    let e = System::new(&t, c, 4).unwrap().run(&mut bad).unwrap_err();
    let m = e.to_string();
    assert!(
        m.contains("block ldst, cycle") && m.contains("port coal.line"),
        "{m}"
    );
}
