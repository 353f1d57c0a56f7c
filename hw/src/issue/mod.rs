//! Issue control of one SIMD or SpSIMD as a block: per context the state the issue stage
//! keeps (live, the dependency down-counter, the barrier flag, the two outstanding-memory
//! counters `s_waitcnt` checks), per unit the VALU's busy down-counter; every cycle the
//! eligible and present masks of the unit's contexts, the warp scheduler's grant
//! ([`crate::sched::WarpScheduler`], instantiated), the stall reason of a cycle without a
//! grant, and the counters' updates on issue and on memory returns.
//!
//! It is the behavioural compute unit's `issue_unit` and `eligibility`
//! (`hw/src/cu/issue.rs`) for one unit, evaluated every cycle (the behavioural model's naps
//! skip cycles whose outcome it knows; the block has no naps, and its counters equal the
//! behavioural unit's in every cycle). The reordering unit's hold on a context
//! (`waits_for_reorder`) is left out: the block serves launches without reordering
//! (docs/assumptions.md#A98).
//!
//! # Eligibility (context `c`, this cycle)
//!
//! With the state after this cycle's events (below), the first rule that applies:
//!
//! 1. not live, or split/merge state EMPTY or DONE (or a code that names no state, 6 or 7):
//!    **absent** (no stall reason);
//! 2. state SPLITTING, MERGE_WAIT or MERGING: stalled, `split_merge`;
//! 3. at a barrier, or `hold[c]` (Sim-D: its work-group may not compute): stalled, `barrier`;
//! 4. dependency counter `dep[c]` ≠ 0: stalled, `dependency`;
//! 5. the next instruction is illegal or its PC is past the code: **eligible** (issuing it
//!    stops the launch with the error);
//! 6. by the next instruction's unit: VALU — with the IDU on, stalled `structural` unless
//!    `idu_ok`; without it, stalled `structural` while the VALU is busy (`valu_busy` ≠ 0);
//!    FLAT — `structural` if the memory pipe is taken or the global port does not take this
//!    context's access (`gport_free[c]` = 0); SMEM — `structural` if the memory pipe is taken;
//!    LDS — `structural` if the LDS cannot take a DS instruction (`pipe_lds`); `split`/`merge` — `structural` if
//!    splitting is on and the split/merge port is taken; `s_endpgm` — `structural` if the
//!    split/merge port is taken; `s_waitcnt` — stalled `waitcnt` unless
//!    vmcnt ≤ imm\[3:0\] and lgkmcnt ≤ imm\[11:8\]; and `structural` if an issue unit
//!    visited earlier in the cycle took the shared resource the instruction needs (`o_mem`
//!    for FLAT and SMEM, `o_lds` for DS, `o_port` for `split`/`merge` with splitting on and
//!    `s_endpgm`);
//! 7. otherwise **eligible**.
//!
//! # The grant and the picks per position
//!
//! `grant` is the scheduler's pick among the eligible contexts. `f_grant` is its pick with
//! `o_*` low (the same last grant, the same policy): the grant of the unit if it is the
//! first one visited in the cycle, and `f_mem`, `f_lds`, `f_port` what its instruction needs
//! (nothing when it is illegal: it stops the launch). A compute unit with several issue units
//! visits them in a rotating order; a unit gets what the units visited before it took as its
//! `o_*`. With two units that is the other unit's `f_*`. With more, each unit also picks at
//! positions 1 and 2 of the order with `t1_*` and `t2_*` taken instead of `o_*` (`p1_*`,
//! `p2_*`), where `t1_*` is what the unit at position 0 takes (its `f_*`) and `t2_*` adds
//! what the unit at position 1 takes there (its `p1_*`); a unit's `o_*` is the taken set of
//! its own position. No pick depends on `o_*`, so the units' grants form no combinational
//! loop (`present` does not depend on `o_*` either: a blocked context is `structural`, which
//! is present).
//!
//! A stalled context is **present** (pure round-robin waits on it) when its reason is
//! `structural`, `dependency` or `waitcnt`; an eligible context is present. The stall reason
//! of the cycle is the smallest code over the stalled contexts (`structural` 0 <
//! `dependency` 1 < `waitcnt` 2 < `barrier` 3 < `split_merge` 4), `idle` (5) when none is
//! stalled; the compute unit counts it when nothing is granted ([`crate::cu::Stall`]).
//!
//! # Events (inputs, applied before this cycle's eligibility)
//!
//! `start[c]` (a wavefront was dispatched into the context, or a split copied its parent into
//! it) makes it live with every counter 0 and no barrier, and beats the other events;
//! otherwise `stop[c]` (a merged child left) clears live, `bar_release[c]` clears the barrier,
//! `vm_ret[c]` and `lgkm_ret[c]` count the returns of FLAT and of SMEM/LDS operations down
//! (saturating at 0).
//!
//! # Issue (the edge that ends the cycle)
//!
//! The granted context's instruction (not illegal) sets its dependency counter to L − 1
//! (L ≥ 1; L = 0 gives 0): L = `lat_valu` (VALU; `idu_wait` with the IDU on), 1 (FLAT, SMEM,
//! LDS), `lat_branch` (branches), 1 + imm\[3:0\] (`s_nop`), 64 × max(1, imm\[6:0\])
//! (`s_sleep`), `lat_salu` (everything else). FLAT adds 1 to vmcnt, SMEM and LDS to lgkmcnt;
//! `s_barrier` sets the barrier flag; `s_endpgm` (any program-control opcode other than
//! `s_nop` and `s_sleep`) clears live. A VALU instruction sets the VALU's busy counter to
//! `issue_period` − 1. Every other counter counts down by 1 towards 0. `reset` clears every
//! context and the VALU counter and the scheduler's last grant.
//!
//! # Ports
//!
//! | port | width | meaning |
//! |---|---|---|
//! | `clock`, `reset` | 1 | core clock; synchronous reset |
//! | `gto`, `rr` | 1 | the scheduler's policy ([`crate::sched`]) |
//! | `lat_salu`, `lat_valu`, `lat_branch` | 16 each | [`crate::cu::Latencies`] |
//! | `issue_period` | 8 | [`crate::cu::Latencies::issue_period`] |
//! | `split_on` | 1 | the launch splits (`split`/`merge` need the port) |
//! | `pipe_mem` | 1 | the memory pipe was taken this cycle by another unit |
//! | `pipe_lds` | 1 | the LDS cannot take a DS instruction this cycle: another unit issued one earlier in the cycle, or one issued in the last `lds_period` − 1 cycles still holds it (docs/assumptions.md#A104) |
//! | `port_free` | 1 | the group's split/merge port is free |
//! | `o_mem`, `o_lds`, `o_port` | 1 each | an issue unit visited earlier in the cycle took the memory pipe, the LDS, the split/merge port |
//! | `t1_mem`, `t1_lds`, `t1_port`, `t2_*` | 1 each | what the units before positions 1 and 2 took (the picks `p1_*`, `p2_*`) |
//! | `idu_on`, `idu_ok` | 1 | the IDU is in front of the VALU; it can dispatch now |
//! | `idu_wait` | 16 | with the IDU: cycles until the issuing context is ready again |
//! | `start`, `stop`, `bar_release`, `hold`, `gport_free` | C | per context (bit `c`) |
//! | `vm_ret[C]`, `lgkm_ret[C]` | 8 each | returns this cycle |
//! | `unit[C]` | 4 each | the next instruction's unit ([`crate::isa::insn_model::unit`]) |
//! | `opcode[C]` | 8 each | its opcode |
//! | `imm[C]` | 16 each | its immediate (`s_waitcnt`, `s_nop`, `s_sleep`) |
//! | `illegal[C]` | 1 each | illegal or past the code |
//! | `state[C]` | 3 each | the split/merge state ([`crate::pws::State`]) |
//! | `age[C]` | 6 each | GTO's age rank |
//! | out `grant_valid`, `grant` | 1, 6 | the scheduler's grant |
//! | out `f_valid`, `f_grant` | 1, 6 | its grant with `o_*` low |
//! | out `f_mem`, `f_lds`, `f_port` | 1 each | what that grant's instruction needs (none when illegal) |
//! | out `p1_valid`, `p1_grant`, `p1_mem`, `p1_lds`, `p1_port`, `p2_*` | 1, 6, 1, 1, 1 | the pick with `t1_*` (`t2_*`) taken, and what it needs |
//! | out `stall` | 3 | the cycle's stall reason (counted when nothing is granted) |
//! | out `eligible`, `present` | C | the masks the scheduler got |
//! | out `valu_busy` | 8 | the VALU busy counter |
//! | out `live`, `barrier` | C | per context, after the events |
//! | out `dep[C]` | 16 each | dependency counter after the events |
//! | out `vmcnt[C]`, `lgkmcnt[C]` | 8 each | outstanding counters after the events |
//!
//! The reference model is [`model::IssueModel`].

pub mod model;
pub mod rtl;

pub use rtl::issue::Issue;

/// Contexts of the testbench's (and synthesis') instance: the compute unit's default N_WFC.
pub const TB_CONTEXTS: usize = 10;

/// Stall reason codes ([`crate::cu::Stall`]'s).
pub mod stall {
    /// A unit, pipe or port is taken.
    pub const STRUCTURAL: u8 = 0;
    /// The previous instruction's latency.
    pub const DEPENDENCY: u8 = 1;
    /// `s_waitcnt`.
    pub const WAITCNT: u8 = 2;
    /// `s_barrier` (or Sim-D's hold).
    pub const BARRIER: u8 = 3;
    /// Splitting, merging, waiting for the merge partner.
    pub const SPLIT_MERGE: u8 = 4;
    /// No context stalled.
    pub const IDLE: u8 = 5;
}

/// The static configuration ports.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct IssueCfg {
    /// Scheduler policy: GTO (else LRR) when `rr` is clear.
    pub gto: bool,
    /// Scheduler policy: pure round-robin.
    pub rr: bool,
    /// SALU (and default) latency.
    pub lat_salu: u16,
    /// VALU result latency.
    pub lat_valu: u16,
    /// Branch latency.
    pub lat_branch: u16,
    /// VALU issue period.
    pub issue_period: u8,
    /// The launch splits.
    pub split_on: bool,
}

/// One context's inputs of a cycle.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CtxIn {
    /// A wavefront starts in the context.
    pub start: bool,
    /// The context's wavefront left (a merged child).
    pub stop: bool,
    /// Its barrier is released.
    pub release: bool,
    /// Sim-D holds it (a barrier stall).
    pub hold: bool,
    /// The global port takes its access.
    pub gport_free: bool,
    /// FLAT returns this cycle.
    pub vm_ret: u8,
    /// SMEM/LDS returns this cycle.
    pub lgkm_ret: u8,
    /// The next instruction's unit.
    pub unit: u8,
    /// Its opcode.
    pub opcode: u8,
    /// Its immediate.
    pub imm: u16,
    /// Illegal or past the code.
    pub illegal: bool,
    /// Split/merge state code.
    pub state: u8,
    /// GTO age rank.
    pub age: u8,
}

/// The inputs of one cycle.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct IssueIn {
    /// Synchronous reset.
    pub reset: bool,
    /// Static configuration.
    pub cfg: IssueCfg,
    /// The memory pipe is taken.
    pub pipe_mem: bool,
    /// The LDS cannot take a DS instruction this cycle (taken earlier in the cycle, or still
    /// busy with an earlier one's quarters: docs/assumptions.md#A104).
    pub pipe_lds: bool,
    /// The split/merge port is free.
    pub port_free: bool,
    /// An issue unit visited earlier in the cycle took the memory pipe.
    pub o_mem: bool,
    /// It took the LDS.
    pub o_lds: bool,
    /// It took the split/merge port.
    pub o_port: bool,
    /// What the units visited at positions before 1 and before 2 of the cycle's order took
    /// (`t1_*`, `t2_*`: the picks `at`).
    pub taken: [Taken; 2],
    /// The IDU is on.
    pub idu_on: bool,
    /// The IDU can dispatch.
    pub idu_ok: bool,
    /// With the IDU: the issuing context's wait.
    pub idu_wait: u16,
    /// Per context.
    pub ctx: Vec<CtxIn>,
}

/// The shared resources the units visited before a position took.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Taken {
    /// The memory pipe.
    pub mem: bool,
    /// The LDS.
    pub lds: bool,
    /// The split/merge port.
    pub port: bool,
}

/// A unit's pick at one position of the cycle's order, and what its instruction (not illegal)
/// needs there.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pick {
    /// A context is granted.
    pub valid: bool,
    /// The context (0 when none).
    pub grant: u8,
    /// Its instruction needs the memory pipe.
    pub mem: bool,
    /// The LDS.
    pub lds: bool,
    /// The split/merge port.
    pub port: bool,
}

/// One context's state as the outputs show it (after the cycle's events).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CtxState {
    /// Holds a wavefront.
    pub live: bool,
    /// Waits at a barrier.
    pub barrier: bool,
    /// Cycles until its previous instruction's latency has passed.
    pub wait: u16,
    /// Outstanding FLAT operations.
    pub vmcnt: u8,
    /// Outstanding SMEM/LDS operations.
    pub lgkmcnt: u8,
}

/// The outputs of one cycle.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct IssueOut {
    /// A context is granted.
    pub grant_valid: bool,
    /// The granted context (0 when none).
    pub grant: u8,
    /// A context would be granted with `o_*` low.
    pub f_valid: bool,
    /// That context (0 when none).
    pub f_grant: u8,
    /// Its instruction (not illegal) needs the memory pipe.
    pub f_mem: bool,
    /// It needs the LDS.
    pub f_lds: bool,
    /// It needs the split/merge port.
    pub f_port: bool,
    /// The picks at positions 1 and 2 (`p1_*`, `p2_*`).
    pub at: [Pick; 2],
    /// The cycle's stall reason ([`stall`]).
    pub stall: u8,
    /// Eligible contexts.
    pub eligible: u64,
    /// Present contexts (eligible included).
    pub present: u64,
    /// VALU busy counter.
    pub valu_busy: u8,
    /// Per context.
    pub ctx: Vec<CtxState>,
}
