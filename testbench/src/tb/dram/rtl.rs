//! The controller RTL in the harness, driven cycle by cycle through the model's port types.

use crate::sim::clock::Period;
use crate::sim::harness::{Harness, HarnessError};
use crate::tb::TB_PERIOD_PS;
use rtgpu_hw::dram::model::{DramIn, DramOut};
use rtgpu_hw::dram::{Command, DramCtrl, Part};
use rust_hdl::core::prelude::*;

/// `DramCtrl<NB>` in a harness: one [`RtlDram::step`] per DRAM cycle.
pub struct RtlDram<const NB: usize> {
    harness: Harness<DramCtrl<NB>>,
}

impl<const NB: usize> RtlDram<NB> {
    /// The controller for `part`, after one reset cycle (the model's state at `new`).
    pub fn new(part: &Part, refresh_phase: u16) -> Result<Self, HarnessError> {
        let mut harness = Harness::new(DramCtrl::<NB>::new(part, refresh_phase), "dram")?;
        let period = Period::ps(TB_PERIOD_PS).map_err(HarnessError::Setup)?;
        harness.add_clock("clock", period, |u| &mut u.clock)?;
        let mut rtl = Self { harness };
        rtl.step(&DramIn {
            reset: true,
            ..DramIn::default()
        })?;
        Ok(rtl)
    }

    /// The harness (to record a VCD or port vectors before the first step).
    pub fn harness_mut(&mut self) -> &mut Harness<DramCtrl<NB>> {
        &mut self.harness
    }

    /// Applies `inp` for one cycle; returns the cycle's outputs.
    pub fn step(&mut self, inp: &DramIn) -> Result<DramOut, HarnessError> {
        self.harness.cycle(|u| apply(u, inp), read)
    }

    /// Ends the run (closes the VCD).
    pub fn finish(self) -> Result<crate::sim::harness::Finished<DramCtrl<NB>>, HarnessError> {
        self.harness.finish()
    }
}

/// Drives the inputs, cut to the ports' widths.
pub fn apply<const NB: usize>(u: &mut DramCtrl<NB>, inp: &DramIn) {
    u.reset.next = inp.reset;
    u.req_valid.next = inp.req_valid;
    u.req_write.next = inp.req_write;
    u.req_indexed.next = inp.req_indexed;
    u.req_addr.next = u64::from(inp.req_addr & 0x3FFF_FFFF).to_bits();
    u.req_words.next = u64::from(inp.req_words & 0x3FFF_FFFF).to_bits();
    u.req_period.next = u64::from(inp.req_period & 0x3FFF_FFFF).to_bits();
    u.req_count.next = u64::from(inp.req_count).to_bits();
    u.req_tag.next = u64::from(inp.req_tag).to_bits();
    u.idx_valid.next = inp.idx_valid;
    u.idx_addr.next = u64::from(inp.idx_addr & 0x3FFF_FFFF).to_bits();
}

/// The outputs as the model's type.
pub fn read<const NB: usize>(u: &DramCtrl<NB>) -> DramOut {
    fn n<const N: usize>(b: Bits<N>) -> u64 {
        b.to_u64()
    }
    DramOut {
        req_ready: u.req_ready.val(),
        idx_ready: u.idx_ready.val(),
        cmd: Command::from_code(n(u.cmd.val())),
        cmd_bg: n(u.cmd_bg.val()) as u8,
        cmd_bank: n(u.cmd_bank.val()) as u8,
        cmd_row: n(u.cmd_row.val()) as u32,
        cmd_col: n(u.cmd_col.val()) as u16,
        dq_valid: u.dq_valid.val(),
        dq_write: u.dq_write.val(),
        dq_bg: n(u.dq_bg.val()) as u8,
        dq_bank: n(u.dq_bank.val()) as u8,
        dq_row: n(u.dq_row.val()) as u32,
        dq_col: n(u.dq_col.val()) as u16,
        dq_beat: n(u.dq_beat.val()) as u8,
        dq_mask: n(u.dq_mask.val()) as u8,
        done: u.done.val(),
        done_error: u.done_error.val(),
        done_tag: n(u.done_tag.val()) as u8,
        done_lid: n(u.done_lid.val()) as u32,
        ref_owed: n(u.ref_owed.val()) as u8,
        ref_overflow: u.ref_overflow.val(),
    }
}
