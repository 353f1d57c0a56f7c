//! One DRAM bank's command FIFO: a shift register of [`DEPTH`] entries (entry 0 = head), its
//! length, and Rule 5's run of entries continuing the head's row. The bank
//! ([`super::bank::Bank`]) decides from the head what issues and tells the FIFO to pop it or
//! to clear the head's ACT or pre-activate PRE once issued.

use super::bank::DEPTH;
use crate::hdl::k;
use rust_hdl::prelude::*;

/// The bank's FIFO of compound commands and stand-alone PREs.
#[derive(LogicBlock)]
pub struct BankFifo {
    /// DRAM command clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: empty.
    pub reset: Signal<In, Bit>,
    /// Append an entry at the tail at the edge (after a `pop` of the same edge).
    pub push: Signal<In, Bit>,
    /// The entry appended is a stand-alone PRE (the fields below are then ignored).
    pub push_close: Signal<In, Bit>,
    /// Compound entry: precharge before the ACT.
    pub push_pre_pre: Signal<In, Bit>,
    /// Compound entry: activate.
    pub push_act: Signal<In, Bit>,
    /// Compound entry: auto-precharge with the CAS.
    pub push_ap: Signal<In, Bit>,
    /// Compound entry: the CAS writes.
    pub push_write: Signal<In, Bit>,
    /// Compound entry: the row.
    pub push_row: Signal<In, Bits<16>>,
    /// Compound entry: the DDR4 column (burst · 8).
    pub push_col: Signal<In, Bits<10>>,
    /// Compound entry: the burst's word mask.
    pub push_words: Signal<In, Bits<16>>,
    /// Remove the head at the edge (its stand-alone PRE or its CAS issued).
    pub pop: Signal<In, Bit>,
    /// The head's ACT issued: clear its `act` bit at the edge.
    pub clear_act: Signal<In, Bit>,
    /// The head's pre-activate PRE issued: clear its `pre_pre` bit at the edge.
    pub clear_pre_pre: Signal<In, Bit>,
    /// Entries in the FIFO (0..=8).
    pub len: Signal<Out, Bits<4>>,
    /// The FIFO holds 8 entries.
    pub full: Signal<Out, Bit>,
    /// The head entry is a stand-alone PRE.
    pub head_close: Signal<Out, Bit>,
    /// The head entry still has its pre-activate PRE to issue.
    pub head_pre_pre: Signal<Out, Bit>,
    /// The head entry still has its ACT to issue.
    pub head_act: Signal<Out, Bit>,
    /// The head entry's auto-precharge bit.
    pub head_ap: Signal<Out, Bit>,
    /// The head entry writes.
    pub head_write: Signal<Out, Bit>,
    /// The head entry's row.
    pub head_row: Signal<Out, Bits<16>>,
    /// The head entry's column.
    pub head_col: Signal<Out, Bits<10>>,
    /// The head entry's word mask.
    pub head_words: Signal<Out, Bits<16>>,
    /// Rule 5's count of CAS queued for the row an ACT opens, as a thermometer code (bit i
    /// set = entry i counts); compares like the count.
    pub run: Signal<Out, Bits<16>>,
    e_close: [DFF<Bit>; DEPTH],
    e_pre_pre: [DFF<Bit>; DEPTH],
    e_act: [DFF<Bit>; DEPTH],
    e_ap: [DFF<Bit>; DEPTH],
    e_write: [DFF<Bit>; DEPTH],
    e_row: [DFF<Bits<16>>; DEPTH],
    e_col: [DFF<Bits<10>>; DEPTH],
    e_words: [DFF<Bits<16>>; DEPTH],
    len_r: DFF<Bits<4>>,
    /// Bit i: entry i continues the row of entry i − 1 (compound, no pre_pre, no act, and
    /// entry i − 1 has no auto-precharge).
    cont: DFF<Bits<16>>,
    /// The last pushed entry had auto-precharge.
    tail_ap: DFF<Bit>,
    /// The slot a push writes (the length after this edge's pop).
    target: Signal<Local, Bits<4>>,
    /// `cont` after this edge's pop.
    cont_shift: Signal<Local, Bits<16>>,
    /// The pushed entry continues the row of the entry before it.
    new_cont: Signal<Local, Bit>,
    /// The lowest 0 bit of `cont | 1`, one-hot.
    lowest_zero: Signal<Local, Bits<16>>,
    slot: [Constant<Bits<4>>; DEPTH],
    zero4: Constant<Bits<4>>,
    one4: Constant<Bits<4>>,
    zero16: Constant<Bits<16>>,
    zero10: Constant<Bits<10>>,
    one_d: Constant<Bits<16>>,
    zero_d: Constant<Bits<16>>,
    depth: Constant<Bits<4>>,
}

impl Default for BankFifo {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            push: Default::default(),
            push_close: Default::default(),
            push_pre_pre: Default::default(),
            push_act: Default::default(),
            push_ap: Default::default(),
            push_write: Default::default(),
            push_row: Default::default(),
            push_col: Default::default(),
            push_words: Default::default(),
            pop: Default::default(),
            clear_act: Default::default(),
            clear_pre_pre: Default::default(),
            len: Default::default(),
            full: Default::default(),
            head_close: Default::default(),
            head_pre_pre: Default::default(),
            head_act: Default::default(),
            head_ap: Default::default(),
            head_write: Default::default(),
            head_row: Default::default(),
            head_col: Default::default(),
            head_words: Default::default(),
            run: Default::default(),
            e_close: array_init::array_init(|_| Default::default()),
            e_pre_pre: array_init::array_init(|_| Default::default()),
            e_act: array_init::array_init(|_| Default::default()),
            e_ap: array_init::array_init(|_| Default::default()),
            e_write: array_init::array_init(|_| Default::default()),
            e_row: array_init::array_init(|_| Default::default()),
            e_col: array_init::array_init(|_| Default::default()),
            e_words: array_init::array_init(|_| Default::default()),
            len_r: Default::default(),
            cont: Default::default(),
            tail_ap: Default::default(),
            target: Default::default(),
            cont_shift: Default::default(),
            new_cont: Default::default(),
            lowest_zero: Default::default(),
            slot: array_init::array_init(|i| k(i as u64)),
            zero4: k(0),
            one4: k(1),
            zero16: k(0),
            zero10: k(0),
            one_d: k(1),
            zero_d: k(0),
            depth: k(DEPTH as u64),
        }
    }
}

impl Logic for BankFifo {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, len_r, cont, tail_ap);
        for i in 0..DEPTH {
            self.e_close[i].clock.next = self.clock.val();
            self.e_close[i].d.next = self.e_close[i].q.val();
            self.e_pre_pre[i].clock.next = self.clock.val();
            self.e_pre_pre[i].d.next = self.e_pre_pre[i].q.val();
            self.e_act[i].clock.next = self.clock.val();
            self.e_act[i].d.next = self.e_act[i].q.val();
            self.e_ap[i].clock.next = self.clock.val();
            self.e_ap[i].d.next = self.e_ap[i].q.val();
            self.e_write[i].clock.next = self.clock.val();
            self.e_write[i].d.next = self.e_write[i].q.val();
            self.e_row[i].clock.next = self.clock.val();
            self.e_row[i].d.next = self.e_row[i].q.val();
            self.e_col[i].clock.next = self.clock.val();
            self.e_col[i].d.next = self.e_col[i].q.val();
            self.e_words[i].clock.next = self.clock.val();
            self.e_words[i].d.next = self.e_words[i].q.val();
        }
        // ---- The head's issued ACT or pre-activate PRE.
        if self.clear_act.val() {
            self.e_act[0].d.next = false;
        }
        if self.clear_pre_pre.val() {
            self.e_pre_pre[0].d.next = false;
        }
        // ---- Pop shifts towards the head, push writes the tail.
        self.target.next = self.len_r.q.val();
        self.cont_shift.next = self.cont.q.val();
        if self.pop.val() {
            self.target.next = self.len_r.q.val() - self.one4.val();
            for i in 0..(DEPTH - 1) {
                self.e_close[i].d.next = self.e_close[i + 1].q.val();
                self.e_pre_pre[i].d.next = self.e_pre_pre[i + 1].q.val();
                self.e_act[i].d.next = self.e_act[i + 1].q.val();
                self.e_ap[i].d.next = self.e_ap[i + 1].q.val();
                self.e_write[i].d.next = self.e_write[i + 1].q.val();
                self.e_row[i].d.next = self.e_row[i + 1].q.val();
                self.e_col[i].d.next = self.e_col[i + 1].q.val();
                self.e_words[i].d.next = self.e_words[i + 1].q.val();
            }
            for i in (DEPTH - 1)..DEPTH {
                self.e_close[i].d.next = false;
                self.e_pre_pre[i].d.next = false;
                self.e_act[i].d.next = false;
                self.e_ap[i].d.next = false;
                self.e_write[i].d.next = false;
                self.e_row[i].d.next = self.zero16.val();
                self.e_col[i].d.next = self.zero10.val();
                self.e_words[i].d.next = self.zero16.val();
            }
            self.cont_shift.next = self.cont.q.val() >> self.one4.val();
            self.len_r.d.next = self.len_r.q.val() - self.one4.val();
        }
        self.new_cont.next = !self.push_close.val()
            & !self.push_pre_pre.val()
            & !self.push_act.val()
            & !self.tail_ap.q.val();
        if self.push.val() {
            for i in 0..DEPTH {
                if self.target.val() == self.slot[i].val() {
                    self.e_close[i].d.next = self.push_close.val();
                    self.e_pre_pre[i].d.next = self.push_pre_pre.val() & !self.push_close.val();
                    self.e_act[i].d.next = self.push_act.val() & !self.push_close.val();
                    self.e_ap[i].d.next = self.push_ap.val() & !self.push_close.val();
                    self.e_write[i].d.next = self.push_write.val() & !self.push_close.val();
                    self.e_row[i].d.next = self.push_row.val();
                    self.e_col[i].d.next = self.push_col.val();
                    self.e_words[i].d.next = self.push_words.val();
                }
            }
            if self.new_cont.val() {
                self.cont.d.next = self.cont_shift.val() | (self.one_d.val() << self.target.val());
            }
            self.tail_ap.d.next = self.push_ap.val() & !self.push_close.val();
            self.len_r.d.next = self.target.val() + self.one4.val();
        }
        if !self.push.val() | !self.new_cont.val() {
            self.cont.d.next = self.cont_shift.val();
        }
        // ---- Rule 5's run: entries 0.. up to the first that does not continue the row.
        self.lowest_zero.next = !(self.cont.q.val() | self.one_d.val())
            & ((self.cont.q.val() | self.one_d.val()) + self.one_d.val());
        self.run.next = self.lowest_zero.val() - self.one_d.val();
        // ---- Outputs.
        self.len.next = self.len_r.q.val();
        self.full.next = self.len_r.q.val() == self.depth.val();
        self.head_close.next = self.e_close[0].q.val();
        self.head_pre_pre.next = self.e_pre_pre[0].q.val();
        self.head_act.next = self.e_act[0].q.val();
        self.head_ap.next = self.e_ap[0].q.val();
        self.head_write.next = self.e_write[0].q.val();
        self.head_row.next = self.e_row[0].q.val();
        self.head_col.next = self.e_col[0].q.val();
        self.head_words.next = self.e_words[0].q.val();
        if self.reset.val() {
            for i in 0..DEPTH {
                self.e_close[i].d.next = false;
                self.e_pre_pre[i].d.next = false;
                self.e_act[i].d.next = false;
                self.e_ap[i].d.next = false;
                self.e_write[i].d.next = false;
                self.e_row[i].d.next = self.zero16.val();
                self.e_col[i].d.next = self.zero10.val();
                self.e_words[i].d.next = self.zero16.val();
            }
            self.len_r.d.next = self.zero4.val();
            self.cont.d.next = self.zero_d.val();
            self.tail_ap.d.next = false;
        }
    }
}
