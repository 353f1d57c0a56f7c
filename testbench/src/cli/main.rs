//! `rtgpu`: run block testbenches, cosimulate, synthesize and benchmark rtgpu's hardware;
//! assemble and disassemble kernels.
//!
//! Exit codes, the same for every command: 0 success; 1 the simulated run or a check failed
//! (a GPU error status, a timeout, an RTL/model or cosimulation mismatch, lint findings, a
//! tool failure); 2 bad input (usage, an unreadable file, a parse error, a value out of range:
//! the message names the limit). A closed standard output (`rtgpu asm K.s | head -1`) ends the
//! program quietly, as SIGPIPE ends any Unix tool (the shell shows 141).
//!
//! One module per command, each with its arguments and its `run`; [`common`] holds what
//! several share.

mod aging;
mod asm;
mod bench;
mod common;
mod config;
mod cosim;
mod disasm;
mod dram;
mod fuzz;
mod list;
mod multiphase;
mod reorder;
mod reproduce;
mod rtsched;
mod run;
mod scenario;
mod suite;
mod sweep;
mod synth;
mod tb;
mod wcet;

use clap::{Parser, Subcommand};
use common::Fail;
use std::process::ExitCode;

/// The command line: one subcommand.
#[derive(Parser)]
#[command(
    name = "rtgpu",
    version,
    about = "rtgpu: a cycle-accurate RTL model of a predictable GPU",
    after_help = "Exit codes: 0 success; 1 the simulated run or a check failed (GPU error \
                  status, timeout, mismatch); 2 bad input (usage, file, parse error, value out \
                  of range)."
)]
struct Cli {
    /// The command to run.
    #[command(subcommand)]
    cmd: Cmd,
}

/// The commands; each variant's doc comment is its help.
#[derive(Subcommand)]
enum Cmd {
    /// Run a kernel on the compute unit through the driver (the main job): assemble it, lay out
    /// its arguments, launch, run; print cycles, instructions, stalls, splits/merges, per-WF
    /// finish cycles and the status. Exit 0 when the kernel finished, 1 when the GPU stopped
    /// with an error or the timeout passed (the report still prints), 2 on bad input.
    Run(run::RunArgs),
    /// Print the compute unit configuration in full: the defaults (`--defaults`), or a
    /// configuration file checked and completed with them. Exit 2 on an invalid file.
    Config(config::ConfigArgs),
    /// Run the system scenarios (all, or those named) on the kernels in firmware/kernels/
    /// under the current directory: each writes waveforms/NAME.vcd (under the current
    /// directory, or --out DIR) and the .gtkw that groups core, reorder, cache, DRAM command
    /// bus and IDU.
    Scenario(scenario::ScenarioArgs),
    /// Run a kernel set over a configuration grid (mode × S × scheduler × reorder × IDU × DRAM
    /// part) in parallel, each launch beside its oracles (reference interpreter, DDR4 checker,
    /// L1 estimator with reordering on); writes one CSV row per run and prints a summary
    /// table. Exit 0 when every run finished (or ended in the expected split_overflow of a PWS
    /// S below the kernel's @min-s), is exact, DDR4-clean and matches the L1 prediction; 1
    /// otherwise; 2 on bad input.
    Sweep(sweep::SweepArgs),
    /// Run every OpenCL C suite kernel (firmware/suite/*.cl) over modes × S × scheduler ×
    /// memory (fixed; hierarchy with reordering off and on) in parallel, each checked against
    /// its host-side reference; writes a CSV (suite.csv, or --out) and prints a summary
    /// table (or --json). Exit 0 when every run PASSED, 1 when one FAILED, 2 on bad input.
    Suite(suite::SuiteArgs),
    /// The PWS WCET analysis (Sections 4.2 and 5 of the PWS paper): compile the kernel's split
    /// points (SELECT under S, split/merge/s_waitcnt/execz placement), measure every block in
    /// isolation on the model, and print the analytical kernel WCET for the mode; with
    /// `--run`, also the simulated time. Exit 0; 1 when the analysis fails or (`--run`) the
    /// launch fails or takes longer than the bound; 2 on bad input.
    Wcet(wcet::WcetArgs),
    /// Reproduce a paper's results on the model: `pws` prints the PWS paper's Table 3 shape
    /// (no-split, DWS, PWS, observed and analytical, S = 1, 3, 7, synthetic kernel at full
    /// divergence) and the average-case speedup of PWS S = 1 on the kernel set, and draws both
    /// (PNG); `pws-fig11` the speedups on the OpenCL C suite; `pws-fig12` SpSIMD reuse;
    /// `reorder` the reordering paper's miss-estimate accuracy and its cycles against pure
    /// round-robin. Each prints its table beside the paper's numbers and draws a PNG.
    Reproduce(reproduce::ReproduceArgs),
    /// List the blocks and their testbenches.
    List(list::ListArgs),
    /// Run a block testbench (RTL vs reference model every cycle); writes waveforms/NAME.vcd
    /// and waveforms/NAME.gtkw under the current directory (or --out DIR).
    Tb(tb::TbArgs),
    /// Cosimulate a block: replay the testbench's vectors against its Verilog under Icarus,
    /// lint it with Verilator and synthesize it with Yosys.
    Cosim(cosim::CosimArgs),
    /// Synthesize a block with Yosys and print its cell count and the script used; `cu`: the
    /// compute unit's RTL top with the cells of each sub-block and the total. Each run's log
    /// goes to target/cosim/NAME/MODULE.yosys.log as it runs; `cu` keeps each finished run in
    /// target/cosim/cu/yosys-memo/ and runs again only the sub-blocks whose Verilog changed.
    /// Exit 1 when Yosys fails, 2 on an unknown block
    Synth(synth::SynthArgs),
    /// Assemble a GCN3 (gfx8) + split/merge source; prints `ADDR: WORD(S)  TEXT` per
    /// instruction.
    Asm(asm::AsmArgs),
    /// Disassemble a code image (little-endian dwords); the output reassembles to the same bits.
    Disasm(disasm::DisasmArgs),
    /// Multi-phase WCET experiments (the multi-phase paper): `sgemm` prints the GUB's
    /// overestimation of the simulated block time for the toy SGEMM (paper's Table 4); `fig3`
    /// runs the paper's Fig. 3 block on the RTL scheduler and prints its event log and bound;
    /// `hw-default` prints the default opcode class table (Accel-Sim's latencies) as JSON, to edit
    /// and pass to `sgemm --hw`.
    Multiphase(multiphase::MultiphaseArgs),
    /// The Sim-D DRAM controller (hw/src/dram/): one request's LID and command trace, LID
    /// sweeps over all word alignments, per-size tables against Sim-D's Eq. 15.
    Dram(dram::DramArgs),
    /// The load/store reordering work (the reordering paper).
    Reorder(reorder::ReorderArgs),
    /// The aging experiment (the thesis' Section 4.4): over PV maps and years, the stock
    /// dispatcher (orig), Algorithm 3 with every limit 1 (even) and Algorithms 3 + 4 in the IDU
    /// (idu); prints per policy the aging spread, relative sigma, GPU relative delay, success
    /// rate and time cost against orig.
    Aging(aging::AgingArgs),
    /// Timing-aware kernel scheduling on several compute units (the thesis' Chapter 5):
    /// `fig5.4` runs the worked example of Fig. 5.4 through the driver on four compute units
    /// and prints its schedule (`--json`: the event log) and the thesis' facts about it; exit
    /// 1 when a fact does not hold.
    Rtsched(rtsched::RtschedArgs),
    /// Measure simulated cycles/s: harness (VCD off/on), rust-hdl Simulation, Verilator -O3.
    Bench(bench::BenchArgs),
    /// Fuzz the parsers: assembler, disassembler, configuration (TOML, JSON) and PTX, with
    /// the repository's kernels, configurations and PTX mutated and raw bytes; the targets
    /// run in parallel. Prints cases and seconds per target. Exit 0 when no input panicked,
    /// 1 with the shrunk input when one did, 2 on bad arguments.
    Fuzz(fuzz::FuzzArgs),
}

/// Parses the command line, runs the command and turns a [`Fail`] into its message on stderr
/// and its exit code.
fn main() -> ExitCode {
    default_sigpipe();
    match dispatch(Cli::parse_from(args()).cmd) {
        Ok(()) => ExitCode::SUCCESS,
        Err(Fail(code, msg)) => {
            eprintln!("rtgpu: {msg}");
            ExitCode::from(code)
        }
    }
}

/// The command line. GTKWave runs a process filter with everything after the program's path
/// as one argument (`disasm --gtkwave-filter`): a lone argument with spaces is split at them.
fn args() -> Vec<std::ffi::OsString> {
    let mut args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    if let [_, one] = &args[..] {
        if let Some(words) = one.to_str().filter(|s| s.contains(' ')) {
            let split: Vec<std::ffi::OsString> = words.split_whitespace().map(Into::into).collect();
            args.truncate(1);
            args.extend(split);
        }
    }
    args
}

/// Runs one command.
fn dispatch(cmd: Cmd) -> Result<(), Fail> {
    match cmd {
        Cmd::Run(a) => run::run(&a),
        Cmd::Config(a) => config::run(&a),
        Cmd::Scenario(a) => scenario::run(&a),
        Cmd::Sweep(a) => sweep::run(&a),
        Cmd::Suite(a) => suite::run(&a),
        Cmd::Wcet(a) => wcet::run(&a),
        Cmd::Reproduce(a) => reproduce::run(&a),
        Cmd::List(a) => list::run(&a),
        Cmd::Tb(a) => tb::run(&a),
        Cmd::Cosim(a) => cosim::run(&a),
        Cmd::Synth(a) => synth::run(&a),
        Cmd::Asm(a) => asm::run(&a),
        Cmd::Disasm(a) => disasm::run(&a),
        Cmd::Multiphase(a) => multiphase::run(&a),
        Cmd::Dram(a) => dram::run(&a),
        Cmd::Reorder(a) => reorder::run(&a),
        Cmd::Aging(a) => aging::run(&a),
        Cmd::Rtsched(a) => rtsched::run(&a),
        Cmd::Bench(a) => bench::run(&a),
        Cmd::Fuzz(a) => fuzz::run(&a),
    }
}

/// Gives SIGPIPE back its default action (Rust's runtime ignores it, so a write to a closed
/// pipe returns an error that `println!` turns into a panic): writing to a closed standard
/// output then ends the process quietly, whichever command and print path wrote.
fn default_sigpipe() {
    // SAFETY: `signal` with SIG_DFL only changes the signal's disposition; it runs first thing
    // in `main`, before any other thread exists.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}
