//! [`unrotate`]: clang-14's rotated loop layout, laid out in address order. clang places a
//! loop's latch (the block holding the join of an if in the body, the counter update and the
//! exit test) *before* the loop's header and enters the loop with an `s_branch` over it:
//!
//! ```text
//!     s_branch H              ; p: enter the loop at its header
//! J:  s_or_b64 exec, exec, sY ; the latch: the body's join, the update, ...
//!     ...
//!     s_cbranch_scc1 X        ; H - 1: the exit test (any conditional branch)
//! H:  ...                     ; the header and the body, with an if whose arms
//!     s_branch J              ; b: end at J (the back edge)
//! X:  ...                     ; b + 1: the exit
//! ```
//!
//! An if in the body then has its join before its head, which the structured parse cannot
//! read. This step moves the latch after the body (`p` and `b` go; the exit test becomes its
//! inverse, a back edge to H, and falls through to X): `H: body; J: latch; s_cbranch_scc0 H;
//! X:`, the layout clang uses for loops it does not rotate. The moved code runs in the same
//! order on every path. Applied only where it is exact: `p` an `s_branch` forward to H, the
//! latch free of other branches, H - 1 a conditional branch to X = b + 1, `b` an `s_branch`
//! to J, and no branch from outside `[H, b]` into the latch, none but to J from inside, none to `p`
//! or `b`.
//!
//! The result maps every output pc back to the pc the instruction had in the input, so the
//! pass reports clang's addresses.

use std::collections::BTreeMap;

use super::error::PassError;
use super::parse::decode_all;
use super::pat;
use crate::isa::{Instruction, Op};

/// The code with its rotated loops laid out in order, and per output pc the input pc.
pub(crate) struct Unrotated {
    /// The code words.
    pub code: Vec<u32>,
    /// Output pc → input pc, for every instruction.
    pub pc_map: BTreeMap<u32, u32>,
}

/// Lays every rotated loop of `code` out in order (see the module documentation).
pub(crate) fn unrotate(code: &[u32]) -> Result<Unrotated, PassError> {
    let insns = decode_all(code)?;
    // (instruction, its input pc, target as an index into `order`)
    let mut order: Vec<(Instruction, u32, Option<usize>)> =
        insns.iter().map(|i| (i.insn, i.pc, i.target)).collect();
    while let Some(r) = find(&order) {
        order = apply(&order, &r);
    }
    layout(&order)
}

/// One rotated loop: the entry branch p, the latch's first instruction J = p + 1, the
/// header H, the back edge b.
struct Rotated {
    p: usize,
    h: usize,
    b: usize,
}

/// The first rotated loop of `order`, if any.
fn find(order: &[(Instruction, u32, Option<usize>)]) -> Option<Rotated> {
    let n = order.len();
    (0..n).find_map(|p| {
        let (i, _, t) = &order[p];
        let h = (*t)?;
        if i.op != Op::SBranch || h < p + 2 {
            return None;
        }
        let j = p + 1;
        let (exit, _, x) = &order[h - 1];
        let b = (h..n).find(|&b| order[b].0.op == Op::SBranch && order[b].2 == Some(j))?;
        let ok = inverse(exit.op).is_some()
            && *x == Some(b + 1)
            && order[j..h - 1].iter().all(|(i, _, _)| !pat::is_branch(i))
            && order.iter().enumerate().all(|(k, (_, _, t))| {
                let into = t.is_some_and(|t| (j..h).contains(&t) || t == p || t == b);
                !into || (h..=b).contains(&k) && *t == Some(j)
            });
        ok.then_some(Rotated { p, h, b })
    })
}

/// The conditional branch taken exactly when `op` is not.
fn inverse(op: Op) -> Option<Op> {
    Some(match op {
        Op::SCbranchScc0 => Op::SCbranchScc1,
        Op::SCbranchScc1 => Op::SCbranchScc0,
        Op::SCbranchVccz => Op::SCbranchVccnz,
        Op::SCbranchVccnz => Op::SCbranchVccz,
        Op::SCbranchExecz => Op::SCbranchExecnz,
        Op::SCbranchExecnz => Op::SCbranchExecz,
        _ => return None,
    })
}

/// `order` with loop `r` laid out in order: `..p, H..b, J..H-1, inverse(H-1) → H, b+1..`.
fn apply(
    order: &[(Instruction, u32, Option<usize>)],
    r: &Rotated,
) -> Vec<(Instruction, u32, Option<usize>)> {
    let (p, j, h, b) = (r.p, r.p + 1, r.h, r.b);
    let seq: Vec<usize> = (0..p)
        .chain(h..b)
        .chain(j..h)
        .chain(b + 1..order.len())
        .collect();
    let mut new_of = vec![usize::MAX; order.len()];
    for (new, &old) in seq.iter().enumerate() {
        new_of[old] = new;
    }
    seq.iter()
        .map(|&old| {
            let (mut insn, pc, t) = order[old];
            let mut target = t.map(|t| new_of[t]);
            if old == h - 1 {
                insn.op = inverse(insn.op).expect("checked by find");
                target = Some(new_of[h]);
            }
            (insn, pc, target)
        })
        .collect()
}

/// Encodes `order` with its branch offsets; the output pc → input pc map.
fn layout(order: &[(Instruction, u32, Option<usize>)]) -> Result<Unrotated, PassError> {
    let mut pcs = Vec::with_capacity(order.len());
    let mut pc = 0u32;
    for (i, _, _) in order {
        pcs.push(pc);
        pc += 4 * i.dwords() as u32;
    }
    let mut code = Vec::with_capacity(pc as usize / 4);
    let mut pc_map = BTreeMap::new();
    for (k, (insn, input_pc, t)) in order.iter().enumerate() {
        let mut insn = *insn;
        if let Some(t) = t {
            let offset = (i64::from(pcs[*t]) - i64::from(pcs[k]) - 4) / 4;
            let simm = i16::try_from(offset)
                .map_err(|_| PassError::OffsetOverflow { pc: pcs[k], offset })?;
            insn.imm = u32::from(simm as u16);
        }
        code.extend(insn.encode().map_err(|e| PassError::Encode {
            pc: pcs[k],
            msg: e.to_string(),
        })?);
        pc_map.insert(pcs[k], *input_pc);
    }
    Ok(Unrotated { code, pc_map })
}
