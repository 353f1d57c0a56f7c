//! The target channel's view: which channel is the target, and its count, push and search
//! result brought out of the `W` channels by mux chains (each output written once per
//! evaluation: an event-driven simulator sees no glitch through the feedback from the
//! channels' search results to their `pop` inputs).

use crate::hdl::k;
use rust_hdl::prelude::*;

/// The mux chains of [`super::unit::Reorder`] over its `W` channels.
#[derive(LogicBlock)]
pub struct TargetMux<const W: usize> {
    /// The slot the unit waits at.
    pub target: Signal<In, Bits<6>>,
    /// The target head's `pc_idx` (latched at SELECT).
    pub expect_pc: Signal<In, Bits<8>>,
    /// Channel c's occupancy.
    pub count: [Signal<In, Bits<5>>; W],
    /// The distributor pushes into channel c at this edge.
    pub push: [Signal<In, Bit>; W],
    /// Channel c holds the expected sequence number (at its search place).
    pub hit: [Signal<In, Bit>; W],
    /// Channel c's matching entry.
    pub hit_index: [Signal<In, Bits<4>>; W],
    /// Channel c's matching entry's `pc_idx`.
    pub hit_pc_idx: [Signal<In, Bits<8>>; W],
    /// Channel c's matching entry is a store.
    pub hit_store: [Signal<In, Bit>; W],
    /// Channel c's matching entry's tag.
    pub hit_tag: [Signal<In, Bits<8>>; W],
    /// Channel c is the target.
    pub tgt: [Signal<Out, Bit>; W],
    /// The target channel holds the expected sequence number.
    pub t_hit: Signal<Out, Bit>,
    /// Its place in the target channel.
    pub t_index: Signal<Out, Bits<4>>,
    /// Its tag.
    pub t_tag: Signal<Out, Bits<8>>,
    /// It is a store.
    pub t_store: Signal<Out, Bit>,
    /// Its `pc_idx` is the expected one.
    pub pc_ok: Signal<Out, Bit>,
    /// The target channel's count after the edge (a push counted, a pop not).
    pub count_after: Signal<Out, Bits<5>>,
    /// Chain of the target's count: channel c's when it is the target, else link c − 1's.
    c_count: [Signal<Local, Bits<5>>; W],
    /// Chain of the target's push.
    c_push: [Signal<Local, Bit>; W],
    /// Chain of the target's search hit.
    c_hit: [Signal<Local, Bit>; W],
    /// Chain of the target's matching place.
    c_index: [Signal<Local, Bits<4>>; W],
    /// Chain of the target's matching `pc_idx`.
    c_pc: [Signal<Local, Bits<8>>; W],
    /// Chain of the target's matching store bit.
    c_store: [Signal<Local, Bit>; W],
    /// Chain of the target's matching tag.
    c_tag: [Signal<Local, Bits<8>>; W],
    /// Channel c's slot number.
    slot_idx: [Constant<Bits<6>>; W],
    /// Sized 1, 5 bits.
    one5: Constant<Bits<5>>,
}

impl<const W: usize> Default for TargetMux<W> {
    fn default() -> Self {
        Self {
            target: Default::default(),
            expect_pc: Default::default(),
            count: array_init::array_init(|_| Default::default()),
            push: array_init::array_init(|_| Default::default()),
            hit: array_init::array_init(|_| Default::default()),
            hit_index: array_init::array_init(|_| Default::default()),
            hit_pc_idx: array_init::array_init(|_| Default::default()),
            hit_store: array_init::array_init(|_| Default::default()),
            hit_tag: array_init::array_init(|_| Default::default()),
            tgt: array_init::array_init(|_| Default::default()),
            t_hit: Default::default(),
            t_index: Default::default(),
            t_tag: Default::default(),
            t_store: Default::default(),
            pc_ok: Default::default(),
            count_after: Default::default(),
            c_count: array_init::array_init(|_| Default::default()),
            c_push: array_init::array_init(|_| Default::default()),
            c_hit: array_init::array_init(|_| Default::default()),
            c_index: array_init::array_init(|_| Default::default()),
            c_pc: array_init::array_init(|_| Default::default()),
            c_store: array_init::array_init(|_| Default::default()),
            c_tag: array_init::array_init(|_| Default::default()),
            slot_idx: array_init::array_init(|c| k(c as u64)),
            one5: k(1),
        }
    }
}

impl<const W: usize> Logic for TargetMux<W> {
    #[hdl_gen]
    fn update(&mut self) {
        for c in 0..W {
            self.tgt[c].next = self.target.val() == self.slot_idx[c].val();
        }
        self.c_count[0].next = self.count[0].val();
        self.c_push[0].next = self.push[0].val();
        self.c_hit[0].next = self.hit[0].val();
        self.c_index[0].next = self.hit_index[0].val();
        self.c_pc[0].next = self.hit_pc_idx[0].val();
        self.c_store[0].next = self.hit_store[0].val();
        self.c_tag[0].next = self.hit_tag[0].val();
        for c in 1..W {
            if self.tgt[c].val() {
                self.c_count[c].next = self.count[c].val();
                self.c_push[c].next = self.push[c].val();
                self.c_hit[c].next = self.hit[c].val();
                self.c_index[c].next = self.hit_index[c].val();
                self.c_pc[c].next = self.hit_pc_idx[c].val();
                self.c_store[c].next = self.hit_store[c].val();
                self.c_tag[c].next = self.hit_tag[c].val();
            } else {
                self.c_count[c].next = self.c_count[c - 1].val();
                self.c_push[c].next = self.c_push[c - 1].val();
                self.c_hit[c].next = self.c_hit[c - 1].val();
                self.c_index[c].next = self.c_index[c - 1].val();
                self.c_pc[c].next = self.c_pc[c - 1].val();
                self.c_store[c].next = self.c_store[c - 1].val();
                self.c_tag[c].next = self.c_tag[c - 1].val();
            }
        }
        for last in (W - 1)..W {
            self.t_hit.next = self.c_hit[last].val();
            self.t_index.next = self.c_index[last].val();
            self.t_tag.next = self.c_tag[last].val();
            self.t_store.next = self.c_store[last].val();
            self.pc_ok.next = self.c_pc[last].val() == self.expect_pc.val();
            if self.c_push[last].val() {
                self.count_after.next = self.c_count[last].val() + self.one5.val();
            } else {
                self.count_after.next = self.c_count[last].val();
            }
        }
    }
}
