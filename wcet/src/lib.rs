//! rtgpu-wcet: the timing analyses (worst-case bounds) of the source works
//! (ARCHITECTURE.md, "Layout").
//!
//! - [`trace`]: the analysis input shared with the simulators (hardware description: units and
//!   the opcode class table; per-warp instruction paths without timing).
//! - [`multiphase`]: the multi-phase warp profile and the block bound GUB
//!   (spec/001-multiphase.md).

pub mod multiphase;
pub mod trace;
