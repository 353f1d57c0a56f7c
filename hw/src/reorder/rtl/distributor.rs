//! The distributing unit (contract: [`super`]; Section III-E of the
//! reordering paper): routes the
//! LD/ST unit's request to the channel of its runtime warp slot.
//!
//! Combinational. `req_ready` is the request slot's `free` bit (0 for a slot ≥ W, and during
//! `reset`); a request is pushed to its channel when it is valid, ready and its slot is mapped.
//! A valid request for a slot ≥ W or an unmapped slot raises `unmapped` (error 3; the request
//! is dropped), whatever `req_ready`. In bypass nothing is pushed or checked and
//! `req_ready` = `rel_ready` (the release port shows the request itself).
//!
//! The slot's `free` and `mapped` bits come out of mux chains over the slots (element `c` = the
//! value when the slot is ≤ c; 0 when no slot matches), written once per evaluation.

use crate::hdl::k;
use rust_hdl::prelude::*;

/// Routes requests to `W` (1..=64) channels.
#[derive(LogicBlock)]
pub struct Distributor<const W: usize> {
    /// Synchronous reset of the unit (nothing is taken in its cycle).
    pub reset: Signal<In, Bit>,
    /// Reordering off (the unit's `bypass` register).
    pub bypass: Signal<In, Bit>,
    /// The downstream takes the released instruction at this edge.
    pub rel_ready: Signal<In, Bit>,
    /// A request from the LD/ST unit.
    pub req_valid: Signal<In, Bit>,
    /// Its runtime warp slot.
    pub req_slot: Signal<In, Bits<6>>,
    /// Channel c has a free entry.
    pub free: [Signal<In, Bit>; W],
    /// Slot c is mapped.
    pub mapped: [Signal<In, Bit>; W],
    /// The request is taken at the edge if `req_valid`.
    pub req_ready: Signal<Out, Bit>,
    /// The request lands in channel c at this edge.
    pub push: [Signal<Out, Bit>; W],
    /// A request for an unmapped slot (or one ≥ W) at this edge: error 3.
    pub unmapped: Signal<Out, Bit>,
    // Per slot: the request is for it.
    is_slot: [Signal<Local, Bit>; W],
    // Mux chains: the request slot's `free` and `mapped` bits among slots 0..=c.
    c_free: [Signal<Local, Bit>; W],
    c_mapped: [Signal<Local, Bit>; W],
    // The request slot is free and mapped, and its request is valid (not in bypass).
    routed: Signal<Local, Bit>,
    slot_idx: [Constant<Bits<6>>; W],
}

impl<const W: usize> Default for Distributor<W> {
    fn default() -> Self {
        assert!((1..=64).contains(&W), "W: 1..=64");
        Self {
            reset: Default::default(),
            bypass: Default::default(),
            rel_ready: Default::default(),
            req_valid: Default::default(),
            req_slot: Default::default(),
            free: array_init::array_init(|_| Default::default()),
            mapped: array_init::array_init(|_| Default::default()),
            req_ready: Default::default(),
            push: array_init::array_init(|_| Default::default()),
            unmapped: Default::default(),
            is_slot: array_init::array_init(|_| Default::default()),
            c_free: array_init::array_init(|_| Default::default()),
            c_mapped: array_init::array_init(|_| Default::default()),
            routed: Default::default(),
            slot_idx: array_init::array_init(|c| k(c as u64)),
        }
    }
}

impl<const W: usize> Logic for Distributor<W> {
    #[hdl_gen]
    fn update(&mut self) {
        for c in 0..W {
            self.is_slot[c].next = self.req_slot.val() == self.slot_idx[c].val();
        }
        self.c_free[0].next = self.is_slot[0].val() & self.free[0].val();
        self.c_mapped[0].next = self.is_slot[0].val() & self.mapped[0].val();
        for c in 1..W {
            if self.is_slot[c].val() {
                self.c_free[c].next = self.free[c].val();
                self.c_mapped[c].next = self.mapped[c].val();
            } else {
                self.c_free[c].next = self.c_free[c - 1].val();
                self.c_mapped[c].next = self.c_mapped[c - 1].val();
            }
        }
        for last in (W - 1)..W {
            if self.bypass.val() {
                self.req_ready.next = self.rel_ready.val() & !self.reset.val();
            } else {
                self.req_ready.next = self.c_free[last].val() & !self.reset.val();
            }
            self.unmapped.next =
                self.req_valid.val() & !self.bypass.val() & !self.c_mapped[last].val();
            self.routed.next = self.req_valid.val()
                & !self.bypass.val()
                & self.c_free[last].val()
                & self.c_mapped[last].val();
        }
        for c in 0..W {
            self.push[c].next = self.routed.val() & self.is_slot[c].val();
        }
    }
}
