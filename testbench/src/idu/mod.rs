//! The IDU on the testbench side: the dispatcher RTL in the harness.

pub mod rtl;
