//! The coalescer (contract: [`super::super`], "Coalescer"), `LANES` lanes (a power of two:
//! 32 for the LD/ST path's warps, 64 for the compute unit's wavefronts).
//!
//! Registers, per lane: `live` (the lane still holds a line to emit) and its current segment:
//! `lane_line`, the dword offsets `lo..=hi` it touches there, and `more` (it crosses into the
//! next line, where it touches offsets `0..=hi2`). A load computes, per lane, `sum` = the
//! first offset + `size` (6 bits, 0..=34): `more` = sum ≥ 32, `hi` = min(sum, 31),
//! `hi2` = sum − 32.
//!
//! The smallest line and its span come out of a tree of [`SpanMerge`] nodes, numbered as a
//! heap: node `j` (1 ≤ j < LANES) merges nodes `2j` and `2j + 1`, or, from `LANES/2` on, lanes
//! `2j − LANES` and `2j + 1 − LANES`; node 1 is the root; node 0 merges the root with nothing
//! and drives the outputs (zeros when no lane is live). `eq[i]` = lane `i` is live on that
//! line; `advance` moves those lanes to their second segment (`more`) or removes them.

use super::span_merge::SpanMerge;
use crate::hdl::k;
use rust_hdl::prelude::*;

/// Emits the 128-byte lines a memory instruction's active lanes touch, ascending, one per
/// cycle, each with the span of dwords touched in it.
#[derive(LogicBlock)]
pub struct Coalescer<const LANES: usize> {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: nothing loaded.
    pub reset: Signal<In, Bit>,
    /// Take `addr`, `mask` and `size` at the edge (ignored while `busy`).
    pub load: Signal<In, Bit>,
    /// The lanes' byte addresses (bits 1:0 are ignored: dword-aligned).
    pub addr: [Signal<In, Bits<32>>; LANES],
    /// The active lanes (bit i = lane i).
    pub mask: Signal<In, Bits<LANES>>,
    /// Dwords per lane − 1 (0..=3: 1 to 4 dwords from the lane's address).
    pub size: Signal<In, Bits<2>>,
    /// The consumer takes the current line at the edge.
    pub advance: Signal<In, Bit>,
    /// An instruction is loaded and lines remain.
    pub busy: Signal<Out, Bit>,
    /// `line` is valid (= `busy`).
    pub line_valid: Signal<Out, Bit>,
    /// The smallest line among the remaining lanes (byte address >> 7; 0 when none).
    pub line: Signal<Out, Bits<25>>,
    /// The first dword offset touched in `line` (0 when none).
    pub first: Signal<Out, Bits<5>>,
    /// Dwords from `first` to the last dword touched in `line`, inclusive (1..=32; 0 when
    /// none).
    pub words: Signal<Out, Bits<6>>,
    /// `line` is the last one: no lane holds another line after it.
    pub last: Signal<Out, Bit>,
    /// The lane still holds a line to emit.
    live: [DFF<Bit>; LANES],
    /// The lane's current line.
    lane_line: [DFF<Bits<25>>; LANES],
    /// The first offset the lane touches in its current line.
    lo: [DFF<Bits<6>>; LANES],
    /// The last offset the lane touches in its current line.
    hi: [DFF<Bits<6>>; LANES],
    /// The lane crosses into the next line after its current one.
    more: [DFF<Bit>; LANES],
    /// The last offset the lane touches in the next line (when `more`).
    hi2: [DFF<Bits<6>>; LANES],
    /// At load: the lane's first offset + `size`.
    sum: [Signal<Local, Bits<6>>; LANES],
    /// `size` in 6 bits.
    size6: Signal<Local, Bits<6>>,
    /// The comparison tree (node 0: the outputs).
    node: [SpanMerge; LANES],
    /// Lane `i` is live on the emitted line.
    eq: [Signal<Local, Bit>; LANES],
    /// The consumer takes a line at this edge.
    take: Signal<Local, Bit>,
    /// The byte offsets within a dword, which the coalescer ignores (Verilator's default
    /// `--unused-regexp` is `*unused*`: named unused on purpose, no waiver).
    unused_byte: [Signal<Local, Bits<2>>; LANES],
    /// Bit 5 of the emitted `lo` (always 0; `first` is its low 5 bits).
    unused_lo_top: Signal<Local, Bit>,
    zero25: Constant<Bits<25>>,
    one25: Constant<Bits<25>>,
    zero6: Constant<Bits<6>>,
    one6: Constant<Bits<6>>,
    two6: Constant<Bits<6>>,
    three6: Constant<Bits<6>>,
    low5: Constant<Bits<6>>,
}

impl<const LANES: usize> Default for Coalescer<LANES> {
    fn default() -> Self {
        assert!(
            LANES.is_power_of_two() && LANES >= 2,
            "LANES must be a power of two"
        );
        Self {
            clock: Default::default(),
            reset: Default::default(),
            load: Default::default(),
            addr: array_init::array_init(|_| Default::default()),
            mask: Default::default(),
            size: Default::default(),
            advance: Default::default(),
            busy: Default::default(),
            line_valid: Default::default(),
            line: Default::default(),
            first: Default::default(),
            words: Default::default(),
            last: Default::default(),
            live: array_init::array_init(|_| Default::default()),
            lane_line: array_init::array_init(|_| Default::default()),
            lo: array_init::array_init(|_| Default::default()),
            hi: array_init::array_init(|_| Default::default()),
            more: array_init::array_init(|_| Default::default()),
            hi2: array_init::array_init(|_| Default::default()),
            sum: array_init::array_init(|_| Default::default()),
            size6: Default::default(),
            node: array_init::array_init(|_| Default::default()),
            eq: array_init::array_init(|_| Default::default()),
            take: Default::default(),
            unused_byte: array_init::array_init(|_| Default::default()),
            unused_lo_top: Default::default(),
            zero25: k(0),
            one25: k(1),
            zero6: k(0),
            one6: k(1),
            two6: k(2),
            three6: k(3),
            low5: k(31),
        }
    }
}

impl<const LANES: usize> Logic for Coalescer<LANES> {
    #[hdl_gen]
    fn update(&mut self) {
        if self.size.val().get_bit(1) {
            if self.size.val().get_bit(0) {
                self.size6.next = self.three6.val();
            } else {
                self.size6.next = self.two6.val();
            }
        } else if self.size.val().get_bit(0) {
            self.size6.next = self.one6.val();
        } else {
            self.size6.next = self.zero6.val();
        }
        for i in 0..LANES {
            self.live[i].clock.next = self.clock.val();
            self.lane_line[i].clock.next = self.clock.val();
            self.lo[i].clock.next = self.clock.val();
            self.hi[i].clock.next = self.clock.val();
            self.more[i].clock.next = self.clock.val();
            self.hi2[i].clock.next = self.clock.val();
            self.unused_byte[i].next = self.addr[i].val().get_bits::<2>(0);
            self.sum[i].next =
                (self.addr[i].val().get_bits::<6>(2) & self.low5.val()) + self.size6.val();
        }
        // ---- The tree: leaves (`n` is LANES, bound by a one-pass loop so that the Verilog
        // generator can evaluate the lane index), inner nodes, and node 0 on the root.
        for n in LANES..(LANES + 1) {
            for j in (LANES / 2)..LANES {
                self.node[j].a_valid.next = self.live[2 * j - n].q.val();
                self.node[j].a_line.next = self.lane_line[2 * j - n].q.val();
                self.node[j].a_lo.next = self.lo[2 * j - n].q.val();
                self.node[j].a_hi.next = self.hi[2 * j - n].q.val();
                self.node[j].a_rest.next = self.more[2 * j - n].q.val();
                self.node[j].b_valid.next = self.live[2 * j + 1 - n].q.val();
                self.node[j].b_line.next = self.lane_line[2 * j + 1 - n].q.val();
                self.node[j].b_lo.next = self.lo[2 * j + 1 - n].q.val();
                self.node[j].b_hi.next = self.hi[2 * j + 1 - n].q.val();
                self.node[j].b_rest.next = self.more[2 * j + 1 - n].q.val();
            }
        }
        for j in 1..(LANES / 2) {
            self.node[j].a_valid.next = self.node[2 * j].valid.val();
            self.node[j].a_line.next = self.node[2 * j].line.val();
            self.node[j].a_lo.next = self.node[2 * j].lo.val();
            self.node[j].a_hi.next = self.node[2 * j].hi.val();
            self.node[j].a_rest.next = self.node[2 * j].rest.val();
            self.node[j].b_valid.next = self.node[2 * j + 1].valid.val();
            self.node[j].b_line.next = self.node[2 * j + 1].line.val();
            self.node[j].b_lo.next = self.node[2 * j + 1].lo.val();
            self.node[j].b_hi.next = self.node[2 * j + 1].hi.val();
            self.node[j].b_rest.next = self.node[2 * j + 1].rest.val();
        }
        self.node[0].a_valid.next = self.node[1].valid.val();
        self.node[0].a_line.next = self.node[1].line.val();
        self.node[0].a_lo.next = self.node[1].lo.val();
        self.node[0].a_hi.next = self.node[1].hi.val();
        self.node[0].a_rest.next = self.node[1].rest.val();
        self.node[0].b_valid.next = false;
        self.node[0].b_line.next = self.zero25.val();
        self.node[0].b_lo.next = self.zero6.val();
        self.node[0].b_hi.next = self.zero6.val();
        self.node[0].b_rest.next = false;
        // ---- The lanes: advance the emitted line's lanes, or load a new instruction.
        self.take.next = self.node[0].valid.val() & self.advance.val();
        for i in 0..LANES {
            self.eq[i].next =
                self.live[i].q.val() & (self.lane_line[i].q.val() == self.node[0].line.val());
            self.live[i].d.next = self.live[i].q.val();
            self.lane_line[i].d.next = self.lane_line[i].q.val();
            self.lo[i].d.next = self.lo[i].q.val();
            self.hi[i].d.next = self.hi[i].q.val();
            self.more[i].d.next = self.more[i].q.val();
            self.hi2[i].d.next = self.hi2[i].q.val();
            if self.reset.val() {
                self.live[i].d.next = false;
                self.more[i].d.next = false;
            } else if self.load.val() & !self.node[0].valid.val() {
                self.live[i].d.next = self.mask.val().get_bit(i);
                self.lane_line[i].d.next = self.addr[i].val().get_bits::<25>(7);
                self.lo[i].d.next = self.addr[i].val().get_bits::<6>(2) & self.low5.val();
                self.more[i].d.next = self.sum[i].val().get_bit(5);
                self.hi2[i].d.next = self.sum[i].val() & self.low5.val();
                if self.sum[i].val().get_bit(5) {
                    self.hi[i].d.next = self.low5.val();
                } else {
                    self.hi[i].d.next = self.sum[i].val();
                }
            } else if self.take.val() & self.eq[i].val() {
                if self.more[i].q.val() {
                    self.lane_line[i].d.next = self.lane_line[i].q.val() + self.one25.val();
                    self.lo[i].d.next = self.zero6.val();
                    self.hi[i].d.next = self.hi2[i].q.val();
                    self.more[i].d.next = false;
                } else {
                    self.live[i].d.next = false;
                }
            }
        }
        // ---- Outputs.
        self.busy.next = self.node[0].valid.val();
        self.line_valid.next = self.node[0].valid.val();
        self.line.next = self.node[0].line.val();
        self.first.next = self.node[0].lo.val().get_bits::<5>(0);
        self.unused_lo_top.next = self.node[0].lo.val().get_bit(5);
        if self.node[0].valid.val() {
            self.words.next = self.node[0].hi.val() - self.node[0].lo.val() + self.one6.val();
        } else {
            self.words.next = self.zero6.val();
        }
        self.last.next = self.node[0].valid.val() & !self.node[0].rest.val();
    }
}
