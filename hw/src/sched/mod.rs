//! Warp scheduling (spec/001-multiphase.md §2.6, §9.1).
//!
//! [`WarpScheduler`] grants, each cycle, one warp among the eligible ones, under GTO or LRR,
//! exactly as the spec defines them after Accel-Sim:
//! - **LRR** (loose round-robin): the first eligible warp in the order last+1, last+2, …,
//!   wrapping; before any issue the order starts at warp 0. Warps that are not eligible are
//!   skipped (it never idles while a warp is eligible).
//! - **GTO** (greedy-then-oldest): the warp granted last if it is eligible, else the oldest
//!   eligible warp (lowest index: within a block a lower warp index is an older warp).
//!
//! The grant is combinational (same cycle as the eligible mask: an issue stage that decides
//! and issues in one cycle); the last granted warp is a register, updated only when something
//! is granted. It is work-conserving: `grant_valid = (eligible != 0)`.
//!
//! The reference model is [`model::PolicyScheduler`], the behavioural scheduler the SM issue
//! model (`testbench/src/sm/`) and the compute unit use, written from the spec without this
//! RTL.

pub mod model;
mod warp_scheduler;

pub use warp_scheduler::WarpScheduler;
