//! The reordering unit's RTL in the harness: [`RtlReorder`] runs one `Reorder<W, D, T>` cycle per
//! [`RtlReorder::step`] with the reference model's port types ([`ReorderIn`], [`ReorderOut`]),
//! so tests compare it directly with `ReorderModel::step`.
//!
//! The RTL powers up in the contract's reset state (every register 0, the trace memory 0), as
//! the model does: no reset cycle is needed. The block is held by value: the paper's geometry
//! (`Reorder<48, 10, 16>`, several megabytes of signals) needs a thread with a large stack.

use crate::sim::clock::Period;
use crate::sim::harness::{Harness, HarnessError};
use crate::sim::ports::PortVectors;
use crate::tb::TB_PERIOD_PS;
use rtgpu_hw::reorder::model::{ReorderIn, ReorderOut};
use rtgpu_hw::reorder::Reorder;
use rust_hdl::core::prelude::*;

/// `Reorder<W, D, T>` in a harness.
pub struct RtlReorder<const W: usize, const D: usize, const T: usize> {
    harness: Harness<Reorder<W, D, T>>,
}

impl<const W: usize, const D: usize, const T: usize> RtlReorder<W, D, T> {
    /// A unit in its power-up (= reset) state.
    pub fn new() -> Result<Self, HarnessError> {
        let mut harness = Harness::new(Reorder::<W, D, T>::default(), "reorder")?;
        let period = Period::ps(TB_PERIOD_PS).map_err(HarnessError::Setup)?;
        harness.add_clock("clock", period, |u| &mut u.clock)?;
        Ok(Self { harness })
    }

    /// One cycle: apply `inp`, read the outputs (before the edge), clock the edge.
    pub fn step(&mut self, inp: &ReorderIn) -> Result<ReorderOut, HarnessError> {
        self.harness.cycle(|u| apply(u, inp), read)
    }

    /// The block (for a closer look).
    pub fn uut(&self) -> &Reorder<W, D, T> {
        self.harness.uut()
    }

    /// Starts recording the ports every cycle (for a cosimulation replay).
    pub fn record_ports(&mut self) -> Result<(), HarnessError> {
        self.harness.record_ports()
    }

    /// Ends the run: the port vectors recorded, if any.
    pub fn finish(self) -> Result<Option<PortVectors>, HarnessError> {
        Ok(self.harness.finish()?.vectors)
    }
}

/// Drives the reordering unit's input ports of `$u` (a `Reorder` or a block with the same
/// port names) from `$i: &ReorderIn`, but `rel_ready` (a path drives it inside). Each field is cut to its port's width (`trace_index` 8
/// bits, `map_len` 9: the bits the unit ignores anyway, since it keeps the bits below log2 T
/// and log2 T + 1 of them, T ≤ 256).
macro_rules! reorder_apply {
    ($u:expr, $i:expr) => {{
        $u.reset.next = $i.reset;
        $u.rule.next = u64::from($i.rule & 0b11).to_bits();
        $u.parallel.next = $i.parallel;
        $u.bypass.next = $i.bypass;
        $u.trace_we.next = $i.trace_we;
        $u.trace_slot.next = u64::from($i.trace_slot & 0x3f).to_bits();
        $u.trace_index.next = u64::from($i.trace_index & 0xff).to_bits();
        $u.trace_entry.next = u64::from($i.trace_entry).to_bits();
        $u.map_we.next = $i.map_we;
        $u.map_slot.next = u64::from($i.map_slot & 0x3f).to_bits();
        $u.map_block.next = u64::from($i.map_block).to_bits();
        $u.map_warp.next = u64::from($i.map_warp & 0x1f).to_bits();
        $u.map_wave.next = u64::from($i.map_wave).to_bits();
        $u.map_len.next = u64::from($i.map_len & 0x1ff).to_bits();
        $u.start.next = $i.start;
        $u.req_valid.next = $i.req_valid;
        $u.req_slot.next = u64::from($i.req_slot & 0x3f).to_bits();
        $u.req_seq.next = u64::from($i.req_seq).to_bits();
        $u.req_pc_idx.next = u64::from($i.req_pc_idx).to_bits();
        $u.req_store.next = $i.req_store;
        $u.req_tag.next = u64::from($i.req_tag).to_bits();
        $u.watchdog.next = u64::from($i.watchdog).to_bits();
    }};
}
pub(crate) use reorder_apply;

/// Reads the reordering unit's output ports of `$u` (a `Reorder` or a block with the same
/// port names) as a `ReorderOut`.
macro_rules! reorder_read {
    ($u:expr) => {{
        let byte = |b: Bits<8>| b.index() as u8;
        ReorderOut {
            free: $u.free.val().to_u64(),
            req_ready: $u.req_ready.val(),
            rel_valid: $u.rel_valid.val(),
            rel_slot: $u.rel_slot.val().index() as u8,
            rel_tag: byte($u.rel_tag.val()),
            rel_store: $u.rel_store.val(),
            rel_pc_idx: byte($u.rel_pc_idx.val()),
            state: $u.state.val().index() as u8,
            target: $u.target.val().index() as u8,
            expect_seq: byte($u.expect_seq.val()),
            count: $u.count.iter().map(|c| c.val().index() as u8).collect(),
            error: $u.error.val().index() as u8,
        }
    }};
}
pub(crate) use reorder_read;

/// Drives the unit's inputs from the model's input type.
pub fn apply<const W: usize, const D: usize, const T: usize>(
    u: &mut Reorder<W, D, T>,
    i: &ReorderIn,
) {
    reorder_apply!(u, i);
    u.rel_ready.next = i.rel_ready;
}

/// Reads the unit's outputs in the model's output type.
pub fn read<const W: usize, const D: usize, const T: usize>(u: &Reorder<W, D, T>) -> ReorderOut {
    reorder_read!(u)
}
