//! Issue on the compute unit: every SIMD/SpSIMD picks an eligible context (the scheduler's
//! policy) and issues its next instruction to the unit that executes it.

use super::group::Nap;
use super::regfile::lanes;
use super::scan::Kept;
use super::*;

/// What a unit's scan found: the eligible slots, the slots pure RR may wait on (`present`,
/// without the eligible ones), the most telling stall among the others, and the first cycle a
/// context may become eligible without an event (`None`: only a scan sees it).
struct Scan {
    mask: u64,
    present: u64,
    reason: Stall,
    wake: Option<u64>,
}

impl ComputeUnit {
    /// Every SIMD/SpSIMD picks and issues at most one instruction.
    pub(super) fn issue_all(&mut self) {
        let l = self.launch.expect("issue runs during a launch");
        let units = if l.mode == Mode::Pws {
            l.s as usize + 1
        } else {
            1
        };
        // Every (group, unit), group-major, starting one further each cycle.
        let all = self.groups.len() * units;
        (self.quiet.units, self.quiet.groups) = (all, self.groups.len());
        self.pipes = [false; 2];
        for g in &mut self.groups {
            for u in &mut g.units {
                u.issued = None;
            }
        }
        self.rotate = (self.rotate + 1) % all;
        let (mut gi, mut u) = (self.rotate / units, self.rotate % units);
        for _ in 0..all {
            match self.issue_trace.is_some() {
                true => self.traced_issue_unit(gi, u, &l),
                false => self.issue_unit(gi, u, &l),
            }
            if self.status != Status::Busy {
                return;
            }
            // (The next unit, group-major, wrapping around.)
            u += 1;
            if u == units {
                u = 0;
                gi = (gi + 1) % self.groups.len();
            }
        }
    }

    pub(super) fn issue_unit(&mut self, gi: usize, u: usize, l: &Launch) {
        if let Some(nap) = self.groups[gi].units[u].nap {
            if self.now < nap.until {
                return self.nap_cycle(gi, u, nap);
            }
        }
        let Scan {
            mask,
            present,
            reason,
            wake,
        } = self.scan(gi, u, l);
        let g = &mut self.groups[gi];
        let Some(slot) = g.grant(u, (mask, present | mask)) else {
            self.counters.stalls[reason as usize] += 1;
            if let Some(until) = wake.filter(|_| self.quiet.on) {
                let sched_idle = g.sched_idle(u, present);
                g.units[u].nap = Some(Nap {
                    until,
                    reason,
                    present,
                    sched_idle,
                });
            }
            return;
        };
        self.quiet.active = true;
        let k = self.groups[gi].k(u, slot);
        let pc = self.groups[gi].ctx[k].pc;
        // (A PC past the code issues as nothing: `issue` reports it.)
        let f = self
            .decoded
            .get((pc / 4) as usize)
            .copied()
            .unwrap_or_default();
        let word = self.code.get((pc / 4) as usize).copied().unwrap_or(0);
        self.groups[gi].units[u].issued = Some((slot, pc, word, f.unit));
        if let Some(log) = &mut self.issue_log {
            let wf = self.groups[gi].ctx[k].wf;
            log.push(IssueRecord {
                cycle: self.now - self.start,
                wave: self.groups[gi].wfs[wf].global as u32,
                group: gi as u8,
                unit: u as u8,
                pc,
            });
        }
        if self.observer.is_some() {
            let (ctx, lanes) = (self.ctx_id(gi, k), self.groups[gi].eff(k));
            let cycle = self.launch_cycle();
            self.tell(|| observe::RegEvent::Issue {
                cycle,
                ctx,
                pc,
                lanes,
            });
        }
        self.issue(gi, u, k, f, l);
    }

    /// Unit u's scan: the contexts the memory of its last scan cannot answer for are asked
    /// afresh (all of them without idle-cycle skipping or with Sim-D), the others add what
    /// they kept (see [`super::scan`]).
    #[inline]
    fn scan(&mut self, gi: usize, u: usize, l: &Launch) -> Scan {
        let all = (1u64 << self.cfg.n_wfc) - 1;
        let keep = self.quiet.on && self.simd.is_none();
        let memo = &mut self.groups[gi].units[u].memo;
        let todo = match keep {
            true => memo.take_todo(self.now, all),
            false => {
                memo.touch_all();
                all
            }
        };
        let mut s = Scan {
            mask: 0,
            present: 0,
            reason: Stall::Idle,
            wake: Some(u64::MAX),
        };
        for slot in lanes(todo) {
            let k = self.groups[gi].k(u, slot);
            let e = self.eligibility(gi, (u, k), l);
            if let Some(answer) = Kept::of(&e).filter(|_| keep) {
                self.groups[gi].units[u].memo.keep(slot, answer);
                continue;
            }
            self.add_answer(&mut s, (gi, k, slot), e);
        }
        if s.mask != 0 {
            s.wake = None;
        }
        let g = &mut self.groups[gi];
        // (The ages matter only when some context is eligible; kept, a slot's age is read
        // whenever it is evaluated, so that it stands for the slots kept later.)
        if keep || s.mask != 0 {
            let units = g.units.len();
            for slot in lanes(todo) {
                g.units[u].memo.ages[slot] = g.ctx[slot * units + u].age;
            }
        }
        if keep {
            let part = g.units[u].memo.kept_part();
            s.reason = s.reason.min_by_priority(part.reason);
            s.present |= part.present;
            s.wake = s.wake.map(|w| w.min(part.wake));
        }
        s
    }

    /// Adds slot `slot`'s (context k of group gi) answer `e` to the scan `s`.
    #[inline]
    fn add_answer(&self, s: &mut Scan, (gi, k, slot): (usize, usize, usize), e: Elig) {
        let r = match e {
            Elig::Yes => return s.mask |= 1 << slot,
            Elig::Absent => return,
            Elig::No(r) | Elig::Until(r, _) => r,
        };
        s.reason = s.reason.min_by_priority(r);
        s.wake = match e {
            Elig::Until(_, at) => s.wake.map(|w| w.min(at)),
            Elig::No(Stall::SplitMerge | Stall::Barrier) => s.wake,
            _ => None,
        };
        // Pure RR waits on a stalled context, not on one that waits for others (a barrier, a
        // split or merge, the reordering unit): that one cannot become eligible alone.
        if !matches!(r, Stall::Barrier | Stall::SplitMerge) && !self.waits_for_reorder(gi, k, r) {
            s.present |= 1 << slot;
        }
    }

    /// A cycle of a napping unit: its last scan's scheduler inputs and stall.
    fn nap_cycle(&mut self, gi: usize, u: usize, nap: Nap) {
        if !nap.sched_idle {
            let g = &mut self.groups[gi];
            let granted = g.grant(u, (0, nap.present));
            debug_assert!(granted.is_none(), "a grant without an eligible context");
        }
        self.counters.stalls[nap.reason as usize] += 1;
    }

    /// Whether context k (of unit u) of group gi may issue now.
    #[inline]
    pub(super) fn eligibility(&self, gi: usize, (u, k): (usize, usize), l: &Launch) -> Elig {
        let g = &self.groups[gi];
        let c = &g.ctx[k];
        if !c.live {
            return Elig::Absent;
        }
        match g.state(k) {
            State::Ready => {}
            State::Splitting | State::MergeWait | State::Merging => {
                return Elig::No(Stall::SplitMerge)
            }
            State::Empty | State::Done => return Elig::Absent,
        }
        if c.barrier {
            return Elig::No(Stall::Barrier);
        }
        if self.simd_blocks(gi, k) {
            return Elig::No(Stall::Barrier);
        }
        if c.ready_at > self.now {
            return Elig::Until(Stall::Dependency, c.ready_at);
        }
        let Some(&f) = self.decoded.get((c.pc / 4) as usize) else {
            // Issue reports the bad PC.
            return Elig::Yes;
        };
        if f.illegal {
            return Elig::Yes;
        }
        let structural = match f.unit {
            unit::VALU => match &g.units[u].idu {
                Some(idu) => !idu.can_dispatch(self.now),
                None if g.units[u].valu_free > self.now => {
                    return Elig::Until(Stall::Structural, g.units[u].valu_free)
                }
                None => false,
            },
            unit::VMEM => self.pipes[0] || !self.global_port_free(gi, k),
            unit::SMEM => self.pipes[0],
            // (`lds_free` covers this cycle's DS issue too: the nap lasts until the LDS is free.)
            unit::LDS if self.lds_busy() => return Elig::Until(Stall::Structural, self.lds_free),
            unit::PWS => l.mode != Mode::NoSplit && !g.port_free(),
            unit::PROGRAM if f.opcode == 0x01 => !g.port_free(),
            unit::SYNC if f.opcode == 0x0C && !waitcnt_ok(c, f.imm) => {
                return Elig::No(Stall::Waitcnt)
            }
            _ => false,
        };
        if structural {
            Elig::No(Stall::Structural)
        } else {
            Elig::Yes
        }
    }

    /// The LDS cannot take a DS instruction this cycle: a unit issued one earlier in the cycle,
    /// or one issued in the last `lds_period` − 1 cycles still holds it.
    pub(super) fn lds_busy(&self) -> bool {
        self.pipes[1] || self.lds_free > self.now
    }

    /// Reordering on: context k of group gi, stalled for `r`, waits at a global access or an
    /// `s_waitcnt` while the reordering unit holds accesses of its wavefront's slot. The
    /// unit releases them in its static order, which may first want an access of another
    /// context of the same SIMD (the other half of a split wavefront, or another wavefront):
    /// pure RR waiting on this context would wait for itself (docs/assumptions.md#A57).
    fn waits_for_reorder(&self, gi: usize, k: usize, r: Stall) -> bool {
        let Some(m) = &self.mem_sys else {
            return false;
        };
        let c = &self.groups[gi].ctx[k];
        // (The unit's count first: without reordering it is never set.)
        m.holds((gi * self.cfg.n_wfc + c.wf) as u8)
            && (r == Stall::Waitcnt
                || r == Stall::Structural
                    && self
                        .decoded
                        .get((c.pc / 4) as usize)
                        .is_some_and(|f| f.unit == unit::VMEM))
    }

    /// The hierarchy takes a global access of context k of group gi this cycle.
    pub(super) fn global_port_free(&self, gi: usize, k: usize) -> bool {
        let (c, g) = (&self.groups[gi].ctx[k], &self.groups[gi]);
        let slot = gi * self.cfg.n_wfc + c.wf;
        // Reordering on: nothing enters the unit before its round's configuration; the
        // access's sequence number decides whether it may take its channel's last place.
        let configuring = self.rounds.as_ref().is_some_and(|r| !r.configured);
        let seq = self
            .rounds
            .as_ref()
            .and_then(|r| g.wfs[c.wf].next_access(&r.plan, c.pc).map(|s| s.0));
        !configuring
            && self
                .mem_sys
                .as_ref()
                .is_none_or(|m| m.accepts(slot as u8, seq))
    }

    /// Issues instruction `f` of context k (unit u of group gi).
    pub(super) fn issue(&mut self, gi: usize, u: usize, k: usize, f: InsnFields, l: &Launch) {
        let lat = self.cfg.lat;
        let now = self.now;
        let pc = self.groups[gi].ctx[k].pc;
        if (pc / 4) as usize >= self.code.len() {
            return self.fail(CuError::PcOutOfRange, pc, pc);
        }
        if f.illegal {
            return self.fail(
                CuError::IllegalInstruction,
                pc,
                self.code[(pc / 4) as usize],
            );
        }
        if (1..=9).contains(&f.unit) {
            self.counters.insts[usize::from(f.unit) - 1] += 1;
        }
        let next = pc + 4 * u32::from(f.words);
        {
            let c = &mut self.groups[gi].ctx[k];
            c.last_pc = pc;
            c.pc = next;
            c.ready_at = now + u64::from(lat.salu);
        }
        let result = match f.unit {
            unit::SALU => self.salu(gi, k, &f, next),
            unit::VALU => {
                let g = &mut self.groups[gi];
                g.units[u].valu_free = now + u64::from(lat.issue_period);
                g.ctx[k].ready_at = now + u64::from(lat.valu);
                if let Some((cluster, ready)) =
                    g.units[u].idu.as_mut().and_then(|i| i.dispatch(now))
                {
                    g.ctx[k].ready_at = ready;
                    self.counters.idu[cluster] += 1;
                }
                let eff = g.eff(k);
                let wf = g.ctx[k].wf;
                valu::execute(&f, &mut g.ctx[k].r, &mut g.wfs[wf].vrf, eff).map_err(|b| bad(b.0))
            }
            unit::VMEM if self.simd.is_some() => Err(bad(f.opcode)),
            unit::VMEM | unit::SMEM | unit::LDS => self.memory(gi, k, &f),
            unit::TILE => self.tile(gi, k, &f),
            unit::BRANCH => self.branch(gi, k, &f, next),
            unit::PWS => self.split_merge(gi, k, &f, l.mode),
            unit::SYNC => {
                if f.opcode == 0x0A {
                    self.groups[gi].ctx[k].barrier = true;
                    self.barrier_armed = true;
                }
                Ok(())
            }
            _ => self.program(gi, k, &f),
        };
        if let Err((error, info)) = result {
            self.fail(error, pc, info);
        }
    }
}
