//! Machine words → instruction. Illegal words give an error naming the word and why.

use super::instruction::{Instruction, Slot};
use super::opcode::{Format, Op};
use super::operand::{BadCode, Operand, LITERAL_CODE};
use std::fmt;

/// A word sequence that is not an instruction of the subset.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DecodeError {
    /// The first word of the offending instruction.
    pub word: u32,
    /// Why it is rejected.
    pub reason: String,
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "illegal instruction word {:#010x}: {}",
            self.word, self.reason
        )
    }
}

impl std::error::Error for DecodeError {}

/// The format of a first instruction word (gfx8 prefixes), if it is one of the subset's.
pub fn format_of(w: u32) -> Option<Format> {
    let f = match (w >> 23, w >> 28, w >> 30, w >> 26, w >> 25, w >> 31) {
        (0x17D, ..) => Format::Sop1,
        (0x17E, ..) => Format::Sopc,
        (0x17F, ..) => Format::Sopp,
        (_, 0xB, ..) => Format::Sopk,
        (_, _, 0b10, ..) => Format::Sop2,
        (_, _, _, 0b110000, ..) => Format::Smem,
        (_, _, _, 0b110100, ..) => Format::Vop3,
        (_, _, _, 0b110110, ..) => Format::Ds,
        (_, _, _, 0b110111, ..) => Format::Flat,
        (_, _, _, _, 0x3F, _) => Format::Vop1,
        (_, _, _, _, 0x3E, _) => Format::Vopc,
        (.., 0) => Format::Vop2,
        _ => return None,
    };
    Some(f)
}

/// The opcode field of a word in its format.
fn opcode_field(f: Format, w: u32) -> u16 {
    let (shift, bits) = match f {
        Format::Sop2 => (23, 7),
        Format::Sopk => (23, 5),
        Format::Sop1 => (8, 8),
        Format::Sopc | Format::Sopp => (16, 7),
        Format::Smem => (18, 8),
        Format::Vop1 => (9, 8),
        Format::Vop2 => (25, 6),
        Format::Vopc => (17, 8),
        Format::Vop3 => (16, 10),
        Format::Flat => (18, 7),
        Format::Ds => (17, 8),
    };
    ((w >> shift) & ((1 << bits) - 1)) as u16
}

/// `bits` wide field of `w` at `shift`.
fn field(w: u32, shift: u32, bits: u32) -> u16 {
    ((w >> shift) & ((1 << bits) - 1)) as u16
}

/// Decodes the instruction at the start of `words`; returns it and how many words it takes.
pub fn decode(words: &[u32]) -> Result<(Instruction, usize), DecodeError> {
    let w0 = *words.first().ok_or(DecodeError {
        word: 0,
        reason: "no word to decode".into(),
    })?;
    let fail = |reason: String| DecodeError { word: w0, reason };
    let format = format_of(w0).ok_or_else(|| fail("not a format of the subset".into()))?;
    let raw = opcode_field(format, w0);
    let (op, e64) = if format == Format::Vop3 {
        Op::from_vop3(raw)
            .ok_or_else(|| fail(format!("VOP3 opcode {raw:#x} is not in the subset")))?
    } else {
        let op = Op::from_native(format, raw);
        (
            op.ok_or_else(|| {
                fail(format!(
                    "{} opcode {raw:#x} is not in the subset",
                    format.name()
                ))
            })?,
            false,
        )
    };
    let w1 = words.get(1).copied();
    if format.is_64bit() && w1.is_none() {
        return Err(fail(format!("{} needs a second dword", op.name())));
    }
    let fields = Fields {
        w0,
        w1: w1.unwrap_or(0),
        format,
    };
    let insn = fields.build(op, e64, w1).map_err(fail)?;
    let enc = insn
        .encode()
        .map_err(|e| fail(format!("{}: {e}", op.name())))?;
    if enc[..] != words[..enc.len()] {
        let diff: Vec<String> = enc
            .iter()
            .zip(words)
            .map(|(a, b)| format!("{:#010x}", a ^ b))
            .collect();
        return Err(fail(format!(
            "bits not used by {} are set (difference from the canonical encoding: {})",
            op.name(),
            diff.join(" ")
        )));
    }
    Ok((insn, enc.len()))
}

/// The raw words and where operand fields live.
struct Fields {
    w0: u32,
    w1: u32,
    format: Format,
}

impl Fields {
    fn build(&self, op: Op, e64: bool, w1: Option<u32>) -> Result<Instruction, String> {
        let mut insn = Instruction::new(op);
        insn.e64 = e64;
        for slot in insn.slots() {
            self.fill(&mut insn, slot, w1)?;
        }
        insn.mods = self.mods(op);
        if self.format == Format::Ds {
            insn.imm = self.w0 & 0xffff;
        }
        if self.format == Format::Flat && self.w1 >> 23 & 1 == 1 {
            return Err("FLAT tfe is not supported".into());
        }
        Ok(insn)
    }

    fn fill(&self, insn: &mut Instruction, slot: Slot, w1: Option<u32>) -> Result<(), String> {
        let operand = |code: u16| -> Result<Operand, String> {
            let literal = if code == LITERAL_CODE { w1 } else { None };
            Operand::from_code(code, literal).map_err(|BadCode(c)| {
                if c == LITERAL_CODE {
                    "a literal operand but no dword follows".to_string()
                } else {
                    format!("operand code {c} is not valid on gfx8 (or not supported)")
                }
            })
        };
        match slot {
            Slot::SDst(_) | Slot::SgprDst => insn.dst = Some(operand(self.dst_field())?),
            Slot::VDst(_) => insn.dst = Some(Operand::Vgpr(self.dst_field() as u8)),
            Slot::CarryOut => insn.sdst = Some(operand(self.carry_field(insn.op))?),
            Slot::SSrc(i, _) | Slot::Src(i, _) => insn.src[i] = Some(operand(self.src_field(i))?),
            Slot::VReg(i, _) => insn.src[i] = Some(Operand::Vgpr(self.src_field(i) as u8)),
            Slot::SBase => insn.src[0] = Some(operand(field(self.w0, 0, 6) << 1)?),
            Slot::SOffset => self.smem_offset(insn, operand)?,
            Slot::Simm16 | Slot::Count16 | Slot::Label | Slot::Waitcnt => {
                insn.imm = self.w0 & 0xffff
            }
            Slot::Vcc => {}
        }
        Ok(())
    }

    fn smem_offset(
        &self,
        insn: &mut Instruction,
        operand: impl Fn(u16) -> Result<Operand, String>,
    ) -> Result<(), String> {
        if self.w0 >> 17 & 1 == 1 {
            insn.imm = self.w1 & 0xf_ffff;
        } else {
            insn.src[1] = Some(operand(field(self.w1, 0, 8))?);
        }
        Ok(())
    }

    fn dst_field(&self) -> u16 {
        match self.format {
            Format::Sop2 | Format::Sopk | Format::Sop1 => field(self.w0, 16, 7),
            Format::Smem => field(self.w0, 6, 7),
            Format::Flat | Format::Ds => field(self.w1, 24, 8),
            Format::Vop3 => field(self.w0, 0, 8),
            _ => field(self.w0, 17, 8),
        }
    }

    fn carry_field(&self, op: Op) -> u16 {
        if op.is_vop3b() {
            field(self.w0, 8, 7)
        } else {
            field(self.w0, 0, 8)
        }
    }

    fn src_field(&self, i: usize) -> u16 {
        if self.format == Format::Vop3 {
            return field(self.w1, 9 * i as u32, 9);
        }
        match (self.format, i) {
            (Format::Flat | Format::Ds, _) => field(self.w1, 8 * i as u32, 8),
            (Format::Sop2 | Format::Sop1 | Format::Sopc, _) => field(self.w0, 8 * i as u32, 8),
            (_, 0) => field(self.w0, 0, 9),
            _ => field(self.w0, 9, 8),
        }
    }

    fn mods(&self, op: Op) -> super::instruction::Modifiers {
        let mut m = super::instruction::Modifiers::default();
        let bit = |w: u32, b: u32| w >> b & 1 == 1;
        match self.format {
            Format::Vop3 => {
                m.abs = if op.is_vop3b() {
                    0
                } else {
                    field(self.w0, 8, 3) as u8
                };
                m.clamp = bit(self.w0, 15);
                m.neg = field(self.w1, 29, 3) as u8;
                m.omod = field(self.w1, 27, 2) as u8;
            }
            Format::Smem => m.glc = bit(self.w0, 16),
            Format::Flat => {
                m.glc = bit(self.w0, 16);
                m.slc = bit(self.w0, 17);
            }
            Format::Ds => m.gds = bit(self.w0, 16),
            _ => {}
        }
        m
    }
}
