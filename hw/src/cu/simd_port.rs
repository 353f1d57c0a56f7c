//! The compute unit's side of Sim-D execution ([`crate::simd`]): starting the access
//! resource, `tile_ld`/`tile_st` at issue, the work-group-wide submission once every live
//! wavefront has arrived, completions, GTRR and pairwise admission.

use super::*;
use crate::simd::access::AccessUnit;
use crate::simd::tile::TileDesc;
use crate::simd::{Exec, SimdExec, Waiting};

/// The `s_endpgm` encoding (leaving needs no compute resource).
const S_ENDPGM: u32 = 0xBF81_0000;

impl ComputeUnit {
    /// Sim-D launches: the access resource around a DRAM controller from the blocks; at most
    /// two work-groups (slots) must fit the LDS.
    pub(super) fn start_simd(&mut self, l: &Launch) -> Result<(), String> {
        self.simd = None;
        if l.exec == Exec::Gcn {
            return Ok(());
        }
        let m = &self.cfg.memory;
        let part = m.check()?;
        let dram = self.blocks.dram(part, m.refresh_phase)?;
        let mut access = AccessUnit::new(dram, m, self.now);
        if self.record_dram {
            access.trace = Some(Vec::new());
        }
        self.simd = Some(Box::new(SimdExec::new(l.exec, access)));
        Ok(())
    }

    /// The Sim-D state of the current or last launch.
    pub fn simd(&self) -> Option<&SimdExec> {
        self.simd.as_deref()
    }

    /// Sim-D: context k of group gi may not issue `f` now (its slot does not hold the
    /// compute resource).
    pub(super) fn simd_blocks(&self, gi: usize, k: usize) -> bool {
        let Some(s) = &self.simd else {
            return false;
        };
        let c = &self.groups[gi].ctx[k];
        let exit = self.code.get((c.pc / 4) as usize) == Some(&S_ENDPGM);
        !exit && !s.sched.may_compute(c.wg)
    }

    /// `tile_ld`/`tile_st` by context k of group gi: it waits at the work-group's transfer.
    pub(super) fn tile(
        &mut self,
        gi: usize,
        k: usize,
        f: &InsnFields,
    ) -> Result<(), (CuError, u32)> {
        let Some(s) = self.simd.as_deref_mut() else {
            return Err(bad(f.opcode));
        };
        let c = &mut self.groups[gi].ctx[k];
        let n = usize::from(f.src0);
        let sg: [u32; 4] = c.r.s[n..n + 4].try_into().map_err(|_| bad(f.opcode))?;
        let desc = TileDesc::from_sgprs(f.opcode == 0x7D, sg);
        let last = desc.store && self.code.get((c.pc / 4) as usize) == Some(&S_ENDPGM);
        c.barrier = true;
        self.barrier_armed = true;
        let slot = c.wg;
        match s.waiting[slot] {
            None => {
                s.waiting[slot] = Some(Waiting {
                    desc,
                    pc: c.last_pc,
                    last,
                    submitted: false,
                })
            }
            // Every wavefront of the work-group must ask for the same transfer.
            Some(w) if w.desc != desc || w.submitted => {
                return Err((CuError::IllegalInstruction, f.opcode.into()))
            }
            Some(_) => {}
        }
        Ok(())
    }

    /// Sim-D's cycle: GTRR, submissions of fully arrived work-groups, the access resource
    /// and its completion.
    pub(super) fn simd_cycle(&mut self) {
        let Some(mut s) = self.simd.take() else {
            return;
        };
        let t = self.now - self.start;
        if s.sched.arbitrate(t) {
            self.groups.iter_mut().for_each(Group::wake);
        }
        for slot in 0..2 {
            if s.waiting[slot].is_some_and(|w| !w.submitted) && self.all_arrived(slot) {
                if let Err((e, info)) = self.submit_tile(&mut s, slot, t) {
                    let pc = s.waiting[slot].map_or(0, |w| w.pc);
                    self.fail(e, pc, info);
                }
            }
        }
        match s.access.step(self.now) {
            Ok((done, started)) => {
                if started {
                    let holder = s.access.holder().expect("a started transfer");
                    s.sched.access_started(holder, t);
                }
                if let Some(tr) = done {
                    self.tile_done(&mut s, tr.slot, t);
                }
            }
            Err(_) => self.fail(CuError::MemorySystem, 0, 16),
        }
        self.simd = Some(s);
    }

    /// Every live context of slot `slot`'s work-group waits at its transfer.
    fn all_arrived(&self, slot: usize) -> bool {
        self.groups
            .iter()
            .flat_map(|g| g.ctx.iter())
            .filter(|c| c.live && c.wg == slot)
            .all(|c| c.barrier)
    }

    /// The work-group in `slot` starts its transfer: checked, a store's data taken from the
    /// scratchpad now; the wavefronts of a final store leave at once.
    fn submit_tile(&mut self, s: &mut SimdExec, slot: usize, t: u64) -> Result<(), (CuError, u32)> {
        let w = s.waiting[slot].expect("a waiting transfer");
        let lds = &mut self.wgs[slot].lds;
        match w.desc.check(self.mem.words().len(), lds.len()) {
            Err(a) if a == w.desc.lds && w.desc.dram.is_multiple_of(4) => {
                return Err((CuError::LdsFault, a))
            }
            Err(a) => return Err((CuError::MemoryFault, a)),
            Ok(()) => {}
        }
        if w.desc.store {
            w.desc.copy(self.mem.words_mut(), lds);
        }
        s.submit(slot, t);
        if w.last {
            self.release_slot(slot);
        }
        Ok(())
    }

    /// The transfer of `slot` completed: a load's data lands in the scratchpad, the
    /// wavefronts continue.
    fn tile_done(&mut self, s: &mut SimdExec, slot: usize, t: u64) {
        let Some(w) = s.waiting[slot].take() else {
            return;
        };
        if !w.desc.store {
            w.desc.copy(self.mem.words_mut(), &mut self.wgs[slot].lds);
        }
        if !w.last {
            self.release_slot(slot);
        }
        let ended = !self.wgs[slot].active;
        s.sched.access_done(slot, t, ended);
        self.groups.iter_mut().for_each(Group::wake);
    }

    /// The wavefronts of `slot` stop waiting.
    fn release_slot(&mut self, slot: usize) {
        for g in &mut self.groups {
            for c in g.ctx.iter_mut().filter(|c| c.live && c.wg == slot) {
                c.barrier = false;
            }
            g.wake();
        }
    }

    /// Sim-D: a work-group may be admitted now (a free slot, the pairwise rule); and the
    /// work-group in resident entry `wi` ended.
    pub(super) fn simd_may_admit(&self) -> bool {
        self.simd.as_ref().is_none_or(|s| {
            let entry = self
                .wgs
                .iter()
                .position(|w| !w.active)
                .unwrap_or(self.wgs.len());
            entry < 2 && !s.sched.occupied(entry) && s.sched.may_admit(self.disp.next_wg)
        })
    }

    /// Sim-D: the work-group in resident entry `wi` has just been admitted or has ended.
    pub(super) fn simd_wg_event(&mut self, wi: usize, admitted: bool) {
        let t = self.now - self.start;
        let id = self.wgs[wi].id;
        if let Some(s) = self.simd.as_deref_mut() {
            if admitted {
                s.sched.admitted(wi, id, t);
            } else {
                s.sched.ended(wi, t);
            }
        }
    }
}
