//! A Sim-D tile transfer's descriptor (docs/assumptions.md#A81) and its data movement between
//! data memory and a work-group's scratchpad (the LDS partition).

use crate::dram::model::DramIn;

/// The descriptor of `tile_ld s[n:n+3]` / `tile_st s[n:n+3]`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TileDesc {
    /// `tile_st` (scratchpad to DRAM) rather than `tile_ld`.
    pub store: bool,
    /// `s[n]`: byte address of the tile's first word in data memory (4-aligned).
    pub dram: u32,
    /// `s[n+1]`: byte address of the packed tile in the scratchpad (4-aligned).
    pub lds: u32,
    /// `s[n+2]` bits 15:0: words per row.
    pub words: u32,
    /// `s[n+2]` bits 31:16: rows.
    pub rows: u32,
    /// `s[n+3]`: words from one row's start to the next.
    pub period: u32,
}

impl TileDesc {
    /// The descriptor held in four SGPRs.
    pub fn from_sgprs(store: bool, s: [u32; 4]) -> Self {
        TileDesc {
            store,
            dram: s[0],
            lds: s[1],
            words: s[2] & 0xffff,
            rows: s[2] >> 16,
            period: s[3],
        }
    }

    /// Checks the tile against `mem_words` of data memory and `lds_words` of scratchpad; the
    /// faulting byte address otherwise (misaligned, empty, overlapping rows, out of range).
    pub fn check(&self, mem_words: usize, lds_words: usize) -> Result<(), u32> {
        let (rows, words, period) = (
            u64::from(self.rows),
            u64::from(self.words),
            u64::from(self.period),
        );
        let shape_ok = words > 0 && rows > 0 && (rows == 1 || period >= words);
        let aligned = self.dram.is_multiple_of(4) && self.lds.is_multiple_of(4);
        let mem_end = u64::from(self.dram / 4) + (rows.max(1) - 1) * period + words;
        let lds_end = u64::from(self.lds / 4) + rows * words;
        if !shape_ok || !aligned || mem_end > mem_words as u64 {
            return Err(self.dram);
        }
        if lds_end > lds_words as u64 {
            return Err(self.lds);
        }
        Ok(())
    }

    /// Row r's first word in data memory and in the scratchpad.
    fn row(&self, r: u32) -> (usize, usize) {
        (
            (self.dram / 4 + r * self.period) as usize,
            (self.lds / 4 + r * self.words) as usize,
        )
    }

    /// Moves the (checked) tile: data memory to scratchpad for a load, back for a store.
    pub fn copy(&self, mem: &mut [u32], lds: &mut [u32]) {
        let n = self.words as usize;
        for r in 0..self.rows {
            let (d, s) = self.row(r);
            if self.store {
                mem[d..d + n].copy_from_slice(&lds[s..s + n]);
            } else {
                lds[s..s + n].copy_from_slice(&mem[d..d + n]);
            }
        }
    }

    /// The DRAM controller's inputs presenting this tile as one request (tag `tag`): start
    /// word, words per row, period, rows (a one-row tile's period is its width).
    pub fn request(&self, tag: u8) -> DramIn {
        DramIn {
            req_valid: true,
            req_write: self.store,
            req_addr: self.dram / 4,
            req_words: self.words,
            req_period: if self.rows > 1 {
                self.period
            } else {
                self.words
            },
            req_count: self.rows as u16,
            req_tag: tag,
            ..DramIn::default()
        }
    }

    /// Bytes moved.
    pub fn bytes(&self) -> u64 {
        4 * u64::from(self.words) * u64::from(self.rows)
    }
}
