//! Launching on the compute unit: the launch checks, building the SIMD groups, decoding the
//! code, starting the memory hierarchy, and the checks of the blocks running beside their
//! models.

use super::*;

impl ComputeUnit {
    /// Starts a launch (the doorbell). A launch the compute unit cannot run ends at once in
    /// the `bad_launch` error, with `info` saying which check failed (1 work-group size,
    /// 2 grid size (a positive multiple of the work-group size, at most 2^24), 3 wavefronts
    /// per work-group, 4 LDS size, 5 S, 6 entry PC, 7 reordering without the memory hierarchy,
    /// 8 the reordering trace table unreadable or not matching the launch, 9 a part of the
    /// launch ([`Self::launch_part`]) outside its grid, empty, or with reordering on).
    pub fn launch(&mut self, l: Launch) {
        let groups = l.grid.checked_div(l.wg).unwrap_or(0);
        self.launch_part(l, WgPart::all(groups));
    }

    /// Starts the work-groups `part` of launch `l` only (one compute unit's share of a
    /// sub-kernel, docs/assumptions.md#A77); the rest as [`Self::launch`]. The per-wavefront
    /// counters keep the whole launch's numbering (a wavefront outside `part` reads 0, 0).
    pub fn launch_part(&mut self, l: Launch, part: WgPart) {
        self.counters = Counters::default();
        self.block_fault = None;
        if let Some(log) = &mut self.issue_log {
            log.clear();
        }
        if let Some(t) = &mut self.issue_trace {
            t.clear();
        }
        self.mem_sys = None;
        self.rounds = None;
        // Every launch starts from the same arbitration state (runs are reproducible).
        self.rotate = 0;
        self.lds_free = 0;
        self.quiet.reset();
        self.launch = Some(l);
        self.start = self.now;
        if let Err(info) = self.check_launch(&l).and_then(|()| check_part(&l, part)) {
            self.status = Status::Error(Fault {
                error: CuError::BadLaunch,
                pc: 0,
                info,
            });
            return;
        }
        let waves = l.wg.div_ceil(64);
        let groups = l.grid / l.wg;
        self.disp = Dispatcher::new(part, waves);
        if let Some(log) = &mut self.dispatch_log {
            log.clear();
            let max_resident = self.cfg.lds_bytes.checked_div(l.lds_per_wg).unwrap_or(255);
            log.push(DispatchRecord::Launch {
                first: part.first,
                end: part.end,
                stride: part.stride,
                waves,
                max_resident: max_resident.min(255),
            });
        }
        self.counters.wf = vec![(0, 0); (groups * waves) as usize];
        let params = PwsParams {
            half: 32,
            e_split: self.cfg.lat.e_split,
            e_merge: self.cfg.lat.e_merge,
        };
        if let Err(e) = self.build_groups(&l, params) {
            return self.fail_blocks(e);
        }
        if let Some(g) = self.trace_group.and_then(|g| self.groups.get_mut(g)) {
            g.trace = Some(Vec::new());
        }
        self.wgs.clear();
        self.pending.clear();
        self.inflight.clear();
        match self.start_memory(&l, groups * waves) {
            Ok(()) => {}
            Err(Err(msg)) => return self.fail_blocks(msg),
            Err(Ok(info)) => {
                self.status = Status::Error(Fault {
                    error: CuError::BadLaunch,
                    pc: 0,
                    info,
                });
                return;
            }
        }
        if let Err(e) = self.start_simd(&l) {
            return self.fail_blocks(e);
        }
        if let Err(e) = self.decode_all() {
            return self.fail_blocks(e);
        }
        self.status = Status::Busy;
    }

    /// The SIMD groups of launch `l` (and their IDUs), blocks from [`Self::set_blocks`].
    pub(super) fn build_groups(&mut self, l: &Launch, params: PwsParams) -> Result<(), String> {
        let flags = (l.mode == Mode::Dws, self.cfg.watchdog);
        let units = l.s as usize + 1;
        self.groups = (0..self.cfg.n_simd)
            .map(|g| {
                let name = format!("g{g}");
                Group::new(
                    &*self.blocks,
                    &name,
                    units,
                    self.cfg.n_wfc,
                    params,
                    l.policy,
                    flags,
                )
            })
            .collect::<Result<_, _>>()?;
        if let Some(idu) = l.idu {
            let core_ps = u64::from(self.cfg.memory.core_ps);
            for (gi, g) in self.groups.iter_mut().enumerate() {
                for (u, unit) in g.units.iter_mut().enumerate() {
                    let disp = self.blocks.idu(&format!("idu[g{gi}.u{u}]"), MAX_K)?;
                    unit.idu = Some(ValuIdu::new(disp, &idu, self.cfg.idu, core_ps));
                }
            }
        }
        Ok(())
    }

    /// Decodes the instruction memory through the decode stage (one instruction a cycle; the
    /// issue stage reads the decoded buffer, fetch being ideal).
    pub(super) fn decode_all(&mut self) -> Result<(), String> {
        let mut stage = self.blocks.decode()?;
        stage.step(&InsnDecodeIn {
            reset: true,
            ..InsnDecodeIn::default()
        });
        let idle = InsnDecodeIn::default();
        self.decoded.clear();
        for i in 0..self.code.len() {
            stage.step(&InsnDecodeIn {
                reset: false,
                valid: true,
                word0: self.code[i],
                word1: self.code.get(i + 1).copied().unwrap_or(0),
            });
            self.decoded.push(stage.outputs(&idle).fields);
        }
        stage.check().map_err(|f| self.record_fault(f))
    }

    /// Keeps a block's fault; returns its message.
    pub(super) fn record_fault(&mut self, f: Box<BlockFault>) -> String {
        let msg = f.to_string();
        self.block_fault.get_or_insert(f);
        msg
    }

    /// The launch stops in `rtl_block` (a block could not be built or disagreed with its
    /// model; the message is in [`Self::block_fault`] or was `msg`).
    pub(super) fn fail_blocks(&mut self, msg: String) {
        if self.block_fault.is_none() {
            self.block_fault = Some(Box::new(BlockFault {
                block: "system".into(),
                cycle: 0,
                kind: crate::block::FaultKind::Engine(msg),
                window: Vec::new(),
            }));
        }
        self.status = Status::Busy;
        self.fail(CuError::RtlBlock, 0, 0);
    }

    /// Polls every block checked in lock-step; the first fault stops the launch.
    pub(super) fn check_blocks(&mut self) {
        let fault = self
            .groups
            .iter()
            .find_map(|g| g.check().err())
            .or_else(|| self.coal.as_ref().and_then(|c| c.check().err()))
            .or_else(|| self.mem_sys.as_ref().and_then(|m| m.check().err()));
        if let Some(f) = fault {
            let msg = self.record_fault(f);
            self.fail_blocks(msg);
        }
    }

    /// The hierarchy and (reordering on) the trace table and rounds of launch `l` of `waves`
    /// wavefronts; `Err(Ok(8))`: the trace table is unreadable; `Err(Err(why))`: a block
    /// could not be built.
    pub(super) fn start_memory(
        &mut self,
        l: &Launch,
        waves: u32,
    ) -> Result<(), Result<u32, String>> {
        self.rounds = None;
        self.mem_sys = None;
        self.coal = None;
        if !self.cfg.memory.hierarchy {
            return Ok(());
        }
        self.coal = Some(coalesce::Coalescing::new(&*self.blocks).map_err(Err)?);
        let slots = self.cfg.n_simd * self.cfg.n_wfc;
        let plan = match l.reorder {
            true => Some(
                ReorderPlan::read(&self.mem, l.trace_addr, waves as usize).map_err(|_| Ok(8))?,
            ),
            false => None,
        };
        let m = MemSystem::new(
            &*self.blocks,
            &self.cfg.memory,
            (slots, plan.as_ref().map_or(MIN_TRACE, trace_entries)),
            l.reorder,
            self.start,
        );
        let mut m = m.map_err(Err)?;
        if self.record_dram {
            m.record_dram();
        }
        self.mem_sys = Some(m);
        if let Some(plan) = plan {
            let r = resident_wgs(&self.cfg, l.grid, l.wg, l.lds_per_wg);
            self.rounds = Some(Rounds::new(plan, r, l.grid / l.wg));
        }
        Ok(())
    }

    pub(super) fn check_launch(&self, l: &Launch) -> Result<(), u32> {
        let waves = l.wg.div_ceil(64) as usize;
        let checks = [
            (1..=1024).contains(&l.wg),
            l.grid > 0 && l.wg > 0 && l.grid.is_multiple_of(l.wg) && l.grid <= MAX_GRID,
            waves <= self.cfg.n_simd * self.cfg.n_wfc,
            l.lds_per_wg.is_multiple_of(4) && l.lds_per_wg <= self.cfg.lds_bytes,
            (1..=7).contains(&l.s),
            l.entry_pc.is_multiple_of(4) && (l.entry_pc / 4) < self.code.len() as u32,
            !l.reorder || self.cfg.memory.hierarchy,
        ];
        match checks.iter().position(|ok| !ok) {
            Some(i) => Err(i as u32 + 1),
            None => Ok(()),
        }
    }
}

/// Check 9 of [`ComputeUnit::launch_part`]: `part` is a non-empty part of `l`'s work-groups,
/// and a part less than the whole launch runs without reordering (its rounds span the grid).
fn check_part(l: &Launch, part: WgPart) -> Result<(), u32> {
    let groups = l.grid / l.wg;
    let whole = part == WgPart::all(groups);
    let inside = part.first < part.end && part.end <= groups && part.stride >= 1;
    match inside && (whole || !l.reorder) {
        true => Ok(()),
        false => Err(9),
    }
}
