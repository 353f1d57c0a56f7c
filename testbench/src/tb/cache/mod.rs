//! The L1 data cache and the coalescer on the testbench side: the RTL in the harness and
//! their testbenches.

/// The `coalescer` testbench.
pub mod coal_tb;
pub mod rtl;
/// The `l1-cache` testbench.
pub mod tb;
