//! The behavioural scheduler: the grant decision of GTO or LRR as Accel-Sim
//! defines them (one eligible warp per cycle, work-conserving),
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

/// The two policies (Accel-Sim `order_lrr` / `order_by_priority`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Policy {
    /// Loose round-robin: the priority list starts at `last_issued + 1` (slot 0 before any
    /// issue) and wraps; not-eligible warps are skipped.
    Lrr,
    /// Greedy-then-oldest: the last-issued warp if it is eligible, else the oldest eligible
    /// warp (the lowest index under [`Scheduler::grant`], the smallest (age, index) under
    /// [`PolicyScheduler::grant_by_age`]), which becomes the new greedy warp.
    Gto,
}

impl Policy {
    /// `"lrr"` or `"gto"`.
    pub fn name(self) -> &'static str {
        match self {
            Policy::Lrr => "lrr",
            Policy::Gto => "gto",
        }
    }
}

impl std::fmt::Display for Policy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// The behavioural GTO/LRR scheduler, supervising warps `0..warps`.
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

    /// The last granted warp (LRR's pointer is this + 1; GTO's greedy warp is this).
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
        let pick = self.pick(self.policy, eligible, age);
        if pick.is_some() {
            self.last = pick;
        }
        pick
    }

    /// The warp `policy` grants among `eligible` (no state change).
    fn pick(&self, policy: Policy, eligible: u64, age: impl Fn(usize) -> u64) -> Option<usize> {
        let eligible = eligible & self.supervised();
        if eligible == 0 {
            return None;
        }
        match policy {
            Policy::Lrr => {
                // The first eligible warp from slot `start` on, wrapping.
                let start = self.last.map_or(0, |l| (l + 1) % self.warps);
                (0..self.warps)
                    .map(|k| (start + k) % self.warps)
                    .find(|&w| eligible >> w & 1 == 1)
            }
            Policy::Gto => match self.last {
                Some(l) if eligible >> l & 1 == 1 => Some(l),
                _ => (0..self.warps)
                    .filter(|&w| eligible >> w & 1 == 1)
                    .min_by_key(|&w| (age(w), w)),
            },
        }
    }
}

/// The scheduler block's inputs of one cycle (the ports of [`super::WarpScheduler`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SchedIn {
    /// Synchronous reset: forget the last granted warp.
    pub reset: bool,
    /// Policy: GTO (else LRR).
    pub gto: bool,
    /// Bit w: warp w may issue this cycle.
    pub eligible: u64,
    /// Age rank of warp w (0 the oldest; GTO's fallback takes the smallest (age, w)).
    pub age: [u8; MAX_WARPS],
}

impl Default for SchedIn {
    fn default() -> Self {
        SchedIn {
            reset: false,
            gto: false,
            eligible: 0,
            age: [0; MAX_WARPS],
        }
    }
}

/// The scheduler block's outputs of one cycle.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SchedOut {
    /// A warp is granted (exactly when a supervised warp is eligible).
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
    eligible,
    age
});
crate::ports!(SchedOut {
    grant_valid,
    grant,
    last,
    last_valid
});

impl SchedIn {
    /// The policy the `gto` port selects.
    pub fn policy(&self) -> Policy {
        if self.gto {
            Policy::Gto
        } else {
            Policy::Lrr
        }
    }
}

impl crate::block::Clocked for PolicyScheduler {
    type In = SchedIn;
    type Out = SchedOut;

    /// The grant under the `gto` port's policy (the constructor's policy is not used).
    fn outputs(&self, i: &SchedIn) -> SchedOut {
        let pick = self.pick(i.policy(), i.eligible, |w| u64::from(i.age[w]));
        SchedOut {
            grant_valid: pick.is_some(),
            grant: pick.unwrap_or(0) as u8,
            last: self.last.unwrap_or(0) as u8,
            last_valid: self.last.is_some(),
        }
    }

    fn step(&mut self, i: &SchedIn) {
        if i.reset {
            self.last = None;
        } else if let Some(w) = self.pick(i.policy(), i.eligible, |w| u64::from(i.age[w])) {
            self.last = Some(w);
        }
    }
}
