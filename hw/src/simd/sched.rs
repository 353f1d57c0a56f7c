//! Sim-D's work-group scheduler: two slots, the compute resource handed between them
//! greedy-then-round-robin (GTRR), pairwise admission, and the log of every phase.
//!
//! With the phase rules on (the default of the Sim-D execution mode):
//! - **GTRR**: one slot at a time holds the compute resource and only its work-group issues
//!   (`s_endpgm` excepted: leaving needs no resource). The holder keeps it until its
//!   work-group waits for a tile transfer or ends; then it passes to the other slot if that
//!   one can run.
//! - **Pairwise**: work-groups run in pairs (2k, 2k + 1); a work-group of pair k + 1 is admitted
//!   only once every resident work-group of an earlier pair has started its final phase (its
//!   last tile transfer) or ended, so an early exit never reorders the remaining phases.
//!
//! Off ("free" scheduling, the baseline of the penalty measurement), both slots issue at once
//! and refill as soon as they are empty; tile transfers still hold the access resource one at
//! a time.

/// What a phase used.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub enum PhaseKind {
    /// The compute resource (no DRAM access).
    Compute,
    /// The access resource: one tile transfer.
    Access,
}

/// One phase of one work-group: `[start, end)` in core cycles from the launch.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Phase {
    /// Work-group id.
    pub wg: u32,
    /// Its slot.
    pub slot: usize,
    /// The resource.
    pub kind: PhaseKind,
    /// First cycle.
    pub start: u64,
    /// First cycle after it.
    pub end: u64,
}

/// One slot's state.
#[derive(Clone, Copy, Debug, Default)]
struct Slot {
    /// The resident work-group.
    wg: Option<u32>,
    /// It waits for a tile transfer.
    blocked: bool,
    /// It has started its final transfer.
    final_started: bool,
    /// The cycle its current compute phase started.
    compute_from: Option<u64>,
    /// The cycle its current access phase started.
    access_from: Option<u64>,
}

/// The scheduler of the two slots.
#[derive(Clone, Debug, Default)]
pub struct PhaseSched {
    /// The phase rules (GTRR and pairwise) are on.
    pub rules: bool,
    slots: [Slot; 2],
    owner: Option<usize>,
    /// Every phase, in the order it ended.
    pub log: Vec<Phase>,
}

impl PhaseSched {
    /// A scheduler with the phase rules on or off.
    pub fn new(rules: bool) -> Self {
        PhaseSched {
            rules,
            ..Self::default()
        }
    }

    /// Work-group `wg` may take a free slot now (pairwise rule).
    pub fn may_admit(&self, wg: u32) -> bool {
        let busy = self.slots.iter().filter(|s| s.wg.is_some()).count();
        if busy == 2 {
            return false;
        }
        !self.rules
            || self
                .slots
                .iter()
                .all(|s| s.wg.is_none_or(|w| w / 2 == wg / 2 || s.final_started))
    }

    /// The free slot a work-group would take.
    pub fn free_slot(&self) -> Option<usize> {
        self.slots.iter().position(|s| s.wg.is_none())
    }

    /// Work-group `wg` took `slot` in cycle `now`.
    pub fn admitted(&mut self, slot: usize, wg: u32, now: u64) {
        self.slots[slot] = Slot {
            wg: Some(wg),
            compute_from: (!self.rules).then_some(now),
            ..Slot::default()
        };
    }

    /// The work-group in `slot` may issue (other than `s_endpgm`).
    pub fn may_compute(&self, slot: usize) -> bool {
        !self.rules || self.owner == Some(slot)
    }

    /// Slot `s` can take the compute resource.
    fn runnable(&self, s: usize) -> bool {
        self.slots[s].wg.is_some() && !self.slots[s].blocked && !self.slots[s].final_started
    }

    /// GTRR at the start of cycle `now`: the holder keeps the resource while it can run,
    /// else the other slot takes it. Returns whether the holder changed.
    pub fn arbitrate(&mut self, now: u64) -> bool {
        if !self.rules || self.owner.is_some_and(|s| self.runnable(s)) {
            return false;
        }
        let next = self
            .owner
            .map_or([0, 1], |s| [1 - s, s])
            .into_iter()
            .find(|&s| self.runnable(s));
        let changed = next != self.owner;
        self.owner = next;
        if let Some(s) = next.filter(|_| changed) {
            self.slots[s].compute_from = Some(now);
        }
        changed
    }

    /// The work-group in `slot` ends its compute phase at `now` (a transfer or its end).
    fn end_compute(&mut self, slot: usize, now: u64) {
        let s = &mut self.slots[slot];
        if let (Some(from), Some(wg)) = (s.compute_from.take(), s.wg) {
            if now > from {
                self.log.push(Phase {
                    wg,
                    slot,
                    kind: PhaseKind::Compute,
                    start: from,
                    end: now,
                });
            }
        }
    }

    /// Every live wavefront of `slot` reached a tile transfer in cycle `now` (`last`: the
    /// work-group's final one): it waits for the access resource.
    pub fn submitted(&mut self, slot: usize, now: u64, last: bool) {
        self.end_compute(slot, now);
        let s = &mut self.slots[slot];
        s.blocked = true;
        s.final_started |= last;
    }

    /// The transfer of `slot` took the access resource in cycle `now`.
    pub fn access_started(&mut self, slot: usize, now: u64) {
        self.slots[slot].access_from = Some(now);
    }

    /// The transfer of `slot` completed in cycle `now` (its phase is `[start, now)`: the
    /// resource passes on within the cycle); the work-group is freed when it was the final one and every wavefront has ended.
    pub fn access_done(&mut self, slot: usize, now: u64, ended: bool) {
        let s = &mut self.slots[slot];
        if let (Some(from), Some(wg)) = (s.access_from.take(), s.wg) {
            self.log.push(Phase {
                wg,
                slot,
                kind: PhaseKind::Access,
                start: from,
                end: now,
            });
        }
        s.blocked = false;
        if !self.rules && !s.final_started {
            s.compute_from = Some(now + 1);
        }
        if ended {
            self.slots[slot] = Slot::default();
        }
    }

    /// Every wavefront of the work-group in `slot` ended in cycle `now`; the slot frees
    /// unless its final transfer is still in flight.
    pub fn ended(&mut self, slot: usize, now: u64) {
        self.end_compute(slot, now);
        if !self.slots[slot].blocked {
            self.slots[slot] = Slot::default();
        }
    }

    /// `slot` holds a work-group (resident or finishing its final transfer).
    pub fn occupied(&self, slot: usize) -> bool {
        self.slots[slot].wg.is_some()
    }
}
