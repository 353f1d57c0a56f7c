//! A context's scalar state (SGPRs, VCC, EXEC, M0, SCC) and the operand codes that name it.

/// SGPRs s0..s101.
pub const SGPRS: usize = 102;
/// Lanes per wavefront.
pub const LANES: usize = 64;

/// Operand codes (GCN3 / gfx8) the compute unit understands.
pub mod code {
    /// VCC_LO (VCC_HI is 107).
    pub const VCC_LO: u16 = 106;
    /// M0.
    pub const M0: u16 = 124;
    /// EXEC_LO (EXEC_HI is 127).
    pub const EXEC_LO: u16 = 126;
    /// Integer inline constant 0 (129..=192 are 1..=64, 193..=208 are −1..=−16).
    pub const ZERO: u16 = 128;
    /// First float inline constant (0.5, −0.5, 1, −1, 2, −2, 4, −4, 1/(2π)).
    pub const FLOAT_FIRST: u16 = 240;
    /// VCCZ.
    pub const VCCZ: u16 = 251;
    /// EXECZ.
    pub const EXECZ: u16 = 252;
    /// SCC.
    pub const SCC: u16 = 253;
    /// A 32-bit literal follows the instruction.
    pub const LITERAL: u16 = 255;
    /// First VGPR (v0) of a 9-bit source.
    pub const VGPR0: u16 = 256;
}

/// The f32 bit patterns of the float inline constants, codes 240..=248.
const INLINE_FLOATS: [u32; 9] = [
    0x3F00_0000,
    0xBF00_0000,
    0x3F80_0000,
    0xBF80_0000,
    0x4000_0000,
    0xC000_0000,
    0x4080_0000,
    0xC080_0000,
    0x3E22_F983,
];

/// The scalar state of one context (in declaration order: EXEC, read for every context every
/// cycle, before the SGPR array).
#[derive(Clone, Debug, PartialEq, Eq)]
#[repr(C)]
pub struct Sregs {
    /// EXEC.
    pub exec: u64,
    /// VCC (bit l = lane l).
    pub vcc: u64,
    /// M0.
    pub m0: u32,
    /// SCC.
    pub scc: bool,
    /// s0..s101.
    pub s: [u32; SGPRS],
}

impl Default for Sregs {
    fn default() -> Self {
        Self {
            s: [0; SGPRS],
            vcc: 0,
            exec: 0,
            m0: u32::MAX,
            scc: false,
        }
    }
}

/// An operand code the instruction may not use there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BadOperand(pub u16);

impl Sregs {
    /// The 32-bit value of a scalar source `code` (constants included; `literal` for 255).
    /// VGPR codes are not scalar sources.
    pub fn read(&self, code: u16, literal: u32) -> Result<u32, BadOperand> {
        Ok(match code {
            0..=101 => self.s[code as usize],
            106 => self.vcc as u32,
            107 => (self.vcc >> 32) as u32,
            code::M0 => self.m0,
            126 => self.exec as u32,
            127 => (self.exec >> 32) as u32,
            128..=208 => inline_int(code) as u32,
            240..=248 => INLINE_FLOATS[(code - code::FLOAT_FIRST) as usize],
            code::VCCZ => u32::from(self.vcc == 0),
            code::EXECZ => u32::from(self.exec == 0),
            code::SCC => u32::from(self.scc),
            code::LITERAL => literal,
            _ => return Err(BadOperand(code)),
        })
    }

    /// The 64-bit value of a scalar pair source: an SGPR pair, VCC, EXEC, or a constant
    /// (integer constants sign-extend, float constants are the double of the same value, a
    /// literal zero-extends).
    pub fn read64(&self, code: u16, literal: u32) -> Result<u64, BadOperand> {
        Ok(match code {
            0..=100 => {
                u64::from(self.s[code as usize]) | u64::from(self.s[code as usize + 1]) << 32
            }
            106 => self.vcc,
            126 => self.exec,
            128..=208 => inline_int(code) as u64,
            240..=247 => f64::from(f32::from_bits(self.read(code, literal)?)).to_bits(),
            248 => (0.5 / std::f64::consts::PI).to_bits(),
            code::LITERAL => u64::from(literal),
            _ => return Err(BadOperand(code)),
        })
    }

    /// Writes a 32-bit scalar destination.
    pub fn write(&mut self, code: u16, v: u32) -> Result<(), BadOperand> {
        match code {
            0..=101 => self.s[code as usize] = v,
            106 => self.vcc = self.vcc & !0xFFFF_FFFF | u64::from(v),
            107 => self.vcc = self.vcc & 0xFFFF_FFFF | u64::from(v) << 32,
            code::M0 => self.m0 = v,
            126 => self.exec = self.exec & !0xFFFF_FFFF | u64::from(v),
            127 => self.exec = self.exec & 0xFFFF_FFFF | u64::from(v) << 32,
            _ => return Err(BadOperand(code)),
        }
        Ok(())
    }

    /// Writes a 64-bit scalar destination (an SGPR pair, VCC or EXEC).
    pub fn write64(&mut self, code: u16, v: u64) -> Result<(), BadOperand> {
        match code {
            0..=100 => {
                self.s[code as usize] = v as u32;
                self.s[code as usize + 1] = (v >> 32) as u32;
            }
            106 => self.vcc = v,
            126 => self.exec = v,
            _ => return Err(BadOperand(code)),
        }
        Ok(())
    }
}

/// The value of an integer inline constant code 128..=208.
fn inline_int(code: u16) -> i64 {
    if code <= 192 {
        i64::from(code) - 128
    } else {
        192 - i64::from(code)
    }
}

/// The vector register file of one wavefront: 256 VGPRs × 64 lanes, shared by every context
/// the wavefront splits into (docs/assumptions.md#A4).
#[derive(Clone, Debug)]
pub struct Vrf {
    /// Lane values, register-major.
    data: Vec<u32>,
    /// One past the highest register written since the last clear (the rows a clear zeroes).
    rows: usize,
}

impl Default for Vrf {
    fn default() -> Self {
        Self {
            data: vec![0; 256 * LANES],
            rows: 0,
        }
    }
}

/// Two register files are equal when every register is (however they were written).
impl PartialEq for Vrf {
    fn eq(&self, other: &Self) -> bool {
        self.data == other.data
    }
}

impl Eq for Vrf {}

impl Vrf {
    /// VGPR `reg` of lane `lane`.
    pub fn get(&self, reg: usize, lane: usize) -> u32 {
        self.data[(reg & 0xFF) * LANES + lane]
    }

    /// Writes VGPR `reg` of lane `lane` (register numbers wrap at 256).
    pub fn set(&mut self, reg: usize, lane: usize, v: u32) {
        let reg = reg & 0xFF;
        self.rows = self.rows.max(reg + 1);
        self.data[reg * LANES + lane] = v;
    }

    /// VGPR `reg` of every lane.
    pub fn row(&self, reg: usize) -> &[u32; LANES] {
        let at = (reg & 0xFF) * LANES;
        self.data[at..at + LANES]
            .try_into()
            .expect("a row is LANES words")
    }

    /// VGPR `reg` of every lane, to write (register numbers wrap at 256).
    pub fn row_mut(&mut self, reg: usize) -> &mut [u32; LANES] {
        let reg = reg & 0xFF;
        self.rows = self.rows.max(reg + 1);
        let at = reg * LANES;
        (&mut self.data[at..at + LANES])
            .try_into()
            .expect("a row is LANES words")
    }

    /// Clears every register (zeroing only the rows written since the last clear: a
    /// wavefront's dispatch then costs what its kernel uses, not the whole file).
    pub fn clear(&mut self) {
        self.data[..self.rows * LANES].fill(0);
        self.rows = 0;
    }
}

/// Lanes set in `mask`, lowest first.
pub fn lanes(mask: u64) -> impl Iterator<Item = usize> {
    let mut m = mask;
    std::iter::from_fn(move || {
        (m != 0).then(|| {
            let l = m.trailing_zeros() as usize;
            m &= m - 1;
            l
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A clear zeroes every register written since the last one, the highest too, register
    /// numbers wrapping at 256. Catches `clear` zeroing one row fewer than were written
    /// (`(self.rows - 1) * LANES`) and `set` recording the unwrapped register number (a
    /// slice past the file).
    #[test]
    fn clear_zeroes_every_register_written() {
        let mut v = Vrf::default();
        v.set(3, 5, 7);
        v.set(256 + 255, 63, 9);
        assert_eq!(v.get(255, 63), 9);
        v.clear();
        assert_eq!(v, Vrf::default());
        v.set(0, 0, 1);
        v.clear();
        assert_eq!(v, Vrf::default());
    }
}
