//! `rtgpu wcet KERNEL --exec simd`: Sim-D's WCET pipeline (the Sim-D paper's Section 5,
//! docs/works/simd.md#wcet) on a kernel of the Sim-D execution mode, and with `--run` the
//! simulated launch beside it.
//!
//! 1. [`model`]: the program model, per work-group its compute phases and tile transfers;
//! 2. [`cost`]: each phase's cost (the instruction-count bound of a compute phase, the swept
//!    worst LID plus the crossings of an access phase);
//! 3. [`rtgpu_wcet::simd::schedule`]: the worst-case schedule of the two slots under the phase
//!    rules (Eqs. 6–9, Theorems 1–2), equal to Eq. 18's closed form, plus the launch's fixed
//!    start and end (docs/assumptions.md#A92);
//! 4. [`rtgpu_wcet::simd::Refresh::inflate`]: Eq. 19.

pub mod cost;
pub mod model;
pub mod reproduce;

use super::{WcetError, WcetOpts};
use crate::cu::run::{load_config, Kernel};
use crate::cu::simd::{run_simd, SimdSummary};
use model::TileShape;
use rtgpu_firmware::launch::{Dims, KernelMeta};
use rtgpu_hw::cu::CuConfig;
use rtgpu_hw::simd::sched::PhaseKind;
use rtgpu_hw::simd::Exec;
use rtgpu_wcet::simd::{self as eq, PhaseCost, Refresh, Resource};
use serde::Serialize;

/// Core cycles of a launch outside its phases: from the launch to the first work-group's
/// hand-over, and from the last phase's end to the launch's end (docs/assumptions.md#A92).
pub const LAUNCH: u64 = 8;

/// One phase of the program model with its cost.
#[derive(Clone, Debug, Serialize)]
pub struct PhaseBound {
    /// `compute` or `access`.
    pub kind: Resource,
    /// The cost c_i (core cycles).
    pub bound: u64,
    /// An access phase's tile.
    pub tile: Option<TileShape>,
    /// An access phase's worst LID (DRAM cycles from the trigger, over every placement).
    pub lid: Option<u32>,
    /// With `--run`: the longest such phase the launch had.
    pub observed: Option<u64>,
}

/// The kernel's bound and its parts.
#[derive(Clone, Debug, Serialize)]
pub struct SimdBound {
    /// Work-groups w.
    pub groups: u64,
    /// Wavefronts per work-group.
    pub waves: u32,
    /// The phase list Φ.
    pub phases: Vec<PhaseBound>,
    /// Eq. 17: one pair in steady state.
    pub c_2wg: u64,
    /// Eq. 17: the edge.
    pub c_edge: u64,
    /// Eq. 18 without a program upload (the model's instruction memory is loaded before the
    /// launch): the worst-case schedule's end.
    pub schedule: u64,
    /// Eq. 10, the serial bound (for comparison; with the launch and Eq. 19, the paper's
    /// WCET^U).
    pub upper: u64,
    /// Eq. 14, the lower bound of any schedule of these costs (with the launch and Eq. 19, the
    /// paper's WCET^L).
    pub lower: u64,
    /// The launch's start and end ([`LAUNCH`]).
    pub launch: u64,
    /// Eq. 19: refreshes charged.
    pub refreshes: u64,
    /// Eq. 19: their cycles.
    pub refresh_cycles: u64,
    /// The kernel WCET: schedule + launch, inflated by Eq. 19.
    pub wcet: u64,
}

impl SimdBound {
    /// The human-readable lines.
    pub fn text(&self) -> String {
        let mut s = format!(
            "sim-d program model: {} work-groups of {} wavefronts, {} phases\n",
            self.groups,
            self.waves,
            self.phases.len()
        );
        for (i, p) in self.phases.iter().enumerate() {
            let what = match (&p.tile, p.lid) {
                (Some(t), Some(l)) => format!(
                    "tile_{} {}x{} period {}, LID {l}",
                    if t.store { "st" } else { "ld" },
                    t.words,
                    t.rows,
                    t.period
                ),
                _ => "compute".into(),
            };
            let obs = p
                .observed
                .map_or(String::new(), |o| format!(" (observed ≤ {o})"));
            s += &format!("  phase {:>2}: {:>7} cycles  {what}{obs}\n", i + 1, p.bound);
        }
        s + &format!(
            "c_2wg {} c_edge {}; schedule (Eq. 18) {} + launch {} + refresh (Eq. 19: {} refreshes) {}\n\
             WCET {} cycles (Eq. 10 serial {}, Eq. 14 lower {})\n",
            self.c_2wg,
            self.c_edge,
            self.schedule,
            self.launch,
            self.refreshes,
            self.refresh_cycles,
            self.wcet,
            self.upper,
            self.lower
        )
    }
}

/// The bound of `code` launched with `dims` on `cfg`.
pub fn bound(code: &[u32], dims: Dims, cfg: &CuConfig) -> Result<SimdBound, WcetError> {
    let input = WcetError::Input;
    let part = cfg.memory.check().map_err(input)?;
    let segs = model::segments(code, dims.wg).map_err(input)?;
    let waves = dims.waves_per_group();
    let compute = cost::compute_costs(&segs, cfg, waves);
    let mut phases = Vec::new();
    for (s, c) in segs.iter().zip(compute) {
        let lid = cost::worst_lid(&part, &s.tile).map_err(input)?;
        phases.push(PhaseBound {
            kind: Resource::Compute,
            bound: c,
            tile: None,
            lid: None,
            observed: None,
        });
        phases.push(PhaseBound {
            kind: Resource::Access,
            bound: cost::access_cost(cfg, &part, lid),
            tile: Some(s.tile),
            lid: Some(lid),
            observed: None,
        });
    }
    Ok(combine(dims, waves, phases, cfg))
}

/// The kernel bound over the phase costs of `phases`: Eq. 18 (the worst-case schedule), the
/// launch, Eq. 19.
pub fn combine(dims: Dims, waves: u32, phases: Vec<PhaseBound>, cfg: &CuConfig) -> SimdBound {
    let w = u64::from(dims.groups());
    let list: Vec<PhaseCost> = phases
        .iter()
        .map(|p| PhaseCost {
            resource: p.kind,
            cycles: p.bound,
        })
        .collect();
    let schedule = eq::closed_form(w, &list);
    let part = cfg.memory.dram_part.part();
    let r = Refresh::new(
        u64::from(part.refi),
        u64::from(part.rfc),
        u64::from(part.tck_ps),
        u64::from(cfg.memory.core_ps),
    );
    let c = schedule + LAUNCH;
    let wcet = r.inflate(c);
    SimdBound {
        groups: w,
        waves,
        c_2wg: eq::c_2wg(&list),
        c_edge: eq::c_edge(w, &list),
        schedule,
        upper: r.inflate(eq::upper(w, &list) + LAUNCH),
        lower: r.inflate(eq::lower(w, &list) + LAUNCH),
        launch: LAUNCH,
        refreshes: r.count(c),
        refresh_cycles: wcet - c,
        wcet,
        phases,
    }
}

/// The simulated launch beside the bound.
#[derive(Clone, Debug, Serialize)]
pub struct SimdObserved {
    /// `done` or the failure.
    pub status: String,
    /// Core cycles.
    pub cycles: u64,
    /// bound / simulated − 1.
    pub tightness: f64,
    /// simulated ≤ bound.
    pub within: bool,
    /// Every phase no longer than its cost (an access phase: plus one refresh, which Eq. 19
    /// charges to the whole launch instead).
    pub phases_within: bool,
    /// Cycles outside every phase: before the first and after the last ([`LAUNCH`] bounds
    /// them).
    pub outside_phases: u64,
    /// The buffers equal the interpreter's.
    pub exact: Option<bool>,
    /// What the launch measured.
    pub summary: SimdSummary,
}

/// `rtgpu wcet --exec simd`: the bound and, with `--run`, the launch.
#[derive(Clone, Debug, Serialize)]
pub struct SimdReport {
    /// The kernel.
    pub kernel: String,
    /// The bound.
    pub bound: SimdBound,
    /// With `--run`.
    pub observed: Option<SimdObserved>,
}

impl SimdReport {
    /// The human-readable report.
    pub fn text(&self) -> String {
        let mut s = format!("{}\n{}", self.kernel, self.bound.text());
        if let Some(o) = &self.observed {
            s +=
                &format!(
                "simulated {} cycles ({}): tightness {:+.1} % ({}); phases within their costs: \
                 {}; {} cycles outside the phases\n{}",
                o.cycles,
                o.status,
                100.0 * o.tightness,
                if o.within { "bound holds" } else { "BOUND EXCEEDED" },
                if o.phases_within { "yes" } else { "NO" },
                o.outside_phases,
                o.summary.text()
            );
        }
        s
    }
}

/// Runs `code` under the phase rules and sets each phase's observed maximum.
pub fn observe(
    (code, meta): (&[u32], &KernelMeta),
    dims: Dims,
    cfg: &CuConfig,
    seed: u64,
    b: &mut SimdBound,
) -> Result<SimdObserved, WcetError> {
    let out = run_simd((code, meta), dims, Exec::Simd, cfg, seed).map_err(WcetError::Analysis)?;
    let mut seen = vec![0u64; b.phases.len()];
    let mut log = out.summary.phases.clone();
    log.sort_by_key(|p| (p.wg, p.start, p.kind == PhaseKind::Access));
    let mut accesses = (u32::MAX, 0usize);
    for p in &log {
        if accesses.0 != p.wg {
            accesses = (p.wg, 0);
        }
        // Place in Φ: the compute phase before the work-group's k-th transfer is 2k, the
        // transfer 2k + 1.
        let at = 2 * accesses.1 + usize::from(p.kind == PhaseKind::Access);
        accesses.1 += usize::from(p.kind == PhaseKind::Access);
        if let Some(s) = seen.get_mut(at) {
            *s = (*s).max(p.end - p.start);
        }
    }
    let part = cfg.memory.dram_part.part();
    let refresh =
        (u64::from(part.rfc) * u64::from(part.tck_ps)).div_ceil(u64::from(cfg.memory.core_ps));
    let mut phases_within = true;
    for (p, s) in b.phases.iter_mut().zip(seen) {
        p.observed = Some(s);
        let slack = if p.kind == Resource::Access {
            refresh
        } else {
            0
        };
        phases_within &= s <= p.bound + slack;
    }
    let cycles = out.cycles;
    let first = log.iter().map(|p| p.start).min().unwrap_or(0);
    let last = log.iter().map(|p| p.end).max().unwrap_or(0);
    Ok(SimdObserved {
        status: out.result.clone().err().unwrap_or_else(|| "done".into()),
        cycles,
        tightness: b.wcet as f64 / cycles.max(1) as f64 - 1.0,
        within: out.result.is_ok() && cycles <= b.wcet,
        phases_within,
        outside_phases: first + cycles.saturating_sub(last),
        exact: out.exact,
        summary: out.summary,
    })
}

/// `rtgpu wcet KERNEL --exec simd [--run]`.
pub fn wcet_simd(o: &WcetOpts) -> Result<SimdReport, WcetError> {
    let k = Kernel::load(&o.kernel).map_err(|(_, m)| WcetError::Input(m))?;
    let (dims, _) = o.launch.resolve(&k.meta).map_err(WcetError::Input)?;
    dims.check().map_err(|e| WcetError::Input(e.0))?;
    let cfg = match &o.config {
        Some(p) => load_config(p).map_err(WcetError::Input)?,
        None => CuConfig::default(),
    };
    let code = k.prog.words();
    let mut b = bound(&code, dims, &cfg)?;
    let observed = match o.run {
        true => Some(observe(
            (&code, &k.meta),
            dims,
            &cfg,
            o.launch.seed,
            &mut b,
        )?),
        false => None,
    };
    Ok(SimdReport {
        kernel: k.name(&o.kernel),
        bound: b,
        observed,
    })
}
