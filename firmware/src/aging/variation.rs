//! The seeded process-variation (PV) map generator of the thesis'
//! Section 4.2 (Eq. 4.9–4.11).
//!
//! - The SM's surface is an `N_chip × N_chip` grid; the process parameter θ of cell (i, j) is
//!   Gaussian(μ_p, σ_p) with the spatial correlation ρ = exp(−α_ρ · distance) of Eq. 4.9
//!   (distance in cells). The correlated field is `μ_p + σ_p · L·z`, with `L` the Cholesky
//!   factor of the correlation matrix (computed once per [`PvGenerator`]) and `z` standard
//!   normal draws from a ChaCha8 generator seeded with the map's seed (Box–Muller).
//! - Floorplan (our choice; the thesis takes it from GPGPU-Sim/GPUWattch areas): the grid is cut
//!   into `core_tile × core_tile` tiles; the cores take tiles row-major, SP cores first, then SFU,
//!   then LD/ST (default: 32 × 32 cells, 2 × 2 per core, 16 × 16 tiles for 192 + 32 + 32
//!   cores). A core's critical path is its tile.
//! - Max frequency (Eq. 4.10): `f_i = K_f · min over the tile of 1/θ`. `K_f` is chosen per
//!   map so that the median core runs at `f_median_hz` (876 MHz).
//! - Fresh threshold voltage: `V_th0,i = V_th0 · θ_cp,i / μ_p` with θ_cp the critical path's
//!   largest θ (the one that sets f_i), so slow cores also have less overdrive (and, through
//!   u(V_dd) of Eq. 4.2, age less per stress); [`PvParams::vth_theta_slope`] scales or
//!   removes that coupling.
//! - Leakage (Eq. 4.11 with the sign fixed so that leakage falls as V_th rises): relative to
//!   nominal, `mean over the tile of exp(−(θ/μ_p − 1) · V_th0 / (m · V_T))`, V_T = kT/q, m = 1.5.
//!
//! Defaults (ours; the thesis gives none): N_chip = 32, μ_p = 1, σ_p = 0.10, α_ρ = 2/N_chip.

use super::{check_non_negative, check_positive, AgingError, CoreType, SmGeometry};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

/// Largest grid side the generator accepts (the Cholesky factor has N_chip⁴ / 2 entries).
pub const MAX_N_CHIP: usize = 48;

/// Boltzmann's constant over the elementary charge (V/K), for the thermal voltage.
const K_OVER_Q: f64 = 8.617_333_262e-5;

/// The parameters of a PV map.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PvParams {
    /// Grid side N_chip (cells). Default 32.
    pub n_chip: usize,
    /// Mean μ_p of the process parameter θ. Default 1.
    pub mu_p: f64,
    /// Standard deviation σ_p of θ. Default 0.10 (σ_p/μ_p = 10 %).
    pub sigma_p: f64,
    /// Correlation decay α_ρ of Eq. 4.9, per cell. Default 2/N_chip (1/e at half the die).
    pub alpha_rho: f64,
    /// Side of a core's square tile, in cells. Default 2.
    pub core_tile: usize,
    /// Max frequency of the median core (Hz), which fixes K_f. Default 876 MHz.
    pub f_median_hz: f64,
    /// Nominal fresh threshold voltage (V). Default 0.3 V.
    pub v_th0: f64,
    /// How strongly a core's fresh threshold follows its critical path's θ:
    /// `V_th0,i = V_th0 · (1 + k · (θ_cp,i / μ_p − 1))`. Default 1 (V_th ∝ θ, as θ scales
    /// V_th in Eq. 4.11); 0 gives every core the nominal V_th0, so PV changes only the
    /// clock. **A modelling choice, not from the thesis**; it decides which clusters age
    /// fastest per instruction (see `experiment`).
    #[serde(default = "default_vth_theta_slope")]
    pub vth_theta_slope: f64,
    /// Subthreshold slope factor m of the leakage model. Default 1.5.
    pub leakage_m: f64,
    /// The SM's cores and clusters.
    pub geometry: SmGeometry,
}

fn default_vth_theta_slope() -> f64 {
    1.0
}

impl Default for PvParams {
    fn default() -> Self {
        PvParams {
            n_chip: 32,
            mu_p: 1.0,
            sigma_p: 0.10,
            alpha_rho: 2.0 / 32.0,
            core_tile: 2,
            f_median_hz: 876e6,
            v_th0: 0.3,
            vth_theta_slope: 1.0,
            leakage_m: 1.5,
            geometry: SmGeometry::default(),
        }
    }
}

impl PvParams {
    /// Checks ranges (finite, positive where needed, the grid fits the cores) and the
    /// geometry.
    pub fn validate(&self) -> Result<(), AgingError> {
        self.geometry.validate()?;
        if self.n_chip == 0 || self.n_chip > MAX_N_CHIP {
            return Err(AgingError::InvalidInput {
                what: "grid side N_chip".into(),
                value: self.n_chip as f64,
                expected: "an integer in 1..=48",
            });
        }
        check_positive("mu_p", self.mu_p)?;
        check_non_negative("sigma_p", self.sigma_p)?;
        check_non_negative("alpha_rho", self.alpha_rho)?;
        check_positive("median frequency (Hz)", self.f_median_hz)?;
        check_positive("V_th0", self.v_th0)?;
        check_non_negative("vth_theta_slope", self.vth_theta_slope)?;
        check_positive("leakage slope factor m", self.leakage_m)?;
        if self.core_tile == 0 || self.core_tile > self.n_chip {
            return Err(AgingError::InvalidInput {
                what: "core tile side".into(),
                value: self.core_tile as f64,
                expected: "an integer in 1..=N_chip",
            });
        }
        let tiles = (self.n_chip / self.core_tile).pow(2);
        if tiles < self.geometry.total_cores() {
            return Err(AgingError::Geometry(format!(
                "{} cores do not fit the {tiles} tiles of {}x{} cells on a {}x{} grid",
                self.geometry.total_cores(),
                self.core_tile,
                self.core_tile,
                self.n_chip,
                self.n_chip
            )));
        }
        Ok(())
    }
}

/// One core of a PV map.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CorePv {
    /// Its component type.
    pub core_type: CoreType,
    /// Its index among the cores of its type.
    pub index: usize,
    /// Top-left cell (row, column) of its tile.
    pub tile_origin: (usize, usize),
    /// The largest θ over its tile (its critical path's slowest cell).
    pub theta_cp: f64,
    /// Fresh threshold voltage V_th(t0) (V).
    pub v_th0: f64,
    /// Fresh maximum frequency f_i (Hz, Eq. 4.10).
    pub f_max_hz: f64,
}

/// A process-variation map: the grid of θ and every core's fresh parameters.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PvMap {
    /// The parameters it was made with.
    pub params: PvParams,
    /// The seed (the map index; maps 0–49 in our default study).
    pub seed: u64,
    /// θ per cell, row-major, `n_chip²` values.
    pub theta: Vec<f64>,
    /// Frequency constant K_f of Eq. 4.10 (Hz).
    pub k_f_hz: f64,
    /// Every core, SP first, then SFU, then LD/ST (the SM-wide core numbering of
    /// [`SmGeometry::first_core`]).
    pub cores: Vec<CorePv>,
}

/// A PV map generator: the Cholesky factor of the correlation matrix of one parameter set,
/// reused for every seed.
#[derive(Clone, Debug)]
pub struct PvGenerator {
    params: PvParams,
    /// Lower-triangular factor, row-major packed (row i holds i + 1 entries).
    chol: Vec<f64>,
}

impl PvGenerator {
    /// Validates `params` and factors the N_chip² × N_chip² correlation matrix of Eq. 4.9.
    pub fn new(params: PvParams) -> Result<Self, AgingError> {
        params.validate()?;
        let n = params.n_chip;
        let cells = n * n;
        let rho = |a: usize, b: usize| -> f64 {
            let (ai, aj) = ((a / n) as f64, (a % n) as f64);
            let (bi, bj) = ((b / n) as f64, (b % n) as f64);
            (-params.alpha_rho * ((ai - bi).powi(2) + (aj - bj).powi(2)).sqrt()).exp()
        };
        let row = |i: usize| i * (i + 1) / 2;
        let mut l = vec![0.0f64; cells * (cells + 1) / 2];
        for i in 0..cells {
            let ri = row(i);
            for j in 0..=i {
                let rj = row(j);
                let dot: f64 = l[ri..ri + j]
                    .iter()
                    .zip(&l[rj..rj + j])
                    .map(|(x, y)| x * y)
                    .sum();
                let a = rho(i, j) - dot;
                if i == j {
                    if a.is_nan() || a <= 0.0 {
                        return Err(AgingError::Numerical(format!(
                            "correlation matrix not positive definite at cell {i} (pivot {a}); \
                             alpha_rho = {} is too small",
                            params.alpha_rho
                        )));
                    }
                    l[ri + i] = a.sqrt();
                } else {
                    l[ri + j] = a / l[rj + j];
                }
            }
        }
        Ok(PvGenerator { params, chol: l })
    }

    /// The parameters.
    pub fn params(&self) -> &PvParams {
        &self.params
    }

    /// The map of `seed`: the same seed always gives the same map.
    pub fn generate(&self, seed: u64) -> Result<PvMap, AgingError> {
        let p = &self.params;
        let theta = self.field(seed)?;
        let mut cores = place_cores(p, &theta);
        // K_f so that the median core runs at f_median (median of 1/θ_cp).
        let mut inv: Vec<f64> = cores.iter().map(|c| 1.0 / c.theta_cp).collect();
        inv.sort_by(f64::total_cmp);
        let m = inv.len();
        let median = if m % 2 == 1 {
            inv[m / 2]
        } else {
            0.5 * (inv[m / 2 - 1] + inv[m / 2])
        };
        let k_f_hz = p.f_median_hz / median;
        for c in &mut cores {
            c.f_max_hz = k_f_hz / c.theta_cp;
        }
        Ok(PvMap {
            params: *p,
            seed,
            theta,
            k_f_hz,
            cores,
        })
    }

    /// The correlated field θ of `seed`, row-major: `μ_p + σ_p · L·z`, z standard normal
    /// (Box–Muller on ChaCha8). A θ ≤ 0 is out of the model's domain.
    fn field(&self, seed: u64) -> Result<Vec<f64>, AgingError> {
        let p = &self.params;
        let cells = p.n_chip * p.n_chip;
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut z = Vec::with_capacity(cells + 1);
        while z.len() < cells {
            // Box–Muller; 1 − U is in (0, 1], so the logarithm is finite.
            let u1: f64 = 1.0 - rng.gen::<f64>();
            let u2: f64 = rng.gen::<f64>();
            let r = (-2.0 * u1.ln()).sqrt();
            let phi = 2.0 * std::f64::consts::PI * u2;
            z.push(r * phi.cos());
            z.push(r * phi.sin());
        }
        z.truncate(cells);
        let theta: Vec<f64> = (0..cells)
            .map(|i| {
                let ri = i * (i + 1) / 2;
                let x: f64 = self.chol[ri..=ri + i]
                    .iter()
                    .zip(&z)
                    .map(|(a, b)| a * b)
                    .sum();
                p.mu_p + p.sigma_p * x
            })
            .collect();
        if let Some((i, &t)) = theta.iter().enumerate().find(|(_, &t)| t <= 0.0) {
            return Err(AgingError::ModelDomain(format!(
                "seed {seed}: θ = {t} <= 0 at cell {i} (sigma_p too large for mu_p)"
            )));
        }
        Ok(theta)
    }
}

/// The cores on their tiles, row-major, in type order, with θ_cp and V_th0 (f_max still 0).
fn place_cores(p: &PvParams, theta: &[f64]) -> Vec<CorePv> {
    let n = p.n_chip;
    let tiles_per_row = n / p.core_tile;
    let mut cores = Vec::with_capacity(p.geometry.total_cores());
    let mut slot = 0;
    for t in CoreType::ALL {
        for index in 0..p.geometry.types[t.index()].cores {
            let origin = (
                (slot / tiles_per_row) * p.core_tile,
                (slot % tiles_per_row) * p.core_tile,
            );
            slot += 1;
            let mut theta_cp = f64::MIN;
            for r in origin.0..origin.0 + p.core_tile {
                for c in origin.1..origin.1 + p.core_tile {
                    theta_cp = theta_cp.max(theta[r * n + c]);
                }
            }
            cores.push(CorePv {
                core_type: t,
                index,
                tile_origin: origin,
                theta_cp,
                v_th0: p.v_th0 * (1.0 + p.vth_theta_slope * (theta_cp / p.mu_p - 1.0)),
                f_max_hz: 0.0,
            });
        }
    }
    cores
}

impl PvMap {
    /// The map of `seed` for `params` (factors the correlation matrix; use a
    /// [`PvGenerator`] for many maps).
    pub fn generate(params: PvParams, seed: u64) -> Result<PvMap, AgingError> {
        PvGenerator::new(params)?.generate(seed)
    }

    /// θ of cell (row, column), if it is on the grid.
    pub fn theta_at(&self, row: usize, col: usize) -> Option<f64> {
        let n = self.params.n_chip;
        (row < n && col < n).then(|| self.theta[row * n + col])
    }

    /// The cores of type `t`, in index order.
    pub fn cores_of(&self, t: CoreType) -> &[CorePv] {
        let g = &self.params.geometry;
        let first = g.first_core(t);
        let count = g.types[t.index()].cores;
        self.cores.get(first..first + count).unwrap_or(&[])
    }

    /// Leakage power of core `core` (SM-wide number) relative to a core with θ = μ_p
    /// everywhere, at temperature `temp_k` (Eq. 4.11, sign fixed):
    /// the mean over its tile of `exp(−(θ/μ_p − 1) · V_th0 / (m · kT/q))`.
    pub fn leakage_rel(&self, core: usize, temp_k: f64) -> Result<f64, AgingError> {
        check_positive("temperature (K)", temp_k)?;
        let c = self
            .cores
            .get(core)
            .ok_or_else(|| AgingError::Geometry(format!("core {core} of {}", self.cores.len())))?;
        let p = &self.params;
        let vt = K_OVER_Q * temp_k;
        let mut sum = 0.0;
        for r in c.tile_origin.0..c.tile_origin.0 + p.core_tile {
            for col in c.tile_origin.1..c.tile_origin.1 + p.core_tile {
                let th = self.theta[r * p.n_chip + col];
                sum += (-(th / p.mu_p - 1.0) * p.v_th0 / (p.leakage_m * vt)).exp();
            }
        }
        Ok(sum / (p.core_tile * p.core_tile) as f64)
    }
}
