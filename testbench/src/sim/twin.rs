//! The same launch on the behavioural system and with blocks as RTL in lock-step: what each
//! gave, so that tests (and users) can see that cycles, counters and memory agree.

use super::blocks::RtlBlocks;
use crate::cu::run::idu_launch;
use crate::cu::system::load_kernel;
use rtgpu_firmware::aging::experiment::Distribution;
use rtgpu_firmware::driver::{self, Driver, LaunchDesc, PerfCounters};
use rtgpu_firmware::launch::{Dims, Image};
use rtgpu_hw::block::{BlockFault, BlockKind, Blocks, Models};
use rtgpu_hw::cu::{CuConfig, Mode};
use rtgpu_hw::gpu::Gpu;
use rtgpu_hw::sched::model::Policy;
use std::path::PathBuf;
use std::sync::Arc;

/// Stack of a thread that runs RTL blocks: rust-hdl builds a block on the stack, and the
/// largest (the reordering unit, the split/merge unit at S = 3) take megabytes.
pub const RTL_STACK: usize = 1 << 30;

/// Runs `f` on a thread with [`RTL_STACK`] of stack; a panic is an error.
pub fn on_rtl_stack<T: Send>(f: impl FnOnce() -> Result<T, String> + Send) -> Result<T, String> {
    std::thread::scope(|s| {
        std::thread::Builder::new()
            .stack_size(RTL_STACK)
            .spawn_scoped(s, f)
            .map_err(|e| format!("cannot start the RTL thread: {e}"))?
            .join()
            .unwrap_or_else(|_| Err("the RTL simulation panicked".into()))
    })
}

/// One launch.
#[derive(Clone, Debug)]
pub struct Launch {
    /// Kernel source.
    pub kernel: PathBuf,
    /// The compute unit and its memory.
    pub cfg: CuConfig,
    /// Split mode.
    pub mode: Mode,
    /// S.
    pub s: u32,
    /// Issue policy.
    pub policy: Policy,
    /// The reordering unit on (needs `cfg.memory.hierarchy`).
    pub reorder: bool,
    /// The IDU's host flow policy (`None`: the fixed VALU latency).
    pub idu: Option<Distribution>,
    /// Dimensions (default: the kernel's).
    pub dims: Option<Dims>,
    /// Cycle limit.
    pub timeout: u64,
}

/// What a launch gave.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ran {
    /// `done` or the error's name.
    pub status: String,
    /// Every counter.
    pub counters: PerfCounters,
    /// The buffers afterwards.
    pub buffers: Vec<Vec<u32>>,
    /// The first lock-step fault.
    pub fault: Option<BlockFault>,
}

impl Launch {
    /// Runs the launch with `blocks`.
    pub fn run(&self, blocks: Arc<dyn Blocks>) -> Result<Ran, String> {
        let (code, meta) = load_kernel(&self.kernel)?;
        let dims = self.dims.unwrap_or(meta.dims);
        let image = Image::build(&meta.args, dims, 1);
        let mut gpu = Gpu::new(self.cfg)?;
        gpu.cu_mut().set_blocks(blocks);
        let mut drv = Driver::new(gpu).map_err(|e| e.to_string())?;
        let desc = LaunchDesc {
            reorder: self.reorder,
            idu: idu_launch(self.idu, 1)?,
            ..LaunchDesc::new(
                image.kernarg,
                dims,
                meta.lds,
                self.mode,
                self.s,
                self.policy,
            )
        };
        let out =
            driver::run(&mut drv, &code, &image, desc, self.timeout).map_err(|e| e.to_string())?;
        let gpu = drv.into_bus();
        Ok(Ran {
            status: crate::cu::run::status_name(&out.result),
            counters: out.counters,
            buffers: out.buffers,
            fault: gpu.cu().block_fault().cloned(),
        })
    }

    /// The launch on the models, then with `kinds` as RTL in lock-step (on a large stack).
    pub fn twin(&self, kinds: &[BlockKind]) -> Result<(Ran, Ran), String> {
        let models = self.run(Arc::new(Models))?;
        let rtl = on_rtl_stack(|| self.run(Arc::new(RtlBlocks::new(kinds))))?;
        Ok((models, rtl))
    }
}
