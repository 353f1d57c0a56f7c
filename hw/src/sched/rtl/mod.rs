//! The synthesizable warp scheduler.

pub mod warp_scheduler;
