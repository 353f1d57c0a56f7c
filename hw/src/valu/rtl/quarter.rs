//! The datapath of one cycle: the decode, the VOP3 source modifiers and the 16 lanes of a
//! quarter, with the quarter's write data, mask bits and first active lane.

use super::control::ValuControl;
use super::lane::ValuLane;
use crate::hdl::k;
use crate::valu::QUARTER;
use rust_hdl::prelude::*;

/// The decode of the instruction and one quarter of its lanes, combinational.
#[derive(LogicBlock)]
pub struct ValuQuarter {
    /// Format code.
    pub format: Signal<In, Bits<4>>,
    /// Opcode.
    pub opcode: Signal<In, Bits<10>>,
    /// The `dst` field, bits \[6:0\].
    pub dst: Signal<In, Bits<7>>,
    /// The `sdst` field.
    pub sdst: Signal<In, Bits<7>>,
    /// VOP3 clamp.
    pub clamp: Signal<In, Bit>,
    /// VOP3 output modifier.
    pub omod: Signal<In, Bits<2>>,
    /// VOP3 absolute-value bits (source `k` in bit `k`).
    pub abs: Signal<In, Bits<3>>,
    /// VOP3 negate bits.
    pub neg: Signal<In, Bits<3>>,
    /// The quarter's EXEC bits.
    pub lanes: Signal<In, Bits<16>>,
    /// The quarter's bits of the mask source.
    pub bits: Signal<In, Bits<16>>,
    /// `src0` of the quarter's lanes.
    pub a: [Signal<In, Bits<32>>; QUARTER],
    /// `src1` of the quarter's lanes.
    pub b: [Signal<In, Bits<32>>; QUARTER],
    /// `src2` of the quarter's lanes, or the old destination (`v_mac_f32`).
    pub c: [Signal<In, Bits<32>>; QUARTER],
    /// A 64-bit operation's fourth dword of the quarter's lanes.
    pub d: [Signal<In, Bits<32>>; QUARTER],
    /// The instruction is in the subset.
    pub legal: Signal<Out, Bit>,
    /// It writes its VGPR.
    pub writes_vgpr: Signal<Out, Bit>,
    /// It writes a VGPR pair.
    pub pair: Signal<Out, Bit>,
    /// It writes an SGPR at the end.
    pub sgpr_we: Signal<Out, Bit>,
    /// The SGPR write is a 64-bit mask.
    pub sgpr_wide: Signal<Out, Bit>,
    /// `v_cmpx_*`.
    pub cmpx: Signal<Out, Bit>,
    /// The SGPR code.
    pub sgpr_dst: Signal<Out, Bits<7>>,
    /// The lanes written (`lanes`, or 0 when no VGPR is written).
    pub wlanes: Signal<Out, Bits<16>>,
    /// The results of the lanes written (0 elsewhere).
    pub wdata: [Signal<Out, Bits<32>>; QUARTER],
    /// The high dwords of a pair's lanes written (0 elsewhere and for the other operations).
    pub wdata_hi: [Signal<Out, Bits<32>>; QUARTER],
    /// The mask bits of the active lanes, in bits \[63:48\] (where the top collects them).
    pub flags: Signal<Out, Bits<64>>,
    /// An active lane is in the quarter.
    pub found: Signal<Out, Bit>,
    /// `a` of the lowest active lane (lane 0 when none is).
    pub first: Signal<Out, Bits<32>>,
    /// The decode.
    dec: ValuControl,
    /// The lanes.
    lane: [ValuLane; QUARTER],
    /// `acc[i]`: the mask bits of lanes below `i`.
    acc: [Signal<Local, Bits<64>>; QUARTER + 1],
    /// The write data before the output (outputs are assigned once: see [`super`]).
    wd: [Signal<Local, Bits<32>>; QUARTER],
    /// The high dwords before the output.
    wd_hi: [Signal<Local, Bits<32>>; QUARTER],
    /// The lanes written.
    wl: Signal<Local, Bits<16>>,
    /// The first active lane's `a`.
    pick: Signal<Local, Bits<32>>,
    /// The sign clears (abs) of `a`, `b`, `c`.
    clr: [Signal<Local, Bits<32>>; 3],
    /// The sign flips (neg).
    flip: [Signal<Local, Bits<32>>; 3],
    /// The magnitude mask.
    magm: Constant<Bits<32>>,
    /// All ones.
    ones: Constant<Bits<32>>,
    /// The sign bit.
    sbit: Constant<Bits<32>>,
    /// Lane `i`'s bit, `48 + i`.
    onehot: [Constant<Bits<64>>; QUARTER],
    /// 0.
    zero16: Constant<Bits<16>>,
    /// 0.
    zero32: Constant<Bits<32>>,
    /// 0.
    zero64: Constant<Bits<64>>,
}

impl Default for ValuQuarter {
    fn default() -> Self {
        Self {
            format: Default::default(),
            opcode: Default::default(),
            dst: Default::default(),
            sdst: Default::default(),
            clamp: Default::default(),
            omod: Default::default(),
            abs: Default::default(),
            neg: Default::default(),
            lanes: Default::default(),
            bits: Default::default(),
            a: Default::default(),
            b: Default::default(),
            c: Default::default(),
            d: Default::default(),
            legal: Default::default(),
            writes_vgpr: Default::default(),
            pair: Default::default(),
            sgpr_we: Default::default(),
            sgpr_wide: Default::default(),
            cmpx: Default::default(),
            sgpr_dst: Default::default(),
            wlanes: Default::default(),
            wdata: Default::default(),
            wdata_hi: Default::default(),
            flags: Default::default(),
            found: Default::default(),
            first: Default::default(),
            dec: Default::default(),
            lane: array_init::array_init(|_| Default::default()),
            acc: Default::default(),
            wd: Default::default(),
            wd_hi: Default::default(),
            wl: Default::default(),
            pick: Default::default(),
            clr: Default::default(),
            flip: Default::default(),
            magm: k(0x7FFF_FFFF),
            ones: k(0xFFFF_FFFF),
            sbit: k(0x8000_0000),
            onehot: array_init::array_init(|i| k(1 << (48 + i))),
            zero16: k(0),
            zero32: k(0),
            zero64: k(0),
        }
    }
}

impl Logic for ValuQuarter {
    #[hdl_gen]
    fn update(&mut self) {
        self.dec.format.next = self.format.val();
        self.dec.opcode.next = self.opcode.val();
        self.dec.dst.next = self.dst.val();
        self.dec.sdst.next = self.sdst.val();
        self.acc[0].next = self.zero64.val();
        // Source modifiers as masks: AND with `clr[k]`, XOR with `flip[k]`.
        for s in 0..3 {
            self.clr[s].next = self.ones.val();
            self.flip[s].next = self.zero32.val();
            if self.abs.val().get_bit(s) & self.dec.mods.val() {
                self.clr[s].next = self.magm.val();
            }
            if self.neg.val().get_bit(s) & self.dec.mods.val() {
                self.flip[s].next = self.sbit.val();
            }
        }
        if !self.dec.mods_c.val() {
            self.clr[2].next = self.ones.val();
            self.flip[2].next = self.zero32.val();
        }
        for i in 0..16 {
            self.lane[i].a.next = (self.a[i].val() & self.clr[0].val()) ^ self.flip[0].val();
            self.lane[i].b.next = (self.b[i].val() & self.clr[1].val()) ^ self.flip[1].val();
            self.lane[i].c.next = (self.c[i].val() & self.clr[2].val()) ^ self.flip[2].val();
            self.lane[i].d.next = self.d[i].val();
            self.lane[i].wide.next = self.dec.wide.val();
            self.lane[i].sel_shl64.next = self.dec.sel_shl64.val();
            self.lane[i].sel_mad64.next = self.dec.sel_mad64.val();
            self.lane[i].omod.next = self.omod.val();
            self.lane[i].fp.next = self.dec.fp.val();
            self.lane[i].fp_mul.next = self.dec.fp_mul.val();
            self.lane[i].fp_min.next = self.dec.fp_min.val();
            self.lane[i].fp_max.next = self.dec.fp_max.val();
            self.lane[i].fp_mad.next = self.dec.fp_mad.val();
            self.lane[i].fp_fma.next = self.dec.fp_fma.val();
            self.lane[i].fp_int.next = self.dec.fp_int.val();
            self.lane[i].fp_toint.next = self.dec.fp_toint.val();
            self.lane[i].fp_cmp.next = self.dec.fp_cmp.val();
            self.lane[i].cmp_un.next = self.dec.cmp_un.val();
            self.lane[i].src_bit.next = self.bits.val().get_bit(i);
            self.lane[i].clamp.next = self.clamp.val();
            self.lane[i].swap.next = self.dec.swap.val();
            self.lane[i].sub.next = self.dec.sub.val();
            self.lane[i].use_cin.next = self.dec.use_cin.val();
            self.lane[i].is_signed.next = self.dec.is_signed.val();
            self.lane[i].u24.next = self.dec.u24.val();
            self.lane[i].sel_add.next = self.dec.sel_add.val();
            self.lane[i].sel_not.next = self.dec.sel_not.val();
            self.lane[i].sel_cnd.next = self.dec.sel_cnd.val();
            self.lane[i].sel_and.next = self.dec.sel_and.val();
            self.lane[i].sel_or.next = self.dec.sel_or.val();
            self.lane[i].sel_xor.next = self.dec.sel_xor.val();
            self.lane[i].sel_shl.next = self.dec.sel_shl.val();
            self.lane[i].sel_shr.next = self.dec.sel_shr.val();
            self.lane[i].sel_min.next = self.dec.sel_min.val();
            self.lane[i].sel_max.next = self.dec.sel_max.val();
            self.lane[i].sel_lo.next = self.dec.sel_lo.val();
            self.lane[i].sel_bfe.next = self.dec.sel_bfe.val();
            self.lane[i].sel_hi.next = self.dec.sel_hi.val();
            self.lane[i].cmp_lt.next = self.dec.cmp_lt.val();
            self.lane[i].cmp_eq.next = self.dec.cmp_eq.val();
            self.lane[i].cmp_gt.next = self.dec.cmp_gt.val();
            self.lane[i].flag_cmp.next = self.dec.flag_cmp.val();
            self.wd[i].next = self.zero32.val();
            self.wd_hi[i].next = self.zero32.val();
            if self.lanes.val().get_bit(i) & self.dec.writes_vgpr.val() {
                self.wd[i].next = self.lane[i].res.val();
                self.wd_hi[i].next = self.lane[i].res_hi.val();
            }
            self.wdata[i].next = self.wd[i].val();
            self.wdata_hi[i].next = self.wd_hi[i].val();
            self.acc[i + 1].next = self.acc[i].val();
            if self.lanes.val().get_bit(i) & self.lane[i].flag.val() {
                self.acc[i + 1].next = self.acc[i].val() | self.onehot[i].val();
            }
        }
        self.flags.next = self.acc[16].val();
        self.wl.next = self.zero16.val();
        if self.dec.writes_vgpr.val() {
            self.wl.next = self.lanes.val();
        }
        self.wlanes.next = self.wl.val();
        // The lowest active lane: the last one set, scanning down.
        self.pick.next = self.a[0].val();
        for j in 0..16 {
            if self.lanes.val().get_bit(15 - j) {
                self.pick.next = self.a[15 - j].val();
            }
        }
        self.first.next = self.pick.val();
        self.found.next = self.lanes.val() != self.zero16.val();
        self.legal.next = self.dec.legal.val();
        self.writes_vgpr.next = self.dec.writes_vgpr.val();
        self.pair.next = self.dec.pair.val();
        self.sgpr_we.next = self.dec.sgpr_we.val();
        self.sgpr_wide.next = self.dec.sgpr_wide.val();
        self.cmpx.next = self.dec.cmpx.val();
        self.sgpr_dst.next = self.dec.sgpr_dst.val();
    }
}
