//! Random *representable* instructions: every opcode and encoding, operands drawn from the
//! whole legal space of each slot (registers, specials, inline constants, literals) and the
//! modifiers the opcode accepts.
#![allow(dead_code)]

use rand::seq::SliceRandom;
use rand::Rng;
use rtgpu_firmware::isa::{
    is_mask_source, Format, Instruction, Op, Operand, Slot, ALL_OPS, INLINE_FLOATS,
};

/// Special scalar registers usable as 1-dword operands.
const SPECIALS_1: [u8; 22] = [
    102, 103, 104, 105, 106, 107, 108, 109, 110, 111, 112, 113, 114, 115, 116, 117, 118, 119, 120,
    121, 124, 126,
];
/// Special registers that start a 2-dword register.
const SPECIALS_2: [u8; 11] = [102, 104, 106, 108, 110, 112, 114, 116, 118, 120, 126];

/// A scalar register of `w` dwords, aligned as gfx8 requires.
pub fn scalar_reg(rng: &mut impl Rng, w: u8) -> Operand {
    let align = if w >= 4 { 4 } else { w };
    if w <= 2 && rng.gen_bool(0.3) {
        let pool: &[u8] = if w == 1 { &SPECIALS_1 } else { &SPECIALS_2 };
        return Operand::Special(*pool.choose(rng).unwrap());
    }
    let slots = (102 - w as u16) / align as u16 + 1;
    Operand::Sgpr((rng.gen_range(0..slots) * align as u16) as u8)
}

/// A constant: inline integer, inline float or the instruction's literal.
fn constant(rng: &mut impl Rng, literal: u32, allow_literal: bool) -> Operand {
    match rng.gen_range(0..3) {
        0 => Operand::Int(rng.gen_range(-16..=64)),
        1 => Operand::Float(*INLINE_FLOATS.choose(rng).unwrap()),
        _ if allow_literal => Operand::Literal(literal),
        _ => Operand::Int(rng.gen_range(-16..=64)),
    }
}

/// A scalar source: register, special source (`src_scc`, ...) or constant.
fn scalar_src(rng: &mut impl Rng, w: u8, literal: u32, allow_literal: bool) -> Operand {
    match rng.gen_range(0..4) {
        0 | 1 => scalar_reg(rng, w),
        2 if w == 1 && rng.gen_bool(0.2) => Operand::Special(rng.gen_range(251..=254)),
        _ => constant(rng, literal, allow_literal),
    }
}

fn vgpr(rng: &mut impl Rng, w: u8) -> Operand {
    Operand::Vgpr(rng.gen_range(0..=(256 - w as u16)) as u8)
}

/// A random representable instruction.
pub fn instruction(rng: &mut impl Rng) -> Instruction {
    let op = *ALL_OPS.choose(rng).unwrap();
    let mut insn = Instruction::new(op);
    insn.e64 = op.has_e64() && rng.gen_bool(0.5);
    let literal: u32 = rng.gen();
    let vop3 = insn.is_vop3();
    for slot in insn.slots() {
        fill(rng, &mut insn, slot, literal, !vop3);
    }
    if op == Op::Split {
        for src in insn.src.iter_mut().flatten() {
            while !is_mask_source(*src) {
                *src = scalar_src(rng, 1, literal, false);
            }
        }
    }
    if matches!(op, Op::TileLd | Op::TileSt) {
        insn.src[0] = Some(scalar_reg(rng, 4));
    }
    modifiers(rng, &mut insn);
    insn
}

fn fill(rng: &mut impl Rng, insn: &mut Instruction, slot: Slot, literal: u32, lit_ok: bool) {
    match slot {
        Slot::SDst(w) => insn.dst = Some(scalar_reg(rng, w)),
        Slot::SgprDst => insn.dst = Some(scalar_reg(rng, 1)),
        Slot::CarryOut => insn.sdst = Some(scalar_reg(rng, 2)),
        Slot::VDst(w) => insn.dst = Some(vgpr(rng, w)),
        Slot::VReg(i, w) => insn.src[i] = Some(vgpr(rng, w)),
        Slot::SSrc(i, w) => insn.src[i] = Some(scalar_src(rng, w, literal, lit_ok)),
        Slot::Src(i, w) if rng.gen_bool(0.4) => insn.src[i] = Some(vgpr(rng, w)),
        Slot::Src(i, w) => insn.src[i] = Some(scalar_src(rng, w, literal, lit_ok)),
        Slot::SBase => insn.src[0] = Some(scalar_reg(rng, 2)),
        Slot::SOffset if rng.gen_bool(0.5) => insn.imm = rng.gen_range(0..1 << 20),
        Slot::SOffset => insn.src[1] = Some(scalar_reg(rng, 1)),
        Slot::Simm16 | Slot::Count16 | Slot::Label | Slot::Waitcnt => {
            insn.imm = rng.gen_range(0..1 << 16)
        }
        Slot::Vcc => {}
    }
}

fn modifiers(rng: &mut impl Rng, insn: &mut Instruction) {
    let info = insn.op.info();
    let sources = insn.source_mask();
    let m = &mut insn.mods;
    if insn.e64 || info.format == Format::Vop3 {
        if info.mods.source && !insn.op.is_vop3b() {
            m.abs = rng.gen::<u8>() & sources;
            m.neg = rng.gen::<u8>() & sources;
        }
        m.clamp = info.mods.clamp && rng.gen();
        m.omod = if info.mods.omod {
            rng.gen_range(0..4)
        } else {
            0
        };
    }
    match info.format {
        Format::Smem => m.glc = rng.gen(),
        Format::Flat => (m.glc, m.slc) = (rng.gen(), rng.gen()),
        Format::Ds => {
            m.gds = rng.gen();
            insn.imm = rng.gen_range(0..1 << 16);
        }
        _ => {}
    }
}
