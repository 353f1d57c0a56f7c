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
//! `s_load_dword*` of the kernel argument segment or the HSA dispatch packet through an
//! untouched SGPR pair the ABI points at it), or when it is never written (the ABI's initial
//! value where it is the same in every wavefront: under the simple ABI `s[0:1]` the argument
//! segment, `s3` the work-group size, other SGPRs 0, while `s2` and `s4` differ between
//! wavefronts and are unknown; under the HSA ABI the user SGPRs the descriptor enables —
//! dispatch packet and kernarg pointers among them — while the work-group id and info are
//! unknown).
//!
//! Compiled OpenCL C kernels name their loops by the labels clang gives their headers
//! (`.LBB0_3`): the `// @loop .LBB0_3 N` line goes in the `.cl` file, which rtgpu reads
//! itself (clang never sees it), and the error for an unbounded loop names the label.

use super::graph::{is_sopp_branch, Graph, Loop};
use rtgpu_firmware::hsa::{HsaKernel, DISPATCH_ADDR};
use rtgpu_firmware::isa::Program;
use rtgpu_firmware::launch::{Arg, Dims, Image, KERNARG_ADDR};
use rtgpu_firmware::pws_pass::{ScalarAccess, Sreg};
use rtgpu_hw::cu::abi::WavePlace;
use rtgpu_hw::cu::regfile::Sregs;
use rtgpu_hw::cu::salu;
use rtgpu_hw::isa::insn_model::unit;
use std::collections::BTreeMap;
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
    /// A compiled (OpenCL C) kernel's HSA interface: its argument layout from the
    /// `.amdgpu_metadata` (which segment dwords are buffer pointers, scalars, hidden).
    pub hsa: Option<HsaKernel>,
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
        Ok(Facts {
            loops,
            ranges,
            hsa: None,
        })
    }

    /// The label of loop `k`'s header, if it has one.
    pub fn label(&self, k: usize) -> Option<&str> {
        self.loops.get(k).and_then(|l| l.label.as_deref())
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

/// What the derivation and the taint analysis know of a launch: the memory the kernel reads
/// through its ABI pointers (the kernel argument segment, and under the HSA ABI the dispatch
/// packet), each dword a fixed value or every value of a declared range, and the initial
/// SGPRs that are the same in every wavefront.
#[derive(Clone, Debug, Default)]
pub struct Known {
    /// Per dword (by byte address) of the argument segment and dispatch packet: its
    /// possible values. More than one: a ranged scalar argument (input).
    pub segment: BTreeMap<u64, Vec<u32>>,
    /// Per SGPR: its initial value when every wavefront starts with the same one.
    pub init: Vec<Option<u32>>,
    /// Per user argument: what it is for the bound (for the report).
    pub roles: Vec<ArgRole>,
}

/// What a kernel argument is to the bound.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub enum ArgRole {
    /// A buffer pointer: the address is the launch's layout; the contents are input (random
    /// under `--inputs`).
    Buffer,
    /// A scalar with a declared range: input, every value of the range is bounded.
    Ranged,
    /// A scalar without a range: part of the launch shape (the bound is for its value).
    Shape,
}

impl ArgRole {
    /// Its name in reports.
    pub fn name(self) -> &'static str {
        match self {
            Self::Buffer => "buffer (contents are input)",
            Self::Ranged => "ranged scalar (input)",
            Self::Shape => "scalar (launch shape)",
        }
    }
}

impl Known {
    /// The simple ABI's segment of `args` (buffer addresses from the launch's layout `mem`).
    pub fn of(args: &[Arg], dims: Dims, ranges: &[ArgRange], mem: &[u32]) -> Known {
        let image = Image {
            mem: mem.to_vec(),
            kernarg: KERNARG_ADDR,
            abi: KERNARG_ADDR.into(),
            buffers: Vec::new(),
        };
        Known::of_image(args, dims, ranges, &image, None)
    }

    /// The launch of `args` laid out in `image` by the simple ABI (`hsa` `None`) or the HSA
    /// ABI of `hsa` (argument offsets from its metadata, the dispatch packet readable too).
    pub fn of_image(
        args: &[Arg],
        dims: Dims,
        ranges: &[ArgRange],
        image: &Image,
        hsa: Option<&HsaKernel>,
    ) -> Known {
        let base = image.kernarg;
        let word = |a: u64| image.mem.get((a / 4) as usize).copied().unwrap_or(0);
        // Byte offset of each user argument and the segment's length in bytes.
        let (offsets, len): (Vec<u32>, u32) = match hsa {
            Some(h) => (
                h.user_args().map(|a| a.offset).collect(),
                h.args.iter().map(|a| a.offset + a.size).max().unwrap_or(0),
            ),
            None => Image::offsets(args),
        };
        // Past the last argument the segment holds zeros the launch wrote (clang may load a
        // dword or more of them with a wide `s_load_dwordx*`): 16 dwords more are known.
        let mut segment: BTreeMap<u64, Vec<u32>> = (0..u64::from(len).div_ceil(4) + 16)
            .map(|d| (base + 4 * d, vec![word(base + 4 * d)]))
            .collect();
        let mut roles = Vec::new();
        for (k, (a, &off)) in args.iter().zip(&offsets).enumerate() {
            let at = base + u64::from(off);
            roles.push(match a {
                Arg::Buffer { .. } => ArgRole::Buffer,
                Arg::Scalar(_) => match ranges.iter().rev().find(|r| r.arg == k) {
                    Some(r) => {
                        segment.insert(at, (r.lo..=r.hi).map(|x| x as u32).collect());
                        ArgRole::Ranged
                    }
                    None => ArgRole::Shape,
                },
            });
        }
        if hsa.is_some() {
            for d in 0..16 {
                let a = DISPATCH_ADDR + 4 * d;
                segment.insert(a, vec![word(a)]);
            }
        }
        // The initial SGPRs: a value every wavefront starts with is known.
        let places = [(0, 0), (1, 1), (2, 0), (0, 2)].map(|(group, wave)| {
            let mut s = vec![0u32; 128];
            image.abi.init_sgprs(
                WavePlace {
                    group,
                    wg: dims.wg,
                    wave,
                },
                &mut s,
            );
            s
        });
        let init = (0..128)
            .map(|r| {
                let v = places[0][r];
                places.iter().all(|p| p[r] == v).then_some(v)
            })
            .collect();
        Known {
            segment,
            init,
            roles,
        }
    }

    /// The byte address an untouched SGPR pair `b`, `b+1` holds, if every wavefront starts
    /// with the same one and it points into the known segment.
    pub fn pointer(&self, b: u8) -> Option<u64> {
        let lo = (*self.init.get(usize::from(b))?)?;
        let hi = (*self.init.get(usize::from(b) + 1)?)?;
        let a = u64::from(lo) | u64::from(hi) << 32;
        self.segment.contains_key(&a).then_some(a)
    }

    /// The ranged (input) dwords of the segment, by byte address.
    pub fn ranged(&self) -> impl Iterator<Item = u64> + '_ {
        self.segment
            .iter()
            .filter(|(_, v)| v.len() > 1)
            .map(|(a, _)| *a)
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
        let needs = self.entry_needs(l, &cond, known);
        let dwords: Vec<u64> = needs
            .args
            .values()
            .copied()
            .collect::<BTreeSet<_>>()
            .into_iter()
            .collect();
        let mut combos = 1u64;
        for d in &dwords {
            let n = known.segment.get(d).map_or(1, Vec::len) as u64;
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
    fn entry_needs(&self, l: Loop, cond: &[bool], known: &Known) -> Needs {
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
            if poisoned.contains(&r) || !self.source(n, l.head, l, 3, &mut needs, known) {
                needs.unknown.insert(n);
            }
        }
        needs
    }

    /// Whether SGPR `n`'s value at node `at` is known (recording how in `needs`): it comes
    /// from the last write before `at` on a straight-line stretch into it, or from the only
    /// write outside loop `l` when that one is unconditional and before `at`, and that write
    /// is a SALU instruction with known sources or an argument load; or it is never written.
    fn source(
        &self,
        n: u8,
        at: usize,
        l: Loop,
        depth: u32,
        needs: &mut Needs,
        known: &Known,
    ) -> bool {
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
            return match self.kernarg_dword(w, n, known) {
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
                Sreg::Sgpr(m) => self.source(*m, w, l, depth - 1, needs, known),
                _ => false,
            });
        if known {
            needs.defs.insert(w);
        }
        known
    }

    /// Every path into `at` comes straight from `w` (falling through, no branch into the
    /// stretch; loop `l`'s back edges into its header aside). A branch out of the stretch
    /// (clang's zero-trip test jumping over a loop) is no other way in.
    fn straight(&self, w: usize, at: usize, l: Loop) -> bool {
        (w + 1..=at).all(|p| {
            let only_next = self.g.succs[p - 1].contains(&p);
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

    /// The byte address of the segment dword that the `s_load_dword*` at `w` writes into
    /// `s{n}`, when it loads through an untouched SGPR pair the ABI points at the argument
    /// segment or the dispatch packet, at a constant offset.
    fn kernarg_dword(&self, w: usize, n: u8, known: &Known) -> Option<u64> {
        let f = &self.g.nodes[w].f;
        // SMEM's `sbase` field is the pair's first SGPR halved.
        let b = u8::try_from(2 * f.src0).ok().filter(|&b| b < 101)?;
        let untouched = initial_at(self.g, &self.acc, w, b);
        let base = known.pointer(b).filter(|_| untouched && n >= f.dst)?;
        let a = base + u64::from(f.imm / 4 * 4) + 4 * u64::from(n - f.dst);
        known.segment.contains_key(&a).then_some(a)
    }

    /// The registers at the header for argument combination `c`.
    fn entry_regs(
        &self,
        needs: &Needs,
        known: &Known,
        dwords: &[u64],
        mut c: u64,
    ) -> Result<Regs, Why> {
        let mut regs = Regs::initial(known);
        let mut vals = std::collections::BTreeMap::new();
        for &d in dwords {
            let v = known
                .segment
                .get(&d)
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

/// Whether SGPRs `b` and `b + 1` still hold their initial (ABI) values when node `w` runs: no
/// node on any path from the entry to `w` writes them.
pub fn initial_at(g: &Graph, acc: &[ScalarAccess], w: usize, b: u8) -> bool {
    let pair = [Sreg::Sgpr(b), Sreg::Sgpr(b.saturating_add(1))];
    let reaching = g.reaching(w);
    !(0..g.nodes.len()).any(|i| reaching[i] && pair.iter().any(|r| acc[i].writes.contains(r)))
}

/// How a loop's registers are known at its header.
#[derive(Debug, Default)]
struct Needs {
    /// Registers loaded from an argument-segment (or dispatch packet) dword, by its address.
    args: BTreeMap<u8, u64>,
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
        for n in 0..102u8 {
            match k.init.get(usize::from(n)).copied().flatten() {
                Some(v) => r.set(n, v),
                None => r.known[usize::from(n)] = false,
            }
        }
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
