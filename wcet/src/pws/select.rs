//! Algorithm 1, SELECT (the PWS paper's Section 4.2,
//! docs/works/pws.md#alg-1): choose the split points SB among the
//! programmer-marked branches P under the budget of S SWF contexts, with sibling reuse.

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};

use super::cfg::{BlockId, BsbCfg};

/// The outcome of [`select`].
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Selection {
    /// SB, the selected split points (C_BSB branch ids).
    pub sb: BTreeSet<BlockId>,
    /// Marked branches not selected for lack of a context (Fig. 8: node 13 with S = 2).
    pub rejected: Vec<BlockId>,
    /// Marked ids that are not divergent branch nodes; step 2 of the PWS paper's
    /// compiler flow (Fig. 6) removes such splits.
    pub ignored: Vec<BlockId>,
    /// swfCount, the number of distinct SWF contexts allocated (docs/assumptions.md#A24: use it,
    /// not |SB|, in Eq. 2).
    pub swf_count: usize,
}

/// SELECT(C_BSB, S) over the marked set `marked` (P).
///
/// Clean form of the PWS paper's Algorithm 1:
/// - `swfCount := 0`, `SB := ∅`;
/// - for `u` in P in topological order (C_BSB ids are the code-layout topological order, so
///   ascending id):
///   - if some `v ∈ SB` has `PARENT(u) == PARENT(v)` (a sequential sibling), add `u` to SB,
///     reusing `v`'s context, which frees at its merge;
///   - else if `swfCount < S`, add `u` and increment `swfCount`;
///   - else reject `u`.
///
/// Choices (the paper is silent): duplicate marks count once; marks on ids that are not divergent
/// branch nodes (including out-of-range ids) are dropped into [`Selection::ignored`] (step 2 of
/// Fig. 6);
/// "PARENT = 0" (no enclosing arm) is `None`, and two top-level branches are siblings.
/// PARENT is evaluated literally (`v < u < Reconv(v)`), O(|V|) per marked node.
pub fn select(c: &BsbCfg, marked: &[BlockId], s: usize) -> Selection {
    let mut sel = Selection::default();
    let mut p: BTreeSet<BlockId> = BTreeSet::new();
    for &u in marked {
        if c.is_branch(u) {
            p.insert(u);
        } else if !sel.ignored.contains(&u) {
            sel.ignored.push(u);
        }
    }
    // Parents of the selected nodes, for the sibling test.
    let mut sb_parents: BTreeSet<Option<BlockId>> = BTreeSet::new();
    for u in p {
        let pu = c.parent(u);
        if sb_parents.contains(&pu) {
            sel.sb.insert(u);
        } else if sel.swf_count < s {
            sel.sb.insert(u);
            sb_parents.insert(pu);
            sel.swf_count += 1;
        } else {
            sel.rejected.push(u);
        }
    }
    sel
}
