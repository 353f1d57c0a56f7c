//! Instruction set hardware: the decode stage of rtgpu's GCN3 (gfx8) subset plus the PWS
//! `split`/`merge` pair (docs/architecture.md; encodings in docs/assumptions.md#A2).
//!
//! - [`InsnDecode`]: the compute unit's decode stage (format, opcode, functional unit, operand
//!   fields, literal, length, modifiers, legality), built on [`InsnCheck`] (format, unit and
//!   legality from [`InsnFormat`], [`OpcodeCheck`] and [`MaskSourceCheck`], which the
//!   instruction fetch's predecode shares); reference model [`insn_model`].
//! - [`PwsDecode`]: the foundation's pilot block recognising only `split`/`merge`; reference
//!   model [`pws_decode_model`].
//!
//! Encodings (bit 31 on the left):
//! - `split ssrc0, ssrc1` = `0xBF7F0000 | ssrc1 << 8 | ssrc0` (SOPC layout, OP = 0x7F);
//! - `merge`              = `0xBFFF0000` (SOPP layout, OP = 0x7F; bits \[15:0\] are ignored).

pub mod rtl;
pub use rtl::formats;
pub mod insn_model;
pub mod pws_decode_model;

pub use rtl::insn_check::InsnCheck;
pub use rtl::insn_decode::InsnDecode;
pub use rtl::insn_format::InsnFormat;
pub use rtl::mask_source::MaskSourceCheck;
pub use rtl::opcode_check::OpcodeCheck;
pub use rtl::pws_decode::PwsDecode;
