//! The external HDL tools: Icarus Verilog, Verilator (lint) and Yosys (synthesis).
//!
//! Every function takes a directory holding `top.v` (and, for Icarus, `tb.v` and the vector
//! memories) and runs the tool there. A missing tool is an error that says to run
//! `scripts/setup`; nothing passes silently.

use crate::paths::with_path;
use std::fmt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// What went wrong running a tool.
#[derive(Debug)]
pub enum ToolError {
    /// The program is not installed.
    Missing(&'static str),
    /// The program could not be started or its files not written.
    Io(std::io::Error),
    /// The program failed for a reason other than the one being checked (e.g. a compile error).
    Failed {
        /// The program.
        tool: &'static str,
        /// Its working directory (the generated files are there).
        dir: PathBuf,
        /// What it printed.
        log: String,
    },
    /// There is nothing to replay.
    NoVectors,
}

impl fmt::Display for ToolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Missing(t) => write!(f, "`{t}` is not installed: run scripts/setup"),
            Self::Io(e) => write!(f, "{e}"),
            Self::Failed { tool, dir, log } => {
                write!(f, "{tool} failed (files in {}):\n{log}", dir.display())
            }
            Self::NoVectors => write!(f, "no cycles recorded: nothing to cosimulate"),
        }
    }
}

impl std::error::Error for ToolError {}

impl From<std::io::Error> for ToolError {
    fn from(e: std::io::Error) -> Self {
        Self::Io(e)
    }
}

/// Where `program` is on `PATH`.
pub fn find(program: &'static str) -> Result<PathBuf, ToolError> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .map(|dir| dir.join(program))
        .find(|p| p.is_file())
        .ok_or(ToolError::Missing(program))
}

fn run(program: &'static str, args: &[&str], dir: &Path) -> Result<Output, ToolError> {
    Ok(Command::new(find(program)?)
        .args(args)
        .current_dir(dir)
        .output()?)
}

fn failed(tool: &'static str, dir: &Path, log: String) -> ToolError {
    ToolError::Failed {
        tool,
        dir: dir.to_path_buf(),
        log,
    }
}

fn log_of(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// The result of replaying vectors under Icarus.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SimOutcome {
    /// Every output matched every cycle; the testbench's summary line.
    Ok(String),
    /// The first mismatch.
    Mismatch {
        /// The cycle (row of the vectors).
        cycle: u64,
        /// The output port.
        signal: String,
        /// The Rust run's value, hex.
        expected: String,
        /// The Verilog's value, hex (may contain x/z).
        got: String,
    },
}

/// Compiles `tb.v` + `top.v` with `iverilog -g2012` and runs it with `vvp`.
pub fn icarus(dir: &Path) -> Result<SimOutcome, ToolError> {
    let compile = run(
        "iverilog",
        &["-g2012", "-o", "tb.vvp", "tb.v", "top.v"],
        dir,
    )?;
    if !compile.status.success() {
        return Err(failed("iverilog", dir, log_of(&compile)));
    }
    let sim = run("vvp", &["-n", "tb.vvp"], dir)?;
    let log = log_of(&sim);
    if let Some(m) = log.lines().find_map(parse_mismatch) {
        return Ok(m);
    }
    // vvp reports a missing $readmemh file as an ERROR/WARNING line and goes on.
    let trouble = log
        .lines()
        .any(|l| l.starts_with("ERROR") || l.starts_with("VECTOR") || l.contains("readmem"));
    match log.lines().find(|l| l.starts_with("TESTBENCH OK")) {
        Some(line) if sim.status.success() && !trouble => Ok(SimOutcome::Ok(line.to_string())),
        _ => Err(failed("vvp", dir, log)),
    }
}

/// Parses `MISMATCH cycle=K signal=S expected=E got=G`.
fn parse_mismatch(line: &str) -> Option<SimOutcome> {
    let rest = line.strip_prefix("MISMATCH ")?;
    let field = |key: &str| {
        rest.split_whitespace()
            .find_map(|kv| kv.strip_prefix(key)?.strip_prefix('='))
            .map(str::to_string)
    };
    Some(SimOutcome::Mismatch {
        cycle: field("cycle")?.parse().ok()?,
        signal: field("signal")?,
        expected: field("expected")?,
        got: field("got")?,
    })
}

/// Verilator's verdict on `top.v`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LintReport {
    /// No warning and no error under `-Wall`.
    pub clean: bool,
    /// The `%Warning`/`%Error` lines.
    pub findings: Vec<String>,
}

/// A lint finding a block accepts on purpose: one rule on one signal, with the reason.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Waiver {
    /// The Verilator rule (`UNUSEDSIGNAL`).
    pub rule: &'static str,
    /// The signal's name in `top.v` (the message names it in quotes).
    pub signal: &'static str,
    /// Why the finding is expected.
    pub why: &'static str,
}

/// `verilator --lint-only -Wall -Wno-DECLFILENAME waivers.vlt top.v`.
///
/// DECLFILENAME is the one rule waived everywhere: it asks for one module per file named after
/// it, while rust-hdl emits the whole hierarchy (`top`, `top$word`, ...) as one file. It is
/// about file layout, not logic. Beyond it, only the block's own `waivers` are accepted, each
/// as a `lint_off -rule RULE -match` on messages naming its one signal (`waivers.vlt`).
pub fn verilator_lint(dir: &Path, waivers: &[Waiver]) -> Result<LintReport, ToolError> {
    let mut config = String::from("`verilator_config\n");
    for w in waivers {
        config += &format!(
            "// {}\nlint_off -rule {} -file \"*\" -match \"*'{}'*\"\n",
            w.why, w.rule, w.signal
        );
    }
    let vlt = dir.join("waivers.vlt");
    std::fs::write(&vlt, config).map_err(|e| ToolError::Io(with_path(e, &vlt)))?;
    let args = [
        "--lint-only",
        "-Wall",
        "-Wno-DECLFILENAME",
        "--top-module",
        "top",
        "waivers.vlt",
        "top.v",
    ];
    let out = run("verilator", &args, dir)?;
    let findings: Vec<String> = log_of(&out)
        .lines()
        .filter(|l| l.starts_with("%Warning") || l.starts_with("%Error"))
        .map(str::to_string)
        .collect();
    Ok(LintReport {
        clean: out.status.success() && findings.is_empty(),
        findings,
    })
}

/// What Yosys made of `top.v`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SynthReport {
    /// `Number of cells` of the flattened top after `synth -top top`.
    pub cells: u64,
    /// The `stat` section of the log.
    pub stat: String,
}

/// `yosys -p "read_verilog top.v; synth -flatten -top top; stat"`.
pub fn yosys_synth(dir: &Path) -> Result<SynthReport, ToolError> {
    let script = "read_verilog top.v; synth -flatten -top top; stat";
    let out = run("yosys", &["-p", script], dir)?;
    let log = log_of(&out);
    if !out.status.success() {
        return Err(failed("yosys", dir, log));
    }
    let stat_start = log.rfind("Printing statistics").unwrap_or(0);
    let stat = log[stat_start..].to_string();
    let cells = stat
        .lines()
        .find_map(|l| l.trim().strip_prefix("Number of cells:"))
        .and_then(|n| n.trim().parse().ok())
        .ok_or_else(|| failed("yosys", dir, format!("no cell count in:\n{stat}")))?;
    Ok(SynthReport { cells, stat })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mismatch_lines_parse() {
        let m = parse_mismatch("MISMATCH cycle=12 signal=is_split expected=1 got=0").unwrap();
        assert_eq!(
            m,
            SimOutcome::Mismatch {
                cycle: 12,
                signal: "is_split".into(),
                expected: "1".into(),
                got: "0".into()
            }
        );
        assert_eq!(parse_mismatch("TESTBENCH OK"), None);
    }

    #[test]
    fn missing_tools_say_run_setup() {
        let e = find("rtgpu-no-such-tool-xyz").unwrap_err();
        assert!(e.to_string().contains("run scripts/setup"));
    }
}
