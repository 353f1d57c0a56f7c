//! Reference model of the coalescer ([`CoalescerModel`]), written from the contract in
//! [`super`] ("Coalescer") only. `LANES` is a const parameter, as the RTL's: 32 for the LD/ST
//! path, 64 for the compute unit.
//!
//! Cycle-accurate: `outputs` is what the block drives during the current cycle (from its
//! registers only), `step` returns the same outputs and then applies the rising edge.
//!
//! # Readings of the contract
//!
//! 1. When `busy` = 0 there is no line: `line` = `first` = `words` = 0, `last` = 0.
//! 2. `load` is ignored when `busy` is 1 during the cycle, so the cycle that takes the last
//!    line cannot load the next instruction. `reset` drops the remaining lanes.
//! 3. Mask bits at and above `LANES` are ignored; `size` is taken modulo 4.
//! 4. The line after line 2^25 − 1 is line 0 (the 25-bit line number wraps).

use super::model::{LINE_BITS, LINE_SHIFT};
use crate::block::{ports::join, Clocked, Ports, Visit};

/// Lanes of the compute unit's coalescer (a wavefront).
pub const WAVE_LANES: usize = 64;
/// Dwords per line.
const LINE_WORDS: u32 = 1 << (LINE_SHIFT - 2);
/// Mask of a 25-bit line number.
const LINE_MASK: u32 = (1 << LINE_BITS) - 1;

/// Inputs of one coalescer cycle, sampled at the rising edge that ends it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CoalescerIn<const LANES: usize> {
    /// Synchronous reset: no instruction loaded.
    pub reset: bool,
    /// Take `addr`, `mask` and `size` at the edge (ignored while `busy`).
    pub load: bool,
    /// Byte address of each lane (bits 1:0 ignored).
    pub addr: [u32; LANES],
    /// Active lanes (bit l = lane l; bits from `LANES` on are ignored).
    pub mask: u64,
    /// Dwords per lane − 1 (0..=3).
    pub size: u8,
    /// The consumer takes the current line at the edge.
    pub next: bool,
}

impl<const LANES: usize> Default for CoalescerIn<LANES> {
    fn default() -> Self {
        Self {
            reset: false,
            load: false,
            addr: [0; LANES],
            mask: 0,
            size: 0,
            next: false,
        }
    }
}

impl<const LANES: usize> CoalescerIn<LANES> {
    /// A cycle that presents an instruction of one dword per lane: each lane's byte address
    /// and the active lanes.
    pub fn load(addr: [u32; LANES], mask: u64) -> Self {
        Self {
            load: true,
            addr,
            mask,
            ..Self::default()
        }
    }

    /// A cycle in which the consumer takes the current line and nothing is presented.
    pub fn take() -> Self {
        Self {
            next: true,
            ..Self::default()
        }
    }
}

impl<const LANES: usize> Ports for CoalescerIn<LANES> {
    fn visit(&self, prefix: &str, v: Visit) {
        self.reset.visit(&join(prefix, "reset"), v);
        self.load.visit(&join(prefix, "load"), v);
        self.addr.visit(&join(prefix, "addr"), v);
        self.mask.visit(&join(prefix, "mask"), v);
        self.size.visit(&join(prefix, "size"), v);
        self.next.visit(&join(prefix, "next"), v);
    }
}

/// Outputs of one coalescer cycle (from the registers).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CoalescerOut {
    /// An instruction is loaded and lines remain.
    pub busy: bool,
    /// `busy`: `line` is valid.
    pub line_valid: bool,
    /// The smallest line number among the remaining lanes' current segments (0 when none).
    pub line: u32,
    /// The first dword offset touched in `line` (0 when none).
    pub first: u32,
    /// Dwords from `first` to the last dword touched in `line`, inclusive (0 when none).
    pub words: u32,
    /// `line` is the last line of the instruction (0 when none).
    pub last: bool,
}

crate::ports!(CoalescerOut {
    busy,
    line_valid,
    line,
    first,
    words,
    last
});

/// What a lane still has to emit: its current segment and, if it crosses into the next line,
/// the last offset it touches there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Lane {
    /// Line of the current segment.
    line: u32,
    /// First offset touched in it.
    lo: u32,
    /// Last offset touched in it.
    hi: u32,
    /// The second segment (line + 1, offsets 0..=this), if any.
    then: Option<u32>,
}

impl Lane {
    /// The lane at byte address `addr` touching `size + 1` dwords.
    fn new(addr: u32, size: u8) -> Self {
        let lo = (addr >> 2) % LINE_WORDS;
        let end = lo + u32::from(size % 4);
        Lane {
            line: (addr >> LINE_SHIFT) & LINE_MASK,
            lo,
            hi: end.min(LINE_WORDS - 1),
            then: end.checked_sub(LINE_WORDS),
        }
    }

    /// After its current segment is emitted: its second segment, or nothing.
    fn advance(self) -> Option<Lane> {
        self.then.map(|hi| Lane {
            line: (self.line + 1) & LINE_MASK,
            lo: 0,
            hi,
            then: None,
        })
    }
}

/// Reference model of `Coalescer<LANES>`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CoalescerModel<const LANES: usize> {
    /// Each lane's remaining work (`None`: nothing left, or inactive).
    lanes: [Option<Lane>; LANES],
}

impl<const LANES: usize> Default for CoalescerModel<LANES> {
    fn default() -> Self {
        Self::new()
    }
}

impl<const LANES: usize> CoalescerModel<LANES> {
    /// A coalescer in its reset state (no instruction).
    pub fn new() -> Self {
        Self {
            lanes: [None; LANES],
        }
    }

    /// Lanes whose work has not all been emitted yet (bit l = lane l).
    pub fn remaining(&self) -> u64 {
        self.live().fold(0, |m, (l, _)| m | 1 << l)
    }

    /// The remaining lanes with their current segments.
    fn live(&self) -> impl Iterator<Item = (usize, Lane)> + '_ {
        self.lanes
            .iter()
            .enumerate()
            .filter_map(|(l, s)| s.map(|s| (l, s)))
    }

    /// The outputs during the current cycle (they depend on the registers only).
    pub fn outputs(&self, _i: &CoalescerIn<LANES>) -> CoalescerOut {
        let Some(line) = self.live().map(|(_, s)| s.line).min() else {
            return CoalescerOut::default();
        };
        let on_line = || self.live().map(|(_, s)| s).filter(|s| s.line == line);
        let first = on_line().map(|s| s.lo).min().unwrap_or(0);
        let hi = on_line().map(|s| s.hi).max().unwrap_or(0);
        let last = self.live().all(|(_, s)| s.line == line && s.then.is_none());
        CoalescerOut {
            busy: true,
            line_valid: true,
            line,
            first,
            words: hi - first + 1,
            last,
        }
    }

    /// The outputs of the current cycle, then the rising edge that ends it.
    pub fn step(&mut self, i: &CoalescerIn<LANES>) -> CoalescerOut {
        let out = self.outputs(i);
        if i.reset {
            self.lanes = [None; LANES];
        } else if out.busy && i.next {
            for s in &mut self.lanes {
                if s.is_some_and(|s| s.line == out.line) {
                    *s = s.and_then(Lane::advance);
                }
            }
        } else if !out.busy && i.load {
            for (l, s) in self.lanes.iter_mut().enumerate() {
                *s = (l < 64 && i.mask >> l & 1 == 1).then(|| Lane::new(i.addr[l], i.size));
            }
        }
        out
    }
}

impl<const LANES: usize> Clocked for CoalescerModel<LANES> {
    type In = CoalescerIn<LANES>;
    type Out = CoalescerOut;

    fn outputs(&self, input: &Self::In) -> CoalescerOut {
        CoalescerModel::outputs(self, input)
    }

    fn step(&mut self, input: &Self::In) {
        CoalescerModel::step(self, input);
    }

    fn cycle(&mut self, input: &Self::In) -> CoalescerOut {
        CoalescerModel::step(self, input)
    }
}

#[cfg(test)]
mod tests;
