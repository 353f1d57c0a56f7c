//! The decode of one instruction word (and the dword after it) into [`InsnFields`]: the
//! format classification and one decoder per format.

use super::tables::*;
use super::{format, unit, InsnFields};

/// Bits `[hi:lo]` of `w` (inclusive, `hi >= lo`).
pub(super) fn bits(w: u32, hi: u32, lo: u32) -> u32 {
    let width = hi - lo + 1;
    ((u64::from(w) >> lo) & ((1u64 << width) - 1)) as u32
}

/// Bit `n` of `w`.
pub(super) fn bit(w: u32, n: u32) -> bool {
    bits(w, n, n) == 1
}

/// Is this SSRC code a legal `split` mask source?
///
/// Legal: SGPR0..101, VCC_LO/HI (106/107), EXEC_LO/HI (126/127), inline integers 128..=208.
pub(super) fn is_mask_source(code: u32) -> bool {
    matches!(code, 0..=101 | 106 | 107 | 126 | 127 | 128..=208)
}

/// The format of `w` (first dword), or [`format::NONE`].
pub(super) fn classify(w: u32) -> u8 {
    match w >> 23 {
        0x17D => format::SOP1,
        0x17E => format::SOPC,
        0x17F => format::SOPP,
        _ if w >> 28 == 0xB => format::SOPK,
        _ => match w >> 30 {
            0b10 => format::SOP2,
            0b11 => classify_64(w >> 26),
            _ => classify_vector(w >> 25),
        },
    }
}

/// The format of a word with `[31:30] = 0b11`, from its bits `[31:26]`.
pub(super) fn classify_64(top6: u32) -> u8 {
    match top6 {
        0b110000 => format::SMEM,
        0b110100 => format::VOP3,
        0b110110 => format::DS,
        0b110111 => format::FLAT,
        _ => format::NONE,
    }
}

/// The format of a word with `[31] = 0`, from its bits `[31:25]`.
pub(super) fn classify_vector(top7: u32) -> u8 {
    match top7 {
        0b0111111 => format::VOP1,
        0b0111110 => format::VOPC,
        _ => format::VOP2,
    }
}

/// A legal decode with only the identification fields set.
pub(super) fn base(format: u8, unit: u8, opcode: u16, words: u8) -> InsnFields {
    InsnFields {
        format,
        unit,
        opcode,
        words,
        ..InsnFields::default()
    }
}

/// Applies the 32-bit literal `word1` when `used`.
pub(super) fn with_literal(f: InsnFields, used: bool, word1: u32) -> InsnFields {
    if !used {
        return f;
    }
    InsnFields {
        literal: true,
        words: 2,
        imm: word1,
        ..f
    }
}

/// Decodes `word0` (and the following dword `word1`); see the module contract.
pub fn decode_fields(word0: u32, word1: u32) -> InsnFields {
    let decoded = match classify(word0) {
        format::SOP2 => decode_sop2(word0, word1),
        format::SOPK => decode_sopk(word0),
        format::SOP1 => decode_sop1(word0, word1),
        format::SOPC => decode_sopc(word0, word1),
        format::SOPP => decode_sopp(word0),
        format::SMEM => decode_smem(word0, word1),
        format::VOP1 => decode_vop1(word0, word1),
        format::VOP2 => decode_vop2(word0, word1),
        format::VOPC => decode_vopc(word0, word1),
        format::VOP3 => decode_vop3(word0, word1),
        format::FLAT => decode_flat(word0, word1),
        format::DS => decode_ds(word0, word1),
        _ => None,
    };
    decoded.unwrap_or(InsnFields {
        illegal: true,
        ..InsnFields::default()
    })
}

/// SOP2: `dst` `[22:16]`, `src0` `[7:0]`, `src1` `[15:8]`; literal if either source is 255.
pub(super) fn decode_sop2(w0: u32, w1: u32) -> Option<InsnFields> {
    let op = bits(w0, 29, 23) as u16;
    SOP2_OPS.contains(&op).then(|| {
        let (s0, s1) = (bits(w0, 7, 0), bits(w0, 15, 8));
        let f = InsnFields {
            dst: bits(w0, 22, 16) as u8,
            src0: s0 as u16,
            src1: s1 as u16,
            ..base(format::SOP2, unit::SALU, op, 1)
        };
        with_literal(f, s0 == LITERAL_CODE || s1 == LITERAL_CODE, w1)
    })
}

/// SOPK: `dst` `[22:16]`, `imm` `[15:0]`.
pub(super) fn decode_sopk(w0: u32) -> Option<InsnFields> {
    let op = bits(w0, 27, 23) as u16;
    SOPK_OPS.contains(&op).then(|| InsnFields {
        dst: bits(w0, 22, 16) as u8,
        imm: bits(w0, 15, 0),
        ..base(format::SOPK, unit::SALU, op, 1)
    })
}

/// SOP1: `dst` `[22:16]`, `src0` `[7:0]`; literal if `src0` is 255.
pub(super) fn decode_sop1(w0: u32, w1: u32) -> Option<InsnFields> {
    let op = bits(w0, 15, 8) as u16;
    let &(_, unit) = SOP1_OPS.iter().find(|&&(o, _)| o == op)?;
    let s0 = bits(w0, 7, 0);
    let f = InsnFields {
        dst: bits(w0, 22, 16) as u8,
        src0: s0 as u16,
        ..base(format::SOP1, unit, op, 1)
    };
    Some(with_literal(f, s0 == LITERAL_CODE, w1))
}

/// SOPC: `src0` `[7:0]`, `src1` `[15:8]`; `split` checks its mask sources, `tile_ld`/`tile_st`
/// take an SGPR descriptor start ≤ s98 and `src1` = 0, compares may take a literal.
pub(super) fn decode_sopc(w0: u32, w1: u32) -> Option<InsnFields> {
    let op = bits(w0, 22, 16) as u16;
    let (s0, s1) = (bits(w0, 7, 0), bits(w0, 15, 8));
    let f = |unit| InsnFields {
        src0: s0 as u16,
        src1: s1 as u16,
        ..base(format::SOPC, unit, op, 1)
    };
    if op == SPLIT_OP {
        (is_mask_source(s0) && is_mask_source(s1)).then(|| f(unit::PWS))
    } else if op == TILE_LD_OP || op == TILE_ST_OP {
        (s0 <= TILE_DESC_LAST && s1 == 0).then(|| f(unit::TILE))
    } else if op <= SOPC_CMP_LAST {
        let literal = s0 == LITERAL_CODE || s1 == LITERAL_CODE;
        Some(with_literal(f(unit::SALU), literal, w1))
    } else {
        None
    }
}

/// SOPP: `imm` `[15:0]` (also for `merge`, whose low half has no meaning).
pub(super) fn decode_sopp(w0: u32) -> Option<InsnFields> {
    let op = bits(w0, 22, 16) as u16;
    let &(_, unit) = SOPP_OPS.iter().find(|&&(o, _)| o == op)?;
    Some(InsnFields {
        imm: bits(w0, 15, 0),
        ..base(format::SOPP, unit, op, 1)
    })
}

/// SMEM: `dst` (SDATA) `w0[12:6]`, `src0` (SBASE) `w0[5:0]`, `imm` `w1[19:0]`.
pub(super) fn decode_smem(w0: u32, w1: u32) -> Option<InsnFields> {
    let op = bits(w0, 25, 18) as u16;
    SMEM_OPS.contains(&op).then(|| InsnFields {
        dst: bits(w0, 12, 6) as u8,
        src0: bits(w0, 5, 0) as u16,
        imm: bits(w1, 19, 0),
        glc: bit(w0, 16),
        imm_offset: bit(w0, 17),
        ..base(format::SMEM, unit::SMEM, op, 2)
    })
}

/// VOP1: `dst` `[24:17]`, `src0` `[8:0]`; literal if `src0` is 255.
pub(super) fn decode_vop1(w0: u32, w1: u32) -> Option<InsnFields> {
    let op = bits(w0, 16, 9) as u16;
    VOP1_OPS.contains(&op).then(|| {
        let s0 = bits(w0, 8, 0);
        let f = InsnFields {
            dst: bits(w0, 24, 17) as u8,
            src0: s0 as u16,
            ..base(format::VOP1, unit::VALU, op, 1)
        };
        with_literal(f, s0 == LITERAL_CODE, w1)
    })
}

/// VOP2: `dst` `[24:17]`, `src0` `[8:0]`, `src1` `[16:9]`; literal if `src0` is 255.
pub(super) fn decode_vop2(w0: u32, w1: u32) -> Option<InsnFields> {
    let op = bits(w0, 30, 25) as u16;
    VOP2_OPS.contains(&op).then(|| {
        let s0 = bits(w0, 8, 0);
        let f = InsnFields {
            dst: bits(w0, 24, 17) as u8,
            src0: s0 as u16,
            src1: bits(w0, 16, 9) as u16,
            ..base(format::VOP2, unit::VALU, op, 1)
        };
        with_literal(f, s0 == LITERAL_CODE, w1)
    })
}

/// VOPC: `src0` `[8:0]`, `src1` `[16:9]` (the destination is VCC); literal if `src0` is 255.
pub(super) fn decode_vopc(w0: u32, w1: u32) -> Option<InsnFields> {
    let op = bits(w0, 24, 17) as u16;
    VOPC_OPS.contains(&op).then(|| {
        let s0 = bits(w0, 8, 0);
        let f = InsnFields {
            src0: s0 as u16,
            src1: bits(w0, 16, 9) as u16,
            ..base(format::VOPC, unit::VALU, op, 1)
        };
        with_literal(f, s0 == LITERAL_CODE, w1)
    })
}

/// Is this 10-bit VOP3 opcode in the subset?
pub(super) fn vop3_supported(op: u16) -> bool {
    match op {
        0x000..=0x0FF => VOPC_OPS.contains(&op),
        0x100..=0x13F => VOP2_OPS.contains(&(op - VOP3_FROM_VOP2)),
        0x140..=0x1BF => {
            let vop1 = op - VOP3_FROM_VOP1;
            vop1 != READFIRSTLANE_OP && VOP1_OPS.contains(&vop1)
        }
        _ => VOP3_ONLY_OPS.contains(&op),
    }
}

/// VOP3 (a and b): `dst` `w0[7:0]`, sources in `w1`, modifiers; no literal (255 is illegal).
pub(super) fn decode_vop3(w0: u32, w1: u32) -> Option<InsnFields> {
    let op = bits(w0, 25, 16) as u16;
    let srcs = [bits(w1, 8, 0), bits(w1, 17, 9), bits(w1, 26, 18)];
    if !vop3_supported(op) || srcs.contains(&LITERAL_CODE) {
        return None;
    }
    let carry_out = VOP3B_OPS.contains(&op) || op == MAD_U64_U32;
    Some(InsnFields {
        dst: bits(w0, 7, 0) as u8,
        sdst: if carry_out { bits(w0, 14, 8) as u8 } else { 0 },
        src0: srcs[0] as u16,
        src1: srcs[1] as u16,
        src2: srcs[2] as u16,
        abs: if carry_out { 0 } else { bits(w0, 10, 8) as u8 },
        clamp: bit(w0, 15),
        neg: bits(w1, 31, 29) as u8,
        omod: bits(w1, 28, 27) as u8,
        ..base(format::VOP3, unit::VALU, op, 2)
    })
}

/// FLAT: `dst` (VDST) `w1[31:24]`, `src0` (ADDR) `w1[7:0]`, `src1` (DATA) `w1[15:8]`.
pub(super) fn decode_flat(w0: u32, w1: u32) -> Option<InsnFields> {
    let op = bits(w0, 24, 18) as u16;
    FLAT_OPS.contains(&op).then(|| InsnFields {
        dst: bits(w1, 31, 24) as u8,
        src0: bits(w1, 7, 0) as u16,
        src1: bits(w1, 15, 8) as u16,
        glc: bit(w0, 16),
        slc: bit(w0, 17),
        ..base(format::FLAT, unit::VMEM, op, 2)
    })
}

/// DS: `dst` (VDST) `w1[31:24]`, `src0` (ADDR) `w1[7:0]`, `src1`/`src2` (DATA0/1)
/// `w1[15:8]`/`w1[23:16]`, `imm` (OFFSET0/1) `w0[15:0]`.
pub(super) fn decode_ds(w0: u32, w1: u32) -> Option<InsnFields> {
    let op = bits(w0, 24, 17) as u16;
    DS_OPS.contains(&op).then(|| InsnFields {
        dst: bits(w1, 31, 24) as u8,
        src0: bits(w1, 7, 0) as u16,
        src1: bits(w1, 15, 8) as u16,
        src2: bits(w1, 23, 16) as u16,
        imm: bits(w0, 15, 0),
        gds: bit(w0, 16),
        ..base(format::DS, unit::LDS, op, 2)
    })
}
