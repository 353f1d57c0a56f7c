//! Invariants of the split/merge unit, checked on the RTL's outputs every cycle
//! (the split and merge procedures of Section 4.1 of the PWS paper), and coverage counts of what a
//! run exercised.

use super::stimulus::family;
use rtgpu_hw::pws::model::{GroupIn, GroupOut, ModelConfig, SimdGroupModel};
use rtgpu_hw::pws::{lane_mask, Cmd, ErrorCode, State};

/// What a run exercised.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Coverage {
    /// Splits carried out (copy strobes).
    pub splits: u64,
    /// Merges carried out (children released).
    pub merges: u64,
    /// DWS splits refused.
    pub denials: u64,
    /// Cycles with each error code on `error`.
    pub errors: [u64; 8],
    /// The deepest child stack seen.
    pub max_sp: u8,
}

/// The invariant checker: knows each WF's lanes at dispatch.
pub struct Invariants {
    cfg: ModelConfig,
    dws: bool,
    /// S of the segment (its reset's `s`).
    s: u8,
    /// The lanes each context was dispatched with (roots only).
    dispatched: Vec<Option<u64>>,
    /// A dispatch presented last cycle that must have been accepted: (context, lanes).
    pending: Option<(usize, u64)>,
    /// The previous cycle's states.
    prev: Vec<u8>,
    coverage: Coverage,
}

fn is(state: u8, s: State) -> bool {
    state == s as u8
}

impl Invariants {
    /// A checker for a group of shape `cfg`, in PWS mode until the first reset says otherwise.
    pub fn new(cfg: ModelConfig) -> Self {
        let n = cfg.units * cfg.n_wfc;
        Self {
            cfg,
            dws: false,
            s: (cfg.units - 1) as u8,
            dispatched: vec![None; n],
            pending: None,
            prev: vec![0; n],
            coverage: Coverage::default(),
        }
    }

    /// The coverage so far.
    pub fn coverage(&self) -> &Coverage {
        &self.coverage
    }

    /// One line on the coverage.
    pub fn summary(&self) -> String {
        let c = &self.coverage;
        let errors: Vec<String> = (1..8u8)
            .filter(|&e| c.errors[usize::from(e)] > 0)
            .map(|e| {
                let name = ErrorCode::from_code(e).map_or("?", ErrorCode::name);
                format!("{name} {}", c.errors[usize::from(e)])
            })
            .collect();
        format!(
            "{} splits, {} merges, {} DWS denials, deepest stack {}, error cycles: {}",
            c.splits,
            c.merges,
            c.denials,
            c.max_sp,
            if errors.is_empty() {
                "none".to_string()
            } else {
                errors.join(", ")
            }
        )
    }

    /// Family and relative id of context `k` in the current mode.
    fn family(&self, k: usize) -> (usize, u8) {
        let (fam, rel) = family(k, self.cfg.units, self.dws);
        (fam, rel as u8)
    }

    /// Checks the outputs of a cycle; `model` supplies the root field the ports do not show.
    pub fn check(&mut self, model: &SimdGroupModel, out: &GroupOut) -> Result<(), String> {
        if let Some((k, lanes)) = self.pending.take() {
            let c = &out.ctx[k];
            if !is(c.state, State::Ready) || c.spm != lanes {
                return Err(format!(
                    "dispatch to context {k} with lanes {lanes:#x} not carried out: state {}, spm {:#x}",
                    c.state, c.spm
                ));
            }
            self.dispatched[k] = Some(lanes);
        }
        let s = self.s;
        if let Some(k) = (0..out.ctx.len()).find(|&k| out.ctx[k].sp > s) {
            return Err(format!(
                "context {k}: child stack holds {} > S = {s}",
                out.ctx[k].sp
            ));
        }
        // (Under PWS a group runs at S on its first S + 1 units: a split's child never goes
        // to a unit above S.)
        let above = |k: usize| k % self.cfg.units > usize::from(s);
        if let Some(k) = (0..out.ctx.len())
            .find(|&k| !self.dws && above(k) && !is(out.ctx[k].state, State::Empty))
        {
            return Err(format!(
                "context {k}: on unit {} above S = {s} under PWS, state {}",
                k % self.cfg.units,
                out.ctx[k].state
            ));
        }
        for k in 0..out.ctx.len() {
            self.check_tree(k, model, out)?;
        }
        Ok(())
    }

    /// If context `r` is a live root: its tree's SpMs are disjoint and cover its lanes.
    fn check_tree(&self, r: usize, model: &SimdGroupModel, out: &GroupOut) -> Result<(), String> {
        let root = &out.ctx[r];
        let live = |s: u8| !is(s, State::Empty) && !is(s, State::Done);
        if !live(root.state) || root.parent_valid {
            return Ok(());
        }
        let (fam, rel) = self.family(r);
        let members: Vec<usize> = (0..out.ctx.len())
            .filter(|&k| live(out.ctx[k].state) && self.family(k).0 == fam && model.root(k) == rel)
            .collect();
        let mut union = 0u64;
        for &k in &members {
            if union & out.ctx[k].spm != 0 {
                return Err(format!(
                    "WF of context {r}: SpM of context {k} ({:#x}) overlaps its relatives ({union:#x})",
                    out.ctx[k].spm
                ));
            }
            union |= out.ctx[k].spm;
        }
        match self.dispatched[r] {
            Some(lanes) if lanes != union => Err(format!(
                "WF of context {r}: its contexts {members:?} cover {union:#x}, dispatched with {lanes:#x}"
            )),
            _ => Ok(()),
        }
    }

    /// Records the cycle's inputs and outputs (after [`Invariants::check`], before the edge).
    pub fn observe(&mut self, inp: &GroupIn, out: &GroupOut) {
        self.count(out);
        if inp.reset {
            self.dws = inp.dws;
            self.s = inp.s & 7;
            self.dispatched.iter_mut().for_each(|d| *d = None);
            self.pending = None;
            self.prev.iter_mut().for_each(|s| *s = State::Empty as u8);
            return;
        }
        self.pending = self.accepted_dispatch(inp, out);
    }

    /// The dispatch this cycle's command makes, if it is legal.
    fn accepted_dispatch(&self, inp: &GroupIn, out: &GroupOut) -> Option<(usize, u64)> {
        let (unit, slot) = (usize::from(inp.cmd_unit), usize::from(inp.cmd_slot));
        if inp.cmd != Cmd::Dispatch as u8 || unit >= self.cfg.units || slot >= self.cfg.n_wfc {
            return None;
        }
        let k = slot * self.cfg.units + unit;
        let state = out.ctx[k].state;
        let idle = is(state, State::Empty) || is(state, State::Done);
        (idle && (self.dws || unit == 0)).then_some((k, inp.cmd_mask & lane_mask(self.cfg.lanes)))
    }

    fn count(&mut self, out: &GroupOut) {
        let c = &mut self.coverage;
        c.splits += u64::from(out.copy_valid);
        c.denials += u64::from(out.split_denied);
        c.errors[usize::from(out.error & 7)] += 1;
        for (k, ctx) in out.ctx.iter().enumerate() {
            c.max_sp = c.max_sp.max(ctx.sp);
            let released = is(self.prev[k], State::MergeWait) && is(ctx.state, State::Empty);
            c.merges += u64::from(released);
            self.prev[k] = ctx.state;
        }
    }
}
