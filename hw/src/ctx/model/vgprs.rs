//! Reference model of the vector register file ([`crate::ctx::Vgprs`]): slot-major rows of
//! lanes, a clear (`v0` to the work-item ids), the masked writes and a reset at the edge, in the contract's order.

use crate::ctx::{ValuRows, VgprAddr, VgprIn, VgprOut};

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
            valu: i.valu.each_ref().map(|p| ValuRows {
                a: self.row(p.a),
                b: self.row(p.b),
                c: self.row(p.c),
            }),
            x: i.x.map(|x| self.row_after_w(x, i)),
            y: i.y.map(|y| {
                let a = VgprAddr {
                    slot: i.y[0].slot,
                    reg: y.reg,
                };
                self.row_after_w(a, i)
            }),
        }
    }

    /// Row `a` as the VALUs' writes (`w` and its pair's second row, then `w2`, ...) in this
    /// cycle leave it.
    fn row_after_w(&self, a: VgprAddr, i: &VgprIn) -> Vec<u32> {
        let mut row = self.row(a);
        for (we, w, mask, data) in valu_writes(i) {
            if we && a == w && self.base(a).is_some() {
                write_lanes(&mut row, mask, data);
            }
        }
        row
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
        let l2 = VgprAddr {
            reg: i.l.reg.wrapping_add(1),
            ..i.l
        };
        for (we, a, mask, data) in valu_writes(i).chain([
            (i.m_we, i.m, i.m_mask, &i.m_data),
            (i.l_we, i.l, i.l_mask, &i.l_data),
            (i.l_we && i.l_two, l2, i.l_mask, &i.l_data1),
        ]) {
            if let (true, Some(b)) = (we, self.base(a)) {
                write_lanes(&mut self.words[b..b + self.lanes], mask, data);
            }
        }
        if i.reset {
            self.words.fill(0);
        }
    }
}

/// The VALUs' row writes in their order: port set `n`'s row, then its pair's second row
/// (`w.reg + 1`, wrapping), then set `n + 1`'s: (write, row, lanes, values).
fn valu_writes(i: &VgprIn) -> impl Iterator<Item = (bool, VgprAddr, u64, &Vec<u32>)> {
    i.valu.iter().flat_map(|p| {
        let hi = VgprAddr {
            reg: p.w.reg.wrapping_add(1),
            ..p.w
        };
        [
            (p.we, p.w, p.mask, &p.data),
            (p.we && p.two, hi, p.mask, &p.data1),
        ]
    })
}

/// Writes `data[l]` (0 when missing) into `row[l]` for the lanes `l` of `mask`.
fn write_lanes(row: &mut [u32], mask: u64, data: &[u32]) {
    for (l, w) in row
        .iter_mut()
        .enumerate()
        .filter(|(l, _)| mask >> l & 1 == 1)
    {
        *w = data.get(l).copied().unwrap_or(0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ctx::ValuPorts;

    fn at(slot: u8, reg: u8) -> VgprAddr {
        VgprAddr { slot, reg }
    }

    /// Port set `n`'s write of `data` into row `w`'s lanes of `mask` (every other set idle).
    fn valu_write(n: usize, w: VgprAddr, mask: u64, data: &[u32]) -> [ValuPorts; 4] {
        let mut v: [ValuPorts; 4] = Default::default();
        v[n] = ValuPorts {
            we: true,
            w,
            mask,
            data: data.to_vec(),
            ..ValuPorts::default()
        };
        v
    }

    /// A masked write keeps the other lanes; a clear in the same cycle zeroes the slot,
    /// `v0` to the work-item ids, before the write; other slots keep their rows.
    #[test]
    fn a_masked_write_after_a_clear() {
        let mut m = VgprModel::new(2, 4, 4);
        let write = |w, mask, clear| VgprIn {
            valu: valu_write(0, w, mask, &[1, 2, 3, 4]),
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

    /// Ports `x` see port `w`'s write of this cycle (ports `a` do not); when both writes name
    /// a lane, the memory's (`m`) stays. Fails if `x` reads the old row, or `w` wins.
    #[test]
    fn x_reads_write_first_and_m_wins() {
        let mut m = VgprModel::new(2, 4, 4);
        let mut valu = valu_write(0, at(1, 2), 0b0011, &[5, 6, 7, 8]);
        valu[0].a = at(1, 2);
        let i = VgprIn {
            valu,
            x: [at(1, 2), at(1, 1), at(9, 2)],
            m_we: true,
            m: at(1, 2),
            m_mask: 0b0110,
            m_data: vec![9, 10, 11, 12],
            ..VgprIn::default()
        };
        let o = m.outputs(&i);
        assert_eq!(o.valu[0].a, [0; 4]);
        assert_eq!(o.x, [vec![5, 6, 0, 0], vec![0; 4], vec![0; 4]]);
        m.clock(&i);
        assert_eq!(m.row(at(1, 2)), [5, 10, 11, 0]);
    }

    /// The VALUs' writes land in port-set order (`w`, `w2`, `w3`, `w4`: a later set's lanes
    /// win), ports `x` see them all, each set's port `a` reads its own row. Every set writes a
    /// lane the next set writes too, so a dropped write or two sets swapped change a lane; the
    /// sets' `a` rows differ, so a set reading another's address is caught.
    #[test]
    fn the_valus_write_in_port_set_order() {
        let mut m = VgprModel::new(2, 4, 4);
        let writes: [(u64, [u32; 4]); 4] = [
            (0b0011, [5, 6, 7, 8]),
            (0b0110, [1, 2, 3, 4]),
            (0b1100, [0, 0, 7, 6]),
            (0b1000, [0, 0, 0, 9]),
        ];
        let valu = std::array::from_fn(|n| ValuPorts {
            a: at(n as u8 % 2, 3 - n as u8 / 2),
            ..valu_write(n, at(1, 2), writes[n].0, &writes[n].1)[n].clone()
        });
        let i = VgprIn {
            valu,
            x: [at(1, 2), at(0, 0), at(0, 0)],
            ..VgprIn::default()
        };
        assert_eq!(m.outputs(&i).x[0], [5, 2, 7, 9]);
        m.clock(&i);
        assert_eq!(m.row(at(1, 2)), [5, 2, 7, 9]);
        m.clock(&VgprIn {
            valu: std::array::from_fn(|n| {
                valu_write(n, at(n as u8 % 2, 3 - n as u8 / 2), 0b1, &[n as u32 + 1])[n].clone()
            }),
            ..VgprIn::default()
        });
        for n in 0..4 {
            assert_eq!(m.outputs(&i).valu[n].a[0], n as u32 + 1, "set {n}");
        }
    }

    /// A VALU's pair write: its second row (`w.reg + 1`) takes `data1` in the write's lanes,
    /// before the next port set's write (set 1 writes row 3 after set 0's pair) and the
    /// write-first reads see it. Fails if the pair's row is written first, or not at all.
    #[test]
    fn a_valu_pair_writes_the_next_row_before_the_next_set() {
        let mut m = VgprModel::new(2, 4, 4);
        let mut valu = valu_write(0, at(1, 2), 0b0111, &[1, 2, 3, 4]);
        (valu[0].two, valu[0].data1) = (true, vec![5, 6, 7, 8]);
        valu[1] = valu_write(1, at(1, 3), 0b0100, &[0, 0, 9, 0])[1].clone();
        let i = VgprIn {
            valu,
            x: [at(1, 3), at(1, 2), at(0, 0)],
            ..VgprIn::default()
        };
        assert_eq!(m.outputs(&i).x[0], [5, 6, 9, 0]);
        m.clock(&i);
        assert_eq!(m.row(at(1, 2)), [1, 2, 3, 0]);
        assert_eq!(m.row(at(1, 3)), [5, 6, 9, 0]);
    }

    /// The LDS's write of a pair (rows 2 and 3) wins over port `m` in its lanes; its read
    /// ports show the old rows in the cycle of its own write (they are write-first only for
    /// the VALUs' writes) and read one slot. Fails if `l_two`
    /// writes row 2 twice, or `m` wins.
    #[test]
    fn the_lds_writes_a_pair_last() {
        let mut m = VgprModel::new(2, 4, 4);
        let i = VgprIn {
            m_we: true,
            m: at(1, 2),
            m_mask: 0b1111,
            m_data: vec![1, 1, 1, 1],
            l_we: true,
            l_two: true,
            l: at(1, 2),
            l_mask: 0b0101,
            l_data: vec![5, 6, 7, 8],
            l_data1: vec![9, 10, 11, 12],
            y: [at(1, 2), at(0, 3), at(0, 9)],
            ..VgprIn::default()
        };
        assert_eq!(m.outputs(&i).y, [vec![0; 4], vec![0; 4], vec![0; 4]]);
        m.clock(&i);
        assert_eq!(m.row(at(1, 2)), [5, 1, 7, 1]);
        assert_eq!(m.row(at(1, 3)), [9, 0, 11, 0]);
        assert_eq!(m.outputs(&i).y[1], [9, 0, 11, 0], "y[1] reads slot 1");
    }
}
