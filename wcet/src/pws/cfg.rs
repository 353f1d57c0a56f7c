//! Control-flow graphs over basic blocks: the conventional CFG C_conv ([`Cfg`]), its immediate
//! post-dominators, and the branch-serialization form C_BSB ([`BsbCfg`], the PWS paper's
//! Fig. 7 and the node conventions of its Fig. 8, docs/works/pws.md#fig-7).
//!
//! Conventions:
//! - Blocks are numbered `0..n`; a [`Block`]'s `succs` name successors by index.
//! - A divergent branch has exactly two successors, `succs[0]` = then-arm entry (the
//!   fall-through, laid out first) and `succs[1]` = else-arm entry. Either may be the
//!   reconvergence point (an empty arm).
//! - The graph has one entry and one exit (the only block without successors). Loops are
//!   rejected: the analysis requires unrolled, loop-free CFGs (the PWS paper unrolls all
//!   loops, docs/assumptions.md#A26).
//! - [`BsbCfg`] renumbers its blocks in code-layout order, a topological order in which, for every
//!   divergent branch `v`, `v < then-arm < BSB(v) < else-arm < Reconv(v)`. For the Fig. 8
//!   example the C_BSB ids are the paper's node numbers minus one.

use std::collections::BTreeSet;
use std::fmt;

use serde::{Deserialize, Serialize};

/// Index of a basic block in its graph.
pub type BlockId = usize;

/// One basic block of a C_conv.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Block {
    /// Successors. For a divergent branch: `[then-entry, else-entry]`.
    pub succs: Vec<BlockId>,
    /// The block's WCET e_bb (cycles).
    pub wcet: u64,
    /// Whether the block ends in a divergent branch (its two arms serialize in C_BSB).
    pub divergent: bool,
}

impl Block {
    /// A block with the given WCET and successors that does not end in a divergent branch.
    pub fn plain(wcet: u64, succs: Vec<BlockId>) -> Self {
        Self {
            succs,
            wcet,
            divergent: false,
        }
    }

    /// A block ending in a divergent branch to `then` (fall-through) and `els`.
    pub fn divergent(wcet: u64, then: BlockId, els: BlockId) -> Self {
        Self {
            succs: vec![then, els],
            wcet,
            divergent: true,
        }
    }
}

/// Why a graph was rejected. Every variant names the offending block.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CfgError {
    /// The graph has no blocks.
    Empty,
    /// The entry or exit id is not a block.
    BadTerminal {
        /// The out-of-range id.
        id: BlockId,
        /// Number of blocks.
        n: usize,
    },
    /// A successor id is not a block.
    UnknownSuccessor {
        /// The block naming it.
        block: BlockId,
        /// The unknown successor.
        succ: BlockId,
    },
    /// A block names the same successor twice.
    DuplicateSuccessor {
        /// The block.
        block: BlockId,
        /// The repeated successor.
        succ: BlockId,
    },
    /// The exit block has successors.
    ExitHasSuccessors {
        /// The exit block.
        exit: BlockId,
    },
    /// A block other than the exit has no successors.
    DeadEnd {
        /// The block.
        block: BlockId,
    },
    /// The exit cannot be reached from the entry.
    ExitUnreachable {
        /// The exit block.
        exit: BlockId,
    },
    /// A block cannot be reached from the entry.
    Unreachable {
        /// The block.
        block: BlockId,
    },
    /// The graph has a cycle through this block; loops must be unrolled (docs/assumptions.md#A26).
    Cycle {
        /// A block on the cycle (the target of a back edge).
        block: BlockId,
    },
    /// A divergent block does not have exactly two successors.
    DivergentArity {
        /// The block.
        block: BlockId,
        /// Its number of successors.
        n_succs: usize,
    },
    /// A divergent branch's arms are not single-entry regions that are disjoint and end at the
    /// branch's post-dominator (goto-like flow; the PWS paper's compiler rejects it).
    Unstructured {
        /// The divergent branch (C_conv id).
        branch: BlockId,
        /// A block of one arm that is shared with the other arm or entered from outside.
        block: BlockId,
    },
}

impl fmt::Display for CfgError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Empty => write!(f, "the CFG has no blocks"),
            Self::BadTerminal { id, n } => write!(f, "entry/exit {id} is not one of {n} blocks"),
            Self::UnknownSuccessor { block, succ } => {
                write!(f, "block {block} names unknown successor {succ}")
            }
            Self::DuplicateSuccessor { block, succ } => {
                write!(f, "block {block} names successor {succ} twice")
            }
            Self::ExitHasSuccessors { exit } => write!(f, "exit block {exit} has successors"),
            Self::DeadEnd { block } => {
                write!(f, "block {block} has no successors but is not the exit")
            }
            Self::ExitUnreachable { exit } => {
                write!(f, "exit {exit} is unreachable from the entry")
            }
            Self::Unreachable { block } => write!(f, "block {block} is unreachable from the entry"),
            Self::Cycle { block } => write!(f, "cycle through block {block}; unroll loops"),
            Self::DivergentArity { block, n_succs } => {
                write!(f, "divergent block {block} has {n_succs} successors, not 2")
            }
            Self::Unstructured { branch, block } => {
                write!(
                    f,
                    "divergent branch {branch} is unstructured at block {block}"
                )
            }
        }
    }
}

impl std::error::Error for CfgError {}

/// A validated, loop-free CFG with one entry and one exit (a C_conv).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Cfg {
    blocks: Vec<Block>,
    entry: BlockId,
    exit: BlockId,
}

impl Cfg {
    /// Validates and wraps `blocks`. Checks, in order: non-empty, entry/exit in range, known and
    /// distinct successors, exit without successors, no cycle, exit and then every block
    /// reachable from the entry, no other dead end, divergent blocks with two successors.
    pub fn new(blocks: Vec<Block>, entry: BlockId, exit: BlockId) -> Result<Self, CfgError> {
        let n = blocks.len();
        if n == 0 {
            return Err(CfgError::Empty);
        }
        for id in [entry, exit] {
            if id >= n {
                return Err(CfgError::BadTerminal { id, n });
            }
        }
        for (b, blk) in blocks.iter().enumerate() {
            let mut seen = BTreeSet::new();
            for &s in &blk.succs {
                if s >= n {
                    return Err(CfgError::UnknownSuccessor { block: b, succ: s });
                }
                if !seen.insert(s) {
                    return Err(CfgError::DuplicateSuccessor { block: b, succ: s });
                }
            }
        }
        if !blocks[exit].succs.is_empty() {
            return Err(CfgError::ExitHasSuccessors { exit });
        }
        let succs: Vec<Vec<BlockId>> = blocks.iter().map(|b| b.succs.clone()).collect();
        if let Some(block) = find_cycle(&succs) {
            return Err(CfgError::Cycle { block });
        }
        let order = layout_order(&succs, entry);
        let mut reached = vec![false; n];
        for &v in &order {
            reached[v] = true;
        }
        if !reached[exit] {
            return Err(CfgError::ExitUnreachable { exit });
        }
        if let Some(block) = (0..n).find(|&b| !reached[b]) {
            return Err(CfgError::Unreachable { block });
        }
        if let Some(b) = (0..n).find(|&b| b != exit && blocks[b].succs.is_empty()) {
            return Err(CfgError::DeadEnd { block: b });
        }
        if let Some(b) = (0..n).find(|&b| blocks[b].divergent && blocks[b].succs.len() != 2) {
            return Err(CfgError::DivergentArity {
                block: b,
                n_succs: blocks[b].succs.len(),
            });
        }
        Ok(Self {
            blocks,
            entry,
            exit,
        })
    }

    /// The blocks, indexed by [`BlockId`].
    pub fn blocks(&self) -> &[Block] {
        &self.blocks
    }

    /// Number of blocks.
    pub fn len(&self) -> usize {
        self.blocks.len()
    }

    /// Always false: a validated CFG has at least one block.
    pub fn is_empty(&self) -> bool {
        self.blocks.is_empty()
    }

    /// The entry block.
    pub fn entry(&self) -> BlockId {
        self.entry
    }

    /// The exit block.
    pub fn exit(&self) -> BlockId {
        self.exit
    }

    /// The code-layout topological order: reverse post-order of a depth-first search from the
    /// entry that visits `succs[0]` last, so that the first successor's region is laid out first.
    pub fn layout_order(&self) -> Vec<BlockId> {
        layout_order(&self.succs(), self.entry)
    }

    /// Immediate post-dominators: `ipdom()[b]` is `None` for the exit, otherwise the nearest block
    /// other than `b` lying on every path from `b` to the exit.
    pub fn ipdom(&self) -> Vec<Option<BlockId>> {
        let succs = self.succs();
        ipdoms(&succs, self.exit, &layout_order(&succs, self.entry))
    }

    fn succs(&self) -> Vec<Vec<BlockId>> {
        self.blocks.iter().map(|b| b.succs.clone()).collect()
    }

    /// Builds C_BSB (the PWS paper's Fig. 7): for every divergent branch `u` with reconvergence
    /// point `r` (its immediate post-dominator), a BSB node `b` of WCET `bsb_wcet(u)` is inserted;
    /// the then-arm's edges into `r` go to `b`, `u`'s skip edge goes to `b` (`u → {then, b}`), and
    /// `b → {else, r}` (`b → {r}` when the else-arm is empty, docs/assumptions.md#A17). Both arms
    /// thus execute one after the other, and either may be skipped.
    ///
    /// Choices: a branch whose *then*-arm is empty has its arms swapped (the compiler inverts the
    /// condition), so that only else-arms are ever empty, as A17 models one-armed `if`s. Arms
    /// must be disjoint single-entry regions ([`CfgError::Unstructured`] otherwise). The result is
    /// renumbered in code-layout order.
    pub fn to_bsb(&self, mut bsb_wcet: impl FnMut(BlockId) -> u64) -> Result<BsbCfg, CfgError> {
        let n = self.len();
        let mut succs = self.succs();
        let mut wcet: Vec<u64> = self.blocks.iter().map(|b| b.wcet).collect();
        // Per work-graph node: the C_conv block it came from, or the branch it is the BSB of.
        let mut origin: Vec<Origin> = (0..n).map(Origin::Conv).collect();
        let mut bsb_of = vec![None; n];
        let mut swapped = Vec::new();
        for u in (0..n).filter(|&u| self.blocks[u].divergent) {
            let order = layout_order(&succs, self.entry);
            let ipd = ipdoms(&succs, self.exit, &order);
            let Some(r) = ipd[u] else {
                return Err(CfgError::DeadEnd { block: u });
            };
            let (mut t, mut e) = (succs[u][0], succs[u][1]);
            if t == r {
                std::mem::swap(&mut t, &mut e);
                swapped.push(u);
            }
            let arm_t = arm(&succs, t, r);
            let arm_e = arm(&succs, e, r);
            let preds = preds(&succs);
            for (a, other, head) in [(&arm_t, &arm_e, t), (&arm_e, &arm_t, e)] {
                for &x in a {
                    let outside = preds[x]
                        .iter()
                        .any(|&p| !(a.contains(&p) || (p == u && x == head)));
                    if other.contains(&x) || outside {
                        return Err(CfgError::Unstructured {
                            branch: u,
                            block: conv_id(&origin, x),
                        });
                    }
                }
            }
            let b = succs.len();
            for &x in &arm_t {
                for s in succs[x].iter_mut() {
                    if *s == r {
                        *s = b;
                    }
                }
            }
            succs[u] = vec![t, b];
            succs.push(if arm_e.is_empty() {
                vec![r]
            } else {
                vec![e, r]
            });
            wcet.push(bsb_wcet(u));
            origin.push(Origin::Bsb(u));
            bsb_of[u] = Some(b);
        }
        // Renumber in code-layout order.
        let order = layout_order(&succs, self.entry);
        let mut new_id = vec![0; succs.len()];
        for (i, &v) in order.iter().enumerate() {
            new_id[v] = i;
        }
        let m = order.len();
        let exit = new_id[self.exit];
        let blocks: Vec<Block> = order
            .iter()
            .map(|&v| Block {
                succs: succs[v].iter().map(|&s| new_id[s]).collect(),
                wcet: wcet[v],
                divergent: matches!(origin[v], Origin::Conv(c) if self.blocks[c].divergent),
            })
            .collect();
        let cfg = Cfg::new(blocks, new_id[self.entry], exit)?;
        let ipd = cfg.ipdom();
        let mut roles = vec![Role::Plain; m];
        for (u, b) in bsb_of.iter().enumerate() {
            if let Some(b) = *b {
                let (nu, nb) = (new_id[u], new_id[b]);
                let reconv = ipd[nb].unwrap_or(m);
                roles[nu] = Role::Branch { bsb: nb, reconv };
                roles[nb] = Role::Bsb { branch: nu, reconv };
            }
        }
        let from_conv = (0..n).map(|c| new_id[c]).collect();
        let swapped = swapped.into_iter().map(|c| new_id[c]).collect();
        Ok(BsbCfg {
            cfg,
            roles,
            from_conv,
            swapped,
        })
    }
}

#[derive(Clone, Copy)]
enum Origin {
    Conv(BlockId),
    Bsb(BlockId),
}

fn conv_id(origin: &[Origin], x: BlockId) -> BlockId {
    match origin[x] {
        Origin::Conv(c) | Origin::Bsb(c) => c,
    }
}

/// The role of a C_BSB block.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Role {
    /// A plain block (possibly a uniform, non-divergent branch).
    Plain,
    /// A divergent branch node (B in PRUNE).
    Branch {
        /// BSB(u), the skip-edge successor.
        bsb: BlockId,
        /// Reconv(u), where the arms reconverge; `len()` means the virtual exit.
        reconv: BlockId,
    },
    /// A branch-serialization block (L in PRUNE).
    Bsb {
        /// The branch it serializes.
        branch: BlockId,
        /// Reconv of that branch.
        reconv: BlockId,
    },
}

/// A C_BSB: a [`Cfg`] in code-layout order whose divergent branches carry BSB nodes (the PWS
/// paper's Fig. 7).
/// Build it with [`Cfg::to_bsb`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BsbCfg {
    cfg: Cfg,
    roles: Vec<Role>,
    from_conv: Vec<BlockId>,
    swapped: Vec<BlockId>,
}

impl BsbCfg {
    /// The underlying graph; ids are a topological (code-layout) order.
    pub fn cfg(&self) -> &Cfg {
        &self.cfg
    }

    /// Number of blocks, |V|. The id `len()` is the virtual exit |V|+1 of PRUNE (the
    /// PWS paper's Algorithm 2).
    pub fn len(&self) -> usize {
        self.cfg.len()
    }

    /// Always false.
    pub fn is_empty(&self) -> bool {
        self.cfg.is_empty()
    }

    /// The role of block `u`.
    pub fn role(&self, u: BlockId) -> Role {
        self.roles[u]
    }

    /// e_bb of block `u`.
    pub fn wcet(&self, u: BlockId) -> u64 {
        self.cfg.blocks[u].wcet
    }

    /// The C_BSB id of C_conv block `c`.
    pub fn from_conv(&self, c: BlockId) -> BlockId {
        self.from_conv[c]
    }

    /// Branches (C_BSB ids) whose arms were swapped because the then-arm was empty.
    pub fn swapped(&self) -> &[BlockId] {
        &self.swapped
    }

    /// Whether `u` is a divergent branch node (the set B of PRUNE).
    pub fn is_branch(&self, u: BlockId) -> bool {
        matches!(self.roles.get(u), Some(Role::Branch { .. }))
    }

    /// Whether `u` is a BSB node (the set L of PRUNE).
    pub fn is_bsb(&self, u: BlockId) -> bool {
        matches!(self.roles.get(u), Some(Role::Bsb { .. }))
    }

    /// BSB(u) for a branch node, else `None`.
    pub fn bsb(&self, u: BlockId) -> Option<BlockId> {
        match self.roles[u] {
            Role::Branch { bsb, .. } => Some(bsb),
            _ => None,
        }
    }

    /// Reconv(u) for a branch node or a BSB (the immediate post-dominator of the BSB in C_BSB,
    /// which is the arms' join), else `None`.
    pub fn reconv(&self, u: BlockId) -> Option<BlockId> {
        match self.roles[u] {
            Role::Branch { reconv, .. } | Role::Bsb { reconv, .. } => Some(reconv),
            Role::Plain => None,
        }
    }

    /// SuccBB(u): the first then-arm node of a branch, the first else-arm node of a BSB
    /// (Reconv when the else-arm is empty), the first successor of a plain block; `len()` (the
    /// virtual exit) for the exit.
    pub fn succ_bb(&self, u: BlockId) -> BlockId {
        self.cfg.blocks[u]
            .succs
            .first()
            .copied()
            .unwrap_or(self.len())
    }

    /// The successors of `u` in C_BSB.
    pub fn succs(&self, u: BlockId) -> &[BlockId] {
        &self.cfg.blocks[u].succs
    }

    /// PARENT(u) (the PWS paper's Definition 4.1, Eq. 1): the innermost (largest) `v` in B ∪ L with
    /// `v < u < Reconv(v)`, or `None` (the paper's 0). Then-arm nodes get their branch, else-arm
    /// nodes their branch's BSB.
    pub fn parent(&self, u: BlockId) -> Option<BlockId> {
        (0..u.min(self.len()))
            .rev()
            .find(|&v| self.reconv(v).is_some_and(|r| u < r))
    }
}

/// Nodes reachable from `from` without passing through `stop` (empty if `from == stop`).
fn arm(succs: &[Vec<BlockId>], from: BlockId, stop: BlockId) -> BTreeSet<BlockId> {
    let mut seen = BTreeSet::new();
    let mut stack = vec![from];
    while let Some(x) = stack.pop() {
        if x == stop || !seen.insert(x) {
            continue;
        }
        stack.extend(succs[x].iter().copied());
    }
    seen
}

fn preds(succs: &[Vec<BlockId>]) -> Vec<Vec<BlockId>> {
    let mut p = vec![Vec::new(); succs.len()];
    for (u, ss) in succs.iter().enumerate() {
        for &s in ss {
            p[s].push(u);
        }
    }
    p
}

/// A block on a cycle (target of a back edge), if any. Iterative three-colour DFS from every block.
fn find_cycle(succs: &[Vec<BlockId>]) -> Option<BlockId> {
    let n = succs.len();
    let mut colour = vec![0u8; n]; // 0 white, 1 on stack, 2 done
    for root in 0..n {
        if colour[root] != 0 {
            continue;
        }
        let mut stack = vec![(root, 0usize)];
        colour[root] = 1;
        while let Some(&mut (v, ref mut i)) = stack.last_mut() {
            if let Some(&s) = succs[v].get(*i) {
                *i += 1;
                match colour[s] {
                    0 => {
                        colour[s] = 1;
                        stack.push((s, 0));
                    }
                    1 => return Some(s),
                    _ => {}
                }
            } else {
                colour[v] = 2;
                stack.pop();
            }
        }
    }
    None
}

/// Reverse post-order from `entry`, visiting successors last-to-first (see [`Cfg::layout_order`]).
/// Only reachable blocks appear. Assumes no cycle.
fn layout_order(succs: &[Vec<BlockId>], entry: BlockId) -> Vec<BlockId> {
    let mut seen = vec![false; succs.len()];
    let mut post = Vec::with_capacity(succs.len());
    let mut stack = vec![(entry, 0usize)];
    seen[entry] = true;
    while let Some(&mut (v, ref mut i)) = stack.last_mut() {
        let k = succs[v].len();
        if *i < k {
            let s = succs[v][k - 1 - *i];
            *i += 1;
            if !seen[s] {
                seen[s] = true;
                stack.push((s, 0));
            }
        } else {
            post.push(v);
            stack.pop();
        }
    }
    post.reverse();
    post
}

/// Immediate post-dominators on a DAG, given a topological `order` of the blocks reachable from
/// the entry (Cooper–Harvey–Kennedy intersection; one reverse pass suffices on a DAG).
fn ipdoms(succs: &[Vec<BlockId>], exit: BlockId, order: &[BlockId]) -> Vec<Option<BlockId>> {
    let n = succs.len();
    let mut pos = vec![usize::MAX; n];
    for (i, &v) in order.iter().enumerate() {
        pos[v] = i;
    }
    let mut ipd: Vec<Option<BlockId>> = vec![None; n];
    ipd[exit] = Some(exit);
    for &v in order.iter().rev() {
        if v == exit {
            continue;
        }
        let mut cur: Option<BlockId> = None;
        for &s in &succs[v] {
            if ipd[s].is_none() {
                continue; // cannot reach the exit
            }
            cur = Some(match cur {
                None => s,
                Some(mut a) => {
                    let mut b = s;
                    while a != b {
                        while pos[a] < pos[b] {
                            a = ipd[a].unwrap_or(exit);
                        }
                        while pos[b] < pos[a] {
                            b = ipd[b].unwrap_or(exit);
                        }
                    }
                    a
                }
            });
        }
        ipd[v] = cur;
    }
    ipd[exit] = None;
    ipd
}
