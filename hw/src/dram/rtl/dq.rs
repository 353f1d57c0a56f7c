//! The DQ scheduler (Section 3.2.2 of the Sim-D paper): every CAS reserves the data bus for BL = 4
//! cycles, CL (read) or CWL − 2 (write, the SRAM read leads) cycles after it; in each of those
//! cycles the scheduler names the burst and the 4 words on the bus.

use crate::dram::Part;
use crate::hdl::k;
use rust_hdl::prelude::*;

/// Reservations in flight at most: ⌈(CL + BL) / CCD_S⌉ = 7 at 3200AA.
pub const DEPTH: usize = 8;

/// The DQ scheduler of [`crate::dram::DramCtrl`].
#[derive(LogicBlock)]
pub struct DqScheduler {
    /// DRAM command clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset (no reservation).
    pub reset: Signal<In, Bit>,
    /// A RD/RDA/WR/WRA issues in this cycle.
    pub cas: Signal<In, Bit>,
    /// It writes.
    pub cas_write: Signal<In, Bit>,
    /// Its bank group.
    pub cas_bg: Signal<In, Bits<2>>,
    /// Its bank within the group.
    pub cas_bank: Signal<In, Bits<2>>,
    /// Its row.
    pub cas_row: Signal<In, Bits<16>>,
    /// Its DDR4 column (burst · 8).
    pub cas_col: Signal<In, Bits<10>>,
    /// The burst's word mask.
    pub cas_words: Signal<In, Bits<16>>,
    /// Data moves on the bus in this cycle.
    pub dq_valid: Signal<Out, Bit>,
    /// The data moves to DRAM.
    pub dq_write: Signal<Out, Bit>,
    /// The burst's bank group.
    pub dq_bg: Signal<Out, Bits<2>>,
    /// The burst's bank within the group.
    pub dq_bank: Signal<Out, Bits<2>>,
    /// The burst's row.
    pub dq_row: Signal<Out, Bits<16>>,
    /// The burst's DDR4 column (burst · 8).
    pub dq_col: Signal<Out, Bits<10>>,
    /// The beat pair in this cycle (0..3): words 4·beat .. 4·beat + 3 of the burst.
    pub dq_beat: Signal<Out, Bits<2>>,
    /// Which of those 4 words are used.
    pub dq_mask: Signal<Out, Bits<4>>,
    now: DFF<Bits<16>>,
    r_start: [DFF<Bits<16>>; DEPTH],
    r_write: [DFF<Bit>; DEPTH],
    r_bg: [DFF<Bits<2>>; DEPTH],
    r_bank: [DFF<Bits<2>>; DEPTH],
    r_row: [DFF<Bits<16>>; DEPTH],
    r_col: [DFF<Bits<10>>; DEPTH],
    r_words: [DFF<Bits<16>>; DEPTH],
    len: DFF<Bits<4>>,
    delta: Signal<Local, Bits<16>>,
    active: Signal<Local, Bit>,
    pop: Signal<Local, Bit>,
    target: Signal<Local, Bits<4>>,
    start: Signal<Local, Bits<16>>,
    shifted: Signal<Local, Bits<16>>,
    slot: [Constant<Bits<4>>; DEPTH],
    read_lead: Constant<Bits<16>>,
    write_lead: Constant<Bits<16>>,
    one16: Constant<Bits<16>>,
    two16: Constant<Bits<16>>,
    three16: Constant<Bits<16>>,
    four16: Constant<Bits<16>>,
    one4: Constant<Bits<4>>,
    zero2: Constant<Bits<2>>,
    zero4: Constant<Bits<4>>,
    zero10: Constant<Bits<10>>,
    zero16: Constant<Bits<16>>,
}

impl DqScheduler {
    /// The scheduler for `part`.
    pub fn new(part: &Part) -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            cas: Default::default(),
            cas_write: Default::default(),
            cas_bg: Default::default(),
            cas_bank: Default::default(),
            cas_row: Default::default(),
            cas_col: Default::default(),
            cas_words: Default::default(),
            dq_valid: Default::default(),
            dq_write: Default::default(),
            dq_bg: Default::default(),
            dq_bank: Default::default(),
            dq_row: Default::default(),
            dq_col: Default::default(),
            dq_beat: Default::default(),
            dq_mask: Default::default(),
            now: Default::default(),
            r_start: array_init::array_init(|_| Default::default()),
            r_write: array_init::array_init(|_| Default::default()),
            r_bg: array_init::array_init(|_| Default::default()),
            r_bank: array_init::array_init(|_| Default::default()),
            r_row: array_init::array_init(|_| Default::default()),
            r_col: array_init::array_init(|_| Default::default()),
            r_words: array_init::array_init(|_| Default::default()),
            len: Default::default(),
            delta: Default::default(),
            active: Default::default(),
            pop: Default::default(),
            target: Default::default(),
            start: Default::default(),
            shifted: Default::default(),
            slot: array_init::array_init(|i| k(i as u64)),
            read_lead: k(part.cl as u64),
            write_lead: k(part.cwl as u64 - 2),
            one16: k(1),
            two16: k(2),
            three16: k(3),
            four16: k(4),
            one4: k(1),
            zero2: k(0),
            zero4: k(0),
            zero10: k(0),
            zero16: k(0),
        }
    }
}

impl Logic for DqScheduler {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, now, len);
        for i in 0..DEPTH {
            self.r_start[i].clock.next = self.clock.val();
            self.r_start[i].d.next = self.r_start[i].q.val();
            self.r_write[i].clock.next = self.clock.val();
            self.r_write[i].d.next = self.r_write[i].q.val();
            self.r_bg[i].clock.next = self.clock.val();
            self.r_bg[i].d.next = self.r_bg[i].q.val();
            self.r_bank[i].clock.next = self.clock.val();
            self.r_bank[i].d.next = self.r_bank[i].q.val();
            self.r_row[i].clock.next = self.clock.val();
            self.r_row[i].d.next = self.r_row[i].q.val();
            self.r_col[i].clock.next = self.clock.val();
            self.r_col[i].d.next = self.r_col[i].q.val();
            self.r_words[i].clock.next = self.clock.val();
            self.r_words[i].d.next = self.r_words[i].q.val();
        }
        self.now.d.next = self.now.q.val() + self.one16.val();
        // ---- The head reservation is on the bus while 0 <= now - start < 4.
        self.delta.next = self.now.q.val() - self.r_start[0].q.val();
        self.active.next = self.len.q.val().any() & (self.delta.val() < self.four16.val());
        self.pop.next = self.active.val() & (self.delta.val() == self.three16.val());
        self.shifted.next = self.r_words[0].q.val() >> (self.delta.val() << self.two16.val());
        self.dq_valid.next = self.active.val();
        self.dq_write.next = false;
        self.dq_bg.next = self.zero2.val();
        self.dq_bank.next = self.zero2.val();
        self.dq_row.next = self.zero16.val();
        self.dq_col.next = self.zero10.val();
        self.dq_beat.next = self.zero2.val();
        self.dq_mask.next = self.zero4.val();
        if self.active.val() {
            self.dq_write.next = self.r_write[0].q.val();
            self.dq_bg.next = self.r_bg[0].q.val();
            self.dq_bank.next = self.r_bank[0].q.val();
            self.dq_row.next = self.r_row[0].q.val();
            self.dq_col.next = self.r_col[0].q.val();
            self.dq_beat.next = self.delta.val().get_bits::<2>(0);
            self.dq_mask.next = self.shifted.val().get_bits::<4>(0);
        }
        // ---- A CAS appends a reservation.
        self.start.next = self.now.q.val() + self.read_lead.val();
        if self.cas_write.val() {
            self.start.next = self.now.q.val() + self.write_lead.val();
        }
        self.target.next = self.len.q.val();
        if self.pop.val() {
            self.target.next = self.len.q.val() - self.one4.val();
            for i in 0..(DEPTH - 1) {
                self.r_start[i].d.next = self.r_start[i + 1].q.val();
                self.r_write[i].d.next = self.r_write[i + 1].q.val();
                self.r_bg[i].d.next = self.r_bg[i + 1].q.val();
                self.r_bank[i].d.next = self.r_bank[i + 1].q.val();
                self.r_row[i].d.next = self.r_row[i + 1].q.val();
                self.r_col[i].d.next = self.r_col[i + 1].q.val();
                self.r_words[i].d.next = self.r_words[i + 1].q.val();
            }
            self.len.d.next = self.len.q.val() - self.one4.val();
        }
        if self.cas.val() {
            for i in 0..DEPTH {
                if self.target.val() == self.slot[i].val() {
                    self.r_start[i].d.next = self.start.val();
                    self.r_write[i].d.next = self.cas_write.val();
                    self.r_bg[i].d.next = self.cas_bg.val();
                    self.r_bank[i].d.next = self.cas_bank.val();
                    self.r_row[i].d.next = self.cas_row.val();
                    self.r_col[i].d.next = self.cas_col.val();
                    self.r_words[i].d.next = self.cas_words.val();
                }
            }
            self.len.d.next = self.target.val() + self.one4.val();
        }
        if self.reset.val() {
            self.now.d.next = self.zero16.val();
            self.len.d.next = self.zero4.val();
        }
    }
}
