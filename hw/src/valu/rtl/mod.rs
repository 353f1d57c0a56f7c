//! The synthesizable VALU: the top [`valu::Valu`] (quarter counter, held instruction, mask
//! collection, output registers) over the datapath of one cycle [`quarter::ValuQuarter`]: the
//! decode [`control::ValuControl`] and 16 [`lane::ValuLane`]s, each with an
//! [`adder::LaneAdder`], a [`mul::LaneMul`] and the fp32 unit [`fp_lane::FpLane`]: the
//! product [`fp_mul::FpMul`], the adder [`fp_add::FpAdd`] (each with an
//! [`fp_round::FpRound`]), the comparison [`fp_cmp::FpCmp`], the conversion to integers
//! [`fp_cvt::FpToInt`] and the output modifiers [`fp_out::FpOut`].
//!
//! As in the SALU, every signal that leaves a block is assigned once per evaluation, its
//! conditional value built in a local first: rust-hdl writes a block's update as one
//! `always @(*)`, and a signal written twice there glitches to its first value on every pass,
//! which makes Icarus re-evaluate the blocks it feeds without end.

pub mod adder;
pub mod control;
pub mod fp_add;
pub mod fp_cmp;
pub mod fp_cvt;
pub mod fp_lane;
pub mod fp_mul;
pub mod fp_out;
pub mod fp_round;
pub mod lane;
pub mod mul;
pub mod quarter;
pub mod valu;
