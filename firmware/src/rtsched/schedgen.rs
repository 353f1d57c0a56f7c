//! The GPU execution schedule generator (Section 5.3.3, Algorithm 9): the splitter's
//! sub-kernels in priority/EDF order onto compute units (temporal preemption), starved
//! applications' smallest sub-kernels into the slack of higher-priority ones.

use super::response::remaining;
use super::splitter::Request;
use super::state::{Placed, State};

/// T_avail of application `a`'s sub-kernel (Algorithm 9, lines 8–10): its absolute deadline
/// minus its estimated completion on its share from `now` (negative as 0).
fn slack(st: &State, a: usize, now: u64) -> u64 {
    let app = &st.apps[a];
    let r = remaining(&app.spec, app.progress, app.share, &st.profile, st.l_lnch);
    app.spec.abs_deadline().saturating_sub(now + r)
}

/// GetExecTime of a starved application's 1-work-group sub-kernel: E(K, 1) / |K|.
fn exec_one(st: &State, a: usize) -> u64 {
    let app = &st.apps[a];
    let k = &app.spec.kernels[app.progress.kernel];
    st.profile.e(k.kind, 1).div_ceil(u64::from(k.tbs))
}

/// Compute units application `a` may take behind lower-priority applications that hold more
/// than their share (their running sub-kernels finish first; the hardware queue waits).
fn behind_lower(st: &State, a: usize, want: usize) -> Vec<usize> {
    let order = st.by_priority();
    let rank = |x: usize| order.iter().position(|&y| y == x).unwrap_or(usize::MAX);
    let mut spare: Vec<i64> = (0..st.apps.len())
        .map(|x| i64::from(st.held(x)) - i64::from(st.apps[x].share))
        .collect();
    let mut cands: Vec<usize> = (0..st.cus.len())
        .filter(|&c| st.cus[c].len() == 1 && rank(st.cus[c][0]) > rank(a))
        .collect();
    // The lowest-priority holders give first.
    cands.sort_by_key(|&c| std::cmp::Reverse(rank(st.cus[c][0])));
    let mut out = Vec::new();
    for c in cands {
        let holder = st.cus[c][0];
        if out.len() < want && spare[holder] > 0 {
            spare[holder] -= 1;
            out.push(c);
        }
    }
    out.sort_unstable();
    out
}

/// Places `tbs` work-groups of application `a`'s current kernel: on free compute units now,
/// the rest queued behind lower-priority applications above their share; one entry each.
fn place(st: &mut State, a: usize, tbs: u32, sub: u32) -> Vec<Placed> {
    let mut free = st.free_cus();
    free.truncate(tbs as usize);
    let queued = behind_lower(st, a, tbs as usize - free.len());
    let kernel = st.apps[a].progress.kernel;
    let mut out = Vec::new();
    for cus in [free, queued].into_iter().filter(|c| !c.is_empty()) {
        let p = Placed {
            app: a,
            kernel,
            sub,
            first: st.apps[a].next_tb,
            count: cus.len() as u32,
            cus,
        };
        st.place(&p);
        out.push(p);
    }
    out
}

/// The next sub-kernel number of application `a`'s current kernel.
fn next_sub(st: &mut State, a: usize) -> u32 {
    let app = &mut st.apps[a];
    let made = &mut app.made[app.progress.kernel];
    *made += 1;
    *made - 1
}

/// Algorithm 9: the sub-kernels `reqs` placed in priority/EDF order; then, for each of them
/// in that order, the first starved sub-kernel (or the shortest) whose one work-group fits in
/// that application's slack takes a compute unit still free. (The listing launches the
/// starved sub-kernel before each k'; placing every k' first keeps a starved one from taking
/// a compute unit a later, higher-priority k' needs: docs/assumptions.md#A80.)
pub fn generate(st: &mut State, reqs: &[Request], now: u64) -> Vec<Placed> {
    let (mut starved, k1): (Vec<Request>, Vec<Request>) = reqs.iter().partition(|r| r.starved);
    let mut out = Vec::new();
    for r in &k1 {
        let sub = next_sub(st, r.app);
        out.extend(place(st, r.app, r.tbs, sub));
    }
    for r in &k1 {
        if starved.is_empty() || st.free_cus().is_empty() {
            break;
        }
        let avail = slack(st, r.app, now);
        let exec = |i: usize| exec_one(st, starved[i].app);
        let pick = match exec(0) < avail {
            true => Some(0),
            false => (0..starved.len())
                .min_by_key(|&i| exec(i))
                .filter(|&i| exec(i) < avail),
        };
        if let Some(i) = pick {
            let s = starved.remove(i);
            let sub = next_sub(st, s.app);
            out.extend(place(st, s.app, 1, sub));
        }
    }
    out
}
