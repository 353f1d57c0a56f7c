//! One SIMD group of the compute unit: the SIMD and its SpSIMDs, their contexts' architectural
//! state, the wavefronts' VRFs, and the split/merge unit (the PWS block, model or RTL through
//! [`Blocks`]) that owns SpM, parents, child stacks and context states.

use super::regfile::{Sregs, Vrf};
use crate::block::{Blocks, DynBlock};
use crate::pws::model::{CtxOut, GroupIn, GroupOut, ModelConfig, PwsIn};
use crate::pws::{PwsParams, State};
use crate::sched::model::{Policy, SchedIn, SchedOut, MAX_WARPS};

/// The architectural state of one context (a wavefront or a split wavefront).
///
/// Laid out in declaration order on a cache line of its own: the fields the issue stage
/// reads for every context every cycle come first, within the first 64 bytes, and the
/// registers last (in Rust's own order the flags sat behind the 408-byte SGPR array).
#[derive(Clone, Debug, Default)]
#[repr(C, align(64))]
pub struct Ctx {
    /// The context holds a wavefront.
    pub live: bool,
    /// The wavefront's VRF: index of its original slot in the group.
    pub wf: usize,
    /// Next instruction.
    pub pc: u32,
    /// The last issued instruction's PC.
    pub last_pc: u32,
    /// First cycle it may issue again.
    pub ready_at: u64,
    /// Outstanding FLAT operations.
    pub vmcnt: u32,
    /// Outstanding SMEM/LDS operations.
    pub lgkmcnt: u32,
    /// FLAT operations issued by this occupant (the next one's place in issue order).
    pub vm_issued: u64,
    /// FLAT operations completed in issue order: vmcnt counts down in that order, so a later
    /// operation that finishes first waits for the earlier ones.
    pub vm_retired: u64,
    /// Waiting at `s_barrier`.
    pub barrier: bool,
    /// Per executed `split` not yet merged: whether it really split (DWS may serialize; the
    /// matching `merge` is then a no-op).
    pub splits: Splits,
    /// The work-group (index into the compute unit's resident work-groups).
    pub wg: usize,
    /// The wavefront's age: its dispatch order in the launch (split halves inherit it); GTO
    /// prefers the oldest (oldest-first, docs/assumptions.md#A18).
    pub age: u64,
    /// Which wavefront occupies the context (unique per dispatch and split), so that a store
    /// still in flight when its wavefront ended does not count against the next occupant.
    pub serial: u64,
    /// SGPRs, VCC, EXEC, M0, SCC.
    pub r: Sregs,
}

/// A context's stack of executed, not yet merged splits: one bit each (1: it really split),
/// at most [`Splits::DEPTH`] deep, in place.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Splits {
    bits: u64,
    len: u8,
}

impl Splits {
    /// Nesting depth the stack holds.
    pub const DEPTH: usize = 64;

    /// Pushes a split; false when the stack is full.
    pub fn push(&mut self, split: bool) -> bool {
        if usize::from(self.len) == Self::DEPTH {
            return false;
        }
        self.bits = self.bits & !(1 << self.len) | u64::from(split) << self.len;
        self.len += 1;
        true
    }

    /// Pops the innermost split.
    pub fn pop(&mut self) -> Option<bool> {
        self.len = self.len.checked_sub(1)?;
        Some(self.bits >> self.len & 1 == 1)
    }

    /// Marks the innermost split as serialized (a DWS split the unit refused).
    pub fn serialize_top(&mut self) {
        if let Some(top) = self.len.checked_sub(1) {
            self.bits &= !(1 << top);
        }
    }

    /// Empties the stack.
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Splits on the stack.
    pub fn len(&self) -> usize {
        usize::from(self.len)
    }

    /// No split on the stack.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

/// One wavefront's per-original-slot state.
#[derive(Clone, Debug, Default)]
pub struct Wf {
    /// Its VRF, shared by its split halves.
    pub vrf: Vrf,
    /// Global wavefront index in the launch.
    pub global: usize,
    /// Reordering: global ld/st instances issued so far per PC (the trace's `k`).
    pub ldst_k: std::collections::HashMap<u32, u16>,
}

impl Wf {
    /// Reordering: the trace's sequence number and entry of this wavefront's next global
    /// access at `pc` (its instance [`Wf::ldst_k`]).
    pub fn next_access(
        &self,
        plan: &crate::memsys::plan::ReorderPlan,
        pc: u32,
    ) -> Option<(u8, crate::memsys::plan::TraceEntry)> {
        plan.seq_of(self.global, pc, self.ldst_k.get(&pc).copied().unwrap_or(0))
    }
}

/// A SIMD or SpSIMD's issue state.
pub struct Unit {
    /// First cycle its VALU accepts an instruction.
    pub valu_free: u64,
    /// Its issue arbiter over its contexts (the scheduler block).
    pub sched: DynBlock<SchedIn, SchedOut>,
    /// The scheduler's inputs (policy, eligible mask, age ranks), reused every cycle.
    pub sched_in: SchedIn,
    /// The last cycle's issue (kept until the next cycle's issue starts): (slot, PC, first
    /// instruction dword, decoder unit class).
    pub issued: Option<(usize, u32, u32, u8)>,
    /// The IDU in front of its VALU's lane clusters, when the launch turns it on.
    pub idu: Option<super::idu_port::ValuIdu>,
    /// The slots' ages that the scheduler's age ranks (`sched_in.age`) were computed from.
    pub ranked: Option<[u64; MAX_SLOTS]>,
    /// Nothing of this unit can issue before a cycle, unless an event of its group wakes it
    /// (see [`Nap`]).
    pub nap: Option<Nap>,
    /// Its contexts' eligibility that stands until an event or a known cycle (see
    /// [`super::scan`]).
    pub memo: super::scan::ScanMemo,
}

/// A unit none of whose contexts can issue before `until`: each waits for a known cycle
/// (a dependency, its VALU) or for an event that wakes the group's units ([`Group::wake`]:
/// new split/merge outputs, a completion, a barrier release, a dispatch). Until then every
/// cycle of the unit is what its last full issue scan was: no grant, the same stall reason,
/// the same scheduler inputs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Nap {
    /// The first cycle to scan again.
    pub until: u64,
    /// The stall counted for each cycle.
    pub reason: super::Stall,
    /// The scheduler's `present` mask.
    pub present: u64,
    /// The scheduler says a cycle with these inputs changes nothing: it is not clocked.
    pub sched_idle: bool,
}

/// Contexts per unit the compute unit supports (its configuration's `n_wfc` range).
pub const MAX_SLOTS: usize = 16;

/// Writes the age rank of every slot of `ages` into `rank`: how many slots are strictly older
/// (equal ages share a rank; the rank of slot s in the (age, slot) order's first of its age).
fn set_ranks(rank: &mut [u8; MAX_WARPS], ages: &[u64]) {
    for (r, a) in rank.iter_mut().zip(ages) {
        *r = ages.iter().filter(|b| *b < a).count() as u8;
    }
}

/// The context is splitting, merging or waiting to merge (its timer counts).
fn counting(c: &CtxOut) -> bool {
    matches!(
        State::from_code(c.state),
        Some(State::Splitting | State::MergeWait | State::Merging)
    )
}

/// The strobes and the error of a group's outputs (everything but the contexts).
fn strobes(o: &GroupOut) -> (bool, u8, u8, bool, u8, u8) {
    (
        o.copy_valid,
        o.copy_from,
        o.copy_to,
        o.split_denied,
        o.error,
        o.error_ctx,
    )
}

/// One SIMD group.
pub struct Group {
    /// Units: 0 = the SIMD, 1..=S its SpSIMDs.
    pub units: Vec<Unit>,
    /// Contexts, k = slot × units + unit (the split/merge unit's numbering).
    pub ctx: Vec<Ctx>,
    /// VRFs by original slot.
    pub wfs: Vec<Wf>,
    /// The split/merge unit (the PWS block).
    pub pws: DynBlock<PwsIn, GroupOut>,
    /// The split/merge unit's inputs (this cycle's command and every context's EXEC).
    pws_in: PwsIn,
    /// The split/merge unit's outputs this cycle.
    pub out: GroupOut,
    /// The outputs read before them (their buffers reused by the next read).
    prev_out: GroupOut,
    /// The command for this cycle's edge (one per cycle: the port).
    pub cmd: GroupIn,
    /// The context whose split was commanded last cycle (DWS denial bookkeeping).
    pub last_split: Option<usize>,
    /// When recording: the split/merge unit's inputs of every cycle (command, each
    /// context's EXEC), to replay them on the RTL.
    pub trace: Option<Vec<(GroupIn, Vec<u64>)>>,
    /// How many events have woken the group's units ([`Group::wake`]): between two equal
    /// counts, a context's state, SpM, PC and EXEC changed only where it issued.
    pub wakes: u64,
    /// No context of `out` is splitting, merging or waiting to merge (kept with `out`).
    rest: bool,
    /// `out` was read again since [`Group::take_new_outputs`] last said so.
    new_outputs: bool,
}

impl Group {
    /// A group of `units` units with `n_wfc` contexts each, its split/merge unit and
    /// schedulers from `blocks`; `name` names the group's blocks (`g0`).
    pub fn new(
        blocks: &dyn Blocks,
        name: &str,
        units: usize,
        n_wfc: usize,
        params: PwsParams,
        policy: Policy,
        (dws, watchdog): (bool, u16),
    ) -> Result<Self, String> {
        let pws = blocks.pws(
            &format!("pws[{name}]"),
            ModelConfig {
                lanes: 64,
                units,
                n_wfc,
                params,
            },
        )?;
        let units = (0..units)
            .map(|u| {
                Ok(Unit {
                    valu_free: 0,
                    sched: blocks.sched(&format!("sched[{name}.u{u}]"), n_wfc)?,
                    sched_in: {
                        let mut i = SchedIn::default();
                        i.set_policy(policy);
                        i
                    },
                    issued: None,
                    idu: None,
                    ranked: None,
                    nap: None,
                    memo: Default::default(),
                })
            })
            .collect::<Result<Vec<_>, String>>()?;
        let n = units.len() * n_wfc;
        let mut g = Self {
            units,
            ctx: vec![Ctx::default(); n],
            wfs: vec![Wf::default(); n_wfc],
            out: GroupOut::default(),
            prev_out: GroupOut::default(),
            pws,
            pws_in: PwsIn {
                group: GroupIn::default(),
                exec: vec![0; n],
            },
            cmd: GroupIn::default(),
            last_split: None,
            trace: None,
            wakes: 0,
            rest: true,
            new_outputs: false,
        };
        g.cmd = g.idle_cmd(dws, watchdog);
        g.refresh();
        Ok(g)
    }

    fn idle_cmd(&self, dws: bool, watchdog: u16) -> GroupIn {
        GroupIn {
            dws,
            watchdog,
            s: (self.units.len() - 1) as u8,
            ..GroupIn::default()
        }
    }

    /// Number of units.
    pub fn n_units(&self) -> usize {
        self.units.len()
    }

    /// Context index of (unit, slot).
    pub fn k(&self, unit: usize, slot: usize) -> usize {
        slot * self.units.len() + unit
    }

    /// Whether unit `u`'s scheduler would change nothing with no eligible context and
    /// `present` (see [`crate::block::Clocked::idle_with`]).
    pub fn sched_idle(&mut self, u: usize, present: u64) -> bool {
        let unit = &mut self.units[u];
        unit.sched_in.eligible = 0;
        unit.sched_in.present = present;
        unit.sched.idle_with(&unit.sched_in)
    }

    /// Reads the split/merge unit's outputs for the current cycle.
    pub fn refresh(&mut self) {
        self.load_pws_in();
        self.read_outputs();
    }

    /// An event that may let a context issue earlier than its unit's nap says: every
    /// unit of the group scans again, every context evaluated afresh.
    pub fn wake(&mut self) {
        self.wake_units();
        for u in &mut self.units {
            u.memo.touch_all();
        }
    }

    /// An event that changed context k (a dispatch into it, a split's copy into it): every
    /// unit scans again, context k evaluated afresh.
    pub fn wake_ctx(&mut self, k: usize) {
        self.wake_units();
        let units = self.units.len();
        self.units[k % units].memo.touch(k / units);
    }

    /// An event that changed no context's liveness, state, barrier or ready cycle (a
    /// completion: counters and registers): every unit scans again.
    pub fn wake_units(&mut self) {
        self.wakes += 1;
        for u in &mut self.units {
            u.nap = None;
        }
    }

    /// Reads the split/merge unit's outputs with the pending command (every EXEC loaded).
    /// An output other than a context's `eff` that changed wakes the units.
    fn read_outputs(&mut self) {
        self.pws_in.group = self.cmd;
        std::mem::swap(&mut self.out, &mut self.prev_out);
        self.pws.outputs_into(&self.pws_in, &mut self.out);
        self.new_outputs = true;
        if self.touch_changed() || strobes(&self.out) != strobes(&self.prev_out) {
            self.rest = !self.out.ctx[..self.ctx.len()].iter().any(counting);
            self.wake_units();
        }
    }

    /// Marks the contexts whose outputs (other than `eff`, which the compute unit computes
    /// itself from EXEC and SpM) changed since the last read for a fresh evaluation (all of
    /// them on the first read); whether any did.
    fn touch_changed(&mut self) -> bool {
        let (now, before) = (&self.out.ctx, &self.prev_out.ctx);
        if now.len() != before.len() {
            self.units.iter_mut().for_each(|u| u.memo.touch_all());
            return true;
        }
        let units = self.units.len();
        let mut any = false;
        for (k, (x, y)) in now.iter().zip(before).enumerate() {
            if (CtxOut { eff: y.eff, ..*x }) != *y {
                self.units[k % units].memo.touch(k / units);
                any = true;
            }
        }
        any
    }

    /// Whether the split/merge unit's outputs were read again since the last call (only then
    /// can a context's state have changed).
    pub fn take_new_outputs(&mut self) -> bool {
        std::mem::take(&mut self.new_outputs)
    }

    /// The split/merge unit's inputs: the pending command and every context's EXEC; whether
    /// an EXEC changed since the last load.
    fn load_pws_in(&mut self) -> bool {
        self.pws_in.group = self.cmd;
        let mut moved = false;
        for (e, c) in self.pws_in.exec.iter_mut().zip(&self.ctx) {
            moved |= *e != c.r.exec;
            *e = c.r.exec;
        }
        moved
    }

    /// Grants one context of unit `u` among `eligible` (bit = slot), GTO's oldest by the
    /// slots' ages its last scan read (`memo.ages`: the wavefronts' dispatch order of slots
    /// `0..n_wfc`, given to the scheduler as ranks); pure RR rotates over `present` (the
    /// slots that can become eligible by themselves).
    pub fn grant(&mut self, u: usize, (eligible, present): (u64, u64)) -> Option<usize> {
        let n_wfc = self.wfs.len().min(MAX_SLOTS);
        let unit = &mut self.units[u];
        unit.sched_in.eligible = eligible;
        unit.sched_in.present = present;
        // The ranks change only when a slot's occupant does: recomputed only then.
        let ages = &unit.memo.ages;
        if eligible != 0 && unit.ranked.as_ref() != Some(ages) {
            set_ranks(&mut unit.sched_in.age, &ages[..n_wfc]);
            unit.ranked = Some(*ages);
        }
        let o = unit.sched.cycle(&unit.sched_in);
        o.grant_valid.then_some(usize::from(o.grant))
    }

    /// State of context k.
    pub fn state(&self, k: usize) -> State {
        State::from_code(self.out.ctx[k].state).unwrap_or(State::Empty)
    }

    /// SpM of context k.
    pub fn spm(&self, k: usize) -> u64 {
        self.out.ctx[k].spm
    }

    /// The effective mask of context k: EXEC & SpM (docs/assumptions.md#A12).
    pub fn eff(&self, k: usize) -> u64 {
        self.ctx[k].r.exec & self.out.ctx[k].spm
    }

    /// No context is splitting, merging or waiting to merge (the unit's timers stand still).
    pub fn at_rest(&self) -> bool {
        self.rest
    }

    /// The port is free for a command this cycle.
    pub fn port_free(&self) -> bool {
        self.cmd.cmd == 0
    }

    /// Queues a command for this cycle's edge.
    pub fn command(&mut self, cmd: crate::pws::Cmd, k: usize, mask: u64, pc: u32) {
        let units = self.units.len();
        self.cmd.cmd = cmd as u8;
        self.cmd.cmd_unit = (k % units) as u8;
        self.cmd.cmd_slot = (k / units) as u8;
        self.cmd.cmd_mask = mask;
        self.cmd.cmd_pc = pc;
    }

    /// The edge: clocks the split/merge unit with this cycle's command, clears the port and
    /// reads the next cycle's outputs.
    pub fn clock(&mut self) {
        if let Some(t) = self.trace.as_mut() {
            t.push((self.cmd, self.ctx.iter().map(|c| c.r.exec).collect()));
        }
        // (The inputs the outputs were last read with.)
        let read_with = self.pws_in.group;
        let exec_moved = self.load_pws_in();
        self.pws.step(&self.pws_in);
        self.last_split = (self.cmd.cmd == crate::pws::Cmd::Split as u8)
            .then(|| self.k(self.cmd.cmd_unit.into(), self.cmd.cmd_slot.into()));
        self.cmd = self.idle_cmd(self.cmd.dws, self.cmd.watchdog);
        // The edge changes no EXEC: only the command is new. The outputs are read again
        // unless no input changed since the last read and the edge changed no output.
        if exec_moved || read_with != self.cmd || !self.pws.outputs_kept() {
            self.read_outputs();
        }
    }

    /// The first fault of a block of the group checked in lock-step.
    pub fn check(&self) -> Result<(), Box<crate::block::BlockFault>> {
        self.pws.check()?;
        for u in &self.units {
            u.sched.check()?;
            if let Some(idu) = &u.idu {
                idu.check()?;
            }
        }
        Ok(())
    }

    /// A free original slot (unit 0, EMPTY or DONE, no wavefront), lowest first.
    pub fn free_slot(&self) -> Option<usize> {
        (0..self.wfs.len()).find(|&s| self.slot_free(s))
    }

    /// Free original slots.
    pub fn free_slots(&self) -> usize {
        (0..self.wfs.len()).filter(|&s| self.slot_free(s)).count()
    }

    /// Free original slots as a mask (bit `s`: slot `s`; slots past 15 left out).
    pub fn free_mask(&self) -> u16 {
        (0..self.wfs.len().min(16))
            .filter(|&s| self.slot_free(s))
            .fold(0, |m, s| m | 1 << s)
    }

    fn slot_free(&self, slot: usize) -> bool {
        let k = self.k(0, slot);
        // (The state first: the outputs are contiguous, a context's flags a line of its own.)
        matches!(self.state(k), State::Empty | State::Done) && !self.ctx[k].live
    }
}
