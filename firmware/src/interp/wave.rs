//! The architectural state of one wavefront and how operands read and write it.

use super::error::Trap;
use crate::isa::Operand;
use crate::launch::WAVE;

/// Lanes per wavefront, as a `usize`.
pub(crate) const LANES: usize = WAVE as usize;
/// Scalar register codes that hold state: s0..s101 and the special registers 102..=127.
const SCALAR_CODES: usize = 128;
/// Operand code of `vcc_lo`.
pub(crate) const VCC: u8 = 106;
/// Operand code of `exec_lo`.
pub(crate) const EXEC: u8 = 126;
/// Operand code of `m0`.
pub(crate) const M0: u8 = 124;

/// One wavefront: scalar registers (indexed by operand code, so VCC, EXEC, M0 and the other
/// special registers live beside the SGPRs), SCC, the PC and 256 VGPRs of 64 lanes.
pub(crate) struct Wave {
    /// Scalar registers by operand code 0..=127.
    pub s: [u32; SCALAR_CODES],
    /// Scalar condition code.
    pub scc: bool,
    /// Byte address of the next instruction.
    pub pc: u64,
    /// VGPR `r`, lane `l` is `v[r * 64 + l]`.
    pub v: Vec<u32>,
}

/// A vector-instruction source resolved once per instruction: a VGPR (read per lane) or a
/// value that is the same in every lane.
#[derive(Clone, Copy, Debug)]
pub(crate) enum VSrc {
    /// VGPR number.
    Reg(u8),
    /// A scalar register or constant.
    Uniform(u32),
}

impl Wave {
    /// A wavefront with every register zero, PC `pc`.
    pub fn new(pc: u64) -> Wave {
        Wave {
            s: [0; SCALAR_CODES],
            scc: false,
            pc,
            v: vec![0; 256 * LANES],
        }
    }

    /// The 64-bit value of the register pair starting at operand code `code`.
    pub fn pair(&self, code: u8) -> u64 {
        let c = code as usize;
        u64::from(self.s[c]) | u64::from(self.s[(c + 1) % SCALAR_CODES]) << 32
    }

    /// Writes the register pair starting at operand code `code`.
    pub fn set_pair(&mut self, code: u8, value: u64) {
        let c = code as usize;
        self.s[c] = value as u32;
        self.s[(c + 1) % SCALAR_CODES] = (value >> 32) as u32;
    }

    /// EXEC.
    pub fn exec(&self) -> u64 {
        self.pair(EXEC)
    }

    /// VCC.
    pub fn vcc(&self) -> u64 {
        self.pair(VCC)
    }

    /// VGPR `reg`, lane `lane`.
    pub fn vgpr(&self, reg: u32, lane: usize) -> u32 {
        self.v[(reg as usize % 256) * LANES + lane]
    }

    /// Writes VGPR `reg`, lane `lane`.
    pub fn set_vgpr(&mut self, reg: u32, lane: usize, value: u32) {
        self.v[(reg as usize % 256) * LANES + lane] = value;
    }

    /// A 32-bit scalar source: register, special source or constant (float inline constants
    /// are their single-precision bit patterns).
    pub fn read(&self, op: Operand) -> Result<u32, Trap> {
        match op {
            Operand::Sgpr(n) => Ok(self.s[n as usize]),
            Operand::Special(c) if (c as usize) < SCALAR_CODES => Ok(self.s[c as usize]),
            Operand::Special(251) => Ok((self.vcc() == 0) as u32),
            Operand::Special(252) => Ok((self.exec() == 0) as u32),
            Operand::Special(253) => Ok(self.scc as u32),
            Operand::Int(v) => Ok(v as i32 as u32),
            Operand::Float(f) => Ok(f.f32_bits()),
            Operand::Literal(v) => Ok(v),
            Operand::Special(_) | Operand::Vgpr(_) => Err(Trap::Illegal),
        }
    }

    /// A 64-bit scalar source: a register pair, or a constant: integers sign-extended, float
    /// inline constants as double-precision bit patterns, literals zero-extended.
    pub fn read64(&self, op: Operand) -> Result<u64, Trap> {
        match op {
            Operand::Sgpr(n) => Ok(self.pair(n)),
            Operand::Special(c) if (c as usize) < SCALAR_CODES => Ok(self.pair(c)),
            Operand::Int(v) => Ok(v as i64 as u64),
            Operand::Float(f) => Ok(f64::from(f32::from_bits(f.f32_bits())).to_bits()),
            Operand::Literal(v) => Ok(u64::from(v)),
            other => self.read(other).map(u64::from),
        }
    }

    /// Writes a 32-bit scalar destination.
    pub fn write(&mut self, op: Operand, value: u32) -> Result<(), Trap> {
        match op {
            Operand::Sgpr(n) => self.s[n as usize] = value,
            Operand::Special(c) if (c as usize) < SCALAR_CODES => self.s[c as usize] = value,
            _ => return Err(Trap::Illegal),
        }
        Ok(())
    }

    /// Writes a 64-bit scalar destination (a register pair).
    pub fn write64(&mut self, op: Operand, value: u64) -> Result<(), Trap> {
        match op {
            Operand::Sgpr(n) => self.set_pair(n, value),
            Operand::Special(c) if (c as usize) < SCALAR_CODES => self.set_pair(c, value),
            _ => return Err(Trap::Illegal),
        }
        Ok(())
    }

    /// Resolves a 32-bit vector-instruction source.
    pub fn vsrc(&self, op: Option<Operand>) -> Result<VSrc, Trap> {
        match op.ok_or(Trap::Illegal)? {
            Operand::Vgpr(r) => Ok(VSrc::Reg(r)),
            other => self.read(other).map(VSrc::Uniform),
        }
    }

    /// The value of a resolved source in `lane`.
    pub fn lane(&self, src: VSrc, lane: usize) -> u32 {
        match src {
            VSrc::Reg(r) => self.vgpr(u32::from(r), lane),
            VSrc::Uniform(v) => v,
        }
    }

    /// A 64-bit vector-instruction source in `lane` (a VGPR pair or a 64-bit scalar source).
    pub fn lane64(&self, op: Operand, lane: usize) -> Result<u64, Trap> {
        match op {
            Operand::Vgpr(r) => {
                let r = u32::from(r);
                Ok(u64::from(self.vgpr(r, lane)) | u64::from(self.vgpr(r + 1, lane)) << 32)
            }
            other => self.read64(other),
        }
    }
}

/// The VGPR number of a vector destination or VGPR-only operand.
pub(crate) fn vreg(op: Option<Operand>) -> Result<u32, Trap> {
    match op {
        Some(Operand::Vgpr(r)) => Ok(u32::from(r)),
        _ => Err(Trap::Illegal),
    }
}

/// The lanes of a 64-bit mask, lowest first.
pub(crate) fn lanes(mask: u64) -> impl Iterator<Item = usize> {
    (0..LANES).filter(move |&l| mask >> l & 1 == 1)
}
