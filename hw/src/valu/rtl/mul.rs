//! A lane's multiplier: the 64-bit product of two 32-bit operands.

use rust_hdl::prelude::*;

/// Combinational `a · b` (unsigned) from four 16 × 16-bit products (rust-hdl's multiplier):
/// `alo·blo + ((ahi·blo + alo·bhi) << 16) + (ahi·bhi << 32)`.
#[derive(LogicBlock, Default)]
pub struct LaneMul {
    /// First operand.
    pub a: Signal<In, Bits<32>>,
    /// Second operand.
    pub b: Signal<In, Bits<32>>,
    /// The product, bits \[31:0\].
    pub lo: Signal<Out, Bits<32>>,
    /// The product, bits \[63:32\].
    pub hi: Signal<Out, Bits<32>>,
    /// `alo·blo`.
    p00: Signal<Local, Bits<32>>,
    /// `ahi·blo`.
    p10: Signal<Local, Bits<32>>,
    /// `alo·bhi`.
    p01: Signal<Local, Bits<32>>,
    /// `ahi·bhi`.
    p11: Signal<Local, Bits<32>>,
    /// The product.
    full: Signal<Local, Bits<64>>,
}

impl Logic for LaneMul {
    #[hdl_gen]
    fn update(&mut self) {
        self.p00.next = self.a.val().get_bits::<16>(0) * self.b.val().get_bits::<16>(0);
        self.p10.next = self.a.val().get_bits::<16>(16) * self.b.val().get_bits::<16>(0);
        self.p01.next = self.a.val().get_bits::<16>(0) * self.b.val().get_bits::<16>(16);
        self.p11.next = self.a.val().get_bits::<16>(16) * self.b.val().get_bits::<16>(16);
        self.full.next = bit_cast::<64, 32>(self.p00.val())
            + (bit_cast::<64, 32>(self.p10.val()) << 16)
            + (bit_cast::<64, 32>(self.p01.val()) << 16)
            + (bit_cast::<64, 32>(self.p11.val()) << 32);
        self.lo.next = self.full.val().get_bits::<32>(0);
        self.hi.next = self.full.val().get_bits::<32>(32);
    }
}
