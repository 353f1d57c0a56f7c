//! The fp32 comparison of a lane: the VOPC predicates' inputs and `v_min/max_f32`.

use crate::hdl::k;
use rust_hdl::prelude::*;

/// Combinational order of `a` and `b`: unordered when either is a NaN, else less, equal
/// (−0 equals +0) or greater. `lo`/`hi` are `v_min_f32`/`v_max_f32`: the other operand when
/// one is a NaN (`b` when both are, unchanged), and of two equal values −0 is the smaller.
#[derive(LogicBlock)]
pub struct FpCmp {
    /// First operand (fp32 bits, source modifiers applied).
    pub a: Signal<In, Bits<32>>,
    /// Second operand.
    pub b: Signal<In, Bits<32>>,
    /// `a < b`.
    pub lt: Signal<Out, Bit>,
    /// `a == b`.
    pub eq: Signal<Out, Bit>,
    /// `a > b`.
    pub gt: Signal<Out, Bit>,
    /// A NaN operand.
    pub un: Signal<Out, Bit>,
    /// The minimum.
    pub lo: Signal<Out, Bits<32>>,
    /// The maximum.
    pub hi: Signal<Out, Bits<32>>,
    /// `a`'s magnitude.
    ma: Signal<Local, Bits<32>>,
    /// `b`'s magnitude.
    mb: Signal<Local, Bits<32>>,
    /// `a` is a NaN.
    nan_a: Signal<Local, Bit>,
    /// `b` is a NaN.
    nan_b: Signal<Local, Bit>,
    /// Less, ignoring NaNs.
    less: Signal<Local, Bit>,
    /// Equal, ignoring NaNs.
    same: Signal<Local, Bit>,
    /// `a` is the minimum.
    a_lo: Signal<Local, Bit>,
    /// `a` is the maximum.
    a_hi: Signal<Local, Bit>,
    /// The magnitude mask.
    magm: Constant<Bits<32>>,
    /// +∞.
    inf: Constant<Bits<32>>,
    /// 0.
    zero: Constant<Bits<32>>,
}

impl Default for FpCmp {
    fn default() -> Self {
        Self {
            a: Default::default(),
            b: Default::default(),
            lt: Default::default(),
            eq: Default::default(),
            gt: Default::default(),
            un: Default::default(),
            lo: Default::default(),
            hi: Default::default(),
            ma: Default::default(),
            mb: Default::default(),
            nan_a: Default::default(),
            nan_b: Default::default(),
            less: Default::default(),
            same: Default::default(),
            a_lo: Default::default(),
            a_hi: Default::default(),
            magm: k(0x7FFF_FFFF),
            inf: k(0x7F80_0000),
            zero: k(0),
        }
    }
}

impl Logic for FpCmp {
    #[hdl_gen]
    fn update(&mut self) {
        self.ma.next = self.a.val() & self.magm.val();
        self.mb.next = self.b.val() & self.magm.val();
        self.nan_a.next = self.ma.val() > self.inf.val();
        self.nan_b.next = self.mb.val() > self.inf.val();
        self.same.next = (self.a.val() == self.b.val())
            | ((self.ma.val() == self.zero.val()) & (self.mb.val() == self.zero.val()));
        // Signs differ: the negative one is less; both negative: the larger magnitude.
        self.less.next = self.ma.val() < self.mb.val();
        if self.a.val().get_bit(31) & self.b.val().get_bit(31) {
            self.less.next = self.ma.val() > self.mb.val();
        }
        if self.a.val().get_bit(31) != self.b.val().get_bit(31) {
            self.less.next = self.a.val().get_bit(31);
        }
        self.un.next = self.nan_a.val() | self.nan_b.val();
        self.lt.next = !self.nan_a.val() & !self.nan_b.val() & !self.same.val() & self.less.val();
        self.eq.next = !self.nan_a.val() & !self.nan_b.val() & self.same.val();
        self.gt.next = !self.nan_a.val() & !self.nan_b.val() & !self.same.val() & !self.less.val();
        self.a_lo.next = self.nan_b.val()
            | (!self.same.val() & self.less.val())
            | (self.same.val() & self.a.val().get_bit(31));
        self.a_hi.next = self.nan_b.val()
            | (!self.same.val() & !self.less.val())
            | (self.same.val() & !self.a.val().get_bit(31));
        self.lo.next = self.b.val();
        if !self.nan_a.val() & self.a_lo.val() {
            self.lo.next = self.a.val();
        }
        self.hi.next = self.b.val();
        if !self.nan_a.val() & self.a_hi.val() {
            self.hi.next = self.a.val();
        }
    }
}
