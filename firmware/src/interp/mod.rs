//! The reference interpreter: runs a kernel launch architecturally (no timing) on the ISA
//! subset of [`crate::isa`], with the kernel ABI of `firmware/kernels/README.md`. Tests
//! compare the memory it leaves behind with the compute unit's.
//!
//! Work-groups run one after another. Inside a work-group the wavefronts interleave one
//! instruction at a time, round-robin in wave order; a wavefront at `s_barrier` waits until
//! every wavefront of its group that has not ended has arrived. `split` and `merge` change
//! no architectural state (lanes are governed by EXEC alone), `s_waitcnt`, `s_nop` and
//! `s_sleep` do nothing.
//!
//! Semantic choices where the GCN3 manual leaves room (see also the module docs of
//! `float`, `salu`, `valu`, `mem`):
//! - 64-bit scalar sources: integer inline constants are sign-extended, float inline
//!   constants are the double-precision value, 32-bit literals are zero-extended;
//! - `clamp` on the integer ops saturates unsigned (add/addc to 0xFFFFFFFF on carry,
//!   sub/subrev to 0 on borrow, the 24-bit multiplies to 0xFFFFFFFF); on float results it
//!   clamps to [0, 1] after omod, NaN and −0.0 giving +0.0; clamp and omod on
//!   `v_cvt_{i,u}32_f32` have no effect;
//! - `s_bfe_u32` with a width of 32 or more keeps every bit above the offset;
//! - SMEM addresses must be 4-byte aligned like every other access (a fault otherwise);
//! - `src_lds_direct` and `gds` are illegal instructions.

mod control;
mod error;
mod float;
mod mem;
mod salu;
mod step;
#[cfg(test)]
mod tests;
mod valu;
mod wave;

pub use error::InterpError;

use crate::launch::Dims;
use control::Flow;
use mem::Memories;
use step::Code;
use wave::{Wave, EXEC, LANES, M0};

/// The most LDS a work-group may ask for (GCN3: 64 KiB).
pub const MAX_LDS: u32 = 64 * 1024;

/// Limits of an interpreted launch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InterpConfig {
    /// The most instructions the launch may execute, over all wavefronts.
    pub max_steps: u64,
}

impl Default for InterpConfig {
    fn default() -> Self {
        InterpConfig {
            max_steps: 50_000_000,
        }
    }
}

/// What an interpreted launch did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct InterpStats {
    /// Instructions executed, over all wavefronts.
    pub instructions: u64,
    /// Wavefronts run.
    pub waves: u64,
}

/// Runs a launch: `code` is the code image in dwords (the PC is a byte address into it),
/// execution starts at `entry_pc`; `dims` and `lds_bytes` give the work-groups; `kernarg`
/// is the address of the kernel argument segment (passed in `s[0:1]`); `mem` is the data
/// memory (dword i = bytes 4i..4i+3), which the kernel reads and writes in place.
pub fn run(
    code: &[u32],
    entry_pc: u32,
    dims: Dims,
    lds_bytes: u32,
    kernarg: u64,
    mem: &mut [u32],
    cfg: &InterpConfig,
) -> Result<InterpStats, InterpError> {
    dims.check()
        .map_err(|e| InterpError::BadLaunch(e.to_string()))?;
    if lds_bytes > MAX_LDS {
        return Err(InterpError::BadLaunch(format!(
            "{lds_bytes} LDS bytes per work-group is more than {MAX_LDS}"
        )));
    }
    let mut launch = Launch {
        code: Code::new(code),
        entry_pc,
        dims,
        lds_bytes,
        kernarg,
        cfg: *cfg,
        stats: InterpStats::default(),
    };
    for group in 0..dims.groups() {
        launch.group(group, mem)?;
    }
    Ok(launch.stats)
}

/// Scheduling state of one wavefront.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    Ready,
    AtBarrier,
    Done,
}

/// One launch in progress.
struct Launch<'a> {
    code: Code<'a>,
    entry_pc: u32,
    dims: Dims,
    lds_bytes: u32,
    kernarg: u64,
    cfg: InterpConfig,
    stats: InterpStats,
}

impl Launch<'_> {
    /// The initial state of wave `index` of work-group `group` (kernels/README.md).
    fn wave(&self, group: u32, index: u32) -> Wave {
        let mut w = Wave::new(u64::from(self.entry_pc));
        w.set_pair(0, self.kernarg);
        w.s[2] = group;
        w.s[3] = self.dims.wg;
        w.s[4] = index;
        w.s[M0 as usize] = u32::MAX;
        w.set_pair(EXEC, self.dims.lanes(index));
        for lane in 0..LANES {
            w.set_vgpr(0, lane, index * LANES as u32 + lane as u32);
        }
        w
    }

    /// Runs work-group `group` to the end: round-robin over its wavefronts.
    fn group(&mut self, group: u32, mem: &mut [u32]) -> Result<(), InterpError> {
        let n = self.dims.waves_per_group();
        let mut waves: Vec<Wave> = (0..n).map(|i| self.wave(group, i)).collect();
        let mut state = vec![State::Ready; waves.len()];
        let mut lds = vec![0u32; self.lds_bytes.div_ceil(4) as usize];
        self.stats.waves += u64::from(n);
        let mut m = Memories {
            mem,
            lds: &mut lds,
            lds_bytes: self.lds_bytes,
        };
        while state.iter().any(|s| *s != State::Done) {
            for (w, s) in waves.iter_mut().zip(state.iter_mut()) {
                if *s == State::Ready {
                    *s = self.step(w, &mut m)?;
                }
            }
            release_barrier(&mut state);
        }
        Ok(())
    }

    /// One instruction of one wavefront, counted against the step limit.
    fn step(&mut self, w: &mut Wave, m: &mut Memories) -> Result<State, InterpError> {
        if self.stats.instructions >= self.cfg.max_steps {
            return Err(InterpError::StepLimit {
                steps: self.cfg.max_steps,
            });
        }
        self.stats.instructions += 1;
        Ok(match step::step(w, &mut self.code, m)? {
            Flow::Continue => State::Ready,
            Flow::Barrier => State::AtBarrier,
            Flow::End => State::Done,
        })
    }
}

/// When no wavefront can run and some wait at the barrier, every wavefront that has not
/// ended has arrived: release them.
fn release_barrier(state: &mut [State]) {
    if state.iter().all(|s| *s != State::Ready) {
        for s in state.iter_mut().filter(|s| **s == State::AtBarrier) {
            *s = State::Ready;
        }
    }
}
