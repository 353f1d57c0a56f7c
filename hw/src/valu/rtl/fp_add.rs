//! The fp32 adder of a lane: the exact sum of two finite operands of up to 48 significant
//! bits, rounded once (`v_add/sub/subrev_f32`, the sum of `v_mac/mad_f32`, `v_fma_f32`,
//! the integer-to-float conversions).

use super::fp_round::FpRound;
use crate::hdl::k;
use rust_hdl::prelude::*;

/// Combinational `x + z` rounded to nearest even, each operand `(-1)^s · m/2^47 ·
/// 2^(e−127)`. The operand with the larger exponent (a zero never is) keeps its 48 bits and
/// three below (guard, round, sticky); the other is shifted right by the difference, the
/// bits it loses ORed into the sticky bit. With both normalized, or the larger one a
/// denormal, that is exact enough for one rounding: a subtraction that cancels more than
/// one bit has lost nothing. A zero sum is +0, or −0 when both operands are −0.
#[derive(LogicBlock)]
pub struct FpAdd {
    /// `x`'s sign.
    pub xs: Signal<In, Bit>,
    /// `x`'s biased exponent (of significand bit 47), two's complement.
    pub xe: Signal<In, Bits<12>>,
    /// `x`'s significand.
    pub xm: Signal<In, Bits<48>>,
    /// `z`'s sign.
    pub zs: Signal<In, Bit>,
    /// `z`'s biased exponent.
    pub ze: Signal<In, Bits<12>>,
    /// `z`'s significand.
    pub zm: Signal<In, Bits<48>>,
    /// The rounded sum.
    pub d: Signal<Out, Bits<32>>,
    /// The rounding.
    round: FpRound,
    /// `xe − ze`: its sign picks the operand kept in place, its value (or its negation) is
    /// the shift of the other.
    dxz: Signal<Local, Bits<12>>,
    /// `x` is the operand kept in place.
    x_big: Signal<Local, Bit>,
    /// The kept operand's sign.
    bs: Signal<Local, Bit>,
    /// Its exponent.
    be: Signal<Local, Bits<12>>,
    /// Its significand with the three low bits.
    bm: Signal<Local, Bits<52>>,
    /// The shifted operand's sign.
    ss: Signal<Local, Bit>,
    /// Its significand with three low bits, before the shift.
    sm: Signal<Local, Bits<52>>,
    /// The exponent difference.
    diff: Signal<Local, Bits<12>>,
    /// The shifted operand, sticky bit included.
    sh: Signal<Local, Bits<52>>,
    /// The magnitude of the sum.
    sum: Signal<Local, Bits<52>>,
    /// Its sign.
    sign: Signal<Local, Bit>,
    /// 51.
    top: Constant<Bits<12>>,
    /// 1.
    one12: Constant<Bits<12>>,
    /// 1.
    one52: Constant<Bits<52>>,
    /// All ones.
    ones: Constant<Bits<52>>,
    /// 0.
    zero12: Constant<Bits<12>>,
    /// 0.
    zero48: Constant<Bits<48>>,
    /// 0.
    zero52: Constant<Bits<52>>,
}

impl Default for FpAdd {
    fn default() -> Self {
        Self {
            xs: Default::default(),
            xe: Default::default(),
            xm: Default::default(),
            zs: Default::default(),
            ze: Default::default(),
            zm: Default::default(),
            d: Default::default(),
            round: Default::default(),
            dxz: Default::default(),
            x_big: Default::default(),
            bs: Default::default(),
            be: Default::default(),
            bm: Default::default(),
            ss: Default::default(),
            sm: Default::default(),
            diff: Default::default(),
            sh: Default::default(),
            sum: Default::default(),
            sign: Default::default(),
            top: k(51),
            one12: k(1),
            one52: k(1),
            ones: k((1 << 52) - 1),
            zero12: k(0),
            zero48: k(0),
            zero52: k(0),
        }
    }
}

impl Logic for FpAdd {
    #[hdl_gen]
    fn update(&mut self) {
        self.dxz.next = self.xe.val() - self.ze.val();
        self.x_big.next = !self.dxz.val().get_bit(11);
        if self.zm.val() == self.zero48.val() {
            self.x_big.next = true;
        }
        if self.xm.val() == self.zero48.val() {
            self.x_big.next = false;
        }
        self.bs.next = self.zs.val();
        self.be.next = self.ze.val();
        self.bm.next = bit_cast::<52, 48>(self.zm.val()) << 3;
        self.ss.next = self.xs.val();
        self.sm.next = bit_cast::<52, 48>(self.xm.val()) << 3;
        self.diff.next = self.zero12.val() - self.dxz.val();
        if self.x_big.val() {
            self.bs.next = self.xs.val();
            self.be.next = self.xe.val();
            self.bm.next = bit_cast::<52, 48>(self.xm.val()) << 3;
            self.ss.next = self.zs.val();
            self.sm.next = bit_cast::<52, 48>(self.zm.val()) << 3;
            self.diff.next = self.dxz.val();
        }
        // Right by the difference (a negative one only beside a zero), the lost bits sticky.
        self.sh.next = self.zero52.val();
        if self.sm.val() != self.zero52.val() {
            self.sh.next = self.one52.val();
        }
        if self.diff.val() <= self.top.val() {
            self.sh.next = self.sm.val() >> self.diff.val();
            if (self.sm.val() & !(self.ones.val() << self.diff.val())) != self.zero52.val() {
                self.sh.next = (self.sm.val() >> self.diff.val()) | self.one52.val();
            }
        }
        self.sum.next = self.bm.val() + self.sh.val();
        self.sign.next = self.bs.val();
        if self.bs.val() != self.ss.val() {
            self.sum.next = self.bm.val() - self.sh.val();
            if self.sh.val() > self.bm.val() {
                self.sum.next = self.sh.val() - self.bm.val();
                self.sign.next = self.ss.val();
            }
            if self.sh.val() == self.bm.val() {
                self.sign.next = false;
            }
        }
        self.round.sign.next = self.sign.val();
        self.round.exp.next = self.be.val() + self.one12.val();
        self.round.mant.next = self.sum.val();
        self.d.next = self.round.bits.val();
    }
}
