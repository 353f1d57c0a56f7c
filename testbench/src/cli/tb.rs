//! `rtgpu tb`: a block testbench, RTL against the reference model every cycle.

use crate::common::{find, options, Fail, Stimulus};
use rtgpu_testbench::paths;
use rtgpu_testbench::sim::vl::EngineArgs;
use rtgpu_testbench::tb::TbOptions;
use std::path::PathBuf;

/// The arguments of `rtgpu tb`.
#[derive(clap::Args)]
pub struct TbArgs {
    /// Block name (see `rtgpu list`).
    name: String,
    /// Cycles and seed.
    #[command(flatten)]
    stim: Stimulus,
    /// Directory for the VCD and .gtkw (default: the repository's waveforms/).
    #[arg(long)]
    out: Option<PathBuf>,
    /// Do not write a waveform.
    #[arg(long)]
    no_vcd: bool,
    /// The RTL engine.
    #[command(flatten)]
    engine: EngineArgs,
}

/// Runs the testbench, prints its summary and the waveform files it wrote.
pub fn run(a: &TbArgs) -> Result<(), Fail> {
    let t = find(&a.name)?;
    let opts = TbOptions {
        waves_dir: (!a.no_vcd).then(|| a.out.clone().unwrap_or_else(paths::waveforms_dir)),
        engine: a.engine.engine,
        vcd_window: a.engine.window_ps(),
        ..options(&a.stim)
    };
    let run = t.run(&opts)?;
    println!("{}: PASS: {}", a.name, run.summary);
    if let (Some(vcd), Some(gtkw)) = (&run.vcd, &run.gtkw) {
        println!("wrote {}\nwrote {}", vcd.display(), gtkw.display());
        println!("view: gtkwave {}", gtkw.display());
    }
    Ok(())
}
