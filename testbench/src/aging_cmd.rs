//! `rtgpu aging`: the lifetime aging experiment of spec/004-lee.md §2.8–2.9 (policies Orig,
//! Even and the IDU over PV maps), with the cycle-level or the saturated step model.

use clap::ValueEnum;
use rtgpu_firmware::aging::{
    run_experiment_with, ExperimentConfig, OrigMap, SaturatedModel, StepModel,
};
use rtgpu_testbench::aging::CycleModel;

/// The step model of `--model`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ModelArg {
    /// The IDU reference model runs each step's instruction stream cycle by cycle.
    Cycle,
    /// Analytic: every cluster saturated, the dispatcher unlimited (a split costs its whole
    /// imbalance where its clusters bound the kernel).
    Saturated,
}

/// The Orig baseline's clusters of `--orig-map`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum OrigMapArg {
    /// The stock GPU's fixed lane→cluster map, nothing gated (spec §2.8).
    Fixed,
    /// Algorithm 3's clusters with the stock dispatcher.
    Alg3,
}

/// The command's arguments.
pub struct AgingArgs {
    /// Lifetime in years.
    pub years: f64,
    /// PV maps.
    pub maps: usize,
    /// Seed of the first map.
    pub seed: u64,
    /// Re-planning steps per year.
    pub steps_per_year: u32,
    /// Step model.
    pub model: ModelArg,
    /// Orig's clusters.
    pub orig_map: OrigMapArg,
    /// Print the whole report as JSON.
    pub json: bool,
}

/// Runs the experiment and prints the table (or JSON). Errors: `(2, message)` for bad
/// arguments, `(1, message)` for a failed run.
pub fn aging(a: &AgingArgs) -> Result<(), (u8, String)> {
    let cfg = ExperimentConfig {
        years: a.years,
        maps: a.maps,
        seed: a.seed,
        steps_per_year: a.steps_per_year,
        orig_map: match a.orig_map {
            OrigMapArg::Fixed => OrigMap::Fixed,
            OrigMapArg::Alg3 => OrigMap::Alg3,
        },
        ..ExperimentConfig::default()
    };
    cfg.validate().map_err(|e| (2, e.to_string()))?;
    let cycle = CycleModel::default();
    let model: &dyn StepModel = match a.model {
        ModelArg::Cycle => &cycle,
        ModelArg::Saturated => &SaturatedModel,
    };
    let report = run_experiment_with(&cfg, model).map_err(|e| (1, e.to_string()))?;
    if a.json {
        let text = serde_json::to_string_pretty(&report).map_err(|e| (1, e.to_string()))?;
        println!("{text}");
    } else {
        print!("{}", report.table());
    }
    Ok(())
}
