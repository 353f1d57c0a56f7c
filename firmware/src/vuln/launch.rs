//! One launch of a kernel on a fresh compute unit through the driver, with a hook that may
//! attach an observer or arm a bit flip first; what the vulnerability measurements and the
//! fault-injection campaigns run.

use crate::driver::{self, Driver, DriverError, LaunchDesc, Outcome};
use crate::launch::{Image, KernelMeta};
use rtgpu_hw::cu::{ComputeUnit, CuConfig, Mode};
use rtgpu_hw::gpu::Gpu;
use rtgpu_hw::sched::model::Policy;

/// A kernel launch: code, header (launch sizes and LDS) and memory image.
#[derive(Clone, Debug)]
pub struct Case {
    /// The code the compute unit runs.
    pub code: Vec<u32>,
    /// Its header.
    pub meta: KernelMeta,
    /// The memory image it starts from.
    pub image: Image,
}

/// Runs `case` with no-split mode and GTO on configuration `cfg`, calling `hook` on the compute
/// unit before the launch; stops after `timeout` cycles. The outcome and the GPU after it.
pub fn run_case(
    case: &Case,
    cfg: CuConfig,
    timeout: u64,
    hook: impl FnOnce(&mut ComputeUnit),
) -> Result<(Outcome, Gpu), DriverError> {
    let mut gpu = Gpu::new(cfg).map_err(DriverError::BadLaunch)?;
    hook(gpu.cu_mut());
    let mut drv = Driver::new(gpu)?;
    let (m, i) = (&case.meta, &case.image);
    let desc = LaunchDesc {
        entry_pc: 0,
        ..LaunchDesc::new(i.abi, m.dims, m.lds, Mode::NoSplit, 1, Policy::Gto)
    };
    let out = driver::run(&mut drv, &case.code, i, desc, timeout)?;
    Ok((out, drv.into_bus()))
}
