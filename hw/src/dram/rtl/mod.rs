//! The synthesizable Sim-D DRAM controller and its sub-blocks.

pub mod arbiter;
pub mod bank;
pub mod bank_fifo;
pub mod cmdgen;
pub mod ctrl;
pub mod dq;
pub mod frontend;
pub mod rank;
pub mod request;
pub mod snoop;
