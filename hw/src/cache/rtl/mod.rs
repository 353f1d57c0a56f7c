//! The synthesizable L1 data cache and coalescer.

pub mod coalescer;
pub mod l1;
pub mod span_merge;
