//! Editing a kernel as an instruction list with branch targets as instruction indices, then
//! laying it out again: SOPP offsets recomputed (`target = pc + 4 + 4·simm16`) and encoded.

use super::error::PassError;
use super::pat;
use super::structure::Kstruct;
use crate::isa::Instruction;

/// Where a branch lands, named by an input instruction index.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Tgt {
    /// The first output instruction of input instruction `k`'s group: what was inserted before
    /// it, else itself, else (deleted) whatever follows. Ordinary branches use this, so a loop
    /// exit to an arm's end still executes the `s_waitcnt 0` closing the arm.
    Entry(usize),
    /// Input instruction `k` itself: if-skips land exactly on the else-head or the join.
    Exact(usize),
}

/// One output instruction.
#[derive(Clone, Debug)]
pub(crate) struct Node {
    insn: Instruction,
    target: Option<Tgt>,
}

impl Node {
    /// An inserted instruction that is not a branch.
    pub fn plain(insn: Instruction) -> Self {
        Node { insn, target: None }
    }

    /// An inserted `s_cbranch_execz` to input instruction `k` exactly.
    pub fn skip_to(k: usize) -> Self {
        Node {
            insn: pat::execz(),
            target: Some(Tgt::Exact(k)),
        }
    }
}

/// Pending insertions and deletions over the instructions of a [`Kstruct`].
pub(crate) struct Edits<'a> {
    ks: &'a Kstruct,
    before: Vec<Vec<Node>>,
    after: Vec<Vec<Node>>,
    dropped: Vec<bool>,
    skips: Vec<bool>,
}

impl<'a> Edits<'a> {
    /// No edit yet.
    pub fn new(ks: &'a Kstruct) -> Self {
        let n = ks.insns().len();
        let mut skips = vec![false; n];
        for f in ks.ifs() {
            for k in [f.then_skip, f.else_skip].into_iter().flatten() {
                skips[k] = true;
            }
        }
        Edits {
            ks,
            before: vec![Vec::new(); n],
            after: vec![Vec::new(); n],
            dropped: vec![false; n],
            skips,
        }
    }

    /// Deletes input instruction `k`.
    pub fn drop(&mut self, k: usize) {
        self.dropped[k] = true;
    }

    /// Inserts `node` before input instruction `k` (after earlier insertions there).
    pub fn before(&mut self, k: usize, node: Node) {
        self.before[k].push(node);
    }

    /// Inserts `node` after input instruction `k` (after earlier insertions there).
    pub fn after(&mut self, k: usize, node: Node) {
        self.after[k].push(node);
    }

    /// Whether the output right before input instruction `end` is an input `s_waitcnt 0`
    /// that stays and has nothing inserted after it.
    pub fn waits_before(&self, end: usize) -> bool {
        let Some(last) = end.checked_sub(1) else {
            return false;
        };
        self.before[end].is_empty()
            && !self.dropped[last]
            && self.after[last].is_empty()
            && pat::is_waitcnt0(&self.ks.insns()[last].insn)
    }

    /// The input instruction `k` as an output node.
    fn original(&self, k: usize) -> Node {
        let i = &self.ks.insns()[k];
        let target = i.target.map(|t| {
            if self.skips[k] {
                Tgt::Exact(t)
            } else {
                Tgt::Entry(t)
            }
        });
        Node {
            insn: i.insn,
            target,
        }
    }

    /// The output nodes and, per input index, the output index of its group (`entry`) and of
    /// itself (`exact`, `usize::MAX` when deleted).
    fn flatten(&self) -> (Vec<Node>, Vec<usize>, Vec<usize>) {
        let n = self.ks.insns().len();
        let mut nodes = Vec::new();
        let mut entry = vec![0; n];
        let mut exact = vec![usize::MAX; n];
        for k in 0..n {
            entry[k] = nodes.len();
            nodes.extend(self.before[k].iter().cloned());
            if !self.dropped[k] {
                exact[k] = nodes.len();
                nodes.push(self.original(k));
            }
            nodes.extend(self.after[k].iter().cloned());
        }
        (nodes, entry, exact)
    }

    /// Lays the edited code out and encodes it.
    pub fn layout(&self) -> Result<Vec<u32>, PassError> {
        let (mut nodes, entry, exact) = self.flatten();
        let mut pcs = Vec::with_capacity(nodes.len());
        let mut pc = 0u32;
        for node in &nodes {
            pcs.push(pc);
            pc += 4 * node.insn.dwords() as u32;
        }
        for (i, node) in nodes.iter_mut().enumerate() {
            let t = match node.target {
                Some(Tgt::Entry(k)) => entry[k],
                Some(Tgt::Exact(k)) => exact[k],
                None => continue,
            };
            let target = *pcs.get(t).ok_or(PassError::Unstructured {
                pc: pcs[i],
                reason: "branch target deleted by the pass",
            })?;
            let offset = (i64::from(target) - i64::from(pcs[i]) - 4) / 4;
            let simm = i16::try_from(offset)
                .map_err(|_| PassError::OffsetOverflow { pc: pcs[i], offset })?;
            node.insn.imm = u32::from(simm as u16);
        }
        let mut code = Vec::with_capacity(pc as usize / 4);
        for (node, &pc) in nodes.iter().zip(&pcs) {
            let words = node.insn.encode().map_err(|e| PassError::Encode {
                pc,
                msg: e.to_string(),
            })?;
            code.extend(words);
        }
        Ok(code)
    }
}
