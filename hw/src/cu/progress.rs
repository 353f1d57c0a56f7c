//! Progress of the compute unit's wavefronts between issues: retiring finished memory
//! operations, observing the blocks, barriers, scheduling rounds, dispatching work-groups and
//! starting wavefronts.

use super::*;

impl ComputeUnit {
    pub(super) fn finished(&self) -> bool {
        self.disp.finished()
            && self.inflight.is_empty()
            && self.mem_sys.as_ref().is_none_or(MemSystem::idle)
            && self.pending.is_empty()
            && self.simd.as_ref().is_none_or(|s| s.idle())
            && self.groups.iter().all(|g| g.ctx.iter().all(|c| !c.live))
    }

    pub(super) fn fail(&mut self, error: CuError, pc: u32, info: u32) {
        if self.status == Status::Busy {
            self.status = Status::Error(Fault { error, pc, info });
        }
    }

    /// Completes the loads and stores whose latency has passed.
    pub(super) fn retire(&mut self) {
        while self.pending.peek().is_some_and(|p| p.at <= self.now) {
            let p = self.pending.pop().expect("peeked");
            self.quiet.active = true;
            self.complete(p);
        }
    }

    /// Completes `p`. FLAT operations complete in their context's issue order, as GCN's
    /// vmcnt counts down (`s_waitcnt vmcnt(N)`: all but the N latest are done, which compiled
    /// kernels rely on): one that finishes before an earlier one is parked until that one
    /// completes. With fixed latencies they finish in order anyway; the hierarchy can finish a
    /// hit before an earlier miss.
    fn complete(&mut self, p: Pending) {
        let ctx = &self.groups[p.group].ctx[p.ctx];
        if ctx.serial != p.serial {
            // Its wavefront has ended (only stores can still be in flight then).
            let gone = (p.group, p.ctx, p.serial);
            self.parked.retain(|q| (q.group, q.ctx, q.serial) != gone);
            return;
        }
        if p.counter == Counter::Vm && p.order != ctx.vm_retired {
            self.parked.push(p);
            return;
        }
        let (gi, k, serial, vm) = (p.group, p.ctx, p.serial, p.counter == Counter::Vm);
        self.apply(p);
        if !vm {
            return;
        }
        let ctx = &mut self.groups[gi].ctx[k];
        ctx.vm_retired += 1;
        let next = (gi, k, serial, ctx.vm_retired);
        if let Some(i) = self
            .parked
            .iter()
            .position(|q| (q.group, q.ctx, q.serial, q.order) == next)
        {
            let q = self.parked.swap_remove(i);
            self.complete(q);
        }
    }

    /// Counts `p` down and writes its registers.
    fn apply(&mut self, p: Pending) {
        let g = &mut self.groups[p.group];
        g.wake_units();
        let ctx = &mut g.ctx[p.ctx];
        let count = match p.counter {
            Counter::Vm => &mut ctx.vmcnt,
            Counter::Lgkm => &mut ctx.lgkmcnt,
        };
        debug_assert!(*count > 0, "a completion without an outstanding operation");
        *count = count.saturating_sub(1);
        if let Some(wb) = p.writeback {
            let wf = ctx.wf;
            if let Some(o) = &mut self.observer {
                let ctx = observe::CtxId {
                    wave: g.wfs[wf].global as u32,
                    occupant: p.serial,
                };
                o.event(&observe::RegEvent::Written {
                    cycle: self.now - self.start,
                    ctx,
                    regs: wb.regs(),
                });
            }
            let applied = wb.apply(&mut g.ctx[p.ctx].r, &mut g.wfs[wf].vrf);
            let pc = g.ctx[p.ctx].last_pc;
            wb.recycle(&mut self.spare_loads);
            if applied.is_err() {
                self.fail(CuError::IllegalInstruction, pc, 0);
            }
        }
    }

    /// Acts on the split/merge units' outputs: copies, refusals, merged children, errors.
    pub(super) fn observe(&mut self) {
        for gi in 0..self.groups.len() {
            let g = &mut self.groups[gi];
            let out = &g.out;
            let (copy, denied) = (
                out.copy_valid.then_some((out.copy_from, out.copy_to)),
                out.split_denied,
            );
            let (error, error_ctx) = (out.error, out.error_ctx);
            self.quiet.active |= copy.is_some() || denied || error != 0;
            if let Some((from, to)) = copy {
                let (from, to) = (usize::from(from), usize::from(to));
                let mut y = g.ctx[from].clone();
                self.barrier_armed |= y.barrier;
                y.splits.clear();
                self.serial += 1;
                y.serial = self.serial;
                y.ready_at = 0;
                g.ctx[to] = y;
                if let Some(o) = &mut self.observer {
                    let ctx = observe::CtxId {
                        wave: g.wfs[g.ctx[to].wf].global as u32,
                        occupant: self.serial,
                    };
                    let cycle = self.now - self.start;
                    o.event(&observe::RegEvent::Start { cycle, ctx });
                }
                g.wake_ctx(to);
                self.counters.splits += 1;
            }
            if denied {
                if let Some(k) = g.last_split {
                    g.ctx[k].splits.serialize_top();
                }
                self.counters.serialized += 1;
            }
            // (A merged child's state turns EMPTY only in outputs read anew.)
            let states_read = g.take_new_outputs();
            for k in (0..g.ctx.len()).filter(|_| states_read) {
                // (The state first: the outputs are contiguous, a context's flags a line of
                // its own.)
                if g.out.ctx[k].state == State::Empty as u8 && g.ctx[k].live {
                    self.quiet.active = true;
                    g.ctx[k].live = false;
                    self.counters.merges += 1;
                }
            }
            if let Some(e) = ErrorCode::from_code(error).filter(|e| *e != ErrorCode::None) {
                let k = usize::from(error_ctx);
                let pc = g.ctx.get(k).map_or(0, |c| c.last_pc);
                let error = match e {
                    ErrorCode::SplitOverflow => CuError::SplitOverflow,
                    ErrorCode::MergeWatchdog => CuError::MergeWatchdog,
                    ErrorCode::EndLiveSplits => CuError::EndLiveSplits,
                    _ => CuError::PwsProtocol,
                };
                self.fail(error, pc, k as u32);
            }
        }
    }

    /// Releases a work-group's barrier once every live context of it waits there.
    pub(super) fn release_barriers(&mut self) {
        // Per resident work-group: some live context waits, every live context waits.
        let waiting = |c: &group::Ctx| c.live && c.barrier;
        if !self.barrier_armed {
            return;
        }
        if !self.groups.iter().any(|g| g.ctx.iter().any(waiting)) {
            self.barrier_armed = false;
            return;
        }
        let (any, every) = &mut self.barrier_scratch;
        any.clear();
        any.resize(self.wgs.len(), false);
        every.clear();
        every.resize(self.wgs.len(), true);
        for c in self
            .groups
            .iter()
            .flat_map(|g| g.ctx.iter())
            .filter(|c| c.live)
        {
            any[c.wg] |= c.barrier;
            every[c.wg] &= c.barrier;
        }
        // (Sim-D: wavefronts at a tile transfer wait for it, not for a barrier.)
        if let Some(s) = &self.simd {
            for (slot, w) in s.waiting.iter().enumerate() {
                if w.is_some() && slot < every.len() {
                    (any[slot], every[slot]) = (false, false);
                }
            }
        }
        if !any.contains(&true) {
            return;
        }
        // (A release is activity; a wait without one repeats until something else happens.)
        self.quiet.active |= any.iter().zip(every.iter()).any(|(a, e)| *a && *e);
        for g in &mut self.groups {
            let mut released = false;
            for c in g
                .ctx
                .iter_mut()
                .filter(|c| c.live && any[c.wg] && every[c.wg])
            {
                c.barrier = false;
                released = true;
            }
            if released {
                g.wake();
            }
        }
    }

    /// Reordering on: configures the unit for a round once all of it is placed, and opens the
    /// next round once the last has ended.
    pub(super) fn round_control(&mut self) {
        let (Some(r), Some(m)) = (&mut self.rounds, &mut self.mem_sys) else {
            return;
        };
        let placed = self.disp.next_wg >= r.end && self.disp.pending.is_empty();
        if r.configured && placed && self.wgs.iter().all(|w| !w.active) && m.idle() {
            self.quiet.active = true;
            r.advance();
            self.disp.limit = r.end;
            return;
        }
        self.disp.limit = r.end;
        if !r.configured && placed {
            self.quiet.active = true;
            m.configure(&r.take_config());
        }
    }

    /// Admits work-groups and sends their wavefronts (one DISPATCH per group per cycle).
    pub(super) fn dispatch(&mut self) {
        let l = self.launch.expect("dispatch runs during a launch");
        self.round_control();
        self.log_dispatch(Self::dispatch_inputs);
        let n = self.groups.len();
        // (The free slots are counted only when a work-group may be admitted.)
        let free: usize = match self.disp.more() && self.disp.pending.len() < n {
            true => self.groups.iter().map(Group::free_slots).sum(),
            false => 0,
        };
        // Work-groups without LDS are limited by slots only.
        let max_resident = self
            .cfg
            .lds_bytes
            .checked_div(l.lds_per_wg)
            .map_or(usize::MAX, |n| n as usize);
        // Admit while fewer wavefronts wait than there are SIMD groups to send them to.
        while self.disp.pending.len() < n
            && self.simd_may_admit()
            && self.disp.admit(
                &mut self.wgs,
                free,
                max_resident,
                (l.lds_per_wg / 4) as usize,
            )
        {
            self.quiet.active = true;
            let id = self.disp.next_wg - 1;
            if let Some(wi) = self.wgs.iter().position(|w| w.active && w.id == id) {
                self.simd_wg_event(wi, true);
                let cycle = self.launch_cycle();
                self.log_dispatch(|_| DispatchRecord::Admit { cycle, wi, wg: id });
            }
        }
        for step in 0..n {
            let Some(&(wi, wave)) = self.disp.pending.front() else {
                break;
            };
            let gi = (self.disp.next_simd + step) % n;
            let Some(slot) = self.groups[gi].free_slot() else {
                continue;
            };
            if !self.groups[gi].port_free() {
                continue;
            }
            self.disp.pending.pop_front();
            self.quiet.active = true;
            self.start_wave(gi, slot, wi, wave, &l);
        }
        self.disp.next_simd = (self.disp.next_simd + 1) % n;
    }

    /// Puts wave `wave` of resident work-group `wi` into slot `slot` of group `gi`.
    pub(super) fn start_wave(&mut self, gi: usize, slot: usize, wi: usize, wave: u32, l: &Launch) {
        let wg_id = self.wgs[wi].id;
        let cycle = self.launch_cycle();
        self.log_dispatch(|_| DispatchRecord::Send {
            cycle,
            group: gi,
            slot,
            wi,
            wave,
            wg: wg_id,
        });
        let global = (wg_id * self.disp.waves + wave) as usize;
        let lanes = wave_lanes(l.wg, wave);
        let g = &mut self.groups[gi];
        let k = g.k(0, slot);
        let wf = &mut g.wfs[slot];
        wf.global = global;
        wf.ldst_k.clear();
        wf.vrf.clear();
        for lane in 0..64 {
            wf.vrf.set(0, lane, wave * 64 + lane as u32);
        }
        self.serial += 1;
        let mut c = Ctx {
            serial: self.serial,
            age: global as u64,
            live: true,
            wf: slot,
            pc: l.entry_pc,
            wg: wi,
            ..Ctx::default()
        };
        let at = WavePlace {
            group: wg_id,
            wg: l.wg,
            wave,
        };
        l.abi.init_sgprs(at, &mut c.r.s);
        c.r.exec = lanes;
        g.ctx[k] = c;
        g.wake_ctx(k);
        g.command(Cmd::Dispatch, k, lanes, 0);
        self.counters.wf[global].0 = self.now + 1 - self.start;
        let ctx = observe::CtxId {
            wave: global as u32,
            occupant: self.serial,
        };
        let cycle = self.launch_cycle();
        self.tell(|| observe::RegEvent::Start { cycle, ctx });
        if let Some(r) = &mut self.rounds {
            r.placed(gi * self.cfg.n_wfc + slot, wg_id, wave, global);
        }
    }
}
