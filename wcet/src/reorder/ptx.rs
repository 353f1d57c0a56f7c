//! A parser for the PTX subset of the reordering paper's example and a little
//! more, enough to write loops and barriers.
//!
//! # Accepted text
//!
//! - Module directives before the kernel: `.version`, `.target`, `.address_size`, `.visible`.
//! - One kernel: `.entry NAME ( .param .TYPE NAME, ... ) { body }`, optionally followed by
//!   `.maxntid`, `.reqntid`, `.minnctapersm` or `.maxnreg` (ignored).
//! - In the body: `.reg .TYPE %a, %r<N>;` declarations (`%r<N>` declares `%r0` … `%r{N-1}`),
//!   `.shared [.align A] .TYPE name[N];` declarations (the symbol's value is its byte offset in
//!   the block's shared window), labels `name:`, and instructions `[@%p | @!%p] opcode operands;`.
//! - Comments `// …` and `/* … */`.
//!
//! # Instructions
//!
//! `ld.param`, `ld.global`, `ld.shared`, `st.global`, `st.shared` (cache operators such as
//! `.ca`/`.cg`/`.wb` ignored; addresses `[reg]`, `[reg+imm]`, `[reg-imm]`, `[imm]`), `mov`,
//! `cvt` (rounding modifiers ignored), `cvta` (an identity: the model has one flat address space),
//! `add sub mul(.lo) div rem min max and or xor shl shr not`, `mul.wide`, `mad.lo`, `mad.wide`,
//! `setp.{eq,ne,lt,le,gt,ge,lo,ls,hi,hs}`, `bra[.uni]`, `bar.sync 0`, `exit`, `ret`.
//! Special registers: `%tid`, `%ntid`, `%ctaid`, `%nctaid` with `.x/.y/.z`.
//! Anything else is an error naming the line.
//!
//! # PCs
//!
//! Every instruction takes one slot; labels and declarations take none. The PC of the
//! instruction with index `i` is `8 · i` ([`pc_of`]), as the paper's example implies: in the
//! paper's example `ld.global` is the 9th instruction (PC 64) and `st.global` the 11th (PC 80).

use std::collections::HashMap;
use std::fmt;

use serde::{Deserialize, Serialize};

/// Bytes per PTX instruction slot: the PC of instruction `i` is `PC_STEP · i`.
pub const PC_STEP: u32 = 8;

/// The PC of the instruction with index `index` (`8 · index`); `None` if it does not fit 32 bits.
pub fn pc_of(index: usize) -> Option<u32> {
    u32::try_from(index).ok()?.checked_mul(PC_STEP)
}

/// A PTX scalar type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Ty {
    /// `.b8`
    B8,
    /// `.b16`
    B16,
    /// `.b32`
    B32,
    /// `.b64`
    B64,
    /// `.u8`
    U8,
    /// `.u16`
    U16,
    /// `.u32`
    U32,
    /// `.u64`
    U64,
    /// `.s8`
    S8,
    /// `.s16`
    S16,
    /// `.s32`
    S32,
    /// `.s64`
    S64,
    /// `.f16`
    F16,
    /// `.f32`
    F32,
    /// `.f64`
    F64,
    /// `.pred`
    Pred,
}

impl Ty {
    /// The type named by `s` (without the leading dot), if any.
    pub fn parse(s: &str) -> Option<Ty> {
        Some(match s {
            "b8" => Ty::B8,
            "b16" => Ty::B16,
            "b32" => Ty::B32,
            "b64" => Ty::B64,
            "u8" => Ty::U8,
            "u16" => Ty::U16,
            "u32" => Ty::U32,
            "u64" => Ty::U64,
            "s8" => Ty::S8,
            "s16" => Ty::S16,
            "s32" => Ty::S32,
            "s64" => Ty::S64,
            "f16" => Ty::F16,
            "f32" => Ty::F32,
            "f64" => Ty::F64,
            "pred" => Ty::Pred,
            _ => return None,
        })
    }

    /// Width in bits (1 for `.pred`).
    pub fn bits(self) -> u32 {
        match self {
            Ty::Pred => 1,
            Ty::B8 | Ty::U8 | Ty::S8 => 8,
            Ty::B16 | Ty::U16 | Ty::S16 | Ty::F16 => 16,
            Ty::B32 | Ty::U32 | Ty::S32 | Ty::F32 => 32,
            Ty::B64 | Ty::U64 | Ty::S64 | Ty::F64 => 64,
        }
    }

    /// Size in bytes of a memory access of this type (1 for `.pred`).
    pub fn bytes(self) -> u32 {
        self.bits().div_ceil(8)
    }

    /// True for the signed integer types.
    pub fn is_signed(self) -> bool {
        matches!(self, Ty::S8 | Ty::S16 | Ty::S32 | Ty::S64)
    }

    /// True for the floating-point types.
    pub fn is_float(self) -> bool {
        matches!(self, Ty::F16 | Ty::F32 | Ty::F64)
    }
}

/// A special register's kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum SpecialKind {
    /// `%tid`: the thread's index in its block.
    Tid,
    /// `%ntid`: the block dimensions.
    Ntid,
    /// `%ctaid`: the block's index in the grid.
    Ctaid,
    /// `%nctaid`: the grid dimensions.
    Nctaid,
}

/// A special register: its kind and dimension (0 = x, 1 = y, 2 = z).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Special {
    /// Which register.
    pub kind: SpecialKind,
    /// 0 = `.x`, 1 = `.y`, 2 = `.z`.
    pub dim: usize,
}

/// A source operand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Operand {
    /// A declared register (index into [`Kernel::regs`]).
    Reg(usize),
    /// An immediate, as a 64-bit two's-complement bit pattern.
    Imm(u64),
    /// A special register.
    Special(Special),
}

/// A memory address `[base + offset]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Address {
    /// The base register, if any (index into [`Kernel::regs`]).
    pub base: Option<usize>,
    /// The byte offset added to the base (wrapping, 64-bit).
    pub offset: i64,
}

/// A memory state space with an L1 data-cache role.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Space {
    /// `.global`: goes through the L1D and the reordering unit.
    Global,
    /// `.shared`: no L1D access, ignored by the analysis.
    Shared,
}

/// A two-source integer (or bitwise) operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum BinOp {
    /// `add`
    Add,
    /// `sub`
    Sub,
    /// `mul` / `mul.lo`: the low half of the product.
    Mul,
    /// `div` (an error on a zero divisor).
    Div,
    /// `rem` (an error on a zero divisor).
    Rem,
    /// `min`
    Min,
    /// `max`
    Max,
    /// `and`
    And,
    /// `or`
    Or,
    /// `xor`
    Xor,
    /// `shl` (amounts ≥ the width give 0).
    Shl,
    /// `shr` (arithmetic for signed types; amounts ≥ the width give 0 or all sign bits).
    Shr,
}

/// A `setp` comparison.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Cmp {
    /// `eq`
    Eq,
    /// `ne`
    Ne,
    /// `lt` (and `lo`)
    Lt,
    /// `le` (and `ls`)
    Le,
    /// `gt` (and `hi`)
    Gt,
    /// `ge` (and `hs`)
    Ge,
}

/// A predicate guard `@%p` (`negate = false`) or `@!%p` (`negate = true`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Guard {
    /// The predicate register (index into [`Kernel::regs`]).
    pub pred: usize,
    /// True for `@!%p`.
    pub negate: bool,
}

/// An instruction's operation. Register fields are indices into [`Kernel::regs`].
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Op {
    /// `ld.param.TYPE dst, [param]`.
    LdParam {
        /// The loaded type (the value is truncated to its width).
        ty: Ty,
        /// Destination register.
        dst: usize,
        /// Index into [`Kernel::params`].
        param: usize,
    },
    /// `mov.TYPE dst, src` (also `cvta`).
    Mov {
        /// The type.
        ty: Ty,
        /// Destination register.
        dst: usize,
        /// Source.
        src: Operand,
    },
    /// `cvt.DTYPE.STYPE dst, src`.
    Cvt {
        /// Destination type.
        dty: Ty,
        /// Source type.
        sty: Ty,
        /// Destination register.
        dst: usize,
        /// Source.
        src: Operand,
    },
    /// `not.TYPE dst, src`.
    Not {
        /// The type.
        ty: Ty,
        /// Destination register.
        dst: usize,
        /// Source.
        src: Operand,
    },
    /// `OP.TYPE dst, a, b`.
    Bin {
        /// The operation.
        op: BinOp,
        /// The type.
        ty: Ty,
        /// Destination register.
        dst: usize,
        /// First source.
        a: Operand,
        /// Second source.
        b: Operand,
    },
    /// `mul.wide.TYPE dst, a, b`: the full product, twice the width of `ty`.
    MulWide {
        /// The source type (`s32`/`u32`/`s16`/`u16`).
        ty: Ty,
        /// Destination register.
        dst: usize,
        /// First source.
        a: Operand,
        /// Second source.
        b: Operand,
    },
    /// `mad.lo.TYPE dst, a, b, c` (`wide = false`) or `mad.wide.TYPE` (`wide = true`).
    Mad {
        /// `mad.wide`: the product is full width and `c` is twice the width of `ty`.
        wide: bool,
        /// The source type.
        ty: Ty,
        /// Destination register.
        dst: usize,
        /// First factor.
        a: Operand,
        /// Second factor.
        b: Operand,
        /// Addend.
        c: Operand,
    },
    /// `setp.CMP.TYPE dst, a, b`.
    Setp {
        /// The comparison.
        cmp: Cmp,
        /// The compared type.
        ty: Ty,
        /// Destination predicate register.
        dst: usize,
        /// First source.
        a: Operand,
        /// Second source.
        b: Operand,
    },
    /// `bra target` (index of the target instruction; `insts.len()` means the end = exit).
    Bra {
        /// Instruction index of the target label.
        target: usize,
    },
    /// `bar.sync 0`.
    Bar,
    /// `ld.SPACE.TYPE dst, [addr]`.
    Ld {
        /// Global or shared.
        space: Space,
        /// The loaded type.
        ty: Ty,
        /// Destination register.
        dst: usize,
        /// The address.
        addr: Address,
    },
    /// `st.SPACE.TYPE [addr], src`.
    St {
        /// Global or shared.
        space: Space,
        /// The stored type.
        ty: Ty,
        /// The address.
        addr: Address,
        /// The stored value (its value is irrelevant to the analysis).
        src: Operand,
    },
    /// `exit` or `ret`.
    Exit,
}

impl Op {
    /// True for `ld.global` and `st.global`: the instructions that access the L1D.
    pub fn is_global_ldst(&self) -> bool {
        matches!(
            self,
            Op::Ld {
                space: Space::Global,
                ..
            } | Op::St {
                space: Space::Global,
                ..
            }
        )
    }
}

/// One instruction with its source line (1-based) and optional guard.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Inst {
    /// The source line where the instruction starts (1-based).
    pub line: usize,
    /// The predicate guard, if any.
    pub guard: Option<Guard>,
    /// The operation.
    pub op: Op,
}

/// A kernel parameter.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Param {
    /// Its name.
    pub name: String,
    /// Its type.
    pub ty: Ty,
}

/// A declared register.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct RegDecl {
    /// Its name, with the `%`.
    pub name: String,
    /// Its type.
    pub ty: Ty,
}

/// A parsed kernel. Instruction `i` has PC `8 · i` ([`pc_of`]).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Kernel {
    /// The `.entry` name.
    pub name: String,
    /// The parameters in declaration order.
    pub params: Vec<Param>,
    /// The declared registers.
    pub regs: Vec<RegDecl>,
    /// The instructions in program order.
    pub insts: Vec<Inst>,
}

/// Why a PTX text was refused. Every variant names the 1-based source line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PtxError {
    /// Malformed text.
    Syntax {
        /// The line.
        line: usize,
        /// What is wrong.
        message: String,
    },
    /// An opcode outside the supported subset.
    UnknownInstruction {
        /// The line.
        line: usize,
        /// The opcode as written.
        opcode: String,
    },
    /// A `%name` that is neither declared by `.reg` nor a special register.
    UnknownRegister {
        /// The line.
        line: usize,
        /// The name.
        name: String,
    },
    /// A branch to a label that is not defined.
    UnknownLabel {
        /// The line.
        line: usize,
        /// The label.
        name: String,
    },
    /// `ld.param` of a name that is not a parameter.
    UnknownParam {
        /// The line.
        line: usize,
        /// The name.
        name: String,
    },
    /// A register, label, parameter or symbol defined twice.
    Duplicate {
        /// The line.
        line: usize,
        /// `"register"`, `"label"`, `"parameter"` or `"symbol"`.
        what: &'static str,
        /// The name.
        name: String,
    },
    /// A recognised PTX feature that the subset does not model.
    Unsupported {
        /// The line.
        line: usize,
        /// The feature.
        what: String,
    },
}

impl fmt::Display for PtxError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Syntax { line, message } => write!(f, "line {line}: {message}"),
            Self::UnknownInstruction { line, opcode } => {
                write!(f, "line {line}: unknown instruction `{opcode}`")
            }
            Self::UnknownRegister { line, name } => {
                write!(
                    f,
                    "line {line}: unknown register `{name}` (not declared by .reg)"
                )
            }
            Self::UnknownLabel { line, name } => write!(f, "line {line}: unknown label `{name}`"),
            Self::UnknownParam { line, name } => {
                write!(f, "line {line}: `{name}` is not a kernel parameter")
            }
            Self::Duplicate { line, what, name } => {
                write!(f, "line {line}: {what} `{name}` is defined twice")
            }
            Self::Unsupported { line, what } => {
                write!(f, "line {line}: unsupported PTX: {what}")
            }
        }
    }
}

impl std::error::Error for PtxError {}

fn syntax(line: usize, message: impl Into<String>) -> PtxError {
    PtxError::Syntax {
        line,
        message: message.into(),
    }
}

fn unsupported(line: usize, what: impl Into<String>) -> PtxError {
    PtxError::Unsupported {
        line,
        what: what.into(),
    }
}

/// A statement of the source: text between `;`, `{` and `}` (braces are their own pieces).
#[derive(Debug)]
struct Piece {
    line: usize,
    text: String,
}

/// Replaces comments by spaces, keeping the newlines (so line numbers stay right).
fn strip_comments(src: &str) -> String {
    let mut out = String::with_capacity(src.len());
    let mut chars = src.chars().peekable();
    while let Some(c) = chars.next() {
        match (c, chars.peek()) {
            ('/', Some('/')) => {
                for d in chars.by_ref() {
                    if d == '\n' {
                        out.push('\n');
                        break;
                    }
                }
            }
            ('/', Some('*')) => {
                chars.next();
                let mut prev = ' ';
                for d in chars.by_ref() {
                    if d == '\n' {
                        out.push('\n');
                    }
                    if prev == '*' && d == '/' {
                        break;
                    }
                    prev = d;
                }
                out.push(' ');
            }
            _ => out.push(c),
        }
    }
    out
}

/// Splits the source into pieces at `;`, `{` and `}`; each piece records the line of its first
/// non-blank character.
fn pieces(src: &str) -> Vec<Piece> {
    let mut out = Vec::new();
    let (mut line, mut cur, mut start) = (1usize, String::new(), None::<usize>);
    let flush = |cur: &mut String, start: &mut Option<usize>, out: &mut Vec<Piece>| {
        if let Some(l) = start.take() {
            out.push(Piece {
                line: l,
                text: cur.trim().to_string(),
            });
        }
        cur.clear();
    };
    for c in src.chars() {
        match c {
            ';' => flush(&mut cur, &mut start, &mut out),
            '{' | '}' => {
                flush(&mut cur, &mut start, &mut out);
                out.push(Piece {
                    line,
                    text: c.to_string(),
                });
            }
            _ => {
                if !c.is_whitespace() && start.is_none() {
                    start = Some(line);
                }
                cur.push(c);
            }
        }
        if c == '\n' {
            line += 1;
        }
    }
    flush(&mut cur, &mut start, &mut out);
    out
}

fn is_ident(s: &str) -> bool {
    let mut cs = s.chars();
    match cs.next() {
        Some(c) if c.is_ascii_alphabetic() || c == '_' || c == '$' || c == '%' => {}
        _ => return false,
    }
    cs.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$')
}

/// Splits leading labels (`name:`) off a piece's text. Returns the labels and the rest.
fn peel_labels(text: &str) -> (Vec<String>, &str) {
    let mut labels = Vec::new();
    let mut rest = text.trim();
    while let Some(colon) = rest.find(':') {
        let name = rest[..colon].trim();
        if name.starts_with('%') || !is_ident(name) {
            break;
        }
        labels.push(name.to_string());
        rest = rest[colon + 1..].trim();
    }
    (labels, rest)
}

/// A parsed integer immediate: decimal, `0x` hex, with an optional `U` suffix, or a PTX float
/// literal `0fXXXXXXXX` / `0dXXXXXXXXXXXXXXXX` (kept as its bit pattern).
fn parse_imm(s: &str) -> Option<u64> {
    let s = s.trim();
    let (neg, body) = match s.strip_prefix('-') {
        Some(b) => (true, b),
        None => (false, s),
    };
    let body = body.strip_suffix('U').unwrap_or(body);
    let lower = body.to_ascii_lowercase();
    let v = if let Some(h) = lower.strip_prefix("0x") {
        u64::from_str_radix(h, 16).ok()?
    } else if let Some(h) = lower.strip_prefix("0f").filter(|h| h.len() == 8) {
        u64::from_str_radix(h, 16).ok()?
    } else if let Some(h) = lower.strip_prefix("0d").filter(|h| h.len() == 16) {
        u64::from_str_radix(h, 16).ok()?
    } else if !lower.is_empty() && lower.chars().all(|c| c.is_ascii_digit()) {
        lower.parse::<u64>().ok()?
    } else {
        return None;
    };
    Some(if neg { v.wrapping_neg() } else { v })
}

fn parse_special(name: &str) -> Option<Special> {
    let (reg, dim) = name.split_once('.')?;
    let kind = match reg {
        "%tid" => SpecialKind::Tid,
        "%ntid" => SpecialKind::Ntid,
        "%ctaid" => SpecialKind::Ctaid,
        "%nctaid" => SpecialKind::Nctaid,
        _ => return None,
    };
    let dim = match dim {
        "x" => 0,
        "y" => 1,
        "z" => 2,
        _ => return None,
    };
    Some(Special { kind, dim })
}

/// Names known while parsing the body.
#[derive(Default)]
struct Names {
    regs: HashMap<String, usize>,
    decls: Vec<RegDecl>,
    params: HashMap<String, usize>,
    labels: HashMap<String, usize>,
    shared: HashMap<String, u64>,
    shared_end: u64,
}

impl Names {
    fn declare_reg(&mut self, line: usize, name: String, ty: Ty) -> Result<(), PtxError> {
        if parse_special(&name).is_some() || self.regs.contains_key(&name) {
            return Err(PtxError::Duplicate {
                line,
                what: "register",
                name,
            });
        }
        self.regs.insert(name.clone(), self.decls.len());
        self.decls.push(RegDecl { name, ty });
        Ok(())
    }

    fn reg(&self, line: usize, name: &str) -> Result<usize, PtxError> {
        self.regs
            .get(name)
            .copied()
            .ok_or_else(|| PtxError::UnknownRegister {
                line,
                name: name.to_string(),
            })
    }

    fn pred(&self, line: usize, name: &str) -> Result<usize, PtxError> {
        let r = self.reg(line, name)?;
        if self.decls[r].ty != Ty::Pred {
            return Err(syntax(line, format!("`{name}` is not a .pred register")));
        }
        Ok(r)
    }

    fn operand(&self, line: usize, s: &str) -> Result<Operand, PtxError> {
        let s = s.trim();
        if s.starts_with('%') {
            if let Some(sp) = parse_special(s) {
                return Ok(Operand::Special(sp));
            }
            return Ok(Operand::Reg(self.reg(line, s)?));
        }
        if let Some(v) = parse_imm(s) {
            return Ok(Operand::Imm(v));
        }
        if let Some(&off) = self.shared.get(s) {
            return Ok(Operand::Imm(off));
        }
        Err(syntax(line, format!("bad operand `{s}`")))
    }

    fn dst(&self, line: usize, s: &str) -> Result<usize, PtxError> {
        let s = s.trim();
        if !s.starts_with('%') || parse_special(s).is_some() {
            return Err(syntax(line, format!("`{s}` is not a writable register")));
        }
        self.reg(line, s)
    }

    fn address(&self, line: usize, s: &str) -> Result<Address, PtxError> {
        let inner = s
            .trim()
            .strip_prefix('[')
            .and_then(|t| t.strip_suffix(']'))
            .ok_or_else(|| syntax(line, format!("expected an address `[...]`, got `{s}`")))?;
        let inner: String = inner.chars().filter(|c| !c.is_whitespace()).collect();
        let split = inner
            .char_indices()
            .skip(1)
            .find(|&(_, c)| c == '+' || c == '-');
        let (base, off) = match split {
            Some((i, '+')) => (&inner[..i], &inner[i + 1..]),
            Some((i, _)) => (&inner[..i], &inner[i..]),
            None => (inner.as_str(), ""),
        };
        self.address_parts(line, base, off)
    }

    fn address_parts(&self, line: usize, base: &str, off: &str) -> Result<Address, PtxError> {
        let bad = || syntax(line, format!("bad address offset `{off}`"));
        let offset = if off.is_empty() {
            0
        } else {
            parse_imm(off).ok_or_else(bad)? as i64
        };
        if base.starts_with('%') {
            return Ok(Address {
                base: Some(self.reg(line, base)?),
                offset,
            });
        }
        if let Some(&sym) = self.shared.get(base) {
            return Ok(Address {
                base: None,
                offset: (sym as i64).wrapping_add(offset),
            });
        }
        let v = parse_imm(base).ok_or_else(|| syntax(line, format!("bad address `{base}`")))?;
        Ok(Address {
            base: None,
            offset: (v as i64).wrapping_add(offset),
        })
    }

    fn param(&self, line: usize, s: &str) -> Result<usize, PtxError> {
        let name = s
            .trim()
            .strip_prefix('[')
            .and_then(|t| t.strip_suffix(']'))
            .ok_or_else(|| syntax(line, format!("expected `[param]`, got `{s}`")))?
            .trim();
        self.params
            .get(name)
            .copied()
            .ok_or_else(|| PtxError::UnknownParam {
                line,
                name: name.to_string(),
            })
    }
}

/// Splits operands at commas outside brackets and braces.
fn split_operands(s: &str) -> Vec<String> {
    let (mut out, mut cur, mut depth) = (Vec::new(), String::new(), 0i32);
    for c in s.chars() {
        match c {
            '[' | '{' => depth += 1,
            ']' | '}' => depth -= 1,
            _ => {}
        }
        if c == ',' && depth == 0 {
            out.push(cur.trim().to_string());
            cur.clear();
        } else {
            cur.push(c);
        }
    }
    if !cur.trim().is_empty() || !out.is_empty() {
        out.push(cur.trim().to_string());
    }
    out
}

/// Modifiers accepted and ignored: cache operators, rounding, flush-to-zero, `.uni`, `.to`.
const IGNORED_MODIFIERS: &[&str] = &[
    "ca", "cg", "cs", "lu", "cv", "nc", "wb", "wt", "rn", "rz", "rm", "rp", "rni", "rzi", "rmi",
    "rpi", "ftz", "uni", "to", "approx", "full",
];

/// Qualifiers of recognised instructions that the subset refuses.
const UNSUPPORTED_QUALS: &[&str] = &["sat", "cc", "hi", "v2", "v4"];

/// An instruction before operand resolution.
struct RawInst<'a> {
    line: usize,
    opcode: &'a str,
    parts: Vec<&'a str>,
    ops: Vec<String>,
}

impl RawInst<'_> {
    fn want(&self, n: usize) -> Result<(), PtxError> {
        if self.ops.len() != n {
            return Err(syntax(
                self.line,
                format!(
                    "`{}` takes {n} operand(s), got {}",
                    self.opcode,
                    self.ops.len()
                ),
            ));
        }
        Ok(())
    }

    /// The qualifiers after the mnemonic, with the ignored modifiers removed.
    fn quals(&self) -> Vec<&str> {
        self.parts[1..]
            .iter()
            .copied()
            .filter(|q| !IGNORED_MODIFIERS.contains(q))
            .collect()
    }

    fn ty(&self, q: &str) -> Result<Ty, PtxError> {
        if UNSUPPORTED_QUALS.contains(&q) {
            return Err(unsupported(
                self.line,
                format!("`.{q}` in `{}`", self.opcode),
            ));
        }
        Ty::parse(q)
            .ok_or_else(|| syntax(self.line, format!("bad type `.{q}` in `{}`", self.opcode)))
    }

    /// Refuses the qualifiers the subset does not model (`.sat`, `.cc`, `.hi`, vectors).
    fn check_unsupported(&self) -> Result<(), PtxError> {
        match self
            .quals()
            .into_iter()
            .find(|q| UNSUPPORTED_QUALS.contains(q))
        {
            Some(q) => Err(unsupported(
                self.line,
                format!("`.{q}` in `{}`", self.opcode),
            )),
            None => Ok(()),
        }
    }

    /// The single type qualifier that must remain after removing `extra` qualifiers.
    fn one_ty(&self, extra: &[&str]) -> Result<Ty, PtxError> {
        self.check_unsupported()?;
        let q: Vec<&str> = self
            .quals()
            .into_iter()
            .filter(|q| !extra.contains(q))
            .collect();
        match q.as_slice() {
            [t] => self.ty(t),
            _ => Err(syntax(
                self.line,
                format!("`{}`: expected exactly one type qualifier", self.opcode),
            )),
        }
    }
}

fn bin_op(m: &str) -> Option<BinOp> {
    Some(match m {
        "add" => BinOp::Add,
        "sub" => BinOp::Sub,
        "mul" => BinOp::Mul,
        "div" => BinOp::Div,
        "rem" => BinOp::Rem,
        "min" => BinOp::Min,
        "max" => BinOp::Max,
        "and" => BinOp::And,
        "or" => BinOp::Or,
        "xor" => BinOp::Xor,
        "shl" => BinOp::Shl,
        "shr" => BinOp::Shr,
        _ => return None,
    })
}

fn cmp_op(m: &str) -> Option<Cmp> {
    Some(match m {
        "eq" => Cmp::Eq,
        "ne" => Cmp::Ne,
        "lt" | "lo" => Cmp::Lt,
        "le" | "ls" => Cmp::Le,
        "gt" | "hi" => Cmp::Gt,
        "ge" | "hs" => Cmp::Ge,
        _ => return None,
    })
}

fn parse_op(r: &RawInst, n: &Names) -> Result<Op, PtxError> {
    let line = r.line;
    let o = |i: usize| n.operand(line, &r.ops[i]);
    match r.parts[0] {
        "ld" => parse_ld(r, n),
        "st" => parse_st(r, n),
        "mov" | "cvta" => {
            r.want(2)?;
            let ty = r.one_ty(&["global", "shared", "param"])?;
            Ok(Op::Mov {
                ty,
                dst: n.dst(line, &r.ops[0])?,
                src: o(1)?,
            })
        }
        "cvt" => parse_cvt(r, n),
        "not" => {
            r.want(2)?;
            Ok(Op::Not {
                ty: r.one_ty(&[])?,
                dst: n.dst(line, &r.ops[0])?,
                src: o(1)?,
            })
        }
        "mad" => parse_mad(r, n),
        "setp" => parse_setp(r, n),
        "bra" => parse_bra(r, n),
        "bar" => parse_bar(r),
        "exit" | "ret" => {
            r.want(0)?;
            Ok(Op::Exit)
        }
        m => match bin_op(m) {
            Some(op) => parse_bin(r, n, op),
            None => Err(PtxError::UnknownInstruction {
                line,
                opcode: r.opcode.to_string(),
            }),
        },
    }
}

fn parse_bin(r: &RawInst, n: &Names, op: BinOp) -> Result<Op, PtxError> {
    r.want(3)?;
    let line = r.line;
    let (dst, a, b) = (
        n.dst(line, &r.ops[0])?,
        n.operand(line, &r.ops[1])?,
        n.operand(line, &r.ops[2])?,
    );
    if op == BinOp::Mul && r.quals().contains(&"wide") {
        let ty = r.one_ty(&["wide"])?;
        if !matches!(ty, Ty::S32 | Ty::U32 | Ty::S16 | Ty::U16) {
            return Err(syntax(line, "mul.wide needs a 16- or 32-bit integer type"));
        }
        return Ok(Op::MulWide { ty, dst, a, b });
    }
    let ty = r.one_ty(if op == BinOp::Mul { &["lo"] } else { &[] })?;
    Ok(Op::Bin { op, ty, dst, a, b })
}

fn parse_mad(r: &RawInst, n: &Names) -> Result<Op, PtxError> {
    r.want(4)?;
    let line = r.line;
    let wide = r.quals().contains(&"wide");
    let ty = r.one_ty(&["lo", "wide"])?;
    if wide && !matches!(ty, Ty::S32 | Ty::U32 | Ty::S16 | Ty::U16) {
        return Err(syntax(line, "mad.wide needs a 16- or 32-bit integer type"));
    }
    Ok(Op::Mad {
        wide,
        ty,
        dst: n.dst(line, &r.ops[0])?,
        a: n.operand(line, &r.ops[1])?,
        b: n.operand(line, &r.ops[2])?,
        c: n.operand(line, &r.ops[3])?,
    })
}

fn parse_cvt(r: &RawInst, n: &Names) -> Result<Op, PtxError> {
    r.want(2)?;
    r.check_unsupported()?;
    let q = r.quals();
    let [d, s] = q.as_slice() else {
        return Err(syntax(r.line, "cvt needs a destination and a source type"));
    };
    Ok(Op::Cvt {
        dty: r.ty(d)?,
        sty: r.ty(s)?,
        dst: n.dst(r.line, &r.ops[0])?,
        src: n.operand(r.line, &r.ops[1])?,
    })
}

fn parse_setp(r: &RawInst, n: &Names) -> Result<Op, PtxError> {
    let q = r.quals();
    let [c, t] = q.as_slice() else {
        return Err(unsupported(
            r.line,
            format!("`{}` (only setp.CMP.TYPE p, a, b)", r.opcode),
        ));
    };
    let cmp = cmp_op(c).ok_or_else(|| syntax(r.line, format!("bad comparison `.{c}`")))?;
    r.want(3)?;
    Ok(Op::Setp {
        cmp,
        ty: r.ty(t)?,
        dst: n.pred(r.line, &r.ops[0])?,
        a: n.operand(r.line, &r.ops[1])?,
        b: n.operand(r.line, &r.ops[2])?,
    })
}

fn parse_bra(r: &RawInst, n: &Names) -> Result<Op, PtxError> {
    r.want(1)?;
    if !r.quals().is_empty() {
        return Err(syntax(r.line, format!("bad branch `{}`", r.opcode)));
    }
    let name = r.ops[0].trim();
    let target = n
        .labels
        .get(name)
        .copied()
        .ok_or_else(|| PtxError::UnknownLabel {
            line: r.line,
            name: name.to_string(),
        })?;
    Ok(Op::Bra { target })
}

fn parse_bar(r: &RawInst) -> Result<Op, PtxError> {
    if r.quals() != ["sync"] {
        return Err(unsupported(
            r.line,
            format!("`{}` (only bar.sync 0)", r.opcode),
        ));
    }
    if r.ops.len() != 1 || parse_imm(&r.ops[0]) != Some(0) {
        return Err(unsupported(r.line, "bar.sync with operands other than `0`"));
    }
    Ok(Op::Bar)
}

/// The state space and type of an `ld`/`st`, cache operators removed.
fn ldst_space_ty(r: &RawInst) -> Result<(&'static str, Ty), PtxError> {
    r.check_unsupported()?;
    let q: Vec<&str> = r.quals().into_iter().filter(|q| *q != "volatile").collect();
    let space = match q.first().copied() {
        Some("global") => "global",
        Some("shared") => "shared",
        Some("param") => "param",
        Some(s @ ("local" | "const" | "tex")) => {
            return Err(unsupported(r.line, format!("the .{s} state space")))
        }
        _ => {
            return Err(syntax(
                r.line,
                format!("`{}`: missing state space", r.opcode),
            ))
        }
    };
    match q.get(1..) {
        Some([t]) => Ok((space, r.ty(t)?)),
        _ => Err(syntax(
            r.line,
            format!("`{}`: expected exactly one type", r.opcode),
        )),
    }
}

fn parse_ld(r: &RawInst, n: &Names) -> Result<Op, PtxError> {
    r.want(2)?;
    let (space, ty) = ldst_space_ty(r)?;
    let dst = n.dst(r.line, &r.ops[0])?;
    if space == "param" {
        let param = n.param(r.line, &r.ops[1])?;
        return Ok(Op::LdParam { ty, dst, param });
    }
    let space = if space == "global" {
        Space::Global
    } else {
        Space::Shared
    };
    Ok(Op::Ld {
        space,
        ty,
        dst,
        addr: n.address(r.line, &r.ops[1])?,
    })
}

fn parse_st(r: &RawInst, n: &Names) -> Result<Op, PtxError> {
    r.want(2)?;
    let space = match ldst_space_ty(r)? {
        ("global", ty) => (Space::Global, ty),
        ("shared", ty) => (Space::Shared, ty),
        _ => return Err(unsupported(r.line, "st.param")),
    };
    Ok(Op::St {
        space: space.0,
        ty: space.1,
        addr: n.address(r.line, &r.ops[0])?,
        src: n.operand(r.line, &r.ops[1])?,
    })
}

/// An instruction statement cut into its guard, opcode and operand text.
struct SplitInst<'a> {
    /// `(negate, predicate name)`.
    guard: Option<(bool, &'a str)>,
    opcode: &'a str,
    ops: &'a str,
}

/// Splits `[@%p | @!%p] opcode operands` into guard, opcode and operand text.
fn split_inst(line: usize, text: &str) -> Result<SplitInst<'_>, PtxError> {
    let mut rest = text.trim();
    let mut guard = None;
    if let Some(g) = rest.strip_prefix('@') {
        let end = g
            .find(char::is_whitespace)
            .ok_or_else(|| syntax(line, "guard without instruction"))?;
        let (name, after) = g.split_at(end);
        guard = Some(match name.strip_prefix('!') {
            Some(p) => (true, p),
            None => (false, name),
        });
        rest = after.trim();
    }
    let (opcode, ops) = match rest.find(char::is_whitespace) {
        Some(i) => (&rest[..i], rest[i..].trim()),
        None => (rest, ""),
    };
    Ok(SplitInst { guard, opcode, ops })
}

fn parse_inst(line: usize, text: &str, n: &Names) -> Result<Inst, PtxError> {
    let SplitInst { guard, opcode, ops } = split_inst(line, text)?;
    let guard = match guard {
        Some((negate, name)) => Some(Guard {
            pred: n.pred(line, name)?,
            negate,
        }),
        None => None,
    };
    let raw = RawInst {
        line,
        opcode,
        parts: opcode.split('.').collect(),
        ops: split_operands(ops),
    };
    Ok(Inst {
        line,
        guard,
        op: parse_op(&raw, n)?,
    })
}

/// `.reg .TYPE %a, %b<N>`.
fn parse_reg_decl(line: usize, text: &str, n: &mut Names) -> Result<(), PtxError> {
    let rest = text.trim_start_matches(".reg").trim();
    let (ty, names) = rest
        .split_once(char::is_whitespace)
        .ok_or_else(|| syntax(line, "`.reg` needs a type and names"))?;
    let ty = ty
        .strip_prefix('.')
        .and_then(Ty::parse)
        .ok_or_else(|| syntax(line, format!("bad register type `{ty}`")))?;
    for item in names.split(',').map(str::trim) {
        match item.split_once('<') {
            Some((base, count)) => {
                let count = count
                    .strip_suffix('>')
                    .and_then(|c| c.trim().parse::<usize>().ok())
                    .filter(|&c| c <= 65536)
                    .ok_or_else(|| syntax(line, format!("bad register range `{item}`")))?;
                for i in 0..count {
                    n.declare_reg(line, format!("{}{i}", base.trim()), ty)?;
                }
            }
            None if item.starts_with('%') && is_ident(item) => {
                n.declare_reg(line, item.to_string(), ty)?
            }
            None => return Err(syntax(line, format!("bad register name `{item}`"))),
        }
    }
    Ok(())
}

/// `.shared [.align A] .TYPE name[N]` or `.shared .TYPE name`.
fn parse_shared_decl(line: usize, text: &str, n: &mut Names) -> Result<(), PtxError> {
    let toks: Vec<&str> = text.split_whitespace().collect();
    let bad = || syntax(line, format!("bad .shared declaration `{text}`"));
    let (align, rest) = match toks.get(1..) {
        Some([".align", a, rest @ ..]) => (a.parse::<u64>().map_err(|_| bad())?, rest),
        Some(rest) => (1, rest),
        None => return Err(bad()),
    };
    let [ty, decl] = rest else { return Err(bad()) };
    let ty = ty.strip_prefix('.').and_then(Ty::parse).ok_or_else(bad)?;
    let (name, count) = match decl.split_once('[') {
        Some((name, c)) => {
            let c = c.strip_suffix(']').and_then(|c| c.parse::<u64>().ok());
            (name, c.ok_or_else(bad)?)
        }
        None => (*decl, 1),
    };
    if !is_ident(name) || align == 0 || !align.is_power_of_two() {
        return Err(bad());
    }
    if n.shared.contains_key(name) {
        return Err(PtxError::Duplicate {
            line,
            what: "symbol",
            name: name.to_string(),
        });
    }
    let start = n.shared_end.div_ceil(align).saturating_mul(align);
    n.shared.insert(name.to_string(), start);
    n.shared_end = start.saturating_add(count.saturating_mul(u64::from(ty.bytes())));
    Ok(())
}

/// The module header up to the body: directives, `.entry NAME ( params )`, performance
/// directives. Returns the kernel name and declares the parameters.
fn parse_header(p: &Piece, n: &mut Names) -> Result<(String, Vec<Param>), PtxError> {
    let line = p.line;
    let at = p
        .text
        .find(".entry")
        .ok_or_else(|| syntax(line, "expected `.entry NAME ( ... )`"))?;
    check_preamble(line, &p.text[..at])?;
    let rest = p.text[at + ".entry".len()..].trim();
    let (name, rest) = match rest.find('(') {
        Some(i) => (rest[..i].trim(), &rest[i..]),
        None => (rest.split_whitespace().next().unwrap_or(""), ""),
    };
    if !is_ident(name) || name.starts_with('%') {
        return Err(syntax(line, format!("bad kernel name `{name}`")));
    }
    let mut params = Vec::new();
    if !rest.is_empty() {
        let close = rest
            .find(')')
            .ok_or_else(|| syntax(line, "missing `)` after the parameters"))?;
        check_perf_directives(line, &rest[close + 1..])?;
        for item in rest[1..close].split(',').filter(|s| !s.trim().is_empty()) {
            params.push(parse_param(line, item, n, params.len())?);
        }
    }
    Ok((name.to_string(), params))
}

fn check_preamble(line: usize, text: &str) -> Result<(), PtxError> {
    const OK: &[&str] = &[".version", ".target", ".address_size", ".visible"];
    for tok in text.split_whitespace() {
        if tok.starts_with('.') && !OK.contains(&tok) {
            return Err(unsupported(line, format!("module directive `{tok}`")));
        }
    }
    Ok(())
}

fn check_perf_directives(line: usize, text: &str) -> Result<(), PtxError> {
    const OK: &[&str] = &[".maxntid", ".reqntid", ".minnctapersm", ".maxnreg"];
    for tok in text.split(|c: char| c.is_whitespace() || c == ',') {
        let ok = tok.is_empty() || OK.contains(&tok) || tok.chars().all(|c| c.is_ascii_digit());
        if !ok {
            return Err(syntax(
                line,
                format!("unexpected `{tok}` after the parameters"),
            ));
        }
    }
    Ok(())
}

fn parse_param(line: usize, item: &str, n: &mut Names, index: usize) -> Result<Param, PtxError> {
    let toks: Vec<&str> = item.split_whitespace().collect();
    let [".param", ty, name] = toks.as_slice() else {
        return Err(unsupported(line, format!("parameter `{}`", item.trim())));
    };
    let ty = ty
        .strip_prefix('.')
        .and_then(Ty::parse)
        .filter(|t| !t.is_float() && *t != Ty::Pred)
        .ok_or_else(|| unsupported(line, format!("parameter type `{ty}`")))?;
    if !is_ident(name) || n.params.insert(name.to_string(), index).is_some() {
        return Err(PtxError::Duplicate {
            line,
            what: "parameter",
            name: name.to_string(),
        });
    }
    Ok(Param {
        name: name.to_string(),
        ty,
    })
}

/// The body's statements after the first pass: declarations applied, labels placed.
fn first_pass<'p>(body: &'p [Piece], n: &mut Names) -> Result<Vec<(usize, &'p str)>, PtxError> {
    let mut insts = Vec::new();
    for p in body {
        let (labels, rest) = peel_labels(&p.text);
        // The statement's own line: the piece's line plus the newlines the labels spanned.
        let skipped = &p.text[..p.text.len() - rest.len()];
        let line = p.line + skipped.matches('\n').count();
        for l in labels {
            if n.labels.insert(l.clone(), insts.len()).is_some() {
                return Err(PtxError::Duplicate {
                    line: p.line,
                    what: "label",
                    name: l,
                });
            }
        }
        let head = rest.split_whitespace().next().unwrap_or("");
        match head {
            "" => {}
            "{" | "}" => return Err(unsupported(line, "nested { } scopes")),
            ".reg" => parse_reg_decl(line, rest, n)?,
            ".shared" => parse_shared_decl(line, rest, n)?,
            d if d.starts_with('.') => return Err(unsupported(line, format!("directive `{d}`"))),
            _ => insts.push((line, rest)),
        }
    }
    if pc_of(insts.len()).is_none() {
        return Err(unsupported(0, "more than 2^29 instructions"));
    }
    Ok(insts)
}

/// Finds the `{ … }` body after the header; returns the header piece and the body's pieces.
fn split_module(ps: &[Piece]) -> Result<(&Piece, &[Piece]), PtxError> {
    let open = ps.iter().position(|p| p.text == "{").ok_or_else(|| {
        syntax(
            ps.last().map_or(1, |p| p.line),
            "missing `{` of the kernel body",
        )
    })?;
    // `merge_preamble` left at most one piece before the `{`.
    if open != 1 {
        return Err(syntax(
            ps[0].line,
            "expected `.entry NAME ( ... )` before `{`",
        ));
    }
    let header = &ps[0];
    let close = ps[open + 1..]
        .iter()
        .position(|p| p.text == "}")
        .map(|i| i + open + 1)
        .ok_or_else(|| {
            syntax(
                ps.last().map_or(1, |p| p.line),
                "missing `}` at the end of the kernel",
            )
        })?;
    if let Some(extra) = ps.get(close + 1) {
        return Err(unsupported(
            extra.line,
            "anything after the kernel's closing `}`",
        ));
    }
    Ok((header, &ps[open + 1..close]))
}

impl Kernel {
    /// Parses one kernel. Errors name the line and the offending text.
    pub fn parse(src: &str) -> Result<Kernel, PtxError> {
        let ps = pieces(&strip_comments(src));
        let ps = merge_preamble(ps);
        if ps.is_empty() {
            return Err(syntax(1, "empty PTX text"));
        }
        let (header, body) = split_module(&ps)?;
        let mut names = Names::default();
        let (name, params) = parse_header(header, &mut names)?;
        let stmts = first_pass(body, &mut names)?;
        let insts = stmts
            .iter()
            .map(|&(line, text)| parse_inst(line, text, &names))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Kernel {
            name,
            params,
            regs: names.decls,
            insts,
        })
    }

    /// The PCs of the global ld/st instructions, ascending (the paper's `LDSTPCList`).
    pub fn ldst_pcs(&self) -> Vec<u32> {
        self.insts
            .iter()
            .enumerate()
            .filter(|(_, i)| i.op.is_global_ldst())
            .filter_map(|(k, _)| pc_of(k))
            .collect()
    }
}

/// Joins the pieces before the body's `{` into one header piece (module directives such as
/// `.version 4.2` carry no `;`, but `.target`/`.address_size` lines may be separated by `;`).
fn merge_preamble(ps: Vec<Piece>) -> Vec<Piece> {
    let Some(open) = ps.iter().position(|p| p.text == "{") else {
        return ps;
    };
    if open <= 1 {
        return ps;
    }
    let mut it = ps.into_iter();
    let head: Vec<Piece> = it.by_ref().take(open).collect();
    let line = head[0].line;
    let text = head
        .iter()
        .map(|p| p.text.as_str())
        .collect::<Vec<_>>()
        .join(" ");
    std::iter::once(Piece { line, text }).chain(it).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::reorder::kernels::EXAMPLE;

    #[test]
    fn example_pcs_are_8_per_instruction() {
        let k = Kernel::parse(EXAMPLE).unwrap();
        assert_eq!(k.name, "_example");
        assert_eq!(k.insts.len(), 12);
        assert_eq!(k.ldst_pcs(), vec![64, 80]);
        assert_eq!(k.regs.len(), 29 + 33 + 20 + 6);
        assert_eq!(k.insts[7].op, Op::Bra { target: 10 });
        assert_eq!(k.insts[9].op, Op::Bra { target: 11 });
        assert_eq!(k.insts[7].line, 12);
        assert_eq!(k.insts[0].line, 5); // after the label `$Lbegin:`
        assert_eq!(k.insts[10].line, 16);
        assert!(k.insts[7].guard.unwrap().negate);
    }

    #[test]
    fn addresses_and_immediates() {
        let src =
            ".version 4.2\n.target sm_20\n.address_size 64\n.visible .entry k(.param .u32 a)\n\
                   { .reg .u64 %rd<2>; .shared .align 8 .b8 buf[12]; .shared .u32 tail;\n\
                   ld.global.ca.u32 %rd0, [%rd1 + -8]; st.shared.u32 [tail+4], 0x10;\n\
                   ld.shared.u32 %rd0, [buf]; mov.u64 %rd1, tail; mov.f32 %rd0, 0f3F800000; ret; }";
        let k = Kernel::parse(src).unwrap();
        let addr = |i: usize| match &k.insts[i].op {
            Op::Ld { addr, .. } | Op::St { addr, .. } => *addr,
            op => panic!("{op:?}"),
        };
        assert_eq!(
            addr(0),
            Address {
                base: Some(1),
                offset: -8
            }
        );
        assert_eq!(
            addr(1),
            Address {
                base: None,
                offset: 16
            }
        );
        assert_eq!(
            addr(2),
            Address {
                base: None,
                offset: 0
            }
        );
        assert!(matches!(
            k.insts[3].op,
            Op::Mov {
                src: Operand::Imm(12),
                ..
            }
        ));
        assert!(matches!(
            k.insts[4].op,
            Op::Mov {
                src: Operand::Imm(0x3F80_0000),
                ..
            }
        ));
    }

    fn err(body: &str) -> PtxError {
        let src = format!(
            ".entry k ( .param .u64 p )\n{{\n.reg .u32 %r<4>; .reg .pred %p<2>;\n{body}\n}}"
        );
        Kernel::parse(&src).unwrap_err()
    }

    #[test]
    fn errors_name_the_line() {
        let e = err("mov.u32 %r1, 0;\nfoo.u32 %r1, %r2;");
        assert_eq!(
            e,
            PtxError::UnknownInstruction {
                line: 5,
                opcode: "foo.u32".into()
            }
        );
        assert!(e.to_string().contains("line 5"));
        assert!(matches!(
            err("add.u32 %r9, %r1, 1;"),
            PtxError::UnknownRegister { line: 4, .. }
        ));
        assert!(matches!(
            err("bra $nowhere;"),
            PtxError::UnknownLabel { .. }
        ));
        assert!(matches!(
            err("ld.param.u64 %r1, [q];"),
            PtxError::UnknownParam { .. }
        ));
        assert!(matches!(
            err("@%r1 bra $a; $a: exit;"),
            PtxError::Syntax { .. }
        ));
        assert!(matches!(
            err("ld.local.u32 %r1, [%r2];"),
            PtxError::Unsupported { .. }
        ));
        assert!(matches!(
            err("ld.global.v4.u32 %r1, [%r2];"),
            PtxError::Unsupported { .. }
        ));
        assert!(matches!(err("bar.sync 1;"), PtxError::Unsupported { .. }));
        assert!(matches!(err("add.u32 %r1, %r2;"), PtxError::Syntax { .. }));
        assert!(matches!(err("$a: $a: exit;"), PtxError::Duplicate { .. }));
        assert!(matches!(err(".reg .u32 %r1;"), PtxError::Duplicate { .. }));
        assert!(matches!(err("mov.u32 %tid.x, 1;"), PtxError::Syntax { .. }));
        assert!(matches!(
            err("mov.u32 %r1, [%r2];"),
            PtxError::Syntax { .. }
        ));
        assert!(Kernel::parse("").is_err());
        assert!(Kernel::parse(".entry k ( .param .u64 p ) { exit; ").is_err());
        assert!(Kernel::parse(".entry k { exit; } }").is_err());
        assert!(Kernel::parse(".func f { ret; }").is_err());
    }
}
