//! The paper's WCET estimator: Eq. (1)–(2) (their subscripts were lost in the text we
//! have; reconstructed in docs/works/reorder.md#eq-1) and the global-memory latency of Eq.
//! (3)–(4) (Section IV-B), with our `with_hit` variant (Eq. (4) drops the hit latency) and our
//! safe per-(warp, PC) variant.
//!
//! Eq. (1)–(2), round-robin issue at segment granularity over N warps of S segments each:
//!
//! ```text
//! T[0][0] = 0
//! T[i][0] = T[i-1][0] + LI[i-1][0]                                   i = 1..N-1   (1)
//! for j = 1..S-1, for i = 0..N-1:
//!   prev = i > 0 ? T[i-1][j] + LI[i-1][j] : T[N-1][j-1] + LI[N-1][j-1]
//!   T[i][j] = max(prev, T[i][j-1] + LI[i][j-1] + LE[i][j-1])                          (2)
//! WCET = max_i T[i][S-1] + LI[i][S-1] + LE[i][S-1]
//! ```
//!
//! Eq. (3)/(4): `L = COAL_max + MR · (L_base + COAL_max · N_ConflictSM)`, with `MR = 1` for
//! Eq. (3) (no L1D information).

use std::collections::HashMap;
use std::fmt;

use serde::{Deserialize, Serialize};

use super::analyzer::Analysis;
use super::estimator::Estimate;
use super::order::{check_permutation, OrderError, Released};

/// Why an equation could not be evaluated.
#[derive(Clone, Debug, PartialEq)]
pub enum WcetError {
    /// `li`/`le` are not both N × S with the same S for every warp.
    Shape {
        /// What is wrong.
        message: String,
    },
    /// A sum does not fit 64 bits.
    Overflow,
    /// `COAL` is outside 1..=32 (a warp instruction coalesces into 1 to 32 lines).
    BadCoal {
        /// The value given.
        coal: u32,
    },
    /// A miss rate outside [0, 1] or not a number.
    BadMissRate {
        /// The value given.
        mr: f64,
    },
    /// More missing lines than lines.
    BadMisses {
        /// Missing lines.
        misses: u32,
        /// Lines.
        coal: u32,
    },
    /// The estimate does not belong to the order, or the order to the analysis.
    Mismatch(OrderError),
}

impl fmt::Display for WcetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Shape { message } => write!(f, "bad segment table: {message}"),
            Self::Overflow => write!(f, "a segment time overflows 64 bits"),
            Self::BadCoal { coal } => write!(f, "COAL = {coal}; it must be 1..=32"),
            Self::BadMissRate { mr } => write!(f, "miss rate {mr} is not in [0, 1]"),
            Self::BadMisses { misses, coal } => {
                write!(f, "{misses} missing lines out of {coal} lines")
            }
            Self::Mismatch(e) => write!(f, "estimate and order do not match: {e}"),
        }
    }
}

impl std::error::Error for WcetError {}

fn shape_err(message: String) -> WcetError {
    WcetError::Shape { message }
}

/// (N, S) of the tables, checked: same N, every row of both of length S.
fn shape(li: &[Vec<u64>], le: &[Vec<u64>]) -> Result<(usize, usize), WcetError> {
    if li.len() != le.len() {
        return Err(shape_err(format!(
            "{} LI rows but {} LE rows",
            li.len(),
            le.len()
        )));
    }
    let s = li.first().map_or(0, Vec::len);
    for (i, (a, b)) in li.iter().zip(le).enumerate() {
        if a.len() != s || b.len() != s {
            return Err(shape_err(format!(
                "warp {i} has {} LI and {} LE segments; warp 0 has {s}",
                a.len(),
                b.len()
            )));
        }
    }
    Ok((li.len(), s))
}

fn add(a: u64, b: u64) -> Result<u64, WcetError> {
    a.checked_add(b).ok_or(WcetError::Overflow)
}

/// `T[i][j]`, the cycle segment j of warp i can start issuing (Eq. (1)–(2)). `li[i][j]` is the
/// segment's issue latency, `le[i][j]` its execution latency; every warp has the same number of
/// segments.
pub fn segment_starts(li: &[Vec<u64>], le: &[Vec<u64>]) -> Result<Vec<Vec<u64>>, WcetError> {
    let (n, s) = shape(li, le)?;
    let mut t = vec![vec![0u64; s]; n];
    if s == 0 {
        return Ok(t);
    }
    for i in 1..n {
        t[i][0] = add(t[i - 1][0], li[i - 1][0])?;
    }
    for j in 1..s {
        for i in 0..n {
            let prev = if i > 0 {
                add(t[i - 1][j], li[i - 1][j])?
            } else {
                add(t[n - 1][j - 1], li[n - 1][j - 1])?
            };
            let dep = add(add(t[i][j - 1], li[i][j - 1])?, le[i][j - 1])?;
            t[i][j] = prev.max(dep);
        }
    }
    Ok(t)
}

/// The kernel WCET: the end of the last segment, `max_i T[i][S−1] + LI[i][S−1] + LE[i][S−1]`
/// (0 with no warp or no segment).
pub fn wcet(li: &[Vec<u64>], le: &[Vec<u64>]) -> Result<u64, WcetError> {
    let t = segment_starts(li, le)?;
    let mut best = 0;
    for (i, row) in t.iter().enumerate() {
        if let Some(j) = row.len().checked_sub(1) {
            best = best.max(add(add(row[j], li[i][j])?, le[i][j])?);
        }
    }
    Ok(best)
}

/// How Eq. (4) charges an L1D hit (the paper's form drops the hit latency).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum LatencyMode {
    /// The paper's form: `COAL_max + MR · (L_base + COAL_max · N_ConflictSM)`.
    Paper,
    /// Also charges the hit latency: `COAL_max + L_hit + MR · (…)`.
    WithHit {
        /// The L1D hit latency in cycles.
        l_hit: u64,
    },
}

fn check_coal(coal: u32) -> Result<(), WcetError> {
    if (1..=32).contains(&coal) {
        Ok(())
    } else {
        Err(WcetError::BadCoal { coal })
    }
}

/// Eq. (3) (`mr = None`, no L1D information, the same as `MR = 1`) or Eq. (4) (`mr = Some(MR)`)
/// in `mode`.
pub fn global_latency_mode(
    mode: LatencyMode,
    coal_max: u32,
    l_base: u64,
    n_conflict: u32,
    mr: Option<f64>,
) -> Result<f64, WcetError> {
    check_coal(coal_max)?;
    let mr = mr.unwrap_or(1.0);
    if !(0.0..=1.0).contains(&mr) {
        return Err(WcetError::BadMissRate { mr });
    }
    let coal = f64::from(coal_max);
    let hit = match mode {
        LatencyMode::Paper => 0.0,
        LatencyMode::WithHit { l_hit } => l_hit as f64,
    };
    Ok(coal + hit + mr * (l_base as f64 + coal * f64::from(n_conflict)))
}

/// Eq. (3)/(4) in the paper's form ([`LatencyMode::Paper`]).
pub fn global_latency(
    coal_max: u32,
    l_base: u64,
    n_conflict: u32,
    mr: Option<f64>,
) -> Result<f64, WcetError> {
    global_latency_mode(LatencyMode::Paper, coal_max, l_base, n_conflict, mr)
}

/// Eq. (3)/(4) with the hit latency charged ([`LatencyMode::WithHit`]).
pub fn global_latency_with_hit(
    coal_max: u32,
    l_hit: u64,
    l_base: u64,
    n_conflict: u32,
    mr: Option<f64>,
) -> Result<f64, WcetError> {
    global_latency_mode(
        LatencyMode::WithHit { l_hit },
        coal_max,
        l_base,
        n_conflict,
        mr,
    )
}

/// The safe per-instruction latency (ours; the paper applies the kernel-average miss rate
/// to every instruction):
/// `L_i = COAL_i + (m_i > 0 ? L_base + m_i · N_ConflictSM : 0)`, where `m_i ≤ COAL_i` is the
/// instruction's worst number of missing lines.
pub fn safe_latency(
    coal: u32,
    misses: u32,
    l_base: u64,
    n_conflict: u32,
) -> Result<u64, WcetError> {
    check_coal(coal)?;
    if misses > coal {
        return Err(WcetError::BadMisses { misses, coal });
    }
    if misses == 0 {
        return Ok(u64::from(coal));
    }
    let conflict = u64::from(misses) * u64::from(n_conflict);
    add(add(u64::from(coal), l_base)?, conflict)
}

/// The worst case of one static ld/st over a set of instances.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Worst {
    /// The most lines of one instance (`COAL_i`).
    pub coal: u32,
    /// The most missing lines of one instance (`m_i`).
    pub misses: u32,
}

/// Per (block, warp, pc_idx): the worst lines and missing lines over that warp's instances of
/// the PC, from the estimate of `order`.
pub fn worst_per_warp_pc(
    a: &Analysis,
    order: &[Released],
    est: &Estimate,
) -> Result<HashMap<(u32, u32, u8), Worst>, WcetError> {
    let accesses = check_permutation(a, order).map_err(WcetError::Mismatch)?;
    if est.per_access.len() != accesses.len() {
        return Err(WcetError::Mismatch(OrderError::NotAPermutation {
            position: est.per_access.len().min(accesses.len()),
            reason: format!(
                "the estimate has {} instances, the order {}",
                est.per_access.len(),
                accesses.len()
            ),
        }));
    }
    let mut out: HashMap<(u32, u32, u8), Worst> = HashMap::new();
    for ((r, acc), &m) in order.iter().zip(accesses).zip(&est.per_access) {
        let w = out.entry((r.block, r.warp, acc.pc_idx)).or_default();
        w.coal = w.coal.max(acc.lines.len() as u32);
        w.misses = w.misses.max(m);
    }
    Ok(out)
}

/// Per `pc_idx`: the worst over every warp and instance (`COAL_i`, `m_i` of the safe
/// variant). PCs no warp
/// executes get zeros.
pub fn worst_per_pc(
    a: &Analysis,
    order: &[Released],
    est: &Estimate,
) -> Result<Vec<Worst>, WcetError> {
    let mut out = vec![Worst::default(); a.ldst_pcs.len()];
    for ((_, _, p), w) in worst_per_warp_pc(a, order, est)? {
        if let Some(o) = out.get_mut(usize::from(p)) {
            o.coal = o.coal.max(w.coal);
            o.misses = o.misses.max(w.misses);
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table(n: usize, s: usize, v: u64) -> Vec<Vec<u64>> {
        vec![vec![v; s]; n]
    }

    #[test]
    fn check_vector_42_dependency_dominates() {
        let (li, le) = (table(4, 3, 2), table(4, 3, 10));
        let t = segment_starts(&li, &le).unwrap();
        assert_eq!(
            t,
            vec![
                vec![0, 12, 24],
                vec![2, 14, 26],
                vec![4, 16, 28],
                vec![6, 18, 30]
            ]
        );
        assert_eq!(wcet(&li, &le), Ok(42));
    }

    #[test]
    fn check_vector_40_round_robin_dominates() {
        let (li, le) = (table(4, 3, 3), table(4, 3, 4));
        let t = segment_starts(&li, &le).unwrap();
        assert_eq!(
            t,
            vec![
                vec![0, 12, 24],
                vec![3, 15, 27],
                vec![6, 18, 30],
                vec![9, 21, 33]
            ]
        );
        assert_eq!(wcet(&li, &le), Ok(40));
    }

    #[test]
    fn segment_errors_and_edges() {
        assert_eq!(wcet(&[], &[]), Ok(0));
        assert_eq!(wcet(&table(2, 0, 0), &table(2, 0, 0)), Ok(0));
        assert_eq!(wcet(&[vec![5]], &[vec![7]]), Ok(12));
        assert!(matches!(
            wcet(&table(2, 3, 1), &table(3, 3, 1)),
            Err(WcetError::Shape { .. })
        ));
        assert!(matches!(
            wcet(&[vec![1, 1], vec![1]], &table(2, 2, 1)),
            Err(WcetError::Shape { .. })
        ));
        assert_eq!(
            wcet(&[vec![u64::MAX]], &[vec![1]]),
            Err(WcetError::Overflow)
        );
    }

    #[test]
    fn eq4_with_mr_1_is_eq3_and_variants() {
        for coal in [1, 4, 32] {
            for (l_base, n) in [(0, 0), (200, 15), (400, 1)] {
                let eq3 = global_latency(coal, l_base, n, None).unwrap();
                assert_eq!(global_latency(coal, l_base, n, Some(1.0)).unwrap(), eq3);
                assert_eq!(eq3, f64::from(coal) + l_base as f64 + f64::from(coal * n));
                assert_eq!(
                    global_latency(coal, l_base, n, Some(0.0)).unwrap(),
                    f64::from(coal)
                );
                let h = global_latency_with_hit(coal, 3, l_base, n, Some(0.25)).unwrap();
                assert_eq!(
                    h,
                    global_latency(coal, l_base, n, Some(0.25)).unwrap() + 3.0
                );
            }
        }
        assert_eq!(
            global_latency(4, 200, 15, Some(0.5)),
            Ok(4.0 + 0.5 * (200.0 + 60.0))
        );
        assert!(matches!(
            global_latency(0, 1, 1, None),
            Err(WcetError::BadCoal { coal: 0 })
        ));
        assert!(matches!(
            global_latency(33, 1, 1, None),
            Err(WcetError::BadCoal { .. })
        ));
        assert!(matches!(
            global_latency(1, 1, 1, Some(1.5)),
            Err(WcetError::BadMissRate { .. })
        ));
        assert!(matches!(
            global_latency(1, 1, 1, Some(f64::NAN)),
            Err(WcetError::BadMissRate { .. })
        ));
    }

    #[test]
    fn safe_latency_formula() {
        assert_eq!(safe_latency(4, 0, 200, 15), Ok(4));
        assert_eq!(safe_latency(4, 2, 200, 15), Ok(4 + 200 + 30));
        assert_eq!(
            safe_latency(4, 5, 200, 15),
            Err(WcetError::BadMisses { misses: 5, coal: 4 })
        );
        assert_eq!(safe_latency(4, 4, u64::MAX, 1), Err(WcetError::Overflow));
    }
}
