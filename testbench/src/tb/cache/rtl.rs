//! The cache RTL in the harness: [`RtlL1`] (one `L1Cache` cycle per [`RtlL1::step`]) and
//! [`RtlCoalescer`] (one `Coalescer` cycle per [`RtlCoalescer::step`]). Both do the reset
//! cycle the contract asks for in `new`.

use crate::sim::clock::Period;
use crate::sim::harness::{Harness, HarnessError};
use crate::tb::TB_PERIOD_PS;
use rtgpu_hw::cache::model::{CacheIn, CacheOut, CoalescerIn, CoalescerOut};
use rtgpu_hw::cache::{Coalescer, L1Cache};
use rust_hdl::core::prelude::*;

/// `L1Cache<SETS, WAYS>` in a harness.
pub struct RtlL1<const SETS: usize, const WAYS: usize> {
    harness: Harness<L1Cache<SETS, WAYS>>,
}

impl<const SETS: usize, const WAYS: usize> RtlL1<SETS, WAYS> {
    /// A cache after one reset cycle.
    pub fn new() -> Result<Self, HarnessError> {
        let mut harness = Harness::new(L1Cache::<SETS, WAYS>::default(), "l1")?;
        let period = Period::ps(TB_PERIOD_PS).map_err(HarnessError::Setup)?;
        harness.add_clock("clock", period, |u| &mut u.clock)?;
        let mut c = Self { harness };
        c.step(&CacheIn::RESET)?;
        Ok(c)
    }

    /// One cycle: apply `inp`, read the outputs, clock the edge.
    pub fn step(&mut self, inp: &CacheIn) -> Result<CacheOut, HarnessError> {
        self.harness.cycle(|u| apply_l1(u, inp), read_l1)
    }
}

/// Drives the L1's inputs (line numbers cut to their 25 bits, as the model does).
pub fn apply_l1<const SETS: usize, const WAYS: usize>(u: &mut L1Cache<SETS, WAYS>, i: &CacheIn) {
    u.reset.next = i.reset;
    u.req_valid.next = i.req_valid;
    u.req_line.next = u64::from(i.req_line & LINE_MASK).to_bits();
    u.req_store.next = i.req_store;
    u.mem_fill.next = i.mem_fill;
    u.mem_fill_line.next = u64::from(i.mem_fill_line & LINE_MASK).to_bits();
}

/// Line numbers are 25 bits.
pub const LINE_MASK: u32 = (1 << 25) - 1;

/// Reads the L1's outputs.
pub fn read_l1<const SETS: usize, const WAYS: usize>(u: &L1Cache<SETS, WAYS>) -> CacheOut {
    CacheOut {
        req_ready: u.req_ready.val(),
        hit: u.hit.val(),
        way: u.way.val().index() as u8,
        victim: u.victim.val().index() as u8,
        victim_valid: u.victim_valid.val(),
        victim_line: u.victim_line.val().index() as u32,
        mem_req_valid: u.mem_req_valid.val(),
        mem_req_line: u.mem_req_line.val().index() as u32,
        mem_req_store: u.mem_req_store.val(),
        accesses: u.accesses.val().index() as u32,
        misses: u.misses.val().index() as u32,
    }
}

/// `Coalescer<L>` in a harness.
pub struct RtlCoalescer<const L: usize> {
    harness: Harness<Coalescer<L>>,
}

impl<const L: usize> RtlCoalescer<L> {
    /// A coalescer after one reset cycle.
    pub fn new() -> Result<Self, HarnessError> {
        let mut harness = Harness::new(Coalescer::<L>::default(), "coalescer")?;
        let period = Period::ps(TB_PERIOD_PS).map_err(HarnessError::Setup)?;
        harness.add_clock("clock", period, |u| &mut u.clock)?;
        let mut c = Self { harness };
        c.step(&CoalescerIn {
            reset: true,
            ..CoalescerIn::default()
        })?;
        Ok(c)
    }

    /// One cycle: apply `inp`, read the outputs, clock the edge.
    pub fn step(&mut self, inp: &CoalescerIn<L>) -> Result<CoalescerOut, HarnessError> {
        self.harness.cycle(|u| apply_coal(u, inp), read_coal)
    }
}

/// Drives the coalescer's inputs (mask bits from `L` on and `size` bits from 2 on are cut, as
/// the model ignores them).
pub fn apply_coal<const L: usize>(u: &mut Coalescer<L>, i: &CoalescerIn<L>) {
    u.reset.next = i.reset;
    u.load.next = i.load;
    for (port, a) in u.addr.iter_mut().zip(i.addr) {
        port.next = u64::from(a).to_bits();
    }
    let lanes = if L >= 64 { u64::MAX } else { (1 << L) - 1 };
    u.mask.next = (i.mask & lanes).to_bits();
    u.size.next = u64::from(i.size & 3).to_bits();
    u.advance.next = i.next;
}

/// Reads the coalescer's outputs.
pub fn read_coal<const L: usize>(u: &Coalescer<L>) -> CoalescerOut {
    CoalescerOut {
        busy: u.busy.val(),
        line_valid: u.line_valid.val(),
        line: u.line.val().index() as u32,
        first: u.first.val().index() as u32,
        words: u.words.val().index() as u32,
        last: u.last.val(),
    }
}
