//! Decoding and the recursive-descent parse of a kernel into plain stretches and masked ifs
//! (GCN's masked-if lowering; the rules are in [`super::Kstruct`]).

use super::error::PassError;
use super::pat;
use super::structure::{IfInfo, Insn};
use crate::isa::{decode, Operand};

/// A structured item of an arm (or of the whole kernel).
#[derive(Clone, Debug)]
pub(crate) enum Item {
    /// Consecutive instructions outside if heads and else-heads (indices).
    Plain(Vec<usize>),
    /// A masked if: its index in the if list and its arms.
    If {
        /// Index into the if list.
        id: usize,
        /// Then-arm items.
        then: Vec<Item>,
        /// Else-arm items (empty for a one-armed if).
        els: Vec<Item>,
    },
}

/// Decodes `code` (entry pc 0) and resolves the SOPP branch targets to instruction indices.
pub(crate) fn decode_all(code: &[u32]) -> Result<Vec<Insn>, PassError> {
    let mut out = Vec::new();
    let mut at = 0;
    while at < code.len() {
        let pc = 4 * at as u32;
        let (insn, len) = decode(&code[at..]).map_err(|e| PassError::Decode {
            pc,
            msg: e.to_string(),
        })?;
        out.push(Insn {
            pc,
            insn,
            target: None,
        });
        at += len;
    }
    for k in 0..out.len() {
        if pat::is_branch(&out[k].insn) {
            out[k].target = Some(resolve(&out, k)?);
        }
    }
    Ok(out)
}

/// The index of the instruction the branch `k` targets (`pc + 4 + 4·simm16`).
fn resolve(insns: &[Insn], k: usize) -> Result<usize, PassError> {
    let pc = insns[k].pc;
    let target = i64::from(pc) + 4 + 4 * i64::from(insns[k].insn.imm as u16 as i16);
    let outside = PassError::TargetOutside { pc, target };
    let t = u32::try_from(target).map_err(|_| outside.clone())?;
    match insns.binary_search_by_key(&t, |i| i.pc) {
        Ok(j) => Ok(j),
        Err(j) if j >= insns.len() => Err(outside),
        Err(_) => Err(PassError::TargetMidInstruction { pc, target: t }),
    }
}

/// Exactly one `s_endpgm`, the last instruction; no indirect branch.
pub(crate) fn check_exits(insns: &[Insn]) -> Result<(), PassError> {
    let last = insns.last().ok_or(PassError::Empty)?;
    for i in insns {
        if pat::is_indirect(&i.insn) {
            return Err(PassError::Indirect { pc: i.pc });
        }
        if i.insn.op == crate::isa::Op::SEndpgm && i.pc != last.pc {
            return Err(PassError::EarlyExit { pc: i.pc });
        }
    }
    if last.insn.op != crate::isa::Op::SEndpgm {
        return Err(PassError::FallsOffEnd { pc: last.pc });
    }
    Ok(())
}

/// Per instruction: covered by a loop, i.e. by `[target, branch]` of a backward branch.
pub(crate) fn loop_cover(insns: &[Insn]) -> Vec<bool> {
    let mut delta = vec![0i64; insns.len() + 1];
    for (b, i) in insns.iter().enumerate() {
        if let Some(t) = i.target.filter(|&t| t <= b) {
            delta[t] += 1;
            delta[b + 1] -= 1;
        }
    }
    let mut depth = 0;
    delta[..insns.len()]
        .iter()
        .map(|d| {
            depth += d;
            depth > 0
        })
        .collect()
}

/// The head of an if found at some index.
struct Head {
    split_wait: Option<usize>,
    split: Option<usize>,
    and: usize,
}

/// What the parse found besides the items.
#[derive(Default)]
pub(crate) struct Found {
    /// The ifs in pre-order (address order of their heads).
    pub ifs: Vec<IfInfo>,
    /// Splits not directly before an if (indices).
    pub stray_splits: Vec<usize>,
    /// Merges not directly after a join (indices).
    pub stray_merges: Vec<usize>,
    /// Branches that are not if-skips (indices): loops and other opaque control flow.
    pub opaque_branches: Vec<usize>,
}

/// The parser state.
pub(crate) struct Parser<'a> {
    insns: &'a [Insn],
    in_loop: Vec<bool>,
    /// Loops are structured code: ifs inside them are parsed, and every branch that is not an
    /// if-skip must land on an item boundary of its own sequence (else loops are opaque).
    loops: bool,
    /// The result besides the items.
    pub found: Found,
}

/// The scan state of one sequence.
struct Seq {
    lo: usize,
    items: Vec<Item>,
    plain: Vec<usize>,
    /// Instructions before this index are inside an opaque forward branch.
    opaque_until: usize,
    /// Loops structured: the indices where an item of this sequence starts (a plain
    /// instruction other than a join, an if's head), and the forward branch targets still to
    /// be found among them (with the branch's index).
    starts: Vec<usize>,
    pending: Vec<(usize, usize)>,
}

impl Seq {
    fn flush(&mut self) {
        if !self.plain.is_empty() {
            self.items
                .push(Item::Plain(std::mem::take(&mut self.plain)));
        }
    }
}

impl<'a> Parser<'a> {
    /// A parser over decoded instructions (targets resolved, exits checked); with `loops`,
    /// the ifs inside loops are parsed too.
    pub fn new(insns: &'a [Insn], loops: bool) -> Self {
        Parser {
            insns,
            in_loop: if loops {
                vec![false; insns.len()]
            } else {
                loop_cover(insns)
            },
            loops,
            found: Found::default(),
        }
    }

    /// Parses the whole kernel.
    pub fn kernel(&mut self) -> Result<Vec<Item>, PassError> {
        let (items, _) = self.seq(0, self.insns.len(), &[], None)?;
        Ok(items)
    }

    fn get(&self, k: usize) -> Option<&crate::isa::Instruction> {
        self.insns.get(k).map(|i| &i.insn)
    }

    fn pc(&self, k: usize) -> u32 {
        self.insns[k].pc
    }

    fn unstructured(&self, k: usize, reason: &'static str) -> PassError {
        PassError::Unstructured {
            pc: self.pc(k),
            reason,
        }
    }

    /// Whether instruction `k` satisfies `f` and is not inside a loop.
    fn is(&self, k: usize, f: impl Fn(&crate::isa::Instruction) -> bool) -> bool {
        self.get(k).is_some_and(f) && !self.in_loop[k]
    }

    /// Instruction `k` closes the if saving into `save` (its else-head or its join).
    fn closes(&self, k: usize, save: Operand) -> bool {
        self.get(k)
            .is_some_and(|i| pat::or_saveexec(i, save).is_some() || pat::is_join(i, save))
    }

    /// clang's early exit at `k`, at the top level: `s_and_saveexec_b64 sX, cond;
    /// s_cbranch_execz END` with END the final `s_endpgm`. The lanes it masks off are done, EXEC
    /// is never restored (the kernel has no join for it; clang reuses sX), so both instructions
    /// are plain code and the branch opens no opaque region.
    fn exit_mask(&self, k: usize) -> bool {
        let last = self.insns.len() - 1;
        self.is(k, |x| pat::and_saveexec(x).is_some())
            && self.is(k + 1, pat::is_execz)
            && self.insns[k + 1].target == Some(last)
    }

    /// Parses `lo..hi` until the closer of the innermost open if (`open.last()`); returns the
    /// items and the index where it stopped (`hi` when no closer was found).
    fn seq(
        &mut self,
        lo: usize,
        hi: usize,
        open: &[Operand],
        parent: Option<usize>,
    ) -> Result<(Vec<Item>, usize), PassError> {
        let mut s = Seq {
            lo,
            items: Vec::new(),
            plain: Vec::new(),
            opaque_until: lo,
            starts: Vec::new(),
            pending: Vec::new(),
        };
        let mut i = lo;
        while i < hi {
            let opaque = i < s.opaque_until || self.in_loop[i];
            if open.last().is_some_and(|&o| self.closes(i, o)) {
                if opaque {
                    return Err(self.unstructured(i, "a loop or branch crosses an if arm's end"));
                }
                break;
            }
            if !opaque && open.iter().any(|&o| self.closes(i, o)) {
                return Err(self.unstructured(i, "closes an outer if inside an inner arm"));
            }
            if !opaque && open.is_empty() && self.exit_mask(i) {
                s.starts.extend([i, i + 1]);
                s.plain.extend([i, i + 1]);
                i += 2;
                continue;
            }
            if !opaque {
                if let Some(h) = self.head(i) {
                    s.starts.push(i);
                    s.flush();
                    let (item, join_plain) = self.parse_if(h, hi, open, parent)?;
                    s.items.push(item);
                    i = join_plain.last().map_or(i, |&k| k + 1);
                    s.plain = join_plain;
                    continue;
                }
            }
            self.plain_insn(i, hi, opaque, &mut s)?;
            i += 1;
        }
        s.flush();
        if let Some(&(k, _)) = s
            .pending
            .iter()
            .find(|(_, t)| *t != i && !s.starts.contains(t))
        {
            return Err(self.unstructured(k, "a branch lands inside an if"));
        }
        Ok((s.items, i))
    }

    /// Records instruction `i` of a plain stretch.
    fn plain_insn(
        &mut self,
        i: usize,
        hi: usize,
        opaque: bool,
        s: &mut Seq,
    ) -> Result<(), PassError> {
        let ins = &self.insns[i];
        if pat::is_split(&ins.insn) {
            if opaque {
                return Err(PassError::SplitInLoop { pc: ins.pc });
            }
            self.found.stray_splits.push(i);
        } else if pat::is_merge(&ins.insn) {
            self.found.stray_merges.push(i);
        } else if let Some(t) = ins.target {
            if t > hi || t < s.lo {
                return Err(self.unstructured(i, "the branch leaves the arm it lies in"));
            }
            if !self.loops {
                s.opaque_until = s.opaque_until.max(t);
            } else if t > i {
                s.pending.push((i, t));
            } else if !s.starts.contains(&t) {
                return Err(self.unstructured(i, "a loop's back edge lands inside an if"));
            }
            self.found.opaque_branches.push(i);
        }
        s.starts.push(i);
        s.plain.push(i);
        Ok(())
    }

    /// The if head starting at `i`: `[s_waitcnt 0] [split] s_and_saveexec_b64`.
    fn head(&self, i: usize) -> Option<Head> {
        let and = |k: usize| self.is(k, |x| pat::and_saveexec(x).is_some());
        let split = |k: usize| self.is(k, pat::is_split);
        if self.is(i, pat::is_waitcnt0) && split(i + 1) && and(i + 2) {
            Some(Head {
                split_wait: Some(i),
                split: Some(i + 1),
                and: i + 2,
            })
        } else if split(i) && and(i + 1) {
            Some(Head {
                split_wait: None,
                split: Some(i),
                and: i + 1,
            })
        } else if and(i) {
            Some(Head {
                split_wait: None,
                split: None,
                and: i,
            })
        } else {
            None
        }
    }

    /// An optional if-skip at `k`: a forward `s_cbranch_execz` outside loops.
    fn skip_at(&self, k: usize) -> Option<usize> {
        let fwd = self.insns.get(k)?.target.is_some_and(|t| t > k);
        (fwd && self.is(k, pat::is_execz)).then_some(k)
    }

    /// Parses the if whose head is `h`; returns its item and the join's plain instructions
    /// (`s_or_b64 exec`, optional `s_waitcnt 0` + `merge`).
    fn parse_if(
        &mut self,
        h: Head,
        hi: usize,
        open: &[Operand],
        parent: Option<usize>,
    ) -> Result<(Item, Vec<usize>), PassError> {
        let (save, cond) = pat::and_saveexec(&self.insns[h.and].insn).expect("head checked");
        if open.contains(&save) {
            return Err(self.unstructured(h.and, "a nested if reuses its parent's save pair"));
        }
        let xor = Some(h.and + 1).filter(|&k| self.is(k, |x| pat::is_xor_save(x, save)));
        let mut k = xor.unwrap_or(h.and) + 1;
        let then_skip = self.skip_at(k);
        k += then_skip.is_some() as usize;
        let id = self.found.ifs.len();
        self.found.ifs.push(IfInfo::new(
            h.split_wait,
            h.split,
            h.and,
            save,
            cond,
            parent,
        ));
        let open2: Vec<Operand> = open.iter().copied().chain([save]).collect();
        let (then, e) = self.seq(k, hi, &open2, Some(id))?;
        if e >= hi {
            return Err(self.unstructured(h.and, "no matching else-head or join in the arm"));
        }
        let (els, join, else_skip) = if xor.is_some() {
            self.else_part(e, hi, save, open, id)?
        } else if pat::is_join(&self.insns[e].insn, save) {
            (Vec::new(), e, None)
        } else {
            return Err(self.unstructured(e, "else-head of a one-armed if (no s_xor_b64)"));
        };
        let then_end = if xor.is_some() { e } else { join };
        self.check_skip(then_skip, then_end)?;
        self.check_skip(else_skip, join)?;
        let (merge_wait, merge) = self.merge_after(join, hi);
        let else_save = pat::join_pair(&self.insns[join].insn).unwrap_or(save);
        let f = &mut self.found.ifs[id];
        f.else_save = else_save;
        f.xor = xor;
        f.then_skip = then_skip;
        f.else_head = xor.map(|_| e);
        f.else_skip = else_skip;
        f.join = join;
        f.merge_wait = merge_wait;
        f.merge = merge;
        let join_plain = [Some(join), merge_wait, merge]
            .into_iter()
            .flatten()
            .collect();
        Ok((Item::If { id, then, els }, join_plain))
    }

    /// The else-head at `e` and the else-arm up to the join.
    #[allow(clippy::type_complexity)]
    fn else_part(
        &mut self,
        e: usize,
        hi: usize,
        save: Operand,
        open: &[Operand],
        id: usize,
    ) -> Result<(Vec<Item>, usize, Option<usize>), PassError> {
        let Some(save) = pat::or_saveexec(&self.insns[e].insn, save) else {
            return Err(self.unstructured(
                e,
                "two-armed if (s_xor_b64 after s_and_saveexec_b64) without else-head",
            ));
        };
        if open.contains(&save) {
            return Err(self.unstructured(e, "an else-head saves into an enclosing if's pair"));
        }
        if !self.is(e + 1, |x| pat::is_xor_exec(x, save)) {
            return Err(self.unstructured(e, "s_or_saveexec_b64 not followed by s_xor_b64 exec"));
        }
        let else_skip = self.skip_at(e + 2);
        let k = e + 2 + else_skip.is_some() as usize;
        let open2: Vec<Operand> = open.iter().copied().chain([save]).collect();
        let (els, j) = self.seq(k, hi, &open2, Some(id))?;
        if j >= hi || !pat::is_join(&self.insns[j].insn, save) {
            let at = if j >= hi { e } else { j };
            return Err(
                self.unstructured(at, "else-arm without its join (s_or_b64 exec, exec, sX)")
            );
        }
        Ok((els, j, else_skip))
    }

    /// A present skip must target exactly `want`.
    fn check_skip(&self, skip: Option<usize>, want: usize) -> Result<(), PassError> {
        match skip {
            Some(k) if self.insns[k].target != Some(want) => Err(self.unstructured(
                k,
                "s_cbranch_execz after an if head must target its else-head or join",
            )),
            _ => Ok(()),
        }
    }

    /// `[s_waitcnt 0] merge` right after the join at `j`, inside `..hi`.
    fn merge_after(&self, j: usize, hi: usize) -> (Option<usize>, Option<usize>) {
        let ok = |k: usize, f: fn(&crate::isa::Instruction) -> bool| k < hi && self.is(k, f);
        if ok(j + 1, pat::is_merge) {
            (None, Some(j + 1))
        } else if ok(j + 1, pat::is_waitcnt0) && ok(j + 2, pat::is_merge) {
            (Some(j + 1), Some(j + 2))
        } else {
            (None, None)
        }
    }
}
