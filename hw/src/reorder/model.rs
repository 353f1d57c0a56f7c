//! Reference model of the reordering unit, written from the contract in [`super`] (the module
//! documentation of `reorder/mod.rs`) and Section III-E of the reordering paper only.
//!
//! [`ReorderModel::outputs`] is what the unit drives during the current cycle (combinational
//! from the registers and the cycle's inputs); [`ReorderModel::step`] returns the same outputs
//! and then applies the rising edge that ends the cycle. [`config_writes`] and [`entry`] drive
//! the configuration port; [`request`] presents one LD/ST request.
//!
//! # Readings of the contract
//!
//! Where the contract leaves a choice, the model takes these readings.
//!
//! Configuration and priorities:
//! 1. `rule`, `parallel` and `bypass` are registers, loaded from their inputs at every edge
//!    whose state (the register, during the cycle) is IDLE, and held in every other state. The
//!    values present at the `start` edge are the ones of the run. They act from the cycle after
//!    the edge (bypass too). `reset` clears them to 0.
//! 2. `start` is taken only at an IDLE edge whose `bypass` input is 0 (so the unit never
//!    leaves IDLE in bypass); in every other state it is ignored.
//! 3. `reset` overrides the whole edge: no request, write, start or release of that cycle is
//!    taken. It leaves the trace memory as it is (a RAM); every other register goes to its
//!    power-up value (0: unmapped, head 0, sequence counter 0, target 0, expect_seq 0, search
//!    pointer 0, wait counter 0, rule 0, sequential, no bypass, IDLE, error 0, channels empty).
//!    The model powers up in that state.
//! 4. Otherwise everything of an edge applies together: the configuration writes, `start`, the
//!    distributor's push and the state machine. A trace or map write in the `start` cycle
//!    lands at that edge, so the first SELECT sees it.
//! 5. `trace_we` applies only while IDLE. `map_we` applies while IDLE or DONE; in DONE it
//!    also returns the unit to IDLE (a new launch therefore begins with its map writes, or a
//!    reset, before its trace writes). A `map_we` in SELECT, SEARCH, ISSUE or ERROR is ignored.
//! 6. Ports drop the bits above their width: `rule` 2, the slots 6, `trace_index` log2 T,
//!    `map_warp` 5, `map_len` log2 T + 1. A write to a slot ≥ W is ignored; a map write with
//!    `map_len` > T is ignored as a whole. A map write replaces the slot's mapping, sets its
//!    head and sequence counter to 0 and leaves its channel as it is.
//!
//! Handshakes and outputs:
//! 7. During a `reset` cycle `req_ready` = 0 and `rel_valid` = 0 (nothing is taken); the other
//!    outputs show the registers as in any cycle (in ISSUE, `rel_slot`, `rel_tag`,
//!    `rel_store`, `rel_pc_idx` still show the found entry).
//! 8. `free` bit w = channel w holds fewer than D entries (bits ≥ W are 0), whatever the
//!    state: the distributor takes requests in every state (IDLE before `start`, DONE, ERROR
//!    included). `req_ready` = `free[req_slot]`, 0 for `req_slot` ≥ W; it does not look at
//!    `req_valid`. A request to a full channel is not taken and raises no error (the LD/ST
//!    unit holds it). A pop and a push of the same channel in one edge: `free` was computed
//!    from the count during the cycle, so a full channel takes no push even then.
//! 9. Outside ISSUE (and not in bypass) `rel_valid`, `rel_slot`, `rel_tag`, `rel_store`,
//!    `rel_pc_idx` are all 0. In bypass the release fields are the request's fields whatever
//!    `req_valid`, `rel_valid` = `req_valid`, `req_ready` = `rel_ready`; nothing is stored
//!    and no request is checked against the map.
//! 10. `target` and `expect_seq` are registers written only by SELECT; they hold their last
//!     values in DONE, ERROR and IDLE. A SELECT that finds no pending slot leaves them as they
//!     are.
//!
//! Errors:
//! 11. Error 3: at an edge (not bypass) with `req_valid` and `req_slot` ≥ W or unmapped (the
//!     map as it is during the cycle, whatever `req_ready`); the request is dropped. It is
//!     checked in every state except ERROR.
//! 12. One error per edge: the search's own outcome (1 or 2) wins over 3. The other effects
//!     of the edge still apply (a release taken in that cycle advances the head). ERROR keeps
//!     its code until `reset`.
//! 13. Watchdog: a wait counter (16 bits, saturating) counts the SEARCH cycles of the current
//!     search that ended without a match; SELECT clears it. At the edge of a SEARCH cycle
//!     without a match, with `watchdog` ≠ 0 and the counter ≥ `watchdog` → ERROR (error 2). So
//!     `watchdog` cycles without a match are allowed and the next one errors. A cycle with a
//!     match (even a `pc_idx` mismatch) is not a wait. `watchdog` is read at every edge.
//!
//! Search:
//! 14. SEARCH compares the entries held during the cycle; a request pushed at the edge is
//!     seen from the next cycle.
//! 15. The match compares `seq` only; the matched entry's `pc_idx` is then compared with the
//!     head's (`req_store` is not checked).
//! 16. Sequential: with count' the target channel's count after the edge (a push to it
//!     included; nothing leaves it during SEARCH), the pointer becomes `sp + 1` if that is
//!     < count', else 0. With an empty channel nothing is compared and the pointer stays 0.
//!     Parallel: the pointer stays 0.
//! 17. ISSUE latches the matched entry's place in the channel; pushes land behind it, so it
//!     does not move until it leaves.
//! 18. The slot's sequence counter and `expect_seq` are 8 bits and wrap mod 256. Since
//!     len ≤ T ≤ 256 and a map write clears the counter, a wrap is never needed within one
//!     mapping.
//! 19. Rule 0 compares the heads only (with `epoch` and `k` zeroed): it equals the paper's R0
//!     (minimum over *all* pending instances) when every warp's trace has ascending `pc_idx`.
//! 20. DONE does not check that the channels are empty; entries left there stay.

/// State codes of the `state` output.
pub mod state {
    /// Waiting for configuration and `start`.
    pub const IDLE: u8 = 0;
    /// Choosing the target slot.
    pub const SELECT: u8 = 1;
    /// Searching the target's channel for the expected request.
    pub const SEARCH: u8 = 2;
    /// Presenting the found request on the release port.
    pub const ISSUE: u8 = 3;
    /// Every mapped slot's trace is released.
    pub const DONE: u8 = 4;
    /// Stopped on an error (the `error` output says which).
    pub const ERROR: u8 = 5;
}

/// Codes of the `error` output.
pub mod error {
    /// No error.
    pub const NONE: u8 = 0;
    /// The entry with the expected sequence number has another `pc_idx` than the trace head.
    pub const PC_MISMATCH: u8 = 1;
    /// SEARCH waited more than `watchdog` cycles.
    pub const WATCHDOG: u8 = 2;
    /// A request for an unmapped slot.
    pub const UNMAPPED: u8 = 3;
}

/// Most warp slots.
pub const MAX_W: usize = 64;
/// Most entries per channel.
pub const MAX_D: usize = 16;
/// Most trace entries per slot.
pub const MAX_T: usize = 256;

/// Mask of the 6-bit slot ports.
const SLOT_BITS: u8 = 0x3f;
/// Mask of the 5-bit `map_warp` port.
const WARP_BITS: u8 = 0x1f;
/// Mask of the 2-bit `rule` port.
const RULE_BITS: u8 = 0b11;

/// Inputs of one cycle, sampled at the rising edge that ends it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ReorderIn {
    /// Synchronous reset (overrides the whole edge).
    pub reset: bool,
    /// Key fields: bit 0 = use `epoch`, bit 1 = use `k` (R0 = 0, R1 = 3).
    pub rule: u8,
    /// Search every entry of the channel in one cycle (else one entry per cycle).
    pub parallel: bool,
    /// Reordering off: requests go straight to the release port.
    pub bypass: bool,
    /// Write one trace entry.
    pub trace_we: bool,
    /// Slot of the trace write (6 bits).
    pub trace_slot: u8,
    /// Index of the trace write (log2 T bits).
    pub trace_index: u16,
    /// The trace entry: `pc_idx` \[7:0\], `epoch` \[15:8\], `k` \[31:16\] (see [`entry`]).
    pub trace_entry: u32,
    /// Map a slot (block launch).
    pub map_we: bool,
    /// Slot of the map write (6 bits).
    pub map_slot: u8,
    /// Static block ID of the slot's warp.
    pub map_block: u8,
    /// Warp index in the block (5 bits).
    pub map_warp: u8,
    /// Wave of the block.
    pub map_wave: u8,
    /// Trace entries of the slot (log2 T + 1 bits; above T the write is ignored).
    pub map_len: u16,
    /// IDLE → SELECT.
    pub start: bool,
    /// A request from the LD/ST unit.
    pub req_valid: bool,
    /// Runtime warp slot of the request (6 bits).
    pub req_slot: u8,
    /// The warp's global ld/st sequence number of the request.
    pub req_seq: u8,
    /// Index of the request's PC in `LDSTPCList`.
    pub req_pc_idx: u8,
    /// The request is a store.
    pub req_store: bool,
    /// Place of the request in the LD/ST unit's access buffer.
    pub req_tag: u8,
    /// The downstream takes the released instruction at this edge.
    pub rel_ready: bool,
    /// Most SEARCH cycles without a match (0 = no limit).
    pub watchdog: u16,
}

/// Outputs of one cycle (combinational from the registers and the inputs).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ReorderOut {
    /// Bit w: channel w has a free entry (credit gate).
    pub free: u64,
    /// The request is taken at the edge if `req_valid`.
    pub req_ready: bool,
    /// An instruction is released (taken at the edge if `rel_ready`).
    pub rel_valid: bool,
    /// Slot of the released instruction.
    pub rel_slot: u8,
    /// Tag of the released instruction.
    pub rel_tag: u8,
    /// The released instruction is a store.
    pub rel_store: bool,
    /// `pc_idx` of the released instruction.
    pub rel_pc_idx: u8,
    /// State code ([`state`]).
    pub state: u8,
    /// The slot the unit waits at.
    pub target: u8,
    /// The sequence number the unit expects from `target`.
    pub expect_seq: u8,
    /// Occupancy of each channel (W entries).
    pub count: Vec<u8>,
    /// Error code ([`error`]).
    pub error: u8,
}

/// One channel entry: a request taken from the LD/ST unit.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Entry {
    /// The warp's sequence number.
    pub seq: u8,
    /// Index of the PC in `LDSTPCList`.
    pub pc_idx: u8,
    /// A store (else a load).
    pub store: bool,
    /// Place in the LD/ST unit's access buffer.
    pub tag: u8,
}

/// The mapping of one slot (written by `map_we`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SlotMap {
    /// Static block ID.
    pub block: u8,
    /// Warp index in the block.
    pub warp: u8,
    /// Wave of the block.
    pub wave: u8,
    /// Trace entries.
    pub len: u16,
}

/// The registers of one warp slot.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Slot {
    /// The mapping, `None` when unmapped.
    map: Option<SlotMap>,
    /// Next trace entry to release.
    head: u16,
    /// Sequence number of the next request to release.
    seq: u8,
}

/// The state machine's states.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum State {
    /// [`state::IDLE`].
    #[default]
    Idle,
    /// [`state::SELECT`].
    Select,
    /// [`state::SEARCH`].
    Search,
    /// [`state::ISSUE`].
    Issue,
    /// [`state::DONE`].
    Done,
    /// [`state::ERROR`].
    Error,
}

impl State {
    /// The `state` output code.
    fn code(self) -> u8 {
        match self {
            State::Idle => state::IDLE,
            State::Select => state::SELECT,
            State::Search => state::SEARCH,
            State::Issue => state::ISSUE,
            State::Done => state::DONE,
            State::Error => state::ERROR,
        }
    }
}

/// The registers reset clears (everything but the trace memory).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Regs {
    /// Per-slot mapping, head and sequence counter.
    slots: Vec<Slot>,
    /// Per-slot channel, index 0 = oldest.
    channels: Vec<Vec<Entry>>,
    /// State machine.
    state: State,
    /// Error code.
    error: u8,
    /// Configured rule (2 bits).
    rule: u8,
    /// Configured parallel search.
    parallel: bool,
    /// Configured bypass.
    bypass: bool,
    /// Slot the unit waits at.
    target: u8,
    /// Sequence number expected from `target`.
    expect_seq: u8,
    /// Search pointer (sequential mode).
    sp: u8,
    /// SEARCH cycles without a match in the current search.
    wait: u16,
    /// Place of the found entry in the target's channel (ISSUE).
    found: u8,
}

/// Reference model of the reordering unit: W slots, D entries per channel, T trace entries
/// per slot.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReorderModel {
    /// Warp slots (1..=64).
    w: usize,
    /// Entries per channel (1..=16).
    d: usize,
    /// Trace entries per slot (a power of two, 1..=256).
    t: usize,
    /// Trace memory, index slot · T + index (not cleared by reset).
    trace: Vec<u32>,
    /// Everything else.
    regs: Regs,
}

/// What the distributor does at an edge.
enum Request {
    /// Nothing (no request, bypass, or a full channel).
    None,
    /// The request lands at the tail of this slot's channel.
    Push(usize, Entry),
    /// A request for an unmapped slot: error 3.
    Unmapped,
}

/// The key of a pending slot: (wave, epoch, k, pc_idx, block, warp).
type Key = (u8, u8, u16, u8, u8, u8);

impl ReorderModel {
    /// A unit with `w` slots (1..=64), `d` entries per channel (1..=16) and `t` trace entries
    /// per slot (a power of two, 1..=256), in its reset state with a zero trace memory.
    pub fn new(w: usize, d: usize, t: usize) -> Result<Self, String> {
        if !(1..=MAX_W).contains(&w) {
            return Err(format!("W must be 1..=64, got {w}"));
        }
        if !(1..=MAX_D).contains(&d) {
            return Err(format!("D must be 1..=16, got {d}"));
        }
        if !t.is_power_of_two() || t > MAX_T {
            return Err(format!("T must be a power of two in 1..=256, got {t}"));
        }
        Ok(ReorderModel {
            w,
            d,
            t,
            trace: vec![0; w * t],
            regs: Regs {
                slots: vec![Slot::default(); w],
                channels: (0..w).map(|_| Vec::with_capacity(d)).collect(),
                ..Regs::default()
            },
        })
    }

    /// Warp slots (W).
    pub fn w(&self) -> usize {
        self.w
    }

    /// Entries per channel (D).
    pub fn d(&self) -> usize {
        self.d
    }

    /// Trace entries per slot (T).
    pub fn t(&self) -> usize {
        self.t
    }

    /// The entries of channel `slot`, oldest first.
    pub fn channel(&self, slot: usize) -> &[Entry] {
        &self.regs.channels[slot]
    }

    /// The mapping of `slot` (`None` when unmapped).
    pub fn slot_map(&self, slot: usize) -> Option<SlotMap> {
        self.regs.slots[slot].map
    }

    /// The trace head of `slot` (next entry to release).
    pub fn head(&self, slot: usize) -> u16 {
        self.regs.slots[slot].head
    }

    /// The sequence counter of `slot` (sequence number of its next release).
    pub fn seq(&self, slot: usize) -> u8 {
        self.regs.slots[slot].seq
    }

    /// Trace entry `index` of `slot`.
    pub fn trace_entry(&self, slot: usize, index: usize) -> u32 {
        assert!(index < self.t, "no trace entry {index}");
        self.trace[slot * self.t + index]
    }

    /// The search pointer (sequential mode).
    pub fn search_pointer(&self) -> u8 {
        self.regs.sp
    }

    /// SEARCH cycles without a match in the current search (the watchdog's counter).
    pub fn wait_cycles(&self) -> u16 {
        self.regs.wait
    }

    /// The configured `(rule, parallel, bypass)` registers.
    pub fn config(&self) -> (u8, bool, bool) {
        (self.regs.rule, self.regs.parallel, self.regs.bypass)
    }

    /// The outputs during the current cycle, for the cycle's inputs `i`.
    pub fn outputs(&self, i: &ReorderIn) -> ReorderOut {
        let mut out = ReorderOut::default();
        self.outputs_into(i, &mut out);
        out
    }

    /// [`ReorderModel::outputs`] into `out`, reusing its buffer.
    pub fn outputs_into(&self, i: &ReorderIn, out: &mut ReorderOut) {
        let r = &self.regs;
        let free = self.free();
        let (req_ready, rel) = if r.bypass {
            (i.rel_ready && !i.reset, Self::bypass_release(i))
        } else {
            (
                self.slot_free(free, i.req_slot) && !i.reset,
                self.release(i.reset),
            )
        };
        let mut count = std::mem::take(&mut out.count);
        count.clear();
        count.extend(r.channels.iter().map(|c| c.len() as u8));
        *out = ReorderOut {
            free,
            req_ready,
            rel_valid: rel.0,
            rel_slot: rel.1,
            rel_tag: rel.2.tag,
            rel_store: rel.2.store,
            rel_pc_idx: rel.2.pc_idx,
            state: r.state.code(),
            target: r.target,
            expect_seq: r.expect_seq,
            count,
            error: r.error,
        };
    }

    /// The outputs of the current cycle, then the rising edge that ends it.
    pub fn step(&mut self, i: &ReorderIn) -> ReorderOut {
        let mut out = ReorderOut::default();
        self.step_into(i, &mut out);
        out
    }

    /// [`ReorderModel::step`] with the outputs written into `out` (its buffer reused).
    pub fn step_into(&mut self, i: &ReorderIn, out: &mut ReorderOut) {
        self.outputs_into(i, out);
        if i.reset {
            self.reset();
        } else {
            self.edge(i, out);
        }
    }

    /// Reset: every register to its power-up value, in place (the channels keep their room).
    fn reset(&mut self) {
        let mut slots = std::mem::take(&mut self.regs.slots);
        let mut channels = std::mem::take(&mut self.regs.channels);
        slots.fill(Slot::default());
        channels.iter_mut().for_each(Vec::clear);
        self.regs = Regs {
            slots,
            channels,
            ..Regs::default()
        };
    }

    /// The `free` output.
    fn free(&self) -> u64 {
        let r = &self.regs;
        (0..self.w)
            .filter(|&s| r.channels[s].len() < self.d)
            .fold(0, |m, s| m | (1 << s))
    }

    /// Bit `slot` (6 bits) of `free`.
    fn slot_free(&self, free: u64, slot: u8) -> bool {
        (free >> (slot & SLOT_BITS)) & 1 == 1
    }

    /// `(rel_valid, rel_slot, entry)` in bypass: the request itself.
    fn bypass_release(i: &ReorderIn) -> (bool, u8, Entry) {
        let e = Entry {
            seq: i.req_seq,
            pc_idx: i.req_pc_idx,
            store: i.req_store,
            tag: i.req_tag,
        };
        (i.req_valid && !i.reset, i.req_slot & SLOT_BITS, e)
    }

    /// `(rel_valid, rel_slot, entry)` with reordering: the found entry in ISSUE, else 0.
    fn release(&self, reset: bool) -> (bool, u8, Entry) {
        let r = &self.regs;
        if r.state != State::Issue {
            return (false, 0, Entry::default());
        }
        let e = r.channels[usize::from(r.target)][usize::from(r.found)];
        (!reset, r.target, e)
    }

    /// The rising edge (not reset) that ends the cycle with inputs `i` and outputs `out`.
    fn edge(&mut self, i: &ReorderIn, out: &ReorderOut) {
        let was = self.regs.state;
        let req = self.distribute(i, out);
        self.configure(i, was);
        let to_target = matches!(req, Request::Push(s, _) if s == usize::from(self.regs.target));
        match was {
            State::Idle if i.start && !i.bypass => self.regs.state = State::Select,
            State::Select => self.select(),
            State::Search => self.search(i.watchdog, to_target),
            State::Issue if i.rel_ready => self.retire(),
            _ => {}
        }
        match req {
            Request::Push(s, e) => self.regs.channels[s].push(e),
            Request::Unmapped => self.fail(error::UNMAPPED),
            Request::None => {}
        }
    }

    /// The configuration writes of an edge whose state during the cycle was `was`.
    fn configure(&mut self, i: &ReorderIn, was: State) {
        if was == State::Idle {
            let r = &mut self.regs;
            (r.rule, r.parallel, r.bypass) = (i.rule & RULE_BITS, i.parallel, i.bypass);
            if i.trace_we {
                self.write_trace(i);
            }
        }
        if i.map_we && matches!(was, State::Idle | State::Done) {
            self.write_map(i);
            self.regs.state = State::Idle;
        }
    }

    /// A trace write.
    fn write_trace(&mut self, i: &ReorderIn) {
        let slot = usize::from(i.trace_slot & SLOT_BITS);
        let index = usize::from(i.trace_index) & (self.t - 1);
        if slot < self.w {
            self.trace[slot * self.t + index] = i.trace_entry;
        }
    }

    /// A map write.
    fn write_map(&mut self, i: &ReorderIn) {
        let slot = usize::from(i.map_slot & SLOT_BITS);
        let len = usize::from(i.map_len) & (2 * self.t - 1);
        if slot >= self.w || len > self.t {
            return;
        }
        self.regs.slots[slot] = Slot {
            map: Some(SlotMap {
                block: i.map_block,
                warp: i.map_warp & WARP_BITS,
                wave: i.map_wave,
                len: len as u16,
            }),
            head: 0,
            seq: 0,
        };
    }

    /// What the distributor does with the cycle's request (the map as it is during the cycle).
    fn distribute(&self, i: &ReorderIn, out: &ReorderOut) -> Request {
        if self.regs.bypass || !i.req_valid {
            return Request::None;
        }
        let slot = usize::from(i.req_slot & SLOT_BITS);
        if slot >= self.w || self.regs.slots[slot].map.is_none() {
            return Request::Unmapped;
        }
        if !out.req_ready {
            return Request::None;
        }
        let e = Entry {
            seq: i.req_seq,
            pc_idx: i.req_pc_idx,
            store: i.req_store,
            tag: i.req_tag,
        };
        Request::Push(slot, e)
    }

    /// → ERROR with `code`, unless already in ERROR.
    fn fail(&mut self, code: u8) {
        if self.regs.state != State::Error {
            self.regs.state = State::Error;
            self.regs.error = code;
        }
    }

    /// The head trace entry of a mapped `slot` with `head < len`.
    fn head_entry(&self, slot: usize) -> u32 {
        self.trace[slot * self.t + usize::from(self.regs.slots[slot].head)]
    }

    /// The key of `slot` if it is pending.
    fn key(&self, slot: usize) -> Option<Key> {
        let s = &self.regs.slots[slot];
        let m = s.map.filter(|m| s.head < m.len)?;
        let e = self.head_entry(slot);
        let epoch = if self.regs.rule & 1 == 1 {
            (e >> 8) as u8
        } else {
            0
        };
        let k = if self.regs.rule & 2 == 2 {
            (e >> 16) as u16
        } else {
            0
        };
        Some((m.wave, epoch, k, e as u8, m.block, m.warp))
    }

    /// SELECT: the pending slot with the smallest key becomes the target; none → DONE.
    fn select(&mut self) {
        let best = (0..self.w)
            .filter_map(|s| self.key(s).map(|k| (k, s)))
            .min();
        let r = &mut self.regs;
        match best {
            None => r.state = State::Done,
            Some((_, s)) => {
                r.target = s as u8;
                r.expect_seq = r.slots[s].seq;
                (r.sp, r.wait) = (0, 0);
                r.state = State::Search;
            }
        }
    }

    /// The place of the entry the current SEARCH cycle finds, if any.
    fn find(&self) -> Option<usize> {
        let r = &self.regs;
        let ch = &r.channels[usize::from(r.target)];
        if r.parallel {
            ch.iter().position(|e| e.seq == r.expect_seq)
        } else {
            let sp = usize::from(r.sp);
            (sp < ch.len() && ch[sp].seq == r.expect_seq).then_some(sp)
        }
    }

    /// One SEARCH edge; `pushed` = a request lands in the target's channel at this edge.
    fn search(&mut self, watchdog: u16, pushed: bool) {
        let target = usize::from(self.regs.target);
        match self.find() {
            Some(j) => {
                let head_pc = self.head_entry(target) as u8;
                if self.regs.channels[target][j].pc_idx == head_pc {
                    self.regs.found = j as u8;
                    self.regs.state = State::Issue;
                } else {
                    self.fail(error::PC_MISMATCH);
                }
            }
            None if watchdog != 0 && self.regs.wait >= watchdog => self.fail(error::WATCHDOG),
            None => self.advance(target, pushed),
        }
    }

    /// A SEARCH cycle without a match: the wait counter and the search pointer advance.
    fn advance(&mut self, target: usize, pushed: bool) {
        let r = &mut self.regs;
        r.wait = r.wait.saturating_add(1);
        let count = r.channels[target].len() + usize::from(pushed);
        let next = usize::from(r.sp) + 1;
        r.sp = if !r.parallel && next < count {
            next as u8
        } else {
            0
        };
    }

    /// The ISSUE edge with `rel_ready`: the entry leaves, the slot's head and counter advance.
    fn retire(&mut self) {
        let r = &mut self.regs;
        let target = usize::from(r.target);
        r.channels[target].remove(usize::from(r.found));
        let slot = &mut r.slots[target];
        slot.head += 1;
        slot.seq = slot.seq.wrapping_add(1);
        r.state = State::Select;
    }
}

/// The 32-bit trace entry of (`pc_idx`, `epoch`, `k`) (`pc_idx` bits 7:0,
/// `epoch` 15:8, `k` 31:16).
pub fn entry(pc_idx: u8, epoch: u8, k: u16) -> u32 {
    u32::from(pc_idx) | (u32::from(epoch) << 8) | (u32::from(k) << 16)
}

/// One warp's configuration for [`config_writes`]: `(slot, block, warp, wave, entries)`.
pub type WarpConfig = (u8, u8, u8, u8, Vec<u32>);

/// The configuration cycles of a launch, one write per cycle: every trace entry of every
/// warp (in the order given), then one map write per warp. Every other input is 0 (so
/// `rule`, `parallel` and `bypass` are 0 during them; set them on the `start` cycle).
///
/// Each warp's entries must fit the unit's T. From DONE, the trace writes are ignored until a
/// map write (or a reset) returns the unit to IDLE.
pub fn config_writes(traces: &[WarpConfig]) -> Vec<ReorderIn> {
    let writes = traces.iter().flat_map(|(slot, _, _, _, entries)| {
        entries.iter().enumerate().map(|(index, &e)| ReorderIn {
            trace_we: true,
            trace_slot: *slot,
            trace_index: index as u16,
            trace_entry: e,
            ..ReorderIn::default()
        })
    });
    let maps = traces
        .iter()
        .map(|&(slot, block, warp, wave, ref entries)| ReorderIn {
            map_we: true,
            map_slot: slot,
            map_block: block,
            map_warp: warp,
            map_wave: wave,
            map_len: entries.len() as u16,
            ..ReorderIn::default()
        });
    writes.chain(maps).collect()
}

/// The inputs of a cycle presenting one request (everything else 0).
pub fn request(slot: u8, seq: u8, pc_idx: u8, store: bool, tag: u8) -> ReorderIn {
    ReorderIn {
        req_valid: true,
        req_slot: slot,
        req_seq: seq,
        req_pc_idx: pc_idx,
        req_store: store,
        req_tag: tag,
        ..ReorderIn::default()
    }
}

crate::ports!(ReorderIn {
    reset,
    rule,
    parallel,
    bypass,
    trace_we,
    trace_slot,
    trace_index,
    trace_entry,
    map_we,
    map_slot,
    map_block,
    map_warp,
    map_wave,
    map_len,
    start,
    req_valid,
    req_slot,
    req_seq,
    req_pc_idx,
    req_store,
    req_tag,
    rel_ready,
    watchdog
});
crate::ports!(ReorderOut {
    free,
    req_ready,
    rel_valid,
    rel_slot,
    rel_tag,
    rel_store,
    rel_pc_idx,
    state,
    target,
    expect_seq,
    count,
    error
});

impl crate::block::Clocked for ReorderModel {
    type In = ReorderIn;
    type Out = ReorderOut;

    fn outputs(&self, input: &ReorderIn) -> ReorderOut {
        ReorderModel::outputs(self, input)
    }

    fn step(&mut self, input: &ReorderIn) {
        ReorderModel::step(self, input);
    }

    fn cycle(&mut self, input: &ReorderIn) -> ReorderOut {
        ReorderModel::step(self, input)
    }

    fn outputs_into(&self, input: &ReorderIn, out: &mut ReorderOut) {
        ReorderModel::outputs_into(self, input, out)
    }

    fn cycle_into(&mut self, input: &ReorderIn, out: &mut ReorderOut) {
        ReorderModel::step_into(self, input, out)
    }
}

mod script;
pub use script::{acc, idle, put, Acc, Warp};

#[cfg(test)]
mod tests;
