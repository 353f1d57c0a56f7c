//! The datapath of one cycle: the 16 lanes of a quarter, the fault in lane order, the RAM
//! ports' words, write enables and write values (with `ds_add_u32`'s sums).

use super::lane::LdsLane;
use super::ram::PORTS;
use super::sum::LdsSums;
use crate::hdl::k;
use crate::lds::QUARTER;
use rust_hdl::prelude::*;

/// One quarter of a DS instruction, combinational.
#[derive(LogicBlock)]
pub struct LdsQuarter {
    /// The quarter's lanes that take part (0 when no instruction moves).
    pub active: Signal<In, Bits<16>>,
    /// Two addresses per lane (`ds_write2_b32`, `ds_read2_b32`).
    pub two: Signal<In, Bit>,
    /// The instruction writes the lanes' first words (`ds_add_u32`, `ds_write_b32`,
    /// `ds_write2_b32`).
    pub write: Signal<In, Bit>,
    /// It writes the second words too (`ds_write2_b32`).
    pub write2: Signal<In, Bit>,
    /// It adds (`ds_add_u32`).
    pub add: Signal<In, Bit>,
    /// An earlier quarter of the instruction faulted: no lane writes.
    pub blocked_in: Signal<In, Bit>,
    /// The first address's offset in bytes.
    pub off_a: Signal<In, Bits<32>>,
    /// The second address's offset in bytes.
    pub off_b: Signal<In, Bits<32>>,
    /// The work-group's first word.
    pub base: Signal<In, Bits<16>>,
    /// The work-group's size in words.
    pub words: Signal<In, Bits<32>>,
    /// `ADDR` of the lanes.
    pub addr: [Signal<In, Bits<32>>; QUARTER],
    /// `DATA0` of the lanes.
    pub data0: [Signal<In, Bits<32>>; QUARTER],
    /// `DATA1` of the lanes.
    pub data1: [Signal<In, Bits<32>>; QUARTER],
    /// The RAM's values of the lanes' first words (`ds_add_u32`'s old values).
    pub old: [Signal<In, Bits<32>>; QUARTER],
    /// The ports' words.
    pub idx: [Signal<Out, Bits<16>>; PORTS],
    /// The ports that write.
    pub wen: Signal<Out, Bits<32>>,
    /// The ports' write values.
    pub wdata: [Signal<Out, Bits<32>>; PORTS],
    /// A lane of the instruction has faulted, in this quarter or before.
    pub blocked: Signal<Out, Bit>,
    /// A lane of this quarter is the instruction's first fault.
    pub fault: Signal<Out, Bit>,
    /// Its address (0 without one).
    pub fault_addr: Signal<Out, Bits<32>>,
    /// The lanes.
    lane: [LdsLane; QUARTER],
    /// `ds_add_u32`'s per-lane sums.
    sums: LdsSums,
    /// `blk[j]`: a lane below `j` (or an earlier quarter) faulted.
    blk: [Signal<Local, Bit>; QUARTER + 1],
    /// Lane `j` faults.
    bad: [Signal<Local, Bit>; QUARTER],
    /// Lane `j` writes its first word.
    we0: [Signal<Local, Bit>; QUARTER],
    /// The lanes that write their first word.
    we0v: Signal<Local, Bits<16>>,
    /// The write enables.
    wenv: Signal<Local, Bits<32>>,
    /// The first fault's address.
    fa: Signal<Local, Bits<32>>,
    /// The first words' write values.
    wd: [Signal<Local, Bits<32>>; QUARTER],
    /// Lane `j`'s bit.
    bit16: [Constant<Bits<16>>; QUARTER],
    /// Port `p`'s bit.
    bit32: [Constant<Bits<32>>; PORTS],
    /// 0.
    z16: Constant<Bits<16>>,
    /// 0.
    z32: Constant<Bits<32>>,
}

impl Default for LdsQuarter {
    fn default() -> Self {
        Self {
            active: Default::default(),
            two: Default::default(),
            write: Default::default(),
            write2: Default::default(),
            add: Default::default(),
            blocked_in: Default::default(),
            off_a: Default::default(),
            off_b: Default::default(),
            base: Default::default(),
            words: Default::default(),
            addr: Default::default(),
            data0: Default::default(),
            data1: Default::default(),
            old: Default::default(),
            idx: Default::default(),
            wen: Default::default(),
            wdata: Default::default(),
            blocked: Default::default(),
            fault: Default::default(),
            fault_addr: Default::default(),
            lane: array_init::array_init(|_| Default::default()),
            sums: Default::default(),
            blk: Default::default(),
            bad: Default::default(),
            we0: Default::default(),
            we0v: Default::default(),
            wenv: Default::default(),
            fa: Default::default(),
            wd: Default::default(),
            bit16: array_init::array_init(|j| k(1 << j)),
            bit32: array_init::array_init(|p| k(1 << p)),
            z16: k(0),
            z32: k(0),
        }
    }
}

impl Logic for LdsQuarter {
    #[hdl_gen]
    fn update(&mut self) {
        for j in 0..16 {
            self.lane[j].addr.next = self.addr[j].val();
            self.lane[j].off_a.next = self.off_a.val();
            self.lane[j].off_b.next = self.off_b.val();
            self.lane[j].base.next = self.base.val();
            self.lane[j].words.next = self.words.val();
        }
        // Lane order: a lane faults when an address it uses is bad; no lane after it writes;
        // a ds_write2_b32 lane writes its first word when only the second is bad.
        self.blk[0].next = self.blocked_in.val();
        self.we0v.next = self.z16.val();
        self.wenv.next = self.z32.val();
        self.fa.next = self.z32.val();
        for j in 0..16 {
            self.bad[j].next = self.active.val().get_bit(j)
                & (!self.lane[j].ok0.val() | (self.two.val() & !self.lane[j].ok1.val()));
            self.blk[j + 1].next = self.blk[j].val() | self.bad[j].val();
            self.we0[j].next = self.active.val().get_bit(j)
                & self.write.val()
                & !self.blk[j].val()
                & self.lane[j].ok0.val();
            if self.we0[j].val() {
                self.we0v.next = self.we0v.val() | self.bit16[j].val();
                self.wenv.next = self.wenv.val() | self.bit32[2 * j].val();
            }
            if self.we0[j].val() & self.write2.val() & self.lane[j].ok1.val() {
                self.wenv.next = self.wenv.val() | self.bit32[2 * j + 1].val();
            }
            if self.bad[j].val() & !self.blk[j].val() {
                self.fa.next = self.lane[j].e0.val();
                if self.lane[j].ok0.val() {
                    self.fa.next = self.lane[j].e1.val();
                }
            }
        }
        self.sums.en.next = self.we0v.val();
        for j in 0..16 {
            self.sums.idx[j].next = self.lane[j].idx0.val();
            self.sums.d[j].next = self.data0[j].val();
            self.sums.old[j].next = self.old[j].val();
            self.wd[j].next = self.data0[j].val();
            if self.add.val() {
                self.wd[j].next = self.sums.sum[j].val();
            }
            self.idx[2 * j].next = self.lane[j].idx0.val();
            self.idx[2 * j + 1].next = self.lane[j].idx1.val();
            self.wdata[2 * j].next = self.wd[j].val();
            self.wdata[2 * j + 1].next = self.data1[j].val();
        }
        self.wen.next = self.wenv.val();
        self.blocked.next = self.blk[16].val();
        self.fault.next = self.blk[16].val() & !self.blocked_in.val();
        self.fault_addr.next = self.fa.val();
    }
}
