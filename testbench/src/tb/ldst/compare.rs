//! `rtgpu reorder compare`: per L1 configuration, the simulated cycles and misses of the
//! paper's three configurations (default = LRR, reorder = LRR + the unit, pure round-robin)
//! over several jitter seeds, beside the static estimate (Section V of the reordering paper).

use super::system::{estimate_traffic, run_models, Geometry, Mode, SysConfig};
use super::traffic::{RandomTraffic, Traffic};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rtgpu_wcet::reorder::analyzer::analyze;
use rtgpu_wcet::reorder::kernels::BUILTIN;
use rtgpu_wcet::reorder::ptx::Kernel;
use serde::Serialize;
use std::fmt::Write as _;
use std::path::Path;

/// Where the traffic comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Workload {
    /// A built-in kernel (`example`, `loop-barrier`) or a PTX file, analysed with a launch
    /// (`None` fields: the built-in's).
    Kernel {
        /// Name or path.
        name: String,
        /// Grid.
        grid: Option<[u32; 3]>,
        /// Block.
        block: Option<[u32; 3]>,
        /// Parameter values.
        params: Option<Vec<u64>>,
    },
    /// Random traffic of this many warps (4 per block, 8 PCs, 2 iterations, 20 % stores).
    Random {
        /// Warps.
        warps: usize,
        /// Distinct lines addressed.
        lines: u32,
        /// Seed.
        seed: u64,
    },
}

/// The comparison's parameters.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CompareArgs {
    /// The traffic.
    pub workload: Workload,
    /// L1 sizes in kB (16, 32, 64: 4, 8, 16 ways of 32 sets).
    pub caches: Vec<u32>,
    /// Channels (warp slots).
    pub slots: usize,
    /// Entries per channel.
    pub depth: usize,
    /// Memory latency, cycles.
    pub latency: u64,
    /// Jitter, cycles (uniform 0..=jitter per miss).
    pub jitter: u64,
    /// Cycles between a warp's ld/st.
    pub gap: u64,
    /// Later ld/st a warp may issue before it needs a load's data.
    pub load_use: usize,
    /// Without reordering: the LD/ST unit's queue in front of the coalescer.
    pub queue: usize,
    /// Jitter seeds per configuration.
    pub seeds: u64,
}

/// Min, mean and max over the seeds.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Spread {
    /// Smallest.
    pub min: u64,
    /// Mean.
    pub mean: f64,
    /// Largest.
    pub max: u64,
}

impl Spread {
    fn of(v: &[u64]) -> Spread {
        let n = v.len().max(1) as f64;
        Spread {
            min: v.iter().copied().min().unwrap_or(0),
            mean: v.iter().sum::<u64>() as f64 / n,
            max: v.iter().copied().max().unwrap_or(0),
        }
    }
}

/// One mode on one cache.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ModeResult {
    /// The mode.
    pub mode: Mode,
    /// Simulated cycles.
    pub cycles: Spread,
    /// Simulated L1 misses.
    pub misses: Spread,
    /// L1 line accesses (the same in every run).
    pub accesses: u64,
}

/// One cache configuration.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CacheResult {
    /// Size in kB.
    pub kb: u32,
    /// Ways (32 sets).
    pub ways: usize,
    /// The estimator's misses and accesses.
    pub estimate_misses: u64,
    /// Estimated accesses.
    pub estimate_accesses: u64,
    /// Default, reorder, pure RR.
    pub modes: Vec<ModeResult>,
    /// Reorder's simulated misses equal the estimate in every run.
    pub exact: bool,
    /// (C_pureRR − C_reorder) / C_pureRR on mean cycles.
    pub reorder_vs_rr_reduction: f64,
    /// (C_pureRR − C_reorder) / C_default: the difference of cycles normalised to default.
    pub reorder_vs_rr_normalised: f64,
}

/// The whole comparison.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CompareReport {
    /// What ran.
    pub workload: String,
    /// Warps.
    pub warps: usize,
    /// Warp-level ld/st instructions.
    pub instructions: usize,
    /// Per cache.
    pub caches: Vec<CacheResult>,
}

fn parse_kernel(
    name: &str,
) -> Result<(String, Option<rtgpu_wcet::reorder::kernels::Launch>), String> {
    if let Some(l) = BUILTIN.iter().find(|l| l.name == name) {
        return Ok((l.source.to_string(), Some(*l)));
    }
    let src = std::fs::read_to_string(Path::new(name)).map_err(|e| {
        let known: Vec<&str> = BUILTIN.iter().map(|l| l.name).collect();
        format!("{name}: {e} (built-in kernels: {})", known.join(", "))
    })?;
    Ok((src, None))
}

/// The traffic of a workload.
pub fn traffic(w: &Workload) -> Result<Traffic, String> {
    match w {
        Workload::Random { warps, lines, seed } => {
            let p = RandomTraffic {
                warps: *warps,
                warps_per_block: 4,
                pcs: 8,
                iterations: 2,
                lines: *lines,
                store_percent: 20,
            };
            Ok(Traffic::random(&mut ChaCha8Rng::seed_from_u64(*seed), p))
        }
        Workload::Kernel {
            name,
            grid,
            block,
            params,
        } => {
            let (src, builtin) = parse_kernel(name)?;
            let k = Kernel::parse(&src).map_err(|e| format!("{name}: {e}"))?;
            let need = |what: &str| format!("{name}: give --{what} for a kernel file");
            let grid = grid
                .or(builtin.map(|l| l.grid))
                .ok_or_else(|| need("grid"))?;
            let block = block
                .or(builtin.map(|l| l.block))
                .ok_or_else(|| need("block"))?;
            let params = params
                .clone()
                .or(builtin.map(|l| l.params.to_vec()))
                .unwrap_or_default();
            let a = analyze(&k, &params, grid, block).map_err(|e| format!("{name}: {e}"))?;
            Traffic::from_analysis(&a)
        }
    }
}

fn ways_of(kb: u32) -> Result<usize, String> {
    match kb {
        16 => Ok(4),
        32 => Ok(8),
        64 => Ok(16),
        _ => Err(format!("cache {kb} kB: the L1 comes in 16, 32 or 64 kB")),
    }
}

/// Runs the comparison.
pub fn compare(args: &CompareArgs) -> Result<CompareReport, String> {
    compare_traffic(&traffic(&args.workload)?, args)
}

/// Runs the comparison on traffic already built from `args.workload` ([`traffic`]).
pub fn compare_traffic(t: &Traffic, args: &CompareArgs) -> Result<CompareReport, String> {
    if args.seeds == 0 {
        return Err("--seeds must be at least 1".into());
    }
    let caches = args
        .caches
        .iter()
        .map(|&kb| one_cache(t, args, kb))
        .collect::<Result<_, _>>()?;
    Ok(CompareReport {
        workload: workload_name(&args.workload),
        warps: t.warps.len(),
        instructions: t.instructions(),
        caches,
    })
}

fn workload_name(w: &Workload) -> String {
    match w {
        Workload::Kernel { name, .. } => name.clone(),
        Workload::Random { warps, lines, seed } => {
            format!("random: {warps} warps, {lines} lines, seed {seed}")
        }
    }
}

fn one_cache(t: &Traffic, args: &CompareArgs, kb: u32) -> Result<CacheResult, String> {
    let g = Geometry {
        slots: args.slots,
        depth: args.depth,
        sets: 32,
        ways: ways_of(kb)?,
    };
    let e = estimate_traffic(t, g)?;
    let modes: Vec<ModeResult> = Mode::ALL
        .iter()
        .map(|&m| one_mode(t, args, g, m))
        .collect::<Result<_, _>>()?;
    let of = |m: Mode| modes.iter().find(|r| r.mode == m);
    let mean = |m: Mode| of(m).map_or(0.0, |r| r.cycles.mean);
    let (d, re, rr) = (mean(Mode::Default), mean(Mode::Reorder), mean(Mode::PureRr));
    let reorder = of(Mode::Reorder)
        .map(|r| r.misses)
        .ok_or("no reorder run")?;
    Ok(CacheResult {
        kb,
        ways: g.ways,
        estimate_misses: e.misses,
        estimate_accesses: e.accesses,
        exact: reorder.min == e.misses && reorder.max == e.misses,
        reorder_vs_rr_reduction: (rr - re) / rr.max(1.0),
        reorder_vs_rr_normalised: (rr - re) / d.max(1.0),
        modes,
    })
}

fn one_mode(
    t: &Traffic,
    args: &CompareArgs,
    g: Geometry,
    mode: Mode,
) -> Result<ModeResult, String> {
    let mut cycles = Vec::new();
    let mut misses = Vec::new();
    let mut accesses = 0;
    for seed in 0..args.seeds {
        let c = SysConfig {
            mode,
            max_cycles: cycle_cap(t, args),
            latency: args.latency,
            jitter: args.jitter,
            gap: args.gap,
            load_use: args.load_use,
            queue: args.queue,
            seed,
            ..SysConfig::default()
        };
        let r = run_models(t, g, c).map_err(|e| format!("{mode} seed {seed}: {e}"))?;
        cycles.push(r.cycles);
        misses.push(r.misses);
        accesses = r.accesses;
    }
    Ok(ModeResult {
        mode,
        cycles: Spread::of(&cycles),
        misses: Spread::of(&misses),
        accesses,
    })
}

/// The cycles after which a run counts as hung: every lane's access of every instruction one
/// after another, each waiting the whole latency, jitter and gap, plus a million cycles. No
/// legitimate run takes that long, so reaching it is a failure of the model, not of the
/// input (the input's latency, jitter and gap are bounded by the command line).
pub fn cycle_cap(t: &Traffic, args: &CompareArgs) -> u64 {
    let accesses = (t.instructions() as u64).saturating_mul(32) + t.warps.len() as u64;
    let per_access = args
        .latency
        .saturating_add(args.jitter)
        .saturating_add(args.gap)
        .saturating_add(64);
    accesses
        .saturating_mul(per_access)
        .saturating_add(1_000_000)
}

/// The report as a table.
pub fn render(r: &CompareReport) -> String {
    let mut s = format!(
        "workload: {} ({} warps, {} ld/st instructions)\n",
        r.workload, r.warps, r.instructions
    );
    s += "cache  mode      cycles mean   (min..max)      misses mean (min..max)  accesses  estimate\n";
    for c in &r.caches {
        for m in &c.modes {
            let est = if m.mode == Mode::Reorder {
                let mark = if c.exact { "= sim" } else { "!= sim" };
                format!("{}/{} {mark}", c.estimate_misses, c.estimate_accesses)
            } else {
                String::new()
            };
            let _ = writeln!(
                s,
                "{:>2}kB   {:<8} {:>10.1}  ({:>6}..{:<6})  {:>7.1} ({}..{})  {:>8}  {}",
                c.kb,
                m.mode,
                m.cycles.mean,
                m.cycles.min,
                m.cycles.max,
                m.misses.mean,
                m.misses.min,
                m.misses.max,
                m.accesses,
                est
            );
        }
        let r = 100.0 * c.reorder_vs_rr_reduction;
        let (amount, direction) = match r < 0.0 {
            true => (r.abs(), "more"),
            false => (r.abs(), "fewer"),
        };
        let _ = writeln!(
            s,
            "{:>2}kB   reorder vs pure-rr: {amount:.1} % {direction} cycles; {:.3} of default's \
             cycles",
            c.kb, c.reorder_vs_rr_normalised
        );
    }
    s
}
