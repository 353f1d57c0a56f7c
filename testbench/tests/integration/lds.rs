//! The RTL local data share (`hw/src/lds/rtl/`) against its reference model
//! (`rtgpu_hw::lds::model`, checked against the behavioural compute unit's `ds_*` execution)
//! on random sequences: every DS instruction of the subset (assembled by the firmware's
//! assembler, decoded by the decoder's model), random offsets, partitions, EXEC and addresses
//! (lanes colliding on a few words, some unaligned or past the partition), `valid` while busy,
//! idle cycles, clears and resets; every output every cycle, the caller feeding the quarter
//! the block names.
//!
//! Mutations caught, each failing `rtl_lds_equals_the_model` (run as listed, then restored):
//! - the `ds_add_u32` sums counting only the lane itself (`upto` = `1 << j` in `LdsSums`):
//!   a later read differs, shrunk to cycle 29;
//! - a lane after a fault still writing (`!blk[j]` dropped from `we0` in `LdsQuarter`): a
//!   later read differs, shrunk to cycle 29;
//! - the quarter counter wrapping after quarter 2 (`q3` = 2 in `Lds`): `busy` differs in
//!   cycle 3;
//! - a clear reaching one word past its range (`end` + 1 in `LdsRam::edge`): a later read
//!   differs (caught only since clears also take ranges of their own, below).

use proptest::prelude::*;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rtgpu_hw::lds::model::LdsModel;
use rtgpu_hw::lds::TB_WORDS;
use rtgpu_testbench::sim::clock::Period;
use rtgpu_testbench::sim::harness::Harness;
use rtgpu_testbench::tb::lds::{apply, random_feed, read_outputs, LdsTbBlock};

/// One cycle: the seed of the instruction issued if the block is idle, `valid`, `reset`,
/// `clear`, and a clear range of its own (base, words) that replaces the feed's partition.
#[derive(Clone, Debug)]
struct Cycle {
    seed: u64,
    valid: bool,
    reset: bool,
    clear: bool,
    range: Option<(u16, u32)>,
}

/// A clear range of its own: mostly a few words where the feeds' partitions start (the
/// words most accessed, so a word cleared wrongly is read again), else anywhere in or past
/// the RAM, a few words or more than 2^16.
fn range() -> impl Strategy<Value = Option<(u16, u32)>> {
    let words = prop_oneof![0..12u32, Just(TB_WORDS as u32), 0x1_0000..=u32::MAX];
    let anywhere = (0..TB_WORDS as u16 + 4, words);
    prop::option::weighted(0.7, prop_oneof![3 => (0..8u16, 0..6u32), 1 => anywhere])
}

fn cycle() -> impl Strategy<Value = Cycle> {
    (
        any::<u64>(),
        prop::bool::weighted(0.8),
        prop::bool::weighted(0.01),
        prop::bool::weighted(0.1),
        range(),
    )
        .prop_map(|(seed, valid, reset, clear, range)| Cycle {
            seed,
            valid,
            reset,
            clear,
            range,
        })
}

/// Runs the cycles on the RTL and the model; the first difference as an error. The feed
/// changes only when the block is idle (a caller keeps an issued instruction's rows).
fn rtl_equals_model(cycles: &[Cycle]) -> Result<(), String> {
    // (rust-hdl builds the block on the stack: more than a test thread has.)
    rtgpu_testbench::sim::twin::on_rtl_stack(|| rtl_equals_model_here(cycles))
}

fn rtl_equals_model_here(cycles: &[Cycle]) -> Result<(), String> {
    let mut h = Harness::new(LdsTbBlock::default(), "lds").map_err(|e| e.to_string())?;
    h.add_clock("clock", Period::ps(1000)?, |u| &mut u.clock)
        .map_err(|e| e.to_string())?;
    let mut model = LdsModel::new(TB_WORDS);
    let mut feed = random_feed(&mut ChaCha8Rng::seed_from_u64(0));
    for (k, c) in cycles.iter().enumerate() {
        let now = model.outputs();
        if !now.busy {
            feed = random_feed(&mut ChaCha8Rng::seed_from_u64(c.seed));
        }
        let mut inp = feed.input(now.quarter, c.valid, c.reset, c.clear);
        if let Some((base, words)) = c.range {
            (inp.clear_base, inp.clear_words) = (base, words);
        }
        let got = h
            .cycle(|u| apply(u, &inp), read_outputs)
            .map_err(|e| e.to_string())?;
        if got != now {
            return Err(format!(
                "cycle {k}: RTL {got:?}, model {now:?}, feed {feed:?}"
            ));
        }
        model.clock(&inp);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]

    #[test]
    fn rtl_lds_equals_the_model(cycles in proptest::collection::vec(cycle(), 1..200)) {
        if let Err(e) = rtl_equals_model(&cycles) {
            prop_assert!(false, "{}", e);
        }
    }
}
