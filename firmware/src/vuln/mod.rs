//! Vulnerable periods and vulnerability-aware scheduling (Chapter 3 of Lee's thesis,
//! docs/works/thesis.md#ch3):
//!
//! - [`access`]: every architectural register an instruction reads and writes;
//! - [`measure`]: the exact vulnerable periods of a run on the compute unit (an observer);
//! - [`estimate`]: Algorithm 1, the estimate from the latency model (Eqs. 3.1 to 3.22);
//! - [`mod@schedule`]: Algorithm 2 (BuildFromBottom) as a pass over GCN3 kernels.

pub mod access;
pub mod estimate;
pub mod launch;
pub mod measure;
pub mod schedule;

pub use access::{Reg, RegAccess};
pub use launch::{run_case, Case};
pub use measure::{Tracker, Vulnerability};
pub use schedule::{schedule, ScheduleError, Scheduled};

#[cfg(test)]
mod tests;
