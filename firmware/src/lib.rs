//! rtgpu firmware: everything on the host side of the bus. So far: the instruction set
//! ([`isa`]): encoder, decoder, assembler and disassembler.

pub mod isa;
