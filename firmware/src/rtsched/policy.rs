//! The schedulers compared: the thesis' framework (workload splitter and execution schedule
//! generator) and two temporal-only baselines that give the whole GPU to one kernel at a
//! time, first-in first-out and earliest deadline first.

use super::schedgen::generate;
use super::splitter::split;
use super::state::{Placed, State};
use serde::Serialize;

/// A scheduler.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Policy {
    /// Algorithms 6 to 9: sub-kernels sized by deadline, spatial and temporal preemption.
    Ours,
    /// Whole kernels on every compute unit, the earliest-arrived application first.
    Fifo,
    /// Whole kernels on every compute unit, the earliest absolute deadline first.
    Edf,
}

impl Policy {
    /// The three, the thesis' first.
    pub const ALL: [Policy; 3] = [Policy::Ours, Policy::Fifo, Policy::Edf];

    /// "ours", "fifo" or "edf".
    pub fn name(self) -> &'static str {
        match self {
            Policy::Ours => "ours",
            Policy::Fifo => "fifo",
            Policy::Edf => "edf",
        }
    }

    /// What to place at `now`.
    pub fn decide(self, st: &mut State, now: u64) -> Vec<Placed> {
        match self {
            Policy::Ours => {
                let reqs = split(st, now);
                generate(st, &reqs, now)
            }
            Policy::Fifo => whole_kernel(st, |s, a| (s.apps[a].spec.arrival, a)),
            Policy::Edf => whole_kernel(st, |s, a| (s.apps[a].spec.abs_deadline(), a)),
        }
    }
}

/// When every compute unit is free: the current kernel of the running application first by
/// `key`, whole, on all of them (non-preemptive, one kernel on the GPU at a time).
fn whole_kernel(st: &mut State, key: impl Fn(&State, usize) -> (u64, usize)) -> Vec<Placed> {
    if st.free_cus().len() < st.cus.len() {
        return Vec::new();
    }
    let Some(a) = (0..st.apps.len())
        .filter(|&a| st.apps[a].running())
        .min_by_key(|&a| key(st, a))
    else {
        return Vec::new();
    };
    let app = &mut st.apps[a];
    let kernel = app.progress.kernel;
    app.made[kernel] += 1;
    let p = Placed {
        app: a,
        kernel,
        sub: 0,
        first: 0,
        count: app.spec.kernels[kernel].tbs,
        cus: (0..st.cus.len()).collect(),
    };
    st.place(&p);
    vec![p]
}
