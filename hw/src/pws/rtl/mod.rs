//! The synthesizable split/merge unit: the SIMD group and its contexts.

pub mod context;
pub mod simd_group;
