//! The reordering unit, top of the block (contract: [`super`]; Section III-E of the
//! reordering paper): `W` [`Channel`]s, `W` [`SlotConfig`]s (map, head, sequence counter, trace
//! row), the [`Distributor`], the [`Select`] argmin, and here the configuration registers (`rule`,
//! `parallel`, `bypass`), the state machine IDLE/SELECT/SEARCH/ISSUE/DONE/ERROR, the search
//! pointer, the watchdog's wait counter, the error code and the release port.
//!
//! - SELECT latches the argmin slot (`target`), its sequence counter (`expect_seq`) and its
//!   head's `pc_idx` (`expect_pc`): the trace and the head cannot change until the release, so
//!   SEARCH compares with the latched value.
//! - SEARCH: every channel searches itself for `expect_seq` (all entries, or the entry at the
//!   search pointer); the target channel's result, count and push come out of mux chains over
//!   the channels. A match with `expect_pc` latches the entry's place, tag and store bit and
//!   goes to ISSUE; the release port then shows them (its `pc_idx` is `expect_pc`, equal by
//!   the match), so no read of the channel is needed in ISSUE.
//! - ISSUE with `rel_ready`: the target channel pops the entry and the target slot advances.
//!
//! The trace memory is a register file with combinational reads of every slot's head entry
//! (see [`SlotConfig`]); a real design would use an SRAM plus a head-entry prefetch register per
//! slot. Outputs and the sub-blocks' inputs are written once per evaluation (if/else chains,
//! mux chains), so an event-driven simulator sees no glitch through the feedback from the
//! channels' search results to their `pop` inputs.
//!
//! Port widths fixed where the contract says log2 T: `trace_index` has 8 bits and `map_len` 9;
//! the bits above log2 T (log2 T + 1) are dropped with constant masks, as the reference model
//! does.

use super::channel::Channel;
use super::distributor::Distributor;
use super::select::Select;
use super::slot_config::SlotConfig;
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

/// The reordering unit: `W` warp slots (1..=64), `D` entries per channel (1..=16), `T` trace
/// entries per slot (a power of two, 1..=256).
#[derive(LogicBlock)]
pub struct Reorder<const W: usize, const D: usize, const T: usize> {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: every channel empty, every slot unmapped, state IDLE, no error (the
    /// trace memory is kept; nothing else of the cycle is taken).
    pub reset: Signal<In, Bit>,
    /// Key fields: bit 0 = use `epoch`, bit 1 = use `k` in the key (R0 = 0, R1 = 3, R1 without
    /// epoch-major = 2). Loaded while IDLE.
    pub rule: Signal<In, Bits<2>>,
    /// Channel search compares every entry in one cycle (else one entry per cycle, from the
    /// head, wrapping). Loaded while IDLE.
    pub parallel: Signal<In, Bit>,
    /// Reordering off: requests go straight to the release port. Loaded while IDLE.
    pub bypass: Signal<In, Bit>,
    /// Write one entry of a slot's trace (only while IDLE).
    pub trace_we: Signal<In, Bit>,
    /// Slot of the trace write.
    pub trace_slot: Signal<In, Bits<6>>,
    /// Index of the trace write (its bits below log2 T are used).
    pub trace_index: Signal<In, Bits<8>>,
    /// The trace entry: `pc_idx` \[7:0\], `epoch` \[15:8\], `k` \[31:16\].
    pub trace_entry: Signal<In, Bits<32>>,
    /// Map a slot (only while IDLE or DONE; in DONE it returns the unit to IDLE): the slot now
    /// runs static warp (`map_block`, `map_warp`) of wave `map_wave` with `map_len` trace
    /// entries; its head ← 0 and its expected sequence number ← 0 (block launch).
    pub map_we: Signal<In, Bit>,
    /// Slot of the map write.
    pub map_slot: Signal<In, Bits<6>>,
    /// Static block ID.
    pub map_block: Signal<In, Bits<8>>,
    /// Warp index in the block.
    pub map_warp: Signal<In, Bits<5>>,
    /// Wave of the block.
    pub map_wave: Signal<In, Bits<8>>,
    /// Trace entries of the slot (its bits below log2 T + 1 are used; above T the write is
    /// ignored).
    pub map_len: Signal<In, Bits<9>>,
    /// IDLE → SELECT (the kernel's blocks are launched and mapped).
    pub start: Signal<In, Bit>,
    /// A request from the LD/ST unit, taken at the edge when `req_valid & req_ready`.
    pub req_valid: Signal<In, Bit>,
    /// Runtime warp slot of the request.
    pub req_slot: Signal<In, Bits<6>>,
    /// The warp's global ld/st sequence number of the request.
    pub req_seq: Signal<In, Bits<8>>,
    /// Index of the request's PC in `LDSTPCList`.
    pub req_pc_idx: Signal<In, Bits<8>>,
    /// The request is a store.
    pub req_store: Signal<In, Bit>,
    /// The instruction's place in the LD/ST unit's access buffer.
    pub req_tag: Signal<In, Bits<8>>,
    /// The downstream (coalescer → L1) takes the released instruction at this edge.
    pub rel_ready: Signal<In, Bit>,
    /// Most cycles SEARCH may wait (0 = no limit).
    pub watchdog: Signal<In, Bits<16>>,
    /// Channel w has a free entry: the warp scheduler may issue a global ld/st of warp w only
    /// then (credit gate).
    pub free: Signal<Out, Bits<W>>,
    /// `free[req_slot]` (in bypass: `rel_ready`); 0 during `reset`.
    pub req_ready: Signal<Out, Bit>,
    /// An instruction is released (state ISSUE; in bypass the request itself).
    pub rel_valid: Signal<Out, Bit>,
    /// Slot of the released instruction.
    pub rel_slot: Signal<Out, Bits<6>>,
    /// Tag of the released instruction.
    pub rel_tag: Signal<Out, Bits<8>>,
    /// The released instruction is a store.
    pub rel_store: Signal<Out, Bit>,
    /// `pc_idx` of the released instruction.
    pub rel_pc_idx: Signal<Out, Bits<8>>,
    /// IDLE 0, SELECT 1, SEARCH 2, ISSUE 3, DONE 4, ERROR 5.
    pub state: Signal<Out, Bits<3>>,
    /// The slot the unit waits at.
    pub target: Signal<Out, Bits<6>>,
    /// The sequence number the unit expects from `target`.
    pub expect_seq: Signal<Out, Bits<8>>,
    /// Per channel occupancy.
    pub count: [Signal<Out, Bits<5>>; W],
    /// 0 none, 1 the entry with the expected sequence number has another `pc_idx`,
    /// 2 watchdog, 3 a request for an unmapped slot.
    pub error: Signal<Out, Bits<2>>,
    channels: [Channel<D>; W],
    slots: [SlotConfig<T>; W],
    distributor: Distributor<W>,
    argmin: Select<W>,
    state_r: DFF<Bits<3>>,
    error_r: DFF<Bits<2>>,
    rule_r: DFF<Bits<2>>,
    parallel_r: DFF<Bit>,
    bypass_r: DFF<Bit>,
    target_r: DFF<Bits<6>>,
    expect_seq_r: DFF<Bits<8>>,
    // The target's head `pc_idx`, latched at SELECT.
    expect_pc_r: DFF<Bits<8>>,
    // Search pointer (sequential mode).
    sp_r: DFF<Bits<5>>,
    // SEARCH cycles without a match in the current search (saturating).
    wait_r: DFF<Bits<16>>,
    // The found entry (ISSUE): its place in the target channel, tag and store bit.
    found_r: DFF<Bits<4>>,
    found_tag_r: DFF<Bits<8>>,
    found_store_r: DFF<Bit>,
    is_idle: Signal<Local, Bit>,
    is_select: Signal<Local, Bit>,
    is_search: Signal<Local, Bit>,
    is_issue: Signal<Local, Bit>,
    is_done: Signal<Local, Bit>,
    // Per channel: it is the target.
    tgt: [Signal<Local, Bit>; W],
    // Mux chains over the channels: the target's count, push and search result.
    t_count: [Signal<Local, Bits<5>>; W],
    t_push: [Signal<Local, Bit>; W],
    t_hit: [Signal<Local, Bit>; W],
    t_index: [Signal<Local, Bits<4>>; W],
    t_pc: [Signal<Local, Bits<8>>; W],
    t_store: [Signal<Local, Bit>; W],
    t_tag: [Signal<Local, Bits<8>>; W],
    // The target channel's search, its outcome.
    hit: Signal<Local, Bit>,
    hit_index: Signal<Local, Bits<4>>,
    hit_tag: Signal<Local, Bits<8>>,
    hit_store: Signal<Local, Bit>,
    pc_ok: Signal<Local, Bit>,
    timeout: Signal<Local, Bit>,
    // The count of the target channel after the edge, and the search pointer + 1.
    count_after: Signal<Local, Bits<5>>,
    sp_inc: Signal<Local, Bits<5>>,
    // ISSUE with `rel_ready`.
    retire: Signal<Local, Bit>,
    // A map write in a state that takes it, and one with a length ≤ T.
    map_ok: Signal<Local, Bit>,
    map_take: Signal<Local, Bit>,
    map_len_m: Signal<Local, Bits<9>>,
    // The next state before error 3.
    state_pre: Signal<Local, Bits<3>>,
    // An unmapped request errors at this edge (the state is not ERROR already).
    err_unmapped: Signal<Local, Bit>,
    // `free` as an OR chain of one-hot bits.
    free_bit: [Signal<Local, Bits<W>>; W],
    free_acc: [Signal<Local, Bits<W>>; W],
    slot_idx: [Constant<Bits<6>>; W],
    one_hot: [Constant<Bits<W>>; W],
    zero_w: Constant<Bits<W>>,
    st_idle: Constant<Bits<3>>,
    st_select: Constant<Bits<3>>,
    st_search: Constant<Bits<3>>,
    st_issue: Constant<Bits<3>>,
    st_done: Constant<Bits<3>>,
    st_error: Constant<Bits<3>>,
    err_none: Constant<Bits<2>>,
    err_pc: Constant<Bits<2>>,
    err_watchdog: Constant<Bits<2>>,
    err_unmapped_code: Constant<Bits<2>>,
    len_mask: Constant<Bits<9>>,
    len_max: Constant<Bits<9>>,
    zero2: Constant<Bits<2>>,
    zero4: Constant<Bits<4>>,
    zero5: Constant<Bits<5>>,
    one5: Constant<Bits<5>>,
    zero6: Constant<Bits<6>>,
    zero8: Constant<Bits<8>>,
    zero16: Constant<Bits<16>>,
    one16: Constant<Bits<16>>,
    max16: Constant<Bits<16>>,
}

impl<const W: usize, const D: usize, const T: usize> Default for Reorder<W, D, T> {
    fn default() -> Self {
        assert!((1..=64).contains(&W), "W: 1..=64");
        assert!((1..=16).contains(&D), "D: 1..=16");
        assert!(
            T.is_power_of_two() && T <= 256,
            "T: a power of two, 1..=256"
        );
        Self {
            clock: Default::default(),
            reset: Default::default(),
            rule: Default::default(),
            parallel: Default::default(),
            bypass: Default::default(),
            trace_we: Default::default(),
            trace_slot: Default::default(),
            trace_index: Default::default(),
            trace_entry: Default::default(),
            map_we: Default::default(),
            map_slot: Default::default(),
            map_block: Default::default(),
            map_warp: Default::default(),
            map_wave: Default::default(),
            map_len: Default::default(),
            start: Default::default(),
            req_valid: Default::default(),
            req_slot: Default::default(),
            req_seq: Default::default(),
            req_pc_idx: Default::default(),
            req_store: Default::default(),
            req_tag: Default::default(),
            rel_ready: Default::default(),
            watchdog: Default::default(),
            free: Default::default(),
            req_ready: Default::default(),
            rel_valid: Default::default(),
            rel_slot: Default::default(),
            rel_tag: Default::default(),
            rel_store: Default::default(),
            rel_pc_idx: Default::default(),
            state: Default::default(),
            target: Default::default(),
            expect_seq: Default::default(),
            count: array_init::array_init(|_| Default::default()),
            error: Default::default(),
            channels: array_init::array_init(|_| Default::default()),
            slots: array_init::array_init(|_| Default::default()),
            distributor: Default::default(),
            argmin: Default::default(),
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
            is_idle: Default::default(),
            is_select: Default::default(),
            is_search: Default::default(),
            is_issue: Default::default(),
            is_done: Default::default(),
            tgt: array_init::array_init(|_| Default::default()),
            t_count: array_init::array_init(|_| Default::default()),
            t_push: array_init::array_init(|_| Default::default()),
            t_hit: array_init::array_init(|_| Default::default()),
            t_index: array_init::array_init(|_| Default::default()),
            t_pc: array_init::array_init(|_| Default::default()),
            t_store: array_init::array_init(|_| Default::default()),
            t_tag: array_init::array_init(|_| Default::default()),
            hit: Default::default(),
            hit_index: Default::default(),
            hit_tag: Default::default(),
            hit_store: Default::default(),
            pc_ok: Default::default(),
            timeout: Default::default(),
            count_after: Default::default(),
            sp_inc: Default::default(),
            retire: Default::default(),
            map_ok: Default::default(),
            map_take: Default::default(),
            map_len_m: Default::default(),
            state_pre: Default::default(),
            err_unmapped: Default::default(),
            free_bit: array_init::array_init(|_| Default::default()),
            free_acc: array_init::array_init(|_| Default::default()),
            slot_idx: array_init::array_init(|c| k(c as u64)),
            one_hot: array_init::array_init(|c| k(1 << c)),
            zero_w: k(0),
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
            len_mask: k(2 * T as u64 - 1),
            len_max: k(T as u64),
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

impl<const W: usize, const D: usize, const T: usize> Logic for Reorder<W, D, T> {
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
        self.map_ok.next = self.map_we.val() & (self.is_idle.val() | self.is_done.val());
        self.map_len_m.next = self.map_len.val() & self.len_mask.val();
        self.map_take.next = self.map_ok.val() & (self.map_len_m.val() <= self.len_max.val());
        // ---- Slots: configuration writes, release; their heads go to the argmin.
        for c in 0..W {
            self.tgt[c].next = self.target_r.q.val() == self.slot_idx[c].val();
            self.slots[c].clock.next = self.clock.val();
            self.slots[c].reset.next = self.reset.val();
            self.slots[c].trace_we.next = self.trace_we.val()
                & self.is_idle.val()
                & (self.trace_slot.val() == self.slot_idx[c].val());
            self.slots[c].trace_index.next = self.trace_index.val();
            self.slots[c].trace_entry.next = self.trace_entry.val();
            self.slots[c].map_we.next =
                self.map_take.val() & (self.map_slot.val() == self.slot_idx[c].val());
            self.slots[c].map_block.next = self.map_block.val();
            self.slots[c].map_warp.next = self.map_warp.val();
            self.slots[c].map_wave.next = self.map_wave.val();
            self.slots[c].map_len.next = self.map_len_m.val();
            self.slots[c].advance.next = self.retire.val() & self.tgt[c].val();
            self.argmin.pending[c].next = self.slots[c].pending.val();
            self.argmin.wave[c].next = self.slots[c].wave.val();
            self.argmin.head_entry[c].next = self.slots[c].head_entry.val();
            self.argmin.block[c].next = self.slots[c].block.val();
            self.argmin.warp[c].next = self.slots[c].warp.val();
            self.argmin.seq[c].next = self.slots[c].seq.val();
        }
        self.argmin.rule.next = self.rule_r.q.val();
        // ---- Distributor and channels.
        self.distributor.reset.next = self.reset.val();
        self.distributor.bypass.next = self.bypass_r.q.val();
        self.distributor.rel_ready.next = self.rel_ready.val();
        self.distributor.req_valid.next = self.req_valid.val();
        self.distributor.req_slot.next = self.req_slot.val();
        for c in 0..W {
            self.distributor.free[c].next = self.channels[c].free.val();
            self.distributor.mapped[c].next = self.slots[c].mapped.val();
            self.channels[c].clock.next = self.clock.val();
            self.channels[c].reset.next = self.reset.val();
            self.channels[c].push.next = self.distributor.push[c].val();
            self.channels[c].push_seq.next = self.req_seq.val();
            self.channels[c].push_pc_idx.next = self.req_pc_idx.val();
            self.channels[c].push_store.next = self.req_store.val();
            self.channels[c].push_tag.next = self.req_tag.val();
            self.channels[c].pop.next = self.retire.val() & self.tgt[c].val();
            self.channels[c].pop_index.next = self.found_r.q.val();
            self.channels[c].expect_seq.next = self.expect_seq_r.q.val();
            self.channels[c].parallel.next = self.parallel_r.q.val();
            self.channels[c].sp.next = self.sp_r.q.val();
        }
        // ---- The target channel: count, push and search result (mux chains).
        self.t_count[0].next = self.channels[0].count.val();
        self.t_push[0].next = self.distributor.push[0].val();
        self.t_hit[0].next = self.channels[0].hit.val();
        self.t_index[0].next = self.channels[0].hit_index.val();
        self.t_pc[0].next = self.channels[0].hit_pc_idx.val();
        self.t_store[0].next = self.channels[0].hit_store.val();
        self.t_tag[0].next = self.channels[0].hit_tag.val();
        for c in 1..W {
            if self.tgt[c].val() {
                self.t_count[c].next = self.channels[c].count.val();
                self.t_push[c].next = self.distributor.push[c].val();
                self.t_hit[c].next = self.channels[c].hit.val();
                self.t_index[c].next = self.channels[c].hit_index.val();
                self.t_pc[c].next = self.channels[c].hit_pc_idx.val();
                self.t_store[c].next = self.channels[c].hit_store.val();
                self.t_tag[c].next = self.channels[c].hit_tag.val();
            } else {
                self.t_count[c].next = self.t_count[c - 1].val();
                self.t_push[c].next = self.t_push[c - 1].val();
                self.t_hit[c].next = self.t_hit[c - 1].val();
                self.t_index[c].next = self.t_index[c - 1].val();
                self.t_pc[c].next = self.t_pc[c - 1].val();
                self.t_store[c].next = self.t_store[c - 1].val();
                self.t_tag[c].next = self.t_tag[c - 1].val();
            }
        }
        for last in (W - 1)..W {
            self.hit.next = self.t_hit[last].val();
            self.hit_index.next = self.t_index[last].val();
            self.hit_tag.next = self.t_tag[last].val();
            self.hit_store.next = self.t_store[last].val();
            self.pc_ok.next = self.t_pc[last].val() == self.expect_pc_r.q.val();
            if self.t_push[last].val() {
                self.count_after.next = self.t_count[last].val() + self.one5.val();
            } else {
                self.count_after.next = self.t_count[last].val();
            }
        }
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
            if self.argmin.any.val() {
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
            self.distributor.unmapped.val() & (self.state_pre.val() != self.st_error.val());
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
        } else if self.is_select.val() & self.argmin.any.val() {
            self.target_r.d.next = self.argmin.slot.val();
            self.expect_seq_r.d.next = self.argmin.seq_out.val();
            self.expect_pc_r.d.next = self.argmin.pc_idx.val();
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
        for c in 0..W {
            self.count[c].next = self.channels[c].count.val();
            if self.channels[c].free.val() {
                self.free_bit[c].next = self.one_hot[c].val();
            } else {
                self.free_bit[c].next = self.zero_w.val();
            }
        }
        self.free_acc[0].next = self.free_bit[0].val();
        for c in 1..W {
            self.free_acc[c].next = self.free_acc[c - 1].val() | self.free_bit[c].val();
        }
        for last in (W - 1)..W {
            self.free.next = self.free_acc[last].val();
        }
        self.req_ready.next = self.distributor.req_ready.val();
        if self.bypass_r.q.val() {
            self.rel_valid.next = self.req_valid.val() & !self.reset.val();
            self.rel_slot.next = self.req_slot.val();
            self.rel_tag.next = self.req_tag.val();
            self.rel_store.next = self.req_store.val();
            self.rel_pc_idx.next = self.req_pc_idx.val();
        } else if self.is_issue.val() {
            self.rel_valid.next = !self.reset.val();
            self.rel_slot.next = self.target_r.q.val();
            self.rel_tag.next = self.found_tag_r.q.val();
            self.rel_store.next = self.found_store_r.q.val();
            self.rel_pc_idx.next = self.expect_pc_r.q.val();
        } else {
            self.rel_valid.next = false;
            self.rel_slot.next = self.zero6.val();
            self.rel_tag.next = self.zero8.val();
            self.rel_store.next = false;
            self.rel_pc_idx.next = self.zero8.val();
        }
        self.state.next = self.state_r.q.val();
        self.target.next = self.target_r.q.val();
        self.expect_seq.next = self.expect_seq_r.q.val();
        self.error.next = self.error_r.q.val();
    }
}
