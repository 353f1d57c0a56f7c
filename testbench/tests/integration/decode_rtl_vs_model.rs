//! The split/merge decode stage: RTL == reference model every cycle on random stimulus.

use proptest::prelude::*;
use rtgpu_hw::isa::pws_decode_model::{DecodeIn, DecodeOut, PwsDecodeModel};
use rtgpu_hw::isa::PwsDecode;
use rtgpu_testbench::sim::clock::Period;
use rtgpu_testbench::sim::harness::Harness;
use rtgpu_testbench::tb::{read_outputs, EDGE_CODES};
use rust_hdl::core::prelude::*;

/// Words biased toward the SOPC/SOPP spaces, split/merge and the operand-code boundaries.
fn word() -> impl Strategy<Value = u32> {
    let code = prop_oneof![prop::sample::select(EDGE_CODES.to_vec()), 0u32..256];
    let low16 = (code.clone(), code).prop_map(|(a, b)| a | (b << 8));
    let op = prop_oneof![Just(0x7Fu32), 0u32..0x80];
    prop_oneof![
        (op.clone(), low16.clone()).prop_map(|(op, lo)| 0xBF00_0000 | (op << 16) | lo),
        (op, low16.clone()).prop_map(|(op, lo)| 0xBF80_0000 | (op << 16) | lo),
        low16.prop_map(|lo| 0xBF7F_0000 | lo),
        any::<u32>(),
    ]
}

fn input() -> impl Strategy<Value = DecodeIn> {
    (
        prop::bool::weighted(0.05),
        word(),
        prop::bool::weighted(0.85),
    )
        .prop_map(|(reset, insn, valid)| DecodeIn { reset, insn, valid })
}

fn decode_harness() -> Harness<PwsDecode> {
    let mut h = Harness::new(PwsDecode::default(), "decode").unwrap();
    h.add_clock("clock", Period::ps(1000).unwrap(), |u| &mut u.clock)
        .unwrap();
    h
}

/// One cycle: present `inp`, return the outputs of that cycle (the previous word's decode).
fn present(h: &mut Harness<PwsDecode>, inp: DecodeIn) -> DecodeOut {
    h.cycle(
        |u| {
            u.reset.next = inp.reset;
            u.insn.next = inp.insn.to_bits();
            u.valid.next = inp.valid;
        },
        read_outputs,
    )
    .unwrap()
}

fn word_in(insn: u32, valid: bool) -> DecodeIn {
    DecodeIn {
        reset: false,
        insn,
        valid,
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn rtl_matches_model_every_cycle(seq in prop::collection::vec(input(), 1..200)) {
        let mut h = decode_harness();
        let mut model = PwsDecodeModel::new();
        for (k, inp) in seq.into_iter().enumerate() {
            let got = present(&mut h, inp);
            prop_assert_eq!(got, model.outputs(), "cycle {} input {:?}", k, inp);
            model.clock(inp);
        }
    }
}

#[test]
fn the_encoding_examples_decode_one_cycle_later() {
    let mut h = decode_harness();
    let mut p = |insn, valid| present(&mut h, word_in(insn, valid));
    assert!(
        !p(0xBF7F_6B6A, true).out_valid,
        "nothing decoded in cycle 0"
    );
    let seen_split = p(0xBFFF_0000, true);
    assert!(seen_split.is_split && seen_split.is_sopc && !seen_split.illegal);
    assert_eq!(
        (seen_split.ssrc0, seen_split.ssrc1),
        (0x6A, 0x6B),
        "split vcc_lo, vcc_hi"
    );
    let seen_merge = p(0xBF7F_05FF, true);
    assert!(seen_merge.is_merge && seen_merge.is_sopp && !seen_merge.is_split);
    let seen_bad_split = p(0, false);
    assert!(
        seen_bad_split.is_split && seen_bad_split.illegal,
        "255 is no mask source"
    );
    assert_eq!(
        p(0, false),
        DecodeOut::default(),
        "an idle cycle decodes nothing"
    );
}

#[test]
fn every_split_operand_pair_is_judged_as_the_model_judges_it() {
    let mut h = decode_harness();
    let mut model = PwsDecodeModel::new();
    let mut illegal = 0u32;
    // 65536 splits, then one idle cycle that shows the decode of the last one.
    for pair in 0..=0x1_0000u32 {
        let inp = word_in(0xBF7F_0000 | (pair & 0xFFFF), pair < 0x1_0000);
        let got = present(&mut h, inp);
        assert_eq!(got, model.outputs(), "pair {:#06x}", pair.wrapping_sub(1));
        illegal += u32::from(got.illegal);
        model.clock(inp);
    }
    // 187 of the 256 codes are legal mask sources (docs/assumptions.md#A2): all other pairs are
    // illegal.
    assert_eq!(illegal, 65536 - 187 * 187);
}
