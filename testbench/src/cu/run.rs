//! `rtgpu run KERNEL.s` (or `KERNEL.cl`, compiled first, [`crate::opencl`]): assemble, lay
//! out the arguments, launch through the driver, run, and report what the compute unit
//! measured; with `--check`, compare the buffers with the kernel's host-side reference.

use super::probe::CuProbe;
use super::Recording;
use crate::sim::blocks::RtlBlocks;
use crate::sim::vl::EngineArgs;
use crate::sim::waves::merge::Timeline;
use rtgpu_firmware::aging::cu::valu_clusters;
use rtgpu_firmware::aging::experiment::Distribution;
use rtgpu_firmware::driver::{self, Driver, DriverError, LaunchDesc, Outcome, PerfCounters};
use rtgpu_firmware::hsa::HsaKernel;
use rtgpu_firmware::isa::{assemble, AsmError, Program};
use rtgpu_firmware::launch::{Arg, Dims, Image, KernelMeta};
use rtgpu_firmware::pws_pass::{compile, Marks, PassMode, PassOptions};
use rtgpu_firmware::suite::{self, Inputs};
use rtgpu_hw::block::BlockKind;
use rtgpu_hw::cu::IduLaunch;
use rtgpu_hw::cu::{CuConfig, Mode};
use rtgpu_hw::gpu::Gpu;
use rtgpu_hw::memsys::DramPart;
use rtgpu_hw::sched::model::Policy;
use rtgpu_hw::simd::Exec;
use serde::Serialize;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// What to run (the arguments of `rtgpu run`).
#[derive(Clone, Debug, clap::Args)]
pub struct RunOpts {
    /// Kernel source: GCN3 assembly + split/merge (`.s`) or OpenCL C (`.cl`, compiled with
    /// clang-14, cached under target/opencl/); `// @` header lines give its default launch,
    /// see firmware/kernels/README.md.
    pub kernel: PathBuf,
    /// Compute unit configuration (TOML if it ends in .toml, else JSON; unknown fields are
    /// rejected).
    #[arg(long)]
    pub config: Option<PathBuf>,
    /// How split/merge run: nosplit, dws or pws (with `--top rtl` the default is nosplit; the
    /// RTL runs nosplit, dws with any `--s` and pws with `--s` 1, 2 or 3).
    #[arg(long, default_value = "pws", value_parser = parse_mode,
          default_value_if("top", "rtl", "nosplit"))]
    pub mode: Mode,
    /// The model that runs the kernel: `behavioural` (the compute unit model) or `rtl` (the RTL
    /// system under Verilator: one SIMD, no splitting, DWS at any S or PWS at S = 1 on
    /// `CuSystem`, PWS at S = 2 and 3 on `CuSystem4`; the driver's register accesses go over
    /// its bus).
    #[arg(long, value_enum, default_value_t = Top::Behavioural)]
    pub top: Top,
    /// S: SpSIMDs per SIMD (PWS) or live splits per wavefront (DWS), 1..=7.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=7))]
    pub s: u32,
    /// Issue policy of every SIMD/SpSIMD: gto, lrr or rr (pure round-robin: waits on the
    /// current wavefront until it issues, even when others are ready).
    #[arg(long, default_value = "gto", value_parser = parse_policy)]
    pub sched: Policy,
    /// Launch sizes, arguments and seed.
    #[command(flatten)]
    pub launch: LaunchOpts,
    /// Write every buffer argument's final contents into this directory (`argK.bin`
    /// little-endian, `argK.hex` one dword per line, `buffers.json` listing them; K is the
    /// argument's position). Nothing is written when the launch fails.
    #[arg(long, value_name = "DIR")]
    pub dump: Option<PathBuf>,
    /// Compare the buffers with the kernel's host-side reference (the OpenCL suite's
    /// kernels have one): print PASSED, or FAILED with the first differing element (exit 1).
    #[arg(long)]
    pub check: bool,
    /// Write the compute unit's waveform here (FST if the name ends in .fst, through
    /// `vcd2fst`), and a .gtkw beside it.
    #[arg(long)]
    pub vcd: Option<PathBuf>,
    /// Give up after this many cycles (status `timeout`, exit 1): a kernel that never ends
    /// stops here, within seconds at the default. Raise it for launches longer than 10M cycles.
    #[arg(long, default_value_t = 10_000_000)]
    pub timeout: u64,
    /// Also report the simulation speed (simulated cycles per wall-clock second).
    #[arg(long)]
    pub bench: bool,
    /// Step every cycle in full: no idle-cycle skipping (the results are the same; only
    /// slower — for comparison and benchmarks).
    #[arg(long)]
    pub no_skip: bool,
    /// Global memory timing: `hierarchy` (coalescing → reordering unit → L1 → CDC → Sim-D
    /// DRAM controller) or `fixed` (the `lat.flat` latency); default: the configuration's.
    #[arg(long, value_parser = ["hierarchy", "fixed"])]
    pub memory: Option<String>,
    /// The reordering unit on (implies `--memory hierarchy`).
    #[arg(long)]
    pub reorder: bool,
    /// Execution model: `gcn` (the compute unit), `simd` (Sim-D: work-groups as access and
    /// compute phases, `tile_ld`/`tile_st` straight to the DRAM controller, two slots under
    /// GTRR and the pairwise rule; kernels in firmware/kernels/simd/) or `simd-free` (Sim-D
    /// without the phase rules).
    #[arg(long, default_value = "gcn", value_parser = parse_exec)]
    pub exec: Exec,
    /// DRAM part: ddr4-3200aa-x16, ddr4-3200aa-x8 or ddr4-1866m-x16 (default: the
    /// configuration's).
    #[arg(long, value_parser = DramPart::by_name)]
    pub dram_part: Option<DramPart>,
    /// VALU through the IDU to lane clusters programmed by the host flow: `orig` (stock
    /// dispatcher), `even` or `idu` (Algorithms 3–4); `off`: the fixed VALU latency.
    #[arg(long, default_value = "off", value_parser = ["off", "orig", "even", "idu"])]
    pub idu: String,
    /// Process-variation map of the chip whose clusters the host flow programs.
    #[arg(long, default_value_t = 1)]
    pub idu_seed: u64,
    /// Run these blocks as RTL, each in lock-step with its reference model: `all`, or names
    /// among decode,sched,pws,coalesce,reorder,l1,dram,idu. A mismatch stops the run (exit 1) and
    /// writes the window before it to rtl-mismatch.vcd (beside --vcd if given). With --vcd,
    /// every RTL block also writes its own signals to FILE.rtl/INSTANCE.vcd, merged into FILE
    /// under rtl.INSTANCE on the system's time base.
    #[arg(long, value_parser = parse_rtl)]
    pub rtl: Option<RtlList>,
    /// The engine of the --rtl blocks.
    #[command(flatten)]
    pub engine: EngineArgs,
    /// Measure every register value's vulnerable period on the compute unit (write to last
    /// read, bits × cycles) and print it beside Algorithm 1's estimate (Lee's thesis, Ch. 3).
    #[arg(long)]
    pub vulnerability: bool,
}

/// Which model runs the kernel (`--top`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Top {
    /// The behavioural compute unit behind the behavioural GPU's registers.
    #[default]
    Behavioural,
    /// The RTL system (`CuSystem`) under the Verilator engine.
    Rtl,
}

impl Top {
    /// `behavioural` or `rtl`.
    pub fn name(self) -> &'static str {
        match self {
            Top::Behavioural => "behavioural",
            Top::Rtl => "rtl",
        }
    }
}

/// `--exec`: gcn, simd or simd-free.
pub fn parse_exec(s: &str) -> Result<Exec, String> {
    match s {
        "gcn" => Ok(Exec::Gcn),
        "simd" => Ok(Exec::Simd),
        "simd-free" => Ok(Exec::SimdFree),
        _ => Err(format!(
            "unknown execution model {s:?} (gcn, simd, simd-free)"
        )),
    }
}

/// The blocks `--rtl` names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RtlList(pub Vec<BlockKind>);

fn parse_rtl(s: &str) -> Result<RtlList, String> {
    BlockKind::parse_list(s).map(RtlList)
}

/// The launch a kernel's header describes, as the command line overrides it (`rtgpu run`,
/// `rtgpu wcet`).
#[derive(Clone, Debug, clap::Args)]
pub struct LaunchOpts {
    /// Work-items in the launch (default: the kernel's @grid); a positive multiple of the
    /// work-group size, with the buffers it sizes inside the configuration's mem_bytes.
    #[arg(long)]
    pub grid: Option<u32>,
    /// Work-items per work-group, 1..=1024 (default: the kernel's @wg).
    #[arg(long)]
    pub wg: Option<u32>,
    /// Kernel arguments (zero:N int:N float:N iota:N u32:V i32:V f32:V or a number; N may be
    /// grid, wg or groups), replacing the kernel's @args. At most 15360 argument dwords
    /// (scalars 1, buffers 2); the buffers must fit the data memory (mem_bytes).
    #[arg(long, num_args = 1.., allow_negative_numbers = true)]
    pub args: Option<Vec<String>>,
    /// Seed of the random buffer contents.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

impl LaunchOpts {
    /// The launch sizes and arguments: the command line's, else the kernel header's.
    pub fn resolve(&self, meta: &KernelMeta) -> Result<(Dims, Vec<Arg>), String> {
        let dims = Dims {
            grid: self.grid.unwrap_or(meta.dims.grid),
            wg: self.wg.unwrap_or(meta.dims.wg),
        };
        let args = match &self.args {
            Some(a) => a
                .iter()
                .map(|s| Arg::parse(s))
                .collect::<Result<Vec<_>, _>>()
                .map_err(|e| e.0)?,
            None => meta.args.clone(),
        };
        Ok((dims, args))
    }
}

/// `off`, `orig`, `even` or `idu`.
pub fn parse_idu(s: &str) -> Result<Option<Distribution>, String> {
    if s == "off" {
        return Ok(None);
    }
    Distribution::ALL
        .into_iter()
        .find(|d| d.name() == s)
        .map(Some)
        .ok_or_else(|| format!("unknown IDU setting `{s}`; use off, orig, even or idu"))
}

/// The launch's IDU for `policy` on chip `seed` (the host flow; each pair is planned once per
/// process, it takes a fifth of a second and `rtgpu sweep` asks for it hundreds of times).
pub fn idu_launch(policy: Option<Distribution>, seed: u64) -> Result<Option<IduLaunch>, String> {
    type Plans = Vec<((u64, Distribution), IduLaunch)>;
    static PLANS: Mutex<Plans> = Mutex::new(Vec::new());
    let Some(p) = policy else {
        return Ok(None);
    };
    let planned = |plans: &Plans| plans.iter().find(|(k, _)| *k == (seed, p)).map(|(_, l)| *l);
    if let Some(l) = planned(&PLANS.lock().unwrap_or_else(|e| e.into_inner())) {
        return Ok(Some(l));
    }
    let l = valu_clusters(seed, p).map_err(|e| format!("IDU host flow: {e}"))?;
    let mut plans = PLANS.lock().unwrap_or_else(|e| e.into_inner());
    if planned(&plans).is_none() {
        plans.push(((seed, p), l));
    }
    Ok(Some(l))
}

impl RunOpts {
    /// The options of the command line `rtgpu run ARGS` (`args` without `rtgpu run`).
    pub fn from_args(args: &[&str]) -> Result<RunOpts, String> {
        #[derive(clap::Parser)]
        struct Line {
            #[command(flatten)]
            o: RunOpts,
        }
        <Line as clap::Parser>::try_parse_from(std::iter::once("run").chain(args.iter().copied()))
            .map(|l| l.o)
            .map_err(|e| e.to_string())
    }

    /// The configuration with the command line's memory options applied.
    pub fn apply(&self, mut cfg: CuConfig) -> Result<CuConfig, String> {
        if self.reorder && self.memory.as_deref() == Some("fixed") {
            return Err("--reorder needs the memory hierarchy, not --memory fixed".into());
        }
        if let Some(m) = &self.memory {
            cfg.memory.hierarchy = m == "hierarchy";
        }
        if self.reorder {
            cfg.memory.hierarchy = true;
        }
        if let Some(p) = self.dram_part {
            cfg.memory.dram_part = p;
        }
        Ok(cfg)
    }
}

/// `nosplit`, `dws` or `pws`.
pub(super) fn parse_mode(s: &str) -> Result<Mode, String> {
    [Mode::NoSplit, Mode::Dws, Mode::Pws]
        .into_iter()
        .find(|m| m.name() == s)
        .ok_or_else(|| format!("unknown mode `{s}`; use nosplit, dws or pws"))
}

/// `gto`, `lrr` or `rr`.
pub(super) fn parse_policy(s: &str) -> Result<Policy, String> {
    Policy::ALL
        .into_iter()
        .find(|p| p.name() == s)
        .ok_or_else(|| format!("unknown policy `{s}`; use gto, lrr or rr"))
}

/// How fast the model ran (`--bench`).
#[derive(Clone, Copy, Debug, Serialize)]
pub struct Speed {
    /// Wall-clock seconds of the launch (load, run, read back).
    pub seconds: f64,
    /// Simulated compute unit cycles per wall-clock second.
    pub cycles_per_second: f64,
    /// Seconds the launch's thread ran on a core (the wall-clock time less the time other
    /// processes held it: the speed on one core of a shared machine); `None` where the
    /// system does not tell.
    pub cpu_seconds: Option<f64>,
}

/// Seconds the calling thread has run on a core (Linux's per-thread CPU clock).
pub(crate) fn thread_cpu_seconds() -> Option<f64> {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `clock_gettime` writes the clock's value into `t`, a valid timespec.
    let ok = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) } == 0;
    ok.then_some(t.tv_sec as f64 + t.tv_nsec as f64 * 1e-9)
}

/// How global memory was timed in a run.
#[derive(Clone, Debug, Serialize)]
pub struct MemorySettings {
    /// `hierarchy` or `fixed`.
    pub model: &'static str,
    /// The reordering unit was on.
    pub reorder: bool,
    /// The DRAM part behind the controller (with the hierarchy).
    pub dram_part: Option<&'static str>,
    /// The fixed latency of a global access in cycles (with `fixed`).
    pub fixed_latency: Option<u32>,
}

/// The IDU settings of a run.
#[derive(Clone, Debug, Serialize)]
pub struct IduSettings {
    /// `off`, `orig`, `even` or `idu`.
    pub policy: String,
    /// The process-variation map the host flow planned for (when on).
    pub seed: Option<u64>,
}

/// What the run measured (the `--json` output).
#[derive(Clone, Debug, Serialize)]
pub struct RunReport {
    /// Kernel file.
    pub kernel: String,
    /// The model that ran it: `behavioural` or `rtl`.
    pub top: &'static str,
    /// Mode name.
    pub mode: &'static str,
    /// S.
    pub s: u32,
    /// Issue policy name.
    pub sched: &'static str,
    /// How global memory was timed.
    pub memory: MemorySettings,
    /// The VALU's instruction distribution.
    pub idu: IduSettings,
    /// The blocks run as RTL in lock-step with their models (`--rtl`).
    pub rtl: Vec<&'static str>,
    /// A compiled kernel under DWS or PWS: the split points the PWS pass placed.
    pub auto_split: Option<AutoSplit>,
    /// `--dump`: the directory the buffers were written to.
    pub dump: Option<String>,
    /// `--check`: `PASSED`, or `FAILED: …` with the first differing element.
    pub check: Option<String>,
    /// `--rtl`: the waveform of the first mismatch's window, if one was written.
    pub mismatch_vcd: Option<String>,
    /// Dimensions.
    pub dims: Dims,
    /// `done`, or the error's name.
    pub status: String,
    /// The error message, if any.
    pub error: Option<String>,
    /// Every counter by name, and per wavefront (start cycle, finish cycle).
    #[serde(flatten)]
    pub perf: PerfCounters,
    /// Simulation speed, with `--bench`.
    pub speed: Option<Speed>,
    /// Vulnerable periods, with `--vulnerability`.
    pub vulnerability: Option<super::vuln::VulnReport>,
    /// Sim-D execution: the phases and the DRAM use.
    pub simd: Option<super::simd::SimdSummary>,
}

impl RunReport {
    /// The human-readable report.
    pub fn text(&self) -> String {
        let mut out = format!(
            "{}: mode {} S={} sched {} grid {} wg {}\nstatus: {}\n",
            self.kernel, self.mode, self.s, self.sched, self.dims.grid, self.dims.wg, self.status
        );
        if self.top != Top::Behavioural.name() {
            out += &format!("top: {} (the RTL system)\n", self.top);
        }
        if !self.rtl.is_empty() {
            out += &format!(
                "rtl: {} (each in lock-step with its model)\n",
                self.rtl.join(",")
            );
        }
        if let Some(a) = &self.auto_split {
            out += &a.text();
        }
        if let Some(e) = &self.error {
            out += &format!("error: {e}\n");
        }
        for (name, v) in self.perf.counters.iter().filter(|(n, _)| self.applies(n)) {
            out += &format!("{name:>18} {v}\n");
        }
        if let Some(s) = &self.simd {
            out += &s.text();
        }
        let finish: Vec<String> = self.perf.wf.iter().map(|(_, f)| f.to_string()).collect();
        out += &format!("wavefront finish cycles: {}\n", finish.join(" "));
        if let Some(d) = &self.dump {
            out += &format!("buffers written to {d}/ (listed in buffers.json)\n");
        }
        if let Some(c) = &self.check {
            out += &format!("{c}\n");
        }
        if let Some(s) = self.speed {
            out += &format!(
                "speed: {:.0} cycles/s ({:.3} s)\n",
                s.cycles_per_second, s.seconds
            );
        }
        if let Some(v) = &self.vulnerability {
            out += &v.text();
        }
        out
    }

    /// Whether counter `name` measures something in this run's configuration: the memory
    /// hierarchy's counters only with the hierarchy, the reordering unit's only with it on,
    /// the IDU's only with the IDU.
    pub fn applies(&self, name: &str) -> bool {
        if name.starts_with("reorder_") {
            self.memory.reorder
        } else if name.starts_with("l1_") || name.starts_with("dram_") {
            self.memory.model == "hierarchy"
        } else if name.starts_with("idu_") {
            self.idu.policy != "off"
        } else {
            true
        }
    }
}

/// The largest input file (kernel source, configuration, PTX) the commands read: 64 MiB.
pub const MAX_INPUT_BYTES: u64 = 64 << 20;

/// Reads an input file, refusing one larger than [`MAX_INPUT_BYTES`] before it is all in
/// memory (`/dev/zero` included). The message starts with the path.
pub fn read_input_bytes(path: &Path) -> Result<Vec<u8>, String> {
    use std::io::Read;
    let fail = |e: String| format!("{}: {e}", path.display());
    let file = std::fs::File::open(path).map_err(|e| fail(e.to_string()))?;
    let mut bytes = Vec::new();
    file.take(MAX_INPUT_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| fail(e.to_string()))?;
    if bytes.len() as u64 > MAX_INPUT_BYTES {
        return Err(fail(format!(
            "larger than {} MiB, the most an input file may be",
            MAX_INPUT_BYTES >> 20
        )));
    }
    Ok(bytes)
}

/// Reads a text input file as [`read_input_bytes`] does; it must be UTF-8.
pub fn read_input(path: &Path) -> Result<String, String> {
    let bytes = read_input_bytes(path)?;
    String::from_utf8(bytes).map_err(|e| {
        format!(
            "{}: not UTF-8 text (byte {})",
            path.display(),
            e.utf8_error().valid_up_to()
        )
    })
}

/// Parses a compute unit configuration (TOML if `toml`, else JSON; unknown fields rejected)
/// and checks its ranges.
pub fn parse_config(text: &str, toml: bool) -> Result<CuConfig, String> {
    let cfg: CuConfig = if toml {
        toml::from_str(text).map_err(|e| e.to_string().trim_end().to_string())?
    } else {
        serde_json::from_str(text).map_err(|e| e.to_string())?
    };
    cfg.check()?;
    Ok(cfg)
}

/// Reads a compute unit configuration: TOML if the file name ends in `.toml`, else JSON.
pub fn load_config(path: &Path) -> Result<CuConfig, String> {
    let text = read_input(path)?;
    let toml = path.extension().is_some_and(|e| e == "toml");
    parse_config(&text, toml).map_err(|e| format!("{}: {e}", path.display()))
}

/// Assembles a kernel source and reads its header: the program must be a kernel (it has an
/// `s_endpgm`). `name` names the file in messages.
pub fn assemble_kernel(src: &str, name: &str) -> Result<(Program, KernelMeta), String> {
    let prog = assemble(src, name).map_err(|e| e.to_string())?;
    prog.check_kernel(name).map_err(|e| e.to_string())?;
    let meta = KernelMeta::parse(src).map_err(|e| format!("{name}: {e}"))?;
    Ok((prog, meta))
}

/// What the PWS pass did to a compiled kernel under DWS or PWS ([`Kernel::code`]). Addresses
/// are those of clang's code (`rtgpu asm target/opencl/NAME-*.s`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct AutoSplit {
    /// The ifs split (the addresses of their `s_and_saveexec_b64`).
    pub split: Vec<u32>,
    /// PWS: the splittable ifs SELECT did not choose under S.
    pub rejected: Vec<u32>,
    /// The ifs and loops left unsplit because they cannot be split safely, with the reason.
    pub refused: Vec<(u32, String)>,
    /// Why the pass could not structure the kernel (it then runs unsplit).
    pub failed: Option<String>,
}

impl AutoSplit {
    /// One line per fact, for the text report.
    pub fn text(&self) -> String {
        let pcs = |v: &[u32]| {
            v.iter()
                .map(|p| format!("{p:#06x}"))
                .collect::<Vec<_>>()
                .join(" ")
        };
        let mut out = match &self.failed {
            Some(e) => format!("auto-split: none, the kernel runs unsplit: {e}\n"),
            None if self.split.is_empty() => "auto-split: no split point\n".to_string(),
            None => format!("auto-split: split at {}\n", pcs(&self.split)),
        };
        if !self.rejected.is_empty() {
            out += &format!(
                "auto-split: not chosen by SELECT: {}\n",
                pcs(&self.rejected)
            );
        }
        for (pc, why) in &self.refused {
            out += &format!("auto-split: unsplit {pc:#06x}: {why}\n");
        }
        out
    }
}

/// A kernel ready to launch: its program, default launch and (compiled kernels) HSA
/// interface.
pub struct Kernel {
    /// The assembled program.
    pub prog: Program,
    /// The `// @` header lines (LDS raised to what a compiled kernel declares).
    pub meta: KernelMeta,
    /// The HSA interface of a compiled kernel.
    pub hsa: Option<HsaKernel>,
}

impl Kernel {
    /// Reads, (for `.cl`) compiles and assembles the kernel at `path`.
    pub fn load(path: &Path) -> Result<Kernel, (u8, String)> {
        let bad = |m: String| (2u8, m);
        let src = read_input(path).map_err(bad)?;
        let (asm, name, origin) = if crate::opencl::is_opencl(path) {
            let s = crate::opencl::compile(path, &src)?;
            let origin = format!(" (compiled from {})", path.display());
            (
                read_input(&s).map_err(bad)?,
                s.display().to_string(),
                origin,
            )
        } else {
            (src.clone(), path.display().to_string(), String::new())
        };
        let fail = |e: AsmError| bad(format!("{e}{origin}"));
        let prog = assemble(&asm, &name).map_err(fail)?;
        prog.check_kernel(&name).map_err(fail)?;
        let mut meta = KernelMeta::parse(&src).map_err(|e| bad(format!("{name}: {e}")))?;
        let hsa = HsaKernel::of(&prog, &name).map_err(fail)?;
        if let Some(h) = &hsa {
            meta.lds = meta.lds.max(h.lds.next_multiple_of(4));
        }
        Ok(Kernel { prog, meta, hsa })
    }

    /// The launch's memory image (arguments laid out by the kernel's ABI).
    pub fn image(&self, args: &[Arg], dims: Dims, seed: u64) -> Result<Image, String> {
        match &self.hsa {
            Some(h) => h.image(args, dims, self.meta.lds, seed).map_err(|e| e.0),
            None => Ok(Image::build(args, dims, seed)),
        }
    }

    /// The code a launch in `mode` with `s` runs. A hand-written kernel runs as written (its own
    /// `split`s). A compiled kernel has none, so under DWS and PWS the PWS pass places them
    /// ([`Marks::Auto`]: every two-armed if that can be split safely, SELECT's choice under
    /// `s` for PWS); what it did is the [`AutoSplit`]. A kernel the pass cannot structure runs
    /// as compiled, unsplit, with the reason in [`AutoSplit::failed`].
    pub fn code(&self, mode: Mode, s: u32) -> (Vec<u32>, Option<AutoSplit>) {
        let words = self.prog.words();
        let pass_mode = match mode {
            _ if self.hsa.is_none() => return (words, None),
            Mode::NoSplit => return (words, None),
            Mode::Dws => PassMode::Dws,
            Mode::Pws => PassMode::Pws,
        };
        let mut auto = AutoSplit::default();
        if self.prog.entry_pc() != 0 {
            auto.failed = Some("the kernel's entry is not the first instruction".into());
            return (words, Some(auto));
        }
        let opts = PassOptions {
            mode: pass_mode,
            s: s as usize,
            marks: Marks::Auto,
        };
        match compile(&words, &opts) {
            Ok(c) => {
                auto.split = c.report.sb;
                auto.rejected = c.report.rejected;
                auto.refused = c.report.refused;
                (c.code, Some(auto))
            }
            Err(e) => {
                auto.failed = Some(e.to_string());
                (words, Some(auto))
            }
        }
    }

    /// The kernel's name: its `__kernel` function, else the file's stem.
    pub fn name(&self, path: &Path) -> String {
        match &self.hsa {
            Some(h) => h.name.clone(),
            None => path
                .file_stem()
                .map_or(String::new(), |s| s.to_string_lossy().into_owned()),
        }
    }
}

/// `--dump` and `--check` after a launch that finished (nothing after an error): the folder
/// the buffers went to and the check's verdict (`PASSED` or `FAILED: …`). Exit 2 when the
/// folder cannot be written or the kernel has no host-side reference.
pub(super) fn dump_and_check(
    o: &RunOpts,
    kernel: &Kernel,
    (dims, args): (Dims, &[Arg]),
    image: &Image,
    outcome: &Outcome,
) -> Result<(Option<String>, Option<String>), (u8, String)> {
    let bad = |m: String| (2u8, m);
    if outcome.result.is_err() {
        return Ok((None, None));
    }
    let dumped = match &o.dump {
        Some(dir) => {
            super::dump::write(dir, args, &image.buffers, &outcome.buffers).map_err(bad)?;
            Some(dir.display().to_string())
        }
        None => None,
    };
    let check = match o.check {
        true => {
            let k = kernel.name(&o.kernel);
            Some(check_buffers(&k, dims, args, image, &outcome.buffers).map_err(bad)?)
        }
        false => None,
    };
    Ok((dumped, check))
}

/// `--check`: `PASSED` or `FAILED: …` against the reference of kernel `name`.
fn check_buffers(
    name: &str,
    dims: Dims,
    args: &[Arg],
    image: &Image,
    got: &[Vec<u32>],
) -> Result<String, String> {
    let r = suite::reference(name).ok_or_else(|| {
        let names: Vec<&str> = suite::REFERENCES.iter().map(|r| r.name).collect();
        format!(
            "--check: kernel {name} has no host-side reference (the suite's have one: {})",
            names.join(", ")
        )
    })?;
    let initial = (0..image.buffers.len())
        .map(|i| image.buffer(&image.mem, i).to_vec())
        .collect();
    let inputs = Inputs::new(dims, args, initial);
    Ok(match r.check(&inputs, got) {
        None => "PASSED".into(),
        Some((b, i, g, w)) => {
            let k = buffer_arg(args, b);
            let show = |v: u32| {
                if r.float {
                    format!("{}", f32::from_bits(v))
                } else {
                    format!("{}", v as i32)
                }
            };
            format!(
                "FAILED: arg{k}[{i}] = {} ({g:#010x}), expected {} ({w:#010x})",
                show(g),
                show(w)
            )
        }
    })
}

/// The argument position of buffer `b` (the b-th buffer argument).
fn buffer_arg(args: &[Arg], b: usize) -> usize {
    args.iter()
        .enumerate()
        .filter(|(_, a)| matches!(a, Arg::Buffer { .. }))
        .nth(b)
        .map_or(b, |(k, _)| k)
}

/// Checks a launch against the configuration before anything is allocated or run: the
/// sizes, the wavefront slots a work-group needs, its LDS, and that its buffers fit the data
/// memory. Every message names the limit.
pub fn check_launch(cfg: &CuConfig, dims: Dims, lds: u32, args: &[Arg]) -> Result<(), String> {
    dims.check().map_err(|e| e.0)?;
    let waves = dims.waves_per_group() as usize;
    let slots = cfg.n_simd * cfg.n_wfc;
    if waves > slots {
        return Err(format!(
            "a work-group of {} work-items needs {waves} wavefront slots; the compute unit has \
             {slots} (n_simd × n_wfc in the configuration)",
            dims.wg
        ));
    }
    if lds > cfg.lds_bytes || !lds.is_multiple_of(4) {
        return Err(format!(
            "the kernel's @lds asks for {lds} LDS bytes per work-group; it must be a multiple of 4 \
             and at most the compute unit's lds_bytes = {}",
            cfg.lds_bytes
        ));
    }
    Image::check(args, dims, cfg.mem_bytes).map_err(|e| e.0)?;
    Ok(())
}

/// Runs the kernel. `Err((2, message))` for bad input (source, arguments, configuration,
/// files); a launch that fails on the GPU still gives a report (with `status` the error).
pub fn run(o: &RunOpts) -> Result<RunReport, (u8, String)> {
    if o.top == Top::Rtl {
        return super::rtl_run::run(o).map_err(|e| e.coded());
    }
    match o.rtl {
        None => run_here(o),
        Some(_) => crate::sim::twin::on_rtl_stack(|| Ok(run_here(o))).map_err(|e| (1, e))?,
    }
}

fn run_here(o: &RunOpts) -> Result<RunReport, (u8, String)> {
    let bad = |m: String| (2u8, m);
    let kernel = Kernel::load(&o.kernel)?;
    let cfg = match &o.config {
        Some(p) => load_config(p).map_err(bad)?,
        None => CuConfig::default(),
    };
    let (dims, args) = o.launch.resolve(&kernel.meta).map_err(bad)?;
    run_loaded(o, &kernel, cfg, dims, &args)
}

/// [`run`] of a kernel already loaded, on configuration `cfg` (before `o`'s memory options)
/// with launch `dims` and `args` (`o.kernel`, `o.config` and `o.launch`'s sizes and arguments
/// are not read; its seed is): `rtgpu suite` loads each kernel once and scales its launch.
/// Without `--rtl` only (the RTL blocks run on [`run`]'s larger stack).
pub fn run_loaded(
    o: &RunOpts,
    kernel: &Kernel,
    cfg: CuConfig,
    dims: Dims,
    args: &[Arg],
) -> Result<RunReport, (u8, String)> {
    let bad = |m: String| (2u8, m);
    let name = o.kernel.display().to_string();
    let (prog, meta) = (&kernel.prog, &kernel.meta);
    let cfg = o.apply(cfg).map_err(bad)?;
    cfg.check().map_err(bad)?;
    check_launch(&cfg, dims, meta.lds, args).map_err(bad)?;
    let image = kernel.image(args, dims, o.launch.seed).map_err(bad)?;
    let scopes = &o.engine.vcd_scope;
    if !scopes.is_empty() && o.vcd.is_none() {
        return Err(bad(
            "--vcd-scope limits the waveforms of --vcd: give --vcd FILE".into(),
        ));
    }
    let mut gpu = Gpu::new(cfg).map_err(bad)?;
    gpu.cu_mut().set_skip_idle(!o.no_skip);
    let (code, auto_split) = kernel.code(o.mode, o.s);
    if o.vulnerability {
        super::vuln::attach(gpu.cu_mut(), &code);
    }
    let timeline = Timeline::default();
    let mut rtl_blocks = None;
    if let Some(RtlList(kinds)) = &o.rtl {
        let blocks = RtlBlocks::new(kinds)
            .with_engine(o.engine.engine, o.engine.window_ps())
            .with_vcd_scopes(scopes);
        let blocks = std::sync::Arc::new(match &o.vcd {
            Some(v) => blocks.with_vcd_dir(v.with_extension("rtl"), timeline.clone()),
            None => blocks,
        });
        rtl_blocks = Some(blocks.clone());
        gpu.cu_mut().set_blocks(blocks);
    }
    let idu = idu_launch(parse_idu(&o.idu).map_err(bad)?, o.idu_seed).map_err(bad)?;
    let probe = match &o.vcd {
        Some(p) => Some(
            CuProbe::create(
                p,
                (cfg.n_simd, o.s as usize + 1, cfg.n_wfc),
                cfg.memory.hierarchy,
                idu.is_some(),
                scopes,
            )
            .map_err(|e| bad(e.to_string()))?
            .with_window(o.engine.window_ps()),
        ),
        None => None,
    };
    // The compute unit's waveform is known now; the RTL blocks' once they are built.
    let (probe_found, probe_top) = probe
        .as_ref()
        .map(|p| (p.holds(scopes), p.top_level().to_vec()))
        .unwrap_or_default();
    if rtl_blocks.is_none() {
        unknown_scope(scopes, &probe_found, &probe_top)?;
    }
    let recording = Recording::new(gpu, probe).with_clock(timeline.clock.clone());
    let mut drv = Driver::new(recording).map_err(|e| (1, e.to_string()))?;
    let desc = LaunchDesc {
        reorder: o.reorder,
        idu,
        exec: o.exec,
        entry_pc: prog.entry_pc(),
        ..LaunchDesc::new(image.abi, dims, meta.lds, o.mode, o.s, o.sched)
    };
    let (t0, cpu0) = (std::time::Instant::now(), thread_cpu_seconds());
    let outcome =
        driver::run(&mut drv, &code, &image, desc, o.timeout).map_err(|e| bad(e.to_string()))?;
    let seconds = t0.elapsed().as_secs_f64();
    let cpu_seconds = cpu0.zip(thread_cpu_seconds()).map(|(a, b)| b - a);
    let (mut gpu, probe, io_error) = drv.into_bus().finish();
    let vulnerability = super::vuln::collect(gpu.cu_mut(), &code, dims);
    if let Some(e) = io_error {
        return Err((1, format!("writing the waveform: {e}")));
    }
    let fault = gpu.cu().block_fault().cloned();
    let simd = gpu.cu().simd().map(super::simd::SimdSummary::of);
    // The RTL blocks close their own waveforms when they are dropped, before the merge.
    drop(gpu);
    if let (Some(p), Some(vcd)) = (probe, &o.vcd) {
        let title = format!("rtgpu run {name} --mode {} --s {}", o.mode.name(), o.s);
        p.finish(
            &vcd.with_extension("gtkw"),
            &title,
            &timeline.tracks.snapshot(),
        )
        .map_err(|e| (1, e.to_string()))?;
    }
    if let Some(blocks) = &rtl_blocks {
        let seen = blocks.scopes_seen();
        let found: Vec<String> = probe_found.into_iter().chain(seen.found).collect();
        let top: Vec<String> = probe_top.into_iter().chain(seen.top_level).collect();
        unknown_scope(scopes, &found, &top)?;
    }
    let (dumped, check) = dump_and_check(o, kernel, (dims, args), &image, &outcome)?;
    let mut r = report(o, &cfg, name, dims, outcome.result, outcome.counters);
    r.dump = dumped;
    r.check = check;
    r.auto_split = auto_split;
    r.vulnerability = vulnerability;
    r.simd = simd;
    if let Some(f) = &fault {
        let path = match &o.vcd {
            Some(v) => v.with_file_name("rtl-mismatch.vcd"),
            None => PathBuf::from("rtl-mismatch.vcd"),
        };
        let written = crate::sim::window::write(f, &path)
            .map_err(|e| (1, format!("{}: {e}", path.display())))?;
        r.mismatch_vcd = written.then(|| path.display().to_string());
        r.error = Some(match &r.mismatch_vcd {
            Some(p) => format!(
                "{f} (waveform of the {} cycles up to it: {p})",
                f.window.len()
            ),
            None => f.to_string(),
        });
    }
    if o.bench {
        r.speed = Some(Speed {
            seconds,
            cycles_per_second: r.perf.get("cycles") as f64 / seconds.max(1e-9),
            cpu_seconds,
        });
    }
    Ok(r)
}

/// `Err((2, ..))` naming the first of `scopes` (`--vcd-scope`) no waveform of the run holds
/// (none is in `found`), with the waveforms' top-level scopes `top`.
fn unknown_scope(scopes: &[String], found: &[String], top: &[String]) -> Result<(), (u8, String)> {
    match scopes.iter().find(|s| !found.contains(s)) {
        None => Ok(()),
        Some(s) => Err((
            2,
            format!(
                "--vcd-scope {s}: no such scope or signal in the waveforms of this run; their \
                 top-level scopes: {}",
                top.join(", ")
            ),
        )),
    }
}

pub(super) fn report(
    o: &RunOpts,
    cfg: &CuConfig,
    kernel: String,
    dims: Dims,
    result: Result<(), DriverError>,
    c: PerfCounters,
) -> RunReport {
    let status = status_name(&result);
    let error = result.as_ref().err().map(|e| e.to_string());
    RunReport {
        kernel,
        top: o.top.name(),
        mode: o.mode.name(),
        s: o.s,
        sched: o.sched.name(),
        memory: MemorySettings {
            model: if cfg.memory.hierarchy {
                "hierarchy"
            } else {
                "fixed"
            },
            reorder: o.reorder,
            dram_part: cfg
                .memory
                .hierarchy
                .then(|| cfg.memory.dram_part.part().name),
            fixed_latency: (!cfg.memory.hierarchy).then_some(cfg.lat.flat),
        },
        idu: IduSettings {
            policy: o.idu.clone(),
            seed: (o.idu != "off").then_some(o.idu_seed),
        },
        rtl: o
            .rtl
            .iter()
            .flat_map(|l| l.0.iter().map(|k| k.name()))
            .collect(),
        auto_split: None,
        mismatch_vcd: None,
        dump: None,
        check: None,
        dims,
        status,
        error,
        perf: c,
        speed: None,
        vulnerability: None,
        simd: None,
    }
}

/// A launch's status: `done`, the GPU error's name, `timeout` or `driver_error`.
pub fn status_name(result: &Result<(), DriverError>) -> String {
    match result {
        Ok(()) => "done".into(),
        Err(DriverError::Hardware { error, .. }) => error.name().into(),
        Err(DriverError::Timeout { .. }) => "timeout".into(),
        Err(_) => "driver_error".into(),
    }
}
