//! The SALU's 64-bit shifter and bit-field extract.

use crate::hdl::k;
use rust_hdl::prelude::*;

/// Combinational shift of `x` by `amount`: left, logical right, or arithmetic right (bit 63
/// fills); with `bfe` the right shift keeps the low `width` bits (all of bits \[31:0\] when
/// `width` ≥ 32). The caller extends a 32-bit operand to 64 bits (zero, or sign for an
/// arithmetic shift) and limits a 32-bit shift's amount to 31.
#[derive(LogicBlock)]
pub struct SaluShift {
    /// The value shifted.
    pub x: Signal<In, Bits<64>>,
    /// The shift amount.
    pub amount: Signal<In, Bits<6>>,
    /// Shift left.
    pub left: Signal<In, Bit>,
    /// A right shift is arithmetic.
    pub arith: Signal<In, Bit>,
    /// Bit-field extract (a logical right shift, then the field mask).
    pub bfe: Signal<In, Bit>,
    /// The field width of `bfe`.
    pub width: Signal<In, Bits<7>>,
    /// The result.
    pub d: Signal<Out, Bits<64>>,
    /// `x >> amount`.
    right: Signal<Local, Bits<64>>,
    /// The result (`d` is assigned once: see [`crate::salu::rtl`]).
    r: Signal<Local, Bits<64>>,
    /// The field mask of `bfe`.
    mask: Signal<Local, Bits<64>>,
    /// All ones.
    ones: Constant<Bits<64>>,
    /// `0xFFFF_FFFF`.
    low32: Constant<Bits<64>>,
    /// 0.
    zero2: Constant<Bits<2>>,
}

impl Default for SaluShift {
    fn default() -> Self {
        Self {
            x: Default::default(),
            amount: Default::default(),
            left: Default::default(),
            arith: Default::default(),
            bfe: Default::default(),
            width: Default::default(),
            d: Default::default(),
            right: Default::default(),
            mask: Default::default(),
            r: Default::default(),
            ones: k(u64::MAX),
            low32: k(0xFFFF_FFFF),
            zero2: k(0),
        }
    }
}

impl Logic for SaluShift {
    #[hdl_gen]
    fn update(&mut self) {
        self.right.next = self.x.val() >> self.amount.val();
        self.mask.next = self.low32.val();
        if self.width.val().get_bits::<2>(5) == self.zero2.val() {
            self.mask.next =
                !(self.ones.val() << self.width.val().get_bits::<5>(0)) & self.low32.val();
        }
        self.r.next = self.right.val();
        if self.arith.val() & self.x.val().get_bit(63) {
            self.r.next = self.right.val() | !(self.ones.val() >> self.amount.val());
        }
        if self.bfe.val() {
            self.r.next = self.right.val() & self.mask.val();
        }
        if self.left.val() {
            self.r.next = self.x.val() << self.amount.val();
        }
        self.d.next = self.r.val();
    }
}
