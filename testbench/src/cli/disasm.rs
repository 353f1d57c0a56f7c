//! `rtgpu disasm`: a code image back to assembly.

use crate::common::{file_fail, Fail};
use rtgpu_firmware::isa::disassemble;
use rtgpu_testbench::cu::read_input_bytes;
use rtgpu_testbench::sim::waves::filter;
use std::path::PathBuf;

/// The arguments of `rtgpu disasm`.
#[derive(clap::Args)]
pub struct DisasmArgs {
    /// Code image.
    #[arg(required_unless_present = "gtkwave_filter")]
    file: Option<PathBuf>,
    /// Be a GTKWave process filter: read one instruction word a line (hexadecimal) on stdin,
    /// write its assembly a line on stdout. The generated .gtkw files run it on the
    /// instruction-word traces.
    #[arg(long, conflicts_with = "file")]
    gtkwave_filter: bool,
}

/// Disassembles the little-endian code image and prints one instruction a line; the output
/// reassembles to the same words. Exit code 2 for an unreadable file or an illegal word. With `--gtkwave-filter`, filters stdin to stdout instead.
pub fn run(a: &DisasmArgs) -> Result<(), Fail> {
    let Some(bin) = &a.file else {
        let stdin = std::io::stdin().lock();
        return Ok(filter::run(stdin, std::io::stdout().lock())?);
    };
    let bytes = read_input_bytes(bin).map_err(|e| Fail(2, e))?;
    if bytes.len() % 4 != 0 {
        return Err(Fail(
            2,
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
    let items = disassemble(&words).map_err(file_fail(2, bin))?;
    items.iter().for_each(|d| println!("{d}"));
    Ok(())
}
