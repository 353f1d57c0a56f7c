//! A lane's 32-bit adder/subtractor and the comparison it gives.

use crate::hdl::k;
use rust_hdl::prelude::*;

/// Combinational `x ± y ± cin` with `(x, y)` = `(a, b)`, or `(b, a)` with `swap`; a
/// subtraction adds `!y` and `!cin` (`x - y - cin = x + !y + 1 - cin`), its carry out being
/// "no borrow". The comparison of `a` with `b` is read from the same sum (with `sub`, no
/// `swap`, no carry in).
#[derive(LogicBlock)]
pub struct LaneAdder {
    /// First operand (`src0`).
    pub a: Signal<In, Bits<32>>,
    /// Second operand (`src1`).
    pub b: Signal<In, Bits<32>>,
    /// Swap the operands (`subrev`, `subbrev`).
    pub swap: Signal<In, Bit>,
    /// Subtract.
    pub sub: Signal<In, Bit>,
    /// Carry in (add) or borrow in (subtract).
    pub cin: Signal<In, Bit>,
    /// The comparison is signed.
    pub is_signed: Signal<In, Bit>,
    /// The 32-bit result.
    pub sum: Signal<Out, Bits<32>>,
    /// Carry out (add) or borrow out (subtract).
    pub carry: Signal<Out, Bit>,
    /// `a < b`.
    pub lt: Signal<Out, Bit>,
    /// `a == b`.
    pub eq: Signal<Out, Bit>,
    /// `x`.
    x: Signal<Local, Bits<32>>,
    /// `y` or its complement.
    y: Signal<Local, Bits<32>>,
    /// The 32-bit sum.
    full: Signal<Local, Bits<32>>,
    /// The carry out of bit 31.
    cout: Signal<Local, Bit>,
    /// `a < b` unsigned: the borrow of `a - b`.
    lt_u: Signal<Local, Bit>,
    /// `a < b` (outputs are assigned once: see [`super`]).
    less: Signal<Local, Bit>,
    /// 1.
    one: Constant<Bits<32>>,
}

impl Default for LaneAdder {
    fn default() -> Self {
        Self {
            a: Default::default(),
            b: Default::default(),
            swap: Default::default(),
            sub: Default::default(),
            cin: Default::default(),
            is_signed: Default::default(),
            sum: Default::default(),
            carry: Default::default(),
            lt: Default::default(),
            eq: Default::default(),
            x: Default::default(),
            y: Default::default(),
            full: Default::default(),
            cout: Default::default(),
            lt_u: Default::default(),
            less: Default::default(),
            one: k(1),
        }
    }
}

impl Logic for LaneAdder {
    #[hdl_gen]
    fn update(&mut self) {
        self.x.next = self.a.val();
        self.y.next = self.b.val();
        if self.swap.val() {
            self.x.next = self.b.val();
            self.y.next = self.a.val();
        }
        if self.sub.val() {
            self.y.next = !self.b.val();
            if self.swap.val() {
                self.y.next = !self.a.val();
            }
        }
        self.full.next = self.x.val() + self.y.val();
        if self.cin.val() ^ self.sub.val() {
            self.full.next = self.x.val() + self.y.val() + self.one.val();
        }
        // The carry out of bit 31: both top bits set, or one set and the sum's top bit clear.
        self.cout.next = (self.x.val().get_bit(31) & self.y.val().get_bit(31))
            | ((self.x.val().get_bit(31) | self.y.val().get_bit(31))
                & !self.full.val().get_bit(31));
        self.sum.next = self.full.val();
        self.carry.next = self.cout.val() ^ self.sub.val();
        // Signs that differ decide a signed compare; equal signs compare as unsigned.
        self.lt_u.next = !self.cout.val();
        self.less.next = self.lt_u.val();
        if self.is_signed.val() & (self.a.val().get_bit(31) != self.b.val().get_bit(31)) {
            self.less.next = self.a.val().get_bit(31);
        }
        self.lt.next = self.less.val();
        self.eq.next = self.a.val() == self.b.val();
    }
}
