//! Test support for the reordering unit, shared by the reference model's tests and the RTL
//! tests (`testbench/tests/reorder.rs`; feature `testkit`): test traces and warps, their
//! configuration and requests, a small deterministic generator of random kernels' traces,
//! the static release order of `rtgpu_wcet` for them, and input-script helpers.

use super::model::{entry, request, ReorderIn, WarpConfig};
use rtgpu_wcet::reorder::{release_order, Access, Analysis, Rule, WarpTrace};

/// One access of a test trace.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Acc {
    /// Index of the PC.
    pub pc_idx: u8,
    /// Barriers passed before it.
    pub epoch: u8,
    /// Earlier instances of the same PC.
    pub k: u16,
    /// A store.
    pub store: bool,
}

/// An access with its epoch and k.
pub fn acc(pc_idx: u8, epoch: u8, k: u16, store: bool) -> Acc {
    Acc {
        pc_idx,
        epoch,
        k,
        store,
    }
}

/// One static warp of a test and the slot it runs on.
#[derive(Clone, Debug)]
pub struct Warp {
    /// Runtime slot.
    pub slot: u8,
    /// Block ID.
    pub block: u8,
    /// Warp index.
    pub warp: u8,
    /// Wave.
    pub wave: u8,
    /// Trace, in program order.
    pub accs: Vec<Acc>,
}

impl Warp {
    /// Its configuration for `config_writes`.
    pub fn config(&self) -> WarpConfig {
        let entries = self
            .accs
            .iter()
            .map(|a| entry(a.pc_idx, a.epoch, a.k))
            .collect();
        (self.slot, self.block, self.warp, self.wave, entries)
    }

    /// The request of its access `index` (`seq` and `tag` = `index`).
    pub fn request(&self, index: usize) -> ReorderIn {
        let a = self.accs[index];
        request(self.slot, index as u8, a.pc_idx, a.store, index as u8)
    }
}

/// `n` idle cycles with `rel_ready` and the given rule and search mode.
pub fn idle(n: usize, rule: u8, parallel: bool) -> Vec<ReorderIn> {
    let i = ReorderIn {
        rule,
        parallel,
        rel_ready: true,
        ..ReorderIn::default()
    };
    vec![i; n]
}

/// Puts the request `r` on cycle `c` of `inputs`.
pub fn put(inputs: &mut [ReorderIn], c: usize, r: ReorderIn) {
    let i = &mut inputs[c];
    (i.req_valid, i.req_slot, i.req_seq) = (true, r.req_slot, r.req_seq);
    (i.req_pc_idx, i.req_store, i.req_tag) = (r.req_pc_idx, r.req_store, r.req_tag);
}

/// A small deterministic generator (splitmix64).
pub struct Rng(pub u64);

impl Rng {
    /// The next 64 random bits.
    pub fn bits(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in 0..n.
    pub fn below(&mut self, n: u64) -> u64 {
        self.bits() % n
    }

    /// True with probability `pct` %.
    pub fn chance(&mut self, pct: u64) -> bool {
        self.below(100) < pct
    }
}

/// A loop-free trace: a subset of the kernel's PCs, ascending, epoch = barriers before.
pub fn loop_free_trace(rng: &mut Rng, barrier: &[bool], store: &[bool]) -> Vec<Acc> {
    let mut epoch = 0;
    let mut out = Vec::new();
    for (p, (&b, &st)) in barrier.iter().zip(store).enumerate() {
        epoch += u8::from(b);
        if rng.chance(70) {
            out.push(acc(p as u8, epoch, 0, st));
        }
    }
    out
}

/// A looped trace: the kernel's PCs cut into segments `(lo, hi, max iterations, barrier)`;
/// each warp runs a random number of iterations and skips some instances; `k` counts earlier
/// instances of the PC.
pub fn looped_trace(rng: &mut Rng, segs: &[(usize, usize, u64, bool)], store: &[bool]) -> Vec<Acc> {
    let mut k = vec![0u16; store.len()];
    let (mut epoch, mut out) = (0u8, Vec::new());
    for &(lo, hi, reps, barrier) in segs {
        for _ in 0..1 + rng.below(reps) {
            for p in lo..hi {
                if rng.chance(75) {
                    out.push(acc(p as u8, epoch, k[p], store[p]));
                    k[p] += 1;
                }
            }
            epoch += u8::from(barrier);
        }
    }
    out
}

/// The segments `(lo, hi, max iterations, barrier)` of a looped kernel of `n_pcs` PCs.
pub fn segments(rng: &mut Rng, n_pcs: usize) -> Vec<(usize, usize, u64, bool)> {
    let mut cuts: Vec<usize> = (1..n_pcs).filter(|_| rng.chance(40)).collect();
    cuts.insert(0, 0);
    cuts.push(n_pcs);
    let seg = |w: &[usize]| (w[0], w[1], 1 + rng.below(3), rng.chance(40));
    cuts.windows(2).map(seg).collect()
}

/// `n` warp traces of one random kernel (1..=6 PCs, looped or not), and its PC count.
pub fn gen_traces(rng: &mut Rng, looped: bool, n: usize) -> (u8, Vec<Vec<Acc>>) {
    let n_pcs = 1 + rng.below(6) as usize;
    let store: Vec<bool> = (0..n_pcs).map(|_| rng.chance(40)).collect();
    if looped {
        let segs = segments(rng, n_pcs);
        let t = (0..n).map(|_| looped_trace(rng, &segs, &store)).collect();
        (n_pcs as u8, t)
    } else {
        let barrier: Vec<bool> = (0..n_pcs).map(|_| rng.chance(30)).collect();
        let t = (0..n)
            .map(|_| loop_free_trace(rng, &barrier, &store))
            .collect();
        (n_pcs as u8, t)
    }
}

/// The wcet analysis of `warps` (pc = 64 + 8 · pc_idx, no lines).
pub fn analysis(warps: &[Warp], n_pcs: u8) -> Analysis {
    let mut sorted: Vec<&Warp> = warps.iter().collect();
    sorted.sort_by_key(|w| (w.block, w.warp));
    let access = |a: &Acc| Access {
        pc: 64 + 8 * u32::from(a.pc_idx),
        pc_idx: a.pc_idx,
        k: a.k,
        epoch: a.epoch,
        is_store: a.store,
        lines: vec![],
        mask: 0,
    };
    let trace = |w: &&Warp| WarpTrace {
        block: w.block.into(),
        warp: w.warp.into(),
        accesses: w.accs.iter().map(access).collect(),
    };
    Analysis {
        ldst_pcs: (0..u32::from(n_pcs)).map(|p| 64 + 8 * p).collect(),
        grid: [warps.len() as u32, 1, 1],
        block: [32, 1, 1],
        warps: sorted.iter().map(trace).collect(),
    }
}

/// `rtgpu_wcet::reorder::release_order` of `warps` under the unit's `rule` (0, 2 or 3) with
/// waves of `resident` blocks, as `(slot, index)`.
pub fn wcet_order(warps: &[Warp], n_pcs: u8, rule: u8, resident: usize) -> Vec<(u8, u8)> {
    let r = match rule {
        0 => Rule::R0,
        2 => Rule::R1 { epoch_major: false },
        _ => Rule::R1 { epoch_major: true },
    };
    let order = release_order(&analysis(warps, n_pcs), r, resident).unwrap();
    let slot = |b: u32, w: u32| {
        let warp = warps
            .iter()
            .find(|x| (u32::from(x.block), u32::from(x.warp)) == (b, w));
        warp.unwrap().slot
    };
    order
        .iter()
        .map(|r| (slot(r.block, r.warp), r.index as u8))
        .collect()
}
