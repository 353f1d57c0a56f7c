//! The synthesizable instruction distribution unit: dispatcher, lane clusters, top.

pub mod bank;
pub mod cluster;
pub mod dispatcher;
pub mod top;
