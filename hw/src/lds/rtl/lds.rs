//! The LDS's top: the quarter counter, the instruction held over its four cycles, the fault
//! report, and the wiring of the decode, the datapath, the RAM and the pipeline.

use super::decode::LdsDecode;
use super::pipe::LdsPipe;
use super::quarter::LdsQuarter;
use super::ram::LdsRam;
use crate::hdl::k;
use crate::lds::QUARTER;
use rust_hdl::prelude::*;

/// The LDS with a RAM of `W` words; the contract (ports, timing, operations) is
/// [`crate::lds`].
#[derive(LogicBlock)]
pub struct Lds<const W: usize> {
    /// Core clock; every register loads on its rising edge.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: abandons the instructions in flight, zeroes the RAM.
    pub reset: Signal<In, Bit>,
    /// A DS instruction issues this cycle (taken when `busy` is low).
    pub valid: Signal<In, Bit>,
    /// DS opcode, issue cycle.
    pub opcode: Signal<In, Bits<8>>,
    /// The decoder's `imm` (OFFSET1:OFFSET0 in bits \[15:0\]), issue cycle.
    pub offset: Signal<In, Bits<32>>,
    /// The first VGPR a load writes, issue cycle.
    pub vdst: Signal<In, Bits<8>>,
    /// The effective EXEC mask, issue cycle.
    pub exec: Signal<In, Bits<64>>,
    /// The work-group's first LDS word (issue cycle).
    pub wg_base: Signal<In, Bits<16>>,
    /// The work-group's LDS size in words (issue cycle).
    pub wg_words: Signal<In, Bits<32>>,
    /// Zero words `clear_base .. clear_base + clear_words` at this edge, after the cycle's
    /// accesses.
    pub clear: Signal<In, Bit>,
    /// The first word cleared (with `clear`).
    pub clear_base: Signal<In, Bits<16>>,
    /// Words cleared (with `clear`).
    pub clear_words: Signal<In, Bits<32>>,
    /// `ADDR` of the lanes of quarter `quarter`.
    pub addr: [Signal<In, Bits<32>>; QUARTER],
    /// `DATA0` of the lanes of quarter `quarter`.
    pub data0: [Signal<In, Bits<32>>; QUARTER],
    /// `DATA1` of the lanes of quarter `quarter`.
    pub data1: [Signal<In, Bits<32>>; QUARTER],
    /// Quarters 1..3 of an instruction are being read: `valid` is ignored.
    pub busy: Signal<Out, Bit>,
    /// The quarter whose lanes `addr`, `data0`, `data1` hold this cycle.
    pub quarter: Signal<Out, Bits<2>>,
    /// A quarter of loaded dwords is on the write-back outputs.
    pub wb_valid: Signal<Out, Bit>,
    /// Its quarter.
    pub wb_quarter: Signal<Out, Bits<2>>,
    /// The first VGPR written.
    pub wb_vgpr: Signal<Out, Bits<8>>,
    /// `ds_read2_b32`: `wb_data1` goes to VGPR `wb_vgpr + 1`.
    pub wb_two: Signal<Out, Bit>,
    /// The lanes written.
    pub wb_lanes: Signal<Out, Bits<16>>,
    /// The first dwords (0 in lanes not written).
    pub wb_data0: [Signal<Out, Bits<32>>; QUARTER],
    /// The second dwords (0 unless `wb_two`).
    pub wb_data1: [Signal<Out, Bits<32>>; QUARTER],
    /// The instruction issued 16 cycles ago completes.
    pub done: Signal<Out, Bit>,
    /// The instruction issued 4 cycles ago faulted.
    pub fault: Signal<Out, Bit>,
    /// With `fault`: the first faulting byte address.
    pub fault_addr: Signal<Out, Bits<32>>,
    /// Opcode and offset decode.
    dec: LdsDecode,
    /// The quarter's lanes.
    dp: LdsQuarter,
    /// The RAM.
    ram: LdsRam<W>,
    /// The delay line.
    pipe: LdsPipe,
    /// The cycle's opcode: the input when idle, the held one in quarters 1..3.
    cur_op: Signal<Local, Bits<8>>,
    /// The cycle's offset.
    cur_off: Signal<Local, Bits<32>>,
    /// The cycle's VGPR.
    cur_vdst: Signal<Local, Bits<8>>,
    /// EXEC from the cycle's quarter up.
    cur_exec: Signal<Local, Bits<64>>,
    /// The cycle's partition base.
    cur_base: Signal<Local, Bits<16>>,
    /// The cycle's partition size.
    cur_words: Signal<Local, Bits<32>>,
    /// The instruction moves on this cycle.
    go: Signal<Local, Bit>,
    /// This cycle is its last quarter.
    last: Signal<Local, Bit>,
    /// The lanes of the quarter taking part.
    active: Signal<Local, Bits<16>>,
    /// The first fault's address so far.
    faddr_now: Signal<Local, Bits<32>>,
    /// In quarters 1..3.
    r_run: DFF<Bit>,
    /// The quarter counter.
    r_q: DFF<Bits<2>>,
    /// Held opcode.
    r_op: DFF<Bits<8>>,
    /// Held offset.
    r_off: DFF<Bits<32>>,
    /// Held VGPR.
    r_vdst: DFF<Bits<8>>,
    /// EXEC of the quarters still to come, shifted down a quarter per cycle.
    r_exec: DFF<Bits<64>>,
    /// Held partition base.
    r_base: DFF<Bits<16>>,
    /// Held partition size.
    r_words: DFF<Bits<32>>,
    /// A lane of the instruction has faulted.
    r_blk: DFF<Bit>,
    /// The first fault's address.
    r_faddr: DFF<Bits<32>>,
    /// Output register: `fault`.
    o_fault: DFF<Bit>,
    /// Output register: `fault_addr`.
    o_faddr: DFF<Bits<32>>,
    /// 3, the last quarter.
    q3: Constant<Bits<2>>,
    /// 1.
    one2: Constant<Bits<2>>,
    /// 0.
    z2: Constant<Bits<2>>,
    /// 0.
    z16: Constant<Bits<16>>,
    /// 0.
    z32: Constant<Bits<32>>,
}

impl<const W: usize> Default for Lds<W> {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            valid: Default::default(),
            opcode: Default::default(),
            offset: Default::default(),
            vdst: Default::default(),
            exec: Default::default(),
            wg_base: Default::default(),
            wg_words: Default::default(),
            clear: Default::default(),
            clear_base: Default::default(),
            clear_words: Default::default(),
            addr: Default::default(),
            data0: Default::default(),
            data1: Default::default(),
            busy: Default::default(),
            quarter: Default::default(),
            wb_valid: Default::default(),
            wb_quarter: Default::default(),
            wb_vgpr: Default::default(),
            wb_two: Default::default(),
            wb_lanes: Default::default(),
            wb_data0: Default::default(),
            wb_data1: Default::default(),
            done: Default::default(),
            fault: Default::default(),
            fault_addr: Default::default(),
            dec: Default::default(),
            dp: Default::default(),
            ram: Default::default(),
            pipe: Default::default(),
            cur_op: Default::default(),
            cur_off: Default::default(),
            cur_vdst: Default::default(),
            cur_exec: Default::default(),
            cur_base: Default::default(),
            cur_words: Default::default(),
            go: Default::default(),
            last: Default::default(),
            active: Default::default(),
            faddr_now: Default::default(),
            r_run: Default::default(),
            r_q: Default::default(),
            r_op: Default::default(),
            r_off: Default::default(),
            r_vdst: Default::default(),
            r_exec: Default::default(),
            r_base: Default::default(),
            r_words: Default::default(),
            r_blk: Default::default(),
            r_faddr: Default::default(),
            o_fault: Default::default(),
            o_faddr: Default::default(),
            q3: k(3),
            one2: k(1),
            z2: k(0),
            z16: k(0),
            z32: k(0),
        }
    }
}

impl<const W: usize> Logic for Lds<W> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, r_run, r_q, r_op, r_off, r_vdst, r_exec, r_base, r_words, r_blk, r_faddr,
            o_fault, o_faddr
        );
        self.ram.clock.next = self.clock.val();
        self.pipe.clock.next = self.clock.val();
        // The cycle's instruction: the inputs when idle, the held fields while running.
        self.cur_op.next = self.opcode.val();
        self.cur_off.next = self.offset.val();
        self.cur_vdst.next = self.vdst.val();
        self.cur_exec.next = self.exec.val();
        self.cur_base.next = self.wg_base.val();
        self.cur_words.next = self.wg_words.val();
        if self.r_run.q.val() {
            self.cur_op.next = self.r_op.q.val();
            self.cur_off.next = self.r_off.q.val();
            self.cur_vdst.next = self.r_vdst.q.val();
            self.cur_exec.next = self.r_exec.q.val();
            self.cur_base.next = self.r_base.q.val();
            self.cur_words.next = self.r_words.q.val();
        }
        self.dec.opcode.next = self.cur_op.val();
        self.dec.offset.next = self.cur_off.val();
        // The quarter counter: an issue starts quarter 0, quarter 3 ends the instruction.
        self.go.next =
            !self.reset.val() & (self.r_run.q.val() | (self.valid.val() & self.dec.legal.val()));
        self.last.next = self.go.val() & (self.r_q.q.val() == self.q3.val());
        self.r_run.d.next = self.go.val() & !self.last.val();
        self.r_q.d.next = self.z2.val();
        if self.go.val() & !self.last.val() {
            self.r_q.d.next = self.r_q.q.val() + self.one2.val();
        }
        self.r_op.d.next = self.cur_op.val();
        self.r_off.d.next = self.cur_off.val();
        self.r_vdst.d.next = self.cur_vdst.val();
        self.r_exec.d.next = self.cur_exec.val() >> 16;
        self.r_base.d.next = self.cur_base.val();
        self.r_words.d.next = self.cur_words.val();
        // The quarter's accesses, on the RAM.
        self.active.next = self.z16.val();
        if self.go.val() {
            self.active.next = self.cur_exec.val().get_bits::<16>(0);
        }
        self.dp.active.next = self.active.val();
        self.dp.two.next = self.dec.two.val();
        self.dp.write.next = self.dec.write.val();
        self.dp.write2.next = self.dec.write2.val();
        self.dp.add.next = self.dec.add.val();
        self.dp.blocked_in.next = self.r_run.q.val() & self.r_blk.q.val();
        self.dp.off_a.next = self.dec.off_a.val();
        self.dp.off_b.next = self.dec.off_b.val();
        self.dp.base.next = self.cur_base.val();
        self.dp.words.next = self.cur_words.val();
        for l in 0..16 {
            self.dp.addr[l].next = self.addr[l].val();
            self.dp.data0[l].next = self.data0[l].val();
            self.dp.data1[l].next = self.data1[l].val();
        }
        for l in 0..16 {
            self.dp.old[l].next = self.ram.rdata[2 * l].val();
        }
        for p in 0..32 {
            self.ram.idx[p].next = self.dp.idx[p].val();
            self.ram.wdata[p].next = self.dp.wdata[p].val();
        }
        self.ram.wen.next = self.dp.wen.val();
        self.ram.reset.next = self.reset.val();
        self.ram.clear.next = self.clear.val();
        self.ram.clear_base.next = self.clear_base.val();
        self.ram.clear_words.next = self.clear_words.val();
        // The fault: the first address, reported after the last quarter.
        self.faddr_now.next = self.z32.val();
        if self.dp.blocked_in.val() {
            self.faddr_now.next = self.r_faddr.q.val();
        }
        if self.dp.fault.val() {
            self.faddr_now.next = self.dp.fault_addr.val();
        }
        self.r_blk.d.next = self.go.val() & self.dp.blocked.val();
        self.r_faddr.d.next = self.z32.val();
        if self.go.val() {
            self.r_faddr.d.next = self.faddr_now.val();
        }
        self.o_fault.d.next = self.last.val() & self.dp.blocked.val();
        self.o_faddr.d.next = self.z32.val();
        if self.last.val() {
            self.o_faddr.d.next = self.faddr_now.val();
        }
        // The quarter into the pipeline; the outputs.
        self.pipe.reset.next = self.reset.val();
        self.pipe.in_valid.next = self.go.val();
        self.pipe.in_read.next = self.dec.read.val();
        self.pipe.in_two.next = self.dec.read2.val();
        self.pipe.in_last.next = self.last.val();
        self.pipe.in_q.next = self.r_q.q.val();
        self.pipe.in_vgpr.next = self.cur_vdst.val();
        self.pipe.in_lanes.next = self.active.val();
        for l in 0..16 {
            self.pipe.in_d0[l].next = self.ram.rdata[2 * l].val();
            self.pipe.in_d1[l].next = self.ram.rdata[2 * l + 1].val();
        }
        self.busy.next = self.r_run.q.val();
        self.quarter.next = self.r_q.q.val();
        self.wb_valid.next = self.pipe.out_valid.val() & self.pipe.out_read.val();
        self.wb_quarter.next = self.pipe.out_q.val();
        self.wb_vgpr.next = self.pipe.out_vgpr.val();
        self.wb_two.next = self.pipe.out_two.val();
        self.wb_lanes.next = self.pipe.out_lanes.val();
        for l in 0..16 {
            self.wb_data0[l].next = self.pipe.out_d0[l].val();
            self.wb_data1[l].next = self.pipe.out_d1[l].val();
        }
        self.done.next = self.pipe.out_valid.val() & self.pipe.out_last.val();
        self.fault.next = self.o_fault.q.val();
        self.fault_addr.next = self.o_faddr.q.val();
    }
}
