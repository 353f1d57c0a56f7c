//! `rtgpu wcet`: the PWS WCET analysis of a kernel, and with `--run` its simulated time.

use crate::common::{print_json_or, Fail};
use rtgpu_testbench::cu::wcet::{self, WcetOpts};

/// The arguments of `rtgpu wcet` (they live with the analysis).
pub type WcetArgs = WcetOpts;

/// Analyses the kernel and prints the report; exit code 1 when the simulated launch (`--run`)
/// did not finish or took longer than the analytical WCET.
pub fn run(opts: &WcetArgs) -> Result<(), Fail> {
    let report = wcet::wcet(opts).map_err(Fail::coded)?;
    print_json_or(opts.json, &report, |r| r.text())?;
    match &report.observed {
        Some(o) if o.status != "done" => Err(Fail(1, format!("the launch ended in {}", o.status))),
        Some(o) if !o.within => Err(Fail(
            1,
            format!(
                "observed {} cycles > analytical WCET {}",
                o.cycles, report.analysis.wcet
            ),
        )),
        _ => Ok(()),
    }
}
