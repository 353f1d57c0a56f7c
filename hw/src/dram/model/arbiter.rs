//! The arbiter of the DRAM controller model: everything decided in a cycle from the state at
//! its start (the bank step issued, refresh, the front-end's offer, `idx_ready`, `req_ready`,
//! `done`) and the timing legality of a bank step.

use super::{Decision, DramModel, Step};

impl DramModel {
    /// The cycle's decisions, from the state only.
    pub(super) fn decide(&self) -> Decision {
        let t = self.cycle;
        let nb = self.nb;

        // The arbiter.
        let mut best: Option<(u32, u8, Step)> = None;
        let mut all_empty = true;
        for b in 0..nb {
            let f = &self.fifo[b];
            if f.len == 0 {
                continue;
            }
            all_empty = false;
            let e = f.get(0);
            let step = if e.close {
                Step::PreClose
            } else if e.pre_pre {
                Step::PrePre
            } else if e.act {
                Step::Act
            } else {
                Step::Cas
            };
            if !self.legal(b, step, t) {
                continue;
            }
            let tier: u32 = match step {
                Step::Cas => 3,
                Step::PrePre => 2,
                Step::Act => 1,
                Step::PreClose => 0,
            };
            let count = if step == Step::Act {
                self.act_count(b)
            } else {
                0
            };
            let dist = ((b + nb - self.cur_pair as usize) % nb) as u32;
            let key = (tier << 16) | (count << 8) | (255 - dist);
            if best.is_none_or(|(k, _, _)| key > k) {
                best = Some((key, b as u8, step));
            }
        }
        let issue = best.map(|(_, b, s)| (b, s));
        let all_closed = self.bank[..nb].iter().all(|bk| bk.open.is_none());
        let refresh = issue.is_none()
            && self.owed > 0
            && !self.active
            && all_empty
            && all_closed
            && t >= self.ref_ok;

        // The front-end and the generator.
        let mut seg = None;
        let mut emit = None;
        if self.active && !self.req.bad && !self.fe_done {
            if !self.req.indexed {
                let (s, mask) = self.burst_walk();
                let succ = s.next.map(|(_, pos, _)| pos >> 4);
                emit = Some(self.generate(s.burst, mask, succ, succ.is_none()));
                seg = Some(s);
            } else if let Some(w) = self.idx_reg {
                let last = self.emitted + 1 == self.req.count;
                emit = Some(self.generate(u64::from(w >> 4), 1 << (w & 15), None, last));
            }
        }
        let idx_ready = self.active
            && self.req.indexed
            && !self.req.bad
            && self.taken < self.req.count
            && (self.idx_reg.is_none() || emit.is_some_and(|e| e.accepted));

        let done = self.active
            && (self.req.bad || (self.fe_done && all_empty && all_closed && self.ref_ok <= t + 2));
        let req_ready = (!self.active || done) && self.owed == 0;

        Decision {
            issue,
            refresh,
            seg,
            emit,
            idx_ready,
            req_ready,
            done,
        }
    }

    /// Is `step` of bank `b` legal in cycle `t`?
    pub(super) fn legal(&self, b: usize, step: Step, t: u64) -> bool {
        let bk = &self.bank[b];
        let g = self.part.bg(b);
        match step {
            Step::PreClose | Step::PrePre => t >= bk.pre_ok,
            Step::Act => {
                t >= bk.act_ok
                    && t >= self.bg_act_ok[g]
                    && t >= self.act_ok
                    && (self.faw_n < 4
                        || t >= self.faw[self.faw_next as usize] + u64::from(self.part.faw))
            }
            Step::Cas => t >= bk.cas_ok && t >= self.bg_cas_ok[g] && t >= self.cas_ok,
        }
    }

    /// Rule 5's count for an ACT at the head of bank `b`: 1 + the largest n such that entries
    /// 1..=n are compound with `pre_pre = act = 0` and entries 0..n have `ap = 0`.
    pub(super) fn act_count(&self, b: usize) -> u32 {
        let f = &self.fifo[b];
        let mut n = 0;
        for i in 1..f.len as usize {
            let (prev, e) = (f.get(i - 1), f.get(i));
            if prev.ap || e.close || e.pre_pre || e.act {
                break;
            }
            n = i as u32;
        }
        1 + n
    }
}
