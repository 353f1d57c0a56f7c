//! Predictable Warp Splitting (PWS): the compiler analysis of Section 4.2 of the PWS
//! paper and the wavefront WCET of its Section 5 (Eq. 3), on the branch-serialization CFG C_BSB.
//!
//! The flow (the PWS paper's Fig. 6): build C_BSB from a loop-free C_conv ([`cfg::Cfg::to_bsb`]),
//! run [`select::select`] (Algorithm 1) on the marked branches P with S SWF contexts, run
//! [`prune::prune`] (Algorithm 2) on SB, take IPET of C_out (on a DAG, the longest path,
//! [`longest_path`]) and `E_WF = IPET(C_out) + |SB|·(e_s + e_m)` (Eq. 3, [`e_wf`]).
//! [`analyze_pws`] runs it all; [`no_split_e_wf`] is the no-splitting E_WF (SB = ∅, C_out = C_BSB).
//!
//! ```
//! use rtgpu_wcet::pws::{analyze_pws, cfg::{Block, Cfg}, no_split_e_wf};
//!
//! // if/else: 0 → {1 (then, 5), 2 (else, 3)} → 3; BSB cost 1.
//! let conv = Cfg::new(
//!     vec![
//!         Block::divergent(1, 1, 2),
//!         Block::plain(5, vec![3]),
//!         Block::plain(3, vec![3]),
//!         Block::plain(2, vec![]),
//!     ],
//!     0,
//!     3,
//! )?;
//! let c = conv.to_bsb(|_| 1)?;
//! assert_eq!(no_split_e_wf(&c)?, 1 + 5 + 1 + 3 + 2);
//! let r = analyze_pws(&c, &[c.from_conv(0)], 1, 0, 0)?;
//! assert_eq!(r.e_wf, 1 + 5 + 1 + 2); // the else-arm (3) is pruned
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! [`kernel`] holds the kernel-level equations: re-provisioning (Eq. 2 with swfCount,
//! docs/assumptions.md#A24),
//! G_parallel (Eq. 4), DS (Eq. 5) and E_kernel for no splitting, DWS (Eq. 8) and PWS (Eq. 6).
//!
//! Not here: "Insert merge" (step 3 of the PWS paper's Fig. 6) and the GCN split/merge
//! placement (docs/assumptions.md#A14, docs/assumptions.md#A15) are in the firmware's PWS
//! pass; loops kept in the CFG (docs/assumptions.md#A26) are not supported.

pub mod cfg;
pub mod kernel;
pub mod prune;
pub mod select;

#[cfg(test)]
mod tests;

use std::fmt;

use serde::{Deserialize, Serialize};

use self::cfg::{BlockId, BsbCfg};
use self::prune::{prune, Pruned};
use self::select::{select, Selection};

/// Why the WCET could not be computed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PwsError {
    /// C_out has no path from the entry to the exit (cannot happen for a C_BSB built by
    /// [`cfg::Cfg::to_bsb`]; reported rather than assumed).
    NoPath,
}

impl fmt::Display for PwsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NoPath => write!(f, "the pruned CFG has no entry-to-exit path"),
        }
    }
}

impl std::error::Error for PwsError {}

/// IPET on a DAG: the heaviest entry-to-exit path of the graph `succs` over C_BSB's blocks
/// (block weights e_bb, ids in topological order), or `None` if the exit is unreachable.
pub fn longest_path(c: &BsbCfg, succs: &[Vec<BlockId>]) -> Option<u64> {
    let n = c.len();
    let exit = c.cfg().exit();
    let mut l: Vec<Option<u64>> = vec![None; n];
    for u in (0..n).rev() {
        let rest = if u == exit {
            Some(0)
        } else {
            succs[u].iter().filter_map(|&s| l[s]).max()
        };
        l[u] = rest.map(|r| r + c.wcet(u));
    }
    l[c.cfg().entry()]
}

/// Eq. 3: `E_WF = IPET(C_out) + |SB|·(e_s + e_m)`.
pub fn e_wf(ipet: u64, n_sb: usize, e_s: u64, e_m: u64) -> u64 {
    ipet + n_sb as u64 * (e_s + e_m)
}

/// Eq. 6 (and Eq. 8 with S = 0, no splitting): `E_kernel = DS·(d + E_WF)`.
pub fn e_kernel(ds: u64, d: u64, e_wf: u64) -> u64 {
    ds * (d + e_wf)
}

/// No-splitting E_WF: IPET(C_BSB), every divergent branch serialized.
pub fn no_split_e_wf(c: &BsbCfg) -> Result<u64, PwsError> {
    let succs: Vec<Vec<BlockId>> = (0..c.len()).map(|u| c.succs(u).to_vec()).collect();
    longest_path(c, &succs).ok_or(PwsError::NoPath)
}

/// The PWS analysis of one wavefront.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PwsWcet {
    /// SELECT's result.
    pub selection: Selection,
    /// PRUNE's result (C_out, E_r, F).
    pub pruned: Pruned,
    /// IPET(C_out), the longest path of C_out (equal to `pruned.f[entry]`).
    pub ipet: u64,
    /// E_WF^PWS (Eq. 3).
    pub e_wf: u64,
}

/// SELECT(C_BSB, S) on the marked branches `marked` (P), PRUNE, IPET and Eq. 3 with split and
/// merge costs `e_s`, `e_m`.
pub fn analyze_pws(
    c: &BsbCfg,
    marked: &[BlockId],
    s: usize,
    e_s: u64,
    e_m: u64,
) -> Result<PwsWcet, PwsError> {
    let selection = select(c, marked, s);
    let pruned = prune(c, &selection.sb);
    let ipet = longest_path(c, &pruned.succs).ok_or(PwsError::NoPath)?;
    let e_wf = e_wf(ipet, selection.sb.len(), e_s, e_m);
    Ok(PwsWcet {
        selection,
        pruned,
        ipet,
        e_wf,
    })
}
