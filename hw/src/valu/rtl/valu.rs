//! The VALU's top: the quarter counter, the instruction held over its four cycles, the mask
//! and first-lane collection, and the output registers.

use super::quarter::ValuQuarter;
use crate::hdl::k;
use crate::valu::QUARTER;
use rust_hdl::prelude::*;

/// The vector ALU (integer and fp32); the contract (ports, timing, operations) is [`crate::valu`].
#[derive(LogicBlock)]
pub struct Valu {
    /// Core clock; every register loads on its rising edge.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: abandons the instruction in flight, clears the outputs.
    pub reset: Signal<In, Bit>,
    /// A VALU instruction issues this cycle (taken when `busy` is low).
    pub valid: Signal<In, Bit>,
    /// Format code (7 VOP1, 8 VOP2, 9 VOPC, 10 VOP3), issue cycle.
    pub format: Signal<In, Bits<4>>,
    /// Opcode, issue cycle.
    pub opcode: Signal<In, Bits<10>>,
    /// The `dst` field, issue cycle.
    pub dst: Signal<In, Bits<8>>,
    /// The `sdst` field, issue cycle.
    pub sdst: Signal<In, Bits<7>>,
    /// VOP3 clamp, issue cycle.
    pub clamp: Signal<In, Bit>,
    /// The effective EXEC mask, issue cycle.
    pub exec: Signal<In, Bits<64>>,
    /// VCC or the `_e64` mask source, issue cycle.
    pub mask_in: Signal<In, Bits<64>>,
    /// `src0` of the lanes of quarter `quarter`.
    pub a: [Signal<In, Bits<32>>; QUARTER],
    /// `src1` of the lanes of quarter `quarter`.
    pub b: [Signal<In, Bits<32>>; QUARTER],
    /// `src2` of the lanes of quarter `quarter` (`v_mad_f32`, `v_fma_f32`), or the old value
    /// of the destination (`v_mac_f32`); a 64-bit operation's third dword.
    pub c: [Signal<In, Bits<32>>; QUARTER],
    /// A 64-bit operation's fourth dword, lanes of quarter `quarter`.
    pub d: [Signal<In, Bits<32>>; QUARTER],
    /// VOP3 output modifier (0 none, 1 ×2, 2 ×4, 3 ×0.5), issue cycle.
    pub omod: Signal<In, Bits<2>>,
    /// VOP3 absolute-value bits, source `k` in bit `k`, issue cycle.
    pub abs: Signal<In, Bits<3>>,
    /// VOP3 negate bits, source `k` in bit `k`, issue cycle.
    pub neg: Signal<In, Bits<3>>,
    /// Quarters 1..3 of an instruction are being read: `valid` is ignored.
    pub busy: Signal<Out, Bit>,
    /// The quarter whose lanes `a` and `b` hold this cycle.
    pub quarter: Signal<Out, Bits<2>>,
    /// A quarter of VGPR results is on the write-back outputs.
    pub wb_valid: Signal<Out, Bit>,
    /// Its quarter.
    pub wb_quarter: Signal<Out, Bits<2>>,
    /// The VGPR written.
    pub wb_vgpr: Signal<Out, Bits<8>>,
    /// The lanes written.
    pub wb_lanes: Signal<Out, Bits<16>>,
    /// The results (0 in lanes not written).
    pub wb_data: [Signal<Out, Bits<32>>; QUARTER],
    /// The results are a 64-bit pair: `wb_data_hi` goes to VGPR `wb_vgpr` + 1.
    pub wb_two: Signal<Out, Bit>,
    /// The pair's high dwords (0 in lanes not written and without `wb_two`).
    pub wb_data_hi: [Signal<Out, Bits<32>>; QUARTER],
    /// The instruction's last quarter ended.
    pub done: Signal<Out, Bit>,
    /// With `done`: write `sgpr_hi:sgpr_lo` to `sgpr_dst`.
    pub sgpr_we: Signal<Out, Bit>,
    /// The SGPR write is a 64-bit lane mask (else `v_readfirstlane_b32`'s 32 bits).
    pub sgpr_wide: Signal<Out, Bit>,
    /// The SGPR code.
    pub sgpr_dst: Signal<Out, Bits<7>>,
    /// The lane mask's bits \[31:0\], or the first active lane's value.
    pub sgpr_lo: Signal<Out, Bits<32>>,
    /// The lane mask's bits \[63:32\] (0 for `v_readfirstlane_b32`).
    pub sgpr_hi: Signal<Out, Bits<32>>,
    /// With `done`: `v_cmpx_*` writes the mask to EXEC too.
    pub exec_we: Signal<Out, Bit>,
    /// The next `sgpr_we` (this cycle's value of the register behind it): a caller writes
    /// the scalar result at the edge that ends the last quarter, a cycle before `done`.
    pub n_sgpr_we: Signal<Out, Bit>,
    /// The next `sgpr_wide`.
    pub n_sgpr_wide: Signal<Out, Bit>,
    /// The next `sgpr_dst`.
    pub n_sgpr_dst: Signal<Out, Bits<7>>,
    /// The next `sgpr_lo`.
    pub n_sgpr_lo: Signal<Out, Bits<32>>,
    /// The next `sgpr_hi`.
    pub n_sgpr_hi: Signal<Out, Bits<32>>,
    /// The next `exec_we`.
    pub n_exec_we: Signal<Out, Bit>,
    /// The decode and the 16 lanes.
    dp: ValuQuarter,
    /// Fields of the cycle: the inputs when idle, the held ones in quarters 1..3.
    cur_format: Signal<Local, Bits<4>>,
    /// The cycle's opcode.
    cur_opcode: Signal<Local, Bits<10>>,
    /// The cycle's `dst`.
    cur_dst: Signal<Local, Bits<8>>,
    /// The cycle's `sdst`.
    cur_sdst: Signal<Local, Bits<7>>,
    /// The cycle's clamp.
    cur_clamp: Signal<Local, Bit>,
    /// The cycle's omod.
    cur_omod: Signal<Local, Bits<2>>,
    /// The cycle's abs bits.
    cur_abs: Signal<Local, Bits<3>>,
    /// The cycle's neg bits.
    cur_neg: Signal<Local, Bits<3>>,
    /// EXEC from the cycle's quarter up (its bits \[15:0\] are the quarter's).
    cur_exec: Signal<Local, Bits<64>>,
    /// The mask source from the cycle's quarter up.
    cur_min: Signal<Local, Bits<64>>,
    /// The instruction moves on this cycle (issued, or in quarters 1..3).
    go: Signal<Local, Bit>,
    /// This cycle is its last quarter.
    last: Signal<Local, Bit>,
    /// The mask with this quarter's bits in \[63:48\] and the earlier quarters below.
    mask_now: Signal<Local, Bits<64>>,
    /// The first active lane's value so far.
    first_now: Signal<Local, Bits<32>>,
    /// An active lane gave `first_now`.
    found_now: Signal<Local, Bit>,
    /// The SGPR value at the end, bits \[31:0\].
    sdata: Signal<Local, Bits<32>>,
    /// In quarters 1..3.
    r_run: DFF<Bit>,
    /// The quarter counter.
    r_q: DFF<Bits<2>>,
    /// Held format.
    r_format: DFF<Bits<4>>,
    /// Held opcode.
    r_opcode: DFF<Bits<10>>,
    /// Held `dst`.
    r_dst: DFF<Bits<8>>,
    /// Held `sdst`.
    r_sdst: DFF<Bits<7>>,
    /// Held clamp.
    r_clamp: DFF<Bit>,
    /// Held omod.
    r_omod: DFF<Bits<2>>,
    /// Held abs bits.
    r_abs: DFF<Bits<3>>,
    /// Held neg bits.
    r_neg: DFF<Bits<3>>,
    /// EXEC of the quarters still to come, shifted down a quarter per cycle.
    r_exec: DFF<Bits<64>>,
    /// The mask source likewise.
    r_min: DFF<Bits<64>>,
    /// The mask of the quarters done, shifting down into place.
    r_mask: DFF<Bits<64>>,
    /// The first active lane's value so far.
    r_first: DFF<Bits<32>>,
    /// An active lane gave it.
    r_found: DFF<Bit>,
    /// Output register: `wb_valid`.
    o_wb_valid: DFF<Bit>,
    /// Output register: `wb_quarter`.
    o_wb_q: DFF<Bits<2>>,
    /// Output register: `wb_vgpr`.
    o_wb_vgpr: DFF<Bits<8>>,
    /// Output register: `wb_lanes`.
    o_wb_lanes: DFF<Bits<16>>,
    /// Output registers: `wb_data`.
    o_wb_data: [DFF<Bits<32>>; QUARTER],
    /// Output register: `wb_two`.
    o_wb_two: DFF<Bit>,
    /// Output registers: `wb_data_hi`.
    o_wb_hi: [DFF<Bits<32>>; QUARTER],
    /// Output register: `done`.
    o_done: DFF<Bit>,
    /// Output register: `sgpr_we`.
    o_swe: DFF<Bit>,
    /// Output register: `sgpr_wide`.
    o_swide: DFF<Bit>,
    /// Output register: `sgpr_dst`.
    o_sdst: DFF<Bits<7>>,
    /// Output register: `sgpr_lo`.
    o_slo: DFF<Bits<32>>,
    /// Output register: `sgpr_hi`.
    o_shi: DFF<Bits<32>>,
    /// Output register: `exec_we`.
    o_exec_we: DFF<Bit>,
    /// 3, the last quarter.
    q3: Constant<Bits<2>>,
    /// 1.
    one2: Constant<Bits<2>>,
    /// 0.
    z2: Constant<Bits<2>>,
    /// 0.
    z7: Constant<Bits<7>>,
    /// 0.
    z8: Constant<Bits<8>>,
    /// 0.
    z16: Constant<Bits<16>>,
    /// 0.
    z32: Constant<Bits<32>>,
}

impl Default for Valu {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            valid: Default::default(),
            format: Default::default(),
            opcode: Default::default(),
            dst: Default::default(),
            sdst: Default::default(),
            clamp: Default::default(),
            exec: Default::default(),
            mask_in: Default::default(),
            a: Default::default(),
            b: Default::default(),
            c: Default::default(),
            d: Default::default(),
            omod: Default::default(),
            abs: Default::default(),
            neg: Default::default(),
            busy: Default::default(),
            quarter: Default::default(),
            wb_valid: Default::default(),
            wb_quarter: Default::default(),
            wb_vgpr: Default::default(),
            wb_lanes: Default::default(),
            wb_data: Default::default(),
            wb_two: Default::default(),
            wb_data_hi: Default::default(),
            done: Default::default(),
            sgpr_we: Default::default(),
            sgpr_wide: Default::default(),
            sgpr_dst: Default::default(),
            sgpr_lo: Default::default(),
            sgpr_hi: Default::default(),
            exec_we: Default::default(),
            dp: Default::default(),
            cur_format: Default::default(),
            cur_opcode: Default::default(),
            cur_dst: Default::default(),
            cur_sdst: Default::default(),
            cur_clamp: Default::default(),
            cur_omod: Default::default(),
            cur_abs: Default::default(),
            cur_neg: Default::default(),
            cur_exec: Default::default(),
            cur_min: Default::default(),
            go: Default::default(),
            last: Default::default(),
            mask_now: Default::default(),
            first_now: Default::default(),
            found_now: Default::default(),
            sdata: Default::default(),
            r_run: Default::default(),
            r_q: Default::default(),
            r_format: Default::default(),
            r_opcode: Default::default(),
            r_dst: Default::default(),
            r_sdst: Default::default(),
            r_clamp: Default::default(),
            r_omod: Default::default(),
            r_abs: Default::default(),
            r_neg: Default::default(),
            r_exec: Default::default(),
            r_min: Default::default(),
            r_mask: Default::default(),
            r_first: Default::default(),
            r_found: Default::default(),
            o_wb_valid: Default::default(),
            o_wb_q: Default::default(),
            o_wb_vgpr: Default::default(),
            o_wb_lanes: Default::default(),
            n_sgpr_we: Default::default(),
            n_sgpr_wide: Default::default(),
            n_sgpr_dst: Default::default(),
            n_sgpr_lo: Default::default(),
            n_sgpr_hi: Default::default(),
            n_exec_we: Default::default(),
            o_wb_data: array_init::array_init(|_| Default::default()),
            o_wb_two: Default::default(),
            o_wb_hi: array_init::array_init(|_| Default::default()),
            o_done: Default::default(),
            o_swe: Default::default(),
            o_swide: Default::default(),
            o_sdst: Default::default(),
            o_slo: Default::default(),
            o_shi: Default::default(),
            o_exec_we: Default::default(),
            q3: k(3),
            one2: k(1),
            z2: k(0),
            z7: k(0),
            z8: k(0),
            z16: k(0),
            z32: k(0),
        }
    }
}

impl Logic for Valu {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, r_run, r_q, r_format, r_opcode, r_dst, r_sdst, r_clamp, r_omod, r_abs,
            r_neg, r_exec, r_min, r_mask, r_first, r_found, o_wb_valid, o_wb_q, o_wb_vgpr,
            o_wb_lanes, o_wb_two, o_done, o_swe, o_swide, o_sdst, o_slo, o_shi, o_exec_we
        );
        for i in 0..16 {
            self.o_wb_data[i].clock.next = self.clock.val();
            self.o_wb_hi[i].clock.next = self.clock.val();
        }
        // The cycle's instruction: the inputs when idle, the held fields while running.
        self.cur_format.next = self.format.val();
        self.cur_opcode.next = self.opcode.val();
        self.cur_dst.next = self.dst.val();
        self.cur_sdst.next = self.sdst.val();
        self.cur_clamp.next = self.clamp.val();
        self.cur_omod.next = self.omod.val();
        self.cur_abs.next = self.abs.val();
        self.cur_neg.next = self.neg.val();
        self.cur_exec.next = self.exec.val();
        self.cur_min.next = self.mask_in.val();
        if self.r_run.q.val() {
            self.cur_format.next = self.r_format.q.val();
            self.cur_opcode.next = self.r_opcode.q.val();
            self.cur_dst.next = self.r_dst.q.val();
            self.cur_sdst.next = self.r_sdst.q.val();
            self.cur_clamp.next = self.r_clamp.q.val();
            self.cur_omod.next = self.r_omod.q.val();
            self.cur_abs.next = self.r_abs.q.val();
            self.cur_neg.next = self.r_neg.q.val();
            self.cur_exec.next = self.r_exec.q.val();
            self.cur_min.next = self.r_min.q.val();
        }
        self.dp.format.next = self.cur_format.val();
        self.dp.opcode.next = self.cur_opcode.val();
        self.dp.dst.next = self.cur_dst.val().get_bits::<7>(0);
        self.dp.sdst.next = self.cur_sdst.val();
        self.dp.clamp.next = self.cur_clamp.val();
        self.dp.omod.next = self.cur_omod.val();
        self.dp.abs.next = self.cur_abs.val();
        self.dp.neg.next = self.cur_neg.val();
        self.dp.lanes.next = self.cur_exec.val().get_bits::<16>(0);
        self.dp.bits.next = self.cur_min.val().get_bits::<16>(0);
        for i in 0..16 {
            self.dp.a[i].next = self.a[i].val();
            self.dp.b[i].next = self.b[i].val();
            self.dp.c[i].next = self.c[i].val();
            self.dp.d[i].next = self.d[i].val();
        }
        // The quarter counter: an issue starts quarter 0, quarter 3 ends the instruction.
        self.go.next =
            !self.reset.val() & (self.r_run.q.val() | (self.valid.val() & self.dp.legal.val()));
        self.last.next = self.go.val() & (self.r_q.q.val() == self.q3.val());
        self.r_run.d.next = self.go.val() & !self.last.val();
        self.r_q.d.next = self.z2.val();
        if self.go.val() & !self.last.val() {
            self.r_q.d.next = self.r_q.q.val() + self.one2.val();
        }
        self.r_format.d.next = self.cur_format.val();
        self.r_opcode.d.next = self.cur_opcode.val();
        self.r_dst.d.next = self.cur_dst.val();
        self.r_sdst.d.next = self.cur_sdst.val();
        self.r_clamp.d.next = self.cur_clamp.val();
        self.r_omod.d.next = self.cur_omod.val();
        self.r_abs.d.next = self.cur_abs.val();
        self.r_neg.d.next = self.cur_neg.val();
        self.r_exec.d.next = self.cur_exec.val() >> 16;
        self.r_min.d.next = self.cur_min.val() >> 16;
        // The mask and the first active lane, collected over the quarters.
        self.mask_now.next = self.dp.flags.val();
        self.first_now.next = self.dp.first.val();
        self.found_now.next = self.dp.found.val();
        if self.r_run.q.val() {
            self.mask_now.next = (self.r_mask.q.val() >> 16) | self.dp.flags.val();
            if self.r_found.q.val() | !self.dp.found.val() {
                self.first_now.next = self.r_first.q.val();
                self.found_now.next = self.r_found.q.val();
            }
        }
        self.r_mask.d.next = self.mask_now.val();
        self.r_first.d.next = self.first_now.val();
        self.r_found.d.next = self.found_now.val();
        // The output registers: a quarter's write-back; the scalar write at the end.
        self.o_wb_valid.d.next = self.go.val() & self.dp.writes_vgpr.val();
        self.o_wb_q.d.next = self.z2.val();
        self.o_wb_vgpr.d.next = self.z8.val();
        if self.go.val() & self.dp.writes_vgpr.val() {
            self.o_wb_q.d.next = self.r_q.q.val();
            self.o_wb_vgpr.d.next = self.cur_dst.val();
        }
        self.o_wb_lanes.d.next = self.z16.val();
        if self.go.val() {
            self.o_wb_lanes.d.next = self.dp.wlanes.val();
        }
        self.o_wb_two.d.next = self.go.val() & self.dp.writes_vgpr.val() & self.dp.pair.val();
        for i in 0..16 {
            self.o_wb_data[i].d.next = self.z32.val();
            self.o_wb_hi[i].d.next = self.z32.val();
            if self.go.val() {
                self.o_wb_data[i].d.next = self.dp.wdata[i].val();
                self.o_wb_hi[i].d.next = self.dp.wdata_hi[i].val();
            }
        }
        self.sdata.next = self.first_now.val();
        if self.dp.sgpr_wide.val() {
            self.sdata.next = self.mask_now.val().get_bits::<32>(0);
        }
        self.o_done.d.next = self.last.val();
        self.n_sgpr_we.next = self.last.val() & self.dp.sgpr_we.val();
        self.n_sgpr_wide.next = self.n_sgpr_we.val() & self.dp.sgpr_wide.val();
        self.n_exec_we.next = self.n_sgpr_we.val() & self.dp.cmpx.val();
        self.n_sgpr_dst.next = self.z7.val();
        self.n_sgpr_lo.next = self.z32.val();
        self.n_sgpr_hi.next = self.z32.val();
        if self.n_sgpr_we.val() {
            self.n_sgpr_dst.next = self.dp.sgpr_dst.val();
            self.n_sgpr_lo.next = self.sdata.val();
        }
        if self.n_sgpr_wide.val() {
            self.n_sgpr_hi.next = self.mask_now.val().get_bits::<32>(32);
        }
        self.o_swe.d.next = self.n_sgpr_we.val();
        self.o_swide.d.next = self.n_sgpr_wide.val();
        self.o_exec_we.d.next = self.n_exec_we.val();
        self.o_sdst.d.next = self.n_sgpr_dst.val();
        self.o_slo.d.next = self.n_sgpr_lo.val();
        self.o_shi.d.next = self.n_sgpr_hi.val();
        self.busy.next = self.r_run.q.val();
        self.quarter.next = self.r_q.q.val();
        self.wb_valid.next = self.o_wb_valid.q.val();
        self.wb_quarter.next = self.o_wb_q.q.val();
        self.wb_vgpr.next = self.o_wb_vgpr.q.val();
        self.wb_lanes.next = self.o_wb_lanes.q.val();
        self.wb_two.next = self.o_wb_two.q.val();
        for i in 0..16 {
            self.wb_data[i].next = self.o_wb_data[i].q.val();
            self.wb_data_hi[i].next = self.o_wb_hi[i].q.val();
        }
        self.done.next = self.o_done.q.val();
        self.sgpr_we.next = self.o_swe.q.val();
        self.sgpr_wide.next = self.o_swide.q.val();
        self.sgpr_dst.next = self.o_sdst.q.val();
        self.sgpr_lo.next = self.o_slo.q.val();
        self.sgpr_hi.next = self.o_shi.q.val();
        self.exec_we.next = self.o_exec_we.q.val();
    }
}
