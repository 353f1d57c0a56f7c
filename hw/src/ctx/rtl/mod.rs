//! The context-state blocks' RTL: the scalar state (its SGPR words, its per-context
//! registers, the operand resolution) and the vector register file (one sub-block per lane).

pub mod ctx_regs;
pub mod operand;
pub mod sgprs;
pub mod specials;
pub mod vgpr_lane;
pub mod vgprs;
