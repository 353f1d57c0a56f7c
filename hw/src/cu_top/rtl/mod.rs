//! The compute unit's RTL top and its glue sub-blocks.

pub mod age_rank;
pub mod barrier;
pub mod branch;
pub mod cmd_take;
pub mod ctx_number;
pub mod ctx_tags;
pub mod issue_unit;
pub mod lds_check;
pub mod lds_port;
pub mod mem_request;
pub mod mem_return;
pub mod salu_operands;
pub mod split_ctl;
pub mod top;
pub mod valu_operands;
pub mod wave_init;
