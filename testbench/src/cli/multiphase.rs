//! `rtgpu multiphase`: the multi-phase WCET experiments (the multi-phase paper): the SGEMM
//! toy's GUB overestimation, the paper's Fig. 3 block, the default opcode class table.

use crate::common::{file_fail, print_json_or, Fail};
use rtgpu_testbench::multiphase;
use rtgpu_testbench::oracle::sm::Policy;
use rtgpu_wcet::trace::HwDesc;
use std::path::{Path, PathBuf};

/// The sweep of `rtgpu multiphase sgemm` without `--mem-lat`.
const DEFAULT_MEM_LATENCIES: [u32; 7] = [5, 10, 25, 50, 100, 200, 400];

/// The memory latency of `rtgpu multiphase hw-default` without `--mem-lat` (Section 4.1 of the
/// multi-phase paper: "realistic").
const DEFAULT_HW_MEM_LATENCY: u32 = 200;

/// The longest `--mem-lat` (the simulation keeps every cycle of a memory access in flight).
const MAX_MEM_LATENCY: u32 = 100_000;

/// The arguments of `rtgpu multiphase`.
#[derive(clap::Args)]
pub struct MultiphaseArgs {
    /// The experiment: `sgemm`, `fig3` or `hw-default`.
    experiment: String,
    /// Scheduling policy of the simulation: lrr or gto.
    #[arg(long, default_value = "lrr")]
    policy: String,
    /// Warp counts (each warp runs as many iterations).
    #[arg(long, value_delimiter = ',', default_value = "4,8,16,32")]
    warps: Vec<usize>,
    /// Global memory latencies, cycles (dispatch to result), 1..=100000 each: sgemm sweeps
    /// them (default 5,10,25,50,100,200,400); hw-default takes one (default 200).
    #[arg(long, value_delimiter = ',')]
    mem_lat: Option<Vec<u32>>,
    /// sgemm: the opcode class table (JSON, as `hw-default` prints it) instead of the
    /// default; it needs the classes int, fp32, mem, shared and alu, and each swept memory
    /// latency replaces the `mem` class's latency (lat = L - init).
    #[arg(long)]
    hw: Option<PathBuf>,
    /// Print JSON (every cell with simulated time and GUB).
    #[arg(long)]
    json: bool,
}

/// Checks the arguments every experiment shares (exit code 2) and runs the experiment.
pub fn run(a: &MultiphaseArgs) -> Result<(), Fail> {
    let policy = policy(&a.policy)?;
    if a.hw.is_some() && a.experiment != "sgemm" {
        return Err(Fail(
            2,
            format!(
                "--hw applies to sgemm only, not `{}` (fig3 is the paper's own three-unit example)",
                a.experiment
            ),
        ));
    }
    let latencies = a
        .mem_lat
        .clone()
        .unwrap_or_else(|| DEFAULT_MEM_LATENCIES.to_vec());
    if let Some(l) = latencies
        .iter()
        .find(|&&l| !(1..=MAX_MEM_LATENCY).contains(&l))
    {
        return Err(Fail(
            2,
            format!("--mem-lat {l}: use 1 to {MAX_MEM_LATENCY} cycles"),
        ));
    }
    match a.experiment.as_str() {
        "sgemm" => sgemm(a, policy, &latencies),
        "fig3" => fig3(policy),
        "hw-default" => hw_default(a.mem_lat.as_deref()),
        other => Err(Fail(
            2,
            format!("unknown experiment `{other}`; known: sgemm, fig3, hw-default"),
        )),
    }
}

/// The `--policy` (exit code 2 if unknown).
fn policy(name: &str) -> Result<Policy, Fail> {
    match name {
        "lrr" => Ok(Policy::Lrr),
        "gto" => Ok(Policy::Gto),
        other => Err(Fail(2, format!("unknown policy `{other}`; use lrr or gto"))),
    }
}

/// `fig3`: prints the Fig. 3 block's event log and bound on the RTL scheduler.
fn fig3(policy: Policy) -> Result<(), Fail> {
    print!("{}", multiphase::fig3_report(policy)?);
    Ok(())
}

/// `hw-default`: prints the default class table at the one `--mem-lat` given (exit code 2 for
/// several).
fn hw_default(mem_lat: Option<&[u32]>) -> Result<(), Fail> {
    let l = match mem_lat {
        None => DEFAULT_HW_MEM_LATENCY,
        Some([l]) => *l,
        Some(_) => return Err(Fail(2, "hw-default takes one --mem-lat value".into())),
    };
    println!("{}", multiphase::sgemm_hw(l).to_json());
    Ok(())
}

/// `sgemm`: the GUB overestimation table over warp counts and memory `latencies`.
fn sgemm(a: &MultiphaseArgs, policy: Policy, latencies: &[u32]) -> Result<(), Fail> {
    if let Some(w) = a.warps.iter().find(|&&w| w == 0 || w > 64) {
        return Err(Fail(2, format!("{w} warps: use 1 to 64")));
    }
    let base = match &a.hw {
        Some(file) => sgemm_table(file, latencies)?,
        // Its `mem` latency is replaced by each swept one.
        None => multiphase::sgemm_hw(1),
    };
    let cells = multiphase::table(&base, &a.warps, latencies, policy)?;
    print_json_or(a.json, &cells, |cells| {
        format!(
            "GUB overestimation (GUB - simulated) / simulated, {} scheduling{}:\n{}",
            policy.name(),
            a.hw.as_ref()
                .map_or(String::new(), |f| format!(", classes of {}", f.display())),
            multiphase::render(cells, &a.warps, latencies)
        )
    })
}

/// Reads and checks a `--hw` class table for the SGEMM toy at every swept latency (exit 2).
fn sgemm_table(file: &Path, latencies: &[u32]) -> Result<HwDesc, Fail> {
    let text = std::fs::read_to_string(file).map_err(file_fail(2, file))?;
    let hw = HwDesc::from_json(&text).map_err(file_fail(2, file))?;
    for &l in latencies {
        multiphase::with_mem_latency(&hw, l).map_err(file_fail(2, file))?;
    }
    Ok(hw)
}
