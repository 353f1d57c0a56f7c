//! Reference model of the IDU, written from the contract in [`super`] (the module
//! documentation of `idu/mod.rs`) and the thesis' Section 4.3.2 only.
//!
//! Two parts:
//! - [`DispatcherModel`]: the dispatcher, cycle-accurate on its own clock.
//!   [`DispatcherModel::outputs`] is what it drives during the current cycle (combinational
//!   from the registers and the cycle's inputs), [`DispatcherModel::step`] returns the same
//!   outputs and then applies the rising edge that ends the cycle.
//! - [`IduSystem`]: the multi-clock harness of the contract's "clusters" section: the
//!   dispatcher plus, per (type, cluster), a one-entry input latch and a pipeline, each domain
//!   on its own period, all on one picosecond timeline.
//!
//! Port widths follow the contract: `cfg_type` and `in_type` are 2 bits, `cfg_cluster` 3 bits,
//! `ready` K bits. Higher bits of the `u8` fields of [`DispIn`] are dropped, as a port of that
//! width would drop them (so `cfg_type` = 4 is a write to type 0; the "bad" values the contract
//! ignores are type 3 and cluster K..=7).
//!
//! Readings of the contract where it leaves a choice (the edge of one cycle, in priority
//! order):
//! 1. `reset` overrides everything else of the cycle.
//! 2. `launch` clears every counter and sets `active`; in that cycle the configuration write,
//!    the counter update of a dispatch (possible only when already active) and `stop` are
//!    ignored. The dispatch itself (the outputs of the cycle) still happens.
//! 3. Otherwise, a configuration write applies when `active` (the register, as it is during
//!    the cycle) is 0; the counters update on `dispatch & enable`; `stop` clears `active`.
//!    A write in the `stop` cycle is therefore still ignored (the unit is active during it).
//!
//! The registers power up as after `reset` (every counter, limit and working bit 0, not
//! active).
//!
//! The dispatcher is in `dispatcher`, the multi-clock harness in `system`.

mod dispatcher;
mod system;
#[cfg(test)]
mod tests;

pub use dispatcher::{DispIn, DispOut, DispatcherModel};
pub use system::{Dispatch, IduSystem, Retire, SystemConfig, SystemRun, TraceRow};

/// Number of instruction types (0 SP, 1 SFU, 2 LD/ST).
pub const TYPES: usize = 3;
/// Largest number of clusters per type.
pub const MAX_K: usize = 8;

/// Width of the `cfg_type` / `in_type` ports.
const TYPE_BITS: u8 = 0b11;
/// Width of the `cfg_cluster` port (and of `sel`).
const CLUSTER_BITS: u8 = 0b111;
