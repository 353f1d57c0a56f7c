//! Operands: the 9-bit source codes of GCN3 (gfx8), register ranges and constants.
//!
//! A source field holds a *code*: 0..=101 SGPRs, 102..=127 special scalar registers,
//! 128..=208 the integer inline constants 0, 1..64, -1..-16, 240..=248 the float inline
//! constants, 251..=254 `src_vccz`, `src_execz`, `src_scc`, `src_lds_direct`, 255 "a 32-bit
//! literal follows", 256..=511 VGPRs. 8-bit scalar fields use the same codes below 256.

use std::fmt;

/// Number of SGPRs a gfx8 wavefront can name (s0..s101).
pub const SGPR_COUNT: u16 = 102;
/// The code meaning "a 32-bit literal dword follows the instruction".
pub const LITERAL_CODE: u16 = 255;

/// One operand of an instruction, independent of the field it is encoded in.
///
/// Registers name their first dword; how many dwords an operand spans is a property of the
/// instruction slot it sits in (e.g. `s[4:5]` is `Sgpr(4)` in a 64-bit slot).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Operand {
    /// Scalar register `sN`, N in 0..=101.
    Sgpr(u8),
    /// Vector register `vN`, N in 0..=255.
    Vgpr(u8),
    /// A special scalar register or source by its code (vcc_lo = 106, m0 = 124, ...).
    Special(u8),
    /// Integer inline constant, -16..=64.
    Int(i8),
    /// Float inline constant (codes 240..=248).
    Float(InlineFloat),
    /// A 32-bit literal (code 255; the dword after the instruction).
    Literal(u32),
}

/// The float inline constants of gfx8, in code order 240..=248.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum InlineFloat {
    /// 0.5 (code 240)
    Half,
    /// -0.5 (code 241)
    NegHalf,
    /// 1.0 (code 242)
    One,
    /// -1.0 (code 243)
    NegOne,
    /// 2.0 (code 244)
    Two,
    /// -2.0 (code 245)
    NegTwo,
    /// 4.0 (code 246)
    Four,
    /// -4.0 (code 247)
    NegFour,
    /// 1/(2π) (code 248)
    InvTwoPi,
}

/// Every inline float, in code order.
pub const INLINE_FLOATS: [InlineFloat; 9] = [
    InlineFloat::Half,
    InlineFloat::NegHalf,
    InlineFloat::One,
    InlineFloat::NegOne,
    InlineFloat::Two,
    InlineFloat::NegTwo,
    InlineFloat::Four,
    InlineFloat::NegFour,
    InlineFloat::InvTwoPi,
];

impl InlineFloat {
    /// The operand code, 240..=248.
    pub fn code(self) -> u16 {
        240 + self as u16
    }

    /// The IEEE single-precision bit pattern the constant stands for.
    pub fn f32_bits(self) -> u32 {
        [
            0x3f00_0000,
            0xbf00_0000,
            0x3f80_0000,
            0xbf80_0000,
            0x4000_0000,
            0xc000_0000,
            0x4080_0000,
            0xc080_0000,
            0x3e22_f983,
        ][self as usize]
    }

    /// LLVM's spelling of the constant.
    pub fn text(self) -> &'static str {
        [
            "0.5",
            "-0.5",
            "1.0",
            "-1.0",
            "2.0",
            "-2.0",
            "4.0",
            "-4.0",
            "0.15915494",
        ][self as usize]
    }

    /// The inline float with this single-precision bit pattern, if any.
    pub fn from_f32_bits(bits: u32) -> Option<InlineFloat> {
        INLINE_FLOATS.iter().copied().find(|f| f.f32_bits() == bits)
    }
}

/// Names of special scalar registers: (code, 1-dword name, 2-dword name if the code starts a
/// pair).
const SPECIALS: &[(u8, &str, Option<&str>)] = &[
    (102, "flat_scratch_lo", Some("flat_scratch")),
    (103, "flat_scratch_hi", None),
    (104, "xnack_mask_lo", Some("xnack_mask")),
    (105, "xnack_mask_hi", None),
    (106, "vcc_lo", Some("vcc")),
    (107, "vcc_hi", None),
    (108, "tba_lo", Some("tba")),
    (109, "tba_hi", None),
    (110, "tma_lo", Some("tma")),
    (111, "tma_hi", None),
    (124, "m0", None),
    (126, "exec_lo", Some("exec")),
    (127, "exec_hi", None),
    (251, "src_vccz", None),
    (252, "src_execz", None),
    (253, "src_scc", None),
    (254, "src_lds_direct", None),
];

/// Alternative spellings LLVM accepts for special sources.
const SPECIAL_ALIASES: &[(&str, u8)] = &[
    ("vccz", 251),
    ("execz", 252),
    ("scc", 253),
    ("lds_direct", 254),
];

/// First and last code of the trap temporaries ttmp0..ttmp11.
const TTMP_FIRST: u8 = 112;
const TTMP_LAST: u8 = 123;

/// The special register with this code exists on gfx8.
pub fn is_special_code(code: u8) -> bool {
    (TTMP_FIRST..=TTMP_LAST).contains(&code) || SPECIALS.iter().any(|s| s.0 == code)
}

/// Looks up a special register or trap temporary by name; returns (code, dwords).
pub fn special_by_name(name: &str) -> Option<(u8, u8)> {
    if let Some(s) = SPECIALS.iter().find(|s| s.1 == name) {
        return Some((s.0, 1));
    }
    if let Some(s) = SPECIALS.iter().find(|s| s.2 == Some(name)) {
        return Some((s.0, 2));
    }
    if let Some(a) = SPECIAL_ALIASES.iter().find(|a| a.0 == name) {
        return Some((a.1, 1));
    }
    let n: u8 = name.strip_prefix("ttmp")?.parse().ok()?;
    (n <= TTMP_LAST - TTMP_FIRST).then_some((TTMP_FIRST + n, 1))
}

/// Why a code cannot be turned into an operand.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadCode(pub u16);

impl Operand {
    /// The operand's 9-bit code (VGPRs are 256 + N).
    pub fn code(self) -> u16 {
        match self {
            Operand::Sgpr(n) | Operand::Special(n) => n as u16,
            Operand::Vgpr(n) => 256 + n as u16,
            Operand::Int(v) if v >= 0 => 128 + v as u16,
            Operand::Int(v) => 192 + (-(v as i16)) as u16,
            Operand::Float(f) => f.code(),
            Operand::Literal(_) => LITERAL_CODE,
        }
    }

    /// The operand for a 9-bit code; `literal` is the dword that follows the instruction.
    pub fn from_code(code: u16, literal: Option<u32>) -> Result<Operand, BadCode> {
        let op = match code {
            0..=101 => Operand::Sgpr(code as u8),
            128..=192 => Operand::Int((code - 128) as i8),
            193..=208 => Operand::Int(-((code - 192) as i8)),
            240..=248 => Operand::Float(INLINE_FLOATS[(code - 240) as usize]),
            255 => Operand::Literal(literal.ok_or(BadCode(code))?),
            256..=511 => Operand::Vgpr((code - 256) as u8),
            c if c < 256 && is_special_code(c as u8) => Operand::Special(c as u8),
            _ => return Err(BadCode(code)),
        };
        Ok(op)
    }

    /// A scalar register (SGPR or special register), i.e. legal as a scalar destination.
    pub fn is_scalar_reg(self) -> bool {
        match self {
            Operand::Sgpr(_) => true,
            Operand::Special(c) => c < 128,
            _ => false,
        }
    }

    /// A constant (inline or literal).
    pub fn is_constant(self) -> bool {
        matches!(
            self,
            Operand::Int(_) | Operand::Float(_) | Operand::Literal(_)
        )
    }

    /// Displays the operand as a `dwords`-wide register range or constant.
    pub fn show(self, dwords: u8) -> Shown {
        Shown(self, dwords)
    }

    /// The operand as an error message names it: its assembly text and what kind of operand
    /// it is (`the literal 0x12345678`, `the VGPR v3`).
    pub fn describe(self) -> String {
        let text = self.show(1).to_string();
        match self {
            Operand::Sgpr(_) => format!("the SGPR {text}"),
            Operand::Vgpr(_) => format!("the VGPR {text}"),
            Operand::Special(c) if c >= 128 => format!("the special source {text}"),
            Operand::Special(_) => format!("the special register {text}"),
            Operand::Int(_) | Operand::Float(_) => format!("the inline constant {text}"),
            Operand::Literal(_) => format!("the literal {text}"),
        }
    }
}

/// An operand with its width, ready for printing in LLVM's syntax.
pub struct Shown(Operand, u8);

impl fmt::Display for Shown {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Shown(op, w) = *self;
        match op {
            Operand::Sgpr(n) => range(f, "s", n, w),
            Operand::Vgpr(n) => range(f, "v", n, w),
            Operand::Special(c) if (TTMP_FIRST..=TTMP_LAST).contains(&c) => {
                range(f, "ttmp", c - TTMP_FIRST, w)
            }
            Operand::Special(c) => f.write_str(special_name(c, w)),
            Operand::Int(v) => write!(f, "{v}"),
            Operand::Float(x) => f.write_str(x.text()),
            Operand::Literal(v) => write!(f, "0x{v:x}"),
        }
    }
}

/// `s5` or `s[4:5]`.
fn range(f: &mut fmt::Formatter<'_>, prefix: &str, first: u8, dwords: u8) -> fmt::Result {
    if dwords <= 1 {
        write!(f, "{prefix}{first}")
    } else {
        let last = first as u16 + dwords as u16 - 1;
        write!(f, "{prefix}[{first}:{last}]")
    }
}

/// The name of a special register code at a given width (falls back to the 1-dword name).
fn special_name(code: u8, dwords: u8) -> &'static str {
    let s = SPECIALS
        .iter()
        .find(|s| s.0 == code)
        .expect("special codes are validated on construction");
    match (dwords, s.2) {
        (2, Some(pair)) => pair,
        _ => s.1,
    }
}

/// The special register code starts a 2-dword register with its own name (vcc, exec, ...),
/// or is a trap temporary.
pub fn special_has_pair(code: u8) -> bool {
    (TTMP_FIRST..=TTMP_LAST).contains(&code)
        || SPECIALS.iter().any(|s| s.0 == code && s.2.is_some())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_code_round_trips() {
        for code in 0..512u16 {
            if let Ok(op) = Operand::from_code(code, Some(7)) {
                assert_eq!(op.code(), code, "{op:?}");
            }
        }
    }

    #[test]
    fn names() {
        assert_eq!(Operand::Special(106).show(2).to_string(), "vcc");
        assert_eq!(Operand::Special(106).show(1).to_string(), "vcc_lo");
        assert_eq!(Operand::Special(116).show(2).to_string(), "ttmp[4:5]");
        assert_eq!(Operand::Sgpr(4).show(4).to_string(), "s[4:7]");
        assert_eq!(Operand::Int(-16).code(), 208);
        assert_eq!(special_by_name("exec"), Some((126, 2)));
        assert_eq!(special_by_name("ttmp11"), Some((123, 1)));
        assert_eq!(special_by_name("ttmp12"), None);
    }
}
