//! The RTL instruction fetch (`hw/src/fetch/rtl/`) against its reference model
//! (`rtgpu_hw::fetch::model`, whose predecode is the decoder's reference model) on random
//! sequences: a prefix of `fig2_divergent` written through the driver's port, then random
//! fetches (one context, broadcasts, none; PCs in the code, unaligned, past the end; ports
//! colliding), split copies, code writes, read-backs and resets; every output every cycle.
//!
//! Mutations caught, each failing `rtl_fetch_equals_the_model` (run as listed, then restored):
//! - the model's ports taken lowest-first (`i.ports.iter().rev()`): a buffer two ports load
//!   differs (the `rtgpu tb fetch` run fails at cycle 78);
//! - the RTL's copy applied after the ports (a copy beats a fetch);
//! - the instruction memory's second dword read at `idx` instead of `idx + 1`.

use proptest::prelude::*;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rtgpu_hw::fetch::model::FetchModel;
use rtgpu_hw::fetch::{TB_CONTEXTS, TB_WORDS};
use rtgpu_testbench::sim::clock::Period;
use rtgpu_testbench::sim::harness::Harness;
use rtgpu_testbench::tb::fetch::{apply, program, read_outputs, stimulus, FetchTbBlock};

/// Runs `loaded` dwords of the program through the write port, then a cycle of random
/// traffic per seed, on the RTL and the model; the first difference as an error.
fn rtl_equals_model(loaded: usize, seeds: &[u64]) -> Result<(), String> {
    let mut program = program();
    program.truncate(loaded);
    let mut h = Harness::new(FetchTbBlock::default(), "fetch").map_err(|e| e.to_string())?;
    h.add_clock("clock", Period::ps(1000)?, |u| &mut u.clock)
        .map_err(|e| e.to_string())?;
    let mut model = FetchModel::new(TB_CONTEXTS, TB_WORDS);
    let all = program.len() + seeds.len();
    let mut rng = ChaCha8Rng::seed_from_u64(0);
    for k in 0..all {
        if let Some(&seed) = k.checked_sub(program.len()).and_then(|i| seeds.get(i)) {
            rng = ChaCha8Rng::seed_from_u64(seed);
        }
        let inp = stimulus(k as u64, &program, &mut rng);
        let got = h
            .cycle(|u| apply(u, &inp), read_outputs)
            .map_err(|e| e.to_string())?;
        let want = model.outputs(inp.raddr);
        if got != want {
            return Err(format!(
                "cycle {k}: inputs {inp:?}\nRTL {got:?}\nmodel {want:?}"
            ));
        }
        model.clock(&inp);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn rtl_fetch_equals_the_model(
        loaded in 1..=TB_WORDS,
        seeds in proptest::collection::vec(any::<u64>(), 1..200),
    ) {
        if let Err(e) = rtl_equals_model(loaded, &seeds) {
            prop_assert!(false, "{}", e);
        }
    }
}
