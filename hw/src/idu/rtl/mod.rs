//! The synthesizable instruction distribution unit: dispatcher, lane clusters, top.

pub mod cluster;
pub mod dispatcher;
pub mod top;
