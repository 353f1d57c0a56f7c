//! The host's view of the system (the thesis' application and GPU status monitors, Fig. 5.1):
//! each application's progress and resource share, and per compute unit the sub-kernels
//! placed on it and not yet completed.

use super::app::{AppSpec, Profile};
use super::response::Progress;

/// One application at run time.
#[derive(Clone, Debug)]
pub struct AppState {
    /// What arrived.
    pub spec: AppSpec,
    /// It has arrived.
    pub arrived: bool,
    /// The current kernel and its completed work-groups.
    pub progress: Progress,
    /// The current kernel's next work-group not yet placed.
    pub next_tb: u32,
    /// n_SM: the compute units it may hold (the splitter's share).
    pub share: u32,
    /// HasEnoughRes: its share meets its deadline (Eq. 5.4).
    pub enough: bool,
    /// Sub-kernels made of its kernels so far, per kernel (for their names).
    pub made: Vec<u32>,
    /// Completion time of its last kernel.
    pub finish: Option<u64>,
}

impl AppState {
    /// An application not yet arrived.
    pub fn new(spec: AppSpec) -> Self {
        let made = vec![0; spec.kernels.len()];
        Self {
            spec,
            arrived: false,
            progress: Progress {
                kernel: 0,
                done_tbs: 0,
            },
            next_tb: 0,
            share: 0,
            enough: false,
            made,
            finish: None,
        }
    }

    /// Arrived and not finished.
    pub fn running(&self) -> bool {
        self.arrived && self.finish.is_none()
    }

    /// Work-groups of the current kernel not yet placed.
    pub fn tbs_left(&self) -> u32 {
        let k = self.spec.kernels.get(self.progress.kernel);
        k.map_or(0, |k| k.tbs - self.next_tb)
    }
}

/// A placed sub-kernel part: work-groups `first .. first + count` of one application's kernel
/// on `cus` (one hardware queue entry).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Placed {
    /// The application.
    pub app: usize,
    /// Its kernel.
    pub kernel: usize,
    /// The sub-kernel it belongs to (k'_n of the kernel: n); a sub-kernel placed partly on
    /// free compute units and partly behind running ones is two entries with one number.
    pub sub: u32,
    /// First work-group.
    pub first: u32,
    /// Work-groups.
    pub count: u32,
    /// Compute units (one work-group each, docs/assumptions.md#A80).
    pub cus: Vec<usize>,
}

/// Everything the policies decide from.
#[derive(Clone, Debug)]
pub struct State {
    /// Every application (arrived or not).
    pub apps: Vec<AppState>,
    /// Per compute unit, the applications of the entries placed on it and not yet completed,
    /// oldest first.
    pub cus: Vec<Vec<usize>>,
    /// E(K, n).
    pub profile: Profile,
    /// L_lnch (cycles) in Eq. 5.6.
    pub l_lnch: u64,
}

impl State {
    /// Compute units holding no entry.
    pub fn free_cus(&self) -> Vec<usize> {
        (0..self.cus.len())
            .filter(|&c| self.cus[c].is_empty())
            .collect()
    }

    /// Compute units with an entry of application `a` (running or waiting).
    pub fn held(&self, a: usize) -> u32 {
        self.cus.iter().filter(|q| q.contains(&a)).count() as u32
    }

    /// Running applications by priority, then earliest absolute deadline, then index
    /// (PrioritySort with the EDF tie-break).
    pub fn by_priority(&self) -> Vec<usize> {
        let mut order: Vec<usize> = (0..self.apps.len())
            .filter(|&a| self.apps[a].running())
            .collect();
        order.sort_by_key(|&a| {
            let s = &self.apps[a].spec;
            (s.priority, s.abs_deadline(), a)
        });
        order
    }

    /// Records the placement of `p` (its compute units take the entry).
    pub fn place(&mut self, p: &Placed) {
        for &c in &p.cus {
            self.cus[c].push(p.app);
        }
        let app = &mut self.apps[p.app];
        app.next_tb = app.next_tb.max(p.first + p.count);
    }

    /// Records the completion of `p` at `now`: its compute units drop the entry, its
    /// application counts the work-groups and moves to its next kernel (or finishes) when the
    /// current one is complete. Returns whether the application finished.
    pub fn complete(&mut self, p: &Placed, now: u64) -> bool {
        for &c in &p.cus {
            if let Some(i) = self.cus[c].iter().position(|&a| a == p.app) {
                self.cus[c].remove(i);
            }
        }
        let app = &mut self.apps[p.app];
        app.progress.done_tbs += p.count;
        if app.progress.done_tbs < app.spec.kernels[p.kernel].tbs {
            return false;
        }
        app.progress = Progress {
            kernel: p.kernel + 1,
            done_tbs: 0,
        };
        app.next_tb = 0;
        if app.progress.kernel == app.spec.kernels.len() {
            app.finish = Some(now);
            return true;
        }
        false
    }
}
