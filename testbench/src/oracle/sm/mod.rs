//! The SM issue model of the multi-phase paper (docs/works/multiphase.md): a cycle-level
//! behavioural simulator of one SM running one block, with exactly the hardware semantics the
//! paper's Section 2 assumes (single issue, pipelined memory without contention, no data cache,
//! perfect fetch; in-order issue per warp, partially pipelined FUs with one initiation at a
//! time, a work-conserving scheduler, independent FUs), the timing conventions below and a
//! drain-release barrier. It is the reference the RTL SM and the analysis
//! (Algorithm 1, GUB) are checked against; it knows nothing of the analysis.
//!
//! # The cycle, precisely
//!
//! Time counts cycles from 0; all warps start at cycle 0. Each cycle `t` does, in order:
//!
//! 1. **Eligibility.** Warp `w` is eligible when it is not finished (it has instructions left to
//!    issue), it is not waiting at a barrier, and no register of its next instruction's
//!    `srcs ∪ {dst}` has a pending write (RAW and WAW: the paper checks only sources, which could
//!    lose a longer pending write). A write is *pending in cycle t* when
//!    its instruction has issued but is not dispatched yet, or was dispatched at `d` with
//!    `t < d + init + lat`: the result is usable by a consumer issuing in cycle `d+init+lat`
//!    (the paper's Example 1). FIFOs are unbounded, so there is no "queue full" check (the
//!    paper does not bound the dispatch queues).
//! 2. **Grant.** The [`Scheduler`] is called with the eligible mask, once per simulated cycle
//!    (also when the mask is 0). It must grant iff the mask is non-zero, and only an eligible
//!    warp; anything else is an [`SmError`]. The granted warp issues its next instruction: one
//!    issue per cycle per SM, in program order. The instruction joins the tail of the
//!    FIFO of its opcode class's FU (one FIFO per FU, shared by every class on it). A
//!    barrier instruction (`DynInst::barrier`) is issued like any other (one issue slot, one
//!    initiation in its own class); after issuing it the warp *waits*.
//! 3. **Dispatch.** Every FU that is not initiating in cycle `t` (it is free when
//!    `t ≥ d_prev + init_prev`, with the previous dispatch's class's `init`) pops its FIFO
//!    head, so an instruction issued at `t` on an idle FU with an empty FIFO dispatches at `t`. A
//!    dispatch at `d` initiates during `[d, d+init)` with its own class's `init` (one initiation at
//!    a time per FU, across all warps and classes), then spends its class's `lat` cycles in a fully
//!    pipelined stage that never stalls; it *completes* at `d+init+lat`. FUs are independent.
//! 4. **Barrier release (drain-release; the paper leaves barrier semantics open).** The release
//!    condition *holds in cycle t* when at least one warp waits at a barrier, every warp either
//!    waits at the barrier or is finished (a warp that has issued all its instructions and does not
//!    wait is not counted: "all unfinished warps have arrived"), and **nothing is in flight in
//!    cycle t**: every issued instruction, of any warp, barrier included, is dispatched and has
//!    `complete ≤ t` — the same "pending in cycle t" as the scoreboard's. The first cycle `R` in
//!    which it holds is the *release cycle*, recorded in [`SmRun::barrier_releases`]; the waiting
//!    warps stop waiting and **may issue in cycle `R` itself**, as a consumer issues in the cycle
//!    its operand completes ([`ReleaseTiming::SameCycle`], the default). Because the barrier
//!    instruction is itself in flight until its completion, `R ≥` its completion, and `R` = the
//!    last completion before the release. A block's time is then exactly the sum of its sections'
//!    spans, which the per-section analysis assumes.
//!
//!    [`ReleaseTiming::NextCycle`] (through [`simulate_with`]) is the alternative: same `R`, but
//!    the warps issue from `R + 1` (a registered release); each barrier then costs one cycle
//!    more than the analysis charges.
//!
//! A warp is finished when it has issued all its instructions and (if its last one is a
//! barrier) has been released. The **block time** is the last completion, `max(d+init+lat)` over
//! all instructions (stores and barriers included), 0 for a block without instructions. The
//! simulation stops at the first cycle `t` in which every warp is finished, every instruction
//! dispatched and `t ≥` the block time; [`SmRun::cycles`] holds one [`CycleTrace`] per simulated
//! cycle before it (so `cycles.len()` is the block time, or the block time + 1 when the block ends
//! on a barrier whose release cycle is the block time).
//!
//! Under these rules a mismatched barrier count cannot deadlock (a warp that finishes without
//! arriving is not waited for), and every run of a work-conserving scheduler ends within
//! [`default_cycle_limit`]; the limit remains as a guard, and [`simulate_with_limit`] takes
//! another.

use std::collections::{HashMap, VecDeque};
use std::fmt;

use rtgpu_wcet::trace::{Block, HwDesc, Reg};
use serde::Serialize;

mod log;
mod sched;
#[cfg(test)]
mod tests;

pub use log::{event_log, EVENT_LOG_HEADER};
pub use sched::{Policy, PolicyScheduler, RandomScheduler, Scheduler, MAX_WARPS};

/// The timing of one dynamic instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Event {
    /// The warp.
    pub warp: usize,
    /// Its position in the warp's path (pc = 4 · seq).
    pub seq: usize,
    /// Its opcode class (index into [`HwDesc::classes`]).
    pub class: usize,
    /// The functional unit it ran on (its class's unit).
    pub fu: usize,
    /// The cycle it issued.
    pub issue: u64,
    /// The cycle its FU popped it from the FIFO and started initiating it (≥ issue).
    pub dispatch: u64,
    /// dispatch + init: the first cycle its FU is free again.
    pub init_end: u64,
    /// init_end + lat: the first cycle a consumer of its result may issue.
    pub complete: u64,
}

/// What happened in one cycle (the `sm.sched`, `sm.fu*` and `sm.bar` signals).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct CycleTrace {
    /// The cycle.
    pub cycle: u64,
    /// The eligible mask given to the scheduler (bit w = warp w).
    pub eligible: u64,
    /// The warp granted (it issued this cycle), if any.
    pub granted: Option<usize>,
    /// Per FU, the warp whose instruction it initiates in this cycle, if any.
    pub initiating: Vec<Option<usize>>,
    /// Per FU, the warp whose instruction it dispatched in this cycle (initiation start pulse).
    pub dispatched: Vec<Option<usize>>,
    /// The warps waiting at a barrier at the end of this cycle's issue (before a next-cycle
    /// release clears them; a same-cycle release has already cleared them).
    pub barrier_wait: u64,
    /// The barrier release condition first held in this cycle (the warps issue from the next
    /// one, or from this one under [`ReleaseTiming::SameCycle`]).
    pub release: bool,
}

/// The result of a run.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SmRun {
    /// Every instruction, in issue order (one per cycle at most, so `issue` is strictly
    /// increasing).
    pub events: Vec<Event>,
    /// The last completion: `max(complete)` over all events, 0 if there are none.
    pub block_time: u64,
    /// The release cycle of each barrier, in order: the first cycle the drain-release condition
    /// held; the released warps may issue from the next cycle (from this one under
    /// [`ReleaseTiming::SameCycle`]).
    pub barrier_releases: Vec<u64>,
    /// One entry per simulated cycle, from cycle 0.
    pub cycles: Vec<CycleTrace>,
}

impl SmRun {
    /// The event of instruction `seq` of warp `warp`.
    pub fn event(&self, warp: usize, seq: usize) -> Option<&Event> {
        self.events.iter().find(|e| e.warp == warp && e.seq == seq)
    }

    /// Warp `warp`'s events in program order.
    pub fn warp_events(&self, warp: usize) -> Vec<Event> {
        let mut v: Vec<Event> = self
            .events
            .iter()
            .filter(|e| e.warp == warp)
            .copied()
            .collect();
        v.sort_by_key(|e| e.seq);
        v
    }
}

/// Why a run failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SmError {
    /// More warps than an eligible mask holds.
    TooManyWarps {
        /// The block's warp count.
        warps: usize,
    },
    /// An instruction names an opcode class the hardware description lacks.
    UnknownClass {
        /// The warp.
        warp: usize,
        /// The instruction's position in the warp's path.
        seq: usize,
        /// The class it names.
        class: usize,
        /// How many classes the description has.
        classes: usize,
    },
    /// An opcode class on a functional unit the hardware description lacks.
    UnknownUnit {
        /// The class.
        class: usize,
        /// The unit it names.
        unit: usize,
        /// How many units the description has.
        units: usize,
    },
    /// An opcode class with a zero initiation (an initiation lasts at least one cycle).
    ZeroInit {
        /// The class.
        class: usize,
    },
    /// Some warp was eligible and the scheduler granted none (the scheduler must be
    /// work-conserving).
    NotWorkConserving {
        /// The cycle.
        cycle: u64,
        /// The eligible mask.
        eligible: u64,
    },
    /// The scheduler granted a warp that was not eligible.
    IneligibleGrant {
        /// The cycle.
        cycle: u64,
        /// The eligible mask.
        eligible: u64,
        /// The warp granted.
        granted: usize,
    },
    /// The run did not end within the cycle limit.
    CycleLimit {
        /// The limit.
        limit: u64,
    },
}

impl fmt::Display for SmError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SmError::TooManyWarps { warps } => {
                write!(f, "{warps} warps; the SM model handles at most {MAX_WARPS}")
            }
            SmError::UnknownClass {
                warp,
                seq,
                class,
                classes,
            } => write!(
                f,
                "warp {warp} instruction {seq}: unknown opcode class {class} (the hardware has \
                 {classes} class(es))"
            ),
            SmError::UnknownUnit { class, unit, units } => write!(
                f,
                "opcode class {class} is on FU {unit}, but the hardware has {units} FU(s)"
            ),
            SmError::ZeroInit { class } => {
                write!(
                    f,
                    "opcode class {class} has init 0; every class needs init >= 1"
                )
            }
            SmError::NotWorkConserving { cycle, eligible } => write!(
                f,
                "cycle {cycle}: eligible mask {eligible:#x} but the scheduler granted no warp \
                 (not work-conserving)"
            ),
            SmError::IneligibleGrant {
                cycle,
                eligible,
                granted,
            } => write!(
                f,
                "cycle {cycle}: the scheduler granted warp {granted}, which is not in the \
                 eligible mask {eligible:#x}"
            ),
            SmError::CycleLimit { limit } => write!(
                f,
                "the run did not finish within {limit} cycles (deadlock guard)"
            ),
        }
    }
}

impl std::error::Error for SmError {}

/// Checks the block against the hardware description.
fn validate(block: &Block, hw: &HwDesc) -> Result<(), SmError> {
    if block.len() > MAX_WARPS {
        return Err(SmError::TooManyWarps { warps: block.len() });
    }
    for (class, c) in hw.classes.iter().enumerate() {
        if c.unit >= hw.units.len() {
            return Err(SmError::UnknownUnit {
                class,
                unit: c.unit,
                units: hw.units.len(),
            });
        }
        if c.init == 0 {
            return Err(SmError::ZeroInit { class });
        }
    }
    for (warp, path) in block.iter().enumerate() {
        for (seq, inst) in path.iter().enumerate() {
            if inst.class >= hw.classes.len() {
                return Err(SmError::UnknownClass {
                    warp,
                    seq,
                    class: inst.class,
                    classes: hw.classes.len(),
                });
            }
        }
    }
    Ok(())
}

/// A cycle count no run of a work-conserving scheduler reaches:
/// `N + Σ(init + lat) + B + 1` for `N` instructions of which `B` are barriers. Every simulated
/// cycle either issues, or has an instruction in a FIFO behind an initiating FU, initiating or
/// in its latency stage, or is a barrier's release cycle.
pub fn default_cycle_limit(block: &Block, hw: &HwDesc) -> u64 {
    let mut limit: u64 = 1;
    for inst in block.iter().flatten() {
        let (init, lat) = hw
            .class(inst.class)
            .map_or((0, 0), |c| (u64::from(c.init), u64::from(c.lat)));
        limit = limit
            .saturating_add(1 + init + lat)
            .saturating_add(u64::from(inst.barrier));
    }
    limit
}

/// When released warps may issue, relative to the release cycle `R` (the first cycle the
/// drain-release condition holds). `R` itself is the same under both.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize)]
pub enum ReleaseTiming {
    /// From `R + 1`: the release is a registered signal, like a barrier unit that sees the
    /// drained scoreboard in cycle `R` and clears the warps' wait bits at the clock edge. A
    /// barrier then costs one cycle the multi-phase analysis does not charge.
    NextCycle,
    /// From `R` itself (the default), like a register dependence on the last write (a
    /// consumer issues in the cycle of the completion). A barrier costs no cycle
    /// beyond its drain, so a block's time equals the sum of its sections' spans, which is what
    /// the per-section analysis assumes.
    #[default]
    SameCycle,
}

/// Options of [`simulate_with`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct SmOptions {
    /// When released warps may issue.
    pub release: ReleaseTiming,
    /// The cycle limit; [`default_cycle_limit`] when `None`.
    pub cycle_limit: Option<u64>,
}

/// Runs `block` on `hw` with `sched`, with the default [`SmOptions`]: released warps issue in
/// the release cycle, under [`default_cycle_limit`].
pub fn simulate(block: &Block, hw: &HwDesc, sched: &mut dyn Scheduler) -> Result<SmRun, SmError> {
    simulate_with(block, hw, sched, &SmOptions::default())
}

/// Runs `block` on `hw` with `sched`, failing with [`SmError::CycleLimit`] if cycle `limit` is
/// reached with work left.
pub fn simulate_with_limit(
    block: &Block,
    hw: &HwDesc,
    sched: &mut dyn Scheduler,
    limit: u64,
) -> Result<SmRun, SmError> {
    let opts = SmOptions {
        cycle_limit: Some(limit),
        ..SmOptions::default()
    };
    simulate_with(block, hw, sched, &opts)
}

/// An issued instruction.
struct Issued {
    warp: usize,
    seq: usize,
    class: usize,
    fu: usize,
    issue: u64,
    /// `(dispatch, init_end, complete)` once dispatched.
    times: Option<(u64, u64, u64)>,
}

impl Issued {
    /// Its write is pending (it is in flight) in cycle `t`.
    fn in_flight(&self, t: u64) -> bool {
        self.times.is_none_or(|(_, _, c)| t < c)
    }
}

/// Per-warp state.
#[derive(Default)]
struct Warp {
    /// The next instruction to issue.
    pc: usize,
    /// Waiting at a barrier.
    waiting: bool,
    /// Register → the last instruction (index into the issued list) that writes it.
    writer: HashMap<Reg, usize>,
}

/// The drain-release condition in cycle `t` (module documentation, step 4).
fn release_holds(
    warps: &[Warp],
    block: &Block,
    undispatched: usize,
    last_complete: u64,
    t: u64,
) -> bool {
    warps.iter().any(|w| w.waiting)
        && warps
            .iter()
            .zip(block)
            .all(|(w, path)| w.waiting || w.pc == path.len())
        && undispatched == 0
        && last_complete <= t
}

/// Runs `block` on `hw` with `sched` and `opts`.
pub fn simulate_with(
    block: &Block,
    hw: &HwDesc,
    sched: &mut dyn Scheduler,
    opts: &SmOptions,
) -> Result<SmRun, SmError> {
    validate(block, hw)?;
    let limit = opts
        .cycle_limit
        .unwrap_or_else(|| default_cycle_limit(block, hw));
    let same_cycle = opts.release == ReleaseTiming::SameCycle;
    let nfu = hw.units.len();
    let mut warps: Vec<Warp> = block.iter().map(|_| Warp::default()).collect();
    let mut issued: Vec<Issued> = Vec::new();
    let mut fifo: Vec<VecDeque<usize>> = vec![VecDeque::new(); nfu];
    let mut busy_until: Vec<u64> = vec![0; nfu];
    let mut current: Vec<Option<usize>> = vec![None; nfu];
    let mut undispatched = 0usize;
    let mut last_complete = 0u64;
    let mut releases = Vec::new();
    let mut cycles = Vec::new();

    let mut t: u64 = 0;
    loop {
        let finished = warps
            .iter()
            .zip(block)
            .all(|(w, path)| w.pc == path.len() && !w.waiting);
        if finished && undispatched == 0 && t >= last_complete {
            break;
        }
        if t >= limit {
            return Err(SmError::CycleLimit { limit });
        }

        // 0. Same-cycle release: the condition is evaluated on the state of cycle t before
        // eligibility, so the released warps may issue in t.
        let mut release = false;
        if same_cycle && release_holds(&warps, block, undispatched, last_complete, t) {
            release = true;
            releases.push(t);
            for w in &mut warps {
                w.waiting = false;
            }
        }

        // 1. Eligibility.
        let mut eligible = 0u64;
        for (w, (ws, path)) in warps.iter().zip(block).enumerate() {
            if ws.waiting {
                continue;
            }
            let Some(inst) = path.get(ws.pc) else {
                continue;
            };
            let blocked = inst
                .srcs
                .iter()
                .chain(inst.dst.iter())
                .any(|r| ws.writer.get(r).is_some_and(|&i| issued[i].in_flight(t)));
            if !blocked {
                eligible |= 1 << w;
            }
        }

        // 2. Grant and issue.
        let granted = sched.grant(eligible);
        match granted {
            None if eligible != 0 => {
                return Err(SmError::NotWorkConserving { cycle: t, eligible });
            }
            Some(g) if g >= MAX_WARPS || eligible >> g & 1 == 0 => {
                return Err(SmError::IneligibleGrant {
                    cycle: t,
                    eligible,
                    granted: g,
                });
            }
            _ => {}
        }
        if let Some(g) = granted {
            let ws = &mut warps[g];
            let inst = &block[g][ws.pc];
            // `validate` checked the class and its unit.
            let fu = hw.classes[inst.class].unit;
            let idx = issued.len();
            issued.push(Issued {
                warp: g,
                seq: ws.pc,
                class: inst.class,
                fu,
                issue: t,
                times: None,
            });
            fifo[fu].push_back(idx);
            undispatched += 1;
            if let Some(d) = inst.dst {
                ws.writer.insert(d, idx);
            }
            ws.pc += 1;
            ws.waiting = inst.barrier;
        }

        // 3. Dispatch.
        let mut dispatched = vec![None; nfu];
        let mut initiating = vec![None; nfu];
        for f in 0..nfu {
            if busy_until[f] <= t {
                if let Some(i) = fifo[f].pop_front() {
                    let class = &hw.classes[issued[i].class];
                    let init_end = t + u64::from(class.init);
                    let complete = init_end + u64::from(class.lat);
                    issued[i].times = Some((t, init_end, complete));
                    busy_until[f] = init_end;
                    current[f] = Some(i);
                    undispatched -= 1;
                    last_complete = last_complete.max(complete);
                    dispatched[f] = Some(issued[i].warp);
                }
            }
            if busy_until[f] > t {
                initiating[f] = current[f].map(|i| issued[i].warp);
            }
        }

        // 4. Drain-release (next-cycle rule): evaluated at the end of cycle t; anything issued
        // in t is still in flight, so this is the condition on the state of cycle t.
        let barrier_wait = warps
            .iter()
            .enumerate()
            .filter(|(_, w)| w.waiting)
            .fold(0u64, |m, (i, _)| m | 1 << i);
        if !same_cycle && release_holds(&warps, block, undispatched, last_complete, t) {
            release = true;
            releases.push(t);
            for w in &mut warps {
                w.waiting = false;
            }
        }

        cycles.push(CycleTrace {
            cycle: t,
            eligible,
            granted,
            initiating,
            dispatched,
            barrier_wait,
            release,
        });
        t += 1;
    }

    let events = issued
        .iter()
        .map(|i| {
            // The loop only ends with every instruction dispatched.
            let (dispatch, init_end, complete) = i.times.unwrap_or((i.issue, i.issue, i.issue));
            Event {
                warp: i.warp,
                seq: i.seq,
                class: i.class,
                fu: i.fu,
                issue: i.issue,
                dispatch,
                init_end,
                complete,
            }
        })
        .collect();
    Ok(SmRun {
        events,
        block_time: last_complete,
        barrier_releases: releases,
        cycles,
    })
}
