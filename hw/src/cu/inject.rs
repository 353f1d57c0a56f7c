//! The fault-injection hook: one single-bit flip in the architectural register state at a
//! chosen cycle of a launch (the fault model of Lee's thesis, Section 3.2: single bit flips
//! spread uniformly over the area, here over the register bits; docs/works/thesis.md#ch3).
//!
//! Off (the default) it costs one untaken branch per full cycle and per jump over quiet
//! cycles. Armed ([`ComputeUnit::arm_flip`]) the unit flips the bit at the start of the chosen
//! cycle (before that cycle's completions and issues) and records what it flipped
//! ([`ComputeUnit::flipped`]).
//!
//! The register state at a cycle, bit by bit and in this order: for every SIMD group, every
//! live context's SGPRs `s0..s(sgprs-1)`, VCC (64 bits), EXEC (64), M0 (32) and SCC (1); then
//! every wavefront with a live context: VGPRs `v0..v(vgprs-1)` of its 64 lanes. `sgprs` and
//! `vgprs` are the registers the kernel uses ([`Target::Uniform`]).

use super::regfile::LANES;
use super::ComputeUnit;

/// Which bit to flip.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// Bit `pick mod total` of the register state (see the module documentation), where
    /// `total` counts `sgprs` SGPRs per context and `vgprs` VGPRs per wavefront.
    Uniform {
        /// A uniform random number.
        pick: u64,
        /// SGPRs per context the state counts.
        sgprs: u8,
        /// VGPRs per wavefront the state counts.
        vgprs: u16,
    },
    /// This register bit of the wavefront with this global number (its first live context
    /// for a scalar register).
    Reg {
        /// Global wavefront number.
        wave: u32,
        /// The register.
        reg: Reg,
        /// Bit within the register's 32 (or 64 for VCC and EXEC).
        bit: u8,
    },
}

/// An architectural register.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub enum Reg {
    /// `sN`.
    Sgpr(u8),
    /// VCC.
    Vcc,
    /// EXEC.
    Exec,
    /// M0.
    M0,
    /// SCC.
    Scc,
    /// VGPR `v` of a lane.
    Vgpr {
        /// Register number.
        v: u16,
        /// Lane.
        lane: u8,
    },
}

/// A flip the unit made.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Flipped {
    /// Cycle from the launch.
    pub cycle: u64,
    /// Global wavefront number.
    pub wave: u32,
    /// The register.
    pub reg: Reg,
    /// The bit.
    pub bit: u8,
}

/// The hook's state: the flip armed, and what it did.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Armed {
    /// Flip at this launch cycle.
    at: Option<(u64, Target)>,
    /// The flip made (`Some(None)`: the cycle came with no register state to flip).
    done: Option<Option<Flipped>>,
}

/// Bits of a context's scalar state beyond its SGPRs: VCC, EXEC, M0, SCC.
const SPECIAL_BITS: u64 = 64 + 64 + 32 + 1;

impl ComputeUnit {
    /// Arms one bit flip at launch cycle `at` of the next (or current) launch.
    pub fn arm_flip(&mut self, at: u64, target: Target) {
        self.inject = Armed {
            at: Some((at, target)),
            done: None,
        };
    }

    /// The flip made in this launch: `None` not yet, `Some(None)` nothing to flip at its
    /// cycle (no live wavefront).
    pub fn flipped(&self) -> Option<Option<Flipped>> {
        self.inject.done
    }

    /// Cycles from now to the armed flip (`u64::MAX`: none armed); quiet-cycle jumps stop
    /// there.
    pub(super) fn cycles_to_flip(&self) -> u64 {
        match self.inject.at {
            Some((at, _)) => at.saturating_sub(self.now - self.start),
            None => u64::MAX,
        }
    }

    /// Makes the armed flip if its cycle has come.
    #[inline]
    pub(super) fn flip_due(&mut self) {
        if let Some((at, t)) = self.inject.at {
            if self.now - self.start >= at {
                self.inject.at = None;
                self.inject.done = Some(self.flip(t));
                self.quiet.reset();
            }
        }
    }

    fn flip(&mut self, t: Target) -> Option<Flipped> {
        let (wave, reg, bit) = match t {
            Target::Uniform { pick, sgprs, vgprs } => self.pick(pick, sgprs, vgprs)?,
            Target::Reg { wave, reg, bit } => (wave, reg, bit),
        };
        let cycle = self.now - self.start;
        self.toggle(wave, reg, bit)?;
        Some(Flipped {
            cycle,
            wave,
            reg,
            bit,
        })
    }

    /// The live (group, context) pairs, group-major.
    fn live_ctxs(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        self.groups.iter().enumerate().flat_map(|(gi, g)| {
            (0..g.ctx.len())
                .filter(move |&k| g.ctx[k].live)
                .map(move |k| (gi, k))
        })
    }

    /// The (group, VRF slot) of the wavefronts with a live context.
    fn live_wfs(&self) -> Vec<(usize, usize)> {
        let mut v: Vec<(usize, usize)> = self
            .live_ctxs()
            .map(|(gi, k)| (gi, self.groups[gi].ctx[k].wf))
            .collect();
        v.sort_unstable();
        v.dedup();
        v
    }

    /// Bit `pick mod total` of the register state: (wavefront, register, bit).
    fn pick(&self, pick: u64, sgprs: u8, vgprs: u16) -> Option<(u32, Reg, u8)> {
        let per_ctx = u64::from(sgprs) * 32 + SPECIAL_BITS;
        let per_wf = u64::from(vgprs) * LANES as u64 * 32;
        let ctxs: Vec<(usize, usize)> = self.live_ctxs().collect();
        let wfs = self.live_wfs();
        let total = per_ctx * ctxs.len() as u64 + per_wf * wfs.len() as u64;
        let mut b = pick.checked_rem(total)?;
        if b < per_ctx * ctxs.len() as u64 {
            let (gi, k) = ctxs[(b / per_ctx) as usize];
            let wave = self.ctx_id(gi, k).wave;
            let (reg, bit) = scalar_bit(b % per_ctx, sgprs);
            return Some((wave, reg, bit));
        }
        b -= per_ctx * ctxs.len() as u64;
        let (gi, slot) = wfs[(b / per_wf) as usize];
        let wave = self.groups[gi].wfs[slot].global as u32;
        let r = b % per_wf;
        let (v, lane, bit) = (r / (LANES as u64 * 32), r / 32 % LANES as u64, r % 32);
        let reg = Reg::Vgpr {
            v: v as u16,
            lane: lane as u8,
        };
        Some((wave, reg, bit as u8))
    }

    /// Flips the bit; `None` when the wavefront has no live context.
    fn toggle(&mut self, wave: u32, reg: Reg, bit: u8) -> Option<()> {
        let (gi, k) = self
            .live_ctxs()
            .find(|&(gi, k)| self.ctx_id(gi, k).wave == wave)?;
        let g = &mut self.groups[gi];
        let wf = g.ctx[k].wf;
        let r = &mut g.ctx[k].r;
        match reg {
            Reg::Sgpr(n) => r.s[usize::from(n) % r.s.len()] ^= 1 << (bit % 32),
            Reg::Vcc => r.vcc ^= 1 << (bit % 64),
            Reg::Exec => r.exec ^= 1 << (bit % 64),
            Reg::M0 => r.m0 ^= 1 << (bit % 32),
            Reg::Scc => r.scc = !r.scc,
            Reg::Vgpr { v, lane } => {
                let vrf = &mut g.wfs[wf].vrf;
                let lane = usize::from(lane) % LANES;
                let x = vrf.get(usize::from(v), lane);
                vrf.set(usize::from(v), lane, x ^ 1 << (bit % 32));
            }
        }
        g.wake();
        Some(())
    }
}

/// Bit `b` of a context's scalar state of `sgprs` SGPRs.
fn scalar_bit(b: u64, sgprs: u8) -> (Reg, u8) {
    let s = u64::from(sgprs) * 32;
    match b {
        _ if b < s => (Reg::Sgpr((b / 32) as u8), (b % 32) as u8),
        _ if b < s + 64 => (Reg::Vcc, (b - s) as u8),
        _ if b < s + 128 => (Reg::Exec, (b - s - 64) as u8),
        _ if b < s + 160 => (Reg::M0, (b - s - 128) as u8),
        _ => (Reg::Scc, 0),
    }
}
