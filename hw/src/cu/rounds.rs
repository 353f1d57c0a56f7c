//! Reordering on: the launch runs in rounds of R consecutive work-groups (R = the most the
//! compute unit holds at once, [`super::resident_wgs`]). The reordering unit is configured
//! for a round once every wavefront of it has a slot (a reset, the traces, the maps,
//! `start`), and the next round is admitted once the whole round has ended and the hierarchy
//! is idle. Each round is one "wave" of the reordering paper's miss-rate estimate, so the release
//! order is that of `release_order(.., R1 epoch-major, R)` over the traces with `k` = each
//! instance's index in its wavefront's trace (sequence-major; see [`Rounds::placed`]).

use crate::memsys::plan::{ReorderPlan, TraceEntry};
use crate::reorder::model::WarpConfig;

/// The rounds of a launch.
#[derive(Clone, Debug)]
pub struct Rounds {
    /// Every wavefront's trace.
    pub plan: ReorderPlan,
    /// Work-groups per round (R).
    size: u32,
    /// Work-groups in the launch.
    groups: u32,
    /// The current round's first work-group.
    start: u32,
    /// One past its last.
    pub end: u32,
    /// The unit has been configured for it.
    pub configured: bool,
    /// Its wavefronts placed so far.
    warps: Vec<WarpConfig>,
}

impl Rounds {
    /// Rounds of `size` work-groups over `groups`.
    pub fn new(plan: ReorderPlan, size: u32, groups: u32) -> Self {
        Rounds {
            plan,
            size: size.max(1),
            groups,
            start: 0,
            end: size.max(1).min(groups),
            configured: false,
            warps: Vec::new(),
        }
    }

    /// Wavefront `wave` (global index `global`) of work-group `wg_id` went into `slot`.
    ///
    /// The unit's key field `k` is loaded with the instance's index in its wavefront's trace
    /// (sequence-major release, docs/assumptions.md#A44), not its per-PC instance count: the
    /// release then goes round the wavefronts one instance each, instead of letting a
    /// wavefront that enters a new loop (k back to 0) run that loop alone.
    pub fn placed(&mut self, slot: usize, wg_id: u32, wave: u32, global: usize) {
        let entries = (0u16..)
            .zip(&self.plan.waves[global])
            .map(|(i, e)| TraceEntry { k: i, ..*e }.word())
            .collect();
        let block = (wg_id - self.start) as u8;
        self.warps.push((slot as u8, block, wave as u8, 0, entries));
    }

    /// The configuration of the round (its wavefronts all placed).
    pub fn take_config(&mut self) -> Vec<WarpConfig> {
        self.configured = true;
        std::mem::take(&mut self.warps)
    }

    /// The next round, if any is left.
    pub fn advance(&mut self) -> bool {
        if self.end >= self.groups {
            return false;
        }
        self.start = self.end;
        self.end = (self.end + self.size).min(self.groups);
        self.configured = false;
        true
    }
}
