//! rtgpu-wcet: the timing analyses (worst-case bounds) of the source works
//! (docs/architecture.md).
//!
//! - [`trace`]: the analysis input shared with the simulators (hardware description: units and
//!   the opcode class table; per-warp instruction paths without timing).
//! - [`pws`]: Predictable Warp Splitting (the PWS paper, docs/works/pws.md): C_BSB, SELECT, PRUNE
//!   and the wavefront WCET.
//! - [`multiphase`]: the multi-phase warp profile and the block bound GUB
//!   (the multi-phase paper, docs/works/multiphase.md).
//! - [`reorder`]: warp-based load/store reordering (the reordering paper, docs/works/reorder.md):
//!   the PTX kernel analyzer, the Reordering Unit's release order (R0/R1), the LRU miss-count
//!   estimator that the RTL's L1D counts are checked against, and the paper's WCET equations.
//! - [`simd`]: Sim-D (the Sim-D paper, docs/works/simd.md): the worst-case schedule of the
//!   two-slot phase machine, the closed form (Eqs. 17–18), Eqs. 10–14 and refresh (Eq. 19).

pub mod multiphase;
pub mod pws;
pub mod reorder;
pub mod simd;
pub mod trace;
