//! `rtgpu run --dump DIR`: every buffer argument's contents after the launch, as files a user
//! can read back with any tool.
//!
//! For the buffer passed as kernel argument K (counting every argument, scalars too, from 0):
//! - `argK.bin`: the dwords, little-endian, as the GPU's memory holds them;
//! - `argK.hex`: one dword per line as 8 hex digits (the format Verilog's `$readmemh` reads);
//! - `buffers.json`: for each buffer its argument index, initial contents (`zero`, `int`,
//!   `float`, `iota`), byte address, size in dwords and the two file names.

use rtgpu_firmware::launch::{Arg, Buffer, Init};
use serde::Serialize;
use std::fmt::Write as _;
use std::path::Path;

/// One buffer in `buffers.json`.
#[derive(Serialize)]
struct Entry {
    arg: usize,
    init: &'static str,
    addr: u64,
    dwords: usize,
    bin: String,
    hex: String,
}

fn init_name(i: Init) -> &'static str {
    match i {
        Init::Zero => "zero",
        Init::Int => "int",
        Init::Float => "float",
        Init::Iota => "iota",
    }
}

/// Writes `contents` (one per buffer argument of `args`, in order; `layout` gives their
/// addresses) into `dir`, creating it. Returns the number of files written.
pub fn write(
    dir: &Path,
    args: &[Arg],
    layout: &[Buffer],
    contents: &[Vec<u32>],
) -> Result<usize, String> {
    let io = |p: &Path, e: std::io::Error| format!("--dump: {}: {e}", p.display());
    std::fs::create_dir_all(dir).map_err(|e| io(dir, e))?;
    let buffers = args.iter().enumerate().filter_map(|(k, a)| match a {
        Arg::Buffer { init, .. } => Some((k, *init)),
        Arg::Scalar(_) => None,
    });
    let mut manifest = Vec::new();
    for (((k, init), words), b) in buffers.zip(contents).zip(layout) {
        let (bin, hex) = (format!("arg{k}.bin"), format!("arg{k}.hex"));
        let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        std::fs::write(dir.join(&bin), bytes).map_err(|e| io(&dir.join(&bin), e))?;
        let mut text = String::with_capacity(words.len() * 9);
        for w in words {
            let _ = writeln!(text, "{w:08x}");
        }
        std::fs::write(dir.join(&hex), text).map_err(|e| io(&dir.join(&hex), e))?;
        manifest.push(Entry {
            arg: k,
            init: init_name(init),
            addr: b.addr,
            dwords: words.len(),
            bin,
            hex,
        });
    }
    let path = dir.join("buffers.json");
    let json = serde_json::to_string_pretty(&manifest).map_err(|e| e.to_string())?;
    std::fs::write(&path, json + "\n").map_err(|e| io(&path, e))?;
    Ok(2 * manifest.len() + 1)
}
