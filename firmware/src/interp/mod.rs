//! The reference interpreter: runs a kernel launch architecturally (no timing) on the ISA
//! subset of [`crate::isa`], with the kernel ABI of `firmware/kernels/README.md`. Tests
//! compare the memory it leaves behind with the compute unit's.
//!
//! Work-groups run one after another. Inside a work-group the wavefronts interleave one
//! instruction at a time, round-robin in wave order; a wavefront at `s_barrier` waits until
//! every wavefront of its group that has not ended has arrived; at a Sim-D `tile_ld`/`tile_st`
//! (`tile`) likewise, and then the transfer runs once for the work-group. `split` and `merge` change
//! no architectural state (lanes are governed by EXEC alone), `s_waitcnt`, `s_nop` and
//! `s_sleep` do nothing. [`run_observed`] runs the same launch and reports each FLAT
//! load/store and `s_barrier` to an observer ([`MemEvent`]); [`run`] has no observer.
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
mod observe;
mod salu;
mod step;
#[cfg(test)]
mod tests;
mod tile;
mod valu;
#[cfg(test)]
mod valu_block;
#[cfg(test)]
mod valu_fp_block;
mod wave;

pub use error::InterpError;
pub use observe::{FlatAccess, MemEvent, WaveId};

use crate::launch::Dims;
use control::Flow;
use mem::Memories;
use observe::peek_flat;
pub use rtgpu_hw::cu::Abi;
use rtgpu_hw::cu::WavePlace;
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
/// execution starts at `entry_pc`; `dims` and `lds_bytes` give the work-groups; `abi` says how
/// the wavefronts' registers start ([`Abi`]: a bare kernel argument segment address is the
/// simple ABI, which passes it in `s[0:1]`); `mem` is the data
/// memory (dword i = bytes 4i..4i+3), which the kernel reads and writes in place.
pub fn run(
    code: &[u32],
    entry_pc: u32,
    dims: Dims,
    lds_bytes: u32,
    abi: impl Into<Abi>,
    mem: &mut [u32],
    cfg: &InterpConfig,
) -> Result<InterpStats, InterpError> {
    Launch::new(code, entry_pc, dims, lds_bytes, abi.into(), cfg)?.run(mem)
}

/// [`run`] on a copy of `image`'s memory (its ABI, entry pc 0); the
/// contents of its buffer arguments afterwards, in argument order. The oracle the tests and
/// the system runs compare the compute unit's buffers with.
pub fn buffers(
    code: &[u32],
    dims: Dims,
    lds_bytes: u32,
    image: &crate::launch::Image,
    cfg: &InterpConfig,
) -> Result<Vec<Vec<u32>>, InterpError> {
    let mut mem = image.mem.clone();
    run(code, 0, dims, lds_bytes, image.abi, &mut mem, cfg)?;
    Ok((0..image.buffers.len())
        .map(|i| image.buffer(&mem, i).to_vec())
        .collect())
}

/// [`run`], telling `observer` about every FLAT load/store and `s_barrier` as each wavefront
/// executes it ([`MemEvent`]): a wavefront's events arrive in its program order, the
/// wavefronts of a work-group interleaved round-robin, work-groups one after another.
#[allow(clippy::too_many_arguments)]
pub fn run_observed(
    code: &[u32],
    entry_pc: u32,
    dims: Dims,
    lds_bytes: u32,
    abi: impl Into<Abi>,
    mem: &mut [u32],
    cfg: &InterpConfig,
    observer: &mut dyn FnMut(&MemEvent),
) -> Result<InterpStats, InterpError> {
    let mut launch = Launch::new(code, entry_pc, dims, lds_bytes, abi.into(), cfg)?;
    launch.observer = Some(observer);
    launch.run(mem)
}

/// Scheduling state of one wavefront.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    Ready,
    AtBarrier,
    /// At a Sim-D tile transfer (done once every live wavefront is there).
    AtTile(tile::Tile),
    Done,
}

/// One launch in progress.
struct Launch<'a, 'o> {
    code: Code<'a>,
    entry_pc: u32,
    dims: Dims,
    lds_bytes: u32,
    abi: Abi,
    cfg: InterpConfig,
    stats: InterpStats,
    observer: Option<&'o mut dyn FnMut(&MemEvent)>,
}

impl<'a> Launch<'a, '_> {
    /// A launch of checked dimensions and LDS size, no observer.
    fn new(
        code: &'a [u32],
        entry_pc: u32,
        dims: Dims,
        lds_bytes: u32,
        abi: Abi,
        cfg: &InterpConfig,
    ) -> Result<Self, InterpError> {
        dims.check()
            .map_err(|e| InterpError::BadLaunch(e.to_string()))?;
        if lds_bytes > MAX_LDS {
            return Err(InterpError::BadLaunch(format!(
                "{lds_bytes} LDS bytes per work-group is more than {MAX_LDS}"
            )));
        }
        Ok(Launch {
            code: Code::new(code),
            entry_pc,
            dims,
            lds_bytes,
            abi,
            cfg: *cfg,
            stats: InterpStats::default(),
            observer: None,
        })
    }

    /// Runs every work-group in turn.
    fn run(mut self, mem: &mut [u32]) -> Result<InterpStats, InterpError> {
        for group in 0..self.dims.groups() {
            self.group(group, mem)?;
        }
        Ok(self.stats)
    }

    /// The initial state of wave `index` of work-group `group` (kernels/README.md).
    fn wave(&self, group: u32, index: u32) -> Wave {
        let mut w = Wave::new(u64::from(self.entry_pc));
        let at = WavePlace {
            group,
            wg: self.dims.wg,
            wave: index,
        };
        self.abi.init_sgprs(at, &mut w.s);
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
            for (wave, (w, s)) in (0..).zip(waves.iter_mut().zip(state.iter_mut())) {
                if *s == State::Ready {
                    *s = self.step(w, &mut m, WaveId { group, wave })?;
                }
            }
            release_tile(&mut state, &mut m)?;
            release_barrier(&mut state);
        }
        Ok(())
    }

    /// One instruction of wavefront `at`, counted against the step limit.
    fn step(&mut self, w: &mut Wave, m: &mut Memories, at: WaveId) -> Result<State, InterpError> {
        if self.stats.instructions >= self.cfg.max_steps {
            return Err(InterpError::StepLimit {
                steps: self.cfg.max_steps,
            });
        }
        self.stats.instructions += 1;
        let Some(observer) = self.observer.as_deref_mut() else {
            return Ok(state_after(step::step(w, &mut self.code, m)?));
        };
        let pc = w.pc as u32;
        let flat = peek_flat(w, &mut self.code, at);
        let flow = step::step(w, &mut self.code, m)?;
        if let Some(access) = flat {
            observer(&MemEvent::Flat(access));
        } else if flow == Flow::Barrier {
            observer(&MemEvent::Barrier { at, pc });
        }
        Ok(state_after(flow))
    }
}

/// The scheduling state after an instruction's flow.
fn state_after(flow: Flow) -> State {
    match flow {
        Flow::Continue => State::Ready,
        Flow::Barrier => State::AtBarrier,
        Flow::End => State::Done,
        Flow::Tile(t) => State::AtTile(t),
    }
}

/// When no wavefront can run and some wait at a tile transfer, every wavefront that has not
/// ended has arrived: the transfer runs once (the first waiting wavefront's descriptor) and
/// they continue.
fn release_tile(state: &mut [State], m: &mut Memories) -> Result<(), InterpError> {
    if state.contains(&State::Ready) {
        return Ok(());
    }
    let Some(t) = state.iter().find_map(|s| match s {
        State::AtTile(t) => Some(*t),
        _ => None,
    }) else {
        return Ok(());
    };
    tile::run(&t, m).map_err(|e| e.at(t.pc, t.word))?;
    for s in state.iter_mut().filter(|s| matches!(s, State::AtTile(_))) {
        *s = State::Ready;
    }
    Ok(())
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
