//! The control-flow graph of an assembled GCN kernel, as the PWS WCET analysis wants it
//! (issue 11; spec/000-pws.md §3.10, §5.1, §9 A14–A17, A26).
//!
//! Two steps:
//! - [`basic_blocks`]: decode the code words ([`decode_fields`]) and cut them into basic blocks
//!   with real branch semantics (`s_branch`, the two-way `s_cbranch_*`, `s_endpgm`).
//! - [`if_regions`]: recognise every `split` … `merge` region of the PWS layout and build the
//!   structured C_conv of [`rtgpu_wcet::pws::cfg`]: one [`Block::divergent`] per split point
//!   whose successors are the then-arm and the else-arm regions, plain blocks elsewhere.
//!
//! The PWS layout of a divergent if/else (fig2_divergent.s, fig5_nested.s):
//!
//! ```text
//! head:   …; split ssrc0, ssrc1; s_and_saveexec_b64; s_xor_b64; s_cbranch_execz ELSE
//!         then-arm
//! ELSE:   s_or_saveexec_b64; s_xor_b64 exec; s_cbranch_execz JOIN      (the else-head)
//!         else-arm
//! JOIN:   s_or_b64 exec; …; merge; …
//! ```
//!
//! A one-armed `if` has no else-head: the head's `s_cbranch_execz` goes straight to the join.
//!
//! Choices:
//! - Control flow that is not a split (EXEC-masked if/else guarded by `s_cbranch_execz`, uniform
//!   scalar branches) is collapsed: each maximal stretch of such code becomes one plain block
//!   whose WCET is the **sum** over its basic blocks. That is exact for masked if/else (both
//!   arms run in the worst case) and a safe over-approximation for uniform if/else.
//! - The else-head basic blocks belong to no C_conv block: their cost is the branch
//!   serialization cost, [`Kcfg::bsb_wcet`], meant for [`Cfg::to_bsb`].
//! - Loops (any backward branch) are rejected with [`KcfgError::Loop`] (the wcet side needs
//!   loop-free CFGs, A26); constant-trip-count loops are not collapsed.

use std::fmt;

use rtgpu_hw::isa::insn_model::{decode_fields, format, InsnFields};
use rtgpu_wcet::pws::cfg::{Block, BlockId, Cfg, CfgError};

/// SOPP opcode of `s_endpgm`.
const OP_ENDPGM: u16 = 0x01;
/// SOPP opcode of `s_branch`.
const OP_BRANCH: u16 = 0x02;
/// SOPP opcode of `s_cbranch_execz`.
const OP_CBRANCH_EXECZ: u16 = 0x08;
/// SOPP opcodes of the conditional branches `s_cbranch_scc0` … `s_cbranch_execnz`.
const OPS_CBRANCH: std::ops::RangeInclusive<u16> = 0x04..=0x09;
/// SOPP opcode of `merge`, SOPC opcode of `split`.
const OP_PWS: u16 = 0x7F;
/// SOP1 opcodes of `s_setpc_b64` and `s_swappc_b64`.
const OPS_INDIRECT: [u16; 2] = [0x1D, 0x1E];
/// SOP1 opcode of `s_or_saveexec_b64` (the first instruction of an else-head).
const OP_OR_SAVEEXEC: u16 = 0x21;

/// Why a kernel's CFG could not be built. PCs are byte addresses.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum KcfgError {
    /// There is no code.
    Empty,
    /// The word at `pc` is not an instruction of the subset.
    Illegal {
        /// Its address.
        pc: u32,
        /// The word.
        word: u32,
    },
    /// A 2-word instruction at `pc` is cut off by the end of the code.
    Truncated {
        /// Its address.
        pc: u32,
    },
    /// A branch at `pc` targets an address outside the code.
    TargetOutside {
        /// The branch.
        pc: u32,
        /// Its target.
        target: u32,
    },
    /// A branch at `pc` targets the second word of a 2-word instruction.
    TargetMidInstruction {
        /// The branch.
        pc: u32,
        /// Its target.
        target: u32,
    },
    /// `s_setpc_b64` / `s_swappc_b64` at `pc`: the target is not static.
    Indirect {
        /// The instruction.
        pc: u32,
    },
    /// The last instruction is neither `s_endpgm` nor `s_branch`: control falls off the code.
    FallsOffEnd {
        /// The last instruction.
        pc: u32,
    },
    /// A backward branch (a loop); the WCET analysis wants loop-free CFGs (§9 A26).
    Loop {
        /// The branch.
        pc: u32,
        /// Its (earlier) target.
        target: u32,
    },
    /// An `s_endpgm` at `pc` that is not the end of the last basic block (several exits).
    EarlyExit {
        /// The `s_endpgm`.
        pc: u32,
    },
    /// A `split` at `pc` not laid out as §3.10 wants (not followed in its block by
    /// `s_cbranch_execz`, two splits in one block, or no matching `merge` at the join).
    BadSplit {
        /// The `split`.
        pc: u32,
    },
    /// A `merge` at `pc` that closes no split region.
    UnmatchedMerge {
        /// The `merge`.
        pc: u32,
    },
    /// A branch at `pc` leaves the region (arm) it lies in.
    Unstructured {
        /// The branch.
        pc: u32,
    },
    /// The built graph was rejected by [`Cfg::new`] (a bug here, reported rather than hidden).
    Cfg(CfgError),
}

impl fmt::Display for KcfgError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Empty => write!(f, "no code"),
            Self::Illegal { pc, word } => write!(f, "{pc:#x}: illegal word {word:#010x}"),
            Self::Truncated { pc } => write!(f, "{pc:#x}: 2-word instruction cut off"),
            Self::TargetOutside { pc, target } => {
                write!(f, "{pc:#x}: branch target {target:#x} outside the code")
            }
            Self::TargetMidInstruction { pc, target } => {
                write!(
                    f,
                    "{pc:#x}: branch target {target:#x} inside an instruction"
                )
            }
            Self::Indirect { pc } => write!(f, "{pc:#x}: indirect branch"),
            Self::FallsOffEnd { pc } => write!(f, "{pc:#x}: control falls off the end"),
            Self::Loop { pc, target } => {
                write!(f, "{pc:#x}: backward branch to {target:#x} (loop)")
            }
            Self::EarlyExit { pc } => write!(f, "{pc:#x}: s_endpgm before the end"),
            Self::BadSplit { pc } => write!(f, "{pc:#x}: split not in the PWS layout"),
            Self::UnmatchedMerge { pc } => write!(f, "{pc:#x}: merge without a split"),
            Self::Unstructured { pc } => write!(f, "{pc:#x}: branch leaves its region"),
            Self::Cfg(e) => write!(f, "C_conv rejected: {e}"),
        }
    }
}

impl std::error::Error for KcfgError {}

impl From<CfgError> for KcfgError {
    fn from(e: CfgError) -> Self {
        Self::Cfg(e)
    }
}

/// How a basic block ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BbKind {
    /// Falls through into the next block (its last instruction is not a branch).
    Fallthrough,
    /// `s_branch`: one successor, the target.
    Jump,
    /// `s_cbranch_*` (SOPP `opcode`): `succs = [fall-through, target]` (one if they coincide).
    Cond {
        /// The SOPP opcode (0x04 … 0x09).
        opcode: u16,
    },
    /// `s_endpgm`: no successor.
    Exit,
}

/// One basic block of the kernel.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bb {
    /// Byte address of the first instruction.
    pub start_pc: u32,
    /// Byte address just past the last instruction.
    pub end_pc: u32,
    /// The instructions: byte address and decoded fields.
    pub insns: Vec<(u32, InsnFields)>,
    /// Successor blocks (indices into the [`basic_blocks`] result, which is in address order).
    pub succs: Vec<usize>,
    /// How the block ends.
    pub kind: BbKind,
}

impl Bb {
    /// Number of instructions.
    pub fn len(&self) -> usize {
        self.insns.len()
    }

    /// Whether the block has no instruction (never, for blocks from [`basic_blocks`]).
    pub fn is_empty(&self) -> bool {
        self.insns.is_empty()
    }

    fn last(&self) -> (u32, InsnFields) {
        self.insns[self.insns.len() - 1]
    }
}

fn is_sopp(f: &InsnFields, op: u16) -> bool {
    f.format == format::SOPP && f.opcode == op
}

fn is_split(f: &InsnFields) -> bool {
    f.format == format::SOPC && f.opcode == OP_PWS
}

fn is_merge(f: &InsnFields) -> bool {
    is_sopp(f, OP_PWS)
}

fn is_branch(f: &InsnFields) -> bool {
    f.format == format::SOPP && (f.opcode == OP_BRANCH || OPS_CBRANCH.contains(&f.opcode))
}

/// Byte target of the SOPP branch at `pc`: `pc + 4 + 4·simm16`.
fn target_of(pc: u32, f: &InsnFields) -> u32 {
    let simm = f.imm as u16 as i16 as i64;
    (pc as i64 + 4 + 4 * simm) as u32
}

/// Decodes `code` (its first word at byte address `entry_pc`) and cuts it into basic blocks, in
/// address order; block 0 is the entry. Leaders: the entry, every branch target and the
/// instruction after every branch or `s_endpgm`.
pub fn basic_blocks(code: &[u32], entry_pc: u32) -> Result<Vec<Bb>, KcfgError> {
    if code.is_empty() {
        return Err(KcfgError::Empty);
    }
    let end_pc = entry_pc as u64 + 4 * code.len() as u64;
    // Decode.
    let mut insns = Vec::new();
    let mut k = 0;
    while k < code.len() {
        let pc = entry_pc.wrapping_add(4 * k as u32);
        let f = decode_fields(code[k], code.get(k + 1).copied().unwrap_or(0));
        if f.illegal {
            return Err(KcfgError::Illegal { pc, word: code[k] });
        }
        if f.format == format::SOP1 && OPS_INDIRECT.contains(&f.opcode) {
            return Err(KcfgError::Indirect { pc });
        }
        if k + f.words as usize > code.len() {
            return Err(KcfgError::Truncated { pc });
        }
        insns.push((pc, f));
        k += f.words as usize;
    }
    let index_of = |pc: u32| insns.binary_search_by_key(&pc, |&(p, _)| p);
    // Leaders.
    let mut leader = vec![false; insns.len()];
    leader[0] = true;
    for (i, &(pc, f)) in insns.iter().enumerate() {
        if is_branch(&f) {
            let t = target_of(pc, &f);
            if (t as u64) < entry_pc as u64 || t as u64 >= end_pc {
                return Err(KcfgError::TargetOutside { pc, target: t });
            }
            let j = index_of(t).map_err(|_| KcfgError::TargetMidInstruction { pc, target: t })?;
            leader[j] = true;
        }
        if (is_branch(&f) || is_sopp(&f, OP_ENDPGM)) && i + 1 < insns.len() {
            leader[i + 1] = true;
        }
    }
    let (last_pc, last) = insns[insns.len() - 1];
    if !(is_sopp(&last, OP_ENDPGM) || is_sopp(&last, OP_BRANCH)) {
        return Err(KcfgError::FallsOffEnd { pc: last_pc });
    }
    // Blocks.
    let mut bbs: Vec<Bb> = Vec::new();
    let mut bb_of = vec![0; insns.len()];
    for (i, &ins) in insns.iter().enumerate() {
        if leader[i] {
            bbs.push(Bb {
                start_pc: ins.0,
                end_pc: 0,
                insns: Vec::new(),
                succs: Vec::new(),
                kind: BbKind::Fallthrough,
            });
        }
        bb_of[i] = bbs.len() - 1;
        let bb = bbs.last_mut().expect("instruction 0 is a leader");
        bb.end_pc = ins.0 + 4 * ins.1.words as u32;
        bb.insns.push(ins);
    }
    for (b, bb) in bbs.iter_mut().enumerate() {
        let (pc, f) = bb.last();
        let target = || bb_of[index_of(target_of(pc, &f)).expect("checked above")];
        let (kind, succs) = if is_sopp(&f, OP_ENDPGM) {
            (BbKind::Exit, vec![])
        } else if is_sopp(&f, OP_BRANCH) {
            (BbKind::Jump, vec![target()])
        } else if is_branch(&f) {
            // Not the last block: the last instruction is s_endpgm or s_branch.
            let mut s = vec![b + 1, target()];
            s.dedup();
            (BbKind::Cond { opcode: f.opcode }, s)
        } else {
            (BbKind::Fallthrough, vec![b + 1])
        };
        bb.kind = kind;
        bb.succs = succs;
    }
    Ok(bbs)
}

/// A structured C_conv of a kernel and how it maps onto the basic blocks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Kcfg {
    /// The validated C_conv.
    pub cfg: Cfg,
    /// Per C_conv block: the basic blocks (indices) it covers, in address order.
    pub covers: Vec<Vec<usize>>,
    /// Per C_conv block: for a divergent node, the summed WCET of its else-head basic blocks
    /// (`s_or_saveexec_b64; s_xor_b64 exec; s_cbranch_execz`), the BSB cost; else 0.
    pub bsb: Vec<u64>,
    /// Per C_conv block: the byte address of its `split`, for a divergent node.
    pub split_pc: Vec<Option<u32>>,
}

impl Kcfg {
    /// The BSB cost of C_conv block `u`, for [`Cfg::to_bsb`]: `k.cfg.to_bsb(|u| k.bsb_wcet(u))`.
    pub fn bsb_wcet(&self, u: BlockId) -> u64 {
        self.bsb[u]
    }

    /// The divergent nodes (C_conv ids), in address order of their splits.
    pub fn divergent(&self) -> Vec<BlockId> {
        let mut d: Vec<BlockId> = (0..self.cfg.len())
            .filter(|&u| self.cfg.blocks()[u].divergent)
            .collect();
        d.sort_by_key(|&u| self.split_pc[u]);
        d
    }

    /// Nesting depth of the split regions: 0 without splits, 1 for non-nested ones.
    pub fn split_depth(&self) -> usize {
        let b = self.cfg.blocks();
        let mut depth = vec![0usize; b.len()];
        // Layout order is topological; a divergent node deepens its arms until the reconvergence.
        let ipd = self.cfg.ipdom();
        let mut best = 0;
        for u in self.cfg.layout_order() {
            if b[u].divergent {
                let d = depth[u] + 1;
                best = best.max(d);
                let r = ipd[u];
                let mut stack: Vec<BlockId> = b[u].succs.clone();
                let mut seen = vec![false; b.len()];
                while let Some(x) = stack.pop() {
                    if Some(x) == r || seen[x] {
                        continue;
                    }
                    seen[x] = true;
                    depth[x] = depth[x].max(d);
                    stack.extend(b[x].succs.iter().copied());
                }
            }
        }
        best
    }
}

/// A structured item of a region.
enum Item {
    /// Consecutive basic blocks without splits.
    Plain(Vec<usize>),
    /// A split region.
    Div {
        head: usize,
        split_pc: u32,
        then: Vec<Item>,
        else_head: Vec<usize>,
        els: Vec<Item>,
    },
}

struct Parser<'a> {
    bbs: &'a [Bb],
    /// Per basic block: the `merge` it starts with closes the region just parsed.
    merge_ok: Vec<bool>,
}

impl Parser<'_> {
    /// Checks that every successor of the basic blocks `lo..hi` lies in `lo..=hi`.
    fn contained(
        &self,
        lo: usize,
        hi: usize,
        skip_last_of: Option<usize>,
    ) -> Result<(), KcfgError> {
        for b in lo..hi {
            if Some(b) == skip_last_of {
                continue;
            }
            if self.bbs[b].succs.iter().any(|&s| s < lo || s > hi) {
                return Err(KcfgError::Unstructured {
                    pc: self.bbs[b].last().0,
                });
            }
        }
        Ok(())
    }

    /// Parses the basic blocks `lo..hi` (a region falling through into `hi`).
    fn seq(&mut self, lo: usize, hi: usize) -> Result<Vec<Item>, KcfgError> {
        let mut items = Vec::new();
        let mut plain = Vec::new();
        let mut b = lo;
        while b < hi {
            let bb = &self.bbs[b];
            // PWS instructions of the block, in order.
            let mut split = None;
            for &(pc, f) in &bb.insns {
                if is_merge(&f) {
                    if split.is_some() || !self.merge_ok[b] {
                        return Err(KcfgError::UnmatchedMerge { pc });
                    }
                    self.merge_ok[b] = false; // one merge per join
                } else if is_split(&f) {
                    if split.is_some() {
                        return Err(KcfgError::BadSplit { pc });
                    }
                    split = Some(pc);
                }
            }
            let Some(split_pc) = split else {
                self.contained(b, hi, None)?;
                plain.push(b);
                b += 1;
                continue;
            };
            if !plain.is_empty() {
                items.push(Item::Plain(std::mem::take(&mut plain)));
            }
            let (lpc, lf) = bb.last();
            if !is_sopp(&lf, OP_CBRANCH_EXECZ) || bb.succs.len() != 2 {
                return Err(KcfgError::BadSplit { pc: split_pc });
            }
            let t = bb.succs[1];
            if t > hi {
                return Err(KcfgError::Unstructured { pc: lpc });
            }
            // Else-head at t?
            let is_else_head = t < hi && {
                let e = &self.bbs[t];
                let first = e.insns[0].1;
                first.format == format::SOP1
                    && first.opcode == OP_OR_SAVEEXEC
                    && matches!(
                        e.kind,
                        BbKind::Cond {
                            opcode: OP_CBRANCH_EXECZ
                        }
                    )
                    && e.succs.len() == 2
                    && e.insns.iter().all(|(_, f)| !is_split(f) && !is_merge(f))
            };
            let (else_head, join) = if is_else_head {
                (vec![t], self.bbs[t].succs[1])
            } else {
                (vec![], t)
            };
            if join > hi || join >= self.bbs.len() {
                return Err(KcfgError::BadSplit { pc: split_pc });
            }
            // The join must start (before any split) with the matching merge.
            let join_merges = self.bbs[join]
                .insns
                .iter()
                .take_while(|(_, f)| !is_split(f))
                .any(|(_, f)| is_merge(f));
            if !join_merges {
                return Err(KcfgError::BadSplit { pc: split_pc });
            }
            let then = self.seq(b + 1, t)?;
            let els = if is_else_head {
                self.seq(t + 1, join)?
            } else {
                Vec::new()
            };
            self.merge_ok[join] = true;
            items.push(Item::Div {
                head: b,
                split_pc,
                then,
                else_head,
                els,
            });
            b = join;
        }
        if !plain.is_empty() {
            items.push(Item::Plain(plain));
        }
        Ok(items)
    }
}

struct Emitter<'a, F> {
    bbs: &'a [Bb],
    wcet: F,
    blocks: Vec<Block>,
    covers: Vec<Vec<usize>>,
    bsb: Vec<u64>,
    split_pc: Vec<Option<u32>>,
}

impl<F: Fn(&Bb) -> u64> Emitter<'_, F> {
    fn block(&mut self, covers: Vec<usize>) -> BlockId {
        let w = covers.iter().map(|&b| (self.wcet)(&self.bbs[b])).sum();
        self.blocks.push(Block::plain(w, vec![]));
        self.covers.push(covers);
        self.bsb.push(0);
        self.split_pc.push(None);
        self.blocks.len() - 1
    }

    /// Emits `items`; returns the entry (None when empty) and the blocks whose successor is
    /// whatever follows.
    fn seq(&mut self, items: Vec<Item>) -> (Option<BlockId>, Vec<BlockId>) {
        let mut entry = None;
        let mut dangling: Vec<BlockId> = Vec::new();
        for item in items {
            let (e, d) = match item {
                Item::Plain(bs) => {
                    let u = self.block(bs);
                    (u, vec![u])
                }
                Item::Div {
                    head,
                    split_pc,
                    then,
                    else_head,
                    els,
                } => {
                    let u = self.block(vec![head]);
                    self.split_pc[u] = Some(split_pc);
                    self.bsb[u] = else_head.iter().map(|&b| (self.wcet)(&self.bbs[b])).sum();
                    let (te, mut td) = self.seq(then);
                    let (ee, ed) = self.seq(els);
                    td.extend(ed);
                    match (te, ee) {
                        (Some(t), Some(e)) => {
                            self.blocks[u] = Block::divergent(self.blocks[u].wcet, t, e)
                        }
                        // One empty arm: the other successor is the reconvergence point,
                        // patched below through the placeholder `usize::MAX`.
                        (Some(a), None) => {
                            self.blocks[u] = Block::divergent(self.blocks[u].wcet, a, usize::MAX);
                            td.push(u);
                        }
                        (None, Some(a)) => {
                            self.blocks[u] = Block::divergent(self.blocks[u].wcet, usize::MAX, a);
                            td.push(u);
                        }
                        // Both arms empty: nothing diverges.
                        (None, None) => td.push(u),
                    }
                    (u, td)
                }
            };
            for &x in &dangling {
                self.link(x, e);
            }
            entry.get_or_insert(e);
            dangling = d;
        }
        (entry, dangling)
    }

    /// Points `x`'s open successor at `to`.
    fn link(&mut self, x: BlockId, to: BlockId) {
        let s = &mut self.blocks[x].succs;
        if let Some(p) = s.iter_mut().find(|p| **p == usize::MAX) {
            *p = to;
        } else {
            s.push(to);
        }
    }
}

/// Builds the structured C_conv of a kernel from its basic blocks ([`basic_blocks`]): one
/// [`Block::divergent`] per `split` (its basic block, ending in the `s_cbranch_execz` over the
/// then-arm), whose successors are the then-arm and else-arm regions; every other maximal
/// stretch of basic blocks without splits becomes one plain block. Block WCETs are `wcet`
/// summed over the basic blocks a block covers; else-heads go to [`Kcfg::bsb`].
pub fn if_regions<F: Fn(&Bb) -> u64>(bbs: &[Bb], wcet: F) -> Result<Kcfg, KcfgError> {
    if bbs.is_empty() {
        return Err(KcfgError::Empty);
    }
    for bb in bbs {
        let (pc, f) = bb.last();
        if is_branch(&f) {
            let t = target_of(pc, &f);
            if t <= pc {
                return Err(KcfgError::Loop { pc, target: t });
            }
        }
    }
    let last = bbs.len() - 1;
    for (b, bb) in bbs.iter().enumerate() {
        if bb.kind == BbKind::Exit && b != last {
            return Err(KcfgError::EarlyExit { pc: bb.last().0 });
        }
    }
    if bbs[last].kind != BbKind::Exit {
        return Err(KcfgError::FallsOffEnd {
            pc: bbs[last].last().0,
        });
    }
    let mut parser = Parser {
        bbs,
        merge_ok: vec![false; bbs.len()],
    };
    let items = parser.seq(0, bbs.len())?;
    let mut em = Emitter {
        bbs,
        wcet,
        blocks: Vec::new(),
        covers: Vec::new(),
        bsb: Vec::new(),
        split_pc: Vec::new(),
    };
    let (entry, dangling) = em.seq(items);
    let entry = entry.ok_or(KcfgError::Empty)?;
    // The exit: the block covering the last basic block (the s_endpgm).
    let exit = em
        .covers
        .iter()
        .position(|c| c.contains(&last))
        .ok_or(KcfgError::Empty)?;
    if dangling != [exit] {
        // Only a kernel ending inside a split region could leave other open ends.
        return Err(KcfgError::UnmatchedMerge {
            pc: bbs[last].last().0,
        });
    }
    let cfg = Cfg::new(em.blocks, entry, exit)?;
    Ok(Kcfg {
        cfg,
        covers: em.covers,
        bsb: em.bsb,
        split_pc: em.split_pc,
    })
}

/// [`basic_blocks`] then [`if_regions`].
pub fn kernel_cfg<F: Fn(&Bb) -> u64>(
    code: &[u32],
    entry_pc: u32,
    wcet: F,
) -> Result<Kcfg, KcfgError> {
    if_regions(&basic_blocks(code, entry_pc)?, wcet)
}
