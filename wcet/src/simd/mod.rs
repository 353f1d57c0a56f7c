//! Sim-D's kernel WCET (the Sim-D paper, docs/works/simd.md#wcet): a kernel instance
//! K = (w, Φ) is w work-groups running the same phase list Φ = (Φ_1 … Φ_n), alternating a
//! compute phase and an access phase (one tile transfer), the last one the final store.
//! Two slots share one compute and one access resource under the phase rules (GTRR and the
//! pairwise admission), so the schedule follows a single serialisation.
//!
//! - [`schedule`]: the worst-case minimal valid schedule (Eqs. 6–9 with half-open phases, no
//!   `+1`; Theorem 1: every phase runs its full cost) of the two-slot serialisation;
//! - [`closed_form`]: Eqs. 17–18 (`⌊w/2⌋·c_2wg + c_edge`, without a program upload);
//! - [`upper`], [`lower`]: Eqs. 10–14, the serial bound and the resource/parallel bounds;
//! - [`Refresh::inflate`]: Eq. 19, refresh as stop-the-world blocking.

use serde::Serialize;

/// The resource a phase holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Resource {
    /// The compute unit (no DRAM access).
    Compute,
    /// The access resource: one tile transfer.
    Access,
}

/// One phase Φ_i = (ρ_i, c_i): its resource and its cost in core cycles.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct PhaseCost {
    /// ρ_i.
    pub resource: Resource,
    /// c_i.
    pub cycles: u64,
}

impl PhaseCost {
    /// A compute phase of `cycles`.
    pub fn compute(cycles: u64) -> Self {
        PhaseCost {
            resource: Resource::Compute,
            cycles,
        }
    }

    /// An access phase of `cycles`.
    pub fn access(cycles: u64) -> Self {
        PhaseCost {
            resource: Resource::Access,
            cycles,
        }
    }
}

/// Checks that `phases` alternate compute and access, starting with compute and ending with
/// access (the final store), as the paper's program model requires.
pub fn check(phases: &[PhaseCost]) -> Result<(), String> {
    if phases.is_empty() || phases.len() % 2 == 1 {
        return Err(
            "a Sim-D phase list is compute, access pairs (it ends with the final store)".into(),
        );
    }
    let ok = phases.iter().enumerate().all(|(i, p)| {
        p.resource
            == if i % 2 == 0 {
                Resource::Compute
            } else {
                Resource::Access
            }
    });
    ok.then_some(())
        .ok_or_else(|| "the phases do not alternate compute, access".into())
}

/// Eq. 10: w·Σc_i, every phase of every work-group one after the other.
pub fn upper(w: u64, phases: &[PhaseCost]) -> u64 {
    w * sum(phases)
}

/// Eq. 14: max(WCET^L1, WCET^L2): w times the busiest resource's work (Eqs. 11–12), and two
/// work-groups perfectly in parallel, ⌈w/2⌉·Σc_i (Eq. 13).
pub fn lower(w: u64, phases: &[PhaseCost]) -> u64 {
    let on = |r| {
        phases
            .iter()
            .filter(|p| p.resource == r)
            .map(|p| p.cycles)
            .sum::<u64>()
    };
    let l1 = w * on(Resource::Compute).max(on(Resource::Access));
    l1.max(w.div_ceil(2) * sum(phases))
}

fn sum(phases: &[PhaseCost]) -> u64 {
    phases.iter().map(|p| p.cycles).sum()
}

/// Eq. 17's c_2wg: one pair of work-groups in steady state, max(c_n, c_1) +
/// Σ_{i<n} max(c_i, c_{i+1}).
pub fn c_2wg(phases: &[PhaseCost]) -> u64 {
    let c: Vec<u64> = phases.iter().map(|p| p.cycles).collect();
    let (Some(first), Some(last)) = (c.first(), c.last()) else {
        return 0;
    };
    first.max(last) + c.windows(2).map(|p| p[0].max(p[1])).sum::<u64>()
}

/// Eq. 17's c_edge: min(c_1, c_n) for an even w, a lone work-group's Σc_i for an odd w.
pub fn c_edge(w: u64, phases: &[PhaseCost]) -> u64 {
    let (Some(first), Some(last)) = (phases.first(), phases.last()) else {
        return 0;
    };
    if w.is_multiple_of(2) {
        first.cycles.min(last.cycles)
    } else {
        sum(phases)
    }
}

/// Eq. 18 without the program upload: ⌊w/2⌋·c_2wg + c_edge.
pub fn closed_form(w: u64, phases: &[PhaseCost]) -> u64 {
    if w == 0 {
        return 0;
    }
    w / 2 * c_2wg(phases) + c_edge(w, phases)
}

/// One slot of the abstract two-slot machine.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Slot {
    /// No work-group.
    #[default]
    Empty,
    /// Its compute phase `i` may take the compute resource.
    Ready(usize),
    /// Compute phase `i` until the cycle.
    Computing(usize, u64),
    /// Access phase `i` waits for the access resource.
    Queued(usize),
    /// Access phase `i` until the cycle.
    Accessing(usize, u64),
}

/// The abstract machine of [`schedule`]: the slots, their work-groups, the access queue and
/// the compute holder.
struct Machine<'a> {
    phases: &'a [PhaseCost],
    w: u64,
    slots: [Slot; 2],
    wg: [u64; 2],
    next_wg: u64,
    queue: std::collections::VecDeque<usize>,
    last_owner: Option<usize>,
}

impl Machine<'_> {
    /// The slot's work-group has started (queued) its final phase.
    fn final_started(&self, s: usize) -> bool {
        let n = self.phases.len();
        matches!(self.slots[s], Slot::Queued(i) | Slot::Accessing(i, _) if i + 1 == n)
    }

    /// Pairwise admission: every resident work-group is of the same pair or has started its
    /// final phase.
    fn may_admit(&self, wg: u64) -> bool {
        (0..2).all(|s| {
            self.slots[s] == Slot::Empty || self.wg[s] / 2 == wg / 2 || self.final_started(s)
        })
    }

    /// Phases ending at `t` end; the resources they held are free.
    fn finish(&mut self, t: u64) {
        for s in 0..2 {
            match self.slots[s] {
                Slot::Computing(i, end) if end == t => {
                    self.slots[s] = Slot::Queued(i + 1);
                    self.queue.push_back(s);
                }
                Slot::Accessing(i, end) if end == t => {
                    self.slots[s] = if i + 1 == self.phases.len() {
                        Slot::Empty
                    } else {
                        Slot::Ready(i + 1)
                    };
                }
                _ => {}
            }
        }
    }

    /// Admits, then starts what may start at `t`: the access queue's head, and the compute
    /// resource by GTRR (the other slot first).
    fn start(&mut self, t: u64) {
        while self.next_wg < self.w && self.may_admit(self.next_wg) {
            let Some(s) = (0..2).find(|&s| self.slots[s] == Slot::Empty) else {
                break;
            };
            self.slots[s] = Slot::Ready(0);
            self.wg[s] = self.next_wg;
            self.next_wg += 1;
        }
        let accessing = (0..2).any(|s| matches!(self.slots[s], Slot::Accessing(..)));
        if !accessing {
            if let Some(s) = self.queue.pop_front() {
                let Slot::Queued(i) = self.slots[s] else {
                    unreachable!("only queued slots are in the queue")
                };
                self.slots[s] = Slot::Accessing(i, t + self.phases[i].cycles);
            }
        }
        if (0..2).any(|s| matches!(self.slots[s], Slot::Computing(..))) {
            return;
        }
        let order = self.last_owner.map_or([0, 1], |o| [1 - o, o]);
        if let Some(s) = order
            .into_iter()
            .find(|&s| matches!(self.slots[s], Slot::Ready(_)))
        {
            let Slot::Ready(i) = self.slots[s] else {
                unreachable!("found ready")
            };
            self.slots[s] = Slot::Computing(i, t + self.phases[i].cycles);
            self.last_owner = Some(s);
        }
    }

    /// The next cycle a phase ends, `None` when nothing runs.
    fn next_event(&self) -> Option<u64> {
        self.slots
            .iter()
            .filter_map(|s| match *s {
                Slot::Computing(_, e) | Slot::Accessing(_, e) => Some(e),
                _ => None,
            })
            .min()
    }
}

/// The end time of the worst-case minimal valid schedule of w work-groups of `phases` under
/// the phase rules (Eqs. 6–9, Theorem 1): the two slots on one compute and one access
/// resource, GTRR (a slot computes until its transfer, then the other slot's ready work-group
/// takes over), transfers in submission order, pairwise admission (a work-group of a later
/// pair enters only once every resident one has started its final phase); every phase takes
/// its full cost, phases are half-open `[start, start + c)`. Zero-cost phases are allowed.
pub fn schedule(w: u64, phases: &[PhaseCost]) -> Result<u64, String> {
    check(phases)?;
    let mut m = Machine {
        phases,
        w,
        slots: [Slot::Empty; 2],
        wg: [0; 2],
        next_wg: 0,
        queue: Default::default(),
        last_owner: None,
    };
    let mut t = 0;
    loop {
        // Zero-cost phases end where they start: settle the cycle before moving on.
        loop {
            let before = (m.slots, m.queue.len(), m.next_wg);
            m.finish(t);
            m.start(t);
            if (m.slots, m.queue.len(), m.next_wg) == before {
                break;
            }
        }
        match m.next_event() {
            Some(e) => t = e,
            None if m.next_wg == w => return Ok(t),
            None => return Err("the schedule stalled (a work-group was never admitted)".into()),
        }
    }
}

/// Eq. 19's refresh parameters in core cycles.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Refresh {
    /// ⌊(nREFI − nRFC)·tCK / t_core⌋: core cycles of work between two refreshes.
    pub interval: u64,
    /// nRFC·tCK in picoseconds: one refresh's blocking.
    pub rfc_ps: u64,
    /// The core clock period in picoseconds.
    pub core_ps: u64,
}

impl Refresh {
    /// The parameters of a part with `refi`, `rfc` (DRAM cycles), `tck_ps`, and a core clock
    /// of `core_ps`.
    pub fn new(refi: u64, rfc: u64, tck_ps: u64, core_ps: u64) -> Self {
        Refresh {
            interval: (refi - rfc) * tck_ps / core_ps,
            rfc_ps: rfc * tck_ps,
            core_ps,
        }
    }

    /// The refreshes Eq. 19 charges to `c` core cycles: ⌈c / interval⌉.
    pub fn count(&self, c: u64) -> u64 {
        c.div_ceil(self.interval.max(1))
    }

    /// Eq. 19: c + ⌈refreshes·nRFC·tCK / t_core⌉.
    pub fn inflate(&self, c: u64) -> u64 {
        c + (self.count(c) * self.rfc_ps).div_ceil(self.core_ps)
    }
}

#[cfg(test)]
mod tests;
