//! `rtgpu scenario`: the system scenarios, each with its waveform and .gtkw.

use crate::common::Fail;
use rtgpu_testbench::cu::scenario::{run_scenario, SCENARIOS};
use std::path::{Path, PathBuf};

/// The arguments of `rtgpu scenario`.
#[derive(clap::Args)]
pub struct ScenarioArgs {
    /// Scenario names (system-reorder, system-pws, system-idu); none: all.
    names: Vec<String>,
    /// Directory for the files.
    #[arg(long, default_value = "waveforms")]
    dir: PathBuf,
}

/// Runs the named scenarios (none: all) and prints one line per scenario.
pub fn run(a: &ScenarioArgs) -> Result<(), Fail> {
    let all: Vec<String> = SCENARIOS.iter().map(|s| s.0.to_string()).collect();
    let names = if a.names.is_empty() { &all } else { &a.names };
    names.iter().try_for_each(|name| scenario(name, &a.dir))
}

/// Runs one scenario, writing its files into `dir`, and prints its cycles and status.
fn scenario(name: &str, dir: &Path) -> Result<(), Fail> {
    let r = run_scenario(Path::new("."), name, dir).map_err(Fail::coded)?;
    println!(
        "{name}: {} cycles, {} → {}",
        r.perf.get("cycles"),
        r.status,
        dir.join(format!("{name}.gtkw")).display()
    );
    Ok(())
}
