//! The compute unit's RTL top and its glue sub-blocks.

pub mod age_rank;
pub mod branch;
pub mod mem_request;
pub mod mem_return;
pub mod salu_operands;
pub mod top;
pub mod valu_operands;
pub mod wave_init;
