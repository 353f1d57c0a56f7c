//! The RTL fixed-latency memory (`hw/src/fixed_mem/rtl/`) against its reference model
//! (`rtgpu_hw::fixed_mem::model`, checked against the contract's examples) on random
//! sequences: vector loads and stores and scalar loads on both ports in the same cycles,
//! random masks, addresses (colliding lanes, bits above the address width), tags and
//! counts, latencies from 0 to 70 that change during the run (in flight too), driver reads
//! and writes, and resets; every output every cycle; with the contract's 64-slot wheels and
//! with the testbench's 16.
//!
//! Mutations caught, each failing `rtl_fixed_mem_equals_the_model` (applied alone, run, then
//! restored):
//! - the lowest lane winning (the word array's lanes written in descending order): a later
//!   load differs, shrunk to cycle 10;
//! - a vector response one cycle late (`vslot` = `now + vlat + 1`): `vresp` differs in
//!   cycle 5;
//! - the scalar words 0 and 1 swapped (`kd` = 1, 0, 2, 3): `sresp_data` differs in cycle 11.

use proptest::prelude::*;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rtgpu_hw::fixed_mem::FixedMemoryModel;
use rtgpu_hw::fixed_mem::{MAX_LATENCY, TB_DEPTH};
use rtgpu_testbench::sim::clock::Period;
use rtgpu_testbench::sim::harness::Harness;
use rtgpu_testbench::tb::fixed_mem::{
    apply, random_input, random_latency, read_outputs, FixedMemOf, TB_WORDS,
};

/// One cycle: the seed of its inputs, and whether the latencies change (to the seed's).
#[derive(Clone, Debug)]
struct Cycle {
    seed: u64,
    relatency: bool,
}

fn cycle() -> impl Strategy<Value = Cycle> {
    (any::<u64>(), prop::bool::weighted(0.03))
        .prop_map(|(seed, relatency)| Cycle { seed, relatency })
}

/// Runs the cycles on the RTL with wheels of `D` slots and the model; the first difference
/// as an error.
fn rtl_equals_model<const D: usize>(cycles: &[Cycle]) -> Result<(), String> {
    // (rust-hdl builds the block on the stack: more than a test thread has.)
    rtgpu_testbench::sim::twin::on_rtl_stack(|| rtl_equals_model_here::<D>(cycles))
}

fn rtl_equals_model_here<const D: usize>(cycles: &[Cycle]) -> Result<(), String> {
    let mut h = Harness::new(FixedMemOf::<D>::default(), "fixed_mem").map_err(|e| e.to_string())?;
    h.add_clock("clock", Period::ps(1000)?, |u| &mut u.clock)
        .map_err(|e| e.to_string())?;
    let mut model = FixedMemoryModel::with_depth(TB_WORDS, D);
    let mut lat = (4, 2);
    for (k, c) in cycles.iter().enumerate() {
        let mut rng = ChaCha8Rng::seed_from_u64(c.seed);
        if c.relatency {
            lat = (random_latency(&mut rng), random_latency(&mut rng));
        }
        let inp = random_input(&mut rng, lat, 64);
        let now = model.outputs();
        let got = h
            .cycle(|u| apply(u, &inp), read_outputs)
            .map_err(|e| e.to_string())?;
        if got != now {
            return Err(format!(
                "cycle {k}: RTL {got:?}, model {now:?}, inputs {inp:?}"
            ));
        }
        model.clock(&inp);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn rtl_fixed_mem_equals_the_model(cycles in proptest::collection::vec(cycle(), 1..300)) {
        if let Err(e) = rtl_equals_model::<MAX_LATENCY>(&cycles) {
            prop_assert!(false, "64 slots: {}", e);
        }
        if let Err(e) = rtl_equals_model::<TB_DEPTH>(&cycles) {
            prop_assert!(false, "16 slots: {}", e);
        }
    }
}
