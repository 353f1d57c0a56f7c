//! A lane's multiplier: the 64-bit product of two 32-bit operands.

use rust_hdl::prelude::*;

/// Combinational `a · b` (unsigned) from four 16 × 16-bit products (rust-hdl's multiplier),
/// `alo·blo + ((ahi·blo + alo·bhi) << 16) + (ahi·bhi << 32)`, summed by 16-bit columns in
/// 32-bit adders: bits \[31:16\] are `alo·blo[31:16] + ahi·blo[15:0] + alo·bhi[15:0]` (its
/// carry, at most 2, goes up), bits \[63:32\] `ahi·bhi` plus the cross products' high halves
/// and that carry.
#[derive(LogicBlock)]
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
    /// The middle column with its carry.
    mid: Signal<Local, Bits<32>>,
    /// `0xFFFF`.
    low16: Constant<Bits<32>>,
}

impl Default for LaneMul {
    fn default() -> Self {
        Self {
            a: Default::default(),
            b: Default::default(),
            lo: Default::default(),
            hi: Default::default(),
            p00: Default::default(),
            p10: Default::default(),
            p01: Default::default(),
            p11: Default::default(),
            mid: Default::default(),
            low16: crate::hdl::k(0xFFFF),
        }
    }
}

impl Logic for LaneMul {
    #[hdl_gen]
    fn update(&mut self) {
        self.p00.next = self.a.val().get_bits::<16>(0) * self.b.val().get_bits::<16>(0);
        self.p10.next = self.a.val().get_bits::<16>(16) * self.b.val().get_bits::<16>(0);
        self.p01.next = self.a.val().get_bits::<16>(0) * self.b.val().get_bits::<16>(16);
        self.p11.next = self.a.val().get_bits::<16>(16) * self.b.val().get_bits::<16>(16);
        self.mid.next = (self.p00.val() >> 16)
            + (self.p10.val() & self.low16.val())
            + (self.p01.val() & self.low16.val());
        self.lo.next = (self.p00.val() & self.low16.val()) | (self.mid.val() << 16);
        self.hi.next = self.p11.val()
            + (self.p10.val() >> 16)
            + (self.p01.val() >> 16)
            + (self.mid.val() >> 16);
    }
}
