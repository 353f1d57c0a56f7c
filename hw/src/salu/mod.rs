//! The scalar ALU (SALU) of the compute unit as a block: every scalar instruction of the
//! subset in the formats SOP2, SOPK, SOP1 and SOPC that the SALU executes (the PC
//! instructions `s_setpc_b64`/`s_swappc_b64` are branches, not SALU work; `s_getpc_b64` is
//! here), with the results and SCC of the GCN3 ISA manual, exactly as the behavioural compute
//! unit's SALU (`hw/src/cu/salu.rs`) computes them.
//!
//! # Division of work
//!
//! The caller (the issue stage) reads the operands from the context's scalar registers and
//! writes the results back; the block computes. [`regs`] is that caller on the behavioural
//! register type [`crate::cu::regfile::Sregs`]: [`regs::operands`] reads, [`regs::write_back`]
//! writes. The block holds no architectural state.
//!
//! # Timing
//!
//! One registered stage, the SALU latency of the compute unit (`Latencies::salu` = 1,
//! docs/assumptions.md#A59): an instruction presented with `valid` in cycle *k* is on the
//! outputs during cycle *k+1*, when the caller writes it back (and the next instruction of the
//! wavefront, issued in *k+1*, reads it through the caller's bypass). An empty stage
//! (power-up, after `reset`, or after a cycle without `valid`) drives every output 0.
//!
//! # Inputs (all sampled at the rising edge that ends the issue cycle)
//!
//! | port | width | meaning |
//! |---|---|---|
//! | `clock` | 1 | core clock |
//! | `reset` | 1 | synchronous reset: empties the stage |
//! | `valid` | 1 | an SALU instruction issues this cycle (only legal ones: the decoder's `unit` = SALU) |
//! | `format` | 4 | the decoder's format code: 1 SOP2, 2 SOPK, 3 SOP1, 4 SOPC |
//! | `opcode` | 8 | the decoder's opcode field (below 256 in these formats) |
//! | `dst` | 7 | the decoder's `dst` field (sdst code), passed through to the outputs |
//! | `a` | 64 | first operand (table below) |
//! | `b` | 64 | second operand (table below) |
//! | `scc` | 1 | SCC before the instruction (`s_cselect_*`, `s_addc_u32`, `s_subb_u32`) |
//! | `exec` | 64 | EXEC before the instruction (`s_*_saveexec_b64`) |
//!
//! Operands, as the caller reads them ([`regs::operands`]):
//! - `a`: `src0` of SOP2, SOP1 and SOPC; of SOPK the register `dst` names (its current
//!   value: `s_cmpk_*`, `s_addk_i32`, `s_mulk_i32` read it); of `s_getpc_b64` the address of
//!   the next instruction.
//! - `b`: `src1` of SOP2 and SOPC; of SOPK the constant `simm16` (the decoder's `imm[15:0]`),
//!   zero-extended (the block sign-extends it where the operation does); unused by SOP1.
//! - An operand of a 64-bit operation ([`wide_sources`]: `s_cselect_b64`, the 64-bit logic,
//!   the 64-bit shifts' `a`, `s_mov_b64`, `s_not_b64`, the saveexecs) is read as a 64-bit pair
//!   (`Sregs::read64`); every other operand as 32 bits, zero-extended (`Sregs::read`). The
//!   block ignores bits \[63:32\] of a 32-bit operand; the 64-bit shifts take their amount
//!   from `b[5:0]`.
//!
//! # Outputs (the stage register, cycle *k+1*)
//!
//! | port | width | meaning |
//! |---|---|---|
//! | `out_valid` | 1 | the stage holds an instruction |
//! | `out_dst` | 7 | its sdst code |
//! | `sdst_we` | 1 | write the result to `out_dst` |
//! | `wide` | 1 | with `sdst_we`: a 64-bit write, `d_lo` to `out_dst` and `d_hi` to `out_dst+1` (else `d_lo` to `out_dst`) |
//! | `d_lo` | 32 | the result, bits \[31:0\] |
//! | `d_hi` | 32 | the result, bits \[63:32\] (0 unless `wide`) |
//! | `scc_we` | 1 | write `scc_out` to SCC |
//! | `scc_out` | 1 | the new SCC |
//! | `exec_we` | 1 | write `exec_out` to EXEC (the saveexecs) |
//! | `exec_out` | 64 | the new EXEC |
//!
//! Write-back order: EXEC first, then `out_dst` (so `s_and_saveexec_b64 exec, …` leaves the old
//! EXEC in EXEC, as the behavioural SALU does). An invalid `out_dst` code is the caller's error
//! (`BadOperand`), not the block's.
//!
//! The same eight write-back fields are also out combinationally in cycle *k*, before the
//! stage register: `n_sdst_we`, `n_wide`, `n_lo`, `n_hi`, `n_scc_we`, `n_scc`, `n_exec_we`,
//! `n_exec` (the stage's next contents; all 0 without `valid`). The compute unit's RTL top
//! writes them back at the edge that ends the issue cycle, so the next instruction reads the
//! result from the registers with no bypass (the SALU latency of 1).
//!
//! # Operations
//!
//! SOP2 (32-bit unless marked): `s_add_u32`/`s_sub_u32` (SCC = carry / borrow),
//! `s_add_i32`/`s_sub_i32` (SCC = signed overflow), `s_addc_u32`/`s_subb_u32` (with SCC in,
//! SCC = carry / borrow), `s_min/max_{i32,u32}` (SCC = the first operand was chosen),
//! `s_cselect_b32/b64` (SCC ? a : b; SCC unchanged), `s_{and,or,xor,andn2,orn2}_b32/b64`,
//! `s_{lshl,lshr}_b32/b64`, `s_ashr_i32/i64` (SCC = result != 0), `s_mul_i32` (low 32 bits,
//! SCC unchanged), `s_bfe_u32` (offset `b[4:0]`, width `b[22:16]`, SCC = result != 0).
//! SOPK: `s_movk_i32` (sign-extended `simm16`), `s_cmpk_{eq,lg,gt,ge,lt,le}_i32` (against the
//! sign-extended `simm16`), `…_u32` (zero-extended), `s_addk_i32` (SCC = signed overflow),
//! `s_mulk_i32`. SOP1: `s_mov_b32/b64`, `s_not_b32/b64` (SCC = result != 0), `s_getpc_b64`
//! (the result is `a`), `s_{and,or,xor}_saveexec_b64` (EXEC = a op EXEC, SCC = new EXEC != 0,
//! the result the old EXEC). SOPC: `s_cmp_{eq,lg,gt,ge,lt,le}_i32` (opcodes 0..=5) and `…_u32`
//! (6..=11), SCC only.
//!
//! The reference model is [`model::SaluModel`], written from this contract; its unit tests
//! check it with [`regs`] against the behavioural SALU on random instructions and registers.

pub mod model;
pub mod regs;
pub mod rtl;

pub use rtl::salu::Salu;

use crate::isa::insn_model::format;

/// Inputs of one cycle (the ports of the table above, `clock` aside).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SaluIn {
    /// Synchronous reset.
    pub reset: bool,
    /// An instruction issues.
    pub valid: bool,
    /// Format code (1 SOP2, 2 SOPK, 3 SOP1, 4 SOPC).
    pub format: u8,
    /// Opcode.
    pub opcode: u8,
    /// sdst code (7 bits).
    pub dst: u8,
    /// First operand.
    pub a: u64,
    /// Second operand (SOPK: `simm16`, zero-extended).
    pub b: u64,
    /// SCC before the instruction.
    pub scc: bool,
    /// EXEC before the instruction.
    pub exec: u64,
}

/// Outputs of one cycle (the stage register).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SaluOut {
    /// The stage holds an instruction.
    pub out_valid: bool,
    /// Its sdst code.
    pub out_dst: u8,
    /// Write the result to `out_dst`.
    pub sdst_we: bool,
    /// The write is 64 bits wide.
    pub wide: bool,
    /// The result, bits \[31:0\].
    pub d_lo: u32,
    /// The result, bits \[63:32\] (0 unless `wide`).
    pub d_hi: u32,
    /// Write `scc_out` to SCC.
    pub scc_we: bool,
    /// The new SCC.
    pub scc_out: bool,
    /// Write `exec_out` to EXEC.
    pub exec_we: bool,
    /// The new EXEC.
    pub exec_out: u64,
}

crate::ports!(SaluIn {
    reset,
    valid,
    format,
    opcode,
    dst,
    a,
    b,
    scc,
    exec
});
crate::ports!(SaluOut {
    out_valid,
    out_dst,
    sdst_we,
    wide,
    d_lo,
    d_hi,
    scc_we,
    scc_out,
    exec_we,
    exec_out
});

impl SaluOut {
    /// The 64-bit result `d_hi:d_lo`.
    pub fn d(&self) -> u64 {
        u64::from(self.d_hi) << 32 | u64::from(self.d_lo)
    }
}

/// Whether an instruction's `a` and `b` are read as 64-bit pairs (else as 32 bits).
pub fn wide_sources(fmt: u8, opcode: u8) -> (bool, bool) {
    match fmt {
        format::SOP2 => match opcode {
            0x0B | 0x0D | 0x0F | 0x11 | 0x13 | 0x15 => (true, true),
            0x1D | 0x1F | 0x21 => (true, false),
            _ => (false, false),
        },
        format::SOP1 => (matches!(opcode, 0x01 | 0x05 | 0x20..=0x22), false),
        _ => (false, false),
    }
}
