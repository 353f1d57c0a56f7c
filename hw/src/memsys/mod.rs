//! The compute unit's global memory hierarchy: per-wavefront coalescing (the coalescer
//! block, run by the compute unit; its lines are [`coalesce::LineSpan`]s) → the LD/ST unit's
//! access buffer → the **reordering unit** (or its bypass
//! with an LD/ST queue) → a line sequencer → the **L1 data cache** → a miss queue → a
//! **clock-domain crossing** ([`cdc`]) → the **Sim-D DRAM controller** ([`dram_side`]) in the
//! DRAM command clock → the crossing back → fills and store acknowledgements.
//!
//! Every block here is the reference model of its RTL block (`crate::reorder`,
//! `crate::cache`, `crate::dram`), each checked cycle by cycle against its RTL in its own
//! tests; this module wires them, cycle by cycle, as the blocks' contracts say.
//!
//! # One core cycle ([`MemSystem::step`], the core edge at `(now − origin + 1) · core_ps`)
//!
//! 1. The DRAM domain runs every command-clock edge up to and including the core edge (DRAM
//!    edges at `m · tCK` from the launch's start; at the same picosecond the DRAM edge comes
//!    first). Each DRAM cycle presents the crossing's head to the controller when
//!    `req_ready` and the crossing back has a place for every request in the controller; a
//!    completion goes into the crossing back.
//! 2. The core domain, at its edge: at most one response leaves the crossing (a load miss's
//!    fill goes to the L1 and wakes the loads waiting for that line; a write acknowledges
//!    its store's line); the L1 takes the sequencer's line if the miss queue has room and the
//!    L1 is ready (a load miss or a store's line enters the miss queue); the reordering unit
//!    steps with the request the LD/ST unit issued this cycle (credit-gated by
//!    [`MemSystem::accepts`]) and releases an instruction to the sequencer when the sequencer
//!    was idle at the start of the cycle; the miss queue's head (as it stood at the start of
//!    the cycle) enters the crossing. A load miss asks DRAM for its whole line; a store
//!    writes the dwords it touches in each line.
//!
//! The access buffer has 256 tags (the unit's 8-bit `req_tag`); each slot may hold at most
//! `min(D, 256 / W)` unreleased accesses, so the access the unit waits for always finds a tag.
//! Split halves (PWS, DWS) share their wavefront's slot and trace: a FLAT that both halves
//! execute between `split` and `merge` with lanes is two accesses against one trace instance
//! and ends in `reorder_trace` (the kernels here keep FLATs of split regions in one half).
//!
//! A load completes `l1_hit` cycles after its last line is taken, or 1 cycle after the last
//! fill it waited for (a hit on a line still being filled waits for that fill); a store
//! completes when DRAM acknowledged every line of it (write-through, no write allocate). The
//! data itself moves at issue, in the compute unit's memory (the hierarchy times it).
//!
//! # Reordering on
//!
//! The unit releases in the order of its release configuration (rule R1,
//! epoch-major, our generalisation of the reordering paper's rule). Its configuration is written
//! round by round ([`MemSystem::configure`]): a reset cycle, one cycle per trace entry, one per
//! map, then `start`. Until `start`, [`MemSystem::accepts`] is false. A request carries its
//! wavefront's slot, the instance's sequence number and `pc_idx` from the trace
//! ([`plan::ReorderPlan::seq_of`]).
//!
//! # Reordering off
//!
//! The unit is in bypass; requests wait in an LD/ST queue of `channel_depth` places and are
//! released in arrival order.

pub mod cdc;
pub mod coalesce;
mod config;
pub mod dram_side;
pub mod plan;

pub use config::{DramPart, MemConfig};

use crate::block::{BlockFault, Blocks, DynBlock};
use crate::cache::model::{CacheIn, CacheOut};
use crate::dram::model::DramOut;
use crate::reorder::model::{config_writes, ReorderIn, ReorderOut, WarpConfig};
use cdc::{CdcFifo, Clock};
use coalesce::LineSpan;
use dram_side::{DramCounters, DramSide, LineReq};
use std::cell::Cell;
use std::collections::{HashMap, VecDeque};
use std::fmt;

/// Why the hierarchy stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MemError {
    /// The reordering unit's `error` output (1 wrong pc_idx, 2 watchdog, 3 unmapped slot).
    Reorder(u8),
    /// The DRAM side misbehaved.
    Dram(&'static str),
    /// The path lost a request (a protocol error between the blocks).
    Path(&'static str),
}

impl fmt::Display for MemError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MemError::Reorder(c) => write!(f, "reordering unit error {c}"),
            MemError::Dram(m) => write!(f, "DRAM: {m}"),
            MemError::Path(m) => write!(f, "memory path: {m}"),
        }
    }
}

/// A global access the LD/ST unit hands to the hierarchy.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GlobalAccess {
    /// The compute unit's completion id.
    pub id: u64,
    /// The wavefront's runtime slot (reordering channel).
    pub slot: u8,
    /// Its sequence number in the wavefront's trace (reordering on).
    pub seq: u8,
    /// Its `pc_idx` (reordering on).
    pub pc_idx: u8,
    /// A store.
    pub store: bool,
    /// Its lines, ascending (not empty).
    pub lines: Vec<LineSpan>,
}

/// What the hierarchy counted in a launch.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct MemCounters {
    /// L1 line accesses.
    pub l1_accesses: u64,
    /// L1 hits.
    pub l1_hits: u64,
    /// L1 misses (load misses and store misses).
    pub l1_misses: u64,
    /// Cycles the L1 held an access (LRU victim still being filled).
    pub l1_stalls: u64,
    /// Context-cycles a global access waited for the reordering unit's credit (or a full
    /// LD/ST queue, or the unit's configuration).
    pub reorder_stalls: u64,
    /// Cycles the reordering unit held a request back (an instruction waited in a channel).
    pub reorder_held: u64,
    /// The DRAM side's counters.
    pub dram: DramCounters,
}

/// An access being carried out.
#[derive(Clone, Debug, Default)]
struct Track {
    lines_left: usize,
    fills_left: usize,
    acks_left: usize,
    ready_at: u64,
}

/// The hierarchy.
pub struct MemSystem {
    cfg: MemConfig,
    reorder_on: bool,
    core: Clock,
    dram_clk: Clock,
    /// The reordering unit block.
    reorder: DynBlock<ReorderIn, ReorderOut>,
    /// The reordering unit's outputs, reused every cycle.
    reorder_out: ReorderOut,
    /// The L1 block.
    l1: DynBlock<CacheIn, CacheOut>,
    dram: DramSide,
    to_dram: CdcFifo<LineReq>,
    from_dram: CdcFifo<LineReq>,
    /// The access buffer: tag → access.
    buffer: Vec<Option<GlobalAccess>>,
    /// The request issued this cycle, if any.
    request: Option<u8>,
    /// Per slot: accesses in the buffer not yet released.
    outstanding: Vec<usize>,
    /// Per slot: the sequence number the reordering unit releases next (its slot's counter).
    next_seq: Vec<u8>,
    /// Per slot: the sequence numbers of its accesses in the buffer (bit i of word i / 64).
    entered: Vec<[u64; 4]>,
    /// Tags in use.
    tags_used: usize,
    /// The most a slot may have there: the 256 tags shared out, so that no wavefront's
    /// expected access can ever lack a tag (a deadlock otherwise).
    tags_per_slot: usize,
    /// The launch's first core cycle (the DRAM clock starts with it).
    origin: u64,
    /// Reordering off: tags in arrival order.
    queue: VecDeque<u8>,
    /// Configuration cycles still to drive.
    config: VecDeque<ReorderIn>,
    /// The sequencer: the released access and its next line.
    seq: Option<(GlobalAccess, usize)>,
    miss_queue: VecDeque<LineReq>,
    tracks: HashMap<u64, Track>,
    /// Per line, one list per outstanding load miss (oldest first) of the accesses waiting
    /// for its fill: a miss starts a list, a hit on the line while it is being filled joins
    /// the newest, a fill completes the oldest.
    waiting: HashMap<u32, VecDeque<Vec<u64>>>,
    /// Emptied lists of `waiting`, kept for the next misses (the cycle allocates nothing
    /// once the pools hold what is in flight).
    spare_waiters: Vec<Vec<u64>>,
    /// Emptied per-line queues of `waiting`, kept for the next lines.
    spare_queues: Vec<VecDeque<Vec<u64>>>,
    /// Line lists of sequenced accesses, for [`MemSystem::take_lines`].
    spare_lines: Vec<Vec<LineSpan>>,
    /// Completed accesses: (id, cycle of completion).
    done: Vec<(u64, u64)>,
    /// Channels with a free entry, as they stand at the start of the cycle.
    free: u64,
    next_dram_edge: u64,
    counters: MemCounters,
    /// [`MemSystem::accepts`] refusals (it is asked while the compute unit only reads).
    refused: Cell<u64>,
    /// The outputs of the last cycle (waveforms).
    pub last: Snapshot,
}

/// What the last cycle looked like (waveforms).
#[derive(Clone, Debug, Default)]
pub struct Snapshot {
    /// The reordering unit's state, target slot, and released (slot, tag).
    pub reorder: (u8, u8, Option<(u8, u8)>),
    /// The L1's access: (line, store, hit), if taken.
    pub l1: Option<(u32, bool, bool)>,
    /// A fill this cycle.
    pub fill: Option<u32>,
    /// Miss queue occupancy, crossing occupancies (to DRAM, from DRAM).
    pub queues: (usize, usize, usize),
    /// The DRAM controller's last outputs.
    pub dram: DramOut,
    /// Every DRAM cycle of the last core cycle: (time its edge ends it, ps; outputs).
    pub dram_edges: Vec<(u64, DramOut)>,
}

impl MemSystem {
    /// A hierarchy for `slots` wavefront slots (≤ 64) in its reset state, its reordering
    /// unit (`trace` entries per slot, at most [`plan::MAX_TRACE`]), L1 and DRAM controller
    /// from `blocks`. The DRAM clock's first edge is one period after core cycle `origin`
    /// starts.
    pub fn new(
        blocks: &dyn Blocks,
        cfg: &MemConfig,
        (slots, trace): (usize, usize),
        reorder_on: bool,
        origin: u64,
    ) -> Result<Self, String> {
        let part = cfg.check()?;
        let core = Clock {
            period: u64::from(cfg.core_ps),
        };
        let dram_clk = Clock {
            period: u64::from(part.tck_ps),
        };
        let stages = u64::from(cfg.cdc_stages);
        let mut s = MemSystem {
            reorder_on,
            core,
            dram_clk,
            reorder: blocks.reorder(slots, cfg.channel_depth, trace)?,
            reorder_out: ReorderOut::default(),
            l1: blocks.l1(cfg.l1_sets, cfg.l1_ways)?,
            dram: DramSide::new(blocks.dram(part, cfg.refresh_phase)?),
            to_dram: CdcFifo::new(cfg.cdc_depth, stages, core, dram_clk),
            from_dram: CdcFifo::new(cfg.cdc_depth, stages, dram_clk, core),
            buffer: vec![None; 256],
            request: None,
            outstanding: vec![0; slots],
            next_seq: vec![0; slots],
            entered: vec![[0; 4]; slots],
            tags_used: 0,
            tags_per_slot: (256 / slots.max(1)).min(cfg.channel_depth),
            origin,
            queue: VecDeque::new(),
            config: VecDeque::new(),
            seq: None,
            miss_queue: VecDeque::new(),
            tracks: HashMap::new(),
            waiting: HashMap::new(),
            spare_waiters: Vec::new(),
            spare_queues: Vec::new(),
            spare_lines: Vec::new(),
            done: Vec::new(),
            free: 0,
            next_dram_edge: dram_clk.period,
            counters: MemCounters::default(),
            refused: Cell::new(0),
            last: Snapshot::default(),
            cfg: *cfg,
        };
        s.config.push_back(ReorderIn {
            reset: true,
            ..ReorderIn::default()
        });
        s.config.push_back(s.base());
        s.l1.step(&CacheIn {
            reset: true,
            ..CacheIn::default()
        });
        Ok(s)
    }

    /// The first lock-step fault of the hierarchy's blocks.
    pub fn check(&self) -> Result<(), Box<BlockFault>> {
        self.reorder.check()?;
        self.l1.check()?;
        self.dram.check()
    }

    /// Records every DRAM command from now on.
    pub fn record_dram(&mut self) {
        self.dram.trace = Some(Vec::new());
    }

    /// The DRAM commands recorded: (DRAM cycle, the controller's outputs).
    pub fn dram_trace(&self) -> Option<&[(u64, DramOut)]> {
        self.dram.trace.as_deref()
    }

    /// The counters.
    pub fn counters(&self) -> MemCounters {
        MemCounters {
            dram: self.dram.counters,
            reorder_stalls: self.refused.get(),
            ..self.counters
        }
    }

    /// The DRAM command clock period (ps).
    pub fn dram_ps(&self) -> u64 {
        self.dram_clk.period
    }

    /// The unit's inputs outside configuration and requests.
    fn base(&self) -> ReorderIn {
        ReorderIn {
            rule: 3,
            bypass: !self.reorder_on,
            watchdog: self.cfg.reorder_watchdog,
            ..ReorderIn::default()
        }
    }

    /// Queues the configuration of a round: a reset, the traces and maps of `warps`, and
    /// `start` (reordering on only).
    pub fn configure(&mut self, warps: &[WarpConfig]) {
        self.next_seq.fill(0);
        self.config.push_back(ReorderIn {
            reset: true,
            ..ReorderIn::default()
        });
        self.config.extend(config_writes(warps));
        self.config.push_back(ReorderIn {
            start: true,
            ..self.base()
        });
    }

    /// Nothing in flight and no configuration pending.
    pub fn idle(&self) -> bool {
        self.tracks.is_empty()
            && self.config.is_empty()
            && self.miss_queue.is_empty()
            && self.to_dram.is_empty()
            && self.from_dram.is_empty()
            && self.dram.idle()
    }

    /// A free access-buffer tag.
    fn free_tag(&self) -> Option<u8> {
        self.buffer
            .iter()
            .position(Option::is_none)
            .map(|t| t as u8)
    }

    /// The LD/ST unit may hand access number `seq` (its sequence number in the slot's
    /// trace; `None` without reordering) of `slot` this cycle (counts a stall when not).
    ///
    /// Reordering on, the slot's last place (channel entry and access-buffer tag) is kept
    /// for the access the unit releases next from that slot (its sequence counter): the two
    /// halves of a split wavefront share one slot, and the half later in the trace would
    /// otherwise fill it with accesses the unit cannot release yet while the half it waits
    /// for gets no credit (docs/results.md, "Split wavefronts and the channel's credits").
    pub fn accepts(&self, slot: u8, seq: Option<u8>) -> bool {
        let ok = self.would_accept(slot) && self.keeps_last_place(slot, seq);
        if !ok {
            self.refused.set(self.refused.get() + 1);
        }
        ok
    }

    /// Reordering on: the unit holds accesses of `slot` it has not released yet (its channel
    /// is not empty). Their release may wait for another wavefront's access, or for the
    /// other half's of a split wavefront, so a context of `slot` stalled at a global access
    /// or an `s_waitcnt` cannot become eligible by itself.
    pub fn holds(&self, slot: u8) -> bool {
        self.reorder_on && self.outstanding[usize::from(slot)] > 0
    }

    /// Accesses refused so far ([`MemSystem::accepts`] answering no).
    pub fn refusals(&self) -> u64 {
        self.refused.get()
    }

    /// Counts `n` more refusals (the compute unit's quiet cycles, which do not ask).
    pub fn add_refusals(&self, n: u64) {
        self.refused.set(self.refused.get() + n);
    }

    /// Reordering on: access `seq` of `slot` leaves the slot one place for its next release,
    /// or that release is already in (always so for a wavefront that is not split, whose
    /// accesses come in trace order), or `seq` is that release itself.
    fn keeps_last_place(&self, slot: u8, seq: Option<u8>) -> bool {
        let s = usize::from(slot);
        let next = self.next_seq[s];
        !self.reorder_on
            || self.outstanding[s] + 2 <= self.tags_per_slot
            || self.entered[s][usize::from(next / 64)] >> (next % 64) & 1 == 1
            || seq == Some(next)
    }

    /// [`MemSystem::accepts`] without counting, and without the last place's rule (a
    /// context it refuses asks again in a full cycle).
    pub fn would_accept(&self, slot: u8) -> bool {
        self.request.is_none()
            && self.config.is_empty()
            && self.outstanding[usize::from(slot)] < self.tags_per_slot
            && self.tags_used < self.buffer.len()
            && if self.reorder_on {
                self.free >> slot & 1 == 1
            } else {
                self.queue.len() < self.cfg.channel_depth
            }
    }

    /// Takes access `a` this cycle (after [`MemSystem::accepts`]).
    pub fn request(&mut self, a: GlobalAccess) {
        let tag = self.free_tag().expect("accepts checked a free tag");
        self.tracks.insert(
            a.id,
            Track {
                lines_left: a.lines.len(),
                ..Track::default()
            },
        );
        self.outstanding[usize::from(a.slot)] += 1;
        self.entered[usize::from(a.slot)][usize::from(a.seq / 64)] |= 1 << (a.seq % 64);
        self.tags_used += 1;
        self.buffer[usize::from(tag)] = Some(a);
        self.request = Some(tag);
        if !self.reorder_on {
            self.queue.push_back(tag);
        }
    }

    /// The accesses completed so far, removed: (id, cycle from which its data may be used).
    /// The list keeps its room for the next ones.
    pub fn drain_done(&mut self) -> std::vec::Drain<'_, (u64, u64)> {
        self.done.drain(..)
    }

    /// One core cycle (`now`), ending at the core edge.
    pub fn step(&mut self, now: u64) -> Result<(), MemError> {
        let edge = (now - self.origin + 1) * self.core.period;
        self.last.dram_edges.clear();
        while self.next_dram_edge <= edge {
            let t = self.next_dram_edge;
            self.dram.edge(t, &mut self.to_dram, &mut self.from_dram)?;
            self.last.dram_edges.push((t, self.dram.last));
            self.next_dram_edge += self.dram_clk.period;
        }
        let rel_ready = self.seq.is_none();
        let head = self.miss_queue.front().copied();
        let fill = self.response(now, edge);
        self.l1_cycle(now, fill);
        self.reorder_cycle(rel_ready)?;
        if let Some(r) = head.filter(|_| self.to_dram.can_push(edge)) {
            self.to_dram.push(edge, r);
            self.miss_queue.pop_front();
        }
        self.last.queues = (
            self.miss_queue.len(),
            self.to_dram.len(),
            self.from_dram.len(),
        );
        self.last.dram = self.dram.last;
        Ok(())
    }

    /// At most one response leaves the crossing: a fill (returned) or a write ack.
    fn response(&mut self, now: u64, edge: u64) -> Option<u32> {
        let r = self.from_dram.pop(edge)?;
        if r.write {
            self.progress(r.id, now, |t| t.acks_left -= 1);
            return None;
        }
        let line = r.span.line;
        let waiters = self.waiting.get_mut(&line).and_then(VecDeque::pop_front);
        if self.waiting.get(&line).is_some_and(VecDeque::is_empty) {
            self.retire_line(line);
        }
        let mut waiters = waiters.unwrap_or_default();
        for &id in &waiters {
            self.progress(id, now + 1, |t| t.fills_left -= 1);
        }
        waiters.clear();
        self.spare_waiters.push(waiters);
        Some(line)
    }

    /// Line `line` has no load waiting for a fill any more: its queue goes to the spares.
    fn retire_line(&mut self, line: u32) {
        if let Some(q) = self.waiting.remove(&line) {
            self.spare_queues.push(q);
        }
    }

    /// Applies `f` to access `id`'s track, then completes it if nothing is left.
    fn progress(&mut self, id: u64, ready: u64, f: impl FnOnce(&mut Track)) {
        let Some(t) = self.tracks.get_mut(&id) else {
            return;
        };
        f(t);
        t.ready_at = t.ready_at.max(ready);
        if t.lines_left + t.fills_left + t.acks_left == 0 {
            let at = t.ready_at;
            self.tracks.remove(&id);
            self.done.push((id, at));
        }
    }

    /// The L1's cycle: the sequencer's line (when the miss queue has room) and the fill.
    fn l1_cycle(&mut self, now: u64, fill: Option<u32>) {
        let room = self.miss_queue.len() < self.cfg.miss_queue;
        let line = self
            .seq
            .as_ref()
            .filter(|_| room)
            .map(|(a, i)| (a.lines[*i], a.store, a.id));
        let i = CacheIn {
            reset: false,
            req_valid: line.is_some(),
            req_line: line.map_or(0, |l| l.0.line),
            req_store: line.is_some_and(|l| l.1),
            mem_fill: fill.is_some(),
            mem_fill_line: fill.unwrap_or(0),
        };
        let o = self.l1.cycle(&i);
        self.last.fill = fill;
        self.last.l1 = None;
        let Some((span, store, id)) = line else {
            return;
        };
        if !o.req_ready {
            self.counters.l1_stalls += 1;
            return;
        }
        self.last.l1 = Some((span.line, store, o.hit));
        self.taken(now, span, store, id, &o);
    }

    /// The L1 took line `span` of access `id` at this edge.
    fn taken(&mut self, now: u64, span: LineSpan, store: bool, id: u64, o: &CacheOut) {
        self.counters.l1_accesses += 1;
        if o.hit {
            self.counters.l1_hits += 1;
        } else {
            self.counters.l1_misses += 1;
        }
        let req = LineReq {
            id,
            write: store,
            span,
        };
        let (fills, acks) = if store {
            self.miss_queue.push_back(req);
            (0, 1)
        } else {
            let spare_queues = &mut self.spare_queues;
            let lists = self
                .waiting
                .entry(span.line)
                .or_insert_with(|| spare_queues.pop().unwrap_or_default());
            if !o.hit {
                // The whole line comes from DRAM (the L1 holds lines).
                let whole = LineSpan {
                    line: span.line,
                    first: 0,
                    words: coalesce::LINE_WORDS,
                };
                self.miss_queue.push_back(LineReq { span: whole, ..req });
                lists.push_back(self.spare_waiters.pop().unwrap_or_default());
            }
            let wait = match lists.back_mut() {
                Some(l) => {
                    l.push(id);
                    true
                }
                None => false,
            };
            if lists.is_empty() {
                self.retire_line(span.line);
            }
            (usize::from(wait), 0)
        };
        let hit_ready = now + u64::from(self.cfg.l1_hit);
        self.advance_sequencer();
        self.progress(id, hit_ready, |t| {
            t.fills_left += fills;
            t.acks_left += acks;
            t.lines_left -= 1;
        });
    }

    /// Moves the sequencer to its next line (idle after the access's last).
    fn advance_sequencer(&mut self) {
        if let Some((a, i)) = &mut self.seq {
            *i += 1;
            if *i == a.lines.len() {
                if let Some((mut a, _)) = self.seq.take() {
                    a.lines.clear();
                    self.spare_lines.push(a.lines);
                }
            }
        }
    }

    /// An empty list for the next access's lines: one its sequencing emptied before, so that
    /// an access allocates nothing once the pool holds the accesses in flight.
    pub fn take_lines(&mut self) -> Vec<LineSpan> {
        self.spare_lines.pop().unwrap_or_default()
    }

    /// The reordering unit's cycle: configuration, the request, the release.
    fn reorder_cycle(&mut self, rel_ready: bool) -> Result<(), MemError> {
        let input = match self.config.pop_front() {
            Some(c) => c,
            None => self.request_inputs(rel_ready),
        };
        let mut o = std::mem::take(&mut self.reorder_out);
        self.reorder.cycle_into(&input, &mut o);
        let r = self.reorder_result(&o, rel_ready);
        self.reorder_out = o;
        r?;
        if self.reorder_on {
            self.reorder
                .outputs_into(&self.base(), &mut self.reorder_out);
            self.free = self.reorder_out.free;
        }
        Ok(())
    }

    /// Acts on the reordering unit's outputs `o` of the cycle: errors, the release.
    fn reorder_result(&mut self, o: &ReorderOut, rel_ready: bool) -> Result<(), MemError> {
        if o.error != 0 {
            return Err(MemError::Reorder(o.error));
        }
        if self.reorder_on && self.request.take().is_some() && !o.req_ready {
            return Err(MemError::Path(
                "the reordering unit refused a credited request",
            ));
        }
        self.request = None;
        let released = o.rel_valid && rel_ready;
        if o.rel_valid && !rel_ready {
            self.counters.reorder_held += 1;
        }
        self.last.reorder = (o.state, o.target, None);
        if released {
            self.last.reorder.2 = Some((o.rel_slot, o.rel_tag));
            if !self.reorder_on {
                self.queue.pop_front();
            }
            let a = self.buffer[usize::from(o.rel_tag)].take();
            if let Some(a) = &a {
                self.outstanding[usize::from(a.slot)] -= 1;
                self.next_seq[usize::from(a.slot)] = a.seq.wrapping_add(1);
                self.entered[usize::from(a.slot)][usize::from(a.seq / 64)] &= !(1 << (a.seq % 64));
                self.tags_used -= 1;
            }
            self.seq = a.map(|a| (a, 0));
        }
        Ok(())
    }

    /// The unit's inputs with this cycle's request (or the LD/ST queue's head, in bypass).
    fn request_inputs(&self, rel_ready: bool) -> ReorderIn {
        let tag = if self.reorder_on {
            self.request
        } else {
            self.queue.front().copied()
        };
        let Some(a) = tag.and_then(|t| self.buffer[usize::from(t)].as_ref()) else {
            return ReorderIn {
                rel_ready,
                ..self.base()
            };
        };
        ReorderIn {
            req_valid: true,
            req_slot: a.slot,
            req_seq: a.seq,
            req_pc_idx: a.pc_idx,
            req_store: a.store,
            req_tag: tag.unwrap_or(0),
            rel_ready,
            ..self.base()
        }
    }
}
