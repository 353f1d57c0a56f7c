//! The compute unit's clock: a cycle (`step`), runs of cycles, and the skipping of quiet
//! cycles (see [`super::quiet`]).

use super::*;

impl ComputeUnit {
    /// Idle-cycle skipping on (the default) or off; the results are the same either way
    /// (see [`quiet`]).
    pub fn set_skip_idle(&mut self, on: bool) {
        self.quiet.on = on;
        self.quiet.reset();
    }

    /// Runs `n` core clock cycles, jumping over stretches of quiet cycles where no memory
    /// hierarchy needs stepping.
    pub fn run(&mut self, mut n: u64) {
        while n > 0 {
            let k = self.quiet_jump(n);
            if k == 0 {
                self.step();
                n -= 1;
            } else {
                n -= k;
            }
        }
    }

    /// Runs one core clock cycle (nothing happens unless a launch is running).
    pub fn step(&mut self) {
        if self.status != Status::Busy {
            self.now += 1;
            return;
        }
        self.flip_due();
        if self
            .quiet
            .holds(self.now, self.pending.peek().map(|p| p.at))
        {
            return self.quiet_cycle();
        }
        let stalls = self.counters.stalls;
        let refusals = self.mem_sys.as_ref().map_or(0, MemSystem::refusals);
        self.quiet.active = false;
        self.quiet.last = false;
        self.retire();
        self.observe();
        self.simd_cycle();
        self.release_barriers();
        self.dispatch();
        self.issue_all();
        self.memory_cycle();
        for g in &mut self.groups {
            // (A unit that is not at rest changes its outputs as it counts.)
            self.quiet.active |= !g.at_rest();
            g.clock();
        }
        if self.blocks.checked() {
            self.check_blocks();
        }
        self.end_cycle();
        let horizon = self.quiet_horizon();
        self.quiet.close(horizon, &stalls, &self.counters.stalls);
        self.quiet.refusals = self.mem_sys.as_ref().map_or(0, MemSystem::refusals) - refusals;
    }

    /// The end of every cycle: the cycle count and the end of the launch.
    pub(super) fn end_cycle(&mut self) {
        self.now += 1;
        if self.status == Status::Busy {
            self.counters.cycles = self.now - self.start;
            if self.finished() {
                self.status = Status::Done;
            }
        }
    }

    /// A quiet cycle: only the hierarchy moves; the stalls and the rotation repeat.
    pub(super) fn quiet_cycle(&mut self) {
        self.quiet.last = true;
        let simd = &mut self.disp.next_simd;
        self.quiet
            .apply(1, &mut self.counters.stalls, &mut self.rotate, simd);
        if let Some(m) = &self.mem_sys {
            m.add_refusals(self.quiet.refusals);
        }
        self.memory_cycle();
        self.end_cycle();
        // Next cycle in full if the hierarchy now takes a waiting context's access.
        if let Some(m) = &self.mem_sys {
            if self.quiet.waiting.iter().any(|&s| m.would_accept(s)) {
                self.quiet.until = 0;
            }
        }
    }

    /// Without a hierarchy, up to `n` quiet cycles at once; their number.
    pub(super) fn quiet_jump(&mut self, n: u64) -> u64 {
        let next = self.pending.peek().map(|p| p.at);
        if self.mem_sys.is_some()
            || self.simd.is_some()
            || self.status != Status::Busy
            || !self.quiet.holds(self.now, next)
        {
            return 0;
        }
        let k = n
            .min(self.cycles_to_flip())
            .min(self.quiet.until - self.now)
            .min(next.map_or(u64::MAX, |at| at - self.now));
        let simd = &mut self.disp.next_simd;
        self.quiet
            .apply(k, &mut self.counters.stalls, &mut self.rotate, simd);
        self.now += k - 1;
        self.end_cycle();
        k
    }

    /// After a full cycle in which nothing happened: the first cycle that must run in full
    /// again, or `None` if the next one must (see [`quiet`]).
    pub(super) fn quiet_horizon(&mut self) -> Option<u64> {
        if !self.quiet.on || self.quiet.active || self.status != Status::Busy || self.simd.is_some()
        {
            return None;
        }
        if self.blocks.checked() || !self.note_mem_waits() {
            return None;
        }
        // (`now` is the next cycle: a time reached there already changes what it does.)
        let mut h = self.pending.peek().map_or(u64::MAX, |p| p.at);
        if self.lds_free >= self.now {
            h = h.min(self.lds_free);
        }
        for g in &self.groups {
            if g.trace.is_some() || !g.port_free() || !g.at_rest() {
                return None;
            }
            for u in &g.units {
                if u.idu.is_some() {
                    return None;
                }
                if u.valu_free >= self.now {
                    h = h.min(u.valu_free);
                }
            }
            for c in g.ctx.iter().filter(|c| c.live && c.ready_at >= self.now) {
                h = h.min(c.ready_at);
            }
        }
        Some(h)
    }

    /// Notes the access slots of the contexts that wait for the hierarchy to take an access;
    /// `false` if the next cycle cannot be a quiet one: the hierarchy takes one of them, or
    /// (reordering on) an idle hierarchy may open the next round.
    pub(super) fn note_mem_waits(&mut self) -> bool {
        self.quiet.waiting.clear();
        let Some(m) = &self.mem_sys else {
            return true;
        };
        if self.rounds.is_some() && m.idle() {
            return false;
        }
        for (gi, g) in self.groups.iter().enumerate() {
            let waits = |c: &&Ctx| {
                c.live
                    && !c.barrier
                    && c.ready_at <= self.now
                    && self
                        .decoded
                        .get((c.pc / 4) as usize)
                        .is_some_and(|f| f.unit == unit::VMEM)
            };
            for c in g.ctx.iter().filter(waits) {
                self.quiet.waiting.push((gi * self.cfg.n_wfc + c.wf) as u8);
            }
        }
        // (The hierarchy as this cycle left it may already take one.)
        !self.quiet.waiting.iter().any(|&s| m.would_accept(s))
    }

    /// The hierarchy's cycle; its completed accesses join the pending completions.
    pub(super) fn memory_cycle(&mut self) {
        let Some(m) = &mut self.mem_sys else {
            return;
        };
        if let Err(e) = m.step(self.now) {
            let info = match e {
                crate::memsys::MemError::Reorder(c) => u32::from(c),
                crate::memsys::MemError::Dram(_) => 16,
                crate::memsys::MemError::Path(_) => 17,
            };
            return self.fail(CuError::MemorySystem, 0, info);
        }
        self.counters.mem = m.counters();
        for (id, at) in m.drain_done() {
            self.quiet.active = true;
            if let Some(mut p) = self.inflight.remove(&id) {
                p.at = at.max(self.now + 1);
                self.pending.push(p);
            }
        }
    }
}
