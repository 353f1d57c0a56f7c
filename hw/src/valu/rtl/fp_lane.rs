//! The fp32 part of a lane: the operands of the adder, the special values (NaN, ∞, invalid
//! operations) around it, the result select and the output modifiers.

use super::fp_add::FpAdd;
use super::fp_cmp::FpCmp;
use super::fp_cvt::FpToInt;
use super::fp_mul::FpMul;
use super::fp_out::FpOut;
use crate::hdl::k;
use rust_hdl::prelude::*;

/// Combinational fp32 operations of one lane (the contract's "fp32" policy): `x + z`
/// through [`FpAdd`] for `v_add_f32` (`x` = `a`, `z` = `b`), `v_sub_f32` (`z` negated),
/// `v_subrev_f32` (`swap`: `x` = `b`, `z` = −`a`), `v_mac/mad_f32` (`mad`: `x` = the
/// rounded product, `z` = `c`), `v_fma_f32` (`fma`: `x` = the exact product) and
/// `v_cvt_f32_{i32,u32}` (`from_int`: `x` = the integer, `z` = 0); `v_mul_f32` from
/// [`FpMul`], `v_min/max_f32` and the compare flags from [`FpCmp`], `v_cvt_{i32,u32}_f32`
/// from [`FpToInt`]. A NaN operand gives the first NaN in the operation's order, quieted
/// (`a`, `b`, `c`; `b` first for `v_subrev_f32`, the product first for `v_mad_f32`); an
/// invalid operation the default NaN `0xFFC00000`. The output modifiers ([`FpOut`]) apply
/// to every result but the integer conversions'.
#[derive(LogicBlock)]
pub struct FpLane {
    /// `src0` (source modifiers applied).
    pub a: Signal<In, Bits<32>>,
    /// `src1`.
    pub b: Signal<In, Bits<32>>,
    /// `src2`, or the old destination of `v_mac_f32`.
    pub c: Signal<In, Bits<32>>,
    /// The product of `a`'s and `b`'s significands, from the lane's multiplier.
    pub prod: Signal<In, Bits<48>>,
    /// Negate `z` (`v_sub_f32`, `v_subrev_f32`).
    pub sub: Signal<In, Bit>,
    /// `x` = `b`, `z` = `a` (`v_subrev_f32`).
    pub swap: Signal<In, Bit>,
    /// `x` = the rounded product, `z` = `c`.
    pub mad: Signal<In, Bit>,
    /// `x` = the exact product, `z` = `c`.
    pub fma: Signal<In, Bit>,
    /// `x` = `a` as an integer, `z` = 0.
    pub from_int: Signal<In, Bit>,
    /// The integer conversions are signed.
    pub is_signed: Signal<In, Bit>,
    /// The result is `v_mul_f32`'s.
    pub mul: Signal<In, Bit>,
    /// The result is the minimum.
    pub min: Signal<In, Bit>,
    /// The result is the maximum.
    pub max: Signal<In, Bit>,
    /// The result is `a` converted to an integer (no output modifiers).
    pub to_int: Signal<In, Bit>,
    /// VOP3 output modifier.
    pub omod: Signal<In, Bits<2>>,
    /// VOP3 clamp.
    pub clamp: Signal<In, Bit>,
    /// The result.
    pub d: Signal<Out, Bits<32>>,
    /// `a < b`.
    pub lt: Signal<Out, Bit>,
    /// `a == b`.
    pub eq: Signal<Out, Bit>,
    /// `a > b`.
    pub gt: Signal<Out, Bit>,
    /// `a` or `b` is a NaN.
    pub un: Signal<Out, Bit>,
    /// The product.
    fmul: FpMul,
    /// The adder.
    fadd: FpAdd,
    /// The comparison.
    fcmp: FpCmp,
    /// The conversion to an integer.
    fcvt: FpToInt,
    /// The output modifiers.
    fout: FpOut,
    /// `x` as fp32 bits (for the special values).
    xr: Signal<Local, Bits<32>>,
    /// `z` as fp32 bits, not negated.
    zr: Signal<Local, Bits<32>>,
    /// The NaN candidates in order.
    n1: Signal<Local, Bits<32>>,
    /// The second.
    n2: Signal<Local, Bits<32>>,
    /// The third.
    n3: Signal<Local, Bits<32>>,
    /// `x`'s sign.
    xs: Signal<Local, Bit>,
    /// `z`'s sign (negated for the subtractions).
    zs: Signal<Local, Bit>,
    /// `x` is infinite.
    x_inf: Signal<Local, Bit>,
    /// `z` is infinite.
    z_inf: Signal<Local, Bit>,
    /// `|a|` as an integer.
    ia: Signal<Local, Bits<32>>,
    /// The adder family's result.
    ra: Signal<Local, Bits<32>>,
    /// The result before the output modifiers.
    r: Signal<Local, Bits<32>>,
    /// The result (outputs are assigned once: see [`super`]).
    res: Signal<Local, Bits<32>>,
    /// The magnitude mask.
    magm: Constant<Bits<32>>,
    /// +∞.
    inf: Constant<Bits<32>>,
    /// The sign bit.
    sbit: Constant<Bits<32>>,
    /// The quiet bit.
    quiet: Constant<Bits<32>>,
    /// The default NaN.
    dnan: Constant<Bits<32>>,
    /// 0.
    zero: Constant<Bits<32>>,
    /// 0.
    zero8: Constant<Bits<8>>,
    /// 1.
    one12: Constant<Bits<12>>,
    /// The hidden bit at significand bit 47.
    hid: Constant<Bits<48>>,
    /// 158: the exponent of an integer's bit 31 at significand bit 47.
    e158: Constant<Bits<12>>,
}

impl Default for FpLane {
    fn default() -> Self {
        Self {
            a: Default::default(),
            b: Default::default(),
            c: Default::default(),
            prod: Default::default(),
            sub: Default::default(),
            swap: Default::default(),
            mad: Default::default(),
            fma: Default::default(),
            from_int: Default::default(),
            is_signed: Default::default(),
            mul: Default::default(),
            min: Default::default(),
            max: Default::default(),
            to_int: Default::default(),
            omod: Default::default(),
            clamp: Default::default(),
            d: Default::default(),
            lt: Default::default(),
            eq: Default::default(),
            gt: Default::default(),
            un: Default::default(),
            fmul: Default::default(),
            fadd: Default::default(),
            fcmp: Default::default(),
            fcvt: Default::default(),
            fout: Default::default(),
            xr: Default::default(),
            zr: Default::default(),
            n1: Default::default(),
            n2: Default::default(),
            n3: Default::default(),
            xs: Default::default(),
            zs: Default::default(),
            x_inf: Default::default(),
            z_inf: Default::default(),
            ia: Default::default(),
            ra: Default::default(),
            r: Default::default(),
            res: Default::default(),
            magm: k(0x7FFF_FFFF),
            inf: k(0x7F80_0000),
            sbit: k(0x8000_0000),
            quiet: k(0x0040_0000),
            dnan: k(0xFFC0_0000),
            zero: k(0),
            zero8: k(0),
            one12: k(1),
            hid: k(1 << 47),
            e158: k(158),
        }
    }
}

impl Logic for FpLane {
    #[hdl_gen]
    fn update(&mut self) {
        self.fmul.a.next = self.a.val();
        self.fmul.b.next = self.b.val();
        self.fmul.prod.next = self.prod.val();
        self.fcmp.a.next = self.a.val();
        self.fcmp.b.next = self.b.val();
        self.fcvt.a.next = self.a.val();
        self.fcvt.is_signed.next = self.is_signed.val();
        // The adder's operands as fp32 bits.
        self.xr.next = self.a.val();
        self.zr.next = self.b.val();
        if self.swap.val() {
            self.xr.next = self.b.val();
            self.zr.next = self.a.val();
        }
        if self.mad.val() {
            self.xr.next = self.fmul.d.val();
        }
        if self.mad.val() | self.fma.val() {
            self.zr.next = self.c.val();
        }
        self.xs.next = self.xr.val().get_bit(31);
        self.zs.next = self.zr.val().get_bit(31) ^ self.sub.val();
        self.fadd.xe.next = bit_cast::<12, 8>(self.xr.val().get_bits::<8>(23));
        if self.xr.val().get_bits::<8>(23) == self.zero8.val() {
            self.fadd.xe.next = self.one12.val();
        }
        self.fadd.xm.next = bit_cast::<48, 23>(self.xr.val().get_bits::<23>(0)) << 24;
        if self.xr.val().get_bits::<8>(23) != self.zero8.val() {
            self.fadd.xm.next =
                (bit_cast::<48, 23>(self.xr.val().get_bits::<23>(0)) << 24) | self.hid.val();
        }
        self.fadd.ze.next = bit_cast::<12, 8>(self.zr.val().get_bits::<8>(23));
        if self.zr.val().get_bits::<8>(23) == self.zero8.val() {
            self.fadd.ze.next = self.one12.val();
        }
        self.fadd.zm.next = bit_cast::<48, 23>(self.zr.val().get_bits::<23>(0)) << 24;
        if self.zr.val().get_bits::<8>(23) != self.zero8.val() {
            self.fadd.zm.next =
                (bit_cast::<48, 23>(self.zr.val().get_bits::<23>(0)) << 24) | self.hid.val();
        }
        self.x_inf.next = (self.xr.val() & self.magm.val()) == self.inf.val();
        self.z_inf.next = (self.zr.val() & self.magm.val()) == self.inf.val();
        if self.fma.val() {
            self.xs.next = self.fmul.sign.val();
            self.fadd.xe.next = self.fmul.exp.val();
            self.fadd.xm.next = self.fmul.mant.val();
            self.x_inf.next = self.fmul.inf.val();
        }
        self.ia.next = self.a.val();
        if self.is_signed.val() & self.a.val().get_bit(31) {
            self.ia.next = self.zero.val() - self.a.val();
        }
        if self.from_int.val() {
            self.xs.next = self.is_signed.val() & self.a.val().get_bit(31);
            self.fadd.xe.next = self.e158.val();
            self.fadd.xm.next = bit_cast::<48, 32>(self.ia.val()) << 16;
            self.fadd.zm.next = bit_cast::<48, 32>(self.zero.val());
            self.x_inf.next = false;
            self.z_inf.next = false;
        }
        self.fadd.xs.next = self.xs.val();
        self.fadd.zs.next = self.zs.val();
        // The special values over the sum, the last taking precedence.
        self.n1.next = self.xr.val();
        self.n2.next = self.zr.val();
        self.n3.next = self.zero.val();
        if self.fma.val() {
            self.n1.next = self.a.val();
            self.n2.next = self.b.val();
            self.n3.next = self.c.val();
        }
        self.ra.next = self.fadd.d.val();
        if self.z_inf.val() {
            self.ra.next = self.inf.val();
            if self.zs.val() {
                self.ra.next = self.inf.val() | self.sbit.val();
            }
        }
        if self.x_inf.val() {
            self.ra.next = self.inf.val();
            if self.xs.val() {
                self.ra.next = self.inf.val() | self.sbit.val();
            }
        }
        if (self.x_inf.val() & self.z_inf.val() & (self.xs.val() != self.zs.val()))
            | (self.fma.val() & self.fmul.bad.val())
        {
            self.ra.next = self.dnan.val();
        }
        if !self.from_int.val() {
            if (self.n3.val() & self.magm.val()) > self.inf.val() {
                self.ra.next = self.n3.val() | self.quiet.val();
            }
            if (self.n2.val() & self.magm.val()) > self.inf.val() {
                self.ra.next = self.n2.val() | self.quiet.val();
            }
            if (self.n1.val() & self.magm.val()) > self.inf.val() {
                self.ra.next = self.n1.val() | self.quiet.val();
            }
        }
        self.r.next = self.ra.val();
        if self.mul.val() {
            self.r.next = self.fmul.d.val();
        }
        if self.min.val() {
            self.r.next = self.fcmp.lo.val();
        }
        if self.max.val() {
            self.r.next = self.fcmp.hi.val();
        }
        self.fout.x.next = self.r.val();
        self.fout.omod.next = self.omod.val();
        self.fout.clamp.next = self.clamp.val();
        self.res.next = self.fout.d.val();
        if self.to_int.val() {
            self.res.next = self.fcvt.d.val();
        }
        self.d.next = self.res.val();
        self.lt.next = self.fcmp.lt.val();
        self.eq.next = self.fcmp.eq.val();
        self.gt.next = self.fcmp.gt.val();
        self.un.next = self.fcmp.un.val();
    }
}
