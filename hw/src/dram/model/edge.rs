//! The outputs and the rising edge of the DRAM controller model: the outputs for a cycle's
//! decisions, the edge applying them, a command's effect on the timing bounds, and the
//! acceptance of a request.

use super::*;

impl DramModel {
    /// The outputs for decision `d`.
    pub(super) fn output_of(&self, d: &Decision) -> DramOut {
        let mut o = DramOut {
            req_ready: d.req_ready,
            idx_ready: d.idx_ready,
            ref_owed: self.owed,
            ref_overflow: self.overflow,
            ..DramOut::default()
        };
        let nbg = self.nbg as u8;
        if let Some((b, step)) = d.issue {
            o.cmd_bg = b % nbg;
            o.cmd_bank = b / nbg;
            let e = self.fifo[b as usize].get(0);
            match step {
                Step::PreClose | Step::PrePre => o.cmd = Command::Pre,
                Step::Act => {
                    o.cmd = Command::Act;
                    o.cmd_row = e.row;
                }
                Step::Cas => {
                    o.cmd = match (e.write, e.ap) {
                        (false, false) => Command::Rd,
                        (false, true) => Command::Rda,
                        (true, false) => Command::Wr,
                        (true, true) => Command::Wra,
                    };
                    o.cmd_row = e.row;
                    o.cmd_col = u16::from(e.col) * 8;
                }
            }
        } else if d.refresh {
            o.cmd = Command::Ref;
        }
        let t = self.cycle;
        let bl = u64::from(self.part.bl);
        for i in 0..self.dq_len as usize {
            let r = &self.dq[(self.dq_head as usize + i) % DQ_SLOTS];
            if r.start <= t && t < r.start + bl {
                let beat = (t - r.start) as u8;
                o.dq_valid = true;
                o.dq_write = r.write;
                o.dq_bg = r.bank % nbg;
                o.dq_bank = r.bank / nbg;
                o.dq_row = r.row;
                o.dq_col = u16::from(r.col) * 8;
                o.dq_beat = beat;
                o.dq_mask = ((r.mask >> (4 * beat)) & 0xf) as u8;
                break;
            }
        }
        if d.done {
            o.done = true;
            o.done_tag = self.req.tag;
            if self.req.bad {
                o.done_error = true;
            } else {
                o.done_lid = (t + 2 - self.req.t_a) as u32;
            }
        }
        o
    }

    // --------------------------------------------------------------------------- edge --

    /// The rising edge ending the current cycle.
    pub(super) fn edge(&mut self, d: &Decision, inp: &DramIn) {
        let t = self.cycle;
        if inp.reset {
            *self = Self::power_up(self.part, self.refresh_phase, t + 1);
            return;
        }
        let p = self.part;

        // The arbiter's command.
        if let Some((b, step)) = d.issue {
            self.issue(b as usize, step, t);
        }
        if d.refresh {
            let rfc = t + u64::from(p.rfc);
            self.act_ok = self.act_ok.max(rfc);
            self.ref_ok = self.ref_ok.max(rfc);
        }

        // DQ: retire reservations that end with this cycle.
        let bl = u64::from(p.bl);
        while self.dq_len > 0 && self.dq[self.dq_head as usize].start + bl <= t + 1 {
            self.dq_head = ((self.dq_head as usize + 1) % DQ_SLOTS) as u8;
            self.dq_len -= 1;
        }

        // The front-end and the generator.
        if let Some(em) = d.emit {
            if em.accepted {
                let bi = em.bank as usize;
                self.fifo[bi].push(em.entry);
                for o in 0..self.nb {
                    if em.closes & (1 << o) != 0 {
                        self.fifo[o].push(Entry::CLOSE);
                        self.shadow_open[o] = false;
                    }
                }
                self.shadow_open[bi] = !em.entry.ap;
                self.shadow_row[bi] = em.entry.row;
            }
        }
        if let Some(s) = d.seg {
            if d.emit.is_some_and(|e| e.accepted) {
                match s.next {
                    Some((row, pos, end)) => {
                        self.row = row;
                        self.pos = pos;
                        self.row_end = end;
                    }
                    None => self.fe_done = true,
                }
            }
        }
        if self.req.indexed && self.active {
            let emitted_now = d.emit.is_some_and(|e| e.accepted);
            if emitted_now {
                self.emitted += 1;
                if self.emitted == self.req.count {
                    self.fe_done = true;
                }
            }
            if inp.idx_valid && d.idx_ready {
                self.idx_reg = Some(inp.idx_addr & WORD_MASK);
                self.taken += 1;
            } else if emitted_now {
                self.idx_reg = None;
            }
        }

        // Completion and acceptance.
        if d.done {
            self.active = false;
        }
        if inp.req_valid && d.req_ready {
            self.accept(inp, t);
        }

        // Refresh interval counter.
        let due = self.ref_cnt == p.refi - 1;
        self.ref_cnt = if due { 0 } else { self.ref_cnt + 1 };
        match (due, d.refresh) {
            (true, false) => {
                if self.owed == MAX_OWED {
                    self.overflow = true;
                } else {
                    self.owed += 1;
                }
            }
            (false, true) => self.owed -= 1,
            _ => {}
        }

        self.cycle = t + 1;
    }

    /// Apply the issue of `step` of bank `b` in cycle `t`.
    pub(super) fn issue(&mut self, b: usize, step: Step, t: u64) {
        let p = self.part;
        let g = p.bg(b);
        let e = *self.fifo[b].get(0);
        match step {
            Step::Act => {
                let bk = &mut self.bank[b];
                debug_assert!(bk.open.is_none(), "ACT to an open bank");
                bk.act_ok = bk.act_ok.max(t + u64::from(p.rc));
                bk.cas_ok = bk.cas_ok.max(t + u64::from(p.rcd));
                bk.pre_ok = bk.pre_ok.max(t + u64::from(p.ras));
                bk.last_act = t;
                bk.open = Some(e.row);
                self.bg_act_ok[g] = self.bg_act_ok[g].max(t + u64::from(p.rrd_l));
                self.act_ok = self.act_ok.max(t + u64::from(p.rrd_s));
                self.ref_ok = self.ref_ok.max(t + u64::from(p.rc));
                self.faw[self.faw_next as usize] = t;
                self.faw_next = (self.faw_next + 1) % 4;
                self.faw_n = (self.faw_n + 1).min(4);
                self.fifo[b].head_mut().act = false;
            }
            Step::PrePre | Step::PreClose => {
                let bk = &mut self.bank[b];
                debug_assert!(bk.open.is_some(), "PRE to a closed bank");
                bk.act_ok = bk.act_ok.max(t + u64::from(p.rp));
                bk.open = None;
                self.ref_ok = self.ref_ok.max(t + u64::from(p.rp));
                if step == Step::PrePre {
                    self.fifo[b].head_mut().pre_pre = false;
                } else {
                    self.fifo[b].pop();
                }
            }
            Step::Cas => {
                debug_assert_eq!(self.bank[b].open, Some(e.row), "CAS to a closed row");
                self.bg_cas_ok[g] = self.bg_cas_ok[g].max(t + u64::from(p.ccd_l));
                self.cas_ok = self.cas_ok.max(t + u64::from(p.ccd_s));
                self.cur_pair = (b & !1) as u8;
                let recover = if e.write {
                    u64::from(p.write_to_pre())
                } else {
                    u64::from(p.rtp)
                };
                let bk = &mut self.bank[b];
                if e.ap {
                    let pre = (t + recover).max(bk.last_act + u64::from(p.ras));
                    let ready = pre + u64::from(p.rp);
                    bk.act_ok = bk.act_ok.max(ready);
                    bk.open = None;
                    self.ref_ok = self.ref_ok.max(ready);
                } else {
                    bk.pre_ok = bk.pre_ok.max(t + recover);
                }
                let start = if e.write {
                    t + u64::from(p.cwl) - 2
                } else {
                    t + u64::from(p.cl)
                };
                assert!((self.dq_len as usize) < DQ_SLOTS, "DQ reservation overflow");
                self.dq[(self.dq_head as usize + self.dq_len as usize) % DQ_SLOTS] = Reservation {
                    start,
                    write: e.write,
                    bank: b as u8,
                    row: e.row,
                    col: e.col,
                    mask: e.mask,
                };
                self.dq_len += 1;
                self.fifo[b].pop();
            }
        }
    }

    /// Accept the request on the inputs in cycle `t`.
    pub(super) fn accept(&mut self, inp: &DramIn, t: u64) {
        let words = inp.req_words & LEN_MASK;
        let period = inp.req_period & LEN_MASK;
        let count = u32::from(inp.req_count);
        let addr = inp.req_addr & WORD_MASK;
        self.active = true;
        self.req = Req {
            write: inp.req_write,
            indexed: inp.req_indexed,
            addr,
            words,
            period,
            count,
            tag: inp.req_tag,
            bad: words == 0 || count == 0 || (period < words && count > 1),
            t_a: t,
        };
        self.fe_done = false;
        self.row = 0;
        self.pos = u64::from(addr);
        self.row_end = u64::from(addr) + u64::from(words);
        self.idx_reg = None;
        self.taken = 0;
        self.emitted = 0;
    }
}
