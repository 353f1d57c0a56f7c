//! Which global accesses of a kernel are input-independent: a forward dataflow over the
//! instruction graph marks every register whose value may depend on the launch's input — the
//! contents of its buffers and the scalar arguments with a declared range (`// @range`) — and
//! reports the FLAT accesses whose address or EXEC is so marked, and the conditional branches
//! whose condition is (those make the sequence of accesses itself input-dependent).
//!
//! Sources of input dependence: every FLAT load's and LDS read's destination (LDS may hold
//! loaded data), and an SMEM load's destination unless it reads the kernel argument segment
//! (or, under the HSA ABI, the dispatch packet) through an SGPR pair the ABI points there and
//! the kernel never writes (`s[0:1]` under the simple ABI; the kernarg and dispatch pointers
//! of the descriptor's user SGPRs under the HSA ABI, e.g. `s[6:7]` and `s[4:5]`), at constant
//! dwords that hold no ranged argument. Buffer pointers, fixed scalar arguments, the launch
//! shape and the ABI's registers are not input; the buffers' contents and ranged scalars are. An instruction's
//! destinations are dependent when any register it reads is (vector instructions also read
//! EXEC); a vector write while EXEC may be partial keeps the old dependence of the lanes it
//! skips; EXEC only ever gains dependence. The analysis is conservative: it may call an
//! access dependent that is not, never the reverse.

use super::graph::{is_sopp_branch, Graph};
use super::lanes::writes_exec;
use super::loops::{initial_at, Known};
use rtgpu_firmware::isa::{Op, Operand, Slot};
use rtgpu_firmware::pws_pass::{Insn, ScalarAccess, Sreg};
use rtgpu_hw::isa::insn_model::unit;
use serde::Serialize;

/// Scalar codes of EXEC and the special sources that read it or SCC.
const EXEC: [usize; 2] = [126, 127];
const SRC_EXECZ: u8 = 252;
const SCC: usize = 253;
/// VGPR `n` is register `VGPR + n`.
const VGPR: usize = 256;

/// Per register (scalar codes 0..=255, VGPRs 256..=511): may depend on the input.
#[derive(Clone, Debug, PartialEq, Eq)]
struct St {
    dep: Vec<bool>,
    exec_full: bool,
}

impl St {
    fn join(&self, o: &St) -> St {
        St {
            dep: self.dep.iter().zip(&o.dep).map(|(a, b)| a | b).collect(),
            exec_full: self.exec_full && o.exec_full,
        }
    }

    fn exec(&self) -> bool {
        EXEC.iter().any(|&r| self.dep[r])
    }
}

/// One input-dependent access or branch.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Dependent {
    /// Byte address of the instruction.
    pub pc: u32,
    /// `address`, `exec` (which lanes access) or `branch` (whether and how often later
    /// accesses run).
    pub why: &'static str,
}

/// The accesses and branches that depend on the input.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Dependence {
    /// FLAT accesses whose address or EXEC may depend on the input.
    pub accesses: Vec<Dependent>,
    /// Conditional branches whose condition may depend on the input.
    pub branches: Vec<Dependent>,
}

impl Dependence {
    /// Every access's lines and the order of all of them are the same for every input.
    pub fn independent(&self) -> bool {
        self.accesses.is_empty() && self.branches.is_empty()
    }
}

fn sreg(r: Sreg) -> usize {
    match r {
        Sreg::Sgpr(n) => usize::from(n),
        Sreg::Special(c) => usize::from(c),
        Sreg::Scc => SCC,
    }
}

fn vgprs(op: Option<Operand>, w: u8) -> impl Iterator<Item = usize> {
    let base = match op {
        Some(Operand::Vgpr(n)) => Some(VGPR + usize::from(n)),
        _ => None,
    };
    base.into_iter()
        .flat_map(move |b| (b..b + usize::from(w)).filter(|&r| r < 2 * VGPR))
}

/// The registers `i` reads and the VGPRs it writes (scalar writes come from
/// [`ScalarAccess`]).
fn vector_operands(i: &Insn) -> (Vec<usize>, Vec<usize>) {
    let (mut reads, mut writes) = (Vec::new(), Vec::new());
    let insn = &i.insn;
    for slot in insn.slots() {
        match slot {
            Slot::Src(k, w) | Slot::VReg(k, w) => reads.extend(vgprs(insn.src[k], w)),
            Slot::VDst(w) => writes.extend(vgprs(insn.dst, w)),
            _ => {}
        }
    }
    let names_exec = |o: &Option<Operand>| matches!(o, Some(Operand::Special(c)) if EXEC.contains(&usize::from(*c)) || *c == SRC_EXECZ);
    if insn.src.iter().any(names_exec)
        || matches!(insn.op, Op::SCbranchExecz | Op::SCbranchExecnz)
        || insn.op.name().contains("saveexec")
    {
        reads.extend(EXEC);
    }
    (reads, writes)
}

/// Context of the analysis: the launch's ranged segment dwords, every node's scalar accesses
/// and what the ABI points at.
struct Ctx<'a> {
    g: &'a Graph,
    insns: &'a [Insn],
    known: &'a Known,
    ranged: Vec<u64>,
    acc: Vec<ScalarAccess>,
}

impl Ctx<'_> {
    /// Whether the SMEM load `i` may read an input-dependent value.
    fn smem(&self, s: &St, k: usize, i: &Insn) -> bool {
        let insn = &i.insn;
        let Some(Operand::Sgpr(b)) = insn.src[0] else {
            return true;
        };
        let kept = initial_at(self.g, &self.acc, k, b);
        let base = match self.known.pointer(b) {
            Some(a) if kept && !s.dep[usize::from(b)] && !s.dep[usize::from(b) + 1] => a,
            _ => return true,
        };
        let first = match insn.src[1] {
            None => base + (u64::from(insn.imm) & !3),
            Some(_) => return true,
        };
        let n = ScalarAccess::of(insn).writes.len().max(1) as u64;
        (first..first + 4 * n)
            .step_by(4)
            .any(|a| !self.known.segment.contains_key(&a) || self.ranged.contains(&a))
    }

    fn step(&self, s: &St, k: usize) -> St {
        let f = &self.g.nodes[k].f;
        let i = &self.insns[k];
        let acc = ScalarAccess::of(&i.insn);
        let (vreads, vwrites) = vector_operands(i);
        let vector = matches!(f.unit, unit::VALU | unit::VMEM | unit::LDS);
        let read = acc.reads.iter().any(|&r| s.dep[sreg(r)])
            || vreads.iter().any(|&r| s.dep[r])
            || (vector && s.exec());
        let loaded = match f.unit {
            unit::VMEM | unit::LDS => !vwrites.is_empty(),
            unit::SMEM => self.smem(s, k, i),
            _ => false,
        };
        let v = read || loaded;
        let mut o = s.clone();
        for r in acc.writes.iter().map(|&r| sreg(r)) {
            o.dep[r] = v;
        }
        for r in vwrites {
            o.dep[r] = v || (!s.exec_full && s.dep[r]);
        }
        let names_exec =
            matches!(i.insn.dst, Some(Operand::Special(c)) if EXEC.contains(&usize::from(c)));
        if f.unit == unit::SALU && names_exec {
            // The whole mask written from the sources (`s_mov_b64 exec, s[16:17]` restores).
            EXEC.iter().for_each(|&r| o.dep[r] = v);
        } else if writes_exec(f) {
            let e = v || s.exec();
            EXEC.iter().for_each(|&r| o.dep[r] = e);
        }
        o.exec_full = s.exec_full && !writes_exec(f);
        o
    }
}

/// The dependence of kernel `g` (its instructions `insns`, aligned with `g.nodes`) on the
/// input of a launch whose argument segment is `known`.
pub fn dependence(g: &Graph, insns: &[Insn], known: &Known) -> Dependence {
    let cx = Ctx {
        g,
        insns,
        known,
        ranged: known.ranged().collect(),
        acc: insns.iter().map(|i| ScalarAccess::of(&i.insn)).collect(),
    };
    let n = g.nodes.len();
    let mut before: Vec<Option<St>> = vec![None; n];
    if n > 0 {
        before[0] = Some(St {
            dep: vec![false; 2 * VGPR],
            exec_full: true,
        });
    }
    let mut work = vec![0usize];
    while let Some(k) = work.pop().filter(|_| n > 0) {
        let after = cx.step(before[k].as_ref().expect("queued"), k);
        for &j in &g.succs[k] {
            let joined = before[j].as_ref().map_or(after.clone(), |o| o.join(&after));
            if before[j].as_ref() != Some(&joined) {
                before[j] = Some(joined);
                work.push(j);
            }
        }
    }
    let mut d = Dependence::default();
    for (k, s) in before.iter().enumerate() {
        let (Some(s), node) = (s, &g.nodes[k]) else {
            continue;
        };
        let pc = node.pc;
        if node.f.unit == unit::VMEM {
            let addr = vgprs(insns[k].insn.src[0], 2).any(|r| s.dep[r]);
            match (addr, s.exec()) {
                (true, _) => d.accesses.push(Dependent { pc, why: "address" }),
                (false, true) => d.accesses.push(Dependent { pc, why: "exec" }),
                _ => {}
            }
        }
        let cond = is_sopp_branch(&node.f) && g.succs[k].len() > 1;
        if cond && branch_reads_dependent(s, &insns[k]) && controls_access(g, k) {
            d.branches.push(Dependent { pc, why: "branch" });
        }
    }
    d
}

/// Whether branch `k` decides whether a global access runs or how often: one lies between
/// it and its target (the skipped stretch of a forward branch, the body of a loop).
fn controls_access(g: &Graph, k: usize) -> bool {
    let vmem = |j: usize| g.nodes[j].f.unit == unit::VMEM;
    g.succs[k].iter().any(|&t| match t > k {
        true => (k + 1..t).any(vmem),
        false => (t..=k).any(vmem),
    })
}

/// Whether conditional branch `i` tests a dependent SCC, VCC or EXEC.
fn branch_reads_dependent(s: &St, i: &Insn) -> bool {
    let acc = ScalarAccess::of(&i.insn);
    acc.reads.iter().any(|&r| s.dep[sreg(r)]) || vector_operands(i).0.iter().any(|&r| s.dep[r])
}
