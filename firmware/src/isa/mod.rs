//! rtgpu's instruction set: a GCN3 (gfx8) subset, bit-exact with LLVM's AMDGPU assembler
//! (`llvm-mc -arch=amdgcn -mcpu=fiji`), plus the PWS instructions `split` (SOPC, `0xBF7F`) and
//! `merge` (`0xBFFF0000`), encoded as docs/assumptions.md#A2 fixes.
//!
//! - [`Op`] and [`OPS`]: the opcode table (format, opcode, operand signature, modifiers);
//! - [`Instruction`]: the typed instruction, [`Instruction::encode`], [`decode`];
//! - [`assemble`]: `.s` text → [`Program`]; [`disassemble`] and `Display`: words → text that
//!   reassembles to the same words.

mod asm;
mod decode;
mod encode;
mod instruction;
mod opcode;
mod operand;
mod samples;
mod text;

pub use asm::{assemble, assemble_line, AsmError, KernelDescriptor, Listing, Metadata, Program};
pub use decode::{decode, format_of, DecodeError};
pub use instruction::{is_mask_source, slots, Instruction, Invalid, Modifiers, Slot};
pub use opcode::{Format, ModSet, Op, OpInfo, Sig, ALL_OPS, OPS};
pub use operand::{InlineFloat, Operand, INLINE_FLOATS, LITERAL_CODE, SGPR_COUNT};
pub use samples::{fp_alu_lines, fp_operand, fp_partner, vector_alu_lines, WIDE_ALU_LINES};
pub use text::{disassemble, DisasmError, Disassembled, WAITCNT_MASK};
