//! The path's RTL ([`LdstPath`]) in the harness, as a [`Path`] the system can drive, and
//! [`Lockstep`]: the RTL and the reference model ([`PathModel`]) stepped together, compared
//! every cycle.

use super::system::{Path, PathView};
use crate::sim::harness::Harness;
use crate::tb::reorder::rtl::{reorder_apply, reorder_read};
use rtgpu_hw::cache::model::{CacheOut, CoalescerOut};
use rtgpu_hw::ldst::model::{PathIn, PathModel, PathOut};
use rtgpu_hw::ldst::LdstPath;
use rtgpu_hw::reorder::model::state::ISSUE;
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

/// The register-only outputs of the path as they are after the last edge.
fn view_of<const W: usize, const D: usize, const T: usize, const S: usize, const A: usize>(
    u: &LdstPath<W, D, T, S, A>,
) -> PathView {
    // In bypass the release port shows the (stale) request inputs: only ISSUE's is a view.
    let o = read(u);
    let issue = o.reorder.state == ISSUE;
    PathView {
        free: o.reorder.free,
        rel_valid: o.reorder.rel_valid && issue,
        rel_slot: if issue { o.reorder.rel_slot } else { 0 },
        rel_tag: if issue { o.reorder.rel_tag } else { 0 },
        coal_busy: o.coal.busy,
    }
}

/// The RTL path (in a harness the caller owns) and the reference model, compared every
/// cycle: a [`Path`] that fails on the first difference.
pub struct Lockstep<
    'h,
    const W: usize,
    const D: usize,
    const T: usize,
    const S: usize,
    const A: usize,
> {
    /// The RTL.
    pub rtl: &'h mut Harness<LdstPath<W, D, T, S, A>>,
    /// The model.
    pub model: &'h mut PathModel,
}

impl<const W: usize, const D: usize, const T: usize, const S: usize, const A: usize> Path
    for Lockstep<'_, W, D, T, S, A>
{
    fn view(&mut self) -> Result<PathView, String> {
        let got = view_of(self.rtl.uut());
        let want = Path::view(self.model)?;
        if got != want {
            return Err(format!("view: RTL {got:?}, model {want:?}"));
        }
        Ok(got)
    }

    fn step(&mut self, i: &PathIn) -> Result<PathOut, String> {
        let got = self
            .rtl
            .cycle(|u| apply(u, i), read)
            .map_err(|e| e.to_string())?;
        let want = self.model.step(i);
        if got != want {
            return Err(format!("RTL {got:?}\nmodel {want:?}"));
        }
        Ok(got)
    }
}
