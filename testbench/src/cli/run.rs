//! `rtgpu run`: a kernel on the compute unit through the driver.

use crate::common::{print_json_or, Fail};
use rtgpu_testbench::cu::rtl_run::{self, RtlRefusal};
use rtgpu_testbench::cu::{self, RunOpts, RunReport, Top};

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
/// the timeout passed, `--check` found a difference (after the report) or, with `--top rtl`,
/// the kernel has an instruction the RTL does not execute (`unsupported_in_rtl`).
pub fn run(a: &RunArgs) -> Result<(), Fail> {
    let report = match a.opts.top {
        Top::Behavioural => cu::run(&a.opts).map_err(Fail::coded)?,
        Top::Rtl => rtl(a)?,
    };
    print_json_or(a.json, &report, |r| r.text())?;
    match (&report.error, &report.check) {
        (Some(e), _) => Err(Fail(1, e.clone())),
        (None, Some(c)) if c.starts_with("FAILED") => Err(Fail(1, c.clone())),
        _ => Ok(()),
    }
}

/// `--top rtl`: an unsupported instruction is printed as its JSON object with `--json`.
fn rtl(a: &RunArgs) -> Result<RunReport, Fail> {
    match rtl_run::run(&a.opts) {
        Ok(r) => Ok(r),
        Err(RtlRefusal::Unsupported(u)) => {
            if a.json {
                print_json_or(true, &*u, |u| u.text())?;
            }
            Err(Fail(1, u.text()))
        }
        Err(e) => Err(Fail::coded(e.coded())),
    }
}
