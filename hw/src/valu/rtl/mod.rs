//! The synthesizable VALU: the top [`valu::Valu`] (quarter counter, held instruction, mask
//! collection, output registers) over the datapath of one cycle [`quarter::ValuQuarter`]: the
//! decode [`control::ValuControl`] and 16 [`lane::ValuLane`]s, each with an
//! [`adder::LaneAdder`] and a [`mul::LaneMul`].
//!
//! As in the SALU, every signal that leaves a block is assigned once per evaluation, its
//! conditional value built in a local first: rust-hdl writes a block's update as one
//! `always @(*)`, and a signal written twice there glitches to its first value on every pass,
//! which makes Icarus re-evaluate the blocks it feeds without end.

pub mod adder;
pub mod control;
pub mod lane;
pub mod mul;
pub mod quarter;
pub mod valu;
