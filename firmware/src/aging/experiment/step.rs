//! The per-step models of the experiment: how long one re-planning step's kernel runs under a
//! policy and how the dispatcher spread each type's instructions over its working clusters.
//!
//! The experiment asks a [`StepModel`] once per (map, policy, step) and ages the cores from
//! the returned shares. Two implementations exist:
//! - [`SaturatedModel`] (here): analytic, every cluster saturated, the dispatcher never the
//!   bottleneck: the whole imbalance of a split shows in the time (the cluster-bound bound on
//!   a split's cost);
//! - the cycle-level model on `rtgpu_hw::idu::model::IduSystem` (`rtgpu_testbench::aging`):
//!   the dispatcher and its clusters run a representative instruction stream cycle by cycle.

use super::super::{AgingError, Plan, PvMap, TypeFormation, Workload, TYPES};
use super::Distribution;
use serde::{Deserialize, Serialize};

/// What one step of one policy did, as a [`StepModel`] sees it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StepOutcome {
    /// The step's kernel time: how long the SM takes to run the step's instructions (s).
    pub time_s: f64,
    /// Per type, the fraction of that type's instructions each working cluster executed, in
    /// IDU order of the working clusters (sums to 1 for a type with instructions).
    pub shares: [Vec<f64>; TYPES],
    /// Per type and working cluster, a measured duty (fraction of the kernel time in which
    /// the cluster's pipeline held an instruction), when the model measures one. Reported
    /// only; the experiment ages the cores from [`StepOutcome::shares`].
    pub busy: Option<[Vec<f64>; TYPES]>,
}

impl StepOutcome {
    /// Checks the outcome against the plan it ran: a finite time ≥ 0, one finite share in
    /// `[0, 1]` per working cluster of each type, `busy` (when given) shaped the same.
    pub fn check(&self, plan: &Plan) -> Result<(), AgingError> {
        super::super::check_non_negative("step time (s)", self.time_s)?;
        check_shape("shares", &self.shares, plan)?;
        if let Some(busy) = &self.busy {
            check_shape("busy", busy, plan)?;
        }
        Ok(())
    }
}

/// One value in `[0, 1]` per working cluster of each type.
fn check_shape(what: &str, v: &[Vec<f64>; TYPES], plan: &Plan) -> Result<(), AgingError> {
    for (t, (row, f)) in v.iter().zip(&plan.formation).enumerate() {
        if row.len() != f.working() {
            return Err(AgingError::Geometry(format!(
                "type {t}: {} {what} for {} working clusters",
                row.len(),
                f.working()
            )));
        }
        for &x in row {
            super::super::check_unit(&format!("type {t} {what}"), x)?;
        }
    }
    Ok(())
}

/// How one re-planning step runs under a policy: the time and the per-cluster shares.
///
/// Implementations must be deterministic functions of their inputs (the experiment runs the
/// maps on several threads and its report must not depend on how many).
pub trait StepModel: Sync {
    /// A short description for the report (e.g. `"cycle (IduSystem, 2000 instructions)"`).
    fn name(&self) -> String;

    /// Runs the step: `plan` is the host's configuration for this step (for
    /// [`Distribution::Orig`] the stock GPU's, see [`super::super::stock_plan`]), `workload`
    /// the step's instructions per type. The IDU setting follows from `policy`: Orig the stock
    /// dispatcher (`enable` = 0), Even every limit 1, Idu the plan's limits.
    fn step(
        &self,
        pv: &PvMap,
        plan: &Plan,
        policy: Distribution,
        workload: &Workload,
    ) -> Result<StepOutcome, AgingError>;
}

/// The analytic saturated (cluster-bound) time model, the experiment's first one: every
/// working cluster always has an instruction to run, so a type's time is set by its busiest
/// cluster, `max_j(share_j · N · cpi / f_j)`, and a step's kernel time is the largest over the
/// types (their pipelines run in parallel). The dispatcher's limit of one warp instruction
/// per cycle is ignored.
///
/// What it bounds: where a type's clusters bound the kernel, a split costs its whole
/// imbalance against the work-conserving split `N · cpi / Σ f` (Orig's here), the most a split
/// can cost when nothing else limits the kernel. It is no bound on the cycle-level model: on
/// this hardware the one-per-cycle dispatcher usually limits the kernel, which hides the
/// imbalance, while strict quotas stall the dispatcher, which this model cannot see.
///
/// Shares: Orig, the work-conserving stock dispatcher with every cluster saturated, gives
/// each cluster work as fast as it drains it, `f_j / Σ f` (time `N · cpi / Σ f`); Even
/// `1 / k`; Idu `limit_j / S` (the IDU enforces the ratio exactly).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SaturatedModel;

impl StepModel for SaturatedModel {
    fn name(&self) -> String {
        "saturated (every cluster busy, dispatcher unlimited: max_j share_j N cpi / f_j)".into()
    }

    fn step(
        &self,
        pv: &PvMap,
        plan: &Plan,
        policy: Distribution,
        workload: &Workload,
    ) -> Result<StepOutcome, AgingError> {
        let shares: [Vec<f64>; TYPES] = std::array::from_fn(|t| saturated_shares(plan, t, policy));
        let mut time_s = 0.0f64;
        for (t, s) in shares.iter().enumerate() {
            let cpi = pv.params.geometry.types[t].cycles_per_inst;
            let n = workload.warp_insts[t] as f64;
            let busiest = working(&plan.formation[t])
                .zip(s)
                .map(|(c, share)| share * n * cpi / c.freq_hz)
                .fold(0.0, f64::max);
            time_s = time_s.max(busiest);
        }
        Ok(StepOutcome {
            time_s,
            shares,
            busy: None,
        })
    }
}

/// The saturated model's shares of type `t` (see [`SaturatedModel`]).
fn saturated_shares(plan: &Plan, t: usize, policy: Distribution) -> Vec<f64> {
    let f = &plan.formation[t];
    let weights: Vec<f64> = match policy {
        Distribution::Orig => working(f).map(|c| c.freq_hz).collect(),
        Distribution::Even => vec![1.0; f.working()],
        Distribution::Idu => {
            let tp = &plan.program.types[t];
            let limits = tp.working.iter().zip(&tp.limits).filter(|(w, _)| **w);
            limits.map(|(_, &l)| f64::from(l)).collect()
        }
    };
    normalise(&weights)
}

/// `w / Σ w` (equal shares when the sum is not positive).
pub(crate) fn normalise(w: &[f64]) -> Vec<f64> {
    let sum: f64 = w.iter().sum();
    if sum > 0.0 {
        w.iter().map(|x| x / sum).collect()
    } else {
        vec![1.0 / w.len().max(1) as f64; w.len()]
    }
}

/// The working clusters of a formation, in IDU order.
pub(crate) fn working(f: &TypeFormation) -> impl Iterator<Item = &super::super::FormedCluster> {
    f.clusters.iter().filter(|c| c.working)
}
