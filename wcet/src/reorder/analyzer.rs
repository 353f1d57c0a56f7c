//! The kernel analyzer: Algorithms 1–3 of the reordering paper (its Section III-D), with
//! traces for our generalised release rule R1 (see [`super::order`]).
//!
//! For every block (linear-ID order) and every warp of it (warp index order) the kernel is
//! executed with concrete values, 32 lanes in SIMT lock-step, and every warp-level global ld/st
//! instance is recorded in program order as an [`Access`]: its PC and index `pc_idx` in the
//! sorted `LDSTPCList`, `k` (earlier instances of the same PC in this warp), `epoch` (barriers
//! this warp has passed), load/store, the coalesced 128-byte line numbers (ascending, deduplicated:
//! Algorithm 3 with `Coalesce(a, b) ⟺ a >> 7 == b >> 7`) and the mask of the lanes that executed
//! it. A ld/st that no lane executes (every lane's guard false) is still recorded, with no lines
//! (a "zero-line instance", so that the configuration and the traffic never diverge).
//!
//! # Divergence and reconvergence
//!
//! Each warp runs a SIMT reconvergence stack (our choice: the paper's
//! Algorithm 2 follows one path) with **immediate post-dominator**
//! (IPDOM) reconvergence, computed on the instruction-level control-flow graph ([`ipdom`]).
//! On a branch whose guard splits the active lanes, the current entry's PC becomes the branch's
//! IPDOM, then the taken path and the fall-through path are pushed with that reconvergence PC,
//! fall-through on top: the **fall-through path runs first**. For a forward branch this is the
//! lower-PC path, so each warp's trace stays PC-ascending in structured forward code;
//! for a backward loop branch the fall-through path starts at the IPDOM (the instruction after
//! the branch), so it is empty and the lanes that loop run first, the others wait at the loop
//! exit. An entry is popped when its PC reaches its reconvergence PC or its mask becomes empty.
//! Lanes that execute `exit` leave every stack entry. An instruction whose IPDOM is the kernel end
//! (a node that cannot reach the exit, e.g. an infinite loop) reconverges at the end.
//!
//! Barriers: `bar.sync` increments the warp's epoch when at least one active lane executes it
//! (PTX: a warp executes `bar` as a whole). Loops are unrolled by executing them; more than
//! [`Options::step_limit`] warp instructions in one warp is an error.

use std::collections::HashMap;
use std::fmt;

use serde::{Deserialize, Serialize};

use super::interp::{unflatten, Effect, ExecError, Thread, ThreadCtx};
use super::ptx::{pc_of, Kernel, Op};

/// log2 of the L1D line size: line number = byte address >> 7 (128-byte lines, the reordering
/// paper's Table 2).
pub const LINE_SHIFT: u32 = 7;

/// Threads per warp.
pub const WARP_SIZE: u32 = 32;

/// One warp-level global ld/st instance (an entry of a warp's trace for rule R1).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Access {
    /// The instruction's byte PC (8 × instruction index).
    pub pc: u32,
    /// Index of `pc` in [`Analysis::ldst_pcs`].
    pub pc_idx: u8,
    /// How many earlier instances of the same PC this warp had.
    pub k: u16,
    /// How many `bar.sync` this warp passed before this instance.
    pub epoch: u8,
    /// `st.global` (true) or `ld.global` (false).
    pub is_store: bool,
    /// The 128-byte line numbers (byte address >> 7), ascending, deduplicated.
    pub lines: Vec<u32>,
    /// The lanes that executed it (bit `l` = lane `l`).
    pub mask: u32,
}

/// One static warp's ordered trace of global ld/st instances.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct WarpTrace {
    /// Block linear ID `x + y·gx + z·gx·gy`.
    pub block: u32,
    /// Warp index in the block.
    pub warp: u32,
    /// The instances in program order.
    pub accesses: Vec<Access>,
}

/// The analyzer's output (the reordering configuration: one trace per warp).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Analysis {
    /// The PCs of the static global ld/st instructions, ascending (`LDSTPCList`).
    pub ldst_pcs: Vec<u32>,
    /// Grid dimensions.
    pub grid: [u32; 3],
    /// Block dimensions.
    pub block: [u32; 3],
    /// Every warp, in block linear-ID order then warp index.
    pub warps: Vec<WarpTrace>,
}

/// Analysis limits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Options {
    /// The most warp instructions one warp may execute (loops are unrolled by execution).
    pub step_limit: u64,
}

impl Default for Options {
    /// One million warp instructions per warp.
    fn default() -> Self {
        Options {
            step_limit: 1_000_000,
        }
    }
}

/// Why the analysis failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AnalyzeError {
    /// The launch configuration is invalid.
    Launch {
        /// What is wrong.
        message: String,
    },
    /// The kernel has more static global ld/st instructions than `pc_idx` (8 bits) can index.
    TooManyPcs {
        /// How many it has.
        count: usize,
    },
    /// A thread could not execute an instruction.
    Exec {
        /// Block linear ID.
        block: u32,
        /// Warp index.
        warp: u32,
        /// Lane (`None` for an error not tied to one lane, such as the parameter count).
        lane: Option<u32>,
        /// The error.
        error: ExecError,
    },
    /// A warp executed more than [`Options::step_limit`] instructions.
    StepLimit {
        /// Block linear ID.
        block: u32,
        /// Warp index.
        warp: u32,
        /// The limit.
        limit: u64,
    },
    /// A warp passed more barriers than `epoch` (8 bits) or executed one PC more often than `k`
    /// (16 bits) can count.
    CounterOverflow {
        /// Block linear ID.
        block: u32,
        /// Warp index.
        warp: u32,
        /// `"epoch"` or `"k"`.
        what: &'static str,
    },
}

impl fmt::Display for AnalyzeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Launch { message } => write!(f, "bad launch: {message}"),
            Self::TooManyPcs { count } => write!(
                f,
                "the kernel has {count} global ld/st instructions; at most 256 are supported"
            ),
            Self::Exec {
                block,
                warp,
                lane,
                error,
            } => match lane {
                Some(l) => write!(f, "block {block} warp {warp} lane {l}: {error}"),
                None => write!(f, "block {block} warp {warp}: {error}"),
            },
            Self::StepLimit { block, warp, limit } => write!(
                f,
                "block {block} warp {warp} executed more than {limit} instructions (an unbounded \
                 loop?)"
            ),
            Self::CounterOverflow { block, warp, what } => write!(
                f,
                "block {block} warp {warp}: the {what} counter overflows (epoch ≤ 255 barriers, \
                 k ≤ 65535 instances of one PC)"
            ),
        }
    }
}

impl std::error::Error for AnalyzeError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::Exec { error, .. } => Some(error),
            _ => None,
        }
    }
}

/// The successors of instruction `i` (`n` = the kernel end, the virtual exit).
fn successors(kernel: &Kernel, i: usize) -> Vec<usize> {
    let n = kernel.insts.len();
    let inst = &kernel.insts[i];
    match inst.op {
        Op::Exit if inst.guard.is_none() => vec![n],
        Op::Exit => vec![n, i + 1],
        Op::Bra { target } if inst.guard.is_none() => vec![target.min(n)],
        Op::Bra { target } => vec![target.min(n), i + 1],
        _ => vec![i + 1],
    }
}

/// Reverse-graph DFS postorder from the exit; `po[v]` is `None` for nodes that cannot reach it.
fn exit_postorder(preds: &[Vec<usize>], exit: usize) -> (Vec<usize>, Vec<Option<usize>>) {
    let mut order = Vec::new();
    let mut po = vec![None; preds.len()];
    let mut seen = vec![false; preds.len()];
    let mut stack = vec![(exit, 0usize)];
    seen[exit] = true;
    while let Some((v, next)) = stack.pop() {
        if let Some(&u) = preds[v].get(next) {
            stack.push((v, next + 1));
            if !seen[u] {
                seen[u] = true;
                stack.push((u, 0));
            }
        } else {
            po[v] = Some(order.len());
            order.push(v);
        }
    }
    (order, po)
}

/// The immediate post-dominator of every instruction (index `insts.len()` = the kernel end),
/// by Cooper–Harvey–Kennedy on the reverse CFG. Instructions that cannot reach the end get
/// the end.
pub fn ipdom(kernel: &Kernel) -> Vec<usize> {
    let n = kernel.insts.len();
    let succ: Vec<Vec<usize>> = (0..n).map(|i| successors(kernel, i)).collect();
    let mut preds = vec![Vec::new(); n + 1];
    for (i, ss) in succ.iter().enumerate() {
        for &s in ss {
            preds[s].push(i);
        }
    }
    let (order, po) = exit_postorder(&preds, n);
    let mut idom: Vec<Option<usize>> = vec![None; n + 1];
    idom[n] = Some(n);
    let mut changed = true;
    while changed {
        changed = false;
        for &v in order.iter().rev().filter(|&&v| v != n) {
            let mut new = None;
            for &s in succ[v].iter().filter(|&&s| idom[s].is_some()) {
                new = Some(match new {
                    None => s,
                    Some(cur) => intersect(&idom, &po, s, cur),
                });
            }
            if new.is_some() && idom[v] != new {
                idom[v] = new;
                changed = true;
            }
        }
    }
    idom.truncate(n);
    idom.into_iter().map(|d| d.unwrap_or(n)).collect()
}

fn intersect(idom: &[Option<usize>], po: &[Option<usize>], mut a: usize, mut b: usize) -> usize {
    let num = |v: usize| po[v].unwrap_or(0);
    while a != b {
        while num(a) < num(b) {
            a = idom[a].unwrap_or(a);
        }
        while num(b) < num(a) {
            b = idom[b].unwrap_or(b);
        }
    }
    a
}

/// A SIMT stack entry: run `mask` from `pc` until `pc == rpc`.
#[derive(Clone, Copy, Debug)]
struct Entry {
    pc: usize,
    rpc: usize,
    mask: u32,
}

/// Shared inputs of every warp's run.
struct Ctx<'k> {
    kernel: &'k Kernel,
    params: &'k [u64],
    ipdom: Vec<usize>,
    pc_idx: HashMap<usize, u8>,
    grid: [u32; 3],
    block: [u32; 3],
    opts: Options,
}

/// One warp's SIMT execution.
struct WarpRun<'k> {
    cx: &'k Ctx<'k>,
    block: u32,
    warp: u32,
    lanes: Vec<Thread<'k>>,
    stack: Vec<Entry>,
    epoch: u8,
    counts: HashMap<usize, u16>,
    out: Vec<Access>,
}

impl<'k> WarpRun<'k> {
    fn new(cx: &'k Ctx<'k>, block: u32, warp: u32, threads: u32) -> Result<Self, AnalyzeError> {
        let ctaid = unflatten(block, cx.grid);
        let first = warp * WARP_SIZE;
        let count = threads.saturating_sub(first).min(WARP_SIZE);
        let mut lanes = Vec::with_capacity(count as usize);
        for t in first..first + count {
            let ctx = ThreadCtx {
                tid: unflatten(t, cx.block),
                ntid: cx.block,
                ctaid,
                nctaid: cx.grid,
            };
            let th =
                Thread::new(cx.kernel, cx.params, ctx).map_err(|error| AnalyzeError::Exec {
                    block,
                    warp,
                    lane: None,
                    error,
                })?;
            lanes.push(th);
        }
        let mask = if count == WARP_SIZE {
            u32::MAX
        } else {
            (1u32 << count) - 1
        };
        let n = cx.kernel.insts.len();
        Ok(WarpRun {
            cx,
            block,
            warp,
            lanes,
            stack: vec![Entry {
                pc: 0,
                rpc: n,
                mask,
            }],
            epoch: 0,
            counts: HashMap::new(),
            out: Vec::new(),
        })
    }

    /// Wraps a lane's error with its block, warp and lane.
    fn lane_err(block: u32, warp: u32, lane: usize) -> impl Fn(ExecError) -> AnalyzeError {
        move |error| AnalyzeError::Exec {
            block,
            warp,
            lane: Some(lane as u32),
            error,
        }
    }

    fn run(mut self) -> Result<Vec<Access>, AnalyzeError> {
        let mut steps = 0u64;
        self.pop_finished();
        while let Some(&top) = self.stack.last() {
            steps += 1;
            if steps > self.cx.opts.step_limit {
                return Err(AnalyzeError::StepLimit {
                    block: self.block,
                    warp: self.warp,
                    limit: self.cx.opts.step_limit,
                });
            }
            self.step(top)?;
            self.pop_finished();
        }
        Ok(self.out)
    }

    fn pop_finished(&mut self) {
        while let Some(top) = self.stack.last() {
            if top.mask != 0 && top.pc != top.rpc {
                break;
            }
            self.stack.pop();
        }
    }

    fn set_pc(&mut self, pc: usize) {
        if let Some(top) = self.stack.last_mut() {
            top.pc = pc;
        }
    }

    /// Executes the top entry's instruction for its lanes.
    fn step(&mut self, top: Entry) -> Result<(), AnalyzeError> {
        let i = top.pc;
        let Some(inst) = self.cx.kernel.insts.get(i) else {
            self.exit_lanes(top.mask); // fell off the end
            return Ok(());
        };
        let (exec, addrs) = self.exec_lanes(i, top.mask)?;
        match inst.op {
            Op::Bra { target } => self.branch(i, target, top.mask, exec),
            Op::Exit => {
                self.exit_lanes(exec);
                self.set_pc(i + 1);
            }
            Op::Bar => {
                if exec != 0 {
                    self.epoch = self.epoch.checked_add(1).ok_or(self.overflow("epoch"))?;
                }
                self.set_pc(i + 1);
            }
            _ if inst.op.is_global_ldst() => {
                self.record(i, exec, addrs)?;
                self.set_pc(i + 1);
            }
            _ => self.set_pc(i + 1),
        }
        Ok(())
    }

    fn overflow(&self, what: &'static str) -> AnalyzeError {
        AnalyzeError::CounterOverflow {
            block: self.block,
            warp: self.warp,
            what,
        }
    }

    /// Runs instruction `i` on every lane of `active` whose guard holds; returns those lanes
    /// and the global addresses they accessed.
    fn exec_lanes(&mut self, i: usize, active: u32) -> Result<(u32, Vec<u32>), AnalyzeError> {
        let (mut exec, mut addrs) = (0u32, Vec::new());
        for l in 0..self.lanes.len() {
            if active & (1 << l) == 0 {
                continue;
            }
            let err = Self::lane_err(self.block, self.warp, l);
            let lane = &mut self.lanes[l];
            if !lane.guard(i).map_err(&err)? {
                continue;
            }
            exec |= 1 << l;
            if let Effect::Mem(m) = lane.exec(i).map_err(&err)? {
                addrs.push(m.addr);
            }
        }
        Ok((exec, addrs))
    }

    fn branch(&mut self, i: usize, target: usize, active: u32, taken: u32) {
        let not_taken = active & !taken;
        if taken == 0 {
            return self.set_pc(i + 1);
        }
        if not_taken == 0 {
            return self.set_pc(target);
        }
        let r = self.cx.ipdom[i];
        self.set_pc(r);
        for (pc, mask) in [(target, taken), (i + 1, not_taken)] {
            if pc != r {
                self.stack.push(Entry { pc, rpc: r, mask });
            }
        }
    }

    fn exit_lanes(&mut self, lanes: u32) {
        for e in &mut self.stack {
            e.mask &= !lanes;
        }
    }

    fn record(&mut self, i: usize, exec: u32, addrs: Vec<u32>) -> Result<(), AnalyzeError> {
        let inst = &self.cx.kernel.insts[i];
        let mut lines: Vec<u32> = addrs.into_iter().map(|a| a >> LINE_SHIFT).collect();
        lines.sort_unstable();
        lines.dedup();
        let overflow = self.overflow("k");
        let count = self.counts.entry(i).or_insert(0);
        let k = *count;
        *count = count.checked_add(1).ok_or(overflow)?;
        self.out.push(Access {
            pc: pc_of(i).unwrap_or(u32::MAX),
            pc_idx: self.cx.pc_idx.get(&i).copied().unwrap_or(u8::MAX),
            k,
            epoch: self.epoch,
            is_store: matches!(inst.op, Op::St { .. }),
            lines,
            mask: exec,
        });
        Ok(())
    }
}

fn launch_err(message: impl Into<String>) -> AnalyzeError {
    AnalyzeError::Launch {
        message: message.into(),
    }
}

/// (blocks, threads per block) of a launch, validated: every dimension ≥ 1, at most 1024
/// threads per block, at most 2^32 − 1 blocks.
fn launch_size(grid: [u32; 3], block: [u32; 3]) -> Result<(u32, u32), AnalyzeError> {
    if grid.contains(&0) || block.contains(&0) {
        return Err(launch_err(format!(
            "grid {grid:?} and block {block:?} must have every dimension ≥ 1"
        )));
    }
    let product = |d: [u32; 3]| d.iter().map(|&x| u64::from(x)).product::<u64>();
    let threads = product(block);
    if threads > 1024 {
        return Err(launch_err(format!(
            "block {block:?} has {threads} threads; at most 1024 are supported"
        )));
    }
    let blocks = u32::try_from(product(grid))
        .map_err(|_| launch_err(format!("grid {grid:?} has more than 2^32 − 1 blocks")))?;
    Ok((blocks, threads as u32))
}

/// Runs the analyzer with default [`Options`].
pub fn analyze(
    kernel: &Kernel,
    params: &[u64],
    grid: [u32; 3],
    block: [u32; 3],
) -> Result<Analysis, AnalyzeError> {
    analyze_with(kernel, params, grid, block, Options::default())
}

/// Runs the analyzer (Algorithm 1): every warp of every block, in block linear-ID order then
/// warp index. `params` are the parameter values in declaration order.
pub fn analyze_with(
    kernel: &Kernel,
    params: &[u64],
    grid: [u32; 3],
    block: [u32; 3],
    opts: Options,
) -> Result<Analysis, AnalyzeError> {
    let (blocks, threads) = launch_size(grid, block)?;
    let ldst_pcs = kernel.ldst_pcs();
    if ldst_pcs.len() > 256 {
        return Err(AnalyzeError::TooManyPcs {
            count: ldst_pcs.len(),
        });
    }
    let pc_idx = (0..kernel.insts.len())
        .filter(|&i| kernel.insts[i].op.is_global_ldst())
        .enumerate()
        .map(|(k, i)| (i, k as u8))
        .collect();
    let cx = Ctx {
        kernel,
        params,
        ipdom: ipdom(kernel),
        pc_idx,
        grid,
        block,
        opts,
    };
    let warps_per_block = threads.div_ceil(WARP_SIZE);
    let mut warps = Vec::new();
    for b in 0..blocks {
        for w in 0..warps_per_block {
            let accesses = WarpRun::new(&cx, b, w, threads)?.run()?;
            warps.push(WarpTrace {
                block: b,
                warp: w,
                accesses,
            });
        }
    }
    Ok(Analysis {
        ldst_pcs,
        grid,
        block,
        warps,
    })
}

/// `[ a , b , c ]`, or `[ ]` when empty (the paper's list format).
fn list<T: fmt::Display>(items: impl IntoIterator<Item = T>) -> String {
    let items: Vec<String> = items.into_iter().map(|x| x.to_string()).collect();
    if items.is_empty() {
        "[ ]".to_string()
    } else {
        format!("[ {} ]", items.join(" , "))
    }
}

/// Why an [`Analysis`] (possibly built by hand) is not well formed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MalformedAnalysis {
    /// What is wrong.
    pub reason: String,
}

impl fmt::Display for MalformedAnalysis {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "malformed analysis: {}", self.reason)
    }
}

impl std::error::Error for MalformedAnalysis {}

impl Analysis {
    /// Warps per block: `ceil(threads per block / 32)`.
    pub fn warps_per_block(&self) -> u32 {
        let threads: u64 = self.block.iter().map(|&d| u64::from(d)).product();
        u32::try_from(threads.div_ceil(u64::from(WARP_SIZE))).unwrap_or(u32::MAX)
    }

    /// The trace of warp `warp` of block `block`, if present.
    pub fn warp(&self, block: u32, warp: u32) -> Option<&WarpTrace> {
        self.warps
            .binary_search_by_key(&(block, warp), |t| (t.block, t.warp))
            .ok()
            .map(|i| &self.warps[i])
    }

    /// Total number of warp-level ld/st instances.
    pub fn instance_count(&self) -> usize {
        self.warps.iter().map(|w| w.accesses.len()).sum()
    }

    /// Checks the invariants the order and the estimator rely on: `ldst_pcs` strictly
    /// ascending; warps strictly ascending by (block, warp); every access's `pc` equal to
    /// `ldst_pcs[pc_idx]`; lines strictly ascending.
    pub fn validate(&self) -> Result<(), MalformedAnalysis> {
        let bad = |reason: String| Err(MalformedAnalysis { reason });
        if self.ldst_pcs.windows(2).any(|w| w[0] >= w[1]) {
            return bad(format!(
                "ldst_pcs {:?} not strictly ascending",
                self.ldst_pcs
            ));
        }
        if self
            .warps
            .windows(2)
            .any(|w| (w[0].block, w[0].warp) >= (w[1].block, w[1].warp))
        {
            return bad("warps are not strictly ascending by (block, warp)".into());
        }
        for t in &self.warps {
            for (i, a) in t.accesses.iter().enumerate() {
                let at = format!("block {} warp {} access {i}", t.block, t.warp);
                if self.ldst_pcs.get(usize::from(a.pc_idx)) != Some(&a.pc) {
                    return bad(format!("{at}: pc {} is not ldst_pcs[{}]", a.pc, a.pc_idx));
                }
                if a.lines.windows(2).any(|w| w[0] >= w[1]) {
                    return bad(format!("{at}: lines not strictly ascending"));
                }
            }
        }
        Ok(())
    }

    /// The analyzer output in the exact format of the reordering paper's worked
    /// example (`-num_pcs`, `-pc_addrs`, `-grid`,
    /// `-block`, then per block `Block [ x , y , z ]` and per warp the access bits and the
    /// `[ [ line byte bases ] , L|S ]` / `None` entries), one line each, each ending in `\n`.
    ///
    /// The format has one slot per PC, so it describes loop-free kernels; for a PC executed
    /// several times it shows the last instance, as Algorithm 2 (which overwrites) does. An
    /// instance with no active lane shows `[ [ ] , L ]`.
    pub fn paper_format(&self) -> String {
        let mut s = String::new();
        s += &format!("-num_pcs {}\n", self.ldst_pcs.len());
        s += &format!("-pc_addrs {}\n", list(&self.ldst_pcs));
        s += &format!("-grid {}\n-block {}\n", list(self.grid), list(self.block));
        let mut last_block = None;
        for t in &self.warps {
            if last_block != Some(t.block) {
                s += &format!("Block {}\n", list(unflatten(t.block, self.grid)));
                last_block = Some(t.block);
            }
            s += &self.paper_warp(t);
        }
        s
    }

    fn paper_warp(&self, t: &WarpTrace) -> String {
        let mut slots: Vec<Option<&Access>> = vec![None; self.ldst_pcs.len()];
        for a in &t.accesses {
            if let Some(slot) = slots.get_mut(usize::from(a.pc_idx)) {
                *slot = Some(a);
            }
        }
        let bits = list(slots.iter().map(|a| u8::from(a.is_some())));
        let entries = list(slots.iter().map(|a| match a {
            None => "None".to_string(),
            Some(a) => {
                let bases = list(a.lines.iter().map(|&l| u64::from(l) << LINE_SHIFT));
                format!("[ {bases} , {} ]", if a.is_store { 'S' } else { 'L' })
            }
        }));
        format!("Warp{} {bits}\nWarp{} {entries}\n", t.warp, t.warp)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kernel(body: &str) -> Kernel {
        let src = format!(
            ".entry k ( .param .u64 p )\n{{\n.reg .u32 %r<8>; .reg .u64 %rd<8>; \
             .reg .pred %p<4>; .reg .f32 %f<2>;\n ld.param.u64 %rd0, [p];\n\
             mov.u32 %r0, %tid.x;\n mul.wide.u32 %rd1, %r0, 4;\n add.u64 %rd2, %rd0, %rd1;\n{body}\n}}"
        );
        Kernel::parse(&src).unwrap()
    }

    fn one_warp(body: &str, threads: u32) -> Vec<Access> {
        let k = kernel(body);
        let a = analyze(&k, &[0], [1, 1, 1], [threads, 1, 1]).unwrap();
        a.validate().unwrap();
        a.warps[0].accesses.clone()
    }

    #[test]
    fn if_else_runs_fall_through_first_and_reconverges() {
        // lanes < 8 take the branch to ELSE; the others run THEN first.
        let acc = one_warp(
            "setp.lt.u32 %p0, %r0, 8;\n @%p0 bra $ELSE;\n ld.global.u32 %r1, [%rd2];\n bra $END;\n\
             $ELSE: st.global.u32 [%rd2+1024], %r1;\n $END: ld.global.u32 %r1, [%rd2+4096];\n exit;",
            32,
        );
        let summary: Vec<(u32, u32, Vec<u32>)> = acc
            .iter()
            .map(|a| (a.pc, a.mask, a.lines.clone()))
            .collect();
        assert_eq!(
            summary,
            vec![
                (48, 0xFFFF_FF00, vec![0]),
                (64, 0x0000_00FF, vec![8]),
                (72, 0xFFFF_FFFF, vec![32]),
            ]
        );
    }

    #[test]
    fn guarded_ldst_with_no_lane_is_a_zero_line_instance() {
        let acc = one_warp(
            "setp.gt.u32 %p0, %r0, 100;\n @%p0 ld.global.u32 %r1, [%rd2];",
            32,
        );
        assert_eq!(acc.len(), 1);
        assert_eq!((acc[0].mask, acc[0].lines.len()), (0, 0));
    }

    #[test]
    fn partial_warp_and_early_exit() {
        // 40 threads: warp 1 has 8 lanes. Lanes ≥ 4 exit before the load.
        let k = kernel("setp.ge.u32 %p0, %r0, 36;\n @%p0 exit;\n ld.global.u32 %r1, [%rd2];");
        let a = analyze(&k, &[0], [1, 1, 1], [40, 1, 1]).unwrap();
        assert_eq!(a.warps.len(), 2);
        assert_eq!(a.warps[0].accesses[0].mask, u32::MAX);
        assert_eq!(a.warps[1].accesses[0].mask, 0xF);
        assert_eq!(a.warps[1].accesses[0].lines, vec![1]);
    }

    #[test]
    fn loop_with_divergent_trip_counts() {
        // Lane l runs (l % 3) + 1 iterations; loop exit lanes wait at the IPDOM.
        let acc = one_warp(
            "rem.u32 %r1, %r0, 3;\n mov.u32 %r2, 0;\n $L: mul.wide.u32 %rd3, %r2, 4096;\n\
             add.u64 %rd4, %rd2, %rd3;\n ld.global.u32 %r3, [%rd4];\n add.u32 %r2, %r2, 1;\n\
             setp.le.u32 %p0, %r2, %r1;\n @%p0 bra $L;\n st.global.u32 [%rd2], %r2;",
            6,
        );
        let ks: Vec<(u16, u32, u32)> = acc.iter().map(|a| (a.k, a.pc, a.mask)).collect();
        assert_eq!(
            ks,
            vec![
                (0, 64, 0b111111),
                (1, 64, 0b110110),
                (2, 64, 0b100100),
                (0, 96, 0b111111)
            ]
        );
        assert_eq!(acc[2].lines, vec![64]);
    }

    #[test]
    fn ipdom_of_if_else_and_loop() {
        let k = kernel(
            "@%p0 bra $E;\n mov.u32 %r1, 1;\n bra $J;\n $E: mov.u32 %r1, 2;\n\
             $J: @%p1 bra $J;\n exit;",
        );
        let d = ipdom(&k);
        // instructions: 0..3 prologue, 4 bra E, 5 mov, 6 bra J, 7 mov (E), 8 bra J (J), 9 exit
        assert_eq!(d[4], 8);
        assert_eq!(d[8], 9);
        assert_eq!(d[9], 10);
        let spin = kernel("$S: bra $S;");
        assert_eq!(ipdom(&spin)[4], 5); // cannot reach the end: reconverges at the end
    }

    #[test]
    fn launch_and_limit_errors() {
        let k = kernel("$S: bra $S;");
        assert!(matches!(
            analyze(&k, &[0], [0, 1, 1], [1, 1, 1]),
            Err(AnalyzeError::Launch { .. })
        ));
        assert!(matches!(
            analyze(&k, &[0], [1, 1, 1], [1025, 1, 1]),
            Err(AnalyzeError::Launch { .. })
        ));
        let e = analyze_with(&k, &[0], [1, 1, 1], [32, 1, 1], Options { step_limit: 100 });
        assert_eq!(
            e,
            Err(AnalyzeError::StepLimit {
                block: 0,
                warp: 0,
                limit: 100
            })
        );
        assert!(matches!(
            analyze(&k, &[], [1, 1, 1], [1, 1, 1]),
            Err(AnalyzeError::Exec { lane: None, .. })
        ));
        let dd = kernel(
            "ld.global.u32 %r1, [%rd2];\n setp.eq.u32 %p0, %r1, 0;\n @%p0 bra $X;\n $X: exit;",
        );
        let e = analyze(&dd, &[0], [1, 1, 1], [2, 1, 1]).unwrap_err();
        assert!(matches!(
            e,
            AnalyzeError::Exec {
                lane: Some(0),
                error: ExecError::DataDependent { .. },
                ..
            }
        ));
        assert!(e.to_string().contains("guard predicate"), "{e}");
    }
}
