//! `rtgpu cosim`: a block's testbench vectors replayed against its Verilog under Icarus, the
//! Verilog linted with Verilator and synthesized with Yosys.

use crate::common::{cycles, find, options, spinner, Fail, Stimulus, MAX_COSIM_CYCLES};
use rtgpu_testbench::paths;
use rtgpu_testbench::sim::cosim::{self, LintReport, SimOutcome};
use rtgpu_testbench::tb::{BlockTb, TbOptions};
use std::path::{Path, PathBuf};

/// The arguments of `rtgpu cosim`.
#[derive(clap::Args)]
pub struct CosimArgs {
    /// Block name (see `rtgpu list`).
    name: String,
    /// Cycles and seed.
    #[command(flatten)]
    stim: Stimulus,
    /// Working directory (default: target/cosim/NAME under the current directory).
    #[arg(long)]
    dir: Option<PathBuf>,
    /// Only Verilator's lint, with the block's waivers (no testbench run, Icarus or Yosys):
    /// for the compute unit's top, whose Icarus replay and synthesis take long.
    #[arg(long)]
    lint_only: bool,
}

/// Runs the testbench recording its ports, then the three tools; prints each tool's verdict.
/// Exit code 1 on an Icarus mismatch or a lint finding (after the report).
pub fn run(a: &CosimArgs) -> Result<(), Fail> {
    let name = &a.name;
    let t = find(name)?;
    if cycles(&a.stim) > MAX_COSIM_CYCLES {
        return Err(Fail(
            2,
            format!(
                "--cycles {}: cosim records every cycle's ports, use at most {MAX_COSIM_CYCLES}",
                cycles(&a.stim)
            ),
        ));
    }
    let dir = a.dir.clone().unwrap_or_else(|| paths::cosim_dir(name));
    if a.lint_only {
        return lint_only(t, name, &dir);
    }
    let run = t.run(&TbOptions {
        record_ports: true,
        ..options(&a.stim)
    })?;
    let vectors = run
        .vectors
        .ok_or_else(|| Fail(1, "no vectors recorded".into()))?;
    let verilog = t.verilog()?;
    println!("{name}: Rust run: {}", run.summary);
    let outcome = cosim::replay(&dir, &verilog, &vectors)?;
    let lint = lint(t, &dir, &verilog)?;
    print_waivers(t);
    let synth = cosim::synth_with(&dir, &verilog, t.synth_script())?;
    let icarus_ok = print_icarus(&outcome, &dir);
    let lint_ok = print_lint(&lint);
    println!(
        "yosys {}: {} cells",
        synth.script.synth_command(),
        synth.cells
    );
    println!("files: {}", dir.display());
    if !(icarus_ok && lint_ok) {
        return Err(Fail(1, format!("cosimulation of `{name}` failed")));
    }
    Ok(())
}

/// `--lint-only`: the waivers and Verilator's verdict; exit 1 on a finding.
fn lint_only(t: &dyn BlockTb, name: &str, dir: &Path) -> Result<(), Fail> {
    let verilog = t.verilog()?;
    let bar = spinner(&format!("verilator --lint-only: {name}"));
    let lint = lint(t, dir, &verilog);
    bar.finish_and_clear();
    print_waivers(t);
    let lint_ok = print_lint(&lint?);
    println!("files: {}", dir.display());
    match lint_ok {
        true => Ok(()),
        false => Err(Fail(1, format!("the lint of `{name}` has findings"))),
    }
}

/// Lints `verilog` in `dir` with the block's waivers.
fn lint(t: &dyn BlockTb, dir: &Path, verilog: &str) -> Result<LintReport, cosim::ToolError> {
    cosim::lint_kinds(dir, verilog, t.lint_waivers(), t.lint_kind_waivers())
}

/// Prints the block's Verilator waivers, one a line.
fn print_waivers(t: &dyn BlockTb) {
    for w in t.lint_waivers() {
        println!("verilator waiver: {} on `{}`: {}", w.rule, w.signal, w.why);
    }
    for w in t.lint_kind_waivers() {
        println!(
            "verilator waiver: {} on \"{}\": {}",
            w.rule, w.message, w.why
        );
    }
}

/// Prints Icarus's verdict (the waveform of a mismatch is in `dir`); whether it matched.
fn print_icarus(outcome: &SimOutcome, dir: &Path) -> bool {
    match outcome {
        SimOutcome::Ok(line) => println!("icarus: {line}"),
        SimOutcome::Mismatch {
            cycle,
            signal,
            expected,
            got,
        } => {
            println!("icarus: MISMATCH at cycle {cycle}: {signal} expected {expected}, got {got}");
            println!("        waves: {}", dir.join("cosim.vcd").display());
        }
    }
    matches!(outcome, SimOutcome::Ok(_))
}

/// Prints Verilator's verdict and findings; whether the lint was clean.
fn print_lint(lint: &LintReport) -> bool {
    if lint.clean {
        println!("verilator --lint-only -Wall: clean");
    } else {
        println!(
            "verilator --lint-only -Wall: {} findings",
            lint.findings.len()
        );
        lint.findings.iter().for_each(|f| println!("  {f}"));
    }
    lint.clean
}
