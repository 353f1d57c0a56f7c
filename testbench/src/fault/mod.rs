//! Fault injection (Lee's thesis, Sections 3.2 and 3.5.1, docs/works/thesis.md#ch3): single bit
//! flips spread uniformly over the compute unit's architectural register state, weighted by
//! bits, at uniformly random cycles of a run; each run ends masked, in silent data corruption,
//! in a detected error or in a hang ([`Outcome`]).
//!
//! A [`Campaign`] first runs the kernel fault-free (the golden buffers and cycle count), then
//! runs it once per injection with the compute unit's flip hook armed
//! (`ComputeUnit::arm_flip`). Injection `i` draws its cycle and its bit from a ChaCha8 stream
//! seeded with `(seed, i)`, so the counts depend on the seed only, not on the threads that
//! ran them. The watchdog stops a run at [`HANG_FACTOR`] times the golden cycle count.

pub mod lee_ch3;
mod tally;

pub use tally::{wilson, Outcome, Tally};

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rtgpu_firmware::driver::DriverError;
use rtgpu_firmware::vuln::access::used_regs;
use rtgpu_firmware::vuln::{run_case, Case};
use rtgpu_hw::cu::inject::{Flipped, Target};
use rtgpu_hw::cu::CuConfig;

/// The watchdog: a run stops after this many times the fault-free cycles (plus 1000).
pub const HANG_FACTOR: u64 = 4;

/// A kernel launch to inject faults into, with its fault-free result.
pub struct Campaign {
    case: Case,
    cfg: CuConfig,
    golden: Vec<Vec<u32>>,
    /// Cycles of the fault-free run.
    pub cycles: u64,
    /// SGPRs and VGPRs the register state counts (those the kernel names).
    pub regs: (u8, u16),
}

impl Campaign {
    /// Runs `case` fault-free on `cfg`.
    pub fn new(case: Case, cfg: CuConfig) -> Result<Campaign, String> {
        let (out, _) = run_case(&case, cfg, 50_000_000, |_| {}).map_err(|e| e.to_string())?;
        out.result.map_err(|e| format!("the fault-free run: {e}"))?;
        let regs = used_regs(&case.code);
        Ok(Campaign {
            cycles: out.counters.get("cycles"),
            golden: out.buffers,
            case,
            cfg,
            regs,
        })
    }

    /// One run with `target` flipped at launch cycle `at`: its outcome and the flip made
    /// (`None`: nothing was live to flip).
    pub fn inject(&self, at: u64, target: Target) -> Result<(Outcome, Option<Flipped>), String> {
        let timeout = HANG_FACTOR * self.cycles + 1000;
        let (out, gpu) = run_case(&self.case, self.cfg, timeout, |cu| cu.arm_flip(at, target))
            .map_err(|e| e.to_string())?;
        let flipped = gpu.cu().flipped().flatten();
        let outcome = match out.result {
            Ok(()) if out.buffers == self.golden => Outcome::Masked,
            Ok(()) => Outcome::Sdc,
            Err(DriverError::Timeout { .. }) => Outcome::Hang,
            Err(DriverError::Hardware { .. }) => Outcome::Detected,
            Err(e) => return Err(e.to_string()),
        };
        Ok((outcome, flipped))
    }

    /// Injection `i` of the campaign seeded `seed`: a uniform cycle of the fault-free run and
    /// a uniform bit of the register state.
    pub fn draw(&self, seed: u64, i: u64) -> (u64, Target) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        rng.set_stream(i);
        let at = rng.gen_range(0..self.cycles.max(1));
        let target = Target::Uniform {
            pick: rng.gen(),
            sgprs: self.regs.0,
            vgprs: self.regs.1,
        };
        (at, target)
    }

    /// `n` injections from `seed` over every core; `tick` is called after each.
    pub fn run(&self, n: u64, seed: u64, tick: impl Fn() + Sync) -> Result<Tally, String> {
        let ids: Vec<u64> = (0..n).collect();
        let outcomes = crate::cu::sweep::try_parallel(&ids, |&i| {
            let (at, target) = self.draw(seed, i);
            let r = self.inject(at, target).map(|(o, _)| o);
            tick();
            r
        })?;
        let mut t = Tally::default();
        for o in outcomes {
            t.add(o);
        }
        Ok(t)
    }
}

#[cfg(test)]
mod tests;
