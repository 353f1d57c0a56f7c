//! The front-end and the command generator of the DRAM controller model: the address
//! mapping, the tile front-end's segments and the compound command generated for a burst.

use super::{DramModel, Emit, Entry, Seg, BURST_MASK, FIFO_DEPTH};

impl DramModel {
    /// (bank, row, col) of burst `burst` (masked to 26 bits).
    pub(super) fn map(&self, burst: u64) -> (u8, u32, u8) {
        let k = burst & BURST_MASK;
        // bank[0] = a[6] = k[0]; col = a[13:7] = k[7:1]; pair = a[13+p:14] = k[7+p:8];
        // row = a[31:14+p] = k[25:8+p].
        let pair = (k >> 8) & ((1 << (self.pair_bits)) - 1);
        let bank = ((pair << 1) | (k & 1)) as u8;
        let col = ((k >> 1) & 0x7f) as u8;
        let row = (k >> (8 + self.pair_bits)) as u32;
        (bank, row, col)
    }

    /// The tile segment starting at word `pos` of row `row`, which ends (exclusive) at
    /// `row_end`.
    fn segment_at(&self, row: u32, pos: u64, row_end: u64) -> Seg {
        let burst = pos >> 4;
        let lo = (pos & 15) as u32;
        let hi = (row_end - (burst << 4)).min(16) as u32;
        let mask = ((1u32 << hi) - (1u32 << lo)) as u16;
        let next_start = (burst + 1) << 4;
        let next = if next_start < row_end {
            Some((row, next_start, row_end))
        } else if row + 1 < self.req.count {
            let r = row + 1;
            let start = u64::from(self.req.addr) + u64::from(r) * u64::from(self.req.period);
            Some((r, start, start + u64::from(self.req.words)))
        } else {
            None
        };
        let completing = next.is_none_or(|(_, p, _)| (p >> 4) & BURST_MASK != burst & BURST_MASK);
        Seg {
            burst,
            mask,
            next,
            completing,
        }
    }

    /// The tile front-end's current burst: every segment from the current one up to the one
    /// completing its burst, walked in one cycle. Returns the completing segment (its `next`
    /// is where the walk resumes) and the burst's merged mask.
    pub(super) fn burst_walk(&self) -> (Seg, u16) {
        let mut s = self.segment_at(self.row, self.pos, self.row_end);
        let mut mask = s.mask;
        while !s.completing {
            let (row, pos, end) = s.next.expect("a non-completing segment has a successor");
            s = self.segment_at(row, pos, end);
            mask |= s.mask;
        }
        (s, mask)
    }

    /// The compound command for `burst` with word mask `mask`, its stand-alone PREs, and
    /// whether the generator accepts it. `succ` is a tile burst's successor (None for
    /// indexed requests); `last` marks the request's last burst.
    pub(super) fn generate(&self, burst: u64, mask: u16, succ: Option<u64>, last: bool) -> Emit {
        let (b, row, col) = self.map(burst);
        let bi = b as usize;
        let hit = self.shadow_open[bi] && self.shadow_row[bi] == row;
        let mut closes = 0u16;
        let (pre_pre, ap) = if !self.req.indexed {
            // LINEAR: auto-precharge when the successor leaves the pair or the row.
            let ap = match succ {
                None => true,
                Some(s) => {
                    let (sb, srow, _) = self.map(s);
                    sb >> 1 != b >> 1 || srow != row
                }
            };
            if ap && self.shadow_open[bi ^ 1] {
                closes |= 1 << (bi ^ 1);
            }
            (false, ap)
        } else {
            // ALAP: precharge before a row miss; on the last burst close every other bank.
            let pre_pre = self.shadow_open[bi] && self.shadow_row[bi] != row;
            if last {
                for o in 0..self.nb {
                    if o != bi && self.shadow_open[o] {
                        closes |= 1 << o;
                    }
                }
            }
            (pre_pre, last)
        };
        let mut accepted = (self.fifo[bi].len as usize) < FIFO_DEPTH;
        for o in 0..self.nb {
            if closes & (1 << o) != 0 && self.fifo[o].len as usize >= FIFO_DEPTH {
                accepted = false;
            }
        }
        Emit {
            bank: b,
            entry: Entry {
                close: false,
                pre_pre,
                act: !hit,
                ap,
                write: self.req.write,
                row,
                col,
                mask,
            },
            closes,
            accepted,
        }
    }
}
