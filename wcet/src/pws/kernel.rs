//! Kernel-level WCET (Section 5 of the PWS paper): re-provisioning (Eq. 2 with the
//! correction of docs/assumptions.md#A24), G_parallel (Eq. 4), DS (Eq. 5) and E_kernel for no
//! splitting, DWS (Eq. 8) and PWS (Eq. 6).
//!
//! The bound generalises the paper's equations with three caller-supplied quantities:
//! - `resident` (R): the work-groups the modelled CU really holds at once (≤ G_parallel; the
//!   paper's Eq. 4 counts work-items globally, docs/assumptions.md#A20). DS = ⌈G / R⌉.
//! - `dispatch_spread`: extra cycles until the last work-group of a round is dispatched;
//!   d_eff = d + dispatch_spread.
//! - `k`: the most wavefronts that time-share one SIMD/SpSIMD. On a work-conserving
//!   single-issue unit, k wavefronts finish within the sum of their isolated times, so a round
//!   lasts at most d_eff + k·E_WF (the paper assumes k = 1).
//!
//! With `resident = G_parallel`, `k = 1` and `dispatch_spread = 0` the bounds are exactly the
//! paper's Eq. 6 (PWS), Eq. 8 (DWS) and Eq. 8 with S = 0 (no splitting).
//!
//! ```
//! use rtgpu_wcet::pws::kernel::{n_simd_total, g_parallel, ds};
//!
//! assert_eq!(n_simd_total(4, 3, 1), 8); // the PWS paper's example for Eq. 2
//! assert_eq!(g_parallel(1, 1, 4, 64, 128), 2); // Fig. 9's shape
//! assert_eq!(ds(3, 2), Some(2));
//! ```

use std::fmt;

use serde::{Deserialize, Serialize};

use super::cfg::{BlockId, BsbCfg};
use super::{analyze_pws, no_split_e_wf, PwsError, PwsWcet};

/// Work-items per wavefront on GCN (N_WIWF).
pub const GCN_WAVEFRONT_LANES: u32 = 64;

/// The units per CU after re-provisioning idle SpSIMDs (Eq. 2 with
/// docs/assumptions.md#A24).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Reprovision {
    /// N_SIMD_total: the original SIMDs plus the re-provisioned ones.
    pub n_simd_total: u32,
    /// SpSIMDs per SIMD after re-provisioning: swfCount (capped at S).
    pub spsimds_per_simd: u32,
}

/// Eq. 2 with swfCount in place of |SB| (docs/assumptions.md#A24):
/// `N_unused = max(0, S − swfCount)`,
/// `N_SIMD_total = N_SIMD + ⌊N_unused·N_SIMD / (swfCount + 1)⌋`; each SIMD keeps swfCount
/// SpSIMDs. Saturates at `u32::MAX`.
pub fn reprovision(n_simd: u32, s: u32, swf_count: u32) -> Reprovision {
    let n_unused = u64::from(s.saturating_sub(swf_count));
    let extra = n_unused * u64::from(n_simd) / (u64::from(swf_count) + 1);
    let total = u64::from(n_simd) + extra;
    Reprovision {
        n_simd_total: u32::try_from(total).unwrap_or(u32::MAX),
        spsimds_per_simd: swf_count.min(s),
    }
}

/// N_SIMD_total of Eq. 2 (see [`reprovision`]). Paper example: 4 SIMDs, S = 3, swfCount = 1 → 8.
pub fn n_simd_total(n_simd: u32, s: u32, swf_count: u32) -> u32 {
    reprovision(n_simd, s, swf_count).n_simd_total
}

/// Eq. 4 with floor (docs/assumptions.md#A20):
/// `G_parallel = ⌊N_CU·N_SIMD_total·N_WFC·N_WIWF / N_WIWG⌋`.
/// Returns 0 when `wg` is 0 (no work-group size, nothing to dispatch); saturates at `u32::MAX`.
pub fn g_parallel(n_cu: u32, n_simd_total: u32, n_wfc: u32, lanes_per_wf: u32, wg: u32) -> u32 {
    if wg == 0 {
        return 0;
    }
    let lanes = [n_cu, n_simd_total, n_wfc, lanes_per_wf]
        .iter()
        .fold(1u128, |acc, &x| acc * u128::from(x));
    u32::try_from(lanes / u128::from(wg)).unwrap_or(u32::MAX)
}

/// Eq. 5 with ceiling: `DS = ⌈G / G_parallel⌉`, or `None` when `g_parallel` is 0.
pub fn ds(groups: u32, g_parallel: u32) -> Option<u32> {
    (g_parallel != 0).then(|| groups.div_ceil(g_parallel))
}

/// `1 − a/b`: the reduction of `a` relative to `b` (Table 2's percentages are
/// `reduction(PWS, NoSplit)` and `reduction(PWS, DWS)`). Infinite or NaN when `b` is 0.
pub fn reduction(a: f64, b: f64) -> f64 {
    1.0 - a / b
}

/// The launch and timing inputs of a kernel bound (the inputs Section 5 of the PWS paper
/// lists, plus the generalisations of the
/// module documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct KernelInputs {
    /// N_CU, the compute units (1 for the modelled CU).
    pub n_cu: u32,
    /// N_SIMD_total used in Eq. 4: N_SIMD, or [`n_simd_total`] with re-provisioning.
    pub n_simd: u32,
    /// N_WFC, wavefront contexts per SIMD.
    pub n_wfc: u32,
    /// N_WIWF, work-items per wavefront (64 on GCN, [`GCN_WAVEFRONT_LANES`]).
    pub lanes_per_wf: u32,
    /// The grid, in work-items.
    pub grid: u32,
    /// N_WIWG, work-items per work-group.
    pub wg: u32,
    /// R: work-groups the modelled CU really holds at once (1 ≤ R ≤ G_parallel).
    pub resident: u32,
    /// d: the worst dispatch-to-first-instruction delay, cycles.
    pub d: u64,
    /// Extra cycles until the last work-group of a round is dispatched.
    pub dispatch_spread: u64,
    /// k ≥ 1: the most wavefronts that time-share one SIMD/SpSIMD (the paper: 1).
    pub k: u64,
    /// e_s: worst-case split cost, cycles.
    pub e_s: u64,
    /// e_m: worst-case merge cost, cycles.
    pub e_m: u64,
}

impl KernelInputs {
    /// The paper's setting: one CU, `resident = G_parallel`, k = 1, no dispatch spread.
    /// Returns `None` if G_parallel is 0.
    pub fn paper(
        n_simd: u32,
        n_wfc: u32,
        grid: u32,
        wg: u32,
        d: u64,
        e_s: u64,
        e_m: u64,
    ) -> Option<Self> {
        let gp = g_parallel(1, n_simd, n_wfc, GCN_WAVEFRONT_LANES, wg);
        (gp != 0).then_some(Self {
            n_cu: 1,
            n_simd,
            n_wfc,
            lanes_per_wf: GCN_WAVEFRONT_LANES,
            grid,
            wg,
            resident: gp,
            d,
            dispatch_spread: 0,
            k: 1,
            e_s,
            e_m,
        })
    }

    /// G, the work-groups of the grid: ⌈grid / wg⌉ (0 when `wg` is 0).
    pub fn groups(&self) -> u32 {
        if self.wg == 0 {
            0
        } else {
            self.grid.div_ceil(self.wg)
        }
    }

    /// G_parallel of Eq. 4 for these inputs.
    pub fn g_parallel(&self) -> u32 {
        g_parallel(
            self.n_cu,
            self.n_simd,
            self.n_wfc,
            self.lanes_per_wf,
            self.wg,
        )
    }
}

/// Which execution model a bound is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Mode {
    /// Every divergent branch serialized (Eq. 8 with S = 0).
    NoSplit,
    /// Dynamic warp splitting, SWFs share the SIMD (Eq. 8).
    Dws,
    /// Predictable warp splitting on dedicated SpSIMDs (Eq. 6).
    Pws,
}

/// A kernel WCET bound and the intermediate quantities.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct KernelBound {
    /// The execution model.
    pub mode: Mode,
    /// S, the SWF contexts per wavefront (0 for no splitting).
    pub s: u32,
    /// G_parallel of the paper's Eq. 4.
    pub g_parallel: u32,
    /// R, the work-groups really resident at once (used for DS).
    pub resident: u32,
    /// DS = ⌈G / R⌉, the dispatch rounds.
    pub ds: u32,
    /// d_eff = d + dispatch_spread.
    pub d_eff: u64,
    /// k, the most wavefronts sharing one unit.
    pub k: u64,
    /// The IPET term: IPET(C) (no split, DWS) or IPET(C_out) (PWS).
    pub ipet: u64,
    /// The splits charged e_s + e_m: 0 (no split), S (DWS) or |SB| (PWS).
    pub n_splits: u64,
    /// E_WF of the mode (Eq. 3).
    pub e_wf: u64,
    /// One round: d_eff + k·E_WF (no split, PWS) or d_eff + k·(S+1)·E_WF (DWS).
    pub e_round: u64,
    /// E_kernel = DS·E_round.
    pub e_kernel: u64,
}

/// Why a kernel bound could not be computed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum KernelError {
    /// The work-group size is 0.
    ZeroWorkGroup,
    /// k is 0 (at least one wavefront runs on a unit).
    ZeroK,
    /// R is 0: no work-group is ever resident.
    ZeroResident,
    /// R exceeds the paper's G_parallel.
    ResidentExceedsGParallel {
        /// The caller's R.
        resident: u32,
        /// Eq. 4's G_parallel.
        g_parallel: u32,
    },
    /// A cycle count does not fit in 64 bits.
    Overflow,
    /// The wavefront analysis failed.
    Pws(PwsError),
}

impl fmt::Display for KernelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::ZeroWorkGroup => write!(f, "the work-group size is 0"),
            Self::ZeroK => write!(f, "k (wavefronts per unit) is 0"),
            Self::ZeroResident => write!(f, "no work-group is resident (R = 0)"),
            Self::ResidentExceedsGParallel {
                resident,
                g_parallel,
            } => write!(f, "R = {resident} exceeds G_parallel = {g_parallel}"),
            Self::Overflow => write!(f, "the bound overflows 64 bits"),
            Self::Pws(e) => write!(f, "wavefront analysis: {e}"),
        }
    }
}

impl std::error::Error for KernelError {}

impl From<PwsError> for KernelError {
    fn from(e: PwsError) -> Self {
        Self::Pws(e)
    }
}

/// The validated round structure shared by every mode: (G_parallel, DS, d_eff).
fn rounds(inp: &KernelInputs) -> Result<(u32, u32, u64), KernelError> {
    if inp.wg == 0 {
        return Err(KernelError::ZeroWorkGroup);
    }
    if inp.k == 0 {
        return Err(KernelError::ZeroK);
    }
    let gp = inp.g_parallel();
    if inp.resident == 0 {
        return Err(KernelError::ZeroResident);
    }
    if inp.resident > gp {
        return Err(KernelError::ResidentExceedsGParallel {
            resident: inp.resident,
            g_parallel: gp,
        });
    }
    let ds = ds(inp.groups(), inp.resident).ok_or(KernelError::ZeroResident)?;
    let d_eff = inp
        .d
        .checked_add(inp.dispatch_spread)
        .ok_or(KernelError::Overflow)?;
    Ok((gp, ds, d_eff))
}

/// Assembles a bound: E_round = d_eff + k·serial·E_WF, E_kernel = DS·E_round.
fn bound(
    inp: &KernelInputs,
    mode: Mode,
    s: u32,
    ipet: u64,
    n_splits: u64,
    serial: u64,
) -> Result<KernelBound, KernelError> {
    let (g_parallel, ds, d_eff) = rounds(inp)?;
    let split_cost = inp.e_s.checked_add(inp.e_m).ok_or(KernelError::Overflow)?;
    let e_wf = n_splits
        .checked_mul(split_cost)
        .and_then(|c| c.checked_add(ipet))
        .ok_or(KernelError::Overflow)?;
    let e_round = inp
        .k
        .checked_mul(serial)
        .and_then(|x| x.checked_mul(e_wf))
        .and_then(|x| x.checked_add(d_eff))
        .ok_or(KernelError::Overflow)?;
    let e_kernel = u64::from(ds)
        .checked_mul(e_round)
        .ok_or(KernelError::Overflow)?;
    Ok(KernelBound {
        mode,
        s,
        g_parallel,
        resident: inp.resident,
        ds,
        d_eff,
        k: inp.k,
        ipet,
        n_splits,
        e_wf,
        e_round,
        e_kernel,
    })
}

impl KernelBound {
    /// No splitting: E_WF = IPET(C), E_round = d_eff + k·E_WF.
    pub fn no_split(inp: &KernelInputs, ipet: u64) -> Result<Self, KernelError> {
        bound(inp, Mode::NoSplit, 0, ipet, 0, 1)
    }

    /// DWS (Eq. 8): E_WF^DWS = IPET(C) + S·(e_s+e_m), E_round = d_eff + k·(S+1)·E_WF^DWS.
    pub fn dws(inp: &KernelInputs, s: u32, ipet: u64) -> Result<Self, KernelError> {
        let serial = u64::from(s) + 1;
        bound(inp, Mode::Dws, s, ipet, u64::from(s), serial)
    }

    /// DWS with the split costs already in the graph: `ipet_charged` is IPET(C) with e_s+e_m
    /// added to every split branch, and E_round = d_eff + k·(S+1)·E_WF^DWS. Use this when a
    /// wavefront may split more than S times along a path: a model that splits at every
    /// divergent marked branch while fewer than S splits are live does (docs/assumptions.md#A3:
    /// S counts concurrent splits), and Eq. 8's S·(e_s+e_m) then undercounts; charging each branch,
    /// as docs/assumptions.md#A26 does for loops, bounds every path.
    pub fn dws_charged(inp: &KernelInputs, s: u32, ipet_charged: u64) -> Result<Self, KernelError> {
        let serial = u64::from(s) + 1;
        bound(inp, Mode::Dws, s, ipet_charged, 0, serial)
    }

    /// PWS (Eq. 6): E_WF^PWS = IPET(C_out) + |SB|·(e_s+e_m), E_round = d_eff + k·E_WF^PWS.
    pub fn pws(inp: &KernelInputs, s: u32, ipet_out: u64, n_sb: u64) -> Result<Self, KernelError> {
        bound(inp, Mode::Pws, s, ipet_out, n_sb, 1)
    }
}

/// No-splitting bound of C_BSB `c` (IPET(C)).
pub fn no_split_bound(inp: &KernelInputs, c: &BsbCfg) -> Result<KernelBound, KernelError> {
    KernelBound::no_split(inp, no_split_e_wf(c)?)
}

/// DWS bound of C_BSB `c` with S contexts (Eq. 8; C_out = C, |SB| = S).
pub fn dws_bound(inp: &KernelInputs, c: &BsbCfg, s: u32) -> Result<KernelBound, KernelError> {
    KernelBound::dws(inp, s, no_split_e_wf(c)?)
}

/// PWS bound of C_BSB `c` with marked branches `marked` and S contexts (SELECT, PRUNE, Eq. 3,
/// Eq. 6); also returns the wavefront analysis (its `selection.swf_count` feeds
/// [`reprovision`]).
pub fn pws_bound(
    inp: &KernelInputs,
    c: &BsbCfg,
    marked: &[BlockId],
    s: u32,
) -> Result<(KernelBound, PwsWcet), KernelError> {
    let s_usize = usize::try_from(s).map_err(|_| KernelError::Overflow)?;
    let w = analyze_pws(c, marked, s_usize, inp.e_s, inp.e_m)?;
    let n_sb = u64::try_from(w.selection.sb.len()).map_err(|_| KernelError::Overflow)?;
    let b = KernelBound::pws(inp, s, w.ipet, n_sb)?;
    Ok((b, w))
}

#[cfg(test)]
#[path = "kernel_tests.rs"]
mod tests;
