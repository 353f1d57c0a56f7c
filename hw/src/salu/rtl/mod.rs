//! The synthesizable SALU: the top [`salu::Salu`] (operand selection, result mux, the stage
//! register) over the decode [`control::SaluControl`] and the datapath units
//! [`adder::SaluAdder`], [`logic::SaluLogic`], [`shift::SaluShift`], [`mul::SaluMul`].

pub mod adder;
pub mod control;
pub mod logic;
pub mod mul;
pub mod salu;
pub mod shift;
