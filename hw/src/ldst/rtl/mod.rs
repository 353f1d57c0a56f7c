//! The synthesizable path below the LD/ST unit.

pub mod path;
