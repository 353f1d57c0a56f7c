//! Reference model of the GCN3 (gfx8, "fiji") instruction decode stage, written from the
//! decoder brief and from `llvm-mc-14 -arch=amdgcn -mcpu=fiji -show-encoding` only.
//!
//! The stage is one register deep: an instruction presented with `valid` at a rising edge is
//! decoded on the outputs during the following cycle. An empty stage (power-up, after `reset`,
//! or after an edge without `valid`) drives every output to 0.
//!
//! Two views are provided:
//! - [`decode_fields`]: what an instruction (its first dword plus the dword that follows it)
//!   means, as raw field extractions plus format, execution unit and legality;
//! - [`InsnDecodeModel`]: the cycle-level behaviour, built on [`decode_fields`].
//!
//! Every opcode number below was looked up with llvm-mc (gfx8); `split` (SOPC OP = 0x7F) and
//! `merge` (SOPP OP = 0x7F) are rtgpu's PWS instructions, unknown to llvm.
//!
//! The opcode tables are in `tables`, the decode of a word in `decode`, the stage in
//! `stage`.

mod decode;
mod stage;
mod tables;
#[cfg(test)]
mod tests;

pub use decode::decode_fields;
pub use stage::InsnDecodeModel;

/// Instruction formats (the `format` field of [`InsnFields`]).
pub mod format {
    /// No format: the word is illegal.
    pub const NONE: u8 = 0;
    /// Scalar ALU, two sources: `[31:30] = 0b10`.
    pub const SOP2: u8 = 1;
    /// Scalar ALU with a 16-bit constant: `[31:28] = 0xB`.
    pub const SOPK: u8 = 2;
    /// Scalar ALU, one source: `[31:23] = 0x17D`.
    pub const SOP1: u8 = 3;
    /// Scalar compare: `[31:23] = 0x17E`.
    pub const SOPC: u8 = 4;
    /// Scalar program control: `[31:23] = 0x17F`.
    pub const SOPP: u8 = 5;
    /// Scalar memory (64-bit): `[31:26] = 0b110000`.
    pub const SMEM: u8 = 6;
    /// Vector ALU, one source: `[31:25] = 0b0111111`.
    pub const VOP1: u8 = 7;
    /// Vector ALU, two sources: `[31] = 0` (and not VOP1/VOPC).
    pub const VOP2: u8 = 8;
    /// Vector compare: `[31:25] = 0b0111110`.
    pub const VOPC: u8 = 9;
    /// Vector ALU, 64-bit encoding: `[31:26] = 0b110100`.
    pub const VOP3: u8 = 10;
    /// Flat memory (64-bit): `[31:26] = 0b110111`.
    pub const FLAT: u8 = 11;
    /// Local data share (64-bit): `[31:26] = 0b110110`.
    pub const DS: u8 = 12;
}

/// Execution units (the `unit` field of [`InsnFields`]).
pub mod unit {
    /// No unit: the word is illegal.
    pub const NONE: u8 = 0;
    /// Scalar ALU.
    pub const SALU: u8 = 1;
    /// Vector ALU (including `v_readfirstlane_b32` and `v_cmpx_*`).
    pub const VALU: u8 = 2;
    /// Vector memory (FLAT).
    pub const VMEM: u8 = 3;
    /// Scalar memory.
    pub const SMEM: u8 = 4;
    /// Local data share.
    pub const LDS: u8 = 5;
    /// Branches: `s_branch`, `s_cbranch_*`, `s_setpc_b64`, `s_swappc_b64`.
    pub const BRANCH: u8 = 6;
    /// PWS `split` / `merge`.
    pub const PWS: u8 = 7;
    /// Synchronisation: `s_waitcnt`, `s_barrier`.
    pub const SYNC: u8 = 8;
    /// Program control: `s_nop`, `s_endpgm`, `s_sleep`.
    pub const PROGRAM: u8 = 9;
    /// Sim-D tile transfers: `tile_ld`, `tile_st` (docs/assumptions.md#A81).
    pub const TILE: u8 = 10;
}

/// The decoded fields of one instruction. All zero/false except `illegal` when illegal.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct InsnFields {
    /// No format matches, the opcode is outside the subset, a VOP3 source is 255, or a `split`
    /// names an operand that is not a mask source.
    pub illegal: bool,
    /// One of the [`format`](mod@format) constants.
    pub format: u8,
    /// One of the [`unit`](mod@unit) constants.
    pub unit: u8,
    /// The raw opcode field of the format.
    pub opcode: u16,
    /// Destination: SOP2/SOPK/SOP1 `w0[22:16]`, SMEM `w0[12:6]`, VOP1/VOP2 `w0[24:17]`,
    /// VOP3 `w0[7:0]`, FLAT/DS `w1[31:24]`.
    pub dst: u8,
    /// Carry-out SGPR of the VOP3b opcodes (`v_add/sub/subrev/addc_u32_e64`): `w0[14:8]`.
    pub sdst: u8,
    /// First source: SOP2/SOP1/SOPC `w0[7:0]`, SMEM `w0[5:0]`, VOP1/VOP2/VOPC `w0[8:0]`,
    /// VOP3 `w1[8:0]`, FLAT/DS `w1[7:0]`.
    pub src0: u16,
    /// Second source: SOP2/SOPC `w0[15:8]`, VOP2/VOPC `w0[16:9]`, VOP3 `w1[17:9]`,
    /// FLAT/DS `w1[15:8]`.
    pub src1: u16,
    /// Third source: VOP3 `w1[26:18]`, DS `w1[23:16]`.
    pub src2: u16,
    /// Constant: SOPK/SOPP/DS `w0[15:0]`, SMEM `w1[19:0]`, or the literal `w1`.
    pub imm: u32,
    /// A 32-bit format uses the literal dword (a source code of 255).
    pub literal: bool,
    /// Length in dwords: 2 for SMEM, VOP3, FLAT, DS and literal forms, else 1.
    pub words: u8,
    /// VOP3a input absolute-value bits `w0[10:8]` (0 for VOP3b).
    pub abs: u8,
    /// VOP3 input negate bits `w1[31:29]`.
    pub neg: u8,
    /// VOP3 clamp bit `w0[15]`.
    pub clamp: bool,
    /// VOP3 output modifier `w1[28:27]`.
    pub omod: u8,
    /// SMEM/FLAT globally-coherent bit `w0[16]`.
    pub glc: bool,
    /// FLAT system-level-coherent bit `w0[17]`.
    pub slc: bool,
    /// DS global-data-share bit `w0[16]`.
    pub gds: bool,
    /// SMEM immediate-offset bit `w0[17]`.
    pub imm_offset: bool,
}

/// Inputs of one cycle.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct InsnDecodeIn {
    /// Synchronous reset: empties the stage at the edge.
    pub reset: bool,
    /// `word0`/`word1` are meaningful and should be captured at the edge.
    pub valid: bool,
    /// First dword of the instruction.
    pub word0: u32,
    /// The dword after `word0` in memory (second half or literal).
    pub word1: u32,
}

/// Outputs of one cycle.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct InsnDecodeOut {
    /// The stage holds an instruction (legal or not).
    pub out_valid: bool,
    /// Its decoded fields (all zero when the stage is empty).
    pub fields: InsnFields,
}
crate::ports!(InsnDecodeIn {
    reset,
    valid,
    word0,
    word1
});
crate::ports!(InsnFields {
    illegal,
    format,
    unit,
    opcode,
    dst,
    sdst,
    src0,
    src1,
    src2,
    imm,
    literal,
    words,
    abs,
    neg,
    clamp,
    omod,
    glc,
    slc,
    gds,
    imm_offset
});
crate::ports!(InsnDecodeOut { out_valid, fields });
