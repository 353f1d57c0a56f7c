//! The dispatcher's reference model, written from the contract in [`super`]: the pending
//! wavefronts as a queue of (entry, wave) pairs, the resident entries as a vector.

use super::{DispatchIn, DispatchOut, LaunchIn, Send, Shape};
use crate::block::Clocked;
use std::collections::VecDeque;

/// A resident entry.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Entry {
    /// It holds a work-group.
    resident: bool,
    /// Its wavefronts not yet ended.
    live: u8,
    /// Its work-group id.
    id: u32,
}

/// The dispatcher's state.
#[derive(Clone, Debug)]
pub struct DispatchModel {
    shape: Shape,
    launch: LaunchIn,
    next: u32,
    next_simd: usize,
    entries: Vec<Entry>,
    /// Admitted wavefronts not yet started: (entry, wave), oldest first.
    pending: VecDeque<(usize, u8)>,
}

impl DispatchModel {
    /// A dispatcher of `shape`, as after reset.
    pub fn new(shape: Shape) -> Self {
        Self {
            shape,
            launch: LaunchIn::default(),
            next: 0,
            next_simd: 0,
            entries: vec![Entry::default(); shape.resident],
            pending: VecDeque::new(),
        }
    }

    /// The state the registers show (before the cycle's admissions and sends).
    fn registered(&self) -> DispatchOut {
        DispatchOut {
            send: vec![Send::default(); self.shape.groups],
            admitted: vec![false; self.shape.resident],
            resident: self.entries.iter().map(|e| e.resident).collect(),
            live: self.entries.iter().map(|e| e.live).collect(),
            pending: self.pending.len() as u8,
            next_wg: self.next,
            finished: self.next >= self.launch.end && self.pending.is_empty(),
        }
    }

    /// The lowest free entry the launch allows.
    fn free_entry(&self) -> Option<usize> {
        let allowed = usize::from(self.launch.max_res).min(self.shape.resident);
        self.entries[..allowed].iter().position(|e| !e.resident)
    }

    /// Step 1: admits while the contract's conditions hold.
    fn admit(&mut self, i: &DispatchIn, out: &mut DispatchOut) {
        let free: usize = i.free.iter().map(|m| m.count_ones() as usize).sum();
        let waves = self.launch.waves;
        while waves > 0
            && self.next < self.launch.end
            && self.next < i.limit
            && self.pending.len() < self.shape.groups
            && free >= self.pending.len() + usize::from(waves)
        {
            let Some(r) = self.free_entry() else {
                break;
            };
            self.entries[r] = Entry {
                resident: true,
                live: waves,
                id: self.next,
            };
            out.admitted[r] = true;
            self.pending.extend((0..waves).map(|w| (r, w)));
            self.next = self.next.wrapping_add(self.launch.stride);
        }
    }

    /// Step 2: one DISPATCH per SIMD group, from `next_simd` on.
    fn send(&mut self, i: &DispatchIn, out: &mut DispatchOut) {
        let n = self.shape.groups;
        for g in (0..n).map(|j| (self.next_simd + j) % n) {
            let slot = (0..self.shape.slots).find(|&s| i.free[g] >> s & 1 == 1);
            let (Some(slot), true, Some(&(r, wave))) = (slot, i.port_free[g], self.pending.front())
            else {
                continue;
            };
            self.pending.pop_front();
            out.send[g] = Send {
                valid: true,
                slot: slot as u8,
                wi: r as u8,
                wave,
                wg: self.entries[r].id,
            };
        }
    }

    /// Step 3's ends: entries resident at the cycle's start (`before`) lose their ended
    /// wavefronts.
    fn end_waves(&mut self, i: &DispatchIn, before: &[bool]) {
        for (r, e) in self.entries.iter_mut().enumerate() {
            if before[r] {
                e.live = e.live.saturating_sub(i.ended[r]);
                e.resident = e.live > 0;
            }
        }
    }

    /// The cycle: its outputs, with the state moved past its edge.
    fn advance(&mut self, i: &DispatchIn) -> DispatchOut {
        let mut out = self.registered();
        if i.reset || i.start {
            *self = Self::new(self.shape);
            if i.start && !i.reset {
                self.launch = i.launch;
                self.next = i.launch.first;
            }
            return out;
        }
        self.admit(i, &mut out);
        self.send(i, &mut out);
        self.end_waves(i, &out.resident.clone());
        self.next_simd = (self.next_simd + 1) % self.shape.groups;
        out
    }
}

impl Clocked for DispatchModel {
    type In = DispatchIn;
    type Out = DispatchOut;

    fn outputs(&self, input: &DispatchIn) -> DispatchOut {
        self.clone().advance(input)
    }

    fn step(&mut self, input: &DispatchIn) {
        self.advance(input);
    }

    fn cycle(&mut self, input: &DispatchIn) -> DispatchOut {
        self.advance(input)
    }
}

#[cfg(test)]
mod tests;
