//! Algorithm 2, PRUNE (the PWS paper's Section 4.2, reconstructed
//! from a damaged text, docs/works/pws.md#alg-2): for every split point,
//! keep only the longer arm (the worst-case SWF) by removing the edge into the shorter one.

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};

use super::cfg::{BlockId, BsbCfg, Role};

/// The outcome of [`prune`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pruned {
    /// E_r, the removed edges `(from, to)`, in the order PRUNE removed them (reverse topological).
    pub removed: Vec<(BlockId, BlockId)>,
    /// F after the pass, indexed `0..=|V|` (`F[|V|]` is the virtual exit, 0). `F[entry]` equals
    /// IPET(C_out) on a loop-free C_BSB (a self-check).
    pub f: Vec<u64>,
    /// C_out's successor lists: C_BSB's with E_r removed.
    pub succs: Vec<Vec<BlockId>>,
    /// Split branches with an empty else-arm whose else edge (into Reconv) was kept
    /// (docs/assumptions.md#A17).
    pub one_armed: Vec<BlockId>,
}

/// PRUNE(C_BSB, SB) → C_out.
///
/// Clean form of the PWS paper's Algorithm 2, over `u` in reverse topological order (descending
/// id); `F[|V|+1] = 0` is `f[len()]` (step 6):
/// - step 8–9, `u ∈ B`: `F[SuccBB(u)] := F[SuccBB(u)] − F[BSB(u)] + F[Reconv(u)]` (the then-arm
///   entry now holds then + rest; note (a));
/// - steps 10–15, `u ∈ SB`: `F[u] := max(F[SuccBB(u)], F[BSB(u)])`; if
///   `F[SuccBB(u)] < F[BSB(u)]` remove `u → SuccBB(u)` (step 13), else remove
///   `BSB(u) → SuccBB(BSB(u))` (step 15, ties drop the else edge);
/// - step 17, `u ∉ SB`: `F[u] := F[SuccBB(u)] + F[BSB(u)] − F[Reconv(u)]` (serialized);
/// - step 18: `F[u] += e_bb^u + e_bb^BSB(u)`;
/// - step 20, plain `u`: `F[u] := F[SuccBB(u)] + e_bb^u`;
/// - step 22, BSB `u`: `F[u] := F[SuccBB(u)]` (its cost is charged at its branch).
///
/// Choices (the paper is silent):
/// - step 20 for a plain block with several successors (a uniform branch) takes the maximum F
///   over its successors, which is the longest path and keeps note (a)'s additivity;
/// - docs/assumptions.md#A17: when the else-arm is empty (`SuccBB(BSB(u)) = Reconv(u)`), step 15
///   would remove the edge into Reconv and cut every path; the edge is kept (recorded in
///   [`Pruned::one_armed`]). Step 13 cannot fire then, as `F[then] ≥ F[Reconv] = F[BSB]`.
/// - Branches in `sb` that are not branch nodes are ignored.
/// - Steps 9 and 17 add before subtracting, so u64 arithmetic never underflows.
pub fn prune(c: &BsbCfg, sb: &BTreeSet<BlockId>) -> Pruned {
    let n = c.len();
    let mut f = vec![0u64; n + 1];
    let mut removed = Vec::new();
    let mut one_armed = Vec::new();
    for u in (0..n).rev() {
        match c.role(u) {
            Role::Branch { bsb, reconv } => {
                let t = c.succ_bb(u);
                // Step 9.
                f[t] = f[t] + f[reconv] - f[bsb];
                f[u] = if sb.contains(&u) {
                    // Steps 10–15.
                    if f[t] < f[bsb] {
                        removed.push((u, t));
                    } else {
                        let e = c.succ_bb(bsb);
                        if e == reconv {
                            one_armed.push(u);
                        } else {
                            removed.push((bsb, e));
                        }
                    }
                    f[t].max(f[bsb])
                } else {
                    // Step 17.
                    f[t] + f[bsb] - f[reconv]
                };
                // Step 18.
                f[u] += c.wcet(u) + c.wcet(bsb);
            }
            // Step 22.
            Role::Bsb { .. } => f[u] = f[c.succ_bb(u)],
            // Step 20 (max over successors for a uniform branch).
            Role::Plain => {
                let rest = c.succs(u).iter().map(|&s| f[s]).max().unwrap_or(0);
                f[u] = rest + c.wcet(u);
            }
        }
    }
    let succs = (0..n)
        .map(|u| {
            c.succs(u)
                .iter()
                .copied()
                .filter(|&s| !removed.contains(&(u, s)))
                .collect()
        })
        .collect();
    Pruned {
        removed,
        f,
        succs,
        one_armed,
    }
}
