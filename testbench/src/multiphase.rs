//! `rtgpu multiphase sgemm`: a toy SGEMM (one block of 32·W threads, 32-wide tiles, naive and
//! double-buffered) on the SM issue model, against the GUB of the multi-phase analysis; the
//! overestimation table to compare with the multi-phase paper's Table 4 trends (its Section 4.2).
//! The toy's instructions name opcode classes of a class table by name ([`ToyClasses`]):
//! Accel-Sim's by default ([`sgemm_hw`]), or one the user edited (`--hw FILE`).

use crate::oracle::sm::{event_log, simulate, Policy, PolicyScheduler};
use crate::tb::sched::{fig3_block, RtlScheduler};
use rtgpu_wcet::multiphase::gub_sections;
use rtgpu_wcet::multiphase::{build_profile, gub};
use rtgpu_wcet::trace::{Block, DynInst, HwDesc, Reg};
use serde::Serialize;

/// The opcode classes the toy uses, by name: address math `int`, the FMA `fp32`, global loads
/// `mem`, shared loads and stores `shared`, the barrier `alu`.
pub const TOY_CLASSES: [&str; 5] = ["int", "fp32", "mem", "shared", "alu"];

/// The indices of the toy's classes ([`TOY_CLASSES`]) in a class table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ToyClasses {
    /// `int`: address math.
    pub int: usize,
    /// `fp32`: the FMA.
    pub fp32: usize,
    /// `mem`: global loads.
    pub mem: usize,
    /// `shared`: shared-memory loads and stores.
    pub shared: usize,
    /// `alu`: the barrier (one issue slot, init 1, lat 0).
    pub alu: usize,
}

impl ToyClasses {
    /// Looks the toy's classes up by name in `hw`.
    ///
    /// # Errors
    /// A message naming the first class `hw` lacks.
    pub fn lookup(hw: &HwDesc) -> Result<Self, String> {
        let find = |name: &str| {
            hw.class_by_name(name).ok_or_else(|| {
                format!(
                    "the hardware table has no opcode class `{name}`; the SGEMM toy needs {}",
                    TOY_CLASSES.join(", ")
                )
            })
        };
        Ok(Self {
            int: find("int")?,
            fp32: find("fp32")?,
            mem: find("mem")?,
            shared: find("shared")?,
            alu: find("alu")?,
        })
    }
}

/// The toy's default table: Accel-Sim's ([`HwDesc::gpgpu_sim`]) with global memory latency
/// `mem_latency` (≥ 1): `int` INT (2, 2), `fp32` SP (1, 3), `mem` MEM (1, L − 1), `shared`
/// LDST (1, 1) and the barrier's `alu` (1, 0) on INT.
///
/// The barrier is "an issued ALU instruction"; an earlier version of this toy keyed
/// costs per unit, so its ALU (1, 0) had to be a unit apart from INT (2, 2). With costs per
/// class the barrier is where Accel-Sim issues `bar.sync` and every other `ALU_OP`: on
/// INT, with the same (1, 0) and one issue slot. For this toy the two placements
/// give the same simulated times and GUBs in every cell of the default table, under LRR and
/// GTO (compared when the classes came in; the test `sgemm_barrier_on_int_as_on_its_own_unit`
/// keeps a subset).
pub fn sgemm_hw(mem_latency: u32) -> HwDesc {
    HwDesc::gpgpu_sim(mem_latency)
}

/// `base` with its `mem` class's total latency (`init + lat`, dispatch to result) set to
/// `mem_latency`.
///
/// # Errors
/// When `base` has no `mem` class, or `mem_latency` is below the class's `init`.
pub fn with_mem_latency(base: &HwDesc, mem_latency: u32) -> Result<HwDesc, String> {
    let mut hw = base.clone();
    let mem = ToyClasses::lookup(&hw)?.mem;
    let class = &mut hw.classes[mem];
    class.lat = mem_latency.checked_sub(class.init).ok_or_else(|| {
        format!(
            "memory latency {mem_latency} is below the `mem` class's init {}",
            class.init
        )
    })?;
    Ok(hw)
}

/// The two variants: naive (2 barriers per tile iteration) and double-buffered (a prologue
/// and 1 barrier per iteration).
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

fn address_math(p: &mut Vec<DynInst>, c: ToyClasses) {
    p.extend(ADDR.map(|a| DynInst::new(c.int, &[], Some(a))));
}

fn global_loads(p: &mut Vec<DynInst>, c: ToyClasses) {
    p.extend([0, 1].map(|i| DynInst::new(c.mem, &[ADDR[i]], Some(VAL[i]))));
}

fn shared_stores(p: &mut Vec<DynInst>, c: ToyClasses) {
    p.extend([0, 1].map(|i| DynInst::new(c.shared, &[ADDR[i], VAL[i]], None)));
}

/// 32 × (two shared loads, an FMA chained on the accumulator).
fn inner_product(p: &mut Vec<DynInst>, c: ToyClasses) {
    for _ in 0..32 {
        p.extend(OPND.map(|o| DynInst::new(c.shared, &[ADDR[0]], Some(o))));
        p.push(DynInst::new(c.fp32, &[ACC, OPND[0], OPND[1]], Some(ACC)));
    }
}

/// One warp's path: `iterations` tiles, its instructions in the classes `c`.
pub fn sgemm_path(variant: Variant, iterations: usize, c: ToyClasses) -> Vec<DynInst> {
    let mut p = Vec::new();
    let barrier = || DynInst::barrier(c.alu);
    if variant == Variant::DoubleBuffering {
        address_math(&mut p, c);
        global_loads(&mut p, c);
        shared_stores(&mut p, c);
        p.push(barrier());
    }
    for _ in 0..iterations {
        address_math(&mut p, c);
        global_loads(&mut p, c);
        if variant == Variant::Naive {
            shared_stores(&mut p, c);
            p.push(barrier());
            inner_product(&mut p, c);
        } else {
            inner_product(&mut p, c);
            shared_stores(&mut p, c);
        }
        p.push(barrier());
    }
    p
}

/// The block: `warps` warps, each running `warps` iterations (K = 32·W), its instructions in
/// the classes `c`.
pub fn sgemm_block(variant: Variant, warps: usize, c: ToyClasses) -> Block {
    vec![sgemm_path(variant, warps, c); warps]
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

/// Simulates and bounds one configuration on the class table `base` (e.g. [`sgemm_hw`]) with
/// its `mem` class's latency set to `mem_latency` ([`with_mem_latency`]).
///
/// # Errors
/// Those of [`with_mem_latency`] and [`ToyClasses::lookup`], and a simulation or analysis
/// error (an ill-formed table), as messages.
pub fn cell(
    base: &HwDesc,
    variant: Variant,
    mem_latency: u32,
    warps: usize,
    policy: Policy,
) -> Result<Cell, String> {
    let hw = with_mem_latency(base, mem_latency)?;
    let block = sgemm_block(variant, warps, ToyClasses::lookup(&hw)?);
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

/// Every cell of the grid on the class table `base` (see [`cell`]), computed on the machine's
/// cores.
///
/// # Errors
/// The first cell's error, as [`cell`] gives it.
pub fn table(
    base: &HwDesc,
    warps: &[usize],
    latencies: &[u32],
    policy: Policy,
) -> Result<Vec<Cell>, String> {
    let mut jobs = Vec::new();
    for variant in [Variant::Naive, Variant::DoubleBuffering] {
        for &l in latencies {
            for &w in warps {
                jobs.push((variant, l, w));
            }
        }
    }
    crate::cu::sweep::try_parallel(&jobs, |&(v, l, w)| cell(base, v, l, w, policy))
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
    let mut out = event_log(&run, &block, &hw);
    out += &format!(
        "# {} on the RTL scheduler: block time {}; GUB {} (WUB {:?}); paper: GTO 17, LRR 18, GUB 23\n",
        policy.name(),
        run.block_time,
        bound.gub,
        bound.wub
    );
    Ok(out)
}
