//! The PWS compiler pass: steps 2–4 of the compiler flow of the PWS paper's Fig. 6
//! (docs/works/pws.md#fig-6), on GCN's masked-if lowering, with the layout rules of
//! assumptions A11, A14–A17, A24 and A26 (docs/assumptions.md#A11 and the entries after it).
//!
//! - [`Kstruct`]: the structure of an assembled kernel: its masked ifs (LLVM's GCN lowering,
//!   with or without `s_cbranch_execz` skips), plain stretches and opaque loops; its C_conv for
//!   the WCET analysis ([`Kstruct::conv`], [`Kstruct::costed`]); and the [`Owner`] of every
//!   instruction, for attributing measured per-instruction time to C_conv blocks and BSBs.
//! - [`compile`]: the pass. It takes the marked ifs P (or every two-armed if), removes the
//!   `split`s that are not before a branch and every `merge`, keeps the split points the mode
//!   selects (none, all of P for DWS, SELECT's SB for PWS) and lays them out on the masked-if
//!   lowering: `s_waitcnt 0; split` before the `s_and_saveexec_b64`, execz skips on both arms (and
//!   on every if inside a kept split's arms, A16 (docs/assumptions.md#A16)), `s_waitcnt 0` closing
//!   each arm and `s_or_b64 exec; s_waitcnt 0; merge` at the join (A11, A14, A15:
//!   docs/assumptions.md#A11, docs/assumptions.md#A14, docs/assumptions.md#A15). Branch offsets are
//!   recomputed. A kept split whose region (then-arm, else-head, else-arm) holds an `s_barrier` is
//!   [`PassError::BarrierInSplit`] (docs/assumptions.md#A22); one whose region writes a scalar
//!   register that is read after the join before being rewritten is [`PassError::ScalarLiveOut`]
//!   (docs/assumptions.md#A13, the operand model is [`ScalarAccess`]).
//! - [`listing`]: the compiled code as text, with labels and owners.
//!
//! Why the `s_waitcnt 0` at the end of each arm of a kept split: no memory operation is then
//! outstanding across an arm boundary, so the time an arm's memory operations take is spent
//! (and measured) inside that arm's blocks. The per-block costs measured on the simulator then
//! compose along any C_BSB path, including the pruned paths of PRUNE, where one SWF runs one
//! arm and the other SWF the other.

mod check;
mod close;
mod error;
mod parse;
mod pass;
mod pat;
mod rewrite;
mod rotate;
mod scalar;
mod structure;

pub use error::PassError;
pub use pass::{compile, listing, Compiled, Marks, PassMode, PassOptions, PassReport};
pub use scalar::{ScalarAccess, Sreg};
pub use structure::{IfInfo, Insn, Kstruct, Owner};

#[cfg(test)]
mod tests;
