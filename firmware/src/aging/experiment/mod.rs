//! The lifetime experiment behind `rtgpu aging --years Y --maps M --seed S` (the
//! thesis' Section 4.4): does the IDU's distribution ratio narrow the aging spread
//! of the clusters, and what does it cost in execution time, against the stock GPU?
//!
//! For each of `maps` process-variation maps (seeds `S, S+1, …`) the SM runs a steady
//! workload for `years`, re-planned at every step (monthly by default, our choice). At
//! each step and for each policy the host configures the SM from the present aging state, a
//! [`StepModel`] runs the step's instructions and reports the kernel time and each working
//! cluster's share of each type's instructions, and the aging model advances every core by the
//! step: a working cluster that executed `share · N` warp instructions of `cpi` cycles each at
//! clock `f` is busy `share · N · cpi / f` seconds of the step
//! ([`super::predict::cluster_stress`]); other cores idle. Three policies see the same maps
//! and the same instructions (thesis Section 4.4.1):
//! - [`Distribution::Orig`]: the stock GPU, the thesis' baseline. The stock dispatcher
//!   (`enable` = 0: first available working cluster, work-conserving) on the fixed
//!   lane→cluster map with nothing gated ([`super::stock_plan`], [`OrigMap::Fixed`], the
//!   default) or on Algorithm 3's clusters ([`OrigMap::Alg3`]);
//! - [`Distribution::Even`]: Algorithm 3, every limit 1 (the "Even" baseline \[69\]);
//! - [`Distribution::Idu`]: Algorithm 3 and 4, the IDU enforcing the ratio (the thesis'
//!   "Ours").
//!
//! Metrics, per map and policy, at the end of the run, over the clusters the policy uses on
//! the final state (the fixed map for Orig on it, else Algorithm 3):
//! - **spread** of a type: max − min over its working clusters of the cluster aging (the
//!   relative increase of the cluster's critical delay, as Algorithm 4 sees it);
//! - **relative σ** of a type: σ/μ of the relative delay increase Δd of the type's cores in
//!   working clusters (thesis Fig. 4.8; our exact definition);
//! - **GPU relative delay**: the largest d(t)/d(t0) over the cores of working clusters
//!   (thesis Fig. 4.6; our exact definition), and the mean, over the distributed types (more than
//!   one cluster: SP and SFU; LD/ST's single cluster runs every LD/ST instruction under every
//!   policy, and with it in the maximum the LD/ST cores set the same delay for every policy);
//! - **kernel time**: the step model's times summed over the steps.
//!
//! Against Orig on the same map: the **aging improvement** `1 − delay_P / delay_Orig`, the
//! **success** (improvement > 0, Fig. 4.7) and the **time cost** `time_P / time_Orig − 1`
//! (Fig. 4.9).
//!
//! What the models say (50 maps, 3 years, seed 1; see the tests for smaller runs):
//! - cycle-level model (`rtgpu_testbench::aging::CycleModel`): the stock dispatcher sends
//!   85–100 % of SP and 91–96 % of SFU instructions to cluster 0, so Orig ages it fastest; Even
//!   and the IDU improve the GPU relative delay on every map (2.0 % and 2.4 % on average), the
//!   IDU also beats Even on every map; Even costs nothing, the IDU 2.8 % on average (max
//!   4.7 %): its quotas make the dispatcher wait for the slow clusters the ratio loads
//!   (with V_th0 independent of θ the ratio unloads them and the cost drops to about 1 %);
//! - [`SaturatedModel`]: Orig spreads by clock, nearly evenly, so Even barely improves on it
//!   (0.09 %), the IDU by 0.5 %, and the IDU's cost is its imbalance where SP or SFU bound the
//!   kernel (6.4 % mean, 32 % max).
//!
//! The maps run in parallel (scoped threads); each map's result depends only on its seed and
//! the (deterministic) step model, so the report is the same for any number of threads.

mod report;
mod step;

pub use report::{ExperimentReport, MapResult, PolicySummary, RunResult, TypeSummary};
pub use step::{SaturatedModel, StepModel, StepOutcome};

use super::model::{AgingState, SECONDS_PER_YEAR};
use super::predict::{cluster_stress, idle_stress, ClusterPredictor};
use super::ratio::{spread, AgingPredictor};
use super::variation::{PvGenerator, PvMap, PvParams};
use super::{
    check_plan_inputs, fixed_clusters, form_clusters, invalid, plan, stock_plan, AgingError,
    CoreType, Plan, PlanConfig, RatioPolicy, TypeFormation, Workload, NOMINAL_CLOCK_HZ, TYPES,
};
use serde::{Deserialize, Serialize};
use std::sync::atomic::{AtomicUsize, Ordering};
use step::working;

/// Most re-planning steps a run may have (100 years of monthly steps).
pub const MAX_STEPS: usize = 1200;

/// Default load of each type: the share of its working clusters' capacity at the median
/// core clock the workload uses. **Placeholder, not from the thesis** (it reports no
/// utilisation): SP 10 %, SFU 10 %, LD/ST 20 %, i.e. per median-clock cycle 0.6 SP, 0.1 SFU
/// and 0.2 LD/ST warp instructions, 0.9 in all: the warp scheduler issues one warp instruction
/// per dispatcher cycle, so the kernel keeps the SM busy about 90 % of the time.
pub const DEFAULT_LOAD: [f64; TYPES] = [0.10, 0.10, 0.20];

/// The policies the experiment compares (thesis Section 4.4.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Distribution {
    /// The stock GPU: first-available dispatcher (`enable` = 0), see [`OrigMap`].
    Orig,
    /// Algorithm 3, every limit 1 (the "Even" baseline).
    Even,
    /// Algorithm 3 and 4, the IDU programmed with the ratio (the thesis' technique).
    Idu,
}

impl Distribution {
    /// Every policy, the baseline first.
    pub const ALL: [Distribution; 3] = [Distribution::Orig, Distribution::Even, Distribution::Idu];

    /// Lower-case name for tables.
    pub fn name(self) -> &'static str {
        match self {
            Distribution::Orig => "orig",
            Distribution::Even => "even",
            Distribution::Idu => "idu",
        }
    }
}

/// The clusters of the Orig baseline.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum OrigMap {
    /// The stock GPU's fixed lane→cluster map, nothing gated (the thesis' "Orig";
    /// [`super::stock_plan`]).
    #[default]
    Fixed,
    /// Algorithm 3's clusters (re-formed every step, most-aged gated) with the stock
    /// dispatcher: isolates the dispatcher from the cluster formation.
    Alg3,
}

impl OrigMap {
    /// Lower-case name for tables and the CLI.
    pub fn name(self) -> &'static str {
        match self {
            OrigMap::Fixed => "fixed",
            OrigMap::Alg3 => "alg3",
        }
    }
}

/// The experiment's settings.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExperimentConfig {
    /// Simulated lifetime in years (finite, > 0). Default 3 (thesis).
    pub years: f64,
    /// Number of process-variation maps (≥ 1). Default 50 (thesis).
    pub maps: usize,
    /// Seed of the first map; map `m` uses `seed + m` (wrapping).
    pub seed: u64,
    /// Re-planning steps per year (≥ 1). Default 12 (monthly, our choice). The run has
    /// `round(years · steps_per_year)` steps (at least 1) of equal length.
    pub steps_per_year: u32,
    /// Per type, the share (in [0, 1]) of its working clusters' capacity at the median core
    /// clock the workload uses: the warp instructions per step are
    /// `load · p_t · f_median · step / cycles_per_inst`. Together at most one warp
    /// instruction per dispatcher cycle ([`ExperimentConfig::issue_rate`]). Default
    /// [`DEFAULT_LOAD`].
    pub load: [f64; TYPES],
    /// Per type, the clusters the kernel needs (`p_t` of Algorithm 3; `None` = all).
    pub clusters_needed: [Option<usize>; TYPES],
    /// The clusters of the Orig baseline (default [`OrigMap::Fixed`]).
    #[serde(default)]
    pub orig_map: OrigMap,
    /// The process-variation maps' parameters.
    pub pv: PvParams,
    /// Algorithm 3/4 settings and the aging model's constants (`policy` is the IDU's
    /// Algorithm 4 policy; Orig and Even ignore it).
    pub plan: PlanConfig,
    /// Worker threads (0 = the machine's parallelism). Does not change the result.
    pub threads: usize,
}

impl Default for ExperimentConfig {
    fn default() -> Self {
        ExperimentConfig {
            years: 3.0,
            maps: 50,
            seed: 0,
            steps_per_year: 12,
            load: DEFAULT_LOAD,
            clusters_needed: [None; TYPES],
            orig_map: OrigMap::Fixed,
            pv: PvParams::default(),
            plan: PlanConfig::default(),
            threads: 0,
        }
    }
}

impl ExperimentConfig {
    /// Checks the settings and returns the number of steps and the step length (s).
    pub fn validate(&self) -> Result<(usize, f64), AgingError> {
        if !(self.years.is_finite() && self.years > 0.0) {
            return Err(invalid("years", self.years, "a finite number > 0"));
        }
        if self.maps == 0 {
            return Err(invalid("number of maps", 0.0, "an integer >= 1"));
        }
        if self.steps_per_year == 0 {
            return Err(invalid("steps per year", 0.0, "an integer >= 1"));
        }
        for (t, &l) in CoreType::ALL.iter().zip(&self.load) {
            if !(0.0..=1.0).contains(&l) {
                return Err(invalid(&format!("{t} load"), l, "a number in [0, 1]"));
            }
        }
        let steps = (self.years * f64::from(self.steps_per_year))
            .round()
            .max(1.0);
        if steps > MAX_STEPS as f64 {
            return Err(invalid("re-planning steps", steps, "at most 1200"));
        }
        self.pv.validate()?;
        self.plan.calibration.validate()?;
        self.check_needed()?;
        let rate = self.issue_rate();
        if rate.is_nan() || rate > 1.0 {
            return Err(invalid(
                "load: warp instructions per dispatcher cycle",
                rate,
                "at most 1 (the warp scheduler issues one per cycle)",
            ));
        }
        Ok((steps as usize, self.years * SECONDS_PER_YEAR / steps))
    }

    /// Every `clusters_needed` is at most the type's clusters.
    fn check_needed(&self) -> Result<(), AgingError> {
        for t in CoreType::ALL {
            let n = self.pv.geometry.types[t.index()].clusters();
            match self.clusters_needed[t.index()] {
                Some(p) if p > n => {
                    return Err(AgingError::Geometry(format!(
                        "{t}: the kernel needs {p} clusters, there are {n}"
                    )))
                }
                _ => {}
            }
        }
        Ok(())
    }

    /// Warp instructions of all types the workload issues per dispatcher cycle (the
    /// dispatcher runs at [`NOMINAL_CLOCK_HZ`]): `Σ_t load_t · p_t / cpi_t · f_median / f_disp`.
    pub fn issue_rate(&self) -> f64 {
        let geometry = &self.pv.geometry;
        let per_median_cycle: f64 = CoreType::ALL
            .iter()
            .map(|t| {
                let (ti, g) = (t.index(), &geometry.types[t.index()]);
                let p_t = self.clusters_needed[ti].unwrap_or_else(|| g.clusters());
                self.load[ti] * p_t as f64 / g.cycles_per_inst
            })
            .sum();
        per_median_cycle * self.pv.f_median_hz / NOMINAL_CLOCK_HZ
    }
}

/// Runs the experiment with the analytic [`SaturatedModel`] (module doc).
pub fn run_experiment(cfg: &ExperimentConfig) -> Result<ExperimentReport, AgingError> {
    run_experiment_with(cfg, &SaturatedModel)
}

/// Runs the experiment with the step model `model` (module doc). Bad settings are an
/// [`AgingError`], never a panic.
pub fn run_experiment_with(
    cfg: &ExperimentConfig,
    model: &dyn StepModel,
) -> Result<ExperimentReport, AgingError> {
    let (steps, step_s) = cfg.validate()?;
    let gen = PvGenerator::new(cfg.pv)?;
    let maps = run_maps(cfg, model, &gen, steps, step_s)?;
    Ok(ExperimentReport::new(
        cfg.clone(),
        model.name(),
        steps,
        step_s,
        maps,
    ))
}

/// Every map, on scoped worker threads that take the next map index from a shared counter.
fn run_maps(
    cfg: &ExperimentConfig,
    model: &dyn StepModel,
    gen: &PvGenerator,
    steps: usize,
    step_s: f64,
) -> Result<Vec<MapResult>, AgingError> {
    let threads = match cfg.threads {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        n => n,
    }
    .clamp(1, cfg.maps);
    let next = AtomicUsize::new(0);
    let worker = || {
        let mut done = Vec::new();
        loop {
            let m = next.fetch_add(1, Ordering::Relaxed);
            if m >= cfg.maps {
                return done;
            }
            let seed = cfg.seed.wrapping_add(m as u64);
            done.push((m, run_map(cfg, model, gen, seed, steps, step_s)));
        }
    };
    let mut results: Vec<(usize, Result<MapResult, AgingError>)> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads).map(|_| s.spawn(worker)).collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap_or_default())
            .collect()
    });
    if results.len() != cfg.maps {
        return Err(AgingError::Numerical("a worker thread failed".into()));
    }
    results.sort_by_key(|(m, _)| *m);
    results.into_iter().map(|(_, r)| r).collect()
}

/// Every policy on the map of `seed`.
fn run_map(
    cfg: &ExperimentConfig,
    model: &dyn StepModel,
    gen: &PvGenerator,
    seed: u64,
    steps: usize,
    step_s: f64,
) -> Result<MapResult, AgingError> {
    let pv = gen.generate(seed)?;
    let runs = Distribution::ALL
        .iter()
        .map(|&p| simulate(cfg, model, &pv, p, (steps, step_s)))
        .collect::<Result<_, _>>()?;
    Ok(MapResult { seed, runs })
}

/// The warp instructions of each type in one step (see [`ExperimentConfig::load`]).
pub fn step_workload(cfg: &ExperimentConfig, step_s: f64) -> Workload {
    let mut warp_insts = [0u64; TYPES];
    for t in CoreType::ALL {
        let g = &cfg.pv.geometry.types[t.index()];
        let p_t = cfg.clusters_needed[t.index()].unwrap_or_else(|| g.clusters());
        let n = cfg.load[t.index()] * p_t as f64 * cfg.pv.f_median_hz * step_s / g.cycles_per_inst;
        // `as` saturates; the load is at most 1, so n fits u64 for any sane clock.
        warp_insts[t.index()] = n.round() as u64;
    }
    Workload {
        warp_insts,
        clusters_needed: cfg.clusters_needed,
        horizon_s: step_s,
    }
}

/// The host's configuration of one step under `policy`: the stock plan or Algorithm 3 with
/// an even ratio for Orig (per [`OrigMap`]; the stock dispatcher ignores the limits),
/// Algorithm 3 with an even ratio for Even (the step model sets every limit to 1), Algorithm 3
/// and 4 for Idu.
pub fn policy_plan(
    cfg: &ExperimentConfig,
    pv: &PvMap,
    state: &AgingState,
    workload: &Workload,
    policy: Distribution,
) -> Result<Plan, AgingError> {
    let ratio_policy = match policy {
        Distribution::Orig if cfg.orig_map == OrigMap::Fixed => {
            return stock_plan(pv, state, workload, &cfg.plan)
        }
        Distribution::Orig | Distribution::Even => RatioPolicy::Even,
        Distribution::Idu => cfg.plan.policy,
    };
    let plan_cfg = PlanConfig {
        policy: ratio_policy,
        ..cfg.plan.clone()
    };
    plan(pv, state, workload, &plan_cfg)
}

/// Sums over the steps of one run.
struct Totals {
    time_s: f64,
    shares: [Vec<f64>; TYPES],
    busy: Option<[Vec<f64>; TYPES]>,
    steps: usize,
}

impl Totals {
    fn new() -> Self {
        Totals {
            time_s: 0.0,
            shares: Default::default(),
            busy: None,
            steps: 0,
        }
    }

    fn add(&mut self, out: &StepOutcome) -> Result<(), AgingError> {
        self.time_s += out.time_s;
        add_rows(&mut self.shares, &out.shares, self.steps == 0)?;
        match (&mut self.busy, &out.busy) {
            (Some(acc), Some(b)) => add_rows(acc, b, false)?,
            (None, Some(b)) if self.steps == 0 => self.busy = Some(b.clone()),
            (None, None) => {}
            _ => {
                return Err(AgingError::Geometry(
                    "busy reported on some steps only".into(),
                ))
            }
        }
        self.steps += 1;
        Ok(())
    }

    /// Per-step means of the shares and the busy fractions.
    fn means(self) -> ([Vec<f64>; TYPES], Option<[Vec<f64>; TYPES]>) {
        let k = self.steps.max(1) as f64;
        let scale = |mut v: [Vec<f64>; TYPES]| {
            v.iter_mut().flatten().for_each(|x| *x /= k);
            v
        };
        (scale(self.shares), self.busy.map(scale))
    }
}

/// `acc += v` row by row; the first step sets `acc`.
fn add_rows(
    acc: &mut [Vec<f64>; TYPES],
    v: &[Vec<f64>; TYPES],
    first: bool,
) -> Result<(), AgingError> {
    if first {
        acc.clone_from(v);
        return Ok(());
    }
    for (a, row) in acc.iter_mut().zip(v) {
        if a.len() != row.len() {
            return Err(AgingError::Geometry(format!(
                "{} working clusters, earlier {}",
                row.len(),
                a.len()
            )));
        }
        a.iter_mut().zip(row).for_each(|(x, y)| *x += y);
    }
    Ok(())
}

/// One policy over the whole lifetime on one map; `steps` = (count, length in s).
fn simulate(
    cfg: &ExperimentConfig,
    model: &dyn StepModel,
    pv: &PvMap,
    policy: Distribution,
    (steps, step_s): (usize, f64),
) -> Result<RunResult, AgingError> {
    let workload = step_workload(cfg, step_s);
    let cal = &cfg.plan.calibration;
    let mut state = AgingState::fresh(pv.cores.len());
    let mut totals = Totals::new();
    for _ in 0..steps {
        let plan = policy_plan(cfg, pv, &state, &workload, policy)?;
        let out = model.step(pv, &plan, policy, &workload)?;
        out.check(&plan)?;
        totals.add(&out)?;
        let stress = step_stress(cfg, pv, &plan, &out.shares, &workload)?;
        state.advance(pv, cal, &stress, step_s)?;
    }
    let end = final_metrics(cfg, pv, &state, policy)?;
    let kernel_time_s = totals.time_s;
    let (mean_shares, mean_busy) = totals.means();
    Ok(RunResult {
        policy,
        spread: end.spread,
        rel_sigma: end.rel_sigma,
        max_rel_delay: end.max_rel_delay,
        mean_rel_delay: end.mean_rel_delay,
        kernel_time_s,
        mean_shares,
        mean_busy,
    })
}

/// Every core's stress for one step: members of a working cluster run its share of the
/// type's instructions, gated cores idle.
fn step_stress(
    cfg: &ExperimentConfig,
    pv: &PvMap,
    plan: &Plan,
    shares: &[Vec<f64>; TYPES],
    workload: &Workload,
) -> Result<Vec<super::CoreStress>, AgingError> {
    let cal = &cfg.plan.calibration;
    let geometry = &pv.params.geometry;
    let mut stress = vec![idle_stress(cal); pv.cores.len()];
    for t in CoreType::ALL {
        let (ti, first) = (t.index(), geometry.first_core(t));
        let n = workload.warp_insts[ti] as f64;
        let cpi = geometry.types[ti].cycles_per_inst;
        for (c, share) in working(&plan.formation[ti]).zip(&shares[ti]) {
            let s = cluster_stress(cal, share * n, cpi, c.freq_hz, workload.horizon_s)?;
            for &i in &c.cores {
                stress[first + i] = s;
            }
        }
    }
    Ok(stress)
}

/// The end-of-life metrics of one run.
struct FinalMetrics {
    spread: [f64; TYPES],
    rel_sigma: [f64; TYPES],
    max_rel_delay: f64,
    mean_rel_delay: f64,
}

impl Default for FinalMetrics {
    /// Fresh: no spread, relative delays 1.
    fn default() -> Self {
        FinalMetrics {
            spread: [0.0; TYPES],
            rel_sigma: [0.0; TYPES],
            max_rel_delay: 1.0,
            mean_rel_delay: 1.0,
        }
    }
}

/// The clusters `policy` uses on cores of type `t` with the given delays (the fixed map for
/// Orig on it, else Algorithm 3).
fn policy_formation(
    cfg: &ExperimentConfig,
    delays: &[f64],
    t: CoreType,
    policy: Distribution,
) -> Result<TypeFormation, AgingError> {
    let g = &cfg.pv.geometry.types[t.index()];
    let first = cfg.pv.geometry.first_core(t);
    let cores = delays
        .get(first..first + g.cores)
        .ok_or_else(|| AgingError::Geometry(format!("{} delays", delays.len())))?;
    if policy == Distribution::Orig && cfg.orig_map == OrigMap::Fixed {
        fixed_clusters(cores, g.lanes_per_cluster, cfg.plan.f_cap_hz)
    } else {
        let needed = cfg.clusters_needed[t.index()];
        form_clusters(cores, g.lanes_per_cluster, needed, cfg.plan.f_cap_hz)
    }
}

/// The policy's clusters on the final state, then the metrics of the working clusters.
fn final_metrics(
    cfg: &ExperimentConfig,
    pv: &PvMap,
    state: &AgingState,
    policy: Distribution,
) -> Result<FinalMetrics, AgingError> {
    let workload = Workload {
        warp_insts: [0; TYPES],
        clusters_needed: cfg.clusters_needed,
        horizon_s: 1.0,
    };
    let delays = check_plan_inputs(pv, state, &workload, &cfg.plan)?;
    let rel = state.rel_delays(pv, &cfg.plan.calibration)?;
    let mut m = FinalMetrics::default();
    let mut all = Vec::new();
    for t in CoreType::ALL {
        let f = policy_formation(cfg, &delays, t, policy)?;
        let model = ClusterPredictor::for_type(pv, state, &cfg.plan.calibration, &f, t, 1.0)?;
        let aging = (0..model.clusters())
            .map(|j| model.status(j))
            .collect::<Result<Vec<f64>, _>>()?;
        let first = pv.params.geometry.first_core(t);
        let cores: Vec<f64> = working(&f)
            .flat_map(|c| c.cores.iter().map(|&i| rel[first + i]))
            .collect();
        m.spread[t.index()] = spread(&aging);
        m.rel_sigma[t.index()] = rel_sigma(&cores);
        if distributed(cfg, t) {
            all.extend(cores);
        }
    }
    m.max_rel_delay = all.iter().copied().fold(1.0, f64::max);
    if !all.is_empty() {
        m.mean_rel_delay = all.iter().sum::<f64>() / all.len() as f64;
    }
    Ok(m)
}

/// Whether the GPU relative delay counts type `t`: it has more than one cluster (SP and SFU
/// by default), or no type has. A single cluster (LD/ST) runs all of its type's instructions
/// under every policy, so its cores would set the same GPU delay for all of them.
fn distributed(cfg: &ExperimentConfig, t: CoreType) -> bool {
    let many = |g: &super::TypeGeometry| g.clusters() > 1;
    let types = &cfg.pv.geometry.types;
    many(&types[t.index()]) || !types.iter().any(many)
}

/// σ/μ of the relative delay increases `d − 1` (0 when there are none or μ = 0).
fn rel_sigma(rel_delays: &[f64]) -> f64 {
    let k = rel_delays.len() as f64;
    if rel_delays.is_empty() {
        return 0.0;
    }
    let mean = rel_delays.iter().map(|d| d - 1.0).sum::<f64>() / k;
    let var = rel_delays
        .iter()
        .map(|d| (d - 1.0 - mean).powi(2))
        .sum::<f64>()
        / k;
    if mean > 0.0 {
        var.sqrt() / mean
    } else {
        0.0
    }
}

#[cfg(test)]
mod tests;
