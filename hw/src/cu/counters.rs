//! Performance counters and error codes of the compute unit.

use serde::Serialize;

/// Instruction classes counted separately (the decoder's unit codes 1..=9).
pub const CLASSES: [&str; 9] = [
    "salu", "valu", "vmem", "smem", "lds", "branch", "pws", "sync", "program",
];

/// Why a SIMD/SpSIMD issued nothing in a cycle (the first that applies, in this order).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum Stall {
    /// A wavefront could issue but its unit's VALU, a memory pipe or the split/merge port was
    /// taken.
    Structural = 0,
    /// A wavefront waits for its previous instruction's latency.
    Dependency = 1,
    /// A wavefront waits in `s_waitcnt`.
    Waitcnt = 2,
    /// A wavefront waits at `s_barrier`.
    Barrier = 3,
    /// A wavefront is splitting, merging or waiting for its merge partner.
    SplitMerge = 4,
    /// No wavefront on the unit.
    Idle = 5,
}

/// The stall reasons' names, in code order.
pub const STALLS: [&str; 6] = [
    "structural",
    "dependency",
    "waitcnt",
    "barrier",
    "split_merge",
    "idle",
];

/// The counters of one launch.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Counters {
    /// Cycles from the doorbell to the end of the last wavefront (or the error).
    pub cycles: u64,
    /// Instructions issued, per class ([`CLASSES`]).
    pub insts: [u64; 9],
    /// Unit-cycles without an issue, per reason ([`STALLS`]).
    pub stalls: [u64; 6],
    /// Splits carried out.
    pub splits: u64,
    /// Merges carried out.
    pub merges: u64,
    /// DWS: `split`s that ran serialized (uniform lanes, no free context, or S reached).
    pub serialized: u64,
    /// Per wavefront (work-group id × waves per group + wave): the cycle it became ready and
    /// the cycle it executed `s_endpgm` (0 until then).
    pub wf: Vec<(u64, u64)>,
    /// The memory hierarchy's counters (0 without it).
    pub mem: crate::memsys::MemCounters,
    /// IDU on: VALU instructions dispatched to each lane cluster, over all units.
    pub idu: [u64; 8],
}

impl Counters {
    /// Instructions issued, all classes.
    pub fn instructions(&self) -> u64 {
        self.insts.iter().sum()
    }
}

/// Why a launch ended in the error state (the `ERROR` register's codes).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum CuError {
    /// A word outside the instruction subset, or an operand the instruction may not use.
    IllegalInstruction = 1,
    /// PWS `split` with no free SpSIMD context (docs/assumptions.md#A9).
    SplitOverflow = 2,
    /// A wavefront waited at `merge` longer than the watchdog (mismatched merges).
    MergeWatchdog = 3,
    /// `s_endpgm` by a wavefront with live splits (docs/assumptions.md#A23).
    EndLiveSplits = 4,
    /// The launch registers describe a launch the compute unit cannot run.
    BadLaunch = 5,
    /// A data memory access that is unaligned or past the end of memory.
    MemoryFault = 6,
    /// An LDS access that is unaligned or past the work-group's LDS.
    LdsFault = 7,
    /// The PC left instruction memory.
    PcOutOfRange = 8,
    /// `split` or `merge` with memory operations outstanding (docs/assumptions.md#A11).
    SplitPendingMemory = 9,
    /// The split/merge unit reported a protocol error (empty/busy context, bad command).
    PwsProtocol = 10,
    /// Reordering on: a global access the trace table does not list (info: the wavefront).
    ReorderTrace = 11,
    /// The memory hierarchy stopped: the reordering unit's error code (1 wrong pc_idx,
    /// 2 watchdog, 3 unmapped slot), 16 for the DRAM side, 17 a lost request (info).
    MemorySystem = 12,
    /// Simulation only: a block checked in lock-step disagreed with its reference model, or
    /// its RTL could not be built for this configuration (`rtgpu run --rtl`).
    RtlBlock = 13,
}

impl CuError {
    /// Every error, in code order.
    pub const ALL: [CuError; 13] = [
        CuError::IllegalInstruction,
        CuError::SplitOverflow,
        CuError::MergeWatchdog,
        CuError::EndLiveSplits,
        CuError::BadLaunch,
        CuError::MemoryFault,
        CuError::LdsFault,
        CuError::PcOutOfRange,
        CuError::SplitPendingMemory,
        CuError::PwsProtocol,
        CuError::ReorderTrace,
        CuError::MemorySystem,
        CuError::RtlBlock,
    ];

    /// The error with this code.
    pub fn from_code(code: u32) -> Option<CuError> {
        Self::ALL.iter().copied().find(|e| *e as u32 == code)
    }

    /// The name used in messages and JSON.
    pub fn name(self) -> &'static str {
        match self {
            CuError::IllegalInstruction => "illegal_instruction",
            CuError::SplitOverflow => "split_overflow",
            CuError::MergeWatchdog => "merge_watchdog",
            CuError::EndLiveSplits => "end_live_splits",
            CuError::BadLaunch => "bad_launch",
            CuError::MemoryFault => "memory_fault",
            CuError::LdsFault => "lds_fault",
            CuError::PcOutOfRange => "pc_out_of_range",
            CuError::SplitPendingMemory => "split_pending_memory",
            CuError::PwsProtocol => "pws_protocol",
            CuError::ReorderTrace => "reorder_trace",
            CuError::MemorySystem => "memory_system",
            CuError::RtlBlock => "rtl_block",
        }
    }
}

/// An error with where it happened.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Fault {
    /// What.
    pub error: CuError,
    /// PC of the instruction (0 for launch errors).
    pub pc: u32,
    /// Extra: the faulting address (low 32 bits), the instruction word, or the wavefront.
    pub info: u32,
}
