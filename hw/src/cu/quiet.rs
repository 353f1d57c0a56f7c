//! Idle-cycle skipping: the cycles in which the compute unit provably does nothing but wait.
//!
//! A full cycle ([`super::ComputeUnit::step`]) in which nothing happened — no completion
//! retired, no split, merge or barrier release, no wavefront dispatched, no instruction issued,
//! no access completed by the memory hierarchy, every split/merge unit at rest — leaves the
//! compute unit in a state that the next cycle maps to itself, except for the quantities that
//! depend on the cycle number: a context's `ready_at`, a VALU's `valu_free`, the LDS's
//! `lds_free` (docs/assumptions.md#A104) and the completion times of the loads and stores in
//! flight. Until the earliest of those (the *horizon*), every following cycle is the same no-op: each issue unit stalls for the same reason, the
//! unit-visit rotation advances by one, and the memory hierarchy (stepped every cycle as
//! before) is the only part that moves. Such a cycle is run as a *quiet cycle*: those effects
//! are applied directly, and [`super::ComputeUnit::run`] jumps over a whole stretch at once
//! when there is no memory hierarchy to step.
//!
//! What ends a stretch early: a completion from the hierarchy (it lands in the pending queue
//! and retires at a cycle the horizon check sees), and the hierarchy becoming able to take the
//! access of a context that waits for it (checked after every quiet cycle's hierarchy step;
//! the refusals the waiting contexts would have counted are counted). What is never skipped:
//! a split/merge unit counting (SPLITTING, MERGING, MERGE_WAIT), an IDU
//! (its lane clusters run on their own clock), blocks checked in lock-step against their RTL,
//! a split/merge trace being recorded, and, with reordering on, an idle hierarchy (the next
//! round opens on it). Counters, stall reasons, memory and waveforms are identical with
//! skipping on and off (the system tests compare both).
//!
//! The same idea per issue unit, inside full cycles: a unit whose scan finds no eligible
//! context, each waiting either for a known cycle (a dependency's `ready_at`, its VALU's
//! `valu_free`, the LDS's `lds_free`) or for an event (a split/merge output, a barrier
//! release, a dispatch, a completion), *naps* until the earliest known cycle: it repeats its last stall reason and
//! scheduler inputs without scanning, and any such event in its group wakes it
//! ([`super::Group::wake`]). A wait on the memory pipe, a port, `s_waitcnt` or an IDU never
//! naps. Naps are on with skipping and off with `--no-skip`.

/// Stall reasons counted.
const STALLS: usize = super::counters::STALLS.len();

/// The quiet-cycle state of a compute unit.
#[derive(Clone, Debug)]
pub struct Quiet {
    /// Skipping allowed (on by default; off runs every cycle in full).
    pub on: bool,
    /// Something happened in the current full cycle.
    pub active: bool,
    /// Quiet cycles may run while the cycle number is below this (0: none).
    pub until: u64,
    /// The stall counts one quiet cycle adds (those of the full cycle that started it).
    pub stalls: [u64; STALLS],
    /// Issue units visited per cycle (the issue rotation's modulus).
    pub units: usize,
    /// SIMD groups (the dispatcher's rotation's modulus).
    pub groups: usize,
    /// The hierarchy's access slots of the contexts that wait for it to take an access.
    pub waiting: Vec<u8>,
    /// The refusals one quiet cycle adds (the waiting contexts asking).
    pub refusals: u64,
    /// The last cycle run was a quiet one (so the contexts are as they were before it).
    pub last: bool,
}

impl Default for Quiet {
    fn default() -> Self {
        Self {
            on: true,
            active: false,
            until: 0,
            stalls: [0; STALLS],
            units: 1,
            groups: 1,
            waiting: Vec::new(),
            refusals: 0,
            last: false,
        }
    }
}

impl Quiet {
    /// Forgets any stretch (at a launch, or when skipping is switched).
    pub fn reset(&mut self) {
        self.until = 0;
        self.active = false;
        self.last = false;
    }

    /// Cycle `now` may run as a quiet cycle, given the earliest completion in flight.
    pub fn holds(&self, now: u64, next_completion: Option<u64>) -> bool {
        now < self.until && next_completion.is_none_or(|at| at > now)
    }

    /// Ends a full cycle: a stretch starts if nothing happened (`horizon` the first cycle that
    /// must run in full, `None` if one must at once), with the stall counts the cycle added.
    pub fn close(&mut self, horizon: Option<u64>, before: &[u64; STALLS], after: &[u64; STALLS]) {
        self.until = match (self.on && !self.active, horizon) {
            (true, Some(h)) => h,
            _ => 0,
        };
        if self.until != 0 {
            for (d, (a, b)) in self.stalls.iter_mut().zip(after.iter().zip(before)) {
                *d = a - b;
            }
        }
    }

    /// Adds `n` quiet cycles' stalls to `stalls` and advances the two rotations that turn
    /// every cycle: issue's unit visits `rotate` and the dispatcher's first SIMD group `simd`.
    pub fn apply(&self, n: u64, stalls: &mut [u64; STALLS], rotate: &mut usize, simd: &mut usize) {
        for (s, d) in stalls.iter_mut().zip(&self.stalls) {
            *s += d * n;
        }
        let turn = |r: usize, m: usize| ((r as u64 + n) % m as u64) as usize;
        *rotate = turn(*rotate, self.units);
        *simd = turn(*simd, self.groups);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stretch_starts_only_after_a_cycle_without_activity() {
        let mut q = Quiet::default();
        let (before, after) = ([1, 0, 0, 0, 0, 0], [3, 0, 1, 0, 0, 0]);
        q.active = true;
        q.close(Some(10), &before, &after);
        assert!(!q.holds(5, None));
        q.active = false;
        q.close(Some(10), &before, &after);
        assert!(q.holds(5, None));
        assert!(!q.holds(10, None), "the horizon runs in full");
        assert!(!q.holds(5, Some(5)), "a completion due now runs in full");
        assert!(q.holds(5, Some(6)));
        q.on = false;
        q.close(Some(10), &before, &after);
        assert!(!q.holds(5, None), "skipping off");
    }

    #[test]
    fn quiet_cycles_repeat_the_stalls_and_rotate() {
        let mut q = Quiet {
            units: 3,
            groups: 4,
            ..Quiet::default()
        };
        q.close(Some(100), &[0; STALLS], &[2, 0, 0, 1, 0, 0]);
        let (mut stalls, mut rotate, mut simd) = ([5, 0, 0, 0, 0, 0], 1, 3);
        q.apply(4, &mut stalls, &mut rotate, &mut simd);
        assert_eq!(stalls, [13, 0, 0, 4, 0, 0]);
        assert_eq!((rotate, simd), (2, 3));
    }
}
