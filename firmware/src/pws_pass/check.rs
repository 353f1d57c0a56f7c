//! What the region of a kept split must not hold: an `s_barrier` (assumption A22,
//! docs/assumptions.md#A22), a scalar value that is live after the join (A13,
//! docs/assumptions.md#A13: the merge keeps the parent's scalar registers), or a scalar value the
//! then-arm passes to the else-arm (after a split the halves have separate scalar registers, so the
//! else half would read the value from before the if, where the serialised run reads the
//! then-arm's).
//!
//! The region of an if is everything between its head and its join: the then-arm, the
//! else-head and the else-arm, opaque loops and nested ifs included. Liveness after the join is
//! a linear forward scan from the instruction after the join (the pass's `s_waitcnt 0; merge`
//! touch no scalar register) to the end of the code: the first access of a register decides, a
//! read makes it live, a write dead. The join itself runs in each half before the merge, so its
//! writes (SCC) are the parent's own and count as the first write; its read of the save pair
//! (rewritten by the else-head) is the EXEC restore A13 allows. Loops after the join are
//! scanned once in address order, which is enough for the uniform loops of the kernels here. For
//! an if inside a loop (loops parsed, `Marks::Auto`) the scan also goes round every back edge
//! that encloses it: from the join to the back edge, then from the loop's header to the if.

use std::collections::{BTreeMap, BTreeSet};
use std::ops::Range;

use super::error::PassError;
use super::scalar::{ScalarAccess, Sreg};
use super::structure::{IfInfo, Insn, Kstruct};
use crate::isa::Op;

/// Checks every kept split (if ids, `kept`) for barriers first, then for live-out scalars.
pub(crate) fn check_kept(ks: &Kstruct, kept: &BTreeSet<usize>) -> Result<(), PassError> {
    for &id in kept {
        no_barrier(ks, &ks.ifs()[id])?;
    }
    for &id in kept {
        no_live_out(ks, &ks.ifs()[id])?;
        no_cross_arm(ks, &ks.ifs()[id])?;
    }
    Ok(())
}

/// Why if `f` cannot be split safely (the first of the checks [`check_kept`] makes, and a
/// condition `split` cannot name), or `None`.
pub(crate) fn refusal(ks: &Kstruct, f: &IfInfo) -> Option<String> {
    if super::pat::split_of(f.cond).is_none() && f.split.is_none() {
        return Some("the condition is not a register pair split can name".to_string());
    }
    [no_barrier(ks, f), no_live_out(ks, f), no_cross_arm(ks, f)]
        .into_iter()
        .find_map(Result::err)
        .map(|e| e.to_string())
}

/// The instructions between the if's head and its join (indices).
fn region(f: &IfInfo) -> Range<usize> {
    f.then_range().start..f.join
}

/// [`PassError::BarrierInSplit`] for the first `s_barrier` in the region.
fn no_barrier(ks: &Kstruct, f: &IfInfo) -> Result<(), PassError> {
    match ks.insns()[region(f)]
        .iter()
        .find(|i| i.insn.op == Op::SBarrier)
    {
        Some(i) => Err(PassError::BarrierInSplit { pc: i.pc }),
        None => Ok(()),
    }
}

/// The scalar registers `range` writes, each with the pc of its last write.
fn writes_in(ks: &Kstruct, range: Range<usize>) -> BTreeMap<Sreg, u32> {
    let mut written = BTreeMap::new();
    for i in &ks.insns()[range] {
        for r in ScalarAccess::of(&i.insn).writes {
            written.insert(r, i.pc);
        }
    }
    written
}

/// The first read in `insns` of a register of `written` that neither `dead` nor an earlier
/// instruction of `insns` has written: the register and the reading instruction's pc.
fn first_read(
    insns: &[Insn],
    written: &BTreeMap<Sreg, u32>,
    mut dead: BTreeSet<Sreg>,
) -> Option<(Sreg, u32)> {
    for i in insns {
        if written.keys().all(|r| dead.contains(r)) {
            return None;
        }
        let a = ScalarAccess::of(&i.insn);
        let read = a
            .reads
            .iter()
            .find(|r| !dead.contains(*r) && written.contains_key(*r));
        if let Some(&r) = read {
            return Some((r, i.pc));
        }
        dead.extend(a.writes);
    }
    None
}

/// [`PassError::ScalarAcrossArms`] for the first read in the else path (else-head and
/// else-arm, in address order) of a register the then-arm writes and the else path has not
/// written yet.
fn no_cross_arm(ks: &Kstruct, f: &IfInfo) -> Result<(), PassError> {
    let Some(else_head) = f.else_head else {
        return Ok(());
    };
    let written = writes_in(ks, f.then_range());
    let insns = ks.insns();
    match first_read(&insns[else_head..f.join], &written, BTreeSet::new()) {
        Some((r, read_pc)) => Err(PassError::ScalarAcrossArms {
            pc: insns[f.and].pc,
            reg: r.name(),
            write_pc: written[&r],
            read_pc,
        }),
        None => Ok(()),
    }
}

/// [`PassError::ScalarLiveOut`] for the first read after the join of a register the region
/// writes and nothing after the join has written yet: on the way to the end, and, for an if
/// inside a loop, around each back edge that encloses it (join to back edge, then the loop's
/// header up to the if's head, the next iteration).
fn no_live_out(ks: &Kstruct, f: &IfInfo) -> Result<(), PassError> {
    let written = writes_in(ks, region(f));
    let insns = ks.insns();
    let dead = ScalarAccess::of(&insns[f.join].insn).writes;
    let around = insns.iter().enumerate().filter_map(|(b, i)| {
        let t = i.target.filter(|&t| t <= f.and && b > f.join)?;
        Some([&insns[f.join + 1..=b], &insns[t..f.and]].concat())
    });
    let paths = std::iter::once(insns[f.join + 1..].to_vec()).chain(around);
    let found = paths
        .filter_map(|p| first_read(&p, &written, dead.clone()))
        .next();
    match found {
        Some((r, read_pc)) => Err(PassError::ScalarLiveOut {
            pc: insns[f.and].pc,
            reg: r.name(),
            write_pc: written[&r],
            read_pc,
        }),
        None => Ok(()),
    }
}
