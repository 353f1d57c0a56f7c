//! Instruction → assembly text in LLVM's syntax, and the disassembler.

use super::decode::{decode, DecodeError};
use super::instruction::{Instruction, Slot};
use super::opcode::{Format, Sig};
use super::operand::Operand;
use std::fmt;

/// Fields of `s_waitcnt`'s 16-bit immediate on gfx8: (name, shift, bits).
pub const WAITCNT_FIELDS: [(&str, u32, u32); 3] =
    [("vmcnt", 0, 4), ("expcnt", 4, 3), ("lgkmcnt", 8, 4)];

/// Bits of `s_waitcnt`'s immediate that hold a counter.
pub const WAITCNT_MASK: u32 = 0x0f7f;

/// Output modifier spellings, by `omod` value.
pub const OMOD_TEXT: [&str; 4] = ["", "mul:2", "mul:4", "div:2"];

impl fmt::Display for Instruction {
    /// Prints the instruction as LLVM-syntax assembly; VOP1/VOP2/VOPC instructions carry an
    /// explicit `_e32`/`_e64` suffix, branch targets are signed dword offsets.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.op.name())?;
        if self.op.has_e64() {
            f.write_str(if self.e64 { "_e64" } else { "_e32" })?;
        }
        for (i, slot) in self.slots().into_iter().enumerate() {
            f.write_str(if i == 0 { " " } else { ", " })?;
            self.write_slot(f, slot)?;
        }
        self.write_mods(f)
    }
}

impl Instruction {
    fn write_slot(&self, f: &mut fmt::Formatter<'_>, slot: Slot) -> fmt::Result {
        let show = |o: Option<Operand>, w: u8| o.map(|o| o.show(w).to_string()).unwrap_or_default();
        match slot {
            Slot::SDst(w) | Slot::VDst(w) => f.write_str(&show(self.dst, w)),
            Slot::SgprDst => f.write_str(&show(self.dst, 1)),
            Slot::CarryOut => f.write_str(&show(self.sdst, 2)),
            Slot::SSrc(i, w) | Slot::VReg(i, w) => f.write_str(&show(self.src[i], w)),
            Slot::Src(i, w) => self.write_src(f, i, w),
            Slot::Vcc => f.write_str("vcc"),
            Slot::Simm16 => write!(f, "{:#x}", self.imm),
            Slot::Count16 => write!(f, "{}", self.imm),
            Slot::Label => write!(f, "{}", self.imm as u16 as i16),
            Slot::Waitcnt => write_waitcnt(f, self.imm),
            Slot::SBase => f.write_str(&show(self.src[0], 2)),
            Slot::SOffset => match self.src[1] {
                Some(reg) => write!(f, "{}", reg.show(1)),
                None => write!(f, "{:#x}", self.imm),
            },
        }
    }

    /// A VOP source with its `-` and `|...|` modifiers.
    fn write_src(&self, f: &mut fmt::Formatter<'_>, i: usize, w: u8) -> fmt::Result {
        let op = self.src[i];
        let mut text = op.map(|o| o.show(w).to_string()).unwrap_or_default();
        if self.mods.abs >> i & 1 == 1 {
            text = format!("|{text}|");
        }
        if self.mods.neg >> i & 1 == 0 {
            f.write_str(&text)
        } else if op.is_some_and(|o| o.is_constant()) && !text.starts_with('|') {
            // `-0.5` would read as the constant -0.5, not 0.5 negated.
            write!(f, "neg({text})")
        } else {
            write!(f, "-{text}")
        }
    }

    fn write_mods(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let m = self.mods;
        if self.op.info().format == Format::Ds {
            write_ds_offsets(f, self.op.info().sig, self.imm)?;
        }
        let flags = [
            (m.gds, "gds"),
            (m.glc, "glc"),
            (m.slc, "slc"),
            (m.clamp, "clamp"),
        ];
        for (_, name) in flags.iter().filter(|(on, _)| *on) {
            write!(f, " {name}")?;
        }
        if m.omod != 0 {
            write!(f, " {}", OMOD_TEXT[m.omod as usize & 3])?;
        }
        Ok(())
    }
}

fn write_ds_offsets(f: &mut fmt::Formatter<'_>, sig: Sig, imm: u32) -> fmt::Result {
    if matches!(sig, Sig::DsRead2 | Sig::DsWrite2) {
        for (name, v) in [("offset0", imm & 0xff), ("offset1", imm >> 8)] {
            if v != 0 {
                write!(f, " {name}:{v}")?;
            }
        }
    } else if imm != 0 {
        write!(f, " offset:{imm}")?;
    }
    Ok(())
}

/// `vmcnt(N) expcnt(N) lgkmcnt(N)` listing the counters below their maximum (all three when
/// none is), or the raw number when bits outside the counters are set.
fn write_waitcnt(f: &mut fmt::Formatter<'_>, imm: u32) -> fmt::Result {
    if imm & !WAITCNT_MASK != 0 {
        return write!(f, "{imm:#x}");
    }
    let values = WAITCNT_FIELDS
        .map(|(name, shift, bits)| (name, imm >> shift & ((1 << bits) - 1), (1 << bits) - 1));
    let waiting: Vec<_> = values.iter().filter(|(_, v, max)| v != max).collect();
    let shown = if waiting.is_empty() {
        values.iter().collect()
    } else {
        waiting
    };
    let parts: Vec<String> = shown.iter().map(|(n, v, _)| format!("{n}({v})")).collect();
    f.write_str(&parts.join(" "))
}

/// One disassembled instruction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Disassembled {
    /// Byte address of the first word.
    pub addr: u32,
    /// The instruction's words.
    pub words: Vec<u32>,
    /// The instruction.
    pub insn: Instruction,
}

impl fmt::Display for Disassembled {
    /// `TEXT ; ADDR: WORDS` — reassembles to the same words.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let words: Vec<String> = self.words.iter().map(|w| format!("{w:08X}")).collect();
        let text = self.insn.to_string();
        write!(f, "{text:<48} ; {:04x}: {}", self.addr, words.join(" "))
    }
}

/// A decode failure at a byte address.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DisasmError {
    /// Byte address of the offending word.
    pub addr: u32,
    /// What is wrong with it.
    pub error: DecodeError,
}

impl fmt::Display for DisasmError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "at {:#06x}: {}", self.addr, self.error)
    }
}

impl std::error::Error for DisasmError {}

/// Disassembles a code image (little-endian dwords, first at address 0).
pub fn disassemble(words: &[u32]) -> Result<Vec<Disassembled>, DisasmError> {
    let mut out = Vec::new();
    let mut at = 0;
    while at < words.len() {
        let addr = at as u32 * 4;
        let (insn, len) = decode(&words[at..]).map_err(|error| DisasmError { addr, error })?;
        out.push(Disassembled {
            addr,
            words: words[at..at + len].to_vec(),
            insn,
        });
        at += len;
    }
    Ok(out)
}
