//! The SALU's 32-bit adder/subtractor and the comparison it gives.

use crate::hdl::k;
use rust_hdl::prelude::*;

/// Combinational `a ± y ± cin` on bits \[31:0\] of 64-bit operands (the datapath is 64 bits
/// wide; a 33-bit sum keeps the carry), with the flags of the GCN3 scalar adds and compares.
///
/// A subtraction adds `!y` and `!cin` (`a - y - cin = a + !y + 1 - cin`): its carry out is
/// then "no borrow".
#[derive(LogicBlock)]
pub struct SaluAdder {
    /// First operand (bits \[31:0\] used).
    pub a: Signal<In, Bits<64>>,
    /// Second operand (bits \[31:0\] used).
    pub y: Signal<In, Bits<64>>,
    /// Subtract.
    pub sub: Signal<In, Bit>,
    /// Carry in (add) or borrow in (subtract).
    pub cin: Signal<In, Bit>,
    /// The 32-bit result, zero-extended.
    pub sum: Signal<Out, Bits<64>>,
    /// Carry out (add) or borrow out (subtract).
    pub carry: Signal<Out, Bit>,
    /// Signed overflow.
    pub ovf: Signal<Out, Bit>,
    /// `a < y` as signed 32-bit values (with `sub`, `cin` = 0).
    pub lt_s: Signal<Out, Bit>,
    /// `a < y` as unsigned values (with `sub`, `cin` = 0).
    pub lt_u: Signal<Out, Bit>,
    /// `a == y` on bits \[31:0\].
    pub eq: Signal<Out, Bit>,
    /// `a[31:0]`, zero-extended.
    a32: Signal<Local, Bits<64>>,
    /// The second addend: `y[31:0]` or its complement, zero-extended.
    y32: Signal<Local, Bits<64>>,
    /// The 33-bit sum.
    full: Signal<Local, Bits<64>>,
    /// `0xFFFF_FFFF`.
    low32: Constant<Bits<64>>,
    /// 1.
    one: Constant<Bits<64>>,
}

impl Default for SaluAdder {
    fn default() -> Self {
        Self {
            a: Default::default(),
            y: Default::default(),
            sub: Default::default(),
            cin: Default::default(),
            sum: Default::default(),
            carry: Default::default(),
            ovf: Default::default(),
            lt_s: Default::default(),
            lt_u: Default::default(),
            eq: Default::default(),
            a32: Default::default(),
            y32: Default::default(),
            full: Default::default(),
            low32: k(0xFFFF_FFFF),
            one: k(1),
        }
    }
}

impl Logic for SaluAdder {
    #[hdl_gen]
    fn update(&mut self) {
        self.a32.next = self.a.val() & self.low32.val();
        self.y32.next = self.y.val() & self.low32.val();
        if self.sub.val() {
            self.y32.next = !self.y.val() & self.low32.val();
        }
        self.full.next = self.a32.val() + self.y32.val();
        if self.cin.val() ^ self.sub.val() {
            self.full.next = self.a32.val() + self.y32.val() + self.one.val();
        }
        self.sum.next = self.full.val() & self.low32.val();
        self.carry.next = self.full.val().get_bit(32) ^ self.sub.val();
        self.ovf.next = (self.a.val().get_bit(31) == self.y32.val().get_bit(31))
            & (self.full.val().get_bit(31) != self.a.val().get_bit(31));
        self.lt_s.next = self.full.val().get_bit(31) ^ self.ovf.val();
        self.lt_u.next = !self.full.val().get_bit(32);
        self.eq.next = self.a32.val() == (self.y.val() & self.low32.val());
    }
}
