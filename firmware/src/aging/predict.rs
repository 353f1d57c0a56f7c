//! The nonlinear aging prediction Algorithm 4 runs on in the host flow: `GetStatus`,
//! `GetAging` and `GetInstNum` of the thesis' Algorithm 4 computed with the NBTI/HCI model of
//! [`super::model`] (Eq. 4.1–4.8) for the working clusters of one type.
//!
//! - A cluster's aging is the relative increase of its critical delay: its slowest member's
//!   delay now over its slowest member's fresh delay, minus 1 (the slowest member sets the
//!   cluster clock, our choice).
//! - Running `n` warp instructions on cluster `j` over the planning horizon `H` keeps each of
//!   its cores busy for `n · cycles_per_inst / f_j` seconds ([`cluster_stress`]): duty cycle
//!   and activity `δ = min(1, n · cpi / (f_j · H))`, clock `f_j`, temperature
//!   `T_amb + rise · δ`. `GetAging(C_j, n)` advances every member by the model for `H` under
//!   that stress.
//! - `GetInstNum(C_j, target)` inverts `GetAging` in `n` by a bracketed root search on
//!   `[0, capacity]`, the capacity being the `f_j · H / cpi` instructions that keep the
//!   cluster busy all the time. The model is too nonlinear for a slope: a core that was
//!   never stressed ages by a step on its first stress (Eq. 4.4 at t → 0+), a long-stressed
//!   one barely moves (ΔV ∝ t^(1/6)), and the cluster's slowest member can change with `n`.

use super::model::{AgingState, Calibration, CoreAge, CoreStress};
use super::ratio::AgingPredictor;
use super::variation::PvMap;
use super::{check_non_negative, check_positive, AgingError, CoreType, TypeFormation};

/// The stress on every core of a cluster at clock `f_hz` that runs `n` warp instructions of
/// `cycles_per_inst` busy cycles each during `horizon_s` seconds (module doc). `n`,
/// `cycles_per_inst`, `f_hz` and `horizon_s` must be finite, `f_hz` and `horizon_s` > 0.
pub fn cluster_stress(
    cal: &Calibration,
    n: f64,
    cycles_per_inst: f64,
    f_hz: f64,
    horizon_s: f64,
) -> Result<CoreStress, AgingError> {
    check_non_negative("instruction count", n)?;
    check_non_negative("cycles per instruction", cycles_per_inst)?;
    check_positive("cluster clock (Hz)", f_hz)?;
    check_positive("planning horizon (s)", horizon_s)?;
    let duty = (n * cycles_per_inst / (f_hz * horizon_s)).min(1.0);
    Ok(CoreStress {
        duty,
        activity: duty,
        freq_hz: f_hz,
        temp_k: cal.temperature(duty),
    })
}

/// The stress on a power-gated or idle core: no duty, no activity, ambient temperature.
pub fn idle_stress(cal: &Calibration) -> CoreStress {
    CoreStress {
        duty: 0.0,
        activity: 0.0,
        freq_hz: 0.0,
        temp_k: cal.temperature(0.0),
    }
}

/// One member core of a cluster.
#[derive(Clone, Copy, Debug)]
struct Member {
    v_th0: f64,
    fresh_ps: f64,
    age: CoreAge,
}

/// One working cluster.
#[derive(Clone, Debug)]
struct ClusterModel {
    members: Vec<Member>,
    freq_hz: f64,
    fresh_max_ps: f64,
    status: f64,
}

/// The nonlinear [`AgingPredictor`] of the working clusters of one type (module doc).
#[derive(Clone, Debug)]
pub struct ClusterPredictor {
    cal: Calibration,
    clusters: Vec<ClusterModel>,
    cycles_per_inst: f64,
    horizon_s: f64,
}

impl ClusterPredictor {
    /// The predictor for the working clusters of type `t` in `formation` (Algorithm 3's
    /// result on the cores of that type), in IDU order, with their present aging `state`
    /// and the planning horizon `horizon_s`.
    pub fn for_type(
        pv: &PvMap,
        state: &AgingState,
        cal: &Calibration,
        formation: &TypeFormation,
        t: CoreType,
        horizon_s: f64,
    ) -> Result<Self, AgingError> {
        let geometry = &pv.params.geometry;
        let first = geometry.first_core(t);
        let cycles_per_inst = geometry.types[t.index()].cycles_per_inst;
        check_positive("planning horizon (s)", horizon_s)?;
        let mut clusters = Vec::new();
        for c in formation.clusters.iter().filter(|c| c.working) {
            let ids: Vec<usize> = c.cores.iter().map(|&i| first + i).collect();
            clusters.push(ClusterModel::new(pv, state, cal, &ids, c.freq_hz)?);
        }
        Ok(ClusterPredictor {
            cal: *cal,
            clusters,
            cycles_per_inst,
            horizon_s,
        })
    }

    /// The most instructions cluster `j` can run in the horizon (busy all the time).
    pub fn capacity(&self, j: usize) -> Result<f64, AgingError> {
        let c = self.cluster(j)?;
        Ok(c.freq_hz * self.horizon_s / self.cycles_per_inst)
    }

    fn cluster(&self, j: usize) -> Result<&ClusterModel, AgingError> {
        self.clusters.get(j).ok_or_else(|| {
            AgingError::Geometry(format!("working cluster {j} of {}", self.clusters.len()))
        })
    }
}

impl ClusterModel {
    fn new(
        pv: &PvMap,
        state: &AgingState,
        cal: &Calibration,
        ids: &[usize],
        freq_hz: f64,
    ) -> Result<Self, AgingError> {
        let mut members = Vec::with_capacity(ids.len());
        for &i in ids {
            let (core, age) = match (pv.cores.get(i), state.cores.get(i)) {
                (Some(c), Some(a)) => (c, *a),
                _ => return Err(AgingError::Geometry(format!("no core {i}"))),
            };
            members.push(Member {
                v_th0: core.v_th0,
                fresh_ps: 1e12 / core.f_max_hz,
                age,
            });
        }
        let fresh_max_ps = members.iter().map(|m| m.fresh_ps).fold(0.0, f64::max);
        let mut c = ClusterModel {
            members,
            freq_hz,
            fresh_max_ps,
            status: 0.0,
        };
        c.status = c.aging_under(cal, None)?;
        Ok(c)
    }

    /// The cluster's aging now (`None`) or after `dt` seconds under `stress`.
    fn aging_under(
        &self,
        cal: &Calibration,
        stress: Option<(&CoreStress, f64)>,
    ) -> Result<f64, AgingError> {
        let mut now_max = 0.0f64;
        for m in &self.members {
            let age = match stress {
                Some((s, dt)) => cal.advance(m.age, m.v_th0, s, dt)?,
                None => m.age,
            };
            now_max = now_max.max(m.fresh_ps * cal.rel_delay(age, m.v_th0)?);
        }
        Ok(now_max / self.fresh_max_ps - 1.0)
    }
}

impl AgingPredictor for ClusterPredictor {
    fn clusters(&self) -> usize {
        self.clusters.len()
    }

    fn status(&self, j: usize) -> Result<f64, AgingError> {
        Ok(self.cluster(j)?.status)
    }

    fn aging_after(&self, j: usize, n: f64) -> Result<f64, AgingError> {
        let c = self.cluster(j)?;
        let s = cluster_stress(
            &self.cal,
            n,
            self.cycles_per_inst,
            c.freq_hz,
            self.horizon_s,
        )?;
        c.aging_under(&self.cal, Some((&s, self.horizon_s)))
    }

    fn inst_num(&self, j: usize, target: f64) -> Result<f64, AgingError> {
        let status = self.status(j)?;
        if target.is_nan() || target <= status {
            return Ok(0.0);
        }
        let cap = self.capacity(j)?;
        let at_cap = self.aging_after(j, cap)? - target;
        if at_cap < 0.0 {
            return Ok(cap);
        }
        let f = |n: f64| self.aging_after(j, n).map(|a| a - target);
        solve_increasing(f, (0.0, status - target), (cap, at_cap), 1e-6 * cap)
    }
}

/// The smallest `x` in `(lo, hi]` where the non-decreasing `f` reaches 0, to within `tol`,
/// given `f(lo) < 0 ≤ f(hi)` (the Illinois variant of regula falsi, with a bisection step
/// when the secant leaves the bracket). Returns the upper end of the final bracket.
pub fn solve_increasing<F>(
    mut f: F,
    lo: (f64, f64),
    hi: (f64, f64),
    tol: f64,
) -> Result<f64, AgingError>
where
    F: FnMut(f64) -> Result<f64, AgingError>,
{
    let ((mut a, mut fa), (mut b, mut fb)) = (lo, hi);
    let mut last_side = 0i8;
    for _ in 0..200 {
        if b - a <= tol || fb == 0.0 {
            break;
        }
        let mut c = (a * fb - b * fa) / (fb - fa);
        if !(c > a && c < b) {
            c = 0.5 * (a + b);
        }
        let fc = f(c)?;
        if fc >= 0.0 {
            (b, fb) = (c, fc);
            if last_side == 1 {
                fa *= 0.5;
            }
            last_side = 1;
        } else {
            (a, fa) = (c, fc);
            if last_side == -1 {
                fb *= 0.5;
            }
            last_side = -1;
        }
    }
    Ok(b)
}
