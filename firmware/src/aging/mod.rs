//! The host side of the aging- and process-variation-aware instruction distribution of
//! the thesis' Chapter 4 (docs/works/thesis.md): what the device driver computes before every
//! kernel launch and writes into the instruction distribution unit (IDU, `hw/src/idu/`).
//!
//! The flow of the thesis' Fig. 4.1, one call of [`program`] (or [`plan`] for the details):
//! 1. read every core's critical-path delay (the delay monitors): here derived from the
//!    process-variation map ([`variation::PvMap`]) and the aging state ([`model::AgingState`]);
//! 2. per component type, form warp-wide clusters of similarly aged cores, power-gate the
//!    surplus most-aged clusters and give each working cluster the frequency of its slowest
//!    core ([`formation`], Algorithm 3);
//! 3. per type, compute the instruction distribution ratio over the working clusters
//!    ([`ratio`], Algorithm 4), predicting each cluster's aging with the NBTI/HCI model
//!    ([`model`], Eq. 4.1–4.8) and inverting it for the instruction counts ([`predict`]);
//! 4. hand the result to the driver as an [`IduProgram`]: per type and cluster the working bit,
//!    the 8-bit counter limit and the cluster clock period, and the configuration-port writes
//!    ([`IduProgram::register_writes`]).
//!
//! Cluster numbering: the IDU's cluster `k` of a type is the `k`-th cluster in Algorithm 3's
//! power-gating order, healthiest first, so the working clusters are `0..p_t` and the gated
//! ones follow. The physical cores behind each cluster (the `lane_map` configuration table, our
//! addition: the thesis does not describe the lane↔core crossbar) are in
//! [`Plan::formation`].
//!
//! [`stock_plan`] is the same reading for the stock GPU (the thesis' "Orig" baseline): the
//! fixed lane→cluster map, nothing gated, no ratio.
//!
//! [`experiment`] runs the flow month by month over a lifetime on many PV maps and compares
//! the IDU's ratio with the stock dispatcher and with an even split (the `rtgpu aging`
//! experiment); its per-step timing comes from a pluggable [`experiment::StepModel`].

#![deny(missing_docs)]

pub mod cu;
pub mod experiment;
pub mod formation;
pub mod model;
pub mod predict;
pub mod ratio;
pub mod variation;

use serde::{Deserialize, Serialize};
use std::fmt;

pub use experiment::{
    run_experiment, run_experiment_with, Distribution, ExperimentConfig, ExperimentReport, OrigMap,
    SaturatedModel, StepModel, StepOutcome,
};
pub use formation::{fixed_clusters, form_clusters, FormedCluster, TypeFormation};
pub use model::{AgingState, Calibration, CoreAge, CoreStress};
pub use predict::ClusterPredictor;
pub use ratio::{distribution_ratio, distribution_ratio_with, AgingPredictor, Ratio, RatioPolicy};
pub use variation::{CorePv, PvGenerator, PvMap, PvParams};

/// Number of component (instruction) types the IDU distributes: 0 SP, 1 SFU, 2 LD/ST
/// (`hw/src/idu/mod.rs`).
pub const TYPES: usize = 3;

/// Most clusters per type the IDU has (`cfg_cluster` is 3 bits).
pub const MAX_CLUSTERS: usize = 8;

/// Largest counter limit (`CNT_W` = 8 bits).
pub const LIMIT_MAX: u32 = 255;

/// Default ratio period S: the sum of the limits of one type (our choice; the
/// thesis' Fig. 4.3 uses 10).
pub const DEFAULT_PERIOD: u32 = 64;

/// Default frequency cap: the core clock of Table 4.1, 876 MHz (cluster clocks ≤ 876 MHz).
pub const NOMINAL_CLOCK_HZ: f64 = 876e6;

/// A component type: the IDU's instruction types.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum CoreType {
    /// Streaming processor (ALU) lanes, type 0.
    Sp,
    /// Special-function units, type 1.
    Sfu,
    /// Load/store units, type 2.
    LdSt,
}

impl CoreType {
    /// The three types in IDU order.
    pub const ALL: [CoreType; TYPES] = [CoreType::Sp, CoreType::Sfu, CoreType::LdSt];

    /// The IDU's type number (`in_type`, `cfg_type`).
    pub fn index(self) -> usize {
        match self {
            CoreType::Sp => 0,
            CoreType::Sfu => 1,
            CoreType::LdSt => 2,
        }
    }
}

impl fmt::Display for CoreType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            CoreType::Sp => "SP",
            CoreType::Sfu => "SFU",
            CoreType::LdSt => "LD/ST",
        })
    }
}

/// The cores of one component type in the SM and how they group into clusters.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TypeGeometry {
    /// Physical cores (lanes) of this type.
    pub cores: usize,
    /// Cores per cluster (`N_warp` of Algorithm 3; per type, our choice).
    pub lanes_per_cluster: usize,
    /// Busy cluster cycles per warp instruction (the initiation interval: SP 1, SFU 4,
    /// LD/ST 1), which turns an instruction count into stress time.
    pub cycles_per_inst: f64,
}

impl TypeGeometry {
    /// Clusters of this type (`cores / lanes_per_cluster`; checked by [`SmGeometry::validate`]).
    pub fn clusters(&self) -> usize {
        self.cores.checked_div(self.lanes_per_cluster).unwrap_or(0)
    }
}

/// The SM's component types, in IDU order (SP, SFU, LD/ST).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SmGeometry {
    /// Per type, indexed by [`CoreType::index`].
    pub types: [TypeGeometry; TYPES],
}

impl Default for SmGeometry {
    /// Tegra K1's SM (Table 4.1): 192 SP lanes in 6 clusters of 32; 32 SFU lanes in 4
    /// clusters of 8 (our choice: the thesis does not say how SFUs cluster), 4 cycles per warp
    /// instruction; 32 LD/ST units in one warp-wide cluster (not distributed).
    fn default() -> Self {
        SmGeometry {
            types: [
                TypeGeometry {
                    cores: 192,
                    lanes_per_cluster: 32,
                    cycles_per_inst: 1.0,
                },
                TypeGeometry {
                    cores: 32,
                    lanes_per_cluster: 8,
                    cycles_per_inst: 4.0,
                },
                TypeGeometry {
                    cores: 32,
                    lanes_per_cluster: 32,
                    cycles_per_inst: 1.0,
                },
            ],
        }
    }
}

impl SmGeometry {
    /// Total physical cores over all types.
    pub fn total_cores(&self) -> usize {
        self.types.iter().map(|g| g.cores).sum()
    }

    /// Index of the first core of type `t` in the SM-wide core numbering (types in IDU order,
    /// cores of a type consecutive).
    pub fn first_core(&self, t: CoreType) -> usize {
        self.types[..t.index()].iter().map(|g| g.cores).sum()
    }

    /// Checks every type: at least one cluster, at most [`MAX_CLUSTERS`], cores a whole
    /// number of clusters, a positive finite `cycles_per_inst`.
    pub fn validate(&self) -> Result<(), AgingError> {
        for t in CoreType::ALL {
            let g = &self.types[t.index()];
            if g.lanes_per_cluster == 0 || g.cores == 0 {
                return Err(AgingError::NoClusters {
                    what: format!(
                        "{t}: {} cores in clusters of {} lanes",
                        g.cores, g.lanes_per_cluster
                    ),
                });
            }
            if !g.cores.is_multiple_of(g.lanes_per_cluster) {
                return Err(AgingError::Geometry(format!(
                    "{t}: {} cores are not a whole number of {}-lane clusters",
                    g.cores, g.lanes_per_cluster
                )));
            }
            if g.clusters() > MAX_CLUSTERS {
                return Err(AgingError::Geometry(format!(
                    "{t}: {} clusters, the IDU has at most {MAX_CLUSTERS} per type",
                    g.clusters()
                )));
            }
            check_positive(&format!("{t} cycles_per_inst"), g.cycles_per_inst)?;
        }
        Ok(())
    }
}

/// Errors of the host-side algorithms. Every bad input is one of these, never a panic.
#[derive(Clone, Debug, PartialEq)]
pub enum AgingError {
    /// A number is NaN, infinite or out of its range.
    InvalidInput {
        /// What the number is.
        what: String,
        /// The offending value.
        value: f64,
        /// The range it must lie in.
        expected: &'static str,
    },
    /// No cluster to work with (a type without clusters, Algorithm 4 with no working
    /// cluster, a kernel that needs a type but is given zero clusters of it).
    NoClusters {
        /// Which type and why.
        what: String,
    },
    /// Lengths or shapes that do not fit together (cores vs clusters, map vs state).
    Geometry(String),
    /// The ratio period cannot be split into per-cluster limits in `1..=255`.
    LimitOverflow {
        /// The requested period S (sum of the limits).
        period: u32,
        /// Working clusters that each need a limit.
        working: usize,
    },
    /// The aging model left its domain (e.g. ΔV_th ≥ V_dd − V_th, a non-positive β in
    /// Eq. 4.4).
    ModelDomain(String),
    /// A numerical method failed (e.g. a correlation matrix that is not positive definite).
    Numerical(String),
}

impl fmt::Display for AgingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AgingError::InvalidInput {
                what,
                value,
                expected,
            } => write!(f, "invalid {what}: {value} (expected {expected})"),
            AgingError::NoClusters { what } => write!(f, "no clusters: {what}"),
            AgingError::Geometry(m) => write!(f, "geometry mismatch: {m}"),
            AgingError::LimitOverflow { period, working } => write!(
                f,
                "ratio period {period} cannot be split over {working} working clusters with \
                 limits in 1..={LIMIT_MAX} (need {working} <= S <= {})",
                *working as u64 * LIMIT_MAX as u64
            ),
            AgingError::ModelDomain(m) => write!(f, "aging model out of its domain: {m}"),
            AgingError::Numerical(m) => write!(f, "numerical failure: {m}"),
        }
    }
}

impl std::error::Error for AgingError {}

/// `Ok(v)` when `v` is finite, else an [`AgingError::InvalidInput`].
pub(crate) fn check_finite(what: &str, v: f64) -> Result<f64, AgingError> {
    if v.is_finite() {
        Ok(v)
    } else {
        Err(invalid(what, v, "a finite number"))
    }
}

/// `Ok(v)` when `v` is finite and > 0.
pub(crate) fn check_positive(what: &str, v: f64) -> Result<f64, AgingError> {
    if v.is_finite() && v > 0.0 {
        Ok(v)
    } else {
        Err(invalid(what, v, "a finite number > 0"))
    }
}

/// `Ok(v)` when `v` is finite and ≥ 0.
pub(crate) fn check_non_negative(what: &str, v: f64) -> Result<f64, AgingError> {
    if v.is_finite() && v >= 0.0 {
        Ok(v)
    } else {
        Err(invalid(what, v, "a finite number >= 0"))
    }
}

/// `Ok(v)` when `v` is in `[0, 1]`.
pub(crate) fn check_unit(what: &str, v: f64) -> Result<f64, AgingError> {
    if (0.0..=1.0).contains(&v) {
        Ok(v)
    } else {
        Err(invalid(what, v, "a number in [0, 1]"))
    }
}

pub(crate) fn invalid(what: &str, value: f64, expected: &'static str) -> AgingError {
    AgingError::InvalidInput {
        what: what.to_string(),
        value,
        expected,
    }
}

/// The configuration of one instruction type in the IDU: what the driver writes into its
/// registers (`working[t][k]`, `limit[t][k]`, `period_ps[t][k]`), one entry per
/// cluster of the type, in IDU cluster order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TypeProgram {
    /// The cluster receives work (`false`: power-gated).
    pub working: Vec<bool>,
    /// The counter limit (the cluster's share of the ratio period; 0 for gated clusters).
    pub limits: Vec<u8>,
    /// The cluster's clock period in picoseconds (its guardbanded frequency); 0 = no clock
    /// (gated).
    pub period_ps: Vec<u64>,
}

impl TypeProgram {
    /// Checks the shape: equal lengths, at most [`MAX_CLUSTERS`] clusters, working clusters
    /// with a limit ≥ 1 and a clock, gated ones with limit 0 and no clock.
    pub fn validate(&self) -> Result<(), AgingError> {
        let k = self.working.len();
        if self.limits.len() != k || self.period_ps.len() != k {
            return Err(AgingError::Geometry(format!(
                "{} working bits, {} limits, {} periods",
                k,
                self.limits.len(),
                self.period_ps.len()
            )));
        }
        if k > MAX_CLUSTERS {
            return Err(AgingError::Geometry(format!(
                "{k} clusters, the IDU has at most {MAX_CLUSTERS} per type"
            )));
        }
        for c in 0..k {
            let (w, l, p) = (self.working[c], self.limits[c], self.period_ps[c]);
            if w && (l == 0 || p == 0) {
                return Err(AgingError::Geometry(format!(
                    "working cluster {c} has limit {l} and period {p} ps (both must be > 0)"
                )));
            }
            if !w && (l != 0 || p != 0) {
                return Err(AgingError::Geometry(format!(
                    "gated cluster {c} has limit {l} and period {p} ps (both must be 0)"
                )));
            }
        }
        Ok(())
    }

    /// The ratio period: the sum of the limits.
    pub fn period(&self) -> u32 {
        self.limits.iter().map(|&l| u32::from(l)).sum()
    }
}

/// The IDU's whole configuration for one kernel launch, per type in IDU order (SP, SFU,
/// LD/ST).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct IduProgram {
    /// Per type, indexed by [`CoreType::index`].
    pub types: [TypeProgram; TYPES],
}

impl IduProgram {
    /// The configuration-port writes (`cfg_type`, `cfg_cluster`, `cfg_working`, `cfg_limit`)
    /// that load this program, in order: type 0..3, and within a type cluster 0 upward. Every
    /// cluster of every type is written (gated ones with working 0, limit 0), so the result
    /// does not depend on what was loaded before. Cluster numbers stop at 255; a program that
    /// passes [`IduProgram::validate`] has at most [`MAX_CLUSTERS`] per type.
    pub fn register_writes(&self) -> Vec<(u8, u8, bool, u8)> {
        let mut writes = Vec::new();
        for (t, tp) in (0u8..).zip(self.types.iter()) {
            for ((k, &w), &l) in (0u8..).zip(tp.working.iter()).zip(tp.limits.iter()) {
                writes.push((t, k, w, l));
            }
        }
        writes
    }

    /// Checks every type ([`TypeProgram::validate`]).
    pub fn validate(&self) -> Result<(), AgingError> {
        for (t, tp) in CoreType::ALL.iter().zip(self.types.iter()) {
            tp.validate().map_err(|e| match e {
                AgingError::Geometry(m) => AgingError::Geometry(format!("{t}: {m}")),
                e => e,
            })?;
        }
        Ok(())
    }
}

/// What the kernel to be launched needs, from its design-time profile (`R_K` of
/// Algorithm 3, `N_inst` of Algorithm 4; per-kernel warp-instruction counts per type).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Workload {
    /// Warp instructions of each type that will run on this configuration during the
    /// planning horizon (the kernel's count times its launches in the horizon).
    pub warp_insts: [u64; TYPES],
    /// Clusters of each type the kernel needs (`p_t`); `None` = every cluster (R_K unknown,
    /// our choice).
    pub clusters_needed: [Option<usize>; TYPES],
    /// Wall time in seconds over which the instructions run (an aging epoch, e.g. a month);
    /// the duty cycle of a cluster is its busy time over this horizon.
    pub horizon_s: f64,
}

/// Settings of [`plan`] / [`program`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlanConfig {
    /// Ratio period S, the sum of the limits of each type (default [`DEFAULT_PERIOD`]).
    pub period: u32,
    /// Algorithm 4's policy (default [`RatioPolicy::AvgTarget`], the thesis').
    pub policy: RatioPolicy,
    /// Highest cluster clock (default [`NOMINAL_CLOCK_HZ`]); `None` = no cap.
    pub f_cap_hz: Option<f64>,
    /// The aging model's constants.
    pub calibration: Calibration,
}

impl Default for PlanConfig {
    fn default() -> Self {
        PlanConfig {
            period: DEFAULT_PERIOD,
            policy: RatioPolicy::AvgTarget,
            f_cap_hz: Some(NOMINAL_CLOCK_HZ),
            calibration: Calibration::default(),
        }
    }
}

/// Everything [`plan`] computed: Algorithm 3's clusters, Algorithm 4's ratios and the
/// resulting [`IduProgram`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Plan {
    /// Per type: the clusters in IDU order with their cores (indices within the type),
    /// working flags and frequencies.
    pub formation: [TypeFormation; TYPES],
    /// Per type: Algorithm 4 over the working clusters (in IDU order of the working
    /// clusters); `None` when the type has no working cluster or no Algorithm 4 ran (the
    /// stock GPU's plan, [`stock_plan`]).
    pub ratios: [Option<Ratio>; TYPES],
    /// The IDU configuration.
    pub program: IduProgram,
}

/// Runs Algorithm 3 and Algorithm 4 for every type and returns the IDU configuration
/// (see [`plan`]).
pub fn program(
    pv: &PvMap,
    state: &AgingState,
    workload: &Workload,
    config: &PlanConfig,
) -> Result<IduProgram, AgingError> {
    plan(pv, state, workload, config).map(|p| p.program)
}

/// Runs the host flow of Fig. 4.1 for one kernel launch:
/// - the delay-monitor reading of every core: fresh delay `1/f_max` from `pv` times the
///   relative delay of its aging state (Eq. 4.8);
/// - Algorithm 3 per type ([`form_clusters`]) with `workload.clusters_needed`;
/// - Algorithm 4 per type over the working clusters ([`distribution_ratio_with`] with
///   `config.policy` and `config.period`) on the nonlinear model
///   ([`predict::ClusterPredictor`]): the current aging `a_j` is the relative increase of the
///   cluster's critical delay (slowest member now over slowest member fresh);
///   `GetAging(C_j, n)` advances every member core by the NBTI/HCI model for the horizon
///   with the duty cycle `n · cycles_per_inst / (f_j · horizon)`; `GetInstNum` inverts it.
pub fn plan(
    pv: &PvMap,
    state: &AgingState,
    workload: &Workload,
    config: &PlanConfig,
) -> Result<Plan, AgingError> {
    let delay_ps = check_plan_inputs(pv, state, workload, config)?;
    let mut formations = Vec::with_capacity(TYPES);
    let mut ratios = Vec::with_capacity(TYPES);
    let mut programs = Vec::with_capacity(TYPES);
    for t in CoreType::ALL {
        let (formation, ratio) =
            plan_type(pv, state, workload, config, &delay_ps, t).map_err(|e| prefix(t, e))?;
        programs.push(type_program(&formation, ratio.as_ref()));
        formations.push(formation);
        ratios.push(ratio);
    }
    let program = IduProgram {
        types: to_array(programs)?,
    };
    program.validate()?;
    Ok(Plan {
        formation: to_array(formations)?,
        ratios: to_array(ratios)?,
        program,
    })
}

/// The stock GPU's configuration for one kernel launch, the thesis' "Orig" baseline
/// (thesis Section 4.4.1; here a fixed lane→cluster map, `idu_enable` = 0): per type the fixed map
/// of [`fixed_clusters`] (cluster `k` = cores `k·L ..`, nothing gated, each cluster at its
/// slowest member's clock, capped at `config.f_cap_hz`), no Algorithm 4 (`ratios` all
/// `None`) and limit 1 for every cluster, which the stock dispatcher ignores.
/// `workload.clusters_needed` is not used (the stock GPU gates nothing); the other inputs
/// are checked as by [`plan`].
pub fn stock_plan(
    pv: &PvMap,
    state: &AgingState,
    workload: &Workload,
    config: &PlanConfig,
) -> Result<Plan, AgingError> {
    let delay_ps = check_plan_inputs(pv, state, workload, config)?;
    let geometry = &pv.params.geometry;
    let mut formations = Vec::with_capacity(TYPES);
    for t in CoreType::ALL {
        let (g, first) = (&geometry.types[t.index()], geometry.first_core(t));
        let cores = delay_ps
            .get(first..first + g.cores)
            .ok_or_else(|| AgingError::Geometry(format!("{} delays", delay_ps.len())))?;
        let f = fixed_clusters(cores, g.lanes_per_cluster, config.f_cap_hz)
            .map_err(|e| prefix(t, e))?;
        formations.push(f);
    }
    let programs = formations.iter().map(|f| type_program(f, None)).collect();
    let program = IduProgram {
        types: to_array(programs)?,
    };
    program.validate()?;
    Ok(Plan {
        formation: to_array(formations)?,
        ratios: [None, None, None],
        program,
    })
}

/// Validates [`plan`]'s inputs and reads the delay monitors: the current critical-path
/// delay of every core, in ps.
fn check_plan_inputs(
    pv: &PvMap,
    state: &AgingState,
    workload: &Workload,
    config: &PlanConfig,
) -> Result<Vec<f64>, AgingError> {
    pv.params.geometry.validate()?;
    if state.cores.len() != pv.cores.len() {
        return Err(AgingError::Geometry(format!(
            "aging state has {} cores, the PV map {}",
            state.cores.len(),
            pv.cores.len()
        )));
    }
    check_positive("planning horizon (s)", workload.horizon_s)?;
    if let Some(cap) = config.f_cap_hz {
        check_positive("frequency cap (Hz)", cap)?;
    }
    let cal = &config.calibration;
    cal.validate()?;
    pv.cores
        .iter()
        .zip(state.cores.iter())
        .map(|(core, age)| Ok(1e12 / core.f_max_hz * cal.rel_delay(*age, core.v_th0)?))
        .collect()
}

/// Algorithm 3 and Algorithm 4 for type `t` (errors not yet prefixed with the type).
fn plan_type(
    pv: &PvMap,
    state: &AgingState,
    workload: &Workload,
    config: &PlanConfig,
    delay_ps: &[f64],
    t: CoreType,
) -> Result<(TypeFormation, Option<Ratio>), AgingError> {
    let geometry = &pv.params.geometry;
    let g = &geometry.types[t.index()];
    let first = geometry.first_core(t);
    let n_inst = workload.warp_insts[t.index()];
    let needed = workload.clusters_needed[t.index()];
    if needed == Some(0) && n_inst > 0 {
        return Err(AgingError::NoClusters {
            what: format!("the kernel runs {n_inst} warp instructions on 0 clusters"),
        });
    }
    let cores = delay_ps
        .get(first..first + g.cores)
        .ok_or_else(|| AgingError::Geometry(format!("{} delays", delay_ps.len())))?;
    let formation = form_clusters(cores, g.lanes_per_cluster, needed, config.f_cap_hz)?;
    if formation.working() == 0 {
        return Ok((formation, None));
    }
    let cal = &config.calibration;
    let model =
        predict::ClusterPredictor::for_type(pv, state, cal, &formation, t, workload.horizon_s)?;
    let ratio = distribution_ratio_with(&model, n_inst as f64, config.period, config.policy)?;
    Ok((formation, Some(ratio)))
}

/// The IDU registers of one type: working bits, limits (0 for gated clusters, 1 for working
/// ones when there is no ratio) and clock periods, in IDU cluster order.
fn type_program(formation: &TypeFormation, ratio: Option<&Ratio>) -> TypeProgram {
    let k = formation.clusters.len();
    let mut tp = TypeProgram {
        working: Vec::with_capacity(k),
        limits: Vec::with_capacity(k),
        period_ps: Vec::with_capacity(k),
    };
    let mut limits = ratio.map(|r| r.limits.iter()).into_iter().flatten();
    for c in &formation.clusters {
        tp.working.push(c.working);
        tp.period_ps.push(c.period_ps);
        // Without a ratio (the stock plan) a working cluster gets limit 1.
        tp.limits.push(if c.working {
            *limits.next().unwrap_or(&1)
        } else {
            0
        });
    }
    tp
}

fn prefix(t: CoreType, e: AgingError) -> AgingError {
    match e {
        AgingError::NoClusters { what } => AgingError::NoClusters {
            what: format!("{t}: {what}"),
        },
        AgingError::Geometry(m) => AgingError::Geometry(format!("{t}: {m}")),
        AgingError::ModelDomain(m) => AgingError::ModelDomain(format!("{t}: {m}")),
        AgingError::InvalidInput {
            what,
            value,
            expected,
        } => AgingError::InvalidInput {
            what: format!("{t} {what}"),
            value,
            expected,
        },
        e => e,
    }
}

fn to_array<T>(v: Vec<T>) -> Result<[T; TYPES], AgingError> {
    v.try_into()
        .map_err(|v: Vec<T>| AgingError::Geometry(format!("{} types, expected {TYPES}", v.len())))
}

#[cfg(test)]
mod tests;
