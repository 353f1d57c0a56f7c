//! The arbiter over the bank heads (the Sim-D paper's rules 1-5): each cycle the legal head
//! with the highest key issues, key = {tier (CAS > pre-activate PRE > ACT > closing PRE),
//! Rule 5's queued-CAS run for an ACT, closeness to the active bank pair}. It drives the
//! command bus with the winner (the controller puts a REF there instead when refresh goes) and
//! hands the CAS fields to the DQ scheduler.

use super::bank::Step;
use crate::dram::{Command, Part};
use crate::hdl::k;
use rust_hdl::prelude::*;

/// The arbiter of [`crate::dram::DramCtrl`] over `NB` banks.
#[derive(LogicBlock)]
pub struct Arbiter<const NB: usize> {
    /// DRAM command clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset (active pair 0).
    pub reset: Signal<In, Bit>,
    /// Bank b's head step ([`Step`]).
    pub step: [Signal<In, Bits<3>>; NB],
    /// Bank b's head step is legal now (bank and bank-group bounds).
    pub legal: [Signal<In, Bit>; NB],
    /// Bank b's Rule 5 run (thermometer code of the CAS queued for the row its ACT opens).
    pub run: [Signal<In, Bits<16>>; NB],
    /// Bank b's head entry auto-precharges.
    pub head_ap: [Signal<In, Bit>; NB],
    /// Bank b's head entry writes.
    pub head_write: [Signal<In, Bit>; NB],
    /// Bank b's head entry's row.
    pub head_row: [Signal<In, Bits<16>>; NB],
    /// Bank b's head entry's column.
    pub head_col: [Signal<In, Bits<10>>; NB],
    /// Bank b's head entry's word mask.
    pub head_words: [Signal<In, Bits<16>>; NB],
    /// The rank allows a CAS now (tCCD_S).
    pub cas_ok: Signal<In, Bit>,
    /// The rank allows an ACT now (tRRD_S, tFAW, tRFC).
    pub act_ok: Signal<In, Bit>,
    /// Bank b's head issues in this cycle.
    pub issue: [Signal<Out, Bit>; NB],
    /// An ACT issues in bank b's bank group.
    pub bg_act: [Signal<Out, Bit>; NB],
    /// A CAS issues in bank b's bank group.
    pub bg_cas: [Signal<Out, Bit>; NB],
    /// Some head issues.
    pub any: Signal<Out, Bit>,
    /// The command issued is an ACT.
    pub is_act: Signal<Out, Bit>,
    /// The command issued is a CAS (RD, RDA, WR or WRA).
    pub is_cas: Signal<Out, Bit>,
    /// The command on the bus ([`Command`] code; NOP when nothing issues).
    pub cmd: Signal<Out, Bits<3>>,
    /// The winner's bank group.
    pub cmd_bg: Signal<Out, Bits<2>>,
    /// The winner's bank within the group.
    pub cmd_bank: Signal<Out, Bits<2>>,
    /// The command's row (ACT and CAS; else 0).
    pub cmd_row: Signal<Out, Bits<16>>,
    /// The command's column (CAS; else 0).
    pub cmd_col: Signal<Out, Bits<10>>,
    /// The winner's head entry writes.
    pub sel_write: Signal<Out, Bit>,
    /// The winner's head entry's row (whatever its step).
    pub sel_row: Signal<Out, Bits<16>>,
    /// The winner's head entry's column (whatever its step).
    pub sel_col: Signal<Out, Bits<10>>,
    /// The winner's head entry's word mask.
    pub sel_words: Signal<Out, Bits<16>>,
    /// The active bank pair (bank index with its lowest bit clear), set by each CAS.
    cur_pair: DFF<Bits<16>>,
    /// Bank b's head may issue (legal, and the rank allows its kind).
    cand: [Signal<Local, Bit>; NB],
    /// Bank b's priority key.
    key: [Signal<Local, Bits<16>>; NB],
    /// Bank b's closeness to the active pair: NB − 1 − ((b − cur_pair) mod NB).
    inv: [Signal<Local, Bits<16>>; NB],
    /// Bank b is a candidate and no candidate has a higher key.
    win: [Signal<Local, Bit>; NB],
    /// The winner's index.
    sel: Signal<Local, Bits<4>>,
    /// The winner's step.
    sel_step: Signal<Local, Bits<3>>,
    /// The winner's index on 16 bits.
    sel16: Signal<Local, Bits<16>>,
    /// The winner's bank group (the low bits of its index; sliced to 2 bits).
    sel_bg: Signal<Local, Bits<4>>,
    /// The winner's bank within its group (the high bits of its index; sliced to 2 bits).
    sel_hi: Signal<Local, Bits<4>>,
    /// The winner's head entry auto-precharges.
    sel_ap: Signal<Local, Bit>,
    /// Bank b's index.
    idx: [Constant<Bits<4>>; NB],
    /// Bank b's index on 16 bits.
    idx16: [Constant<Bits<16>>; NB],
    /// NB − 1.
    mask16: Constant<Bits<16>>,
    /// Bank b's bank group.
    bg_of: [Constant<Bits<4>>; NB],
    /// Bank groups − 1: the bank-group bits of an index.
    bg_mask: Constant<Bits<4>>,
    /// log2(bank groups): the shift to the bank within the group.
    bg_bits: Constant<Bits<4>>,
    /// Clears the lowest bit of a bank index (its pair).
    pair_clear: Constant<Bits<16>>,
    /// Step code: pre-activate PRE.
    s_prepre: Constant<Bits<3>>,
    /// Step code: ACT.
    s_act: Constant<Bits<3>>,
    /// Step code: CAS.
    s_cas: Constant<Bits<3>>,
    /// Command code NOP.
    c_nop: Constant<Bits<3>>,
    /// Command code ACT.
    c_act: Constant<Bits<3>>,
    /// Command code PRE.
    c_pre: Constant<Bits<3>>,
    /// Command code RD.
    c_rd: Constant<Bits<3>>,
    /// Command code RDA.
    c_rda: Constant<Bits<3>>,
    /// Command code WR.
    c_wr: Constant<Bits<3>>,
    /// Command code WRA.
    c_wra: Constant<Bits<3>>,
    /// Tier of a CAS.
    t_cas: Constant<Bits<16>>,
    /// Tier of a pre-activate PRE.
    t_prepre: Constant<Bits<16>>,
    /// Tier of an ACT.
    t_act: Constant<Bits<16>>,
    /// Bit position of the tier in the key.
    at_tier: Constant<Bits<16>>,
    /// Bit position of the Rule 5 run in the key.
    at_run: Constant<Bits<16>>,
    /// Sized zero, 4 bits.
    zero4: Constant<Bits<4>>,
    /// Sized zero, 10 bits.
    zero10: Constant<Bits<10>>,
    /// Sized zero, 16 bits.
    zero16: Constant<Bits<16>>,
}

impl<const NB: usize> Arbiter<NB> {
    /// The arbiter for `part`'s bank groups.
    pub fn new(part: &Part) -> Self {
        let nbg = part.bank_groups as u64;
        Self {
            clock: Default::default(),
            reset: Default::default(),
            step: array_init::array_init(|_| Default::default()),
            legal: array_init::array_init(|_| Default::default()),
            run: array_init::array_init(|_| Default::default()),
            head_ap: array_init::array_init(|_| Default::default()),
            head_write: array_init::array_init(|_| Default::default()),
            head_row: array_init::array_init(|_| Default::default()),
            head_col: array_init::array_init(|_| Default::default()),
            head_words: array_init::array_init(|_| Default::default()),
            cas_ok: Default::default(),
            act_ok: Default::default(),
            issue: array_init::array_init(|_| Default::default()),
            bg_act: array_init::array_init(|_| Default::default()),
            bg_cas: array_init::array_init(|_| Default::default()),
            any: Default::default(),
            is_act: Default::default(),
            is_cas: Default::default(),
            cmd: Default::default(),
            cmd_bg: Default::default(),
            cmd_bank: Default::default(),
            cmd_row: Default::default(),
            cmd_col: Default::default(),
            sel_write: Default::default(),
            sel_row: Default::default(),
            sel_col: Default::default(),
            sel_words: Default::default(),
            cur_pair: Default::default(),
            cand: array_init::array_init(|_| Default::default()),
            key: array_init::array_init(|_| Default::default()),
            inv: array_init::array_init(|_| Default::default()),
            win: array_init::array_init(|_| Default::default()),
            sel: Default::default(),
            sel_step: Default::default(),
            sel16: Default::default(),
            sel_bg: Default::default(),
            sel_hi: Default::default(),
            sel_ap: Default::default(),
            idx: array_init::array_init(|i| k(i as u64)),
            idx16: array_init::array_init(|i| k(i as u64)),
            mask16: k(NB as u64 - 1),
            bg_of: array_init::array_init(|i| k(i as u64 % nbg)),
            bg_mask: k(nbg - 1),
            bg_bits: k(nbg.trailing_zeros() as u64),
            pair_clear: k(0xE),
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
            t_cas: k(3),
            t_prepre: k(2),
            t_act: k(1),
            at_tier: k(12),
            at_run: k(4),
            zero4: k(0),
            zero10: k(0),
            zero16: k(0),
        }
    }
}

impl<const NB: usize> Logic for Arbiter<NB> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, cur_pair);
        // ---- Legal candidates, key = {tier, rule-5 run, closeness to cur_pair}.
        for i in 0..NB {
            self.inv[i].next = self.mask16.val()
                - ((self.idx16[i].val() - self.cur_pair.q.val()) & self.mask16.val());
            self.cand[i].next = self.legal[i].val();
            self.key[i].next = self.inv[i].val();
            if self.step[i].val() == self.s_cas.val() {
                self.cand[i].next = self.legal[i].val() & self.cas_ok.val();
                self.key[i].next = (self.t_cas.val() << self.at_tier.val()) | self.inv[i].val();
            }
            if self.step[i].val() == self.s_prepre.val() {
                self.key[i].next = (self.t_prepre.val() << self.at_tier.val()) | self.inv[i].val();
            }
            if self.step[i].val() == self.s_act.val() {
                self.cand[i].next = self.legal[i].val() & self.act_ok.val();
                self.key[i].next = (self.t_act.val() << self.at_tier.val())
                    | (self.run[i].val() << self.at_run.val())
                    | self.inv[i].val();
            }
        }
        // ---- The highest key wins (keys are distinct: closeness differs per bank).
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
                self.sel_step.next = self.step[i].val();
                self.sel16.next = self.idx16[i].val();
                self.sel_ap.next = self.head_ap[i].val();
                self.sel_write.next = self.head_write[i].val();
                self.sel_row.next = self.head_row[i].val();
                self.sel_col.next = self.head_col[i].val();
                self.sel_words.next = self.head_words[i].val();
            }
        }
        self.is_act.next = self.any.val() & (self.sel_step.val() == self.s_act.val());
        self.is_cas.next = self.any.val() & (self.sel_step.val() == self.s_cas.val());
        for i in 0..NB {
            self.issue[i].next = self.win[i].val();
            self.bg_act[i].next =
                self.is_act.val() & ((self.sel.val() & self.bg_mask.val()) == self.bg_of[i].val());
            self.bg_cas[i].next =
                self.is_cas.val() & ((self.sel.val() & self.bg_mask.val()) == self.bg_of[i].val());
        }
        // ---- The active pair follows the CAS.
        if self.is_cas.val() {
            self.cur_pair.d.next = self.sel16.val() & self.pair_clear.val();
        }
        if self.reset.val() {
            self.cur_pair.d.next = self.zero16.val();
        }
        // ---- The command bus.
        self.sel_bg.next = self.sel.val() & self.bg_mask.val();
        self.sel_hi.next = self.sel.val() >> self.bg_bits.val();
        self.cmd_bg.next = self.sel_bg.val().get_bits::<2>(0);
        self.cmd_bank.next = self.sel_hi.val().get_bits::<2>(0);
        self.cmd.next = self.c_nop.val();
        self.cmd_row.next = self.zero16.val();
        self.cmd_col.next = self.zero10.val();
        if self.any.val() {
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
    }
}
