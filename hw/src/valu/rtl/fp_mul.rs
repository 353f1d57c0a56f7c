//! The fp32 product of a lane: `v_mul_f32`'s rounded result, and the exact product
//! normalized for the fused multiply-add.

use super::fp_round::FpRound;
use crate::hdl::k;
use rust_hdl::prelude::*;

/// Combinational `a · b` from the 48-bit product of the significands, which the lane's
/// integer multiplier computes (`prod`). `d` is the product rounded (a NaN operand quieted,
/// `a`'s first; `0 · ∞` the default NaN; `∞` signed). `sign`/`exp`/`mant` are the exact
/// product with its leading one moved to bit 47 (`exp` the biased exponent of that bit,
/// possibly below 1), `inf` says an operand is infinite, `bad` that the product is `0 · ∞`.
#[derive(LogicBlock)]
pub struct FpMul {
    /// First operand (fp32 bits, source modifiers applied).
    pub a: Signal<In, Bits<32>>,
    /// Second operand.
    pub b: Signal<In, Bits<32>>,
    /// The product of the significands (hidden bit included), from the lane's multiplier.
    pub prod: Signal<In, Bits<48>>,
    /// `v_mul_f32`'s result.
    pub d: Signal<Out, Bits<32>>,
    /// The product's sign.
    pub sign: Signal<Out, Bit>,
    /// The biased exponent of `mant`'s bit 47, two's complement.
    pub exp: Signal<Out, Bits<12>>,
    /// The exact product, normalized (0 when it is 0).
    pub mant: Signal<Out, Bits<48>>,
    /// An operand is infinite.
    pub inf: Signal<Out, Bit>,
    /// The product is `0 · ∞`.
    pub bad: Signal<Out, Bit>,
    /// The rounding of the product.
    round: FpRound,
    /// The exponent fields, at least 1.
    ea: Signal<Local, Bits<12>>,
    /// `b`'s.
    eb: Signal<Local, Bits<12>>,
    /// The biased exponent of the product's bit 47 before normalization.
    ep: Signal<Local, Bits<12>>,
    /// Leading zeros of the product.
    lz: Signal<Local, Bits<12>>,
    /// `a` is a NaN.
    nan_a: Signal<Local, Bit>,
    /// `b` is a NaN.
    nan_b: Signal<Local, Bit>,
    /// An operand is a zero.
    zero: Signal<Local, Bit>,
    /// The result.
    r: Signal<Local, Bits<32>>,
    /// Leading-zero counts: `lzk[i]` = 47 − i.
    lzk: [Constant<Bits<12>>; 48],
    /// 126.
    bias: Constant<Bits<12>>,
    /// 1.
    one: Constant<Bits<12>>,
    /// The quiet bit.
    quiet: Constant<Bits<32>>,
    /// The default NaN.
    dnan: Constant<Bits<32>>,
    /// +∞.
    inf32: Constant<Bits<32>>,
    /// The magnitude mask.
    magm: Constant<Bits<32>>,
    /// The sign bit.
    sbit: Constant<Bits<32>>,
    /// 0.
    zero32: Constant<Bits<32>>,
    /// 0.
    zero8: Constant<Bits<8>>,
}

impl Default for FpMul {
    fn default() -> Self {
        Self {
            a: Default::default(),
            b: Default::default(),
            prod: Default::default(),
            d: Default::default(),
            sign: Default::default(),
            exp: Default::default(),
            mant: Default::default(),
            inf: Default::default(),
            bad: Default::default(),
            round: Default::default(),
            ea: Default::default(),
            eb: Default::default(),
            ep: Default::default(),
            lz: Default::default(),
            nan_a: Default::default(),
            nan_b: Default::default(),
            zero: Default::default(),
            r: Default::default(),
            lzk: array_init::array_init(|i| k(47 - i as u64)),
            bias: k(126),
            one: k(1),
            quiet: k(0x0040_0000),
            dnan: k(0xFFC0_0000),
            inf32: k(0x7F80_0000),
            magm: k(0x7FFF_FFFF),
            sbit: k(0x8000_0000),
            zero32: k(0),
            zero8: k(0),
        }
    }
}

impl Logic for FpMul {
    #[hdl_gen]
    fn update(&mut self) {
        self.ea.next = bit_cast::<12, 8>(self.a.val().get_bits::<8>(23));
        if self.a.val().get_bits::<8>(23) == self.zero8.val() {
            self.ea.next = self.one.val();
        }
        self.eb.next = bit_cast::<12, 8>(self.b.val().get_bits::<8>(23));
        if self.b.val().get_bits::<8>(23) == self.zero8.val() {
            self.eb.next = self.one.val();
        }
        self.ep.next = self.ea.val() + self.eb.val() - self.bias.val();
        self.round.sign.next = self.a.val().get_bit(31) ^ self.b.val().get_bit(31);
        self.round.exp.next = self.ep.val();
        self.round.mant.next = bit_cast::<52, 48>(self.prod.val()) << 4;
        self.lz.next = self.lzk[0].val();
        for i in 0..48 {
            if self.prod.val().get_bit(i) {
                self.lz.next = self.lzk[i].val();
            }
        }
        self.mant.next = self.prod.val() << self.lz.val();
        self.exp.next = self.ep.val() - self.lz.val();
        self.sign.next = self.a.val().get_bit(31) ^ self.b.val().get_bit(31);
        self.nan_a.next = (self.a.val() & self.magm.val()) > self.inf32.val();
        self.nan_b.next = (self.b.val() & self.magm.val()) > self.inf32.val();
        self.zero.next = ((self.a.val() & self.magm.val()) == self.zero32.val())
            | ((self.b.val() & self.magm.val()) == self.zero32.val());
        self.inf.next = ((self.a.val() & self.magm.val()) == self.inf32.val())
            | ((self.b.val() & self.magm.val()) == self.inf32.val());
        self.bad.next = self.zero.val()
            & (((self.a.val() & self.magm.val()) == self.inf32.val())
                | ((self.b.val() & self.magm.val()) == self.inf32.val()));
        // The special cases over the rounded product, the last taking precedence.
        self.r.next = self.round.bits.val();
        if self.inf.val() {
            self.r.next = (self.round.bits.val() & self.sbit.val()) | self.inf32.val();
        }
        if self.bad.val() {
            self.r.next = self.dnan.val();
        }
        if self.nan_b.val() {
            self.r.next = self.b.val() | self.quiet.val();
        }
        if self.nan_a.val() {
            self.r.next = self.a.val() | self.quiet.val();
        }
        self.d.next = self.r.val();
    }
}
