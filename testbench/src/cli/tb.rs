//! `rtgpu tb`: a block testbench, RTL against the reference model every cycle.

use crate::common::{find, options, Fail, Stimulus};
use rtgpu_testbench::sim::harness::HarnessError;
use rtgpu_testbench::sim::vl::EngineArgs;
use rtgpu_testbench::tb::{TbError, TbOptions};
use std::path::PathBuf;

/// The arguments of `rtgpu tb`.
#[derive(clap::Args)]
pub struct TbArgs {
    /// Block name (see `rtgpu list`).
    name: String,
    /// Cycles and seed.
    #[command(flatten)]
    stim: Stimulus,
    /// Directory for the VCD and .gtkw files (as `rtgpu scenario --out`).
    #[arg(long, value_name = "DIR", default_value = "waveforms")]
    out: PathBuf,
    /// Do not write a waveform.
    #[arg(long)]
    no_vcd: bool,
    /// Write the waveform as FST (NAME.fst, converted by gtkwave's vcd2fst) instead of VCD.
    #[arg(long, conflicts_with = "no_vcd")]
    fst: bool,
    /// The RTL engine.
    #[command(flatten)]
    engine: EngineArgs,
}

/// Runs the testbench, prints its summary and the waveform files it wrote.
pub fn run(a: &TbArgs) -> Result<(), Fail> {
    let t = find(&a.name)?;
    if a.no_vcd && !a.engine.vcd_scope.is_empty() {
        return Err(Fail(
            2,
            "--vcd-scope limits the waveform: drop --no-vcd".into(),
        ));
    }
    let opts = TbOptions {
        waves_dir: (!a.no_vcd).then(|| a.out.clone()),
        engine: a.engine.engine,
        vcd_window: a.engine.window_ps(),
        fst: a.fst,
        vcd_scopes: a.engine.vcd_scope.clone(),
        ..options(&a.stim)
    };
    let run = t.run(&opts).map_err(|e| match e {
        // A scope that is not in the block is bad input.
        TbError::Harness(HarnessError::Scope(m)) => Fail(2, m),
        e => Fail::from(e),
    })?;
    println!("{}: PASS: {}", a.name, run.summary);
    if let (Some(vcd), Some(gtkw)) = (&run.vcd, &run.gtkw) {
        println!("wrote {}\nwrote {}", vcd.display(), gtkw.display());
        println!("view: gtkwave {}", gtkw.display());
    }
    Ok(())
}
