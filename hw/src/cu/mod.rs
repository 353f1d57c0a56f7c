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
//! `lds` cycles later (loads write their registers then); a DS instruction keeps the LDS from
//! every unit for `lds_period` cycles (docs/assumptions.md#A104). `split`: E_SPLIT cycles
//! until both halves may issue; `merge`: waits for the partner, then E_MERGE (the two halves
//! meet only at the same merge PC).
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
//!
//! FLAT operations (loads and stores) complete in their context's issue order, as GCN's vmcnt
//! counts down: `s_waitcnt vmcnt(N)` waits until all but the N latest are done, and compiled
//! kernels rely on it. With fixed latencies they finish in that order anyway; with the memory
//! hierarchy a hit that finishes before an earlier miss is held (counter and registers) until
//! the miss completes.

pub mod abi;
mod coalesce;
mod config;
pub mod counters;
mod dispatch;
pub mod dispatch_log;
mod group;
mod idu_port;
pub mod inject;
pub mod memory;
pub mod observe;
pub mod quiet;
pub mod regfile;
mod rounds;
pub mod salu;
mod scan;
mod valu;

mod execute;
mod issue;
pub mod issue_trace;
mod launch;
mod progress;
mod simd_port;
mod step;

pub use abi::{Abi, WavePlace};
pub use config::{CuConfig, Latencies, Launch, Mode, MAX_CODE_BYTES, MAX_LDS_BYTES, MAX_MEM_BYTES};
pub use counters::{Counters, CuError, Fault, Stall, CLASSES, STALLS};
pub use group::{Ctx, Group, Splits};
pub use idu_port::{IduLaunch, IduShape, ValuIdu};

use crate::block::{BlockFault, Blocks, Models};
use crate::idu::model::MAX_K;
use crate::isa::insn_model::{format, unit, InsnDecodeIn, InsnFields};
use crate::memsys::plan::ReorderPlan;
use crate::memsys::{GlobalAccess, MemSystem};
use crate::pws::{assemble_mask, lane_mask, Cmd, ErrorCode, PwsParams, State};
pub use dispatch::WgPart;
use dispatch::{Dispatcher, Wg};
pub use dispatch_log::DispatchRecord;
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
    /// A FLAT operation's place in its context's issue order (`Ctx::vm_issued` then).
    order: u64,
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
    /// It may issue its next instruction.
    Yes,
    /// It may not, for this reason, until something the issue stage does not track changes
    /// (an event: a split/merge output, a completion, a barrier release, a dispatch — or this
    /// cycle's shared pipes and ports).
    No(Stall),
    /// It may not, for this reason, before this cycle unless an event changes it.
    Until(Stall, u64),
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
    /// The first cycle the LDS accepts a DS instruction again: `lds_period` cycles after the
    /// last one's issue (docs/assumptions.md#A104).
    lds_free: u64,
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
    /// The coalescer of the FLAT instructions that go to the hierarchy (with `mem_sys`).
    coal: Option<coalesce::Coalescing>,
    /// Record every DRAM command of the next launches.
    pub record_dram: bool,
    /// Global accesses in the hierarchy, by completion id.
    inflight: HashMap<u64, Pending>,
    /// FLAT completions waiting for an earlier FLAT operation of their context to complete.
    parked: Vec<Pending>,
    /// Reordering on: the launch's traces and its rounds of work-groups.
    rounds: Option<Rounds>,
    /// Record every issue of the next launches ([`IssueRecord`]; `None`: off). Cleared at
    /// each launch. The WCET measurement (testbench's `cu::wcet`) reads it.
    pub issue_log: Option<Vec<IssueRecord>>,
    /// Record the dispatcher's inputs and actions during the next launches
    /// ([`dispatch_log`]; `None`: off). Cleared at each launch.
    pub dispatch_log: Option<Vec<DispatchRecord>>,
    /// Record every unit's issue decision of the next launches, every cycle scanned
    /// ([`issue_trace::IssueSample`]; `None`: off). Cleared at each launch.
    pub issue_trace: Option<Vec<issue_trace::IssueSample>>,
    /// Where the swappable blocks come from (their reference models by default).
    blocks: Arc<dyn Blocks>,
    /// The first fault of a block checked in lock-step (the launch stopped in `rtl_block`).
    block_fault: Option<Box<BlockFault>>,
    /// Per resident work-group, reused every cycle: (some live context waits at the barrier,
    /// every live context waits there).
    barrier_scratch: (Vec<bool>, Vec<bool>),
    /// Some context may wait at a barrier (set where one starts waiting; cleared by a
    /// barrier scan that finds none): without it the scan is left out.
    barrier_armed: bool,
    /// Spare buffers for the data of vector loads in flight (see [`memory::Port::spare`]).
    spare_loads: Vec<memory::Loaded>,
    /// Idle-cycle skipping.
    quiet: quiet::Quiet,
    /// The register observer ([`observe`]; `None`: off).
    observer: Option<Box<dyn observe::Observer>>,
    /// The armed bit flip ([`inject`]; `None`: off) and, once done, what it flipped.
    inject: inject::Armed,
    /// Sim-D execution: the slots' scheduler and the access resource (`None`: GCN).
    simd: Option<Box<crate::simd::SimdExec>>,
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
            lds_free: 0,
            now: 0,
            start: 0,
            status: Status::Idle,
            counters: Counters::default(),
            rotate: 0,
            trace_group: None,
            serial: 0,
            mem_sys: None,
            coal: None,
            record_dram: false,
            inflight: HashMap::new(),
            parked: Vec::new(),
            rounds: None,
            issue_log: None,
            dispatch_log: None,
            issue_trace: None,
            blocks: Arc::new(Models),
            block_fault: None,
            barrier_scratch: (Vec::new(), Vec::new()),
            barrier_armed: false,
            spare_loads: Vec::new(),
            quiet: quiet::Quiet::default(),
            observer: None,
            inject: inject::Armed::default(),
            simd: None,
            cfg,
        })
    }

    /// Takes the swappable blocks (decode, schedulers, split/merge units, coalescer, reordering
    /// unit, L1, DRAM controller, IDU dispatchers) from `blocks` from the next launch on.
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

    /// The last cycle was a quiet one: no context, split/merge unit or issue unit changed in
    /// it (a waveform probe need not read them again).
    pub fn last_cycle_quiet(&self) -> bool {
        self.quiet.last
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
        self.parked.clear();
        self.mem_sys = None;
        self.coal = None;
        self.rounds = None;
        self.simd = None;
        self.disp = Dispatcher::default();
    }

    /// The memory hierarchy of the current or last launch.
    pub fn mem_sys(&self) -> Option<&MemSystem> {
        self.mem_sys.as_ref()
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
