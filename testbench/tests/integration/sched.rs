//! The RTL warp scheduler (`hw/src/sched/rtl/warp_scheduler.rs`) against its reference model
//! (`PolicyScheduler::grant_by_age`, written from Accel-Sim's definitions without the RTL) under
//! random eligible and present masks and random GTO age ranks (ties included), the three policies
//! (GTO, LRR, pure round-robin) and resets, for several warp counts: the grant, `last` and
//! `last_valid` every cycle.
//!
//! Mutation caught: an RTL pure RR that grants the first *eligible* warp after the last (LRR)
//! instead of waiting on the first *present* one fails `rtl_grant_by_age_equals_the_model_*`
//! within a few cases (present warps that are not eligible are drawn in most cycles); so does
//! one that moves `last` without a grant.

use proptest::prelude::*;
use rtgpu_hw::sched::model::{Policy, PolicyScheduler};
use rtgpu_hw::sched::WarpScheduler;
use rtgpu_testbench::sim::clock::Period;
use rtgpu_testbench::sim::harness::Harness;
use rust_hdl::prelude::*;

/// One cycle of stimulus.
#[derive(Clone, Debug)]
struct Cycle {
    /// Eligible mask (bits at or above W are dropped).
    eligible: u64,
    /// Present mask (pure RR's rotation; the others ignore it).
    present: u64,
    /// New age ranks from this cycle on (else the previous ones are kept).
    ages: Option<Vec<u8>>,
}

/// A run of one policy, ended by a reset cycle (the policy may change after it).
#[derive(Clone, Debug)]
struct Segment {
    policy: Policy,
    cycles: Vec<Cycle>,
}

fn low_bits(w: usize) -> u64 {
    if w >= 64 {
        u64::MAX
    } else {
        (1 << w) - 1
    }
}

/// Masks: random, sparse, dense, one warp, none, all.
fn mask(w: usize) -> impl Strategy<Value = u64> {
    prop_oneof![
        4 => any::<u64>(),
        2 => (any::<u64>(), any::<u64>()).prop_map(|(a, b)| a & b),
        2 => (any::<u64>(), any::<u64>()).prop_map(|(a, b)| a | b),
        2 => (0..w).prop_map(|b| 1u64 << b),
        1 => Just(0u64),
        1 => Just(u64::MAX),
    ]
    .prop_map(move |m| m & low_bits(w))
}

/// Age ranks in 0..W (ties allowed): random, few distinct values (many ties), a permutation,
/// or by index.
fn ages(w: usize) -> impl Strategy<Value = Vec<u8>> {
    let rank = 0..w as u8;
    prop_oneof![
        3 => proptest::collection::vec(rank, w),
        2 => proptest::collection::vec(0..(w as u8).min(3), w),
        2 => Just((0..w as u8).collect::<Vec<u8>>()).prop_shuffle(),
        1 => Just((0..w as u8).collect::<Vec<u8>>()),
    ]
}

fn cycle(w: usize) -> impl Strategy<Value = Cycle> {
    // Present: the eligible warps, some more (stalled), or an unrelated mask.
    let extra = prop_oneof![1 => Just(0u64), 3 => mask(w), 1 => Just(u64::MAX)];
    (mask(w), extra, proptest::option::weighted(0.2, ages(w))).prop_map(
        move |(eligible, extra, ages)| Cycle {
            eligible,
            present: (eligible | extra) & low_bits(w),
            ages,
        },
    )
}

fn segments(w: usize) -> impl Strategy<Value = Vec<Segment>> {
    let policy = proptest::sample::select(Policy::ALL.to_vec());
    let segment = (policy, proptest::collection::vec(cycle(w), 1..40))
        .prop_map(|(policy, cycles)| Segment { policy, cycles });
    proptest::collection::vec(segment, 1..6)
}

/// Runs the segments on `WarpScheduler<W>` and on the model; the first difference as an error.
fn rtl_equals_model<const W: usize>(run: &[Segment]) -> Result<(), String> {
    let mut h = Harness::new(WarpScheduler::<W>::default(), "sched").map_err(|e| e.to_string())?;
    h.add_clock("clock", Period::ps(1000)?, |u| &mut u.clock)
        .map_err(|e| e.to_string())?;
    // The first cycle resets the block (the model starts empty).
    let mut age: Vec<u8> = (0..W as u8).collect();
    let mut k = 0u64;
    for (s, seg) in run.iter().enumerate() {
        let policy = seg.policy;
        let mut model = PolicyScheduler::new(policy, W);
        for (c, cy) in seg.cycles.iter().enumerate() {
            if let Some(a) = &cy.ages {
                age.clone_from(a);
            }
            // The segment's first cycle also resets the block (so the very first cycle of the
            // run starts from reset), its last cycle resets it for the next segment.
            let reset = (s == 0 && c == 0) || c + 1 == seg.cycles.len();
            let want_last = (
                model.last_issued().is_some(),
                model.last_issued().unwrap_or(0),
            );
            let want = model.grant_rr(cy.eligible, cy.present, |w| u64::from(age[w]));
            let got = h
                .cycle(
                    |u| {
                        u.reset.next = reset;
                        u.gto.next = policy == Policy::Gto;
                        u.rr.next = policy == Policy::Rr;
                        u.eligible.next = cy.eligible.to_bits();
                        u.present.next = cy.present.to_bits();
                        for (port, &a) in u.age.iter_mut().zip(&age) {
                            port.next = u64::from(a).to_bits();
                        }
                    },
                    |u| {
                        (
                            u.grant_valid.val().then(|| u.grant.val().index()),
                            (u.last_valid.val(), u.last.val().index()),
                        )
                    },
                )
                .map_err(|e| e.to_string())?;
            if got != (want, want_last) {
                return Err(format!(
                    "W = {W}, cycle {k} ({policy:?}, reset {reset}): eligible {:#x}, present \
                     {:#x}, ages {age:?}: RTL (grant, (last_valid, last)) {got:?}, model {:?}",
                    cy.eligible,
                    cy.present,
                    (want, want_last)
                ));
            }
            if reset {
                model = PolicyScheduler::new(policy, W);
            }
            k += 1;
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    /// 4 warps (the compute unit's smallest scheduler).
    #[test]
    fn rtl_grant_by_age_equals_the_model_4_warps(run in segments(4)) {
        rtl_equals_model::<4>(&run).map_err(TestCaseError::fail)?;
    }

    /// 10 warps (a SIMD unit's wavefront contexts).
    #[test]
    fn rtl_grant_by_age_equals_the_model_10_warps(run in segments(10)) {
        rtl_equals_model::<10>(&run).map_err(TestCaseError::fail)?;
    }

    /// 16 warps.
    #[test]
    fn rtl_grant_by_age_equals_the_model_16_warps(run in segments(16)) {
        rtl_equals_model::<16>(&run).map_err(TestCaseError::fail)?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 16, ..ProptestConfig::default() })]

    /// 64 warps (the testbench's instance; ranks up to 63, the port's widest).
    #[test]
    fn rtl_grant_by_age_equals_the_model_64_warps(run in segments(64)) {
        rtl_equals_model::<64>(&run).map_err(TestCaseError::fail)?;
    }
}

/// One warp: always granted when eligible, under every policy, whatever its age.
#[test]
fn one_warp_is_granted_whenever_eligible() {
    for policy in Policy::ALL {
        let run = [Segment {
            policy,
            cycles: (0..8)
                .map(|k| Cycle {
                    eligible: k & 1,
                    present: 1,
                    ages: Some(vec![0]),
                })
                .collect(),
        }];
        rtl_equals_model::<1>(&run).unwrap();
    }
}

/// A directed case: GTO's fallback follows the ranks, not the index, and ties go to the lower
/// index; LRR ignores the ranks.
#[test]
fn gto_falls_back_to_the_oldest_rank_and_breaks_ties_by_index() {
    let mut h = Harness::new(WarpScheduler::<4>::default(), "sched").unwrap();
    h.add_clock("clock", Period::ps(1000).unwrap(), |u| &mut u.clock)
        .unwrap();
    let mut cycle = |reset: bool, gto: bool, eligible: u64, age: [u64; 4]| {
        h.cycle(
            |u| {
                u.reset.next = reset;
                u.gto.next = gto;
                u.rr.next = false;
                u.eligible.next = eligible.to_bits();
                u.present.next = eligible.to_bits();
                for (port, a) in u.age.iter_mut().zip(age) {
                    port.next = a.to_bits();
                }
            },
            |u| u.grant_valid.val().then(|| u.grant.val().index()),
        )
        .unwrap()
    };
    // Reset, nothing eligible.
    assert_eq!(cycle(true, true, 0, [0, 1, 2, 3]), None);
    // Warp 2 is the oldest: GTO takes it, not warp 0.
    assert_eq!(cycle(false, true, 0b1111, [3, 2, 0, 1]), Some(2));
    // Greedy: warp 2 again although warp 3 is now older.
    assert_eq!(cycle(false, true, 0b1111, [3, 2, 1, 0]), Some(2));
    // Warp 2 not eligible: warps 1 and 3 tie at rank 0, the lower index wins.
    assert_eq!(cycle(false, true, 0b1011, [2, 0, 1, 0]), Some(1));
    // LRR ignores the ranks: after a reset, warp 0 first, then warp 1.
    assert_eq!(cycle(true, false, 0, [3, 2, 1, 0]), None);
    assert_eq!(cycle(false, false, 0b1111, [3, 2, 1, 0]), Some(0));
    assert_eq!(cycle(false, false, 0b1111, [3, 2, 1, 0]), Some(1));
}

/// A directed case of pure RR: it waits on the current present warp while others are
/// eligible, and moves on only after it issues.
#[test]
fn pure_rr_waits_for_the_current_warp() {
    let mut h = Harness::new(WarpScheduler::<4>::default(), "sched").unwrap();
    h.add_clock("clock", Period::ps(1000).unwrap(), |u| &mut u.clock)
        .unwrap();
    let mut cycle = |reset: bool, eligible: u64, present: u64| {
        h.cycle(
            |u| {
                u.reset.next = reset;
                u.gto.next = false;
                u.rr.next = true;
                u.eligible.next = eligible.to_bits();
                u.present.next = present.to_bits();
            },
            |u| u.grant_valid.val().then(|| u.grant.val().index()),
        )
        .unwrap()
    };
    assert_eq!(cycle(true, 0, 0b1111), None);
    // Warp 0 is current and stalled: warps 1 and 2 wait.
    assert_eq!(cycle(false, 0b0110, 0b1111), None);
    assert_eq!(cycle(false, 0b0111, 0b1111), Some(0));
    // Warp 1 is current now.
    assert_eq!(cycle(false, 0b1101, 0b1111), None);
    assert_eq!(cycle(false, 0b1111, 0b1111), Some(1));
    // Warp 2 left (not present): warp 3 is next.
    assert_eq!(cycle(false, 0b1001, 0b1011), Some(3));
}
