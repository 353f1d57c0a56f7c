//! TEMPORARY: port types only; the reference model replaces this file.
use super::Command;
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DramIn {
    pub reset: bool,
    pub req_valid: bool,
    pub req_write: bool,
    pub req_indexed: bool,
    pub req_addr: u32,
    pub req_words: u32,
    pub req_period: u32,
    pub req_count: u16,
    pub req_tag: u8,
    pub idx_valid: bool,
    pub idx_addr: u32,
}
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DramOut {
    pub req_ready: bool,
    pub idx_ready: bool,
    pub cmd: Command,
    pub cmd_bg: u8,
    pub cmd_bank: u8,
    pub cmd_row: u32,
    pub cmd_col: u16,
    pub dq_valid: bool,
    pub dq_write: bool,
    pub dq_bg: u8,
    pub dq_bank: u8,
    pub dq_row: u32,
    pub dq_col: u16,
    pub dq_beat: u8,
    pub dq_mask: u8,
    pub done: bool,
    pub done_error: bool,
    pub done_tag: u8,
    pub done_lid: u32,
    pub ref_owed: u8,
    pub ref_overflow: bool,
}
