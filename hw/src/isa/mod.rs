//! Instruction set hardware: the decode stage of rtgpu's GCN3 (gfx8) subset plus the PWS
//! `split`/`merge` pair (ARCHITECTURE.md "Instruction set", spec/000-pws.md §3.1).
//!
//! - [`InsnDecode`]: the compute unit's decode stage (format, opcode, functional unit, operand
//!   fields, literal, length, modifiers, legality), built from [`InsnFormat`],
//!   [`OpcodeCheck`] and [`MaskSourceCheck`]; reference model [`insn_model`].
//! - [`PwsDecode`]: the foundation's pilot block recognising only `split`/`merge`; reference
//!   model [`model`].
//!
//! Encodings (bit 31 on the left):
//! - `split ssrc0, ssrc1` = `0xBF7F0000 | ssrc1 << 8 | ssrc0` (SOPC layout, OP = 0x7F);
//! - `merge`              = `0xBFFF0000` (SOPP layout, OP = 0x7F; bits [15:0] are ignored).

pub mod formats;
mod insn_decode;
mod insn_format;
pub mod insn_model;
mod mask_source;
pub mod model;
mod opcode_check;
mod pws_decode;

pub use insn_decode::InsnDecode;
pub use insn_format::InsnFormat;
pub use mask_source::MaskSourceCheck;
pub use opcode_check::OpcodeCheck;
pub use pws_decode::PwsDecode;
