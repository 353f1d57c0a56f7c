//! FST output: GTKWave's compressed waveform format. No maintained Rust crate writes FST, so a
//! VCD written here is converted with `vcd2fst`, which ships with GTKWave.

use crate::paths::with_path;
use std::io;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Is `path` an FST file name (`.fst`)?
pub fn is_fst(path: &Path) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("fst"))
}

/// Converts the VCD at `vcd` into `X.fst` beside it (X: its stem) and removes the VCD; returns
/// the FST's path.
pub fn to_fst(vcd: &Path) -> io::Result<PathBuf> {
    let fst = vcd.with_extension("fst");
    convert(vcd, &fst)?;
    std::fs::remove_file(vcd).map_err(|e| with_path(e, vcd))?;
    Ok(fst)
}

/// Runs `vcd2fst VCD FST`.
pub fn convert(vcd: &Path, fst: &Path) -> io::Result<()> {
    let out = Command::new("vcd2fst")
        .arg(vcd)
        .arg(fst)
        .output()
        .map_err(|e| match e.kind() {
            io::ErrorKind::NotFound => io::Error::new(
                e.kind(),
                "`vcd2fst` was not found (it ships with gtkwave): run scripts/setup to install it",
            ),
            _ => io::Error::new(e.kind(), format!("vcd2fst: {e}")),
        })?;
    if !out.status.success() || !fst.is_file() {
        let err = String::from_utf8_lossy(&out.stderr);
        return Err(io::Error::other(format!(
            "vcd2fst {} {}: {}",
            vcd.display(),
            fst.display(),
            err.trim()
        )));
    }
    Ok(())
}
