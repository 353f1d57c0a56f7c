//! One DRAM bank's command FIFO, its open/closed state and its timing bounds (bank and
//! bank-group scope); the arbiter ([`crate::dram::DramCtrl`]) picks among the banks' head steps.

use crate::dram::Part;
use crate::hdl::k;
use rust_hdl::prelude::*;

/// FIFO depth (our choice: the Sim-D paper gives none).
pub const DEPTH: usize = 8;

/// The head step of a bank: what it would issue next.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Step {
    /// Empty FIFO.
    None = 0,
    /// A stand-alone (closing) PRE.
    Close = 1,
    /// The pre-activate PRE of a compound entry (indexed requests).
    PrePre = 2,
    /// The ACT of a compound entry.
    Act = 3,
    /// The RD/WR (with auto-precharge when `ap`) of a compound entry.
    Cas = 4,
}

/// A bank: FIFO (shift register, entry 0 = head), open row, and the earliest-legal bounds as
/// down-counters (value k in cycle t = legal from t + k).
#[derive(LogicBlock)]
pub struct Bank {
    /// DRAM command clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset.
    pub reset: Signal<In, Bit>,
    /// Append an entry at the tail at the edge.
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
    /// The arbiter issues this bank's head step in this cycle.
    pub issue: Signal<In, Bit>,
    /// An ACT issues in this cycle to a bank of this bank's group (this one included).
    pub bg_act: Signal<In, Bit>,
    /// A RD/WR issues in this cycle to a bank of this bank's group (this one included).
    pub bg_cas: Signal<In, Bit>,
    /// Entries in the FIFO (0..=8).
    pub len: Signal<Out, Bits<4>>,
    /// The FIFO holds 8 entries.
    pub full: Signal<Out, Bit>,
    /// The head step ([`Step`]).
    pub step: Signal<Out, Bits<3>>,
    /// The head step is legal at bank and bank-group scope in this cycle.
    pub legal: Signal<Out, Bit>,
    /// Rule 5's count of CAS queued for the row an ACT opens, as a thermometer code (bit i
    /// set = entry i counts); compares like the count.
    pub run: Signal<Out, Bits<16>>,
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
    /// The bank is open (an ACT issued, no PRE/RDA/WRA since).
    pub open: Signal<Out, Bit>,
    /// Cycles until an ACT (and, bank-wise, a REF) is legal.
    pub act_wait: Signal<Out, Bits<8>>,
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
    open_r: DFF<Bit>,
    row_r: DFF<Bits<16>>,
    act_w: DFF<Bits<8>>,
    cas_w: DFF<Bits<8>>,
    pre_w: DFF<Bits<8>>,
    ccd_l: DFF<Bits<8>>,
    rrd_l: DFF<Bits<8>>,
    // Decremented bounds and the head's fields.
    act_d: Signal<Local, Bits<8>>,
    cas_d: Signal<Local, Bits<8>>,
    pre_d: Signal<Local, Bits<8>>,
    ccd_d: Signal<Local, Bits<8>>,
    rrd_d: Signal<Local, Bits<8>>,
    step_l: Signal<Local, Bits<3>>,
    pop: Signal<Local, Bit>,
    target: Signal<Local, Bits<4>>,
    cont_shift: Signal<Local, Bits<16>>,
    new_cont: Signal<Local, Bit>,
    t_pre: Signal<Local, Bits<8>>,
    ap_pre: Signal<Local, Bits<8>>,
    ap_act: Signal<Local, Bits<8>>,
    lowest_zero: Signal<Local, Bits<16>>,
    slot: [Constant<Bits<4>>; DEPTH],
    // Timing constants: d − 1 for the bound "legal from t + d".
    rc1: Constant<Bits<8>>,
    rcd1: Constant<Bits<8>>,
    ras1: Constant<Bits<8>>,
    rtp1: Constant<Bits<8>>,
    wrp1: Constant<Bits<8>>,
    rp1: Constant<Bits<8>>,
    rtp: Constant<Bits<8>>,
    wrp: Constant<Bits<8>>,
    ccd_l1: Constant<Bits<8>>,
    rrd_l1: Constant<Bits<8>>,
    // Codes and sized constants.
    s_none: Constant<Bits<3>>,
    s_close: Constant<Bits<3>>,
    s_prepre: Constant<Bits<3>>,
    s_act: Constant<Bits<3>>,
    s_cas: Constant<Bits<3>>,
    zero8: Constant<Bits<8>>,
    one4: Constant<Bits<4>>,
    one8: Constant<Bits<8>>,
    zero4: Constant<Bits<4>>,
    zero16: Constant<Bits<16>>,
    one_d: Constant<Bits<16>>,
    zero_d: Constant<Bits<16>>,
    zero10: Constant<Bits<10>>,
    depth: Constant<Bits<4>>,
}

impl Bank {
    /// A bank of `part`.
    pub fn new(part: &Part) -> Self {
        let t = |v: u16| v as u64;
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
            issue: Default::default(),
            bg_act: Default::default(),
            bg_cas: Default::default(),
            len: Default::default(),
            full: Default::default(),
            step: Default::default(),
            legal: Default::default(),
            run: Default::default(),
            head_ap: Default::default(),
            head_write: Default::default(),
            head_row: Default::default(),
            head_col: Default::default(),
            head_words: Default::default(),
            open: Default::default(),
            act_wait: Default::default(),
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
            open_r: Default::default(),
            row_r: Default::default(),
            act_w: Default::default(),
            cas_w: Default::default(),
            pre_w: Default::default(),
            ccd_l: Default::default(),
            rrd_l: Default::default(),
            act_d: Default::default(),
            cas_d: Default::default(),
            pre_d: Default::default(),
            ccd_d: Default::default(),
            rrd_d: Default::default(),
            step_l: Default::default(),
            pop: Default::default(),
            target: Default::default(),
            cont_shift: Default::default(),
            new_cont: Default::default(),
            t_pre: Default::default(),
            ap_pre: Default::default(),
            ap_act: Default::default(),
            lowest_zero: Default::default(),
            slot: array_init::array_init(|i| k(i as u64)),
            rc1: k(t(part.rc) - 1),
            rcd1: k(t(part.rcd) - 1),
            ras1: k(t(part.ras) - 1),
            rtp1: k(t(part.rtp) - 1),
            wrp1: k(t(part.write_to_pre()) - 1),
            rp1: k(t(part.rp) - 1),
            rtp: k(t(part.rtp)),
            wrp: k(t(part.write_to_pre())),
            ccd_l1: k(t(part.ccd_l) - 1),
            rrd_l1: k(t(part.rrd_l) - 1),
            s_none: k(Step::None as u64),
            s_close: k(Step::Close as u64),
            s_prepre: k(Step::PrePre as u64),
            s_act: k(Step::Act as u64),
            s_cas: k(Step::Cas as u64),
            zero8: k(0),
            one4: k(1),
            one8: k(1),
            zero4: k(0),
            zero16: k(0),
            one_d: k(1),
            zero_d: k(0),
            zero10: k(0),
            depth: k(DEPTH as u64),
        }
    }
}

impl Logic for Bank {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, len_r, cont, tail_ap, open_r, row_r, act_w, cas_w, pre_w, ccd_l, rrd_l
        );
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
        // ---- The head step.
        self.step_l.next = self.s_none.val();
        if self.len_r.q.val().any() {
            self.step_l.next = self.s_cas.val();
            if self.e_act[0].q.val() {
                self.step_l.next = self.s_act.val();
            }
            if self.e_pre_pre[0].q.val() {
                self.step_l.next = self.s_prepre.val();
            }
            if self.e_close[0].q.val() {
                self.step_l.next = self.s_close.val();
            }
        }
        // ---- Bounds count down to 0.
        self.act_d.next = self.act_w.q.val();
        if self.act_w.q.val().any() {
            self.act_d.next = self.act_w.q.val() - self.one8.val();
        }
        self.cas_d.next = self.cas_w.q.val();
        if self.cas_w.q.val().any() {
            self.cas_d.next = self.cas_w.q.val() - self.one8.val();
        }
        self.pre_d.next = self.pre_w.q.val();
        if self.pre_w.q.val().any() {
            self.pre_d.next = self.pre_w.q.val() - self.one8.val();
        }
        self.ccd_d.next = self.ccd_l.q.val();
        if self.ccd_l.q.val().any() {
            self.ccd_d.next = self.ccd_l.q.val() - self.one8.val();
        }
        self.rrd_d.next = self.rrd_l.q.val();
        if self.rrd_l.q.val().any() {
            self.rrd_d.next = self.rrd_l.q.val() - self.one8.val();
        }
        self.act_w.d.next = self.act_d.val();
        self.cas_w.d.next = self.cas_d.val();
        self.pre_w.d.next = self.pre_d.val();
        self.ccd_l.d.next = self.ccd_d.val();
        self.rrd_l.d.next = self.rrd_d.val();
        // ---- Legality at bank and bank-group scope.
        self.legal.next = false;
        if self.step_l.val() == self.s_cas.val() {
            self.legal.next = !self.cas_w.q.val().any() & !self.ccd_l.q.val().any();
        }
        if self.step_l.val() == self.s_act.val() {
            self.legal.next = !self.act_w.q.val().any() & !self.rrd_l.q.val().any();
        }
        if (self.step_l.val() == self.s_prepre.val()) | (self.step_l.val() == self.s_close.val()) {
            self.legal.next = !self.pre_w.q.val().any();
        }
        // ---- Auto-precharge: the internal PRE at max(t + tCAS→PRE, the RAS bound).
        self.t_pre.next = self.rtp.val();
        if self.e_write[0].q.val() {
            self.t_pre.next = self.wrp.val();
        }
        self.ap_pre.next = self.t_pre.val();
        if self.pre_w.q.val() > self.t_pre.val() {
            self.ap_pre.next = self.pre_w.q.val();
        }
        self.ap_act.next = self.ap_pre.val() + self.rp1.val();
        // ---- Issue.
        self.pop.next = false;
        if self.issue.val() {
            if self.step_l.val() == self.s_act.val() {
                self.e_act[0].d.next = false;
                self.open_r.d.next = true;
                self.row_r.d.next = self.e_row[0].q.val();
                if self.rc1.val() > self.act_d.val() {
                    self.act_w.d.next = self.rc1.val();
                }
                if self.rcd1.val() > self.cas_d.val() {
                    self.cas_w.d.next = self.rcd1.val();
                }
                if self.ras1.val() > self.pre_d.val() {
                    self.pre_w.d.next = self.ras1.val();
                }
            }
            if (self.step_l.val() == self.s_prepre.val())
                | (self.step_l.val() == self.s_close.val())
            {
                self.open_r.d.next = false;
                if self.rp1.val() > self.act_d.val() {
                    self.act_w.d.next = self.rp1.val();
                }
            }
            if self.step_l.val() == self.s_prepre.val() {
                self.e_pre_pre[0].d.next = false;
            }
            if self.step_l.val() == self.s_close.val() {
                self.pop.next = true;
            }
            if self.step_l.val() == self.s_cas.val() {
                self.pop.next = true;
                if self.e_write[0].q.val() {
                    if self.wrp1.val() > self.pre_d.val() {
                        self.pre_w.d.next = self.wrp1.val();
                    }
                } else if self.rtp1.val() > self.pre_d.val() {
                    self.pre_w.d.next = self.rtp1.val();
                }
                if self.e_ap[0].q.val() {
                    self.open_r.d.next = false;
                    if self.ap_act.val() > self.act_d.val() {
                        self.act_w.d.next = self.ap_act.val();
                    }
                }
            }
        }
        if self.bg_act.val() & (self.rrd_l1.val() > self.rrd_d.val()) {
            self.rrd_l.d.next = self.rrd_l1.val();
        }
        if self.bg_cas.val() & (self.ccd_l1.val() > self.ccd_d.val()) {
            self.ccd_l.d.next = self.ccd_l1.val();
        }
        // ---- FIFO: pop shifts towards the head, push writes the tail.
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
        self.step.next = self.step_l.val();
        self.head_ap.next = self.e_ap[0].q.val();
        self.head_write.next = self.e_write[0].q.val();
        self.head_row.next = self.e_row[0].q.val();
        self.head_col.next = self.e_col[0].q.val();
        self.head_words.next = self.e_words[0].q.val();
        self.open.next = self.open_r.q.val();
        self.act_wait.next = self.act_w.q.val();
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
            self.open_r.d.next = false;
            self.row_r.d.next = self.zero16.val();
            self.act_w.d.next = self.zero8.val();
            self.cas_w.d.next = self.zero8.val();
            self.pre_w.d.next = self.zero8.val();
            self.ccd_l.d.next = self.zero8.val();
            self.rrd_l.d.next = self.zero8.val();
        }
    }
}
