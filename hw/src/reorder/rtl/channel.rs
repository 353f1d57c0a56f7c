//! One channel of the reordering unit (contract: [`super`]; Section III-E of the
//! reordering paper):
//! the requests of one warp slot, a compacting FIFO of `D` entries {`seq` 8, `pc_idx` 8,
//! `store` 1, `tag` 8} in arrival order, entry 0 the oldest, `count` entries valid.
//!
//! - Push: the request lands at the tail (entry `count`, or `count − 1` when an entry leaves
//!   in the same edge). Only pushed while the channel is `free` (the distributor's credit gate).
//! - Pop: entry `pop_index` leaves; the entries behind it move up one place, in the same edge
//!   as a push.
//! - Search (combinational, for the unit's SEARCH state; only the target's result is used): an
//!   entry is *eligible* when it is valid (index < `count`), its `seq` equals `expect_seq` and,
//!   in sequential mode, its index is the search pointer `sp`. `hit` says one is, and the
//!   oldest eligible entry comes out on `hit_index`, `hit_pc_idx`, `hit_store`, `hit_tag`
//!   (a priority chain over the entries; entry 0's fields when none is eligible).
//!
//! The unit has one search pointer, not one per channel: it searches one channel at a time.
//! Every output is written once per evaluation (mux chains), so an event-driven simulator sees
//! no glitch on the search result the unit feeds back into `pop`.

use crate::hdl::k;
use rust_hdl::prelude::*;

/// A compacting FIFO of `D` (1..=16) request entries with a sequence-number search.
#[derive(LogicBlock)]
pub struct Channel<const D: usize> {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: the channel is empty (overrides push and pop).
    pub reset: Signal<In, Bit>,
    /// Take the request (`push_*`) at the tail at this edge (only while `free`).
    pub push: Signal<In, Bit>,
    /// The request's sequence number.
    pub push_seq: Signal<In, Bits<8>>,
    /// The request's `pc_idx`.
    pub push_pc_idx: Signal<In, Bits<8>>,
    /// The request is a store.
    pub push_store: Signal<In, Bit>,
    /// The request's tag (its place in the LD/ST unit's access buffer).
    pub push_tag: Signal<In, Bits<8>>,
    /// Entry `pop_index` leaves at this edge (it must be valid).
    pub pop: Signal<In, Bit>,
    /// The entry that leaves.
    pub pop_index: Signal<In, Bits<4>>,
    /// The sequence number searched for.
    pub expect_seq: Signal<In, Bits<8>>,
    /// Search every entry (else only entry `sp`).
    pub parallel: Signal<In, Bit>,
    /// The search pointer (sequential mode).
    pub sp: Signal<In, Bits<5>>,
    /// Entries held (0..=D).
    pub count: Signal<Out, Bits<5>>,
    /// The channel holds fewer than D entries.
    pub free: Signal<Out, Bit>,
    /// An entry is eligible (see the module doc).
    pub hit: Signal<Out, Bit>,
    /// Index of the oldest eligible entry.
    pub hit_index: Signal<Out, Bits<4>>,
    /// Its `pc_idx`.
    pub hit_pc_idx: Signal<Out, Bits<8>>,
    /// Its store bit.
    pub hit_store: Signal<Out, Bit>,
    /// Its tag.
    pub hit_tag: Signal<Out, Bits<8>>,
    count_r: DFF<Bits<5>>,
    seq_r: [DFF<Bits<8>>; D],
    pc_r: [DFF<Bits<8>>; D],
    store_r: [DFF<Bit>; D],
    tag_r: [DFF<Bits<8>>; D],
    // Where a push lands: `count`, or `count − 1` with a pop.
    tail: Signal<Local, Bits<5>>,
    // Per entry: it is eligible for the search.
    elig: [Signal<Local, Bit>; D],
    // The search's priority chain: element `j` = the oldest eligible entry among 0..=j.
    c_hit: [Signal<Local, Bit>; D],
    c_index: [Signal<Local, Bits<4>>; D],
    c_pc: [Signal<Local, Bits<8>>; D],
    c_store: [Signal<Local, Bit>; D],
    c_tag: [Signal<Local, Bits<8>>; D],
    idx4: [Constant<Bits<4>>; D],
    idx5: [Constant<Bits<5>>; D],
    depth: Constant<Bits<5>>,
    zero5: Constant<Bits<5>>,
    one5: Constant<Bits<5>>,
}

impl<const D: usize> Default for Channel<D> {
    fn default() -> Self {
        assert!((1..=16).contains(&D), "D: 1..=16");
        Self {
            clock: Default::default(),
            reset: Default::default(),
            push: Default::default(),
            push_seq: Default::default(),
            push_pc_idx: Default::default(),
            push_store: Default::default(),
            push_tag: Default::default(),
            pop: Default::default(),
            pop_index: Default::default(),
            expect_seq: Default::default(),
            parallel: Default::default(),
            sp: Default::default(),
            count: Default::default(),
            free: Default::default(),
            hit: Default::default(),
            hit_index: Default::default(),
            hit_pc_idx: Default::default(),
            hit_store: Default::default(),
            hit_tag: Default::default(),
            count_r: Default::default(),
            seq_r: array_init::array_init(|_| Default::default()),
            pc_r: array_init::array_init(|_| Default::default()),
            store_r: array_init::array_init(|_| Default::default()),
            tag_r: array_init::array_init(|_| Default::default()),
            tail: Default::default(),
            elig: array_init::array_init(|_| Default::default()),
            c_hit: array_init::array_init(|_| Default::default()),
            c_index: array_init::array_init(|_| Default::default()),
            c_pc: array_init::array_init(|_| Default::default()),
            c_store: array_init::array_init(|_| Default::default()),
            c_tag: array_init::array_init(|_| Default::default()),
            idx4: array_init::array_init(|j| k(j as u64)),
            idx5: array_init::array_init(|j| k(j as u64)),
            depth: k(D as u64),
            zero5: k(0),
            one5: k(1),
        }
    }
}

impl<const D: usize> Logic for Channel<D> {
    #[hdl_gen]
    fn update(&mut self) {
        self.count_r.clock.next = self.clock.val();
        for j in 0..D {
            self.seq_r[j].clock.next = self.clock.val();
            self.pc_r[j].clock.next = self.clock.val();
            self.store_r[j].clock.next = self.clock.val();
            self.tag_r[j].clock.next = self.clock.val();
        }
        // ---- Search: eligible entries, then the oldest of them (priority chain).
        for j in 0..D {
            self.elig[j].next = (self.idx5[j].val() < self.count_r.q.val())
                & (self.seq_r[j].q.val() == self.expect_seq.val())
                & (self.parallel.val() | (self.sp.val() == self.idx5[j].val()));
        }
        self.c_hit[0].next = self.elig[0].val();
        self.c_index[0].next = self.idx4[0].val();
        self.c_pc[0].next = self.pc_r[0].q.val();
        self.c_store[0].next = self.store_r[0].q.val();
        self.c_tag[0].next = self.tag_r[0].q.val();
        for j in 1..D {
            self.c_hit[j].next = self.c_hit[j - 1].val() | self.elig[j].val();
            if self.elig[j].val() & !self.c_hit[j - 1].val() {
                self.c_index[j].next = self.idx4[j].val();
                self.c_pc[j].next = self.pc_r[j].q.val();
                self.c_store[j].next = self.store_r[j].q.val();
                self.c_tag[j].next = self.tag_r[j].q.val();
            } else {
                self.c_index[j].next = self.c_index[j - 1].val();
                self.c_pc[j].next = self.c_pc[j - 1].val();
                self.c_store[j].next = self.c_store[j - 1].val();
                self.c_tag[j].next = self.c_tag[j - 1].val();
            }
        }
        for last in (D - 1)..D {
            self.hit.next = self.c_hit[last].val();
            self.hit_index.next = self.c_index[last].val();
            self.hit_pc_idx.next = self.c_pc[last].val();
            self.hit_store.next = self.c_store[last].val();
            self.hit_tag.next = self.c_tag[last].val();
        }
        self.count.next = self.count_r.q.val();
        self.free.next = self.count_r.q.val() < self.depth.val();
        // ---- Pop and push in one edge: entries at or behind `pop_index` take their successor's
        // value; the push lands at the new tail.
        if self.pop.val() {
            self.tail.next = self.count_r.q.val() - self.one5.val();
        } else {
            self.tail.next = self.count_r.q.val();
        }
        for j in 0..(D - 1) {
            if self.push.val() & (self.tail.val() == self.idx5[j].val()) {
                self.seq_r[j].d.next = self.push_seq.val();
                self.pc_r[j].d.next = self.push_pc_idx.val();
                self.store_r[j].d.next = self.push_store.val();
                self.tag_r[j].d.next = self.push_tag.val();
            } else if self.pop.val() & (self.idx4[j].val() >= self.pop_index.val()) {
                self.seq_r[j].d.next = self.seq_r[j + 1].q.val();
                self.pc_r[j].d.next = self.pc_r[j + 1].q.val();
                self.store_r[j].d.next = self.store_r[j + 1].q.val();
                self.tag_r[j].d.next = self.tag_r[j + 1].q.val();
            } else {
                self.seq_r[j].d.next = self.seq_r[j].q.val();
                self.pc_r[j].d.next = self.pc_r[j].q.val();
                self.store_r[j].d.next = self.store_r[j].q.val();
                self.tag_r[j].d.next = self.tag_r[j].q.val();
            }
        }
        for last in (D - 1)..D {
            // The last entry has no successor: a pop leaves it as it is (beyond the count).
            if self.push.val() & (self.tail.val() == self.idx5[last].val()) {
                self.seq_r[last].d.next = self.push_seq.val();
                self.pc_r[last].d.next = self.push_pc_idx.val();
                self.store_r[last].d.next = self.push_store.val();
                self.tag_r[last].d.next = self.push_tag.val();
            } else {
                self.seq_r[last].d.next = self.seq_r[last].q.val();
                self.pc_r[last].d.next = self.pc_r[last].q.val();
                self.store_r[last].d.next = self.store_r[last].q.val();
                self.tag_r[last].d.next = self.tag_r[last].q.val();
            }
        }
        if self.reset.val() {
            self.count_r.d.next = self.zero5.val();
        } else if self.push.val() & !self.pop.val() {
            self.count_r.d.next = self.count_r.q.val() + self.one5.val();
        } else if self.pop.val() & !self.push.val() {
            self.count_r.d.next = self.count_r.q.val() - self.one5.val();
        } else {
            self.count_r.d.next = self.count_r.q.val();
        }
    }
}
