//! Rounding and packing of an fp32 result: normalization, round to nearest even, denormals
//! and overflow to infinity.

use crate::hdl::k;
use rust_hdl::prelude::*;

/// Combinational: the fp32 bits of `(-1)^sign · mant/2^51 · 2^(exp−127)`, rounded to nearest
/// even. `mant` may have leading zeros; bit 0 may be a sticky bit (any lower part nonzero).
/// The result keeps 24 bits from the leading one, but none below `2^-149` (a denormal, its
/// field 0), and is ±∞ past the largest finite value; a zero `mant` gives a zero of `sign`.
///
/// One code for both ranges: with `eu` the exponent field used (at least 1) and `q` the 24
/// rounded bits, `(eu − 1)·2^23 + q` is the packed magnitude, denormals (`eu` = 1, `q` <
/// 2^23) included, and a carry out of the rounding moves into the exponent by itself.
#[derive(LogicBlock)]
pub struct FpRound {
    /// Sign of the value.
    pub sign: Signal<In, Bit>,
    /// Biased exponent of `mant`'s bit 51, two's complement.
    pub exp: Signal<In, Bits<12>>,
    /// The significand, binary point after bit 51.
    pub mant: Signal<In, Bits<52>>,
    /// The rounded fp32 bits.
    pub bits: Signal<Out, Bits<32>>,
    /// Leading zeros of `mant`.
    lz: Signal<Local, Bits<12>>,
    /// `exp − 1`: the largest left shift that keeps the exponent field at least 1.
    lim: Signal<Local, Bits<12>>,
    /// `lim − lz`.
    room: Signal<Local, Bits<12>>,
    /// `1 − exp`: the right shift into the denormal range.
    rshift: Signal<Local, Bits<12>>,
    /// The left shift.
    lsh: Signal<Local, Bits<12>>,
    /// `mant` shifted: the leading one at bit 51, or the denormal's bits in place.
    norm: Signal<Local, Bits<52>>,
    /// A bit shifted out to the right was set.
    lost: Signal<Local, Bit>,
    /// The exponent field used.
    eu: Signal<Local, Bits<12>>,
    /// `eu − 1`, the exponent field of the packed code (12 bits, then zero-extended: casting
    /// the difference itself would make Verilog subtract at the cast's 40 bits).
    em1: Signal<Local, Bits<12>>,
    /// Round up.
    up: Signal<Local, Bit>,
    /// The packed magnitude before the overflow check.
    code: Signal<Local, Bits<40>>,
    /// The magnitude.
    mag: Signal<Local, Bits<32>>,
    /// Leading-zero counts: `lzk[i]` = 51 − i.
    lzk: [Constant<Bits<12>>; 52],
    /// 1.
    one12: Constant<Bits<12>>,
    /// 0.
    zero12: Constant<Bits<12>>,
    /// 51.
    top: Constant<Bits<12>>,
    /// 1.
    one40: Constant<Bits<40>>,
    /// +∞'s magnitude.
    inf: Constant<Bits<40>>,
    /// All ones.
    ones: Constant<Bits<52>>,
    /// 0.
    zero52: Constant<Bits<52>>,
    /// 0.
    zero32: Constant<Bits<32>>,
}

impl Default for FpRound {
    fn default() -> Self {
        Self {
            sign: Default::default(),
            exp: Default::default(),
            mant: Default::default(),
            bits: Default::default(),
            lz: Default::default(),
            lim: Default::default(),
            room: Default::default(),
            rshift: Default::default(),
            lsh: Default::default(),
            norm: Default::default(),
            lost: Default::default(),
            eu: Default::default(),
            em1: Default::default(),
            up: Default::default(),
            code: Default::default(),
            mag: Default::default(),
            lzk: array_init::array_init(|i| k(51 - i as u64)),
            one12: k(1),
            zero12: k(0),
            top: k(51),
            one40: k(1),
            inf: k(0x7F80_0000),
            ones: k((1 << 52) - 1),
            zero52: k(0),
            zero32: k(0),
        }
    }
}

impl Logic for FpRound {
    #[hdl_gen]
    fn update(&mut self) {
        // The highest set bit wins: the scan goes up.
        self.lz.next = self.lzk[0].val();
        for i in 0..52 {
            if self.mant.val().get_bit(i) {
                self.lz.next = self.lzk[i].val();
            }
        }
        self.lim.next = self.exp.val() - self.one12.val();
        self.room.next = self.lim.val() - self.lz.val();
        self.rshift.next = self.one12.val() - self.exp.val();
        self.lost.next = false;
        self.eu.next = self.one12.val();
        // A left shift by the leading zeros, or by `lim` (< lz) into the denormal field.
        self.lsh.next = self.zero12.val();
        if !self.lim.val().get_bit(11) {
            self.lsh.next = self.lim.val();
        }
        if !self.room.val().get_bit(11) {
            self.lsh.next = self.lz.val();
            self.eu.next = self.exp.val() - self.lz.val();
        }
        self.norm.next = self.mant.val() << self.lsh.val();
        if self.lim.val().get_bit(11) {
            self.norm.next = self.zero52.val();
            self.lost.next = self.mant.val() != self.zero52.val();
            if self.rshift.val() <= self.top.val() {
                self.norm.next = self.mant.val() >> self.rshift.val();
                self.lost.next = (self.mant.val() & !(self.ones.val() << self.rshift.val()))
                    != self.zero52.val();
            }
        }
        self.up.next = self.norm.val().get_bit(27)
            & (self.norm.val().get_bit(28)
                | self.lost.val()
                | (self.norm.val().get_bits::<27>(0) != self.zero52.val().get_bits::<27>(0)));
        self.em1.next = self.eu.val() - self.one12.val();
        self.code.next = (bit_cast::<40, 12>(self.em1.val()) << 23)
            + bit_cast::<40, 24>(self.norm.val().get_bits::<24>(28));
        if self.up.val() {
            self.code.next = (bit_cast::<40, 12>(self.em1.val()) << 23)
                + bit_cast::<40, 24>(self.norm.val().get_bits::<24>(28))
                + self.one40.val();
        }
        self.mag.next = self.code.val().get_bits::<32>(0);
        if self.code.val() >= self.inf.val() {
            self.mag.next = self.inf.val().get_bits::<32>(0);
        }
        if self.mant.val() == self.zero52.val() {
            self.mag.next = self.zero32.val();
        }
        self.bits.next = self.mag.val();
        if self.sign.val() {
            self.bits.next = self.mag.val() | (self.one40.val().get_bits::<32>(0) << 31);
        }
    }
}
