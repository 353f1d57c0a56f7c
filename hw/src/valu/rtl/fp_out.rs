//! The VOP3 output modifiers of an fp32 result: omod, then clamp.

use crate::hdl::k;
use rust_hdl::prelude::*;

/// Combinational: `x` times 2 (`omod` 1), 4 (2) or 0.5 (3), rounded to nearest even, a NaN
/// quieted and ±∞, ±0 kept; then, with `clamp`, limited to \[0, 1\] (a NaN and −0 give +0).
///
/// A scaling only moves the exponent field, except near the denormals: there the magnitude
/// bits `n` of a value `n · 2^-149` (exponent field 0 or 1) are an integer, so ×2 is `n << 1`,
/// ×4 `n << 2` (or `2^23 + (n << 1)` once that passes 2^24: field 2), and ×0.5 is `n >> 1`
/// rounded to even, all in the same code.
#[derive(LogicBlock)]
pub struct FpOut {
    /// The result before the modifiers.
    pub x: Signal<In, Bits<32>>,
    /// The output modifier: 0 none, 1 ×2, 2 ×4, 3 ×0.5.
    pub omod: Signal<In, Bits<2>>,
    /// Clamp to \[0, 1\].
    pub clamp: Signal<In, Bit>,
    /// The result.
    pub d: Signal<Out, Bits<32>>,
    /// The exponent field.
    e: Signal<Local, Bits<32>>,
    /// The exponent field after ×2 or ×4.
    up: Signal<Local, Bits<32>>,
    /// The magnitude bits `n`.
    n: Signal<Local, Bits<32>>,
    /// The scaled magnitude.
    mag: Signal<Local, Bits<32>>,
    /// The scaled result.
    s: Signal<Local, Bits<32>>,
    /// The clamped result.
    c: Signal<Local, Bits<32>>,
    /// The exponent-field unit.
    e1: Constant<Bits<32>>,
    /// 1.
    one: Constant<Bits<32>>,
    /// 2.
    two: Constant<Bits<32>>,
    /// 255.
    e255: Constant<Bits<32>>,
    /// 2^24.
    p24: Constant<Bits<32>>,
    /// 2^23.
    p23: Constant<Bits<32>>,
    /// The magnitude mask.
    magm: Constant<Bits<32>>,
    /// The significand field.
    frac: Constant<Bits<32>>,
    /// The sign bit.
    sbit: Constant<Bits<32>>,
    /// +∞.
    inf: Constant<Bits<32>>,
    /// The quiet bit.
    quiet: Constant<Bits<32>>,
    /// 1.0.
    fone: Constant<Bits<32>>,
    /// 0.
    zero: Constant<Bits<32>>,
    /// omod ×4.
    m2: Constant<Bits<2>>,
    /// omod ×0.5.
    m3: Constant<Bits<2>>,
}

impl Default for FpOut {
    fn default() -> Self {
        Self {
            x: Default::default(),
            omod: Default::default(),
            clamp: Default::default(),
            d: Default::default(),
            e: Default::default(),
            up: Default::default(),
            n: Default::default(),
            mag: Default::default(),
            s: Default::default(),
            c: Default::default(),
            e1: k(1 << 23),
            one: k(1),
            two: k(2),
            e255: k(255),
            p24: k(1 << 24),
            p23: k(1 << 23),
            magm: k(0x7FFF_FFFF),
            frac: k(0x7F_FFFF),
            sbit: k(0x8000_0000),
            inf: k(0x7F80_0000),
            quiet: k(0x0040_0000),
            fone: k(0x3F80_0000),
            zero: k(0),
            m2: k(2),
            m3: k(3),
        }
    }
}

impl Logic for FpOut {
    #[hdl_gen]
    fn update(&mut self) {
        self.e.next = (self.x.val() & self.magm.val()) >> 23;
        self.n.next = self.x.val() & self.magm.val();
        self.up.next = self.e.val() + self.one.val();
        if self.omod.val() == self.m2.val() {
            self.up.next = self.e.val() + self.two.val();
        }
        // ×2, ×4: the field moves up (to ∞ at 255); the denormals shift left.
        self.mag.next = (self.up.val() << 23) | (self.x.val() & self.frac.val());
        if self.up.val() >= self.e255.val() {
            self.mag.next = self.inf.val();
        }
        if self.e.val() == self.zero.val() {
            self.mag.next = self.n.val() << 1;
            if self.omod.val() == self.m2.val() {
                self.mag.next = self.n.val() << 2;
                if (self.n.val() << 2) >= self.p24.val() {
                    self.mag.next = self.p23.val() + (self.n.val() << 1);
                }
            }
        }
        // ×0.5: the field moves down; fields 0 and 1 halve `n`, a tie to even.
        if self.omod.val() == self.m3.val() {
            self.mag.next = self.n.val() - self.e1.val();
            if self.e.val() <= self.one.val() {
                self.mag.next = self.n.val() >> 1;
                if self.n.val().get_bit(0) & self.n.val().get_bit(1) {
                    self.mag.next = (self.n.val() >> 1) + self.one.val();
                }
            }
        }
        self.s.next = (self.x.val() & self.sbit.val()) | self.mag.val();
        if (self.n.val() >= self.inf.val()) | (self.n.val() == self.zero.val()) {
            self.s.next = self.x.val();
        }
        if self.n.val() > self.inf.val() {
            self.s.next = self.x.val() | self.quiet.val();
        }
        if self.omod.val() == self.zero.val().get_bits::<2>(0) {
            self.s.next = self.x.val();
        }
        self.c.next = self.s.val();
        if self.clamp.val() {
            if (self.s.val() & self.magm.val()) > self.fone.val() {
                self.c.next = self.fone.val();
            }
            if self.s.val().get_bit(31) | ((self.s.val() & self.magm.val()) > self.inf.val()) {
                self.c.next = self.zero.val();
            }
        }
        self.d.next = self.c.val();
    }
}
