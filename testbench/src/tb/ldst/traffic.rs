//! Warp-level traffic for the LD/ST path: N warps, each a list of global memory instructions
//! (`pc_idx`, the 32 lanes' byte addresses and active mask, load or store, barrier epoch).
//!
//! A [`Traffic`] converts both ways with the kernel analyzer's output
//! ([`rtgpu_wcet::reorder::analyzer::Analysis`]): [`Traffic::from_analysis`] turns an analysed
//! kernel into traffic, [`Traffic::analysis`] gives the analysis (the reordering configuration
//! and the estimator's input) of any traffic, random traffic included.

use rand::Rng;
use rtgpu_wcet::reorder::analyzer::{Access, Analysis, WarpTrace};
use serde::{Deserialize, Serialize};

/// Lanes of a warp.
pub const LANES: usize = 32;
/// log2 of the line size (128 bytes).
const LINE_SHIFT: u32 = 7;

/// One warp-level global load or store.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WarpInsn {
    /// Index of the instruction's PC in [`Traffic::ldst_pcs`].
    pub pc_idx: u8,
    /// A store (else a load).
    pub store: bool,
    /// Byte address of each lane.
    pub addr: [u32; LANES],
    /// Active lanes (bit l = lane l); 0 gives an instruction without line accesses.
    pub mask: u32,
    /// Barriers the warp passed before it.
    pub epoch: u8,
}

impl WarpInsn {
    /// The distinct line numbers of the active lanes, ascending (what the coalescer emits).
    pub fn lines(&self) -> Vec<u32> {
        let mut v: Vec<u32> = (0..LANES)
            .filter(|&l| self.mask >> l & 1 == 1)
            .map(|l| self.addr[l] >> LINE_SHIFT)
            .collect();
        v.sort_unstable();
        v.dedup();
        v
    }
}

/// N warps' global memory instructions, in program order per warp.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Traffic {
    /// Warps per block: warp `i` is warp `i % warps_per_block` of block `i / warps_per_block`.
    pub warps_per_block: u32,
    /// The static PCs of the global ld/st instructions, ascending.
    pub ldst_pcs: Vec<u32>,
    /// Each warp's instructions.
    pub warps: Vec<Vec<WarpInsn>>,
}

/// Parameters of [`Traffic::random`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RandomTraffic {
    /// Warps.
    pub warps: usize,
    /// Warps per block.
    pub warps_per_block: u32,
    /// Static ld/st PCs of the program (1..=256).
    pub pcs: usize,
    /// Times each warp runs the program (loop iterations, 1 = loop-free).
    pub iterations: usize,
    /// Distinct lines the lanes address (small = many conflicts).
    pub lines: u32,
    /// Percent of instructions that are stores.
    pub store_percent: u32,
}

impl Traffic {
    /// The static block and warp of warp `i`.
    pub fn block_warp(&self, i: usize) -> (u32, u32) {
        let wpb = self.warps_per_block.max(1) as usize;
        ((i / wpb) as u32, (i % wpb) as u32)
    }

    /// Blocks (the last one may be partial).
    pub fn blocks(&self) -> u32 {
        self.warps
            .len()
            .div_ceil(self.warps_per_block.max(1) as usize) as u32
    }

    /// The traffic of an analysed kernel: lane `j` of an instance addresses its `j`-th line
    /// (so the coalesced lines, the only thing the L1 sees, are the analyzer's).
    pub fn from_analysis(a: &Analysis) -> Result<Traffic, String> {
        let wpb = a
            .block
            .iter()
            .product::<u32>()
            .div_ceil(LANES as u32)
            .max(1);
        let mut warps = Vec::with_capacity(a.warps.len());
        for (i, t) in a.warps.iter().enumerate() {
            if (t.block * wpb + t.warp) as usize != i {
                return Err(format!(
                    "the analysis lacks warps before block {} warp {}",
                    t.block, t.warp
                ));
            }
            warps.push(t.accesses.iter().map(insn_of).collect());
        }
        Ok(Traffic {
            warps_per_block: wpb,
            ldst_pcs: a.ldst_pcs.clone(),
            warps,
        })
    }

    /// The kernel analyzer's output for this traffic: `k` counts the warp's earlier instances
    /// of the same PC, one wave of every block.
    pub fn analysis(&self) -> Analysis {
        let warps = self
            .warps
            .iter()
            .enumerate()
            .map(|(i, insns)| {
                let (block, warp) = self.block_warp(i);
                WarpTrace {
                    block,
                    warp,
                    accesses: self.accesses(insns),
                }
            })
            .collect();
        Analysis {
            ldst_pcs: self.ldst_pcs.clone(),
            grid: [self.blocks(), 1, 1],
            block: [self.warps_per_block * LANES as u32, 1, 1],
            warps,
        }
    }

    fn accesses(&self, insns: &[WarpInsn]) -> Vec<Access> {
        let mut seen = vec![0u16; self.ldst_pcs.len()];
        insns
            .iter()
            .map(|x| {
                let k = seen[usize::from(x.pc_idx)];
                seen[usize::from(x.pc_idx)] += 1;
                Access {
                    pc: self.ldst_pcs[usize::from(x.pc_idx)],
                    pc_idx: x.pc_idx,
                    k,
                    epoch: x.epoch,
                    is_store: x.store,
                    lines: x.lines(),
                    mask: x.mask,
                }
            })
            .collect()
    }

    /// Random traffic: every warp runs the same program of `pcs` ld/st PCs `iterations` times
    /// (a loop without barriers), skipping each instruction with probability 1/4 (divergence
    /// around it); lanes address `lines` distinct lines, masks are random (now and then
    /// empty).
    pub fn random(rng: &mut impl Rng, p: RandomTraffic) -> Traffic {
        let pcs = p.pcs.clamp(1, 256);
        let stores: Vec<bool> = (0..pcs)
            .map(|_| rng.gen_range(0..100) < p.store_percent)
            .collect();
        let mut warps = Vec::with_capacity(p.warps);
        for _ in 0..p.warps {
            let mut insns = Vec::new();
            for pc in (0..p.iterations).flat_map(|_| 0..pcs) {
                if rng.gen_range(0..4) != 0 {
                    insns.push(random_insn(rng, pc as u8, stores[pc], p.lines));
                }
            }
            warps.push(insns);
        }
        Traffic {
            warps_per_block: p.warps_per_block.max(1),
            ldst_pcs: (0..pcs as u32).map(|i| 64 + 16 * i).collect(),
            warps,
        }
    }

    /// Instructions in all warps.
    pub fn instructions(&self) -> usize {
        self.warps.iter().map(Vec::len).sum()
    }
}

/// The instruction of an analysed instance.
fn insn_of(a: &Access) -> WarpInsn {
    let mut addr = [0u32; LANES];
    for (j, &line) in a.lines.iter().enumerate() {
        addr[j] = line << LINE_SHIFT;
    }
    let mask = if a.lines.len() >= LANES {
        u32::MAX
    } else {
        (1u32 << a.lines.len()) - 1
    };
    WarpInsn {
        pc_idx: a.pc_idx,
        store: a.is_store,
        addr,
        mask,
        epoch: a.epoch,
    }
}

/// One random instruction.
fn random_insn(rng: &mut impl Rng, pc_idx: u8, store: bool, lines: u32) -> WarpInsn {
    let span = rng.gen_range(1..=4u32);
    let base = rng.gen_range(0..lines.max(1));
    let addr = std::array::from_fn(|_| {
        let line = (base + rng.gen_range(0..span)) % lines.max(1);
        (line << LINE_SHIFT) | rng.gen_range(0..128)
    });
    let mask = match rng.gen_range(0..16) {
        0 => 0,
        1..=3 => rng.gen(),
        _ => u32::MAX,
    };
    WarpInsn {
        pc_idx,
        store,
        addr,
        mask,
        epoch: 0,
    }
}
