//! The assembler: `.s` text in LLVM's AMDGPU syntax (gfx8) → code image.
//!
//! A line holds optional labels (`name:`), then a directive or an instruction; `;` and `//`
//! start comments. Branches take a label or a signed dword offset. The directives are those
//! clang writes around an HSA kernel ([`directive`]): its kernel descriptor and metadata
//! are kept in the [`Program`]. Errors carry `file:line:column` and what was expected.

mod directive;
mod lexer;
mod parse;

use directive::{is_directive, Directives, Effect};
pub use directive::{KernelDescriptor, Metadata};

use super::instruction::Instruction;
use super::opcode::Op;
use lexer::{tokenize, Tok, Token};
use std::collections::BTreeMap;
use std::fmt;

/// An assembly error at a source position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AsmError {
    /// Source file name as given to [`assemble`].
    pub file: String,
    /// 1-based line.
    pub line: usize,
    /// 1-based column.
    pub col: usize,
    /// What went wrong / what was expected.
    pub msg: String,
}

impl fmt::Display for AsmError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}:{}: error: {}",
            self.file, self.line, self.col, self.msg
        )
    }
}

impl std::error::Error for AsmError {}

/// One assembled instruction with its source.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Listing {
    /// Byte address.
    pub addr: u32,
    /// Encoded words.
    pub words: Vec<u32>,
    /// The instruction.
    pub insn: Instruction,
    /// 1-based source line.
    pub line: usize,
}

/// An assembled program.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Program {
    /// The instructions in address order.
    pub items: Vec<Listing>,
    /// Label → byte address.
    pub labels: BTreeMap<String, u32>,
    /// The `.amdhsa_kernel` descriptor: the kernel is compiled code with the HSA ABI
    /// (docs/opencl.md); `None` for rtgpu's own ABI (firmware/kernels/README.md).
    pub kernel: Option<KernelDescriptor>,
    /// The `.amdgpu_metadata` block (the kernel's arguments), if any.
    pub metadata: Option<Metadata>,
}

impl Program {
    /// The byte address execution starts at: the kernel descriptor's label, else 0.
    pub fn entry_pc(&self) -> u32 {
        self.kernel
            .as_ref()
            .and_then(|k| self.labels.get(&k.name).copied())
            .unwrap_or(0)
    }

    /// The code image as dwords.
    pub fn words(&self) -> Vec<u32> {
        self.items
            .iter()
            .flat_map(|l| l.words.iter().copied())
            .collect()
    }

    /// The code image as little-endian bytes.
    pub fn bytes(&self) -> Vec<u8> {
        self.words().iter().flat_map(|w| w.to_le_bytes()).collect()
    }

    /// The program can run as a kernel: it has instructions and an `s_endpgm` (without one the
    /// wavefronts would run past the last instruction into empty instruction memory). `file`
    /// names the source in the error.
    pub fn check_kernel(&self, file: &str) -> Result<(), AsmError> {
        let msg = if self.items.is_empty() {
            "the kernel has no instructions (a kernel ends with s_endpgm)"
        } else if !self.items.iter().any(|l| l.insn.op == Op::SEndpgm) {
            "the kernel has no s_endpgm: its wavefronts would run past the last instruction"
        } else {
            return Ok(());
        };
        Err(AsmError {
            file: file.into(),
            line: self.items.last().map_or(1, |l| l.line),
            col: 1,
            msg: msg.into(),
        })
    }
}

/// An instruction waiting for its label to be resolved.
struct Pending {
    insn: Instruction,
    label: Option<(String, usize)>,
    addr: u32,
    line: usize,
}

/// Assembles a source text; `file` names it in errors.
pub fn assemble(src: &str, file: &str) -> Result<Program, AsmError> {
    let err = |line: usize, (col, msg): (usize, String)| AsmError {
        file: file.into(),
        line,
        col,
        msg,
    };
    let mut labels = BTreeMap::new();
    let mut pending = Vec::new();
    let mut dirs = Directives::default();
    let mut addr = 0u32;
    for (i, text) in src.lines().enumerate() {
        let line = i + 1;
        if dirs.in_block() {
            dirs.block_line(text, line).map_err(|e| err(line, e))?;
            continue;
        }
        let code = strip_comment(text);
        if is_directive(code) {
            if let Effect::Align(bytes) = dirs.directive(code, line).map_err(|e| err(line, e))? {
                pad(&mut pending, &mut addr, bytes, line);
            }
            continue;
        }
        let tokens = tokenize(code, 1).map_err(|e| err(line, e))?;
        let rest = take_labels(&tokens, addr, &mut labels).map_err(|e| err(line, e))?;
        if rest.is_empty() {
            continue;
        }
        if !dirs.in_text {
            return Err(err(
                line,
                (
                    rest[0].col,
                    "an instruction outside the .text section".into(),
                ),
            ));
        }
        let parsed =
            parse::parse_instruction(rest, code.chars().count() + 1).map_err(|e| err(line, e))?;
        // Validated by the parser; encoded once labels are known.
        let size = 4 * parsed.insn.dwords() as u32;
        pending.push(Pending {
            insn: parsed.insn,
            label: parsed.label,
            addr,
            line,
        });
        addr = addr.checked_add(size).ok_or_else(|| {
            err(
                line,
                (
                    1,
                    "the program is larger than the 4 GiB address space".into(),
                ),
            )
        })?;
    }
    let last = src.lines().count().max(1);
    dirs.finish().map_err(|m| err(last, (1, m)))?;
    check_entry(&dirs, &labels).map_err(|(line, m)| err(line, (1, m)))?;
    let items = pending
        .into_iter()
        .map(|p| resolve(p, &labels).map_err(|(line, e)| err(line, e)))
        .collect::<Result<_, _>>()?;
    Ok(Program {
        items,
        labels,
        kernel: dirs.kernel,
        metadata: dirs.metadata,
    })
}

/// Pads the code with `s_nop 0` up to a multiple of `bytes` (llvm-mc's code alignment).
fn pad(pending: &mut Vec<Pending>, addr: &mut u32, bytes: u32, line: usize) {
    while !addr.is_multiple_of(bytes) {
        pending.push(Pending {
            insn: Instruction::new(Op::SNop),
            label: None,
            addr: *addr,
            line,
        });
        *addr += 4;
    }
}

/// The kernel descriptor names a label of the code: its entry point.
fn check_entry(dirs: &Directives, labels: &BTreeMap<String, u32>) -> Result<(), (usize, String)> {
    match &dirs.kernel {
        Some(k) if !labels.contains_key(&k.name) => Err((
            k.line,
            format!(".amdhsa_kernel {0}: no label '{0}' in the code", k.name),
        )),
        _ => Ok(()),
    }
}

/// Assembles one instruction line (no labels).
pub fn assemble_line(text: &str) -> Result<Instruction, AsmError> {
    let program = assemble(text, "<line>")?;
    match program.items.as_slice() {
        [one] => Ok(one.insn),
        _ => Err(AsmError {
            file: "<line>".into(),
            line: 1,
            col: 1,
            msg: "expected one instruction".into(),
        }),
    }
}

/// The code part of a line: everything before `;` or `//`.
pub(crate) fn strip_comment(line: &str) -> &str {
    let cut = [line.find(';'), line.find("//")]
        .into_iter()
        .flatten()
        .min();
    cut.map_or(line, |c| &line[..c])
}

/// Consumes leading `name:` labels, recording them at `addr`.
fn take_labels<'a>(
    mut tokens: &'a [Token],
    addr: u32,
    labels: &mut BTreeMap<String, u32>,
) -> Result<&'a [Token], (usize, String)> {
    while let [Token {
        tok: Tok::Ident(name),
        col,
        ..
    }, Token {
        tok: Tok::Punct(':'),
        ..
    }, rest @ ..] = tokens
    {
        if labels.insert(name.clone(), addr).is_some() {
            return Err((*col, format!("label '{name}' is defined twice")));
        }
        tokens = rest;
    }
    Ok(tokens)
}

/// Fills a branch's offset from its label and encodes the instruction.
fn resolve(
    p: Pending,
    labels: &BTreeMap<String, u32>,
) -> Result<Listing, (usize, (usize, String))> {
    let mut insn = p.insn;
    if let Some((name, col)) = &p.label {
        let target = *labels
            .get(name)
            .ok_or((p.line, (*col, format!("undefined label '{name}'"))))?;
        let delta = (target as i64 - (p.addr as i64 + 4)) / 4;
        if !(-32768..=32767).contains(&delta) {
            return Err((
                p.line,
                (*col, format!("branch to '{name}' is out of range")),
            ));
        }
        insn.imm = delta as u16 as u32;
    }
    let words = insn.encode().map_err(|e| (p.line, (1, e.0)))?;
    Ok(Listing {
        addr: p.addr,
        words,
        insn,
        line: p.line,
    })
}
