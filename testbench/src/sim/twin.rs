//! The same launch on the behavioural system and with blocks as RTL in lock-step: what each
//! gave, so that tests (and users) can see that cycles, counters and memory agree.

use super::blocks::RtlBlocks;
use crate::cu::system::SysCase;
use rtgpu_firmware::driver::PerfCounters;
use rtgpu_hw::block::{BlockFault, BlockKind, Blocks, Models};
use std::sync::Arc;

/// Stack of a thread that runs RTL blocks: rust-hdl builds a block on the stack, and the
/// largest (the reordering unit, the split/merge unit at S = 3) take megabytes.
pub const RTL_STACK: usize = 1 << 30;

/// Runs `f` on a thread with [`RTL_STACK`] of stack and returns what the thread gave: `Err`
/// with the panic's payload if it panicked (or a message if it could not start).
pub fn with_rtl_stack<T: Send>(f: impl FnOnce() -> T + Send) -> std::thread::Result<T> {
    std::thread::scope(|s| {
        match std::thread::Builder::new()
            .stack_size(RTL_STACK)
            .spawn_scoped(s, f)
        {
            Ok(h) => h.join(),
            Err(e) => Err(Box::new(format!("cannot start the RTL thread: {e}")) as _),
        }
    })
}

/// Runs `f` on a thread with [`RTL_STACK`] of stack (rust-hdl builds a large block on the
/// stack: more than a default thread has); a panic goes on in the caller.
pub fn on_rtl_stack_or_panic<T: Send>(f: impl FnOnce() -> T + Send) -> T {
    with_rtl_stack(f).unwrap_or_else(|p| std::panic::resume_unwind(p))
}

/// Runs `f` on a thread with [`RTL_STACK`] of stack; a panic is an error.
pub fn on_rtl_stack<T: Send>(f: impl FnOnce() -> Result<T, String> + Send) -> Result<T, String> {
    with_rtl_stack(f).unwrap_or_else(|_| Err("the RTL simulation panicked".into()))
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

/// Runs `case` with `blocks` choosing each block's implementation.
pub fn run(case: &SysCase, blocks: Arc<dyn Blocks>) -> Result<Ran, String> {
    let l = case.launch(Some(blocks), false)?;
    Ok(Ran {
        status: crate::cu::run::status_name(&l.out.result),
        counters: l.out.counters,
        buffers: l.out.buffers,
        fault: l.gpu.cu().block_fault().cloned(),
    })
}

/// `case` on the models, then with `kinds` as RTL in lock-step (on a large stack).
pub fn twin(case: &SysCase, kinds: &[BlockKind]) -> Result<(Ran, Ran), String> {
    let models = run(case, Arc::new(Models))?;
    let rtl = on_rtl_stack(|| run(case, Arc::new(RtlBlocks::new(kinds))))?;
    Ok((models, rtl))
}
