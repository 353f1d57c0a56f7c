//! The RTL vector register file (`hw/src/ctx/rtl/`, `Vgprs`) against its reference model
//! (`rtgpu_hw::ctx::model::VgprModel`) on random sequences of lane-masked writes, reads of
//! the written row and of others, slot clears with writes in the same cycle, rows past the
//! end and resets; both read ports every cycle.
//!
//! Mutation caught (applied, seen failing, restored): the RTL lane's clear applied after the
//! write (a dispatch's v0 write in the clear's cycle lost).

use proptest::prelude::*;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rtgpu_testbench::sim::clock::Period;
use rtgpu_testbench::sim::harness::Harness;
use rtgpu_testbench::tb::vgpr::{apply, model, random_input, read_outputs, VgprTbBlock};

/// Runs a cycle of random traffic per seed on the RTL and the model; the first difference as
/// an error.
fn rtl_equals_model(seeds: &[u64]) -> Result<(), String> {
    let mut h = Harness::new(VgprTbBlock::default(), "vgpr").map_err(|e| e.to_string())?;
    h.add_clock("clock", Period::ps(1000)?, |u| &mut u.clock)
        .map_err(|e| e.to_string())?;
    let mut m = model();
    for (k, &seed) in seeds.iter().enumerate() {
        let inp = random_input(&mut ChaCha8Rng::seed_from_u64(seed));
        let got = h
            .cycle(|u| apply(u, &inp), read_outputs)
            .map_err(|e| e.to_string())?;
        let want = m.outputs(&inp);
        if got != want {
            return Err(format!(
                "cycle {k}: inputs {inp:?}\nRTL {got:?}\nmodel {want:?}"
            ));
        }
        m.clock(&inp);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]

    #[test]
    fn rtl_vgpr_equals_the_model(seeds in proptest::collection::vec(any::<u64>(), 1..300)) {
        if let Err(e) = rtl_equals_model(&seeds) {
            prop_assert!(false, "{}", e);
        }
    }
}
