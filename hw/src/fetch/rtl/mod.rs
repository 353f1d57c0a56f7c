//! The fetch block's RTL: the instruction memory and the fetch with its buffers.

pub mod fetch;
pub mod imem;
