//! `rtgpu disasm`: a code image back to assembly.

use crate::common::{file_fail, Fail};
use rtgpu_firmware::isa::disassemble;
use std::path::PathBuf;

/// The arguments of `rtgpu disasm`.
#[derive(clap::Args)]
pub struct DisasmArgs {
    /// Code image.
    file: PathBuf,
}

/// Disassembles the little-endian code image and prints one instruction a line; the output
/// reassembles to the same words.
pub fn run(a: &DisasmArgs) -> Result<(), Fail> {
    let bin = &a.file;
    let bytes = std::fs::read(bin).map_err(file_fail(1, bin))?;
    if bytes.len() % 4 != 0 {
        return Err(Fail(
            1,
            format!(
                "{}: {} bytes is not a whole number of dwords",
                bin.display(),
                bytes.len()
            ),
        ));
    }
    let words: Vec<u32> = bytes
        .chunks(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    let items = disassemble(&words).map_err(file_fail(1, bin))?;
    items.iter().for_each(|d| println!("{d}"));
    Ok(())
}
