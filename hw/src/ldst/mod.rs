//! The global memory path of the reordering paper's Fig. 5 below the LD/ST unit: the reordering
//! unit → the coalescer → the L1 data cache, as one block (`path`: [`LdstPath`]) and as the
//! composition of the three reference models (`model`: [`model::PathModel`]).
//!
//! # Contract (cycle for cycle, RTL and model)
//!
//! The blocks keep their own contracts (`crate::reorder`, `crate::cache`); the path only wires
//! them:
//! - `rel_ready` of the reordering unit = the coalescer is not `busy`; the coalescer loads the
//!   released instruction (`rel_valid & rel_ready`) with the lanes `rel_addr` / `rel_mask` that
//!   the LD/ST unit's access buffer answers for `rel_slot`/`rel_tag` in the same cycle (in
//!   bypass: the request's own lanes);
//! - the L1's access is the coalescer's current line (`req_valid` = `line_valid`), its
//!   `req_store` a register loaded with `rel_store` when the coalescer loads; the coalescer's
//!   `next` = the L1's `req_ready`;
//! - `reset` resets the three blocks (the L1 needs one reset cycle before use);
//! - `mem_fill` / `mem_fill_line` go to the L1.
//!
//! Outputs: every output of the three blocks, plus `l1_store` (the store register).

pub mod model;
pub mod rtl;

pub use rtl::path::LdstPath;
