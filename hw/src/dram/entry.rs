//! The bank FIFO entry: one compound command (`{pre_pre, act, CAS, ap}` for one burst) or a
//! stand-alone closing PRE, packed in [`ENTRY_BITS`] bits. The RTL reads the fields at these
//! literal offsets (hdl_gen takes literals only); keep them in step.

/// Width of an entry.
pub const ENTRY_BITS: usize = 44;
/// All entry bits.
pub const MASK: u64 = (1 << ENTRY_BITS) - 1;
/// Bit: a stand-alone PRE (nothing else in the entry is meaningful).
pub const CLOSE: usize = 0;
/// Bit: precharge before the ACT (the bank has another row open; indexed requests).
pub const PRE_PRE: usize = 1;
/// Bit: activate the row before the CAS.
pub const ACT: usize = 2;
/// Bit: auto-precharge with the CAS (RDA/WRA).
pub const AP: usize = 3;
/// Bit: the CAS is a write.
pub const WRITE: usize = 4;
/// Offset of the 16-bit row.
pub const ROW: usize = 5;
/// Offset of the 7-bit column (burst within the row).
pub const COL: usize = 21;
/// Offset of the 16-bit word mask.
pub const WORDS: usize = 28;

/// The fields of an entry, for tests and waveform decoding.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Entry {
    /// A stand-alone PRE.
    pub close: bool,
    /// Pre-activate precharge.
    pub pre_pre: bool,
    /// Activate.
    pub act: bool,
    /// Auto-precharge.
    pub ap: bool,
    /// Write.
    pub write: bool,
    /// Row.
    pub row: u32,
    /// Column (burst within the row).
    pub col: u32,
    /// Word mask.
    pub words: u32,
}

impl Entry {
    /// Packs the fields.
    pub fn pack(&self) -> u64 {
        (self.close as u64) << CLOSE
            | (self.pre_pre as u64) << PRE_PRE
            | (self.act as u64) << ACT
            | (self.ap as u64) << AP
            | (self.write as u64) << WRITE
            | ((self.row as u64) & 0xFFFF) << ROW
            | ((self.col as u64) & 0x7F) << COL
            | ((self.words as u64) & 0xFFFF) << WORDS
    }

    /// Unpacks an entry.
    pub fn unpack(v: u64) -> Self {
        let bit = |b: usize| (v >> b) & 1 == 1;
        Self {
            close: bit(CLOSE),
            pre_pre: bit(PRE_PRE),
            act: bit(ACT),
            ap: bit(AP),
            write: bit(WRITE),
            row: ((v >> ROW) & 0xFFFF) as u32,
            col: ((v >> COL) & 0x7F) as u32,
            words: ((v >> WORDS) & 0xFFFF) as u32,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pack_round_trip_and_width() {
        let e = Entry {
            close: false,
            pre_pre: true,
            act: true,
            ap: true,
            write: true,
            row: 0xBEEF,
            col: 0x55,
            words: 0xF00F,
        };
        assert_eq!(Entry::unpack(e.pack()), e);
        assert_eq!(WORDS + 16, ENTRY_BITS);
        assert!(e.pack() <= MASK);
    }
}
