//! The SALU's multiplier: the low 32 bits of a 32 × 32-bit product.

use rust_hdl::prelude::*;

/// Combinational `(a * y)[31:0]` from three 16 × 16-bit products (rust-hdl's multiplier):
/// `alo·ylo + ((ahi·ylo + alo·yhi) << 16)`; the low half is the same for signed and unsigned
/// operands (`s_mul_i32`, `s_mulk_i32`).
#[derive(LogicBlock, Default)]
pub struct SaluMul {
    /// First operand.
    pub a: Signal<In, Bits<32>>,
    /// Second operand.
    pub y: Signal<In, Bits<32>>,
    /// The low 32 bits of the product.
    pub d: Signal<Out, Bits<32>>,
    /// `alo·ylo`.
    lo: Signal<Local, Bits<32>>,
    /// `ahi·ylo`.
    cross_a: Signal<Local, Bits<32>>,
    /// `alo·yhi`.
    cross_y: Signal<Local, Bits<32>>,
}

impl Logic for SaluMul {
    #[hdl_gen]
    fn update(&mut self) {
        self.lo.next = self.a.val().get_bits::<16>(0) * self.y.val().get_bits::<16>(0);
        self.cross_a.next = self.a.val().get_bits::<16>(16) * self.y.val().get_bits::<16>(0);
        self.cross_y.next = self.a.val().get_bits::<16>(0) * self.y.val().get_bits::<16>(16);
        self.d.next = self.lo.val() + ((self.cross_a.val() + self.cross_y.val()) << 16);
    }
}
