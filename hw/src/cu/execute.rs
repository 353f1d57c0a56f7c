//! Execution of the instructions the compute unit issues outside the VALU: SALU, memory
//! (LDS, SMEM, FLAT), branches, `split`/`merge`, program control and wavefront end.

use super::*;

impl ComputeUnit {
    pub(super) fn salu(
        &mut self,
        gi: usize,
        k: usize,
        f: &InsnFields,
        next: u32,
    ) -> Result<(), (CuError, u32)> {
        let r = &mut self.groups[gi].ctx[k].r;
        if f.format == format::SOP1 && f.opcode == 0x1C {
            // s_getpc_b64: the address of the next instruction.
            return r
                .write64(u16::from(f.dst), u64::from(next))
                .map_err(|b| bad(b.0));
        }
        salu::execute(f, r).map_err(|b| bad(b.0))
    }

    pub(super) fn memory(
        &mut self,
        gi: usize,
        k: usize,
        f: &InsnFields,
    ) -> Result<(), (CuError, u32)> {
        let lat = self.cfg.lat;
        let g = &mut self.groups[gi];
        let eff = g.eff(k);
        let (wf, wi) = (g.ctx[k].wf, g.ctx[k].wg);
        let mut port = Port {
            mem: &mut self.mem,
            lds: &mut self.wgs[wi].lds,
            r: &g.ctx[k].r,
            v: &g.wfs[wf].vrf,
            eff,
            spare: &mut self.spare_loads,
        };
        let Access { counter, writeback } = port.execute(f).map_err(|e| match e {
            memory::Fault::Memory(a) => (CuError::MemoryFault, a as u32),
            memory::Fault::Lds(a) => (CuError::LdsFault, a),
            memory::Fault::Operand(c) => bad(c),
        })?;
        let (latency, pipe) = match f.unit {
            unit::VMEM => (lat.flat, 0),
            unit::SMEM => (lat.smem, 0),
            _ => (lat.lds, 1),
        };
        self.pipes[pipe] = true;
        if pipe == 1 {
            self.lds_free = self.now + u64::from(lat.lds_period);
        }
        let c = &mut g.ctx[k];
        let order = c.vm_issued;
        match counter {
            Counter::Vm => {
                c.vmcnt += 1;
                c.vm_issued += 1;
            }
            Counter::Lgkm => c.lgkmcnt += 1,
        }
        c.ready_at = self.now + 1;
        self.serial += 1;
        let p = Pending {
            at: self.now + u64::from(lat.jittered(latency, self.serial)),
            seq: self.serial,
            group: gi,
            ctx: k,
            serial: c.serial,
            counter,
            order,
            writeback,
        };
        if f.unit == unit::VMEM && self.mem_sys.is_some() {
            return self.global_access(gi, k, f, eff, p);
        }
        self.pending.push(p);
        Ok(())
    }

    /// Hands FLAT instruction `f` of context k (lanes `eff`) to the hierarchy; an access
    /// with no lane completes in the next cycle.
    pub(super) fn global_access(
        &mut self,
        gi: usize,
        k: usize,
        f: &InsnFields,
        eff: u64,
        mut p: Pending,
    ) -> Result<(), (CuError, u32)> {
        let g = &mut self.groups[gi];
        let (pc, wf) = (g.ctx[k].last_pc, g.ctx[k].wf);
        // (Built with the hierarchy: present whenever `mem_sys` is.)
        let Some(coal) = &mut self.coal else {
            return Ok(());
        };
        let addrs = memory::flat_addresses(f, &g.wfs[wf].vrf, eff);
        let spans = self.mem_sys.as_mut().map(MemSystem::take_lines);
        let lines = coal.lines(addrs, eff, memory::dwords(f), spans.unwrap_or_default());
        if lines.is_empty() {
            p.at = self.now + 1;
            self.pending.push(p);
            return Ok(());
        }
        let (mut seq, mut pc_idx) = (0, 0);
        if let Some(r) = &self.rounds {
            let w = &mut g.wfs[wf];
            let found = w.next_access(&r.plan, pc);
            *w.ldst_k.entry(pc).or_insert(0) += 1;
            let (s, e) = found.ok_or((CuError::ReorderTrace, w.global as u32))?;
            (seq, pc_idx) = (s, e.pc_idx);
        }
        let a = GlobalAccess {
            id: p.seq,
            slot: (gi * self.cfg.n_wfc + wf) as u8,
            seq,
            pc_idx,
            store: f.opcode >= 0x1C,
            lines,
        };
        if let Some(m) = &mut self.mem_sys {
            m.request(a);
        }
        self.inflight.insert(p.seq, p);
        Ok(())
    }

    pub(super) fn branch(
        &mut self,
        gi: usize,
        k: usize,
        f: &InsnFields,
        next: u32,
    ) -> Result<(), (CuError, u32)> {
        let g = &mut self.groups[gi];
        let (eff, vcc_active) = (g.eff(k), g.ctx[k].r.vcc & g.spm(k));
        let c = &mut g.ctx[k];
        c.ready_at = self.now + u64::from(self.cfg.lat.branch);
        if f.format == format::SOP1 {
            // s_setpc_b64 / s_swappc_b64.
            let target = c.r.read64(f.src0, f.imm).map_err(|b| bad(b.0))?;
            if f.opcode == 0x1E {
                c.r.write64(u16::from(f.dst), u64::from(next))
                    .map_err(|b| bad(b.0))?;
            }
            c.pc = target as u32;
            return Ok(());
        }
        let taken = match f.opcode {
            0x02 => true,
            0x04 => !c.r.scc,
            0x05 => c.r.scc,
            0x06 => vcc_active == 0,
            0x07 => vcc_active != 0,
            0x08 => eff == 0,
            _ => eff != 0,
        };
        if taken {
            let offset = i32::from(f.imm as u16 as i16) * 4;
            c.pc = next.wrapping_add(offset as u32);
        }
        Ok(())
    }

    pub(super) fn split_merge(
        &mut self,
        gi: usize,
        k: usize,
        f: &InsnFields,
        mode: Mode,
    ) -> Result<(), (CuError, u32)> {
        if mode == Mode::NoSplit {
            return Ok(());
        }
        let g = &mut self.groups[gi];
        let c = &g.ctx[k];
        if c.vmcnt + c.lgkmcnt > 0 {
            return Err((CuError::SplitPendingMemory, c.vmcnt + c.lgkmcnt));
        }
        if f.format == format::SOPP {
            // merge: a serialized split's merge is a no-op; otherwise the split/merge unit
            // finds the partner (or treats it as a no-op when there is none).
            let pc = c.last_pc;
            if g.ctx[k].splits.pop() != Some(false) {
                g.command(Cmd::Merge, k, 0, pc);
            }
            return Ok(());
        }
        let r = &c.r;
        let s0 = r.read(f.src0, 0).map_err(|b| bad(b.0))?;
        let s1 = r.read(f.src1, 0).map_err(|b| bad(b.0))?;
        let value = u64::from(s1) << 32 | u64::from(s0);
        let m = assemble_mask(value, 32, 64);
        let eff = g.eff(k);
        let divergent = eff & m != 0 && eff & !m != 0;
        let split = mode != Mode::Dws || divergent;
        if !g.ctx[k].splits.push(split) {
            // Deeper than the compute unit's split stack.
            return Err((CuError::SplitOverflow, k as u32));
        }
        if !split {
            self.counters.serialized += 1;
            return Ok(());
        }
        g.command(Cmd::Split, k, value, 0);
        Ok(())
    }

    pub(super) fn program(
        &mut self,
        gi: usize,
        k: usize,
        f: &InsnFields,
    ) -> Result<(), (CuError, u32)> {
        let g = &mut self.groups[gi];
        match f.opcode {
            0x00 => g.ctx[k].ready_at = self.now + 1 + u64::from(f.imm & 0xF),
            0x0E => g.ctx[k].ready_at = self.now + 64 * u64::from(f.imm & 0x7F).max(1),
            _ => self.end(gi, k),
        }
        Ok(())
    }

    /// `s_endpgm`.
    pub(super) fn end(&mut self, gi: usize, k: usize) {
        let g = &mut self.groups[gi];
        g.command(Cmd::End, k, 0, 0);
        let (live_children, has_parent) = (g.out.ctx[k].sp > 0, g.out.ctx[k].parent_valid);
        let c = &mut g.ctx[k];
        c.live = false;
        if live_children || has_parent {
            // The split/merge unit reports end_live_splits next cycle.
            return;
        }
        let global = g.wfs[c.wf].global;
        let wi = c.wg;
        self.counters.wf[global].1 = self.now - self.start;
        let cycle = self.launch_cycle();
        self.log_dispatch(|_| DispatchRecord::End { cycle, wi });
        let wg = &mut self.wgs[wi];
        wg.live_waves -= 1;
        if wg.live_waves == 0 {
            wg.active = false;
            self.simd_wg_event(wi, false);
        }
    }
}
