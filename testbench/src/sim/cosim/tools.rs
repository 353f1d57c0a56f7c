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

/// Compiles `tb.v` + `top.v` with `iverilog -g2012` and runs it with `vvp`. A `top.v` with a
/// description of its own for synthesis (`ifdef SYNTHESIS`, which Yosys defines) runs a
/// second time with `-DSYNTHESIS`: the Verilog Yosys reads gets the same per-cycle
/// comparison as the Verilog the simulators read.
pub fn icarus(dir: &Path) -> Result<SimOutcome, ToolError> {
    let first = icarus_with(dir, &[])?;
    let top = std::fs::read_to_string(dir.join("top.v"))?;
    if !matches!(first, SimOutcome::Ok(_)) || !top.contains("`ifdef SYNTHESIS") {
        return Ok(first);
    }
    match icarus_with(dir, &["-DSYNTHESIS"])? {
        SimOutcome::Ok(line) => Ok(SimOutcome::Ok(format!("{line} (and with SYNTHESIS)"))),
        mismatch => Ok(mismatch),
    }
}

/// One Icarus compile and run with the extra `iverilog` arguments `defines`.
fn icarus_with(dir: &Path, defines: &[&str]) -> Result<SimOutcome, ToolError> {
    let mut args = vec!["-g2012", "-o", "tb.vvp"];
    args.extend_from_slice(defines);
    args.extend(["tb.v", "top.v"]);
    let compile = run("iverilog", &args, dir)?;
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

/// A kind of lint finding a block accepts on purpose, by the shape of its message rather than
/// one signal: for findings that name no signal (a `bit_cast` of a slice) or the same
/// construct in every instance of a sub-block (16 lanes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KindWaiver {
    /// The Verilator rule (`WIDTH`).
    pub rule: &'static str,
    /// A Verilator wildcard pattern (`*`, `?`) over the whole message text.
    pub message: &'static str,
    /// Why findings of this shape are expected.
    pub why: &'static str,
}

/// rust-hdl's `bit_cast` to a wider type, a zero-extension, as Verilator sees it: an AND of the
/// signal (or of a slice of one) with a mask of the wider width. Rust's types give every other
/// AND operands of one width, and a cast of an expression (whose Verilog would compute at the
/// wider width) is reported as that expression's operator, not waived here.
pub const BIT_CAST_WIDTH: [KindWaiver; 2] = [
    KindWaiver {
        rule: "WIDTH",
        message: "*Operator AND expects * bits on the LHS, but LHS's VARREF * generates *",
        why: "rust-hdl writes bit_cast (a zero-extension) of a signal as an AND with a wider mask",
    },
    KindWaiver {
        rule: "WIDTH",
        message: "*Operator AND expects * bits on the LHS, but LHS's SEL generates *",
        why: "rust-hdl writes bit_cast (a zero-extension) of a slice as an AND with a wider mask",
    },
];

/// `verilator --lint-only -Wall -Wno-DECLFILENAME waivers.vlt top.v`.
///
/// DECLFILENAME is the one rule waived everywhere: it asks for one module per file named after
/// it, while rust-hdl emits the whole hierarchy (`top`, `top$word`, ...) as one file. It is
/// about file layout, not logic. Beyond it, only the block's own `waivers` are accepted, each
/// as a `lint_off -rule RULE -match` on messages naming its one signal, and its `kinds`, each
/// on messages of its pattern (`waivers.vlt`).
pub fn verilator_lint(
    dir: &Path,
    waivers: &[Waiver],
    kinds: &[KindWaiver],
) -> Result<LintReport, ToolError> {
    let mut config = String::from("`verilator_config\n");
    let signals = waivers
        .iter()
        .map(|w| (w.rule, format!("*'{}'*", w.signal), w.why));
    let shapes = kinds.iter().map(|w| (w.rule, w.message.to_string(), w.why));
    for (rule, pattern, why) in signals.chain(shapes) {
        config += &format!("// {why}\nlint_off -rule {rule} -file \"*\" -match \"{pattern}\"\n");
    }
    let vlt = dir.join("waivers.vlt");
    std::fs::write(&vlt, config).map_err(|e| ToolError::Io(with_path(e, &vlt)))?;
    // A description of its own for synthesis (`ifdef SYNTHESIS`) is linted too.
    let top = std::fs::read_to_string(dir.join("top.v"))?;
    let defines: &[&[&str]] = match top.contains("`ifdef SYNTHESIS") {
        true => &[&[], &["-DSYNTHESIS"]],
        false => &[&[]],
    };
    let (mut clean, mut findings) = (true, Vec::new());
    for define in defines {
        let mut args = vec!["--lint-only", "-Wall", "-Wno-DECLFILENAME"];
        args.extend_from_slice(define);
        args.extend(["--top-module", "top", "waivers.vlt", "top.v"]);
        let out = run("verilator", &args, dir)?;
        let found = log_of(&out)
            .lines()
            .filter(|l| l.starts_with("%Warning") || l.starts_with("%Error"))
            .map(|l| match define.is_empty() {
                true => l.to_string(),
                false => format!("{l} (with SYNTHESIS)"),
            })
            .collect::<Vec<_>>();
        clean &= out.status.success() && found.is_empty();
        findings.extend(found);
    }
    Ok(LintReport { clean, findings })
}

/// How Yosys synthesizes a block: one script for most, another where the default does not
/// finish or where the cells are wanted per sub-block. `rtgpu synth` prints the script it ran.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SynthScript {
    /// `synth -flatten -top top`: the whole hierarchy as one netlist (every block but those
    /// below).
    Flat,
    /// `synth -flatten -noshare -top top`: without the `share` pass, which merges shifters and
    /// multipliers that are never active together behind multiplexers. It is the pass that ran
    /// out of 23 GB on the VALU's 16 fp32 lanes (a SAT-based search over every pair of their
    /// shifters); without it the VALU takes ~4 minutes and ~3.5 GB.
    FlatNoShare,
    /// A Yosys run per sub-block of the top (`synth -flatten -noshare -noabc -top M`, on the
    /// cores
    /// available) and one for the top's own registers and glue with the sub-blocks as black
    /// boxes: `stat` counts the cells of each sub-block (see [`super::by_sub_block`]).
    BySubBlock,
}

impl SynthScript {
    /// The `synth` command line.
    pub fn synth_command(self) -> &'static str {
        match self {
            Self::Flat => "synth -flatten -top top",
            Self::FlatNoShare => "synth -flatten -noshare -top top",
            Self::BySubBlock => {
                "synth -flatten -noshare -noabc, a run per sub-block and one for the top's glue"
            }
        }
    }

    /// The Yosys script of a flat synthesis.
    fn script(self) -> String {
        format!(
            "read_verilog top.v; hierarchy -top top; {}; stat -top top",
            self.synth_command()
        )
    }
}

/// The modules of the top's sub-blocks in `verilog`: the modules instantiated in module `top`,
/// but its registers (rust-hdl's `DFF`s, modules with the ports `d`, `q`, `clock`).
pub fn sub_blocks(verilog: &str) -> Vec<String> {
    let top = verilog.split("endmodule").next().unwrap_or_default();
    let register = |m: &str| verilog.contains(&format!("module {m}(d,q,clock);"));
    top.lines()
        .filter_map(|l| {
            let mut words = l.split_whitespace();
            let (module, instance) = (words.next()?, words.next()?);
            (module.starts_with("top$") && instance.ends_with('(')).then(|| module.to_string())
        })
        .filter(|m| !register(m))
        .collect()
}

/// What Yosys made of `top.v`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SynthReport {
    /// `Number of cells` of the whole design (with [`SynthScript::BySubBlock`]: the sum of the
    /// parts).
    pub cells: u64,
    /// The `stat` section of the log (of each run).
    pub stat: String,
    /// The script that ran.
    pub script: SynthScript,
    /// With [`SynthScript::BySubBlock`]: each sub-block's module and cells, in the order of
    /// the top's instances; then `("top", n)`: the top's own registers and glue.
    pub sub_blocks: Vec<(String, u64)>,
    /// With [`SynthScript::BySubBlock`]: the runs (sub-block modules, or `top` for the glue)
    /// whose results came from earlier runs ([`super::synth_memo`]) rather than Yosys.
    pub remembered: Vec<String>,
}

/// `yosys -p "read_verilog top.v; hierarchy -top top; SYNTH; stat -top top"` with `script`'s
/// `synth` command ([`SynthScript::BySubBlock`]: on every core).
pub fn yosys_synth(dir: &Path, script: SynthScript) -> Result<SynthReport, ToolError> {
    if script == SynthScript::BySubBlock {
        let cores = crate::cu::sweep::default_jobs();
        return super::by_sub_block::synth(dir, cores, |_, _, _| {});
    }
    let (cells, stat) = yosys_run(dir, &script.script(), "top")?;
    Ok(SynthReport {
        cells,
        stat,
        script,
        sub_blocks: Vec::new(),
        remembered: Vec::new(),
    })
}

/// Runs the Yosys `script` in `dir`: the cells of module `top` and the log's `stat` section.
/// The log is written to `dir/TOP.yosys.log` (`$` as `_`) as Yosys runs.
pub(super) fn yosys_run(dir: &Path, script: &str, top: &str) -> Result<(u64, String), ToolError> {
    // (The whole log goes to a file while Yosys runs, so a long run can be followed there.)
    let file = format!("{}.yosys.log", top.replace('$', "_"));
    let out = run("yosys", &["-q", "-l", &file, "-p", script], dir)?;
    let log = std::fs::read_to_string(dir.join(&file)).unwrap_or_else(|_| log_of(&out));
    if !out.status.success() {
        return Err(failed("yosys", dir, log));
    }
    let stat_start = log.rfind("Printing statistics").unwrap_or(0);
    let stat = log[stat_start..].to_string();
    let sections = stat_sections(&stat);
    match sections.iter().find(|(n, _)| n == top) {
        Some((_, cells)) => Ok((*cells, stat)),
        None => Err(failed("yosys", dir, format!("no cell count in:\n{stat}"))),
    }
}

/// Yosys' version line (`yosys -V`).
pub(super) fn yosys_version(dir: &Path) -> Result<String, ToolError> {
    let out = run("yosys", &["-V"], dir)?;
    match out.status.success() {
        true => Ok(String::from_utf8_lossy(&out.stdout).trim().to_string()),
        false => Err(failed("yosys", dir, log_of(&out))),
    }
}

/// The `=== NAME ===` sections of a `stat` report with their `Number of cells`.
fn stat_sections(stat: &str) -> Vec<(String, u64)> {
    let mut out: Vec<(String, u64)> = Vec::new();
    let mut name = None;
    for l in stat.lines().map(str::trim) {
        if let Some(n) = l.strip_prefix("=== ").and_then(|r| r.strip_suffix(" ===")) {
            name = Some(n.to_string());
        } else if let Some(n) = l.strip_prefix("Number of cells:") {
            if let (Some(m), Ok(n)) = (name.take(), n.trim().parse()) {
                out.push((m, n));
            }
        }
    }
    out
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

    /// A top with a sub-block `top$alu` (which has one of its own) and a register `top$r`.
    const TOP_V: &str = "module top(clock,a,y);\n    // Sub module instances\n    top$alu alu(\n    .a(a)\n    );\n    top$r r(\n    .clock(clock)\n    );\nendmodule // top\nmodule top$alu(a,y);\n    top$alu$add add(\n    );\nendmodule\nmodule top$r(d,q,clock);\nendmodule\n";

    #[test]
    fn sub_blocks_are_the_tops_instances_but_its_registers() {
        assert_eq!(sub_blocks(TOP_V), ["top$alu"]);
        assert!(SynthScript::FlatNoShare
            .script()
            .contains("-noshare -top top;"));
    }

    /// Yosys 0.23's `stat`: the sections and their cells.
    #[test]
    fn stat_sections_parse() {
        let stat = "=== top$alu ===\n   Number of cells:                120\n=== top ===\n   Number of cells:                 31\n     top$alu                          1\n";
        assert_eq!(
            stat_sections(stat),
            [("top$alu".to_string(), 120), ("top".to_string(), 31)]
        );
    }

    #[test]
    fn missing_tools_say_run_setup() {
        let e = find("rtgpu-no-such-tool-xyz").unwrap_err();
        assert!(e.to_string().contains("run scripts/setup"));
    }
}
