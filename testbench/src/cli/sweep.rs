//! `rtgpu sweep`: a kernel set over a configuration grid, each launch beside its oracles.

use crate::common::Fail;
use rtgpu_testbench::cu::sweep::{self, SweepOpts};

/// The arguments of `rtgpu sweep` (they live with the sweep).
pub type SweepArgs = SweepOpts;

/// Runs the sweep; it writes the CSV and prints the summary itself.
pub fn run(o: &SweepArgs) -> Result<(), Fail> {
    sweep::sweep(o).map_err(Fail::coded)
}
