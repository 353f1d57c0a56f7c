//! The L1 data cache and the coalescer on the testbench side: the RTL in the harness.

pub mod rtl;
/// Not yet in `tb::all()`: Icarus does not finish the cosimulation of the L1's Verilog (it
/// spins in the first cycles; to be found), and the cosim test runs every registered block.
pub mod tb;
