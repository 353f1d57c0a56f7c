//! The float-to-integer conversions of a lane (`v_cvt_i32_f32`, `v_cvt_u32_f32`).

use crate::hdl::k;
use rust_hdl::prelude::*;

/// Combinational `a` toward zero as a signed (`is_signed`) or unsigned 32-bit integer,
/// saturated to the type's range (∞ included); a NaN gives 0.
#[derive(LogicBlock)]
pub struct FpToInt {
    /// The operand (fp32 bits, source modifiers applied).
    pub a: Signal<In, Bits<32>>,
    /// Convert to `i32` (else `u32`).
    pub is_signed: Signal<In, Bit>,
    /// The integer.
    pub d: Signal<Out, Bits<32>>,
    /// The exponent field.
    e: Signal<Local, Bits<64>>,
    /// The significand with its hidden bit.
    m: Signal<Local, Bits<64>>,
    /// The magnitude toward zero (past 2^32: `big`).
    mag: Signal<Local, Bits<64>>,
    /// The magnitude is 2^32 or more.
    big: Signal<Local, Bit>,
    /// The result (32 bits: the negations wrap as the integer's do).
    r: Signal<Local, Bits<32>>,
    /// 150: the exponent field of an integer significand.
    e150: Constant<Bits<64>>,
    /// 182: magnitudes of 2^32 and more.
    e182: Constant<Bits<64>>,
    /// 127: magnitudes below 1.
    e127: Constant<Bits<64>>,
    /// `i32::MAX`.
    imax: Constant<Bits<64>>,
    /// 2^31.
    imin: Constant<Bits<64>>,
    /// `u32::MAX`.
    umax: Constant<Bits<64>>,
    /// The hidden bit.
    hidden: Constant<Bits<64>>,
    /// The NaN bound on the magnitude.
    inf: Constant<Bits<32>>,
    /// 0.
    zero: Constant<Bits<64>>,
    /// 0.
    zero32: Constant<Bits<32>>,
}

impl Default for FpToInt {
    fn default() -> Self {
        Self {
            a: Default::default(),
            is_signed: Default::default(),
            d: Default::default(),
            e: Default::default(),
            m: Default::default(),
            mag: Default::default(),
            big: Default::default(),
            r: Default::default(),
            e150: k(150),
            e182: k(182),
            e127: k(127),
            imax: k(0x7FFF_FFFF),
            imin: k(0x8000_0000),
            umax: k(0xFFFF_FFFF),
            hidden: k(1 << 23),
            inf: k(0x7F80_0000),
            zero: k(0),
            zero32: k(0),
        }
    }
}

impl Logic for FpToInt {
    #[hdl_gen]
    fn update(&mut self) {
        self.e.next = bit_cast::<64, 8>(self.a.val().get_bits::<8>(23));
        self.m.next = bit_cast::<64, 23>(self.a.val().get_bits::<23>(0)) | self.hidden.val();
        self.big.next = self.e.val() >= self.e182.val();
        self.mag.next = self.zero.val();
        if (self.e.val() >= self.e127.val()) & (self.e.val() < self.e150.val()) {
            self.mag.next = self.m.val() >> (self.e150.val() - self.e.val());
        }
        if (self.e.val() >= self.e150.val()) & !self.big.val() {
            self.mag.next = self.m.val() << (self.e.val() - self.e150.val());
        }
        // Positive: at most the type's maximum; negative: 0 unsigned, down to −2^31 signed.
        self.r.next = self.mag.val().get_bits::<32>(0);
        if self.big.val() | (self.mag.val() > self.umax.val()) {
            self.r.next = self.umax.val().get_bits::<32>(0);
        }
        if self.is_signed.val() & (self.big.val() | (self.mag.val() > self.imax.val())) {
            self.r.next = self.imax.val().get_bits::<32>(0);
        }
        if self.a.val().get_bit(31) {
            self.r.next = self.zero32.val();
            if self.is_signed.val() {
                self.r.next = self.zero32.val() - self.mag.val().get_bits::<32>(0);
                if self.big.val() | (self.mag.val() > self.imin.val()) {
                    self.r.next = self.imin.val().get_bits::<32>(0);
                }
            }
        }
        if (self.a.val() & !self.imin.val().get_bits::<32>(0)) > self.inf.val() {
            self.r.next = self.zero32.val();
        }
        self.d.next = self.r.val();
    }
}
