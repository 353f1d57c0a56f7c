//! The driver's side of the GPU's compute units and hardware queue: sub-kernels (a range of
//! a launch's work-groups on a set of compute units) pushed with the enqueue, their
//! completions popped, the GPU's clock, and the counters of one compute unit.

use super::{regs, Bus, Driver, DriverError, LaunchDesc, PerfCounters};
use rtgpu_hw::gpu::regs::addr;

/// A range of a launch's work-groups on a set of compute units.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SubKernel {
    /// First work-group.
    pub first: u32,
    /// Work-groups (0: from `first` to the end of the grid).
    pub count: u32,
    /// Compute units, bit i = compute unit i (0: all).
    pub cus: u32,
}

impl SubKernel {
    /// The whole launch on every compute unit.
    pub const ALL: SubKernel = SubKernel {
        first: 0,
        count: 0,
        cus: 0,
    };
}

/// A completed sub-kernel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Completion {
    /// The tag [`Driver::enqueue`] returned for it.
    pub tag: u32,
    /// Cycle (since power-up) it started.
    pub start: u64,
    /// Cycle it completed.
    pub end: u64,
    /// A compute unit of it stopped with an error (`STATUS` tells which error).
    pub failed: bool,
}

impl<B: Bus> Driver<B> {
    /// The GPU's compute units.
    pub fn n_cus(&mut self) -> Result<u32, DriverError> {
        self.read(addr::N_CU)
    }

    /// The GPU's cycles since power-up.
    pub fn now(&mut self) -> Result<u64, DriverError> {
        self.read64(addr::NOW_LO)
    }

    /// Bit i: compute unit i runs a launch.
    pub fn busy_cus(&mut self) -> Result<u32, DriverError> {
        self.read(addr::CU_BUSY)
    }

    /// Appends sub-kernel `sub` of launch `d` to the hardware queue; returns its tag.
    pub fn enqueue(&mut self, d: &LaunchDesc, sub: SubKernel) -> Result<u32, DriverError> {
        self.write_launch(d, &sub)?;
        let tag = self.read(addr::QUEUE_TAIL)?;
        self.write(addr::CTRL, regs::CTRL_ENQUEUE)?;
        Ok(tag)
    }

    /// The oldest completion not yet popped.
    pub fn pop_done(&mut self) -> Result<Option<Completion>, DriverError> {
        let tag = self.read(addr::DONE_POP)?;
        if tag == regs::DONE_NONE {
            return Ok(None);
        }
        Ok(Some(Completion {
            tag,
            start: self.read64(addr::DONE_START_LO)?,
            end: self.read64(addr::DONE_END_LO)?,
            failed: self.read(addr::DONE_FAILED)? != 0,
        }))
    }

    /// The counters and wavefront times of compute unit `cu` (its last launch or part).
    pub fn counters_of(&mut self, cu: u32) -> Result<PerfCounters, DriverError> {
        self.write(addr::CU_SEL, cu)?;
        let c = self.counters();
        self.write(addr::CU_SEL, 0)?;
        c
    }
}
