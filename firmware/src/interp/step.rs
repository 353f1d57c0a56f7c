//! Fetch, decode (cached per code dword) and dispatch of one instruction.

use super::control::{self, Flow};
use super::error::InterpError;
use super::mem::{self, Memories};
use super::wave::Wave;
use super::{salu, tile, valu};
use crate::isa::{decode, Format, Instruction, Op};

/// The code image with a lazily filled decode cache.
pub(crate) struct Code<'a> {
    words: &'a [u32],
    cache: Vec<Option<(Instruction, u32)>>,
}

impl<'a> Code<'a> {
    /// Wraps a code image (dwords; PC = byte address).
    pub fn new(words: &'a [u32]) -> Code<'a> {
        Code {
            words,
            cache: vec![None; words.len()],
        }
    }

    /// The instruction at byte address `pc` and its length in bytes.
    pub(crate) fn fetch(&mut self, pc: u64) -> Result<(Instruction, u32), InterpError> {
        let out = || InterpError::PcOutOfRange {
            pc: u32::try_from(pc).unwrap_or(u32::MAX),
        };
        if !pc.is_multiple_of(4) || pc / 4 >= self.words.len() as u64 {
            return Err(out());
        }
        let at = (pc / 4) as usize;
        if let Some(hit) = self.cache[at] {
            return Ok(hit);
        }
        let (insn, dwords) =
            decode(&self.words[at..]).map_err(|e| InterpError::IllegalInstruction {
                pc: pc as u32,
                word: e.word,
            })?;
        let entry = (insn, 4 * dwords as u32);
        self.cache[at] = Some(entry);
        Ok(entry)
    }
}

/// Executes the instruction at `w.pc`, advancing the PC.
pub(crate) fn step(w: &mut Wave, code: &mut Code, m: &mut Memories) -> Result<Flow, InterpError> {
    let pc = w.pc;
    let (insn, len) = code.fetch(pc)?;
    w.pc = pc + u64::from(len);
    let format = insn.op.info().format;
    let word = code.words[(pc / 4) as usize];
    let result = if matches!(insn.op, Op::TileLd | Op::TileSt) {
        tile::read(w, &insn, pc as u32, word).map(Flow::Tile)
    } else if control::is_control(insn.op) {
        control::exec(w, &insn)
    } else {
        match format {
            Format::Sop2 | Format::Sopk | Format::Sop1 | Format::Sopc => {
                salu::exec(w, &insn).map(|_| Flow::Continue)
            }
            Format::Smem | Format::Flat | Format::Ds => {
                mem::exec(w, &insn, m).map(|_| Flow::Continue)
            }
            _ => valu::exec(w, &insn).map(|_| Flow::Continue),
        }
    };
    result.map_err(|t| t.at(pc as u32, word))
}
