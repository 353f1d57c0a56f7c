//! `rtgpu synth`: a block through Yosys, and its cell count.

use crate::common::{find, Fail};
use rtgpu_testbench::paths;
use rtgpu_testbench::sim::cosim;

/// The arguments of `rtgpu synth`.
#[derive(clap::Args)]
pub struct SynthArgs {
    /// Block name (see `rtgpu list`).
    name: String,
    /// Print the whole `stat` report.
    #[arg(long)]
    stat: bool,
}

/// Synthesizes the block's Verilog in its cosimulation directory and prints the cell count
/// (after the `stat` report if asked).
pub fn run(a: &SynthArgs) -> Result<(), Fail> {
    let t = find(&a.name)?;
    let verilog = t.verilog()?;
    let dir = paths::cosim_dir(&a.name);
    let report = cosim::synth(&dir, &verilog)?;
    if a.stat {
        println!("{}", report.stat);
    }
    println!("{}: yosys synth -top top: {} cells", a.name, report.cells);
    Ok(())
}
