//! The synthesizable SALU: the top [`salu::Salu`] (operand selection, result mux, the stage
//! register) over the decode [`control::SaluControl`] and the datapath units
//! [`adder::SaluAdder`], [`logic::SaluLogic`], [`shift::SaluShift`], [`mul::SaluMul`].
//!
//! Every signal that leaves a block (a sub-block's input, a block's output) is assigned once
//! per evaluation, its conditional value built in a local first: rust-hdl writes a block's
//! update as one `always @(*)`, and a signal written twice there glitches to its first value
//! on every pass; under Icarus the sub-block then re-evaluates on the glitch, its outputs
//! wake the parent, and the two ping-pong at one time step forever (the SALU's first cosim
//! did, 230 cycles in).

pub mod adder;
pub mod control;
pub mod logic;
pub mod mul;
pub mod salu;
pub mod shift;
