//! [`compile`]: P, the kept split points, the rewrite; [`listing`].

use std::collections::{BTreeMap, BTreeSet};

use rtgpu_wcet::pws::select::select;

use super::check;
use super::error::PassError;
use super::pat;
use super::rewrite::{Edits, Node};
use super::structure::{IfInfo, Kstruct, Owner};
use crate::isa::disassemble;

/// Which splits the pass keeps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PassMode {
    /// No splitting: every `split` and `merge` is removed.
    NoSplit,
    /// DWS: every split point of P is kept; the hardware decides at run time.
    Dws,
    /// PWS: the split points SELECT chooses among P for S SWF contexts (Algorithm 1).
    Pws,
}

/// Which ifs are the split points P (step 2 of the PWS paper's compiler flow, Fig. 6: the
/// programmer marks them).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Marks {
    /// The ifs the kernel marks with a `split`.
    #[default]
    Source,
    /// The marked ifs and every two-armed if (DWS's "every divergent branch").
    All,
    /// The marked ifs and the n shallowest two-armed ifs (nesting depth, then address): the
    /// paper's synthetic benchmark annotates "as many split points as there are SpSIMD
    /// units", and with S = 3 on a binary tree of ifs that is the root and both level-1 ifs.
    Shallowest(usize),
    /// Compiled kernels (no marks of their own): every two-armed if that can be split safely,
    /// and every one-armed if inside a loop body that can (the PWS paper's bfs pattern,
    /// docs/assumptions.md#A63). An if whose region holds an `s_barrier`, writes a scalar
    /// register read after the join or by the else path, or whose condition `split` cannot
    /// name is left unsplit, and so is a one-armed if outside loops (no gain,
    /// docs/assumptions.md#A17) and a loop's exits; each is listed in [`PassReport::refused`]
    /// with the reason. No refusal is an error.
    Auto,
}

/// Options of [`compile`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PassOptions {
    /// Which splits to keep.
    pub mode: PassMode,
    /// S, the SWF contexts per wavefront (SELECT's budget, used in [`PassMode::Pws`]).
    pub s: usize,
    /// Which ifs are marked (P).
    pub marks: Marks,
}

/// What [`compile`] did. "if pc" means the address of the if's `s_and_saveexec_b64` in the
/// input code.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PassReport {
    /// P, the marked ifs (if pcs), in address order.
    pub p: Vec<u32>,
    /// Removed `split`s: input pc and why.
    pub removed_splits: Vec<(u32, String)>,
    /// Removed `merge`s (input pcs): all of them; the pass inserts its own.
    pub removed_merges: Vec<u32>,
    /// The kept `split`s, as pcs in the output code.
    pub kept_splits: Vec<u32>,
    /// The kept split points (if pcs): SB for PWS, P for DWS, none without splitting.
    pub sb: Vec<u32>,
    /// PWS: the ifs of P that SELECT rejected (if pcs).
    pub rejected: Vec<u32>,
    /// PWS: swfCount, the SWF contexts SELECT allocated (docs/assumptions.md#A24); 0 in the other
    /// modes.
    pub swf_count: usize,
    /// |SB|, the number of kept split points.
    pub n_sb: usize,
    /// Number of `s_cbranch_execz` skips inserted (docs/assumptions.md#A16).
    pub inserted_execz: usize,
    /// Number of `s_waitcnt 0` inserted (docs/assumptions.md#A11).
    pub inserted_waitcnt: usize,
    /// Number of `merge`s inserted (one per kept split).
    pub inserted_merge: usize,
    /// Warnings, e.g. a split on a one-armed if (docs/assumptions.md#A17).
    pub warnings: Vec<String>,
    /// [`Marks::Auto`]: the ifs (if pcs) and loops (pcs of their back edges) left unsplit,
    /// each with the reason, in address order.
    pub refused: Vec<(u32, String)>,
}

/// The output of [`compile`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Compiled {
    /// The code words (entry pc 0).
    pub code: Vec<u32>,
    /// The structure of the output code.
    pub structure: Kstruct,
    /// What the pass did.
    pub report: PassReport,
}

/// Runs the PWS pass on `code` (entry pc 0): see the module documentation.
///
/// [`Marks::Auto`] parses the ifs inside loops too; when it keeps none of them (or fails), the
/// kernel is compiled again with its loops opaque and in clang's layout (the same code as
/// before loops were parsed), with the first run's refusals, which name the ifs inside loops.
pub fn compile(code: &[u32], opts: &PassOptions) -> Result<Compiled, PassError> {
    if opts.marks != Marks::Auto {
        return compile_with(code, opts, false).map(|(c, _)| c);
    }
    let refused = match compile_with(code, opts, true) {
        Ok((c, true)) => return Ok(c),
        Ok((c, false)) => Some(c.report.refused),
        Err(_) => None,
    };
    let (mut plain, _) = compile_with(code, opts, false)?;
    if let Some(r) = refused {
        plain.report.refused = r;
    }
    Ok(plain)
}

/// [`compile`], parsing the ifs inside loops when `loops`; whether a kept split is inside a
/// loop.
fn compile_with(
    code: &[u32],
    opts: &PassOptions,
    loops: bool,
) -> Result<(Compiled, bool), PassError> {
    let closed = super::close::close_at_end(code)?;
    let mut report = PassReport::default();
    let (ks, pc_map) = structure_of(&closed, loops, &mut report)?;
    let p = split_points(&ks, opts, &mut report);
    let kept = choose(&ks, &p, opts, &mut report)?;
    let in_loop = kept.iter().any(|&id| inside_loop(&ks, &ks.ifs()[id]));
    check::check_kept(&ks, &kept)?;
    let mut ed = Edits::new(&ks);
    for k in ks.stray_splits() {
        report
            .removed_splits
            .push((k, "not before a branch".to_string()));
        ed.drop(idx(&ks, k));
    }
    for k in ks.stray_merges() {
        report.removed_merges.push(k);
        ed.drop(idx(&ks, k));
    }
    let why = removal_reason(opts);
    for id in (0..ks.n_ifs()).rev() {
        let keep = kept.contains(&id);
        place(&ks, id, keep, &why, &mut ed, &mut report)?;
        if keep || in_kept_region(&ks, id, &kept) {
            add_skips(&ks.ifs()[id], &mut ed, &mut report);
        }
    }
    report.removed_splits.sort();
    report.removed_merges.sort();
    let out = ed.layout()?;
    let structure = match pc_map {
        Some(_) => Kstruct::parse_loops(&out)?,
        None => Kstruct::parse(&out)?,
    };
    if let Some(m) = &pc_map {
        to_input_pcs(&mut report, m);
    }
    report.kept_splits = structure
        .marked()
        .iter()
        .filter_map(|&u| structure.split_pc(u))
        .collect();
    let c = Compiled {
        code: out,
        structure,
        report,
    };
    Ok((c, in_loop))
}

/// If `f` lies inside a loop (between a back edge's target and the back edge).
fn inside_loop(ks: &Kstruct, f: &IfInfo) -> bool {
    ks.insns()
        .iter()
        .enumerate()
        .any(|(b, i)| i.target.is_some_and(|t| t <= f.and && b > f.join))
}

/// The structure the pass works on. With `loops`, clang's rotated loops are laid out in order
/// (`super::rotate`) and the ifs inside loops parsed ([`Kstruct::parse_loops`]), with the map
/// from that code's pcs back to the input's. When that parse fails (say, a branch into an
/// if), and without `loops`, loops are opaque ([`Kstruct::parse`]).
fn structure_of(
    closed: &[u32],
    loops: bool,
    report: &mut PassReport,
) -> Result<(Kstruct, Option<BTreeMap<u32, u32>>), PassError> {
    if !loops {
        return Ok((Kstruct::parse(closed)?, None));
    }
    let Ok(u) = super::rotate::unrotate(closed) else {
        return Ok((Kstruct::parse(closed)?, None));
    };
    match Kstruct::parse_loops(&u.code) {
        Ok(ks) => Ok((ks, Some(u.pc_map))),
        Err(e) => {
            let ks = Kstruct::parse(closed)?;
            let at = ks.back_edges().first().copied().unwrap_or(0);
            report.refused.push((
                at,
                format!("loops stay opaque, the ifs inside them masked: {e}"),
            ));
            Ok((ks, None))
        }
    }
}

/// Rewrites the report's input pcs (of the code with its loops laid out in order) as the
/// pcs of the pass's input.
fn to_input_pcs(report: &mut PassReport, map: &BTreeMap<u32, u32>) {
    let at = |pc: &mut u32| *pc = map.get(pc).copied().unwrap_or(*pc);
    report.p.iter_mut().for_each(at);
    report.removed_merges.iter_mut().for_each(at);
    report.sb.iter_mut().for_each(at);
    report.rejected.iter_mut().for_each(at);
    report.removed_splits.iter_mut().for_each(|(pc, _)| at(pc));
    report.refused.iter_mut().for_each(|(pc, _)| at(pc));
    for v in [&mut report.p, &mut report.sb, &mut report.rejected] {
        v.sort();
    }
    report.refused.sort();
}

fn idx(ks: &Kstruct, pc: u32) -> usize {
    ks.index_of(pc).expect("pc from the same structure")
}

fn pc(ks: &Kstruct, k: usize) -> u32 {
    ks.insns()[k].pc
}

/// Nesting depth of if `id` (0: not inside another if).
fn depth(ks: &Kstruct, id: usize) -> usize {
    std::iter::successors(ks.ifs()[id].parent, |&p| ks.ifs()[p].parent).count()
}

/// The ifs [`Marks`] adds to the kernel's own marks: two-armed ifs, and for [`Marks::Auto`]
/// the one-armed ifs inside loops too (docs/assumptions.md#A63).
fn extra_marks(ks: &Kstruct, marks: Marks) -> BTreeSet<usize> {
    let mut two: Vec<usize> = (0..ks.n_ifs())
        .filter(|&id| !ks.ifs()[id].one_armed())
        .collect();
    match marks {
        Marks::Source => BTreeSet::new(),
        Marks::All => two.into_iter().collect(),
        Marks::Auto => (0..ks.n_ifs())
            .filter(|&id| !ks.ifs()[id].one_armed() || inside_loop(ks, &ks.ifs()[id]))
            .collect(),
        Marks::Shallowest(n) => {
            two.sort_by_key(|&id| (depth(ks, id), id));
            two.into_iter().take(n).collect()
        }
    }
}

/// P: the marked ifs, plus those [`Marks`] adds; warns about marked one-armed ifs
/// (docs/assumptions.md#A17).
fn split_points(ks: &Kstruct, opts: &PassOptions, report: &mut PassReport) -> Vec<usize> {
    let mut p = Vec::new();
    let mut extra = extra_marks(ks, opts.marks);
    if opts.marks == Marks::Auto {
        refuse(ks, &mut extra, report);
    }
    for (id, f) in ks.ifs().iter().enumerate() {
        let marked = f.split.is_some();
        if marked && f.one_armed() {
            report.warnings.push(format!(
                "{:#06x}: split on a one-armed if costs e_s + e_m for no WCET gain \
                 (docs/assumptions.md#A17)",
                pc(ks, f.and)
            ));
        }
        if marked || extra.contains(&id) {
            p.push(id);
            report.p.push(pc(ks, f.and));
        }
    }
    p
}

/// [`Marks::Auto`]: removes from `cand` the ifs that cannot be split safely and lists them,
/// the one-armed ifs outside loops and the loops (their exits) in [`PassReport::refused`].
fn refuse(ks: &Kstruct, cand: &mut BTreeSet<usize>, report: &mut PassReport) {
    for (id, f) in ks.ifs().iter().enumerate() {
        let why = if f.one_armed() && !inside_loop(ks, f) {
            Some("one-armed if: a split gains nothing (docs/assumptions.md#A17)".to_string())
        } else {
            check::refusal(ks, f)
        };
        if let Some(why) = why {
            cand.remove(&id);
            report.refused.push((pc(ks, f.and), why));
        }
    }
    let why = if ks.loops_structured() {
        "loop (back edge): its exits stay masked (docs/assumptions.md#A63)"
    } else {
        "loop (back edge): its exits and the ifs inside it stay masked"
    };
    for b in ks.back_edges() {
        report.refused.push((b, why.to_string()));
    }
    report.refused.sort();
}

/// The kept split points K among P (if ids).
fn choose(
    ks: &Kstruct,
    p: &[usize],
    opts: &PassOptions,
    report: &mut PassReport,
) -> Result<BTreeSet<usize>, PassError> {
    let kept: BTreeSet<usize> = match opts.mode {
        PassMode::NoSplit => BTreeSet::new(),
        PassMode::Dws => p.iter().copied().collect(),
        PassMode::Pws => {
            let zeros = vec![0; ks.n_blocks()];
            let bsb = ks.costed(&zeros, &zeros)?;
            let of_bsb: BTreeMap<usize, usize> = p
                .iter()
                .map(|&id| (bsb.from_conv(ks.ifs()[id].block), id))
                .collect();
            let marked: Vec<usize> = of_bsb.keys().copied().collect();
            let sel = select(&bsb, &marked, opts.s);
            report.rejected = sel.rejected.iter().map(|b| if_pc(ks, of_bsb[b])).collect();
            report.swf_count = sel.swf_count;
            sel.sb.iter().map(|b| of_bsb[b]).collect()
        }
    };
    report.sb = kept.iter().map(|&id| if_pc(ks, id)).collect();
    report.sb.sort();
    report.rejected.sort();
    report.n_sb = kept.len();
    Ok(kept)
}

fn if_pc(ks: &Kstruct, id: usize) -> u32 {
    pc(ks, ks.ifs()[id].and)
}

fn removal_reason(opts: &PassOptions) -> String {
    match opts.mode {
        PassMode::NoSplit => "no-split mode".to_string(),
        PassMode::Dws => "not kept".to_string(),
        PassMode::Pws => format!("not selected by SELECT with S = {}", opts.s),
    }
}

/// Some enclosing if of `id` is kept.
fn in_kept_region(ks: &Kstruct, id: usize, kept: &BTreeSet<usize>) -> bool {
    let mut at = ks.ifs()[id].parent;
    while let Some(p) = at {
        if kept.contains(&p) {
            return true;
        }
        at = ks.ifs()[p].parent;
    }
    false
}

/// Removes the if's own split/merge and, when kept, lays out its split, arm-closing waits and
/// merge.
fn place(
    ks: &Kstruct,
    id: usize,
    keep: bool,
    why: &str,
    ed: &mut Edits,
    report: &mut PassReport,
) -> Result<(), PassError> {
    let f = &ks.ifs()[id];
    for k in [f.merge_wait, f.merge].into_iter().flatten() {
        ed.drop(k);
    }
    report.removed_merges.extend(f.merge.map(|k| pc(ks, k)));
    if !keep {
        for k in [f.split_wait, f.split].into_iter().flatten() {
            ed.drop(k);
        }
        if let Some(s) = f.split {
            report.removed_splits.push((pc(ks, s), why.to_string()));
        }
        return Ok(());
    }
    place_split(ks, f, ed, report)?;
    let mut arms = vec![f.then_range()];
    arms.extend(f.else_range());
    for r in arms.into_iter().filter(|r| !r.is_empty()) {
        if !ed.waits_before(r.end) {
            ed.before(r.end, Node::plain(pat::waitcnt0()));
            report.inserted_waitcnt += 1;
        }
    }
    ed.after(f.join, Node::plain(pat::waitcnt0()));
    ed.after(f.join, Node::plain(pat::merge()));
    report.inserted_waitcnt += 1;
    report.inserted_merge += 1;
    Ok(())
}

/// `s_waitcnt 0; split` before the `s_and_saveexec_b64` (the split's own operands kept).
fn place_split(
    ks: &Kstruct,
    f: &IfInfo,
    ed: &mut Edits,
    report: &mut PassReport,
) -> Result<(), PassError> {
    match (f.split, f.split_wait) {
        (Some(_), Some(_)) => {}
        (Some(s), None) => {
            ed.before(s, Node::plain(pat::waitcnt0()));
            report.inserted_waitcnt += 1;
        }
        (None, _) => {
            let split = pat::split_of(f.cond).ok_or(PassError::Unstructured {
                pc: pc(ks, f.and),
                reason: "the if's condition is not a register pair split can name",
            })?;
            ed.before(f.and, Node::plain(pat::waitcnt0()));
            ed.before(f.and, Node::plain(split));
            report.inserted_waitcnt += 1;
        }
    }
    Ok(())
}

/// The execz skips over both arms (docs/assumptions.md#A16), where missing.
fn add_skips(f: &IfInfo, ed: &mut Edits, report: &mut PassReport) {
    if f.then_skip.is_none() {
        let head_last = f.xor.unwrap_or(f.and);
        ed.after(head_last, Node::skip_to(f.else_head.unwrap_or(f.join)));
        report.inserted_execz += 1;
    }
    if let (Some(e), None) = (f.else_head, f.else_skip) {
        ed.after(e + 1, Node::skip_to(f.join));
        report.inserted_execz += 1;
    }
}

/// The compiled code as text: a label before every branch target, each instruction with its
/// address, words, owner (`B<u>` for a block, `BSB<u>` for an else-head) and, for a branch,
/// its target label.
pub fn listing(c: &Compiled) -> String {
    let Ok(lines) = disassemble(&c.code) else {
        return "; undecodable code".to_string();
    };
    let target = |k: usize| c.structure.insns()[k].target;
    let labels: BTreeSet<usize> = (0..lines.len()).filter_map(target).collect();
    let mut out = String::new();
    for (k, line) in lines.iter().enumerate() {
        if labels.contains(&k) {
            out.push_str(&format!("L{k}:\n"));
        }
        let owner = match c.structure.owners()[k].1 {
            Owner::Block(u) => format!("B{u}"),
            Owner::Bsb(u) => format!("BSB{u}"),
        };
        let to = target(k).map_or(String::new(), |t| format!(" -> L{t}"));
        out.push_str(&format!("    {line} ; {owner}{to}\n"));
    }
    out
}
