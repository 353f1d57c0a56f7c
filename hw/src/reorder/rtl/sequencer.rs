//! The reordering unit's sequencer: the configuration registers (`rule`, `parallel`,
//! `bypass`, loaded at every IDLE edge), the state machine IDLE/SELECT/SEARCH/ISSUE/DONE/ERROR
//! with the error code, and the registers SELECT and SEARCH fill: the target slot, its expected
//! sequence number and `pc_idx`, the search pointer, the watchdog's wait counter and the found
//! entry (see [`super::unit`] for what each state does).

use crate::hdl::k;
use rust_hdl::prelude::*;

/// `state` output codes.
const IDLE: u64 = 0;
/// SELECT.
const SELECT: u64 = 1;
/// SEARCH.
const SEARCH: u64 = 2;
/// ISSUE.
const ISSUE: u64 = 3;
/// DONE.
const DONE: u64 = 4;
/// ERROR.
const ERROR: u64 = 5;

/// The sequencer of [`super::unit::Reorder`].
#[derive(LogicBlock)]
pub struct Sequencer {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: IDLE, no error, configuration and search registers 0.
    pub reset: Signal<In, Bit>,
    /// Key fields (loaded while IDLE).
    pub rule: Signal<In, Bits<2>>,
    /// Channel search compares every entry in one cycle (loaded while IDLE).
    pub parallel: Signal<In, Bit>,
    /// Reordering off (loaded while IDLE; `start` is ignored in bypass).
    pub bypass: Signal<In, Bit>,
    /// IDLE → SELECT.
    pub start: Signal<In, Bit>,
    /// A map write (in DONE it returns the unit to IDLE).
    pub map_we: Signal<In, Bit>,
    /// The downstream takes the released instruction at this edge.
    pub rel_ready: Signal<In, Bit>,
    /// Most cycles SEARCH may wait (0 = no limit).
    pub watchdog: Signal<In, Bits<16>>,
    /// The argmin found a pending slot.
    pub any: Signal<In, Bit>,
    /// The argmin slot.
    pub sel_slot: Signal<In, Bits<6>>,
    /// The argmin slot's sequence counter.
    pub sel_seq: Signal<In, Bits<8>>,
    /// The argmin slot's head `pc_idx`.
    pub sel_pc: Signal<In, Bits<8>>,
    /// The target channel holds the expected sequence number.
    pub hit: Signal<In, Bit>,
    /// Its place in the target channel.
    pub hit_index: Signal<In, Bits<4>>,
    /// Its tag.
    pub hit_tag: Signal<In, Bits<8>>,
    /// It is a store.
    pub hit_store: Signal<In, Bit>,
    /// Its `pc_idx` is the expected one.
    pub pc_ok: Signal<In, Bit>,
    /// The target channel's count after the edge.
    pub count_after: Signal<In, Bits<5>>,
    /// A request for an unmapped slot is presented.
    pub unmapped: Signal<In, Bit>,
    /// IDLE 0, SELECT 1, SEARCH 2, ISSUE 3, DONE 4, ERROR 5.
    pub state: Signal<Out, Bits<3>>,
    /// 0 none, 1 wrong `pc_idx`, 2 watchdog, 3 unmapped slot.
    pub error: Signal<Out, Bits<2>>,
    /// The state is IDLE.
    pub is_idle: Signal<Out, Bit>,
    /// The state is DONE.
    pub is_done: Signal<Out, Bit>,
    /// The state is ISSUE.
    pub is_issue: Signal<Out, Bit>,
    /// ISSUE with `rel_ready`: the target channel pops, the target slot advances.
    pub retire: Signal<Out, Bit>,
    /// The latched `rule`.
    pub cfg_rule: Signal<Out, Bits<2>>,
    /// The latched `parallel`.
    pub cfg_parallel: Signal<Out, Bit>,
    /// The latched `bypass`.
    pub cfg_bypass: Signal<Out, Bit>,
    /// The slot the unit waits at.
    pub target: Signal<Out, Bits<6>>,
    /// The sequence number the unit expects from `target`.
    pub expect_seq: Signal<Out, Bits<8>>,
    /// The target's head `pc_idx`, latched at SELECT.
    pub expect_pc: Signal<Out, Bits<8>>,
    /// The search pointer (sequential mode).
    pub sp: Signal<Out, Bits<5>>,
    /// The found entry's place in the target channel (ISSUE).
    pub found: Signal<Out, Bits<4>>,
    /// The found entry's tag.
    pub found_tag: Signal<Out, Bits<8>>,
    /// The found entry is a store.
    pub found_store: Signal<Out, Bit>,
    /// State register.
    state_r: DFF<Bits<3>>,
    /// Error code register.
    error_r: DFF<Bits<2>>,
    /// Configuration: key fields.
    rule_r: DFF<Bits<2>>,
    /// Configuration: parallel search.
    parallel_r: DFF<Bit>,
    /// Configuration: bypass.
    bypass_r: DFF<Bit>,
    /// The target slot.
    target_r: DFF<Bits<6>>,
    /// The expected sequence number.
    expect_seq_r: DFF<Bits<8>>,
    /// The target's head `pc_idx`, latched at SELECT.
    expect_pc_r: DFF<Bits<8>>,
    /// Search pointer (sequential mode).
    sp_r: DFF<Bits<5>>,
    /// SEARCH cycles without a match in the current search (saturating).
    wait_r: DFF<Bits<16>>,
    /// The found entry's place in the target channel.
    found_r: DFF<Bits<4>>,
    /// The found entry's tag.
    found_tag_r: DFF<Bits<8>>,
    /// The found entry's store bit.
    found_store_r: DFF<Bit>,
    /// The state is SELECT.
    is_select: Signal<Local, Bit>,
    /// The state is SEARCH.
    is_search: Signal<Local, Bit>,
    /// The watchdog bound is reached.
    timeout: Signal<Local, Bit>,
    /// The search pointer + 1.
    sp_inc: Signal<Local, Bits<5>>,
    /// The next state before error 3.
    state_pre: Signal<Local, Bits<3>>,
    /// An unmapped request errors at this edge (the state is not ERROR already).
    err_unmapped: Signal<Local, Bit>,
    /// State code IDLE.
    st_idle: Constant<Bits<3>>,
    /// State code SELECT.
    st_select: Constant<Bits<3>>,
    /// State code SEARCH.
    st_search: Constant<Bits<3>>,
    /// State code ISSUE.
    st_issue: Constant<Bits<3>>,
    /// State code DONE.
    st_done: Constant<Bits<3>>,
    /// State code ERROR.
    st_error: Constant<Bits<3>>,
    /// Error code: none.
    err_none: Constant<Bits<2>>,
    /// Error code: wrong `pc_idx`.
    err_pc: Constant<Bits<2>>,
    /// Error code: watchdog.
    err_watchdog: Constant<Bits<2>>,
    /// Error code: unmapped slot.
    err_unmapped_code: Constant<Bits<2>>,
    /// Sized zero, 2 bits.
    zero2: Constant<Bits<2>>,
    /// Sized zero, 4 bits.
    zero4: Constant<Bits<4>>,
    /// Sized zero, 5 bits.
    zero5: Constant<Bits<5>>,
    /// Sized 1, 5 bits.
    one5: Constant<Bits<5>>,
    /// Sized zero, 6 bits.
    zero6: Constant<Bits<6>>,
    /// Sized zero, 8 bits.
    zero8: Constant<Bits<8>>,
    /// Sized zero, 16 bits.
    zero16: Constant<Bits<16>>,
    /// Sized 1, 16 bits.
    one16: Constant<Bits<16>>,
    /// The wait counter's saturation value.
    max16: Constant<Bits<16>>,
}

impl Default for Sequencer {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            rule: Default::default(),
            parallel: Default::default(),
            bypass: Default::default(),
            start: Default::default(),
            map_we: Default::default(),
            rel_ready: Default::default(),
            watchdog: Default::default(),
            any: Default::default(),
            sel_slot: Default::default(),
            sel_seq: Default::default(),
            sel_pc: Default::default(),
            hit: Default::default(),
            hit_index: Default::default(),
            hit_tag: Default::default(),
            hit_store: Default::default(),
            pc_ok: Default::default(),
            count_after: Default::default(),
            unmapped: Default::default(),
            state: Default::default(),
            error: Default::default(),
            is_idle: Default::default(),
            is_done: Default::default(),
            is_issue: Default::default(),
            retire: Default::default(),
            cfg_rule: Default::default(),
            cfg_parallel: Default::default(),
            cfg_bypass: Default::default(),
            target: Default::default(),
            expect_seq: Default::default(),
            expect_pc: Default::default(),
            sp: Default::default(),
            found: Default::default(),
            found_tag: Default::default(),
            found_store: Default::default(),
            state_r: Default::default(),
            error_r: Default::default(),
            rule_r: Default::default(),
            parallel_r: Default::default(),
            bypass_r: Default::default(),
            target_r: Default::default(),
            expect_seq_r: Default::default(),
            expect_pc_r: Default::default(),
            sp_r: Default::default(),
            wait_r: Default::default(),
            found_r: Default::default(),
            found_tag_r: Default::default(),
            found_store_r: Default::default(),
            is_select: Default::default(),
            is_search: Default::default(),
            timeout: Default::default(),
            sp_inc: Default::default(),
            state_pre: Default::default(),
            err_unmapped: Default::default(),
            st_idle: k(IDLE),
            st_select: k(SELECT),
            st_search: k(SEARCH),
            st_issue: k(ISSUE),
            st_done: k(DONE),
            st_error: k(ERROR),
            err_none: k(0),
            err_pc: k(1),
            err_watchdog: k(2),
            err_unmapped_code: k(3),
            zero2: k(0),
            zero4: k(0),
            zero5: k(0),
            one5: k(1),
            zero6: k(0),
            zero8: k(0),
            zero16: k(0),
            one16: k(1),
            max16: k(0xffff),
        }
    }
}

impl Logic for Sequencer {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            state_r,
            error_r,
            rule_r,
            parallel_r,
            bypass_r,
            target_r,
            expect_seq_r,
            expect_pc_r,
            sp_r,
            wait_r,
            found_r,
            found_tag_r,
            found_store_r
        );
        self.is_idle.next = self.state_r.q.val() == self.st_idle.val();
        self.is_select.next = self.state_r.q.val() == self.st_select.val();
        self.is_search.next = self.state_r.q.val() == self.st_search.val();
        self.is_issue.next = self.state_r.q.val() == self.st_issue.val();
        self.is_done.next = self.state_r.q.val() == self.st_done.val();
        self.retire.next = self.is_issue.val() & self.rel_ready.val();
        self.timeout.next = (self.watchdog.val() != self.zero16.val())
            & (self.wait_r.q.val() >= self.watchdog.val());
        self.sp_inc.next = self.sp_r.q.val() + self.one5.val();
        // ---- State machine.
        if self.is_idle.val() {
            if self.start.val() & !self.bypass.val() {
                self.state_pre.next = self.st_select.val();
            } else {
                self.state_pre.next = self.st_idle.val();
            }
        } else if self.is_select.val() {
            if self.any.val() {
                self.state_pre.next = self.st_search.val();
            } else {
                self.state_pre.next = self.st_done.val();
            }
        } else if self.is_search.val() {
            if self.hit.val() & self.pc_ok.val() {
                self.state_pre.next = self.st_issue.val();
            } else if self.hit.val() | self.timeout.val() {
                self.state_pre.next = self.st_error.val();
            } else {
                self.state_pre.next = self.st_search.val();
            }
        } else if self.is_issue.val() {
            if self.rel_ready.val() {
                self.state_pre.next = self.st_select.val();
            } else {
                self.state_pre.next = self.st_issue.val();
            }
        } else if self.is_done.val() {
            if self.map_we.val() {
                self.state_pre.next = self.st_idle.val();
            } else {
                self.state_pre.next = self.st_done.val();
            }
        } else {
            self.state_pre.next = self.state_r.q.val();
        }
        self.err_unmapped.next =
            self.unmapped.val() & (self.state_pre.val() != self.st_error.val());
        if self.reset.val() {
            self.state_r.d.next = self.st_idle.val();
            self.error_r.d.next = self.err_none.val();
        } else if self.is_search.val() & self.hit.val() & !self.pc_ok.val() {
            self.state_r.d.next = self.st_error.val();
            self.error_r.d.next = self.err_pc.val();
        } else if self.is_search.val() & !self.hit.val() & self.timeout.val() {
            self.state_r.d.next = self.st_error.val();
            self.error_r.d.next = self.err_watchdog.val();
        } else if self.err_unmapped.val() {
            self.state_r.d.next = self.st_error.val();
            self.error_r.d.next = self.err_unmapped_code.val();
        } else {
            self.state_r.d.next = self.state_pre.val();
        }
        // ---- Configuration registers: loaded at every IDLE edge.
        if self.reset.val() {
            self.rule_r.d.next = self.zero2.val();
            self.parallel_r.d.next = false;
            self.bypass_r.d.next = false;
        } else if self.is_idle.val() {
            self.rule_r.d.next = self.rule.val();
            self.parallel_r.d.next = self.parallel.val();
            self.bypass_r.d.next = self.bypass.val();
        }
        // ---- SELECT: the target; SEARCH: the pointer, the wait counter, the found entry.
        if self.reset.val() {
            self.target_r.d.next = self.zero6.val();
            self.expect_seq_r.d.next = self.zero8.val();
            self.expect_pc_r.d.next = self.zero8.val();
            self.sp_r.d.next = self.zero5.val();
            self.wait_r.d.next = self.zero16.val();
            self.found_r.d.next = self.zero4.val();
        } else if self.is_select.val() & self.any.val() {
            self.target_r.d.next = self.sel_slot.val();
            self.expect_seq_r.d.next = self.sel_seq.val();
            self.expect_pc_r.d.next = self.sel_pc.val();
            self.sp_r.d.next = self.zero5.val();
            self.wait_r.d.next = self.zero16.val();
        } else if self.is_search.val() & self.hit.val() {
            self.found_r.d.next = self.hit_index.val();
            self.found_tag_r.d.next = self.hit_tag.val();
            self.found_store_r.d.next = self.hit_store.val();
        } else if self.is_search.val() & !self.timeout.val() {
            if !self.parallel_r.q.val() & (self.sp_inc.val() < self.count_after.val()) {
                self.sp_r.d.next = self.sp_inc.val();
            } else {
                self.sp_r.d.next = self.zero5.val();
            }
            if self.wait_r.q.val() != self.max16.val() {
                self.wait_r.d.next = self.wait_r.q.val() + self.one16.val();
            }
        }
        // ---- Outputs.
        self.state.next = self.state_r.q.val();
        self.error.next = self.error_r.q.val();
        self.cfg_rule.next = self.rule_r.q.val();
        self.cfg_parallel.next = self.parallel_r.q.val();
        self.cfg_bypass.next = self.bypass_r.q.val();
        self.target.next = self.target_r.q.val();
        self.expect_seq.next = self.expect_seq_r.q.val();
        self.expect_pc.next = self.expect_pc_r.q.val();
        self.sp.next = self.sp_r.q.val();
        self.found.next = self.found_r.q.val();
        self.found_tag.next = self.found_tag_r.q.val();
        self.found_store.next = self.found_store_r.q.val();
    }
}
