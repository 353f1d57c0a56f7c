//! The synthesizable L1 data cache and coalescer.

pub mod coalescer;
pub mod l1;
