//! The register observer hook: what the compute unit tells an attached [`Observer`] about
//! register reads and writes, for measuring vulnerable periods (the time each register value
//! is exposed to a soft error between its write and its last read; Lee's thesis, Section 3.2,
//! docs/works/thesis.md#ch3).
//!
//! The compute unit holds an `Option<Box<dyn Observer>>`. Off (`None`, the default) it costs one
//! untaken branch per issue, per load completion and per wavefront start, and allocates
//! nothing. On, the unit reports:
//!
//! - [`RegEvent::Start`]: a context received a wavefront (dispatch: the ABI's SGPRs, EXEC and
//!   v0 are written then) or a split half (a copy of its parent's scalar state);
//! - [`RegEvent::Issue`]: an instruction issued: its source registers are read then and, except
//!   for a memory load's destination, its destination registers are written then (the
//!   behavioural units execute at issue);
//! - [`RegEvent::Written`]: a load's data reached its registers.
//!
//! Which registers an instruction reads and writes is the observer's business (it decodes the
//! code); the unit reports only when, which wavefront and which lanes.

use std::any::Any;

/// Which context an event concerns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CtxId {
    /// Global wavefront number (work-group id × wavefronts per group + wave); its VGPRs.
    pub wave: u32,
    /// The context's occupant number, unique in the launch (a split half gets its own): its
    /// scalar registers.
    pub occupant: u64,
}

/// Registers a load wrote when it completed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LoadRegs {
    /// VGPRs `first..first + n` of the lanes in `lanes`.
    Vgpr {
        /// First VGPR.
        first: u16,
        /// Dwords per lane.
        n: u8,
        /// The lanes written.
        lanes: u64,
    },
    /// Scalar registers by operand code, `first..first + n`.
    Sgpr {
        /// First operand code.
        first: u16,
        /// Dwords.
        n: u8,
    },
}

/// One thing the compute unit reports (cycles count from the launch).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RegEvent {
    /// A context received a wavefront or a split half.
    Start {
        /// Cycle.
        cycle: u64,
        /// The context.
        ctx: CtxId,
    },
    /// An instruction issued.
    Issue {
        /// Cycle.
        cycle: u64,
        /// The context.
        ctx: CtxId,
        /// Byte address of the instruction.
        pc: u32,
        /// The lanes it acts on (EXEC and the split mask).
        lanes: u64,
    },
    /// A load wrote its registers.
    Written {
        /// Cycle.
        cycle: u64,
        /// The context.
        ctx: CtxId,
        /// The registers.
        regs: LoadRegs,
    },
}

/// Something told about every [`RegEvent`] of a launch.
pub trait Observer: Send {
    /// One event, in the order the unit produced them.
    fn event(&mut self, e: &RegEvent);
    /// The observer itself, to recover its concrete type after the run.
    fn into_any(self: Box<Self>) -> Box<dyn Any>;
}

impl super::ComputeUnit {
    /// Attaches `o` (or detaches with `None`) from the next cycle on; the previous one.
    pub fn set_observer(&mut self, o: Option<Box<dyn Observer>>) -> Option<Box<dyn Observer>> {
        std::mem::replace(&mut self.observer, o)
    }

    /// Tells the observer, if one is attached, about the event `e` builds.
    #[inline]
    pub(super) fn tell(&mut self, e: impl FnOnce() -> RegEvent) {
        if let Some(o) = &mut self.observer {
            o.event(&e());
        }
    }

    /// The identity of context `k` of group `gi`.
    pub(super) fn ctx_id(&self, gi: usize, k: usize) -> CtxId {
        let g = &self.groups[gi];
        let c = &g.ctx[k];
        CtxId {
            wave: g.wfs[c.wf].global as u32,
            occupant: c.serial,
        }
    }

    /// The cycle count from the launch.
    pub(super) fn launch_cycle(&self) -> u64 {
        self.now - self.start
    }
}

impl super::memory::Writeback {
    /// The registers this writeback writes, as an observer is told.
    pub fn regs(&self) -> LoadRegs {
        use super::memory::Writeback;
        match self {
            Writeback::Vgpr { reg, data, n } => LoadRegs::Vgpr {
                first: *reg as u16,
                n: *n as u8,
                lanes: data.iter().fold(0, |m, (l, _)| m | 1 << l),
            },
            Writeback::Sgpr { first, n, .. } => LoadRegs::Sgpr {
                first: *first,
                n: *n as u8,
            },
        }
    }
}
