//! The cycle-level step model of the aging experiment (`rtgpu aging --model cycle`): each
//! re-planning step runs a representative instruction stream through the IDU's reference
//! model ([`IduSystem`]: the dispatcher and its clusters, each cluster on its own clock, on
//! one picosecond timeline) configured as the policy would program it.
//!
//! Per step:
//! - the [`SystemConfig`]: `k` = the most clusters of any type (≤ 8; a type with fewer has the
//!   others not working); the dispatcher at the nominal 876 MHz clock (its period rounded up
//!   to whole ps, 1142 ps); each working cluster at its planned `period_ps`; working bits from
//!   the plan; ii 1/4/1 and depths 4/20/4 ([`SystemConfig::uniform`]); limits from the plan
//!   for Idu, every limit 1 for Even, `enable` = 0 (the stock first-available dispatcher) for
//!   Orig;
//! - the stream: `stream_len` warp instructions, each type's count proportional to the step's
//!   instructions of that type (largest remainder, at least one for a type with
//!   instructions), in an order shuffled by a ChaCha8 generator seeded with `seed`. The
//!   stream depends only on the workload's proportions, so every policy, map and step of a run
//!   sees the same stream (a fair comparison) and nothing is cached between calls;
//! - the outcome: `time_s = end_ps · N / stream_len` (N = the step's warp instructions of all
//!   types; `end_ps` includes draining the last pipelines), the shares
//!   `dispatched[t][k] / Σ_k dispatched[t][k]` of the working clusters in IDU order, and the
//!   busy fraction `busy_cycles · period / end_ps` of each working cluster.
//!
//! The stream has no data dependencies: the warp scheduler presents an instruction every
//! dispatcher cycle, so the dispatcher (one warp instruction per cycle) is the usual
//! bottleneck and a policy costs time only through the cycles the dispatcher stalls.
//!
//! Busy fractions count cycles in which any pipeline stage holds an instruction (about 1 for
//! a cluster that takes an instruction every few cycles); the experiment ages the cores from
//! the shares instead (issue-slot occupancy, the duty each stage sees).
//!
//! Cost and accuracy (measured): one step is about 1.7 ms, so `rtgpu aging --years 3 --maps
//! 50` (5,400 steps) simulates every step in about 12 s on one core. With 2,000 instructions
//! the IDU's time cost against Orig moves by about ±0.4 percentage points with the stream's
//! seed (10 maps, 3 years: 2.6 % with the default seed, 3.3 % with seed 7, 3.1 % with 8,000
//! instructions); the aging metrics move by under 0.01 points.

use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rtgpu_firmware::aging::formation::period_ps;
use rtgpu_firmware::aging::{
    AgingError, Distribution, Plan, PvMap, StepModel, StepOutcome, Workload, NOMINAL_CLOCK_HZ,
    TYPES,
};
use rtgpu_hw::idu::model::{IduSystem, SystemConfig, SystemRun, MAX_K};

/// Default instructions per simulated stream.
pub const DEFAULT_STREAM_LEN: usize = 2000;

/// Default seed of the stream's order.
pub const DEFAULT_STREAM_SEED: u64 = 0x1d0_a61e;

/// The cycle-level [`StepModel`] (module doc).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CycleModel {
    /// Warp instructions per simulated stream (≥ 1).
    pub stream_len: usize,
    /// Seed of the stream's order.
    pub seed: u64,
}

impl Default for CycleModel {
    fn default() -> Self {
        CycleModel {
            stream_len: DEFAULT_STREAM_LEN,
            seed: DEFAULT_STREAM_SEED,
        }
    }
}

impl StepModel for CycleModel {
    fn name(&self) -> String {
        format!(
            "cycle (IduSystem, {} seeded instructions per step, 876 MHz dispatcher)",
            self.stream_len
        )
    }

    fn step(
        &self,
        _pv: &PvMap,
        plan: &Plan,
        policy: Distribution,
        workload: &Workload,
    ) -> Result<StepOutcome, AgingError> {
        let stream = self.stream(workload)?;
        let cfg = system_config(plan, policy)?;
        let run = IduSystem::new(cfg.clone()).run(&stream, time_limit(&cfg, stream.len()));
        if !run.completed {
            return Err(AgingError::Numerical(format!(
                "the cycle model did not finish {} instructions by {} ps",
                stream.len(),
                run.end_ps
            )));
        }
        let n: u64 = workload.warp_insts.iter().sum();
        let time_s = run.end_ps as f64 * 1e-12 * n as f64 / stream.len().max(1) as f64;
        Ok(StepOutcome {
            time_s,
            shares: shares(plan, &run),
            busy: Some(busy(plan, &cfg, &run)),
        })
    }
}

impl CycleModel {
    /// The step's representative stream, `(type, tag)` per instruction (module doc); empty
    /// when the workload has no instruction.
    pub fn stream(&self, workload: &Workload) -> Result<Vec<(u8, u8)>, AgingError> {
        if self.stream_len == 0 {
            return Err(AgingError::InvalidInput {
                what: "cycle-model stream length".into(),
                value: 0.0,
                expected: "an integer >= 1",
            });
        }
        let counts = stream_counts(&workload.warp_insts, self.stream_len);
        let mut types: Vec<u8> = (0u8..)
            .zip(counts)
            .flat_map(|(t, c)| std::iter::repeat_n(t, c))
            .collect();
        types.shuffle(&mut ChaCha8Rng::seed_from_u64(self.seed));
        Ok(types.into_iter().zip((0..=u8::MAX).cycle()).collect())
    }
}

/// Instructions of each type in a stream of `len` (≥ number of types with instructions):
/// proportional to `n` by largest remainder (ties: lower type first), at least 1 for a type
/// with instructions. All zero when `n` is.
pub fn stream_counts(n: &[u64; TYPES], len: usize) -> [usize; TYPES] {
    let total: u64 = n.iter().sum();
    let mut counts = [0usize; TYPES];
    if total == 0 {
        return counts;
    }
    let quota: Vec<f64> = n
        .iter()
        .map(|&x| x as f64 * len as f64 / total as f64)
        .collect();
    for t in 0..TYPES {
        counts[t] = (quota[t].floor() as usize).max(usize::from(n[t] > 0));
    }
    let mut order: Vec<usize> = (0..TYPES).filter(|&t| n[t] > 0).collect();
    order.sort_by(|&a, &b| {
        (quota[b].fract())
            .total_cmp(&quota[a].fract())
            .then(a.cmp(&b))
    });
    let mut i = 0;
    while counts.iter().sum::<usize>() < len && !order.is_empty() {
        counts[order[i % order.len()]] += 1;
        i += 1;
    }
    counts
}

/// The IDU system of a step: the plan's clusters, the policy's IDU setting (module doc).
pub fn system_config(plan: &Plan, policy: Distribution) -> Result<SystemConfig, AgingError> {
    let k = plan
        .formation
        .iter()
        .map(|f| f.clusters.len())
        .max()
        .unwrap_or(0);
    if !(1..=MAX_K).contains(&k) {
        return Err(AgingError::Geometry(format!(
            "{k} clusters per type, the IDU has 1..={MAX_K}"
        )));
    }
    let mut cfg = SystemConfig::uniform(k, period_ps(NOMINAL_CLOCK_HZ)?);
    cfg.enable = policy != Distribution::Orig;
    for (t, tp) in plan.program.types.iter().enumerate() {
        for (c, &working) in tp.working.iter().enumerate() {
            cfg.working[t][c] = working;
            cfg.cluster_ps[t][c] = tp.period_ps[c];
            cfg.limits[t][c] = match (working, policy) {
                (false, _) => 0,
                (true, Distribution::Idu) => tp.limits[c],
                (true, _) => 1,
            };
        }
    }
    Ok(cfg)
}

/// A time by which the run must have finished: every instruction waiting for the slowest
/// clock's initiation interval, plus the deepest pipeline, with a margin of 4.
fn time_limit(cfg: &SystemConfig, len: usize) -> u64 {
    let slowest = cfg.cluster_ps.iter().flatten().copied().max().unwrap_or(0);
    let clock = slowest.max(cfg.disp_ps);
    let ii = u64::from(cfg.ii.iter().copied().max().unwrap_or(1));
    let depth = cfg.depth.iter().copied().max().unwrap_or(1) as u64;
    4 * clock * (ii * (len as u64 + 1) + depth)
}

/// The share of each working cluster in its type's dispatches, IDU order (equal shares for
/// a type the stream does not contain).
fn shares(plan: &Plan, run: &SystemRun) -> [Vec<f64>; TYPES] {
    std::array::from_fn(|t| {
        let tp = &plan.program.types[t];
        let counts: Vec<f64> = (0..tp.working.len())
            .filter(|&c| tp.working[c])
            .map(|c| run.dispatched[t][c] as f64)
            .collect();
        let total: f64 = counts.iter().sum();
        if total > 0.0 {
            counts.iter().map(|x| x / total).collect()
        } else {
            vec![1.0 / counts.len().max(1) as f64; counts.len()]
        }
    })
}

/// Each working cluster's busy fraction of the run, `busy_cycles · period / end_ps`, IDU
/// order (0 for an empty run).
fn busy(plan: &Plan, cfg: &SystemConfig, run: &SystemRun) -> [Vec<f64>; TYPES] {
    std::array::from_fn(|t| {
        let tp = &plan.program.types[t];
        (0..tp.working.len())
            .filter(|&c| tp.working[c])
            .map(|c| {
                let ps = run.busy_cycles[t][c] as f64 * cfg.cluster_ps[t][c] as f64;
                if run.end_ps > 0 {
                    (ps / run.end_ps as f64).min(1.0)
                } else {
                    0.0
                }
            })
            .collect()
    })
}
