//! The reordering unit, top of the block (contract: [`super`]; Section III-E of the
//! reordering paper): `W` [`Channel`]s, `W` [`SlotConfig`]s (map, head, sequence counter, trace
//! row), the [`Distributor`], the [`Select`] argmin, the [`TargetMux`] (the target channel's
//! count, push and search result), the [`Sequencer`] (the configuration registers `rule`,
//! `parallel`, `bypass`, the state machine IDLE/SELECT/SEARCH/ISSUE/DONE/ERROR, the search
//! pointer, the watchdog's wait counter, the error code), and here the `free` vector and the
//! release port.
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
use super::sequencer::Sequencer;
use super::slot_config::SlotConfig;
use super::target::TargetMux;
use crate::hdl::k;
use rust_hdl::prelude::*;

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
    /// The channels, one per warp slot.
    channels: [Channel<D>; W],
    /// The slots' configuration: map, head, sequence counter, trace row.
    slots: [SlotConfig<T>; W],
    /// The request distributor.
    distributor: Distributor<W>,
    /// The argmin over the slots' heads.
    argmin: Select<W>,
    /// The target channel's count, push and search result.
    tmux: TargetMux<W>,
    /// The configuration registers, the state machine and the search registers.
    seq: Sequencer,
    /// A map write in a state that takes it.
    map_ok: Signal<Local, Bit>,
    /// ... with a length ≤ T.
    map_take: Signal<Local, Bit>,
    /// `map_len` cut to log2 T + 1 bits.
    map_len_m: Signal<Local, Bits<9>>,
    /// Channel c's `free` as a one-hot bit.
    free_bit: [Signal<Local, Bits<W>>; W],
    /// `free` as an OR chain of the one-hot bits.
    free_acc: [Signal<Local, Bits<W>>; W],
    /// Slot c's number.
    slot_idx: [Constant<Bits<6>>; W],
    /// Bit c set.
    one_hot: [Constant<Bits<W>>; W],
    /// Sized zero, W bits.
    zero_w: Constant<Bits<W>>,
    /// Keeps the bits of `map_len` below log2 T + 1.
    len_mask: Constant<Bits<9>>,
    /// T: the longest trace a map write takes.
    len_max: Constant<Bits<9>>,
    /// Sized zero, 6 bits.
    zero6: Constant<Bits<6>>,
    /// Sized zero, 8 bits.
    zero8: Constant<Bits<8>>,
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
            tmux: Default::default(),
            seq: Default::default(),
            map_ok: Default::default(),
            map_take: Default::default(),
            map_len_m: Default::default(),
            free_bit: array_init::array_init(|_| Default::default()),
            free_acc: array_init::array_init(|_| Default::default()),
            slot_idx: array_init::array_init(|c| k(c as u64)),
            one_hot: array_init::array_init(|c| k(1 << c)),
            zero_w: k(0),
            len_mask: k(2 * T as u64 - 1),
            len_max: k(T as u64),
            zero6: k(0),
            zero8: k(0),
        }
    }
}

impl<const W: usize, const D: usize, const T: usize> Logic for Reorder<W, D, T> {
    #[hdl_gen]
    fn update(&mut self) {
        // ---- The sequencer.
        self.seq.clock.next = self.clock.val();
        self.seq.reset.next = self.reset.val();
        self.seq.rule.next = self.rule.val();
        self.seq.parallel.next = self.parallel.val();
        self.seq.bypass.next = self.bypass.val();
        self.seq.start.next = self.start.val();
        self.seq.map_we.next = self.map_we.val();
        self.seq.rel_ready.next = self.rel_ready.val();
        self.seq.watchdog.next = self.watchdog.val();
        self.seq.any.next = self.argmin.any.val();
        self.seq.sel_slot.next = self.argmin.slot.val();
        self.seq.sel_seq.next = self.argmin.seq_out.val();
        self.seq.sel_pc.next = self.argmin.pc_idx.val();
        self.seq.hit.next = self.tmux.t_hit.val();
        self.seq.hit_index.next = self.tmux.t_index.val();
        self.seq.hit_tag.next = self.tmux.t_tag.val();
        self.seq.hit_store.next = self.tmux.t_store.val();
        self.seq.pc_ok.next = self.tmux.pc_ok.val();
        self.seq.count_after.next = self.tmux.count_after.val();
        self.seq.unmapped.next = self.distributor.unmapped.val();
        self.map_ok.next = self.map_we.val() & (self.seq.is_idle.val() | self.seq.is_done.val());
        self.map_len_m.next = self.map_len.val() & self.len_mask.val();
        self.map_take.next = self.map_ok.val() & (self.map_len_m.val() <= self.len_max.val());
        // ---- Slots: configuration writes, release; their heads go to the argmin.
        for c in 0..W {
            self.slots[c].clock.next = self.clock.val();
            self.slots[c].reset.next = self.reset.val();
            self.slots[c].trace_we.next = self.trace_we.val()
                & self.seq.is_idle.val()
                & (self.trace_slot.val() == self.slot_idx[c].val());
            self.slots[c].trace_index.next = self.trace_index.val();
            self.slots[c].trace_entry.next = self.trace_entry.val();
            self.slots[c].map_we.next =
                self.map_take.val() & (self.map_slot.val() == self.slot_idx[c].val());
            self.slots[c].map_block.next = self.map_block.val();
            self.slots[c].map_warp.next = self.map_warp.val();
            self.slots[c].map_wave.next = self.map_wave.val();
            self.slots[c].map_len.next = self.map_len_m.val();
            self.slots[c].advance.next = self.seq.retire.val() & self.tmux.tgt[c].val();
            self.argmin.pending[c].next = self.slots[c].pending.val();
            self.argmin.wave[c].next = self.slots[c].wave.val();
            self.argmin.head_entry[c].next = self.slots[c].head_entry.val();
            self.argmin.block[c].next = self.slots[c].block.val();
            self.argmin.warp[c].next = self.slots[c].warp.val();
            self.argmin.seq[c].next = self.slots[c].seq.val();
        }
        self.argmin.rule.next = self.seq.cfg_rule.val();
        // ---- Distributor and channels; the target channel's view.
        self.distributor.reset.next = self.reset.val();
        self.distributor.bypass.next = self.seq.cfg_bypass.val();
        self.distributor.rel_ready.next = self.rel_ready.val();
        self.distributor.req_valid.next = self.req_valid.val();
        self.distributor.req_slot.next = self.req_slot.val();
        self.tmux.target.next = self.seq.target.val();
        self.tmux.expect_pc.next = self.seq.expect_pc.val();
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
            self.channels[c].pop.next = self.seq.retire.val() & self.tmux.tgt[c].val();
            self.channels[c].pop_index.next = self.seq.found.val();
            self.channels[c].expect_seq.next = self.seq.expect_seq.val();
            self.channels[c].parallel.next = self.seq.cfg_parallel.val();
            self.channels[c].sp.next = self.seq.sp.val();
            self.tmux.count[c].next = self.channels[c].count.val();
            self.tmux.push[c].next = self.distributor.push[c].val();
            self.tmux.hit[c].next = self.channels[c].hit.val();
            self.tmux.hit_index[c].next = self.channels[c].hit_index.val();
            self.tmux.hit_pc_idx[c].next = self.channels[c].hit_pc_idx.val();
            self.tmux.hit_store[c].next = self.channels[c].hit_store.val();
            self.tmux.hit_tag[c].next = self.channels[c].hit_tag.val();
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
        if self.seq.cfg_bypass.val() {
            self.rel_valid.next = self.req_valid.val() & !self.reset.val();
            self.rel_slot.next = self.req_slot.val();
            self.rel_tag.next = self.req_tag.val();
            self.rel_store.next = self.req_store.val();
            self.rel_pc_idx.next = self.req_pc_idx.val();
        } else if self.seq.is_issue.val() {
            self.rel_valid.next = !self.reset.val();
            self.rel_slot.next = self.seq.target.val();
            self.rel_tag.next = self.seq.found_tag.val();
            self.rel_store.next = self.seq.found_store.val();
            self.rel_pc_idx.next = self.seq.expect_pc.val();
        } else {
            self.rel_valid.next = false;
            self.rel_slot.next = self.zero6.val();
            self.rel_tag.next = self.zero8.val();
            self.rel_store.next = false;
            self.rel_pc_idx.next = self.zero8.val();
        }
        self.state.next = self.seq.state.val();
        self.target.next = self.seq.target.val();
        self.expect_seq.next = self.seq.expect_seq.val();
        self.error.next = self.seq.error.val();
    }
}
