//! Algorithm 3, aging-aware cluster formation ("WarpFormation") of the thesis'
//! Section 4.3.1 (docs/works/thesis.md#alg-3),
//! for one component type.
//!
//! 1. Sort the cores by their current critical-path delay, descending (most aged first;
//!    equal delays: lower core index first) and cut the list into clusters of
//!    `lanes_per_cluster` cores, so each cluster holds similarly aged cores.
//! 2. Sort the clusters by their aging key, the largest delay of their members, ascending
//!    (healthiest first; equal keys: the cluster formed later first). That order is the
//!    IDU's cluster numbering. The first `p_t` clusters work, the rest (the most aged) are
//!    power-gated (our reading of the sort direction, which the thesis leaves open); `p_t = None`
//!    keeps every cluster (R_K unknown).
//! 3. A working cluster runs at the frequency of its slowest member, `1 / max delay`
//!    (cluster-level guardbanding), capped at `f_cap`; its clock period is that frequency's
//!    period rounded up to whole picoseconds (rounding up keeps the clock within the
//!    guardband).
//!
//! Process variation is not looked at here: it is already in the delays (thesis Section 4.3).

use super::{check_positive, AgingError};
use serde::{Deserialize, Serialize};

/// One cluster of Algorithm 3.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FormedCluster {
    /// Its cores (indices into the type's delay list), most aged first.
    pub cores: Vec<usize>,
    /// Its aging key: the largest current delay of its members (ps).
    pub max_delay_ps: f64,
    /// Whether it works (`false`: power-gated).
    pub working: bool,
    /// Operating frequency (Hz) of a working cluster; 0 for a gated one.
    pub freq_hz: f64,
    /// Clock period (ps) of a working cluster, `ceil(1e12 / freq_hz)`; 0 for a gated one.
    pub period_ps: u64,
}

/// Algorithm 3's result for one type: the clusters in IDU order (healthiest first).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TypeFormation {
    /// The clusters, IDU cluster `k` at position `k`.
    pub clusters: Vec<FormedCluster>,
}

impl TypeFormation {
    /// Number of working clusters.
    pub fn working(&self) -> usize {
        self.clusters.iter().filter(|c| c.working).count()
    }
}

/// Runs Algorithm 3 on the cores of one type.
///
/// - `delays_ps`: each core's current critical-path delay in picoseconds (the delay
///   monitors), finite and > 0;
/// - `lanes_per_cluster`: cores per cluster (`N_warp`); the cores must fill whole clusters;
/// - `needed`: `p_t`, the clusters the kernel needs (`None` = all; more than there are is an
///   error);
/// - `f_cap_hz`: the highest cluster clock (`None` = no cap).
pub fn form_clusters(
    delays_ps: &[f64],
    lanes_per_cluster: usize,
    needed: Option<usize>,
    f_cap_hz: Option<f64>,
) -> Result<TypeFormation, AgingError> {
    let p_t = check_inputs(delays_ps, lanes_per_cluster, needed, f_cap_hz)?;
    // 1. Sort by delay, descending; cut into clusters.
    let mut order: Vec<usize> = (0..delays_ps.len()).collect();
    order.sort_by(|&a, &b| delays_ps[b].total_cmp(&delays_ps[a]).then(a.cmp(&b)));
    let mut clusters: Vec<FormedCluster> = order
        .chunks(lanes_per_cluster)
        .map(|members| FormedCluster {
            cores: members.to_vec(),
            max_delay_ps: members
                .iter()
                .map(|&i| delays_ps[i])
                .fold(f64::MIN, f64::max),
            working: false,
            freq_hz: 0.0,
            period_ps: 0,
        })
        .collect();

    // 2. Healthiest first (stable sort of the reversed formation order), gate order > p_t;
    // 3. guardband the working ones.
    clusters.reverse();
    clusters.sort_by(|a, b| a.max_delay_ps.total_cmp(&b.max_delay_ps));
    for c in clusters.iter_mut().take(p_t) {
        guardband(c, f_cap_hz)?;
    }
    Ok(TypeFormation { clusters })
}

/// The stock GPU's clusters of one type, the "fixed lane→cluster map" of the thesis' Orig
/// baseline (thesis Section 4.4.1): cluster `k` holds cores `k·L .. (k+1)·L − 1` in physical order
/// (`L = lanes_per_cluster`), every cluster works (the stock GPU gates nothing) and runs at
/// its slowest member's frequency, capped at `f_cap_hz` (cluster-level guardbanding, as in
/// [`form_clusters`] step 3). Same input checks as [`form_clusters`] with `needed = None`.
pub fn fixed_clusters(
    delays_ps: &[f64],
    lanes_per_cluster: usize,
    f_cap_hz: Option<f64>,
) -> Result<TypeFormation, AgingError> {
    check_inputs(delays_ps, lanes_per_cluster, None, f_cap_hz)?;
    let mut clusters = Vec::with_capacity(delays_ps.len() / lanes_per_cluster);
    for (k, members) in delays_ps.chunks(lanes_per_cluster).enumerate() {
        let first = k * lanes_per_cluster;
        let mut c = FormedCluster {
            cores: (first..first + members.len()).collect(),
            max_delay_ps: members.iter().copied().fold(f64::MIN, f64::max),
            working: false,
            freq_hz: 0.0,
            period_ps: 0,
        };
        guardband(&mut c, f_cap_hz)?;
        clusters.push(c);
    }
    Ok(TypeFormation { clusters })
}

/// Step 3, cluster-level guardbanding: the cluster works at `1 / max delay`, capped.
fn guardband(c: &mut FormedCluster, f_cap_hz: Option<f64>) -> Result<(), AgingError> {
    let mut f = 1e12 / c.max_delay_ps;
    if let Some(cap) = f_cap_hz {
        f = f.min(cap);
    }
    c.working = true;
    c.freq_hz = f;
    c.period_ps = period_ps(f)?;
    Ok(())
}

/// Validates [`form_clusters`]' inputs and returns `p_t`.
fn check_inputs(
    delays_ps: &[f64],
    lanes_per_cluster: usize,
    needed: Option<usize>,
    f_cap_hz: Option<f64>,
) -> Result<usize, AgingError> {
    if lanes_per_cluster == 0 || delays_ps.is_empty() {
        return Err(AgingError::NoClusters {
            what: format!(
                "{} cores in clusters of {lanes_per_cluster} lanes",
                delays_ps.len()
            ),
        });
    }
    if !delays_ps.len().is_multiple_of(lanes_per_cluster) {
        return Err(AgingError::Geometry(format!(
            "{} cores are not a whole number of {lanes_per_cluster}-lane clusters",
            delays_ps.len()
        )));
    }
    for (i, &d) in delays_ps.iter().enumerate() {
        check_positive(&format!("delay of core {i} (ps)"), d)?;
    }
    if let Some(cap) = f_cap_hz {
        check_positive("frequency cap (Hz)", cap)?;
    }
    let n_clusters = delays_ps.len() / lanes_per_cluster;
    let p_t = needed.unwrap_or(n_clusters);
    if p_t > n_clusters {
        return Err(AgingError::Geometry(format!(
            "the kernel needs {p_t} clusters, there are {n_clusters}"
        )));
    }
    Ok(p_t)
}

/// The clock period of `f_hz` in whole picoseconds, rounded up (a period within 1e-9 of a
/// whole number is that number).
pub fn period_ps(f_hz: f64) -> Result<u64, AgingError> {
    check_positive("frequency (Hz)", f_hz)?;
    // Rounded up, but a period that is a whole number up to float error stays that number.
    let exact = 1e12 / f_hz;
    let p = (exact * (1.0 - 1e-9)).ceil();
    if p >= 1.0 && p < u64::MAX as f64 {
        Ok(p as u64)
    } else {
        Err(AgingError::InvalidInput {
            what: "frequency (Hz)".into(),
            value: f_hz,
            expected: "a frequency whose period is 1 ps .. 2^64 ps",
        })
    }
}
