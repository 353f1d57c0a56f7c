//! Instruction → machine words (gfx8 layouts, see [`Format`]).

use super::instruction::{Instruction, Invalid};
use super::opcode::Format;
use super::operand::Operand;

/// The code of an optional operand (0 when absent).
fn code(op: Option<Operand>) -> u32 {
    op.map_or(0, |o| o.code() as u32)
}

/// The 8-bit code of a VGPR-only field (`vsrc1`, FLAT/DS registers).
fn vreg(op: Option<Operand>) -> u32 {
    code(op) & 0xff
}

impl Instruction {
    /// Encodes the instruction: one or two dwords (64-bit formats, or a 32-bit literal).
    pub fn encode(&self) -> Result<Vec<u32>, Invalid> {
        self.validate()?;
        let mut words = if self.is_vop3() {
            self.encode_vop3()
        } else {
            self.encode_native()
        };
        if let Some(lit) = self.literal() {
            words.push(lit);
        }
        Ok(words)
    }

    fn encode_native(&self) -> Vec<u32> {
        let op = self.op.info().code as u32;
        let [s0, s1, s2] = self.src.map(code);
        let dst = code(self.dst);
        let imm = self.imm;
        match self.op.info().format {
            Format::Sop2 => vec![0b10 << 30 | op << 23 | dst << 16 | s1 << 8 | s0],
            Format::Sopk => vec![0b1011 << 28 | op << 23 | dst << 16 | imm],
            Format::Sop1 => vec![0x17D << 23 | dst << 16 | op << 8 | s0],
            Format::Sopc => vec![0x17E << 23 | op << 16 | s1 << 8 | s0],
            Format::Sopp => vec![0x17F << 23 | op << 16 | imm],
            Format::Smem => self.encode_smem(op),
            Format::Vop1 => vec![0x3F << 25 | (dst & 0xff) << 17 | op << 9 | s0],
            Format::Vop2 => vec![op << 25 | (dst & 0xff) << 17 | (s1 & 0xff) << 9 | s0],
            Format::Vopc => vec![0x3E << 25 | op << 17 | (s1 & 0xff) << 9 | s0],
            Format::Flat => self.encode_flat(op),
            Format::Ds => {
                let m = self.mods;
                let w1 = (code(self.dst) & 0xff) << 24 | (s2 & 0xff) << 16 | (s1 & 0xff) << 8;
                vec![
                    0b110110 << 26 | op << 17 | (m.gds as u32) << 16 | imm,
                    w1 | (s0 & 0xff),
                ]
            }
            Format::Vop3 => unreachable!("VOP3 opcodes take the VOP3 path"),
        }
    }

    fn encode_smem(&self, op: u32) -> Vec<u32> {
        let sbase = code(self.src[0]) >> 1;
        let (imm_bit, second) = match self.src[1] {
            None => (1, self.imm),
            Some(reg) => (0, reg.code() as u32),
        };
        let glc = self.mods.glc as u32;
        vec![
            0b110000 << 26 | op << 18 | imm_bit << 17 | glc << 16 | code(self.dst) << 6 | sbase,
            second,
        ]
    }

    fn encode_flat(&self, op: u32) -> Vec<u32> {
        let m = self.mods;
        vec![
            0b110111 << 26 | op << 18 | (m.slc as u32) << 17 | (m.glc as u32) << 16,
            vreg(self.dst) << 24 | vreg(self.src[1]) << 8 | vreg(self.src[0]),
        ]
    }

    fn encode_vop3(&self) -> Vec<u32> {
        let op = self.op.vop3_code().expect("validated: has a VOP3 form") as u32;
        let m = self.mods;
        // VOPC e64 writes its mask through the vdst field; VOP3b has sdst in [14:8].
        let (vdst, mid) = if self.op.is_vop3b() {
            (code(self.dst) & 0xff, code(self.sdst))
        } else if self.op.info().format == Format::Vopc {
            (code(self.sdst), m.abs as u32)
        } else {
            (code(self.dst) & 0xff, m.abs as u32)
        };
        let [s0, s1, s2] = self.src.map(code);
        vec![
            0b110100 << 26 | op << 16 | (m.clamp as u32) << 15 | mid << 8 | vdst,
            (m.neg as u32) << 29 | (m.omod as u32) << 27 | s2 << 18 | s1 << 9 | s0,
        ]
    }
}
