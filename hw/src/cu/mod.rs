//! The compute unit (Sections 2 and 4.1 of the PWS paper, docs/works/pws.md): a cycle-level model
//! of one GCN3 compute unit with predictable wavefront splitting.
//!
//! # Structure
//!
//! - a **work-group dispatcher** (`dispatch`): admits a work-group when its wavefronts fit in
//!   free SIMD slots and its LDS in a free partition; one DISPATCH per SIMD group per cycle;
//! - N_SIMD **SIMD groups** (`group`): a SIMD and S SpSIMDs, N_WFC contexts each. Every
//!   context holds PC, SGPRs, VCC, SCC, M0, EXEC, waitcnt counters; each wavefront's VRF is
//!   shared by its split halves. The group's **split/merge unit** is the PWS block's reference
//!   model ([`crate::pws::model::SimdGroupModel`], checked cycle by cycle against the RTL
//!   `SimdGroup`): it owns SpM, parents, child stacks and the context states, takes one
//!   command per cycle (its *port*: DISPATCH, SPLIT, MERGE, END);
//! - **fetch and decode**: ideal fetch (docs/assumptions.md#A29) from instruction memory, decoded
//!   by the decoder block's reference model ([`crate::isa::insn_model::decode_fields`]);
//! - **issue**: per SIMD/SpSIMD, one instruction per cycle, chosen among its eligible contexts
//!   by the scheduler block's policy ([`crate::sched::model::PolicyScheduler`], GTO or LRR;
//!   GTO's "oldest" is the wavefront dispatched first, split halves inheriting its age);
//! - **execution**: SALU (`salu`), VALU (`valu`, integer and fp32, behavioural) over the
//!   effective mask EXEC & SpM (docs/assumptions.md#A12), branches (`s_cbranch_execz/execnz` test
//!   EXEC & SpM, `vccz/vccnz` test VCC & SpM), `s_waitcnt`, `s_barrier` (all live contexts of the
//!   work-group), LDS, SMEM and FLAT through a fixed-latency memory port ([`memory`]) with one
//!   global and one LDS pipe shared round-robin by all units (docs/assumptions.md#A30).
//!
//! # Timing (all constants, [`Latencies`])
//!
//! A context issues at most every `salu`/`branch`/`valu` cycles after its previous SALU/branch/
//! VALU instruction (in order, no bypass); a VALU instruction occupies its unit's VALU for
//! `issue_period` cycles; memory instructions take 1 issue cycle and complete `flat`/`smem`/
//! `lds` cycles later (loads write their registers then). `split`: E_SPLIT cycles until both
//! halves may issue; `merge`: waits for the partner, then E_MERGE (the two halves meet only at the
//! same merge PC).
//!
//! # Modes ([`Mode`])
//!
//! - no-split: `split`/`merge` are 1-cycle SALU no-ops;
//! - DWS (docs/assumptions.md#A21): a `split` whose lanes diverge (both EXEC & SpM & M and EXEC &
//!   SpM & ¬M non-empty) splits into a free context of the same SIMD unless the split/merge unit
//!   refuses (no free context, S live splits); otherwise it serializes and its `merge` is a
//!   no-op. The `split`/`merge` pair marks the branch and its reconvergence point (the
//!   compiler side table of A21);
//! - PWS: every `split` splits into a SpSIMD; none free is `split_overflow`
//!   (docs/assumptions.md#A9).
//!   `split` and `merge` need vmcnt = lgkmcnt = 0 (docs/assumptions.md#A11): `split_pending_memory`
//!   otherwise.

pub mod abi;
mod config;
pub mod counters;
mod dispatch;
mod group;
mod idu_port;
pub mod memory;
pub mod quiet;
pub mod regfile;
mod rounds;
pub mod salu;
mod valu;

pub use abi::{Abi, WavePlace};
pub use config::{CuConfig, Latencies, Launch, Mode, MAX_CODE_BYTES, MAX_LDS_BYTES, MAX_MEM_BYTES};
pub use counters::{Counters, CuError, Fault, Stall, CLASSES, STALLS};
pub use group::{Ctx, Group, Splits};
pub use idu_port::{IduLaunch, IduShape, ValuIdu};

use crate::block::{BlockFault, Blocks, Models};
use crate::idu::model::MAX_K;
use crate::isa::insn_model::{format, unit, InsnDecodeIn, InsnFields};
use crate::memsys::coalesce::coalesce;
use crate::memsys::plan::ReorderPlan;
use crate::memsys::{GlobalAccess, MemSystem};
use crate::pws::{assemble_mask, lane_mask, Cmd, ErrorCode, PwsParams, State};
use dispatch::{Dispatcher, Wg};
use memory::{Access, Counter, Memory, Port, Writeback};
use rounds::Rounds;
use std::collections::{BinaryHeap, HashMap};
use std::sync::Arc;

/// The fewest trace entries per slot the reordering unit is built with.
const MIN_TRACE: usize = 16;

/// Trace entries per slot for `plan`: its longest trace, rounded up to a power of two (at
/// least [`MIN_TRACE`]); the reading of the plan keeps it at most `plan::MAX_TRACE`.
fn trace_entries(plan: &ReorderPlan) -> usize {
    let longest = plan.waves.iter().map(Vec::len).max().unwrap_or(0);
    longest.next_power_of_two().max(MIN_TRACE)
}

/// The most work-items in one launch (the per-wavefront counters are kept for all).
pub const MAX_GRID: u32 = 1 << 24;

/// The most work-groups of `wg` work-items and `lds_per_wg` LDS bytes, out of a grid of
/// `grid` work-items, the compute unit holds at once (at least 1): every wavefront needs a
/// SIMD slot and every work-group its LDS partition. With reordering on, the launch runs in
/// rounds of this many consecutive work-groups.
pub fn resident_wgs(cfg: &CuConfig, grid: u32, wg: u32, lds_per_wg: u32) -> u32 {
    let waves = wg.div_ceil(64).max(1);
    let by_slots = (cfg.n_simd * cfg.n_wfc) as u32 / waves;
    let by_lds = cfg.lds_bytes.checked_div(lds_per_wg).unwrap_or(u32::MAX);
    let groups = (grid / wg.max(1)).max(1);
    by_slots.min(by_lds).min(groups).max(1)
}

/// The compute unit's run state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// No launch yet.
    Idle,
    /// Running a launch.
    Busy,
    /// The launch finished.
    Done,
    /// The launch stopped with an error.
    Error(Fault),
}

/// A load or store in flight.
struct Pending {
    /// Completion cycle.
    at: u64,
    /// Issue order (completions of one cycle retire in issue order).
    seq: u64,
    group: usize,
    ctx: usize,
    /// The context's occupant when it was issued.
    serial: u64,
    counter: Counter,
    writeback: Option<Writeback>,
}

impl PartialEq for Pending {
    fn eq(&self, other: &Self) -> bool {
        (self.at, self.seq) == (other.at, other.seq)
    }
}

impl Eq for Pending {}

impl PartialOrd for Pending {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Pending {
    /// Reversed, so that the max-heap pops the earliest completion first.
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        (other.at, other.seq).cmp(&(self.at, self.seq))
    }
}

/// What issue found out about a context this cycle.
enum Elig {
    /// It may issue this instruction.
    Yes(InsnFields),
    /// It may not, for this reason.
    No(Stall),
    /// It holds no wavefront.
    Absent,
}

/// The compute unit.
pub struct ComputeUnit {
    cfg: CuConfig,
    /// Instruction memory (dwords).
    pub code: Vec<u32>,
    /// Data memory.
    pub mem: Memory,
    decoded: Vec<InsnFields>,
    launch: Option<Launch>,
    groups: Vec<Group>,
    wgs: Vec<Wg>,
    disp: Dispatcher,
    pending: BinaryHeap<Pending>,
    /// The global and LDS pipes are taken this cycle.
    pipes: [bool; 2],
    now: u64,
    start: u64,
    status: Status,
    counters: Counters,
    /// Unit-visit rotation (round-robin of shared resources).
    rotate: usize,
    /// The last context occupant number given out.
    serial: u64,
    /// Record the split/merge unit inputs of this SIMD group during launches.
    pub trace_group: Option<usize>,
    /// The global memory hierarchy of the current launch (`memory.hierarchy`).
    mem_sys: Option<MemSystem>,
    /// Record every DRAM command of the next launches.
    pub record_dram: bool,
    /// Global accesses in the hierarchy, by completion id.
    inflight: HashMap<u64, Pending>,
    /// Reordering on: the launch's traces and its rounds of work-groups.
    rounds: Option<Rounds>,
    /// Record every issue of the next launches ([`IssueRecord`]; `None`: off). Cleared at
    /// each launch. The WCET measurement (testbench's `cu::wcet`) reads it.
    pub issue_log: Option<Vec<IssueRecord>>,
    /// Where the swappable blocks come from (their reference models by default).
    blocks: Arc<dyn Blocks>,
    /// The first fault of a block checked in lock-step (the launch stopped in `rtl_block`).
    block_fault: Option<Box<BlockFault>>,
    /// Per resident work-group, reused every cycle: (some live context waits at the barrier,
    /// every live context waits there).
    barrier_scratch: (Vec<bool>, Vec<bool>),
    /// Spare buffers for the data of vector loads in flight (see [`memory::Port::spare`]).
    spare_loads: Vec<memory::Loaded>,
    /// Idle-cycle skipping.
    quiet: quiet::Quiet,
}

/// One instruction issue, as [`ComputeUnit::issue_log`] records it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IssueRecord {
    /// Cycle of the issue, counted from the launch (as the per-wavefront counters are).
    pub cycle: u64,
    /// Global wavefront number (work-group id × wavefronts per group + wave); both halves of
    /// a split wavefront carry their wavefront's number.
    pub wave: u32,
    /// SIMD group.
    pub group: u8,
    /// Unit in the group: 0 the SIMD, 1..=S its SpSIMDs.
    pub unit: u8,
    /// Byte address of the instruction.
    pub pc: u32,
}

impl ComputeUnit {
    /// A compute unit with this configuration (checked).
    pub fn new(cfg: CuConfig) -> Result<Self, String> {
        cfg.check()?;
        Ok(Self {
            code: vec![0; (cfg.code_bytes / 4) as usize],
            mem: Memory::new(cfg.mem_bytes),
            decoded: Vec::new(),
            launch: None,
            groups: Vec::new(),
            wgs: Vec::new(),
            disp: Dispatcher::default(),
            pending: BinaryHeap::new(),
            pipes: [false; 2],
            now: 0,
            start: 0,
            status: Status::Idle,
            counters: Counters::default(),
            rotate: 0,
            trace_group: None,
            serial: 0,
            mem_sys: None,
            record_dram: false,
            inflight: HashMap::new(),
            rounds: None,
            issue_log: None,
            blocks: Arc::new(Models),
            block_fault: None,
            barrier_scratch: (Vec::new(), Vec::new()),
            spare_loads: Vec::new(),
            quiet: quiet::Quiet::default(),
            cfg,
        })
    }

    /// Takes the swappable blocks (decode, schedulers, split/merge units, reordering unit, L1,
    /// DRAM controller, IDU dispatchers) from `blocks` from the next launch on.
    pub fn set_blocks(&mut self, blocks: Arc<dyn Blocks>) {
        self.blocks = blocks;
    }

    /// The first fault of a block checked in lock-step in the current or last launch.
    pub fn block_fault(&self) -> Option<&BlockFault> {
        self.block_fault.as_deref()
    }

    /// The configuration.
    pub fn config(&self) -> &CuConfig {
        &self.cfg
    }

    /// The run state.
    pub fn status(&self) -> Status {
        self.status
    }

    /// The counters of the current or last launch.
    pub fn counters(&self) -> &Counters {
        &self.counters
    }

    /// Cycles since power-up.
    pub fn now(&self) -> u64 {
        self.now
    }

    /// The SIMD groups (for probes and waveforms).
    pub fn groups(&self) -> &[Group] {
        &self.groups
    }

    /// The recorded split/merge unit inputs of SIMD group `g` (see `trace_group`).
    pub fn take_trace(&mut self, g: usize) -> Option<Vec<(crate::pws::model::GroupIn, Vec<u64>)>> {
        self.groups.get_mut(g)?.trace.take()
    }

    /// The current launch.
    pub fn launch_params(&self) -> Option<&Launch> {
        self.launch.as_ref()
    }

    /// Abandons the current launch: back to idle, counters cleared (memories kept).
    pub fn abort(&mut self) {
        self.status = Status::Idle;
        self.counters = Counters::default();
        self.groups.clear();
        self.wgs.clear();
        self.pending.clear();
        self.inflight.clear();
        self.mem_sys = None;
        self.rounds = None;
        self.disp = Dispatcher::default();
    }

    /// The memory hierarchy of the current or last launch.
    pub fn mem_sys(&self) -> Option<&MemSystem> {
        self.mem_sys.as_ref()
    }

    /// Starts a launch (the doorbell). A launch the compute unit cannot run ends at once in
    /// the `bad_launch` error, with `info` saying which check failed (1 work-group size,
    /// 2 grid size (a positive multiple of the work-group size, at most 2^24), 3 wavefronts
    /// per work-group, 4 LDS size, 5 S, 6 entry PC, 7 reordering without the memory hierarchy,
    /// 8 the reordering trace table unreadable or not matching the launch).
    pub fn launch(&mut self, l: Launch) {
        self.counters = Counters::default();
        self.block_fault = None;
        if let Some(log) = &mut self.issue_log {
            log.clear();
        }
        self.mem_sys = None;
        self.rounds = None;
        // Every launch starts from the same arbitration state (runs are reproducible).
        self.rotate = 0;
        self.quiet.reset();
        self.launch = Some(l);
        self.start = self.now;
        if let Err(info) = self.check_launch(&l) {
            self.status = Status::Error(Fault {
                error: CuError::BadLaunch,
                pc: 0,
                info,
            });
            return;
        }
        let waves = l.wg.div_ceil(64);
        let groups = l.grid / l.wg;
        self.disp = Dispatcher::new(groups, waves);
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
        if let Err(e) = self.decode_all() {
            return self.fail_blocks(e);
        }
        self.status = Status::Busy;
    }

    /// The SIMD groups of launch `l` (and their IDUs), blocks from [`Self::set_blocks`].
    fn build_groups(&mut self, l: &Launch, params: PwsParams) -> Result<(), String> {
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
    fn decode_all(&mut self) -> Result<(), String> {
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
    fn record_fault(&mut self, f: Box<BlockFault>) -> String {
        let msg = f.to_string();
        self.block_fault.get_or_insert(f);
        msg
    }

    /// The launch stops in `rtl_block` (a block could not be built or disagreed with its
    /// model; the message is in [`Self::block_fault`] or was `msg`).
    fn fail_blocks(&mut self, msg: String) {
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
    fn check_blocks(&mut self) {
        let fault = self
            .groups
            .iter()
            .find_map(|g| g.check().err())
            .or_else(|| self.mem_sys.as_ref().and_then(|m| m.check().err()));
        if let Some(f) = fault {
            let msg = self.record_fault(f);
            self.fail_blocks(msg);
        }
    }

    /// The hierarchy and (reordering on) the trace table and rounds of launch `l` of `waves`
    /// wavefronts; `Err(Ok(8))`: the trace table is unreadable; `Err(Err(why))`: a block
    /// could not be built.
    fn start_memory(&mut self, l: &Launch, waves: u32) -> Result<(), Result<u32, String>> {
        self.rounds = None;
        self.mem_sys = None;
        if !self.cfg.memory.hierarchy {
            return Ok(());
        }
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

    fn check_launch(&self, l: &Launch) -> Result<(), u32> {
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
        if self
            .quiet
            .holds(self.now, self.pending.peek().map(|p| p.at))
        {
            return self.quiet_cycle();
        }
        let stalls = self.counters.stalls;
        let refusals = self.mem_sys.as_ref().map_or(0, MemSystem::refusals);
        self.quiet.active = false;
        self.retire();
        self.observe();
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
    fn end_cycle(&mut self) {
        self.now += 1;
        if self.status == Status::Busy {
            self.counters.cycles = self.now - self.start;
            if self.finished() {
                self.status = Status::Done;
            }
        }
    }

    /// A quiet cycle: only the hierarchy moves; the stalls and the rotation repeat.
    fn quiet_cycle(&mut self) {
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
    fn quiet_jump(&mut self, n: u64) -> u64 {
        let next = self.pending.peek().map(|p| p.at);
        if self.mem_sys.is_some()
            || self.status != Status::Busy
            || !self.quiet.holds(self.now, next)
        {
            return 0;
        }
        let k = n
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
    fn quiet_horizon(&mut self) -> Option<u64> {
        if !self.quiet.on || self.quiet.active || self.status != Status::Busy {
            return None;
        }
        if self.blocks.checked() || !self.note_mem_waits() {
            return None;
        }
        // (`now` is the next cycle: a time reached there already changes what it does.)
        let mut h = self.pending.peek().map_or(u64::MAX, |p| p.at);
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
    fn note_mem_waits(&mut self) -> bool {
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
    fn memory_cycle(&mut self) {
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

    fn finished(&self) -> bool {
        self.disp.finished()
            && self.inflight.is_empty()
            && self.mem_sys.as_ref().is_none_or(MemSystem::idle)
            && self.pending.is_empty()
            && self.groups.iter().all(|g| g.ctx.iter().all(|c| !c.live))
    }

    fn fail(&mut self, error: CuError, pc: u32, info: u32) {
        if self.status == Status::Busy {
            self.status = Status::Error(Fault { error, pc, info });
        }
    }

    /// Completes the loads and stores whose latency has passed.
    fn retire(&mut self) {
        while self.pending.peek().is_some_and(|p| p.at <= self.now) {
            let p = self.pending.pop().expect("peeked");
            self.quiet.active = true;
            let g = &mut self.groups[p.group];
            let ctx = &mut g.ctx[p.ctx];
            if ctx.serial != p.serial {
                // Its wavefront has ended (only stores can still be in flight then).
                continue;
            }
            let count = match p.counter {
                Counter::Vm => &mut ctx.vmcnt,
                Counter::Lgkm => &mut ctx.lgkmcnt,
            };
            debug_assert!(*count > 0, "a completion without an outstanding operation");
            *count = count.saturating_sub(1);
            if let Some(wb) = p.writeback {
                let wf = ctx.wf;
                let applied = wb.apply(&mut g.ctx[p.ctx].r, &mut g.wfs[wf].vrf);
                let pc = g.ctx[p.ctx].last_pc;
                wb.recycle(&mut self.spare_loads);
                if applied.is_err() {
                    self.fail(CuError::IllegalInstruction, pc, 0);
                }
            }
        }
    }

    /// Acts on the split/merge units' outputs: copies, refusals, merged children, errors.
    fn observe(&mut self) {
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
                y.splits.clear();
                self.serial += 1;
                y.serial = self.serial;
                y.ready_at = 0;
                g.ctx[to] = y;
                self.counters.splits += 1;
            }
            if denied {
                if let Some(k) = g.last_split {
                    g.ctx[k].splits.serialize_top();
                }
                self.counters.serialized += 1;
            }
            for k in 0..g.ctx.len() {
                if g.ctx[k].live && g.out.ctx[k].state == State::Empty as u8 {
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
    fn release_barriers(&mut self) {
        // Per resident work-group: some live context waits, every live context waits.
        let waiting = |c: &group::Ctx| c.live && c.barrier;
        if !self.groups.iter().any(|g| g.ctx.iter().any(waiting)) {
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
        if !any.contains(&true) {
            return;
        }
        // (A release is activity; a wait without one repeats until something else happens.)
        self.quiet.active |= any.iter().zip(every.iter()).any(|(a, e)| *a && *e);
        for g in &mut self.groups {
            for c in g
                .ctx
                .iter_mut()
                .filter(|c| c.live && any[c.wg] && every[c.wg])
            {
                c.barrier = false;
            }
        }
    }

    /// Reordering on: configures the unit for a round once all of it is placed, and opens the
    /// next round once the last has ended.
    fn round_control(&mut self) {
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
    fn dispatch(&mut self) {
        let l = self.launch.expect("dispatch runs during a launch");
        self.round_control();
        let free: usize = self.groups.iter().map(Group::free_slots).sum();
        // Work-groups without LDS are limited by slots only.
        let max_resident = self
            .cfg
            .lds_bytes
            .checked_div(l.lds_per_wg)
            .map_or(usize::MAX, |n| n as usize);
        let n = self.groups.len();
        // Admit while fewer wavefronts wait than there are SIMD groups to send them to.
        while self.disp.pending.len() < n
            && self.disp.admit(
                &mut self.wgs,
                free,
                max_resident,
                (l.lds_per_wg / 4) as usize,
            )
        {
            self.quiet.active = true;
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
    fn start_wave(&mut self, gi: usize, slot: usize, wi: usize, wave: u32, l: &Launch) {
        let wg_id = self.wgs[wi].id;
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
        g.command(Cmd::Dispatch, k, lanes, 0);
        self.counters.wf[global].0 = self.now + 1 - self.start;
        if let Some(r) = &mut self.rounds {
            r.placed(gi * self.cfg.n_wfc + slot, wg_id, wave, global);
        }
    }

    /// Every SIMD/SpSIMD picks and issues at most one instruction.
    fn issue_all(&mut self) {
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
        for i in 0..all {
            let n = (self.rotate + i) % all;
            self.issue_unit(n / units, n % units, &l);
            if self.status != Status::Busy {
                return;
            }
        }
    }

    fn issue_unit(&mut self, gi: usize, u: usize, l: &Launch) {
        let n_wfc = self.cfg.n_wfc;
        let mut mask = 0u64;
        let mut reason = Stall::Idle;
        let mut found = [None; 16];
        for (slot, entry) in found.iter_mut().enumerate().take(n_wfc) {
            let k = self.groups[gi].k(u, slot);
            match self.eligibility(gi, k, l) {
                Elig::Yes(f) => {
                    mask |= 1 << slot;
                    *entry = Some(f);
                }
                Elig::No(r) => reason = reason.min_by_priority(r),
                Elig::Absent => {}
            }
        }
        let g = &mut self.groups[gi];
        let mut ages = [0u64; 16];
        for (s, a) in ages.iter_mut().enumerate().take(n_wfc) {
            *a = g.ctx[s * g.units.len() + u].age;
        }
        let Some(slot) = g.grant(u, mask, |s| ages[s]) else {
            self.counters.stalls[reason as usize] += 1;
            return;
        };
        let f = found[slot].expect("granted contexts are eligible");
        self.quiet.active = true;
        let k = self.groups[gi].k(u, slot);
        let pc = self.groups[gi].ctx[k].pc;
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
        self.issue(gi, u, k, f, l);
    }

    /// Whether context k of group gi may issue now.
    fn eligibility(&self, gi: usize, k: usize, l: &Launch) -> Elig {
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
        if c.ready_at > self.now {
            return Elig::No(Stall::Dependency);
        }
        let Some(&f) = self.decoded.get((c.pc / 4) as usize) else {
            // Issue reports the bad PC.
            return Elig::Yes(InsnFields::default());
        };
        if f.illegal {
            return Elig::Yes(f);
        }
        let structural = match f.unit {
            unit::VALU => match &g.units[k % g.n_units()].idu {
                Some(idu) => !idu.can_dispatch(self.now),
                None => g.units[k % g.n_units()].valu_free > self.now,
            },
            unit::VMEM => self.pipes[0] || !self.global_port_free(gi, k),
            unit::SMEM => self.pipes[0],
            unit::LDS => self.pipes[1],
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
            Elig::Yes(f)
        }
    }

    /// The hierarchy takes a global access of context k of group gi this cycle.
    fn global_port_free(&self, gi: usize, k: usize) -> bool {
        let slot = gi * self.cfg.n_wfc + self.groups[gi].ctx[k].wf;
        // Reordering on: nothing enters the unit before its round's configuration.
        let configuring = self.rounds.as_ref().is_some_and(|r| !r.configured);
        !configuring && self.mem_sys.as_ref().is_none_or(|m| m.accepts(slot as u8))
    }

    /// Issues instruction `f` of context k (unit u of group gi).
    fn issue(&mut self, gi: usize, u: usize, k: usize, f: InsnFields, l: &Launch) {
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
            unit::VMEM | unit::SMEM | unit::LDS => self.memory(gi, k, &f),
            unit::BRANCH => self.branch(gi, k, &f, next),
            unit::PWS => self.split_merge(gi, k, &f, l.mode),
            unit::SYNC => {
                if f.opcode == 0x0A {
                    self.groups[gi].ctx[k].barrier = true;
                }
                Ok(())
            }
            _ => self.program(gi, k, &f),
        };
        if let Err((error, info)) = result {
            self.fail(error, pc, info);
        }
    }

    fn salu(
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

    fn memory(&mut self, gi: usize, k: usize, f: &InsnFields) -> Result<(), (CuError, u32)> {
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
        let c = &mut g.ctx[k];
        match counter {
            Counter::Vm => c.vmcnt += 1,
            Counter::Lgkm => c.lgkmcnt += 1,
        }
        c.ready_at = self.now + 1;
        self.serial += 1;
        let p = Pending {
            at: self.now + u64::from(latency),
            seq: self.serial,
            group: gi,
            ctx: k,
            serial: c.serial,
            counter,
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
    fn global_access(
        &mut self,
        gi: usize,
        k: usize,
        f: &InsnFields,
        eff: u64,
        mut p: Pending,
    ) -> Result<(), (CuError, u32)> {
        let g = &mut self.groups[gi];
        let (pc, wf) = (g.ctx[k].last_pc, g.ctx[k].wf);
        let lines = coalesce(
            memory::flat_addresses(f, &g.wfs[wf].vrf, eff),
            memory::dwords(f),
        );
        if lines.is_empty() {
            p.at = self.now + 1;
            self.pending.push(p);
            return Ok(());
        }
        let (mut seq, mut pc_idx) = (0, 0);
        if let Some(r) = &self.rounds {
            let w = &mut g.wfs[wf];
            let n = w.ldst_k.entry(pc).or_insert(0);
            let found = r.plan.seq_of(w.global, pc, *n);
            *n += 1;
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

    fn branch(
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

    fn split_merge(
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

    fn program(&mut self, gi: usize, k: usize, f: &InsnFields) -> Result<(), (CuError, u32)> {
        let g = &mut self.groups[gi];
        match f.opcode {
            0x00 => g.ctx[k].ready_at = self.now + 1 + u64::from(f.imm & 0xF),
            0x0E => g.ctx[k].ready_at = self.now + 64 * u64::from(f.imm & 0x7F).max(1),
            _ => self.end(gi, k),
        }
        Ok(())
    }

    /// `s_endpgm`.
    fn end(&mut self, gi: usize, k: usize) {
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
        let wg = &mut self.wgs[wi];
        wg.live_waves -= 1;
        if wg.live_waves == 0 {
            wg.active = false;
        }
    }
}

/// The initial EXEC of wave `wave` of a work-group of `wg` work-items.
fn wave_lanes(wg: u32, wave: u32) -> u64 {
    lane_mask(wg.saturating_sub(wave * 64).min(64) as usize)
}

/// `s_waitcnt imm` is satisfied: vmcnt ≤ imm[3:0], lgkmcnt ≤ imm[11:8].
fn waitcnt_ok(c: &Ctx, imm: u32) -> bool {
    c.vmcnt <= imm & 0xF && c.lgkmcnt <= (imm >> 8) & 0xF
}

/// An operand the instruction may not use: illegal instruction.
fn bad(code: u16) -> (CuError, u32) {
    (CuError::IllegalInstruction, u32::from(code))
}

impl Stall {
    /// The more telling of two reasons (lower code wins).
    fn min_by_priority(self, other: Stall) -> Stall {
        if (other as u8) < (self as u8) {
            other
        } else {
            self
        }
    }
}
