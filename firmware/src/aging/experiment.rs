//! The lifetime experiment behind `rtgpu aging --years Y --maps M --seed S` (spec/004-lee.md
//! §2.8–2.9, thesis Section 4.4): does the IDU's distribution ratio narrow the aging spread
//! of the clusters, and what does it cost in execution time?
//!
//! For each of `maps` process-variation maps (seeds `S, S+1, …`) the SM runs a steady
//! workload for `years`, re-planned at every step (monthly by default, spec §2.9 \[R\]): at
//! each step the host runs Algorithm 3 and Algorithm 4 ([`super::plan`]) from the present
//! aging state, every working cluster runs its share of the step's instructions, and the
//! aging model advances every core by the step ([`super::predict::cluster_stress`]; gated
//! cores idle). Two policies see the same maps:
//! - [`Distribution::Even`]: Algorithm 3, then equal shares for the working clusters (the
//!   "Even" baseline \[69\]: all limits 1, spec §2.8);
//! - [`Distribution::Idu`]: Algorithm 3 and 4, shares `limit_j / S` (the thesis' "Ours").
//!
//! Metrics, per map and policy, at the end of the run (Algorithm 3 on the final state):
//! - **spread** of a type: max − min over its working clusters of the cluster aging (the
//!   relative increase of the cluster's critical delay, as Algorithm 4 sees it), the spread
//!   of spec §2.6's worked example (1.0 → 0.2);
//! - **relative σ** of a type: σ/μ of the relative delay increase Δd of the type's cores in
//!   working clusters (thesis Fig. 4.8, spec §2.9 \[R\]);
//! - **GPU relative delay**: the largest d(t)/d(t0) over the cores of working clusters
//!   (spec §2.9 \[R\], thesis Fig. 4.6);
//! - **execution time**: the IDU stalls rather than break the ratio, so a type's time per
//!   step is `max_j(share_j · N · cycles_per_inst / f_j)` over its working clusters (clock =
//!   slowest member); a step's kernel time is the largest over the types (their pipelines
//!   run in parallel). The **cost** of a policy is its total time over the even policy's,
//!   minus 1.
//!
//! What the model says (see the tests): the IDU narrows the spread on every map, by far more
//! than the thesis' figures suggest, because Algorithm 4 re-levels the clusters every month.
//! The time cost is not the thesis' ~1 %: under the stall model it has the sign of the
//! direction in which the ratio moves work, and that follows the PV→V_th0 coupling
//! ([`PvParams::vth_theta_slope`]). With V_th0 ∝ θ (default) a slow cluster has less
//! overdrive and ages less per instruction (Eq. 4.2), so the IDU loads the slow clusters and
//! the kernel waits for them (tens of %). With PV only in the clock (slope 0) a slow cluster
//! is busy longer per instruction, the IDU unloads it and beats the even split, which waits
//! for its slowest cluster.
//!
//! The maps run in parallel (scoped threads); each map's result depends only on its seed, so
//! the report is the same for any number of threads.

use super::model::{AgingState, SECONDS_PER_YEAR};
use super::predict::{cluster_stress, idle_stress, ClusterPredictor};
use super::ratio::{spread, AgingPredictor};
use super::variation::{PvGenerator, PvMap, PvParams};
use super::{
    check_plan_inputs, form_clusters, invalid, plan, AgingError, CoreType, Plan, PlanConfig,
    RatioPolicy, TypeFormation, Workload, TYPES,
};
use serde::{Deserialize, Serialize};
use std::fmt::Write as _;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Most re-planning steps a run may have (100 years of monthly steps).
pub const MAX_STEPS: usize = 1200;

/// Default load of each type: the share of its working clusters' capacity at the median
/// core clock the workload uses. **Placeholder, not from the thesis** (it reports no
/// utilisation): SP 30 %, SFU 10 %, LD/ST 20 %.
pub const DEFAULT_LOAD: [f64; TYPES] = [0.30, 0.10, 0.20];

/// The policies the experiment compares.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Distribution {
    /// Equal shares for the working clusters (the "Even" baseline).
    Even,
    /// The IDU programmed with Algorithm 4's ratio (the thesis' technique).
    Idu,
}

impl Distribution {
    /// Both policies, the baseline first.
    pub const ALL: [Distribution; 2] = [Distribution::Even, Distribution::Idu];

    /// Lower-case name for tables.
    pub fn name(self) -> &'static str {
        match self {
            Distribution::Even => "even",
            Distribution::Idu => "idu",
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
    /// Re-planning steps per year (≥ 1). Default 12 (monthly, spec §2.9 \[R\]). The run has
    /// `round(years · steps_per_year)` steps (at least 1) of equal length.
    pub steps_per_year: u32,
    /// Per type, the share (in [0, 1]) of its working clusters' capacity at the median core
    /// clock the workload uses: the warp instructions per step are
    /// `load · p_t · f_median · step / cycles_per_inst`. Default [`DEFAULT_LOAD`].
    pub load: [f64; TYPES],
    /// Per type, the clusters the kernel needs (`p_t` of Algorithm 3; `None` = all).
    pub clusters_needed: [Option<usize>; TYPES],
    /// The process-variation maps' parameters.
    pub pv: PvParams,
    /// Algorithm 3/4 settings and the aging model's constants (`policy` is the IDU's
    /// Algorithm 4 policy; the even runs ignore it).
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
        Ok((steps as usize, self.years * SECONDS_PER_YEAR / steps))
    }
}

/// One policy's outcome on one map.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RunResult {
    /// The policy.
    pub policy: Distribution,
    /// Per type: max − min of the working clusters' aging at the end (fraction).
    pub spread: [f64; TYPES],
    /// Per type: σ/μ of the working cores' relative delay increase at the end.
    pub rel_sigma: [f64; TYPES],
    /// Largest relative delay d(t)/d(t0) over the cores of working clusters at the end.
    pub max_rel_delay: f64,
    /// Per type: execution time of its instructions summed over the steps (s).
    pub exec_time_s: [f64; TYPES],
    /// Kernel time summed over the steps (per step the largest over the types, s).
    pub kernel_time_s: f64,
}

/// Both policies' outcomes on one map.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MapResult {
    /// The map's seed.
    pub seed: u64,
    /// One entry per policy, in [`Distribution::ALL`] order.
    pub runs: Vec<RunResult>,
}

/// One policy's statistics of one type over the maps.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TypeSummary {
    /// The type.
    pub core_type: CoreType,
    /// Mean over the maps of the spread (fraction).
    pub spread_mean: f64,
    /// Largest spread over the maps (fraction).
    pub spread_max: f64,
    /// Mean over the maps of the relative σ.
    pub rel_sigma_mean: f64,
    /// Mean over the maps of the type's execution-time cost relative to even (fraction).
    pub time_cost_mean: f64,
    /// Largest execution-time cost over the maps (fraction).
    pub time_cost_max: f64,
    /// Maps on which the spread is narrower than with the even policy.
    pub narrower_maps: usize,
}

/// One policy's statistics over the maps.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PolicySummary {
    /// The policy.
    pub policy: Distribution,
    /// Per type, in IDU order.
    pub types: Vec<TypeSummary>,
    /// Mean over the maps of the GPU's relative delay.
    pub max_rel_delay_mean: f64,
    /// Mean over the maps of the kernel-time cost relative to even (fraction).
    pub kernel_cost_mean: f64,
    /// Largest kernel-time cost over the maps (fraction).
    pub kernel_cost_max: f64,
    /// Maps on which the GPU's relative delay is lower than with the even policy (the
    /// thesis' "success" of Fig. 4.7, here against even).
    pub lower_delay_maps: usize,
}

/// The experiment's result: the settings, the per-policy statistics and every map's
/// outcome.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExperimentReport {
    /// The settings it ran with.
    pub config: ExperimentConfig,
    /// Re-planning steps per run.
    pub steps: usize,
    /// Step length (s).
    pub step_s: f64,
    /// Per policy, in [`Distribution::ALL`] order.
    pub summary: Vec<PolicySummary>,
    /// Per map, in seed order.
    pub maps: Vec<MapResult>,
}

/// Runs the experiment (module doc). Bad settings are an [`AgingError`], never a panic.
pub fn run_experiment(cfg: &ExperimentConfig) -> Result<ExperimentReport, AgingError> {
    let (steps, step_s) = cfg.validate()?;
    let gen = PvGenerator::new(cfg.pv)?;
    let maps = run_maps(cfg, &gen, steps, step_s)?;
    let summary = Distribution::ALL
        .iter()
        .map(|&p| summarise(&maps, p))
        .collect();
    Ok(ExperimentReport {
        config: cfg.clone(),
        steps,
        step_s,
        summary,
        maps,
    })
}

/// Every map, on scoped worker threads that take the next map index from a shared counter.
fn run_maps(
    cfg: &ExperimentConfig,
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
            done.push((m, run_map(cfg, gen, seed, steps, step_s)));
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

/// Both policies on the map of `seed`.
fn run_map(
    cfg: &ExperimentConfig,
    gen: &PvGenerator,
    seed: u64,
    steps: usize,
    step_s: f64,
) -> Result<MapResult, AgingError> {
    let pv = gen.generate(seed)?;
    let runs = Distribution::ALL
        .iter()
        .map(|&p| simulate(cfg, &pv, p, steps, step_s))
        .collect::<Result<_, _>>()?;
    Ok(MapResult { seed, runs })
}

/// The warp instructions of each type in one step (see [`ExperimentConfig::load`]).
fn step_workload(cfg: &ExperimentConfig, step_s: f64) -> Workload {
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

/// One policy over the whole lifetime on one map.
fn simulate(
    cfg: &ExperimentConfig,
    pv: &PvMap,
    policy: Distribution,
    steps: usize,
    step_s: f64,
) -> Result<RunResult, AgingError> {
    let workload = step_workload(cfg, step_s);
    let plan_cfg = PlanConfig {
        policy: match policy {
            Distribution::Even => RatioPolicy::Even,
            Distribution::Idu => cfg.plan.policy,
        },
        ..cfg.plan.clone()
    };
    let cal = &cfg.plan.calibration;
    let mut state = AgingState::fresh(pv.cores.len());
    let mut exec_time_s = [0.0; TYPES];
    let mut kernel_time_s = 0.0;
    for _ in 0..steps {
        let plan = plan(pv, &state, &workload, &plan_cfg)?;
        let shares = shares(&plan, policy);
        let times = exec_times(pv, &plan, &shares, &workload);
        for (acc, t) in exec_time_s.iter_mut().zip(times) {
            *acc += t;
        }
        kernel_time_s += times.iter().copied().fold(0.0, f64::max);
        let stress = step_stress(cfg, pv, &plan, &shares, &workload)?;
        state.advance(pv, cal, &stress, step_s)?;
    }
    let end = final_metrics(cfg, pv, &state)?;
    Ok(RunResult {
        policy,
        spread: end.spread,
        rel_sigma: end.rel_sigma,
        max_rel_delay: end.max_rel_delay,
        exec_time_s,
        kernel_time_s,
    })
}

/// Per type, each working cluster's share of the instructions (IDU order of the working
/// clusters): `1/k` for even, `limit_j / S` for the IDU.
fn shares(plan: &Plan, policy: Distribution) -> [Vec<f64>; TYPES] {
    std::array::from_fn(|t| {
        let k = plan.formation[t].working();
        match (policy, &plan.ratios[t]) {
            (Distribution::Idu, Some(r)) => r.shares(),
            _ => vec![1.0 / k.max(1) as f64; k],
        }
    })
}

/// Per type, the time its instructions take when the IDU holds to the shares:
/// `max_j(share_j · N · cycles_per_inst / f_j)`.
fn exec_times(
    pv: &PvMap,
    plan: &Plan,
    shares: &[Vec<f64>; TYPES],
    workload: &Workload,
) -> [f64; TYPES] {
    std::array::from_fn(|t| {
        let cpi = pv.params.geometry.types[t].cycles_per_inst;
        let n = workload.warp_insts[t] as f64;
        working(&plan.formation[t])
            .zip(&shares[t])
            .map(|(c, share)| share * n * cpi / c.freq_hz)
            .fold(0.0, f64::max)
    })
}

fn working(f: &TypeFormation) -> impl Iterator<Item = &super::FormedCluster> {
    f.clusters.iter().filter(|c| c.working)
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
}

/// Algorithm 3 on the final state, then the metrics of the working clusters.
fn final_metrics(
    cfg: &ExperimentConfig,
    pv: &PvMap,
    state: &AgingState,
) -> Result<FinalMetrics, AgingError> {
    let workload = Workload {
        warp_insts: [0; TYPES],
        clusters_needed: cfg.clusters_needed,
        horizon_s: 1.0,
    };
    let delays = check_plan_inputs(pv, state, &workload, &cfg.plan)?;
    let rel = state.rel_delays(pv, &cfg.plan.calibration)?;
    let geometry = &pv.params.geometry;
    let mut m = FinalMetrics {
        spread: [0.0; TYPES],
        rel_sigma: [0.0; TYPES],
        max_rel_delay: 1.0,
    };
    for t in CoreType::ALL {
        let (ti, first) = (t.index(), geometry.first_core(t));
        let g = &geometry.types[ti];
        let needed = cfg.clusters_needed[ti];
        let f = form_clusters(
            &delays[first..first + g.cores],
            g.lanes_per_cluster,
            needed,
            cfg.plan.f_cap_hz,
        )?;
        let model = ClusterPredictor::for_type(pv, state, &cfg.plan.calibration, &f, t, 1.0)?;
        let aging = (0..model.clusters())
            .map(|j| model.status(j))
            .collect::<Result<Vec<f64>, _>>()?;
        m.spread[ti] = spread(&aging);
        let cores: Vec<f64> = working(&f)
            .flat_map(|c| c.cores.iter().map(|&i| rel[first + i]))
            .collect();
        m.rel_sigma[ti] = rel_sigma(&cores);
        m.max_rel_delay = cores.iter().copied().fold(m.max_rel_delay, f64::max);
    }
    Ok(m)
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

/// `x / base − 1`, 0 when the base is 0.
fn cost(x: f64, base: f64) -> f64 {
    if base > 0.0 {
        x / base - 1.0
    } else {
        0.0
    }
}

fn mean(v: impl Iterator<Item = f64>) -> f64 {
    let (sum, n) = v.fold((0.0, 0usize), |(s, n), x| (s + x, n + 1));
    if n == 0 {
        0.0
    } else {
        sum / n as f64
    }
}

/// The largest value, 0 for none.
fn max(v: impl Iterator<Item = f64>) -> f64 {
    let m = v.fold(f64::NEG_INFINITY, f64::max);
    if m == f64::NEG_INFINITY {
        0.0
    } else {
        m
    }
}

/// The run of `policy` and the even run on one map.
fn pair(m: &MapResult, policy: Distribution) -> Option<(&RunResult, &RunResult)> {
    let find = |p: Distribution| m.runs.iter().find(|r| r.policy == p);
    Some((find(policy)?, find(Distribution::Even)?))
}

fn summarise(maps: &[MapResult], policy: Distribution) -> PolicySummary {
    let pairs: Vec<_> = maps.iter().filter_map(|m| pair(m, policy)).collect();
    let types = CoreType::ALL
        .iter()
        .map(|&t| {
            let ti = t.index();
            let costs = || {
                pairs
                    .iter()
                    .map(|(r, e)| cost(r.exec_time_s[ti], e.exec_time_s[ti]))
            };
            TypeSummary {
                core_type: t,
                spread_mean: mean(pairs.iter().map(|(r, _)| r.spread[ti])),
                spread_max: max(pairs.iter().map(|(r, _)| r.spread[ti])),
                rel_sigma_mean: mean(pairs.iter().map(|(r, _)| r.rel_sigma[ti])),
                time_cost_mean: mean(costs()),
                time_cost_max: max(costs()),
                narrower_maps: pairs
                    .iter()
                    .filter(|(r, e)| r.spread[ti] < e.spread[ti])
                    .count(),
            }
        })
        .collect();
    let kernel_costs = || {
        pairs
            .iter()
            .map(|(r, e)| cost(r.kernel_time_s, e.kernel_time_s))
    };
    PolicySummary {
        policy,
        types,
        max_rel_delay_mean: mean(pairs.iter().map(|(r, _)| r.max_rel_delay)),
        kernel_cost_mean: mean(kernel_costs()),
        kernel_cost_max: max(kernel_costs()),
        lower_delay_maps: pairs
            .iter()
            .filter(|(r, e)| r.max_rel_delay < e.max_rel_delay)
            .count(),
    }
}

impl ExperimentReport {
    /// The summary as aligned text columns: per policy and distributed type (LD/ST has one
    /// cluster and is left out) the spread, relative σ and time cost, then per policy the
    /// GPU's relative delay and the kernel-time cost, then a legend.
    pub fn table(&self) -> String {
        let c = &self.config;
        let mut out = String::new();
        let last = c.seed.wrapping_add(c.maps.max(1) as u64 - 1);
        let _ = writeln!(
            out,
            "aging experiment: {} PV maps (seeds {}..={last}), {} years, {} re-planning steps \
             of {:.1} days",
            c.maps,
            c.seed,
            c.years,
            self.steps,
            self.step_s / 86_400.0
        );
        let _ = writeln!(
            out,
            "load SP {:.2}, SFU {:.2}, LD/ST {:.2}; ratio period S = {}; Algorithm 4 policy {:?}",
            c.load[0], c.load[1], c.load[2], c.plan.period, c.plan.policy
        );
        let _ = writeln!(out);
        self.type_rows(&mut out);
        let _ = writeln!(out);
        self.policy_rows(&mut out);
        let _ = writeln!(out);
        out.push_str(LEGEND);
        out
    }

    fn type_rows(&self, out: &mut String) {
        let _ = writeln!(
            out,
            "{:<6} {:<4} {:>12} {:>11} {:>9} {:>10} {:>14} {:>13}",
            "policy",
            "type",
            "spread mean",
            "spread max",
            "narrower",
            "rel.sigma",
            "time cost mean",
            "time cost max"
        );
        for p in &self.summary {
            for t in p.types.iter().filter(|t| t.core_type != CoreType::LdSt) {
                let _ = writeln!(
                    out,
                    "{:<6} {:<4} {:>10.4} % {:>9.4} % {:>9} {:>10.4} {:>12.2} % {:>11.2} %",
                    p.policy.name(),
                    t.core_type.to_string(),
                    100.0 * t.spread_mean,
                    100.0 * t.spread_max,
                    format!("{}/{}", t.narrower_maps, self.maps.len()),
                    t.rel_sigma_mean,
                    100.0 * t.time_cost_mean,
                    100.0 * t.time_cost_max
                );
            }
        }
    }

    fn policy_rows(&self, out: &mut String) {
        let _ = writeln!(
            out,
            "{:<6} {:>15} {:>13} {:>16} {:>15}",
            "policy", "GPU delay mean", "delay lower", "kernel cost mean", "kernel cost max"
        );
        for p in &self.summary {
            let _ = writeln!(
                out,
                "{:<6} {:>15.5} {:>13} {:>14.2} % {:>13.2} %",
                p.policy.name(),
                p.max_rel_delay_mean,
                format!("{}/{}", p.lower_delay_maps, self.maps.len()),
                100.0 * p.kernel_cost_mean,
                100.0 * p.kernel_cost_max
            );
        }
    }
}

/// The table's legend.
const LEGEND: &str = "\
spread: max - min over the working clusters of a type of the cluster aging (relative increase
  of the cluster's critical delay), at the end; narrower: maps where it is below even's.
rel.sigma: sigma/mean of the relative delay increase of the type's working cores (Fig. 4.8).
time cost: execution time of the type's instructions vs even, max_j(share_j N cpi / f_j) per
  step (the IDU stalls rather than break the ratio); kernel cost: per step the slowest type.
GPU delay: largest d(t)/d(t0) over working cores at the end; delay lower: maps below even's.
";

#[cfg(test)]
mod tests {
    use super::*;

    /// Three maps, half a year of monthly steps: small enough for a unit test.
    fn small() -> ExperimentConfig {
        ExperimentConfig {
            years: 0.5,
            maps: 3,
            seed: 1,
            ..ExperimentConfig::default()
        }
    }

    /// The same settings give the same report whatever the number of threads, and the
    /// report survives a JSON round trip (up to the last bit of a float: serde_json parses
    /// floats to within one ulp).
    #[test]
    fn aging_experiment_is_deterministic() {
        let one = run_experiment(&ExperimentConfig {
            threads: 1,
            ..small()
        })
        .unwrap();
        let two = run_experiment(&ExperimentConfig {
            threads: 2,
            ..small()
        })
        .unwrap();
        assert_eq!(one.maps, two.maps);
        assert_eq!(one.summary, two.summary);
        assert_eq!(one.table(), two.table());
        assert_eq!((one.steps, one.maps.len()), (6, 3));
        let seeds: Vec<u64> = one.maps.iter().map(|m| m.seed).collect();
        assert_eq!(seeds, vec![1, 2, 3]);
        let json = serde_json::to_string(&one).unwrap();
        let back: ExperimentReport = serde_json::from_str(&json).unwrap();
        assert_eq!(back.config, one.config);
        assert_eq!(back.table(), one.table());
        let close = |a: f64, b: f64| (a - b).abs() <= 1e-12 * a.abs().max(1.0);
        for (b, o) in back.maps.iter().zip(&one.maps) {
            for (rb, ro) in b.runs.iter().zip(&o.runs) {
                assert!(close(rb.kernel_time_s, ro.kernel_time_s) && rb.policy == ro.policy);
                assert!(close(rb.spread[0], ro.spread[0]));
            }
        }
        // Another seed, other maps.
        let other = run_experiment(&ExperimentConfig {
            seed: 7,
            maps: 1,
            ..small()
        })
        .unwrap();
        assert_ne!(other.maps[0].runs, one.maps[0].runs);
    }

    #[test]
    fn aging_experiment_bad_inputs_are_errors() {
        let bad = |cfg: ExperimentConfig| run_experiment(&cfg).unwrap_err();
        for years in [0.0, -1.0, f64::NAN, f64::INFINITY] {
            let e = bad(ExperimentConfig { years, ..small() });
            assert!(matches!(e, AgingError::InvalidInput { .. }), "{e:?}");
            assert!(e.to_string().contains("years"), "{e}");
        }
        let e = bad(ExperimentConfig { maps: 0, ..small() });
        assert!(e.to_string().contains("number of maps"), "{e}");
        let e = bad(ExperimentConfig {
            steps_per_year: 0,
            ..small()
        });
        assert!(e.to_string().contains("steps per year"), "{e}");
        let e = bad(ExperimentConfig {
            years: 1e6,
            ..small()
        });
        assert!(e.to_string().contains("re-planning steps"), "{e}");
        let mut load = DEFAULT_LOAD;
        load[1] = 1.5;
        let e = bad(ExperimentConfig { load, ..small() });
        assert!(e.to_string().contains("SFU load"), "{e}");
        load[1] = f64::NAN;
        assert!(matches!(
            bad(ExperimentConfig { load, ..small() }),
            AgingError::InvalidInput { .. }
        ));
        let mut cfg = small();
        cfg.pv.n_chip = 0;
        assert!(bad(cfg).to_string().contains("N_chip"));
        let mut cfg = small();
        cfg.plan.calibration.e_0 = -1.0;
        assert!(bad(cfg).to_string().contains("E_0"));
        let mut cfg = small();
        cfg.plan.period = 3; // 6 SP clusters cannot share 3
        assert!(matches!(bad(cfg), AgingError::LimitOverflow { .. }));
        let mut cfg = small();
        cfg.clusters_needed[0] = Some(9);
        assert!(bad(cfg).to_string().contains("needs 9 clusters"));
    }

    /// The trend on the small configuration: on every map the IDU narrows the aging spread of
    /// SP and SFU clusters and the relative σ of the cores, and lowers the GPU's relative
    /// delay.
    ///
    /// The time cost is not the thesis' ~1 %. Under the stall model its sign is the
    /// direction in which the ratio moves work, and that depends on the PV→V_th0
    /// coupling (`PvParams::vth_theta_slope`): with V_th0 ∝ θ (default) a slow cluster has
    /// less overdrive and ages less per instruction (Eq. 4.2), so the IDU loads the slow
    /// clusters and pays 20–100 %; with PV only in the clock (slope 0) a slow cluster is busy
    /// longer per instruction, the IDU unloads it and beats the even split, which waits for
    /// its slowest cluster.
    #[test]
    fn aging_experiment_idu_narrows_the_spread() {
        let r = run_experiment(&small()).unwrap();
        for m in &r.maps {
            let (idu, even) = pair(m, Distribution::Idu).unwrap();
            for t in [CoreType::Sp, CoreType::Sfu] {
                let ti = t.index();
                assert!(idu.spread[ti] < 0.2 * even.spread[ti], "map {} {t}", m.seed);
                assert!(idu.rel_sigma[ti] < even.rel_sigma[ti], "map {} {t}", m.seed);
            }
            assert!(idu.max_rel_delay < even.max_rel_delay, "map {}", m.seed);
            assert!(even.max_rel_delay > 1.0);
        }
        let (even, idu) = (&r.summary[0], &r.summary[1]);
        assert_eq!((even.kernel_cost_mean, even.kernel_cost_max), (0.0, 0.0));
        assert_eq!(idu.types[0].narrower_maps, 3);
        assert_eq!(idu.lower_delay_maps, 3);
        assert!(idu.types[0].spread_mean < even.types[0].spread_mean);
        assert!(
            (0.2..1.0).contains(&idu.kernel_cost_mean),
            "default coupling: cost {}",
            idu.kernel_cost_mean
        );

        let mut cfg = small();
        cfg.pv.vth_theta_slope = 0.0;
        let r0 = run_experiment(&cfg).unwrap();
        let (even0, idu0) = (&r0.summary[0], &r0.summary[1]);
        assert!(idu0.types[0].spread_mean < 0.2 * even0.types[0].spread_mean);
        assert!(
            (-0.2..=0.0).contains(&idu0.kernel_cost_mean),
            "PV in the clock only: cost {}",
            idu0.kernel_cost_mean
        );
    }

    /// With power gating (SP needs 4 of 6 clusters, SFU 3 of 4) the gated cores idle and
    /// the IDU still narrows the spread of the working clusters.
    #[test]
    fn aging_experiment_with_power_gating() {
        let mut cfg = ExperimentConfig {
            maps: 1,
            years: 2.0 / 12.0,
            ..small()
        };
        cfg.clusters_needed = [Some(4), Some(3), None];
        let r = run_experiment(&cfg).unwrap();
        let (idu, even) = pair(&r.maps[0], Distribution::Idu).unwrap();
        assert!(idu.spread[0] < even.spread[0] && idu.spread[1] < even.spread[1]);
        // Fewer working clusters at the same load: the instructions scale with p_t.
        let w = step_workload(&cfg, r.step_s);
        let full = step_workload(&small(), r.step_s);
        assert_eq!(w.warp_insts[0] * 6, full.warp_insts[0] * 4);
    }

    /// The table: a row per policy and distributed type, the columns aligned.
    #[test]
    fn aging_experiment_table_is_aligned() {
        let r = run_experiment(&ExperimentConfig {
            maps: 1,
            years: 1.0 / 12.0,
            ..small()
        })
        .unwrap();
        let table = r.table();
        let lines: Vec<&str> = table.lines().collect();
        let head = lines
            .iter()
            .position(|l| l.starts_with("policy type"))
            .unwrap();
        let rows = &lines[head..head + 5];
        assert!(rows[1].starts_with("even   SP ") && rows[4].starts_with("idu    SFU"));
        assert!(rows.iter().all(|l| l.len() == rows[0].len()), "{table}");
        let head2 = lines
            .iter()
            .position(|l| l.starts_with("policy ") && l.contains("GPU"))
            .unwrap();
        let rows2 = &lines[head2..head2 + 3];
        assert!(rows2.iter().all(|l| l.len() == rows2[0].len()), "{table}");
        assert!(table.contains("1 PV maps (seeds 1..=1)"), "{table}");
    }
}
