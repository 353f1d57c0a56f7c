//! [`Kstruct`]: the structure of a kernel (masked ifs, plain stretches, opaque loops), its
//! C_conv and which block owns every instruction.

use std::ops::Range;

use rtgpu_wcet::pws::cfg::{Block, BlockId, BsbCfg, Cfg};

use super::error::PassError;
use super::parse::{check_exits, decode_all, Found, Item, Parser};
use crate::isa::{Instruction, Operand};

/// One decoded instruction of a kernel.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Insn {
    /// Byte address.
    pub pc: u32,
    /// The instruction.
    pub insn: Instruction,
    /// For a SOPP branch: the index (in [`Kstruct::insns`]) of the instruction it targets.
    pub target: Option<usize>,
}

/// One masked if (LLVM's GCN if/else lowering). Fields holding `usize` are indices into
/// [`Kstruct::insns`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IfInfo {
    /// Its divergent C_conv block.
    pub block: BlockId,
    /// The `s_waitcnt 0` directly before its `split`, if any.
    pub split_wait: Option<usize>,
    /// Its `split` (it is a marked split point, P), if any.
    pub split: Option<usize>,
    /// `s_and_saveexec_b64 sX, cond`.
    pub and: usize,
    /// `s_xor_b64 sX, exec, sX`; `None` for a one-armed if.
    pub xor: Option<usize>,
    /// The `s_cbranch_execz` over the then-arm, if present.
    pub then_skip: Option<usize>,
    /// `s_or_saveexec_b64 sX, sX`, the else-head's first instruction (two-armed ifs).
    pub else_head: Option<usize>,
    /// The `s_cbranch_execz` over the else-arm, if present.
    pub else_skip: Option<usize>,
    /// The join, `s_or_b64 exec, exec, sX`.
    pub join: usize,
    /// The `s_waitcnt 0` between the join and its `merge`, if any.
    pub merge_wait: Option<usize>,
    /// The `merge` right after the join, if any.
    pub merge: Option<usize>,
    /// The save pair sX.
    pub save: Operand,
    /// The pair the else-head saves into and the join restores from: sX, or the other pair
    /// sY of clang's `s_or_saveexec_b64 sY, sX` (a one-armed if: sX).
    pub else_save: Operand,
    /// The 64-bit condition of the `s_and_saveexec_b64` (normally vcc).
    pub cond: Operand,
    /// The enclosing if (index in [`Kstruct::ifs`]), if any.
    pub parent: Option<usize>,
}

impl IfInfo {
    /// An if with its head known and its arms still to parse.
    pub(crate) fn new(
        split_wait: Option<usize>,
        split: Option<usize>,
        and: usize,
        save: Operand,
        cond: Operand,
        parent: Option<usize>,
    ) -> Self {
        IfInfo {
            block: 0,
            split_wait,
            split,
            and,
            xor: None,
            then_skip: None,
            else_head: None,
            else_skip: None,
            join: and,
            merge_wait: None,
            merge: None,
            save,
            else_save: save,
            cond,
            parent,
        }
    }

    /// No else-arm (no `s_xor_b64` after the `s_and_saveexec_b64`, no else-head).
    pub fn one_armed(&self) -> bool {
        self.else_head.is_none()
    }

    /// The head's instructions: `[s_waitcnt 0, split,] s_and_saveexec [, s_xor] [, skip]`.
    pub fn head(&self) -> Vec<usize> {
        [
            self.split_wait,
            self.split,
            Some(self.and),
            self.xor,
            self.then_skip,
        ]
        .into_iter()
        .flatten()
        .collect()
    }

    /// The else-head's instructions: `s_or_saveexec_b64; s_xor_b64 exec [; skip]`.
    pub fn else_head_insns(&self) -> Vec<usize> {
        match self.else_head {
            Some(e) => [Some(e), Some(e + 1), self.else_skip]
                .into_iter()
                .flatten()
                .collect(),
            None => Vec::new(),
        }
    }

    /// The then-arm's instructions.
    pub fn then_range(&self) -> Range<usize> {
        let start = self.head().last().map_or(self.and, |&k| k + 1);
        start..self.else_head.unwrap_or(self.join)
    }

    /// The else-arm's instructions (`None` for a one-armed if).
    pub fn else_range(&self) -> Option<Range<usize>> {
        let last = *self.else_head_insns().last()?;
        Some(last + 1..self.join)
    }
}

/// Who owns an instruction, for the per-block WCET attribution.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Owner {
    /// A C_conv block (plain, or the head of a divergent block).
    Block(BlockId),
    /// The else-head (the BSB) of divergent block `u`.
    Bsb(BlockId),
}

/// The structure of a kernel, parsed from its code words (entry pc 0).
///
/// - A **masked if** is LLVM's GCN lowering with any even SGPR pair sX as save
///   register: two-armed `s_and_saveexec_b64 sX, cond; s_xor_b64 sX, exec, sX;
///   [s_cbranch_execz ELSE]; then; ELSE: s_or_saveexec_b64 sX, sX; s_xor_b64 exec, sX, exec;
///   [s_cbranch_execz JOIN]; else; JOIN: s_or_b64 exec, exec, sX`, or one-armed without the
///   `s_xor_b64` and the else-head. The else-head and join are the first closing instructions
///   with the same sX at the same nesting level; a present skip must target them exactly.
///   `[s_waitcnt 0;] split` right before the `s_and_saveexec_b64` marks the if (P);
///   `[s_waitcnt 0;] merge` right after the join belongs to it.
/// - Loops (backward branches) and other forward branches that are not if-skips are
///   **opaque**: they stay inside one plain stretch, ifs inside them are plain code, and a
///   `split` inside them is [`PassError::SplitInLoop`].
/// - Exactly one `s_endpgm`, the last instruction.
///
/// C_conv ([`Kstruct::conv`], costs 0): blocks are numbered in address order; every maximal
/// plain stretch is a [`Block::plain`], every if a [`Block::divergent`] whose then/else
/// successors are its arms' first blocks, or the reconvergence block for an empty arm or a
/// one-armed if's missing else (docs/assumptions.md#A17; `to_bsb` swaps an empty then-arm). The
/// block after an if (holding the join) always exists. An if with both arms empty gets an empty
/// plain block (owning no instruction) as its then-arm, since C_conv cannot name the same successor
/// twice.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Kstruct {
    insns: Vec<Insn>,
    /// Parsed by [`Kstruct::parse_loops`].
    loops: bool,
    ifs: Vec<IfInfo>,
    if_of_block: Vec<Option<usize>>,
    conv: Cfg,
    owners: Vec<(u32, Owner)>,
    found: FoundPcs,
}

/// The stray and opaque instructions, by index.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct FoundPcs {
    stray_splits: Vec<usize>,
    stray_merges: Vec<usize>,
    opaque_branches: Vec<usize>,
}

impl Kstruct {
    /// Decodes and structures `code` (entry pc 0).
    pub fn parse(code: &[u32]) -> Result<Kstruct, PassError> {
        Self::parse_with(code, false)
    }

    /// [`Kstruct::parse`] with loops as structured code: the ifs inside a loop are masked ifs
    /// like the others (C_conv then holds the loop body once, without its back edge), and
    /// every branch that is not an if-skip must land where an item of its own sequence starts
    /// (a loop's back edge on its header, a uniform skip after the code it skips), never
    /// inside an if. The automatic split points ([`super::Marks::Auto`]) use it.
    pub fn parse_loops(code: &[u32]) -> Result<Kstruct, PassError> {
        Self::parse_with(code, true)
    }

    fn parse_with(code: &[u32], loops: bool) -> Result<Kstruct, PassError> {
        let insns = decode_all(code)?;
        check_exits(&insns)?;
        let mut parser = Parser::new(&insns, loops);
        let items = parser.kernel()?;
        let Found {
            mut ifs,
            stray_splits,
            stray_merges,
            opaque_branches,
        } = parser.found;
        let mut em = Emit {
            ifs: &mut ifs,
            blocks: Vec::new(),
            owner: vec![None; insns.len()],
            if_of_block: Vec::new(),
        };
        let (_, dangling) = em.seq(&items);
        let (blocks, owner, if_of_block) = (em.blocks, em.owner, em.if_of_block);
        let exit = match owner.last() {
            Some(Some(Owner::Block(b))) if dangling == [*b] => *b,
            _ => {
                return Err(PassError::Unstructured {
                    pc: insns.last().map_or(0, |i| i.pc),
                    reason: "the kernel does not end in a plain block",
                })
            }
        };
        let conv = Cfg::new(blocks, 0, exit)?;
        let owners = insns
            .iter()
            .zip(owner)
            .map(|(i, o)| (i.pc, o.expect("every instruction is emitted")))
            .collect();
        Ok(Kstruct {
            insns,
            loops,
            ifs,
            if_of_block,
            conv,
            owners,
            found: FoundPcs {
                stray_splits,
                stray_merges,
                opaque_branches,
            },
        })
    }

    /// Whether the ifs inside loops are parsed ([`Kstruct::parse_loops`]).
    pub fn loops_structured(&self) -> bool {
        self.loops
    }

    /// The decoded instructions in address order.
    pub fn insns(&self) -> &[Insn] {
        &self.insns
    }

    /// The index of the instruction at byte address `pc`.
    pub fn index_of(&self, pc: u32) -> Option<usize> {
        self.insns.binary_search_by_key(&pc, |i| i.pc).ok()
    }

    /// The masked ifs outside opaque regions, in address order (pre-order).
    pub fn ifs(&self) -> &[IfInfo] {
        &self.ifs
    }

    /// Number of masked ifs (outside opaque regions).
    pub fn n_ifs(&self) -> usize {
        self.ifs.len()
    }

    /// Number of C_conv blocks.
    pub fn n_blocks(&self) -> usize {
        self.conv.len()
    }

    /// The C_conv with placeholder costs 0.
    pub fn conv(&self) -> &Cfg {
        &self.conv
    }

    /// The if of divergent block `u`.
    pub fn if_of(&self, u: BlockId) -> Option<&IfInfo> {
        self.if_of_block
            .get(u)
            .copied()
            .flatten()
            .map(|i| &self.ifs[i])
    }

    /// The ifs carrying a `split` (P), as C_conv block ids in address order.
    pub fn marked(&self) -> Vec<BlockId> {
        self.ifs
            .iter()
            .filter(|f| f.split.is_some())
            .map(|f| f.block)
            .collect()
    }

    /// The address of the `split` of divergent block `u`, if it carries one.
    pub fn split_pc(&self, u: BlockId) -> Option<u32> {
        self.if_of(u)?.split.map(|k| self.insns[k].pc)
    }

    /// Whether block `u` is a one-armed if (false for a block that is not an if).
    pub fn is_one_armed(&self, u: BlockId) -> bool {
        self.if_of(u).is_some_and(IfInfo::one_armed)
    }

    /// Whether block `u` is a masked if (a divergent C_conv block).
    pub fn is_if(&self, u: BlockId) -> bool {
        self.if_of(u).is_some()
    }

    /// The owner of the instruction at `pc` (`None` if no instruction starts there).
    pub fn owner_of(&self, pc: u32) -> Option<Owner> {
        self.index_of(pc).map(|k| self.owners[k].1)
    }

    /// Every instruction's address and owner, in address order.
    pub fn owners(&self) -> &[(u32, Owner)] {
        &self.owners
    }

    /// Addresses of `split`s not directly before an if's `s_and_saveexec_b64`.
    pub fn stray_splits(&self) -> Vec<u32> {
        self.pcs(&self.found.stray_splits)
    }

    /// Addresses of `merge`s not directly after a join.
    pub fn stray_merges(&self) -> Vec<u32> {
        self.pcs(&self.found.stray_merges)
    }

    /// Addresses of the branches that are not if-skips (loops, uniform or masked jumps).
    pub fn opaque_branches(&self) -> Vec<u32> {
        self.pcs(&self.found.opaque_branches)
    }

    /// Addresses of the backward branches (the loops' back edges).
    pub fn back_edges(&self) -> Vec<u32> {
        self.insns
            .iter()
            .enumerate()
            .filter(|(k, i)| i.target.is_some_and(|t| t <= *k))
            .map(|(_, i)| i.pc)
            .collect()
    }

    fn pcs(&self, idx: &[usize]) -> Vec<u32> {
        idx.iter().map(|&k| self.insns[k].pc).collect()
    }

    /// The C_BSB of this kernel with `block_cost[u]` as e_bb of C_conv block `u` and
    /// `bsb_cost[u]` as the cost of the BSB of divergent block `u` (both indexed by C_conv id,
    /// one value per block; `bsb_cost` of non-divergent blocks is unused).
    pub fn costed(&self, block_cost: &[u64], bsb_cost: &[u64]) -> Result<BsbCfg, PassError> {
        let want = self.n_blocks();
        for (what, v) in [("block", block_cost), ("bsb", bsb_cost)] {
            if v.len() != want {
                return Err(PassError::CostLength {
                    what,
                    got: v.len(),
                    want,
                });
            }
        }
        let blocks = self
            .conv
            .blocks()
            .iter()
            .zip(block_cost)
            .map(|(b, &wcet)| Block { wcet, ..b.clone() })
            .collect();
        let c = Cfg::new(blocks, self.conv.entry(), self.conv.exit())?;
        Ok(c.to_bsb(|u| bsb_cost[u])?)
    }
}

/// A successor still to be linked.
const OPEN: BlockId = usize::MAX;

/// Builds the C_conv blocks and the owners from the parsed items.
struct Emit<'a> {
    ifs: &'a mut [IfInfo],
    blocks: Vec<Block>,
    owner: Vec<Option<Owner>>,
    if_of_block: Vec<Option<usize>>,
}

impl Emit<'_> {
    fn block(&mut self, b: Block, if_id: Option<usize>) -> BlockId {
        self.blocks.push(b);
        self.if_of_block.push(if_id);
        self.blocks.len() - 1
    }

    fn own(&mut self, idx: &[usize], o: Owner) {
        for &k in idx {
            self.owner[k] = Some(o);
        }
    }

    /// Emits `items`; returns the entry (`None` when empty) and the blocks whose open
    /// successor is whatever follows.
    fn seq(&mut self, items: &[Item]) -> (Option<BlockId>, Vec<BlockId>) {
        let mut entry = None;
        let mut dangling: Vec<BlockId> = Vec::new();
        for item in items {
            let (e, d) = match item {
                Item::Plain(idx) => {
                    let u = self.block(Block::plain(0, vec![]), None);
                    self.own(idx, Owner::Block(u));
                    (u, vec![u])
                }
                Item::If { id, then, els } => self.masked_if(*id, then, els),
            };
            for &x in &dangling {
                self.link(x, e);
            }
            entry.get_or_insert(e);
            dangling = d;
        }
        (entry, dangling)
    }

    fn masked_if(&mut self, id: usize, then: &[Item], els: &[Item]) -> (BlockId, Vec<BlockId>) {
        let u = self.block(Block::divergent(0, OPEN, OPEN), Some(id));
        self.ifs[id].block = u;
        let head = self.ifs[id].head();
        self.own(&head, Owner::Block(u));
        let (mut te, mut td) = self.seq(then);
        let else_head = self.ifs[id].else_head_insns();
        self.own(&else_head, Owner::Bsb(u));
        let (ee, ed) = self.seq(els);
        if te.is_none() && ee.is_none() {
            let p = self.block(Block::plain(0, vec![]), None);
            te = Some(p);
            td.push(p);
        }
        self.blocks[u].succs = vec![te.unwrap_or(OPEN), ee.unwrap_or(OPEN)];
        td.extend(ed);
        if te.is_none() || ee.is_none() {
            td.push(u);
        }
        (u, td)
    }

    /// Points `x`'s open successor at `to`.
    fn link(&mut self, x: BlockId, to: BlockId) {
        let s = &mut self.blocks[x].succs;
        match s.iter_mut().find(|p| **p == OPEN) {
            Some(p) => *p = to,
            None => s.push(to),
        }
    }
}
