//! An independent DDR4 timing checker: a test oracle for the DRAM controller.
//!
//! It reads the command trace format (`cycle CMD rank bg bank row col`,
//! [`parse_trace`], [`format_line`]) and checks every command against
//!
//! * the command bus: one command per cycle, cycles never decreasing;
//! * bank state: ACT only to a closed bank, RD/WR only to the open row of an open bank,
//!   RDA/WRA close the bank, REF only with every bank of the rank closed;
//! * every row of the DDR4 timing table (Ramulator's rule set, plus the
//!   auto-precharge tRAS lock-out the controller uses, and tRFC before a PRE), including tFAW over
//!   the last four ACTs of the rank;
//! * refresh accounting: at most 8 refreshes owed, at most 8 pulled in.
//!
//! It shares nothing with the controller in `hw/src/dram/`, not even the part tables
//! ([`Ddr4Part`] is its own copy of Sim-D's Table 1): independence is what makes it an oracle.
//! See [`Checker`] for the choices made where the Sim-D paper is silent, and [`Rule`] for the list
//! of rule identifiers.
//!
//! ```text
//! let cmds = parse_trace(&text)?;
//! let stats = check_all(Ddr4Part::by_name("ddr4-3200aa-x16").unwrap(), &cmds)?;
//! ```
#![deny(missing_docs)]

mod checker;
mod part;
mod trace;

#[cfg(test)]
mod tests;

pub use checker::{
    check_all, CheckStats, Checker, Measure, Rule, Violation, MAX_POSTPONED, MAX_PULLED_IN,
};
pub use part::{Ddr4Part, DDR4_1866M_X16, DDR4_3200AA_X16, DDR4_3200AA_X8};
pub use trace::{format_line, format_trace, parse_trace, Cmd, ParseError, TraceCmd};
