//! The local data share (LDS) of the compute unit as a block: the `ds_*` instructions of the
//! repository's ISA subset on a flip-flop RAM, a 64-lane wavefront request served 16 lanes
//! per cycle over four cycles (as the VALU reads its operands, from a VGPR file banked by
//! quarter), the result quarters delayed by a pipeline so that the instruction completes
//! [`LATENCY`] cycles after issue, `Latencies::lds` of the behavioural compute unit.
//!
//! # Why 16 lanes over four cycles
//!
//! The behavioural compute unit serves a whole wavefront at issue (every lane's access, in
//! lane order) and completes it a fixed latency later; its LDS pipe takes one instruction per
//! cycle. A 64-lane RAM with 128 write ports would be four times the write network of this
//! one for a pipe the wavefronts of a compute unit rarely fill; a quarter per cycle matches
//! the VALU's quarter schedule (the caller feeds both from the same banked VGPR file) and
//! keeps each instruction's accesses together: an instruction's four quarters run in four
//! consecutive cycles and the next instruction starts after them, so the LDS sees the
//! instructions one after the other, each in lane order, as the behavioural model does. The
//! issue period of the LDS is thus 4 (`docs/assumptions.md#A69`); the latency is unchanged.
//!
//! # Division of work
//!
//! The caller (the issue stage with the VGPR file) reads the operands and writes the loaded
//! dwords back; the block holds the LDS. Each cycle the caller feeds the 16 lanes of the
//! quarter the block names on `quarter`: `addr` is `ADDR` (`src0`), `data0` is `DATA0`
//! (`src1`), `data1` is `DATA1` (`src2`). In the issue cycle it also gives the effective EXEC
//! mask and the work-group's partition of the LDS: `wg_base` (its first word) and `wg_words`
//! (its size in words, the launch's LDS bytes per work-group / 4). The compute unit's
//! dispatcher gives each resident work-group its own partition and zeroes it at admission with
//! `clear` (`clear_base`, `clear_words`: any partition, in any cycle, so that an admission
//! never waits for the LDS), as the behavioural compute unit zeroes a work-group's LDS when it
//! admits it.
//!
//! # Timing
//!
//! An instruction issued with `valid` in cycle *k* (while `busy` is low) reads quarter *q* of
//! its operands and accesses the LDS in cycle *k+q* (`quarter` = *q*, `busy` high in *k+1* ..
//! *k+3*); a later instruction sees its writes. Quarter *q*'s loaded dwords are on the
//! write-back outputs in cycle *k+13+q*, and `done` (lgkmcnt decremented) comes with quarter
//! 3 in cycle *k+16*, for loads and stores alike: 16 = `Latencies::lds`, 4 quarter cycles
//! and 13 pipeline stages after the RAM. A fault (see below) is reported in cycle *k+4*.
//! `valid` while `busy`, or with an opcode outside the subset, is ignored; `reset` abandons
//! the instructions in flight, empties the pipeline and zeroes the RAM.
//!
//! # Inputs (sampled at the rising edge that ends the cycle)
//!
//! | port | width | meaning |
//! |---|---|---|
//! | `clock` | 1 | core clock |
//! | `reset` | 1 | synchronous reset: pipeline emptied, RAM zeroed |
//! | `valid` | 1 | a DS instruction issues this cycle (taken when `busy` is low) |
//! | `opcode` | 8 | the decoder's DS opcode |
//! | `offset` | 32 | the decoder's `imm`: OFFSET1:OFFSET0 in bits \[15:0\] (bits above ignored) |
//! | `vdst` | 8 | the decoder's `dst`: the first VGPR a load writes |
//! | `exec` | 64 | the effective EXEC mask (issue cycle) |
//! | `wg_base` | 16 | the work-group's first LDS word (issue cycle) |
//! | `wg_words` | 32 | the work-group's LDS size in words (issue cycle) |
//! | `clear` | 1 | zero words `clear_base .. clear_base+clear_words` at the edge, after the cycle's accesses (a word both written and cleared ends 0) |
//! | `clear_base`, `clear_words` | 16, 32 | the range `clear` zeroes |
//! | `addr[16]` | 32 each | `ADDR`, lanes of quarter `quarter` |
//! | `data0[16]` | 32 each | `DATA0`, lanes of quarter `quarter` |
//! | `data1[16]` | 32 each | `DATA1`, lanes of quarter `quarter` |
//!
//! # Outputs
//!
//! | port | width | meaning |
//! |---|---|---|
//! | `busy` | 1 | quarters 1..3 of an instruction are being read: `valid` is ignored |
//! | `quarter` | 2 | the quarter whose lanes `addr`, `data0`, `data1` must hold this cycle (0 when idle) |
//! | `wb_valid` | 1 | a quarter of loaded dwords is on the write-back outputs |
//! | `wb_quarter` | 2 | its quarter |
//! | `wb_vgpr` | 8 | the first VGPR written |
//! | `wb_two` | 1 | `ds_read2_b32`: `wb_data1` goes to VGPR `wb_vgpr+1` |
//! | `wb_lanes` | 16 | the lanes written (EXEC's bits of the quarter) |
//! | `wb_data0[16]` | 32 each | the first dword of each lane (0 in lanes not written) |
//! | `wb_data1[16]` | 32 each | the second dword (`ds_read2_b32`; else 0) |
//! | `done` | 1 | the instruction completes (cycle *k+16*): lgkmcnt − 1 |
//! | `fault` | 1 | the instruction issued in cycle *k−4* faulted |
//! | `fault_addr` | 32 | with `fault`: the first faulting byte address (lane order) |
//!
//! # Operations
//!
//! The DS subset of the repository's ISA, as the behavioural compute unit executes it
//! (`hw/src/cu/memory.rs`): `ds_add_u32` (0x00: `LDS[a+off] += DATA0`, no return),
//! `ds_write_b32` (0x0D: `LDS[a+off] = DATA0`), `ds_write2_b32` (0x0E: `LDS[a+4·off0] =
//! DATA0`, then `LDS[a+4·off1] = DATA1`), `ds_read_b32` (0x36: `VDST = LDS[a+off]`),
//! `ds_read2_b32` (0x37: `VDST = LDS[a+4·off0]`, `VDST+1 = LDS[a+4·off1]`), with `a` the
//! lane's `ADDR`, `off` the 16-bit offset, `off0`/`off1` its bytes, byte addresses relative
//! to the work-group's partition, added modulo 2^32. The lanes of EXEC take part in lane
//! order: lanes writing the same word leave the highest lane's value, `ds_add_u32` adds every
//! lane's `DATA0`.
//!
//! An address that is not a multiple of 4, or whose word is at or past `wg_words`, faults:
//! the lanes before it (in lane order, and a `ds_write2_b32` lane's first address before its
//! second) have written, no lane after it writes, and `fault_addr` is that address, as in the
//! behavioural compute unit, which ends the kernel with `lds_fault` there. The loads of a
//! faulting instruction still come out (the caller discards them with the kernel).
//!
//! The RAM holds `W` words (the compute unit's `lds_bytes` / 4; the testbench's instance has
//! 64). A word index `wg_base + a/4` at or past `W` (a partition the dispatcher would not
//! give) reads 0 and writes nothing. The RAM is flip-flops cleared by `reset` and by `clear`,
//! so Verilog never reads X from it.
//!
//! The reference model is [`model::LdsModel`]; its tests check [`model::access`], the
//! semantics of one instruction, against the behavioural compute unit's `ds_*` execution.

pub mod model;
pub mod rtl;

pub use rtl::lds::Lds;

/// Lanes served per cycle: a quarter of the wavefront.
pub const QUARTER: usize = 16;

/// Cycles from issue to `done`: `Latencies::lds` of the behavioural compute unit.
pub const LATENCY: usize = 16;

/// Pipeline stages between the RAM and the write-back outputs: the latency less the three
/// quarter cycles after the issue cycle.
pub const STAGES: usize = LATENCY - 3;

/// Words of the RAM of the testbench's (and synthesis') instance.
pub const TB_WORDS: usize = 64;

/// The DS opcodes of the subset.
pub mod op {
    /// `ds_add_u32`.
    pub const ADD: u8 = 0x00;
    /// `ds_write_b32`.
    pub const WRITE: u8 = 0x0D;
    /// `ds_write2_b32`.
    pub const WRITE2: u8 = 0x0E;
    /// `ds_read_b32`.
    pub const READ: u8 = 0x36;
    /// `ds_read2_b32`.
    pub const READ2: u8 = 0x37;
    /// Every opcode of the subset.
    pub const ALL: [u8; 5] = [ADD, WRITE, WRITE2, READ, READ2];
}

/// Inputs of one cycle (the ports of the table above, `clock` aside).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LdsIn {
    /// Synchronous reset.
    pub reset: bool,
    /// An instruction issues.
    pub valid: bool,
    /// DS opcode.
    pub opcode: u8,
    /// The decoder's `imm`: OFFSET1:OFFSET0 in bits \[15:0\] (bits above ignored).
    pub offset: u32,
    /// First VGPR a load writes.
    pub vdst: u8,
    /// Effective EXEC.
    pub exec: u64,
    /// The work-group's first word.
    pub wg_base: u16,
    /// The work-group's size in words.
    pub wg_words: u32,
    /// Zero words `clear_base .. clear_base + clear_words` (after the cycle's accesses).
    pub clear: bool,
    /// The first word cleared.
    pub clear_base: u16,
    /// Words cleared.
    pub clear_words: u32,
    /// `ADDR` of the quarter's lanes.
    pub addr: [u32; QUARTER],
    /// `DATA0` of the quarter's lanes.
    pub data0: [u32; QUARTER],
    /// `DATA1` of the quarter's lanes.
    pub data1: [u32; QUARTER],
}

/// Outputs of one cycle.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LdsOut {
    /// Quarters 1..3 are being read.
    pub busy: bool,
    /// The quarter read this cycle.
    pub quarter: u8,
    /// A quarter of loaded dwords is out.
    pub wb_valid: bool,
    /// Its quarter.
    pub wb_quarter: u8,
    /// The first VGPR written.
    pub wb_vgpr: u8,
    /// Two dwords per lane.
    pub wb_two: bool,
    /// The lanes written.
    pub wb_lanes: u16,
    /// First dwords.
    pub wb_data0: [u32; QUARTER],
    /// Second dwords.
    pub wb_data1: [u32; QUARTER],
    /// The instruction completes.
    pub done: bool,
    /// The instruction faulted.
    pub fault: bool,
    /// The first faulting address.
    pub fault_addr: u32,
}

crate::ports!(LdsIn {
    reset,
    valid,
    opcode,
    offset,
    vdst,
    exec,
    wg_base,
    wg_words,
    clear,
    clear_base,
    clear_words,
    addr,
    data0,
    data1
});
crate::ports!(LdsOut {
    busy,
    quarter,
    wb_valid,
    wb_quarter,
    wb_vgpr,
    wb_two,
    wb_lanes,
    wb_data0,
    wb_data1,
    done,
    fault,
    fault_addr
});

#[cfg(test)]
mod tests {
    /// The block's latency is the behavioural compute unit's default LDS latency (fails with
    /// `LATENCY` = 17).
    #[test]
    fn latency_is_the_behavioural_one() {
        assert_eq!(super::LATENCY as u32, crate::cu::Latencies::default().lds);
    }
}
