//! `rtgpu suite`: every OpenCL C suite kernel over a configuration grid, checked against its
//! host-side reference.

use crate::common::{print_json_or, progress, Fail};
use rtgpu_testbench::cu::suite::{self, SuiteOpts, SuiteReport};

/// The arguments of `rtgpu suite` (they live with the suite).
pub type SuiteArgs = SuiteOpts;

/// Runs the grid with a progress bar (drawn on a terminal only), writes the CSV, prints the
/// summary or the JSON; exit 1 when a run FAILED.
pub fn run(o: &SuiteArgs) -> Result<(), Fail> {
    let bar = progress(0, "suite");
    let rows = suite::run_suite(o, &|n| bar.set_length(n), &|label| {
        bar.set_message(label.to_string());
        bar.inc(1);
    })
    .map_err(Fail::coded)?;
    bar.finish_and_clear();
    std::fs::write(&o.out, suite::csv(&rows))
        .map_err(|e| Fail(2, format!("{}: {e}", o.out.display())))?;
    let failed = rows.iter().filter(|r| !r.passed).count();
    let report = SuiteReport {
        rows: &rows,
        passed: rows.len() - failed,
        failed,
        csv: o.out.display().to_string(),
    };
    print_json_or(o.json, &report, |r| suite::summary(r.rows, &o.out))?;
    match failed {
        0 => Ok(()),
        n => Err(Fail(1, format!("{n} of {} runs FAILED", rows.len()))),
    }
}
