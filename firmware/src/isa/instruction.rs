//! The typed instruction: an opcode, its encoding choice and its operands by role.

use super::opcode::{Format, Op, Sig};
use super::operand::{special_has_pair, Operand, SGPR_COUNT};
use std::fmt;

/// One instruction of the subset.
///
/// Operands sit in fixed roles; which roles an opcode uses is its [`Sig`] (see [`slots`]).
/// Roles an opcode does not use are `None`/0, so every instruction has one representation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Instruction {
    /// The mnemonic.
    pub op: Op,
    /// A VOP1/VOP2/VOPC instruction in its VOP3 (`_e64`) encoding.
    pub e64: bool,
    /// Destination: `sdst`, `vdst`, SMEM `sdata` (also the compared register of `s_cmpk_*`).
    pub dst: Option<Operand>,
    /// Second scalar destination: the carry-out of VOP3b or the mask of a VOPC `_e64`.
    pub sdst: Option<Operand>,
    /// Sources 0..2 (SMEM: `sbase`, `soffset`; FLAT: `vaddr`, `vdata`; DS: `vaddr`,
    /// `vdata0`, `vdata1`).
    pub src: [Option<Operand>; 3],
    /// Immediate: SOPK/SOPP `simm16`, SMEM offset (when `src[1]` is `None`), DS
    /// `offset1 << 8 | offset0`.
    pub imm: u32,
    /// Modifier bits.
    pub mods: Modifiers,
}

/// Modifier bits of VOP3, SMEM, FLAT and DS instructions.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Modifiers {
    /// VOP3 `|src|` per source (bit i = source i).
    pub abs: u8,
    /// VOP3 `-src` per source (bit i = source i).
    pub neg: u8,
    /// VOP3 `clamp`.
    pub clamp: bool,
    /// VOP3 output modifier: 0 none, 1 `mul:2`, 2 `mul:4`, 3 `div:2`.
    pub omod: u8,
    /// SMEM/FLAT `glc`.
    pub glc: bool,
    /// FLAT `slc`.
    pub slc: bool,
    /// DS `gds`.
    pub gds: bool,
}

/// An operand position of an assembly form, with the role it fills and its width in dwords.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Slot {
    /// Scalar destination register (`dst`).
    SDst(u8),
    /// Scalar source `src[i]`: scalar register or constant.
    SSrc(usize, u8),
    /// Vector-instruction source `src[i]`: any register or constant.
    Src(usize, u8),
    /// VGPR-only source `src[i]`.
    VReg(usize, u8),
    /// VGPR destination (`dst`).
    VDst(u8),
    /// Scalar destination of `v_readfirstlane_b32` (`dst`).
    SgprDst,
    /// Scalar register pair `sdst` (carry-out or compare mask of e64 forms).
    CarryOut,
    /// The implicit `vcc` written in e32 forms.
    Vcc,
    /// SOPK 16-bit constant (`imm`).
    Simm16,
    /// SOPP 16-bit count (`imm`).
    Count16,
    /// Branch target, a signed dword offset from the next instruction (`imm`).
    Label,
    /// `s_waitcnt` counters (`imm`).
    Waitcnt,
    /// SMEM base address pair (`src[0]`).
    SBase,
    /// SMEM offset: `imm` or the scalar register `src[1]`.
    SOffset,
}

/// The operand slots of an opcode in the given encoding.
pub fn slots(op: Op, e64: bool) -> Vec<Slot> {
    use Slot::*;
    match (op.info().sig, e64) {
        (Sig::Sop2(d, a, b), _) => vec![SDst(d), SSrc(0, a), SSrc(1, b)],
        (Sig::Sopk, _) => vec![SDst(1), Simm16],
        (Sig::Sop1(d, a), _) => vec![SDst(d), SSrc(0, a)],
        (Sig::GetPc, _) => vec![SDst(2)],
        (Sig::SetPc, _) => vec![SSrc(0, 2)],
        (Sig::Sopc | Sig::Split, _) => vec![SSrc(0, 1), SSrc(1, 1)],
        (Sig::Tile, _) => vec![SSrc(0, 4)],
        (Sig::SoppNone, _) => vec![],
        (Sig::SoppImm, _) => vec![Count16],
        (Sig::Branch, _) => vec![Label],
        (Sig::Waitcnt, _) => vec![Waitcnt],
        (Sig::Smem(w), _) => vec![SDst(w), SBase, SOffset],
        (Sig::Vop1, _) => vec![VDst(1), Src(0, 1)],
        (Sig::ReadLane, _) => vec![SgprDst, VReg(0, 1)],
        (Sig::Vop2, false) => vec![VDst(1), Src(0, 1), VReg(1, 1)],
        (Sig::Vop2, true) => vec![VDst(1), Src(0, 1), Src(1, 1)],
        (Sig::Carry, false) => vec![VDst(1), Vcc, Src(0, 1), VReg(1, 1)],
        (Sig::Carry, true) => vec![VDst(1), CarryOut, Src(0, 1), Src(1, 1)],
        (Sig::CarryIn, false) => vec![VDst(1), Vcc, Src(0, 1), VReg(1, 1), Vcc],
        (Sig::CarryIn, true) => vec![VDst(1), CarryOut, Src(0, 1), Src(1, 1), Src(2, 2)],
        (Sig::Cndmask, false) => vec![VDst(1), Src(0, 1), VReg(1, 1), Vcc],
        (Sig::Cndmask, true) => vec![VDst(1), Src(0, 1), Src(1, 1), Src(2, 2)],
        (Sig::Vopc, false) => vec![Vcc, Src(0, 1), VReg(1, 1)],
        (Sig::Vopc, true) => vec![CarryOut, Src(0, 1), Src(1, 1)],
        (Sig::Vopc64, false) => vec![Vcc, Src(0, 2), VReg(1, 2)],
        (Sig::Vopc64, true) => vec![CarryOut, Src(0, 2), Src(1, 2)],
        (Sig::MadU64, _) => vec![VDst(2), CarryOut, Src(0, 1), Src(1, 1), Src(2, 2)],
        (Sig::Vop3(d, a, b, c), _) => {
            let srcs = [a, b, c].into_iter().enumerate().filter(|(_, w)| *w > 0);
            std::iter::once(VDst(d))
                .chain(srcs.map(|(i, w)| Src(i, w)))
                .collect()
        }
        (Sig::FlatLoad(w), _) => vec![VDst(w), VReg(0, 2)],
        (Sig::FlatStore(w), _) => vec![VReg(0, 2), VReg(1, w)],
        (Sig::DsRead, _) => vec![VDst(1), VReg(0, 1)],
        (Sig::DsWrite, _) => vec![VReg(0, 1), VReg(1, 1)],
        (Sig::DsRead2, _) => vec![VDst(2), VReg(0, 1)],
        (Sig::DsWrite2, _) => vec![VReg(0, 1), VReg(1, 1), VReg(2, 1)],
    }
}

/// The instruction is encoded in the VOP3 layout (native VOP3 or an `_e64` form).
pub fn is_vop3(op: Op, e64: bool) -> bool {
    e64 || op.info().format == Format::Vop3
}

/// Why an instruction cannot be encoded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Invalid(pub String);

impl fmt::Display for Invalid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Invalid {}

fn invalid<T>(msg: impl Into<String>) -> Result<T, Invalid> {
    Err(Invalid(msg.into()))
}

impl Instruction {
    /// An instruction with no operand set (fill the roles its [`slots`] name).
    pub fn new(op: Op) -> Instruction {
        Instruction {
            op,
            e64: false,
            dst: None,
            sdst: None,
            src: [None; 3],
            imm: 0,
            mods: Modifiers::default(),
        }
    }

    /// The operand slots of this instruction's form.
    pub fn slots(&self) -> Vec<Slot> {
        slots(self.op, self.e64)
    }

    /// The instruction is in the VOP3 layout.
    pub fn is_vop3(&self) -> bool {
        is_vop3(self.op, self.e64)
    }

    /// Length of the encoding in dwords: 2 for the 64-bit formats and for a literal, else 1.
    pub fn dwords(&self) -> usize {
        let second = self.is_vop3() || self.op.info().format.is_64bit() || self.literal().is_some();
        1 + second as usize
    }

    /// Bit i set: source i is a VOP `Src` slot, the only kind that takes `abs`/`neg`.
    pub fn source_mask(&self) -> u8 {
        self.slots()
            .iter()
            .filter_map(|s| match s {
                Slot::Src(i, _) => Some(1u8 << i),
                _ => None,
            })
            .fold(0, |a, b| a | b)
    }

    /// The 32-bit literal the instruction carries, if any.
    pub fn literal(&self) -> Option<u32> {
        self.src.iter().find_map(|s| match s {
            Some(Operand::Literal(v)) => Some(*v),
            _ => None,
        })
    }

    /// Checks that every role holds an operand its slot accepts and unused roles are empty.
    pub fn validate(&self) -> Result<(), Invalid> {
        if self.e64 && !self.op.has_e64() {
            return invalid(format!("{} has no _e64 form", self.op.name()));
        }
        let mut used = Used::default();
        for slot in self.slots() {
            self.check_slot(slot, &mut used)?;
        }
        self.check_unused(&used)?;
        self.check_literals()?;
        self.check_split()?;
        self.check_tile()?;
        self.check_mods()
    }

    /// `split` operands must be mask sources (docs/assumptions.md#A2).
    fn check_split(&self) -> Result<(), Invalid> {
        if self.op != Op::Split {
            return Ok(());
        }
        for src in self.src.iter().flatten() {
            if !is_mask_source(*src) {
                return invalid(format!(
                    "{} cannot be a split mask source (use an SGPR, vcc_lo/hi, exec_lo/hi or \
                     an inline integer -16..=64)",
                    src.describe()
                ));
            }
        }
        Ok(())
    }

    /// A Sim-D tile descriptor is four SGPRs (docs/assumptions.md#A81).
    fn check_tile(&self) -> Result<(), Invalid> {
        match (self.op, self.src[0]) {
            (Op::TileLd | Op::TileSt, Some(src)) if !matches!(src, Operand::Sgpr(_)) => {
                invalid(format!(
                    "{} cannot be a tile descriptor (use s[n:n+3])",
                    src.describe()
                ))
            }
            _ => Ok(()),
        }
    }

    fn check_slot(&self, slot: Slot, used: &mut Used) -> Result<(), Invalid> {
        let need =
            |o: Option<Operand>, what: &str| o.ok_or_else(|| Invalid(format!("missing {what}")));
        match slot {
            Slot::SDst(w) => {
                used.dst = true;
                scalar_reg(need(self.dst, "destination")?, w)
            }
            Slot::SgprDst => {
                used.dst = true;
                scalar_reg(need(self.dst, "destination")?, 1)
            }
            Slot::VDst(w) => {
                used.dst = true;
                vgpr(need(self.dst, "destination")?, w)
            }
            Slot::CarryOut => {
                used.sdst = true;
                scalar_reg(need(self.sdst, "scalar destination")?, 2)
            }
            Slot::SSrc(i, w) => {
                used.src[i] = true;
                scalar_src(need(self.src[i], "source")?, w)
            }
            Slot::Src(i, w) => {
                used.src[i] = true;
                self.vector_src(need(self.src[i], "source")?, w)
            }
            Slot::VReg(i, w) => {
                used.src[i] = true;
                vgpr(need(self.src[i], "source")?, w)
            }
            Slot::SBase => {
                used.src[0] = true;
                scalar_reg(need(self.src[0], "base")?, 2)
            }
            Slot::SOffset => {
                used.src[1] = true;
                self.check_smem_offset()
            }
            Slot::Simm16 | Slot::Count16 | Slot::Label | Slot::Waitcnt => {
                used.imm = true;
                fits(self.imm, 16, "16-bit immediate")
            }
            Slot::Vcc => Ok(()),
        }
    }

    fn check_smem_offset(&self) -> Result<(), Invalid> {
        match self.src[1] {
            None => fits(self.imm, 20, "SMEM offset"),
            Some(reg) if self.imm == 0 => scalar_reg(reg, 1),
            Some(_) => invalid("SMEM takes an offset or an soffset register, not both"),
        }
    }

    fn vector_src(&self, op: Operand, w: u8) -> Result<(), Invalid> {
        match op {
            Operand::Vgpr(_) => vgpr(op, w),
            Operand::Literal(_) if self.is_vop3() => invalid("VOP3 has no literal on gfx8"),
            _ => scalar_src(op, w),
        }
    }

    fn check_unused(&self, used: &Used) -> Result<(), Invalid> {
        let ds = self.op.info().format == Format::Ds;
        let smem = self.op.info().format == Format::Smem;
        let extra = (!used.dst && self.dst.is_some())
            || (!used.sdst && self.sdst.is_some())
            || (0..3).any(|i| !used.src[i] && self.src[i].is_some())
            || (!used.imm && !ds && !smem && self.imm != 0);
        if extra {
            return invalid(format!("operand not used by {}", self.op.name()));
        }
        if ds {
            return fits(self.imm, 16, "DS offset");
        }
        Ok(())
    }

    fn check_literals(&self) -> Result<(), Invalid> {
        let lit = self.literal();
        let all_same = self.src.iter().all(|s| match s {
            Some(Operand::Literal(v)) => Some(*v) == lit,
            _ => true,
        });
        if all_same {
            Ok(())
        } else {
            invalid("only one literal operand is allowed")
        }
    }

    fn check_mods(&self) -> Result<(), Invalid> {
        let m = self.mods;
        let set = self.op.info().mods;
        let vop3 = self.is_vop3();
        let format = self.op.info().format;
        let ok = (m.abs | m.neg) & !self.source_mask() == 0
            && ((m.abs == 0 && m.neg == 0) || (vop3 && set.source && !self.op.is_vop3b()))
            && (!m.clamp || (vop3 && set.clamp))
            && (m.omod == 0 || (vop3 && set.omod))
            && m.abs < 8
            && m.neg < 8
            && m.omod < 4
            && (!m.glc || matches!(format, Format::Smem | Format::Flat))
            && (!m.slc || format == Format::Flat)
            && (!m.gds || format == Format::Ds);
        if ok {
            Ok(())
        } else {
            invalid(format!("modifier not accepted by {}", self.op.name()))
        }
    }
}

/// Which roles the slots of an instruction use.
#[derive(Default)]
struct Used {
    dst: bool,
    sdst: bool,
    src: [bool; 3],
    imm: bool,
}

fn fits(v: u32, bits: u32, what: &str) -> Result<(), Invalid> {
    if v >> bits == 0 {
        Ok(())
    } else {
        invalid(format!("{what} {v:#x} does not fit in {bits} bits"))
    }
}

/// A scalar register (range) of `w` dwords, aligned as gfx8 requires.
pub fn scalar_reg(op: Operand, w: u8) -> Result<(), Invalid> {
    match op {
        Operand::Sgpr(n) => {
            let align = if w >= 4 { 4 } else { w.max(1) };
            if n as u16 + w as u16 > SGPR_COUNT {
                invalid(format!("s{n} + {w} dwords is past s101"))
            } else if n % align != 0 {
                invalid(format!("s{n} is not aligned to {align} dwords"))
            } else {
                Ok(())
            }
        }
        Operand::Special(c)
            if c < 128 && (w == 1 || (w == 2 && special_has_pair(c) && c % 2 == 0)) =>
        {
            Ok(())
        }
        other => invalid(format!(
            "{} is not a {w}-dword scalar register",
            other.describe()
        )),
    }
}

/// A scalar source: scalar register, constant, or one of the special sources (`src_scc`, ...).
fn scalar_src(op: Operand, w: u8) -> Result<(), Invalid> {
    match op {
        Operand::Int(v) if !(-16..=64).contains(&v) => {
            invalid(format!("{v} is not an inline constant"))
        }
        Operand::Int(_) | Operand::Float(_) | Operand::Literal(_) => Ok(()),
        Operand::Special(c) if c >= 128 && w == 1 => Ok(()),
        Operand::Vgpr(_) => invalid("a VGPR is not a scalar source"),
        _ => scalar_reg(op, w),
    }
}

/// A VGPR range of `w` dwords.
fn vgpr(op: Operand, w: u8) -> Result<(), Invalid> {
    match op {
        Operand::Vgpr(n) if n as u16 + w as u16 <= 256 => Ok(()),
        Operand::Vgpr(n) => invalid(format!(
            "v{n} + {w} dwords is past v255 (VGPRs are v0..v255)"
        )),
        other => invalid(format!(
            "{} is not a {w}-dword VGPR range",
            other.describe()
        )),
    }
}

/// The operand may supply `split` mask bits: SGPRs, vcc_lo/hi, exec_lo/hi, inline integers.
pub fn is_mask_source(op: Operand) -> bool {
    match op {
        Operand::Sgpr(_) | Operand::Int(_) => true,
        Operand::Special(c) => matches!(c, 106 | 107 | 126 | 127),
        _ => false,
    }
}
