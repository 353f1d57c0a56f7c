//! Instruction set: the decoders of rtgpu's GCN3 subset plus the PWS `split`/`merge` pair.
//!
//! So far this holds the pilot block of the foundation, [`PwsDecode`], which recognises the two
//! PWS instructions (spec/000-pws.md §3.1, ARCHITECTURE.md "Instruction set") and the SOPC/SOPP
//! formats they live in. [`model`] is its reference model.
//!
//! Encodings (bit 31 on the left):
//! - `split ssrc0, ssrc1` = `0xBF7F0000 | ssrc1 << 8 | ssrc0` (SOPC layout, OP = 0x7F);
//! - `merge`              = `0xBFFF0000` (SOPP layout, OP = 0x7F; bits [15:0] are ignored).

pub mod insn_model;
mod mask_source;
pub mod model;
mod pws_decode;

pub use mask_source::MaskSourceCheck;
pub use pws_decode::PwsDecode;
