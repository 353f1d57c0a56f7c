//! [`LdstPath`]: the reordering unit, the coalescer and the L1 wired as the contract in
//! `super` says (the LD/ST unit's access buffer stays outside: it answers `rel_addr` and
//! `rel_mask` for the released `rel_slot` / `rel_tag`).
//!
//! Every signal the top drives into a sub-block is written once per evaluation (the outputs
//! of the sub-blocks feed back into other sub-blocks' inputs through this block).

use crate::cache::{Coalescer, L1Cache};
use crate::reorder::Reorder;
use rust_hdl::prelude::*;

/// Lanes of a warp.
const LANES: usize = 32;

/// The path below the LD/ST unit: `W` slots of `D` entries and `T` trace entries, an L1 of
/// `SETS` sets × `WAYS` ways.
#[derive(LogicBlock)]
pub struct LdstPath<
    const W: usize,
    const D: usize,
    const T: usize,
    const SETS: usize,
    const WAYS: usize,
> {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset of the three blocks.
    pub reset: Signal<In, Bit>,
    /// Reordering unit: key fields (bit 0 epoch, bit 1 k).
    pub rule: Signal<In, Bits<2>>,
    /// Reordering unit: search a channel in one cycle.
    pub parallel: Signal<In, Bit>,
    /// Reordering unit: off (requests go straight to the coalescer).
    pub bypass: Signal<In, Bit>,
    /// Write one trace entry.
    pub trace_we: Signal<In, Bit>,
    /// Slot of the trace write.
    pub trace_slot: Signal<In, Bits<6>>,
    /// Index of the trace write.
    pub trace_index: Signal<In, Bits<8>>,
    /// The trace entry: `pc_idx` \[7:0\], `epoch` \[15:8\], `k` \[31:16\].
    pub trace_entry: Signal<In, Bits<32>>,
    /// Map a slot (block launch).
    pub map_we: Signal<In, Bit>,
    /// Slot of the map write.
    pub map_slot: Signal<In, Bits<6>>,
    /// Static block ID of the slot's warp.
    pub map_block: Signal<In, Bits<8>>,
    /// Warp index in the block.
    pub map_warp: Signal<In, Bits<5>>,
    /// Wave of the block.
    pub map_wave: Signal<In, Bits<8>>,
    /// Trace entries of the slot.
    pub map_len: Signal<In, Bits<9>>,
    /// IDLE → SELECT.
    pub start: Signal<In, Bit>,
    /// A request from the LD/ST unit.
    pub req_valid: Signal<In, Bit>,
    /// Its runtime warp slot.
    pub req_slot: Signal<In, Bits<6>>,
    /// Its per-warp ld/st sequence number.
    pub req_seq: Signal<In, Bits<8>>,
    /// Its PC's index in `LDSTPCList`.
    pub req_pc_idx: Signal<In, Bits<8>>,
    /// It is a store.
    pub req_store: Signal<In, Bit>,
    /// Its place in the LD/ST unit's access buffer.
    pub req_tag: Signal<In, Bits<8>>,
    /// Most SEARCH cycles without a match (0 = no limit).
    pub watchdog: Signal<In, Bits<16>>,
    /// The access buffer's lane byte addresses of the released instruction.
    pub rel_addr: [Signal<In, Bits<32>>; LANES],
    /// Its active lanes.
    pub rel_mask: Signal<In, Bits<32>>,
    /// Memory returns a line of an earlier load miss.
    pub mem_fill: Signal<In, Bit>,
    /// That line.
    pub mem_fill_line: Signal<In, Bits<25>>,
    /// Channel w has a free entry (credit gate).
    pub free: Signal<Out, Bits<W>>,
    /// The request is taken at the edge if `req_valid`.
    pub req_ready: Signal<Out, Bit>,
    /// The reordering unit releases an instruction (taken when the coalescer is idle).
    pub rel_valid: Signal<Out, Bit>,
    /// Its slot.
    pub rel_slot: Signal<Out, Bits<6>>,
    /// Its tag.
    pub rel_tag: Signal<Out, Bits<8>>,
    /// It is a store.
    pub rel_store: Signal<Out, Bit>,
    /// Its `pc_idx`.
    pub rel_pc_idx: Signal<Out, Bits<8>>,
    /// Reordering unit state (IDLE 0, SELECT 1, SEARCH 2, ISSUE 3, DONE 4, ERROR 5).
    pub state: Signal<Out, Bits<3>>,
    /// The slot the unit waits at (the release pointer).
    pub target: Signal<Out, Bits<6>>,
    /// The sequence number it expects from `target`.
    pub expect_seq: Signal<Out, Bits<8>>,
    /// Occupancy of each channel.
    pub count: [Signal<Out, Bits<5>>; W],
    /// Reordering unit error (1 pc mismatch, 2 watchdog, 3 unmapped slot).
    pub error: Signal<Out, Bits<2>>,
    /// The coalescer holds an instruction.
    pub coal_busy: Signal<Out, Bit>,
    /// The coalescer presents a line to the L1.
    pub line_valid: Signal<Out, Bit>,
    /// That line.
    pub line: Signal<Out, Bits<25>>,
    /// It is the instruction's last line.
    pub line_last: Signal<Out, Bit>,
    /// The first dword touched in the coalescer's line (the L1 ignores it).
    pub line_first: Signal<Out, Bits<5>>,
    /// Dwords from `line_first` to the last dword touched in the line (the L1 ignores it).
    pub line_words: Signal<Out, Bits<6>>,
    /// The L1 access is a store.
    pub l1_store: Signal<Out, Bit>,
    /// The L1 takes the line at the edge.
    pub l1_ready: Signal<Out, Bit>,
    /// The line hits.
    pub hit: Signal<Out, Bit>,
    /// The hit way, else the victim.
    pub way: Signal<Out, Bits<4>>,
    /// The victim way.
    pub victim: Signal<Out, Bits<4>>,
    /// The victim holds a valid line.
    pub victim_valid: Signal<Out, Bit>,
    /// The victim's line.
    pub victim_line: Signal<Out, Bits<25>>,
    /// A memory request at this edge (load miss or store).
    pub mem_req_valid: Signal<Out, Bit>,
    /// Its line.
    pub mem_req_line: Signal<Out, Bits<25>>,
    /// It is a store.
    pub mem_req_store: Signal<Out, Bit>,
    /// L1 accesses since reset.
    pub accesses: Signal<Out, Bits<32>>,
    /// L1 misses since reset.
    pub misses: Signal<Out, Bits<32>>,
    reorder: Reorder<W, D, T>,
    coal: Coalescer<LANES>,
    l1: L1Cache<SETS, WAYS>,
    store_r: DFF<Bit>,
    load: Signal<Local, Bit>,
    /// One dword per lane (the coalescer's `size`).
    zero2: Constant<Bits<2>>,
}

impl<const W: usize, const D: usize, const T: usize, const SETS: usize, const WAYS: usize> Default
    for LdstPath<W, D, T, SETS, WAYS>
{
    fn default() -> Self {
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
            watchdog: Default::default(),
            rel_addr: array_init::array_init(|_| Default::default()),
            rel_mask: Default::default(),
            mem_fill: Default::default(),
            mem_fill_line: Default::default(),
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
            coal_busy: Default::default(),
            line_valid: Default::default(),
            line: Default::default(),
            line_last: Default::default(),
            line_first: Default::default(),
            line_words: Default::default(),
            l1_store: Default::default(),
            l1_ready: Default::default(),
            hit: Default::default(),
            way: Default::default(),
            victim: Default::default(),
            victim_valid: Default::default(),
            victim_line: Default::default(),
            mem_req_valid: Default::default(),
            mem_req_line: Default::default(),
            mem_req_store: Default::default(),
            accesses: Default::default(),
            misses: Default::default(),
            reorder: Default::default(),
            coal: Default::default(),
            l1: Default::default(),
            store_r: Default::default(),
            load: Default::default(),
            zero2: crate::hdl::k(0),
        }
    }
}

impl<const W: usize, const D: usize, const T: usize, const SETS: usize, const WAYS: usize> Logic
    for LdstPath<W, D, T, SETS, WAYS>
{
    #[hdl_gen]
    fn update(&mut self) {
        self.reorder.clock.next = self.clock.val();
        self.coal.clock.next = self.clock.val();
        self.l1.clock.next = self.clock.val();
        self.store_r.clock.next = self.clock.val();
        // The reordering unit: the configuration and request ports pass through.
        self.reorder.reset.next = self.reset.val();
        self.reorder.rule.next = self.rule.val();
        self.reorder.parallel.next = self.parallel.val();
        self.reorder.bypass.next = self.bypass.val();
        self.reorder.trace_we.next = self.trace_we.val();
        self.reorder.trace_slot.next = self.trace_slot.val();
        self.reorder.trace_index.next = self.trace_index.val();
        self.reorder.trace_entry.next = self.trace_entry.val();
        self.reorder.map_we.next = self.map_we.val();
        self.reorder.map_slot.next = self.map_slot.val();
        self.reorder.map_block.next = self.map_block.val();
        self.reorder.map_warp.next = self.map_warp.val();
        self.reorder.map_wave.next = self.map_wave.val();
        self.reorder.map_len.next = self.map_len.val();
        self.reorder.start.next = self.start.val();
        self.reorder.req_valid.next = self.req_valid.val();
        self.reorder.req_slot.next = self.req_slot.val();
        self.reorder.req_seq.next = self.req_seq.val();
        self.reorder.req_pc_idx.next = self.req_pc_idx.val();
        self.reorder.req_store.next = self.req_store.val();
        self.reorder.req_tag.next = self.req_tag.val();
        self.reorder.watchdog.next = self.watchdog.val();
        self.reorder.rel_ready.next = !self.coal.busy.val();
        // The coalescer takes the released instruction when idle; the L1 takes its lines.
        self.load.next = self.reorder.rel_valid.val() & !self.coal.busy.val();
        self.coal.reset.next = self.reset.val();
        self.coal.load.next = self.load.val();
        for l in 0..LANES {
            self.coal.addr[l].next = self.rel_addr[l].val();
        }
        self.coal.mask.next = self.rel_mask.val();
        self.coal.size.next = self.zero2.val();
        self.coal.advance.next = self.l1.req_ready.val();
        self.l1.reset.next = self.reset.val();
        self.l1.req_valid.next = self.coal.line_valid.val();
        self.l1.req_line.next = self.coal.line.val();
        self.l1.req_store.next = self.store_r.q.val();
        self.l1.mem_fill.next = self.mem_fill.val();
        self.l1.mem_fill_line.next = self.mem_fill_line.val();
        // The store register: the released instruction's kind.
        if self.reset.val() {
            self.store_r.d.next = false;
        } else if self.load.val() {
            self.store_r.d.next = self.reorder.rel_store.val();
        } else {
            self.store_r.d.next = self.store_r.q.val();
        }
        // Outputs.
        self.free.next = self.reorder.free.val();
        self.req_ready.next = self.reorder.req_ready.val();
        self.rel_valid.next = self.reorder.rel_valid.val();
        self.rel_slot.next = self.reorder.rel_slot.val();
        self.rel_tag.next = self.reorder.rel_tag.val();
        self.rel_store.next = self.reorder.rel_store.val();
        self.rel_pc_idx.next = self.reorder.rel_pc_idx.val();
        self.state.next = self.reorder.state.val();
        self.target.next = self.reorder.target.val();
        self.expect_seq.next = self.reorder.expect_seq.val();
        for w in 0..W {
            self.count[w].next = self.reorder.count[w].val();
        }
        self.error.next = self.reorder.error.val();
        self.coal_busy.next = self.coal.busy.val();
        self.line_valid.next = self.coal.line_valid.val();
        self.line.next = self.coal.line.val();
        self.line_last.next = self.coal.last.val();
        self.line_first.next = self.coal.first.val();
        self.line_words.next = self.coal.words.val();
        self.l1_store.next = self.store_r.q.val();
        self.l1_ready.next = self.l1.req_ready.val();
        self.hit.next = self.l1.hit.val();
        self.way.next = self.l1.way.val();
        self.victim.next = self.l1.victim.val();
        self.victim_valid.next = self.l1.victim_valid.val();
        self.victim_line.next = self.l1.victim_line.val();
        self.mem_req_valid.next = self.l1.mem_req_valid.val();
        self.mem_req_line.next = self.l1.mem_req_line.val();
        self.mem_req_store.next = self.l1.mem_req_store.val();
        self.accesses.next = self.l1.accesses.val();
        self.misses.next = self.l1.misses.val();
    }
}
