//! `rtgpu reorder`: the load/store reordering work (the reordering paper).

use crate::common::{print_json_or, Fail};
use clap::Subcommand;
use rtgpu_testbench::tb::ldst::compare::{self, Workload};

/// The arguments of `rtgpu reorder`: a subcommand.
#[derive(clap::Args)]
pub struct ReorderArgs {
    /// The subcommand.
    #[command(subcommand)]
    cmd: ReorderCmd,
}

/// The subcommands of `rtgpu reorder`.
#[derive(Subcommand)]
enum ReorderCmd {
    /// Per L1 size, the simulated cycles and misses of default (LRR), reorder (LRR + the
    /// unit) and pure round-robin over jitter seeds, beside the static miss estimate.
    Compare(CompareArgs),
}

/// The arguments of `rtgpu reorder compare`.
#[derive(clap::Args)]
struct CompareArgs {
    /// A built-in kernel (example, loop-barrier) or a PTX file.
    #[arg(long, default_value = "example", conflicts_with = "random")]
    kernel: String,
    /// Grid x,y,z (default: the built-in kernel's).
    #[arg(long, value_delimiter = ',', num_args = 3)]
    grid: Option<Vec<u32>>,
    /// Block x,y,z (default: the built-in kernel's).
    #[arg(long, value_delimiter = ',', num_args = 3)]
    block: Option<Vec<u32>>,
    /// Kernel parameter values (default: the built-in kernel's).
    #[arg(long, value_delimiter = ',')]
    params: Option<Vec<u64>>,
    /// Random traffic of this many warps instead of a kernel (1..=--slots: each warp needs
    /// its own channel).
    #[arg(long)]
    random: Option<usize>,
    /// Distinct lines the random traffic addresses (1..=16777216).
    #[arg(long, default_value_t = 256)]
    lines: u32,
    /// Seed of the random traffic.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// L1 sizes in kB (16, 32, 64).
    #[arg(long, value_delimiter = ',', default_value = "16,32,64")]
    cache: Vec<u32>,
    /// Reordering channels (warp slots), 1..=64.
    #[arg(long, default_value_t = 48)]
    slots: usize,
    /// Entries per channel, 1..=64.
    #[arg(long, default_value_t = 10)]
    depth: usize,
    /// Memory latency of a miss, cycles (0..=1000000).
    #[arg(long, default_value_t = 200)]
    latency: u64,
    /// Extra latency per miss, uniform in 0..=jitter cycles (jitter 0..=1000000).
    #[arg(long, default_value_t = 100)]
    jitter: u64,
    /// Cycles between a warp's consecutive ld/st (0..=1000000).
    #[arg(long, default_value_t = 4)]
    gap: u64,
    /// Later ld/st a warp may issue before it needs a load's data (0: right after; at most
    /// 1024).
    #[arg(long, default_value_t = 0)]
    load_use: usize,
    /// Without reordering: instructions the LD/ST unit queues in front of the coalescer
    /// (1..=1024).
    #[arg(long, default_value_t = 10)]
    queue: usize,
    /// Jitter seeds per configuration (1..=1000).
    #[arg(long, default_value_t = 5)]
    seeds: u64,
    /// Print the report as JSON.
    #[arg(long)]
    json: bool,
}

/// Runs the subcommand.
pub fn run(a: &ReorderArgs) -> Result<(), Fail> {
    match &a.cmd {
        ReorderCmd::Compare(c) => run_compare(c),
    }
}

/// `compare`: checks the arguments and builds the traffic (exit code 2), runs the
/// comparison (exit code 1 if a run fails) and prints its report.
fn run_compare(c: &CompareArgs) -> Result<(), Fail> {
    check(c).map_err(|m| Fail(2, m))?;
    let args = comparison(c);
    let traffic = compare::traffic(&args.workload).map_err(|m| Fail(2, m))?;
    if traffic.warps.len() > c.slots {
        return Err(Fail(
            2,
            format!(
                "the workload has {} warps but the unit has --slots {} channels (one per warp, \
                 at most 64)",
                traffic.warps.len(),
                c.slots
            ),
        ));
    }
    let report = compare::compare_traffic(&traffic, &args)?;
    print_json_or(c.json, &report, compare::render)
}

/// The ranges of the numeric arguments (the simulation's run time and memory grow with them).
fn check(c: &CompareArgs) -> Result<(), String> {
    let within = |name: &str, v: u64, lo: u64, hi: u64| {
        if (lo..=hi).contains(&v) {
            Ok(())
        } else {
            Err(format!("--{name} {v} is outside {lo}..={hi}"))
        }
    };
    within("slots", c.slots as u64, 1, 64)?;
    if let Some(w) = c.random {
        within("random", w as u64, 1, c.slots as u64)?;
    }
    within("lines", c.lines.into(), 1, 1 << 24)?;
    within("depth", c.depth as u64, 1, 64)?;
    within("latency", c.latency, 0, 1_000_000)?;
    within("jitter", c.jitter, 0, 1_000_000)?;
    within("gap", c.gap, 0, 1_000_000)?;
    within("load-use", c.load_use as u64, 0, 1024)?;
    within("queue", c.queue as u64, 1, 1024)?;
    within("seeds", c.seeds, 1, 1000)?;
    if c.cache.is_empty() || c.cache.len() > 16 {
        return Err("--cache: give 1 to 16 sizes (16, 32 or 64 kB each)".into());
    }
    if let Some(kb) = c.cache.iter().find(|&&kb| ![16, 32, 64].contains(&kb)) {
        return Err(format!("--cache {kb}: the L1 comes in 16, 32 or 64 kB"));
    }
    for (name, dims) in [("grid", &c.grid), ("block", &c.block)] {
        let threads = dims
            .iter()
            .flatten()
            .try_fold(1u64, |n, &d| n.checked_mul(d.into()));
        if dims.iter().flatten().any(|&d| d == 0) {
            return Err(format!("--{name}: every dimension must be at least 1"));
        }
        if threads.is_none_or(|n| n > 1 << 20) {
            return Err(format!(
                "--{name}: at most 1048576 in all (x × y × z), the analysis walks every thread"
            ));
        }
    }
    Ok(())
}

/// The comparison the arguments describe: random traffic if `--random`, else the kernel.
fn comparison(c: &CompareArgs) -> compare::CompareArgs {
    let workload = match c.random {
        Some(warps) => Workload::Random {
            warps,
            lines: c.lines,
            seed: c.seed,
        },
        None => Workload::Kernel {
            name: c.kernel.clone(),
            grid: triple(c.grid.as_deref()),
            block: triple(c.block.as_deref()),
            params: c.params.clone(),
        },
    };
    compare::CompareArgs {
        workload,
        caches: c.cache.clone(),
        slots: c.slots,
        depth: c.depth,
        latency: c.latency,
        jitter: c.jitter,
        gap: c.gap,
        load_use: c.load_use,
        queue: c.queue,
        seeds: c.seeds,
    }
}

/// `[x, y, z]` of a 3-value option.
fn triple(v: Option<&[u32]>) -> Option<[u32; 3]> {
    v.and_then(|v| v.try_into().ok())
}
