//! Independent oracles the hardware is held to, each written without seeing the code it
//! checks. They live in this crate so that the blocks' own unit tests can use them; the
//! testbench re-exports them (`rtgpu_testbench::oracle`).
//!
//! - [`ddr4`]: a DDR4 command-trace timing checker (for the DRAM controller; shares no code
//!   with [`crate::dram`]).

pub mod ddr4;
