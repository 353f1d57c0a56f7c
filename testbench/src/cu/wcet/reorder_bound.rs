//! `rtgpu wcet --reorder`: the bound with the load/store reordering unit on.
//!
//! With reordering on, the unit releases every global access of a round (the work-groups
//! resident at once) in one static order, whatever order they arrive in: a wavefront's access
//! can wait for another wavefront's earlier access in that order, which may still be
//! computing. The per-wavefront bound of the other modes (each access at most
//! [`super::memory::MemBound::access`] after its issue) does not hold then, so the bound is
//! built differently, from one argument: at every cycle of a round, either some wavefront is
//! making progress on its own path (issuing, or waiting for its pipes and fixed latencies),
//! or every wavefront waits for global memory, and then the unit or the path below it is
//! working on an access (an access the unit waits for belongs to a wavefront that is
//! progressing or itself waits for memory: its channel is empty, so it is not held back by a
//! credit). So a launch takes at most
//!
//! - **compute**: Σ over its wavefronts of the serial cost of one wavefront's path with every
//!   global access returning at once — IPET over the convergent graph with both arms of every
//!   if and e_split + e_merge at every split point (the halves of a split wavefront share the
//!   total), pipe waits included;
//! - **memory**: Σ over its accesses of the unit's release (SELECT, a search of at most
//!   `channel_depth` entries, ISSUE), the sequencer's release cycles and the access's fixed
//!   latency (the crossings and the controller's latency to `done`; the L1 hit latency alone
//!   for an access with no missing line), plus per line the controller's worst interval for a
//!   miss or one sequencer cycle for a hit, plus the refreshes in that window;
//! - **rounds**: per round the configuration of the unit (a reset, one trace entry and one
//!   map per cycle, `start`), the dispatch of its wavefronts and the idle check, plus the
//!   launch's overhead outside every wavefront.
//!
//! The misses are the static estimator's (the R1 release order through the L1's LRU sets,
//! write-evict and no-allocate stores) when the accesses and their order are the same for
//! every input ([`super::taint`]); otherwise every line is a miss, every wavefront may make
//! as many accesses as its longest path holds (at most the unit's trace depth), each of at
//! most L lines.

use super::graph::Graph;
use super::memory::{refresh_cost, MemBound, RELEASE};
use super::paths::Costed;
use super::taint::{dependence, Dependence};
use super::{loop_bounds, WcetCase, WcetError};
use rtgpu_firmware::interp::InterpConfig;
use rtgpu_firmware::launch::Image;
use rtgpu_firmware::ldst_trace::{analyze, predict_l1, MAX_TRACE_DEPTH};
use rtgpu_firmware::pws_pass::Compiled;
use rtgpu_hw::cu::resident_wgs;
use rtgpu_hw::isa::insn_model::unit;
use serde::Serialize;

/// The bound with reordering on and what each part contributes (core cycles).
#[derive(Clone, Debug, Serialize)]
pub struct ReorderBound {
    /// Rounds (work-groups resident at once per round).
    pub rounds: u64,
    /// Wavefronts in the launch.
    pub waves: u64,
    /// One wavefront's serial cost with global accesses returning at once.
    pub e_serial: u64,
    /// Global accesses of the launch (exact, or the most any input may make).
    pub accesses: u64,
    /// Line accesses of the launch.
    pub lines: u64,
    /// Line misses: the estimator's, or every line.
    pub misses: u64,
    /// Accesses with at least one missing line.
    pub missing_accesses: u64,
    /// The misses are the static estimator's (the accesses are input-independent).
    pub estimated: bool,
    /// What depends on the input (then every line counts as a miss).
    pub dependent: Dependence,
    /// Σ compute.
    pub compute: u64,
    /// The unit's and the path's work on every access.
    pub memory: u64,
    /// Refreshes in the memory window.
    pub refresh: u64,
    /// Configuration, dispatch and idle checks of every round.
    pub round_cost: u64,
    /// Launch overhead outside every wavefront.
    pub overhead: u64,
    /// The bound.
    pub wcet: u64,
}

/// Core cycles of one release by the unit: SELECT, a serial search of the target's channel,
/// ISSUE, and the sequencer's release cycles.
fn release_cost(depth: u64) -> u64 {
    2 + depth + RELEASE
}

/// The accesses, lines and misses of the launch: exact when `dep` is independent, else the
/// most any input may make (all misses).
struct Traffic {
    accesses: u64,
    lines: u64,
    misses: u64,
    missing_accesses: u64,
}

/// The traffic of `case`'s launch of `code` when it is the same for every input: the
/// reordering analysis on the launch's own input and the static estimator on its release
/// order.
fn estimated(case: &WcetCase, code: &[u32], image: &Image) -> Result<Traffic, WcetError> {
    let a = analyze(
        code,
        0,
        case.dims,
        case.lds,
        image.abi,
        &image.mem,
        &InterpConfig::default(),
    )
    .map_err(|e| WcetError::Analysis(format!("the reordering analysis: {e}")))?;
    let m = &case.cfg.memory;
    let r = resident_wgs(&case.cfg, case.dims.grid, case.dims.wg, case.lds) as usize;
    let e = predict_l1(&a, r, m.l1_sets as u32, m.l1_ways as u32).map_err(WcetError::Analysis)?;
    let all = a.warps.iter().flat_map(|w| &w.accesses);
    Ok(Traffic {
        accesses: all.clone().count() as u64,
        lines: all.map(|x| x.lines.len() as u64).sum(),
        misses: e.misses,
        missing_accesses: e.per_access.iter().filter(|&&m| m > 0).count() as u64,
    })
}

/// The most traffic any input may make: per wavefront the most FLAT instructions of a path
/// (loops at their bounds, at most the trace depth), each `l` lines, all missing.
fn worst(
    case: &WcetCase,
    g: &Graph,
    compiled: &Compiled,
    image: &Image,
    l: u64,
) -> Result<Traffic, WcetError> {
    let bounds = loop_bounds(case, g, compiled, image)?;
    let cost = |i: usize, _: usize| u64::from(g.nodes[i].f.unit == unit::VMEM);
    let c = Costed {
        g,
        cost: &cost,
        bounds: &bounds,
    };
    let per_wave = c
        .region(0, g.nodes.len().saturating_sub(1), &|_| true)
        .map_err(WcetError::Input)?
        .min(MAX_TRACE_DEPTH as u64);
    let waves = u64::from(case.dims.groups() * case.dims.waves_per_group());
    let accesses = per_wave * waves;
    Ok(Traffic {
        accesses,
        lines: accesses * l,
        misses: accesses * l,
        missing_accesses: accesses,
    })
}

/// What the bound needs of the per-wavefront analysis.
pub struct Parts<'a> {
    /// The compiled kernel.
    pub compiled: &'a Compiled,
    /// The memory hierarchy's per-access bound (its per-line and fixed costs).
    pub mb: &'a MemBound,
    /// One wavefront's serial cost with global accesses returning at once.
    pub e_serial: u64,
    /// d_eff: the dispatch of a round.
    pub d_eff: u64,
    /// The launch overhead outside every wavefront.
    pub overhead: u64,
}

/// The bound of `case` (reordering on) from the per-wavefront `p`; `mutate` is applied to
/// it before the total (the tests under-estimate a part with it).
pub fn bound(
    case: &WcetCase,
    p: &Parts,
    mutate: &dyn Fn(&mut ReorderBound),
) -> Result<ReorderBound, WcetError> {
    let code = &p.compiled.code;
    let g = Graph::new(code).map_err(WcetError::Input)?;
    let image = case.image();
    let known = case.known(&image);
    let dep = dependence(&g, p.compiled.structure.insns(), &known);
    let t = match dep.independent() {
        true => estimated(case, code, &image)?,
        false => worst(case, &g, p.compiled, &image, p.mb.traffic.lines_per_access)?,
    };
    let cfg = &case.cfg;
    let d = case.dims;
    let waves = u64::from(d.groups() * d.waves_per_group());
    let resident = resident_wgs(cfg, d.grid, d.wg, case.lds).clamp(1, d.groups().max(1));
    let rounds = u64::from(d.groups().div_ceil(resident));
    let m = &cfg.memory;
    let hit_fixed = u64::from(m.l1_hit) + 2;
    let memory = t.accesses * release_cost(m.channel_depth as u64)
        + t.missing_accesses * p.mb.fixed
        + (t.accesses - t.missing_accesses) * hit_fixed
        + t.misses * p.mb.per_line
        + (t.lines - t.misses);
    let part = m.check().map_err(WcetError::Input)?;
    let refresh = refresh_cost(memory, &part, p.mb.dram, u64::from(m.core_ps));
    // Per round: a reset, the trace entries, the maps and `start` one per cycle; the dispatch;
    // the idle check that admits the next round.
    let round_cost = rounds * (p.d_eff + 4) + t.accesses + waves;
    let mut b = ReorderBound {
        rounds,
        waves,
        e_serial: p.e_serial,
        accesses: t.accesses,
        lines: t.lines,
        misses: t.misses,
        missing_accesses: t.missing_accesses,
        estimated: dep.independent(),
        dependent: dep,
        compute: waves * p.e_serial,
        memory,
        refresh,
        round_cost,
        overhead: p.overhead,
        wcet: 0,
    };
    mutate(&mut b);
    b.wcet = b.compute + b.memory + b.refresh + b.round_cost + b.overhead;
    Ok(b)
}

impl ReorderBound {
    /// The report's lines.
    pub fn text(&self) -> String {
        let mut t = format!(
            "reordering: {} rounds, {} wavefronts × serial cost {} = compute {}\n\
             \x20 {} accesses, {} lines, {} misses ({}), memory {} + refresh {}, rounds {}, \
             overhead {}\n\
             \x20 reordering WCET {} cycles\n",
            self.rounds,
            self.waves,
            self.e_serial,
            self.compute,
            self.accesses,
            self.lines,
            self.misses,
            match self.estimated {
                true => "the static estimator's",
                false => "every line: the accesses depend on the input",
            },
            self.memory,
            self.refresh,
            self.round_cost,
            self.overhead,
            self.wcet,
        );
        let d = &self.dependent;
        for x in d.accesses.iter().chain(&d.branches) {
            t += &format!("  input-dependent: {:#06x} ({})\n", x.pc, x.why);
        }
        t
    }
}
