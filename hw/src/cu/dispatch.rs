//! The work-group dispatcher: admits a work-group when its wavefronts fit in free SIMD slots
//! and its LDS in a free LDS partition, then sends one DISPATCH per SIMD group per cycle.

use std::collections::VecDeque;

/// A resident work-group.
#[derive(Clone, Debug, Default)]
pub struct Wg {
    /// Work-group id.
    pub id: u32,
    /// Wavefronts not yet ended.
    pub live_waves: u32,
    /// Its LDS (zero at admission).
    pub lds: Vec<u32>,
    /// Resident (the entry may be reused once it is not).
    pub active: bool,
}

/// The dispatcher's state for one launch.
#[derive(Clone, Debug, Default)]
pub struct Dispatcher {
    /// The next work-group id to admit.
    pub next_wg: u32,
    /// Work-groups in the launch.
    pub groups: u32,
    /// Wavefronts per work-group.
    pub waves: u32,
    /// Admitted wavefronts not yet sent: (resident work-group index, wave index).
    pub pending: VecDeque<(usize, u32)>,
    /// The SIMD group the next wavefront tries first (round-robin).
    pub next_simd: usize,
    /// Work-groups below this id may be admitted (reordering's rounds).
    pub limit: u32,
    /// The id step from one admitted work-group to the next: 1 for a whole launch, n for one
    /// of the n compute units of a sub-kernel ([`WgPart`]).
    pub stride: u32,
}

/// The work-groups of a launch one compute unit runs: ids `first`, `first + stride`, … below
/// `end` (a sub-kernel's share of one of its compute units; docs/assumptions.md#A77).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WgPart {
    /// The first work-group id.
    pub first: u32,
    /// One past the last work-group id of the sub-kernel.
    pub end: u32,
    /// The id step (the sub-kernel's number of compute units).
    pub stride: u32,
}

impl WgPart {
    /// Every work-group of a launch of `groups` work-groups.
    pub fn all(groups: u32) -> Self {
        Self {
            first: 0,
            end: groups,
            stride: 1,
        }
    }

    /// Work-groups this part holds.
    pub fn len(&self) -> u32 {
        self.end
            .saturating_sub(self.first)
            .div_ceil(self.stride.max(1))
    }

    /// The part holds no work-group.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl Dispatcher {
    /// A dispatcher for the work-groups `part` of a launch, of `waves` wavefronts each.
    pub fn new(part: WgPart, waves: u32) -> Self {
        Self {
            next_wg: part.first,
            groups: part.end,
            waves,
            limit: part.end,
            stride: part.stride.max(1),
            ..Self::default()
        }
    }

    /// A work-group may still be admitted (the launch and the round have more).
    pub fn more(&self) -> bool {
        self.next_wg < self.groups.min(self.limit)
    }

    /// Every work-group has been admitted and every wavefront sent.
    pub fn finished(&self) -> bool {
        self.next_wg >= self.groups && self.pending.is_empty()
    }

    /// Admits the next work-group into `wgs` if `free_slots` (minus the wavefronts admitted
    /// but not sent) can take its wavefronts and an LDS partition is free (at most
    /// `max_resident` work-groups resident). Returns whether it did.
    pub fn admit(
        &mut self,
        wgs: &mut Vec<Wg>,
        free_slots: usize,
        max_resident: usize,
        lds_words: usize,
    ) -> bool {
        let waves = self.waves as usize;
        if !self.more() || free_slots < self.pending.len() + waves {
            return false;
        }
        let idx = match wgs.iter().position(|w| !w.active) {
            Some(i) => i,
            None if wgs.len() < max_resident => {
                wgs.push(Wg::default());
                wgs.len() - 1
            }
            None => return false,
        };
        // (The entry's LDS buffer is reused: zeroed, not allocated again.)
        let wg = &mut wgs[idx];
        (wg.id, wg.live_waves, wg.active) = (self.next_wg, self.waves, true);
        wg.lds.clear();
        wg.lds.resize(lds_words, 0);
        self.pending.extend((0..self.waves).map(|w| (idx, w)));
        self.next_wg += self.stride;
        true
    }
}
