//! The synthesizable fixed-latency memory: the top [`fixed_mem::FixedMemory`] (cycle counter,
//! latencies, slot selection, output gating) over the word array [`words::Words`] (a
//! primitive with hand-written Verilog) and the response wheels' fields
//! ([`column::Column`]).

pub mod column;
pub mod fixed_mem;
pub mod words;
