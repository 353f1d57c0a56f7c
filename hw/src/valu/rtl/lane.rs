//! One lane of the datapath: the adder, the multiplier, the logic, the shifter, the fp32
//! unit, the 64-bit shifter, adder and compare, and the result mux, combinational.

use super::adder::LaneAdder;
use super::fp_lane::FpLane;
use super::mul::LaneMul;
use crate::hdl::k;
use rust_hdl::prelude::*;

/// One lane: the result and the mask bit of the selected operation on `a` (`src0`) and `b`
/// (`src1`); the select and mode inputs are the decoder's control bits
/// ([`super::control::bit`]). With no select set the result is `a` (`v_mov_b32`). The fp32
/// operations share the multiplier: with `fp` it takes the significands of `a` and `b`; so
/// does `v_mad_u64_u32`, whose 64-bit sum takes the full product. The 64-bit operations read
/// `c` and `d` as the block's table of 64-bit operands says ([`crate::valu`]).
#[derive(LogicBlock)]
pub struct ValuLane {
    /// `src0` of the lane.
    pub a: Signal<In, Bits<32>>,
    /// `src1` of the lane.
    pub b: Signal<In, Bits<32>>,
    /// `src2` of the lane, or the old destination (`v_mac_f32`); a 64-bit operation's third
    /// dword.
    pub c: Signal<In, Bits<32>>,
    /// A 64-bit operation's fourth dword.
    pub d: Signal<In, Bits<32>>,
    /// VOP3 output modifier (fp32 results).
    pub omod: Signal<In, Bits<2>>,
    /// The result is the fp32 unit's.
    pub fp: Signal<In, Bit>,
    /// The fp32 result is the product.
    pub fp_mul: Signal<In, Bit>,
    /// The fp32 result is the minimum.
    pub fp_min: Signal<In, Bit>,
    /// The fp32 result is the maximum.
    pub fp_max: Signal<In, Bit>,
    /// The fp32 adder adds the rounded product and `c`.
    pub fp_mad: Signal<In, Bit>,
    /// The fp32 adder adds the exact product and `c`.
    pub fp_fma: Signal<In, Bit>,
    /// The fp32 adder converts `a` from an integer.
    pub fp_int: Signal<In, Bit>,
    /// The result is `a` converted to an integer.
    pub fp_toint: Signal<In, Bit>,
    /// The mask bit is the fp32 compare.
    pub fp_cmp: Signal<In, Bit>,
    /// The compare holds when unordered.
    pub cmp_un: Signal<In, Bit>,
    /// The lane's bit of the mask source (carry in, `v_cndmask_b32`'s select).
    pub src_bit: Signal<In, Bit>,
    /// Swap the adder's operands.
    pub swap: Signal<In, Bit>,
    /// The adder subtracts.
    pub sub: Signal<In, Bit>,
    /// The adder takes `src_bit` as carry / borrow in.
    pub use_cin: Signal<In, Bit>,
    /// Saturate the adder (all ones on carry, 0 on borrow) and `v_mul_u32_u24`; clamp an
    /// fp32 result to \[0, 1\].
    pub clamp: Signal<In, Bit>,
    /// Compares, min/max and the right shift are signed.
    pub is_signed: Signal<In, Bit>,
    /// The multiplier's operands are cut to 24 bits.
    pub u24: Signal<In, Bit>,
    /// The result is the adder's.
    pub sel_add: Signal<In, Bit>,
    /// The result is `!a`.
    pub sel_not: Signal<In, Bit>,
    /// The result is `src_bit ? b : a`.
    pub sel_cnd: Signal<In, Bit>,
    /// The result is `a & b`.
    pub sel_and: Signal<In, Bit>,
    /// The result is `a | b`.
    pub sel_or: Signal<In, Bit>,
    /// The result is `a ^ b`.
    pub sel_xor: Signal<In, Bit>,
    /// The result is `b << a[4:0]`.
    pub sel_shl: Signal<In, Bit>,
    /// The result is `b >> a[4:0]`.
    pub sel_shr: Signal<In, Bit>,
    /// The result is the minimum.
    pub sel_min: Signal<In, Bit>,
    /// The result is the maximum.
    pub sel_max: Signal<In, Bit>,
    /// The result is `a >> b[4:0]` cut to its `c[4:0]` low bits.
    pub sel_bfe: Signal<In, Bit>,
    /// The result is the product's low half.
    pub sel_lo: Signal<In, Bit>,
    /// The result is the product's high half.
    pub sel_hi: Signal<In, Bit>,
    /// The compare holds when `a < b`.
    pub cmp_lt: Signal<In, Bit>,
    /// The compare holds when `a == b`.
    pub cmp_eq: Signal<In, Bit>,
    /// The compare holds when `a > b`.
    pub cmp_gt: Signal<In, Bit>,
    /// `flag` is the compare (else the carry / borrow).
    pub flag_cmp: Signal<In, Bit>,
    /// The compare is the 64-bit one of (`a`, `c`) and (`b`, `d`).
    pub wide: Signal<In, Bit>,
    /// The result is (`b`, `d`) `<< a[5:0]`.
    pub sel_shl64: Signal<In, Bit>,
    /// The result is `a · b` + (`c`, `d`); the mask bit its carry out.
    pub sel_mad64: Signal<In, Bit>,
    /// The result (a 64-bit result's low dword).
    pub res: Signal<Out, Bits<32>>,
    /// A 64-bit result's high dword (0 for the others).
    pub res_hi: Signal<Out, Bits<32>>,
    /// The mask bit: the compare, or the carry / borrow out.
    pub flag: Signal<Out, Bit>,
    /// The adder.
    add: LaneAdder,
    /// The multiplier.
    mul: LaneMul,
    /// The fp32 unit.
    fpu: FpLane,
    /// The fp32 compare holds.
    fcmp: Signal<Local, Bit>,
    /// The shift amount `a[4:0]` (`b[4:0]` for a bit field).
    amount: Signal<Local, Bits<32>>,
    /// `shifted >> amount`, sign-filled when signed.
    right: Signal<Local, Bits<32>>,
    /// The shifter's input.
    shifted: Signal<Local, Bits<32>>,
    /// The compare holds.
    cmp: Signal<Local, Bit>,
    /// The mask bit (outputs are assigned once: see [`super`]).
    mask_bit: Signal<Local, Bit>,
    /// The result.
    r: Signal<Local, Bits<32>>,
    /// The result's high dword.
    r_hi: Signal<Local, Bits<32>>,
    /// `a < b` of the compare (32 or 64 bits).
    lt: Signal<Local, Bit>,
    /// `a == b` of the compare.
    eq: Signal<Local, Bit>,
    /// (`a`, `c`), its sign bit flipped for a signed compare.
    wa: Signal<Local, Bits<64>>,
    /// (`b`, `d`), likewise.
    wb: Signal<Local, Bits<64>>,
    /// (`b`, `d`).
    bd: Signal<Local, Bits<64>>,
    /// (`c`, `d`).
    cd: Signal<Local, Bits<64>>,
    /// The sign bit for a signed 64-bit compare, else 0.
    flip64: Signal<Local, Bits<64>>,
    /// (`b`, `d`) `<< a[5:0]`.
    shl64: Signal<Local, Bits<64>>,
    /// The 64-bit product plus (`c`, `d`), wrapped.
    sum64: Signal<Local, Bits<64>>,
    /// Its carry out of bit 63.
    carry64: Signal<Local, Bit>,
    /// The sign bit of a 64-bit value.
    sign64: Constant<Bits<64>>,
    /// `0x3F`.
    low6: Constant<Bits<64>>,
    /// 0.
    zero64: Constant<Bits<64>>,
    /// `0xFF_FFFF`.
    low24: Constant<Bits<32>>,
    /// `0x7F_FFFF`: an fp32 significand field.
    frac: Constant<Bits<32>>,
    /// The hidden bit.
    hidden: Constant<Bits<32>>,
    /// 0.
    zero8: Constant<Bits<8>>,
    /// `0x1F`.
    low5: Constant<Bits<32>>,
    /// All ones.
    ones: Constant<Bits<32>>,
    /// 0.
    zero: Constant<Bits<32>>,
}

impl Default for ValuLane {
    fn default() -> Self {
        Self {
            a: Default::default(),
            b: Default::default(),
            c: Default::default(),
            d: Default::default(),
            omod: Default::default(),
            fp: Default::default(),
            fp_mul: Default::default(),
            fp_min: Default::default(),
            fp_max: Default::default(),
            fp_mad: Default::default(),
            fp_fma: Default::default(),
            fp_int: Default::default(),
            fp_toint: Default::default(),
            fp_cmp: Default::default(),
            cmp_un: Default::default(),
            src_bit: Default::default(),
            swap: Default::default(),
            sub: Default::default(),
            use_cin: Default::default(),
            clamp: Default::default(),
            is_signed: Default::default(),
            u24: Default::default(),
            sel_add: Default::default(),
            sel_not: Default::default(),
            sel_cnd: Default::default(),
            sel_and: Default::default(),
            sel_or: Default::default(),
            sel_xor: Default::default(),
            sel_shl: Default::default(),
            sel_shr: Default::default(),
            sel_min: Default::default(),
            sel_max: Default::default(),
            sel_bfe: Default::default(),
            sel_lo: Default::default(),
            sel_hi: Default::default(),
            cmp_lt: Default::default(),
            cmp_eq: Default::default(),
            cmp_gt: Default::default(),
            flag_cmp: Default::default(),
            wide: Default::default(),
            sel_shl64: Default::default(),
            sel_mad64: Default::default(),
            res: Default::default(),
            res_hi: Default::default(),
            flag: Default::default(),
            add: Default::default(),
            mul: Default::default(),
            fpu: Default::default(),
            fcmp: Default::default(),
            amount: Default::default(),
            right: Default::default(),
            shifted: Default::default(),
            cmp: Default::default(),
            mask_bit: Default::default(),
            r: Default::default(),
            r_hi: Default::default(),
            lt: Default::default(),
            eq: Default::default(),
            wa: Default::default(),
            wb: Default::default(),
            bd: Default::default(),
            cd: Default::default(),
            flip64: Default::default(),
            shl64: Default::default(),
            sum64: Default::default(),
            carry64: Default::default(),
            sign64: k(1 << 63),
            low6: k(0x3F),
            zero64: k(0),
            low24: k(0xFF_FFFF),
            frac: k(0x7F_FFFF),
            hidden: k(1 << 23),
            zero8: k(0),
            low5: k(0x1F),
            ones: k(0xFFFF_FFFF),
            zero: k(0),
        }
    }
}

impl Logic for ValuLane {
    #[hdl_gen]
    fn update(&mut self) {
        self.add.a.next = self.a.val();
        self.add.b.next = self.b.val();
        self.add.swap.next = self.swap.val();
        self.add.sub.next = self.sub.val();
        self.add.cin.next = self.use_cin.val() & self.src_bit.val();
        self.add.is_signed.next = self.is_signed.val();
        self.mul.a.next = self.a.val();
        self.mul.b.next = self.b.val();
        if self.u24.val() {
            self.mul.a.next = self.a.val() & self.low24.val();
            self.mul.b.next = self.b.val() & self.low24.val();
        }
        if self.fp.val() {
            self.mul.a.next = self.a.val() & self.frac.val();
            if self.a.val().get_bits::<8>(23) != self.zero8.val() {
                self.mul.a.next = (self.a.val() & self.frac.val()) | self.hidden.val();
            }
            self.mul.b.next = self.b.val() & self.frac.val();
            if self.b.val().get_bits::<8>(23) != self.zero8.val() {
                self.mul.b.next = (self.b.val() & self.frac.val()) | self.hidden.val();
            }
        }
        self.fpu.a.next = self.a.val();
        self.fpu.b.next = self.b.val();
        self.fpu.c.next = self.c.val();
        self.fpu.prod.next =
            bit_cast::<48, 32>(self.mul.lo.val()) | (bit_cast::<48, 32>(self.mul.hi.val()) << 32);
        self.fpu.sub.next = self.sub.val();
        self.fpu.swap.next = self.swap.val();
        self.fpu.mad.next = self.fp_mad.val();
        self.fpu.fma.next = self.fp_fma.val();
        self.fpu.from_int.next = self.fp_int.val();
        self.fpu.is_signed.next = self.is_signed.val();
        self.fpu.mul.next = self.fp_mul.val();
        self.fpu.min.next = self.fp_min.val();
        self.fpu.max.next = self.fp_max.val();
        self.fpu.to_int.next = self.fp_toint.val();
        self.fpu.omod.next = self.omod.val();
        self.fpu.clamp.next = self.clamp.val();
        // The shifter shifts `b` by `a[4:0]`, or for a bit field `a` by `b[4:0]`.
        self.amount.next = self.a.val() & self.low5.val();
        self.shifted.next = self.b.val();
        if self.sel_bfe.val() {
            self.amount.next = self.b.val() & self.low5.val();
            self.shifted.next = self.a.val();
        }
        self.right.next = self.shifted.val() >> self.amount.val();
        if self.is_signed.val() & self.b.val().get_bit(31) {
            self.right.next =
                (self.b.val() >> self.amount.val()) | !(self.ones.val() >> self.amount.val());
        }
        // The 64-bit datapath: the pairs, the shift, the product plus the pair, the compare.
        self.flip64.next = self.zero64.val();
        if self.is_signed.val() {
            self.flip64.next = self.sign64.val();
        }
        self.bd.next = bit_cast::<64, 32>(self.b.val()) | (bit_cast::<64, 32>(self.d.val()) << 32);
        self.cd.next = bit_cast::<64, 32>(self.c.val()) | (bit_cast::<64, 32>(self.d.val()) << 32);
        self.wa.next = (bit_cast::<64, 32>(self.a.val())
            | (bit_cast::<64, 32>(self.c.val()) << 32))
            ^ self.flip64.val();
        self.wb.next = self.bd.val() ^ self.flip64.val();
        self.shl64.next = self.bd.val() << (bit_cast::<64, 32>(self.a.val()) & self.low6.val());
        self.sum64.next = (bit_cast::<64, 32>(self.mul.lo.val())
            | (bit_cast::<64, 32>(self.mul.hi.val()) << 32))
            + self.cd.val();
        // The sum wrapped (carried out of bit 63) when it is below an addend.
        self.carry64.next = self.sum64.val() < self.cd.val();
        self.lt.next = self.add.lt.val();
        self.eq.next = self.add.eq.val();
        if self.wide.val() {
            self.lt.next = self.wa.val() < self.wb.val();
            self.eq.next = self.wa.val() == self.wb.val();
        }
        self.cmp.next = (self.cmp_lt.val() & self.lt.val())
            | (self.cmp_eq.val() & self.eq.val())
            | (self.cmp_gt.val() & !self.lt.val() & !self.eq.val());
        self.fcmp.next = (self.cmp_lt.val() & self.fpu.lt.val())
            | (self.cmp_eq.val() & self.fpu.eq.val())
            | (self.cmp_gt.val() & self.fpu.gt.val())
            | (self.cmp_un.val() & self.fpu.un.val());
        self.mask_bit.next = self.add.carry.val();
        if self.flag_cmp.val() {
            self.mask_bit.next = self.cmp.val();
        }
        if self.fp_cmp.val() {
            self.mask_bit.next = self.fcmp.val();
        }
        if self.sel_mad64.val() {
            self.mask_bit.next = self.carry64.val();
        }
        self.flag.next = self.mask_bit.val();
        // The result mux (the selects are one-hot; none: `a`).
        self.r.next = self.a.val();
        if self.sel_not.val() {
            self.r.next = !self.a.val();
        }
        if (self.sel_cnd.val() & self.src_bit.val())
            | (self.sel_min.val() & !self.add.lt.val())
            | (self.sel_max.val() & self.add.lt.val())
        {
            self.r.next = self.b.val();
        }
        if self.sel_add.val() {
            self.r.next = self.add.sum.val();
            if self.clamp.val() & self.add.carry.val() {
                self.r.next = self.zero.val();
                if !self.sub.val() {
                    self.r.next = self.ones.val();
                }
            }
        }
        if self.sel_and.val() {
            self.r.next = self.a.val() & self.b.val();
        }
        if self.sel_or.val() {
            self.r.next = self.a.val() | self.b.val();
        }
        if self.sel_xor.val() {
            self.r.next = self.a.val() ^ self.b.val();
        }
        if self.sel_bfe.val() {
            self.r.next = self.right.val() & !(self.ones.val() << (self.c.val() & self.low5.val()));
        }
        if self.sel_shl.val() {
            self.r.next = self.b.val() << self.amount.val();
        }
        if self.sel_shr.val() {
            self.r.next = self.right.val();
        }
        if self.sel_lo.val() {
            self.r.next = self.mul.lo.val();
            if self.u24.val() & self.clamp.val() & (self.mul.hi.val() != self.zero.val()) {
                self.r.next = self.ones.val();
            }
        }
        if self.sel_hi.val() {
            self.r.next = self.mul.hi.val();
        }
        if self.fp.val() {
            self.r.next = self.fpu.d.val();
        }
        self.r_hi.next = self.zero.val();
        if self.sel_shl64.val() {
            self.r.next = self.shl64.val().get_bits::<32>(0);
            self.r_hi.next = self.shl64.val().get_bits::<32>(32);
        }
        if self.sel_mad64.val() {
            self.r.next = self.sum64.val().get_bits::<32>(0);
            self.r_hi.next = self.sum64.val().get_bits::<32>(32);
            if self.clamp.val() & self.carry64.val() {
                self.r.next = self.ones.val();
                self.r_hi.next = self.ones.val();
            }
        }
        self.res.next = self.r.val();
        self.res_hi.next = self.r_hi.val();
    }
}
