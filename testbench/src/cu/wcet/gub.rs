//! The multi-phase bound (the multi-phase paper's GUB, docs/works/multiphase.md#thm-11) on the
//! compute unit's own wavefronts, beside the PWS bound of [`super::analyze`].
//!
//! The paper's machine is one SM issuing one instruction per cycle among its warps, each warp
//! in order, with partially pipelined units; its bound is, per warp w, the isolated time
//! Tiso(w) plus the exec phases E(v) of every other warp v, maximised over w. On the compute
//! unit the "SM" is one SIMD (one issue per cycle among its wavefront contexts, GTO or LRR,
//! both work-conserving) and the rest maps as follows (docs/assumptions.md#A58):
//!
//! - **isolated time**: the timing rules of [`super::timing`] with no pipe wait (a
//!   wavefront alone on the compute unit): per barrier section the longest path
//!   from the section's first issue to the first issue after it, loops at their bounds;
//! - **exec cycles** of an instruction: the cycles it keeps another context of its SIMD from
//!   issuing: its issue slot (1), for a VALU instruction the SIMD's VALU (`issue_period`),
//!   for a DS instruction the LDS (`lds_period`: a unit with that initiation interval, as the
//!   paper's partially pipelined units, docs/assumptions.md#A105); E(w) is the longest path of
//!   these per section;
//! - **the bound per SIMD**: with no barrier, `T + (k − 1)·E` for the k wavefronts a SIMD
//!   holds at most (identical code: the paper's `GUB = Tiso + (N − 1)·E`); with barriers,
//!   per section `T_s + (k_wg − 1)·E_s` with `k_wg` the most wavefronts of one work-group on
//!   one SIMD, each section times the most times it runs (its barrier's loops at their
//!   bounds), summed (the paper's Section 4.2), plus every exec cycle of the other resident
//!   work-groups' wavefronts on the SIMDs the work-group spans (their barriers are not the
//!   same);
//! - **what the paper's SM does not have**: the global and LDS pipes are shared by every
//!   SIMD, so a memory instruction can lose its cycle to another SIMD's memory instruction,
//!   and a DS instruction finds the LDS busy `lds_period` cycles after another SIMD's DS
//!   instruction (docs/assumptions.md#A104): each such cycle is one global or scalar memory
//!   issue elsewhere or one of the `lds_period` cycles of another SIMD's DS instruction, at
//!   most (wavefronts − 1)·M in all (M: the most such cycles on a path: 1 per global or
//!   scalar memory instruction, `lds_period` per DS instruction) — nothing with one SIMD. The launch adds the PWS
//!   analysis's first-dispatch, dispatch spread, d and tail, and with the memory hierarchy the
//!   access bound replaces `flat` and each global access waits at most its acceptance bound.
//!
//! Why the sum is safe: while a wavefront is ready by its own rules (previous latency,
//! `s_waitcnt`, its own VALU use) but does not issue, some other context of its SIMD issued
//! in that cycle or holds the VALU (an exec cycle of that context), or another SIMD took the
//! memory pipe (a memory issue); each of those cycles is counted once, and the wavefront's
//! own waits are at most its isolated ones shifted by the delay so far. The per-section sum
//! holds because a barrier releases every wavefront of the work-group together.
//!
//! Where it does not apply (the report says why): a split kept in the code (split halves run
//! on SpSIMDs, outside the paper's model), pure round-robin (not work-conserving), more
//! work-groups than fit at once (the paper's warps all start together), a barrier inside a
//! loop.

use super::graph::{Graph, Node};
use super::paths::Costed;
use super::{loop_bounds, rules_for, Analysis, RunShape, WcetCase, WcetError};
use rtgpu_hw::cu::{resident_wgs, Latencies, Mode};
use rtgpu_hw::isa::insn_model::unit;
use rtgpu_hw::sched::model::Policy;
use serde::Serialize;

/// One barrier section's static quantities (per wavefront, longest paths over every input).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Section {
    /// Byte address of its first instruction.
    pub first_pc: u32,
    /// Byte address of the barrier it follows (`None`: it starts at the kernel's entry).
    pub barrier_pc: Option<u32>,
    /// The most times it runs in one launch: the product of (bound + 1) over the loops
    /// around its barrier.
    pub count: u64,
    /// T: the most cycles from its first issue to the first issue after the barrier that ends
    /// it (or to `s_endpgm`'s issue), a wavefront alone.
    pub t_iso: u64,
    /// E: the most exec cycles (issue slots, VALU cycles) on one path through it.
    pub exec: u64,
    /// M: the most cycles one path's memory instructions may keep the shared pipes from other
    /// SIMDs (1 per global or scalar memory instruction, `lds_period` per DS instruction).
    pub mem: u64,
    /// The section's GUB on one SIMD: `T + (wavefronts of one work-group on a SIMD − 1)·E`.
    pub gub: u64,
}

/// The multi-phase bound of a launch, or why it does not apply.
#[derive(Clone, Debug, Serialize)]
pub struct MultiPhase {
    /// The issue policy the bound is reported for (`gto` or `lrr`; the bound is the same for
    /// both, as the paper notes).
    pub policy: &'static str,
    /// Why the bound does not apply (the fields below are then 0 / empty).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub not_applicable: Option<String>,
    /// k: the most wavefronts on one SIMD.
    pub k: u64,
    /// The most wavefronts of one work-group on one SIMD.
    pub k_wg: u64,
    /// The barrier sections.
    pub sections: Vec<Section>,
    /// `issue_period − valu` when positive: a VALU occupancy that may spill past a section.
    pub carry: u64,
    /// Exec cycles of the other resident work-groups' wavefronts (barriers, several groups).
    pub other_groups: u64,
    /// Cycles lost to other SIMDs' memory instructions on the shared pipes.
    pub pipes: u64,
    /// The bound on one SIMD: Σ count × section GUB (carry included) + `other_groups`.
    pub gub: u64,
    /// The launch: first dispatch, tail, d and dispatch spread (from the PWS analysis).
    pub launch: u64,
    /// The multi-phase WCET of the launch: `launch + gub + pipes`.
    pub wcet: u64,
}

impl MultiPhase {
    fn not_applicable(policy: Policy, why: impl Into<String>) -> MultiPhase {
        MultiPhase {
            policy: policy.name(),
            not_applicable: Some(why.into()),
            k: 0,
            k_wg: 0,
            sections: Vec::new(),
            carry: 0,
            other_groups: 0,
            pipes: 0,
            gub: 0,
            launch: 0,
            wcet: 0,
        }
    }

    /// Whether the per-phase checks of [`super::phases`] apply to `case`: the bound applies,
    /// one SIMD, no barrier section, fixed latencies.
    pub fn lemmas_apply(&self, case: &WcetCase, a: &Analysis) -> bool {
        self.not_applicable.is_none()
            && a.n_simd == 1
            && self.sections.len() == 1
            && !case.cfg.memory.hierarchy
    }

    /// The report's lines.
    pub fn text(&self) -> String {
        if let Some(why) = &self.not_applicable {
            return format!("multi-phase GUB ({}): not applicable: {why}\n", self.policy);
        }
        let mut t = format!(
            "multi-phase GUB ({}): k {} per SIMD ({} of one work-group)\n",
            self.policy, self.k, self.k_wg
        );
        for s in &self.sections {
            let from = s
                .barrier_pc
                .map_or("entry".into(), |pc| format!("barrier {pc:#x}"));
            t += &format!(
                "  section from {from} (×{}): T {}  E {}  M {}  GUB {}\n",
                s.count, s.t_iso, s.exec, s.mem, s.gub
            );
        }
        t += &format!(
            "  SIMD GUB {} + other groups {} + pipes {} + launch {} = multi-phase WCET {} cycles\n",
            self.gub - self.other_groups,
            self.other_groups,
            self.pipes,
            self.launch,
            self.wcet
        );
        t
    }
}

/// The exec cycles of `n`: its issue slot, a VALU instruction's hold on the VALU, a DS
/// instruction's on the LDS.
pub fn exec_cycles(n: &Node, lat: &Latencies) -> u64 {
    match n.f.unit {
        unit::VALU => u64::from(lat.issue_period.max(1)),
        unit::LDS => u64::from(lat.lds_period.max(1)),
        _ => 1,
    }
}

/// The cycles `n` may keep a pipe shared by every SIMD from another SIMD's wavefront: 1 for
/// global or scalar memory, `lds_period` for a DS instruction.
fn pipe_cycles(n: &Node, lds_period: u32) -> u64 {
    match n.f.unit {
        unit::LDS => u64::from(lds_period),
        unit::VMEM | unit::SMEM => 1,
        _ => 0,
    }
}

fn is_barrier(n: &Node) -> bool {
    n.f.unit == unit::SYNC && n.f.opcode == 0x0A
}

fn has_split(g: &Graph) -> bool {
    g.nodes.iter().any(|n| n.f.unit == unit::PWS)
}

/// Why the bound does not apply to `case` with analysis `a`, if it does not.
fn refusal(case: &WcetCase, a: &Analysis, g: &Graph) -> Option<String> {
    if !matches!(case.policy, Policy::Gto | Policy::Lrr) {
        return Some(format!(
            "--sched {} is not work-conserving (the bound needs GTO or LRR)",
            case.policy.name()
        ));
    }
    if case.reorder {
        return Some(
            "the reordering unit may hold a wavefront's access for another wavefront's \
             (the phases assume a wavefront waits for its own accesses only)"
                .into(),
        );
    }
    if a.launch_mode != Mode::NoSplit && has_split(g) {
        return Some("the compiled kernel keeps splits (use --mode nosplit)".into());
    }
    let d = case.dims;
    let cfg = &case.cfg;
    if d.groups() > resident_wgs(cfg, d.grid, d.wg, case.lds) {
        return Some("more work-groups than fit at once (the warps must all start)".into());
    }
    None
}

/// Longest paths from a node to the end of its barrier section: to the first issue after
/// the next barrier (its exit edge), or to `s_endpgm` (plus `end`). Loops without a barrier
/// are collapsed at their bounds; a loop with one is walked through, its back edge leading to
/// the next iteration's barrier.
struct Seg<'a> {
    g: &'a Graph,
    c: Costed<'a>,
    end: u64,
    /// Per loop: it holds a barrier.
    barrier_loop: Vec<bool>,
    memo: Vec<Option<u64>>,
    busy: Vec<bool>,
}

impl<'a> Seg<'a> {
    fn new(g: &'a Graph, c: Costed<'a>, end: u64) -> Seg<'a> {
        let barrier_loop = g
            .loops
            .iter()
            .map(|l| (l.head..=l.end).any(|i| is_barrier(&g.nodes[i])))
            .collect();
        let n = g.nodes.len();
        Seg {
            g,
            c,
            end,
            barrier_loop,
            memo: vec![None; n],
            busy: vec![false; n],
        }
    }

    /// The most cost from `i`'s issue to the section's end. `Err` when a path goes around a
    /// loop without a barrier's passing.
    fn longest(&mut self, i: usize) -> Result<u64, String> {
        if i >= self.g.nodes.len() {
            return Ok(self.end);
        }
        if let Some(v) = self.memo[i] {
            return Ok(v);
        }
        if self.busy[i] {
            return Err(format!(
                "{:#06x}: a path around a loop passes no barrier (a barrier must be on every \
                 iteration's path)",
                self.g.nodes[i].pc
            ));
        }
        self.busy[i] = true;
        let v = self.from(i)?;
        self.busy[i] = false;
        self.memo[i] = Some(v);
        Ok(v)
    }

    fn from(&mut self, i: usize) -> Result<u64, String> {
        let g = self.g;
        if is_barrier(&g.nodes[i]) {
            let exit = g.succs[i].iter().map(|&j| (self.c.cost)(i, j)).max();
            return Ok(exit.unwrap_or(self.end));
        }
        if g.succs[i].is_empty() {
            return Ok(self.end);
        }
        let mut best = 0;
        match g.loop_at(i).filter(|(k, _)| !self.barrier_loop[*k]) {
            Some((k, _)) => {
                for (t, c) in self.c.loop_exits(k)? {
                    best = best.max(c.saturating_add(self.longest(t)?));
                }
            }
            None => {
                for &j in &g.succs[i] {
                    let c = (self.c.cost)(i, j);
                    best = best.max(c.saturating_add(self.longest(j)?));
                }
            }
        }
        Ok(best)
    }
}

/// The multi-phase bound of `case` (analysed by `a`), with `mutate` applied to the sections
/// before they are summed (the tests under-cost a section with it).
pub fn bound(
    case: &WcetCase,
    a: &Analysis,
    mutate: &dyn Fn(&mut [Section]),
) -> Result<MultiPhase, WcetError> {
    let code = &a.compiled.code;
    let g = Graph::new(code).map_err(WcetError::Input)?;
    if let Some(why) = refusal(case, a, &g) {
        return Ok(MultiPhase::not_applicable(case.policy, why));
    }
    let image = case.image();
    let bounds = loop_bounds(case, &g, &a.compiled, &image)?;
    let shape = RunShape {
        mode: a.launch_mode,
        n_simd: a.n_simd,
        s: a.launch_s,
    };
    let (mut rules, _) = rules_for(case, &g, shape, &|_| {})?;
    rules.pipe_wait = 0;
    let states = rules.states(&g);
    let ip = case.cfg.lat.issue_period;
    let own = |i: usize, j: usize| rules.edge(&g.nodes[i], states[i], &g.nodes[j]);
    let exec = |i: usize, _: usize| exec_cycles(&g.nodes[i], &case.cfg.lat);
    let d = case.dims;
    let waves = u64::from(d.waves_per_group());
    let live = waves * u64::from(d.groups());
    let n_simd = a.n_simd as u64;
    let mem = |i: usize, _: usize| pipe_cycles(&g.nodes[i], case.cfg.lat.lds_period);
    let k = live.div_ceil(n_simd);
    let k_wg = k.min(waves.div_ceil(n_simd));
    let costed = |cost| Costed {
        g: &g,
        cost,
        bounds: &bounds,
    };
    let barriers: Vec<usize> = (0..g.nodes.len())
        .filter(|&i| is_barrier(&g.nodes[i]))
        .collect();
    let per_simd = if barriers.is_empty() { k } else { k_wg };
    let starts = std::iter::once((0, None, 1)).chain(barriers.iter().map(|&b| {
        let count = g
            .loops
            .iter()
            .enumerate()
            .filter(|(_, l)| (l.head..=l.end).contains(&b))
            .map(|(x, _)| bounds[x].saturating_add(1))
            .product::<u64>();
        (b + 1, Some(g.nodes[b].pc), count)
    }));
    let mut sections = Vec::new();
    for (lo, barrier_pc, count) in starts {
        let seg = |cost, end| Seg::new(&g, costed(cost), end).longest(lo);
        sections.push(Section {
            first_pc: g.nodes.get(lo).map_or(0, |n| n.pc),
            barrier_pc,
            count,
            t_iso: seg(&own, 0).map_err(WcetError::Input)?,
            exec: seg(&exec, 1).map_err(WcetError::Input)?,
            mem: seg(&mem, 0).map_err(WcetError::Input)?,
            gub: 0,
        });
    }
    mutate(&mut sections);
    let carry = u64::from(ip.saturating_sub(case.cfg.lat.valu));
    for s in &mut sections {
        s.gub = s.t_iso + (per_simd - 1) * s.exec + carry;
    }
    let whole = |cost| {
        costed(cost)
            .region(0, g.nodes.len() - 1, &|_| true)
            .map_err(WcetError::Input)
    };
    let e_all = whole(&exec)? + 1;
    let m_all = whole(&mem)?;
    // The other groups' wavefronts on the SIMDs this group spans, each counted whole.
    let span = waves.min(n_simd);
    let other_groups = match barriers.is_empty() {
        true => 0,
        false => (live - waves).min(span * (k - 1)) * e_all,
    };
    let gub = sections
        .iter()
        .map(|s| s.count.saturating_mul(s.gub))
        .fold(other_groups, u64::saturating_add);
    let pipes = match live.min(n_simd) {
        1 => 0,
        _ if barriers.is_empty() => (live - 1) * m_all,
        _ => live * m_all,
    };
    // (The PWS analysis's per-round LDS term is not the launch's: the pipes term and the exec
    // cycles charge the other wavefronts' DS instructions here.)
    let launch = a.overhead + a.bound.d_eff - a.lds_round;
    Ok(MultiPhase {
        policy: case.policy.name(),
        not_applicable: None,
        k,
        k_wg,
        sections,
        carry,
        other_groups,
        pipes,
        gub,
        launch,
        wcet: launch + gub + pipes,
    })
}
