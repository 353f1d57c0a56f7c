//! Algorithm 4, the PV-aware instruction distribution ratio ("GetInstDistRatio"),
//! of the thesis' Section 4.3.1 (docs/works/thesis.md#alg-4), for the working clusters of one
//! type.
//!
//! Algorithm 4 runs on an [`AgingPredictor`], which supplies the thesis' three model calls:
//! - `GetStatus(C_j)` ([`AgingPredictor::status`]): `a_j`, the cluster's current aging
//!   (relative delay increase);
//! - `GetAging(C_j, PV, n)` ([`AgingPredictor::aging_after`]): the predicted aging after `n`
//!   instructions;
//! - `GetInstNum(ST_j, PV, C_j)` ([`AgingPredictor::inst_num`]): the instructions after which
//!   the cluster reaches a target aging, the inverse of `GetAging`.
//!
//! [`LinearPredictor`] is a linearised model (our reading of the functions the thesis leaves
//! undefined): `GetAging = a_j + s_j · n`, `GetInstNum = max(ST_j, 0) / s_j`. The host flow uses
//! the nonlinear NBTI/HCI model ([`super::predict::ClusterPredictor`]), which inverts the model
//! instead of extrapolating a slope: with Eq. 4.1–4.8 the aging per instruction differs by
//! orders of magnitude between a cluster's stressed and never-stressed cores, so a slope
//! measured at the even share is wrong far from it.
//!
//! `GenerateRatio` ([`generate_ratio`]) scales the instruction counts to integer limits that
//! sum to the ratio period S, each in `1..=255`, by largest remainder.
//!
//! Policies ([`RatioPolicy`]): the thesis' average target (default), an optional
//! water-filling (ours), and an even split.

use super::{check_finite, check_non_negative, check_positive, AgingError, LIMIT_MAX};
use serde::{Deserialize, Serialize};

/// How Algorithm 4 picks each cluster's instruction count.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum RatioPolicy {
    /// The thesis': predict the aging of an even split, take its average as the target,
    /// `R_j = GetInstNum(AvgAge − a_j)` (`ratio_policy = avg_target`).
    #[default]
    AvgTarget,
    /// Water-filling (our option): the level `L` at which `Σ_j GetInstNum(L − a_j) = N`
    /// (clusters already above `L` get 0), `R_j = GetInstNum(L − a_j)`: the model's exact
    /// equaliser (`ratio_policy = waterfill`). Linear model: `L = (N + Σ a_j/s_j) / Σ 1/s_j`.
    WaterFill,
    /// Equal counts (the "Even" baseline's distribution, scaled to the period).
    Even,
}

/// The aging model Algorithm 4 runs on, for the working clusters of one type (numbered
/// `0..clusters()`).
pub trait AgingPredictor {
    /// Number of working clusters.
    fn clusters(&self) -> usize;

    /// `GetStatus(C_j)`: the current aging `a_j` of cluster `j`.
    fn status(&self, j: usize) -> Result<f64, AgingError>;

    /// `GetAging(C_j, PV, n)`: the predicted aging of cluster `j` after it runs `n`
    /// instructions. Non-decreasing in `n`.
    fn aging_after(&self, j: usize, n: f64) -> Result<f64, AgingError>;

    /// `GetInstNum`: the fewest instructions `n ≥ 0` after which cluster `j` has aged to
    /// `target`; 0 when it is already there, and the most it can run (its capacity) when it
    /// cannot get there.
    fn inst_num(&self, j: usize, target: f64) -> Result<f64, AgingError>;

    /// Water-filling: the level `L` and the counts `R_j = inst_num(j, L)` with `Σ R_j = n`
    /// (up to the solver's tolerance), by bisection on `L`. Predictors with a closed form
    /// override it.
    fn waterfill(&self, n: f64) -> Result<(f64, Vec<f64>), AgingError> {
        let k = self.clusters();
        let total = |level: f64| -> Result<f64, AgingError> {
            (0..k).map(|j| self.inst_num(j, level)).sum()
        };
        let mut lo = f64::INFINITY;
        let mut hi = f64::NEG_INFINITY;
        for j in 0..k {
            lo = lo.min(self.status(j)?);
            hi = hi.max(self.aging_after(j, n)?);
        }
        // Σ inst_num(lo) = 0 ≤ n; at hi each cluster alone would need ≥ n (or its capacity).
        for _ in 0..100 {
            let mid = 0.5 * (lo + hi);
            if !(mid > lo && mid < hi) {
                break;
            }
            if total(mid)? < n {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        let counts = (0..k)
            .map(|j| self.inst_num(j, hi))
            .collect::<Result<_, _>>()?;
        Ok((hi, counts))
    }
}

/// A linearised model (our reading of what the thesis leaves undefined): `GetAging(C_j, n) = a_j +
/// s_j · n`, with `s_j` the predicted aging per instruction of cluster `j` (its PV-dependent stress
/// sensitivity).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LinearPredictor {
    /// Current aging a_j per working cluster.
    pub aging: Vec<f64>,
    /// Aging per instruction s_j per working cluster.
    pub sensitivity: Vec<f64>,
}

impl LinearPredictor {
    /// Checks the inputs: at least one cluster, equal lengths, finite `a_j`, finite `s_j > 0`.
    pub fn new(aging: &[f64], sensitivity: &[f64]) -> Result<Self, AgingError> {
        let k = aging.len();
        if k == 0 {
            return Err(no_working());
        }
        if sensitivity.len() != k {
            return Err(AgingError::Geometry(format!(
                "{k} aging values, {} sensitivities",
                sensitivity.len()
            )));
        }
        for (j, (&a, &s)) in aging.iter().zip(sensitivity).enumerate() {
            check_finite(&format!("aging of working cluster {j}"), a)?;
            check_positive(&format!("sensitivity of working cluster {j}"), s)?;
        }
        Ok(LinearPredictor {
            aging: aging.to_vec(),
            sensitivity: sensitivity.to_vec(),
        })
    }

    fn get(&self, j: usize) -> Result<(f64, f64), AgingError> {
        match (self.aging.get(j), self.sensitivity.get(j)) {
            (Some(&a), Some(&s)) => Ok((a, s)),
            _ => Err(AgingError::Geometry(format!(
                "working cluster {j} of {}",
                self.aging.len()
            ))),
        }
    }
}

impl AgingPredictor for LinearPredictor {
    fn clusters(&self) -> usize {
        self.aging.len()
    }

    fn status(&self, j: usize) -> Result<f64, AgingError> {
        Ok(self.get(j)?.0)
    }

    fn aging_after(&self, j: usize, n: f64) -> Result<f64, AgingError> {
        let (a, s) = self.get(j)?;
        Ok(a + s * n)
    }

    fn inst_num(&self, j: usize, target: f64) -> Result<f64, AgingError> {
        let (a, s) = self.get(j)?;
        Ok((target - a).max(0.0) / s)
    }

    /// Closed form, clusters that would get a negative count dropped and the level
    /// re-solved.
    fn waterfill(&self, n: f64) -> Result<(f64, Vec<f64>), AgingError> {
        Ok(linear_waterfill(&self.aging, &self.sensitivity, n))
    }
}

/// Algorithm 4's result for the working clusters of one type.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Ratio {
    /// Current aging a_j of each working cluster (`GetStatus`).
    pub aging: Vec<f64>,
    /// Instructions N_inst to distribute.
    pub n_inst: f64,
    /// The target aging level: AvgAge (average target), L (water-filling), or the average
    /// of the even split's predicted aging (even).
    pub target: f64,
    /// Instruction counts R_j before GenerateRatio.
    pub instructions: Vec<f64>,
    /// The counter limits: Σ = the period, each in 1..=255.
    pub limits: Vec<u8>,
    /// Predicted aging of each cluster when the N_inst instructions are split evenly.
    pub even_aging: Vec<f64>,
    /// Predicted aging of each cluster when the IDU splits the N_inst instructions by the
    /// limits (`GetAging(C_j, N_inst · limit_j / S)`).
    pub predicted_aging: Vec<f64>,
}

impl Ratio {
    /// The ratio period S (Σ limits).
    pub fn period(&self) -> u32 {
        self.limits.iter().map(|&l| u32::from(l)).sum()
    }

    /// Each cluster's share of the instructions, `limit_j / S`.
    pub fn shares(&self) -> Vec<f64> {
        let s = f64::from(self.period().max(1));
        self.limits.iter().map(|&l| f64::from(l) / s).collect()
    }
}

/// max − min of a list (0 for an empty one): the spread of cluster aging of the worked
/// example in the tests.
pub fn spread(v: &[f64]) -> f64 {
    let max = v.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let min = v.iter().copied().fold(f64::INFINITY, f64::min);
    if v.is_empty() {
        0.0
    } else {
        max - min
    }
}

/// Runs Algorithm 4 with the linearised model ([`LinearPredictor`]).
///
/// - `aging`: a_j per working cluster (finite);
/// - `sensitivity`: s_j per working cluster (finite, > 0), in aging per instruction;
/// - `n_inst`: instructions to distribute (finite, ≥ 0);
/// - `period`: S, the sum of the limits (`len ≤ S ≤ 255 · len`);
/// - `policy`: see [`RatioPolicy`].
pub fn distribution_ratio(
    aging: &[f64],
    sensitivity: &[f64],
    n_inst: f64,
    period: u32,
    policy: RatioPolicy,
) -> Result<Ratio, AgingError> {
    let model = LinearPredictor::new(aging, sensitivity)?;
    distribution_ratio_with(&model, n_inst, period, policy)
}

/// Runs Algorithm 4 over the working clusters of `model` (see [`distribution_ratio`] for
/// `n_inst`, `period` and `policy`).
pub fn distribution_ratio_with<P: AgingPredictor + ?Sized>(
    model: &P,
    n_inst: f64,
    period: u32,
    policy: RatioPolicy,
) -> Result<Ratio, AgingError> {
    let k = model.clusters();
    if k == 0 {
        return Err(no_working());
    }
    check_non_negative("instruction count", n_inst)?;
    check_period(period, k)?;
    let aging = (0..k)
        .map(|j| check_finite(&format!("aging of working cluster {j}"), model.status(j)?))
        .collect::<Result<Vec<f64>, _>>()?;

    // Lines 5–8: the even split's predicted aging and its average.
    let n_even = n_inst / k as f64;
    let even_aging = (0..k)
        .map(|j| model.aging_after(j, n_even))
        .collect::<Result<Vec<f64>, _>>()?;
    let even_avg = even_aging.iter().sum::<f64>() / k as f64;
    let (target, instructions) = match policy {
        // Lines 9–12: ST_j = AvgAge − GetStatus(C_j); R_j = GetInstNum(ST_j).
        RatioPolicy::AvgTarget => {
            let r = (0..k)
                .map(|j| model.inst_num(j, even_avg))
                .collect::<Result<_, _>>()?;
            (even_avg, r)
        }
        RatioPolicy::WaterFill => model.waterfill(n_inst)?,
        RatioPolicy::Even => (even_avg, vec![n_even; k]),
    };
    // Line 13.
    let limits = generate_ratio(&instructions, period)?;
    let s = f64::from(period);
    let predicted_aging = (0..k)
        .map(|j| model.aging_after(j, n_inst * f64::from(limits[j]) / s))
        .collect::<Result<Vec<f64>, _>>()?;
    Ok(Ratio {
        aging,
        n_inst,
        target,
        instructions,
        limits,
        even_aging,
        predicted_aging,
    })
}

fn no_working() -> AgingError {
    AgingError::NoClusters {
        what: "Algorithm 4 needs at least one working cluster".into(),
    }
}

/// Linear water-filling: the level L and the counts, clusters already above L get 0.
fn linear_waterfill(a: &[f64], s: &[f64], n: f64) -> (f64, Vec<f64>) {
    let mut active = vec![true; a.len()];
    loop {
        let (mut num, mut den) = (n, 0.0);
        for j in 0..a.len() {
            if active[j] {
                num += a[j] / s[j];
                den += 1.0 / s[j];
            }
        }
        let level = num / den;
        let r: Vec<f64> = (0..a.len())
            .map(|j| {
                if active[j] {
                    (level - a[j]) / s[j]
                } else {
                    0.0
                }
            })
            .collect();
        let mut changed = false;
        for j in 0..a.len() {
            if active[j] && r[j] < 0.0 {
                active[j] = false;
                changed = true;
            }
        }
        if !changed {
            return (level, r);
        }
    }
}

fn check_period(period: u32, working: usize) -> Result<(), AgingError> {
    if working == 0 || (period as usize) < working || period as u64 > working as u64 * 255 {
        return Err(AgingError::LimitOverflow { period, working });
    }
    Ok(())
}

/// GenerateRatio: integer limits proportional to `weights` (finite, ≥ 0; all zero = equal),
/// each in `1..=255`, summing exactly to `period`.
///
/// The quotas are `clamp(λ · w_j, 1, 255)` with λ such that they sum to the period
/// (proportional where no bound binds); each limit is its quota's floor, and the units still
/// missing go to the largest fractional parts (ties: lower index first). A cluster with
/// weight 0 gets the minimum 1.
pub fn generate_ratio(weights: &[f64], period: u32) -> Result<Vec<u8>, AgingError> {
    let k = weights.len();
    if k == 0 {
        return Err(AgingError::NoClusters {
            what: "GenerateRatio needs at least one working cluster".into(),
        });
    }
    for (j, &w) in weights.iter().enumerate() {
        check_non_negative(&format!("weight of working cluster {j}"), w)?;
    }
    check_period(period, k)?;
    let w: Vec<f64> = if weights.iter().sum::<f64>() > 0.0 {
        weights.to_vec()
    } else {
        vec![1.0; k]
    };
    let limits = largest_remainder(&quotas(&w, f64::from(period)), period)?;
    limits
        .into_iter()
        .map(|l| {
            u8::try_from(l)
                .ok()
                .filter(|&l| l >= 1)
                .ok_or(AgingError::LimitOverflow { period, working: k })
        })
        .collect()
}

/// The real-valued quotas `clamp(λ · w_j, 1, 255)` that sum to `s` (or as close as the
/// bounds allow), for weights with a positive sum.
fn quotas(w: &[f64], s: f64) -> Vec<f64> {
    let (lo_q, hi_q) = (1.0, f64::from(LIMIT_MAX));
    let total: f64 = w.iter().sum();
    let quotas_at = |lambda: f64| -> Vec<f64> {
        w.iter()
            .map(|&wj| (lambda * wj).clamp(lo_q, hi_q))
            .collect()
    };
    let sum_at = |lambda: f64| -> f64 { quotas_at(lambda).iter().sum() };
    let min_pos = w
        .iter()
        .copied()
        .filter(|&x| x > 0.0)
        .fold(f64::INFINITY, f64::min);
    let lambda_max = hi_q / min_pos; // every positive weight saturated
    if sum_at(lambda_max) <= s {
        return quotas_at(lambda_max);
    }
    // Proportional when nothing clamps: try λ = S / Σw first (exact in that case).
    if quotas_at(s / total).iter().all(|&x| x > lo_q && x < hi_q) {
        return w.iter().map(|&wj| s * wj / total).collect();
    }
    let (mut lo, mut hi) = (0.0, lambda_max);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if sum_at(mid) < s {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    quotas_at(0.5 * (lo + hi))
}

/// Integer limits from `quotas`: each quota's floor, then units added to (or taken from)
/// the largest (smallest) fractional parts until they sum to `period` (ties: lower index
/// first; limits stay in `1..=255`).
fn largest_remainder(quotas: &[f64], period: u32) -> Result<Vec<u32>, AgingError> {
    let k = quotas.len();
    let mut limits: Vec<u32> = quotas.iter().map(|q| q.floor() as u32).collect();
    let rem: Vec<f64> = quotas
        .iter()
        .zip(&limits)
        .map(|(q, &l)| q - f64::from(l))
        .collect();
    let mut by_rem: Vec<usize> = (0..k).collect();
    by_rem.sort_by(|&a, &b| rem[b].total_cmp(&rem[a]).then(a.cmp(&b)));
    let target = i64::from(period);
    let mut sum: i64 = limits.iter().map(|&l| i64::from(l)).sum();
    // Passes over the clusters, one unit each, until the sum is the period.
    while sum != target {
        let before = sum;
        let up = sum < target;
        let order: Vec<usize> = if up {
            by_rem.clone()
        } else {
            by_rem.iter().rev().copied().collect()
        };
        for j in order {
            if up && sum < target && limits[j] < LIMIT_MAX {
                limits[j] += 1;
                sum += 1;
            } else if !up && sum > target && limits[j] > 1 {
                limits[j] -= 1;
                sum -= 1;
            }
        }
        if sum == before {
            return Err(AgingError::LimitOverflow { period, working: k });
        }
    }
    Ok(limits)
}
