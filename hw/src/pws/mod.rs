//! PWS: the split/merge unit of one SIMD group (Section 4.1 of the PWS paper,
//! docs/works/pws.md).
//!
//! A SIMD group is one SIMD unit (SpSIMDID 0) and its S split SIMD units (SpSIMDIDs 1..=S),
//! each holding N_WFC contexts. [`SimdGroup`] keeps, for every context, the split mask (SpM),
//! the parent register, the child stack and the context state, and carries out the commands the
//! compute unit sends it: dispatch, `split`, `merge`, end-of-program. It does not hold
//! registers (SRF, VRF, PC): it tells the compute unit when to copy a scalar register file
//! (`copy_*`) and when a context may issue (`state == READY`).
//!
//! The reference model is [`model::SimdGroupModel`]; this text is the contract both follow.
//!
//! # Parameters
//!
//! | name | meaning | range |
//! |---|---|---|
//! | `LANES` (N_WIWF) | lanes per wavefront, width of SpM and EXEC | 4..=64 |
//! | `half` (H) | half width of the split mask: lane l < H takes bit l of SSRC0, lane l ≥ H bit l−H of SSRC1; 32 for GCN, 2 in the paper's toy examples | 1..=32 |
//! | `UNITS` | the SIMD and its SpSIMDs (at least S + 1 under PWS) | 2..=8 |
//! | `CTXS` | UNITS × N_WFC, the number of contexts | N_WFC in 1..=16 |
//! | `e_split` (E_SPLIT) | cycles from a `split` command to the first cycle both contexts are READY | 1..=15, default 4 |
//! | `e_merge` (E_MERGE) | cycles from the rendezvous to the cycle the parent is READY | 1..=15, default 2 |
//!
//! # Contexts
//!
//! Context *k* (0 ≤ k < CTXS) is slot `k / UNITS` (context ID `k / UNITS + 1`) of unit
//! `k % UNITS` (its SpSIMDID). Per context the block keeps:
//! - `state`: EMPTY 0, READY 1, SPLITTING 2, MERGE_WAIT 3, MERGING 4, DONE 5 ([`State`]);
//! - `spm`: LANES bits, bit l = lane l;
//! - `parent`: valid bit + a 4-bit *relative id* (below);
//! - the child stack: up to S relative ids (seven entries held), `sp` entries, `top` = the
//!   last one pushed;
//! - `root`: the relative id of the WF's original context (used by DWS' limit);
//! - `live` (meaningful in a WF's original context): how many contexts descend from it;
//! - `pc`: the PC of the `merge` the context waits at;
//! - a timer: cycles left in SPLITTING/MERGING, cycles spent in MERGE_WAIT.
//!
//! ## Modes, groups and relative ids
//!
//! Contexts that can be relatives form a *family*; inside it each has a *relative id* (what
//! `parent` and the child stack hold):
//! - PWS (`dws = 0`, docs/assumptions.md#A3): the family is a slot (the same context ID on every
//!   unit); the relative id is the unit's SpSIMDID. A WF's original context is on unit 0, so its
//!   `root` is 0.
//! - DWS (`dws = 1`, docs/assumptions.md#A21): the family is a unit (all its slots); the relative
//!   id is the slot. Splits take a free context on the *same* unit.
//!
//! `dws` must stay constant between resets (tests never change it otherwise).
//!
//! ## S
//!
//! S is the input `s` (1..=7, constant between resets like `dws`), not a parameter: the
//! deepest a child stack may grow and, under DWS, the most live splits of a wavefront. Under
//! PWS it is at most UNITS − 1, and a split's child takes a SpSIMD 1..=S only: a group of
//! UNITS units runs PWS at a smaller S as its first S + 1 units, the others left empty (the
//! compute unit's RTL top has four units and runs PWS at S = 1, 2 and 3). Under DWS
//! it may exceed UNITS − 1: a DWS child stays on its parent's unit, so S is limited by the
//! unit's N_WFC contexts, not by UNITS (docs/assumptions.md#A131). `s` = 0 makes every split
//! a full-stack split (PWS: SPLIT_OVERFLOW; DWS: refused).
//!
//! # Ports
//!
//! Inputs, sampled at the rising edge that ends the cycle:
//! - `reset`: synchronous; the edge returns every register to its power-up value (all
//!   contexts EMPTY with spm 0, parent invalid, empty stack, root 0, live 0, pc 0, timer 0; no
//!   copy, denial or error). The cycle's command is ignored.
//! - `dws`: the mode, above.
//! - `watchdog`: merge watchdog bound in cycles, 0 = off.
//! - `s` (3 bits): S, above.
//! - `cmd`: 0 NONE, 1 DISPATCH, 2 SPLIT, 3 MERGE, 4 END ([`Cmd`]); 5..=7 are bad commands.
//! - `cmd_unit` (3 bits), `cmd_slot` (4 bits): the context X the command is for,
//!   k_X = cmd_slot × UNITS + cmd_unit.
//! - `cmd_mask` (64 bits): SPLIT: {SSRC1 value, SSRC0 value} (bits 63..32 = the value of the
//!   second operand); DISPATCH: the WF's lanes (bit l = lane l; bits ≥ LANES ignored).
//! - `cmd_pc` (32 bits): MERGE: the PC of the `merge` instruction.
//! - `exec[k]` (LANES bits): context k's EXEC.
//!
//! Outputs:
//! - per context k: `state[k]` (3 bits), `spm[k]`, `eff[k]` = `exec[k] & spm[k]`
//!   (combinational), `parent_valid[k]`, `parent[k]` (4 bits, 0 when invalid), `sp[k]`
//!   (3 bits), `top[k]` (4 bits, 0 when the stack is empty);
//! - `copy_valid`, `copy_from`, `copy_to` (7-bit context indices): a one-cycle strobe in the
//!   cycle after a split command was carried out: copy the SRF, PC and IBUF of context
//!   `copy_from` into `copy_to` now (a flash copy: there is no back-pressure, which keeps
//!   E_SPLIT constant); 0 when not valid;
//! - `split_denied`: one-cycle strobe in the cycle after a DWS split was refused (no state
//!   changed; the compute unit serializes the branch);
//! - `error` (3 bits, [`ErrorCode`]) and `error_ctx` (7 bits): the error found in the previous
//!   cycle, 0/0 when none.
//!
//! # Behaviour, cycle by cycle
//!
//! Let t be the cycle a command is presented, E_t the edge that ends it. Everything below takes
//! effect at E_t (visible in t+1) unless said otherwise. `M` = the split mask assembled from
//! `cmd_mask` with `half` (lane l < H: bit l; lane l ≥ H: bit 32 + l − H), cut to LANES bits.
//! `X` = the addressed context, `state(X)` its state in cycle t.
//!
//! **Checks, in this order** (the first that fails names the error; a failing command changes
//! nothing, no other context is touched):
//! 1. `cmd` ≥ 5, `cmd_unit` ≥ UNITS or `cmd_slot` ≥ N_WFC (for cmd 1..=4): BAD_COMMAND (7),
//!    `error_ctx` = 0.
//! 2. DISPATCH: X must be EMPTY or DONE, and on unit 0 unless `dws`: else BAD_DISPATCH (6).
//! 3. SPLIT, MERGE, END: `state(X)` EMPTY or DONE: EMPTY_CONTEXT (4); SPLITTING, MERGE_WAIT or
//!    MERGING: BUSY_CONTEXT (5).
//! 4. END with `sp(X) > 0` or parent valid: END_LIVE_SPLITS (3).
//! 5. SPLIT, PWS, with no free context or `sp(X) ≥ S`: SPLIT_OVERFLOW (1).
//!
//! `error_ctx` = k_X for codes 1 and 3..=6.
//!
//! **DISPATCH**: X ← READY, spm = `cmd_mask` (LANES bits), parent invalid, empty stack,
//! root = X's relative id, live 0, timer 0.
//!
//! **SPLIT** (X READY): the free context Y is the one with the lowest index k in X's family
//! that is EMPTY or DONE (its wavefront ended; A21's "a free WF context") with parent
//! invalid and, in PWS, on a SpSIMD 1..=S (not on unit 0, nor on a unit above S). In DWS, the split is refused
//! (`split_denied` in t+1, nothing else changes) when there is no free context, when
//! `sp(X) ≥ S`, or when `live` of X's root context (the family member whose relative id is
//! `root(X)`) is ≥ S. Otherwise, at E_t:
//! - spm(X) ← spm(X) & M; spm(Y) ← spm(X) & !M (old spm(X), LANES bits);
//! - push Y's relative id on X's stack;
//! - parent(Y) ← valid, X's relative id; Y's stack empty; root(Y) ← root(X);
//! - live of X's root context += 1;
//! - X and Y: state SPLITTING, timer E_SPLIT − 1 (or READY at once when E_SPLIT = 1);
//! - `copy_valid` = 1, `copy_from` = k_X, `copy_to` = k_Y in t+1.
//!
//! A uniform mask (M & spm = 0 or = spm) still splits (docs/assumptions.md#A8).
//!
//! **MERGE** (X READY): X's partner P is the family member whose relative id is `top(X)` when
//! `sp(X) > 0`, else `parent(X)` when valid; with neither, the merge is a NOP (nothing changes).
//! Otherwise X ← MERGE_WAIT, pc(X) ← `cmd_pc`, timer 0. The *rendezvous* happens when, in
//! cycle t, P is in MERGE_WAIT with pc(P) = `cmd_pc` and P's own partner is X (`sp(P) > 0` and
//! `top(P)` = X's relative id, or `sp(P) = 0` and parent(P) valid and = X's relative id). Then
//! both are in MERGE_WAIT in cycle r = t+1, and at E_r, with T the one whose stack top is the
//! other (the parent) and C the other (the child):
//! - spm(T) ← spm(T) | spm(C); pop T's stack; T: state MERGING, timer E_MERGE − 1 (or READY
//!   at once when E_MERGE = 1);
//! - C ← EMPTY, spm 0, parent invalid, stack empty, root 0, live 0, pc 0, timer 0;
//! - live of T's root context −= 1 (a split in the same cycle in the same WF adds its +1).
//!
//! Without a rendezvous, the first of a pair waits in MERGE_WAIT until its partner's merge
//! command completes it as above.
//!
//! **END** (X READY, no children, no parent): X ← DONE (spm kept).
//!
//! **Timers.** Each edge, a context in SPLITTING or MERGING with timer 1 becomes READY,
//! otherwise its timer counts down. A context in MERGE_WAIT counts its timer up, saturating at
//! 0xFFFF. It is *expired* in a cycle when `watchdog` ≠ 0 and timer ≥ `watchdog`.
//!
//! **Error register.** At each edge: the command's error if it had one, else MERGE_WATCHDOG (2)
//! with `error_ctx` = the lowest expired context if any is expired in the cycle, else 0/0.
//! (An expired context keeps waiting; it is reported every cycle while it stays expired.)
//!
//! Widths: relative ids are 4 bits (S ≤ 7, N_WFC ≤ 16), context indices 7 bits.

pub mod model;
pub mod rtl;

pub use rtl::context::{PwsContext, STACK_ENTRIES};
pub use rtl::simd_group::SimdGroup;

/// Context states (the `state[k]` outputs).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum State {
    /// Not in use (power-up, merged child, never dispatched).
    Empty = 0,
    /// May issue.
    Ready = 1,
    /// A split is in progress (E_SPLIT cycles).
    Splitting = 2,
    /// Executed `merge`, waiting for its partner.
    MergeWait = 3,
    /// The parent of a merge, E_MERGE cycles after the rendezvous.
    Merging = 4,
    /// Executed `s_endpgm`.
    Done = 5,
}

impl State {
    /// Every state, in code order.
    pub const ALL: [Self; 6] = [
        Self::Empty,
        Self::Ready,
        Self::Splitting,
        Self::MergeWait,
        Self::Merging,
        Self::Done,
    ];

    /// The state with this code, if any.
    pub fn from_code(code: u8) -> Option<Self> {
        Self::ALL.get(usize::from(code)).copied()
    }

    /// The name shown in waveforms and messages.
    pub const fn name(self) -> &'static str {
        match self {
            Self::Empty => "EMPTY",
            Self::Ready => "READY",
            Self::Splitting => "SPLITTING",
            Self::MergeWait => "MERGE_WAIT",
            Self::Merging => "MERGING",
            Self::Done => "DONE",
        }
    }
}

/// Commands (the `cmd` input).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Cmd {
    /// Nothing this cycle.
    None = 0,
    /// Start a WF in an empty context with its lanes.
    Dispatch = 1,
    /// `split` (mask in `cmd_mask`).
    Split = 2,
    /// `merge` (its PC in `cmd_pc`).
    Merge = 3,
    /// `s_endpgm`.
    End = 4,
}

/// Error codes (the `error` output).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum ErrorCode {
    /// No error.
    None = 0,
    /// PWS `split` with no free context (`split_overflow`, docs/assumptions.md#A9).
    SplitOverflow = 1,
    /// A context waited in MERGE_WAIT for `watchdog` cycles (mismatched merges).
    MergeWatchdog = 2,
    /// End-of-program from a context with children or a parent (docs/assumptions.md#A23).
    EndLiveSplits = 3,
    /// `split`/`merge`/end from an EMPTY or DONE context.
    EmptyContext = 4,
    /// `split`/`merge`/end from a context that is SPLITTING, MERGE_WAIT or MERGING.
    BusyContext = 5,
    /// Dispatch to a context in use, or (PWS) to a SpSIMD.
    BadDispatch = 6,
    /// Unknown command, or unit/slot out of range.
    BadCommand = 7,
}

impl ErrorCode {
    /// Every code, in code order.
    pub const ALL: [Self; 8] = [
        Self::None,
        Self::SplitOverflow,
        Self::MergeWatchdog,
        Self::EndLiveSplits,
        Self::EmptyContext,
        Self::BusyContext,
        Self::BadDispatch,
        Self::BadCommand,
    ];

    /// The error with this code, if any.
    pub fn from_code(code: u8) -> Option<Self> {
        Self::ALL.get(usize::from(code)).copied()
    }

    /// The name used in messages (snake case, as the issue and the driver name them).
    pub const fn name(self) -> &'static str {
        match self {
            Self::None => "none",
            Self::SplitOverflow => "split_overflow",
            Self::MergeWatchdog => "merge_watchdog",
            Self::EndLiveSplits => "end_live_splits",
            Self::EmptyContext => "empty_context",
            Self::BusyContext => "busy_context",
            Self::BadDispatch => "bad_dispatch",
            Self::BadCommand => "bad_command",
        }
    }
}

/// The parameters of a SIMD group that are values, not types.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PwsParams {
    /// H, the split mask's half width.
    pub half: usize,
    /// E_SPLIT, cycles.
    pub e_split: u8,
    /// E_MERGE, cycles.
    pub e_merge: u8,
}

impl Default for PwsParams {
    /// GCN's H = 32 and our defaults E_SPLIT = 4, E_MERGE = 2 (docs/assumptions.md#A10).
    fn default() -> Self {
        Self {
            half: 32,
            e_split: 4,
            e_merge: 2,
        }
    }
}

/// The split mask M of a SPLIT command: lane l < `half` takes bit l of `cmd_mask`, lane
/// l ≥ `half` bit 32 + l − `half`; `lanes` bits.
pub fn assemble_mask(cmd_mask: u64, half: usize, lanes: usize) -> u64 {
    let low = cmd_mask & lane_mask(half);
    let high = (cmd_mask >> 32) << half;
    (low | high) & lane_mask(lanes)
}

/// The lowest `n` bits set (n ≤ 64).
pub fn lane_mask(n: usize) -> u64 {
    if n >= 64 {
        u64::MAX
    } else {
        (1u64 << n) - 1
    }
}
