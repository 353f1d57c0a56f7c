//! Loop bounds: derived where the exit depends only on scalar values the analysis knows
//! (constants, the launch shape, scalar arguments: fixed, or every value of their declared
//! range), otherwise taken from a `// @loop LABEL N` line of the kernel source; a loop with
//! neither is an error naming it.
//!
//! Derivation runs the loop's scalar control concretely: the SALU instructions every
//! iteration executes (outside inner loops and forward-skipped stretches) are executed on the
//! known registers, and the SCC branches leaving the loop or going back to its header are
//! decided on the computed SCC, until the loop exits (at most [`MAX_TRIPS`] back edges). A
//! register is known at the header when its only write outside the loop is an unconditional
//! instruction before it whose sources are known (a constant, another known register, or an
//! `s_load_dword*` of the kernel argument segment through the untouched `s[0:1]`), or when it
//! is never written (the ABI's initial value: `s[0:1]` the argument segment, `s3` the
//! work-group size, other SGPRs 0; `s2` and `s4` differ between wavefronts and are unknown).

use super::graph::{is_sopp_branch, Graph, Loop};
use rtgpu_firmware::isa::Program;
use rtgpu_firmware::launch::{Arg, Dims, KERNARG_ADDR};
use rtgpu_firmware::pws_pass::{ScalarAccess, Sreg};
use rtgpu_hw::cu::regfile::Sregs;
use rtgpu_hw::cu::salu;
use rtgpu_hw::isa::insn_model::unit;
use std::collections::BTreeSet;

/// The most back edges a derived loop may take before it counts as unbounded.
pub const MAX_TRIPS: u64 = 1 << 20;

/// The most argument-value combinations a derivation enumerates.
pub const MAX_COMBINATIONS: u64 = 4096;

/// A scalar argument's declared range (`// @range K LO..HI`, both ends included).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct ArgRange {
    /// Argument position (0 = the first of `@args`).
    pub arg: usize,
    /// Least value.
    pub lo: i64,
    /// Greatest value.
    pub hi: i64,
}

/// One loop of the source: its header, its label and its annotated bound.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SourceLoop {
    /// The label at its header, if any.
    pub label: Option<String>,
    /// `// @loop LABEL N`: the most times its back edges are taken per entry.
    pub bound: Option<u64>,
}

/// The flow facts of a kernel source: its loops in address order and the argument ranges.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Facts {
    /// The source's loops, by header address (the compiled kernel has the same loops in the
    /// same order).
    pub loops: Vec<SourceLoop>,
    /// Declared ranges of scalar arguments.
    pub ranges: Vec<ArgRange>,
}

impl Facts {
    /// Reads the `// @loop` and `// @range` lines of `src`, assembled as `prog`. `Err` for a
    /// malformed line, a label that is no loop header, or a range of a non-scalar argument.
    pub fn parse(src: &str, prog: &Program, args: &[Arg]) -> Result<Facts, String> {
        let g = Graph::new(&prog.words())?;
        let mut loops: Vec<SourceLoop> = g
            .loops
            .iter()
            .map(|l| SourceLoop {
                label: prog
                    .labels
                    .iter()
                    .find(|(_, &a)| a == g.nodes[l.head].pc)
                    .map(|(n, _)| n.clone()),
                bound: None,
            })
            .collect();
        let mut ranges = Vec::new();
        for (n, line) in src.lines().enumerate() {
            let at = |m: String| format!("line {}: {m}", n + 1);
            if let Some(v) = line.trim().strip_prefix("// @loop") {
                let (label, bound) = parse_loop(v).map_err(at)?;
                let k = loops
                    .iter()
                    .position(|l| l.label.as_deref() == Some(label))
                    .ok_or_else(|| at(format!("@loop {label}: not a loop header's label (the target of a backward branch)")))?;
                loops[k].bound = Some(bound);
            } else if let Some(v) = line.trim().strip_prefix("// @range") {
                let r = parse_range(v).map_err(at)?;
                if !matches!(args.get(r.arg), Some(Arg::Scalar(_))) {
                    return Err(at(format!(
                        "@range {}: argument {} is not a scalar",
                        r.arg, r.arg
                    )));
                }
                ranges.push(r);
            }
        }
        Ok(Facts { loops, ranges })
    }

    /// The name of loop `k` in messages: its label, or its source address.
    pub fn name(&self, k: usize, pc: u32) -> String {
        match self.loops.get(k).and_then(|l| l.label.clone()) {
            Some(l) => format!("`{l}`"),
            None => format!("at {pc:#06x}"),
        }
    }
}

fn parse_loop(v: &str) -> Result<(&str, u64), String> {
    let mut it = v.split_whitespace();
    match (it.next(), it.next().map(str::parse::<u64>), it.next()) {
        (Some(l), Some(Ok(n)), None) => Ok((l, n)),
        _ => Err(format!(
            "@loop needs `LABEL N` (N a count), got `{}`",
            v.trim()
        )),
    }
}

fn parse_range(v: &str) -> Result<ArgRange, String> {
    let bad = || {
        format!(
            "@range needs `K LO..HI` (argument K, LO ≤ HI), got `{}`",
            v.trim()
        )
    };
    let mut it = v.split_whitespace();
    let (Some(k), Some(r), None) = (it.next(), it.next(), it.next()) else {
        return Err(bad());
    };
    let (lo, hi) = r.split_once("..").ok_or_else(bad)?;
    let (arg, lo, hi) = (
        k.parse().map_err(|_| bad())?,
        lo.parse().map_err(|_| bad())?,
        hi.parse().map_err(|_| bad())?,
    );
    if lo > hi || lo < i64::from(i32::MIN) || hi > i64::from(u32::MAX) {
        return Err(bad());
    }
    Ok(ArgRange { arg, lo, hi })
}

/// What the derivation knows of a launch: the kernel argument segment's dwords (each a
/// fixed value or every value of a declared range) and the work-group size.
pub struct Known {
    /// Per argument-segment dword: its possible values.
    pub kernarg: Vec<Vec<u32>>,
    /// The work-group size (`s3`).
    pub wg: u32,
}

impl Known {
    /// The segment of `args` (buffer addresses from the launch's layout).
    pub fn of(args: &[Arg], dims: Dims, ranges: &[ArgRange], mem: &[u32]) -> Known {
        let base = (KERNARG_ADDR / 4) as usize;
        let mut kernarg = Vec::new();
        for (k, a) in args.iter().enumerate() {
            match a {
                Arg::Scalar(v) => kernarg.push(match ranges.iter().rev().find(|r| r.arg == k) {
                    Some(r) => (r.lo..=r.hi).map(|x| x as u32).collect(),
                    None => vec![*v],
                }),
                Arg::Buffer { .. } => {
                    if kernarg.len() % 2 == 1 {
                        kernarg.push(vec![0]);
                    }
                    let at = base + kernarg.len();
                    kernarg.push(vec![mem.get(at).copied().unwrap_or(0)]);
                    kernarg.push(vec![mem.get(at + 1).copied().unwrap_or(0)]);
                }
            }
        }
        Known {
            kernarg,
            wg: dims.wg,
        }
    }
}

/// The scalar view of the graph: per node its scalar reads and writes.
pub struct Scalar<'a> {
    /// The graph.
    pub g: &'a Graph,
    /// Per node.
    pub acc: Vec<ScalarAccess>,
}

/// Why a loop's bound could not be derived.
type Why = String;

impl Scalar<'_> {
    /// The bound of loop `l`: the most back edges over every combination of the argument
    /// values it depends on.
    pub fn derive(&self, l: Loop, known: &Known) -> Result<u64, Why> {
        let cond = self.conditional(l);
        let needs = self.entry_needs(l, &cond);
        let dwords: Vec<usize> = needs
            .args
            .values()
            .copied()
            .collect::<BTreeSet<_>>()
            .into_iter()
            .collect();
        let mut combos = 1u64;
        for &d in &dwords {
            let n = known.kernarg.get(d).map_or(1, Vec::len) as u64;
            combos = combos.saturating_mul(n);
        }
        if combos > MAX_COMBINATIONS {
            return Err(format!(
                "it depends on argument values with more than {MAX_COMBINATIONS} combinations"
            ));
        }
        let mut most = 0;
        for c in 0..combos {
            let regs = self.entry_regs(&needs, known, &dwords, c)?;
            most = most.max(self.run(l, &cond, regs)?);
        }
        Ok(most)
    }

    /// Nodes of `l` that an iteration may not execute: inner loops and forward-skipped
    /// stretches.
    fn conditional(&self, l: Loop) -> Vec<bool> {
        let mut c = vec![false; self.g.nodes.len()];
        let inner = self
            .g
            .loops
            .iter()
            .filter(|m| **m != l && m.head >= l.head && m.end <= l.end);
        for m in inner {
            c[m.head..=m.end].iter_mut().for_each(|x| *x = true);
        }
        for p in l.head..=l.end {
            for &t in self.g.succs[p].iter().filter(|&&t| t > p + 1 && t <= l.end) {
                c[p + 1..t].iter_mut().for_each(|x| *x = true);
            }
        }
        c
    }

    /// How every SGPR the loop reads is known at its header.
    fn entry_needs(&self, l: Loop, cond: &[bool]) -> Needs {
        let body = || (l.head..=l.end).map(|i| &self.acc[i]);
        let poisoned: BTreeSet<Sreg> = (l.head..=l.end)
            .filter(|&i| cond[i])
            .flat_map(|i| self.acc[i].writes.iter().copied())
            .collect();
        let reads: BTreeSet<u8> = body()
            .flat_map(|a| a.reads.iter())
            .filter_map(|r| match r {
                Sreg::Sgpr(n) => Some(*n),
                _ => None,
            })
            .collect();
        let mut needs = Needs::default();
        for n in reads {
            let r = Sreg::Sgpr(n);
            if poisoned.contains(&r) || !self.source(n, l.head, l, 3, &mut needs) {
                needs.unknown.insert(n);
            }
        }
        needs
    }

    /// Whether SGPR `n`'s value at node `at` is known (recording how in `needs`): it comes
    /// from the last write before `at` on a straight-line stretch into it, or from the only
    /// write outside loop `l` when that one is unconditional and before `at`, and that write
    /// is a SALU instruction with known sources or an argument load; or it is never written.
    fn source(&self, n: u8, at: usize, l: Loop, depth: u32, needs: &mut Needs) -> bool {
        let r = Sreg::Sgpr(n);
        let writes: Vec<usize> = (0..self.g.nodes.len())
            .filter(|&i| (i < l.head || i > l.end) && self.acc[i].writes.contains(&r))
            .collect();
        let last = writes.iter().copied().filter(|&w| w < at).max();
        let w = match (last, writes.as_slice()) {
            (_, []) => return true,
            (Some(w), _) if self.straight(w, at, l) => w,
            (Some(w), [only]) if w == *only && self.unconditional(w) => w,
            _ => return false,
        };
        if depth == 0 {
            return false;
        }
        let f = &self.g.nodes[w].f;
        if f.unit == unit::SMEM {
            return match self.kernarg_dword(w, n) {
                Some(d) => {
                    needs.args.insert(n, d);
                    true
                }
                None => false,
            };
        }
        let reads = self.acc[w].reads.iter().filter(|s| **s != Sreg::Scc);
        let known = f.unit == unit::SALU
            && reads.clone().all(|s| match s {
                Sreg::Sgpr(m) => self.source(*m, w, l, depth - 1, needs),
                _ => false,
            });
        if known {
            needs.defs.insert(w);
        }
        known
    }

    /// Every path into `at` comes straight from `w` (falling through, no branch in between
    /// and no branch into the stretch; loop `l`'s back edges into its header aside).
    fn straight(&self, w: usize, at: usize, l: Loop) -> bool {
        (w + 1..=at).all(|p| {
            let only_next = self.g.succs[p - 1] == [p];
            let preds_ok = (0..self.g.nodes.len()).all(|q| {
                let back = p == l.head && (l.head..=l.end).contains(&q);
                q == p - 1 || back || !self.g.succs[q].contains(&p)
            });
            only_next && preds_ok
        })
    }

    /// Node `w` runs whenever the wavefront runs: outside every loop and skipped stretch.
    fn unconditional(&self, w: usize) -> bool {
        let in_loop = self.g.loops.iter().any(|l| (l.head..=l.end).contains(&w));
        let skipped = (0..w).any(|p| self.g.succs[p].iter().any(|&t| t > w && t > p + 1));
        !in_loop && !skipped
    }

    /// The argument-segment dword that the `s_load_dword*` at `w` writes into `s{n}`, when it
    /// loads through the untouched `s[0:1]` at a constant offset.
    fn kernarg_dword(&self, w: usize, n: u8) -> Option<usize> {
        let f = &self.g.nodes[w].f;
        let touched = |a: &ScalarAccess| (0..2).any(|k| a.writes.contains(&Sreg::Sgpr(k)));
        let untouched = !self.acc.iter().any(touched);
        (f.src0 == 0 && untouched && n >= f.dst)
            .then(|| (f.imm / 4) as usize + usize::from(n - f.dst))
    }

    /// The registers at the header for argument combination `c`.
    fn entry_regs(
        &self,
        needs: &Needs,
        known: &Known,
        dwords: &[usize],
        mut c: u64,
    ) -> Result<Regs, Why> {
        let mut regs = Regs::initial(known);
        let mut vals = std::collections::BTreeMap::new();
        for &d in dwords {
            let v = known
                .kernarg
                .get(d)
                .ok_or("it loads past the argument segment")?;
            vals.insert(d, v[(c % v.len() as u64) as usize]);
            c /= v.len() as u64;
        }
        for (&n, d) in &needs.args {
            regs.set(n, vals[d]);
        }
        // The SALU definitions in address order: their sources come first.
        for &w in &needs.defs {
            regs.exec(self.g, &self.acc, w);
        }
        for &n in &needs.unknown {
            regs.known[usize::from(n)] = false;
        }
        regs.scc = None;
        Ok(regs)
    }

    /// Runs loop `l`'s scalar control from `regs`; the back edges taken.
    fn run(&self, l: Loop, cond: &[bool], mut regs: Regs) -> Result<u64, Why> {
        let mut trips = 0;
        let mut i = l.head;
        while i <= l.end {
            if cond[i] {
                i += 1;
                continue;
            }
            let n = &self.g.nodes[i];
            if !is_sopp_branch(&n.f) {
                regs.exec(self.g, &self.acc, i);
                i += 1;
                continue;
            }
            let t = self.g.succs[i][0];
            let leaves = t <= l.head || t > l.end;
            if !leaves {
                i += 1;
                continue;
            }
            let taken = match n.f.opcode {
                0x02 => true,
                0x04 | 0x05 => {
                    let scc = regs
                        .scc
                        .ok_or("its exit depends on a value the analysis does not know")?;
                    scc == (n.f.opcode == 0x05)
                }
                _ => return Err("its exit depends on lane data (VCC or EXEC)".into()),
            };
            match (taken, t == l.head) {
                (true, true) => {
                    trips += 1;
                    if trips > MAX_TRIPS {
                        return Err(format!("it runs more than {MAX_TRIPS} times"));
                    }
                    i = l.head;
                }
                (true, false) => return Ok(trips),
                (false, _) => i += 1,
            }
        }
        Ok(trips)
    }
}

/// How a loop's registers are known at its header.
#[derive(Debug, Default)]
struct Needs {
    /// Registers loaded from an argument-segment dword.
    args: std::collections::BTreeMap<u8, usize>,
    /// SALU definitions to execute, by node.
    defs: BTreeSet<usize>,
    /// Registers the analysis does not know.
    unknown: BTreeSet<u8>,
}

/// Scalar registers with what is known of them.
struct Regs {
    r: Sregs,
    known: [bool; 128],
    scc: Option<bool>,
}

impl Regs {
    fn initial(k: &Known) -> Regs {
        let mut r = Regs {
            r: Sregs::default(),
            known: [true; 128],
            scc: Some(false),
        };
        r.set(0, KERNARG_ADDR as u32);
        r.set(1, (KERNARG_ADDR >> 32) as u32);
        r.set(3, k.wg);
        r.known[2] = false;
        r.known[4] = false;
        for s in 102..128 {
            r.known[s] = false;
        }
        r
    }

    fn set(&mut self, n: u8, v: u32) {
        if let Some(s) = self.r.s.get_mut(usize::from(n)) {
            *s = v;
            self.known[usize::from(n)] = true;
        }
    }

    fn is_known(&self, s: &Sreg) -> bool {
        match s {
            Sreg::Sgpr(n) => self.known.get(usize::from(*n)).copied().unwrap_or(false),
            Sreg::Scc => self.scc.is_some(),
            Sreg::Special(_) => false,
        }
    }

    /// Executes node `i` if it is SALU with known sources; otherwise what it writes becomes
    /// unknown.
    fn exec(&mut self, g: &Graph, acc: &[ScalarAccess], i: usize) {
        let a = &acc[i];
        let f = &g.nodes[i].f;
        let ok = f.unit == unit::SALU && a.reads.iter().all(|s| self.is_known(s));
        if ok {
            self.r.scc = self.scc.unwrap_or(false);
            if salu::execute(f, &mut self.r).is_ok() {
                self.scc = Some(self.r.scc);
                for w in &a.writes {
                    if let Sreg::Sgpr(n) = w {
                        self.known[usize::from(*n).min(127)] = true;
                    }
                }
                return;
            }
        }
        for w in &a.writes {
            match w {
                Sreg::Sgpr(n) => {
                    if let Some(k) = self.known.get_mut(usize::from(*n)) {
                        *k = false;
                    }
                }
                Sreg::Scc => self.scc = None,
                Sreg::Special(_) => {}
            }
        }
    }
}
