//! The DRAM controller on the testbench side: the RTL in the harness, request drivers, the
//! LID sweeps, and the `rtgpu dram` commands.

pub mod bound;
pub mod cli;
pub mod rtl;
pub mod run;
pub mod snoop_tb;
pub mod sweep;
pub mod tb;
