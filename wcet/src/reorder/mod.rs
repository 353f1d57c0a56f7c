//! Warp-based load/store reordering, the static side (the reordering paper, Huangfu and
//! Zhang, JCSE 2017, docs/works/reorder.md): the oracle that the reordering hardware's L1D traffic
//! and miss counts are checked against. Written from the paper only.
//!
//! The pipeline:
//!
//! 1. [`ptx`] parses a kernel in a PTX subset (PC = 8 × instruction index, as in the paper's
//!    example); [`interp`] executes one thread concretely.
//! 2. [`analyzer`] runs Algorithms 1–3 (Section III-D) per warp in SIMT lock-step with IPDOM
//!    reconvergence (fall-through path first) and emits each warp's ordered trace of global
//!    ld/st instances with their coalesced 128-byte lines, `k`, `epoch` and active mask;
//!    [`Analysis::paper_format`] prints the paper's analyzer output.
//! 3. [`order`] computes the Reordering Unit's release order: R0 (the paper's PC-major rule,
//!    Section III-E, loop-free kernels) or R1 (our generalisation: heads only, `(wave, epoch, k,
//!    pc_idx, block, warp)`).
//! 4. [`estimator`] replays the release order through an LRU L1D (Section III-F) and counts misses.
//! 5. [`wcet_eq`] evaluates Eq. (1)–(4) (Section IV) and the safe per-instruction variant.
//!
//! ```
//! use rtgpu_wcet::reorder::{analyze, estimate, release_order, CacheConfig, Kernel, Rule};
//!
//! let src = ".entry k ( .param .u64 p ) { .reg .u32 %r<2>; .reg .u64 %rd<4>;
//!     ld.param.u64 %rd0, [p]; mov.u32 %r0, %tid.x; mul.wide.u32 %rd1, %r0, 4;
//!     add.u64 %rd2, %rd0, %rd1; ld.global.u32 %r1, [%rd2]; exit; }";
//! let kernel = Kernel::parse(src)?;
//! let a = analyze(&kernel, &[0], [2, 1, 1], [64, 1, 1])?;
//! let order = release_order(&a, Rule::R1 { epoch_major: true }, 8)?;
//! let est = estimate(&a, &order, CacheConfig::l1_16k())?;
//! // Two warps of 32 × 4 bytes per block: one line each; block 1 reads the same lines.
//! assert_eq!((est.accesses, est.misses), (4, 2));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![warn(missing_docs)]

pub mod analyzer;
pub mod estimator;
pub mod interp;
pub mod kernels;
pub mod order;
pub mod ptx;
pub mod wcet_eq;

#[cfg(test)]
mod tests;

pub use analyzer::{analyze, analyze_with, Access, Analysis, AnalyzeError, Options, WarpTrace};
pub use estimator::{
    estimate, replay, CacheConfig, CacheEvent, Estimate, EstimateError, WritePolicy,
};
pub use order::{release_order, OrderError, Released, Rule};
pub use ptx::{Kernel, PtxError};
