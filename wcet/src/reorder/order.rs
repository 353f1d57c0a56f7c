//! The Reordering Unit's release order: a pure function of the analysis (rule R0
//! of Section III-E of the reordering paper, or our generalisation R1).
//!
//! One SM; its blocks launch in increasing linear ID and are cut into **waves** of
//! `resident_blocks` consecutive blocks: `wave(b) = b / resident_blocks` (our wave rule;
//! with one SM, block b's SM is b mod 1 = 0). The unit serves only the current wave's warps and
//! moves to the next wave when every instance of the current one is released, so the wave is the
//! most significant part of every key.
//!
//! - **R0** (the paper's rule, loop-free kernels): the next release is the lexicographic
//!   minimum over **all** pending instances of the active blocks by [`R0Key`]
//!   `(wave, pc, block, warp)`: lowest PC first, ties by block linear ID, then warp index
//!   (block-major, which matches the paper's Fig. 7). R0 keeps one pending bit per (warp, PC), so
//!   it is undefined when a warp executes a PC twice (a loop): that is an error.
//! - **R1** (ours): the next release is the minimum over each warp's **head** (its next
//!   unreleased instance, so every warp's instances go in program order) by [`R1Key`]
//!   `(wave, epoch, k, pc_idx, block, warp)`. With `epoch_major = false` the epoch field is
//!   zeroed, giving `(wave, k, pc_idx, block, warp)`: that reproduces R0 on kernels with barriers
//!   but no loops, and must not be used when a loop contains a barrier (a warp at the barrier would
//!   wait for a warp whose load is held back behind it; see
//!   [`check_barrier_safe`]).
//!
//! On loop-free, barrier-free kernels whose warp traces are PC-ascending (structured forward
//! code, fall-through first) R1 ≡ R0.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};
use std::fmt;

use serde::{Deserialize, Serialize};

use super::analyzer::{Access, Analysis, MalformedAnalysis};

/// The release rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Rule {
    /// The paper's rule (Section III-E): global PC-major over all pending instances of the wave.
    R0,
    /// The generalised rule (ours): heads only, epoch-major (or not), iteration-major.
    R1 {
        /// Put the barrier epoch first in the key (required when a loop contains a barrier).
        epoch_major: bool,
    },
}

/// One release: instance `index` of warp `warp` of block `block`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Released {
    /// Block linear ID.
    pub block: u32,
    /// Warp index in the block.
    pub warp: u32,
    /// Index into that warp's [`WarpTrace::accesses`](super::analyzer::WarpTrace::accesses).
    pub index: usize,
}

/// R0's key; compared field by field in declaration order (derived `Ord`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct R0Key {
    /// `block / resident_blocks`.
    pub wave: u32,
    /// The instruction's byte PC.
    pub pc: u32,
    /// Block linear ID.
    pub block: u32,
    /// Warp index.
    pub warp: u32,
}

/// R1's key; compared field by field in declaration order (derived `Ord`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct R1Key {
    /// `block / resident_blocks`.
    pub wave: u32,
    /// Barriers passed (0 when `epoch_major` is false).
    pub epoch: u8,
    /// Earlier instances of the same PC in the warp.
    pub k: u16,
    /// Index of the PC in `LDSTPCList`.
    pub pc_idx: u8,
    /// Block linear ID.
    pub block: u32,
    /// Warp index.
    pub warp: u32,
}

impl R1Key {
    /// The key of access `a` of warp (`block`, `warp`).
    pub fn new(a: &Access, block: u32, warp: u32, resident_blocks: u32, epoch_major: bool) -> Self {
        R1Key {
            wave: block / resident_blocks.max(1),
            epoch: if epoch_major { a.epoch } else { 0 },
            k: a.k,
            pc_idx: a.pc_idx,
            block,
            warp,
        }
    }
}

/// Why no order (or an unsafe one) was produced.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OrderError {
    /// `resident_blocks` is 0 (or does not fit 32 bits).
    BadResidency {
        /// The value given.
        resident_blocks: usize,
    },
    /// R0 was asked for a kernel where a warp executes a PC more than once.
    LoopInR0 {
        /// Block linear ID.
        block: u32,
        /// Warp index.
        warp: u32,
        /// The repeated PC.
        pc: u32,
    },
    /// The analysis breaks an invariant ([`Analysis::validate`]).
    Malformed(MalformedAnalysis),
    /// A given order is not a permutation of the analysis' instances.
    NotAPermutation {
        /// Position in the order.
        position: usize,
        /// What is wrong.
        reason: String,
    },
    /// A release would let a warp's barrier-later instance go before a block-mate's
    /// barrier-earlier one, which can deadlock the barrier.
    BarrierUnsafe {
        /// Position in the order.
        position: usize,
        /// Block linear ID.
        block: u32,
        /// The released warp.
        warp: u32,
        /// Its epoch.
        epoch: u8,
        /// The block-mate that still has an instance of a smaller epoch.
        pending_warp: u32,
        /// That instance's epoch.
        pending_epoch: u8,
    },
}

impl fmt::Display for OrderError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::BadResidency { resident_blocks } => write!(
                f,
                "resident_blocks = {resident_blocks}; it must be between 1 and 2^32 − 1"
            ),
            Self::LoopInR0 { block, warp, pc } => write!(
                f,
                "R0 is undefined for loops: block {block} warp {warp} executes PC {pc} more than \
                 once (use R1)"
            ),
            Self::Malformed(m) => write!(f, "{m}"),
            Self::NotAPermutation { position, reason } => {
                write!(f, "order position {position}: {reason}")
            }
            Self::BarrierUnsafe {
                position,
                block,
                warp,
                epoch,
                pending_warp,
                pending_epoch,
            } => write!(
                f,
                "order position {position}: block {block} warp {warp} releases an epoch-{epoch} \
                 instance while warp {pending_warp} still has an epoch-{pending_epoch} one (the \
                 barrier can deadlock; use epoch_major)"
            ),
        }
    }
}

impl std::error::Error for OrderError {}

fn residency(resident_blocks: usize) -> Result<u32, OrderError> {
    u32::try_from(resident_blocks)
        .ok()
        .filter(|&r| r > 0)
        .ok_or(OrderError::BadResidency { resident_blocks })
}

/// The release order of every instance of the analysis under `rule`, with waves of
/// `resident_blocks` blocks.
pub fn release_order(
    a: &Analysis,
    rule: Rule,
    resident_blocks: usize,
) -> Result<Vec<Released>, OrderError> {
    let r = residency(resident_blocks)?;
    a.validate().map_err(OrderError::Malformed)?;
    match rule {
        Rule::R0 => r0_order(a, r),
        Rule::R1 { epoch_major } => Ok(r1_order(a, r, epoch_major)),
    }
}

/// R0: every instance sorted by [`R0Key`] (one instance per (warp, PC), so the sort is the
/// repeated minimum over all pending instances).
fn r0_order(a: &Analysis, r: u32) -> Result<Vec<Released>, OrderError> {
    let mut keyed = Vec::with_capacity(a.instance_count());
    for t in &a.warps {
        let mut seen = HashMap::new();
        for (index, acc) in t.accesses.iter().enumerate() {
            if seen.insert(acc.pc, index).is_some() {
                return Err(OrderError::LoopInR0 {
                    block: t.block,
                    warp: t.warp,
                    pc: acc.pc,
                });
            }
            let key = R0Key {
                wave: t.block / r,
                pc: acc.pc,
                block: t.block,
                warp: t.warp,
            };
            keyed.push((key, index));
        }
    }
    keyed.sort_unstable();
    Ok(keyed
        .into_iter()
        .map(|(k, index)| Released {
            block: k.block,
            warp: k.warp,
            index,
        })
        .collect())
}

/// R1: a heap of warp heads keyed by [`R1Key`].
fn r1_order(a: &Analysis, r: u32, epoch_major: bool) -> Vec<Released> {
    let key = |w: usize, i: usize| {
        let t = &a.warps[w];
        R1Key::new(&t.accesses[i], t.block, t.warp, r, epoch_major)
    };
    let mut heap: BinaryHeap<Reverse<(R1Key, usize)>> = (0..a.warps.len())
        .filter(|&w| !a.warps[w].accesses.is_empty())
        .map(|w| Reverse((key(w, 0), w)))
        .collect();
    let mut next = vec![0usize; a.warps.len()];
    let mut out = Vec::with_capacity(a.instance_count());
    while let Some(Reverse((k, w))) = heap.pop() {
        out.push(Released {
            block: k.block,
            warp: k.warp,
            index: next[w],
        });
        next[w] += 1;
        if next[w] < a.warps[w].accesses.len() {
            heap.push(Reverse((key(w, next[w]), w)));
        }
    }
    out
}

/// Checks that `order` releases every instance of `a` exactly once, and returns the released
/// accesses in order.
pub fn check_permutation<'a>(
    a: &'a Analysis,
    order: &[Released],
) -> Result<Vec<&'a Access>, OrderError> {
    let pos: HashMap<(u32, u32), usize> = a
        .warps
        .iter()
        .enumerate()
        .map(|(i, t)| ((t.block, t.warp), i))
        .collect();
    let mut used: Vec<Vec<bool>> = a
        .warps
        .iter()
        .map(|t| vec![false; t.accesses.len()])
        .collect();
    let mut out = Vec::with_capacity(order.len());
    for (position, r) in order.iter().enumerate() {
        let err = |reason: String| OrderError::NotAPermutation { position, reason };
        let w = *pos
            .get(&(r.block, r.warp))
            .ok_or_else(|| err(format!("no warp {} in block {}", r.warp, r.block)))?;
        let slot = used[w].get_mut(r.index).ok_or_else(|| {
            err(format!(
                "warp ({}, {}) has no access {}",
                r.block, r.warp, r.index
            ))
        })?;
        if std::mem::replace(slot, true) {
            return Err(err(format!(
                "({}, {}, {}) released twice",
                r.block, r.warp, r.index
            )));
        }
        out.push(&a.warps[w].accesses[r.index]);
    }
    if out.len() != a.instance_count() {
        return Err(OrderError::NotAPermutation {
            position: order.len(),
            reason: format!("{} of {} instances released", out.len(), a.instance_count()),
        });
    }
    Ok(out)
}

/// True when every warp's instances appear in `order` in program order.
pub fn in_program_order(order: &[Released]) -> bool {
    let mut next: HashMap<(u32, u32), usize> = HashMap::new();
    order.iter().all(|r| {
        let n = next.entry((r.block, r.warp)).or_insert(0);
        let ok = *n == r.index;
        *n += 1;
        ok
    })
}

/// Checks the barrier condition of rule R1: no instance of epoch e of a block is released while a
/// block-mate still has an unreleased instance of a smaller epoch (such an order can deadlock a
/// `bar.sync`). `order` must be a permutation of `a`'s instances.
pub fn check_barrier_safe(a: &Analysis, order: &[Released]) -> Result<(), OrderError> {
    let accesses = check_permutation(a, order)?;
    // pending[(block, warp)] = the warp's unreleased epochs, as a count per epoch.
    let mut pending: HashMap<u32, HashMap<u32, Vec<u32>>> = HashMap::new();
    for t in &a.warps {
        let counts = pending
            .entry(t.block)
            .or_default()
            .entry(t.warp)
            .or_insert_with(|| vec![0; 256]);
        for acc in &t.accesses {
            counts[usize::from(acc.epoch)] += 1;
        }
    }
    for (position, (r, acc)) in order.iter().zip(accesses).enumerate() {
        let Some(mates) = pending.get_mut(&r.block) else {
            continue; // unreachable: check_permutation found the warp
        };
        for (&w, counts) in mates.iter() {
            if let Some(e) = counts[..usize::from(acc.epoch)].iter().position(|&c| c > 0) {
                return Err(OrderError::BarrierUnsafe {
                    position,
                    block: r.block,
                    warp: r.warp,
                    epoch: acc.epoch,
                    pending_warp: w,
                    pending_epoch: e as u8,
                });
            }
        }
        if let Some(c) = mates.get_mut(&r.warp) {
            c[usize::from(acc.epoch)] -= 1;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reorder::analyzer::WarpTrace;

    fn acc(pc_idx: u8, k: u16, epoch: u8, line: u32) -> Access {
        Access {
            pc: 0x10 * (u32::from(pc_idx) + 1),
            pc_idx,
            k,
            epoch,
            is_store: false,
            lines: vec![line],
            mask: 1,
        }
    }

    fn analysis(warps: Vec<(u32, u32, Vec<Access>)>) -> Analysis {
        Analysis {
            ldst_pcs: vec![0x10, 0x20, 0x30],
            grid: [4, 1, 1],
            block: [64, 1, 1],
            warps: warps
                .into_iter()
                .map(|(block, warp, accesses)| WarpTrace {
                    block,
                    warp,
                    accesses,
                })
                .collect(),
        }
    }

    fn rel(block: u32, warp: u32, index: usize) -> Released {
        Released { block, warp, index }
    }

    #[test]
    fn r0_is_pc_major_then_block_then_warp() {
        let a = analysis(vec![
            (0, 0, vec![acc(1, 0, 0, 0)]),
            (0, 1, vec![acc(0, 0, 0, 0), acc(1, 0, 0, 0)]),
            (1, 0, vec![acc(0, 0, 0, 0)]),
        ]);
        let o = release_order(&a, Rule::R0, 8).unwrap();
        assert_eq!(
            o,
            vec![rel(0, 1, 0), rel(1, 0, 0), rel(0, 0, 0), rel(0, 1, 1)]
        );
        assert_eq!(
            release_order(&a, Rule::R1 { epoch_major: true }, 8).unwrap(),
            o
        );
        // One resident block: block 1 waits for block 0's wave.
        let o1 = release_order(&a, Rule::R0, 1).unwrap();
        assert_eq!(
            o1,
            vec![rel(0, 1, 0), rel(0, 0, 0), rel(0, 1, 1), rel(1, 0, 0)]
        );
        assert_eq!(
            release_order(&a, Rule::R1 { epoch_major: false }, 1).unwrap(),
            o1
        );
    }

    #[test]
    fn r1_is_heads_only_epoch_then_iteration_major() {
        // warp 0: pc0 | barrier | pc1; warp 1: pc0, pc0 (a loop) | barrier | pc1.
        let a = analysis(vec![
            (0, 0, vec![acc(0, 0, 0, 0), acc(1, 0, 1, 1)]),
            (
                0,
                1,
                vec![acc(0, 0, 0, 2), acc(0, 1, 0, 3), acc(1, 0, 1, 4)],
            ),
        ]);
        let em = release_order(&a, Rule::R1 { epoch_major: true }, 1).unwrap();
        let want = vec![
            rel(0, 0, 0),
            rel(0, 1, 0),
            rel(0, 1, 1),
            rel(0, 0, 1),
            rel(0, 1, 2),
        ];
        assert_eq!(em, want);
        check_barrier_safe(&a, &em).unwrap();
        // Without the epoch, warp 0's epoch-1 instance (k 0) beats warp 1's epoch-0 one (k 1).
        let naive = release_order(&a, Rule::R1 { epoch_major: false }, 1).unwrap();
        let want = vec![
            rel(0, 0, 0),
            rel(0, 1, 0),
            rel(0, 0, 1),
            rel(0, 1, 1),
            rel(0, 1, 2),
        ];
        assert_eq!(naive, want);
        assert!(in_program_order(&naive) && in_program_order(&em));
        let e = check_barrier_safe(&a, &naive).unwrap_err();
        assert!(matches!(
            e,
            OrderError::BarrierUnsafe {
                position: 2,
                pending_warp: 1,
                pending_epoch: 0,
                ..
            }
        ));
        let e = release_order(&a, Rule::R0, 1);
        assert_eq!(
            e,
            Err(OrderError::LoopInR0 {
                block: 0,
                warp: 1,
                pc: 0x10
            })
        );
    }

    #[test]
    fn bad_inputs() {
        let a = analysis(vec![(0, 0, vec![acc(0, 0, 0, 0)])]);
        assert_eq!(
            release_order(&a, Rule::R0, 0),
            Err(OrderError::BadResidency { resident_blocks: 0 })
        );
        let mut bad = a.clone();
        bad.warps[0].accesses[0].pc = 0x20;
        assert!(matches!(
            release_order(&bad, Rule::R0, 1),
            Err(OrderError::Malformed(_))
        ));
        assert!(check_permutation(&a, &[rel(0, 0, 0), rel(0, 0, 0)]).is_err());
        assert!(check_permutation(&a, &[rel(0, 1, 0)]).is_err());
        assert!(check_permutation(&a, &[]).is_err());
        assert!(!in_program_order(&[rel(0, 0, 1), rel(0, 0, 0)]));
    }
}
