//! The response-time estimate of the workload splitter (Section 5.3.2, Eqs. 5.4 to 5.7):
//! the remaining time of an application on n compute units, and the smallest n that meets
//! its deadline.

use super::app::{AppSpec, Profile};

/// Where an application stands: S(A_i) = ⟨n_tb(i,k), n_r(i)⟩ with the current kernel's index.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Progress {
    /// k: the current kernel.
    pub kernel: usize,
    /// n_tb(i,k): its work-groups completed.
    pub done_tbs: u32,
}

/// R(A_i, n) = R_c + R_r (Eq. 5.7) in cycles: Eq. 5.5, the current kernel's unprocessed
/// share of E(K, n), plus Eq. 5.6, launch overhead and E(K, n) of every later kernel. Eq. 5.6
/// is summed over the kernels after the current one, k + 1 … N_k − 1 (the thesis writes the
/// lower bound as the count n_r(i); docs/works/thesis.md#eq-5-6).
pub fn remaining(app: &AppSpec, p: Progress, n: u32, prof: &Profile, l_lnch: u64) -> u64 {
    let Some(cur) = app.kernels.get(p.kernel) else {
        return 0;
    };
    let left = u64::from(cur.tbs.saturating_sub(p.done_tbs));
    let r_c = (left * prof.e(cur.kind, n)).div_ceil(u64::from(cur.tbs.max(1)));
    let r_r: u64 = app.kernels[p.kernel + 1..]
        .iter()
        .map(|k| l_lnch + prof.e(k.kind, n))
        .sum();
    r_c + r_r
}

/// The smallest n in 1..=N with T_dead − T_curr ≥ R(A, n) (Eq. 5.4), or `None` if even N
/// compute units miss the deadline.
pub fn smallest_n(
    app: &AppSpec,
    p: Progress,
    now: u64,
    prof: &Profile,
    l_lnch: u64,
) -> Option<u32> {
    let avail = app.abs_deadline().checked_sub(now)?;
    (1..=prof.n_tot()).find(|&n| remaining(app, p, n, prof, l_lnch) <= avail)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rtsched::fig54;

    /// Fig. 5.4 in milliseconds: High needs 3 SMs at 1 ms (2 give 8 ms for A + B, past its
    /// 5 ms window), Mid needs 3 at 0 ms (C + D + E = 2 + 2 + 3 = 7 ≤ 8). With the thesis'
    /// lower bound n_r(i) = 2 remaining kernels, Eq. 5.6 would count only E for Mid at 0 ms
    /// (5 ms on 3 SMs): the mutation the index fix rules out.
    #[test]
    fn fig_5_4_needs_three_compute_units() {
        let (apps, prof) = fig54::ideal();
        let start = Progress {
            kernel: 0,
            done_tbs: 0,
        };
        let high = &apps[0];
        assert_eq!(remaining(high, start, 3, &prof, 0), 4);
        assert_eq!(remaining(high, start, 2, &prof, 0), 8);
        assert_eq!(smallest_n(high, start, 1, &prof, 0), Some(3));
        let mid = &apps[1];
        assert_eq!(remaining(mid, start, 3, &prof, 0), 7);
        assert_eq!(smallest_n(mid, start, 0, &prof, 0), Some(3));
        // Eq. 5.5: two of D's four 1 ms TBs done, on 3 SMs E(D, 3) = 2: 1 ms left, then E.
        let mid_d = Progress {
            kernel: 1,
            done_tbs: 2,
        };
        assert_eq!(remaining(mid, mid_d, 3, &prof, 0), 1 + 3);
        // Low alone at 6 ms: F's 5 TBs on 4 SMs take 4 ms, its deadline is 3 ms away.
        assert_eq!(smallest_n(&apps[2], start, 6, &prof, 0), None);
    }
}
