//! Sim-D tile transfers (`tile_ld`, `tile_st`; docs/assumptions.md#A81): a work-group-wide copy
//! between data memory and the work-group's LDS (its scratchpad), done once when every live
//! wavefront of the work-group has reached the instruction.
//!
//! The descriptor is four SGPRs: `s[n]` the data-memory byte address of the tile's first word,
//! `s[n+1]` the LDS byte address, `s[n+2]` words per row (bits 15:0) and rows (bits 31:16),
//! `s[n+3]` the period (words from one row's start to the next). Row r covers the words from
//! `s[n]/4 + r·period`; in the LDS the rows are packed, row r from `s[n+1]/4 + r·words`.

use super::error::Trap;
use super::mem::Memories;
use super::wave::Wave;
use crate::isa::{Instruction, Op, Operand};

/// A tile transfer a wavefront waits at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Tile {
    /// `tile_st` (LDS to memory) rather than `tile_ld`.
    pub store: bool,
    /// The descriptor's four SGPRs.
    pub desc: [u32; 4],
    /// The instruction's address and first word (for a fault).
    pub pc: u32,
    /// The instruction's first word.
    pub word: u32,
}

/// Reads the descriptor of a tile instruction.
pub(crate) fn read(w: &Wave, i: &Instruction, pc: u32, word: u32) -> Result<Tile, Trap> {
    let Some(Operand::Sgpr(n)) = i.src[0] else {
        return Err(Trap::Illegal);
    };
    let mut desc = [0; 4];
    for (k, d) in desc.iter_mut().enumerate() {
        *d = w.read(Operand::Sgpr(n + k as u8))?;
    }
    Ok(Tile {
        store: i.op == Op::TileSt,
        desc,
        pc,
        word,
    })
}

/// Performs the transfer; every address is checked first, so a fault changes nothing.
pub(crate) fn run(t: &Tile, m: &mut Memories) -> Result<(), Trap> {
    let [dram, lds, shape, period] = t.desc;
    let (words, rows) = (u64::from(shape & 0xffff), u64::from(shape >> 16));
    let period = u64::from(period);
    if !dram.is_multiple_of(4) || words == 0 || rows == 0 || (rows > 1 && period < words) {
        return Err(Trap::Memory(u64::from(dram)));
    }
    let (base, at) = (u64::from(dram) / 4, u64::from(lds) / 4);
    let mem_end = base + (rows - 1) * period + words;
    if mem_end > m.mem.len() as u64 {
        return Err(Trap::Memory(4 * mem_end - 4));
    }
    let lds_end = 4 * (at + rows * words);
    if !lds.is_multiple_of(4) || lds_end > u64::from(m.lds_bytes) {
        return Err(Trap::Lds(lds_end.min(u64::from(u32::MAX)) as u32));
    }
    for r in 0..rows {
        let d = (base + r * period) as usize;
        let s = (at + r * words) as usize;
        let n = words as usize;
        if t.store {
            m.mem[d..d + n].copy_from_slice(&m.lds[s..s + n]);
        } else {
            m.lds[s..s + n].copy_from_slice(&m.mem[d..d + n]);
        }
    }
    Ok(())
}
