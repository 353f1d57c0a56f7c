//! `rtgpu`: run block testbenches, cosimulate, synthesize and benchmark rtgpu's hardware;
//! assemble and disassemble kernels.
//!
//! Exit codes: 0 success; 1 a check failed (RTL/model mismatch, cosimulation mismatch, lint
//! findings, a tool failure); 2 bad usage (unknown block, bad arguments).

mod aging_cmd;
mod isa_cmd;

use clap::{Parser, Subcommand};
use rtgpu_hw::isa::{InsnDecode, PwsDecode};
use rtgpu_testbench::bench;
use rtgpu_testbench::bench::PwsS3;
use rtgpu_testbench::cu;
use rtgpu_testbench::multiphase;
use rtgpu_testbench::oracle::sm::Policy;
use rtgpu_testbench::paths;
use rtgpu_testbench::sim::cosim::{self, SimOutcome};
use rtgpu_testbench::tb::{self, BlockTb, Counter32, TbOptions};
use rtgpu_wcet::trace::HwDesc;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "rtgpu",
    version,
    about = "rtgpu: a cycle-accurate RTL model of a predictable GPU"
)]
struct Cli {
    #[command(subcommand)]
    cmd: Cmd,
}

#[derive(clap::Args, Clone)]
struct Stimulus {
    /// Cycles to simulate (a testbench's directed part may add some).
    #[arg(long, default_value_t = 1000)]
    cycles: u64,
    /// Seed of the random stimulus.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

#[derive(Subcommand)]
enum Cmd {
    /// Run a kernel on the compute unit through the driver (the main job): assemble it, lay out
    /// its arguments, launch, run; print cycles, instructions, stalls, splits/merges, per-WF
    /// finish cycles and the status. Exit 0 when the kernel finished, 1 when the GPU stopped
    /// with an error or the timeout passed (the report still prints), 2 on bad input.
    Run {
        #[command(flatten)]
        opts: cu::RunOpts,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// Run the system scenarios (all, or those named): each writes waveforms/NAME.vcd and
    /// the .gtkw that groups core, reorder, cache, DRAM command bus and IDU.
    Scenario {
        /// Scenario names (system-reorder, system-pws, system-idu); none: all.
        names: Vec<String>,
        /// Directory for the files.
        #[arg(long, default_value = "waveforms")]
        dir: std::path::PathBuf,
    },
    /// Run a kernel set over a configuration grid (mode × S × scheduler × reorder × IDU × DRAM
    /// part) in parallel, each launch beside its oracles (reference interpreter, DDR4 checker,
    /// L1 estimator with reordering on); writes one CSV row per run and prints a summary
    /// table. Exit 0 when every run finished (or ended in the expected split_overflow of a PWS
    /// S below the kernel's @min-s), is exact, DDR4-clean and matches the L1 prediction; 1
    /// otherwise; 2 on bad input.
    Sweep {
        #[command(flatten)]
        opts: cu::sweep::SweepOpts,
    },
    /// The PWS WCET analysis (spec/000-pws.md §5–§6): compile the kernel's split points
    /// (SELECT under S, split/merge/s_waitcnt/execz placement), measure every block in
    /// isolation on the model, and print the analytical kernel WCET for the mode; with
    /// `--run`, also the simulated time. Exit 0; 1 when the analysis fails or (`--run`) the
    /// launch fails or takes longer than the bound; 2 on bad input.
    Wcet {
        #[command(flatten)]
        opts: cu::wcet::WcetOpts,
    },
    /// Reproduce a paper's results on the model: `pws` prints Table 3's shape (no-split, DWS,
    /// PWS, observed and analytical, S = 1, 3, 7, synthetic kernel at full divergence) and
    /// the average-case speedup of PWS S = 1 on the kernel set, and draws both (PNG).
    Reproduce {
        #[command(flatten)]
        opts: cu::wcet::reproduce::ReproduceOpts,
    },
    /// List the blocks and their testbenches.
    List {
        /// Print JSON instead of a table.
        #[arg(long)]
        json: bool,
    },
    /// Run a block testbench (RTL vs reference model every cycle); writes waveforms/NAME.vcd
    /// and waveforms/NAME.gtkw.
    Tb {
        /// Block name (see `rtgpu list`).
        name: String,
        #[command(flatten)]
        stim: Stimulus,
        /// Directory for the VCD and .gtkw (default: the repository's waveforms/).
        #[arg(long)]
        out: Option<PathBuf>,
        /// Do not write a waveform.
        #[arg(long)]
        no_vcd: bool,
    },
    /// Cosimulate a block: replay the testbench's vectors against its Verilog under Icarus,
    /// lint it with Verilator and synthesize it with Yosys.
    Cosim {
        /// Block name (see `rtgpu list`).
        name: String,
        #[command(flatten)]
        stim: Stimulus,
        /// Working directory (default: target/cosim/NAME).
        #[arg(long)]
        dir: Option<PathBuf>,
    },
    /// Synthesize a block with Yosys and print its cell count.
    Synth {
        /// Block name (see `rtgpu list`).
        name: String,
        /// Print the whole `stat` report.
        #[arg(long)]
        stat: bool,
    },
    /// Assemble a GCN3 (gfx8) + split/merge source; prints `ADDR: WORD(S)  TEXT` per
    /// instruction.
    Asm {
        /// Assembly source (LLVM syntax).
        file: PathBuf,
        /// Write the code image (little-endian dwords) here.
        #[arg(short, long)]
        output: Option<PathBuf>,
    },
    /// Disassemble a code image (little-endian dwords); the output reassembles to the same bits.
    Disasm {
        /// Code image.
        file: PathBuf,
    },
    /// Multi-phase WCET experiments (spec/001-multiphase.md): `sgemm` prints the GUB's
    /// overestimation of the simulated block time for the toy SGEMM (paper's Table 4); `fig3`
    /// runs the paper's Fig. 3 block on the RTL scheduler and prints its event log and bound;
    /// `hw-default` prints the default opcode class table (spec §5.2) as JSON, to edit and pass
    /// to `sgemm --hw`.
    Multiphase {
        /// The experiment: `sgemm`, `fig3` or `hw-default`.
        experiment: String,
        /// Scheduling policy of the simulation: lrr or gto.
        #[arg(long, default_value = "lrr")]
        policy: String,
        /// Warp counts (each warp runs as many iterations).
        #[arg(long, value_delimiter = ',', default_value = "4,8,16,32")]
        warps: Vec<usize>,
        /// Global memory latencies, cycles (dispatch to result): sgemm sweeps them (default
        /// 5,10,25,50,100,200,400); hw-default takes one (default 200).
        #[arg(long, value_delimiter = ',')]
        mem_lat: Option<Vec<u32>>,
        /// sgemm: the opcode class table (JSON, as `hw-default` prints it) instead of the
        /// default; it needs the classes int, fp32, mem, shared and alu, and each swept memory
        /// latency replaces the `mem` class's latency (lat = L - init).
        #[arg(long)]
        hw: Option<PathBuf>,
        /// Print JSON (every cell with simulated time and GUB).
        #[arg(long)]
        json: bool,
    },
    /// The Sim-D DRAM controller (hw/src/dram/): one request's LID and command trace, LID
    /// sweeps over all word alignments, per-size tables against the paper's Eq. 15.
    Dram {
        #[command(subcommand)]
        cmd: DramCmd,
    },
    /// The load/store reordering work (spec/003-reorder.md).
    Reorder {
        #[command(subcommand)]
        cmd: ReorderCmd,
    },
    /// The aging experiment (spec/004-lee.md §2.8–2.9): over PV maps and years, the stock
    /// dispatcher (orig), Algorithm 3 with every limit 1 (even) and Algorithms 3 + 4 in the IDU
    /// (idu); prints per policy the aging spread, relative sigma, GPU relative delay, success
    /// rate and time cost against orig.
    Aging {
        /// Lifetime in years (> 0).
        #[arg(long, default_value_t = 3.0, allow_negative_numbers = true)]
        years: f64,
        /// Process-variation maps (>= 1).
        #[arg(long, default_value_t = 50)]
        maps: usize,
        /// Seed of the first map (map m uses seed + m).
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// Re-planning steps per year (>= 1).
        #[arg(long, default_value_t = 12)]
        steps_per_year: u32,
        /// Step model: the IDU reference model cycle by cycle, or the analytic saturated
        /// (cluster-bound) model.
        #[arg(long, value_enum, default_value_t = aging_cmd::ModelArg::Cycle)]
        model: aging_cmd::ModelArg,
        /// Orig's clusters: the stock fixed map or Algorithm 3's.
        #[arg(long, value_enum, default_value_t = aging_cmd::OrigMapArg::Fixed)]
        orig_map: aging_cmd::OrigMapArg,
        /// Print the whole report (every map) as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Measure simulated cycles/s: harness (VCD off/on), rust-hdl Simulation, Verilator -O3.
    Bench {
        /// Cycles for the harness runs.
        #[arg(long, default_value_t = 2_000_000)]
        cycles: u64,
        /// Cycles for rust-hdl's threaded Simulation (slow).
        #[arg(long, default_value_t = 20_000)]
        sim_cycles: u64,
        /// Cycles for Verilator.
        #[arg(long, default_value_t = 50_000_000)]
        verilator_cycles: u64,
        /// Skip Verilator.
        #[arg(long)]
        no_verilator: bool,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
}

#[derive(Subcommand)]
enum ReorderCmd {
    /// Per L1 size, the simulated cycles and misses of default (LRR), reorder (LRR + the
    /// unit) and pure round-robin over jitter seeds, beside the static miss estimate.
    Compare {
        /// A built-in kernel (example, loop-barrier) or a PTX file.
        #[arg(long, default_value = "example", conflicts_with = "random")]
        kernel: String,
        /// Grid x,y,z (default: the built-in kernel's).
        #[arg(long, value_delimiter = ',', num_args = 3)]
        grid: Option<Vec<u32>>,
        /// Block x,y,z (default: the built-in kernel's).
        #[arg(long, value_delimiter = ',', num_args = 3)]
        block: Option<Vec<u32>>,
        /// Kernel parameter values (default: the built-in kernel's).
        #[arg(long, value_delimiter = ',')]
        params: Option<Vec<u64>>,
        /// Random traffic of this many warps instead of a kernel.
        #[arg(long)]
        random: Option<usize>,
        /// Distinct lines the random traffic addresses.
        #[arg(long, default_value_t = 256)]
        lines: u32,
        /// Seed of the random traffic.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// L1 sizes in kB (16, 32, 64).
        #[arg(long, value_delimiter = ',', default_value = "16,32,64")]
        cache: Vec<u32>,
        /// Reordering channels (warp slots).
        #[arg(long, default_value_t = 48)]
        slots: usize,
        /// Entries per channel.
        #[arg(long, default_value_t = 10)]
        depth: usize,
        /// Memory latency of a miss, cycles.
        #[arg(long, default_value_t = 200)]
        latency: u64,
        /// Extra latency per miss, uniform in 0..=jitter cycles.
        #[arg(long, default_value_t = 100)]
        jitter: u64,
        /// Cycles between a warp's consecutive ld/st.
        #[arg(long, default_value_t = 4)]
        gap: u64,
        /// Later ld/st a warp may issue before it needs a load's data (0: right after).
        #[arg(long, default_value_t = 0)]
        load_use: usize,
        /// Without reordering: instructions the LD/ST unit queues in front of the coalescer.
        #[arg(long, default_value_t = 10)]
        queue: usize,
        /// Jitter seeds per configuration.
        #[arg(long, default_value_t = 5)]
        seeds: u64,
        /// Print the report as JSON.
        #[arg(long)]
        json: bool,
    },
}

#[derive(Subcommand)]
enum DramCmd {
    /// One tile request from an idle controller; prints
    /// `lid=<cycles> cmds=<n> acts=<n> cas=<n> util=<percent>` (LID in DRAM cycles from the
    /// trigger to the earliest next request; util = CAS · 4 cycles / LID).
    Request {
        /// DDR4 part: ddr4-3200aa-x16, ddr4-3200aa-x8, ddr4-1866m-x16.
        #[arg(long, default_value = "ddr4-3200aa-x16")]
        part: String,
        /// read or write.
        #[arg(long, default_value = "read")]
        dir: String,
        /// First word address (32-bit words).
        #[arg(long, default_value_t = 0)]
        addr: u64,
        /// Words per row.
        #[arg(long)]
        words: u64,
        /// Words from one row's start to the next (default: --words).
        #[arg(long)]
        period: Option<u64>,
        /// Rows.
        #[arg(long, default_value_t = 1)]
        count: u64,
        /// Write the command trace (`cycle CMD rank bg bank row col`) here.
        #[arg(long)]
        trace: Option<PathBuf>,
        /// Run the RTL too and write this VCD (and a .gtkw beside it).
        #[arg(long)]
        vcd: Option<PathBuf>,
    },
    /// LID of a contiguous request over all 4096 word alignments of a bank-pair span; prints
    /// `min=<> max=<> bound=<>` (bound: Eq. 15 for the worst burst count + front-end).
    Sweep {
        /// DDR4 part.
        #[arg(long, default_value = "ddr4-3200aa-x16")]
        part: String,
        /// read or write.
        #[arg(long, default_value = "read")]
        dir: String,
        /// Words per request.
        #[arg(long)]
        words: u64,
    },
    /// The sweep for every size from 1 to --max-bursts bursts: min, max, bound and gap.
    Table {
        /// DDR4 part.
        #[arg(long, default_value = "ddr4-3200aa-x16")]
        part: String,
        /// read or write.
        #[arg(long, default_value = "read")]
        dir: String,
        /// Largest size in bursts.
        #[arg(long, default_value_t = 128)]
        max_bursts: u32,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
}

/// A failure and its exit code.
struct Fail(u8, String);

impl<E: std::fmt::Display> From<E> for Fail {
    fn from(e: E) -> Self {
        Fail(1, e.to_string())
    }
}

fn main() -> ExitCode {
    match run(Cli::parse()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(Fail(code, msg)) => {
            eprintln!("rtgpu: {msg}");
            ExitCode::from(code)
        }
    }
}

fn run(cli: Cli) -> Result<(), Fail> {
    match cli.cmd {
        Cmd::Run { opts, json } => run_kernel(&opts, json),
        Cmd::Wcet { opts } => wcet_kernel(&opts),
        Cmd::Reproduce { opts } => {
            cu::wcet::reproduce::reproduce(&opts).map_err(|(code, msg)| Fail(code, msg))
        }
        Cmd::Scenario { names, dir } => scenarios(&names, &dir),
        Cmd::Sweep { opts } => cu::sweep::sweep(&opts).map_err(|(code, msg)| Fail(code, msg)),
        Cmd::List { json } => list(json),
        Cmd::Tb {
            name,
            stim,
            out,
            no_vcd,
        } => run_tb(&name, &stim, out, no_vcd),
        Cmd::Cosim { name, stim, dir } => run_cosim(&name, &stim, dir),
        Cmd::Synth { name, stat } => run_synth(&name, stat),
        Cmd::Asm { file, output } => isa_cmd::asm(&file, output.as_deref()).map_err(|e| Fail(1, e)),
        Cmd::Disasm { file } => isa_cmd::disasm(&file).map_err(|e| Fail(1, e)),
        Cmd::Dram { cmd } => run_dram(cmd),
        Cmd::Reorder { cmd } => run_reorder(cmd),
        Cmd::Multiphase {
            experiment,
            policy,
            warps,
            mem_lat,
            hw,
            json,
        } => run_multiphase(&experiment, &policy, &warps, mem_lat, hw.as_deref(), json),
        Cmd::Aging {
            years,
            maps,
            seed,
            steps_per_year,
            model,
            orig_map,
            json,
        } => aging_cmd::aging(&aging_cmd::AgingArgs {
            years,
            maps,
            seed,
            steps_per_year,
            model,
            orig_map,
            json,
        })
        .map_err(|(code, msg)| Fail(code, msg)),
        Cmd::Bench {
            cycles,
            sim_cycles,
            verilator_cycles,
            no_verilator,
            json,
        } => run_bench(
            cycles,
            sim_cycles,
            (!no_verilator).then_some(verilator_cycles),
            json,
        ),
    }
}

fn run_kernel(opts: &cu::RunOpts, json: bool) -> Result<(), Fail> {
    let report = cu::run(opts).map_err(|(code, msg)| Fail(code, msg))?;
    if json {
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        print!("{}", report.text());
    }
    match &report.error {
        None => Ok(()),
        Some(e) => Err(Fail(1, e.clone())),
    }
}

fn wcet_kernel(opts: &cu::wcet::WcetOpts) -> Result<(), Fail> {
    let report = cu::wcet::wcet(opts).map_err(|(code, msg)| Fail(code, msg))?;
    if opts.json {
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        print!("{}", report.text());
    }
    match &report.observed {
        Some(o) if o.status != "done" => Err(Fail(1, format!("the launch ended in {}", o.status))),
        Some(o) if !o.within => Err(Fail(
            1,
            format!(
                "observed {} cycles > analytical WCET {}",
                o.cycles, report.analysis.wcet
            ),
        )),
        _ => Ok(()),
    }
}

fn scenarios(names: &[String], dir: &std::path::Path) -> Result<(), Fail> {
    let all: Vec<String> = cu::scenario::SCENARIOS
        .iter()
        .map(|s| s.0.to_string())
        .collect();
    for name in if names.is_empty() { &all } else { names } {
        let r = cu::scenario::run_scenario(std::path::Path::new("."), name, dir)
            .map_err(|(code, msg)| Fail(code, msg))?;
        println!(
            "{name}: {} cycles, {} → {}",
            r.perf.get("cycles"),
            r.status,
            dir.join(format!("{name}.gtkw")).display()
        );
    }
    Ok(())
}

fn find(name: &str) -> Result<&'static dyn BlockTb, Fail> {
    tb::find(name).map_err(|e| Fail(2, e))
}

fn list(json: bool) -> Result<(), Fail> {
    if json {
        let items: Vec<_> = tb::all()
            .iter()
            .map(|t| serde_json::json!({"name": t.name(), "description": t.description()}))
            .collect();
        println!("{}", serde_json::Value::Array(items));
    } else {
        for t in tb::all() {
            println!("{:<10} {}", t.name(), t.description());
        }
    }
    Ok(())
}

fn options(stim: &Stimulus) -> TbOptions {
    TbOptions {
        seed: stim.seed,
        cycles: stim.cycles,
        ..TbOptions::default()
    }
}

fn run_tb(name: &str, stim: &Stimulus, out: Option<PathBuf>, no_vcd: bool) -> Result<(), Fail> {
    let t = find(name)?;
    let opts = TbOptions {
        waves_dir: (!no_vcd).then(|| out.unwrap_or_else(paths::waveforms_dir)),
        ..options(stim)
    };
    let run = t.run(&opts)?;
    println!("{name}: PASS: {}", run.summary);
    if let (Some(vcd), Some(gtkw)) = (&run.vcd, &run.gtkw) {
        println!("wrote {}\nwrote {}", vcd.display(), gtkw.display());
        println!("view: gtkwave {}", gtkw.display());
    }
    Ok(())
}

fn run_cosim(name: &str, stim: &Stimulus, dir: Option<PathBuf>) -> Result<(), Fail> {
    let t = find(name)?;
    let dir = dir.unwrap_or_else(|| paths::cosim_dir(name));
    let run = t.run(&TbOptions {
        record_ports: true,
        ..options(stim)
    })?;
    let vectors = run
        .vectors
        .ok_or_else(|| Fail(1, "no vectors recorded".into()))?;
    let verilog = t.verilog()?;
    println!("{name}: Rust run: {}", run.summary);
    let outcome = cosim::replay(&dir, &verilog, &vectors)?;
    let lint = cosim::lint(&dir, &verilog, t.lint_waivers())?;
    for w in t.lint_waivers() {
        println!("verilator waiver: {} on `{}`: {}", w.rule, w.signal, w.why);
    }
    let synth = cosim::synth(&dir, &verilog)?;
    let mut failed = false;
    match &outcome {
        SimOutcome::Ok(line) => println!("icarus: {line}"),
        SimOutcome::Mismatch {
            cycle,
            signal,
            expected,
            got,
        } => {
            failed = true;
            println!("icarus: MISMATCH at cycle {cycle}: {signal} expected {expected}, got {got}");
            println!("        waves: {}", dir.join("cosim.vcd").display());
        }
    }
    if lint.clean {
        println!("verilator --lint-only -Wall: clean");
    } else {
        failed = true;
        println!(
            "verilator --lint-only -Wall: {} findings",
            lint.findings.len()
        );
        lint.findings.iter().for_each(|f| println!("  {f}"));
    }
    println!("yosys synth: {} cells", synth.cells);
    println!("files: {}", dir.display());
    if failed {
        return Err(Fail(1, format!("cosimulation of `{name}` failed")));
    }
    Ok(())
}

/// The sweep of `rtgpu multiphase sgemm` without `--mem-lat`.
const DEFAULT_MEM_LATENCIES: [u32; 7] = [5, 10, 25, 50, 100, 200, 400];

/// The memory latency of `rtgpu multiphase hw-default` without `--mem-lat` (§5.1: "realistic").
const DEFAULT_HW_MEM_LATENCY: u32 = 200;

/// Reads and checks a `--hw` class table for the SGEMM toy at every swept latency (exit 2).
fn sgemm_table(file: &Path, latencies: &[u32]) -> Result<HwDesc, Fail> {
    let bad = |e: String| Fail(2, format!("{}: {e}", file.display()));
    let text = std::fs::read_to_string(file).map_err(|e| bad(e.to_string()))?;
    let hw = HwDesc::from_json(&text).map_err(|e| bad(e.to_string()))?;
    for &l in latencies {
        multiphase::with_mem_latency(&hw, l).map_err(bad)?;
    }
    Ok(hw)
}

fn run_multiphase(
    experiment: &str,
    policy: &str,
    warps: &[usize],
    mem_lat: Option<Vec<u32>>,
    hw_file: Option<&Path>,
    json: bool,
) -> Result<(), Fail> {
    let policy = match policy {
        "lrr" => Policy::Lrr,
        "gto" => Policy::Gto,
        other => return Err(Fail(2, format!("unknown policy `{other}`; use lrr or gto"))),
    };
    if hw_file.is_some() && experiment != "sgemm" {
        return Err(Fail(
            2,
            format!("--hw applies to sgemm only, not `{experiment}` (fig3 is the paper's own three-unit example)"),
        ));
    }
    let latencies = mem_lat
        .clone()
        .unwrap_or_else(|| DEFAULT_MEM_LATENCIES.to_vec());
    if latencies.contains(&0) {
        return Err(Fail(2, "memory latency 0: use at least 1 cycle".into()));
    }
    match experiment {
        "sgemm" => {}
        "fig3" => {
            let report = multiphase::fig3_report(policy).map_err(|e| Fail(1, e))?;
            print!("{report}");
            return Ok(());
        }
        "hw-default" => {
            let l = match mem_lat.as_deref() {
                None => DEFAULT_HW_MEM_LATENCY,
                Some([l]) => *l,
                Some(_) => return Err(Fail(2, "hw-default takes one --mem-lat value".into())),
            };
            println!("{}", multiphase::sgemm_hw(l).to_json());
            return Ok(());
        }
        other => {
            return Err(Fail(
                2,
                format!("unknown experiment `{other}`; known: sgemm, fig3, hw-default"),
            ))
        }
    }
    if let Some(w) = warps.iter().find(|&&w| w == 0 || w > 64) {
        return Err(Fail(2, format!("{w} warps: use 1 to 64")));
    }
    let base = match hw_file {
        Some(file) => sgemm_table(file, &latencies)?,
        // Its `mem` latency is replaced by each swept one.
        None => multiphase::sgemm_hw(1),
    };
    let cells = multiphase::table(&base, warps, &latencies, policy).map_err(|e| Fail(1, e))?;
    if json {
        println!("{}", serde_json::to_string_pretty(&cells)?);
        return Ok(());
    }
    println!(
        "GUB overestimation (GUB - simulated) / simulated, {} scheduling{}:",
        policy.name(),
        hw_file.map_or(String::new(), |f| format!(", classes of {}", f.display()))
    );
    print!("{}", multiphase::render(&cells, warps, &latencies));
    Ok(())
}

/// `[x, y, z]` of a 3-value option.
fn triple(v: Option<Vec<u32>>) -> Option<[u32; 3]> {
    v.and_then(|v| v.try_into().ok())
}

fn run_reorder(cmd: ReorderCmd) -> Result<(), Fail> {
    use rtgpu_testbench::tb::ldst::compare::{compare, render, CompareArgs, Workload};
    let ReorderCmd::Compare {
        kernel,
        grid,
        block,
        params,
        random,
        lines,
        seed,
        cache,
        slots,
        depth,
        latency,
        jitter,
        gap,
        load_use,
        queue,
        seeds,
        json,
    } = cmd;
    let workload = match random {
        Some(warps) => Workload::Random { warps, lines, seed },
        None => Workload::Kernel {
            name: kernel,
            grid: triple(grid),
            block: triple(block),
            params,
        },
    };
    let args = CompareArgs {
        workload,
        caches: cache,
        slots,
        depth,
        latency,
        jitter,
        gap,
        load_use,
        queue,
        seeds,
    };
    let report = compare(&args).map_err(|e| Fail(1, e))?;
    if json {
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        print!("{}", render(&report));
    }
    Ok(())
}

fn run_dram(cmd: DramCmd) -> Result<(), Fail> {
    use rtgpu_testbench::tb::dram::cli;
    let fail = |e: cli::CliError| Fail(e.0, e.1);
    match cmd {
        DramCmd::Request {
            part,
            dir,
            addr,
            words,
            period,
            count,
            trace,
            vcd,
        } => {
            let part = cli::part(&part).map_err(fail)?;
            let req = cli::tile(
                cli::direction(&dir).map_err(fail)?,
                addr,
                words,
                period,
                count,
            )
            .map_err(fail)?;
            let line = cli::request(&part, &req, trace.as_deref(), vcd.as_deref()).map_err(fail)?;
            println!("{line}");
        }
        DramCmd::Sweep { part, dir, words } => {
            let part = cli::part(&part).map_err(fail)?;
            let write = cli::direction(&dir).map_err(fail)?;
            println!("{}", cli::sweep_line(&part, write, words).map_err(fail)?);
        }
        DramCmd::Table {
            part,
            dir,
            max_bursts,
            json,
        } => {
            let part = cli::part(&part).map_err(fail)?;
            let write = cli::direction(&dir).map_err(fail)?;
            let rows = cli::table_rows(&part, write, max_bursts).map_err(fail)?;
            if json {
                println!("{}", serde_json::to_string_pretty(&rows)?);
            } else {
                print!("{}", cli::render(&rows));
            }
        }
    }
    Ok(())
}

fn run_synth(name: &str, stat: bool) -> Result<(), Fail> {
    let t = find(name)?;
    let verilog = t.verilog()?;
    let dir = paths::cosim_dir(name);
    let report = cosim::synth(&dir, &verilog)?;
    if stat {
        println!("{}", report.stat);
    }
    println!("{name}: yosys synth -top top: {} cells", report.cells);
    Ok(())
}

fn run_bench(cycles: u64, sim_cycles: u64, vl: Option<u64>, json: bool) -> Result<(), Fail> {
    let dir = paths::repo_root().join("target").join("bench");
    let mut rows = vec![
        bench::harness::<Counter32>(cycles, None)?,
        bench::harness::<Counter32>(cycles / 4, Some(&dir.join("counter.vcd")))?,
        bench::rust_hdl_sim::<Counter32>(sim_cycles)?,
        bench::harness::<PwsDecode>(cycles, None)?,
        bench::harness::<PwsDecode>(cycles / 4, Some(&dir.join("decode.vcd")))?,
        bench::rust_hdl_sim::<PwsDecode>(sim_cycles)?,
        bench::harness::<InsnDecode>(cycles / 4, None)?,
        bench::harness::<InsnDecode>(cycles / 16, Some(&dir.join("insn.vcd")))?,
        bench::harness::<PwsS3>(cycles / 64, None)?,
        bench::harness::<PwsS3>(cycles / 256, Some(&dir.join("pws-s3.vcd")))?,
        bench::dram(cycles / 64, true).map_err(|e| Fail(1, e))?,
        bench::dram(cycles * 2, false).map_err(|e| Fail(1, e))?,
        bench::idu(cycles as usize / 64, true).map_err(|e| Fail(1, e))?,
        bench::idu(cycles as usize * 2, false).map_err(|e| Fail(1, e))?,
    ];
    if let Some(n) = vl {
        rows.push(bench::verilator::<Counter32>(n, &dir.join("vl_counter"))?);
        rows.push(bench::verilator::<PwsDecode>(n, &dir.join("vl_decode"))?);
        rows.push(bench::verilator::<InsnDecode>(n, &dir.join("vl_insn"))?);
        rows.push(bench::verilator::<PwsS3>(n, &dir.join("vl_pws_s3"))?);
    }
    let sweep = bench::dram_sweep().map_err(|e| Fail(1, e))?;
    if json {
        println!("{}", serde_json::to_string_pretty(&rows)?);
        return Ok(());
    }
    println!("dram LID table (128 sizes x 4096 alignments, all cores): {sweep:.2} s");
    println!(
        "{:<10} {:<20} {:>12} {:>10} {:>16}",
        "block", "engine", "cycles", "seconds", "cycles/s"
    );
    for r in &rows {
        println!(
            "{:<10} {:<20} {:>12} {:>10.3} {:>16.0}",
            r.block, r.engine, r.cycles, r.seconds, r.cycles_per_s
        );
    }
    Ok(())
}
