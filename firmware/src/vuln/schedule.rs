//! Algorithm 2 of Lee's thesis (BuildFromBottom) as a pass over GCN3 kernels: within each
//! basic block, rebuild the instruction order from the bottom up so that every producer lands
//! just above its first remaining consumer, which shortens the time its value waits in a
//! register (docs/works/thesis.md#alg-2).
//!
//! **Blocks.** The pass never moves an instruction across a *fixed point*: a branch or branch
//! target, `s_endpgm`, `s_barrier` (the thesis' condition 1: no synchronisation between
//! producer and consumer), `split`/`merge`, `s_nop`/`s_sleep`, `s_getpc`/`s_setpc`/
//! `s_swappc`. Loops are made of blocks, so no instruction leaves its loop (condition 3).
//! Every block keeps its place and its size, so no branch offset changes.
//!
//! **Dependences kept** (an edge from the earlier to the later instruction):
//! - registers: read after write, write after read, write after write, over every
//!   architectural register (VGPRs, SGPRs, VCC, EXEC, M0, SCC; [`super::access`]);
//! - memory: every pair of memory instructions (FLAT, DS, SMEM) keeps its order, so the
//!   counters count the same operations in the same order;
//! - `s_waitcnt`: no memory instruction crosses it (what it waits for is unchanged), and no
//!   instruction that reads or writes a register some load of the kernel writes crosses it
//!   (such a register may be written by a load in flight until the `s_waitcnt`).
//!
//! **Choice** among the instructions whose dependents are all placed (the thesis' legal
//! moves; condition 2 holds because a producer is placed only after all its consumers):
//! first one whose destination is read by the most recently placed instruction, then (the
//! thesis' `Cand.front()`) the first in program order whose destination some placed
//! instruction reads, else the last in program order (the original order).
//! Assumption docs/assumptions.md#A74.

use super::access::{Reg, RegAccess};
use crate::isa::{decode, Format, Instruction, Op, Sig};
use std::collections::BTreeSet;
use std::fmt;

/// Why the pass left a kernel alone.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScheduleError(pub String);

impl fmt::Display for ScheduleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ScheduleError {}

/// The pass's result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scheduled {
    /// The reordered code (same size, same fixed points).
    pub code: Vec<u32>,
    /// Instructions now at another place.
    pub moved: usize,
    /// Basic blocks (between fixed points) with two or more instructions.
    pub blocks: usize,
}

/// One decoded instruction.
#[derive(Clone, Debug)]
struct Item {
    insn: Instruction,
    words: Vec<u32>,
    acc: RegAccess,
}

impl Item {
    fn memory(&self) -> bool {
        matches!(
            self.insn.op.info().format,
            Format::Flat | Format::Ds | Format::Smem
        )
    }

    fn waitcnt(&self) -> bool {
        self.insn.op == Op::SWaitcnt
    }

    fn touches(&self, set: &BTreeSet<Reg>) -> bool {
        self.acc
            .reads
            .iter()
            .chain(&self.acc.writes)
            .any(|r| set.contains(r))
    }
}

/// An instruction the pass never moves anything across.
fn fixed(i: &Instruction) -> bool {
    let sopp = i.op.info().format == Format::Sopp && i.op != Op::SWaitcnt;
    sopp || matches!(
        i.op,
        Op::Split | Op::SGetpcB64 | Op::SSetpcB64 | Op::SSwappcB64
    )
}

/// Decodes `code` from its start; the dword offset of each instruction.
fn decode_all(code: &[u32]) -> Result<Vec<(usize, Item)>, ScheduleError> {
    let mut v = Vec::new();
    let mut at = 0;
    while at < code.len() {
        let (insn, n) =
            decode(&code[at..]).map_err(|e| ScheduleError(format!("dword {at}: {e}")))?;
        let acc = RegAccess::of(&insn);
        v.push((
            at,
            Item {
                insn,
                words: code[at..at + n].to_vec(),
                acc,
            },
        ));
        at += n;
    }
    Ok(v)
}

/// Dword offsets of every branch target.
fn targets(items: &[(usize, Item)]) -> BTreeSet<usize> {
    items
        .iter()
        .filter(|(_, it)| it.insn.op.info().sig == Sig::Branch)
        .map(|(at, it)| {
            let next = (at + it.words.len()) as i64;
            (next + i64::from(it.insn.imm as u16 as i16)) as usize
        })
        .collect()
}

/// `i` (earlier) and `j` (later) must keep their order.
fn depends(i: &Item, j: &Item, load_dsts: &BTreeSet<Reg>) -> bool {
    let (a, b) = (&i.acc, &j.acc);
    let hits = |x: &[Reg], y: &[Reg]| x.iter().any(|r| y.contains(r));
    let regs = hits(&a.writes, &b.reads) || hits(&a.writes, &b.writes) || hits(&a.reads, &b.writes);
    let mem = i.memory() && j.memory();
    let wait = (i.waitcnt() && (j.memory() || j.touches(load_dsts)))
        || (j.waitcnt() && (i.memory() || i.touches(load_dsts)));
    regs || mem || wait || (i.waitcnt() && j.waitcnt())
}

/// BuildFromBottom over one block: the new order as indices into `block`.
fn build_from_bottom(block: &[&Item], load_dsts: &BTreeSet<Reg>) -> Vec<usize> {
    let n = block.len();
    // succ[i]: the later instructions i must stay above.
    let succ: Vec<Vec<usize>> = (0..n)
        .map(|i| {
            (i + 1..n)
                .filter(|&j| depends(block[i], block[j], load_dsts))
                .collect()
        })
        .collect();
    let mut placed = vec![false; n];
    let mut order = Vec::with_capacity(n);
    let mut needed: Vec<Reg> = Vec::new();
    while order.len() < n {
        let ready: Vec<usize> = (0..n)
            .filter(|&i| !placed[i] && succ[i].iter().all(|&j| placed[j]))
            .collect();
        let last = order.last().map(|&k: &usize| &block[k].acc.reads);
        let feeds = |i: &usize, regs: &[Reg]| block[*i].acc.writes.iter().any(|w| regs.contains(w));
        let pick = ready
            .iter()
            .find(|i| last.is_some_and(|r| feeds(i, r)))
            .or_else(|| ready.iter().find(|i| feeds(i, &needed)))
            .or(ready.last())
            .copied()
            .expect("a block's dependences are acyclic");
        placed[pick] = true;
        order.push(pick);
        let acc = &block[pick].acc;
        needed.retain(|r| !acc.writes.contains(r));
        needed.extend(acc.reads.iter().copied());
    }
    order.reverse();
    order
}

/// The pass: `code` (a kernel starting at its first dword) with every basic block rebuilt by
/// BuildFromBottom.
pub fn schedule(code: &[u32]) -> Result<Scheduled, ScheduleError> {
    let items = decode_all(code)?;
    let tg = targets(&items);
    let load_dsts: BTreeSet<Reg> = items
        .iter()
        .filter(|(_, it)| it.acc.load)
        .flat_map(|(_, it)| it.acc.writes.iter().copied())
        .collect();
    let mut out = Vec::with_capacity(code.len());
    let (mut moved, mut blocks) = (0, 0);
    let mut block: Vec<&Item> = Vec::new();
    let mut flush = |block: &mut Vec<&Item>, out: &mut Vec<u32>| {
        if block.len() > 1 {
            blocks += 1;
        }
        let order = build_from_bottom(block, &load_dsts);
        moved += order.iter().enumerate().filter(|(k, &i)| *k != i).count();
        for i in order {
            out.extend_from_slice(&block[i].words);
        }
        block.clear();
    };
    for (at, it) in &items {
        if tg.contains(at) {
            flush(&mut block, &mut out);
        }
        if fixed(&it.insn) {
            flush(&mut block, &mut out);
            out.extend_from_slice(&it.words);
        } else {
            block.push(it);
        }
    }
    flush(&mut block, &mut out);
    Ok(Scheduled {
        code: out,
        moved,
        blocks,
    })
}
