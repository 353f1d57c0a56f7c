//! Parsing one instruction (mnemonic and operands) from its tokens, as LLVM's AMDGPU
//! assembler reads it for gfx8.

use super::lexer::{Tok, Token};
use crate::isa::instruction::{Instruction, Slot};
use crate::isa::opcode::{Format, Op, Sig};
use crate::isa::operand::{special_by_name, InlineFloat, Operand};
use crate::isa::text::{OMOD_TEXT, WAITCNT_FIELDS};

/// A parse error: 1-based column and message.
pub type PErr = (usize, String);

/// A parsed instruction and the label its branch names, if any (name, column).
pub struct Parsed {
    /// The instruction (a branch to a label has `imm` 0 until the label is resolved).
    pub insn: Instruction,
    /// The branch target label.
    pub label: Option<(String, usize)>,
}

/// Parses `tokens` (mnemonic first); `end_col` is the column after the line's last character.
pub fn parse_instruction(tokens: &[Token], end_col: usize) -> Result<Parsed, PErr> {
    let (name, col) = match tokens.first() {
        Some(Token {
            tok: Tok::Ident(n),
            col,
            ..
        }) => (n.as_str(), *col),
        Some(t) => return Err((t.col, "expected a mnemonic".into())),
        None => return Err((end_col, "expected a mnemonic".into())),
    };
    let (base, forced) = split_suffix(name);
    let op = Op::by_name(base).ok_or_else(|| (col, format!("unknown instruction '{name}'")))?;
    let candidates: Vec<bool> = match forced {
        Some(true) if op.info().format == Format::Vop3 => vec![false],
        Some(e64) if e64 && !op.has_e64() => return Err((col, format!("{base} has no _e64 form"))),
        Some(e64) if !e64 && op.info().format == Format::Vop3 => {
            return Err((col, format!("{base} has no _e32 form")))
        }
        Some(e64) => vec![e64],
        None if op.has_e64() => vec![false, true],
        None => vec![false],
    };
    let mut best: Option<PErr> = None;
    for e64 in candidates {
        let mut cur = Cursor {
            toks: &tokens[1..],
            at: 0,
            end_col,
            text: String::new(),
        };
        match cur.instruction(op, e64, col) {
            Ok(p) => return Ok(p),
            Err(e) if best.as_ref().is_none_or(|b| e.0 > b.0) => best = Some(e),
            Err(_) => {}
        }
    }
    Err(best.expect("at least one encoding was tried"))
}

/// `v_add_f32_e64` → (`v_add_f32`, Some(true)).
fn split_suffix(name: &str) -> (&str, Option<bool>) {
    if let Some(b) = name.strip_suffix("_e64") {
        (b, Some(true))
    } else if let Some(b) = name.strip_suffix("_e32") {
        (b, Some(false))
    } else {
        (name, None)
    }
}

/// A register or constant as written.
#[derive(Clone, Debug)]
enum Value {
    /// A register (range): operand and width in dwords.
    Reg(Operand, u8),
    /// An integer constant (64-bit two's complement as written, or negated).
    Int(i128),
    /// A floating-point constant.
    Float(f64),
    /// A bare identifier that is not a register (a label).
    Name(String),
}

/// A position in the operand tokens.
struct Cursor<'a> {
    toks: &'a [Token],
    at: usize,
    end_col: usize,
    /// The source text of the last value read (with its sign), for messages.
    text: String,
}

impl Cursor<'_> {
    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.at).map(|t| &t.tok)
    }

    fn col(&self) -> usize {
        self.toks.get(self.at).map_or(self.end_col, |t| t.col)
    }

    fn err<T>(&self, msg: impl Into<String>) -> Result<T, PErr> {
        Err((self.col(), msg.into()))
    }

    fn eat(&mut self, c: char) -> bool {
        let hit = self.peek() == Some(&Tok::Punct(c));
        self.at += hit as usize;
        hit
    }

    fn expect(&mut self, c: char) -> Result<(), PErr> {
        if self.eat(c) {
            Ok(())
        } else {
            self.err(format!("expected '{c}'"))
        }
    }

    fn ident(&mut self) -> Option<String> {
        match self.peek() {
            Some(Tok::Ident(s)) => {
                let s = s.clone();
                self.at += 1;
                Some(s)
            }
            _ => None,
        }
    }

    fn instruction(&mut self, op: Op, e64: bool, col: usize) -> Result<Parsed, PErr> {
        let mut p = Parsed {
            insn: Instruction::new(op),
            label: None,
        };
        p.insn.e64 = e64;
        let mut first = true;
        for slot in p.insn.slots() {
            if slot == Slot::Vcc && vcc_optional(op, e64) && !self.vcc_next(first) {
                continue;
            }
            if !first {
                self.expect(',')?;
            }
            first = false;
            self.slot(&mut p, slot)?;
        }
        self.modifiers(&mut p.insn)?;
        if self.at < self.toks.len() {
            return self.err("unexpected operand");
        }
        p.insn.validate().map_err(|e| (col, e.0))?;
        Ok(p)
    }

    fn slot(&mut self, p: &mut Parsed, slot: Slot) -> Result<(), PErr> {
        let insn = &mut p.insn;
        match slot {
            Slot::SDst(w) => insn.dst = Some(self.scalar_reg(w)?),
            Slot::SgprDst => insn.dst = Some(self.scalar_reg(1)?),
            Slot::CarryOut => insn.sdst = Some(self.scalar_reg(2)?),
            Slot::SBase => insn.src[0] = Some(self.scalar_reg(2)?),
            Slot::VDst(w) => insn.dst = Some(self.vgpr(w)?),
            Slot::VReg(i, w) => insn.src[i] = Some(self.vgpr(w)?),
            Slot::SSrc(i, w) => insn.src[i] = Some(self.source(w, insn.op)?),
            Slot::Src(i, w) => self.vector_source(insn, i, w)?,
            Slot::Vcc => self.vcc()?,
            Slot::Simm16 => {
                insn.imm = self.int_in(-32768, 65535, "a 16-bit constant")? as u32 & 0xffff
            }
            Slot::Count16 => insn.imm = self.int_in(0, 65535, "a 16-bit count")? as u32,
            Slot::Label => self.label(p)?,
            Slot::Waitcnt => insn.imm = self.waitcnt()?,
            Slot::SOffset => self.smem_offset(insn)?,
        }
        Ok(())
    }

    /// The next operand is the implicit `vcc` (after a comma unless it is the first operand).
    /// A leading `vcc` is the implicit one only when two more operands follow it (VOPC
    /// `vcc, src0, vsrc1`); otherwise it is `src0` itself (`v_cmp_eq_u64 vcc, v[0:1]`).
    fn vcc_next(&self, first: bool) -> bool {
        let at = if first { self.at } else { self.at + 1 };
        let commas = self.toks[self.at..]
            .iter()
            .filter(|t| t.tok == Tok::Punct(','))
            .count();
        let comma = if first {
            commas >= 2
        } else {
            self.peek() == Some(&Tok::Punct(','))
        };
        comma && matches!(self.toks.get(at).map(|t| &t.tok), Some(Tok::Ident(v)) if v == "vcc")
    }

    fn vcc(&mut self) -> Result<(), PErr> {
        let col = self.col();
        match self.ident() {
            Some(s) if s == "vcc" => Ok(()),
            _ => Err((col, "expected vcc".into())),
        }
    }

    /// A register or constant token sequence (without modifiers).
    fn value(&mut self) -> Result<Value, PErr> {
        let col = self.col();
        let neg = self.eat('-');
        let sign = if neg { "-" } else { "" };
        self.text = format!("{sign}{}", self.toks.get(self.at).map_or("", |t| &t.text));
        let value = match self.peek().cloned() {
            Some(Tok::Int(v)) => {
                self.at += 1;
                // LLVM reads integers as 64-bit two's complement: 0xffffffff83f43940 is a
                // sign-extended 32-bit value.
                Value::Int(match neg {
                    true if v > 1 << 63 => {
                        return Err((col, format!("{} does not fit in 64 bits", self.text)))
                    }
                    true => -i128::from(v),
                    false => i128::from(v as i64),
                })
            }
            Some(Tok::Float(v)) => {
                self.at += 1;
                Value::Float(if neg { -v } else { v })
            }
            Some(Tok::Ident(_)) if !neg => self.register()?,
            _ => return Err((col, "expected a register or a constant".into())),
        };
        Ok(value)
    }

    /// `s5`, `v[0:3]`, `vcc`, `ttmp[4:5]`, ... or a bare name.
    fn register(&mut self) -> Result<Value, PErr> {
        let col = self.col();
        let name = self.ident().expect("caller checked for an identifier");
        if let Some((code, w)) = special_by_name(&name) {
            return Ok(Value::Reg(Operand::Special(code), w));
        }
        let (prefix, num) = split_reg(&name);
        let (first, w) = match (prefix, num) {
            ("s" | "v" | "ttmp", None) if self.peek() == Some(&Tok::Punct('[')) => self.range()?,
            ("s" | "v" | "ttmp", Some(n)) => (n, 1),
            _ => return Ok(Value::Name(name)),
        };
        let end = first.saturating_add(u64::from(w));
        let op = match prefix {
            "s" if end <= 102 => Operand::Sgpr(first as u8),
            "v" if end <= 256 => Operand::Vgpr(first as u8),
            "ttmp" if end <= 12 => Operand::Special(112 + first as u8),
            _ => {
                let written = match (w, num) {
                    (1, Some(_)) => name.clone(),
                    _ => format!("{prefix}[{first}:{}]", end - 1),
                };
                let valid = match prefix {
                    "s" => "SGPRs are s0..s101",
                    "v" => "VGPRs are v0..v255",
                    _ => "trap temporaries are ttmp0..ttmp11",
                };
                return Err((col, format!("register {written} is out of range ({valid})")));
            }
        };
        Ok(Value::Reg(op, w))
    }

    /// `[a:b]` after a register prefix; returns (first, dwords).
    fn range(&mut self) -> Result<(u64, u8), PErr> {
        self.expect('[')?;
        let a = self.int_in(0, 255, "a register number")?;
        let b = if self.eat(':') {
            self.int_in(0, 255, "a register number")?
        } else {
            a
        };
        self.expect(']')?;
        if b < a || b - a >= 16 {
            return self.err(format!(
                "bad register range [{a}:{b}]: the last register must follow the first, at \
                 most 16 dwords"
            ));
        }
        Ok((a as u64, (b - a + 1) as u8))
    }

    fn int_in(&mut self, lo: i64, hi: i64, what: &str) -> Result<i64, PErr> {
        let col = self.col();
        match self.value() {
            Ok(Value::Int(v)) if (i128::from(lo)..=i128::from(hi)).contains(&v) => Ok(v as i64),
            Ok(Value::Int(_)) => Err((
                col,
                format!("{} is out of range for {what} ({lo}..={hi})", self.text),
            )),
            _ => Err((col, format!("expected {what}"))),
        }
    }

    fn scalar_reg(&mut self, w: u8) -> Result<Operand, PErr> {
        let col = self.col();
        match self.value()? {
            Value::Reg(op, rw) if rw == w && op.is_scalar_reg() => Ok(op),
            _ => Err((col, format!("expected a {w}-dword scalar register"))),
        }
    }

    fn vgpr(&mut self, w: u8) -> Result<Operand, PErr> {
        let col = self.col();
        match self.value()? {
            Value::Reg(op @ Operand::Vgpr(_), rw) if rw == w => Ok(op),
            _ => Err((col, format!("expected a {w}-dword VGPR (range)"))),
        }
    }

    /// A source operand of width `w`: register of that width or a constant.
    fn source(&mut self, w: u8, op: Op) -> Result<Operand, PErr> {
        let col = self.col();
        let fail = |m: String| (col, m);
        match self.value()? {
            Value::Reg(o, rw)
                if rw == w || (rw == 1 && matches!(o, Operand::Special(c) if c >= 128)) =>
            {
                Ok(o)
            }
            Value::Reg(_, rw) => Err(fail(format!(
                "expected a {w}-dword operand, found {rw} dwords"
            ))),
            Value::Int(v) => int_constant(v, w, &self.text).map_err(fail),
            Value::Float(v) => float_constant(v, w, op, &self.text).map_err(fail),
            Value::Name(n) => Err(fail(format!("unknown operand '{n}'"))),
        }
    }

    /// A VOP source with optional negation (`-x`, `neg(x)`) around optional absolute value
    /// (`|x|`, `abs(x)`), VOP3 only.
    fn vector_source(&mut self, insn: &mut Instruction, i: usize, w: u8) -> Result<(), PErr> {
        let col = self.col();
        let neg = self.open_modifier('-', "neg");
        let abs = self.open_modifier('|', "abs");
        let operand = self.source(w, insn.op)?;
        self.close_modifier(abs)?;
        self.close_modifier(neg)?;
        let (neg, abs) = (neg.is_some(), abs.is_some());
        if (neg || abs) && !insn.is_vop3() {
            return Err((col, "source modifiers need the _e64 form".into()));
        }
        insn.src[i] = Some(operand);
        insn.mods.neg |= (neg as u8) << i;
        insn.mods.abs |= (abs as u8) << i;
        Ok(())
    }

    /// Opens a modifier written `sigil` (`-x`, `|x|`) or `name(x)`; returns the closing
    /// token expected (`None` inside for `-`). A `-` before a number is its sign instead.
    fn open_modifier(&mut self, sigil: char, name: &str) -> Option<Option<char>> {
        let next = self.toks.get(self.at + 1).map(|t| &t.tok);
        let sign_of_number = sigil == '-' && matches!(next, Some(Tok::Int(_) | Tok::Float(_)));
        if self.peek() == Some(&Tok::Punct(sigil)) && !sign_of_number {
            self.at += 1;
            return Some((sigil == '|').then_some('|'));
        }
        let is_fn = matches!(self.peek(), Some(Tok::Ident(n)) if n == name)
            && next == Some(&Tok::Punct('('));
        if is_fn {
            self.at += 2;
            return Some(Some(')'));
        }
        None
    }

    fn close_modifier(&mut self, close: Option<Option<char>>) -> Result<(), PErr> {
        match close {
            Some(Some(c)) => self.expect(c),
            _ => Ok(()),
        }
    }

    fn label(&mut self, p: &mut Parsed) -> Result<(), PErr> {
        let col = self.col();
        match self.value()? {
            Value::Name(n) => p.label = Some((n, col)),
            Value::Int(v) if (-32768..=65535).contains(&v) => p.insn.imm = v as u32 & 0xffff,
            Value::Int(_) => {
                return Err((
                    col,
                    format!(
                        "branch offset {} is out of range (-32768..=65535 dwords)",
                        self.text
                    ),
                ))
            }
            _ => return Err((col, "expected a label or a 16-bit dword offset".into())),
        }
        Ok(())
    }

    fn smem_offset(&mut self, insn: &mut Instruction) -> Result<(), PErr> {
        if matches!(self.peek(), Some(Tok::Int(_))) {
            insn.imm = self.int_in(0, 0xf_ffff, "an SMEM offset")? as u32;
        } else {
            insn.src[1] = Some(self.scalar_reg(1)?);
        }
        Ok(())
    }

    /// `s_waitcnt` operand: a number, or counters `vmcnt(N) expcnt(N) lgkmcnt(N)` separated by
    /// spaces, `&` or `,`.
    fn waitcnt(&mut self) -> Result<u32, PErr> {
        if !matches!(self.peek(), Some(Tok::Ident(_))) {
            return Ok(self.int_in(0, 0xffff, "a waitcnt value")? as u32);
        }
        let mut imm = crate::isa::text::WAITCNT_MASK;
        while let Some(Tok::Ident(name)) = self.peek().cloned() {
            let col = self.col();
            let Some(&(_, shift, bits)) = WAITCNT_FIELDS.iter().find(|f| f.0 == name) else {
                return Err((
                    col,
                    format!("unknown counter '{name}' (vmcnt, expcnt, lgkmcnt)"),
                ));
            };
            self.at += 1;
            self.expect('(')?;
            let v = self.int_in(0, (1 << bits) - 1, &name)? as u32;
            self.expect(')')?;
            imm = imm & !(((1 << bits) - 1) << shift) | v << shift;
            let _ = self.eat('&') || self.eat(',');
        }
        Ok(imm)
    }

    /// Trailing modifiers: `clamp`, `mul:N`, `div:2`, `glc`, `slc`, `gds`, `offset:N`,
    /// `offset0:N`, `offset1:N`.
    fn modifiers(&mut self, insn: &mut Instruction) -> Result<(), PErr> {
        while let Some(Tok::Ident(name)) = self.peek().cloned() {
            let col = self.col();
            self.at += 1;
            let ok = self.modifier(insn, &name)?;
            if !ok {
                return Err((
                    col,
                    format!("'{name}' is not a modifier of {}", insn.op.name()),
                ));
            }
        }
        Ok(())
    }

    /// Applies one modifier; false if the instruction does not take it.
    fn modifier(&mut self, insn: &mut Instruction, name: &str) -> Result<bool, PErr> {
        let info = insn.op.info();
        let vop3 = insn.is_vop3();
        let m = &mut insn.mods;
        let ok = match name {
            "clamp" => vop3 && info.mods.clamp && set(&mut m.clamp),
            "glc" => matches!(info.format, Format::Smem | Format::Flat) && set(&mut m.glc),
            "slc" => info.format == Format::Flat && set(&mut m.slc),
            "gds" => info.format == Format::Ds && set(&mut m.gds),
            // gfx8 FLAT has no offset field; LLVM accepts `offset:0`.
            "offset" if info.format == Format::Flat => {
                self.expect(':')?;
                self.int_in(0, 0, "a FLAT offset (gfx8 has none)")?;
                true
            }
            "mul" | "div" if vop3 && info.mods.omod => {
                self.expect(':')?;
                let col = self.col();
                let v = self.int_in(1, 4, "an output modifier")?;
                let text = format!("{name}:{v}");
                // `mul:1` and `div:1` are accepted no-ops, as in LLVM.
                if v != 1 {
                    m.omod = OMOD_TEXT
                        .iter()
                        .position(|t| *t == text)
                        .ok_or((col, format!("{text} is not an output modifier")))?
                        as u8;
                }
                true
            }
            "offset" | "offset0" | "offset1" if info.format == Format::Ds => {
                self.ds_offset(insn, name)?
            }
            _ => false,
        };
        Ok(ok)
    }

    fn ds_offset(&mut self, insn: &mut Instruction, name: &str) -> Result<bool, PErr> {
        let pair = matches!(insn.op.info().sig, Sig::DsRead2 | Sig::DsWrite2);
        self.expect(':')?;
        match (name, pair) {
            ("offset", false) => insn.imm = self.int_in(0, 0xffff, "a DS offset")? as u32,
            ("offset0", true) => {
                insn.imm = insn.imm & 0xff00 | self.int_in(0, 255, "offset0")? as u32
            }
            ("offset1", true) => {
                insn.imm = insn.imm & 0xff | (self.int_in(0, 255, "offset1")? as u32) << 8
            }
            _ => return Ok(false),
        }
        Ok(true)
    }
}

/// LLVM lets the implicit `vcc` of VOPC and `v_cndmask_b32` e32 forms be left out.
fn vcc_optional(op: Op, e64: bool) -> bool {
    !e64 && matches!(op.info().sig, Sig::Vopc | Sig::Vopc64 | Sig::Cndmask)
}

fn set(flag: &mut bool) -> bool {
    *flag = true;
    true
}

/// `s12` → ("s", Some(12)); `s` → ("s", None); others → (name, None). A number too large
/// for 64 bits reads as `u64::MAX` (out of range either way).
fn split_reg(name: &str) -> (&str, Option<u64>) {
    for prefix in ["ttmp", "s", "v"] {
        if let Some(rest) = name.strip_prefix(prefix) {
            if rest.is_empty() {
                return (prefix, None);
            }
            if rest.bytes().all(|b| b.is_ascii_digit()) {
                return (prefix, Some(rest.parse().unwrap_or(u64::MAX)));
            }
        }
    }
    (name, None)
}

/// An integer constant in a `w`-dword operand, as LLVM encodes it: an inline integer, an
/// inline float with the same bit pattern (32-bit operands), or a 32-bit literal. `text` is
/// the constant as written (for the message).
pub(crate) fn int_constant(v: i128, w: u8, text: &str) -> Result<Operand, String> {
    if !(-(1 << 31)..(1 << 32)).contains(&v) {
        return Err(format!(
            "{text} does not fit in 32 bits (constants are -2147483648..=4294967295)"
        ));
    }
    let bits = v as u32;
    let as_int = if w == 1 { bits as i32 as i128 } else { v };
    if (-16..=64).contains(&as_int) {
        return Ok(Operand::Int(as_int as i8));
    }
    match InlineFloat::from_f32_bits(bits) {
        Some(f) if w == 1 => Ok(Operand::Float(f)),
        _ => Ok(Operand::Literal(bits)),
    }
}

/// A floating-point constant: an inline float, or the single-precision literal. `text` is
/// the constant as written (for the message).
pub(crate) fn float_constant(v: f64, w: u8, op: Op, text: &str) -> Result<Operand, String> {
    if !(v as f32).is_finite() {
        return Err(format!(
            "{text} is outside single precision (the largest float constant is about 3.4e38)"
        ));
    }
    let bits = (v as f32).to_bits();
    if bits == 0 {
        return Ok(Operand::Int(0));
    }
    if let Some(f) = InlineFloat::from_f32_bits(bits) {
        return Ok(Operand::Float(f));
    }
    if w != 1 {
        return Err(format!(
            "a non-inline float constant in a 64-bit operand of {}",
            op.name()
        ));
    }
    if (v as f32) as f64 != v && v.abs() < f32::MIN_POSITIVE as f64 && v != 0.0 {
        return Err(format!("{text} is not representable in single precision"));
    }
    Ok(Operand::Literal(bits))
}
