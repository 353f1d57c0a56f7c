//! One kernel launch from start to finish: load, launch, wait, read back.

use super::{Bus, Driver, DriverError, LaunchDesc, PerfCounters};
use crate::interp::InterpConfig;
use crate::launch::{Image, BUFFER_ALIGN};
use crate::ldst_trace::{analyze, plan};

/// Reordering on: analyses the launch (the reordering paper's kernel analyzer on the reference
/// interpreter), writes the trace table after the image, and returns its address.
fn write_trace_table<B: Bus>(
    drv: &mut Driver<B>,
    code: &[u32],
    image: &Image,
    desc: &LaunchDesc,
) -> Result<u64, DriverError> {
    let a = analyze(
        code,
        desc.entry_pc,
        desc.dims,
        desc.lds,
        image.abi,
        &image.mem,
        &InterpConfig::default(),
    )
    .map_err(|e| DriverError::BadLaunch(format!("the kernel analyzer failed: {e}")))?;
    let at = (4 * image.mem.len() as u64).next_multiple_of(BUFFER_ALIGN);
    drv.write_mem(at, &plan(&a).encode())?;
    Ok(at)
}

/// What a launch left behind.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// How it ended: `Ok` when the GPU reported done.
    pub result: Result<(), DriverError>,
    /// The counters (also after an error or a timeout).
    pub counters: PerfCounters,
    /// The contents of each buffer argument afterwards (empty after an error).
    pub buffers: Vec<Vec<u32>>,
}

/// Loads `code` and `image`, launches `desc` (its kernel argument address is the image's),
/// waits at most `timeout` cycles, and reads the counters and the buffers back. Errors while
/// loading are returned; errors of the launch itself end up in [`Outcome::result`].
pub fn run<B: Bus>(
    drv: &mut Driver<B>,
    code: &[u32],
    image: &Image,
    desc: LaunchDesc,
    timeout: u64,
) -> Result<Outcome, DriverError> {
    drv.load_code(code)?;
    drv.write_mem(0, &image.mem)?;
    let trace_addr = if desc.reorder {
        write_trace_table(drv, code, image, &desc)?
    } else {
        desc.trace_addr
    };
    let desc = LaunchDesc {
        abi: image.abi,
        trace_addr,
        ..desc
    };
    let result = drv.launch(&desc).and_then(|()| drv.wait(timeout, 64));
    let counters = drv.counters()?;
    let buffers = match result {
        Ok(()) => image
            .buffers
            .iter()
            .map(|b| drv.read_mem(b.addr, b.dwords as usize))
            .collect::<Result<_, _>>()?,
        Err(_) => Vec::new(),
    };
    Ok(Outcome {
        result,
        counters,
        buffers,
    })
}
