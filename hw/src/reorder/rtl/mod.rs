//! The synthesizable load/store reordering unit and its sub-blocks.

pub mod channel;
pub mod distributor;
pub mod select;
pub mod sequencer;
pub mod slot_config;
pub mod target;
pub mod unit;
