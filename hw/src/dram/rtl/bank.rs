//! One DRAM bank: its command FIFO (the sub-block [`BankFifo`]), its open/closed state and its
//! timing bounds (bank and bank-group scope); the arbiter ([`crate::dram::DramCtrl`]) picks
//! among the banks' head steps.

use super::bank_fifo::BankFifo;
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

/// A bank: its FIFO (the sub-block [`BankFifo`]), open row, and the earliest-legal bounds as
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
    /// The command FIFO.
    fifo: BankFifo,
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
    t_pre: Signal<Local, Bits<8>>,
    ap_pre: Signal<Local, Bits<8>>,
    ap_act: Signal<Local, Bits<8>>,
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
    zero16: Constant<Bits<16>>,
    one8: Constant<Bits<8>>,
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
            fifo: Default::default(),
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
            t_pre: Default::default(),
            ap_pre: Default::default(),
            ap_act: Default::default(),
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
            zero16: k(0),
            one8: k(1),
        }
    }
}

impl Logic for Bank {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, open_r, row_r, act_w, cas_w, pre_w, ccd_l, rrd_l);
        // ---- The FIFO: pushes from the generator, pops and head updates from the issue.
        self.fifo.clock.next = self.clock.val();
        self.fifo.reset.next = self.reset.val();
        self.fifo.push.next = self.push.val();
        self.fifo.push_close.next = self.push_close.val();
        self.fifo.push_pre_pre.next = self.push_pre_pre.val();
        self.fifo.push_act.next = self.push_act.val();
        self.fifo.push_ap.next = self.push_ap.val();
        self.fifo.push_write.next = self.push_write.val();
        self.fifo.push_row.next = self.push_row.val();
        self.fifo.push_col.next = self.push_col.val();
        self.fifo.push_words.next = self.push_words.val();
        // ---- The head step.
        self.step_l.next = self.s_none.val();
        if self.fifo.len.val().any() {
            self.step_l.next = self.s_cas.val();
            if self.fifo.head_act.val() {
                self.step_l.next = self.s_act.val();
            }
            if self.fifo.head_pre_pre.val() {
                self.step_l.next = self.s_prepre.val();
            }
            if self.fifo.head_close.val() {
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
        if self.fifo.head_write.val() {
            self.t_pre.next = self.wrp.val();
        }
        self.ap_pre.next = self.t_pre.val();
        if self.pre_w.q.val() > self.t_pre.val() {
            self.ap_pre.next = self.pre_w.q.val();
        }
        self.ap_act.next = self.ap_pre.val() + self.rp1.val();
        // ---- Issue.
        self.pop.next = false;
        self.fifo.clear_act.next = false;
        self.fifo.clear_pre_pre.next = false;
        if self.issue.val() {
            if self.step_l.val() == self.s_act.val() {
                self.fifo.clear_act.next = true;
                self.open_r.d.next = true;
                self.row_r.d.next = self.fifo.head_row.val();
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
                self.fifo.clear_pre_pre.next = true;
            }
            if self.step_l.val() == self.s_close.val() {
                self.pop.next = true;
            }
            if self.step_l.val() == self.s_cas.val() {
                self.pop.next = true;
                if self.fifo.head_write.val() {
                    if self.wrp1.val() > self.pre_d.val() {
                        self.pre_w.d.next = self.wrp1.val();
                    }
                } else if self.rtp1.val() > self.pre_d.val() {
                    self.pre_w.d.next = self.rtp1.val();
                }
                if self.fifo.head_ap.val() {
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
        self.fifo.pop.next = self.pop.val();
        // ---- Outputs.
        self.len.next = self.fifo.len.val();
        self.full.next = self.fifo.full.val();
        self.step.next = self.step_l.val();
        self.run.next = self.fifo.run.val();
        self.head_ap.next = self.fifo.head_ap.val();
        self.head_write.next = self.fifo.head_write.val();
        self.head_row.next = self.fifo.head_row.val();
        self.head_col.next = self.fifo.head_col.val();
        self.head_words.next = self.fifo.head_words.val();
        self.open.next = self.open_r.q.val();
        self.act_wait.next = self.act_w.q.val();
        if self.reset.val() {
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
