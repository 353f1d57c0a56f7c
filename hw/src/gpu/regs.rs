//! The GPU's MMIO register map: 32-bit registers at byte offsets. The firmware driver is the
//! only thing that touches them (docs/architecture.md).
//!
//! | offset | name | access | meaning |
//! |---|---|---|---|
//! | 0x000 | `ID` | R | 0x5254_4750 ("RTGP") |
//! | 0x004 | `VERSION` | R | register map version (3; see [`VERSION`]) |
//! | 0x008 | `CTRL` | W | bit 0: doorbell (start the launch in the launch registers on `CU_MASK`'s compute units now; refused while anything runs or waits); bit 1: reset: abandon every running launch and the queue, status idle, counters 0, tags from 0 (memories kept); bit 2: enqueue (append the launch registers to the hardware queue as a sub-kernel with the tag `QUEUE_TAIL`; refused when 64 wait or a doorbell launch runs; [`super::queue`]) |
//! | 0x00C | `STATUS` | R | 0 idle, 1 busy (a compute unit runs or the queue holds work), 2 done, 3 error (a compute unit stopped with an error: `ERROR_CU`) |
//! | 0x010 | `ERROR` | R | error code of compute unit `ERROR_CU` when STATUS = 3 ([`crate::cu::CuError`]: 1 illegal_instruction, 2 split_overflow, 3 merge_watchdog, 4 end_live_splits, 5 bad_launch, 6 memory_fault, 7 lds_fault, 8 pc_out_of_range, 9 split_pending_memory, 10 pws_protocol, 11 reorder_trace, 12 memory_system), else 0 |
//! | 0x014 | `ERROR_PC` | R | PC of the faulting instruction |
//! | 0x018 | `ERROR_INFO` | R | faulting address, instruction word, context, or (bad_launch) the failed check |
//! | 0x020 | `CODE_ADDR` | RW | byte address in instruction memory for `CODE_DATA` |
//! | 0x024 | `CODE_DATA` | RW | the dword at `CODE_ADDR`; each access adds 4 to `CODE_ADDR` |
//! | 0x028 | `MEM_ADDR_LO` | RW | byte address in data memory for `MEM_DATA`, low half |
//! | 0x02C | `MEM_ADDR_HI` | RW | high half |
//! | 0x030 | `MEM_DATA` | RW | the dword at `MEM_ADDR`; each access adds 4 to `MEM_ADDR` |
//! | 0x034 | `CODE_SIZE` | R | instruction memory bytes |
//! | 0x038 | `MEM_SIZE_LO` | R | data memory bytes, low half |
//! | 0x03C | `MEM_SIZE_HI` | R | high half |
//! | 0x040 | `ENTRY_PC` | RW | byte address of the first instruction |
//! | 0x044 | `KERNARG_LO` | RW | kernel argument segment address, low half (into s0) |
//! | 0x048 | `KERNARG_HI` | RW | high half (into s1) |
//! | 0x04C | `GRID` | RW | work-items in the launch |
//! | 0x050 | `WG` | RW | work-items per work-group |
//! | 0x054 | `LDS` | RW | LDS bytes per work-group |
//! | 0x058 | `MODE` | RW | bits 1:0 mode (0 no-split, 1 DWS, 2 PWS); bits 6:4 S (1..=7) |
//! | 0x05C | `SCHED` | RW | issue policy (bits 1:0): 0 LRR, 1 GTO, 2 pure RR (3: LRR) |
//! | 0x060 | `FEATURES` | RW | bit 0: the reordering unit on (needs `memory.hierarchy`; the trace table at `TRACE_ADDR`); bit 3: Sim-D execution (work-groups as access and compute phases, `tile_ld`/`tile_st` to the DRAM controller, two slots; [`crate::simd`]); bit 4 with bit 3: the phase rules off (free scheduling of the two slots) |
//! | 0x064 | `TRACE_ADDR_LO` | RW | byte address of the reordering trace table in data memory ([`crate::memsys::plan`]), low half |
//! | 0x068 | `TRACE_ADDR_HI` | RW | high half |
//! | 0x06C | `ABI` | RW | bit 0: the wavefronts start with the HSA ABI from `PGM_RSRC2` and `USER_DATA` (else rtgpu's simple ABI from `KERNARG`; [`crate::cu::abi`]) |
//! | 0x070 | `PGM_RSRC2` | RW | HSA: bit 0 scratch wave offset SGPR, bits 5:1 user SGPR count, bits 7–9 work-group id x/y/z SGPRs, bit 10 work-group info SGPR |
//! | 0x074 | `WG_FIRST` | RW | the sub-kernel's first work-group (0: the launch from work-group 0) |
//! | 0x078 | `WG_COUNT` | RW | its work-groups (0: from `WG_FIRST` to the end of the grid); dealt round-robin over the first min(`WG_COUNT`, compute units in `CU_MASK`) of them |
//! | 0x07C | `CU_MASK` | RW | its compute units, bit i = compute unit i (0: all) |
//! | 0x0C0 + 4i | `USER_DATA[i]` | RW | i = 0..=15, HSA: the value of user SGPR i |
//! | 0x080 + 8k | `IDU_CLUSTER[k]` | RW | k = 0..=7, VALU lane cluster k behind the IDU (used with `FEATURES` bit 1; bit 2 = IDU distribution, else the stock dispatcher): +0 bits 7:0 limit, bit 8 working; +4 clock period in ps (0 = no clock) |
//! | 0x100 + 8i | `COUNTER[i]` LO/HI | R | 64-bit counters, low half at +0, high at +4: i = 0 cycles, 1 instructions, 2..=10 instructions per class (salu, valu, vmem, smem, lds, branch, pws, sync, program), 11..=16 unit-cycles without issue per reason (structural, dependency, waitcnt, barrier, split_merge, idle), 17 splits, 18 merges, 19 DWS serialized splits, 20 L1 accesses, 21 L1 hits, 22 L1 misses, 23 L1 stall cycles, 24 reordering credit stalls, 25 DRAM reads, 26 DRAM writes, 27 sum of DRAM LIDs, 28 DRAM refreshes, 29 DRAM cycles (20..=29 are 0 without the hierarchy) |
//! | 0x200 + 8i | `COUNTER2[i]` LO/HI | R | i = 0..=7 VALU instructions dispatched to IDU cluster i, 8 cycles the reordering unit held a released instruction (the L1 side busy), 9 largest DRAM LID |
//! | 0x260 | `N_CU` | R | compute units (1..=32) |
//! | 0x264 | `CU_SEL` | RW | the compute unit whose `COUNTER`, `COUNTER2` and `WF_*` registers read (0 after power-up; a value ≥ `N_CU` is refused) |
//! | 0x268 | `CU_BUSY` | R | bit i: compute unit i runs a launch |
//! | 0x26C | `QUEUE_LEN` | R | sub-kernels waiting in the hardware queue |
//! | 0x270 | `QUEUE_TAIL` | R | the tag the next enqueue gets (enqueues since reset) |
//! | 0x274 | `DONE_COUNT` | R | completed sub-kernels not yet popped |
//! | 0x278 | `DONE_POP` | R | pops the oldest completion and returns its tag (0xFFFF_FFFF: none); latches `DONE_FAILED`, `DONE_START`, `DONE_END` |
//! | 0x27C | `DONE_FAILED` | R | 1 if a compute unit of the popped sub-kernel stopped with an error |
//! | 0x280 | `DONE_START` LO/HI | R | cycle (since power-up) the popped sub-kernel started, low half at +0 |
//! | 0x288 | `DONE_END` LO/HI | R | cycle it completed |
//! | 0x290 | `NOW` LO/HI | R | cycles since power-up |
//! | 0x298 | `ERROR_CU` | R | the lowest compute unit in an error state (0 if none) |
//! | 0x1F0 | `WF_COUNT` | R | wavefronts in the launch |
//! | 0x1F4 | `WF_SEL` | RW | wavefront index for `WF_START`/`WF_FINISH` |
//! | 0x1F8 | `WF_START` | R | cycle the selected wavefront became ready |
//! | 0x1FC | `WF_FINISH` | R | cycle it executed `s_endpgm` (0 if it has not) |
//!
//! Cycles count from the doorbell (a sub-kernel's, on each compute unit, from its start).
//! Launch registers cannot be written while a doorbell launch runs; while queued sub-kernels
//! run they can (an enqueue copies them).
//! Any other offset, a write to a read-only register, a read of `CTRL`, or an unaligned
//! offset is refused with a [`BusError`] (the bus's error response); nothing panics.

/// Register offsets.
#[allow(missing_docs)]
pub mod addr {
    pub const ID: u32 = 0x000;
    pub const VERSION: u32 = 0x004;
    pub const CTRL: u32 = 0x008;
    pub const STATUS: u32 = 0x00C;
    pub const ERROR: u32 = 0x010;
    pub const ERROR_PC: u32 = 0x014;
    pub const ERROR_INFO: u32 = 0x018;
    pub const CODE_ADDR: u32 = 0x020;
    pub const CODE_DATA: u32 = 0x024;
    pub const MEM_ADDR_LO: u32 = 0x028;
    pub const MEM_ADDR_HI: u32 = 0x02C;
    pub const MEM_DATA: u32 = 0x030;
    pub const CODE_SIZE: u32 = 0x034;
    pub const MEM_SIZE_LO: u32 = 0x038;
    pub const MEM_SIZE_HI: u32 = 0x03C;
    pub const ENTRY_PC: u32 = 0x040;
    pub const KERNARG_LO: u32 = 0x044;
    pub const KERNARG_HI: u32 = 0x048;
    pub const GRID: u32 = 0x04C;
    pub const WG: u32 = 0x050;
    pub const LDS: u32 = 0x054;
    pub const MODE: u32 = 0x058;
    pub const SCHED: u32 = 0x05C;
    pub const FEATURES: u32 = 0x060;
    pub const TRACE_ADDR_LO: u32 = 0x064;
    pub const TRACE_ADDR_HI: u32 = 0x068;
    pub const ABI: u32 = 0x06C;
    pub const PGM_RSRC2: u32 = 0x070;
    pub const USER_DATA: u32 = 0x0C0;
    pub const USER_DATA_END: u32 = 0x100;
    pub const IDU_CLUSTER: u32 = 0x080;
    pub const IDU_CLUSTER_END: u32 = 0x0C0;
    pub const COUNTERS: u32 = 0x100;
    pub const COUNTERS2: u32 = 0x200;
    pub const WF_COUNT: u32 = 0x1F0;
    pub const WF_SEL: u32 = 0x1F4;
    pub const WF_START: u32 = 0x1F8;
    pub const WF_FINISH: u32 = 0x1FC;
    pub const WG_FIRST: u32 = 0x074;
    pub const WG_COUNT: u32 = 0x078;
    pub const CU_MASK: u32 = 0x07C;
    pub const N_CU: u32 = 0x260;
    pub const CU_SEL: u32 = 0x264;
    pub const CU_BUSY: u32 = 0x268;
    pub const QUEUE_LEN: u32 = 0x26C;
    pub const QUEUE_TAIL: u32 = 0x270;
    pub const DONE_COUNT: u32 = 0x274;
    pub const DONE_POP: u32 = 0x278;
    pub const DONE_FAILED: u32 = 0x27C;
    pub const DONE_START_LO: u32 = 0x280;
    pub const DONE_START_HI: u32 = 0x284;
    pub const DONE_END_LO: u32 = 0x288;
    pub const DONE_END_HI: u32 = 0x28C;
    pub const NOW_LO: u32 = 0x290;
    pub const NOW_HI: u32 = 0x294;
    pub const ERROR_CU: u32 = 0x298;
}

/// The read-only registers of the compute units and the queue (a write is refused).
pub const MULTI_READ_ONLY: [u32; 14] = [
    addr::N_CU,
    addr::CU_BUSY,
    addr::QUEUE_LEN,
    addr::QUEUE_TAIL,
    addr::DONE_COUNT,
    addr::DONE_POP,
    addr::DONE_FAILED,
    addr::DONE_START_LO,
    addr::DONE_START_HI,
    addr::DONE_END_LO,
    addr::DONE_END_HI,
    addr::NOW_LO,
    addr::NOW_HI,
    addr::ERROR_CU,
];

/// `DONE_POP` when no completion waits.
pub const DONE_NONE: u32 = u32::MAX;

/// The `ID` register's value.
pub const ID_VALUE: u32 = 0x5254_4750;
/// The register map version. A driver refuses a device with another version.
///
/// - 1: the first map.
/// - 2: `SCHED` value 2 selects pure round-robin (value 2 was LRR before).
/// - 3: N compute units, sub-kernels (`WG_FIRST`, `WG_COUNT`, `CU_MASK`) and the hardware
///   queue (`CTRL` bit 2, `QUEUE_*`, `DONE_*`, `NOW`, `CU_SEL`, `ERROR_CU`); launch registers
///   stay writable while queued work runs.
pub const VERSION: u32 = 3;
/// `CTRL` bit 0.
pub const CTRL_DOORBELL: u32 = 1;
/// `CTRL` bit 1.
pub const CTRL_RESET: u32 = 2;
/// `CTRL` bit 2: enqueue the launch registers as a sub-kernel.
pub const CTRL_ENQUEUE: u32 = 4;
/// `FEATURES` bit 0: the reordering unit on.
pub const FEATURE_REORDER: u32 = 1;
/// `FEATURES` bit 1: VALU instructions go through the IDU to the lane clusters.
pub const FEATURE_IDU: u32 = 2;
/// `FEATURES` bit 2: the IDU distributes by its limits (else the stock dispatcher).
pub const FEATURE_IDU_ENABLE: u32 = 4;
/// `FEATURES` bit 3: Sim-D execution (phases, tile transfers, two slots; [`crate::simd`]).
pub const FEATURE_SIMD: u32 = 8;
/// `FEATURES` bit 4 (with bit 3): the Sim-D phase rules off (free scheduling).
pub const FEATURE_SIMD_FREE: u32 = 16;
/// Number of 64-bit counters of the second bank (`COUNTERS2`).
pub const N_COUNTERS2: u32 = 10;
/// The second bank's names, by index.
pub const COUNTER2_NAMES: [&str; 10] = [
    "idu_cluster0",
    "idu_cluster1",
    "idu_cluster2",
    "idu_cluster3",
    "idu_cluster4",
    "idu_cluster5",
    "idu_cluster6",
    "idu_cluster7",
    "reorder_held",
    "dram_lid_max",
];
/// Number of 64-bit counters.
pub const N_COUNTERS: u32 = 30;
/// The counters' names, by index.
pub const COUNTER_NAMES: [&str; 30] = [
    "cycles",
    "instructions",
    "insts_salu",
    "insts_valu",
    "insts_vmem",
    "insts_smem",
    "insts_lds",
    "insts_branch",
    "insts_pws",
    "insts_sync",
    "insts_program",
    "stall_structural",
    "stall_dependency",
    "stall_waitcnt",
    "stall_barrier",
    "stall_split_merge",
    "stall_idle",
    "splits",
    "merges",
    "serialized",
    "l1_accesses",
    "l1_hits",
    "l1_misses",
    "l1_stalls",
    "reorder_stalls",
    "dram_reads",
    "dram_writes",
    "dram_lid_sum",
    "dram_refreshes",
    "dram_cycles",
];

/// `STATUS` values.
pub mod status {
    /// No launch since reset.
    pub const IDLE: u32 = 0;
    /// A launch is running.
    pub const BUSY: u32 = 1;
    /// The launch finished.
    pub const DONE: u32 = 2;
    /// The launch stopped with an error (see `ERROR`).
    pub const ERROR: u32 = 3;
}

/// The bus's error response.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BusError {
    /// No register at this offset (or it is not 4-aligned).
    Unmapped,
    /// The register cannot be written (or, for `CTRL`, read).
    ReadOnly,
    /// Launch registers are locked while a launch runs.
    Busy,
    /// A `CODE_DATA`/`MEM_DATA` access outside its memory.
    OutOfRange,
}

impl std::fmt::Display for BusError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            BusError::Unmapped => "no register at this address",
            BusError::ReadOnly => "register is read-only",
            BusError::Busy => "launch registers are locked while the GPU is busy",
            BusError::OutOfRange => "memory window access out of range",
        })
    }
}

impl std::error::Error for BusError {}
