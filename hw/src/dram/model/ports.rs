//! The DRAM controller model's port bundles: [`DramIn`] (one cycle's inputs) and [`DramOut`]
//! (one cycle's outputs), as plain structs implementing `Ports`.

use super::super::Command;

/// Inputs of one cycle, sampled at the rising edge that ends it. Fields wider than their ports
/// are truncated to the port width (`req_addr`, `idx_addr` 30 bits; `req_words`,
/// `req_period` 30 bits), as a port of that width would.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DramIn {
    /// Synchronous reset: the edge returns every register to its power-up value and the
    /// cycle's other inputs are ignored.
    pub reset: bool,
    /// A request is presented on the `req_*` inputs.
    pub req_valid: bool,
    /// Direction: `false` read, `true` write.
    pub req_write: bool,
    /// `false`: tile request; `true`: iterative indexed request.
    pub req_indexed: bool,
    /// Tile: start word A (30 bits).
    pub req_addr: u32,
    /// Tile: words per row W (30 bits).
    pub req_words: u32,
    /// Tile: words from one row's start to the next, P (30 bits).
    pub req_period: u32,
    /// Tile: rows C; indexed: number of indexes C.
    pub req_count: u16,
    /// Echoed on `done_tag`.
    pub req_tag: u8,
    /// An index is presented on `idx_addr`.
    pub idx_valid: bool,
    /// The index: a word address (30 bits).
    pub idx_addr: u32,
}

/// Outputs of one cycle (all functions of the registered state).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DramOut {
    /// A request presented in this cycle is accepted.
    pub req_ready: bool,
    /// An index presented in this cycle is taken.
    pub idx_ready: bool,
    /// The command issued in this cycle.
    pub cmd: Command,
    /// The command's bank group (0 for REF/NOP).
    pub cmd_bg: u8,
    /// The command's bank within its group (0 for REF/NOP).
    pub cmd_bank: u8,
    /// ACT, RD/RDA/WR/WRA: the row; 0 otherwise.
    pub cmd_row: u32,
    /// RD/RDA/WR/WRA: the DDR4 column (burst in row · 8); 0 otherwise.
    pub cmd_col: u16,
    /// The data bus moves a beat pair in this cycle.
    pub dq_valid: bool,
    /// The data bus direction (1 = write); 0 when not valid.
    pub dq_write: bool,
    /// The burst's bank group; 0 when not valid.
    pub dq_bg: u8,
    /// The burst's bank within its group; 0 when not valid.
    pub dq_bank: u8,
    /// The burst's row; 0 when not valid.
    pub dq_row: u32,
    /// The burst's DDR4 column (burst in row · 8); 0 when not valid.
    pub dq_col: u16,
    /// The cycle of the reservation (0..=3); 0 when not valid.
    pub dq_beat: u8,
    /// The 4 words moved in this cycle: bits 4·beat..4·beat+3 of the burst's word mask.
    pub dq_mask: u8,
    /// A request completes in this cycle.
    pub done: bool,
    /// The completing request was bad.
    pub done_error: bool,
    /// The completing request's tag; 0 when `done = 0`.
    pub done_tag: u8,
    /// The completing request's LID, `t_d + 2 − t_a` (0 for a bad request or `done = 0`).
    pub done_lid: u32,
    /// Refreshes owed (0..=8).
    pub ref_owed: u8,
    /// Sticky: a ninth refresh fell due while 8 were owed.
    pub ref_overflow: bool,
}

impl Default for DramOut {
    fn default() -> Self {
        Self {
            req_ready: false,
            idx_ready: false,
            cmd: Command::Nop,
            cmd_bg: 0,
            cmd_bank: 0,
            cmd_row: 0,
            cmd_col: 0,
            dq_valid: false,
            dq_write: false,
            dq_bg: 0,
            dq_bank: 0,
            dq_row: 0,
            dq_col: 0,
            dq_beat: 0,
            dq_mask: 0,
            done: false,
            done_error: false,
            done_tag: 0,
            done_lid: 0,
            ref_owed: 0,
            ref_overflow: false,
        }
    }
}
crate::ports!(DramIn {
    reset,
    req_valid,
    req_write,
    req_indexed,
    req_addr,
    req_words,
    req_period,
    req_count,
    req_tag,
    idx_valid,
    idx_addr
});
crate::ports!(DramOut {
    req_ready,
    idx_ready,
    cmd,
    cmd_bg,
    cmd_bank,
    cmd_row,
    cmd_col,
    dq_valid,
    dq_write,
    dq_bg,
    dq_bank,
    dq_row,
    dq_col,
    dq_beat,
    dq_mask,
    done,
    done_error,
    done_tag,
    done_lid,
    ref_owed,
    ref_overflow
});
