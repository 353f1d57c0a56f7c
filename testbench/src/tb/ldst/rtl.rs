//! The path's RTL ([`LdstPath`]) in the harness as a block with the reference model's
//! ([`PathModel`](rtgpu_hw::ldst::model::PathModel)) port bundles, so that the generic lock-step checker
//! ([`crate::sim::lockstep::LockStep`]) runs the two together and the system drives the pair.

use crate::sim::harness::Harness;
use crate::sim::rtl::Rtl;
use crate::tb::reorder::rtl::{reorder_apply, reorder_read};
use rtgpu_hw::cache::model::{CacheOut, CoalescerOut};
use rtgpu_hw::ldst::model::{PathIn, PathOut};
use rtgpu_hw::ldst::LdstPath;
use rtgpu_hw::reorder::model::ReorderOut;
use rust_hdl::core::prelude::*;

/// Line numbers are 25 bits.
const LINE_MASK: u32 = (1 << 25) - 1;

/// Drives the path's inputs.
pub fn apply<const W: usize, const D: usize, const T: usize, const S: usize, const A: usize>(
    u: &mut LdstPath<W, D, T, S, A>,
    i: &PathIn,
) {
    reorder_apply!(u, &i.reorder);
    for (port, a) in u.rel_addr.iter_mut().zip(i.rel_addr) {
        port.next = u64::from(a).to_bits();
    }
    u.rel_mask.next = u64::from(i.rel_mask).to_bits();
    u.mem_fill.next = i.fill.is_some();
    u.mem_fill_line.next = u64::from(i.fill.unwrap_or(0) & LINE_MASK).to_bits();
}

/// Reads the path's outputs.
pub fn read<const W: usize, const D: usize, const T: usize, const S: usize, const A: usize>(
    u: &LdstPath<W, D, T, S, A>,
) -> PathOut {
    let line = |b: Bits<25>| b.index() as u32;
    let word = |b: Bits<32>| b.index() as u32;
    PathOut {
        reorder: reorder_read!(u),
        coal: CoalescerOut {
            busy: u.coal_busy.val(),
            line_valid: u.line_valid.val(),
            line: line(u.line.val()),
            first: u.line_first.val().index() as u32,
            words: u.line_words.val().index() as u32,
            last: u.line_last.val(),
        },
        l1: CacheOut {
            req_ready: u.l1_ready.val(),
            hit: u.hit.val(),
            way: u.way.val().index() as u8,
            victim: u.victim.val().index() as u8,
            victim_valid: u.victim_valid.val(),
            victim_line: line(u.victim_line.val()),
            mem_req_valid: u.mem_req_valid.val(),
            mem_req_line: line(u.mem_req_line.val()),
            mem_req_store: u.mem_req_store.val(),
            accesses: word(u.accesses.val()),
            misses: word(u.misses.val()),
        },
        l1_store: u.l1_store.val(),
    }
}

/// The path's RTL in a harness as a block ([`Clocked`](rtgpu_hw::block::Clocked)) with the
/// reference model's port bundles, for a lock-step pair with the reference model.
pub type RtlPath<const W: usize, const D: usize, const T: usize, const S: usize, const A: usize> =
    Rtl<LdstPath<W, D, T, S, A>, PathIn, PathOut>;

/// `h`'s path as a block named `name`.
pub fn rtl_path<const W: usize, const D: usize, const T: usize, const S: usize, const A: usize>(
    name: &str,
    h: Harness<LdstPath<W, D, T, S, A>>,
) -> RtlPath<W, D, T, S, A> {
    Rtl::from_harness(name, h, (apply, read))
}
