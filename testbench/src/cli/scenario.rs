//! `rtgpu scenario`: the system scenarios, each with its waveform and .gtkw.

use crate::common::Fail;
use rtgpu_testbench::cu::scenario::{run_scenario, SCENARIOS};
use rtgpu_testbench::paths;
use std::path::{Path, PathBuf};

/// The arguments of `rtgpu scenario`.
#[derive(clap::Args)]
pub struct ScenarioArgs {
    /// Scenario names (system-reorder, system-pws, system-idu); none: all.
    names: Vec<String>,
    /// Directory for the VCDs and .gtkw files (as `rtgpu tb --out`).
    #[arg(
        long,
        visible_alias = "dir",
        value_name = "DIR",
        default_value = "waveforms"
    )]
    out: PathBuf,
    /// Where the scenarios' kernels are read (default: firmware/kernels under the current
    /// directory).
    #[arg(long, value_name = "DIR")]
    kernel_dir: Option<PathBuf>,
}

/// Runs the named scenarios (none: all) and prints one line per scenario.
pub fn run(a: &ScenarioArgs) -> Result<(), Fail> {
    let all: Vec<String> = SCENARIOS.iter().map(|s| s.0.to_string()).collect();
    let names = if a.names.is_empty() { &all } else { &a.names };
    if let Some(bad) = a.names.iter().find(|n| !all.contains(n)) {
        return Err(Fail(
            2,
            format!("unknown scenario `{bad}`; known: {}", all.join(", ")),
        ));
    }
    let kernels = paths::kernel_dir(a.kernel_dir.as_deref()).map_err(Fail::coded)?;
    names
        .iter()
        .try_for_each(|name| scenario(name, &kernels, &a.out))
}

/// Runs one scenario, writing its files into `dir`, and prints its cycles and status.
fn scenario(name: &str, kernels: &Path, dir: &Path) -> Result<(), Fail> {
    let r = run_scenario(kernels, name, dir).map_err(Fail::coded)?;
    println!(
        "{name}: {} cycles, {} → {}",
        r.perf.get("cycles"),
        r.status,
        dir.join(format!("{name}.gtkw")).display()
    );
    Ok(())
}
