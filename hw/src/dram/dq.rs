//! The DQ scheduler (spec §1.5.4): every CAS reserves the data bus for BL = 4 cycles, CL
//! (read) or CWL − 2 (write, the SRAM read leads) cycles after it; in each of those cycles the
//! scheduler names the burst and the 4 words on the bus.

use super::Part;
use crate::isa::formats::k;
use rust_hdl::prelude::*;

/// Reservations in flight at most: ⌈(CL + BL) / CCD_S⌉ = 7 at 3200AA.
pub const DEPTH: usize = 8;

/// The DQ scheduler of [`super::DramCtrl`].
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
    /// Its burst within the row.
    pub cas_col: Signal<In, Bits<7>>,
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
    fifo: [DFF<Bits<64>>; DEPTH],
    len: DFF<Bits<4>>,
    delta: Signal<Local, Bits<16>>,
    active: Signal<Local, Bit>,
    pop: Signal<Local, Bit>,
    target: Signal<Local, Bits<4>>,
    start: Signal<Local, Bits<16>>,
    res: Signal<Local, Bits<64>>,
    f_write: Signal<Local, Bits<64>>,
    beat: Signal<Local, Bits<16>>,
    slot: [Constant<Bits<4>>; DEPTH],
    read_lead: Constant<Bits<16>>,
    write_lead: Constant<Bits<16>>,
    one16: Constant<Bits<16>>,
    three: Constant<Bits<16>>,
    four: Constant<Bits<16>>,
    one4: Constant<Bits<4>>,
    zero4: Constant<Bits<4>>,
    zero16: Constant<Bits<16>>,
    zero64: Constant<Bits<64>>,
    k_write: Constant<Bits<64>>,
    two: Constant<Bits<16>>,
    at_bg: Constant<Bits<64>>,
    at_bank: Constant<Bits<64>>,
    at_row: Constant<Bits<64>>,
    at_col: Constant<Bits<64>>,
    at_words: Constant<Bits<64>>,
    three10: Constant<Bits<10>>,
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
            fifo: array_init::array_init(|_| Default::default()),
            len: Default::default(),
            delta: Default::default(),
            active: Default::default(),
            pop: Default::default(),
            target: Default::default(),
            start: Default::default(),
            res: Default::default(),
            f_write: Default::default(),
            beat: Default::default(),
            slot: array_init::array_init(|i| k(i as u64)),
            read_lead: k(part.cl as u64),
            write_lead: k(part.cwl as u64 - 2),
            one16: k(1),
            three: k(3),
            four: k(4),
            one4: k(1),
            zero4: k(0),
            zero16: k(0),
            zero64: k(0),
            k_write: k(1 << 16),
            two: k(2),
            at_bg: k(17),
            at_bank: k(19),
            at_row: k(21),
            at_col: k(37),
            at_words: k(44),
            three10: k(3),
        }
    }
}

impl Logic for DqScheduler {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, now, len);
        for i in 0..DEPTH {
            self.fifo[i].clock.next = self.clock.val();
            self.fifo[i].d.next = self.fifo[i].q.val();
        }
        self.now.d.next = self.now.q.val() + self.one16.val();
        // ---- The head reservation is on the bus while 0 <= now - start < 4.
        self.delta.next = self.now.q.val() - self.fifo[0].q.val().get_bits::<16>(0);
        self.active.next = self.len.q.val().any() & (self.delta.val() < self.four.val());
        self.pop.next = self.active.val() & (self.delta.val() == self.three.val());
        self.beat.next = self.delta.val() & self.three.val();
        self.dq_valid.next = self.active.val();
        self.dq_write.next = false;
        self.dq_bg.next = bit_cast::<2, 16>(self.zero16.val());
        self.dq_bank.next = bit_cast::<2, 16>(self.zero16.val());
        self.dq_row.next = self.zero16.val();
        self.dq_col.next = bit_cast::<10, 16>(self.zero16.val());
        self.dq_beat.next = bit_cast::<2, 16>(self.zero16.val());
        self.dq_mask.next = bit_cast::<4, 16>(self.zero16.val());
        if self.active.val() {
            self.dq_write.next = self.fifo[0].q.val().get_bit(16);
            self.dq_bg.next = self.fifo[0].q.val().get_bits::<2>(17);
            self.dq_bank.next = self.fifo[0].q.val().get_bits::<2>(19);
            self.dq_row.next = self.fifo[0].q.val().get_bits::<16>(21);
            self.dq_col.next =
                bit_cast::<10, 7>(self.fifo[0].q.val().get_bits::<7>(37)) << self.three10.val();
            self.dq_beat.next = bit_cast::<2, 16>(self.beat.val());
            self.dq_mask.next = bit_cast::<4, 16>(
                self.fifo[0].q.val().get_bits::<16>(44) >> (self.beat.val() << self.two.val()),
            );
        }
        // ---- A CAS appends a reservation.
        self.start.next = self.now.q.val() + self.read_lead.val();
        if self.cas_write.val() {
            self.start.next = self.now.q.val() + self.write_lead.val();
        }
        self.f_write.next = self.zero64.val();
        if self.cas_write.val() {
            self.f_write.next = self.k_write.val();
        }
        self.res.next = bit_cast::<64, 16>(self.start.val())
            | (bit_cast::<64, 16>(self.cas_words.val()) << self.at_words.val())
            | (bit_cast::<64, 7>(self.cas_col.val()) << self.at_col.val())
            | (bit_cast::<64, 16>(self.cas_row.val()) << self.at_row.val())
            | (bit_cast::<64, 2>(self.cas_bank.val()) << self.at_bank.val())
            | (bit_cast::<64, 2>(self.cas_bg.val()) << self.at_bg.val())
            | self.f_write.val();
        self.target.next = self.len.q.val();
        if self.pop.val() {
            self.target.next = self.len.q.val() - self.one4.val();
            for i in 0..(DEPTH - 1) {
                self.fifo[i].d.next = self.fifo[i + 1].q.val();
            }
            self.fifo[DEPTH - 1].d.next = self.zero64.val();
            self.len.d.next = self.len.q.val() - self.one4.val();
        }
        if self.cas.val() {
            for i in 0..DEPTH {
                if self.target.val() == self.slot[i].val() {
                    self.fifo[i].d.next = self.res.val();
                }
            }
            self.len.d.next = self.target.val() + self.one4.val();
        }
        if self.reset.val() {
            self.now.d.next = self.zero16.val();
            self.len.d.next = self.zero4.val();
            for i in 0..DEPTH {
                self.fifo[i].d.next = self.zero64.val();
            }
        }
    }
}
