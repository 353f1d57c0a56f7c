//! The synthesizable decode stages and their sub-blocks (format and unit codes in [`formats`]).

pub mod formats;
pub mod insn_check;
pub mod insn_decode;
pub mod insn_fields;
pub mod insn_format;
pub mod mask_source;
pub mod opcode_check;
pub mod pws_decode;
