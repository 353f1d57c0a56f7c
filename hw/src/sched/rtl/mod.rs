//! The synthesizable warp scheduler.

pub mod pick;
pub mod warp_scheduler;
