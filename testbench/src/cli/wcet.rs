//! `rtgpu wcet`: the PWS WCET analysis of a kernel, and with `--run` its simulated time.

use crate::common::{print_json_or, progress, Fail};
use rtgpu_testbench::cu::wcet::{self, WcetOpts};

/// The arguments of `rtgpu wcet` (they live with the analysis).
pub type WcetArgs = WcetOpts;

/// Analyses the kernel and prints the report; exit code 1 when the simulated launch (`--run`)
/// did not finish or took longer than the analytical WCET.
pub fn run(opts: &WcetArgs) -> Result<(), Fail> {
    if opts.exec == "simd" {
        return simd(opts);
    }
    let bar = progress(opts.inputs.unwrap_or(0), "inputs");
    if opts.inputs.is_none() {
        bar.set_draw_target(indicatif::ProgressDrawTarget::hidden());
    }
    let report = wcet::wcet(opts, &|| bar.inc(1)).map_err(Fail::coded)?;
    bar.finish_and_clear();
    print_json_or(opts.json, &report, |r| r.text())?;
    if let Some(r) = report.inputs.as_ref().filter(|r| !r.violations.is_empty()) {
        return Err(Fail(
            1,
            format!(
                "{} of {} inputs exceed the bound",
                r.violations.len(),
                r.inputs
            ),
        ));
    }
    if let Some(r) = report
        .inputs
        .as_ref()
        .filter(|r| !r.multiphase_violations.is_empty())
    {
        return Err(Fail(
            1,
            format!(
                "{} of {} inputs exceed the multi-phase bound",
                r.multiphase_violations.len(),
                r.inputs
            ),
        ));
    }
    if let Some(l) = report
        .lemmas
        .as_ref()
        .filter(|l| !l.lemma7.is_empty() || !l.lemma8.is_empty())
    {
        return Err(Fail(
            1,
            format!(
                "Lemma 7/8 violated: {:?} {:?}",
                l.lemma7.first(),
                l.lemma8.first()
            ),
        ));
    }
    let mp = &report.multiphase;
    if let Some(o) = report
        .observed
        .as_ref()
        .filter(|o| mp.not_applicable.is_none() && o.status == "done" && o.cycles > mp.wcet)
    {
        return Err(Fail(
            1,
            format!(
                "observed {} cycles > multi-phase WCET {}",
                o.cycles, mp.wcet
            ),
        ));
    }
    match &report.observed {
        Some(o) => observed(
            &o.status,
            o.within,
            o.cycles,
            report.analysis.wcet,
            "analytical",
        ),
        None => Ok(()),
    }
}

/// Exit 1 when the observed launch did not finish or took longer than the `what` WCET `bound`.
fn observed(status: &str, within: bool, cycles: u64, bound: u64, what: &str) -> Result<(), Fail> {
    match () {
        _ if status != "done" => Err(Fail(1, format!("the launch ended in {status}"))),
        _ if !within => Err(Fail(
            1,
            format!("observed {cycles} cycles > {what} WCET {bound}"),
        )),
        _ => Ok(()),
    }
}

/// `--exec simd`: the Sim-D bound; exit 1 when the simulated launch (`--run`) failed or took
/// longer than the bound.
fn simd(opts: &WcetArgs) -> Result<(), Fail> {
    let report = wcet::simd::wcet_simd(opts).map_err(|e| Fail(e.code(), e.to_string()))?;
    print_json_or(opts.json, &report, |r| r.text())?;
    match &report.observed {
        Some(o) => observed(&o.status, o.within, o.cycles, report.bound.wcet, "Sim-D"),
        None => Ok(()),
    }
}
