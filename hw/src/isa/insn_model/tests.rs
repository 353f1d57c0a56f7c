//! Unit tests of the decode model: every llvm-mc encoding of the subset, opcode sweeps per
//! format, the fields of each format, `split`/`merge`, illegal words and the stage's timing.

use super::decode::is_mask_source;
use super::*;

mod llvm_table;
use llvm_table::LLVM_TABLE;

/// The legal decode of a word of `format`/`unit`/`opcode`, other fields given by `f`.
fn legal(format: u8, unit: u8, opcode: u16, words: u8, f: InsnFields) -> InsnFields {
    InsnFields {
        format,
        unit,
        opcode,
        words,
        ..f
    }
}

const ZERO: InsnFields = InsnFields {
    illegal: false,
    format: 0,
    unit: 0,
    opcode: 0,
    dst: 0,
    sdst: 0,
    src0: 0,
    src1: 0,
    src2: 0,
    imm: 0,
    literal: false,
    words: 0,
    abs: 0,
    neg: 0,
    clamp: false,
    omod: 0,
    glc: false,
    slc: false,
    gds: false,
    imm_offset: false,
};

const ILLEGAL: InsnFields = InsnFields {
    illegal: true,
    ..ZERO
};

fn split(ssrc0: u32, ssrc1: u32) -> u32 {
    0xBF7F_0000 | (ssrc1 << 8) | ssrc0
}

#[test]
fn every_llvm_mnemonic_decodes() {
    assert_eq!(LLVM_TABLE.len(), 249);
    for &(text, w0, w1, words, format, unit, opcode) in LLVM_TABLE {
        let d = decode_fields(w0, w1);
        assert!(!d.illegal, "{text}");
        let got = (d.format, d.unit, d.opcode, d.words, d.literal);
        assert_eq!(got, (format, unit, opcode, words, false), "{text}");
    }
}

/// Per format, how many llvm table rows it has (the PWS pair is counted separately).
fn table_count(format: u8) -> usize {
    LLVM_TABLE.iter().filter(|r| r.4 == format).count()
}

/// Replaces bits `[hi:lo]` of `w` with `v`.
fn set_bits(w: u32, hi: u32, lo: u32, v: u32) -> u32 {
    let mask = (((1u64 << (hi - lo + 1)) - 1) << lo) as u32;
    (w & !mask) | ((v << lo) & mask)
}

/// Sweeps every value of the opcode field of the first table row of `format` and checks
/// that exactly the table's opcodes (plus `extra`) decode legally in that format.
fn sweep(format: u8, hi: u32, lo: u32, extra: usize) {
    let &(_, w0, w1, ..) = LLVM_TABLE.iter().find(|r| r.4 == format).unwrap();
    let mut legal_ops = 0;
    for op in 0..(1u32 << (hi - lo + 1)) {
        let d = decode_fields(set_bits(w0, hi, lo, op), w1);
        let in_table = LLVM_TABLE
            .iter()
            .any(|r| r.4 == format && u32::from(r.6) == op);
        if d.format == format && !d.illegal {
            legal_ops += 1;
            assert_eq!(u32::from(d.opcode), op);
            assert!(in_table || extra > 0, "format {format} op {op:#x}");
        } else {
            assert!(!in_table, "format {format} op {op:#x} rejected");
        }
    }
    assert_eq!(legal_ops, table_count(format) + extra, "format {format}");
}

#[test]
fn opcode_sweeps_match_llvm_table() {
    sweep(format::SOP2, 29, 23, 0);
    sweep(format::SOPK, 27, 23, 0);
    sweep(format::SOP1, 15, 8, 0);
    sweep(format::SOPC, 22, 16, 1); // split (the row's ssrc1 ≠ 0 makes tile_ld/st illegal)
    sweep(format::SOPP, 22, 16, 1); // merge
    sweep(format::SMEM, 25, 18, 0);
    sweep(format::VOP1, 16, 9, 0);
    sweep(format::VOP2, 30, 25, 0);
    sweep(format::VOPC, 24, 17, 0);
    sweep(format::VOP3, 25, 16, 0);
    sweep(format::FLAT, 24, 18, 0);
    sweep(format::DS, 24, 17, 0);
}

#[test]
fn table_counts_per_format() {
    let counts = [30, 15, 10, 12, 12, 4, 10, 25, 38, 82, 6, 5];
    for (format, n) in (format::SOP2..=format::DS).zip(counts) {
        assert_eq!(table_count(format), n, "format {format}");
    }
}

#[test]
fn sop2_literal_src0() {
    // s_and_b32 s3, 0xdeadbeef, s4 ; encoding: [0xff,0x04,0x03,0x86,0xef,0xbe,0xad,0xde]
    let d = decode_fields(0x860304FF, 0xDEADBEEF);
    let f = InsnFields {
        dst: 3,
        src0: 255,
        src1: 4,
        imm: 0xDEADBEEF,
        literal: true,
        ..ZERO
    };
    assert_eq!(d, legal(format::SOP2, unit::SALU, 0x0C, 2, f));
}

#[test]
fn sop2_literal_src1() {
    // s_add_u32 s0, s1, 0x12345678 ; encoding: [0x01,0xff,0x00,0x80,0x78,0x56,0x34,0x12]
    let d = decode_fields(0x8000FF01, 0x12345678);
    let f = InsnFields {
        src0: 1,
        src1: 255,
        imm: 0x12345678,
        literal: true,
        ..ZERO
    };
    assert_eq!(d, legal(format::SOP2, unit::SALU, 0x00, 2, f));
}

#[test]
fn sop2_without_literal_ignores_word1() {
    // s_add_u32 s0, s1, s2 ; encoding: [0x01,0x02,0x00,0x80]
    let d = decode_fields(0x80000201, 0xFFFF_FFFF);
    let f = InsnFields {
        src0: 1,
        src1: 2,
        ..ZERO
    };
    assert_eq!(d, legal(format::SOP2, unit::SALU, 0x00, 1, f));
}

#[test]
fn sopk_movk() {
    // s_movk_i32 s5, 0xbeef ; encoding: [0xef,0xbe,0x05,0xb0]
    let d = decode_fields(0xB005BEEF, 0);
    let f = InsnFields {
        dst: 5,
        imm: 0xBEEF,
        ..ZERO
    };
    assert_eq!(d, legal(format::SOPK, unit::SALU, 0x00, 1, f));
}

#[test]
fn sop1_literal_and_branch() {
    // s_mov_b32 s7, 0xcafef00d ; encoding: [0xff,0x00,0x87,0xbe,0x0d,0xf0,0xfe,0xca]
    let d = decode_fields(0xBE8700FF, 0xCAFEF00D);
    let f = InsnFields {
        dst: 7,
        src0: 255,
        imm: 0xCAFEF00D,
        literal: true,
        ..ZERO
    };
    assert_eq!(d, legal(format::SOP1, unit::SALU, 0x00, 2, f));
    // s_swappc_b64 s[4:5], s[6:7] ; encoding: [0x06,0x1e,0x84,0xbe]
    let d = decode_fields(0xBE841E06, 0);
    let f = InsnFields {
        dst: 4,
        src0: 6,
        ..ZERO
    };
    assert_eq!(d, legal(format::SOP1, unit::BRANCH, 0x1E, 1, f));
    // s_not_b64 s[10:11], exec ; encoding: [0x7e,0x05,0x8a,0xbe]
    let d = decode_fields(0xBE8A057E, 0);
    let f = InsnFields {
        dst: 10,
        src0: 126,
        ..ZERO
    };
    assert_eq!(d, legal(format::SOP1, unit::SALU, 0x05, 1, f));
}

#[test]
fn sopc_literal_src1() {
    // s_cmp_lt_u32 s9, 0x10000 ; encoding: [0x09,0xff,0x0a,0xbf,0x00,0x00,0x01,0x00]
    let d = decode_fields(0xBF0AFF09, 0x00010000);
    let f = InsnFields {
        src0: 9,
        src1: 255,
        imm: 0x10000,
        literal: true,
        ..ZERO
    };
    assert_eq!(d, legal(format::SOPC, unit::SALU, 0x0A, 2, f));
}

#[test]
fn split_vcc_lo_vcc_hi() {
    assert_eq!(split(106, 107), 0xBF7F6B6A);
    let f = InsnFields {
        src0: 106,
        src1: 107,
        ..ZERO
    };
    let want = legal(format::SOPC, unit::PWS, 0x7F, 1, f);
    assert_eq!(decode_fields(0xBF7F6B6A, 0x1234_5678), want);
}

#[test]
fn split_s4_s5() {
    assert_eq!(split(4, 5), 0xBF7F0504);
    let f = InsnFields {
        src0: 4,
        src1: 5,
        ..ZERO
    };
    let want = legal(format::SOPC, unit::PWS, 0x7F, 1, f);
    assert_eq!(decode_fields(0xBF7F0504, 0), want);
}

#[test]
fn split_with_literal_is_illegal() {
    assert_eq!(decode_fields(0xBF7F05FF, 0x1234), ILLEGAL);
    assert_eq!(decode_fields(split(4, 255), 0x1234), ILLEGAL);
}

#[test]
fn split_mask_source_boundaries() {
    let legal_codes = [0, 101, 106, 107, 126, 127, 128, 193, 208];
    let illegal_codes = [102, 105, 108, 124, 125, 209, 240, 242, 251, 253, 254, 255];
    for c in legal_codes {
        assert!(!decode_fields(split(c, 0), 0).illegal, "ssrc0 {c}");
        assert!(!decode_fields(split(0, c), 0).illegal, "ssrc1 {c}");
    }
    for c in illegal_codes {
        assert_eq!(decode_fields(split(c, 0), 0), ILLEGAL, "ssrc0 {c}");
        assert_eq!(decode_fields(split(0, c), 0), ILLEGAL, "ssrc1 {c}");
    }
    let legal_count = (0..=255).filter(|&c| is_mask_source(c)).count();
    assert_eq!(legal_count, 102 + 2 + 2 + 81);
}

/// `tile_ld s[n:n+3]` (OP 0x7E) / `tile_st` (0x7D): legal for a descriptor from s0 to s98 with
/// ssrc1 = 0, unit TILE; anything else illegal (docs/assumptions.md#A81).
#[test]
fn tile_descriptor_boundaries() {
    for (op, base) in [(0x7E, 0xBF7E_0000u32), (0x7D, 0xBF7D_0000)] {
        for s in [0u32, 8, 98] {
            let f = InsnFields {
                src0: s as u16,
                ..ZERO
            };
            let want = legal(format::SOPC, unit::TILE, op, 1, f);
            assert_eq!(decode_fields(base | s, 0), want, "op {op:#x} s{s}");
        }
        for s in [99u32, 101, 106, 255] {
            assert_eq!(decode_fields(base | s, 0), ILLEGAL, "op {op:#x} s{s}");
        }
        assert_eq!(decode_fields(base | 1 << 8 | 8, 0), ILLEGAL, "ssrc1 1");
    }
}

#[test]
fn merge_ignores_low_half() {
    let want = legal(format::SOPP, unit::PWS, 0x7F, 1, ZERO);
    assert_eq!(decode_fields(0xBFFF0000, 0), want);
    let f = InsnFields {
        imm: 0x1234,
        ..ZERO
    };
    let want = legal(format::SOPP, unit::PWS, 0x7F, 1, f);
    assert_eq!(decode_fields(0xBFFF1234, 0xFFFF_FFFF), want);
}

#[test]
fn sopp_units() {
    // s_cbranch_execz 4 ; encoding: [0x04,0x00,0x88,0xbf]
    let f = InsnFields { imm: 4, ..ZERO };
    let want = legal(format::SOPP, unit::BRANCH, 0x08, 1, f);
    assert_eq!(decode_fields(0xBF880004, 0), want);
    // s_waitcnt lgkmcnt(0) ; encoding: [0x7f,0x00,0x8c,0xbf]
    let f = InsnFields { imm: 0x7F, ..ZERO };
    let want = legal(format::SOPP, unit::SYNC, 0x0C, 1, f);
    assert_eq!(decode_fields(0xBF8C007F, 0), want);
    // s_sleep 2 ; encoding: [0x02,0x00,0x8e,0xbf]
    let f = InsnFields { imm: 2, ..ZERO };
    let want = legal(format::SOPP, unit::PROGRAM, 0x0E, 1, f);
    assert_eq!(decode_fields(0xBF8E0002, 0), want);
}

#[test]
fn smem_fields() {
    // s_load_dword s5, s[4:5], s6 glc ; encoding: [0x42,0x01,0x01,0xc0,0x06,0x00,0x00,0x00]
    let f = InsnFields {
        dst: 5,
        src0: 2,
        imm: 6,
        glc: true,
        ..ZERO
    };
    let want = legal(format::SMEM, unit::SMEM, 0x00, 2, f);
    assert_eq!(decode_fields(0xC0010142, 0x00000006), want);
    // s_store_dword s5, s[4:5], 0x1234 glc ; encoding: [0x42,0x01,0x43,0xc0,0x34,0x12,0x00,0x00]
    let f = InsnFields {
        dst: 5,
        src0: 2,
        imm: 0x1234,
        glc: true,
        imm_offset: true,
        ..ZERO
    };
    let want = legal(format::SMEM, unit::SMEM, 0x10, 2, f);
    assert_eq!(decode_fields(0xC0430142, 0x00001234), want);
    // Only word1[19:0] is the offset.
    assert_eq!(decode_fields(0xC0430142, 0xFFF0_1234).imm, 0x1234);
}

#[test]
fn vop1_fields() {
    // v_mov_b32_e32 v5, 0x11223344 ; encoding: [0xff,0x02,0x0a,0x7e,0x44,0x33,0x22,0x11]
    let f = InsnFields {
        dst: 5,
        src0: 255,
        imm: 0x11223344,
        literal: true,
        ..ZERO
    };
    let want = legal(format::VOP1, unit::VALU, 0x01, 2, f);
    assert_eq!(decode_fields(0x7E0A02FF, 0x11223344), want);
    // v_cvt_f32_u32_e32 v9, s3 ; encoding: [0x03,0x0c,0x12,0x7e]
    let f = InsnFields {
        dst: 9,
        src0: 3,
        ..ZERO
    };
    let want = legal(format::VOP1, unit::VALU, 0x06, 1, f);
    assert_eq!(decode_fields(0x7E120C03, 0), want);
}

#[test]
fn vop2_literal_and_v255() {
    // v_add_f32_e32 v0, 0x40490fdb, v1 ; encoding: [0xff,0x02,0x00,0x02,0xdb,0x0f,0x49,0x40]
    let f = InsnFields {
        src0: 255,
        src1: 1,
        imm: 0x40490FDB,
        literal: true,
        ..ZERO
    };
    let want = legal(format::VOP2, unit::VALU, 0x01, 2, f);
    assert_eq!(decode_fields(0x020002FF, 0x40490FDB), want);
    // v_max_u32_e32 v200, v1, v255 ; encoding: [0x01,0xff,0x91,0x1f] (src1 = v255: no literal)
    let f = InsnFields {
        dst: 200,
        src0: 0x101,
        src1: 255,
        ..ZERO
    };
    let want = legal(format::VOP2, unit::VALU, 0x0F, 1, f);
    assert_eq!(decode_fields(0x1F91FF01, 0xDEAD), want);
}

#[test]
fn vopc_fields() {
    // v_cmp_eq_u32_e32 vcc, 0x1000, v2 ; encoding: [0xff,0x04,0x94,0x7d,0x00,0x10,0x00,0x00]
    let f = InsnFields {
        src0: 255,
        src1: 2,
        imm: 0x1000,
        literal: true,
        ..ZERO
    };
    let want = legal(format::VOPC, unit::VALU, 0xCA, 2, f);
    assert_eq!(decode_fields(0x7D9404FF, 0x00001000), want);
    // v_cmpx_gt_f32_e32 vcc, -1.0, v7 ; encoding: [0xf3,0x0e,0xa8,0x7c]
    let f = InsnFields {
        src0: 0xF3,
        src1: 7,
        ..ZERO
    };
    let want = legal(format::VOPC, unit::VALU, 0x54, 1, f);
    assert_eq!(decode_fields(0x7CA80EF3, 0), want);
}

#[test]
fn vop3a_modifiers() {
    // v_mad_f32 v0, -|v1|, v2, v3 clamp mul:2 ; encoding: [0x00,0x81,0xc1,0xd1,0x01,0x05,0x0e,0x2c]
    let f = InsnFields {
        src0: 0x101,
        src1: 0x102,
        src2: 0x103,
        abs: 1,
        neg: 1,
        clamp: true,
        omod: 1,
        ..ZERO
    };
    let want = legal(format::VOP3, unit::VALU, 0x1C1, 2, f);
    assert_eq!(decode_fields(0xD1C18100, 0x2C0E0501), want);
}

#[test]
fn vop3a_more_modifiers() {
    // v_sub_f32_e64 v0, |v1|, -v2 div:2 ; encoding: [0x00,0x01,0x02,0xd1,0x01,0x05,0x02,0x58]
    let f = InsnFields {
        src0: 0x101,
        src1: 0x102,
        abs: 1,
        neg: 2,
        omod: 3,
        ..ZERO
    };
    let want = legal(format::VOP3, unit::VALU, 0x102, 2, f);
    assert_eq!(decode_fields(0xD1020100, 0x58020501), want);
    // v_cmp_lt_f32_e64 s[2:3], -v1, |v2| clamp ; encoding: [0x02,0x82,0x41,0xd0,0x01,0x05,0x02,0x20]
    let f = InsnFields {
        dst: 2,
        src0: 0x101,
        src1: 0x102,
        abs: 2,
        neg: 1,
        clamp: true,
        ..ZERO
    };
    let want = legal(format::VOP3, unit::VALU, 0x041, 2, f);
    assert_eq!(decode_fields(0xD0418202, 0x20020501), want);
    // v_fma_f32 v255, v1, s2, v255 mul:4 ; encoding: [0xff,0x00,0xcb,0xd1,0x01,0x05,0xfc,0x17]
    let f = InsnFields {
        dst: 255,
        src0: 0x101,
        src1: 2,
        src2: 0x1FF,
        omod: 2,
        ..ZERO
    };
    let want = legal(format::VOP3, unit::VALU, 0x1CB, 2, f);
    assert_eq!(decode_fields(0xD1CB00FF, 0x17FC0501), want);
}

#[test]
fn vop3b_carry_out() {
    // v_add_u32_e64 v1, s[0:1], v2, v3 ; encoding: [0x01,0x00,0x19,0xd1,0x02,0x07,0x02,0x00]
    let f = InsnFields {
        dst: 1,
        src0: 0x102,
        src1: 0x103,
        ..ZERO
    };
    let want = legal(format::VOP3, unit::VALU, 0x119, 2, f);
    assert_eq!(decode_fields(0xD1190001, 0x00020702), want);
    // v_add_u32_e64 v1, s[0:1], v2, v3 clamp ; encoding: [0x01,0x80,0x19,0xd1,...]
    let d = decode_fields(0xD1198001, 0x00020702);
    assert!(d.clamp && d.sdst == 0 && d.abs == 0);
}

#[test]
fn vop3b_sdst_is_not_abs() {
    // v_addc_u32_e64 v3, vcc, v4, v5, s[6:7] ; encoding: [0x03,0x6a,0x1c,0xd1,0x04,0x0b,0x1a,0x00]
    let f = InsnFields {
        dst: 3,
        sdst: 106,
        src0: 0x104,
        src1: 0x105,
        src2: 6,
        ..ZERO
    };
    let want = legal(format::VOP3, unit::VALU, 0x11C, 2, f);
    assert_eq!(decode_fields(0xD11C6A03, 0x001A0B04), want);
    // The same bits [14:8] on VOP3a v_cndmask_b32_e64 (0x100) are abs (low 3) only.
    let d = decode_fields(0xD1006A03, 0x001A0B04);
    assert_eq!((d.abs, d.sdst, d.opcode), (2, 0, 0x100));
}

#[test]
fn vop3_source_255_is_illegal() {
    // v_add_f32_e64 v0, v1, v2 ; encoding: [0x00,0x00,0x01,0xd1,0x01,0x05,0x02,0x00]
    let (w0, w1) = (0xD1010000, 0x00020501);
    assert!(!decode_fields(w0, w1).illegal);
    for (hi, lo) in [(8, 0), (17, 9), (26, 18)] {
        assert_eq!(decode_fields(w0, set_bits(w1, hi, lo, 255)), ILLEGAL);
        assert!(!decode_fields(w0, set_bits(w1, hi, lo, 254)).illegal);
        assert!(!decode_fields(w0, set_bits(w1, hi, lo, 0x1FF)).illegal);
    }
}

#[test]
fn vop3_readfirstlane_is_illegal() {
    // llvm-mc: "v_readfirstlane_b32_e64 s0, v1": e64 variant of this instruction is not supported
    assert_eq!(decode_fields(0xD1420000, 0x00000101), ILLEGAL);
}

#[test]
fn flat_fields() {
    // flat_load_dword v7, v[2:3] glc slc ; encoding: [0x00,0x00,0x53,0xdc,0x02,0x00,0x00,0x07]
    let f = InsnFields {
        dst: 7,
        src0: 2,
        glc: true,
        slc: true,
        ..ZERO
    };
    let want = legal(format::FLAT, unit::VMEM, 0x14, 2, f);
    assert_eq!(decode_fields(0xDC530000, 0x07000002), want);
    // flat_store_dwordx4 v[4:5], v[8:11] glc ; encoding: [0x00,0x00,0x7d,0xdc,0x04,0x08,0x00,0x00]
    let f = InsnFields {
        src0: 4,
        src1: 8,
        glc: true,
        ..ZERO
    };
    let want = legal(format::FLAT, unit::VMEM, 0x1F, 2, f);
    assert_eq!(decode_fields(0xDC7D0000, 0x00000804), want);
}

#[test]
fn ds_fields() {
    // ds_write2_b32 v1, v2, v3 offset0:3 offset1:7 gds ; encoding: [0x03,0x07,0x1d,0xd8,0x01,0x02,0x03,0x00]
    let f = InsnFields {
        src0: 1,
        src1: 2,
        src2: 3,
        imm: 0x0703,
        gds: true,
        ..ZERO
    };
    let want = legal(format::DS, unit::LDS, 0x0E, 2, f);
    assert_eq!(decode_fields(0xD81D0703, 0x00030201), want);
    // ds_read_b32 v9, v1 offset:4660 ; encoding: [0x34,0x12,0x6c,0xd8,0x01,0x00,0x00,0x09]
    let f = InsnFields {
        dst: 9,
        src0: 1,
        imm: 0x1234,
        ..ZERO
    };
    let want = legal(format::DS, unit::LDS, 0x36, 2, f);
    assert_eq!(decode_fields(0xD86C1234, 0x09000001), want);
}

#[test]
fn unsupported_opcodes_are_illegal() {
    let cases: [(&str, u32, u32); 12] = [
        // s_bfm_b32 s0, s1, s2 ; encoding: [0x01,0x02,0x00,0x91]
        ("s_bfm_b32", 0x91000201, 0),
        // s_cmovk_i32 s0, 0x1234 ; encoding: [0x34,0x12,0x80,0xb0]
        ("s_cmovk_i32", 0xB0801234, 0),
        // s_brev_b32 s0, s1 ; encoding: [0x01,0x08,0x80,0xbe]
        ("s_brev_b32", 0xBE800801, 0),
        // s_bitcmp0_b32 s0, s1 ; encoding: [0x00,0x01,0x0c,0xbf]
        ("s_bitcmp0_b32", 0xBF0C0100, 0),
        // s_trap 0 ; encoding: [0x00,0x00,0x92,0xbf]
        ("s_trap", 0xBF920000, 0),
        // s_load_dwordx8 s[0:7], s[2:3], 0x10 ; encoding: [0x01,0x00,0x0e,0xc0,0x10,0x00,0x00,0x00]
        ("s_load_dwordx8", 0xC00E0001, 0x10),
        // v_nop ; encoding: [0x00,0x00,0x00,0x7e]
        ("v_nop", 0x7E000000, 0),
        // v_mul_i32_i24_e32 v0, v1, v2 ; encoding: [0x01,0x05,0x00,0x0c]
        ("v_mul_i32_i24", 0x0C000501, 0),
        // v_cmp_class_f32_e32 vcc, v1, v2 ; encoding: [0x01,0x05,0x20,0x7c]
        ("v_cmp_class_f32", 0x7C200501, 0),
        // v_mad_legacy_f32 v0, v1, v2, v3 ; encoding: [0x00,0x00,0xc0,0xd1,0x01,0x05,0x0e,0x04]
        ("v_mad_legacy_f32", 0xD1C00000, 0x040E0501),
        // flat_load_ubyte v0, v[2:3] ; encoding: [0x00,0x00,0x40,0xdc,0x02,0x00,0x00,0x00]
        ("flat_load_ubyte", 0xDC400000, 0x00000002),
        // ds_sub_u32 v1, v2 ; encoding: [0x00,0x00,0x02,0xd8,0x01,0x02,0x00,0x00]
        ("ds_sub_u32", 0xD8020000, 0x00000201),
    ];
    for (text, w0, w1) in cases {
        assert_eq!(decode_fields(w0, w1), ILLEGAL, "{text}");
    }
}

#[test]
fn other_encodings_are_illegal() {
    let cases: [(&str, u32, u32); 4] = [
        // buffer_load_dword v0, off, s[0:3], 0 ; encoding: [0x00,0x00,0x50,0xe0,0x00,0x00,0x00,0x80]
        ("MUBUF", 0xE0500000, 0x80000000),
        // exp mrt0 v0, v0, v0, v0 ; encoding: [0x0f,0x00,0x00,0xc4,0x00,0x00,0x00,0x00]
        ("EXP", 0xC400000F, 0),
        // v_interp_p1_f32_e32 v0, v1, attr0.x ; encoding: [0x01,0x00,0x00,0xd4]
        ("VINTRP", 0xD4000001, 0),
        // image_load v[0:3], v0, s[0:7] dmask:0xf ; encoding: [0x00,0x0f,0x00,0xf0,0x00,0x00,0x00,0x00]
        ("MIMG", 0xF0000F00, 0),
    ];
    for (text, w0, w1) in cases {
        assert_eq!(decode_fields(w0, w1), ILLEGAL, "{text}");
    }
    // Every [31:26] pattern of 0b11xxxx except SMEM, VOP3, DS, FLAT, whatever the rest.
    for top6 in 0b110000..=0b111111u32 {
        if [0b110000, 0b110100, 0b110110, 0b110111].contains(&top6) {
            continue;
        }
        for low in [0, 0x0001_0203, 0x03FF_FFFF] {
            let w0 = top6 << 26 | low;
            assert_eq!(decode_fields(w0, 0), ILLEGAL, "{w0:#010x}");
        }
    }
}

#[test]
fn format_recognition() {
    let cases = [
        (0x8000_0000, format::SOP2),
        (0xB000_0000, format::SOPK),
        (0xBE80_0000, format::SOP1),
        (0xBF00_0000, format::SOPC),
        (0xBF80_0000, format::SOPP),
        (0xC000_0000, format::SMEM),
        (0x7E00_0200, format::VOP1),
        (0x0000_0000, format::VOP2),
        (0x7D84_0000, format::VOPC),
        (0xD101_0000, format::VOP3),
        (0xDC50_0000, format::FLAT),
        (0xD800_0000, format::DS),
    ];
    for (w0, format) in cases {
        assert_eq!(decode_fields(w0, 0).format, format, "{w0:#010x}");
    }
}

fn edge(reset: bool, valid: bool, word0: u32, word1: u32) -> InsnDecodeIn {
    InsnDecodeIn {
        reset,
        valid,
        word0,
        word1,
    }
}

#[test]
fn model_timing() {
    let mut m = InsnDecodeModel::new();
    assert_eq!(m.outputs(), InsnDecodeOut::default());
    // v_mad_f32 v0, -|v1|, v2, v3 clamp mul:2
    m.clock(edge(false, true, 0xD1C18100, 0x2C0E0501));
    let want = InsnDecodeOut {
        out_valid: true,
        fields: decode_fields(0xD1C18100, 0x2C0E0501),
    };
    assert_eq!(m.outputs(), want);
    assert_eq!(m.outputs(), want, "outputs depend only on state");
    m.clock(edge(false, false, 0xBF7F0504, 0));
    assert_eq!(m.outputs(), InsnDecodeOut::default());
    m.clock(edge(false, true, 0xBF7F0504, 0));
    assert!(m.outputs().out_valid && m.outputs().fields.unit == unit::PWS);
    m.clock(edge(true, true, 0xBF7F0504, 0));
    assert_eq!(m.outputs(), InsnDecodeOut::default());
}

#[test]
fn model_holds_illegal_words_as_valid() {
    let mut m = InsnDecodeModel::new();
    m.clock(edge(false, true, 0xBF7F05FF, 0));
    let want = InsnDecodeOut {
        out_valid: true,
        fields: ILLEGAL,
    };
    assert_eq!(m.outputs(), want);
    m.clock(edge(true, false, 0, 0));
    assert_eq!(m.outputs(), InsnDecodeOut::default());
}
