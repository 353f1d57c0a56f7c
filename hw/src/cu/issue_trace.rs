//! The issue probe: per unit and cycle, what the issue stage saw (each context's state and
//! next instruction, the shared pipes and ports) and decided (grant or stall reason), and
//! each context's state after the unit's issue. The issue control block
//! ([`crate::issue`]) is checked against it (testbench's `tb::issue::replay`).
//!
//! Off (`None`, the default) it costs one untaken branch per unit and cycle. Run it with
//! idle-cycle skipping off ([`ComputeUnit::set_skip_idle`]): a skipped cycle is not scanned.

use super::*;

/// One context's issue state at a moment of a cycle.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CtxSnap {
    /// It holds a wavefront.
    pub live: bool,
    /// Its occupant number (a new one: a dispatch or a split copy started there).
    pub serial: u64,
    /// At a barrier.
    pub barrier: bool,
    /// Cycles until it may issue again (`ready_at − now`, 0 once reached).
    pub wait: u64,
    /// Outstanding FLAT operations.
    pub vmcnt: u32,
    /// Outstanding SMEM/LDS operations.
    pub lgkmcnt: u32,
}

/// What the issue stage saw of one context.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SlotView {
    /// Its state before the unit's scan.
    pub before: CtxSnap,
    /// Its state after the unit's issue.
    pub after: CtxSnap,
    /// The next instruction's unit.
    pub unit: u8,
    /// Its opcode (low byte).
    pub opcode: u8,
    /// Its immediate (low 16 bits).
    pub imm: u16,
    /// Illegal, or the PC is past the code.
    pub illegal: bool,
    /// The split/merge state code.
    pub state: u8,
    /// The global port takes its access.
    pub gport_free: bool,
    /// Sim-D holds it.
    pub hold: bool,
    /// The scheduler's age rank after the scan.
    pub age: u8,
}

/// One unit's issue in one cycle.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct IssueSample {
    /// Cycle from the launch.
    pub cycle: u64,
    /// SIMD group.
    pub group: u8,
    /// Unit in the group.
    pub unit: u8,
    /// Before the scan: the memory pipe was taken this cycle; the LDS cannot take a DS
    /// instruction this cycle (taken earlier in the cycle, or still busy with an earlier one:
    /// `lds_period`, docs/assumptions.md#A104).
    pub pipes: [bool; 2],
    /// The split/merge port was free.
    pub port_free: bool,
    /// The launch splits.
    pub split_on: bool,
    /// With the IDU: whether it could dispatch.
    pub idu_ok: Option<bool>,
    /// Cycles until the unit's VALU is free (`valu_free − now`, 0 once reached).
    pub valu_busy: u64,
    /// The contexts, by slot.
    pub slots: Vec<SlotView>,
    /// The granted slot.
    pub grant: Option<usize>,
    /// The stall counted (a [`Stall`] code), when nothing was granted.
    pub stall: Option<u8>,
}

impl ComputeUnit {
    /// [`ComputeUnit::issue_unit`] with a sample pushed onto [`ComputeUnit::issue_trace`].
    pub(super) fn traced_issue_unit(&mut self, gi: usize, u: usize, l: &Launch) {
        let mut s = self.issue_view(gi, u, l);
        let stalls = self.counters.stalls;
        self.issue_unit(gi, u, l);
        let g = &self.groups[gi];
        s.grant = g.units[u].issued.map(|(slot, ..)| slot);
        s.stall = (0..STALLS.len())
            .find(|&r| self.counters.stalls[r] != stalls[r])
            .map(|r| r as u8);
        for (slot, v) in s.slots.iter_mut().enumerate() {
            v.after = self.snap(gi, g.k(u, slot));
            v.age = g.units[u].sched_in.age[slot];
        }
        if let Some(t) = &mut self.issue_trace {
            t.push(s);
        }
    }

    /// What unit u of group gi sees before its scan.
    fn issue_view(&self, gi: usize, u: usize, l: &Launch) -> IssueSample {
        let g = &self.groups[gi];
        IssueSample {
            cycle: self.now - self.start,
            group: gi as u8,
            unit: u as u8,
            pipes: [self.pipes[0], self.lds_busy()],
            port_free: g.port_free(),
            split_on: l.mode != Mode::NoSplit,
            idu_ok: g.units[u].idu.as_ref().map(|i| i.can_dispatch(self.now)),
            valu_busy: g.units[u].valu_free.saturating_sub(self.now),
            slots: (0..self.cfg.n_wfc)
                .map(|slot| self.slot_view(gi, g.k(u, slot)))
                .collect(),
            grant: None,
            stall: None,
        }
    }

    /// Context k of group gi as the scan sees it.
    fn slot_view(&self, gi: usize, k: usize) -> SlotView {
        let c = &self.groups[gi].ctx[k];
        let f = self.decoded.get((c.pc / 4) as usize);
        SlotView {
            before: self.snap(gi, k),
            after: CtxSnap::default(),
            unit: f.map_or(0, |f| f.unit),
            opcode: f.map_or(0, |f| f.opcode as u8),
            imm: f.map_or(0, |f| f.imm as u16),
            illegal: f.is_none_or(|f| f.illegal),
            state: self.groups[gi].out.ctx[k].state,
            gport_free: self.global_port_free(gi, k),
            hold: self.simd_blocks(gi, k),
            age: 0,
        }
    }

    /// Context k of group gi's issue state now.
    fn snap(&self, gi: usize, k: usize) -> CtxSnap {
        let c = &self.groups[gi].ctx[k];
        CtxSnap {
            live: c.live,
            serial: c.serial,
            barrier: c.barrier,
            wait: c.ready_at.saturating_sub(self.now),
            vmcnt: c.vmcnt,
            lgkmcnt: c.lgkmcnt,
        }
    }
}
