//! Reference model of the vector register file ([`crate::ctx::Vgprs`]): slot-major rows of
//! lanes, a clear (`v0` to the work-item ids), a masked write and a reset at the edge, in the contract's order.

use crate::ctx::{VgprAddr, VgprIn, VgprOut};

/// The VGPRs of every wavefront slot.
#[derive(Clone, Debug)]
pub struct VgprModel {
    /// Slots.
    slots: usize,
    /// VGPRs per slot.
    regs: usize,
    /// Lanes per row.
    lanes: usize,
    /// The words: slot, then VGPR, then lane.
    words: Vec<u32>,
}

impl VgprModel {
    /// `slots` × `regs` rows of `lanes` zero words.
    pub fn new(slots: usize, regs: usize, lanes: usize) -> Self {
        Self {
            slots,
            regs,
            lanes,
            words: vec![0; slots * regs * lanes],
        }
    }

    /// The first word of row `a`, if it exists.
    fn base(&self, a: VgprAddr) -> Option<usize> {
        let (s, r) = (usize::from(a.slot), usize::from(a.reg));
        (s < self.slots && r < self.regs).then_some((s * self.regs + r) * self.lanes)
    }

    /// Row `a` (zeros past the end).
    pub fn row(&self, a: VgprAddr) -> Vec<u32> {
        match self.base(a) {
            Some(b) => self.words[b..b + self.lanes].to_vec(),
            None => vec![0; self.lanes],
        }
    }

    /// The outputs in the current cycle with inputs `i`.
    pub fn outputs(&self, i: &VgprIn) -> VgprOut {
        VgprOut {
            a: self.row(i.a),
            b: self.row(i.b),
        }
    }

    /// The rising edge that ends a cycle with inputs `i`.
    pub fn clock(&mut self, i: &VgprIn) {
        let slot = usize::from(i.clear_slot);
        if i.clear && slot < self.slots {
            let n = self.regs * self.lanes;
            self.words[slot * n..(slot + 1) * n].fill(0);
            for (l, w) in self.words[slot * n..][..self.lanes].iter_mut().enumerate() {
                *w = i.clear_v0.wrapping_add(l as u32);
            }
        }
        if let (true, Some(b)) = (i.we, self.base(i.w)) {
            for l in (0..self.lanes).filter(|l| i.mask >> l & 1 == 1) {
                self.words[b + l] = i.data.get(l).copied().unwrap_or(0);
            }
        }
        if i.reset {
            self.words.fill(0);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(slot: u8, reg: u8) -> VgprAddr {
        VgprAddr { slot, reg }
    }

    /// A masked write keeps the other lanes; a clear in the same cycle zeroes the slot,
    /// `v0` to the work-item ids, before the write; other slots keep their rows.
    #[test]
    fn a_masked_write_after_a_clear() {
        let mut m = VgprModel::new(2, 4, 4);
        let write = |w, mask, clear| VgprIn {
            we: true,
            w,
            mask,
            data: vec![1, 2, 3, 4],
            clear,
            clear_slot: 0,
            clear_v0: 0xFFFF_FFFE,
            ..VgprIn::default()
        };
        m.clock(&write(at(0, 3), 0b1111, false));
        m.clock(&write(at(1, 3), 0b1111, false));
        m.clock(&write(at(0, 0), 0b0101, true));
        assert_eq!(m.row(at(0, 0)), [1, 0xFFFF_FFFF, 3, 1], "v0: ids, wrapping");
        assert_eq!(m.row(at(0, 3)), [0; 4], "cleared");
        assert_eq!(m.row(at(1, 3)), [1, 2, 3, 4], "another slot");
        assert_eq!(m.row(at(2, 0)), [0; 4], "past the end");
    }
}
