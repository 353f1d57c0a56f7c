//! The synthesizable split/merge unit: the SIMD group, its contexts, its selects and its
//! decision.

pub mod context;
pub mod decide;
pub mod lookup;
pub mod simd_group;
