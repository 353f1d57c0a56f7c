//! The global memory path of one SM, cycle by cycle (the reordering paper's Fig. 5): a warp
//! scheduler (LRR or pure round-robin) issues the warps' ld/st instructions → the reordering unit
//! (or bypass) → the coalescer → the L1 data cache → a memory with a fixed latency plus random
//! jitter.
//!
//! The units are anything that implements `Clocked`: the reference models here, the RTL in
//! the harness for the testbenches. One cycle, in dependency order:
//! 1. the coalescer's outputs (registers only) present its current line to the L1;
//! 2. the L1 steps with that access and at most one due fill;
//! 3. the reordering unit is probed for `free` (credit gate) with `rel_ready` = coalescer
//!    idle; the scheduler picks a warp; the unit steps with its request;
//! 4. the coalescer steps: it takes the released instruction's lanes (from the LD/ST unit's
//!    access buffer, keyed by slot and tag) or hands its line to the L1.
//!
//! Warps: a warp's next ld/st may issue `gap` cycles after its previous one; after a load the
//! warp waits until every line of it is in the L1 (its data is used at once). A warp's
//! instruction of barrier epoch e waits until no block-mate has an instruction of an earlier
//! epoch left. Stores do not block. The L1 sees the release order; memory answers each load
//! miss `latency + U(0..=jitter)` cycles after it, one fill per cycle.

use super::traffic::Traffic;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rtgpu_hw::block::Clocked;
use rtgpu_hw::cache::model::{CacheOut, CoalescerOut, LANES};
use rtgpu_hw::ldst::model::{PathIn, PathModel, PathOut};
use rtgpu_hw::reorder::model::{config_writes, entry, ReorderIn, WarpConfig};
use rtgpu_wcet::reorder::estimator::{estimate, CacheConfig, Estimate};
use rtgpu_wcet::reorder::order::{release_order, Rule};
use serde::Serialize;
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap, VecDeque};
use std::fmt;

/// What the scheduler sees of the path at the start of a cycle: outputs that depend on the
/// registers only.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PathView {
    /// Channels with a free entry (the credit gate).
    pub free: u64,
    /// The reordering unit presents an instruction (not in bypass).
    pub rel_valid: bool,
    /// Its slot.
    pub rel_slot: u8,
    /// Its tag.
    pub rel_tag: u8,
    /// The coalescer is busy (`rel_ready` is low).
    pub coal_busy: bool,
}

impl PathView {
    /// The view in the outputs of a cycle with no inputs (a block's outputs with its inputs at
    /// their defaults are those of its registers).
    fn of(o: &PathOut) -> PathView {
        PathView {
            free: o.reorder.free,
            rel_valid: o.reorder.rel_valid,
            rel_slot: o.reorder.rel_slot,
            rel_tag: o.reorder.rel_tag,
            coal_busy: o.coal.busy,
        }
    }
}

/// The path below the LD/ST unit (reordering unit → coalescer → L1) as a block: the
/// reference model ([`PathModel`]), or its RTL in lock-step with it.
pub trait Path: Clocked<In = PathIn, Out = PathOut> {}

impl<P: Clocked<In = PathIn, Out = PathOut>> Path for P {}

/// The three configurations of the reordering paper (its Section V-A).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Mode {
    /// LRR scheduling, no reordering (the unit in bypass).
    Default,
    /// LRR scheduling and the reordering unit.
    Reorder,
    /// Pure round-robin scheduling, no reordering.
    PureRr,
}

impl Mode {
    /// Every mode, in the paper's order.
    pub const ALL: [Mode; 3] = [Mode::Default, Mode::Reorder, Mode::PureRr];

    /// The name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Mode::Default => "default",
            Mode::Reorder => "reorder",
            Mode::PureRr => "pure-rr",
        }
    }
}

impl fmt::Display for Mode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// How a run is timed and scheduled.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SysConfig {
    /// Scheduling and reordering.
    pub mode: Mode,
    /// Cycles from a load miss to its fill.
    pub latency: u64,
    /// Extra cycles per miss, uniform in 0..=jitter.
    pub jitter: u64,
    /// Cycles between a warp's consecutive ld/st issues (its other instructions).
    pub gap: u64,
    /// The reordering unit searches a channel in one cycle (else one entry per cycle).
    pub parallel_search: bool,
    /// Seed of the jitter.
    pub seed: u64,
    /// Give up after this many cycles.
    pub max_cycles: u64,
    /// Runtime slot (channel) of each warp; empty = warp i in slot i. The schedulers scan
    /// the warps in runtime slot order.
    pub slots: Vec<u8>,
    /// First issue cycle of each warp (missing entries: 0).
    pub first_issue: Vec<u64>,
    /// Later ld/st a warp may issue before it needs a load's data (0: it waits for the data
    /// right after the load).
    pub load_use: usize,
    /// Without reordering: the LD/ST unit's queue of issued instructions in front of the
    /// coalescer (at least 1).
    pub queue: usize,
}

impl Default for SysConfig {
    fn default() -> Self {
        SysConfig {
            mode: Mode::Reorder,
            latency: 20,
            jitter: 0,
            gap: 2,
            parallel_search: false,
            seed: 1,
            max_cycles: 1_000_000,
            slots: Vec::new(),
            first_issue: Vec::new(),
            load_use: 0,
            queue: 10,
        }
    }
}

/// The geometry of the units.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Geometry {
    /// Warp slots = channels.
    pub slots: usize,
    /// Entries per channel.
    pub depth: usize,
    /// L1 sets.
    pub sets: usize,
    /// L1 ways.
    pub ways: usize,
}

impl Geometry {
    /// The paper's SM: 48 channels of 10 entries, 16 kB 4-way L1 (32 sets).
    pub fn paper() -> Self {
        Geometry {
            slots: 48,
            depth: 10,
            sets: 32,
            ways: 4,
        }
    }

    /// The estimator's configuration of this L1 (write-evict, no-write-allocate).
    pub fn cache(&self) -> CacheConfig {
        CacheConfig {
            ways: self.ways as u32,
            sets: self.sets as u32,
            ..CacheConfig::l1_16k()
        }
    }
}

/// One line access the L1 took.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct LineAccess {
    /// Cycle.
    pub cycle: u64,
    /// Line number.
    pub line: u32,
    /// From a store.
    pub store: bool,
    /// Hit.
    pub hit: bool,
}

/// What a run did.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct SysRun {
    /// Cycles from the start to the last load's data.
    pub cycles: u64,
    /// L1 line accesses.
    pub accesses: u64,
    /// L1 misses.
    pub misses: u64,
    /// Every line access, in order.
    pub events: Vec<LineAccess>,
    /// The instructions in the order the coalescer took them: (warp, index in the warp).
    pub releases: Vec<(usize, usize)>,
    /// Cycles a warp was ready but its channel was full (credit gate).
    pub credit_stalls: u64,
    /// Cycles the L1 held an access (LRU victim pending).
    pub l1_stalls: u64,
    /// Largest channel occupancy seen.
    pub max_occupancy: u8,
}

/// Why a run failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SysError {
    /// The traffic or configuration cannot run on these units.
    Config(String),
    /// A unit failed (harness error).
    Unit(String),
    /// The reordering unit stopped with an error code.
    Reorder {
        /// `error` output.
        code: u8,
        /// Cycle.
        cycle: u64,
    },
    /// Not finished within `max_cycles`.
    Timeout {
        /// The limit.
        cycles: u64,
    },
}

impl fmt::Display for SysError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SysError::Config(m) => write!(f, "configuration: {m}"),
            SysError::Unit(m) => write!(f, "unit: {m}"),
            SysError::Reorder { code, cycle } => {
                write!(f, "reordering unit error {code} at cycle {cycle}")
            }
            SysError::Timeout { cycles } => write!(f, "not finished after {cycles} cycles"),
        }
    }
}

impl std::error::Error for SysError {}

/// A warp's issue state.
#[derive(Clone, Debug, Default)]
struct Warp {
    /// Next instruction to issue.
    next: usize,
    /// Earliest issue cycle of the next instruction.
    ready_at: u64,
    /// Loads in flight (issued, their lines not all accessed and filled), oldest first.
    loads: Vec<Load>,
}

/// A load in flight.
#[derive(Clone, Debug, Default)]
struct Load {
    /// Its index in the warp.
    index: usize,
    /// Every line of it has been accessed.
    lines_done: bool,
    /// Its lines still to be filled.
    waiting: Vec<u32>,
}

/// The trace entries of every warp: `(slot, block, warp, wave 0, entries)`.
fn warp_configs(t: &Traffic, slots: &[u8]) -> Vec<WarpConfig> {
    let a = t.analysis();
    a.warps
        .iter()
        .enumerate()
        .map(|(i, w)| {
            let entries = w
                .accesses
                .iter()
                .map(|x| entry(x.pc_idx, x.epoch, x.k))
                .collect();
            (slots[i], w.block as u8, w.warp as u8, 0, entries)
        })
        .collect()
}

/// The smallest power of two ≥ the longest warp (the unit's T), at most 256.
pub fn trace_depth(t: &Traffic) -> Result<usize, SysError> {
    let longest = t.warps.iter().map(Vec::len).max().unwrap_or(0);
    if longest > 256 {
        return Err(SysError::Config(format!(
            "a warp has {longest} ld/st instructions; the unit holds at most 256"
        )));
    }
    Ok(longest.max(1).next_power_of_two())
}

/// The system: warps and memory around a path (lent to each cycle).
pub struct System {
    t: Traffic,
    cfg: SysConfig,
    slots: Vec<u8>,
    /// The warps in runtime slot order (the schedulers' scan order).
    by_slot: Vec<usize>,
    /// The launch cycles still to drive.
    launch: VecDeque<ReorderIn>,
    rng: ChaCha8Rng,
    now: u64,
    warps: Vec<Warp>,
    /// Position in `by_slot` of the warp LRR issued last.
    lrr_last: usize,
    /// Position in `by_slot` of pure round-robin's pointer.
    rr_next: usize,
    /// Access buffer: (slot, tag) → (warp, instruction).
    buffer: HashMap<(u8, u8), (usize, usize)>,
    /// Without reordering: the LD/ST unit's queue, (warp, index), oldest first.
    queue: VecDeque<(usize, usize)>,
    /// The coalescer's instruction: (warp, index, store).
    coal_cur: Option<(usize, usize, bool)>,
    /// Fills: (due cycle, order, line).
    fills: BinaryHeap<Reverse<(u64, u64, u32)>>,
    fill_order: u64,
    /// Lines with a fill outstanding, with how many.
    in_flight: HashMap<u32, u32>,
    run: SysRun,
}

impl System {
    /// A system for traffic `t` on a path whose unit has `w` slots. Its first cycles launch:
    /// a reset of the path, then (Reorder mode) the release configuration and `start`, or
    /// (else) one cycle loading `bypass`; they are not counted.
    pub fn new(t: &Traffic, cfg: SysConfig, w: usize) -> Result<Self, SysError> {
        let slots = runtime_slots(t, &cfg, w)?;
        let mut by_slot: Vec<usize> = (0..t.warps.len()).collect();
        by_slot.sort_by_key(|&i| slots[i]);
        let warps = (0..t.warps.len())
            .map(|i| Warp {
                ready_at: cfg.first_issue.get(i).copied().unwrap_or(0),
                ..Warp::default()
            })
            .collect();
        let mut s = System {
            t: t.clone(),
            launch: VecDeque::new(),
            queue: VecDeque::new(),
            rng: ChaCha8Rng::seed_from_u64(cfg.seed),
            cfg,
            slots,
            by_slot,
            now: 0,
            warps,
            lrr_last: t.warps.len().saturating_sub(1),
            rr_next: 0,
            buffer: HashMap::new(),
            coal_cur: None,
            fills: BinaryHeap::new(),
            fill_order: 0,
            in_flight: HashMap::new(),
            run: SysRun::default(),
        };
        s.launch = s.launch_cycles();
        Ok(s)
    }

    /// The launch's reordering-unit inputs.
    fn launch_cycles(&self) -> VecDeque<ReorderIn> {
        let reset = ReorderIn {
            reset: true,
            ..ReorderIn::default()
        };
        let mut v = VecDeque::from([reset]);
        if self.cfg.mode != Mode::Reorder {
            v.push_back(self.reorder_base());
            return v;
        }
        v.extend(config_writes(&warp_configs(&self.t, &self.slots)));
        v.push_back(ReorderIn {
            start: true,
            ..self.reorder_base()
        });
        v
    }

    /// Runs to the end on `path`.
    pub fn run(mut self, path: &mut impl Path) -> Result<SysRun, SysError> {
        while !self.finished() {
            if self.now >= self.cfg.max_cycles {
                return Err(SysError::Timeout {
                    cycles: self.cfg.max_cycles,
                });
            }
            self.cycle(path)?;
        }
        Ok(self.result())
    }

    /// What the run did so far (`cycles` = cycles after the launch).
    pub fn result(&self) -> SysRun {
        SysRun {
            cycles: self.now,
            ..self.run.clone()
        }
    }

    /// Every warp issued everything and every load has its data.
    pub fn finished(&self) -> bool {
        self.warps
            .iter()
            .zip(&self.t.warps)
            .all(|(w, insns)| w.next == insns.len() && w.loads.is_empty())
            && self.coal_cur.is_none()
            && self.buffer.is_empty()
            && self.launch.is_empty()
    }

    /// The reordering unit's inputs without a request.
    fn reorder_base(&self) -> ReorderIn {
        ReorderIn {
            rule: 3,
            parallel: self.cfg.parallel_search,
            bypass: self.cfg.mode != Mode::Reorder,
            ..ReorderIn::default()
        }
    }

    /// One cycle on `path` (a launch cycle first, while any is left).
    pub fn cycle(&mut self, path: &mut impl Path) -> Result<(), SysError> {
        if let Some(reorder) = self.launch.pop_front() {
            let i = PathIn {
                reorder,
                ..PathIn::default()
            };
            path.step(&i);
            return path.check().map_err(|f| SysError::Unit(f.to_string()));
        }
        let view = PathView::of(&path.outputs(&PathIn::default()));
        let rel_ready = !view.coal_busy;
        let pick = self.schedule(view.free);
        let base = self.reorder_base();
        let (reorder, rel) = if self.cfg.mode == Mode::Reorder {
            let next = pick.map(|w| (w, self.warps[w].next));
            let rel = view
                .rel_valid
                .then(|| self.buffer.get(&(view.rel_slot, view.rel_tag)));
            (self.request(next, base), rel.flatten().copied())
        } else {
            let front = self.queue.front().copied();
            (self.request(front, base), front.filter(|_| rel_ready))
        };
        let (rel_addr, rel_mask) = rel.map_or(([0; LANES], 0), |(w, i)| {
            let x = &self.t.warps[w][i];
            (x.addr, x.mask)
        });
        let fill = self.due_fill();
        let i = PathIn {
            reorder,
            rel_addr,
            rel_mask,
            fill,
        };
        let o = path.cycle(&i);
        path.check().map_err(|f| SysError::Unit(f.to_string()))?;
        if o.reorder.error != 0 {
            return Err(SysError::Reorder {
                code: o.reorder.error,
                cycle: self.now,
            });
        }
        self.observe(&o, fill, pick)?;
        self.now += 1;
        Ok(())
    }

    /// The effects of the cycle's edge.
    fn observe(
        &mut self,
        o: &PathOut,
        fill: Option<u32>,
        pick: Option<usize>,
    ) -> Result<(), SysError> {
        if o.coal.line_valid && !o.l1.req_ready {
            self.run.l1_stalls += 1;
        }
        if let Some(line) = fill {
            self.filled(line);
        }
        if o.line_taken() {
            self.accessed(&o.coal, o.l1_store, &o.l1);
        }
        self.run.accesses = u64::from(o.l1.accesses) + u64::from(o.line_taken());
        self.run.misses = u64::from(o.l1.misses) + u64::from(o.line_taken() && !o.l1.hit);
        let occupancy = o.reorder.count.iter().copied().max().unwrap_or(0);
        self.run.max_occupancy = self.run.max_occupancy.max(occupancy);
        let bypass = self.cfg.mode != Mode::Reorder;
        if let Some(w) = pick.filter(|_| bypass || o.reorder.req_ready) {
            self.issued(w);
        }
        if bypass && o.released() {
            self.queue.pop_front();
        }
        if o.released() {
            self.release(o.reorder.rel_slot, o.reorder.rel_tag)?;
        }
        Ok(())
    }

    /// The next fill due now, if any (one per cycle).
    fn due_fill(&mut self) -> Option<u32> {
        match self.fills.peek() {
            Some(Reverse((due, _, _))) if *due <= self.now => self.fills.pop().map(|r| r.0 .2),
            _ => None,
        }
    }

    /// A fill reached the L1 at this edge: loads waiting for the line get it.
    fn filled(&mut self, line: u32) {
        if let Some(n) = self.in_flight.get_mut(&line) {
            *n -= 1;
            if *n == 0 {
                self.in_flight.remove(&line);
            }
        }
        let now = self.now;
        for w in &mut self.warps {
            for l in &mut w.loads {
                l.waiting.retain(|&x| x != line);
            }
            finish_loads(w, now);
        }
    }

    /// The L1 took the coalescer's line at this edge.
    fn accessed(&mut self, coal_o: &CoalescerOut, store: bool, o: &CacheOut) {
        let line = coal_o.line;
        self.run.events.push(LineAccess {
            cycle: self.now,
            line,
            store,
            hit: o.hit,
        });
        let Some((w, index, _)) = self.coal_cur else {
            return;
        };
        if !store {
            if !o.hit {
                self.miss(line);
            }
            if self.in_flight.contains_key(&line) {
                if let Some(l) = self.warps[w].load_mut(index) {
                    l.waiting.push(line);
                }
            }
        }
        if coal_o.last {
            self.coal_cur = None;
            self.lines_done(w, index);
        }
    }

    /// A load miss: memory answers after the latency and jitter.
    fn miss(&mut self, line: u32) {
        let jitter = self.rng.gen_range(0..=self.cfg.jitter);
        let due = self.now + self.cfg.latency.max(1) + jitter;
        self.fills.push(Reverse((due, self.fill_order, line)));
        self.fill_order += 1;
        *self.in_flight.entry(line).or_insert(0) += 1;
    }

    /// Warp `w` may issue now (credit aside).
    fn ready(&self, w: usize) -> bool {
        let s = &self.warps[w];
        s.next < self.t.warps[w].len()
            && self.now >= s.ready_at
            && s.loads
                .first()
                .is_none_or(|l| s.next - l.index <= self.cfg.load_use)
            && self.barrier_ok(w)
    }

    /// No block-mate of `w` has an instruction of an earlier epoch left.
    fn barrier_ok(&self, w: usize) -> bool {
        let epoch = self.t.warps[w][self.warps[w].next].epoch;
        let block = self.t.block_warp(w).0;
        (0..self.t.warps.len())
            .filter(|&m| self.t.block_warp(m).0 == block)
            .all(|m| {
                self.t.warps[m]
                    .get(self.warps[m].next)
                    .is_none_or(|x| x.epoch >= epoch)
            })
    }

    /// The unit takes a request of warp `w` this cycle.
    fn credit(&self, w: usize, free: u64) -> bool {
        match self.cfg.mode {
            Mode::Reorder => free >> self.slots[w] & 1 == 1,
            _ => self.queue.len() < self.cfg.queue.max(1),
        }
    }

    /// The warp the scheduler issues this cycle.
    fn schedule(&mut self, free: u64) -> Option<usize> {
        let n = self.warps.len();
        if self.cfg.mode == Mode::PureRr {
            return self.pure_rr(free);
        }
        let order = (1..=n).map(|d| (self.lrr_last + d) % n);
        let ready: Vec<usize> = order.filter(|&p| self.ready(self.by_slot[p])).collect();
        let pick = ready
            .iter()
            .copied()
            .find(|&p| self.credit(self.by_slot[p], free));
        if pick.is_none() && !ready.is_empty() && self.cfg.mode == Mode::Reorder {
            self.run.credit_stalls += 1;
        }
        let p = pick?;
        self.lrr_last = p;
        Some(self.by_slot[p])
    }

    /// Pure round-robin: the pointer waits at its warp until it issues; only finished warps
    /// and warps held at a barrier are skipped.
    fn pure_rr(&mut self, free: u64) -> Option<usize> {
        let n = self.warps.len();
        let skip = |s: &Self, w: usize| s.warps[w].next == s.t.warps[w].len() || !s.barrier_ok(w);
        let p = (0..n)
            .map(|d| (self.rr_next + d) % n)
            .find(|&p| !skip(self, self.by_slot[p]))?;
        self.rr_next = p;
        let w = self.by_slot[p];
        if self.ready(w) && self.credit(w, free) {
            self.rr_next = (p + 1) % n;
            return Some(w);
        }
        None
    }

    /// The request of warp `w`'s next instruction.
    fn request(&self, insn: Option<(usize, usize)>, base: ReorderIn) -> ReorderIn {
        let Some((w, i)) = insn else {
            return base;
        };
        let x = &self.t.warps[w][i];
        ReorderIn {
            req_valid: true,
            req_slot: self.slots[w],
            req_seq: i as u8,
            req_pc_idx: x.pc_idx,
            req_store: x.store,
            req_tag: i as u8,
            ..base
        }
    }

    /// Warp `w`'s next instruction was taken at this edge.
    fn issued(&mut self, w: usize) {
        let i = self.warps[w].next;
        self.buffer.insert((self.slots[w], i as u8), (w, i));
        if self.cfg.mode != Mode::Reorder {
            self.queue.push_back((w, i));
        }
        let s = &mut self.warps[w];
        s.next += 1;
        s.ready_at = self.now + 1 + self.cfg.gap;
        if !self.t.warps[w][i].store {
            s.loads.push(Load {
                index: i,
                ..Load::default()
            });
        }
    }

    /// The coalescer took the released instruction (`slot`, `tag`) at this edge.
    fn release(&mut self, slot: u8, tag: u8) -> Result<(), SysError> {
        let (w, i) = self
            .buffer
            .remove(&(slot, tag))
            .ok_or_else(|| SysError::Config(format!("released an unknown request {slot}/{tag}")))?;
        let x = &self.t.warps[w][i];
        self.run.releases.push((w, i));
        if x.mask == 0 {
            self.lines_done(w, i);
        } else {
            self.coal_cur = Some((w, i, x.store));
        }
        Ok(())
    }

    /// Every line of warp `w`'s instruction `index` has been accessed.
    fn lines_done(&mut self, w: usize, index: usize) {
        if let Some(l) = self.warps[w].load_mut(index) {
            l.lines_done = true;
        }
        finish_loads(&mut self.warps[w], self.now);
    }
}

impl Warp {
    /// The load in flight that is instruction `index`.
    fn load_mut(&mut self, index: usize) -> Option<&mut Load> {
        self.loads.iter_mut().find(|l| l.index == index)
    }
}

/// Loads whose lines were all accessed and filled end; the warp may issue from the next
/// cycle.
fn finish_loads(w: &mut Warp, now: u64) {
    let before = w.loads.len();
    w.loads.retain(|l| !(l.lines_done && l.waiting.is_empty()));
    if w.loads.len() != before {
        w.ready_at = w.ready_at.max(now + 1);
    }
}

/// The runtime slot of every warp: `cfg.slots` or the identity; each < `w`, distinct.
fn runtime_slots(t: &Traffic, cfg: &SysConfig, w: usize) -> Result<Vec<u8>, SysError> {
    let n = t.warps.len();
    let slots: Vec<u8> = if cfg.slots.is_empty() {
        (0..n).map(|i| i as u8).collect()
    } else {
        cfg.slots.clone()
    };
    let mut seen = vec![false; w];
    if slots.len() != n || n > w {
        return Err(SysError::Config(format!(
            "{n} warps need {n} distinct slots of the unit's {w}"
        )));
    }
    for &s in &slots {
        let s = usize::from(s);
        if s >= w || std::mem::replace(&mut seen[s], true) {
            return Err(SysError::Config(format!(
                "slot {s} is out of range or used twice"
            )));
        }
    }
    Ok(slots)
}

/// Runs `t` on the reference models of geometry `g`.
pub fn run_models(t: &Traffic, g: Geometry, cfg: SysConfig) -> Result<SysRun, SysError> {
    let mut path = PathModel::new(g.slots, g.depth, trace_depth(t)?, g.sets, g.ways)
        .map_err(SysError::Config)?;
    System::new(t, cfg, g.slots)?.run(&mut path)
}

/// The static estimate of the L1's accesses under reordering (R1, epoch-major, every block
/// resident).
pub fn estimate_traffic(t: &Traffic, g: Geometry) -> Result<Estimate, String> {
    let a = t.analysis();
    let order = release_order(
        &a,
        Rule::R1 { epoch_major: true },
        t.blocks().max(1) as usize,
    )
    .map_err(|e| format!("{e:?}"))?;
    estimate(&a, &order, g.cache()).map_err(|e| format!("{e:?}"))
}
