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
    /// Random traffic of this many warps instead of a kernel.
    #[arg(long)]
    random: Option<usize>,
    /// Distinct lines the random traffic addresses.
    #[arg(long, default_value_t = 256)]
    lines: u32,
    /// Seed of the random traffic.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// L1 sizes in kB (16, 32, 64).
    #[arg(long, value_delimiter = ',', default_value = "16,32,64")]
    cache: Vec<u32>,
    /// Reordering channels (warp slots).
    #[arg(long, default_value_t = 48)]
    slots: usize,
    /// Entries per channel.
    #[arg(long, default_value_t = 10)]
    depth: usize,
    /// Memory latency of a miss, cycles.
    #[arg(long, default_value_t = 200)]
    latency: u64,
    /// Extra latency per miss, uniform in 0..=jitter cycles.
    #[arg(long, default_value_t = 100)]
    jitter: u64,
    /// Cycles between a warp's consecutive ld/st.
    #[arg(long, default_value_t = 4)]
    gap: u64,
    /// Later ld/st a warp may issue before it needs a load's data (0: right after).
    #[arg(long, default_value_t = 0)]
    load_use: usize,
    /// Without reordering: instructions the LD/ST unit queues in front of the coalescer.
    #[arg(long, default_value_t = 10)]
    queue: usize,
    /// Jitter seeds per configuration.
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

/// `compare`: runs the comparison and prints its report.
fn run_compare(c: &CompareArgs) -> Result<(), Fail> {
    let report = compare::compare(&comparison(c))?;
    print_json_or(c.json, &report, compare::render)
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
