//! The controller top: it wires the request tracker ([`super::request::Requests`]), the
//! front-end, the command generator, the banks, the arbiter over the bank heads
//! ([`super::arbiter::Arbiter`]), the rank-level bounds and refresh
//! ([`super::rank::RankTimers`]) and the DQ scheduler, and summarises the banks' state; see the
//! module doc of [`super`] for the contract.

use super::arbiter::Arbiter;
use super::bank::Bank;
use super::cmdgen::CmdGen;
use super::dq::DqScheduler;
use super::frontend::FrontEnd;
use super::rank::RankTimers;
use super::request::Requests;
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
    /// The front-end: requests into bursts.
    fe: FrontEnd,
    /// The command generator: bursts into bank FIFO entries.
    gen: CmdGen<NB>,
    /// The banks: FIFOs, open rows, bank and bank-group bounds.
    banks: [Bank; NB],
    /// The arbiter over the bank heads, driving the command bus.
    arb: Arbiter<NB>,
    /// The rank-level bounds and refresh.
    rank: RankTimers,
    /// The request handshake and completion.
    req: Requests,
    /// The DQ scheduler: the data bus.
    dq: DqScheduler,
    /// Every bank FIFO is empty.
    all_empty: Signal<Local, Bit>,
    /// Every bank is closed.
    all_closed: Signal<Local, Bit>,
    /// No bank waits 3 or more cycles for its ACT bound.
    near: Signal<Local, Bit>,
    /// No bank waits for its ACT bound.
    settled: Signal<Local, Bit>,
    /// Sized 3, 8 bits.
    three8: Constant<Bits<8>>,
    /// Command code REF.
    c_ref: Constant<Bits<3>>,
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
            arb: Arbiter::new(part),
            rank: RankTimers::new(part, refresh_phase),
            req: Default::default(),
            dq: DqScheduler::new(part),
            all_empty: Default::default(),
            all_closed: Default::default(),
            near: Default::default(),
            settled: Default::default(),
            three8: k(3),
            c_ref: k(Command::Ref as u64),
        }
    }
}

impl<const NB: usize> Logic for DramCtrl<NB> {
    #[hdl_gen]
    fn update(&mut self) {
        self.fe.clock.next = self.clock.val();
        self.gen.clock.next = self.clock.val();
        self.arb.clock.next = self.clock.val();
        self.rank.clock.next = self.clock.val();
        self.req.clock.next = self.clock.val();
        self.dq.clock.next = self.clock.val();
        self.fe.reset.next = self.reset.val();
        self.gen.reset.next = self.reset.val();
        self.arb.reset.next = self.reset.val();
        self.rank.reset.next = self.reset.val();
        self.req.reset.next = self.reset.val();
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
        // ---- The request handshake and completion; the front-end.
        self.req.req_valid.next = self.req_valid.val();
        self.req.req_write.next = self.req_write.val();
        self.req.req_words.next = self.req_words.val();
        self.req.req_period.next = self.req_period.val();
        self.req.req_count.next = self.req_count.val();
        self.req.req_tag.next = self.req_tag.val();
        self.req.finished.next = self.fe.finished.val();
        self.req.drained.next = self.all_empty.val()
            & self.all_closed.val()
            & self.near.val()
            & self.rank.rfc_ending.val();
        self.req.refresh_owed.next = self.rank.owed.val().any();
        self.req_ready.next = self.req.req_ready.val();
        self.done.next = self.req.done.val();
        self.done_error.next = self.req.done_error.val();
        self.done_tag.next = self.req.done_tag.val();
        self.done_lid.next = self.req.done_lid.val();
        self.fe.start.next = self.req.start.val();
        self.fe.req_indexed.next = self.req_indexed.val();
        self.fe.req_addr.next = self.req_addr.val();
        self.fe.req_words.next = self.req_words.val();
        self.fe.req_period.next = self.req_period.val();
        self.fe.req_count.next = self.req_count.val();
        self.fe.idx_valid.next = self.idx_valid.val();
        self.fe.idx_addr.next = self.idx_addr.val();
        self.idx_ready.next = self.fe.idx_ready.val();
        // ---- Front-end → command generator → bank FIFOs.
        self.fe.accept.next = self.gen.accept.val();
        self.gen.burst_valid.next = self.fe.burst_valid.val();
        self.gen.burst.next = self.fe.burst.val();
        self.gen.burst_words.next = self.fe.burst_words.val();
        self.gen.burst_last.next = self.fe.burst_last.val();
        self.gen.succ.next = self.fe.succ.val();
        self.gen.indexed.next = self.fe.indexed.val();
        self.gen.write.next = self.req.write.val();
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
        // ---- Bank heads → arbiter → banks; the rank's bounds and refresh.
        self.arb.cas_ok.next = self.rank.cas_ok.val();
        self.arb.act_ok.next = self.rank.act_ok.val();
        for i in 0..NB {
            self.arb.step[i].next = self.banks[i].step.val();
            self.arb.legal[i].next = self.banks[i].legal.val();
            self.arb.run[i].next = self.banks[i].run.val();
            self.arb.head_ap[i].next = self.banks[i].head_ap.val();
            self.arb.head_write[i].next = self.banks[i].head_write.val();
            self.arb.head_row[i].next = self.banks[i].head_row.val();
            self.arb.head_col[i].next = self.banks[i].head_col.val();
            self.arb.head_words[i].next = self.banks[i].head_words.val();
            self.banks[i].issue.next = self.arb.issue[i].val();
            self.banks[i].bg_act.next = self.arb.bg_act[i].val();
            self.banks[i].bg_cas.next = self.arb.bg_cas[i].val();
        }
        self.rank.any.next = self.arb.any.val();
        self.rank.is_act.next = self.arb.is_act.val();
        self.rank.is_cas.next = self.arb.is_cas.val();
        self.rank.busy.next = self.req.busy.val();
        self.rank.all_empty.next = self.all_empty.val();
        self.rank.all_closed.next = self.all_closed.val();
        self.rank.settled.next = self.settled.val();
        self.ref_owed.next = self.rank.owed.val();
        self.ref_overflow.next = self.rank.overflow.val();
        // ---- The command bus: the arbiter's winner, or a REF.
        self.cmd.next = self.arb.cmd.val();
        if self.rank.ref_go.val() {
            self.cmd.next = self.c_ref.val();
        }
        self.cmd_bg.next = self.arb.cmd_bg.val();
        self.cmd_bank.next = self.arb.cmd_bank.val();
        self.cmd_row.next = self.arb.cmd_row.val();
        self.cmd_col.next = self.arb.cmd_col.val();
        // ---- The data bus.
        self.dq.cas.next = self.arb.is_cas.val();
        self.dq.cas_write.next = self.arb.sel_write.val();
        self.dq.cas_bg.next = self.arb.cmd_bg.val();
        self.dq.cas_bank.next = self.arb.cmd_bank.val();
        self.dq.cas_row.next = self.arb.sel_row.val();
        self.dq.cas_col.next = self.arb.sel_col.val();
        self.dq.cas_words.next = self.arb.sel_words.val();
        self.dq_valid.next = self.dq.dq_valid.val();
        self.dq_write.next = self.dq.dq_write.val();
        self.dq_bg.next = self.dq.dq_bg.val();
        self.dq_bank.next = self.dq.dq_bank.val();
        self.dq_row.next = self.dq.dq_row.val();
        self.dq_col.next = self.dq.dq_col.val();
        self.dq_beat.next = self.dq.dq_beat.val();
        self.dq_mask.next = self.dq.dq_mask.val();
    }
}
