//! The decision of the PWS split/merge unit model: what the cycle's command does (the
//! contract's checks in its order), reading the current state only, and the queries it uses
//! (free contexts, families, relative ids, the watchdog).

use super::*;

impl SimdGroupModel {
    /// What the cycle's command does: the checks of the contract, in its order, then the
    /// command's effect. Reads the current state only.
    pub(super) fn decide(&self, inp: &GroupIn) -> Action {
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
    pub(super) fn decide_split(&self, x: usize, inp: &GroupIn) -> Action {
        let s = usize::from(inp.s & S_BITS);
        let free = self.free_context(x, inp.dws, s);
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
    pub(super) fn decide_merge(&self, x: usize, inp: &GroupIn) -> Action {
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
    /// DONE with parent invalid and, in PWS, on a SpSIMD 1..=`s` (a group runs PWS at S on
    /// its first S + 1 units).
    pub(super) fn free_context(&self, x: usize, dws: bool, s: usize) -> Option<usize> {
        self.family(x, dws).find(|&k| {
            let c = &self.ctx[k];
            let unit = k % self.cfg.units;
            matches!(c.state, State::Empty | State::Done)
                && c.parent.is_none()
                && (dws || (1..=s).contains(&unit))
        })
    }

    /// The contexts of k's family, lowest index first.
    pub(super) fn family(&self, k: usize, dws: bool) -> impl Iterator<Item = usize> {
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
    pub(super) fn rel_id(&self, k: usize, dws: bool) -> u8 {
        let units = self.cfg.units;
        (if dws { k / units } else { k % units }) as u8
    }

    /// The member of k's family with relative id `id`.
    pub(super) fn member(&self, k: usize, id: u8, dws: bool) -> usize {
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
    pub(super) fn root_context(&self, k: usize, dws: bool) -> usize {
        self.member(k, self.ctx[k].root, dws)
    }

    /// The lowest context that is expired in the current cycle: in MERGE_WAIT with
    /// `watchdog` ≠ 0 and timer ≥ `watchdog`.
    pub(super) fn lowest_expired(&self, watchdog: u16) -> Option<usize> {
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
