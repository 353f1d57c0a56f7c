//! Reference model of the PWS decode stage, written from the encoding of
//! docs/assumptions.md#A2 only.
//!
//! The stage is one register deep: a word presented with `valid` at a rising edge is decoded on
//! the outputs during the following cycle. An empty stage (power-up, after `reset`, or after an
//! edge without `valid`) drives every output to 0.
//!
//! Two views are provided:
//! - [`decode_word`] and [`is_mask_source`]: what a word means (transaction level);
//! - [`PwsDecodeModel`]: the cycle-level behaviour, built on [`decode_word`].

/// Bits [31:23] of a GCN3 SOPC word.
const SOPC_ENCODING: u32 = 0b1_0111_1110;
/// Bits [31:23] of a GCN3 SOPP word.
const SOPP_ENCODING: u32 = 0b1_0111_1111;
/// Bits [31:16] of `split` (SOPC, OP = 0x7F).
const SPLIT_OPC16: u32 = 0xBF7F;
/// Bits [31:16] of `merge` (SOPP, OP = 0x7F).
const MERGE_OPC16: u32 = 0xBFFF;

/// Inputs of one cycle.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DecodeIn {
    /// Synchronous reset: empties the stage at the edge.
    pub reset: bool,
    /// Instruction word.
    pub insn: u32,
    /// `insn` is meaningful and should be captured at the edge.
    pub valid: bool,
}

/// Outputs of one cycle.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DecodeOut {
    /// The stage holds a word.
    pub out_valid: bool,
    /// Bits \[31:23\] are the SOPC encoding `0b101111110`.
    pub is_sopc: bool,
    /// Bits \[31:23\] are the SOPP encoding `0b101111111`.
    pub is_sopp: bool,
    /// The word is `split` (bits \[31:16\] = `0xBF7F`).
    pub is_split: bool,
    /// The word is `merge` (bits \[31:16\] = `0xBFFF`; bits \[15:0\] ignored).
    pub is_merge: bool,
    /// Bits \[7:0\] of the word (SSRC0), whatever the instruction.
    pub ssrc0: u8,
    /// Bits \[15:8\] of the word (SSRC1), whatever the instruction.
    pub ssrc1: u8,
    /// The word is a `split` with an operand that is not a legal mask source.
    pub illegal: bool,
}

/// Is this SSRC code a legal split mask source (docs/assumptions.md#A2)?
///
/// Legal: SGPR0–101, VCC_LO/HI (106/107), EXEC_LO/HI (126/127) and the inline integer
/// constants 128–208. Everything else is rejected, including M0 (124) and literal (255).
pub fn is_mask_source(code: u8) -> bool {
    match code {
        0..=101 => true,   // SGPR0..SGPR101
        106 | 107 => true, // VCC_LO, VCC_HI
        126 | 127 => true, // EXEC_LO, EXEC_HI
        128..=208 => true, // inline 0, 1..64, -1..-16
        _ => false,        // reserved, M0, other specials, literal
    }
}

/// The outputs while the stage holds `w` (so `out_valid` is always true).
pub fn decode_word(w: u32) -> DecodeOut {
    let encoding = w >> 23;
    let opc16 = w >> 16;
    let [ssrc0, ssrc1, _, _] = w.to_le_bytes();
    let is_split = opc16 == SPLIT_OPC16;
    DecodeOut {
        out_valid: true,
        is_sopc: encoding == SOPC_ENCODING,
        is_sopp: encoding == SOPP_ENCODING,
        is_split,
        is_merge: opc16 == MERGE_OPC16,
        ssrc0,
        ssrc1,
        illegal: is_split && !(is_mask_source(ssrc0) && is_mask_source(ssrc1)),
    }
}

/// Cycle-level model of the one-stage decode register.
#[derive(Clone, Debug, Default)]
pub struct PwsDecodeModel {
    /// The word held by the stage, or `None` when the stage is empty.
    held: Option<u32>,
}

impl PwsDecodeModel {
    /// A stage in its power-up state (empty).
    pub fn new() -> Self {
        Self::default()
    }

    /// Outputs during the current cycle (depend only on state).
    pub fn outputs(&self) -> DecodeOut {
        self.held.map(decode_word).unwrap_or_default()
    }

    /// Rising edge with these inputs.
    pub fn clock(&mut self, inp: DecodeIn) {
        self.held = (inp.valid && !inp.reset).then_some(inp.insn);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn split(ssrc0: u8, ssrc1: u8) -> u32 {
        0xBF7F_0000 | (u32::from(ssrc1) << 8) | u32::from(ssrc0)
    }

    fn word(insn: u32) -> DecodeIn {
        DecodeIn {
            reset: false,
            insn,
            valid: true,
        }
    }

    const IDLE: DecodeIn = DecodeIn {
        reset: false,
        insn: 0,
        valid: false,
    };

    #[test]
    fn split_vcc_lo_vcc_hi() {
        assert_eq!(split(106, 107), 0xBF7F6B6A);
        let d = decode_word(0xBF7F6B6A);
        assert_eq!(
            d,
            DecodeOut {
                out_valid: true,
                is_sopc: true,
                is_sopp: false,
                is_split: true,
                is_merge: false,
                ssrc0: 0x6A,
                ssrc1: 0x6B,
                illegal: false,
            }
        );
    }

    #[test]
    fn split_s4_s5() {
        assert_eq!(split(4, 5), 0xBF7F0504);
        let d = decode_word(0xBF7F0504);
        assert!(d.is_split && d.is_sopc && !d.is_sopp && !d.is_merge && !d.illegal);
        assert_eq!((d.ssrc0, d.ssrc1), (4, 5));
    }

    #[test]
    fn merge_ignores_low_half() {
        for w in [0xBFFF0000, 0xBFFF1234] {
            let d = decode_word(w);
            assert!(d.out_valid && d.is_merge && d.is_sopp);
            assert!(!d.is_split && !d.is_sopc && !d.illegal);
        }
        let d = decode_word(0xBFFF1234);
        assert_eq!((d.ssrc0, d.ssrc1), (0x34, 0x12));
    }

    #[test]
    fn split_with_literal_is_illegal() {
        let d = decode_word(split(255, 5));
        assert!(d.is_split && d.illegal);
        assert_eq!(d.ssrc0, 255);
    }

    #[test]
    fn split_with_m0_is_illegal() {
        let d = decode_word(split(4, 124));
        assert!(d.is_split && d.illegal);
        assert_eq!(d.ssrc1, 124);
    }

    #[test]
    fn s_cmp_eq_i32_is_sopc_not_split() {
        let d = decode_word(0xBF000100);
        assert!(d.out_valid && d.is_sopc && !d.is_sopp);
        assert!(!d.is_split && !d.is_merge && !d.illegal);
        assert_eq!((d.ssrc0, d.ssrc1), (0, 1));
    }

    #[test]
    fn s_endpgm_is_sopp_not_merge() {
        let d = decode_word(0xBF810000);
        assert!(d.out_valid && d.is_sopp && !d.is_sopc);
        assert!(!d.is_split && !d.is_merge && !d.illegal);
    }

    #[test]
    fn vop1_is_neither() {
        let d = decode_word(0x7E000280);
        assert!(d.out_valid);
        assert!(!d.is_sopc && !d.is_sopp && !d.is_split && !d.is_merge && !d.illegal);
        assert_eq!((d.ssrc0, d.ssrc1), (0x80, 0x02));
    }

    #[test]
    fn illegal_only_for_split() {
        // Bad operand codes in a non-split word are not flagged.
        for w in [0xBF00FFFF, 0xBFFFFFFF, 0x7E00FF7C] {
            assert!(!decode_word(w).illegal, "{w:#010x}");
        }
    }

    /// (code, legal) on both sides of every boundary of the legal ranges.
    const BOUNDARIES: [(u8, bool); 13] = [
        (0, true),
        (101, true),
        (102, false),
        (105, false),
        (106, true),
        (107, true),
        (108, false),
        (125, false),
        (126, true),
        (127, true),
        (128, true),
        (208, true),
        (209, false),
    ];

    #[test]
    fn mask_source_boundaries() {
        for (code, legal) in BOUNDARIES {
            assert_eq!(is_mask_source(code), legal, "code {code}");
        }
        assert!(!is_mask_source(124), "M0");
        assert!(!is_mask_source(255), "literal");
    }

    #[test]
    fn split_boundaries_in_each_operand() {
        for (code, legal) in BOUNDARIES {
            assert_eq!(
                decode_word(split(code, 4)).illegal,
                !legal,
                "ssrc0 = {code}"
            );
            assert_eq!(
                decode_word(split(4, code)).illegal,
                !legal,
                "ssrc1 = {code}"
            );
        }
    }

    #[test]
    fn mask_source_exhaustive_count() {
        // 102 SGPRs + 2 VCC + 2 EXEC + 81 inline constants.
        let legal = (0..=u8::MAX).filter(|&c| is_mask_source(c)).count();
        assert_eq!(legal, 102 + 2 + 2 + 81);
    }

    #[test]
    fn power_up_is_empty() {
        assert_eq!(PwsDecodeModel::new().outputs(), DecodeOut::default());
    }

    #[test]
    fn one_cycle_latency() {
        let mut m = PwsDecodeModel::new();
        let words = [0xBF7F6B6A, 0xBF7F0504, 0xBFFF0000, 0xBF000100];
        for w in words {
            // Outputs change only at the edge, and then show the word just captured.
            let before = m.outputs();
            assert_ne!(before, decode_word(w));
            m.clock(word(w));
            assert_eq!(m.outputs(), decode_word(w));
        }
    }

    #[test]
    fn idle_cycle_clears_outputs() {
        let mut m = PwsDecodeModel::new();
        m.clock(word(0xBF7F6B6A));
        assert!(m.outputs().is_split);
        m.clock(DecodeIn {
            insn: 0xBF7F6B6A,
            ..IDLE
        });
        assert_eq!(m.outputs(), DecodeOut::default());
        m.clock(word(0xBFFF0000));
        assert!(m.outputs().is_merge);
        m.clock(IDLE);
        assert_eq!(m.outputs(), DecodeOut::default());
    }

    #[test]
    fn reset_clears_even_with_valid() {
        let mut m = PwsDecodeModel::new();
        m.clock(word(0xBF7F04FF));
        assert!(m.outputs().illegal);
        m.clock(DecodeIn {
            reset: true,
            insn: 0xBF7F6B6A,
            valid: true,
        });
        assert_eq!(m.outputs(), DecodeOut::default());
        // Next valid word after reset is captured normally.
        m.clock(word(0xBF7F0504));
        assert_eq!(m.outputs(), decode_word(0xBF7F0504));
    }

    #[test]
    fn back_to_back_words() {
        let mut m = PwsDecodeModel::new();
        let seq = [word(0xBF7F0504), word(0xBF810000), IDLE, word(0x7E000280)];
        let mut expect = DecodeOut::default();
        for inp in seq {
            assert_eq!(m.outputs(), expect);
            m.clock(inp);
            expect = if inp.valid {
                decode_word(inp.insn)
            } else {
                DecodeOut::default()
            };
        }
        assert_eq!(m.outputs(), expect);
    }
}
