//! The vector ALU (VALU) of a SIMD as a block, integer and fp32: a 16-lane datapath that
//! runs a 64-lane wavefront instruction over four cycles, one quarter of the lanes per cycle, as GCN
//! builds its SIMD units ("AMD Graphics Cores Next (GCN) Architecture", AMD white paper, 2012:
//! each SIMD is 16 lanes wide and executes a wavefront of 64 work-items in four cycles). The
//! issue period of 4 and the latency of 4 (`Latencies::issue_period`, `Latencies::valu`) come
//! out of that structure: a 2-bit quarter counter walks the lanes, and the block takes the next
//! instruction when it wraps.
//!
//! # Division of work
//!
//! The caller (the issue stage with the VGPR file) reads the operands and writes the results
//! back; the block computes. Each cycle it feeds the block the 16 lanes of the quarter the
//! block names on `quarter` (lanes `16·quarter .. 16·quarter+15`), as a VGPR file banked by
//! quarter would deliver them: `a` is `src0`, `b` is `src1`, `c` is `src2` (`v_mad_f32`,
//! `v_fma_f32`) or the old value of the destination VGPR (`v_mac_f32`), a VGPR's row slice or
//! a scalar operand (SGPR, constant, literal) copied into every lane. In the issue cycle it
//! also gives the VOP3 modifiers (`omod`, `abs`, `neg`, `clamp`: 0 outside VOP3), and
//! the effective EXEC mask and the mask source (VCC, or the `_e64` form's SGPR pair in `src2`
//! for `v_cndmask_b32`, `v_addc_u32`, `v_subb_u32`, `v_subbrev_u32`). The block holds no architectural state.
//!
//! # Timing
//!
//! An instruction issued with `valid` in cycle *k* (while `busy` is low) reads quarter *q* of
//! its sources in cycle *k+q* (`quarter` = *q*, `busy` high in *k+1* .. *k+3*), and its
//! quarter *q* results are on the write-back outputs in cycle *k+q+1*. The lane mask it
//! produces (compare results, carries) and the `v_readfirstlane_b32` value are complete after
//! the last quarter: `done` and the SGPR outputs in cycle *k+4*, the cycle in which the block
//! takes the next instruction. `valid` while `busy`, or with an opcode outside the subset, is
//! ignored; `reset` abandons the instruction in flight and clears the outputs.
//!
//! # Inputs (sampled at the rising edge that ends the cycle)
//!
//! | port | width | meaning |
//! |---|---|---|
//! | `clock` | 1 | core clock |
//! | `reset` | 1 | synchronous reset |
//! | `valid` | 1 | a VALU instruction issues this cycle (taken when `busy` is low) |
//! | `format` | 4 | the decoder's format code: 7 VOP1, 8 VOP2, 9 VOPC, 10 VOP3 |
//! | `opcode` | 10 | the decoder's opcode (VOP3: the 10-bit VOP3 opcode) |
//! | `dst` | 8 | the decoder's `dst`: the VGPR written, or the SGPR code of `v_readfirstlane_b32` and of the `_e64` compares |
//! | `sdst` | 7 | the decoder's `sdst`: the carry-out pair of the `_e64` carry forms |
//! | `clamp` | 1 | the VOP3 clamp bit (saturates the carry forms and `v_mul_u32_u24`; clamps fp32 results to \[0, 1\]) |
//! | `omod` | 2 | the VOP3 output modifier of fp32 results: 0 none, 1 ×2, 2 ×4, 3 ×0.5 |
//! | `abs` | 3 | the VOP3 absolute-value bits, source `k` in bit `k` |
//! | `neg` | 3 | the VOP3 negate bits, source `k` in bit `k` |
//! | `exec` | 64 | the effective EXEC mask (issue cycle) |
//! | `mask_in` | 64 | VCC, or the `_e64` form's `src2` pair (issue cycle) |
//! | `a[16]` | 32 each | `src0`, lanes of quarter `quarter` |
//! | `b[16]` | 32 each | `src1`, lanes of quarter `quarter` |
//! | `c[16]` | 32 each | `src2`, or `v_mac_f32`'s old destination, lanes of quarter `quarter` (a 64-bit operation's third dword) |
//! | `d[16]` | 32 each | a 64-bit operation's fourth dword, lanes of quarter `quarter` (ignored by the others) |
//!
//! # Outputs
//!
//! | port | width | meaning |
//! |---|---|---|
//! | `busy` | 1 | quarters 1..3 of an instruction are being read: `valid` is ignored |
//! | `quarter` | 2 | the quarter whose lanes `a` and `b` must hold this cycle (0 when idle) |
//! | `wb_valid` | 1 | a quarter of VGPR results is on the write-back outputs |
//! | `wb_quarter` | 2 | its quarter |
//! | `wb_vgpr` | 8 | the VGPR written |
//! | `wb_lanes` | 16 | the lanes written (EXEC's bits of the quarter) |
//! | `wb_data[16]` | 32 each | the results (0 in lanes not written) |
//! | `wb_two` | 1 | the results are 64 bits: `wb_data_hi` goes to VGPR `wb_vgpr` + 1 in the same lanes |
//! | `wb_data_hi[16]` | 32 each | the high dwords of 64-bit results (0 in lanes not written and without `wb_two`) |
//! | `done` | 1 | the instruction's last quarter ended (cycle *k+4*) |
//! | `sgpr_we` | 1 | with `done`: write `sgpr_hi:sgpr_lo` to the SGPR code `sgpr_dst` |
//! | `sgpr_wide` | 1 | the write is a 64-bit pair (a lane mask), else 32 bits (`v_readfirstlane_b32`) |
//! | `sgpr_dst` | 7 | the SGPR code (106 = VCC for the 32-bit encodings) |
//! | `sgpr_lo` | 32 | the lane mask's bits \[31:0\] (0 in inactive lanes), or the first active lane's value |
//! | `sgpr_hi` | 32 | the lane mask's bits \[63:32\] (0 for `v_readfirstlane_b32`) |
//! | `exec_we` | 1 | with `done`: `v_cmpx_*` also writes the mask to EXEC |
//! | `n_sgpr_we`, `n_sgpr_wide`, `n_sgpr_dst`, `n_sgpr_lo`, `n_sgpr_hi`, `n_exec_we` | as above | the values `sgpr_we` .. `exec_we` take in the next cycle (combinational, in the last quarter's cycle *k+3*): the compute unit's RTL top writes the scalar result at the edge that ends *k+3*, so an instruction issued in *k+4* reads it |
//!
//! # Operations
//!
//! The integer subset of the repository's ISA (each in its 32-bit encoding and its `_e64`
//! form): VOP1 `v_mov_b32`, `v_not_b32`, `v_readfirstlane_b32`; VOP2 `v_cndmask_b32`,
//! `v_add_u32`, `v_sub_u32`, `v_subrev_u32` (carry / borrow out), `v_addc_u32`, `v_subb_u32`,
//! `v_subbrev_u32` (carry / borrow in and out), `v_and_b32`, `v_or_b32`, `v_xor_b32`,
//! `v_lshlrev_b32`, `v_lshrrev_b32`, `v_ashrrev_i32`, `v_min/max_{i32,u32}`,
//! `v_mul_u32_u24`; VOP3 `v_mul_lo_u32`, `v_mul_hi_u32`, `v_bfe_u32` (the `src2[4:0]` bits of
//! `src0` from bit `src1[4:0]` on, through the shifter); VOPC `v_cmp_*` and `v_cmpx_*`
//! `{lt,eq,le,gt,ne,ge}` of `i32` and `u32` (and the always-false/true `f`/`t` opcodes of the
//! same pages). fp32: VOP1 `v_cvt_f32_i32`, `v_cvt_f32_u32`, `v_cvt_i32_f32`,
//! `v_cvt_u32_f32`; VOP2 `v_add_f32`, `v_sub_f32`, `v_subrev_f32`, `v_mul_f32`,
//! `v_min_f32`, `v_max_f32`, `v_mac_f32`; VOP3 `v_mad_f32`, `v_fma_f32`; VOPC
//! `v_cmp_*_f32` and `v_cmpx_*_f32` (all 16 predicates, 0x40..=0x5F). 64-bit: VOP3
//! `v_lshlrev_b64`, `v_mad_u64_u32` (VOP3b: the carry out of bit 63 to the SGPR pair `sdst`;
//! with clamp a carry saturates the result to all ones) and VOPC `v_cmp_*_i64`, `v_cmp_*_u64`
//! (0xE0..=0xEF, both encodings). Not here: `v_rcp_f32`, `v_rcp_iflag_f32`, `v_sqrt_f32`
//! (docs/assumptions.md#A101), the integer three-source VOP3 operations (`v_mad_u32_u24`,
//! `v_alignbit_b32`, `v_max3_i32`), the 64-bit `v_cmpx_*` and the 64-bit right shifts.
//!
//! # 64-bit operands
//!
//! A 64-bit operation reads up to four dwords per lane, a VGPR pair or a 64-bit scalar
//! (an SGPR pair, a constant) as its low and high dwords:
//!
//! | operation | `a` | `b` | `c` | `d` | result |
//! |---|---|---|---|---|---|
//! | `v_lshlrev_b64` | shift (`src0`; bits \[5:0\]) | `src1` \[31:0\] | — | `src1` \[63:32\] | `src1 << shift` |
//! | `v_mad_u64_u32` | `src0` | `src1` | `src2` \[31:0\] | `src2` \[63:32\] | `src0 · src1 + src2`, carry to `sdst` |
//! | `v_cmp_*_{i64,u64}` | `src0` \[31:0\] | `src1` \[31:0\] | `src0` \[63:32\] | `src1` \[63:32\] | the lane mask |
//!
//! The 64-bit results leave on `wb_data` (bits \[31:0\]) and `wb_data_hi` with `wb_two`, in
//! the cycles of the 32-bit results. The source modifiers do not apply to the 64-bit
//! operations (the behavioural compute unit applies them to fp32 sources only).
//!
//! # Modifiers
//!
//! The source modifiers apply, as bit operations (`abs` clears the sign, then `neg` flips
//! it), to `a`, `b` and `c` of every operation except the carry forms and
//! `v_readfirstlane_b32`, and not to `v_mac_f32`'s addend `c`. The output modifiers apply to
//! every fp32 result except the conversions to integers: omod first (a multiplication,
//! rounded: a NaN is quieted, ×0.5 of a denormal rounds to even), then clamp (to \[0, 1\]; a
//! NaN and −0 give +0). docs/assumptions.md#A100.
//!
//! # fp32
//!
//! IEEE 754 binary32, as the reference interpreter computes it (firmware
//! `interp/float.rs`): every result is the exact result rounded once to nearest, ties to
//! even; denormal operands and results are kept (no flush to zero); past the largest finite
//! value a result is ±∞. `v_mac_f32`/`v_mad_f32` round the product, then the sum;
//! `v_fma_f32` rounds once. An exact zero sum is +0, unless both addends are −0. NaNs
//! (docs/assumptions.md#A99): an arithmetic result with a NaN operand is the first NaN in the
//! operation's order (`src0`, `src1`, `src2`; `src1` first for `v_subrev_f32`; the product
//! before `c` for `v_mac/mad_f32`) with its quiet bit set; an invalid operation (`∞ − ∞`,
//! `0 · ∞`) gives `0xFFC00000`. `v_min_f32`/`v_max_f32` return the other operand when one is a
//! NaN (`src1` when both are), and −0 is below +0. The compares are false when unordered,
//! except the predicates that include "unordered" (`neq`, `nge`, ...). `v_cvt_{i32,u32}_f32`
//! truncate toward zero and saturate (∞ too; a NaN gives 0); `v_cvt_f32_{i32,u32}` round to
//! nearest even. Each operation is combinational within its quarter's cycle: the timing
//! above holds for every instruction (docs/assumptions.md#A101).
//!
//! The reference model is [`model::ValuModel`], written from the ISA's definitions (fp32 in
//! integers, [`model::fp`]); the firmware's tests check it against the interpreter.

pub mod model;
pub mod rtl;

pub use rtl::valu::Valu;

/// Lanes of the datapath: a quarter of the wavefront.
pub const QUARTER: usize = 16;

/// SGPR code of `vcc_lo`, the mask destination of the 32-bit encodings.
pub const VCC: u8 = 106;

/// Inputs of one cycle (the ports of the table above, `clock` aside).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ValuIn {
    /// Synchronous reset.
    pub reset: bool,
    /// An instruction issues.
    pub valid: bool,
    /// Format code (7 VOP1, 8 VOP2, 9 VOPC, 10 VOP3).
    pub format: u8,
    /// Opcode.
    pub opcode: u16,
    /// `dst` field.
    pub dst: u8,
    /// `sdst` field.
    pub sdst: u8,
    /// VOP3 clamp.
    pub clamp: bool,
    /// Effective EXEC.
    pub exec: u64,
    /// VCC or the `_e64` mask source.
    pub mask_in: u64,
    /// `src0` of the quarter's lanes.
    pub a: [u32; QUARTER],
    /// `src1` of the quarter's lanes.
    pub b: [u32; QUARTER],
    /// `src2` of the quarter's lanes (`v_mad_f32`, `v_fma_f32`), or the destination's old
    /// value (`v_mac_f32`); the third dword of a 64-bit operation.
    pub c: [u32; QUARTER],
    /// The fourth dword of a 64-bit operation (see the table of 64-bit operands).
    pub d: [u32; QUARTER],
    /// VOP3 output modifier: 0 none, 1 ×2, 2 ×4, 3 ×0.5.
    pub omod: u8,
    /// VOP3 absolute-value bits, source `k` in bit `k`.
    pub abs: u8,
    /// VOP3 negate bits, source `k` in bit `k`.
    pub neg: u8,
}

/// Outputs of one cycle.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ValuOut {
    /// Quarters 1..3 are being read.
    pub busy: bool,
    /// The quarter read this cycle.
    pub quarter: u8,
    /// A quarter of VGPR results is out.
    pub wb_valid: bool,
    /// Its quarter.
    pub wb_quarter: u8,
    /// The VGPR written.
    pub wb_vgpr: u8,
    /// The lanes written.
    pub wb_lanes: u16,
    /// The results (0 in lanes not written).
    pub wb_data: [u32; QUARTER],
    /// The results are a 64-bit pair: `wb_data_hi` goes to VGPR `wb_vgpr` + 1.
    pub wb_two: bool,
    /// The pair's high dwords (0 in lanes not written, and without `wb_two`).
    pub wb_data_hi: [u32; QUARTER],
    /// The instruction ended.
    pub done: bool,
    /// Write `sgpr_hi:sgpr_lo` to `sgpr_dst`.
    pub sgpr_we: bool,
    /// A 64-bit write.
    pub sgpr_wide: bool,
    /// The SGPR code.
    pub sgpr_dst: u8,
    /// The mask's bits \[31:0\] or the first active lane's value.
    pub sgpr_lo: u32,
    /// The mask's bits \[63:32\].
    pub sgpr_hi: u32,
    /// The mask is also written to EXEC.
    pub exec_we: bool,
}

crate::ports!(ValuIn {
    reset,
    valid,
    format,
    opcode,
    dst,
    sdst,
    clamp,
    exec,
    mask_in,
    a,
    b,
    c,
    d,
    omod,
    abs,
    neg
});
crate::ports!(ValuOut {
    busy,
    quarter,
    wb_valid,
    wb_quarter,
    wb_vgpr,
    wb_lanes,
    wb_data,
    wb_two,
    wb_data_hi,
    done,
    sgpr_we,
    sgpr_wide,
    sgpr_dst,
    sgpr_lo,
    sgpr_hi,
    exec_we
});

impl ValuOut {
    /// The SGPR value `sgpr_hi:sgpr_lo`.
    pub fn sgpr_data(&self) -> u64 {
        u64::from(self.sgpr_hi) << 32 | u64::from(self.sgpr_lo)
    }
}
