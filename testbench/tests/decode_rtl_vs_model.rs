//! The split/merge decode stage: RTL == reference model every cycle on random stimulus.

use proptest::prelude::*;
use rtgpu_hw::isa::model::{DecodeIn, PwsDecodeModel};
use rtgpu_hw::isa::PwsDecode;
use rtgpu_testbench::clock::Period;
use rtgpu_testbench::harness::Harness;
use rtgpu_testbench::tb::read_outputs;
use rust_hdl::core::prelude::*;

/// Words biased toward the SOPC/SOPP spaces, split/merge and the operand-code boundaries.
fn word() -> impl Strategy<Value = u32> {
    let code = prop_oneof![
        prop::sample::select(vec![
            0u32, 101, 102, 105, 106, 107, 108, 124, 125, 126, 127, 128, 208, 209, 255
        ]),
        0u32..256,
    ];
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

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn rtl_matches_model_every_cycle(seq in prop::collection::vec(input(), 1..200)) {
        let mut h = Harness::new(PwsDecode::default(), "decode").unwrap();
        h.add_clock("clock", Period::ps(1000).unwrap(), |u| &mut u.clock);
        let mut model = PwsDecodeModel::new();
        for (k, inp) in seq.into_iter().enumerate() {
            let got = h
                .cycle(
                    |u| {
                        u.reset.next = inp.reset;
                        u.insn.next = inp.insn.to_bits();
                        u.valid.next = inp.valid;
                    },
                    read_outputs,
                )
                .unwrap();
            prop_assert_eq!(got, model.outputs(), "cycle {} input {:?}", k, inp);
            model.clock(inp);
        }
    }
}

#[test]
fn the_spec_examples_decode_one_cycle_later() {
    let mut h = Harness::new(PwsDecode::default(), "decode").unwrap();
    h.add_clock("clock", Period::ps(1000).unwrap(), |u| &mut u.clock);
    let mut present = |insn: u32, valid: bool| {
        h.cycle(
            |u| {
                u.reset.next = false;
                u.insn.next = insn.to_bits();
                u.valid.next = valid;
            },
            read_outputs,
        )
        .unwrap()
    };
    assert!(
        !present(0xBF7F_6B6A, true).out_valid,
        "nothing decoded in cycle 0"
    );
    let split = present(0xBFFF_0000, true);
    assert!(split.is_split && split.is_sopc && !split.illegal);
    assert_eq!(
        (split.ssrc0, split.ssrc1),
        (0x6A, 0x6B),
        "split vcc_lo, vcc_hi"
    );
    let merge = present(0xBF7F_05FF, true);
    assert!(merge.is_merge && merge.is_sopp && !merge.is_split);
    let bad = present(0, false);
    assert!(
        bad.is_split && bad.illegal,
        "ssrc0 = 255 (literal) is not a mask source"
    );
    assert_eq!(
        present(0, false),
        Default::default(),
        "idle cycles decode nothing"
    );
}
