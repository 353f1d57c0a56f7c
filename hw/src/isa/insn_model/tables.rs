//! The opcode tables of the decode model: which opcodes of each format the subset supports
//! (looked up with llvm-mc, gfx8), and the special opcode and source numbers.

use super::unit;

/// SOP2 opcodes in the subset (all SALU).
pub(super) const SOP2_OPS: [u16; 30] = [
    0x00, // s_add_u32
    0x01, // s_sub_u32
    0x02, // s_add_i32
    0x03, // s_sub_i32
    0x04, // s_addc_u32
    0x05, // s_subb_u32
    0x06, // s_min_i32
    0x07, // s_min_u32
    0x08, // s_max_i32
    0x09, // s_max_u32
    0x0A, // s_cselect_b32
    0x0B, // s_cselect_b64
    0x0C, // s_and_b32
    0x0D, // s_and_b64
    0x0E, // s_or_b32
    0x0F, // s_or_b64
    0x10, // s_xor_b32
    0x11, // s_xor_b64
    0x12, // s_andn2_b32
    0x13, // s_andn2_b64
    0x14, // s_orn2_b32
    0x15, // s_orn2_b64
    0x1C, // s_lshl_b32
    0x1D, // s_lshl_b64
    0x1E, // s_lshr_b32
    0x1F, // s_lshr_b64
    0x20, // s_ashr_i32
    0x21, // s_ashr_i64
    0x24, // s_mul_i32
    0x25, // s_bfe_u32
];

/// SOPK opcodes in the subset (all SALU).
pub(super) const SOPK_OPS: [u16; 15] = [
    0x00, // s_movk_i32
    0x02, // s_cmpk_eq_i32
    0x03, // s_cmpk_lg_i32
    0x04, // s_cmpk_gt_i32
    0x05, // s_cmpk_ge_i32
    0x06, // s_cmpk_lt_i32
    0x07, // s_cmpk_le_i32
    0x08, // s_cmpk_eq_u32
    0x09, // s_cmpk_lg_u32
    0x0A, // s_cmpk_gt_u32
    0x0B, // s_cmpk_ge_u32
    0x0C, // s_cmpk_lt_u32
    0x0D, // s_cmpk_le_u32
    0x0E, // s_addk_i32
    0x0F, // s_mulk_i32
];

/// SOP1 opcodes in the subset with their unit.
pub(super) const SOP1_OPS: [(u16, u8); 10] = [
    (0x00, unit::SALU),   // s_mov_b32
    (0x01, unit::SALU),   // s_mov_b64
    (0x04, unit::SALU),   // s_not_b32
    (0x05, unit::SALU),   // s_not_b64
    (0x1C, unit::SALU),   // s_getpc_b64
    (0x1D, unit::BRANCH), // s_setpc_b64
    (0x1E, unit::BRANCH), // s_swappc_b64
    (0x20, unit::SALU),   // s_and_saveexec_b64
    (0x21, unit::SALU),   // s_or_saveexec_b64
    (0x22, unit::SALU),   // s_xor_saveexec_b64
];

/// SOPC compare opcodes in the subset (`s_cmp_{eq,lg,gt,ge,lt,le}_{i32,u32}`, 0x00..=0x0B).
pub(super) const SOPC_CMP_LAST: u16 = 0x0B;
/// SOPC opcode of the PWS `split`.
pub(super) const SPLIT_OP: u16 = 0x7F;

/// SOPC opcode of the Sim-D `tile_ld` (docs/assumptions.md#A81).
pub(super) const TILE_LD_OP: u16 = 0x7E;
/// SOPC opcode of the Sim-D `tile_st`.
pub(super) const TILE_ST_OP: u16 = 0x7D;
/// The highest SGPR code a tile descriptor may start at (it spans s\[n\]..=s\[n+3\] ≤ s101).
pub(super) const TILE_DESC_LAST: u32 = 98;

/// SOPP opcodes in the subset with their unit (`merge` is OP 0x7F).
pub(super) const SOPP_OPS: [(u16, u8); 13] = [
    (0x00, unit::PROGRAM), // s_nop
    (0x01, unit::PROGRAM), // s_endpgm
    (0x02, unit::BRANCH),  // s_branch
    (0x04, unit::BRANCH),  // s_cbranch_scc0
    (0x05, unit::BRANCH),  // s_cbranch_scc1
    (0x06, unit::BRANCH),  // s_cbranch_vccz
    (0x07, unit::BRANCH),  // s_cbranch_vccnz
    (0x08, unit::BRANCH),  // s_cbranch_execz
    (0x09, unit::BRANCH),  // s_cbranch_execnz
    (0x0A, unit::SYNC),    // s_barrier
    (0x0C, unit::SYNC),    // s_waitcnt
    (0x0E, unit::PROGRAM), // s_sleep
    (0x7F, unit::PWS),     // merge
];

/// SMEM opcodes in the subset.
pub(super) const SMEM_OPS: [u16; 4] = [
    0x00, // s_load_dword
    0x01, // s_load_dwordx2
    0x02, // s_load_dwordx4
    0x10, // s_store_dword
];

/// VOP1 opcodes in the subset.
pub(super) const VOP1_OPS: [u16; 10] = [
    0x01, // v_mov_b32
    0x02, // v_readfirstlane_b32 (no e64 form)
    0x05, // v_cvt_f32_i32
    0x06, // v_cvt_f32_u32
    0x07, // v_cvt_u32_f32
    0x08, // v_cvt_i32_f32
    0x22, // v_rcp_f32
    0x23, // v_rcp_iflag_f32
    0x27, // v_sqrt_f32
    0x2B, // v_not_b32
];

/// VOP1 opcode of `v_readfirstlane_b32`, which has no VOP3 form.
pub(super) const READFIRSTLANE_OP: u16 = 0x02;

/// VOP2 opcodes in the subset.
pub(super) const VOP2_OPS: [u16; 25] = [
    0x00, // v_cndmask_b32
    0x01, // v_add_f32
    0x02, // v_sub_f32
    0x03, // v_subrev_f32
    0x05, // v_mul_f32
    0x08, // v_mul_u32_u24
    0x0A, // v_min_f32
    0x0B, // v_max_f32
    0x0C, // v_min_i32
    0x0D, // v_max_i32
    0x0E, // v_min_u32
    0x0F, // v_max_u32
    0x10, // v_lshrrev_b32
    0x11, // v_ashrrev_i32
    0x12, // v_lshlrev_b32
    0x13, // v_and_b32
    0x14, // v_or_b32
    0x15, // v_xor_b32
    0x16, // v_mac_f32
    0x19, // v_add_u32 (VOP3b in e64)
    0x1A, // v_sub_u32 (VOP3b in e64)
    0x1B, // v_subrev_u32 (VOP3b in e64)
    0x1C, // v_addc_u32 (VOP3b in e64)
    0x1D, // v_subb_u32 (VOP3b in e64)
    0x1E, // v_subbrev_u32 (VOP3b in e64)
];

/// VOPC opcodes in the subset (the VOP3 forms use the same numbers).
pub(super) const VOPC_OPS: [u16; 38] = [
    0x41, 0x42, 0x43, 0x44, 0x46, 0x4D, // v_cmp_{lt,eq,le,gt,ge,neq}_f32
    0x51, 0x52, 0x53, 0x54, 0x56, 0x5D, // v_cmpx_{lt,eq,le,gt,ge,neq}_f32
    0xC1, 0xC2, 0xC3, 0xC4, 0xC5, 0xC6, // v_cmp_{lt,eq,le,gt,ne,ge}_i32
    0xC9, 0xCA, 0xCB, 0xCC, 0xCD, 0xCE, // v_cmp_{lt,eq,le,gt,ne,ge}_u32
    0xD1, 0xD2, 0xD3, 0xD4, 0xD5, 0xD6, // v_cmpx_{lt,eq,le,gt,ne,ge}_i32
    0xD9, 0xDA, 0xDB, 0xDC, 0xDD, 0xDE, // v_cmpx_{lt,eq,le,gt,ne,ge}_u32
    0xEA, 0xED, // v_cmp_{eq,ne}_u64
];

/// VOP3 opcode of VOP2 opcode 0 (VOP2 e64 forms are `0x100 + op`).
pub(super) const VOP3_FROM_VOP2: u16 = 0x100;
/// VOP3 opcode of VOP1 opcode 0 (VOP1 e64 forms are `0x140 + op`).
pub(super) const VOP3_FROM_VOP1: u16 = 0x140;

/// VOP3-only opcodes in the subset.
pub(super) const VOP3_ONLY_OPS: [u16; 10] = [
    0x1C1, // v_mad_f32
    0x1C3, // v_mad_u32_u24
    0x1C8, // v_bfe_u32
    0x1CB, // v_fma_f32
    0x1CE, // v_alignbit_b32
    0x1D4, // v_max3_i32
    0x1E8, // v_mad_u64_u32 (VOP3b)
    0x285, // v_mul_lo_u32
    0x286, // v_mul_hi_u32
    0x28F, // v_lshlrev_b64
];

/// The VOP3b (carry-out SGPR) opcodes: e64 forms of v_add/sub/subrev/addc/subb/subbrev_u32.
pub(super) const VOP3B_OPS: std::ops::RangeInclusive<u16> = 0x119..=0x11E;
/// `v_mad_u64_u32`, the VOP3-only opcode with the VOP3b layout.
pub(super) const MAD_U64_U32: u16 = 0x1E8;

/// FLAT opcodes in the subset.
pub(super) const FLAT_OPS: [u16; 6] = [
    0x14, // flat_load_dword
    0x15, // flat_load_dwordx2
    0x17, // flat_load_dwordx4
    0x1C, // flat_store_dword
    0x1D, // flat_store_dwordx2
    0x1F, // flat_store_dwordx4
];

/// DS opcodes in the subset.
pub(super) const DS_OPS: [u16; 5] = [
    0x00, // ds_add_u32
    0x0D, // ds_write_b32
    0x0E, // ds_write2_b32
    0x36, // ds_read_b32
    0x37, // ds_read2_b32
];

/// The scalar/vector source code that means "a 32-bit literal follows".
pub(super) const LITERAL_CODE: u32 = 255;
