//! Properties of the encoder, decoder, assembler and disassembler, and the PWS encodings.

#[path = "support/random_insn.rs"]
mod random_insn;

use proptest::prelude::*;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rtgpu_firmware::isa::{assemble, assemble_line, decode, disassemble, Op, Operand};

proptest! {
    #![proptest_config(ProptestConfig::with_cases(20_000))]

    /// decode(encode(i)) == i, with the encoded length.
    #[test]
    fn decode_inverts_encode(seed in any::<u64>()) {
        let insn = random_insn::instruction(&mut ChaCha8Rng::seed_from_u64(seed));
        insn.validate().map_err(|e| TestCaseError::fail(format!("{insn:?}: {e}")))?;
        let words = insn.encode().unwrap();
        let (back, len) = decode(&words).map_err(|e| TestCaseError::fail(format!("{insn:?}: {e}")))?;
        prop_assert_eq!(len, words.len());
        prop_assert_eq!(insn.dwords(), words.len());
        prop_assert_eq!(back, insn);
    }

    /// The disassembly of an instruction assembles to the same instruction.
    #[test]
    fn text_reassembles(seed in any::<u64>()) {
        let insn = random_insn::instruction(&mut ChaCha8Rng::seed_from_u64(seed));
        let text = insn.to_string();
        let again = assemble_line(&text).map_err(|e| TestCaseError::fail(format!("{text}: {e}")))?;
        prop_assert_eq!(again.encode().unwrap(), insn.encode().unwrap(), "{}", text);
    }

    /// Random words never panic the decoder; whatever decodes re-encodes to the same words
    /// and its disassembly reassembles to them.
    #[test]
    fn random_words_never_panic(w0 in any::<u32>(), w1 in any::<u32>(), short in any::<bool>()) {
        let words = if short { vec![w0] } else { vec![w0, w1] };
        if let Ok((insn, len)) = decode(&words) {
            prop_assert_eq!(insn.encode().unwrap(), words[..len].to_vec());
            let text = insn.to_string();
            let again = assemble_line(&text).map_err(|e| TestCaseError::fail(format!("{text}: {e}")))?;
            prop_assert_eq!(again, insn);
        }
    }

    /// Random text never panics the assembler.
    #[test]
    fn random_text_never_panics(text in "[ -~\t]{0,60}") {
        let _ = assemble(&text, "fuzz.s");
    }
}

#[test]
fn split_and_merge_encodings() {
    let word = |t: &str| assemble_line(t).unwrap().encode().unwrap();
    assert_eq!(word("split vcc_lo, vcc_hi"), [0xBF7F_6B6A]);
    assert_eq!(word("split s4, s5"), [0xBF7F_0504]);
    assert_eq!(word("split exec_lo, 0"), [0xBF7F_807E]);
    assert_eq!(word("merge"), [0xBFFF_0000]);
    let (split, _) = decode(&[0xBF7F_6B6A]).unwrap();
    assert_eq!(split.op, Op::Split);
    assert_eq!(split.src[0], Some(Operand::Special(106)));
    assert_eq!(split.to_string(), "split vcc_lo, vcc_hi");
    assert_eq!(decode(&[0xBFFF_0000]).unwrap().0.op, Op::Merge);
}

#[test]
fn split_with_a_literal_or_a_non_mask_source_is_an_error() {
    for text in [
        "split 0x12345678, s5",
        "split s4, 1.0",
        "split m0, s1",
        "split s4, v1",
    ] {
        let err = assemble_line(text).unwrap_err();
        assert!(err.to_string().contains("<line>:1:"), "{text}: {err}");
    }
    let err = assemble_line("split 0x12345678, s5").unwrap_err();
    assert!(err.msg.contains("mask source"), "{err}");
    let err = decode(&[0xBF7F_05FF, 0x1234_5678]).unwrap_err();
    assert_eq!(err.word, 0xBF7F_05FF);
    assert!(err.reason.contains("mask source"), "{err}");
}

#[test]
fn assembler_errors_carry_position_and_expectation() {
    let src = "start:\n  s_mov_b32 s0, s1\n  v_add_f32 v0, v1,\n";
    let e = assemble(src, "k.s").unwrap_err();
    assert_eq!((e.line, e.col), (3, 20), "{e}");
    assert!(
        e.to_string().starts_with("k.s:3:20: error: expected"),
        "{e}"
    );
    let e = assemble("  s_branch nowhere\n", "k.s").unwrap_err();
    assert_eq!((e.line, e.col), (1, 12));
    assert!(e.msg.contains("undefined label"));
    let e = assemble("  s_foo s0\n", "k.s").unwrap_err();
    assert_eq!(
        (e.line, e.col, e.msg.as_str()),
        (1, 3, "unknown instruction 's_foo'")
    );
    let e = assemble("  .weak k\n", "k.s").unwrap_err();
    assert!(e.msg.contains("unsupported directive '.weak'"));
    assert_eq!((e.line, e.col), (1, 3));
    let e = assemble(".amdhsa_kernel k\n.end_amdhsa_kernel\n", "k.s").unwrap_err();
    assert!(e.msg.contains("no label 'k'"), "{}", e.msg);
    let e = assemble("a:\na:\n", "k.s").unwrap_err();
    assert_eq!(e.line, 2);
    let e = assemble("  s_mov_b64 s[1:2], 0\n", "k.s").unwrap_err();
    assert!(e.msg.contains("aligned"), "{e}");
}

#[test]
fn labels_resolve_forward_and_backward() {
    let src = ".text\ntop: s_nop 0 ; comment\n  s_cbranch_scc1 end // c\n  s_branch top\nend:\n  s_endpgm\n";
    let p = assemble(src, "k.s").unwrap();
    assert_eq!(p.labels["top"], 0);
    assert_eq!(p.labels["end"], 12);
    // s_cbranch_scc1 at 4 → end at 12: (12 - 8) / 4 = 1; s_branch at 8 → 0: (0 - 12) / 4 = -3.
    assert_eq!(
        p.words(),
        [0xBF80_0000, 0xBF85_0001, 0xBF82_FFFD, 0xBF81_0000]
    );
    let listing = disassemble(&p.words()).unwrap();
    assert_eq!(listing[2].insn.to_string(), "s_branch -3");
}

#[test]
fn illegal_words_name_the_word_and_why() {
    let e = decode(&[0xE000_0000, 0]).unwrap_err();
    assert!(
        e.to_string().contains("0xe0000000") && e.reason.contains("format"),
        "{e}"
    );
    let e = decode(&[0xBE80_0600]).unwrap_err();
    assert!(e.reason.contains("opcode 0x6"), "{e}");
    let e = decode(&[0x7E00_02FF]).unwrap_err();
    assert!(e.reason.contains("literal"), "{e}");
    let e = decode(&[0xD101_0000]).unwrap_err();
    assert!(e.reason.contains("second dword"), "{e}");
    let e = disassemble(&[0xBF80_0000, 0xE000_0000]).unwrap_err();
    assert_eq!(e.addr, 4);
}
