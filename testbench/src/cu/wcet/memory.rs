//! The memory hierarchy in the bound (`rtgpu wcet --memory hierarchy`): a worst-case latency
//! for every global access, from its issue to its completion, and a worst-case wait for the
//! hierarchy to take it, whatever the addresses and whatever the other wavefronts do.
//!
//! The path (hw/src/memsys, reordering off: the unit is a bypass with an LD/ST queue of
//! `channel_depth` accesses) is first-in first-out from the queue to DRAM: the queue, the line
//! sequencer (one access at a time, one line per cycle into the L1 while the miss queue has
//! room), the miss queue (`miss_queue` lines), the crossing to the DRAM clock (`cdc_depth`
//! places, `cdc_stages` synchronizer flops), the Sim-D controller (one request at a time, in
//! arrival order, closed page), the crossing back (one response per core cycle). So an access
//! X completes after every line request ahead of it and its own lines went through the
//! controller, plus fixed latencies:
//!
//! - **lines ahead**: at most what the path holds (`(channel_depth + 1)` accesses of at most
//!   `L` lines, the miss queue, the crossing and the controller) and at most what the other
//!   wavefronts can have outstanding (`W · P − 1` accesses of `L` lines: W live wavefronts,
//!   P the most accesses one may have outstanding, from the kernel's `s_waitcnt`s);
//! - **per line**: the controller takes the next request at most `interval` DRAM cycles after
//!   the previous one (the largest over every line shape at every line position of a
//!   bank-pair span, measured on the controller's reference model, [`DramWorst`]), converted
//!   to core cycles and rounded up, plus one cycle for the core-side push; every access
//!   released costs the sequencer [`RELEASE`] cycles more;
//! - **refresh**: a REF goes between two requests; a window of c core cycles holds at most
//!   `c / (tREFI − tRFC) + 1` of them, each `tRFC + interval` DRAM cycles;
//! - **fixed**: the crossing there and back (`cdc_stages + 1` cycles of the receiving clock),
//!   the controller's most cycles from taking a request to its `done`, the wait behind the
//!   responses queued in the crossing back, the L1 hit latency and the fill's extra cycle.
//!
//! Hits only make a line shorter (all lines are charged as misses; a hit on a line being
//! filled, or an L1 stall on a victim still being filled, waits for a fill that is ahead of it
//! in the same first-in first-out path). An access's issue waits for a place in the queue
//! when the queue can fill (`W · P > min(channel_depth, tags per slot)`): at most the time the
//! access ahead needs and the (units − 1) other units' accesses that the round-robin pipe may
//! let in first.

use rtgpu_hw::cu::CuConfig;
use rtgpu_hw::dram::model::{DramModel, Request};
use rtgpu_hw::dram::Part;
use serde::Serialize;
use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

/// Core cycles the sequencer may lose per access it releases (the release waits for the
/// sequencer idle at the start of a cycle, and the reordering unit's bypass registers it).
pub const RELEASE: u64 = 3;

/// Core cycles before the hierarchy takes its first access (its reset and configuration).
pub const CONFIG: u64 = 2;

/// Words per 128-byte line.
const LINE_WORDS: u32 = 32;

/// Lines of a bank-pair span (16 KiB): every line position the controller tells apart.
const LINE_POSITIONS: u32 = 128;

/// The controller's worst case for one line request, over every line shape (a whole-line
/// read, a store's words in the first, the second or both bursts of a line) at every line
/// position of a bank-pair span, followed by a read or a write to the same position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct DramWorst {
    /// DRAM cycles from taking a request to taking the next one, back to back.
    pub interval: u64,
    /// DRAM cycles from taking a request to its `done`.
    pub done: u64,
}

/// Measures [`DramWorst`] for `part` on the controller's reference model (cached per part).
pub fn dram_worst(part: &Part) -> Result<DramWorst, String> {
    static CACHE: OnceLock<Mutex<HashMap<&'static str, DramWorst>>> = OnceLock::new();
    let cache = CACHE.get_or_init(Default::default);
    if let Some(w) = cache.lock().map_err(|e| e.to_string())?.get(part.name) {
        return Ok(*w);
    }
    let w = measure_dram(part)?;
    cache
        .lock()
        .map_err(|e| e.to_string())?
        .insert(part.name, w);
    Ok(w)
}

fn measure_dram(part: &Part) -> Result<DramWorst, String> {
    let shapes = [(false, 0, 32), (true, 0, 16), (true, 16, 16), (true, 0, 32)];
    let mut w = DramWorst {
        interval: 0,
        done: 0,
    };
    for pos in 0..LINE_POSITIONS {
        let base = pos * LINE_WORDS;
        for &(write, first, words) in &shapes {
            let s = Request::contiguous(write, base + first, words);
            let reqs = [
                s.clone(),
                Request::contiguous(false, base, 32),
                s,
                Request::contiguous(true, base, 32),
            ];
            let mut model = DramModel::new(*part, 0);
            let r = crate::tb::dram::run::run(&mut model, part, 0, &reqs, 0, 1_000_000)?;
            for (a, b) in r.completions.iter().zip(r.completions.iter().skip(1)) {
                w.interval = w.interval.max(b.accepted - a.accepted);
            }
            for c in &r.completions {
                w.done = w.done.max(c.done - c.accepted);
            }
        }
    }
    Ok(w)
}

/// What shapes the traffic of one launch: the kernel's widest access and the wavefronts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Traffic {
    /// L: the most lines one access can touch (lanes × 1 for dword accesses, × 2 for wider
    /// ones, which may straddle a line).
    pub lines_per_access: u64,
    /// W: wavefronts live at once.
    pub waves: u64,
    /// P: the most global accesses one wavefront may have outstanding.
    pub pending: u64,
    /// Units (SIMDs and SpSIMDs) that share the global pipe round-robin.
    pub units: u64,
}

/// The per-access bound and what each mechanism contributes (core cycles).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct MemBound {
    /// The traffic it is for.
    pub traffic: Traffic,
    /// The controller's measured worst case (DRAM cycles).
    pub dram: DramWorst,
    /// Core cycles per line request through the controller.
    pub per_line: u64,
    /// Line requests that may be ahead of an access (queueing behind the other wavefronts).
    pub lines_ahead: u64,
    /// Accesses that may be ahead of it in the queue and the sequencer.
    pub accesses_ahead: u64,
    /// The queueing: lines ahead and its own, through the controller.
    pub queueing: u64,
    /// The refreshes that may fall in that window.
    pub refresh: u64,
    /// Crossings, the controller's latency to `done`, the responses ahead, the L1.
    pub fixed: u64,
    /// An access's worst latency from its issue to its completion.
    pub access: u64,
    /// The most an access's issue may wait for the hierarchy to take it.
    pub accept: u64,
}

/// Core cycles of `dram` DRAM cycles, rounded up.
fn to_core(dram: u64, tck_ps: u64, core_ps: u64) -> u64 {
    (dram * tck_ps).div_ceil(core_ps)
}

impl MemBound {
    /// The bound for configuration `cfg` and the launch's traffic.
    pub fn new(cfg: &CuConfig, t: Traffic) -> Result<MemBound, String> {
        let m = &cfg.memory;
        let part = m.check()?;
        let dram = dram_worst(&part)?;
        let (tck, core) = (u64::from(part.tck_ps), u64::from(m.core_ps));
        let l = t.lines_per_access;
        let others = (t.waves * t.pending).saturating_sub(1);
        let depth = m.channel_depth as u64;
        let path = (depth + 1) * l + m.miss_queue as u64 + m.cdc_depth as u64 + 2;
        let lines_ahead = path.min(others * l);
        let accesses_ahead = (depth + 1).min(others);
        let per_line = to_core(dram.interval, tck, core).max(1) + 1;
        let queueing = (lines_ahead + l) * per_line + (accesses_ahead + 1) * RELEASE;
        let refresh = refresh_cost(queueing, &part, dram, core);
        let stages = u64::from(m.cdc_stages) + 1;
        let fixed = to_core(stages + dram.done, tck, core)
            + stages
            + m.cdc_depth as u64
            + u64::from(m.l1_hit)
            + 2;
        let access = queueing + refresh + fixed;
        let tags = (depth as usize).min(256 / cfg.n_simd.max(1) / cfg.n_wfc.max(1)) as u64;
        let may_fill = t.waves * t.pending > tags.min(depth);
        let accept = CONFIG
            + match may_fill {
                true => access + t.units.saturating_sub(1) * (l * per_line + RELEASE),
                false => 0,
            };
        Ok(MemBound {
            traffic: t,
            dram,
            per_line,
            lines_ahead,
            accesses_ahead,
            queueing,
            refresh,
            fixed,
            access,
            accept,
        })
    }

    /// The report's lines.
    pub fn text(&self) -> String {
        let t = &self.traffic;
        format!(
            "memory hierarchy: L {} lines/access, W {} wavefronts × P {} outstanding, {} units\n\
             \x20 DRAM worst: {} DRAM cycles between requests, {} to done -> {} core cycles/line\n\
             \x20 per access: queueing {} ({} lines + {} accesses ahead, its own {} lines) + \
             refresh {} + fixed {} = {} cycles; issue waits ≤ {} for the queue\n",
            t.lines_per_access,
            t.waves,
            t.pending,
            t.units,
            self.dram.interval,
            self.dram.done,
            self.per_line,
            self.queueing,
            self.lines_ahead,
            self.accesses_ahead,
            t.lines_per_access,
            self.refresh,
            self.fixed,
            self.access,
            self.accept,
        )
    }
}

/// Core cycles the refreshes in a window of `window` core cycles may add (Sim-D's Eq. 19
/// inflation, with one more refresh for the phase and `interval` slack each).
pub(super) fn refresh_cost(window: u64, part: &Part, dram: DramWorst, core_ps: u64) -> u64 {
    let tck = u64::from(part.tck_ps);
    let gap = ((u64::from(part.refi) - u64::from(part.rfc)) * tck / core_ps).max(1);
    let each = to_core(u64::from(part.rfc) + dram.interval, tck, core_ps);
    // The refreshes lengthen the window they fall in: two rounds cover it (each ≤ 4.5 %).
    let first = (window / gap + 1) * each;
    ((window + first) / gap + 1) * each
}
