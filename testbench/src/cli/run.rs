//! `rtgpu run`: a kernel on the compute unit through the driver.

use crate::common::{print_json_or, Fail};
use rtgpu_testbench::cu::{self, RunOpts};

/// The arguments of `rtgpu run`.
#[derive(clap::Args)]
pub struct RunArgs {
    /// The kernel, its launch and the configuration.
    #[command(flatten)]
    opts: RunOpts,
    /// Print JSON.
    #[arg(long)]
    json: bool,
}

/// Runs the kernel and prints its report; exit code 1 when the GPU stopped with an error,
/// the timeout passed or `--check` found a difference (after the report).
pub fn run(a: &RunArgs) -> Result<(), Fail> {
    let report = cu::run(&a.opts).map_err(Fail::coded)?;
    print_json_or(a.json, &report, |r| r.text())?;
    match (&report.error, &report.check) {
        (Some(e), _) => Err(Fail(1, e.clone())),
        (None, Some(c)) if c.starts_with("FAILED") => Err(Fail(1, c.clone())),
        _ => Ok(()),
    }
}
