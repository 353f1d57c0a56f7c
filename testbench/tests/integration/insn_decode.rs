//! The instruction decode stage (hw/src/isa/rtl/insn_decode.rs): RTL == reference model every
//! cycle on random stimulus, and the reference model agrees with the firmware decoder (which
//! the LLVM oracle test checks against llvm-mc) on every representable instruction.

#[path = "../../../firmware/tests/support/random_insn.rs"]
mod random_insn;

use proptest::prelude::*;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rtgpu_firmware::isa::{decode, Format, Instruction, Op, Operand, Sig, Slot};
use rtgpu_hw::isa::insn_model::{decode_fields, InsnDecodeIn, InsnDecodeModel, InsnFields};
use rtgpu_hw::isa::InsnDecode;
use rtgpu_testbench::sim::clock::Period;
use rtgpu_testbench::sim::harness::Harness;
use rtgpu_testbench::tb::insn::{apply, biased_word, read_outputs};

/// A first word: a representable instruction, a format-biased word, or anything.
fn word_pair() -> impl Strategy<Value = (u32, u32)> {
    prop_oneof![
        any::<u64>().prop_map(|seed| {
            let insn = random_insn::instruction(&mut ChaCha8Rng::seed_from_u64(seed));
            let w = insn.encode().unwrap();
            (w[0], w.get(1).copied().unwrap_or(seed as u32))
        }),
        (any::<u64>(), any::<u32>())
            .prop_map(|(seed, w1)| { (biased_word(&mut ChaCha8Rng::seed_from_u64(seed)), w1) }),
        (any::<u32>(), any::<u32>()),
    ]
}

fn input() -> impl Strategy<Value = InsnDecodeIn> {
    (
        prop::bool::weighted(0.03),
        prop::bool::weighted(0.9),
        word_pair(),
    )
        .prop_map(|(reset, valid, (word0, word1))| InsnDecodeIn {
            reset,
            valid,
            word0,
            word1,
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn rtl_matches_model_every_cycle(seq in prop::collection::vec(input(), 1..96)) {
        let mut h = Harness::new(InsnDecode::default(), "insn").unwrap();
        h.add_clock("clock", Period::ps(1000).unwrap(), |u| &mut u.clock).unwrap();
        let mut model = InsnDecodeModel::new();
        for (k, inp) in seq.iter().chain([InsnDecodeIn::default()].iter()).enumerate() {
            let got = h.cycle(|u| apply(u, *inp), read_outputs).unwrap();
            prop_assert_eq!(got, model.outputs(), "cycle {}", k);
            model.clock(*inp);
        }
    }
}

/// The decoder's format code of a firmware instruction.
fn format_code(insn: &Instruction) -> u8 {
    if insn.is_vop3() {
        return 10;
    }
    use Format::*;
    match insn.op.info().format {
        Sop2 => 1,
        Sopk => 2,
        Sop1 => 3,
        Sopc => 4,
        Sopp => 5,
        Smem => 6,
        Vop1 => 7,
        Vop2 => 8,
        Vopc => 9,
        Vop3 => 10,
        Flat => 11,
        Ds => 12,
    }
}

/// The decoder's unit code of an opcode.
fn unit_code(op: Op) -> u8 {
    use Format::*;
    match (op.info().format, op.info().sig, op) {
        (_, _, Op::Split | Op::Merge) => 7,
        (_, _, Op::TileLd | Op::TileSt) => 10,
        (_, Sig::Branch, _) | (_, _, Op::SSetpcB64 | Op::SSwappcB64) => 6,
        (_, _, Op::SWaitcnt | Op::SBarrier) => 8,
        (Sopp, ..) => 9,
        (Sop2 | Sopk | Sop1 | Sopc, ..) => 1,
        (Smem, ..) => 4,
        (Flat, ..) => 3,
        (Ds, ..) => 5,
        _ => 2,
    }
}

fn code(o: Option<Operand>) -> u16 {
    o.map_or(0, |o| o.code())
}

/// What the decode stage must output for a firmware instruction, from its typed view.
fn expected(insn: &Instruction) -> InsnFields {
    let words = insn.encode().unwrap();
    let info = insn.op.info();
    let mut f = InsnFields {
        format: format_code(insn),
        unit: unit_code(insn.op),
        opcode: if insn.is_vop3() {
            insn.op.vop3_code().unwrap()
        } else {
            info.code
        },
        words: words.len() as u8,
        abs: insn.mods.abs,
        neg: insn.mods.neg,
        clamp: insn.mods.clamp,
        omod: insn.mods.omod,
        glc: insn.mods.glc,
        slc: insn.mods.slc,
        gds: insn.mods.gds,
        ..InsnFields::default()
    };
    let vgpr_field = matches!(info.format, Format::Flat | Format::Ds);
    for slot in insn.slots() {
        match slot {
            Slot::SDst(_) | Slot::SgprDst | Slot::VDst(_) => f.dst = (code(insn.dst) & 0xff) as u8,
            Slot::CarryOut if insn.op.is_vop3b() => f.sdst = code(insn.sdst) as u8,
            Slot::CarryOut => f.dst = code(insn.sdst) as u8,
            Slot::SSrc(i, _) | Slot::Src(i, _) | Slot::VReg(i, _) => {
                let c = code(insn.src[i]);
                // 8-bit VGPR fields: FLAT/DS registers and vsrc1 of VOP2/VOPC (not readfirstlane's src0).
                let narrow = vgpr_field || matches!(slot, Slot::VReg(1, _)) && !insn.is_vop3();
                let c = if narrow { c & 0xff } else { c };
                [&mut f.src0, &mut f.src1, &mut f.src2][i].clone_from(&c);
            }
            Slot::SBase => f.src0 = code(insn.src[0]) >> 1,
            Slot::SOffset => {
                f.imm_offset = insn.src[1].is_none();
                f.imm = insn.src[1].map_or(insn.imm, |r| r.code() as u32);
            }
            Slot::Simm16 | Slot::Count16 | Slot::Label | Slot::Waitcnt => f.imm = insn.imm,
            Slot::Vcc => {}
        }
    }
    if info.format == Format::Ds {
        f.imm = insn.imm;
    }
    if let Some(lit) = insn.literal() {
        f.literal = true;
        f.imm = lit;
    }
    f
}

#[test]
fn model_agrees_with_the_firmware_decoder_on_every_representable_instruction() {
    let mut rng = ChaCha8Rng::seed_from_u64(0x15a);
    for n in 0..50_000 {
        let insn = random_insn::instruction(&mut rng);
        let w = insn.encode().unwrap();
        let got = decode_fields(w[0], w.get(1).copied().unwrap_or(0));
        assert_eq!(got, expected(&insn), "#{n}: {insn} = {w:08X?}");
    }
}

#[test]
fn words_the_model_rejects_the_firmware_rejects() {
    let mut rng = ChaCha8Rng::seed_from_u64(0x15b);
    let (mut legal, mut illegal) = (0, 0);
    for _ in 0..200_000 {
        let w0 = if rand::Rng::gen_bool(&mut rng, 0.5) {
            biased_word(&mut rng)
        } else {
            rand::Rng::gen(&mut rng)
        };
        let w1: u32 = rand::Rng::gen(&mut rng);
        let model = decode_fields(w0, w1);
        match decode(&[w0, w1]) {
            Ok((insn, _)) => {
                legal += 1;
                assert!(
                    !model.illegal,
                    "{w0:08X} {w1:08X} = {insn} but the model says illegal"
                );
                assert_eq!(model, expected(&insn), "{w0:08X} {w1:08X} = {insn}");
            }
            Err(_) if model.illegal => illegal += 1,
            // The hardware ignores unused bits that the firmware decoder (strict) rejects.
            Err(_) => {}
        }
    }
    assert!(
        legal > 10_000 && illegal > 10_000,
        "legal {legal}, illegal {illegal}"
    );
}
