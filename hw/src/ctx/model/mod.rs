//! Reference models of the context-state blocks ([`crate::ctx`]), written from the contract:
//! the scalar state with its operand resolution, and the vector register file.

mod operand;
mod sregs;
mod vgprs;

pub use operand::{dst_ok, read32, read64, write};
pub use sregs::{CtxRegsModel, CtxState};
pub use vgprs::VgprModel;
