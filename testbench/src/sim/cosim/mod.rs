//! Cosimulation: the Rust run's port vectors replayed against the emitted Verilog.
//!
//! `rtgpu cosim BLOCK` (docs/verification.md):
//! 1. emit the block's Verilog (module `top`);
//! 2. generate a self-checking testbench from the recorded vectors ([`tb_gen`]) and run it
//!    under Icarus: `TESTBENCH OK` or the first mismatch;
//! 3. lint the Verilog with `verilator --lint-only -Wall` and synthesize it with Yosys.
//!
//! Files go to a directory the caller chooses (the CLI uses `target/cosim/NAME/`): `top.v`,
//! `tb.v`, `col*.hex`, and Icarus' `cosim.vcd`.

pub mod by_sub_block;
pub mod synth_memo;
pub mod tb_gen;
pub mod tools;

use crate::paths::with_path;
use crate::sim::ports::PortVectors;
use rust_hdl::core::check_error::check_all;
use rust_hdl::core::prelude::*;
use std::path::Path;
pub use tools::{
    KindWaiver, LintReport, SimOutcome, SynthReport, SynthScript, ToolError, Waiver, BIT_CAST_WIDTH,
};

/// The Verilog of `uut` (module `top`), after rust-hdl's structural checks.
pub fn verilog_of<B: Block>(uut: &mut B) -> Result<String, String> {
    uut.connect_all();
    check_all(uut).map_err(|e| format!("the block fails rust-hdl's checks: {e:?}"))?;
    Ok(generate_verilog_unchecked(uut))
}

/// Writes `name` into `dir` (created if needed); errors name the file.
pub fn put(dir: &Path, name: &str, text: &str) -> std::io::Result<()> {
    std::fs::create_dir_all(dir).map_err(|e| with_path(e, dir))?;
    let path = dir.join(name);
    std::fs::write(&path, text).map_err(|e| with_path(e, &path))
}

/// Writes `top.v`, `tb.v` and the vector memories into `dir`.
pub fn write_files(dir: &Path, verilog: &str, vectors: &PortVectors) -> std::io::Result<()> {
    put(dir, "top.v", verilog)?;
    let tb = tb_gen::generate(vectors);
    put(dir, "tb.v", &tb.tb_v)?;
    for (name, text) in tb.memories {
        put(dir, &name, &text)?;
    }
    Ok(())
}

/// Writes the files into `dir` and replays the vectors under Icarus. An empty recording is an
/// error, not a pass.
pub fn replay(dir: &Path, verilog: &str, vectors: &PortVectors) -> Result<SimOutcome, ToolError> {
    if vectors.cycles() == 0 {
        return Err(ToolError::NoVectors);
    }
    write_files(dir, verilog, vectors)?;
    tools::icarus(dir)
}

/// Writes `top.v` into `dir` and lints it, accepting only `waivers`.
pub fn lint(dir: &Path, verilog: &str, waivers: &[Waiver]) -> Result<LintReport, ToolError> {
    lint_kinds(dir, verilog, waivers, &[])
}

/// Writes `top.v` into `dir` and lints it, accepting only `waivers` and the findings of the
/// shapes `kinds`.
pub fn lint_kinds(
    dir: &Path,
    verilog: &str,
    waivers: &[Waiver],
    kinds: &[KindWaiver],
) -> Result<LintReport, ToolError> {
    put(dir, "top.v", verilog)?;
    tools::verilator_lint(dir, waivers, kinds)
}

/// Writes `top.v` into `dir` and synthesizes it ([`SynthScript::Flat`]).
pub fn synth(dir: &Path, verilog: &str) -> Result<SynthReport, ToolError> {
    synth_with(dir, verilog, SynthScript::Flat)
}

/// Writes `top.v` into `dir` and synthesizes it with `script`.
pub fn synth_with(
    dir: &Path,
    verilog: &str,
    script: SynthScript,
) -> Result<SynthReport, ToolError> {
    put(dir, "top.v", verilog)?;
    tools::yosys_synth(dir, script)
}

/// Writes `top.v` into `dir` and synthesizes it per sub-block ([`SynthScript::BySubBlock`])
/// on `jobs` cores; `tick(done, total, name)` after each Yosys run.
pub fn synth_by_sub_block(
    dir: &Path,
    verilog: &str,
    jobs: usize,
    tick: impl FnMut(usize, usize, &str),
) -> Result<SynthReport, ToolError> {
    put(dir, "top.v", verilog)?;
    by_sub_block::synth(dir, jobs, tick)
}
