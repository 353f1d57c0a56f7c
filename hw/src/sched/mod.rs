//! Warp scheduling (GTO and LRR, which the multi-phase paper names but does not define).
//!
//! [`WarpScheduler`] grants, each cycle, one warp among the eligible ones, under GTO or LRR,
//! exactly as Accel-Sim defines them (`order_lrr`, `order_by_priority`):
//! - **LRR** (loose round-robin): the first eligible warp in the order last+1, last+2, …,
//!   wrapping; before any issue the order starts at warp 0. Warps that are not eligible are
//!   skipped (it never idles while a warp is eligible).
//! - **GTO** (greedy-then-oldest): the warp granted last if it is eligible, else the oldest
//!   eligible warp by the `age` input: the smallest (age rank, index), 0 being the oldest rank
//!   and ties going to the lower index. Within a block a lower warp index is an older warp, so
//!   the SM issue model drives `age[w] = w` (the oldest is the lowest eligible index); the
//!   compute unit drives its wavefronts' dispatch order, since a refilled slot's index says
//!   nothing about its occupant's age. LRR ignores the ages.
//!
//! The grant is combinational (same cycle as the eligible mask: an issue stage that decides
//! and issues in one cycle); the last granted warp is a register, updated only when something
//! is granted. It is work-conserving: `grant_valid = (eligible != 0)`.
//!
//! The reference model is [`model::PolicyScheduler`], the behavioural scheduler the SM issue
//! model (`testbench/src/oracle/sm/`) and the compute unit use, written from Accel-Sim's
//! definitions without this RTL: its `grant_by_age` (and the `age` field of [`model::SchedIn`]) is
//! this block with its `age` input, `grant` is the block with `age[w] = w`.

pub mod model;
pub mod rtl;

pub use rtl::warp_scheduler::WarpScheduler;
