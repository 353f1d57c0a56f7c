//! The experiment's results: per map and policy ([`RunResult`]), per policy over the maps
//! ([`PolicySummary`], everything relative to Orig on the same map), and the text table.

use super::super::{CoreType, TYPES};
use super::{Distribution, ExperimentConfig};
use serde::{Deserialize, Serialize};
use std::fmt::Write as _;

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
    /// Largest relative delay d(t)/d(t0) over the cores of working clusters of the
    /// distributed types (more than one cluster: SP, SFU) at the end.
    pub max_rel_delay: f64,
    /// Mean relative delay over the same cores at the end.
    pub mean_rel_delay: f64,
    /// Kernel time summed over the steps (s).
    pub kernel_time_s: f64,
    /// Per type, each working cluster's share of the type's instructions, mean over the
    /// steps, in IDU order (for Orig on the fixed map: physical cluster order; otherwise
    /// Algorithm 3's order, healthiest first at each step).
    pub mean_shares: [Vec<f64>; TYPES],
    /// Per type and working cluster, the step model's measured duty, mean over the steps
    /// (`None` when the model measures none).
    pub mean_busy: Option<[Vec<f64>; TYPES]>,
}

/// Every policy's outcome on one map.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MapResult {
    /// The map's seed.
    pub seed: u64,
    /// One entry per policy, in [`Distribution::ALL`] order.
    pub runs: Vec<RunResult>,
}

impl MapResult {
    /// The run of `policy`.
    pub fn run(&self, policy: Distribution) -> Option<&RunResult> {
        self.runs.iter().find(|r| r.policy == policy)
    }
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
    /// Maps on which the spread is narrower than Orig's.
    pub narrower_maps: usize,
}

/// One policy's statistics over the maps, relative to Orig on the same map.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PolicySummary {
    /// The policy.
    pub policy: Distribution,
    /// Per type, in IDU order.
    pub types: Vec<TypeSummary>,
    /// Mean over the maps of the GPU's relative delay (max over working cores).
    pub max_rel_delay_mean: f64,
    /// Mean over the maps of the mean relative delay of the working cores.
    pub mean_rel_delay_mean: f64,
    /// Mean over the maps of the aging improvement `1 − delay / delay_Orig` (GPU relative
    /// delays; our definition).
    pub improvement_mean: f64,
    /// Largest aging improvement over the maps.
    pub improvement_max: f64,
    /// Maps on which the GPU's relative delay is below Orig's: the thesis' "success"
    /// (Fig. 4.7). 0 for Orig itself.
    pub success_maps: usize,
    /// Mean over the maps of the kernel-time cost `time / time_Orig − 1` (Fig. 4.9).
    pub time_cost_mean: f64,
    /// Largest kernel-time cost over the maps.
    pub time_cost_max: f64,
}

/// The experiment's result: the settings, the per-policy statistics and every map's
/// outcome.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExperimentReport {
    /// The settings it ran with.
    pub config: ExperimentConfig,
    /// The step model ([`super::StepModel::name`]).
    pub model: String,
    /// Re-planning steps per run.
    pub steps: usize,
    /// Step length (s).
    pub step_s: f64,
    /// Per policy, in [`Distribution::ALL`] order.
    pub summary: Vec<PolicySummary>,
    /// Per map, in seed order.
    pub maps: Vec<MapResult>,
}

/// `x / base − 1`, 0 when the base is 0.
fn cost(x: f64, base: f64) -> f64 {
    if base > 0.0 {
        x / base - 1.0
    } else {
        0.0
    }
}

/// `1 − x / base`, 0 when the base is 0.
fn improvement(x: f64, base: f64) -> f64 {
    if base > 0.0 {
        1.0 - x / base
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

/// The run of `policy` and Orig's run on one map.
fn pair(m: &MapResult, policy: Distribution) -> Option<(&RunResult, &RunResult)> {
    Some((m.run(policy)?, m.run(Distribution::Orig)?))
}

/// One type's statistics over the (policy, Orig) pairs.
fn type_summary(pairs: &[(&RunResult, &RunResult)], t: CoreType) -> TypeSummary {
    let ti = t.index();
    TypeSummary {
        core_type: t,
        spread_mean: mean(pairs.iter().map(|(r, _)| r.spread[ti])),
        spread_max: max(pairs.iter().map(|(r, _)| r.spread[ti])),
        rel_sigma_mean: mean(pairs.iter().map(|(r, _)| r.rel_sigma[ti])),
        narrower_maps: pairs
            .iter()
            .filter(|(r, o)| r.spread[ti] < o.spread[ti])
            .count(),
    }
}

/// `policy`'s statistics over the maps.
fn summarise(maps: &[MapResult], policy: Distribution) -> PolicySummary {
    let pairs: Vec<_> = maps.iter().filter_map(|m| pair(m, policy)).collect();
    let improvements = || {
        pairs
            .iter()
            .map(|(r, o)| improvement(r.max_rel_delay, o.max_rel_delay))
    };
    let costs = || {
        pairs
            .iter()
            .map(|(r, o)| cost(r.kernel_time_s, o.kernel_time_s))
    };
    PolicySummary {
        policy,
        types: CoreType::ALL
            .iter()
            .map(|&t| type_summary(&pairs, t))
            .collect(),
        max_rel_delay_mean: mean(pairs.iter().map(|(r, _)| r.max_rel_delay)),
        mean_rel_delay_mean: mean(pairs.iter().map(|(r, _)| r.mean_rel_delay)),
        improvement_mean: mean(improvements()),
        improvement_max: max(improvements()),
        success_maps: pairs
            .iter()
            .filter(|(r, o)| r.max_rel_delay < o.max_rel_delay)
            .count(),
        time_cost_mean: mean(costs()),
        time_cost_max: max(costs()),
    }
}

impl ExperimentReport {
    /// The report of a run: the per-policy statistics of `maps` (in seed order).
    pub fn new(
        config: ExperimentConfig,
        model: String,
        steps: usize,
        step_s: f64,
        maps: Vec<MapResult>,
    ) -> Self {
        let summary = Distribution::ALL
            .iter()
            .map(|&p| summarise(&maps, p))
            .collect();
        ExperimentReport {
            config,
            model,
            steps,
            step_s,
            summary,
            maps,
        }
    }

    /// The summary of `policy`.
    pub fn policy(&self, policy: Distribution) -> Option<&PolicySummary> {
        self.summary.iter().find(|p| p.policy == policy)
    }

    /// The summary as aligned text columns: a header, per policy and distributed type (LD/ST
    /// has one cluster and is left out) the spread and relative σ, then per policy the GPU's
    /// relative delay, the improvement and success against Orig and the time cost, then a
    /// legend.
    pub fn table(&self) -> String {
        let mut out = self.header();
        let _ = writeln!(out);
        self.type_rows(&mut out);
        let _ = writeln!(out);
        self.policy_rows(&mut out);
        let _ = writeln!(out);
        out.push_str(LEGEND);
        out
    }

    fn header(&self) -> String {
        let c = &self.config;
        let last = c.seed.wrapping_add(c.maps.max(1) as u64 - 1);
        let mut out = String::new();
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
        let _ = writeln!(out, "step model: {}", self.model);
        let _ = writeln!(
            out,
            "load SP {:.2}, SFU {:.2}, LD/ST {:.2} ({:.2} warp instructions per dispatcher \
             cycle); ratio period S = {}; Algorithm 4 {:?}; orig: {} cluster map, stock \
             dispatcher",
            c.load[0],
            c.load[1],
            c.load[2],
            c.issue_rate(),
            c.plan.period,
            c.plan.policy,
            c.orig_map.name()
        );
        out
    }

    fn type_rows(&self, out: &mut String) {
        let _ = writeln!(
            out,
            "{:<6} {:<4} {:>12} {:>11} {:>10} {:>13}",
            "policy", "type", "spread mean", "spread max", "rel.sigma", "narrower/orig"
        );
        for p in &self.summary {
            for t in p.types.iter().filter(|t| t.core_type != CoreType::LdSt) {
                let narrower = match p.policy {
                    Distribution::Orig => "-".to_string(),
                    _ => format!("{}/{}", t.narrower_maps, self.maps.len()),
                };
                let _ = writeln!(
                    out,
                    "{:<6} {:<4} {:>10.4} % {:>9.4} % {:>10.4} {:>13}",
                    p.policy.name(),
                    t.core_type.to_string(),
                    100.0 * t.spread_mean,
                    100.0 * t.spread_max,
                    t.rel_sigma_mean,
                    narrower
                );
            }
        }
    }

    fn policy_rows(&self, out: &mut String) {
        let _ = writeln!(
            out,
            "{:<6} {:>10} {:>10} {:>12} {:>11} {:>13} {:>10} {:>10}",
            "policy",
            "GPU delay",
            "mean delay",
            "improv. mean",
            "improv. max",
            "success/orig",
            "cost mean",
            "cost max"
        );
        let n = self.maps.len();
        for p in &self.summary {
            let success = match p.policy {
                Distribution::Orig => "-".to_string(),
                _ => format!("{}/{n} {:>3.0}%", p.success_maps, rate(p.success_maps, n)),
            };
            let _ = writeln!(
                out,
                "{:<6} {:>10.5} {:>10.5} {:>10.3} % {:>9.3} % {:>13} {:>8.2} % {:>8.2} %",
                p.policy.name(),
                p.max_rel_delay_mean,
                p.mean_rel_delay_mean,
                100.0 * p.improvement_mean,
                100.0 * p.improvement_max,
                success,
                100.0 * p.time_cost_mean,
                100.0 * p.time_cost_max
            );
        }
    }
}

/// `100 · k / n` (0 for n = 0).
fn rate(k: usize, n: usize) -> f64 {
    if n == 0 {
        0.0
    } else {
        100.0 * k as f64 / n as f64
    }
}

/// The table's legend.
const LEGEND: &str = "\
spread: max - min over the working clusters of a type of the cluster aging (relative increase
  of the cluster's critical delay), at the end; narrower/orig: maps where it is below orig's.
rel.sigma: sigma/mean of the relative delay increase of the type's working cores (Fig. 4.8).
GPU delay: largest d(t)/d(t0) over the working SP and SFU cores at the end (Fig. 4.6), mean
  over the maps; mean delay: the same for the mean over those cores.
improv.: aging improvement 1 - GPU delay / orig's on the same map; success/orig: maps where
  it is > 0 (Fig. 4.7). cost: kernel time summed over the steps / orig's - 1 (Fig. 4.9).
";
