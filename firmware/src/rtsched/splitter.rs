//! The workload splitter (Section 5.3.2; Algorithms 6, 7 and 8): per running application the
//! share n_SM of compute units that meets its deadline (Eq. 5.4), dealt in priority order with
//! the EDF tie-break, and the sub-kernels those shares call for (spatial preemption).

use super::response::smallest_n;
use super::state::State;

/// A sub-kernel the splitter asks for: `tbs` work-groups of application `app`'s current
/// kernel, one per compute unit; `starved`: the application has no share and the sub-kernel
/// is the smallest one (1 work-group, SplitSmallestKernel).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Request {
    /// The application.
    pub app: usize,
    /// Work-groups.
    pub tbs: u32,
    /// From an application without a share.
    pub starved: bool,
}

/// The compute units application `a` can use now: those it holds plus one per work-group of
/// its current kernel not yet placed (docs/assumptions.md#A80).
fn usable(st: &State, a: usize) -> u32 {
    st.held(a) + st.apps[a].tbs_left()
}

/// GetNewResource: the smallest share meeting Eq. 5.4 (N when none does), at most what the
/// application can use; and whether the deadline is met with it.
fn new_resource(st: &State, a: usize, now: u64) -> (u32, bool) {
    let app = &st.apps[a];
    let n = smallest_n(&app.spec, app.progress, now, &st.profile, st.l_lnch);
    let need = n.unwrap_or(st.cus.len() as u32);
    (need.min(usable(st, a)), n.is_some())
}

/// Algorithm 8 (CreateReallocList): in priority/EDF order, the applications before the
/// first one without enough resources keep their shares; that one and every later one go on
/// the list. Returns the list and the compute units to deal: all those not kept (the
/// returned shares and the idle ones).
pub fn realloc_list(st: &State) -> (Vec<usize>, u32) {
    let order = st.by_priority();
    let cut = order
        .iter()
        .position(|&a| !st.apps[a].enough)
        .unwrap_or(order.len());
    let kept: u32 = order[..cut].iter().map(|&a| st.apps[a].share).sum();
    let pool = (st.cus.len() as u32).saturating_sub(kept);
    (order[cut..].to_vec(), pool)
}

/// Algorithm 7 (ResRealloc): deals the pool down the list; an application gets what it needs
/// while the pool lasts, the one where it runs out gets the rest, later ones none (starved).
/// HasEnoughRes is set here only: an application kept by Algorithm 8 keeps its share and its
/// flag until it finishes (docs/assumptions.md#A80).
pub fn realloc(st: &mut State, now: u64) {
    let (list, mut pool) = realloc_list(st);
    for a in list {
        let (req, meets) = new_resource(st, a, now);
        let app = &mut st.apps[a];
        app.share = req.min(pool);
        app.enough = meets && pool >= req;
        pool -= app.share;
    }
}

/// Algorithm 6 (SplitKernel): reallocates, then per running application with work-groups
/// left asks for a sub-kernel of its share minus what it holds, or (no share, nothing held)
/// the smallest sub-kernel.
pub fn split(st: &mut State, now: u64) -> Vec<Request> {
    realloc(st, now);
    let mut out = Vec::new();
    for a in st.by_priority() {
        let (left, held, share) = (st.apps[a].tbs_left(), st.held(a), st.apps[a].share);
        if left == 0 {
            continue;
        }
        if share == 0 && held == 0 {
            out.push(Request {
                app: a,
                tbs: 1,
                starved: true,
            });
        } else if share > held {
            let tbs = (share - held).min(left);
            out.push(Request {
                app: a,
                tbs,
                starved: false,
            });
        }
    }
    out
}
