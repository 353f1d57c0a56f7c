//! The edge of the PWS split/merge unit model: the timers, and applying a decided command
//! (rendezvous, split, the context updates).

use super::*;

impl SimdGroupModel {
    /// The timers: SPLITTING/MERGING count down to READY, MERGE_WAIT counts up. Whether a
    /// context became READY.
    pub(super) fn count_down(&mut self) -> bool {
        let mut readied = false;
        for c in &mut self.ctx {
            match c.state {
                State::Splitting | State::Merging => {
                    if c.timer == 1 {
                        c.state = State::Ready;
                        c.timer = 0;
                        readied = true;
                    } else {
                        c.timer = c.timer.wrapping_sub(1) & COUNTDOWN_BITS;
                    }
                }
                State::MergeWait => c.timer = c.timer.saturating_add(1),
                State::Empty | State::Ready | State::Done => {}
            }
        }
        readied
    }

    /// The merge of the pair found at the previous edge: the target `t` (whose stack top is
    /// the child `c`) takes both masks and enters MERGING; `c` is cleared. Returns the root
    /// context whose `live` count drops.
    pub(super) fn merge_pair(&mut self, t: usize, c: usize, dws: bool) -> usize {
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
    pub(super) fn apply(
        &mut self,
        action: Action,
        dws: bool,
    ) -> ((ErrorCode, usize), Option<usize>) {
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
    pub(super) fn split(&mut self, x: usize, y: usize, m: u64, dws: bool) {
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
}
