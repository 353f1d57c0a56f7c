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

use super::{assemble_mask, lane_mask, Cmd, ErrorCode, PwsParams, State};

/// Width of the `cmd` port.
const CMD_BITS: u8 = 0b111;
/// Width of the `cmd_unit` port.
const UNIT_BITS: u8 = 0b111;
/// Width of the `cmd_slot` port.
const SLOT_BITS: u8 = 0b1111;
/// Width of the SPLITTING/MERGING countdown (E_SPLIT, E_MERGE ≤ 15).
const COUNTDOWN_BITS: u16 = 0b1111;

/// Shape of the group.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ModelConfig {
    /// LANES (N_WIWF): lanes per wavefront, the width of SpM and EXEC (4..=64).
    pub lanes: usize,
    /// UNITS = S + 1: the SIMD unit and its S SpSIMDs (2..=8).
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
        let ctx = self.ctx.iter().zip(exec).map(|(c, &exec)| CtxOut {
            state: c.state as u8,
            spm: c.spm,
            eff: exec & c.spm & lanes,
            parent_valid: c.parent.is_some(),
            parent: c.parent.unwrap_or(0),
            sp: c.stack.len() as u8,
            top: c.stack.last().unwrap_or(0),
        });
        out.ctx.clear();
        out.ctx.extend(ctx);
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
        self.count_down();
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
    }

    /// The timers: SPLITTING/MERGING count down to READY, MERGE_WAIT counts up.
    fn count_down(&mut self) {
        for c in &mut self.ctx {
            match c.state {
                State::Splitting | State::Merging => {
                    if c.timer == 1 {
                        c.state = State::Ready;
                        c.timer = 0;
                    } else {
                        c.timer = c.timer.wrapping_sub(1) & COUNTDOWN_BITS;
                    }
                }
                State::MergeWait => c.timer = c.timer.saturating_add(1),
                State::Empty | State::Ready | State::Done => {}
            }
        }
    }

    /// The merge of the pair found at the previous edge: the target `t` (whose stack top is
    /// the child `c`) takes both masks and enters MERGING; `c` is cleared. Returns the root
    /// context whose `live` count drops.
    fn merge_pair(&mut self, t: usize, c: usize, dws: bool) -> usize {
        let spm = self.ctx[t].spm | self.ctx[c].spm;
        let target = &mut self.ctx[t];
        target.spm = spm;
        target.stack.pop();
        target.enter_timed(State::Merging, self.cfg.params.e_merge);
        self.ctx[c] = Context::empty();
        self.root_context(t, dws)
    }

    /// The cycle's command: sets the strobes for the next cycle; returns the error it raises
    /// and the root context whose `live` count grows (a split).
    fn apply(&mut self, action: Action, dws: bool) -> ((ErrorCode, usize), Option<usize>) {
        self.rendezvous = None;
        self.copy = None;
        self.split_denied = false;
        let mut live_up = None;
        match action {
            Action::Nothing => {}
            Action::Reject(code, k) => return ((code, k), None),
            Action::DenySplit => self.split_denied = true,
            Action::Dispatch { x, spm } => {
                let root = self.rel_id(x, dws);
                let n = &mut self.ctx[x];
                n.state = State::Ready;
                n.spm = spm;
                n.parent = None;
                n.stack.clear();
                n.root = root;
                n.live = 0;
                n.timer = 0;
            }
            Action::Split { x, y, m } => {
                live_up = Some(self.root_context(x, dws));
                self.split(x, y, m, dws);
            }
            Action::Merge {
                x,
                pc,
                rendezvous: partner,
            } => {
                let n = &mut self.ctx[x];
                n.state = State::MergeWait;
                n.pc = pc;
                n.timer = 0;
                self.rendezvous = partner.map(|p| (x, p));
            }
            Action::End { x } => self.ctx[x].state = State::Done,
        }
        ((ErrorCode::None, 0), live_up)
    }

    /// SPLIT of `x` into `x` (lanes of `m`) and the free context `y` (the rest).
    fn split(&mut self, x: usize, y: usize, m: u64, dws: bool) {
        let old = self.ctx[x].spm;
        let root = self.ctx[x].root;
        let (x_id, y_id) = (self.rel_id(x, dws), self.rel_id(y, dws));
        let e_split = self.cfg.params.e_split;
        let nx = &mut self.ctx[x];
        nx.spm = old & m;
        nx.stack.push(y_id);
        nx.enter_timed(State::Splitting, e_split);
        let ny = &mut self.ctx[y];
        ny.spm = old & !m & lane_mask(self.cfg.lanes);
        ny.parent = Some(x_id);
        ny.stack.clear();
        ny.root = root;
        ny.enter_timed(State::Splitting, e_split);
        self.copy = Some((x, y));
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

    /// What the cycle's command does: the checks of the contract, in its order, then the
    /// command's effect. Reads the current state only.
    fn decide(&self, inp: &GroupIn) -> Action {
        let code = inp.cmd & CMD_BITS;
        let unit = usize::from(inp.cmd_unit & UNIT_BITS);
        let slot = usize::from(inp.cmd_slot & SLOT_BITS);
        let cmd = match command(code) {
            Some(Cmd::None) => return Action::Nothing,
            Some(cmd) if unit < self.cfg.units && slot < self.cfg.n_wfc => cmd,
            // Check 1: unknown command, or a context outside the group.
            _ => return Action::Reject(ErrorCode::BadCommand, 0),
        };
        let x = slot * self.cfg.units + unit;
        let cx = &self.ctx[x];

        if cmd == Cmd::Dispatch {
            // Check 2.
            let free = matches!(cx.state, State::Empty | State::Done);
            if !free || (!inp.dws && unit != 0) {
                return Action::Reject(ErrorCode::BadDispatch, x);
            }
            let spm = inp.cmd_mask & lane_mask(self.cfg.lanes);
            return Action::Dispatch { x, spm };
        }

        // Check 3 (SPLIT, MERGE, END).
        match cx.state {
            State::Empty | State::Done => return Action::Reject(ErrorCode::EmptyContext, x),
            State::Splitting | State::MergeWait | State::Merging => {
                return Action::Reject(ErrorCode::BusyContext, x)
            }
            State::Ready => {}
        }

        match cmd {
            Cmd::End => {
                // Check 4.
                if !cx.stack.is_empty() || cx.parent.is_some() {
                    Action::Reject(ErrorCode::EndLiveSplits, x)
                } else {
                    Action::End { x }
                }
            }
            Cmd::Split => self.decide_split(x, inp),
            Cmd::Merge => self.decide_merge(x, inp),
            Cmd::None | Cmd::Dispatch => unreachable!("handled above"),
        }
    }

    /// SPLIT of the READY context `x`.
    fn decide_split(&self, x: usize, inp: &GroupIn) -> Action {
        let s = self.cfg.units - 1;
        let free = self.free_context(x, inp.dws);
        let full_stack = self.ctx[x].stack.len() >= s;
        if inp.dws {
            let root_live = usize::from(self.ctx[self.root_context(x, true)].live);
            if free.is_none() || full_stack || root_live >= s {
                return Action::DenySplit;
            }
        } else if free.is_none() || full_stack {
            // Check 5.
            return Action::Reject(ErrorCode::SplitOverflow, x);
        }
        let y = free.expect("checked above");
        let m = assemble_mask(inp.cmd_mask, self.cfg.params.half, self.cfg.lanes);
        Action::Split { x, y, m }
    }

    /// MERGE of the READY context `x`.
    fn decide_merge(&self, x: usize, inp: &GroupIn) -> Action {
        let Some(partner_id) = self.ctx[x].partner() else {
            return Action::Nothing;
        };
        let p = self.member(x, partner_id, inp.dws);
        let cp = &self.ctx[p];
        let waits_for_x = cp.state == State::MergeWait
            && cp.pc == inp.cmd_pc
            && cp.partner() == Some(self.rel_id(x, inp.dws));
        Action::Merge {
            x,
            pc: inp.cmd_pc,
            rendezvous: waits_for_x.then_some(p),
        }
    }

    /// The free context for a split of `x`: the lowest index in x's family that is EMPTY or
    /// DONE with parent invalid and, in PWS, not on unit 0.
    fn free_context(&self, x: usize, dws: bool) -> Option<usize> {
        self.family(x, dws).find(|&k| {
            let c = &self.ctx[k];
            matches!(c.state, State::Empty | State::Done)
                && c.parent.is_none()
                && (dws || k % self.cfg.units != 0)
        })
    }

    /// The contexts of k's family, lowest index first.
    fn family(&self, k: usize, dws: bool) -> impl Iterator<Item = usize> {
        let units = self.cfg.units;
        let n = if dws { self.cfg.n_wfc } else { units };
        (0..n).map(move |i| {
            if dws {
                i * units + k % units
            } else {
                k / units * units + i
            }
        })
    }

    /// Context k's relative id in its family: its unit (PWS) or its slot (DWS).
    fn rel_id(&self, k: usize, dws: bool) -> u8 {
        let units = self.cfg.units;
        (if dws { k / units } else { k % units }) as u8
    }

    /// The member of k's family with relative id `id`.
    fn member(&self, k: usize, id: u8, dws: bool) -> usize {
        let units = self.cfg.units;
        let id = usize::from(id);
        let m = if dws {
            id * units + k % units
        } else {
            k / units * units + id
        };
        assert!(
            m < self.ctx.len() && (dws || id < units),
            "relative id {id} of context {k} names no context (was dws changed without reset?)"
        );
        m
    }

    /// The original context of k's WF (the family member whose relative id is root(k)).
    fn root_context(&self, k: usize, dws: bool) -> usize {
        self.member(k, self.ctx[k].root, dws)
    }

    /// The lowest context that is expired in the current cycle: in MERGE_WAIT with
    /// `watchdog` ≠ 0 and timer ≥ `watchdog`.
    fn lowest_expired(&self, watchdog: u16) -> Option<usize> {
        if watchdog == 0 {
            return None;
        }
        self.ctx
            .iter()
            .position(|c| c.state == State::MergeWait && c.timer >= watchdog)
    }
}

/// The command with this code, if it is one.
fn command(code: u8) -> Option<Cmd> {
    [Cmd::None, Cmd::Dispatch, Cmd::Split, Cmd::Merge, Cmd::End]
        .get(usize::from(code))
        .copied()
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
}

#[cfg(test)]
mod tests {
    use super::*;

    const EMPTY: u8 = State::Empty as u8;
    const READY: u8 = State::Ready as u8;
    const SPLITTING: u8 = State::Splitting as u8;
    const MERGE_WAIT: u8 = State::MergeWait as u8;
    const MERGING: u8 = State::Merging as u8;
    const DONE: u8 = State::Done as u8;

    fn config(lanes: usize, half: usize, units: usize, n_wfc: usize) -> ModelConfig {
        ModelConfig {
            lanes,
            units,
            n_wfc,
            params: PwsParams {
                half,
                e_split: 4,
                e_merge: 2,
            },
        }
    }

    /// The toy configuration of Figs. 3b and 5: 4 lanes, H = 2, N_WFC = 1.
    fn toy(units: usize) -> ModelConfig {
        config(4, 2, units, 1)
    }

    fn input(cmd: Cmd, unit: u8, slot: u8) -> GroupIn {
        GroupIn {
            cmd: cmd as u8,
            cmd_unit: unit,
            cmd_slot: slot,
            ..GroupIn::default()
        }
    }

    fn dispatch(unit: u8, slot: u8, lanes: u64) -> GroupIn {
        GroupIn {
            cmd_mask: lanes,
            ..input(Cmd::Dispatch, unit, slot)
        }
    }

    /// SPLIT with SSRC0 = `s0` and SSRC1 = `s1`.
    fn split(unit: u8, slot: u8, s0: u32, s1: u32) -> GroupIn {
        GroupIn {
            cmd_mask: u64::from(s1) << 32 | u64::from(s0),
            ..input(Cmd::Split, unit, slot)
        }
    }

    fn merge(unit: u8, slot: u8, pc: u32) -> GroupIn {
        GroupIn {
            cmd_pc: pc,
            ..input(Cmd::Merge, unit, slot)
        }
    }

    fn end(unit: u8, slot: u8) -> GroupIn {
        input(Cmd::End, unit, slot)
    }

    fn idle() -> GroupIn {
        GroupIn::default()
    }

    /// A model, the current cycle number and the mode inputs that stay constant.
    struct Bench {
        m: SimdGroupModel,
        /// The current cycle (0 = the first cycle after power-up).
        t: u32,
        dws: bool,
        watchdog: u16,
    }

    impl Bench {
        fn new(cfg: ModelConfig) -> Self {
            Self {
                m: SimdGroupModel::new(cfg),
                t: 0,
                dws: false,
                watchdog: 0,
            }
        }

        fn dws(cfg: ModelConfig) -> Self {
            Self {
                dws: true,
                ..Self::new(cfg)
            }
        }

        /// The outputs of the current cycle, with EXEC all ones (so eff = spm).
        fn out(&self) -> GroupOut {
            self.m.outputs(&vec![u64::MAX; self.m.ctx.len()])
        }

        /// Presents `inp` (with the bench's dws and watchdog) during the current cycle, clocks,
        /// and returns the outputs of the next cycle.
        fn step(&mut self, inp: GroupIn) -> GroupOut {
            let inp = GroupIn {
                dws: self.dws,
                watchdog: self.watchdog,
                ..inp
            };
            self.m.clock(&inp);
            self.t += 1;
            self.out()
        }

        /// Idles until cycle `t` (inclusive of the clocks in between), returning its outputs.
        fn run_to(&mut self, t: u32) -> GroupOut {
            assert!(t >= self.t, "cycle {t} is in the past (now {})", self.t);
            while self.t < t {
                self.step(idle());
            }
            self.out()
        }

        fn states(&self) -> Vec<u8> {
            self.out().ctx.iter().map(|c| c.state).collect()
        }

        fn spms(&self) -> Vec<u64> {
            self.out().ctx.iter().map(|c| c.spm).collect()
        }

        /// Presents a command that must fail with `code` naming `ctx`: the error shows in the
        /// next cycle only, and the command changed nothing but the error register.
        fn reject(&mut self, inp: GroupIn, code: ErrorCode, ctx: u8) {
            let mut reference = self.m.clone();
            reference.clock(&GroupIn {
                dws: self.dws,
                watchdog: self.watchdog,
                ..idle()
            });
            let out = self.step(inp);
            assert_eq!(
                (out.error, out.error_ctx),
                (code as u8, ctx),
                "cycle {}: error of {inp:?}",
                self.t
            );
            assert_eq!(
                self.m.ctx, reference.ctx,
                "cycle {}: {inp:?} changed state",
                self.t
            );
            assert_eq!(self.m.rendezvous, reference.rendezvous);
            assert_eq!(self.m.copy, reference.copy);
            assert!(!out.split_denied);
            let after = self.step(idle());
            assert_eq!(
                (after.error, after.error_ctx),
                (0, 0),
                "error lasts one cycle"
            );
        }
    }

    /// Checks that nothing but the error/strobe registers differ from power-up.
    fn assert_power_up(b: &Bench) {
        let fresh = Bench::new(b.m.config());
        assert_eq!(b.out(), fresh.out());
        for k in 0..b.m.ctx.len() {
            assert_eq!(b.m.stack(k), Vec::<u8>::new());
            assert_eq!((b.m.root(k), b.m.live(k), b.m.pc(k)), (0, 0, 0));
        }
        assert_eq!(b.m, fresh.m);
    }

    #[test]
    fn power_up() {
        let b = Bench::new(config(64, 32, 8, 16));
        let out = b.out();
        assert_eq!(out.ctx.len(), 128);
        assert!(out.ctx.iter().all(|c| *c == CtxOut::default()));
        assert!(!out.copy_valid && !out.split_denied);
        assert_eq!(
            (out.copy_from, out.copy_to, out.error, out.error_ctx),
            (0, 0, 0, 0)
        );
        assert_eq!(b.m.config(), config(64, 32, 8, 16));
    }

    #[test]
    fn config_ranges() {
        let good = config(4, 2, 3, 1);
        let bad = [
            ModelConfig { lanes: 3, ..good },
            ModelConfig { lanes: 65, ..good },
            ModelConfig { units: 1, ..good },
            ModelConfig { units: 9, ..good },
            ModelConfig { n_wfc: 0, ..good },
            ModelConfig { n_wfc: 17, ..good },
            ModelConfig {
                params: PwsParams {
                    half: 0,
                    ..good.params
                },
                ..good
            },
            ModelConfig {
                params: PwsParams {
                    half: 33,
                    ..good.params
                },
                ..good
            },
            ModelConfig {
                params: PwsParams {
                    e_split: 0,
                    ..good.params
                },
                ..good
            },
            ModelConfig {
                params: PwsParams {
                    e_split: 16,
                    ..good.params
                },
                ..good
            },
            ModelConfig {
                params: PwsParams {
                    e_merge: 0,
                    ..good.params
                },
                ..good
            },
            ModelConfig {
                params: PwsParams {
                    e_merge: 16,
                    ..good.params
                },
                ..good
            },
        ];
        for cfg in bad {
            let r = std::panic::catch_unwind(|| SimdGroupModel::new(cfg));
            assert!(r.is_err(), "{cfg:?} accepted");
        }
        for cfg in [config(4, 1, 2, 1), config(64, 32, 8, 16), good] {
            SimdGroupModel::new(cfg);
        }
    }

    #[test]
    #[should_panic(expected = "lanes = 65 is outside")]
    fn config_panic_message() {
        SimdGroupModel::new(config(65, 32, 2, 1));
    }

    /// The PWS paper's Fig. 5 (docs/works/pws.md#fig-5): nested split and two merges, with E_SPLIT
    /// = 4 and E_MERGE = 2.
    #[test]
    fn fig5() {
        let mut b = Bench::new(toy(3));
        // Cycle 0: dispatch "1111".
        let o = b.step(dispatch(0, 0, 0xF));
        assert_eq!(b.t, 1);
        assert_eq!(b.states(), [READY, EMPTY, EMPTY]);
        assert_eq!(b.spms(), [0xF, 0, 0]);
        assert_eq!(b.m.root(0), 0);
        assert!(!o.copy_valid);

        // Cycle 1: split #1, M = "1101": s0 = "11" (0b11), s1 = "01" (WI3 → 0b10).
        let o = b.step(split(0, 0, 0b11, 0b10));
        assert_eq!(assemble_mask(0b10 << 32 | 0b11, 2, 4), 0xB);
        // Cycle 2: copy strobe 0 → 1; the bookkeeping is done.
        assert!(o.copy_valid);
        assert_eq!((o.copy_from, o.copy_to), (0, 1));
        assert_eq!(b.states(), [SPLITTING, SPLITTING, EMPTY]);
        assert_eq!(b.spms(), [0xB, 0x4, 0]);
        assert_eq!(o.ctx[1].parent, 0);
        assert!(o.ctx[1].parent_valid);
        assert_eq!((o.ctx[0].sp, o.ctx[0].top), (1, 1));
        assert_eq!(b.m.stack(0), [1]);
        assert_eq!(b.m.stack(1), Vec::<u8>::new());
        assert_eq!((b.m.root(1), b.m.live(0)), (0, 1));
        // The strobe lasts one cycle; both stay SPLITTING until E_SPLIT cycles after the command.
        for t in 3..5 {
            let o = b.run_to(t);
            assert!(!o.copy_valid);
            assert_eq!((o.copy_from, o.copy_to), (0, 0));
            assert_eq!(b.states(), [SPLITTING, SPLITTING, EMPTY], "cycle {t}");
        }
        b.run_to(5);
        assert_eq!(b.states(), [READY, READY, EMPTY]);

        // Cycle 5: split #2 by SWF1, M = "1100" (s0 = "11", s1 = "00").
        let o = b.step(split(0, 0, 0b11, 0b00));
        assert!(o.copy_valid);
        assert_eq!((o.copy_from, o.copy_to), (0, 2));
        assert_eq!(b.states(), [SPLITTING, READY, SPLITTING]);
        assert_eq!(b.spms(), [0x3, 0x4, 0x8]);
        assert_eq!(b.m.stack(0), [1, 2]);
        assert_eq!((o.ctx[0].sp, o.ctx[0].top), (2, 2));
        assert_eq!((o.ctx[2].parent_valid, o.ctx[2].parent), (true, 0));
        assert_eq!(b.m.live(0), 2);
        b.run_to(8);
        assert_eq!(b.states(), [SPLITTING, READY, SPLITTING]);
        b.run_to(9);
        assert_eq!(b.states(), [READY, READY, READY]);

        // Inner merge: SWF1 (top child 2) at cycle 9, SWF3 (parent 0) at cycle 12.
        b.step(merge(0, 0, 0x40));
        assert_eq!(b.states(), [MERGE_WAIT, READY, READY]);
        assert_eq!(b.m.pc(0), 0x40);
        b.run_to(12);
        assert_eq!(b.states(), [MERGE_WAIT, READY, READY]);
        b.step(merge(2, 0, 0x40));
        // Cycle 13 = r: both in MERGE_WAIT.
        assert_eq!(b.states(), [MERGE_WAIT, READY, MERGE_WAIT]);
        assert_eq!(b.spms(), [0x3, 0x4, 0x8]);
        // Cycle 14: the parent MERGING with the OR, the child EMPTY (2 cycles after its merge).
        let o = b.step(idle());
        assert_eq!(b.states(), [MERGING, READY, EMPTY]);
        assert_eq!(b.spms(), [0xB, 0x4, 0]);
        assert_eq!(b.m.stack(0), [1]);
        assert_eq!(o.ctx[2], CtxOut::default());
        assert_eq!((b.m.root(2), b.m.live(2), b.m.pc(2)), (0, 0, 0));
        assert_eq!(b.m.live(0), 1);
        // Cycle 15 = 12 + 1 + E_MERGE: the parent READY.
        b.step(idle());
        assert_eq!(b.states(), [READY, READY, EMPTY]);

        // Outer merge, child first: SWF2 at cycle 15, SWF1 (top child 1) at cycle 16.
        b.step(merge(1, 0, 0x80));
        assert_eq!(b.states(), [READY, MERGE_WAIT, EMPTY]);
        b.step(merge(0, 0, 0x80));
        assert_eq!(b.t, 17);
        assert_eq!(b.states(), [MERGE_WAIT, MERGE_WAIT, EMPTY]);
        b.step(idle());
        assert_eq!(b.states(), [MERGING, EMPTY, EMPTY]);
        assert_eq!(b.spms(), [0xF, 0, 0]);
        let o = b.step(idle());
        assert_eq!(b.t, 19);
        assert_eq!(b.states(), [READY, EMPTY, EMPTY]);
        assert_eq!(
            (o.ctx[0].sp, o.ctx[0].top, o.ctx[0].parent_valid),
            (0, 0, false)
        );
        assert_eq!(b.m.stack(0), Vec::<u8>::new());
        assert_eq!(b.m.live(0), 0);
        assert_eq!(b.m.pc(0), 0x80);
        assert_eq!((o.error, o.split_denied, o.copy_valid), (0, false, false));
    }

    /// The PWS paper's Fig. 3b (docs/works/pws.md#fig-3): s0 = "11", s1 = "00" → SWF1 0x3, SWF2
    /// 0xC; merge → 0xF.
    #[test]
    fn fig3b() {
        let mut b = Bench::new(toy(2));
        b.step(dispatch(0, 0, 0xF));
        let o = b.step(split(0, 0, 0b11, 0b00));
        assert_eq!((o.copy_valid, o.copy_from, o.copy_to), (true, 0, 1));
        assert_eq!(b.spms(), [0x3, 0xC]);
        b.run_to(1 + 4);
        assert_eq!(b.states(), [READY, READY]);
        b.step(merge(0, 0, 0x10));
        b.step(merge(1, 0, 0x10));
        b.step(idle());
        assert_eq!(b.states(), [MERGING, EMPTY]);
        b.step(idle());
        assert_eq!(b.states(), [READY, EMPTY]);
        assert_eq!(b.spms(), [0xF, 0]);
    }

    /// E_SPLIT = E_MERGE = 1: no SPLITTING or MERGING cycle.
    #[test]
    fn one_cycle_split_and_merge() {
        let mut cfg = toy(2);
        cfg.params.e_split = 1;
        cfg.params.e_merge = 1;
        let mut b = Bench::new(cfg);
        b.step(dispatch(0, 0, 0xF));
        // Cycle 1: split; cycle 2: both READY, the copy strobe.
        let o = b.step(split(0, 0, 0b01, 0b01));
        assert_eq!(b.t, 2);
        assert_eq!(b.states(), [READY, READY]);
        assert_eq!(b.spms(), [0x5, 0xA]);
        assert_eq!((o.copy_valid, o.copy_from, o.copy_to), (true, 0, 1));
        // Cycle 2: the child merges, cycle 3: the parent; cycle 4 = r; cycle 5 = 3 + 1 + 1.
        b.step(merge(1, 0, 8));
        assert_eq!(b.states(), [READY, MERGE_WAIT]);
        b.step(merge(0, 0, 8));
        assert_eq!(b.states(), [MERGE_WAIT, MERGE_WAIT]);
        b.step(idle());
        assert_eq!(b.t, 5);
        assert_eq!(b.states(), [READY, EMPTY]);
        assert_eq!(b.spms(), [0xF, 0]);
        // A split right away, then again, never shows SPLITTING/MERGING.
        let mut seen = Vec::new();
        b.step(split(0, 0, 0b10, 0));
        seen.extend(b.states());
        b.step(merge(0, 0, 4));
        seen.extend(b.states());
        b.step(merge(1, 0, 4));
        seen.extend(b.states());
        b.step(idle());
        seen.extend(b.states());
        assert!(seen.iter().all(|&s| s != SPLITTING && s != MERGING));
        assert_eq!(b.states(), [READY, EMPTY]);
        assert_eq!(b.spms(), [0xF, 0]);
    }

    /// 64 lanes, H = 32: {SSRC1, SSRC0} = 0xFFFF0000_0000FFFF keeps lanes 0..15 and 48..63.
    #[test]
    fn lanes_64_half_32() {
        let mut b = Bench::new(config(64, 32, 2, 1));
        b.step(dispatch(0, 0, u64::MAX));
        b.step(split(0, 0, 0x0000_FFFF, 0xFFFF_0000));
        assert_eq!(b.spms(), [0xFFFF_0000_0000_FFFF, 0x0000_FFFF_FFFF_0000]);
        b.run_to(5);
        b.step(merge(0, 0, 0));
        b.step(merge(1, 0, 0));
        b.run_to(b.t + 3);
        assert_eq!(b.states(), [READY, EMPTY]);
        assert_eq!(b.spms(), [u64::MAX, 0]);
    }

    /// Dispatch masks to LANES bits; H larger than LANES uses SSRC0 only.
    #[test]
    fn masks_are_lanes_wide() {
        let mut b = Bench::new(config(8, 32, 2, 1));
        b.step(dispatch(0, 0, 0xFFFF));
        assert_eq!(b.spms(), [0xFF, 0]);
        b.step(split(0, 0, 0x0F, 0xFF));
        assert_eq!(b.spms(), [0x0F, 0xF0]);
    }

    #[test]
    fn eff_is_exec_and_spm() {
        let mut b = Bench::new(toy(2));
        b.step(dispatch(0, 0, 0xF));
        b.step(split(0, 0, 0b11, 0));
        // exec bits above LANES are ignored.
        let o = b.m.outputs(&[0x9 | 0xF0, 0xFFFF_FFFF_FFFF_FFF6]);
        assert_eq!((o.ctx[0].spm, o.ctx[0].eff), (0x3, 0x1));
        assert_eq!((o.ctx[1].spm, o.ctx[1].eff), (0xC, 0x4));
    }

    /// A uniform mask still splits (docs/assumptions.md#A8).
    #[test]
    fn uniform_masks_split() {
        let mut b = Bench::new(toy(3));
        b.step(dispatch(0, 0, 0xF));
        b.step(split(0, 0, 0, 0));
        assert_eq!(b.spms(), [0x0, 0xF, 0]);
        b.run_to(5);
        b.step(split(1, 0, 0b11, 0b11));
        assert_eq!(b.spms(), [0x0, 0xF, 0x0]);
        assert_eq!(b.states(), [READY, SPLITTING, SPLITTING]);
        assert_eq!(b.m.stack(1), [2]);
        assert_eq!(b.out().ctx[2].parent, 1);
    }

    /// A split by a SWF takes the lowest free SpSIMD; merged contexts are reused.
    #[test]
    fn nested_split_from_spsimd_and_reuse() {
        let mut b = Bench::new(toy(4));
        b.step(dispatch(0, 0, 0xF));
        b.step(split(0, 0, 0b01, 0b01)); // ctx0 0x5, ctx1 0xA
        b.run_to(5);
        let o = b.step(split(1, 0, 0b10, 0b00)); // ctx1 0x2, ctx2 0x8
        assert_eq!((o.copy_from, o.copy_to), (1, 2));
        assert_eq!(b.spms(), [0x5, 0x2, 0x8, 0]);
        assert_eq!((o.ctx[2].parent_valid, o.ctx[2].parent), (true, 1));
        assert_eq!(b.m.root(2), 0);
        assert_eq!(b.m.live(0), 2);
        assert_eq!(b.m.live(1), 0);
        b.run_to(9);
        // Merge ctx1 with ctx2 (ctx2 first), then split ctx0 again: it takes ctx2 again.
        b.step(merge(2, 0, 0x20));
        b.step(merge(1, 0, 0x20));
        b.run_to(b.t + 3);
        assert_eq!(b.states(), [READY, READY, EMPTY, EMPTY]);
        assert_eq!(b.spms(), [0x5, 0xA, 0, 0]);
        assert_eq!(b.m.live(0), 1);
        let o = b.step(split(0, 0, 0b01, 0b00));
        assert_eq!((o.copy_from, o.copy_to), (0, 2));
        assert_eq!(b.m.stack(0), [1, 2]);
        assert_eq!(b.spms(), [0x1, 0xA, 0x4, 0]);
        assert_eq!(b.m.live(0), 2);
    }

    /// A root with neither children nor parent: MERGE is a NOP.
    #[test]
    fn merge_without_partner_is_nop() {
        let mut b = Bench::new(toy(2));
        b.step(dispatch(0, 0, 0xF));
        let before = b.m.clone();
        let o = b.step(merge(0, 0, 0x44));
        assert_eq!(b.m, before);
        assert_eq!(o.error, 0);
        assert_eq!(b.m.pc(0), 0);
    }

    /// Different PCs never rendezvous: both wait.
    #[test]
    fn mismatched_pcs_wait() {
        let mut b = Bench::new(toy(2));
        b.step(dispatch(0, 0, 0xF));
        b.step(split(0, 0, 0b01, 0));
        b.run_to(5);
        b.step(merge(0, 0, 0x10));
        b.step(merge(1, 0, 0x14));
        b.run_to(50);
        assert_eq!(b.states(), [MERGE_WAIT, MERGE_WAIT]);
        assert_eq!((b.m.pc(0), b.m.pc(1)), (0x10, 0x14));
        assert_eq!(b.out().error, 0, "watchdog off");
    }

    #[test]
    fn end_and_redispatch() {
        let mut b = Bench::new(config(4, 2, 2, 2));
        b.step(dispatch(0, 1, 0x7));
        assert_eq!(b.states(), [EMPTY, EMPTY, READY, EMPTY]);
        b.step(end(0, 1));
        assert_eq!(b.states(), [EMPTY, EMPTY, DONE, EMPTY]);
        assert_eq!(b.spms(), [0, 0, 0x7, 0]);
        b.step(dispatch(0, 1, 0xC));
        assert_eq!(b.states(), [EMPTY, EMPTY, READY, EMPTY]);
        assert_eq!(b.spms(), [0, 0, 0xC, 0]);
        assert_eq!(b.out().error, 0);
    }

    /// DISPATCH does not list `pc` among the registers it sets: a re-dispatched context keeps
    /// the PC of its last merge (introspection only; see the report on this choice).
    #[test]
    fn dispatch_keeps_pc() {
        let mut b = Bench::new(toy(2));
        b.step(dispatch(0, 0, 0xF));
        b.step(split(0, 0, 1, 0));
        b.run_to(5);
        b.step(merge(0, 0, 0x80));
        b.step(merge(1, 0, 0x80));
        b.run_to(b.t + 2);
        b.step(end(0, 0));
        assert_eq!(b.states(), [DONE, EMPTY]);
        b.step(dispatch(0, 0, 0x3));
        assert_eq!(b.states(), [READY, EMPTY]);
        assert_eq!((b.m.pc(0), b.m.pc(1)), (0x80, 0));
    }

    #[test]
    fn error_bad_command() {
        let mut b = Bench::new(config(4, 2, 3, 2));
        b.step(dispatch(0, 0, 0xF));
        for cmd in 5..=7 {
            b.reject(
                GroupIn {
                    cmd,
                    ..dispatch(0, 1, 0xF)
                },
                ErrorCode::BadCommand,
                0,
            );
        }
        // Unit or slot out of range, whatever the context's state would say.
        b.reject(dispatch(3, 1, 0xF), ErrorCode::BadCommand, 0);
        b.reject(split(0, 2, 0, 0), ErrorCode::BadCommand, 0);
        b.reject(merge(3, 0, 0), ErrorCode::BadCommand, 0);
        b.reject(end(0, 2), ErrorCode::BadCommand, 0);
        // NONE ignores unit and slot.
        let o = b.step(GroupIn {
            cmd_unit: 7,
            cmd_slot: 15,
            ..idle()
        });
        assert_eq!(o.error, 0);
    }

    #[test]
    fn error_bad_dispatch() {
        let mut b = Bench::new(toy(3));
        b.step(dispatch(0, 0, 0xF));
        b.reject(dispatch(0, 0, 0x1), ErrorCode::BadDispatch, 0);
        // PWS: never to a SpSIMD, even an EMPTY one.
        b.reject(dispatch(2, 0, 0x1), ErrorCode::BadDispatch, 2);
        b.step(split(0, 0, 0b01, 0));
        // A SPLITTING context is in use.
        b.reject(dispatch(0, 0, 0xF), ErrorCode::BadDispatch, 0);
    }

    #[test]
    fn error_empty_context() {
        let mut b = Bench::new(config(4, 2, 2, 2));
        b.reject(split(0, 0, 1, 0), ErrorCode::EmptyContext, 0);
        b.reject(merge(1, 1, 0), ErrorCode::EmptyContext, 3);
        b.reject(end(0, 1), ErrorCode::EmptyContext, 2);
        b.step(dispatch(0, 1, 0xF));
        b.step(end(0, 1));
        b.reject(split(0, 1, 1, 0), ErrorCode::EmptyContext, 2);
        b.reject(merge(0, 1, 0), ErrorCode::EmptyContext, 2);
        b.reject(end(0, 1), ErrorCode::EmptyContext, 2);
    }

    #[test]
    fn error_busy_context() {
        let mut cfg = toy(3);
        cfg.params.e_split = 8;
        let mut b = Bench::new(cfg);
        b.step(dispatch(0, 0, 0xF));
        b.step(split(0, 0, 1, 0));
        // SPLITTING (cycles 2..=8), both the original and the new context.
        b.reject(split(0, 0, 1, 0), ErrorCode::BusyContext, 0);
        b.reject(merge(1, 0, 0), ErrorCode::BusyContext, 1);
        b.reject(end(1, 0), ErrorCode::BusyContext, 1);
        assert_eq!(b.t, 8);
        assert_eq!(b.states(), [SPLITTING, SPLITTING, EMPTY]);
        b.step(idle());
        assert_eq!(b.states(), [READY, READY, EMPTY]);
        // MERGE_WAIT.
        b.step(merge(0, 0, 0x30));
        b.reject(merge(0, 0, 0x30), ErrorCode::BusyContext, 0);
        b.reject(split(0, 0, 0, 0), ErrorCode::BusyContext, 0);
        // MERGING.
        b.step(merge(1, 0, 0x30));
        b.step(idle());
        assert_eq!(b.states(), [MERGING, EMPTY, EMPTY]);
        let mut reference = b.m.clone();
        reference.clock(&idle());
        let o = b.step(end(0, 0));
        assert_eq!((o.error, o.error_ctx), (ErrorCode::BusyContext as u8, 0));
        assert_eq!(b.m.ctx, reference.ctx);
        assert_eq!(b.states(), [READY, EMPTY, EMPTY]);
    }

    #[test]
    fn error_end_live_splits() {
        let mut b = Bench::new(toy(2));
        b.step(dispatch(0, 0, 0xF));
        b.step(split(0, 0, 1, 0));
        b.run_to(5);
        b.reject(end(0, 0), ErrorCode::EndLiveSplits, 0);
        b.reject(end(1, 0), ErrorCode::EndLiveSplits, 1);
    }

    #[test]
    fn error_split_overflow() {
        // S = 1.
        let mut b = Bench::new(toy(2));
        b.step(dispatch(0, 0, 0xF));
        b.step(split(0, 0, 1, 0));
        b.run_to(5);
        b.reject(split(0, 0, 2, 0), ErrorCode::SplitOverflow, 0);
        b.reject(split(1, 0, 2, 0), ErrorCode::SplitOverflow, 1);
        // S = 2, two slots: slot 1's SpSIMD contexts do not serve slot 0.
        let mut b = Bench::new(config(4, 2, 3, 2));
        b.step(dispatch(0, 0, 0xF));
        b.step(dispatch(0, 1, 0xF));
        b.step(split(0, 0, 1, 0)); // → ctx 1
        b.run_to(6);
        b.step(split(1, 0, 1, 0)); // → ctx 2
        b.run_to(11);
        assert_eq!(b.states(), [READY, READY, READY, READY, EMPTY, EMPTY]);
        b.reject(split(0, 0, 1, 0), ErrorCode::SplitOverflow, 0);
        b.reject(split(2, 0, 1, 0), ErrorCode::SplitOverflow, 2);
        let o = b.step(split(0, 1, 1, 0));
        assert_eq!((o.copy_from, o.copy_to), (3, 4));
    }

    /// The checks' order: the first failing check names the error.
    #[test]
    fn error_priority() {
        let mut b = Bench::new(toy(2));
        // Bad unit beats empty context.
        b.reject(split(2, 0, 0, 0), ErrorCode::BadCommand, 0);
        b.step(dispatch(0, 0, 0xF));
        b.step(split(0, 0, 1, 0));
        // Busy beats end-with-children and overflow.
        b.reject(end(0, 0), ErrorCode::BusyContext, 0);
        b.reject(split(0, 0, 1, 0), ErrorCode::BusyContext, 0);
        // A command error beats an expired context in the same cycle.
        assert_eq!(b.t, 8);
        assert_eq!(b.states(), [READY, READY]);
        b.watchdog = 2;
        b.step(merge(1, 0, 0x10)); // ctx1 waits from cycle 9: timer 2 in cycle 11.
        b.run_to(11);
        assert_eq!(b.out().error, 0);
        let o = b.step(end(0, 0));
        assert_eq!((o.error, o.error_ctx), (ErrorCode::EndLiveSplits as u8, 0));
        let o = b.step(idle());
        assert_eq!((o.error, o.error_ctx), (ErrorCode::MergeWatchdog as u8, 1));
    }

    /// Merge watchdog: a context entering MERGE_WAIT at the edge ending cycle t is expired from
    /// cycle t + 1 + W, reported from cycle t + 2 + W, every cycle while it waits.
    #[test]
    fn watchdog() {
        let mut b = Bench::new(toy(2));
        b.watchdog = 5;
        b.step(dispatch(0, 0, 0xF));
        b.step(split(0, 0, 1, 0));
        b.run_to(5);
        b.step(merge(0, 0, 0x10)); // t = 5
        for t in 6..=11 {
            assert_eq!(b.run_to(t).error, 0, "cycle {t}");
        }
        for t in 12..=15 {
            let o = b.run_to(t);
            assert_eq!((o.error, o.error_ctx), (2, 0), "cycle {t}");
        }
        // The partner arrives at cycle 15; in cycle 16 (r) ctx0 is still waiting and expired.
        let o = b.step(merge(1, 0, 0x10));
        assert_eq!((o.error, o.error_ctx), (2, 0));
        let o = b.step(idle());
        assert_eq!((o.error, o.error_ctx), (2, 0), "reported for cycle 16");
        assert_eq!(b.states(), [MERGING, EMPTY]);
        let o = b.step(idle());
        assert_eq!((o.error, o.error_ctx), (0, 0));
        assert_eq!(b.states(), [READY, EMPTY]);
    }

    #[test]
    fn watchdog_bound_1_and_off() {
        let mut b = Bench::new(toy(2));
        b.step(dispatch(0, 0, 0xF));
        b.step(split(0, 0, 1, 0));
        b.run_to(5);
        b.step(merge(1, 0, 0x10)); // waits from cycle 6 (timer 0)
        b.run_to(1000);
        assert_eq!(b.out().error, 0, "0 = off");
        // Turning it on reports at once (the timer kept counting).
        b.watchdog = 1;
        let o = b.step(idle());
        assert_eq!((o.error, o.error_ctx), (2, 1));
        // A bound above the timer clears it again.
        b.watchdog = 2000;
        assert_eq!(b.step(idle()).error, 0);
        b.watchdog = 0;
        // Bound 1: expired in the second waiting cycle.
        let mut b = Bench::new(toy(2));
        b.watchdog = 1;
        b.step(dispatch(0, 0, 0xF));
        b.step(split(0, 0, 1, 0));
        b.run_to(5);
        b.step(merge(1, 0, 0x10));
        assert_eq!(b.run_to(7).error, 0);
        assert_eq!(b.run_to(8).error, 2);
        // SPLITTING and MERGING are never expired.
        let mut b = Bench::new(toy(2));
        b.watchdog = 1;
        b.step(dispatch(0, 0, 0xF));
        b.step(split(0, 0, 1, 0));
        for _ in 0..5 {
            assert_eq!(b.step(idle()).error, 0);
        }
    }

    /// The lowest expired context is named.
    #[test]
    fn watchdog_lowest_context() {
        let mut b = Bench::new(toy(3));
        b.watchdog = 10;
        b.step(dispatch(0, 0, 0xF));
        b.step(split(0, 0, 1, 0));
        b.run_to(5);
        b.step(split(0, 0, 2, 0));
        b.run_to(9);
        b.step(merge(2, 0, 0x10)); // t = 9: expired from 20, reported from 21
        b.step(merge(1, 0, 0x20)); // t = 10: expired from 21, reported from 22
        b.step(merge(0, 0, 0x30)); // t = 11 (partner 2, other pc): reported from 23
        assert_eq!(b.run_to(20).error, 0);
        assert_eq!((b.run_to(21).error, b.out().error_ctx), (2, 2));
        assert_eq!((b.run_to(22).error, b.out().error_ctx), (2, 1));
        assert_eq!((b.run_to(23).error, b.out().error_ctx), (2, 0));
        assert_eq!(b.states(), [MERGE_WAIT, MERGE_WAIT, MERGE_WAIT]);
    }

    /// The MERGE_WAIT timer saturates at 0xFFFF: with bound 0xFFFF the error appears and stays.
    #[test]
    fn watchdog_saturation() {
        let mut b = Bench::new(toy(2));
        b.watchdog = 0xFFFF;
        b.step(dispatch(0, 0, 0xF));
        b.step(split(0, 0, 1, 0));
        b.run_to(5);
        b.step(merge(1, 0, 0x10)); // timer n in cycle 6 + n
        let expired = 6 + 0xFFFF;
        assert_eq!(b.run_to(expired).error, 0);
        assert_eq!(b.m.ctx[1].timer, 0xFFFF);
        for t in expired + 1..expired + 100 {
            let o = b.run_to(t);
            assert_eq!((o.error, o.error_ctx), (2, 1), "cycle {t}");
        }
        assert_eq!(b.m.ctx[1].timer, 0xFFFF);
    }

    /// A rendezvous completing at the same edge as a split of the same WF: live gets both.
    #[test]
    fn merge_and_split_same_edge() {
        let mut b = Bench::new(toy(4));
        b.step(dispatch(0, 0, 0xF));
        b.step(split(0, 0, 0b11, 0b01)); // 0: 0x7, 1: 0x8
        b.run_to(5);
        b.step(split(0, 0, 0b01, 0)); // 0: 0x1, 2: 0x6
        b.run_to(9);
        assert_eq!(b.m.live(0), 2);
        b.step(merge(0, 0, 0x50)); // cycle 9
        b.step(merge(2, 0, 0x50)); // cycle 10: rendezvous, merge at the edge ending 11
        let o = b.step(split(1, 0, 0, 0b10)); // cycle 11: ctx 2 is not free yet → ctx 3
        assert_eq!((o.copy_from, o.copy_to), (1, 3));
        assert_eq!(b.states(), [MERGING, SPLITTING, EMPTY, SPLITTING]);
        assert_eq!(b.spms(), [0x7, 0x8, 0, 0]);
        assert_eq!(b.m.live(0), 2);
        assert_eq!(b.m.stack(0), [1]);
        assert_eq!(b.m.stack(1), [3]);
        assert_eq!(b.m.root(3), 0);
        // S = 2 (units 3): the same split overflows, since ctx 2 is still in MERGE_WAIT.
        let mut b = Bench::new(toy(3));
        b.step(dispatch(0, 0, 0xF));
        b.step(split(0, 0, 0b11, 0b01));
        b.run_to(5);
        b.step(split(0, 0, 0b01, 0));
        b.run_to(9);
        b.step(merge(0, 0, 0x50));
        b.step(merge(2, 0, 0x50));
        b.reject(split(1, 0, 0, 0b10), ErrorCode::SplitOverflow, 1);
        assert_eq!(b.states(), [READY, READY, EMPTY]);
        assert_eq!(b.m.live(0), 1);
    }

    /// Reset mid-sequence returns to power-up outputs; the reset cycle's command is ignored.
    #[test]
    fn reset_mid_sequence() {
        let mut b = Bench::new(toy(3));
        b.watchdog = 1;
        b.step(dispatch(0, 0, 0xF));
        b.step(split(0, 0, 0b11, 0b10));
        b.run_to(5);
        b.step(split(0, 0, 0b11, 0));
        b.run_to(9);
        b.step(merge(1, 0, 0x10));
        b.step(merge(2, 0, 0x20));
        b.run_to(12);
        let o = b.step(merge(0, 0, 0x20)); // rendezvous pending
        assert_eq!(o.error, 2);
        let o = b.step(GroupIn {
            reset: true,
            ..dispatch(0, 0, 0xF)
        });
        assert_eq!(o.ctx.iter().filter(|c| **c != CtxOut::default()).count(), 0);
        assert_power_up(&b);
        // Reset with a copy strobe and an error pending.
        b.step(dispatch(0, 0, 0xF));
        let o = b.step(split(0, 0, 1, 1));
        assert!(o.copy_valid);
        b.step(GroupIn {
            reset: true,
            ..split(0, 0, 1, 1)
        });
        assert_power_up(&b);
        b.step(end(0, 0));
        assert_eq!(b.out().error, ErrorCode::EmptyContext as u8);
        b.step(GroupIn {
            reset: true,
            ..idle()
        });
        assert_power_up(&b);
        // Usable again.
        b.step(dispatch(0, 0, 0x6));
        b.step(split(0, 0, 0b10, 0));
        assert_eq!(b.spms(), [0x2, 0x4, 0]);
    }

    /// Command ports are as wide as the contract says.
    #[test]
    fn port_widths() {
        let mut b = Bench::new(config(4, 2, 2, 2));
        // cmd 9 is cmd 1 on a 3-bit port; unit 8 is unit 0; slot 17 is slot 1.
        b.step(GroupIn {
            cmd: 9,
            cmd_unit: 8,
            cmd_slot: 17,
            cmd_mask: 0xF,
            ..idle()
        });
        assert_eq!(b.states(), [EMPTY, EMPTY, READY, EMPTY]);
    }

    /// DWS: splits take the lowest free slot on the same unit; slots are the relative ids;
    /// a split is refused when the WF already has S descendants.
    #[test]
    fn dws_split_and_merge() {
        // S = 2, 4 slots; contexts k = slot * 3 + unit; unit 1 holds 1, 4, 7, 10.
        let mut b = Bench::dws(config(4, 2, 3, 4));
        b.step(dispatch(1, 1, 0xF)); // k 4
        assert_eq!(b.m.root(4), 1);
        // Split: M = lanes 0 and 2 → the lowest free slot on unit 1 is slot 0 (k 1).
        let o = b.step(split(1, 1, 0b01, 0b01));
        assert_eq!((o.copy_valid, o.copy_from, o.copy_to), (true, 4, 1));
        assert_eq!(o.ctx[4].spm, 0x5);
        assert_eq!(o.ctx[1].spm, 0xA);
        assert_eq!((o.ctx[1].parent_valid, o.ctx[1].parent), (true, 1));
        assert_eq!((o.ctx[4].sp, o.ctx[4].top), (1, 0));
        assert_eq!(b.m.stack(4), [0]);
        assert_eq!(b.m.root(1), 1);
        assert_eq!(b.m.live(4), 1);
        assert_eq!(o.ctx[1].state, SPLITTING);
        b.run_to(5);
        assert_eq!((b.out().ctx[4].state, b.out().ctx[1].state), (READY, READY));
        // The SWF in slot 0 splits: the lowest free slot is now 2 (k 7).
        let o = b.step(split(1, 0, 0b10, 0));
        assert_eq!((o.copy_from, o.copy_to), (1, 7));
        assert_eq!((o.ctx[1].spm, o.ctx[7].spm), (0x2, 0x8));
        assert_eq!(
            (o.ctx[7].parent, b.m.root(7), b.m.stack(1)),
            (0, 1, vec![2])
        );
        assert_eq!(b.m.live(4), 2);
        b.run_to(9);
        // live = S: every context of the WF is refused, though slot 3 is free.
        for (unit, slot) in [(1, 1), (1, 0), (1, 2)] {
            let before = b.m.clone();
            let o = b.step(split(unit, slot, 1, 0));
            assert!(o.split_denied);
            assert_eq!((o.error, o.copy_valid), (0, false));
            assert_eq!(b.m.ctx, before.ctx);
            let o = b.step(idle());
            assert!(!o.split_denied, "one-cycle strobe");
        }
        // Inner merge (k 7 first, partner = parent slot 0), then k 1 (top = slot 2).
        let t = b.t;
        b.step(merge(1, 2, 0x10));
        b.step(merge(1, 0, 0x10));
        b.step(idle());
        assert_eq!(
            (b.out().ctx[1].state, b.out().ctx[7].state),
            (MERGING, EMPTY)
        );
        b.run_to(t + 4);
        assert_eq!(b.out().ctx[1].state, READY);
        assert_eq!(b.out().ctx[1].spm, 0xA);
        assert_eq!(b.m.live(4), 1);
        // A split is allowed again (live 1 < S).
        let o = b.step(split(1, 1, 0b01, 0));
        assert_eq!((o.copy_from, o.copy_to), (4, 7));
        assert_eq!(b.m.stack(4), [0, 2]);
        b.run_to(b.t + 3);
        // Merge k 4 with k 7 (top), then with k 1.
        b.step(merge(1, 1, 0x30));
        b.step(merge(1, 2, 0x30));
        b.run_to(b.t + 2);
        assert_eq!(b.out().ctx[4].spm, 0x5);
        b.step(merge(1, 0, 0x40));
        b.step(merge(1, 1, 0x40));
        b.run_to(b.t + 2);
        let o = b.out();
        assert_eq!((o.ctx[4].state, o.ctx[4].spm, o.ctx[4].sp), (READY, 0xF, 0));
        assert_eq!((o.ctx[1].state, o.ctx[7].state), (EMPTY, EMPTY));
        assert_eq!(b.m.live(4), 0);
        // Other units were never touched.
        for k in (0..12).filter(|k| k % 3 != 1) {
            assert_eq!(o.ctx[k], CtxOut::default());
        }
    }

    #[test]
    fn dws_takes_a_done_slot() {
        // S = 1, 2 slots per unit: k 0 and k 2 on unit 0; k 2's wavefront ends.
        let mut b = Bench::dws(config(4, 2, 2, 2));
        b.step(dispatch(0, 0, 0xF));
        b.step(dispatch(0, 1, 0xF));
        b.step(end(0, 1));
        // A DONE context with no parent is free (docs/assumptions.md#A21: "a free WF context on the
        // same SIMD").
        let o = b.step(split(0, 0, 0b11, 0));
        assert_eq!((o.copy_valid, o.copy_from, o.copy_to), (true, 0, 2));
        assert_eq!(
            (o.ctx[2].parent_valid, o.ctx[2].parent, o.ctx[2].spm),
            (true, 0, 0xC)
        );
        assert_eq!(o.ctx[2].state, State::Splitting as u8);
    }

    #[test]
    fn dws_denials() {
        // S = 1, 2 slots per unit.
        let mut b = Bench::dws(config(4, 2, 2, 2));
        // Dispatch to any unit is fine in DWS.
        b.step(dispatch(0, 0, 0xF)); // k 0
        b.step(dispatch(0, 1, 0xF)); // k 2
                                     // No free slot on unit 0 (unit 1 is free but not in the family).
        let before = b.m.clone();
        let o = b.step(split(0, 0, 1, 0));
        assert!(o.split_denied);
        assert_eq!(o.error, 0);
        assert_eq!(b.m.ctx, before.ctx);
        b.step(end(0, 1));
        // On unit 1: the split takes slot 1 (k 3); then sp = S and live = S: refused.
        b.step(dispatch(1, 0, 0xF)); // k 1
        let o = b.step(split(1, 0, 0b11, 0));
        assert_eq!((o.copy_valid, o.copy_from, o.copy_to), (true, 1, 3));
        assert_eq!((o.ctx[3].parent, o.ctx[1].top), (0, 1));
        b.run_to(b.t + 3);
        let o = b.step(split(1, 0, 0b11, 0));
        assert!(o.split_denied);
        let o = b.step(split(1, 1, 0b11, 0));
        assert!(o.split_denied);
        // Checks 1..3 still come first.
        b.reject(split(0, 1, 1, 0), ErrorCode::EmptyContext, 2);
        b.step(merge(1, 0, 0));
        b.reject(split(1, 0, 1, 0), ErrorCode::BusyContext, 1);
        // The merge completes as in PWS.
        b.step(merge(1, 1, 0));
        b.run_to(b.t + 2);
        assert_eq!(b.states(), [READY, READY, DONE, EMPTY]);
    }

    /// Random command streams: the model never panics and keeps its bookkeeping consistent.
    #[test]
    fn random_streams_keep_invariants() {
        let mut rng = 0x2545_F491_4F6C_DD1Du64;
        let mut next = move || {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            rng
        };
        let (mut copies, mut rendezvous, mut denials) = (0, 0, 0);
        for round in 0..40 {
            let dws = round % 2 == 1;
            let units = 2 + (next() % 7) as usize;
            let n_wfc = 1 + (next() % 4) as usize;
            let lanes = [4, 8, 32, 64][(next() % 4) as usize];
            let mut cfg = config(lanes, lanes / 2, units, n_wfc);
            cfg.params.e_split = 1 + (next() % 4) as u8;
            cfg.params.e_merge = 1 + (next() % 3) as u8;
            let mut b = Bench::new(cfg);
            b.dws = dws;
            b.watchdog = 40;
            for _ in 0..3000 {
                let r = next();
                let unit = (r % units as u64) as u8;
                let slot = (r >> 8) as u8 % n_wfc as u8;
                let inp = match (r >> 16) % 16 {
                    0..=1 => dispatch(if dws { unit } else { 0 }, slot, next()),
                    2..=5 => split(unit, slot, next() as u32, next() as u32),
                    6..=10 => merge(unit, slot, u32::from((r >> 24) % 8 == 0)),
                    11 => end(unit, slot),
                    12 if (r >> 32) % 64 == 0 => GroupIn {
                        reset: true,
                        ..idle()
                    },
                    12 => GroupIn {
                        cmd: 5 + (r >> 40) as u8 % 3,
                        ..idle()
                    },
                    _ => idle(),
                };
                let o = b.step(inp);
                check_invariants(&b.m, dws);
                copies += usize::from(o.copy_valid);
                rendezvous += usize::from(b.m.rendezvous.is_some());
                denials += usize::from(o.split_denied);
            }
        }
        // The streams reach the interesting cases.
        assert!(copies > 1000, "{copies} splits");
        assert!(rendezvous > 500, "{rendezvous} merges");
        assert!(denials > 100, "{denials} denials");
    }

    fn check_invariants(m: &SimdGroupModel, dws: bool) {
        let cfg = m.config();
        let s = cfg.units - 1;
        for (k, c) in m.ctx.iter().enumerate() {
            assert!(c.stack.len() <= s);
            assert_eq!(c.spm & !lane_mask(cfg.lanes), 0);
            if c.state == State::Empty {
                assert_eq!(*c, Context::empty(), "EMPTY context {k} not clear");
            }
            for &child in c.stack.as_slice() {
                let ck = m.member(k, child, dws);
                assert_eq!(
                    m.ctx[ck].parent,
                    Some(m.rel_id(k, dws)),
                    "ctx {k} child {ck}"
                );
                assert_eq!(m.ctx[ck].root, c.root);
            }
            if let Some(p) = c.parent {
                let pk = m.member(k, p, dws);
                assert!(m.ctx[pk].stack.as_slice().contains(&m.rel_id(k, dws)));
            } else if !matches!(c.state, State::Empty) {
                // An original context: its live counts its descendants, whose SpMs are
                // disjoint from each other and from its own.
                assert_eq!(c.root, m.rel_id(k, dws));
                let members: Vec<usize> = m
                    .family(k, dws)
                    .filter(|&j| m.ctx[j].parent.is_some() && m.ctx[j].root == c.root)
                    .collect();
                assert_eq!(usize::from(c.live), members.len(), "live of {k}");
                assert!(members.len() <= s);
                let mut union = c.spm;
                for j in members {
                    assert_eq!(union & m.ctx[j].spm, 0, "overlapping SpMs");
                    union |= m.ctx[j].spm;
                }
            }
        }
    }
}
