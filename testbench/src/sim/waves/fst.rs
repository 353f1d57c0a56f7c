//! FST output: GTKWave's compressed waveform format. The Verilator engine writes it itself
//! (`--trace-fst`); no maintained Rust crate writes FST, so a VCD of the harness or the
//! behavioural model is converted with `vcd2fst`, which ships with GTKWave.

use crate::paths::with_path;
use std::io::{self, BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

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

/// The error of starting GTKWave's converter `tool`: a missing tool says how to install it.
fn tool_error(tool: &'static str) -> impl Fn(io::Error) -> io::Error {
    move |e| match e.kind() {
        io::ErrorKind::NotFound => io::Error::new(
            e.kind(),
            format!(
                "`{tool}` was not found (it ships with gtkwave): run scripts/setup to install it"
            ),
        ),
        _ => io::Error::new(e.kind(), format!("{tool}: {e}")),
    }
}

/// Runs `vcd2fst VCD FST`.
pub fn convert(vcd: &Path, fst: &Path) -> io::Result<()> {
    let out = Command::new("vcd2fst")
        .arg(vcd)
        .arg(fst)
        .output()
        .map_err(tool_error("vcd2fst"))?;
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

/// The header of the FST at `path`, read through `fst2vcd` (which ships with GTKWave): the
/// conversion stops once the header is through.
pub fn fst_header(path: &Path) -> io::Result<vcd::Header> {
    let mut child = Command::new("fst2vcd")
        .arg(path)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(tool_error("fst2vcd"))?;
    let mut text = String::new();
    if let Some(out) = child.stdout.take() {
        for line in BufReader::new(out).lines() {
            let line = line?;
            // SystemVerilog variable types (`logic`, `bit`, ...) as `wire`: only the names and
            // widths matter, and the VCD parser knows the Verilog types only.
            match line.trim_start().strip_prefix("$var ") {
                Some(rest) => {
                    let rest = rest.split_once(' ').map_or(rest, |(_, r)| r);
                    text += &format!("$var wire {rest}");
                }
                None => text += &line,
            }
            text.push('\n');
            if line.contains("$enddefinitions") {
                break;
            }
        }
    }
    // The rest of the conversion is not needed: stop the process this function started.
    let _ = child.kill();
    let _ = child.wait();
    vcd::Parser::new(text.as_bytes()).parse_header()
}
