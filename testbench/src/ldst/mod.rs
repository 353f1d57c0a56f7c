//! The global memory path of an SM for the reordering work (spec/003): warp-level traffic
//! ([`traffic`]) and the cycle-level system that runs it through the reordering unit, the
//! coalescer and the L1 ([`system`]).

pub mod compare;
pub mod system;
pub mod traffic;
