//! The controller top: request handshake, the six-rule arbiter over the bank heads, rank-level
//! timing bounds, refresh and completion; see the module doc of [`super`] for the contract.

use super::bank::{Bank, Step};
use super::cmdgen::CmdGen;
use super::dq::DqScheduler;
use super::frontend::FrontEnd;
use crate::dram::{Command, Part};
use crate::hdl::k;
use rust_hdl::prelude::*;

/// The Sim-D DRAM controller with `NB` banks (8 or 16, the part's).
#[derive(LogicBlock)]
pub struct DramCtrl<const NB: usize> {
    /// DRAM command clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset.
    pub reset: Signal<In, Bit>,
    /// A request is presented.
    pub req_valid: Signal<In, Bit>,
    /// Its direction: 1 = write to DRAM.
    pub req_write: Signal<In, Bit>,
    /// Iterative indexed request (indexes on `idx_*`) rather than a tile.
    pub req_indexed: Signal<In, Bit>,
    /// First word address (tile).
    pub req_addr: Signal<In, Bits<30>>,
    /// Words per row (tile).
    pub req_words: Signal<In, Bits<30>>,
    /// Words from one row's start to the next (tile).
    pub req_period: Signal<In, Bits<30>>,
    /// Rows (tile) or indexes (indexed).
    pub req_count: Signal<In, Bits<16>>,
    /// Echoed with `done`.
    pub req_tag: Signal<In, Bits<8>>,
    /// An index (indexed request) is presented.
    pub idx_valid: Signal<In, Bit>,
    /// The index: a word address.
    pub idx_addr: Signal<In, Bits<30>>,
    /// The controller accepts a request in this cycle if one is presented.
    pub req_ready: Signal<Out, Bit>,
    /// The controller takes an index in this cycle if one is presented.
    pub idx_ready: Signal<Out, Bit>,
    /// The command on the bus in this cycle ([`Command`] code).
    pub cmd: Signal<Out, Bits<3>>,
    /// Its bank group.
    pub cmd_bg: Signal<Out, Bits<2>>,
    /// Its bank within the group.
    pub cmd_bank: Signal<Out, Bits<2>>,
    /// Its row (ACT, RD, RDA, WR, WRA; else 0).
    pub cmd_row: Signal<Out, Bits<16>>,
    /// Its column (RD, RDA, WR, WRA; else 0).
    pub cmd_col: Signal<Out, Bits<10>>,
    /// Data moves on the bus.
    pub dq_valid: Signal<Out, Bit>,
    /// ... to DRAM.
    pub dq_write: Signal<Out, Bit>,
    /// The data's bank group.
    pub dq_bg: Signal<Out, Bits<2>>,
    /// The data's bank within the group.
    pub dq_bank: Signal<Out, Bits<2>>,
    /// The data's row.
    pub dq_row: Signal<Out, Bits<16>>,
    /// The data's column.
    pub dq_col: Signal<Out, Bits<10>>,
    /// Which 4 words of the burst move (0..3).
    pub dq_beat: Signal<Out, Bits<2>>,
    /// Which of those 4 words are used.
    pub dq_mask: Signal<Out, Bits<4>>,
    /// A request completes.
    pub done: Signal<Out, Bit>,
    /// ... and was bad (no command issued).
    pub done_error: Signal<Out, Bit>,
    /// Its tag.
    pub done_tag: Signal<Out, Bits<8>>,
    /// Its LID from the trigger, in command cycles.
    pub done_lid: Signal<Out, Bits<32>>,
    /// Refreshes owed.
    pub ref_owed: Signal<Out, Bits<4>>,
    /// A ninth refresh fell due (sticky).
    pub ref_overflow: Signal<Out, Bit>,
    fe: FrontEnd,
    gen: CmdGen<NB>,
    banks: [Bank; NB],
    dq: DqScheduler,
    busy: DFF<Bit>,
    bad_r: DFF<Bit>,
    tag_r: DFF<Bits<8>>,
    bad_tag: DFF<Bits<8>>,
    write_r: DFF<Bit>,
    lid: DFF<Bits<32>>,
    cur_pair: DFF<Bits<16>>,
    ccd_s: DFF<Bits<8>>,
    rrd_s: DFF<Bits<8>>,
    faw: [DFF<Bits<8>>; 4],
    rfc: DFF<Bits<10>>,
    ref_cnt: DFF<Bits<14>>,
    owed: DFF<Bits<4>>,
    overflow: DFF<Bit>,
    // Arbitration.
    bad: Signal<Local, Bit>,
    accept: Signal<Local, Bit>,
    done_l: Signal<Local, Bit>,
    all_empty: Signal<Local, Bit>,
    all_closed: Signal<Local, Bit>,
    near: Signal<Local, Bit>,
    settled: Signal<Local, Bit>,
    cand: [Signal<Local, Bit>; NB],
    key: [Signal<Local, Bits<16>>; NB],
    inv: [Signal<Local, Bits<16>>; NB],
    win: [Signal<Local, Bit>; NB],
    any: Signal<Local, Bit>,
    sel: Signal<Local, Bits<4>>,
    sel_step: Signal<Local, Bits<3>>,
    sel16: Signal<Local, Bits<16>>,
    sel_bg: Signal<Local, Bits<4>>,
    sel_hi: Signal<Local, Bits<4>>,
    sel_ap: Signal<Local, Bit>,
    sel_write: Signal<Local, Bit>,
    sel_row: Signal<Local, Bits<16>>,
    sel_col: Signal<Local, Bits<10>>,
    sel_words: Signal<Local, Bits<16>>,
    is_act: Signal<Local, Bit>,
    is_cas: Signal<Local, Bit>,
    ref_go: Signal<Local, Bit>,
    ref_due: Signal<Local, Bit>,
    ccd_d: Signal<Local, Bits<8>>,
    rrd_d: Signal<Local, Bits<8>>,
    faw_d: [Signal<Local, Bits<8>>; 4],
    rfc_d: Signal<Local, Bits<10>>,
    idx: [Constant<Bits<4>>; NB],
    idx16: [Constant<Bits<16>>; NB],
    mask16: Constant<Bits<16>>,
    bg_of: [Constant<Bits<4>>; NB],
    bg_mask: Constant<Bits<4>>,
    bg_bits: Constant<Bits<4>>,
    pair_clear: Constant<Bits<16>>,
    ccd_s1: Constant<Bits<8>>,
    rrd_s1: Constant<Bits<8>>,
    faw1: Constant<Bits<8>>,
    rfc1: Constant<Bits<10>>,
    refi1: Constant<Bits<14>>,
    s_prepre: Constant<Bits<3>>,
    s_act: Constant<Bits<3>>,
    s_cas: Constant<Bits<3>>,
    c_nop: Constant<Bits<3>>,
    c_act: Constant<Bits<3>>,
    c_pre: Constant<Bits<3>>,
    c_rd: Constant<Bits<3>>,
    c_rda: Constant<Bits<3>>,
    c_wr: Constant<Bits<3>>,
    c_wra: Constant<Bits<3>>,
    c_ref: Constant<Bits<3>>,
    t_cas: Constant<Bits<16>>,
    t_prepre: Constant<Bits<16>>,
    t_act: Constant<Bits<16>>,
    at_tier: Constant<Bits<16>>,
    at_run: Constant<Bits<16>>,
    three8: Constant<Bits<8>>,
    three10: Constant<Bits<10>>,
    one4: Constant<Bits<4>>,
    one8: Constant<Bits<8>>,
    one10: Constant<Bits<10>>,
    one14: Constant<Bits<14>>,
    one16: Constant<Bits<16>>,
    one32: Constant<Bits<32>>,
    two32: Constant<Bits<32>>,
    eight4: Constant<Bits<4>>,
    zero2: Constant<Bits<2>>,
    zero4: Constant<Bits<4>>,
    zero8: Constant<Bits<8>>,
    zero10: Constant<Bits<10>>,
    zero14: Constant<Bits<14>>,
    zero16: Constant<Bits<16>>,
    zero32: Constant<Bits<32>>,
    phase: Constant<Bits<14>>,
}

impl<const NB: usize> DramCtrl<NB> {
    /// A controller for `part` whose refresh interval counter starts at `refresh_phase`.
    pub fn new(part: &Part, refresh_phase: u16) -> Self {
        assert_eq!(
            NB, part.banks as usize,
            "NB must equal the part's bank count"
        );
        assert!(
            refresh_phase < part.refi,
            "refresh_phase must be below tREFI"
        );
        let nbg = part.bank_groups as u64;
        let bg_bits = nbg.trailing_zeros() as u64;
        let t = |v: u16| v as u64;
        Self {
            clock: Default::default(),
            reset: Default::default(),
            req_valid: Default::default(),
            req_write: Default::default(),
            req_indexed: Default::default(),
            req_addr: Default::default(),
            req_words: Default::default(),
            req_period: Default::default(),
            req_count: Default::default(),
            req_tag: Default::default(),
            idx_valid: Default::default(),
            idx_addr: Default::default(),
            req_ready: Default::default(),
            idx_ready: Default::default(),
            cmd: Default::default(),
            cmd_bg: Default::default(),
            cmd_bank: Default::default(),
            cmd_row: Default::default(),
            cmd_col: Default::default(),
            dq_valid: Default::default(),
            dq_write: Default::default(),
            dq_bg: Default::default(),
            dq_bank: Default::default(),
            dq_row: Default::default(),
            dq_col: Default::default(),
            dq_beat: Default::default(),
            dq_mask: Default::default(),
            done: Default::default(),
            done_error: Default::default(),
            done_tag: Default::default(),
            done_lid: Default::default(),
            ref_owed: Default::default(),
            ref_overflow: Default::default(),
            fe: Default::default(),
            gen: CmdGen::new(part),
            banks: array_init::array_init(|_| Bank::new(part)),
            dq: DqScheduler::new(part),
            busy: Default::default(),
            bad_r: Default::default(),
            tag_r: Default::default(),
            bad_tag: Default::default(),
            write_r: Default::default(),
            lid: Default::default(),
            cur_pair: Default::default(),
            ccd_s: Default::default(),
            rrd_s: Default::default(),
            faw: array_init::array_init(|_| Default::default()),
            rfc: Default::default(),
            ref_cnt: Default::default(),
            owed: Default::default(),
            overflow: Default::default(),
            bad: Default::default(),
            accept: Default::default(),
            done_l: Default::default(),
            all_empty: Default::default(),
            all_closed: Default::default(),
            near: Default::default(),
            settled: Default::default(),
            cand: array_init::array_init(|_| Default::default()),
            key: array_init::array_init(|_| Default::default()),
            inv: array_init::array_init(|_| Default::default()),
            win: array_init::array_init(|_| Default::default()),
            any: Default::default(),
            sel: Default::default(),
            sel_step: Default::default(),
            sel16: Default::default(),
            sel_bg: Default::default(),
            sel_hi: Default::default(),
            sel_ap: Default::default(),
            sel_write: Default::default(),
            sel_row: Default::default(),
            sel_col: Default::default(),
            sel_words: Default::default(),
            is_act: Default::default(),
            is_cas: Default::default(),
            ref_go: Default::default(),
            ref_due: Default::default(),
            ccd_d: Default::default(),
            rrd_d: Default::default(),
            faw_d: array_init::array_init(|_| Default::default()),
            rfc_d: Default::default(),
            idx: array_init::array_init(|i| k(i as u64)),
            idx16: array_init::array_init(|i| k(i as u64)),
            mask16: k(NB as u64 - 1),
            bg_of: array_init::array_init(|i| k(i as u64 % nbg)),
            bg_mask: k(nbg - 1),
            bg_bits: k(bg_bits),
            pair_clear: k(0xE),
            ccd_s1: k(t(part.ccd_s) - 1),
            rrd_s1: k(t(part.rrd_s) - 1),
            faw1: k(t(part.faw) - 1),
            rfc1: k(t(part.rfc) - 1),
            refi1: k(t(part.refi) - 1),
            s_prepre: k(Step::PrePre as u64),
            s_act: k(Step::Act as u64),
            s_cas: k(Step::Cas as u64),
            c_nop: k(Command::Nop as u64),
            c_act: k(Command::Act as u64),
            c_pre: k(Command::Pre as u64),
            c_rd: k(Command::Rd as u64),
            c_rda: k(Command::Rda as u64),
            c_wr: k(Command::Wr as u64),
            c_wra: k(Command::Wra as u64),
            c_ref: k(Command::Ref as u64),
            t_cas: k(3),
            t_prepre: k(2),
            t_act: k(1),
            at_tier: k(12),
            at_run: k(4),
            three8: k(3),
            three10: k(3),
            one4: k(1),
            one8: k(1),
            one10: k(1),
            one14: k(1),
            one16: k(1),
            one32: k(1),
            two32: k(2),
            eight4: k(8),
            zero2: k(0),
            zero4: k(0),
            zero8: k(0),
            zero10: k(0),
            zero14: k(0),
            zero16: k(0),
            zero32: k(0),
            phase: k(refresh_phase as u64),
        }
    }
}

impl<const NB: usize> Logic for DramCtrl<NB> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, busy, bad_r, tag_r, bad_tag, write_r, lid, cur_pair, ccd_s, rrd_s, rfc,
            ref_cnt, owed, overflow
        );
        for i in 0..4 {
            self.faw[i].clock.next = self.clock.val();
            self.faw[i].d.next = self.faw[i].q.val();
        }
        self.fe.clock.next = self.clock.val();
        self.gen.clock.next = self.clock.val();
        self.dq.clock.next = self.clock.val();
        self.fe.reset.next = self.reset.val();
        self.gen.reset.next = self.reset.val();
        self.dq.reset.next = self.reset.val();
        // ---- Bank state summaries.
        self.all_empty.next = true;
        self.all_closed.next = true;
        self.near.next = true;
        self.settled.next = true;
        for i in 0..NB {
            self.banks[i].clock.next = self.clock.val();
            self.banks[i].reset.next = self.reset.val();
            if self.banks[i].len.val().any() {
                self.all_empty.next = false;
            }
            if self.banks[i].open.val() {
                self.all_closed.next = false;
            }
            if self.banks[i].act_wait.val() >= self.three8.val() {
                self.near.next = false;
            }
            if self.banks[i].act_wait.val().any() {
                self.settled.next = false;
            }
        }
        // ---- Completion and the request handshake.
        self.done_l.next = self.busy.q.val()
            & self.fe.finished.val()
            & self.all_empty.val()
            & self.all_closed.val()
            & self.near.val()
            & (self.rfc.q.val() < self.three10.val());
        self.req_ready.next = (!self.busy.q.val() | self.done_l.val()) & !self.owed.q.val().any();
        self.accept.next = self.req_valid.val()
            & (!self.busy.q.val() | self.done_l.val())
            & !self.owed.q.val().any();
        self.bad.next = !self.req_words.val().any()
            | !self.req_count.val().any()
            | ((self.req_count.val() != self.one16.val())
                & (self.req_period.val() < self.req_words.val()));
        self.fe.start.next = self.accept.val() & !self.bad.val();
        self.fe.req_indexed.next = self.req_indexed.val();
        self.fe.req_addr.next = self.req_addr.val();
        self.fe.req_words.next = self.req_words.val();
        self.fe.req_period.next = self.req_period.val();
        self.fe.req_count.next = self.req_count.val();
        self.fe.idx_valid.next = self.idx_valid.val();
        self.fe.idx_addr.next = self.idx_addr.val();
        self.idx_ready.next = self.fe.idx_ready.val();
        self.lid.d.next = self.lid.q.val() + self.one32.val();
        self.bad_r.d.next = false;
        if self.done_l.val() {
            self.busy.d.next = false;
        }
        if self.accept.val() {
            if self.bad.val() {
                self.bad_r.d.next = true;
                self.bad_tag.d.next = self.req_tag.val();
            } else {
                self.busy.d.next = true;
                self.tag_r.d.next = self.req_tag.val();
                self.write_r.d.next = self.req_write.val();
                self.lid.d.next = self.one32.val();
            }
        }
        self.done.next = self.done_l.val() | self.bad_r.q.val();
        self.done_error.next = self.bad_r.q.val();
        self.done_tag.next = self.zero8.val();
        self.done_lid.next = self.zero32.val();
        if self.done_l.val() {
            self.done_tag.next = self.tag_r.q.val();
            self.done_lid.next = self.lid.q.val() + self.two32.val();
        }
        if self.bad_r.q.val() {
            self.done_tag.next = self.bad_tag.q.val();
        }
        // ---- Front-end → command generator → bank FIFOs.
        self.fe.accept.next = self.gen.accept.val();
        self.gen.burst_valid.next = self.fe.burst_valid.val();
        self.gen.burst.next = self.fe.burst.val();
        self.gen.burst_words.next = self.fe.burst_words.val();
        self.gen.burst_last.next = self.fe.burst_last.val();
        self.gen.succ.next = self.fe.succ.val();
        self.gen.indexed.next = self.fe.indexed.val();
        self.gen.write.next = self.write_r.q.val();
        for i in 0..NB {
            self.gen.full[i].next = self.banks[i].full.val();
            self.banks[i].push.next = self.gen.push[i].val();
            self.banks[i].push_close.next = self.gen.push_close[i].val();
            self.banks[i].push_pre_pre.next = self.gen.e_pre_pre.val();
            self.banks[i].push_act.next = self.gen.e_act.val();
            self.banks[i].push_ap.next = self.gen.e_ap.val();
            self.banks[i].push_write.next = self.gen.e_write.val();
            self.banks[i].push_row.next = self.gen.e_row.val();
            self.banks[i].push_col.next = self.gen.e_col.val();
            self.banks[i].push_words.next = self.gen.e_words.val();
        }
        // ---- Arbiter: legal candidates, key = {tier, rule-5 run, closeness to cur_pair}.
        for i in 0..NB {
            self.inv[i].next = self.mask16.val()
                - ((self.idx16[i].val() - self.cur_pair.q.val()) & self.mask16.val());
            self.cand[i].next = self.banks[i].legal.val();
            self.key[i].next = self.inv[i].val();
            if self.banks[i].step.val() == self.s_cas.val() {
                self.cand[i].next = self.banks[i].legal.val() & !self.ccd_s.q.val().any();
                self.key[i].next = (self.t_cas.val() << self.at_tier.val()) | self.inv[i].val();
            }
            if self.banks[i].step.val() == self.s_prepre.val() {
                self.key[i].next = (self.t_prepre.val() << self.at_tier.val()) | self.inv[i].val();
            }
            if self.banks[i].step.val() == self.s_act.val() {
                self.cand[i].next = self.banks[i].legal.val()
                    & !self.rrd_s.q.val().any()
                    & !self.faw[3].q.val().any()
                    & !self.rfc.q.val().any();
                self.key[i].next = (self.t_act.val() << self.at_tier.val())
                    | (self.banks[i].run.val() << self.at_run.val())
                    | self.inv[i].val();
            }
        }
        for i in 0..NB {
            self.win[i].next = self.cand[i].val();
            for j in 0..NB {
                if self.cand[j].val() & (self.key[j].val() > self.key[i].val()) {
                    self.win[i].next = false;
                }
            }
        }
        self.any.next = false;
        self.sel.next = self.zero4.val();
        self.sel_step.next = self.c_nop.val();
        self.sel16.next = self.zero16.val();
        self.sel_ap.next = false;
        self.sel_write.next = false;
        self.sel_row.next = self.zero16.val();
        self.sel_col.next = self.zero10.val();
        self.sel_words.next = self.zero16.val();
        for i in 0..NB {
            if self.win[i].val() {
                self.any.next = true;
                self.sel.next = self.idx[i].val();
                self.sel_step.next = self.banks[i].step.val();
                self.sel16.next = self.idx16[i].val();
                self.sel_ap.next = self.banks[i].head_ap.val();
                self.sel_write.next = self.banks[i].head_write.val();
                self.sel_row.next = self.banks[i].head_row.val();
                self.sel_col.next = self.banks[i].head_col.val();
                self.sel_words.next = self.banks[i].head_words.val();
            }
        }
        self.is_act.next = self.any.val() & (self.sel_step.val() == self.s_act.val());
        self.is_cas.next = self.any.val() & (self.sel_step.val() == self.s_cas.val());
        for i in 0..NB {
            self.banks[i].issue.next = self.win[i].val();
            self.banks[i].bg_act.next =
                self.is_act.val() & ((self.sel.val() & self.bg_mask.val()) == self.bg_of[i].val());
            self.banks[i].bg_cas.next =
                self.is_cas.val() & ((self.sel.val() & self.bg_mask.val()) == self.bg_of[i].val());
        }
        // ---- Refresh (rule 6): between requests, everything closed and quiet.
        self.ref_go.next = !self.any.val()
            & self.owed.q.val().any()
            & !self.busy.q.val()
            & self.all_empty.val()
            & self.all_closed.val()
            & self.settled.val()
            & !self.rfc.q.val().any();
        self.ref_due.next = self.ref_cnt.q.val() == self.refi1.val();
        self.ref_cnt.d.next = self.ref_cnt.q.val() + self.one14.val();
        if self.ref_due.val() {
            self.ref_cnt.d.next = self.zero14.val();
        }
        if self.ref_due.val() & !self.ref_go.val() {
            if self.owed.q.val() == self.eight4.val() {
                self.overflow.d.next = true;
            } else {
                self.owed.d.next = self.owed.q.val() + self.one4.val();
            }
        }
        if self.ref_go.val() & !self.ref_due.val() {
            self.owed.d.next = self.owed.q.val() - self.one4.val();
        }
        // ---- Rank-level bounds.
        self.ccd_d.next = self.ccd_s.q.val();
        if self.ccd_s.q.val().any() {
            self.ccd_d.next = self.ccd_s.q.val() - self.one8.val();
        }
        self.rrd_d.next = self.rrd_s.q.val();
        if self.rrd_s.q.val().any() {
            self.rrd_d.next = self.rrd_s.q.val() - self.one8.val();
        }
        for i in 0..4 {
            self.faw_d[i].next = self.faw[i].q.val();
            if self.faw[i].q.val().any() {
                self.faw_d[i].next = self.faw[i].q.val() - self.one8.val();
            }
            self.faw[i].d.next = self.faw_d[i].val();
        }
        self.rfc_d.next = self.rfc.q.val();
        if self.rfc.q.val().any() {
            self.rfc_d.next = self.rfc.q.val() - self.one10.val();
        }
        self.ccd_s.d.next = self.ccd_d.val();
        self.rrd_s.d.next = self.rrd_d.val();
        self.rfc.d.next = self.rfc_d.val();
        if self.is_cas.val() {
            self.cur_pair.d.next = self.sel16.val() & self.pair_clear.val();
            if self.ccd_s1.val() > self.ccd_d.val() {
                self.ccd_s.d.next = self.ccd_s1.val();
            }
        }
        if self.is_act.val() {
            if self.rrd_s1.val() > self.rrd_d.val() {
                self.rrd_s.d.next = self.rrd_s1.val();
            }
            self.faw[0].d.next = self.faw1.val();
            for i in 1..4 {
                self.faw[i].d.next = self.faw_d[i - 1].val();
            }
        }
        if self.ref_go.val() {
            self.rfc.d.next = self.rfc1.val();
        }
        // ---- The command bus.
        self.sel_bg.next = self.sel.val() & self.bg_mask.val();
        self.sel_hi.next = self.sel.val() >> self.bg_bits.val();
        self.cmd.next = self.c_nop.val();
        self.cmd_bg.next = self.zero2.val();
        self.cmd_bank.next = self.zero2.val();
        self.cmd_row.next = self.zero16.val();
        self.cmd_col.next = self.zero10.val();
        if self.any.val() {
            self.cmd_bg.next = self.sel_bg.val().get_bits::<2>(0);
            self.cmd_bank.next = self.sel_hi.val().get_bits::<2>(0);
            self.cmd.next = self.c_pre.val();
        }
        if self.is_act.val() {
            self.cmd.next = self.c_act.val();
            self.cmd_row.next = self.sel_row.val();
        }
        if self.is_cas.val() {
            self.cmd_row.next = self.sel_row.val();
            self.cmd_col.next = self.sel_col.val();
            self.cmd.next = self.c_rd.val();
            if self.sel_ap.val() {
                self.cmd.next = self.c_rda.val();
            }
            if self.sel_write.val() {
                self.cmd.next = self.c_wr.val();
                if self.sel_ap.val() {
                    self.cmd.next = self.c_wra.val();
                }
            }
        }
        if self.ref_go.val() {
            self.cmd.next = self.c_ref.val();
        }
        // ---- The data bus.
        self.dq.cas.next = self.is_cas.val();
        self.dq.cas_write.next = self.sel_write.val();
        self.dq.cas_bg.next = self.sel_bg.val().get_bits::<2>(0);
        self.dq.cas_bank.next = self.sel_hi.val().get_bits::<2>(0);
        self.dq.cas_row.next = self.sel_row.val();
        self.dq.cas_col.next = self.sel_col.val();
        self.dq.cas_words.next = self.sel_words.val();
        self.dq_valid.next = self.dq.dq_valid.val();
        self.dq_write.next = self.dq.dq_write.val();
        self.dq_bg.next = self.dq.dq_bg.val();
        self.dq_bank.next = self.dq.dq_bank.val();
        self.dq_row.next = self.dq.dq_row.val();
        self.dq_col.next = self.dq.dq_col.val();
        self.dq_beat.next = self.dq.dq_beat.val();
        self.dq_mask.next = self.dq.dq_mask.val();
        self.ref_owed.next = self.owed.q.val();
        self.ref_overflow.next = self.overflow.q.val();
        if self.reset.val() {
            self.busy.d.next = false;
            self.bad_r.d.next = false;
            self.lid.d.next = self.zero32.val();
            self.cur_pair.d.next = self.zero16.val();
            self.ccd_s.d.next = self.zero8.val();
            self.rrd_s.d.next = self.zero8.val();
            for i in 0..4 {
                self.faw[i].d.next = self.zero8.val();
            }
            self.rfc.d.next = self.zero10.val();
            self.ref_cnt.d.next = self.phase.val();
            self.owed.d.next = self.zero4.val();
            self.overflow.d.next = false;
        }
    }
}
