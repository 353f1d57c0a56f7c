//! The IDU on the testbench side: the dispatcher RTL in the harness.

pub mod rtl;
pub mod system;
pub mod tb;
