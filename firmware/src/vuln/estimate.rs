//! Algorithm 1 of Lee's thesis (EstimateVulnPeriod): the vulnerable period estimated from the
//! instruction latency model (Eqs. 3.1 to 3.21), without running the kernel on the compute
//! unit (docs/works/thesis.md#alg-1).
//!
//! Per wavefront copy (the thesis' DuplicateGraph: one copy per wavefront), over its
//! instruction path in program order:
//!
//! - issue completes at `t_issue_comp(n) = max(t_issue_comp(n-1), t_data_ready(n)) + L_issue`
//!   (Eqs. 3.1 and 3.3; the completion equation the text leaves out, docs/assumptions.md#A73),
//!   with `L_issue = n_warp × issue_period` (Eq. 3.2 with a 64-wide wavefront and
//!   `64 / issue_period` lanes per cycle);
//! - the instruction completes at `t_issue_comp(n) + L_pipe + L_mem` (its unit's latency;
//!   `L_mem` of a memory instruction from a pool of `slots` memory slots its `n_warp` accesses
//!   take in turn, which gives Eqs. 3.9 to 3.11 when memory is idle and the bandwidth delay
//!   `d_full` of Eq. 3.21 when it is not);
//! - a value is produced at its producer's completion and consumed when a consumer starts
//!   issuing; its period is the last consumption minus the production (the longest outgoing
//!   edge of the producer, Algorithm 1's inner loop).
//!
//! The path is the wavefront's executed instruction sequence (branches resolved by the input),
//! so a value produced before a loop and last read inside it spans `N` iterations plus the
//! pre-loop time, which is Eq. 3.22 (Observation 1), and a value read in both arms of a
//! branch lives to its last read (Observation 2).

use super::access::{Reg, RegAccess};
use super::measure::Vulnerability;
use crate::isa::decode;
use std::collections::HashMap;

/// The latency model's parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Model {
    /// Wavefronts sharing a SIMD (`n_warp` of Eq. 3.2).
    pub n_warp: u64,
    /// Cycles a SIMD takes to issue one wavefront's vector instruction.
    pub issue_period: u64,
    /// Pipeline latencies: SALU, VALU, branch.
    pub salu: u64,
    /// VALU latency.
    pub valu: u64,
    /// Branch latency.
    pub branch: u64,
    /// Memory latencies (`L_avg_mem`): FLAT, SMEM, LDS.
    pub flat: u64,
    /// SMEM latency.
    pub smem: u64,
    /// LDS latency.
    pub lds: u64,
    /// Concurrent memory accesses (`N_mem_req` of Eq. 3.6).
    pub slots: usize,
}

/// A unit's class for the latency model.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Class {
    Salu,
    Valu,
    Branch,
    Flat,
    Smem,
    Lds,
}

/// The model's state while it walks a path.
struct Walk<'a> {
    m: &'a Model,
    /// Per register (VGPRs per whole wavefront): (produced at, last consumed at).
    lives: HashMap<Reg, (u64, Option<u64>)>,
    /// Each memory slot's next free cycle.
    pool: Vec<u64>,
    issue_comp: u64,
    lanes: u64,
    total: Vulnerability,
}

impl Walk<'_> {
    /// One instruction: its reads, its timing, its writes.
    fn step(&mut self, a: &RegAccess, class: Class) {
        let ready = a
            .reads
            .iter()
            .filter_map(|r| self.lives.get(r).map(|l| l.0))
            .max()
            .unwrap_or(0);
        let start = self.issue_comp.max(ready);
        for r in &a.reads {
            let l = self.lives.entry(*r).or_insert((0, None));
            l.1 = Some(start);
        }
        self.issue_comp = start + self.m.n_warp * self.m.issue_period;
        let done = self.issue_comp + self.latency(class);
        for w in &a.writes {
            if let Some(old) = self.lives.insert(*w, (done, None)) {
                self.close(*w, old);
            }
        }
    }

    /// `L_pipe + L_mem` of an instruction of `class` issued by now.
    fn latency(&mut self, class: Class) -> u64 {
        let m = self.m;
        let mem = match class {
            Class::Salu => return m.salu,
            Class::Valu => return m.valu,
            Class::Branch => return m.branch,
            Class::Flat => m.flat,
            Class::Smem => m.smem,
            Class::Lds => m.lds,
        };
        let t0 = self.issue_comp;
        let mut end = t0;
        for _ in 0..m.n_warp {
            let slot = (0..self.pool.len())
                .min_by_key(|&i| self.pool[i])
                .unwrap_or(0);
            let s = t0.max(self.pool[slot]);
            self.pool[slot] = s + mem;
            end = end.max(s + mem);
        }
        end - t0
    }

    /// Adds a closed value of `r`.
    fn close(&mut self, r: Reg, (at, read): (u64, Option<u64>)) {
        let p = read.map_or(0, |t| t.saturating_sub(at));
        let weight = if matches!(r, Reg::Vgpr(_)) {
            self.lanes
        } else {
            1
        };
        let add = p * r.bits() * weight;
        match r {
            Reg::Vgpr(_) => self.total.vgpr += add,
            Reg::Sgpr(_) => self.total.sgpr += add,
            Reg::Vcc(_) => self.total.vcc += add,
            Reg::Exec(_) => self.total.exec += add,
            Reg::M0 => self.total.m0 += add,
            Reg::Scc => self.total.scc += add,
        }
        self.total.values += u64::from(p > 0) * weight;
    }
}

/// The class of the instruction at dword `at` of `code` and its register accesses.
fn classify(code: &[u32], at: usize) -> Option<(RegAccess, Class)> {
    let (insn, _) = decode(code.get(at..)?).ok()?;
    let a = RegAccess::of(&insn);
    use crate::isa::Format::*;
    let class = match insn.op.info().format {
        Vop1 | Vop2 | Vopc | Vop3 => Class::Valu,
        Flat => Class::Flat,
        Smem => Class::Smem,
        Ds => Class::Lds,
        Sopp if insn.op.name().starts_with("s_cbranch") || insn.op.name() == "s_branch" => {
            Class::Branch
        }
        _ => Class::Salu,
    };
    Some((a, class))
}

/// Algorithm 1 over the wavefront paths `paths` (each a sequence of byte PCs) of a kernel
/// `code`, each wavefront with `lanes` active lanes: the total vulnerable period in
/// bit-cycles, the sum over the copies.
pub fn estimate(code: &[u32], paths: &[Vec<u32>], lanes: u64, m: &Model) -> Vulnerability {
    let mut table: HashMap<u32, Option<(RegAccess, Class)>> = HashMap::new();
    let mut total = Vulnerability::default();
    for path in paths {
        let mut w = Walk {
            m,
            lives: HashMap::new(),
            pool: vec![0; m.slots.max(1)],
            issue_comp: 0,
            lanes,
            total: Vulnerability::default(),
        };
        for &pc in path {
            let entry = table
                .entry(pc)
                .or_insert_with(|| classify(code, (pc / 4) as usize));
            if let Some((a, class)) = entry {
                w.step(a, *class);
            }
        }
        let open: Vec<(Reg, (u64, Option<u64>))> = w.lives.drain().collect();
        for (r, l) in open {
            w.close(r, l);
        }
        total.merge(&w.total);
    }
    total
}
