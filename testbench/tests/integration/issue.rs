//! The issue control block (`hw/src/issue/`): its reference model against the behavioural
//! compute unit's issue decisions on real kernel runs (every unit, every cycle, idle skipping
//! off), and its RTL against the model on random inputs.
//!
//! Mutations caught (applied, the test run, restored):
//! - the model's VALU issue period off by one (`issue_period` instead of `issue_period − 1`):
//!   `the_model_decides_as_the_compute_unit` fails at vector_add (RR), cycle 10, group 0's
//!   SIMD: `valu_busy 4, the compute unit 3`;
//! - the RTL's stall reason taking the largest code over the contexts instead of the smallest:
//!   `rtl_issue_equals_the_model` fails at cycle 0 of its first case;
//! - the RTL's `s_waitcnt` check comparing the outstanding loads with `≥` instead of `>`
//!   (waiting while the count already equals the immediate): `rtl_issue_equals_the_model`
//!   fails at cycle 146 of a case.

use proptest::prelude::*;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rtgpu_hw::issue::model::IssueModel;
use rtgpu_hw::issue::{stall, TB_CONTEXTS};
use rtgpu_hw::sched::model::Policy;
use rtgpu_testbench::sim::clock::Period;
use rtgpu_testbench::sim::harness::Harness;
use rtgpu_testbench::tb::issue::replay::{self, Replayed};
use rtgpu_testbench::tb::issue::{apply, random_cfg, random_input, read_outputs, IssueTbBlock};

/// Every unit of `case`'s run replayed into the model; the stats summed.
fn replay_case(case: &replay::Case) -> Replayed {
    let cfg = replay::config(case.policy).unwrap();
    let mut sum = Replayed::default();
    for (_, samples) in replay::by_unit(replay::record(case).unwrap()) {
        let mut model = IssueModel::new(samples[0].slots.len());
        let r = replay::replay_unit(cfg, &samples, |i| Ok(model.clock(i)))
            .unwrap_or_else(|e| panic!("{case:?}: {e}"));
        sum.cycles += r.cycles;
        sum.grants += r.grants;
        for (a, b) in sum.stalls.iter_mut().zip(r.stalls) {
            *a += b;
        }
    }
    sum
}

/// The model grants what the compute unit granted, names the stall reason it counted and
/// holds its counters, every cycle of every unit, on vector_add, fig2_divergent (PWS, S = 1),
/// loop and lds_reduce under pure RR and GTO; the runs exercise the reasons the kernels
/// cause: `s_waitcnt` on loads (every kernel), barriers (lds_reduce), split/merge (fig2).
#[test]
fn the_model_decides_as_the_compute_unit() {
    for case in replay::cases() {
        let r = replay_case(&case);
        println!("{} {} {:?}: {r:?}", case.kernel, case.policy, case.mode);
        assert!(r.grants > 0, "{case:?}: nothing issued");
        assert!(r.stalls[usize::from(stall::WAITCNT)] > 0, "{case:?}: {r:?}");
        assert!(
            r.stalls[usize::from(stall::DEPENDENCY)] > 0,
            "{case:?}: {r:?}"
        );
        match case.kernel {
            "lds_reduce" => assert!(r.stalls[usize::from(stall::BARRIER)] > 0, "{r:?}"),
            "fig2_divergent" => assert!(r.stalls[usize::from(stall::SPLIT_MERGE)] > 0, "{r:?}"),
            _ => {}
        }
    }
}

/// Runs `cycles` random cycles per seed (a reset, then a policy's random inputs) on the RTL
/// and the model; the first difference as an error.
fn rtl_equals_model(seeds: &[u64], cycles: usize) -> Result<(), String> {
    let mut h = Harness::new(IssueTbBlock::default(), "issue").map_err(|e| e.to_string())?;
    h.add_clock("clock", Period::ps(1000)?, |u| &mut u.clock)
        .map_err(|e| e.to_string())?;
    let mut model = IssueModel::new(TB_CONTEXTS);
    for &seed in seeds {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let cfg = random_cfg(Policy::ALL[(seed % 3) as usize], &mut rng);
        for k in 0..cycles {
            let mut inp = random_input(cfg, &mut rng);
            inp.reset |= k == 0;
            let got = h
                .cycle(|u| apply(u, &inp), read_outputs)
                .map_err(|e| e.to_string())?;
            let want = model.clock(&inp);
            if got != want {
                return Err(format!(
                    "seed {seed} cycle {k}: {inp:?}\nRTL {got:?}\nmodel {want:?}"
                ));
            }
        }
    }
    Ok(())
}

fn on_rtl_stack(f: impl FnOnce() -> Result<(), String> + Send) -> Result<(), String> {
    std::thread::scope(|s| {
        std::thread::Builder::new()
            .stack_size(rtgpu_testbench::sim::twin::RTL_STACK)
            .spawn_scoped(s, f)
            .expect("an RTL thread starts")
            .join()
            .unwrap_or_else(|_| Err("the RTL thread panicked".into()))
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn rtl_issue_equals_the_model(seeds in proptest::collection::vec(any::<u64>(), 1..4)) {
        if let Err(e) = on_rtl_stack(|| rtl_equals_model(&seeds, 150)) {
            prop_assert!(false, "{}", e);
        }
    }
}
