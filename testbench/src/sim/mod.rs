//! Simulation infrastructure: the lock-step checker ([`lockstep`]), RTL blocks in the harness
//! behind the block interface ([`rtl`]), and the system's blocks as RTL ([`blocks`]).

pub mod blocks;
pub mod lockstep;
pub mod rtl;
pub mod twin;
pub mod window;
