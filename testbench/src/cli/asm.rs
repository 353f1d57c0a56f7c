//! `rtgpu asm`: a GCN3 (gfx8) + split/merge source to a code image.

use crate::common::{file_fail, Fail};
use rtgpu_firmware::isa::assemble;
use rtgpu_testbench::cu::read_input;
use std::path::PathBuf;

/// The arguments of `rtgpu asm`.
#[derive(clap::Args)]
pub struct AsmArgs {
    /// Assembly source (LLVM syntax).
    file: PathBuf,
    /// Write the code image (little-endian dwords) here.
    #[arg(short, long)]
    output: Option<PathBuf>,
}

/// Assembles the source; prints `ADDR: WORD(S)  TEXT` per instruction; writes the
/// little-endian image to `--output` if given. Exit code 2 for an unreadable source or an
/// assembly error or an unwritable `--output`.
pub fn run(a: &AsmArgs) -> Result<(), Fail> {
    let src = &a.file;
    let text = read_input(src).map_err(|e| Fail(2, e))?;
    let program =
        assemble(&text, &src.display().to_string()).map_err(|e| Fail(2, e.to_string()))?;
    for item in &program.items {
        let words: Vec<String> = item.words.iter().map(|w| format!("{w:08X}")).collect();
        println!("{:04x}: {:<18} {}", item.addr, words.join(" "), item.insn);
    }
    if let Some(out) = &a.output {
        std::fs::write(out, program.bytes()).map_err(file_fail(2, out))?;
    }
    Ok(())
}
