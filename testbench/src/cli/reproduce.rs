//! `rtgpu reproduce`: a paper's results on the model, printed and drawn.

use crate::common::Fail;
use rtgpu_testbench::cu::wcet::reproduce::{self, ReproduceOpts};

/// The arguments of `rtgpu reproduce` (they live with the reproduction).
pub type ReproduceArgs = ReproduceOpts;

/// Reproduces the results; the reproduction prints and draws them itself.
pub fn run(o: &ReproduceArgs) -> Result<(), Fail> {
    reproduce::reproduce(o).map_err(Fail::coded)
}
