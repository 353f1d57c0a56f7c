//! `rtgpu aging`: the lifetime aging experiment of the thesis' Section 4.4 (policies Orig,
//! Even and the IDU over PV maps), with the cycle-level or the saturated step model.

use crate::common::{print_json_or, Fail};
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
    /// The stock GPU's fixed lane→cluster map, nothing gated (the thesis' "Orig").
    Fixed,
    /// Algorithm 3's clusters with the stock dispatcher.
    Alg3,
}

/// The most `--maps` (each map runs the whole lifetime under every policy).
const MAX_MAPS: usize = 10_000;

/// The arguments of `rtgpu aging`.
#[derive(clap::Args)]
pub struct AgingArgs {
    /// Lifetime in years (> 0).
    #[arg(long, default_value_t = 3.0, allow_negative_numbers = true)]
    years: f64,
    /// Process-variation maps (1..=10000).
    #[arg(long, default_value_t = 50)]
    maps: usize,
    /// Seed of the first map (map m uses seed + m).
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Re-planning steps per year (>= 1).
    #[arg(long, default_value_t = 12)]
    steps_per_year: u32,
    /// Step model: the IDU reference model cycle by cycle, or the analytic saturated
    /// (cluster-bound) model.
    #[arg(long, value_enum, default_value_t = ModelArg::Cycle)]
    model: ModelArg,
    /// Orig's clusters: the stock fixed map or Algorithm 3's.
    #[arg(long, value_enum, default_value_t = OrigMapArg::Fixed)]
    orig_map: OrigMapArg,
    /// Print the whole report (every map) as JSON.
    #[arg(long)]
    json: bool,
}

/// Runs the experiment and prints the table (or JSON). Exit code 2 for bad arguments, 1 for a
/// failed run.
pub fn run(a: &AgingArgs) -> Result<(), Fail> {
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
    if !(1..=MAX_MAPS).contains(&a.maps) {
        return Err(Fail(
            2,
            format!("--maps {} is outside 1..={MAX_MAPS}", a.maps),
        ));
    }
    cfg.validate().map_err(|e| Fail(2, e.to_string()))?;
    let cycle = CycleModel::default();
    let model: &dyn StepModel = match a.model {
        ModelArg::Cycle => &cycle,
        ModelArg::Saturated => &SaturatedModel,
    };
    let report = run_experiment_with(&cfg, model)?;
    print_json_or(a.json, &report, |r| r.table())
}
