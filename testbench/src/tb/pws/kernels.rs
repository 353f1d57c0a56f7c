//! The split/merge unit under real kernels: the compute unit runs kernels of
//! `firmware/kernels/` on its reference model of the unit while recording SIMD group 0's
//! inputs; [`Replay`] drives them into the RTL, which must match the model every cycle. Since
//! the model the compute unit used and the RTL agree on every output, the compute unit would
//! have made the same decisions with the RTL in its place.

use super::stimulus::Stimulus;
use rtgpu_firmware::driver::{run, Driver, LaunchDesc};
use rtgpu_firmware::isa::assemble;
use rtgpu_firmware::launch::{Image, KernelMeta};
use rtgpu_hw::cu::{CuConfig, Mode};
use rtgpu_hw::gpu::Gpu;
use rtgpu_hw::pws::model::{GroupIn, GroupOut, ModelConfig, SimdGroupModel};
use rtgpu_hw::sched::model::Policy;

/// The kernels replayed, with their mode.
const KERNELS: [(&str, &str, Mode); 3] = [
    (
        "fig5_nested.s",
        include_str!("../../../../firmware/kernels/fig5_nested.s"),
        Mode::Pws,
    ),
    (
        "fig2_divergent.s",
        include_str!("../../../../firmware/kernels/fig2_divergent.s"),
        Mode::Pws,
    ),
    (
        "synthetic.s",
        include_str!("../../../../firmware/kernels/synthetic.s"),
        Mode::Dws,
    ),
];

/// One recorded cycle: the unit's inputs and each context's EXEC.
pub type Step = (GroupIn, Vec<u64>);

/// Runs the kernels on a compute unit whose SIMD groups have `cfg`'s shape (S = units − 1,
/// N_WFC = n_wfc) and returns group 0's inputs, each kernel after a reset cycle.
pub fn kernel_trace(cfg: ModelConfig) -> Result<Vec<Step>, String> {
    let mut steps = Vec::new();
    for (name, src, mode) in KERNELS {
        let prog = assemble(src, name).map_err(|e| e.to_string())?;
        let meta = KernelMeta::parse(src).map_err(|e| e.to_string())?;
        let image = Image::build(&meta.args, meta.dims, 1);
        let mut gpu = Gpu::new(CuConfig {
            n_wfc: cfg.n_wfc,
            ..CuConfig::default()
        })?;
        gpu.cu_mut().trace_group = Some(0);
        let mut drv = Driver::new(gpu).map_err(|e| e.to_string())?;
        let s = cfg.units as u32 - 1;
        let desc = LaunchDesc::new(image.kernarg, meta.dims, meta.lds, mode, s, Policy::Gto);
        let out =
            run(&mut drv, &prog.words(), &image, desc, 10_000_000).map_err(|e| e.to_string())?;
        out.result.map_err(|e| format!("{name}: {e}"))?;
        let trace = drv.into_bus().cu_mut().take_trace(0).unwrap_or_default();
        let n = cfg.units * cfg.n_wfc;
        // The reset carries the segment's mode (`dws` may change only across a reset).
        let reset = GroupIn {
            reset: true,
            dws: mode == Mode::Dws,
            s: s as u8,
            ..GroupIn::default()
        };
        steps.push((reset, vec![0; n]));
        steps.extend(trace);
    }
    Ok(steps)
}

/// Replays recorded inputs (then idles with the last mode).
pub struct Replay(pub Vec<Step>);

impl Stimulus for Replay {
    fn min_cycles(&self) -> u64 {
        self.0.len() as u64
    }

    fn next(&mut self, k: u64, model: &SimdGroupModel) -> (GroupIn, Vec<u64>) {
        let n = model.config().units * model.config().n_wfc;
        match self.0.get(k as usize) {
            Some(s) => s.clone(),
            None => (GroupIn::default(), vec![0; n]),
        }
    }

    fn check(&self, _k: u64, _out: &GroupOut) -> Result<(), String> {
        Ok(())
    }
}
