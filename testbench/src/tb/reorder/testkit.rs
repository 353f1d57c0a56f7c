//! Random launches of the reordering unit for the tests: a small deterministic generator
//! ([`Rng`]), random kernels' warp traces ([`gen_traces`]), and the static release order of
//! `rtgpu_wcet` for a set of warps ([`wcet_order`]), the order the unit must release in. The
//! traces and warps are the model's scripts (`rtgpu_hw::reorder::model::{Acc, Warp}`).

use rtgpu_hw::reorder::model::{acc, Acc, Warp};
use rtgpu_wcet::reorder::{release_order, Access, Analysis, Rule, WarpTrace};

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
