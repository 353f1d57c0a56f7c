//! Reference model of the PWS split/merge unit of one SIMD group, written from the contract in
//! [`super`] (the module documentation of `pws/mod.rs`) and the PWS paper's
//! Section 4.1 with docs/assumptions.md#A21 only.
//!
//! It is cycle-accurate: [`SimdGroupModel::outputs`] gives what the block drives during the
//! current cycle, [`SimdGroupModel::clock`] is the rising edge that ends it. Every edge computes
//! the whole next state from the current state and the cycle's inputs; no decision of an edge
//! sees another decision of the same edge.
//!
//! Register widths follow the contract: relative ids (`parent`, stack entries, `root`) 4 bits,
//! context indices 7 bits, the SPLITTING/MERGING timer counts down from at most 14, the
//! MERGE_WAIT timer counts up and saturates at 0xFFFF. The command ports are as wide as the
//! contract says (`cmd` 3 bits, `cmd_unit` 3 bits, `cmd_slot` 4 bits): higher bits of the
//! `u8` fields of [`GroupIn`] are dropped, as a port of that width would drop them.
//!
//! The decision of a cycle's command is in `decide`, the edge applying it in `edge`.

mod decide;
mod edge;
#[cfg(test)]
mod tests;

use super::{assemble_mask, lane_mask, Cmd, ErrorCode, PwsParams, State};

/// Width of the `cmd` port.
const CMD_BITS: u8 = 0b111;
/// Width of the `cmd_unit` port.
const UNIT_BITS: u8 = 0b111;
/// Width of the `cmd_slot` port.
const SLOT_BITS: u8 = 0b1111;
/// Width of the `s` port.
const S_BITS: u8 = 0b111;
/// Width of the SPLITTING/MERGING countdown (E_SPLIT, E_MERGE ≤ 15).
const COUNTDOWN_BITS: u16 = 0b1111;

/// Shape of the group.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ModelConfig {
    /// LANES (N_WIWF): lanes per wavefront, the width of SpM and EXEC (4..=64).
    pub lanes: usize,
    /// UNITS: the SIMD unit and its SpSIMDs (2..=8); at least S + 1 under PWS (S is the `s`
    /// input: a PWS child takes a SpSIMD of 1..=S).
    pub units: usize,
    /// N_WFC: contexts per unit (1..=16).
    pub n_wfc: usize,
    /// `half`, E_SPLIT and E_MERGE (half 1..=32, E_SPLIT and E_MERGE 1..=15).
    pub params: PwsParams,
}

/// Inputs of one cycle (everything except exec, which only feeds eff combinationally).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GroupIn {
    /// Synchronous reset: the edge returns every register to its power-up value and ignores
    /// the cycle's command.
    pub reset: bool,
    /// Mode: `false` = PWS (family = slot, relative id = unit), `true` = DWS (family = unit,
    /// relative id = slot). Must stay constant between resets.
    pub dws: bool,
    /// Merge watchdog bound in cycles; 0 = off.
    pub watchdog: u16,
    /// S (3 bits): the deepest child stack and, in DWS, the most live splits of a wavefront
    /// (1..=7; at most UNITS − 1 in PWS, where a child takes a SpSIMD of 1..=S). Must stay
    /// constant between resets.
    pub s: u8,
    /// Command: 0 NONE, 1 DISPATCH, 2 SPLIT, 3 MERGE, 4 END ([`Cmd`]), 5..=7 bad (3 bits).
    pub cmd: u8,
    /// The addressed context's unit (SpSIMDID), 3 bits.
    pub cmd_unit: u8,
    /// The addressed context's slot (context ID − 1), 4 bits.
    pub cmd_slot: u8,
    /// SPLIT: {SSRC1 value, SSRC0 value}; DISPATCH: the WF's lanes (bit l = lane l).
    pub cmd_mask: u64,
    /// MERGE: the PC of the `merge` instruction.
    pub cmd_pc: u32,
}

/// Outputs of one context.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CtxOut {
    /// The context state ([`State`] code, 3 bits).
    pub state: u8,
    /// The split mask SpM (LANES bits).
    pub spm: u64,
    /// `exec & spm` (LANES bits), combinational.
    pub eff: u64,
    /// The parent register is valid.
    pub parent_valid: bool,
    /// The parent's relative id (4 bits), 0 when invalid.
    pub parent: u8,
    /// Number of entries on the child stack (3 bits).
    pub sp: u8,
    /// The relative id on top of the child stack (4 bits), 0 when the stack is empty.
    pub top: u8,
}

/// Outputs of one cycle.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GroupOut {
    /// Per context k (k = slot × UNITS + unit).
    pub ctx: Vec<CtxOut>,
    /// Strobe in the cycle after a split was carried out: copy SRF, PC and IBUF now.
    pub copy_valid: bool,
    /// The splitting context (7 bits), 0 when `copy_valid` is 0.
    pub copy_from: u8,
    /// The new context (7 bits), 0 when `copy_valid` is 0.
    pub copy_to: u8,
    /// Strobe in the cycle after a DWS split was refused.
    pub split_denied: bool,
    /// The error found in the previous cycle ([`ErrorCode`] code, 3 bits), 0 when none.
    pub error: u8,
    /// The context the error names (7 bits), 0 when none or for BAD_COMMAND.
    pub error_ctx: u8,
}

/// A child stack: at most 7 relative ids (S ≤ 7), bottom first, in place (no allocation when
/// a context is copied every cycle).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Stack {
    ids: [u8; 8],
    len: u8,
}

impl Stack {
    fn push(&mut self, id: u8) {
        self.ids[usize::from(self.len)] = id;
        self.len += 1;
    }

    fn pop(&mut self) {
        self.len = self.len.saturating_sub(1);
    }

    fn last(&self) -> Option<u8> {
        self.as_slice().last().copied()
    }

    fn len(&self) -> usize {
        usize::from(self.len)
    }

    fn is_empty(&self) -> bool {
        self.len == 0
    }

    fn clear(&mut self) {
        self.len = 0;
    }

    fn as_slice(&self) -> &[u8] {
        &self.ids[..usize::from(self.len)]
    }
}

/// The registers of one context.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Context {
    state: State,
    /// SpM, LANES bits.
    spm: u64,
    /// The parent's relative id when the parent register is valid.
    parent: Option<u8>,
    /// The child stack, bottom first; at most S entries.
    stack: Stack,
    /// Relative id of the WF's original context.
    root: u8,
    /// Contexts descending from this one (meaningful in a WF's original context).
    live: u8,
    /// PC of the `merge` this context waits at.
    pc: u32,
    /// SPLITTING/MERGING: cycles left; MERGE_WAIT: cycles spent waiting.
    timer: u16,
}

impl Context {
    /// The power-up value (also what a merged child is cleared to).
    fn empty() -> Self {
        Self {
            state: State::Empty,
            spm: 0,
            parent: None,
            stack: Stack::default(),
            root: 0,
            live: 0,
            pc: 0,
            timer: 0,
        }
    }

    /// The relative id of the merge partner: the stack top, else the parent, else none.
    fn partner(&self) -> Option<u8> {
        self.stack.last().or(self.parent)
    }

    /// The state a split or merge enters for `cycles` cycles, and its timer: READY at once
    /// when `cycles` is 1.
    fn enter_timed(&mut self, busy: State, cycles: u8) {
        if cycles <= 1 {
            self.state = State::Ready;
            self.timer = 0;
        } else {
            self.state = busy;
            self.timer = u16::from(cycles - 1);
        }
    }
}

/// What the cycle's command does, decided from the current state only.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Action {
    /// No command, or a MERGE without partner (a NOP).
    Nothing,
    /// A failing command: the error register gets (code, context) and nothing else changes.
    Reject(ErrorCode, usize),
    /// DISPATCH to context `x` with lanes `spm`.
    Dispatch { x: usize, spm: u64 },
    /// SPLIT of `x` into `x` and the free context `y` with split mask `m`.
    Split { x: usize, y: usize, m: u64 },
    /// A DWS split that was refused.
    DenySplit,
    /// MERGE of `x` at `pc`; `rendezvous` = the partner already waiting for it.
    Merge {
        x: usize,
        pc: u32,
        rendezvous: Option<usize>,
    },
    /// END of `x`.
    End { x: usize },
}

/// Cycle-accurate reference model of the PWS split/merge unit of one SIMD group.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SimdGroupModel {
    cfg: ModelConfig,
    /// Per context k = slot × UNITS + unit.
    ctx: Vec<Context>,
    /// A rendezvous found at the previous edge (the two contexts, in no particular order):
    /// both are in MERGE_WAIT now and merge at the coming edge.
    rendezvous: Option<(usize, usize)>,
    /// The copy strobe: (from, to).
    copy: Option<(usize, usize)>,
    /// The split-denied strobe.
    split_denied: bool,
    /// The error register.
    error: ErrorCode,
    /// The error register's context.
    error_ctx: usize,
    /// The last edge changed no output (only timers, `live` counts or a waiting PC moved).
    outputs_kept: Hint,
}

/// A simulation hint kept beside the registers, not a register: two models whose registers
/// are equal are equal whatever their hints.
#[derive(Clone, Copy, Debug, Default, Eq)]
struct Hint(bool);

impl PartialEq for Hint {
    fn eq(&self, _: &Hint) -> bool {
        true
    }
}

impl SimdGroupModel {
    /// Power-up state. Panics with a clear message if the config is outside the ranges of the
    /// contract's parameter table.
    pub fn new(cfg: ModelConfig) -> Self {
        check_range("lanes", cfg.lanes, 4, 64);
        check_range("units", cfg.units, 2, 8);
        check_range("n_wfc", cfg.n_wfc, 1, 16);
        check_range("params.half", cfg.params.half, 1, 32);
        check_range("params.e_split", usize::from(cfg.params.e_split), 1, 15);
        check_range("params.e_merge", usize::from(cfg.params.e_merge), 1, 15);
        Self {
            cfg,
            ctx: vec![Context::empty(); cfg.units * cfg.n_wfc],
            rendezvous: None,
            copy: None,
            split_denied: false,
            error: ErrorCode::None,
            error_ctx: 0,
            outputs_kept: Hint(false),
        }
    }

    /// The configuration the model was built with.
    pub fn config(&self) -> ModelConfig {
        self.cfg
    }

    /// Outputs during the current cycle; `exec[k]` is context k's EXEC (len = units * n_wfc;
    /// bits >= lanes are ignored — eff is lanes bits).
    pub fn outputs(&self, exec: &[u64]) -> GroupOut {
        let mut out = GroupOut::default();
        self.outputs_into(exec, &mut out);
        out
    }

    /// [`SimdGroupModel::outputs`] into `out`, reusing its buffer (the compute unit's
    /// per-cycle path allocates nothing).
    pub fn outputs_into(&self, exec: &[u64], out: &mut GroupOut) {
        assert_eq!(
            exec.len(),
            self.ctx.len(),
            "SimdGroupModel::outputs: exec must have one entry per context (units * n_wfc)"
        );
        let lanes = lane_mask(self.cfg.lanes);
        // (In place: the buffer keeps its length from one cycle to the next.)
        out.ctx.resize(self.ctx.len(), CtxOut::default());
        for ((o, c), &exec) in out.ctx.iter_mut().zip(&self.ctx).zip(exec) {
            *o = CtxOut {
                state: c.state as u8,
                spm: c.spm,
                eff: exec & c.spm & lanes,
                parent_valid: c.parent.is_some(),
                parent: c.parent.unwrap_or(0),
                sp: c.stack.len() as u8,
                top: c.stack.last().unwrap_or(0),
            };
        }
        let (copy_from, copy_to) = self.copy.unwrap_or((0, 0));
        out.copy_valid = self.copy.is_some();
        out.copy_from = copy_from as u8;
        out.copy_to = copy_to as u8;
        out.split_denied = self.split_denied;
        out.error = self.error as u8;
        out.error_ctx = self.error_ctx as u8;
    }

    /// The rising edge that ends the current cycle, with that cycle's inputs.
    pub fn clock(&mut self, inp: &GroupIn) {
        if inp.reset {
            *self = Self::new(self.cfg);
            return;
        }
        let dws = inp.dws;
        let (strobes, old_error) = (
            self.copy.is_some() || self.split_denied,
            (self.error, self.error_ctx),
        );
        // What the edge does is decided from the current state: the command's action, the
        // watchdog and the merging pair. The updates below then run in place, in the order in
        // which later ones overwrite earlier ones (timers, merge, command); the contexts the
        // merge and the command touch are never counting down, and never the same.
        let action = self.decide(inp);
        let expired = self.lowest_expired(inp.watchdog);
        let merge = self.rendezvous.map(|(a, b)| {
            if self.ctx[a].stack.last() == Some(self.rel_id(b, dws)) {
                (a, b)
            } else {
                (b, a)
            }
        });
        let readied = self.count_down();
        // Changes to the `live` counters of root contexts, applied last.
        let mut live_down = None;
        if let Some((t, c)) = merge {
            live_down = Some(self.merge_pair(t, c, dws));
        }
        let (mut error, live_up) = self.apply(action, dws);
        if let Some(k) = live_up {
            self.ctx[k].live = self.ctx[k].live.wrapping_add(1);
        }
        if let Some(k) = live_down {
            self.ctx[k].live = self.ctx[k].live.wrapping_sub(1);
        }
        // The error register: the command's error, else the lowest expired context.
        if error.0 == ErrorCode::None {
            if let Some(k) = expired {
                error = (ErrorCode::MergeWatchdog, k);
            }
        }
        (self.error, self.error_ctx) = error;
        self.outputs_kept = Hint(
            !strobes
                && !readied
                && merge.is_none()
                && action == Action::Nothing
                && error == old_error,
        );
    }

    /// Whether the last edge changed no output: the outputs, with any inputs, are what they
    /// were before it.
    pub fn outputs_kept(&self) -> bool {
        self.outputs_kept.0
    }

    /// Introspection: context k's child stack, bottom first (last = top).
    pub fn stack(&self, k: usize) -> Vec<u8> {
        self.ctx[k].stack.as_slice().to_vec()
    }

    /// Introspection: context k's `root` register (relative id of its WF's original context).
    pub fn root(&self, k: usize) -> u8 {
        self.ctx[k].root
    }

    /// Introspection: context k's `live` register (contexts descending from it, meaningful
    /// in a WF's original context).
    pub fn live(&self, k: usize) -> u8 {
        self.ctx[k].live
    }

    /// Introspection: context k's `pc` register (PC of the `merge` it waits at or last
    /// waited at).
    pub fn pc(&self, k: usize) -> u32 {
        self.ctx[k].pc
    }
}

/// Panics unless `lo <= value <= hi`.
fn check_range(name: &str, value: usize, lo: usize, hi: usize) {
    assert!(
        (lo..=hi).contains(&value),
        "ModelConfig: {name} = {value} is outside the contract's range {lo}..={hi}"
    );
}

/// The split/merge unit's inputs of one cycle: the command port and every context's EXEC.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PwsIn {
    /// The command port and the static inputs.
    pub group: GroupIn,
    /// EXEC of context k (`k = slot × units + unit`).
    pub exec: Vec<u64>,
}

crate::ports!(GroupIn {
    reset,
    dws,
    watchdog,
    s,
    cmd,
    cmd_unit,
    cmd_slot,
    cmd_mask,
    cmd_pc
});
crate::ports!(PwsIn { group, exec });
crate::ports!(CtxOut {
    state,
    spm,
    eff,
    parent_valid,
    parent,
    sp,
    top
});
crate::ports!(GroupOut {
    ctx,
    copy_valid,
    copy_from,
    copy_to,
    split_denied,
    error,
    error_ctx
});

impl crate::block::Clocked for SimdGroupModel {
    type In = PwsIn;
    type Out = GroupOut;

    fn outputs(&self, input: &PwsIn) -> GroupOut {
        SimdGroupModel::outputs(self, &input.exec)
    }

    fn outputs_into(&self, input: &PwsIn, out: &mut GroupOut) {
        SimdGroupModel::outputs_into(self, &input.exec, out)
    }

    fn step(&mut self, input: &PwsIn) {
        self.clock(&input.group);
    }

    fn outputs_kept(&self) -> bool {
        SimdGroupModel::outputs_kept(self)
    }
}
