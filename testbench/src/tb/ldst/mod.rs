//! The global memory path of an SM for the reordering work: warp-level traffic
//! ([`traffic`]), the cycle-level system that runs it through the path below the LD/ST unit
//! ([`system`]: reordering unit → coalescer → L1, the reference models or the RTL of
//! [`rtl`]), the `reorder-example` testbench ([`tb`]) and `rtgpu reorder compare`
//! ([`compare`]).

pub mod compare;
pub mod rtl;
pub mod system;
pub mod tb;
pub mod traffic;
