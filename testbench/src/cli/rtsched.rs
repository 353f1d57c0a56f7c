//! `rtgpu rtsched`: the thesis' Chapter 5 scheduler on the multi-compute-unit GPU; `fig5.4`
//! runs the worked example through the driver and prints its schedule (or the JSON event
//! log) and the thesis' facts.

use crate::common::{print_json_or, Fail};
use rtgpu_firmware::rtsched::fig54::run_fig54;
use rtgpu_firmware::rtsched::policy::Policy;

/// The scheduler of `--policy`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum PolicyArg {
    /// Algorithms 6 to 9 (the thesis).
    Ours,
    /// Whole kernels, first-in first-out.
    Fifo,
    /// Whole kernels, earliest deadline first.
    Edf,
}

impl From<PolicyArg> for Policy {
    fn from(p: PolicyArg) -> Self {
        match p {
            PolicyArg::Ours => Policy::Ours,
            PolicyArg::Fifo => Policy::Fifo,
            PolicyArg::Edf => Policy::Edf,
        }
    }
}

/// The arguments of `rtgpu rtsched`.
#[derive(clap::Args)]
pub struct RtschedArgs {
    /// The example: `fig5.4` (the thesis' Fig. 5.4 on four compute units).
    #[arg(value_parser = ["fig5.4"])]
    what: String,
    /// Cycles per millisecond of the example (100..=1000000).
    #[arg(long, default_value_t = 2000, value_parser = clap::value_parser!(u64).range(100..=1_000_000))]
    ms_cycles: u64,
    /// The scheduler.
    #[arg(long, value_enum, default_value_t = PolicyArg::Ours)]
    policy: PolicyArg,
    /// Print the run as JSON: the event log (per event its cycle, what, application, kernel,
    /// sub-kernel, size and compute units), the applications, the profile and the facts.
    #[arg(long)]
    json: bool,
}

/// Runs the example; exit 1 when a fact does not hold under `--policy ours`.
pub fn run(a: &RtschedArgs) -> Result<(), Fail> {
    let f = run_fig54(a.ms_cycles, a.policy.into())?;
    print_json_or(a.json, &f, |f| f.text())?;
    if a.policy == PolicyArg::Ours && f.facts.iter().any(|f| !f.holds) {
        return Err(Fail(1, "a fact of Fig. 5.4 does not hold".into()));
    }
    Ok(())
}
