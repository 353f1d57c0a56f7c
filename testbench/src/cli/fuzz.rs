//! `rtgpu fuzz`: the parsers' fuzz targets (assembler, disassembler, configuration, PTX),
//! in parallel over the cores.

use crate::common::{progress, Fail};
use rtgpu_testbench::fuzz::{self, Target};
use std::time::Instant;

/// The arguments of `rtgpu fuzz`.
#[derive(clap::Args)]
pub struct FuzzArgs {
    /// Inputs per target (1..=100000000).
    #[arg(long, default_value_t = 100_000)]
    cases: u64,
    /// Only this target (default: all four).
    #[arg(long, value_enum)]
    target: Option<Target>,
    /// Seed of the inputs (the same seed gives the same inputs).
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

/// Runs the targets, each on its own thread, and prints cases and seconds per target; exit
/// code 1 with the shrunk input when a target panicked.
pub fn run(a: &FuzzArgs) -> Result<(), Fail> {
    if !(1..=100_000_000).contains(&a.cases) {
        return Err(Fail(
            2,
            format!("--cases {} is outside 1..=100000000", a.cases),
        ));
    }
    let targets: Vec<Target> = match a.target {
        Some(t) => vec![t],
        None => Target::ALL.to_vec(),
    };
    let bar = progress(a.cases * targets.len() as u64, "fuzz");
    // The targets' panics are caught and reported once, shrunk; the hook would print each
    // step of the shrinking.
    std::panic::set_hook(Box::new(|_| {}));
    let start = Instant::now();
    let results: Vec<(Target, f64, Result<(), fuzz::Finding>)> = crossbeam::scope(|s| {
        let handles: Vec<_> = targets
            .iter()
            .map(|&t| {
                let bar = &bar;
                s.spawn(move |_| {
                    let t0 = Instant::now();
                    let r = fuzz::run(t, a.cases, a.seed, &|n| bar.inc(n));
                    (t, t0.elapsed().as_secs_f64(), r)
                })
            })
            .collect();
        handles.into_iter().filter_map(|h| h.join().ok()).collect()
    })
    .map_err(|_| Fail(1, "a fuzz thread failed".into()))?;
    let _ = std::panic::take_hook();
    bar.finish_and_clear();
    let mut found = Vec::new();
    for (t, secs, r) in &results {
        let verdict = match r {
            Ok(()) => "no panic".to_string(),
            Err(f) => {
                found.push(format!("{}: {}", f.target.name(), f.message));
                "PANIC".to_string()
            }
        };
        println!(
            "{:<7} {} cases in {secs:.1} s ({:.0}/s): {verdict}",
            t.name(),
            a.cases,
            a.cases as f64 / secs.max(1e-9)
        );
    }
    println!("total: {:.1} s", start.elapsed().as_secs_f64());
    match found.is_empty() {
        true => Ok(()),
        false => Err(Fail(1, found.join("\n"))),
    }
}
