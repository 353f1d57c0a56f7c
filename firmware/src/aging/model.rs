//! The aging model of the thesis' Section 4.1 (the ExtraTime framework):
//! NBTI (Eq. 4.1–4.4), HCI (Eq. 4.5–4.7) and the relative delay change (Eq. 4.8), per core.
//!
//! Choices (the thesis gives the equations but no constants):
//! - Eq. 4.1's integral over the effective duty cycle is one term with `δ_e = 1` (each core's
//!   own duty cycle `δ_B`); the `≤` is taken as `=`.
//! - `V_th` in `u(V_dd)` (Eq. 4.2, 4.6) is the core's fresh threshold `V_th(t0)` from the PV
//!   map, the same as in Eq. 4.8.
//! - `r` is negative (−1.3, alpha-power law), so the delay grows with ΔV_th.
//! - NBTI and HCI shift different transistors (PMOS, NMOS): each gives its own Δ_rel d by
//!   Eq. 4.8 and the core's relative delay is `1 + w_N·Δ_N + w_H·Δ_H` (rise/fall averaged,
//!   weights ½, ½).
//! - Stress that changes over time (one duty cycle per epoch) is applied by equivalent time:
//!   the new shift is the model's shift at `t_eq + dt`, where `t_eq` is the time at which the
//!   new stress would have produced the present shift (both in closed form: NBTI by
//!   inverting Eq. 4.1/4.4, [`Calibration::nbti_equivalent_time`]; HCI from ΔV_H ∝ √t).
//!   With duty cycle 0 (idle or power-gated) the shift holds: the long-term
//!   reaction–diffusion model folds recovery into the duty cycle and has no recovery-only term.
//! - Eq. 4.4 is a long-term model (t ≫ t_m): at t → 0+ it already gives a shift (w of a
//!   fresh β = 1 − ξ1/ξ2), about 1/15 of the 3-year shift at the calibration point. A core's
//!   first stress therefore ages it by a step, and a never-stressed core ages much faster per
//!   instruction than a stressed one; Algorithm 4 has to invert the model, not extrapolate
//!   it linearly (see `predict`).
//! - Every constant is in [`Calibration`]; the numbers are placeholders (the thesis gives
//!   none), the prefactors `A_N` and `A_H` calibrated to the targets below.

use super::variation::PvMap;
use super::{check_finite, check_non_negative, check_positive, check_unit, invalid, AgingError};
use serde::{Deserialize, Serialize};

/// Seconds in a (Julian) year.
pub const SECONDS_PER_YEAR: f64 = 365.25 * 86_400.0;

/// Boltzmann's constant in eV/K.
pub const BOLTZMANN_EV: f64 = 8.617_333_262e-5;

/// The constants of the aging model.
///
/// **Calibration placeholders, not from the thesis.** The thesis names the constants of
/// Eq. 4.1–4.8 but gives no values. These are our choices: the usual
/// reaction–diffusion model values (marked "Default") and, marked "Ours", values with no
/// usual default. `a_n` and `a_h` are calibrated
/// ([`Calibration::calibrated`]) so that a core at 100 % duty cycle and activity, 85 °C and
/// 876 MHz is about 10 % slower after 3 years, with HCI 15 % of the total ΔV_th.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Calibration {
    /// Supply voltage V_dd (V). Default: 1.0 V.
    pub v_dd: f64,
    /// NBTI prefactor A_N (Eq. 4.1), calibrated.
    pub a_n: f64,
    /// NBTI voltage constant E_0 (V, Eq. 4.2). Default: 0.335 V/nm × t_ox / 2 ≈ 0.20 V.
    pub e_0: f64,
    /// Activation energy E_a (eV, Eq. 4.3). Default: 0.49 eV.
    pub e_a: f64,
    /// Time exponent n (Eq. 4.1, 4.4). Default: 1/6.
    pub n: f64,
    /// ξ1 (nm, Eq. 4.4) = 2 · 0.9 · t_e, t_e = 1.2 nm. Default: 2.16 nm.
    pub xi1: f64,
    /// ξ2 (nm, Eq. 4.4) = 2 · t_ox, t_ox = 1.2 nm. Default: 2.4 nm.
    pub xi2: f64,
    /// ξ3 (Eq. 4.4). Default: 0.5.
    pub xi3: f64,
    /// ξ4 (nm²/s, Eq. 4.3) = 1/T0, T0 = 1e-8 s/nm². Default: 1e8.
    pub xi4: f64,
    /// Sampling period t_m (s, Eq. 4.1, 4.4), the length of one stress/recovery cycle.
    /// Ours: 1 ms (about one kernel launch; small enough that β > 0 at t = 0 up
    /// to about 415 K).
    pub t_m: f64,
    /// HCI prefactor A_H (Eq. 4.5), calibrated.
    pub a_h: f64,
    /// HCI voltage constant E_1 (V, Eq. 4.6). Ours: 0.8 V.
    pub e_1: f64,
    /// HCI activation energy (eV, Eq. 4.7; the thesis reuses the symbol E_a). Ours:
    /// the same 0.49 eV.
    pub e_a_hci: f64,
    /// Average switching activity α_avg,B of the gates of a block (Eq. 4.5). Ours:
    /// 0.2 (a constant per block; absorbed by A_H's calibration).
    pub alpha_avg: f64,
    /// Delay exponent r (Eq. 4.8). Default: −1.3 (negative: delay grows with ΔV_th).
    pub r: f64,
    /// Weight of NBTI's Δ_rel d in the core's delay (rise). Default: ½.
    pub w_nbti: f64,
    /// Weight of HCI's Δ_rel d in the core's delay (fall). Default: ½.
    pub w_hci: f64,
    /// Ambient temperature (K) of the thermal model T = T_amb + rise · duty. Default: 318 K.
    pub t_amb_k: f64,
    /// Temperature rise at full load (K). Default: about 20 K.
    pub full_load_rise_k: f64,
}

/// The calibration point of [`Calibration::calibrated`]: 100 % duty cycle and activity at
/// 85 °C and 876 MHz for 3 years, V_th = 0.3 V.
pub const CALIBRATION_POINT: CoreStress = CoreStress {
    duty: 1.0,
    activity: 1.0,
    freq_hz: 876e6,
    temp_k: 358.15,
};

/// Fresh threshold voltage of the calibration point (V). Default: 0.3 V.
pub const CALIBRATION_V_TH0: f64 = 0.3;

/// Stress time of the calibration point: 3 years (s).
pub const CALIBRATION_TIME_S: f64 = 3.0 * SECONDS_PER_YEAR;

/// Target relative delay increase at the calibration point. Default: about +10 %.
pub const CALIBRATION_TARGET: f64 = 0.10;

/// Target share of HCI in the total ΔV_th at the calibration point. Default: 10–20 %.
pub const CALIBRATION_HCI_SHARE: f64 = 0.15;

impl Default for Calibration {
    /// The placeholders documented on each field; `a_n` and `a_h` are the values
    /// [`Calibration::calibrated`] returns for [`CALIBRATION_TARGET`] and
    /// [`CALIBRATION_HCI_SHARE`] (a unit test keeps them in step).
    fn default() -> Self {
        Calibration {
            v_dd: 1.0,
            a_n: A_N_DEFAULT,
            e_0: 0.20,
            e_a: 0.49,
            n: 1.0 / 6.0,
            xi1: 2.16,
            xi2: 2.4,
            xi3: 0.5,
            xi4: 1e8,
            t_m: 1e-3,
            a_h: A_H_DEFAULT,
            e_1: 0.8,
            e_a_hci: 0.49,
            alpha_avg: 0.2,
            r: -1.3,
            w_nbti: 0.5,
            w_hci: 0.5,
            t_amb_k: 318.0,
            full_load_rise_k: 20.0,
        }
    }
}

/// Calibrated A_N (see [`Calibration::calibrated`]).
const A_N_DEFAULT: f64 = 4.122_591_647_852_139e-4;
/// Calibrated A_H (see [`Calibration::calibrated`]).
const A_H_DEFAULT: f64 = 3.625_516_288_431_548_7e-4;

/// The aging state of one core: its threshold-voltage shifts (V).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CoreAge {
    /// ΔV_th from NBTI (PMOS), V.
    pub dvth_nbti: f64,
    /// ΔV_th from HCI (NMOS), V.
    pub dvth_hci: f64,
}

/// The stress on one core during an interval: the duty-cycle and activity inputs of
/// Eq. 4.1 and 4.5.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CoreStress {
    /// Duty cycle δ_B in [0, 1]: busy time over wall time (NBTI stress probability).
    pub duty: f64,
    /// Activity factor α_B in [0, 1]: switching cycles over clock cycles (HCI).
    pub activity: f64,
    /// Clock frequency f of the core (Hz, Eq. 4.5).
    pub freq_hz: f64,
    /// Temperature T_B (K).
    pub temp_k: f64,
}

/// The aging state of every core of the SM, in the PV map's core order.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AgingState {
    /// Per core.
    pub cores: Vec<CoreAge>,
}

impl AgingState {
    /// `n` fresh cores.
    pub fn fresh(n: usize) -> Self {
        AgingState {
            cores: vec![CoreAge::default(); n],
        }
    }

    /// Advances every core by `dt` seconds under its stress ([`Calibration::advance`]).
    pub fn advance(
        &mut self,
        pv: &PvMap,
        cal: &Calibration,
        stress: &[CoreStress],
        dt: f64,
    ) -> Result<(), AgingError> {
        if stress.len() != self.cores.len() || pv.cores.len() != self.cores.len() {
            return Err(AgingError::Geometry(format!(
                "{} stresses, {} aging states, {} PV cores",
                stress.len(),
                self.cores.len(),
                pv.cores.len()
            )));
        }
        let mut next = Vec::with_capacity(self.cores.len());
        for ((age, s), core) in self.cores.iter().zip(stress).zip(&pv.cores) {
            next.push(cal.advance(*age, core.v_th0, s, dt)?);
        }
        self.cores = next;
        Ok(())
    }

    /// Relative delay d(t)/d(t0) of every core ([`Calibration::rel_delay`]).
    pub fn rel_delays(&self, pv: &PvMap, cal: &Calibration) -> Result<Vec<f64>, AgingError> {
        if pv.cores.len() != self.cores.len() {
            return Err(AgingError::Geometry(format!(
                "{} aging states, {} PV cores",
                self.cores.len(),
                pv.cores.len()
            )));
        }
        self.cores
            .iter()
            .zip(&pv.cores)
            .map(|(a, c)| cal.rel_delay(*a, c.v_th0))
            .collect()
    }
}

impl Calibration {
    /// Checks that every constant is finite and in its range (prefactors, energies, ξ,
    /// t_m, V_dd > 0; n in (0, 1); r < 0; weights ≥ 0; α_avg in [0, 1]).
    pub fn validate(&self) -> Result<(), AgingError> {
        for (what, v) in [
            ("V_dd", self.v_dd),
            ("A_N", self.a_n),
            ("E_0", self.e_0),
            ("E_a", self.e_a),
            ("xi1", self.xi1),
            ("xi2", self.xi2),
            ("xi3", self.xi3),
            ("xi4", self.xi4),
            ("t_m", self.t_m),
            ("A_H", self.a_h),
            ("E_1", self.e_1),
            ("E_a (HCI)", self.e_a_hci),
            ("T_amb", self.t_amb_k),
        ] {
            check_positive(what, v)?;
        }
        if !(self.n > 0.0 && self.n < 1.0) {
            return Err(invalid("n", self.n, "a number in (0, 1)"));
        }
        if !(self.r.is_finite() && self.r < 0.0) {
            return Err(invalid("r", self.r, "a finite number < 0"));
        }
        check_non_negative("w_nbti", self.w_nbti)?;
        check_non_negative("w_hci", self.w_hci)?;
        check_non_negative("full-load temperature rise", self.full_load_rise_k)?;
        check_unit("alpha_avg", self.alpha_avg)?;
        Ok(())
    }

    /// Temperature of a core at duty cycle `duty` (our thermal model: T = T_amb + R_th·P with the
    /// power proportional to the duty cycle).
    pub fn temperature(&self, duty: f64) -> f64 {
        self.t_amb_k + self.full_load_rise_k * duty
    }

    /// u(V_dd) of NBTI, Eq. 4.2.
    fn u_nbti(&self, v_th0: f64) -> f64 {
        let ov = self.v_dd - v_th0;
        ov * (ov / self.e_0).exp()
    }

    /// v(T) of NBTI, Eq. 4.3 (nm²/s).
    fn v_nbti(&self, temp_k: f64) -> f64 {
        self.xi4 * (-self.e_a / (BOLTZMANN_EV * temp_k)).exp()
    }

    fn check_v_th0(&self, v_th0: f64) -> Result<(), AgingError> {
        if !(v_th0.is_finite() && v_th0 > 0.0 && v_th0 < self.v_dd) {
            return Err(invalid("V_th(t0)", v_th0, "a number in (0, V_dd)"));
        }
        Ok(())
    }

    /// ΔV_th from NBTI (V) after `t_s` seconds at duty cycle `duty` and temperature `temp_k`
    /// on a core with fresh threshold `v_th0`: Eq. 4.1 with δ_e = 1 and Eq. 4.2–4.4. Zero
    /// at t = 0 or duty 0. Grows with t, duty and T.
    pub fn nbti_dvth(
        &self,
        t_s: f64,
        duty: f64,
        temp_k: f64,
        v_th0: f64,
    ) -> Result<f64, AgingError> {
        check_non_negative("stress time (s)", t_s)?;
        check_unit("duty cycle", duty)?;
        check_positive("temperature (K)", temp_k)?;
        self.check_v_th0(v_th0)?;
        if t_s == 0.0 || duty == 0.0 {
            return Ok(0.0);
        }
        let v = self.v_nbti(temp_k);
        let two_n = 2.0 * self.n;
        // Eq. 4.4: w = 1 − β^(1/2n), β = 1 − (ξ1 + √(ξ3·v·(1−δ)·t_m)) / (ξ2 + √(v·t)).
        let one_minus_beta = (self.xi1 + (self.xi3 * v * (1.0 - duty) * self.t_m).sqrt())
            / (self.xi2 + (v * t_s).sqrt());
        if one_minus_beta.is_nan() || one_minus_beta >= 1.0 {
            return Err(AgingError::ModelDomain(format!(
                "NBTI β = {} ≤ 0 at t = {t_s} s, T = {temp_k} K (Eq. 4.4 needs ξ1 + \
                 √(ξ3·v(T)·(1−δ)·t_m) < ξ2 + √(v(T)·t))",
                1.0 - one_minus_beta
            )));
        }
        // w = −expm1(ln(β)/2n), accurate when β is close to 1 (long times).
        let w = -((-one_minus_beta).ln_1p() / two_n).exp_m1();
        let dv = self.a_n * self.u_nbti(v_th0) * (v * duty * self.t_m).powf(self.n) / w.powf(two_n);
        if dv.is_finite() {
            Ok(dv)
        } else {
            Err(AgingError::ModelDomain(format!(
                "NBTI ΔV_th is {dv} at t = {t_s} s"
            )))
        }
    }

    /// ΔV_th from HCI (V) after `t_s` seconds at activity `activity` and clock `freq_hz`,
    /// temperature `temp_k`, fresh threshold `v_th0`: Eq. 4.5–4.7. Grows as √(α·f·t).
    pub fn hci_dvth(
        &self,
        t_s: f64,
        activity: f64,
        freq_hz: f64,
        temp_k: f64,
        v_th0: f64,
    ) -> Result<f64, AgingError> {
        check_non_negative("stress time (s)", t_s)?;
        Ok(self.hci_rate(activity, freq_hz, temp_k, v_th0)? * t_s.sqrt())
    }

    /// The HCI shift per √second: ΔV_H = rate · √t.
    fn hci_rate(
        &self,
        activity: f64,
        freq_hz: f64,
        temp_k: f64,
        v_th0: f64,
    ) -> Result<f64, AgingError> {
        check_unit("activity factor", activity)?;
        check_non_negative("frequency (Hz)", freq_hz)?;
        check_positive("temperature (K)", temp_k)?;
        self.check_v_th0(v_th0)?;
        let u = ((self.v_dd - v_th0) / self.e_1).exp();
        let v = (-self.e_a_hci / (BOLTZMANN_EV * temp_k)).exp();
        Ok(self.a_h * self.alpha_avg.sqrt() * u * v * (activity * freq_hz).sqrt())
    }

    /// Relative delay change Δ_rel d (Eq. 4.8) of a shift `dvth` on a core with fresh
    /// threshold `v_th0`: `(1 − ΔV_th / (V_dd − V_th0))^r − 1`; positive for a positive shift
    /// (r < 0). Out of domain when the shift reaches the overdrive V_dd − V_th0.
    pub fn rel_delay_change(&self, dvth: f64, v_th0: f64) -> Result<f64, AgingError> {
        check_finite("ΔV_th", dvth)?;
        self.check_v_th0(v_th0)?;
        let x = 1.0 - dvth / (self.v_dd - v_th0);
        if x <= 0.0 {
            return Err(AgingError::ModelDomain(format!(
                "ΔV_th = {dvth} V reaches the overdrive V_dd − V_th0 = {} V (Eq. 4.8)",
                self.v_dd - v_th0
            )));
        }
        Ok(x.powf(self.r) - 1.0)
    }

    /// A core's relative delay d(t)/d(t0) = 1 + w_N·Δ_rel d(ΔV_N) + w_H·Δ_rel d(ΔV_H).
    pub fn rel_delay(&self, age: CoreAge, v_th0: f64) -> Result<f64, AgingError> {
        Ok(1.0
            + self.w_nbti * self.rel_delay_change(age.dvth_nbti, v_th0)?
            + self.w_hci * self.rel_delay_change(age.dvth_hci, v_th0)?)
    }

    /// The equivalent NBTI time: the stress time at which duty cycle `duty` and temperature
    /// `temp_k` produce the shift `dvth` on a core with fresh threshold `v_th0` (the inverse
    /// of [`Calibration::nbti_dvth`] in t), in closed form. With `P = A_N·u·(v·δ·t_m)^n`,
    /// Eq. 4.1 gives `w = (P/ΔV)^(1/2n)`, Eq. 4.4 `1 − β = 1 − (1 − w)^(2n)` and
    /// `√(v·t) = (ξ1 + √(ξ3·v·(1−δ)·t_m)) / (1 − β) − ξ2`. Eq. 4.4 already gives a shift at
    /// t → 0+ (`√(v·t) = 0`); a shift at or below it has equivalent time 0.
    pub fn nbti_equivalent_time(
        &self,
        dvth: f64,
        duty: f64,
        temp_k: f64,
        v_th0: f64,
    ) -> Result<f64, AgingError> {
        check_non_negative("NBTI ΔV_th", dvth)?;
        check_unit("duty cycle", duty)?;
        check_positive("temperature (K)", temp_k)?;
        self.check_v_th0(v_th0)?;
        if dvth == 0.0 || duty == 0.0 {
            return Ok(0.0);
        }
        let v = self.v_nbti(temp_k);
        let two_n = 2.0 * self.n;
        let p = self.a_n * self.u_nbti(v_th0) * (v * duty * self.t_m).powf(self.n);
        let w = (p / dvth).powf(1.0 / two_n);
        if w.is_nan() || w >= 1.0 {
            return Ok(0.0);
        }
        // 1 − β = −expm1(2n·ln(1 − w)), accurate for small w (long times).
        let one_minus_beta = -(two_n * (-w).ln_1p()).exp_m1();
        let x = self.xi1 + (self.xi3 * v * (1.0 - duty) * self.t_m).sqrt();
        let root_vt = x / one_minus_beta - self.xi2;
        let t = if root_vt > 0.0 {
            root_vt * root_vt / v
        } else {
            0.0
        };
        if t.is_finite() {
            Ok(t)
        } else {
            Err(AgingError::Numerical(format!(
                "no equivalent NBTI time for ΔV_th = {dvth} V"
            )))
        }
    }

    /// The core's state after `dt` more seconds under `stress`, by equivalent time (module
    /// doc). Never decreases a shift.
    pub fn advance(
        &self,
        age: CoreAge,
        v_th0: f64,
        stress: &CoreStress,
        dt: f64,
    ) -> Result<CoreAge, AgingError> {
        check_non_negative("time step (s)", dt)?;
        check_non_negative("NBTI ΔV_th", age.dvth_nbti)?;
        check_non_negative("HCI ΔV_th", age.dvth_hci)?;
        check_unit("duty cycle", stress.duty)?;
        check_positive("temperature (K)", stress.temp_k)?;
        // HCI: ΔV = k·√t, so t_eq = (ΔV/k)² and ΔV' = √(ΔV² + k²·dt).
        let k = self.hci_rate(stress.activity, stress.freq_hz, stress.temp_k, v_th0)?;
        let dvth_hci = (age.dvth_hci * age.dvth_hci + k * k * dt).sqrt();
        // NBTI: the shift under this stress at t_eq + dt, t_eq in closed form.
        let dvth_nbti = if stress.duty == 0.0 || dt == 0.0 {
            age.dvth_nbti
        } else {
            let t_eq =
                self.nbti_equivalent_time(age.dvth_nbti, stress.duty, stress.temp_k, v_th0)?;
            self.nbti_dvth(t_eq + dt, stress.duty, stress.temp_k, v_th0)?
                .max(age.dvth_nbti)
        };
        Ok(CoreAge {
            dvth_nbti,
            dvth_hci,
        })
    }

    /// This calibration with `a_n` and `a_h` solved so that, at [`CALIBRATION_POINT`] for
    /// [`CALIBRATION_TIME_S`] on a core with V_th0 = [`CALIBRATION_V_TH0`], the relative
    /// delay is `1 + target` and HCI's ΔV_th is `hci_share` of the total ΔV_th.
    pub fn calibrated(&self, target: f64, hci_share: f64) -> Result<Calibration, AgingError> {
        check_positive("calibration target", target)?;
        if !(0.0..1.0).contains(&hci_share) {
            return Err(invalid("HCI share", hci_share, "a number in [0, 1)"));
        }
        let p = CALIBRATION_POINT;
        let (t, v_th0) = (CALIBRATION_TIME_S, CALIBRATION_V_TH0);
        let unit = Calibration {
            a_n: 1.0,
            a_h: 1.0,
            ..*self
        };
        unit.validate()?;
        // ΔV_N and ΔV_H are linear in A_N, A_H.
        let nbti_per_a = unit.nbti_dvth(t, p.duty, p.temp_k, v_th0)?;
        let hci_per_a = unit.hci_dvth(t, p.activity, p.freq_hz, p.temp_k, v_th0)?;
        let delay = |total: f64| -> Result<f64, AgingError> {
            let age = CoreAge {
                dvth_nbti: total * (1.0 - hci_share),
                dvth_hci: total * hci_share,
            };
            Ok(unit.rel_delay(age, v_th0)? - 1.0)
        };
        // Bisection on the total shift in (0, overdrive).
        let (mut lo, mut hi) = (0.0, (self.v_dd - v_th0) * (1.0 - 1e-9));
        if delay(hi)? < target {
            return Err(AgingError::ModelDomain(format!(
                "a relative delay of {target} is out of reach of Eq. 4.8"
            )));
        }
        for _ in 0..200 {
            let mid = 0.5 * (lo + hi);
            if delay(mid)? < target {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        let total = 0.5 * (lo + hi);
        Ok(Calibration {
            a_n: total * (1.0 - hci_share) / nbti_per_a,
            a_h: total * hci_share / hci_per_a,
            ..*self
        })
    }
}
