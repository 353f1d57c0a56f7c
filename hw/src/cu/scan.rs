//! The issue scan's memory of the contexts whose eligibility stands until an event.
//!
//! Every cycle each SIMD/SpSIMD asks every context of its own whether it may issue
//! ([`super::ComputeUnit::eligibility`]). Many answers cannot change from one cycle to the
//! next without an *event* (docs/assumptions.md#A112): a context that holds no wavefront, one
//! splitting or merging, one at a barrier stays so until a dispatch, a split/merge output, a
//! copy or a barrier release changes it; a context waiting for its dependency (`ready_at`),
//! for its unit's VALU (`valu_free`) or for the LDS (`lds_free`) stays so at least until that
//! cycle. [`ScanMemo`] keeps those answers per slot as bit masks and the cycles of the waiting
//! ones, and the scan evaluates afresh only the other slots (those that may issue, or wait
//! for something checked every cycle: a port, a pipe, `s_waitcnt`, an IDU), the slots an event
//! touched since ([`ScanMemo::touch`]) and the waiting slots whose cycle has come. The
//! answers it keeps are the ones a full scan would give, so the issue, the stall reasons, the
//! scheduler inputs and the naps are the same; the memory is used with idle-cycle skipping
//! and bypassed without it (`--no-skip`), so the tests that compare the two compare it too.

use super::counters::Stall;
use super::group::MAX_SLOTS;
use super::regfile::lanes;

/// A context's eligibility that stands until an event (or until a known cycle).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kept {
    /// It holds no wavefront.
    Absent,
    /// It splits, merges or waits for its merge partner.
    SplitMerge,
    /// It waits at a barrier.
    Barrier,
    /// It waits for this reason (dependency or structural) until the cycle.
    Until(Stall, u64),
}

impl Kept {
    /// The answer to keep of a scan's answer, if it stands until an event or a known cycle.
    pub(super) fn of(e: &super::Elig) -> Option<Kept> {
        use super::Elig;
        match *e {
            Elig::Absent => Some(Kept::Absent),
            Elig::No(Stall::SplitMerge) => Some(Kept::SplitMerge),
            Elig::No(Stall::Barrier) => Some(Kept::Barrier),
            Elig::Until(r, at) => Some(Kept::Until(r, at)),
            Elig::No(_) | Elig::Yes => None,
        }
    }
}

/// Per unit: the kept answers, by slot (bit `s`: slot `s`).
#[derive(Clone, Debug)]
pub struct ScanMemo {
    /// Slots an event touched since they were last evaluated.
    stale: u64,
    /// Slots that hold no wavefront.
    absent: u64,
    /// Slots splitting, merging or waiting to merge.
    split_merge: u64,
    /// Slots at a barrier.
    barrier: u64,
    /// Slots waiting for their dependency until `until[slot]`.
    dependency: u64,
    /// Slots waiting for the VALU or the LDS until `until[slot]`.
    structural: u64,
    /// The cycle each waiting slot may issue again.
    until: [u64; MAX_SLOTS],
    /// No waiting slot's cycle comes before this one (a lower bound of `until` over them).
    due: u64,
    /// The age of each slot's occupant (ages change only with the occupant, an event).
    pub ages: [u64; MAX_SLOTS],
}

/// What the kept slots add to a scan: the stall reason among them, their `present` bits (the
/// waiting ones: pure RR may wait on them), and the first cycle one of them may issue.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KeptPart {
    /// The most telling stall among the kept slots (Idle when none).
    pub reason: Stall,
    /// The kept slots that can become eligible by themselves.
    pub present: u64,
    /// No kept slot may issue before this cycle.
    pub wake: u64,
}

impl Default for ScanMemo {
    fn default() -> Self {
        Self {
            stale: u64::MAX,
            absent: 0,
            split_merge: 0,
            barrier: 0,
            dependency: 0,
            structural: 0,
            until: [0; MAX_SLOTS],
            due: u64::MAX,
            ages: [0; MAX_SLOTS],
        }
    }
}

impl ScanMemo {
    /// An event touched slot `slot`: the next scan evaluates it afresh.
    pub fn touch(&mut self, slot: usize) {
        self.stale |= 1 << slot;
    }

    /// An event touched every slot.
    pub fn touch_all(&mut self) {
        self.stale = u64::MAX;
    }

    /// The slots of `all` the scan at cycle `now` must evaluate; they leave the memory (the
    /// scan puts back what it finds with [`ScanMemo::keep`]).
    pub fn take_todo(&mut self, now: u64, all: u64) -> u64 {
        let waiting = self.dependency | self.structural;
        let mut todo =
            all & (self.stale | !(self.absent | self.split_merge | self.barrier | waiting));
        if now >= self.due {
            self.due = u64::MAX;
            for s in lanes(waiting & !todo) {
                match self.until[s] <= now {
                    true => todo |= 1 << s,
                    false => self.due = self.due.min(self.until[s]),
                }
            }
        }
        self.stale = 0;
        for m in [
            &mut self.absent,
            &mut self.split_merge,
            &mut self.barrier,
            &mut self.dependency,
            &mut self.structural,
        ] {
            *m &= !todo;
        }
        todo
    }

    /// Keeps slot `slot`'s answer `k`.
    pub fn keep(&mut self, slot: usize, k: Kept) {
        let bit = 1 << slot;
        match k {
            Kept::Absent => self.absent |= bit,
            Kept::SplitMerge => self.split_merge |= bit,
            Kept::Barrier => self.barrier |= bit,
            Kept::Until(r, at) => {
                match r {
                    Stall::Dependency => self.dependency |= bit,
                    _ => self.structural |= bit,
                }
                self.until[slot] = at;
                self.due = self.due.min(at);
            }
        }
    }

    /// What the slots kept outside `todo` add to the scan.
    pub fn kept_part(&self) -> KeptPart {
        let reason = [
            (self.structural, Stall::Structural),
            (self.dependency, Stall::Dependency),
            (self.barrier, Stall::Barrier),
            (self.split_merge, Stall::SplitMerge),
        ]
        .into_iter()
        .find(|(m, _)| *m != 0)
        .map_or(Stall::Idle, |(_, r)| r);
        KeptPart {
            reason,
            present: self.dependency | self.structural,
            wake: self.due,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A waiting slot comes back to the scan at its cycle, not before; an untouched absent
    /// slot never does; a touched one does once.
    #[test]
    fn kept_slots_return_at_their_cycle_or_when_touched() {
        let mut m = ScanMemo::default();
        assert_eq!(m.take_todo(0, 0b111), 0b111);
        m.keep(0, Kept::Absent);
        m.keep(1, Kept::Until(Stall::Dependency, 5));
        // Slot 2 may issue: evaluated every cycle.
        assert_eq!(m.take_todo(4, 0b111), 0b100);
        assert_eq!(
            m.kept_part(),
            KeptPart {
                reason: Stall::Dependency,
                present: 0b10,
                wake: 5
            }
        );
        assert_eq!(m.take_todo(5, 0b111), 0b110);
        m.touch(0);
        assert_eq!(m.take_todo(6, 0b111), 0b111);
        m.keep(0, Kept::SplitMerge);
        assert_eq!(m.kept_part().reason, Stall::SplitMerge);
        assert_eq!(m.take_todo(7, 0b111), 0b110);
    }
}
