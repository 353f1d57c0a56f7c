//! The behavioural scheduler: the grant decision of GTO or LRR as Accel-Sim
//! defines them (one eligible warp per cycle, work-conserving), or of pure round-robin (the
//! reordering paper's baseline, which is not work-conserving),
//! behind a trait so that an RTL scheduler driven through a harness can replace it. The SM
//! issue model (`rtgpu-testbench`) and the compute unit ([`crate::cu`]) use it; it was written
//! from Accel-Sim's definitions without [`super::WarpScheduler`], which the testbench checks
//! against it.

/// The most warps an eligible mask can name.
pub const MAX_WARPS: usize = 64;

/// A warp scheduler: one grant decision per cycle.
pub trait Scheduler {
    /// Called once per cycle with the eligible mask (bit w = warp w eligible); returns the granted
    /// warp or None.
    /// Must grant iff eligible != 0 (work-conserving) — the simulator checks this and reports a
    /// violation.
    fn grant(&mut self, eligible: u64) -> Option<usize>;
}

/// The policies: Accel-Sim's `order_lrr` / `order_by_priority`, and pure round-robin.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Policy {
    /// Loose round-robin: the priority list starts at `last_issued + 1` (slot 0 before any
    /// issue) and wraps; not-eligible warps are skipped.
    Lrr,
    /// Greedy-then-oldest: the last-issued warp if it is eligible, else the oldest eligible
    /// warp (the lowest index under [`Scheduler::grant`], the smallest (age, index) under
    /// [`PolicyScheduler::grant_by_age`]), which becomes the new greedy warp.
    Gto,
    /// Pure round-robin (the reordering paper's baseline): the current warp is the first
    /// *present* warp in the order `last_issued + 1`, … (slot 0 before any issue), wrapping;
    /// it is granted when it is eligible, and otherwise **nothing is granted** — the scheduler
    /// "does not move to the next warp until one instruction is issued for the current
    /// warp", even when other warps are ready. A present warp is one that can become
    /// eligible by itself (the compute unit: a live context that is not waiting at a barrier,
    /// for a split/merge, or for the reordering unit, docs/assumptions.md#A57), given by the `present` mask ([`PolicyScheduler::grant_rr`]);
    /// an eligible warp always counts as present. Not work-conserving.
    Rr,
}

impl Policy {
    /// Every policy.
    pub const ALL: [Policy; 3] = [Policy::Gto, Policy::Lrr, Policy::Rr];

    /// `"lrr"`, `"gto"` or `"rr"`.
    pub fn name(self) -> &'static str {
        match self {
            Policy::Lrr => "lrr",
            Policy::Gto => "gto",
            Policy::Rr => "rr",
        }
    }
}

impl std::fmt::Display for Policy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// The behavioural GTO/LRR/pure-RR scheduler, supervising warps `0..warps`.
///
/// Its only state is the last-issued warp, updated **only when it grants** (Accel-Sim's
/// `m_last_supervised_issued`); it starts empty: LRR then starts at slot 0 and GTO takes
/// the oldest eligible warp. Eligible bits at or above `warps` are ignored (they are not
/// supervised), so a mask with only such bits gets no grant — which the simulator reports.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PolicyScheduler {
    policy: Policy,
    warps: usize,
    last: Option<usize>,
}

impl PolicyScheduler {
    /// A scheduler with `policy` over warps `0..warps` (`warps` is capped at [`MAX_WARPS`]).
    pub fn new(policy: Policy, warps: usize) -> Self {
        Self {
            policy,
            warps: warps.min(MAX_WARPS),
            last: None,
        }
    }

    /// The policy.
    pub fn policy(&self) -> Policy {
        self.policy
    }

    /// The last granted warp (LRR's and RR's pointer is this + 1; GTO's greedy warp is this).
    pub fn last_issued(&self) -> Option<usize> {
        self.last
    }

    /// The mask of supervised warps.
    fn supervised(&self) -> u64 {
        if self.warps >= MAX_WARPS {
            u64::MAX
        } else {
            (1u64 << self.warps) - 1
        }
    }
}

impl Scheduler for PolicyScheduler {
    /// GTO and LRR: [`PolicyScheduler::grant_by_age`] with `age(w) = w`. Pure RR sees no
    /// `present` mask here, only the eligible warps (present = eligible), and so behaves as
    /// LRR: use [`PolicyScheduler::grant_rr`] for it.
    fn grant(&mut self, eligible: u64) -> Option<usize> {
        self.grant_by_age(eligible, |w| w as u64)
    }
}

impl PolicyScheduler {
    /// [`Scheduler::grant`] where GTO's "oldest" is the eligible warp with the smallest
    /// `age(w)` (ties: the lowest index) instead of the lowest index; LRR ignores ages. With
    /// `age(w) = w` it is `grant`. The compute unit uses it with its wavefronts' dispatch
    /// order, since a slot's index says nothing about its occupant's age.
    pub fn grant_by_age(&mut self, eligible: u64, age: impl Fn(usize) -> u64) -> Option<usize> {
        self.grant_rr(eligible, eligible, age)
    }

    /// [`PolicyScheduler::grant_by_age`] with the mask of present warps (bit w: warp w can
    /// become eligible by itself), which pure RR rotates over; GTO and LRR ignore it.
    pub fn grant_rr(
        &mut self,
        eligible: u64,
        present: u64,
        age: impl Fn(usize) -> u64,
    ) -> Option<usize> {
        let pick = self.pick(self.policy, eligible, present, age);
        if pick.is_some() {
            self.last = pick;
        }
        pick
    }

    /// The first warp of `mask` from slot last + 1 on (slot 0 before any grant), wrapping.
    /// (`mask` holds supervised warps only: the first set bit at or above the start, else the
    /// first set bit.)
    fn next_after_last(&self, mask: u64) -> Option<usize> {
        let start = self.last.map_or(0, |l| (l + 1) % self.warps);
        let from_start = mask & (u64::MAX << start);
        let m = if from_start != 0 { from_start } else { mask };
        (m != 0).then(|| m.trailing_zeros() as usize)
    }

    /// The warp `policy` grants among `eligible` (pure RR: if it is the current one of
    /// `present | eligible`); no state change.
    fn pick(
        &self,
        policy: Policy,
        eligible: u64,
        present: u64,
        age: impl Fn(usize) -> u64,
    ) -> Option<usize> {
        let eligible = eligible & self.supervised();
        if eligible == 0 {
            return None;
        }
        match policy {
            Policy::Lrr => self.next_after_last(eligible),
            Policy::Rr => self
                .next_after_last((present & self.supervised()) | eligible)
                .filter(|&w| eligible >> w & 1 == 1),
            Policy::Gto => match self.last {
                Some(l) if eligible >> l & 1 == 1 => Some(l),
                _ => oldest(eligible, age),
            },
        }
    }
}

/// The warp of the non-empty `mask` with the smallest (age, index).
fn oldest(mut mask: u64, age: impl Fn(usize) -> u64) -> Option<usize> {
    let mut best: Option<(u64, usize)> = None;
    while mask != 0 {
        let w = mask.trailing_zeros() as usize;
        mask &= mask - 1;
        let a = age(w);
        if best.is_none_or(|(b, _)| a < b) {
            best = Some((a, w));
        }
    }
    best.map(|(_, w)| w)
}

/// The scheduler block's inputs of one cycle (the ports of [`super::WarpScheduler`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SchedIn {
    /// Synchronous reset: forget the last granted warp.
    pub reset: bool,
    /// Policy: GTO (else LRR), when `rr` is clear.
    pub gto: bool,
    /// Policy: pure round-robin (`gto` is then ignored).
    pub rr: bool,
    /// Bit w: warp w may issue this cycle.
    pub eligible: u64,
    /// Bit w: warp w is present (pure RR's rotation: it can become eligible by itself).
    pub present: u64,
    /// Age rank of warp w (0 the oldest; GTO's fallback takes the smallest (age, w)).
    pub age: [u8; MAX_WARPS],
}

impl Default for SchedIn {
    fn default() -> Self {
        SchedIn {
            reset: false,
            gto: false,
            rr: false,
            eligible: 0,
            present: 0,
            age: [0; MAX_WARPS],
        }
    }
}

/// The scheduler block's outputs of one cycle.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SchedOut {
    /// A warp is granted (GTO, LRR: exactly when a supervised warp is eligible; pure RR:
    /// when the current warp is).
    pub grant_valid: bool,
    /// The granted warp (0 when none).
    pub grant: u8,
    /// The last granted warp.
    pub last: u8,
    /// Some warp has been granted since reset.
    pub last_valid: bool,
}

crate::ports!(SchedIn {
    reset,
    gto,
    rr,
    eligible,
    present,
    age
});
crate::ports!(SchedOut {
    grant_valid,
    grant,
    last,
    last_valid
});

impl SchedIn {
    /// The policy the `rr` and `gto` ports select.
    pub fn policy(&self) -> Policy {
        match (self.rr, self.gto) {
            (true, _) => Policy::Rr,
            (false, true) => Policy::Gto,
            (false, false) => Policy::Lrr,
        }
    }

    /// Sets the `rr` and `gto` ports to select `policy`.
    pub fn set_policy(&mut self, policy: Policy) {
        self.rr = policy == Policy::Rr;
        self.gto = policy == Policy::Gto;
    }
}

impl crate::block::Clocked for PolicyScheduler {
    type In = SchedIn;
    type Out = SchedOut;

    /// The grant under the `rr` and `gto` ports' policy (the constructor's policy is not
    /// used).
    fn outputs(&self, i: &SchedIn) -> SchedOut {
        self.drive(self.pick_for(i))
    }

    fn step(&mut self, i: &SchedIn) {
        let pick = if i.reset { None } else { self.pick_for(i) };
        self.edge(i, pick);
    }

    /// No grant and no reset: the last granted warp stays.
    fn idle_with(&self, i: &SchedIn) -> bool {
        !i.reset && self.pick_for(i).is_none()
    }

    /// The outputs and the edge with one pick (the default picks twice).
    fn cycle(&mut self, i: &SchedIn) -> SchedOut {
        let pick = self.pick_for(i);
        let out = self.drive(pick);
        self.edge(i, pick);
        out
    }
}

impl PolicyScheduler {
    /// The warp the ports' policy grants with these inputs.
    fn pick_for(&self, i: &SchedIn) -> Option<usize> {
        self.pick(i.policy(), i.eligible, i.present, |w| u64::from(i.age[w]))
    }

    /// The outputs with this cycle's pick.
    fn drive(&self, pick: Option<usize>) -> SchedOut {
        SchedOut {
            grant_valid: pick.is_some(),
            grant: pick.unwrap_or(0) as u8,
            last: self.last.unwrap_or(0) as u8,
            last_valid: self.last.is_some(),
        }
    }

    /// The edge: reset forgets the last grant, a grant becomes it.
    fn edge(&mut self, i: &SchedIn, pick: Option<usize>) {
        if i.reset {
            self.last = None;
        } else if pick.is_some() {
            self.last = pick;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Pure RR waits on the current warp although others are eligible, then moves one on.
    /// Catches a pure RR that skips a present-but-stalled warp (that is LRR).
    #[test]
    fn rr_waits_for_the_current_warp() {
        let mut s = PolicyScheduler::new(Policy::Rr, 4);
        // Warp 0 present but stalled, 1 and 2 eligible: nothing.
        assert_eq!(s.grant_rr(0b0110, 0b0111, |w| w as u64), None);
        assert_eq!(s.grant_rr(0b0111, 0b0111, |w| w as u64), Some(0));
        // Now 1 is current; eligible again 0 does not jump the queue.
        assert_eq!(s.grant_rr(0b0001, 0b0111, |w| w as u64), None);
        assert_eq!(s.grant_rr(0b0011, 0b0111, |w| w as u64), Some(1));
        // 2 has left (not present, not eligible): 3 is not present either, so 0 is next.
        assert_eq!(s.grant_rr(0b0001, 0b0001, |w| w as u64), Some(0));
    }

    /// `idle_with` says yes only when a cycle with those inputs grants nothing and leaves the
    /// last granted warp as it was, and says yes for every cycle without a grant or a reset,
    /// for every policy after any history; catches an idle answer that ignores the eligible
    /// mask or the reset.
    #[test]
    fn idle_with_means_the_cycle_changes_nothing() {
        use crate::block::Clocked;
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for policy in Policy::ALL {
            let mut s = PolicyScheduler::new(policy, 8);
            for _ in 0..2_000 {
                let mut i = SchedIn::default();
                i.set_policy(policy);
                let r = next();
                i.eligible = if r & 3 == 0 { 0 } else { r >> 8 & 0xFF };
                i.present = i.eligible | (r >> 16 & 0xFF);
                i.reset = r >> 24 & 15 == 0;
                let (before, idle) = (s.last_issued(), s.idle_with(&i));
                let out = s.cycle(&i);
                let unchanged = !out.grant_valid && s.last_issued() == before;
                // Safe: an idle cycle changes nothing; useful: every cycle without a grant
                // or a reset is idle (a reset alone may count as busy).
                assert!(!idle || unchanged, "{policy:?} {i:?} after {before:?}");
                assert!(i.reset || out.grant_valid || idle, "{policy:?} {i:?}");
            }
        }
    }

    /// LRR and GTO ignore the present mask; LRR does not wait.
    #[test]
    fn lrr_skips_what_rr_waits_for() {
        let mut s = PolicyScheduler::new(Policy::Lrr, 4);
        assert_eq!(s.grant_rr(0b0110, 0b0111, |w| w as u64), Some(1));
        let mut g = PolicyScheduler::new(Policy::Gto, 4);
        assert_eq!(g.grant_rr(0b0110, 0, |w| w as u64), Some(1));
    }

    /// The ports select the policy: rr over gto.
    #[test]
    fn ports_select_the_policy() {
        let mut i = SchedIn::default();
        for p in Policy::ALL {
            i.set_policy(p);
            assert_eq!(i.policy(), p);
        }
        i.gto = true;
        i.rr = true;
        assert_eq!(i.policy(), Policy::Rr);
    }
}
