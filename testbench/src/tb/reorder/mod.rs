//! The reordering unit on the testbench side: the RTL in the harness.

pub mod rtl;
