//! The per-warp coalescer (contract: [`super`], "Coalescer").
//!
//! Registers: one `live` bit per lane (the lane's line is still to be emitted) and its line
//! number. The smallest live line comes out of a five-level comparison tree (32 → 16 → 8 → 4 →
//! 2 → 1 nodes, each node a (valid, line) pair: the smaller of two valid lines, or the valid
//! one). `eq[i]` = lane `i` is live with that line; `next` clears those lanes, and `last` says
//! no live lane holds another line.

use crate::hdl::k;
use rust_hdl::prelude::*;

/// Lanes of a warp.
pub const LANES: usize = 32;

/// Emits the distinct line numbers of a warp memory instruction's active lanes, ascending,
/// one per cycle.
#[derive(LogicBlock)]
pub struct Coalescer {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: nothing loaded.
    pub reset: Signal<In, Bit>,
    /// Take `addr` and `mask` at the edge (ignored while `busy`).
    pub load: Signal<In, Bit>,
    /// The lanes' byte addresses (line = address >> 7).
    pub addr: [Signal<In, Bits<32>>; LANES],
    /// The active lanes (bit i = lane i).
    pub mask: Signal<In, Bits<32>>,
    /// The consumer takes `line` at the edge.
    pub advance: Signal<In, Bit>,
    /// An instruction is loaded and lines remain.
    pub busy: Signal<Out, Bit>,
    /// `line` is valid (= `busy`).
    pub line_valid: Signal<Out, Bit>,
    /// The smallest line among the remaining lanes (0 when none remains).
    pub line: Signal<Out, Bits<25>>,
    /// `line` is the last one: no remaining lane holds another line.
    pub last: Signal<Out, Bit>,
    live: [DFF<Bit>; LANES],
    lane_line: [DFF<Bits<25>>; LANES],
    // The comparison tree, level by level: (valid, line) of each node.
    v1: [Signal<Local, Bit>; 16],
    l1: [Signal<Local, Bits<25>>; 16],
    v2: [Signal<Local, Bit>; 8],
    l2: [Signal<Local, Bits<25>>; 8],
    v3: [Signal<Local, Bit>; 4],
    l3: [Signal<Local, Bits<25>>; 4],
    v4: [Signal<Local, Bit>; 2],
    l4: [Signal<Local, Bits<25>>; 2],
    v5: Signal<Local, Bit>,
    l5: Signal<Local, Bits<25>>,
    // Lanes holding the smallest line, and lanes holding another one (OR chain).
    eq: [Signal<Local, Bit>; LANES],
    other_acc: [Signal<Local, Bit>; LANES],
    take: Signal<Local, Bit>,
    // The byte offsets within the line, which the coalescer ignores (Verilator's default
    // `--unused-regexp` is `*unused*`: this names them as unused on purpose, no waiver).
    unused_offset: [Signal<Local, Bits<7>>; LANES],
    zero25: Constant<Bits<25>>,
}

impl Default for Coalescer {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            load: Default::default(),
            addr: array_init::array_init(|_| Default::default()),
            mask: Default::default(),
            advance: Default::default(),
            busy: Default::default(),
            line_valid: Default::default(),
            line: Default::default(),
            last: Default::default(),
            live: array_init::array_init(|_| Default::default()),
            lane_line: array_init::array_init(|_| Default::default()),
            v1: array_init::array_init(|_| Default::default()),
            l1: array_init::array_init(|_| Default::default()),
            v2: array_init::array_init(|_| Default::default()),
            l2: array_init::array_init(|_| Default::default()),
            v3: array_init::array_init(|_| Default::default()),
            l3: array_init::array_init(|_| Default::default()),
            v4: array_init::array_init(|_| Default::default()),
            l4: array_init::array_init(|_| Default::default()),
            v5: Default::default(),
            l5: Default::default(),
            eq: array_init::array_init(|_| Default::default()),
            other_acc: array_init::array_init(|_| Default::default()),
            take: Default::default(),
            unused_offset: array_init::array_init(|_| Default::default()),
            zero25: k(0),
        }
    }
}

impl Logic for Coalescer {
    #[hdl_gen]
    fn update(&mut self) {
        for i in 0..LANES {
            self.live[i].clock.next = self.clock.val();
            self.lane_line[i].clock.next = self.clock.val();
            self.live[i].d.next = self.live[i].q.val();
            self.lane_line[i].d.next = self.lane_line[i].q.val();
            self.unused_offset[i].next = self.addr[i].val().get_bits::<7>(0);
        }
        // ---- The smallest live line: a tree of (valid, line) nodes.
        for i in 0..16 {
            self.v1[i].next = self.live[2 * i].q.val() | self.live[2 * i + 1].q.val();
            self.l1[i].next = self.lane_line[2 * i + 1].q.val();
            if self.live[2 * i].q.val()
                & (!self.live[2 * i + 1].q.val()
                    | (self.lane_line[2 * i].q.val() <= self.lane_line[2 * i + 1].q.val()))
            {
                self.l1[i].next = self.lane_line[2 * i].q.val();
            }
        }
        for i in 0..8 {
            self.v2[i].next = self.v1[2 * i].val() | self.v1[2 * i + 1].val();
            self.l2[i].next = self.l1[2 * i + 1].val();
            if self.v1[2 * i].val()
                & (!self.v1[2 * i + 1].val() | (self.l1[2 * i].val() <= self.l1[2 * i + 1].val()))
            {
                self.l2[i].next = self.l1[2 * i].val();
            }
        }
        for i in 0..4 {
            self.v3[i].next = self.v2[2 * i].val() | self.v2[2 * i + 1].val();
            self.l3[i].next = self.l2[2 * i + 1].val();
            if self.v2[2 * i].val()
                & (!self.v2[2 * i + 1].val() | (self.l2[2 * i].val() <= self.l2[2 * i + 1].val()))
            {
                self.l3[i].next = self.l2[2 * i].val();
            }
        }
        for i in 0..2 {
            self.v4[i].next = self.v3[2 * i].val() | self.v3[2 * i + 1].val();
            self.l4[i].next = self.l3[2 * i + 1].val();
            if self.v3[2 * i].val()
                & (!self.v3[2 * i + 1].val() | (self.l3[2 * i].val() <= self.l3[2 * i + 1].val()))
            {
                self.l4[i].next = self.l3[2 * i].val();
            }
        }
        self.v5.next = self.v4[0].val() | self.v4[1].val();
        self.l5.next = self.l4[1].val();
        if self.v4[0].val() & (!self.v4[1].val() | (self.l4[0].val() <= self.l4[1].val())) {
            self.l5.next = self.l4[0].val();
        }
        // ---- Lanes with that line; is any other line left?
        for i in 0..LANES {
            self.eq[i].next = self.live[i].q.val() & (self.lane_line[i].q.val() == self.l5.val());
        }
        self.other_acc[0].next = self.live[0].q.val() & !self.eq[0].val();
        for i in 1..LANES {
            self.other_acc[i].next =
                self.other_acc[i - 1].val() | (self.live[i].q.val() & !self.eq[i].val());
        }
        // ---- Next: remove the emitted line's lanes. Load: take a new instruction.
        self.take.next = self.v5.val() & self.advance.val();
        for i in 0..LANES {
            if self.take.val() & self.eq[i].val() {
                self.live[i].d.next = false;
            }
            if self.load.val() & !self.v5.val() {
                self.live[i].d.next = self.mask.val().get_bit(i);
                self.lane_line[i].d.next = self.addr[i].val().get_bits::<25>(7);
            }
            if self.reset.val() {
                self.live[i].d.next = false;
                self.lane_line[i].d.next = self.zero25.val();
            }
        }
        // ---- Outputs.
        self.busy.next = self.v5.val();
        self.line_valid.next = self.v5.val();
        self.line.next = self.zero25.val();
        if self.v5.val() {
            self.line.next = self.l5.val();
        }
        self.last.next = self.v5.val();
        for tail in (LANES - 1)..LANES {
            self.last.next = self.v5.val() & !self.other_acc[tail].val();
        }
    }
}
