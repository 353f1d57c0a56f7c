//! Assembler directives: the ones clang (`-target amdgcn-amd-amdhsa`) writes around a kernel.
//!
//! - `.text`, `.section NAME[,flags]`: the current section; instructions only in `.text`;
//! - `.p2align N`: in `.text`, pad with `s_nop 0` to a multiple of 2^N bytes (as llvm-mc
//!   does); elsewhere nothing;
//! - `.amdhsa_kernel NAME` … `.end_amdhsa_kernel`: the kernel descriptor, one
//!   `.amdhsa_FIELD VALUE` a line ([`KernelDescriptor`]);
//! - `.amdgpu_metadata` … `.end_amdgpu_metadata`: the code object metadata (YAML), kept as
//!   text ([`Metadata`]);
//! - `.amdgcn_target "…"`, `.globl`, `.protected`, `.hidden`, `.type`, `.size`, `.ident`,
//!   `.addrsig`, `.addrsig_sym`: symbol and object-file bookkeeping without effect on the code.
//!
//! Any other directive is an error naming it.

use std::collections::BTreeMap;

/// The kernel descriptor of an `.amdhsa_kernel` block: its name (the kernel's entry label)
/// and every `.amdhsa_*` field with its value (names without the `.amdhsa_` prefix).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct KernelDescriptor {
    /// The kernel's symbol, a label in `.text` (its entry point).
    pub name: String,
    /// 1-based source line of `.amdhsa_kernel`.
    pub line: usize,
    /// `user_sgpr_count` → 8, `system_vgpr_workitem_id` → 0, …
    pub fields: BTreeMap<String, u64>,
}

impl KernelDescriptor {
    /// A field's value; 0 when the block leaves it out (LLVM's default for the fields rtgpu
    /// reads).
    pub fn get(&self, field: &str) -> u64 {
        self.fields.get(field).copied().unwrap_or(0)
    }
}

/// The `.amdgpu_metadata` block: its YAML text and the source line it starts on.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Metadata {
    /// The lines between `.amdgpu_metadata` and `.end_amdgpu_metadata`.
    pub yaml: String,
    /// 1-based source line of the first YAML line.
    pub line: usize,
}

/// A block of lines that are not instructions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Block {
    None,
    Descriptor,
    Metadata,
}

/// What the directives of a source have set up so far.
#[derive(Debug)]
pub struct Directives {
    /// The current section is `.text`.
    pub in_text: bool,
    block: Block,
    /// The kernel descriptor, once its block has been read.
    pub kernel: Option<KernelDescriptor>,
    /// The metadata block, once read.
    pub metadata: Option<Metadata>,
}

/// A directive's effect on the code: pad to an alignment, or nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Effect {
    /// No code.
    None,
    /// Pad the code to a multiple of this many bytes.
    Align(u32),
}

/// Directives with no effect on the code that rtgpu accepts as clang writes them.
const BOOKKEEPING: &[&str] = &[
    ".amdgcn_target",
    ".globl",
    ".protected",
    ".hidden",
    ".type",
    ".size",
    ".ident",
    ".addrsig",
    ".addrsig_sym",
];

/// The error of a directive line: 1-based column and message.
pub type DErr = (usize, String);

impl Default for Directives {
    fn default() -> Self {
        Directives {
            in_text: true,
            block: Block::None,
            kernel: None,
            metadata: None,
        }
    }
}

impl Directives {
    /// Inside a descriptor or metadata block every line belongs to the block.
    pub fn in_block(&self) -> bool {
        self.block != Block::None
    }

    /// Takes one line inside a block (`raw` is the whole line, comments not stripped).
    pub fn block_line(&mut self, raw: &str, line: usize) -> Result<(), DErr> {
        match self.block {
            Block::Metadata => {
                if raw.trim() == ".end_amdgpu_metadata" {
                    self.block = Block::None;
                    return Ok(());
                }
                let m = self.metadata.get_or_insert_with(|| Metadata {
                    yaml: String::new(),
                    line,
                });
                m.yaml.push_str(raw);
                m.yaml.push('\n');
                Ok(())
            }
            _ => self.descriptor_line(raw),
        }
    }

    /// One `.amdhsa_FIELD VALUE` line, or the block's end.
    fn descriptor_line(&mut self, raw: &str) -> Result<(), DErr> {
        let code = super::strip_comment(raw);
        let text = code.trim();
        let col = column(code);
        if text.is_empty() {
            return Ok(());
        }
        if text == ".end_amdhsa_kernel" {
            self.block = Block::None;
            return Ok(());
        }
        let (name, value) = text.split_once(char::is_whitespace).unwrap_or((text, ""));
        let Some(field) = name.strip_prefix(".amdhsa_") else {
            return Err((
                col,
                format!("expected an .amdhsa_ field or .end_amdhsa_kernel, found '{name}'"),
            ));
        };
        let value = parse_u64(value.trim()).ok_or_else(|| {
            (
                col,
                format!("{name} needs an integer value, got '{}'", value.trim()),
            )
        })?;
        let kernel = self
            .kernel
            .as_mut()
            .expect("a descriptor block has a kernel");
        if kernel.fields.insert(field.to_string(), value).is_some() {
            return Err((col, format!("{name} is given twice")));
        }
        Ok(())
    }

    /// Handles a directive line (`code`: comments stripped, starting with `.` after
    /// whitespace); returns its effect on the code.
    pub fn directive(&mut self, code: &str, line: usize) -> Result<Effect, DErr> {
        let text = code.trim();
        let col = column(code);
        let (name, args) = text.split_once(char::is_whitespace).unwrap_or((text, ""));
        let args = args.trim();
        match name {
            ".text" => self.in_text = true,
            ".section" => self.in_text = args.split(',').next().map(str::trim) == Some(".text"),
            ".p2align" => return self.p2align(args, col),
            ".amdhsa_kernel" => self.open_descriptor(args, line, col)?,
            ".amdgpu_metadata" if self.metadata.is_some() => {
                return Err((col, "a second .amdgpu_metadata block".into()))
            }
            ".amdgpu_metadata" => self.block = Block::Metadata,
            n if BOOKKEEPING.contains(&n) => {}
            n => {
                return Err((
                    col,
                    format!(
                        "unsupported directive '{n}' (accepted: .text, .section, .p2align, \
                         .amdhsa_kernel, .amdgpu_metadata, {})",
                        BOOKKEEPING.join(", ")
                    ),
                ))
            }
        }
        Ok(Effect::None)
    }

    fn p2align(&self, args: &str, col: usize) -> Result<Effect, DErr> {
        let first = args.split(',').next().unwrap_or("").trim();
        match parse_u64(first) {
            Some(n) if n <= 16 => Ok(if self.in_text {
                Effect::Align(1 << n)
            } else {
                Effect::None
            }),
            _ => Err((
                col,
                format!(".p2align needs a power of two 0..=16, got '{first}'"),
            )),
        }
    }

    fn open_descriptor(&mut self, args: &str, line: usize, col: usize) -> Result<(), DErr> {
        if self.kernel.is_some() {
            return Err((
                col,
                "a second .amdhsa_kernel: rtgpu runs one kernel per file".into(),
            ));
        }
        if args.is_empty() || args.contains(char::is_whitespace) {
            return Err((col, ".amdhsa_kernel needs the kernel's name".into()));
        }
        self.kernel = Some(KernelDescriptor {
            name: args.to_string(),
            line,
            fields: BTreeMap::new(),
        });
        self.block = Block::Descriptor;
        Ok(())
    }

    /// The end of the source: an open block is an error.
    pub fn finish(&self) -> Result<(), String> {
        match self.block {
            Block::None => Ok(()),
            Block::Descriptor => Err(".amdhsa_kernel without .end_amdhsa_kernel".into()),
            Block::Metadata => Err(".amdgpu_metadata without .end_amdgpu_metadata".into()),
        }
    }
}

/// The line is a directive: its first word starts with `.` and is not a label.
pub fn is_directive(code: &str) -> bool {
    let t = code.trim_start();
    let word = t.split(char::is_whitespace).next().unwrap_or("");
    word.starts_with('.') && !word.ends_with(':') && word.len() > 1
}

/// 1-based column of the first non-blank character.
fn column(code: &str) -> usize {
    code.chars().take_while(|c| c.is_whitespace()).count() + 1
}

/// A decimal or `0x` hexadecimal number.
pub fn parse_u64(text: &str) -> Option<u64> {
    match text.strip_prefix("0x") {
        Some(hex) => u64::from_str_radix(hex, 16).ok(),
        None => text.parse().ok(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recognises_directives_but_not_labels() {
        assert!(is_directive("\t.p2align 8"));
        assert!(!is_directive(".LBB0_2:"));
        assert!(!is_directive("s_endpgm"));
        assert!(!is_directive("."));
    }

    #[test]
    fn descriptor_block() {
        let mut d = Directives::default();
        d.directive(".amdhsa_kernel k", 3).unwrap();
        assert!(d.in_block());
        d.block_line("  .amdhsa_user_sgpr_count 8 ; x", 4).unwrap();
        let e = d.block_line("  .amdhsa_user_sgpr_count 8", 5).unwrap_err();
        assert!(e.1.contains("twice"), "{e:?}");
        assert!(d.block_line("  s_nop 0", 6).is_err());
        assert!(d
            .block_line("  .amdhsa_x y", 6)
            .unwrap_err()
            .1
            .contains("integer"));
        d.block_line(".end_amdhsa_kernel", 7).unwrap();
        assert!(!d.in_block());
        assert_eq!(d.kernel.as_ref().unwrap().get("user_sgpr_count"), 8);
        assert_eq!(d.kernel.as_ref().unwrap().get("absent"), 0);
    }

    #[test]
    fn sections_and_alignment() {
        let mut d = Directives::default();
        assert_eq!(d.directive(".p2align 8", 1), Ok(Effect::Align(256)));
        d.directive(".section .rodata,#alloc", 2).unwrap();
        assert!(!d.in_text);
        assert_eq!(d.directive(".p2align 6", 3), Ok(Effect::None));
        d.directive(".text", 4).unwrap();
        assert!(d.in_text);
        let e = d.directive("  .weird 1", 5).unwrap_err();
        assert_eq!(e.0, 3);
        assert!(e.1.contains("'.weird'"), "{e:?}");
    }
}
