//! `rtgpu multiphase sgemm`: the toy SGEMM of spec/001-multiphase.md Appendix A (naive and
//! double-buffered) on the SM issue model, against the GUB of the multi-phase analysis; the
//! overestimation table to compare with the paper's Table 4 trends (§6.3).

use crate::sm::{event_log, simulate, Policy, PolicyScheduler};
use crate::tb::sched::{fig3_block, RtlScheduler};
use rtgpu_wcet::multiphase::gub_sections;
use rtgpu_wcet::multiphase::{build_profile, gub};
use rtgpu_wcet::trace::{Block, DynInst, HwDesc, Reg};
use serde::Serialize;

/// Units of the toy, with the Accel-Sim costs of spec §5.2 (init = I, lat = L − I).
pub mod unit {
    /// Integer ALU: int add/mul/mad, (init 2, lat 2).
    pub const INT: usize = 0;
    /// fp32 FMA: (1, 3).
    pub const SP: usize = 1;
    /// Global memory impostor: (1, L − 1), no contention (SA2).
    pub const MEM: usize = 2;
    /// Shared memory: (1, 1).
    pub const LDST: usize = 3;
    /// Every other ALU op, here the barrier: (1, 0). (Accel-Sim issues them to the INT unit
    /// with these costs; the model keys costs per unit, so it is a unit of its own.)
    pub const ALU: usize = 4;
}

/// The units with global memory latency `mem_latency` (≥ 1).
pub fn sgemm_hw(mem_latency: u32) -> HwDesc {
    HwDesc::from_costs(&[
        (2, 2),
        (1, 3),
        (1, mem_latency.saturating_sub(1)),
        (1, 1),
        (1, 0),
    ])
}

/// The two variants of Appendix A.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Variant {
    /// Load a tile, store it to shared memory, barrier, 32 FMAs on it, barrier.
    Naive,
    /// Prefetch the next tile into registers while computing on the current one.
    DoubleBuffering,
}

impl Variant {
    /// The name in tables.
    pub fn name(self) -> &'static str {
        match self {
            Variant::Naive => "naive",
            Variant::DoubleBuffering => "double buffering",
        }
    }
}

/// Registers of the toy: two addresses, two loaded values, two shared-memory operands, the
/// accumulator.
const ADDR: [Reg; 2] = [1, 2];
const VAL: [Reg; 2] = [3, 4];
const OPND: [Reg; 2] = [5, 6];
const ACC: Reg = 7;

fn address_math(p: &mut Vec<DynInst>) {
    p.extend(ADDR.map(|a| DynInst::new(unit::INT, &[], Some(a))));
}

fn global_loads(p: &mut Vec<DynInst>) {
    p.extend([0, 1].map(|i| DynInst::new(unit::MEM, &[ADDR[i]], Some(VAL[i]))));
}

fn shared_stores(p: &mut Vec<DynInst>) {
    p.extend([0, 1].map(|i| DynInst::new(unit::LDST, &[ADDR[i], VAL[i]], None)));
}

/// 32 × (two shared loads, an FMA chained on the accumulator).
fn inner_product(p: &mut Vec<DynInst>) {
    for _ in 0..32 {
        p.extend(OPND.map(|o| DynInst::new(unit::LDST, &[ADDR[0]], Some(o))));
        p.push(DynInst::new(unit::SP, &[ACC, OPND[0], OPND[1]], Some(ACC)));
    }
}

/// One warp's path: `iterations` tiles.
pub fn sgemm_path(variant: Variant, iterations: usize) -> Vec<DynInst> {
    let mut p = Vec::new();
    let barrier = || DynInst::barrier(unit::ALU);
    if variant == Variant::DoubleBuffering {
        address_math(&mut p);
        global_loads(&mut p);
        shared_stores(&mut p);
        p.push(barrier());
    }
    for _ in 0..iterations {
        address_math(&mut p);
        global_loads(&mut p);
        if variant == Variant::Naive {
            shared_stores(&mut p);
            p.push(barrier());
            inner_product(&mut p);
        } else {
            inner_product(&mut p);
            shared_stores(&mut p);
        }
        p.push(barrier());
    }
    p
}

/// The block: `warps` warps, each running `warps` iterations (Appendix A).
pub fn sgemm_block(variant: Variant, warps: usize) -> Block {
    vec![sgemm_path(variant, warps); warps]
}

/// One cell of the table.
#[derive(Clone, Debug, Serialize)]
pub struct Cell {
    /// The variant.
    pub variant: Variant,
    /// Global memory latency, cycles.
    pub mem_latency: u32,
    /// Warps (and iterations).
    pub warps: usize,
    /// The policy simulated.
    pub policy: &'static str,
    /// Simulated block time.
    pub simulated: u64,
    /// The bound.
    pub gub: u64,
    /// (GUB − simulated) / simulated, percent.
    pub overestimation_pct: f64,
}

/// Simulates and bounds one configuration.
pub fn cell(
    variant: Variant,
    mem_latency: u32,
    warps: usize,
    policy: Policy,
) -> Result<Cell, String> {
    let block = sgemm_block(variant, warps);
    let hw = sgemm_hw(mem_latency);
    let mut sched = PolicyScheduler::new(policy, warps);
    let simulated = simulate(&block, &hw, &mut sched)
        .map_err(|e| e.to_string())?
        .block_time;
    let gub = gub_sections(&block, &hw).map_err(|e| e.to_string())?.gub;
    Ok(Cell {
        variant,
        mem_latency,
        warps,
        policy: policy.name(),
        simulated,
        gub,
        overestimation_pct: 100.0 * (gub as f64 - simulated as f64) / simulated.max(1) as f64,
    })
}

/// Every cell of the grid, computed on the machine's cores (crossbeam scoped threads).
pub fn table(warps: &[usize], latencies: &[u32], policy: Policy) -> Result<Vec<Cell>, String> {
    let mut jobs = Vec::new();
    for variant in [Variant::Naive, Variant::DoubleBuffering] {
        for &l in latencies {
            for &w in warps {
                jobs.push((variant, l, w));
            }
        }
    }
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let chunks: Vec<_> = jobs.chunks(jobs.len().div_ceil(threads).max(1)).collect();
    let results: Vec<Result<Vec<Cell>, String>> = crossbeam::scope(|s| {
        let handles: Vec<_> = chunks
            .iter()
            .map(|chunk| {
                s.spawn(move |_| {
                    chunk
                        .iter()
                        .map(|&(v, l, w)| cell(v, l, w, policy))
                        .collect()
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_else(|_| Err("a worker panicked".into())))
            .collect()
    })
    .map_err(|_| "a worker panicked".to_string())?;
    results.into_iter().try_fold(Vec::new(), |mut all, r| {
        all.extend(r?);
        Ok(all)
    })
}

/// The table as text: one row per (variant, latency), one column per warp count, like Table 4.
pub fn render(cells: &[Cell], warps: &[usize], latencies: &[u32]) -> String {
    let mut out = format!("{:<18} {:>9}", "variant", "mem. lat.");
    for w in warps {
        out += &format!(" {:>10}", format!("{w} warps"));
    }
    out += "\n";
    for variant in [Variant::Naive, Variant::DoubleBuffering] {
        for &l in latencies.iter().rev() {
            out += &format!("{:<18} {:>9}", variant.name(), l);
            for &w in warps {
                let c = cells
                    .iter()
                    .find(|c| c.variant == variant && c.mem_latency == l && c.warps == w);
                out += &c.map_or_else(
                    || format!(" {:>10}", "-"),
                    |c| format!(" {:>9.2}%", c.overestimation_pct),
                );
            }
            out += "\n";
        }
    }
    out
}

/// The paper's Fig. 3 block (two warps of the Fig. 2 kernel) on the RTL warp scheduler: the
/// event log, the simulated block time, each warp's isolated profile and the GUB.
pub fn fig3_report(policy: Policy) -> Result<String, String> {
    let (block, hw) = fig3_block();
    let mut rtl = RtlScheduler::<64>::new(policy).map_err(|e| e.to_string())?;
    let run = simulate(&block, &hw, &mut rtl).map_err(|e| e.to_string())?;
    if let Some(e) = rtl.error {
        return Err(e.to_string());
    }
    let profiles = block
        .iter()
        .map(|p| build_profile(p, &hw))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| e.to_string())?;
    let bound = gub(&profiles);
    let mut out = event_log(&run, &block);
    out += &format!(
        "# {} on the RTL scheduler: block time {}; GUB {} (WUB {:?}); paper: GTO 17, LRR 18, GUB 23\n",
        policy.name(),
        run.block_time,
        bound.gub,
        bound.wub
    );
    Ok(out)
}
