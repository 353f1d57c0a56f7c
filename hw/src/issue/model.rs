//! Reference model of the issue control block ([`crate::issue`]), written from its contract:
//! the per-context state as plain integers, the eligibility rules in their order, and the
//! behavioural scheduler ([`crate::sched::model::PolicyScheduler`]) for the grant.

use super::{stall, CtxIn, CtxState, IssueIn, IssueOut, Pick, Taken};
use crate::block::Clocked;
use crate::isa::insn_model::unit;
use crate::pws::State;
use crate::sched::model::{Policy, PolicyScheduler, SchedIn};

/// `s_waitcnt`, `s_barrier` (SYNC opcodes); `s_nop`, `s_endpgm`, `s_sleep` (PROGRAM opcodes).
const S_WAITCNT: u8 = 0x0C;
const S_BARRIER: u8 = 0x0A;
const S_NOP: u8 = 0x00;
const S_ENDPGM: u8 = 0x01;
const S_SLEEP: u8 = 0x0E;

/// The issue control block's state.
#[derive(Clone, Debug)]
pub struct IssueModel {
    /// Per context, as registered at the last edge.
    ctx: Vec<CtxState>,
    /// VALU busy counter.
    valu_busy: u8,
    /// The scheduler.
    sched: PolicyScheduler,
}

/// What the rules say about one context.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Verdict {
    /// Eligible.
    Yes,
    /// Stalled for a reason.
    No(u8),
    /// Not there.
    Absent,
}

impl IssueModel {
    /// A block of `contexts` contexts after reset.
    pub fn new(contexts: usize) -> Self {
        Self {
            ctx: vec![CtxState::default(); contexts],
            valu_busy: 0,
            sched: PolicyScheduler::new(Policy::Lrr, contexts),
        }
    }

    /// Context `c`'s state after this cycle's events.
    fn after_events(&self, c: usize, e: &CtxIn) -> CtxState {
        if e.start {
            return CtxState {
                live: true,
                ..CtxState::default()
            };
        }
        let s = self.ctx[c];
        CtxState {
            live: s.live && !e.stop,
            barrier: s.barrier && !e.release,
            wait: s.wait,
            vmcnt: s.vmcnt.saturating_sub(e.vm_ret),
            lgkmcnt: s.lgkmcnt.saturating_sub(e.lgkm_ret),
        }
    }

    /// The rules of the contract for a context in state `s` with inputs `e`.
    fn verdict(&self, i: &IssueIn, s: &CtxState, e: &CtxIn) -> Verdict {
        let state = State::from_code(e.state).unwrap_or(State::Empty);
        if !s.live || matches!(state, State::Empty | State::Done) {
            return Verdict::Absent;
        }
        if state != State::Ready {
            return Verdict::No(stall::SPLIT_MERGE);
        }
        if s.barrier || e.hold {
            return Verdict::No(stall::BARRIER);
        }
        if s.wait != 0 {
            return Verdict::No(stall::DEPENDENCY);
        }
        if e.illegal {
            return Verdict::Yes;
        }
        let n = Needs::of(e, i.cfg.split_on);
        let structural = match e.unit {
            unit::VALU if i.idu_on => !i.idu_ok,
            unit::VALU => self.valu_busy != 0,
            unit::VMEM if !e.gport_free => true,
            unit::SYNC if e.opcode == S_WAITCNT && !waitcnt_ok(s, e.imm) => {
                return Verdict::No(stall::WAITCNT)
            }
            _ => n.mem && i.pipe_mem || n.lds && i.pipe_lds || n.port && !i.port_free,
        } || n.mem && i.o_mem
            || n.lds && i.o_lds
            || n.port && i.o_port;
        match structural {
            true => Verdict::No(stall::STRUCTURAL),
            false => Verdict::Yes,
        }
    }

    /// The scheduler's inputs, the outputs but the grants, and the states after the events;
    /// the picks at positions 0 (nothing taken), 1 and 2 (`i.taken`) and what their
    /// instructions need.
    fn evaluate(&self, i: &IssueIn) -> (SchedIn, IssueOut) {
        let (si, mut out) = self.evaluate_blocked(i);
        let f = self.pick_at(i, Taken::default());
        (out.f_valid, out.f_grant, out.f_mem, out.f_lds, out.f_port) =
            (f.valid, f.grant, f.mem, f.lds, f.port);
        out.at = i.taken.map(|t| self.pick_at(i, t));
        (si, out)
    }

    /// The grant with `t` taken instead of `o_*`, and what its instruction needs (nothing
    /// when it is illegal).
    fn pick_at(&self, i: &IssueIn, t: Taken) -> Pick {
        let at = IssueIn {
            o_mem: t.mem,
            o_lds: t.lds,
            o_port: t.port,
            ..i.clone()
        };
        let f = self.sched.outputs(&self.evaluate_blocked(&at).0);
        let mut p = Pick {
            valid: f.grant_valid,
            grant: f.grant,
            ..Pick::default()
        };
        let e = i.ctx.get(usize::from(f.grant)).filter(|e| !e.illegal);
        if let (true, Some(e)) = (f.grant_valid, e) {
            let n = Needs::of(e, i.cfg.split_on);
            (p.mem, p.lds, p.port) = (n.mem, n.lds, n.port);
        }
        p
    }

    /// [`Self::evaluate`] without the first grant.
    fn evaluate_blocked(&self, i: &IssueIn) -> (SchedIn, IssueOut) {
        let mut si = SchedIn {
            reset: i.reset,
            ..SchedIn::default()
        };
        si.set_policy(i.cfg.policy());
        let mut out = IssueOut {
            stall: stall::IDLE,
            valu_busy: self.valu_busy,
            ..IssueOut::default()
        };
        for (c, e) in i.ctx.iter().enumerate().take(self.ctx.len()) {
            let s = self.after_events(c, e);
            si.age[c] = e.age;
            match self.verdict(i, &s, e) {
                Verdict::Yes => out.eligible |= 1 << c,
                Verdict::No(r) => {
                    out.stall = out.stall.min(r);
                    if r < stall::BARRIER {
                        out.present |= 1 << c;
                    }
                }
                Verdict::Absent => {}
            }
            out.ctx.push(s);
        }
        out.present |= out.eligible;
        (si.eligible, si.present) = (out.eligible, out.present);
        (si, out)
    }

    /// The outputs of the current cycle with inputs `i`.
    pub fn outputs(&self, i: &IssueIn) -> IssueOut {
        let (si, mut out) = self.evaluate(i);
        let s = self.sched.outputs(&si);
        (out.grant_valid, out.grant) = (s.grant_valid, s.grant);
        out
    }

    /// The rising edge that ends a cycle with inputs `i`; the cycle's outputs.
    pub fn clock(&mut self, i: &IssueIn) -> IssueOut {
        let (si, mut out) = self.evaluate(i);
        let s = self.sched.cycle(&si);
        (out.grant_valid, out.grant) = (s.grant_valid, s.grant);
        let granted = s.grant_valid.then_some(usize::from(s.grant));
        let mut valu = false;
        for (c, next) in self.ctx.iter_mut().enumerate() {
            *next = out.ctx[c];
            next.wait = next.wait.saturating_sub(1);
            if granted == Some(c) && !i.ctx[c].illegal {
                valu = issue(next, &i.ctx[c], i);
            }
        }
        self.valu_busy = match valu {
            true => i.cfg.issue_period.saturating_sub(1),
            false => self.valu_busy.saturating_sub(1),
        };
        if i.reset {
            self.ctx.fill(CtxState::default());
            self.valu_busy = 0;
        }
        out
    }
}

/// The shared resources an instruction needs: the issue units of a cycle take each at most
/// once.
struct Needs {
    /// The memory pipe (FLAT, SMEM).
    mem: bool,
    /// The LDS (DS).
    lds: bool,
    /// The split/merge port (`split`/`merge` with splitting on, `s_endpgm`).
    port: bool,
}

impl Needs {
    /// What context input `e`'s instruction needs.
    fn of(e: &CtxIn, split_on: bool) -> Self {
        Self {
            mem: matches!(e.unit, unit::VMEM | unit::SMEM),
            lds: e.unit == unit::LDS,
            port: e.unit == unit::PWS && split_on
                || e.unit == unit::PROGRAM && e.opcode == S_ENDPGM,
        }
    }
}

/// `s_waitcnt imm` is satisfied: vmcnt ≤ imm\[3:0\], lgkmcnt ≤ imm\[11:8\].
fn waitcnt_ok(s: &CtxState, imm: u16) -> bool {
    u16::from(s.vmcnt) <= imm & 0xF && u16::from(s.lgkmcnt) <= (imm >> 8) & 0xF
}

/// The issue of context state `s`'s instruction `e`: its latency and counters; whether it is a
/// VALU instruction.
fn issue(s: &mut CtxState, e: &CtxIn, i: &IssueIn) -> bool {
    s.wait = latency(e, i).saturating_sub(1);
    match (e.unit, e.opcode) {
        (unit::VMEM, _) => s.vmcnt = s.vmcnt.wrapping_add(1),
        (unit::SMEM | unit::LDS, _) => s.lgkmcnt = s.lgkmcnt.wrapping_add(1),
        (unit::SYNC, S_BARRIER) => s.barrier = true,
        (unit::PROGRAM, op) if op != S_NOP && op != S_SLEEP => s.live = false,
        _ => {}
    }
    e.unit == unit::VALU
}

/// Cycles from the issue of `e` to its context's next issue.
fn latency(e: &CtxIn, i: &IssueIn) -> u16 {
    match (e.unit, e.opcode) {
        (unit::VALU, _) if i.idu_on => i.idu_wait,
        (unit::VALU, _) => i.cfg.lat_valu,
        (unit::VMEM | unit::SMEM | unit::LDS, _) => 1,
        (unit::BRANCH, _) => i.cfg.lat_branch,
        (unit::PROGRAM, S_NOP) => 1 + (e.imm & 0xF),
        (unit::PROGRAM, S_SLEEP) => 64 * (e.imm & 0x7F).max(1),
        _ => i.cfg.lat_salu,
    }
}

impl super::IssueCfg {
    /// The scheduler policy the `gto` and `rr` ports select.
    pub fn policy(&self) -> Policy {
        match (self.rr, self.gto) {
            (true, _) => Policy::Rr,
            (false, true) => Policy::Gto,
            (false, false) => Policy::Lrr,
        }
    }
}
