//! `rtgpu wcet KERNEL.s`: the PWS compiler pass, the per-block WCETs measured on the model in
//! isolation, and the analytical kernel WCET of Section 5 of the PWS paper for no-split, DWS and
//! PWS, with, on `--run`, the simulated time of the same launch beside it.
//!
//! The flow (the PWS paper's Fig. 6, Sections 5 and 7):
//! 1. [`rtgpu_firmware::pws_pass::compile`]: P (the marked ifs, or every two-armed if with
//!    `--mark`), SELECT under S for PWS, the split/merge/`s_waitcnt 0`/execz placement;
//! 2. [`measure`]: the compiled kernel in isolation (one wavefront per SIMD, one resident
//!    work-group, no splitting): per C_conv block and BSB the most cycles of one visit, the
//!    most memory instructions of one visit, and d;
//! 3. C_BSB with those costs; IPET(C) (no-split), IPET(C) + S·(e_s+e_m) (DWS), or PRUNE +
//!    IPET(C_out) + |SB|·(e_s+e_m) (PWS) — E_WF (Eq. 3);
//! 4. G_parallel (Eq. 4, with N_SIMD_total of Eq. 2 when re-provisioning), DS (Eq. 5) and
//!    E_kernel (Eqs. 6, 8), plus the model's launch overhead.
//!
//! What the model adds to the paper's equations, each a safe bound of a cost the paper's
//! idealised machine does not have (all zero in the paper's setting of one wavefront per unit):
//! - a block's cost grows by (units − 1) cycles per global or scalar memory instruction: the
//!   global pipe is shared round-robin by every SIMD/SpSIMD (docs/assumptions.md#A30);
//! - the LDS takes one DS instruction every `lds_period` cycles (docs/assumptions.md#A104): a
//!   wavefront's own DS instructions wait for it in the block costs, and every round adds
//!   `lds_period` cycles per DS instruction the other contexts of the round may issue
//!   (docs/assumptions.md#A105);
//! - `k`, the most wavefronts that time-share one unit: E_round = d + k·E_WF (k = 1 is Eq. 6);
//! - split, merge and the end of a wavefront wait for their SIMD group's one command port
//!   (DISPATCH, SPLIT, MERGE, END) at most once per context of the group;
//! - the dispatcher sends one wavefront per SIMD group per cycle: d grows by the cycles it
//!   takes to send a round.

pub mod graph;
pub mod gub;
pub mod inputs;
pub mod lanes;
pub mod loop_splits;
pub mod loops;
pub mod measure;
pub mod memory;
pub mod mp_table;
pub mod paths;
pub mod phases;
pub mod reorder_bound;
pub mod reorder_eq;
pub mod reproduce;
pub mod sgemm_table;
pub mod simd;
pub mod taint;
pub mod timing;

use super::run::{parse_mode, parse_policy, status_name, LaunchOpts};
use graph::Graph;
use loops::{Facts, Known, Scalar};
use measure::{attribute, is_memory, isolated_run, isolation_config, Measurement, OwnerCost};
use paths::Costed;
use rtgpu_firmware::driver::{self, Driver, LaunchDesc};
use rtgpu_firmware::launch::{Arg, Dims, Image, KernelMeta};
use rtgpu_firmware::pws_pass::{
    compile, listing, Compiled, Marks, Owner, PassMode, PassOptions, ScalarAccess,
};
use rtgpu_hw::cu::{resident_wgs, CuConfig, Mode};
use rtgpu_hw::gpu::Gpu;
use rtgpu_hw::isa::insn_model::unit;
use rtgpu_hw::sched::model::Policy;
use rtgpu_wcet::pws::kernel::{self as keq, KernelBound, KernelInputs};
use rtgpu_wcet::pws::{analyze_pws, no_split_e_wf};
use serde::Serialize;
use std::path::PathBuf;
use timing::Rules;

/// Why an analysis could not be made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WcetError {
    /// The kernel (the pass rejects it), its launch or the configuration cannot be analysed as
    /// given (exit 2).
    Input(String),
    /// The analysis failed: the measurement run or the equations (exit 1).
    Analysis(String),
}

impl WcetError {
    /// The exit code `rtgpu wcet` gives it.
    pub fn code(&self) -> u8 {
        match self {
            Self::Input(_) => 2,
            Self::Analysis(_) => 1,
        }
    }
}

impl std::fmt::Display for WcetError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Input(m) | Self::Analysis(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for WcetError {}

fn failed(e: impl ToString) -> WcetError {
    WcetError::Analysis(e.to_string())
}

/// The arguments of `rtgpu wcet`.
#[derive(Clone, Debug, clap::Args)]
pub struct WcetOpts {
    /// Kernel source: assembly (see firmware/kernels/README.md; its `split`s are the marked
    /// branches P) or OpenCL C (`.cl`, compiled with clang-14; its split points are the pass's
    /// own, its `// @loop .LBB0_N N` lines name clang's loop labels, docs/cli.md#loop-bounds).
    pub kernel: PathBuf,
    /// Execution model: `gcn` (the PWS analysis of the compute unit) or `simd` (Sim-D's phase
    /// analysis, [`simd`]: the kernel's compute and access phases, the two-slot schedule of
    /// the phase rules and refresh; kernels in firmware/kernels/simd/).
    #[arg(long, default_value = "gcn", value_parser = ["gcn", "simd"])]
    pub exec: String,
    /// nosplit, dws or pws.
    #[arg(long, default_value = "pws", value_parser = parse_mode)]
    pub mode: Mode,
    /// S: SpSIMDs per SIMD (PWS) or live splits per wavefront (DWS), 1..=7.
    #[arg(long, default_value_t = 1)]
    pub s: u32,
    /// The split points P: `source` (the kernel's `split`s), `all` (also every two-armed if:
    /// DWS's "every divergent branch") or `shallowest` (also the S shallowest two-armed ifs:
    /// the paper's synthetic benchmark, "as many split points as there are SpSIMD units").
    #[arg(long, default_value = "source", value_parser = ["source", "all", "shallowest"])]
    pub mark: String,
    /// PWS: re-provision the idle SpSIMDs as SIMDs (Eq. 2 with swfCount, docs/assumptions.md#A24)
    /// and run on N_SIMD_total SIMDs with swfCount SpSIMDs each.
    #[arg(long)]
    pub reprovision: bool,
    /// Also simulate the launch and print the observed time beside the bound (exit 1 if it is
    /// larger, or if the launch fails).
    #[arg(long)]
    pub run: bool,
    /// With `--run`: also simulate N random inputs (random buffers, every `// @range`d scalar
    /// argument drawn from its range) against the same bound; print the worst observed and
    /// the tightness (exit 1 if any input exceeds the bound or fails).
    #[arg(long, value_name = "N", requires = "run")]
    pub inputs: Option<u64>,
    /// Compute unit configuration (TOML or JSON), as for `rtgpu run`.
    #[arg(long)]
    pub config: Option<PathBuf>,
    /// Global memory timing: `hierarchy` (every access bounded through the coalescer, the
    /// LD/ST queue, the L1, the crossing and the Sim-D controller, behind the other
    /// wavefronts' requests) or `fixed` (`lat.flat`); default: the configuration's.
    #[arg(long, value_parser = ["hierarchy", "fixed"])]
    pub memory: Option<String>,
    /// The reordering unit on (implies `--memory hierarchy`): the bound of
    /// [`reorder_bound`] (compute and memory work summed over the launch; the static L1
    /// estimate where the accesses do not depend on the input).
    #[arg(long)]
    pub reorder: bool,
    /// Issue policy: gto or lrr.
    #[arg(long, default_value = "gto", value_parser = parse_policy)]
    pub sched: Policy,
    /// Launch sizes, arguments and seed.
    #[command(flatten)]
    pub launch: LaunchOpts,
    /// Give up the launch after this many cycles (the isolated measurement run, one work-group
    /// at a time, gets this many per work-group).
    #[arg(long, default_value_t = 100_000_000)]
    pub timeout: u64,
    /// Print the compiled kernel.
    #[arg(long)]
    pub listing: bool,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

/// One analysis: a kernel, its launch, the configuration and the mode.
#[derive(Clone, Debug)]
pub struct WcetCase {
    /// The assembled kernel (its `split`s mark P).
    pub code: Vec<u32>,
    /// LDS bytes per work-group.
    pub lds: u32,
    /// Launch sizes.
    pub dims: Dims,
    /// Kernel arguments.
    pub args: Vec<Arg>,
    /// Buffer seed.
    pub seed: u64,
    /// The compute unit.
    pub cfg: CuConfig,
    /// Mode.
    pub mode: Mode,
    /// S.
    pub s: u32,
    /// Which ifs are the split points P.
    pub marks: Marks,
    /// PWS re-provisioning (Eq. 2).
    pub reprovision: bool,
    /// Issue policy of the observed run.
    pub policy: Policy,
    /// Cycle limit of each simulation.
    pub timeout: u64,
    /// Loop bounds and argument ranges from the source (`// @loop`, `// @range`).
    pub facts: Facts,
    /// The reordering unit on (the memory hierarchy too).
    pub reorder: bool,
}

/// A block's measured cost.
#[derive(Clone, Debug, Serialize)]
pub struct BlockCost {
    /// `B3` (C_conv block 3) or `BSB3` (the else-head of divergent block 3).
    pub name: String,
    /// `plain`, `if`, `split if` (a kept split point) or `else-head` (a BSB).
    pub kind: &'static str,
    /// Byte address of its first instruction.
    pub pc: u32,
    /// Cycles and memory instructions of the longest visit in the isolated run on the
    /// launch's own input (for comparison; the bound does not use them).
    #[serde(flatten)]
    pub cost: OwnerCost,
    /// The input-independent cost of one visit from the timing rules (loops at their bounds,
    /// shared pipes included), used in the analysis.
    pub static_cycles: u64,
    /// The cost used in the analysis: the static cost plus the VALU carry-over.
    pub e_bb: u64,
}

/// What the pass selected.
#[derive(Clone, Debug, Serialize)]
pub struct PassSummary {
    /// Marked ifs (P).
    pub p: usize,
    /// Splits kept in the compiled code (SB for PWS, P for DWS, none for no-split).
    pub kept: usize,
    /// swfCount (PWS): distinct split contexts SELECT allocated.
    pub swf_count: usize,
    /// Warnings of the pass.
    pub warnings: Vec<String>,
}

/// The analysis of one case.
#[derive(Clone, Debug, Serialize)]
pub struct Analysis {
    /// Mode name.
    pub mode: &'static str,
    /// S of the analysis.
    pub s: u32,
    /// SIMDs and S of the configuration the bound is for (re-provisioned: N_SIMD_total and
    /// swfCount).
    pub n_simd: usize,
    /// S of the launch that the bound is for.
    pub launch_s: u32,
    /// Mode of that launch (re-provisioning without any split: `nosplit`).
    pub launch_mode: Mode,
    /// The pass.
    pub pass: PassSummary,
    /// Per block and BSB.
    pub blocks: Vec<BlockCost>,
    /// IPET of the analysed graph: IPET(C) (no-split, DWS) or IPET(C_out) (PWS).
    pub ipet: u64,
    /// The kernel-level bound (Eqs. 4–8).
    pub bound: KernelBound,
    /// The isolated run: d and the launch overhead.
    pub measured_d: u64,
    /// The part of d that charges the other contexts' DS instructions per round
    /// (docs/assumptions.md#A105).
    pub lds_round: u64,
    /// Launch overhead outside every wavefront (added to E_kernel).
    pub overhead: u64,
    /// The analytical WCET of the kernel: E_kernel + overhead.
    pub wcet: u64,
    /// The memory hierarchy's per-access bound (`None`: fixed latencies).
    pub memory: Option<memory::MemBound>,
    /// One wavefront's serial cost: IPET over the convergent graph with both arms of every if
    /// and e_split + e_merge at every split point (with reordering: global accesses free).
    pub e_serial: u64,
    /// Reordering on: the bound that replaces E_kernel + overhead ([`reorder_bound`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reorder: Option<reorder_bound::ReorderBound>,
    /// The compiled kernel, its structure and the pass's report.
    #[serde(skip)]
    pub compiled: Compiled,
}

/// The simulated launch.
#[derive(Clone, Debug, Serialize)]
pub struct Observed {
    /// `done` or the error.
    pub status: String,
    /// Cycles of the launch.
    pub cycles: u64,
    /// Observed ≤ analytical.
    pub within: bool,
}

/// `rtgpu wcet`'s report.
#[derive(Clone, Debug, Serialize)]
pub struct WcetReport {
    /// Kernel file.
    pub kernel: String,
    /// Launch sizes.
    pub dims: Dims,
    /// Per kernel argument: whether it is input (buffer contents, ranged scalars: the bound
    /// holds for every value) or the launch shape (the bound is for its value).
    pub args: Vec<loops::ArgRole>,
    /// The analysis.
    pub analysis: Analysis,
    /// The multi-phase bound (GUB) on the compute unit's wavefronts under `--sched`, or why
    /// it does not apply.
    pub multiphase: gub::MultiPhase,
    /// `--run` on one SIMD without barriers, fixed latencies: Lemmas 7 and 8 per phase of
    /// every wavefront's profile against the run ([`phases`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lemmas: Option<phases::LemmaCheck>,
    /// `--run`: the simulation.
    pub observed: Option<Observed>,
    /// `--run --inputs N`: the random inputs.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub inputs: Option<inputs::InputRuns>,
    /// `--listing`: the compiled kernel.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub listing: Option<String>,
}

impl WcetCase {
    /// The case `rtgpu wcet` describes. `Err` for bad input.
    pub fn from_opts(o: &WcetOpts) -> Result<(WcetCase, KernelMeta), String> {
        let (code, meta, facts) = load_with_facts(&o.kernel)?;
        let mut cfg = match &o.config {
            Some(p) => super::run::load_config(p)?,
            None => CuConfig::default(),
        };
        if let Some(m) = &o.memory {
            cfg.memory.hierarchy = m == "hierarchy";
        }
        if o.reorder {
            if o.memory.as_deref() == Some("fixed") {
                return Err("--reorder needs --memory hierarchy, not fixed".into());
            }
            cfg.memory.hierarchy = true;
        }
        let (dims, args) = o.launch.resolve(&meta)?;
        let case = WcetCase {
            code,
            lds: meta.lds,
            dims,
            args,
            seed: o.launch.seed,
            cfg,
            mode: o.mode,
            s: o.s,
            marks: match o.mark.as_str() {
                "all" => Marks::All,
                "shallowest" => Marks::Shallowest(o.s as usize),
                _ => Marks::Source,
            },
            reprovision: o.reprovision,
            policy: o.sched,
            timeout: o.timeout,
            facts,
            reorder: o.reorder,
        };
        case.check()?;
        Ok((case, meta))
    }

    fn check(&self) -> Result<(), String> {
        if !(1..=7).contains(&self.s) {
            return Err(format!("--s {} is outside 1..=7", self.s));
        }
        if self.reprovision && self.mode != Mode::Pws {
            return Err("--reprovision is for --mode pws".into());
        }
        self.cfg.check()?;
        if let Some(h) = &self.facts.hsa {
            h.image(&self.args, self.dims, self.lds, self.seed)
                .map_err(|e| e.0)?;
        }
        super::run::check_launch(&self.cfg, self.dims, self.lds, &self.args)
    }

    /// The launch's memory image, laid out by the kernel's ABI (the HSA ABI's metadata
    /// offsets and dispatch packet for a compiled kernel).
    pub fn image(&self) -> Image {
        match &self.facts.hsa {
            Some(h) => h
                .image(&self.args, self.dims, self.lds, self.seed)
                .unwrap_or_else(|_| Image::build(&self.args, self.dims, self.seed)),
            None => Image::build(&self.args, self.dims, self.seed),
        }
    }

    /// What the analysis knows of the launch of `image` ([`Known::of_image`]).
    pub fn known(&self, image: &Image) -> Known {
        Known::of_image(
            &self.args,
            self.dims,
            &self.facts.ranges,
            image,
            self.facts.hsa.as_ref(),
        )
    }

    fn pass_options(&self) -> PassOptions {
        PassOptions {
            mode: match self.mode {
                Mode::NoSplit => PassMode::NoSplit,
                Mode::Dws => PassMode::Dws,
                Mode::Pws => PassMode::Pws,
            },
            s: self.s as usize,
            // A compiled kernel has no `split`s: its split points are the pass's choice.
            marks: match (&self.facts.hsa, self.marks) {
                (Some(_), Marks::Source) => Marks::Auto,
                (_, m) => m,
            },
        }
    }
}

/// Compiles and bounds the case for every input: every block and BSB gets its cost from the
/// timing rules ([`static_costs`], loops at their bounds), whether or not the launch's own
/// input reaches it. The isolated run on the launch's input gives d, the launch overhead and
/// the measured costs the report shows beside the static ones.
pub fn analyze(case: &WcetCase) -> Result<Analysis, WcetError> {
    analyze_with(case, &|_| {})
}

/// [`analyze`] with `mutate` applied to the per-owner static costs (C_conv blocks, then BSBs)
/// before the equations: the tests under-cost a block with it to show that the input runs
/// catch a bound that is too small.
pub fn analyze_with(case: &WcetCase, mutate: &dyn Fn(&mut [u64])) -> Result<Analysis, WcetError> {
    analyze_mutated(case, mutate, &|_| {})
}

/// [`analyze_with`] with `mem` applied to the memory hierarchy's per-access bound too (the
/// tests under-estimate the DRAM or the queueing with it).
pub fn analyze_mutated(
    case: &WcetCase,
    mutate: &dyn Fn(&mut [u64]),
    mem: &dyn Fn(&mut memory::MemBound),
) -> Result<Analysis, WcetError> {
    analyze_all(case, mutate, mem, &|_| {})
}

/// [`analyze`] with reordering's bound under-estimated by `reorder` (the tests leave a part
/// out with it).
pub fn analyze_reorder_mutated(
    case: &WcetCase,
    reorder: &dyn Fn(&mut reorder_bound::ReorderBound),
) -> Result<Analysis, WcetError> {
    analyze_all(case, &|_| {}, &|_| {}, reorder)
}

fn analyze_all(
    case: &WcetCase,
    mutate: &dyn Fn(&mut [u64]),
    mem: &dyn Fn(&mut memory::MemBound),
    reorder: &dyn Fn(&mut reorder_bound::ReorderBound),
) -> Result<Analysis, WcetError> {
    case.check().map_err(WcetError::Input)?;
    // A kernel the pass cannot compile as asked (its structure,
    // docs/assumptions.md#A13, docs/assumptions.md#A22) is bad input.
    // Splits inside loops are kept as written (the pass sees placeholders): `loop_splits`.
    let (code, hidden) = loop_splits::hide(&case.code).map_err(WcetError::Input)?;
    let mut compiled =
        compile(&code, &case.pass_options()).map_err(|e| WcetError::Input(e.to_string()))?;
    hidden.restore(&mut compiled.code);
    let shape = RunShape::of(case, &compiled)?;
    let image = case.image();
    // Reordering on: the static costs with every global access returning at once (the
    // unit's and the hierarchy's work is counted over the launch, [`reorder_bound`]).
    let full = std::cell::Cell::new(None);
    let mem_or_free = |m: &mut memory::MemBound| {
        mem(m);
        if case.reorder {
            full.set(Some(*m));
            m.access = 0;
            m.accept = 0;
        }
    };
    let (mut stat, mb) = static_costs(case, &compiled, shape, &image, &mem_or_free)?;
    let ds = ds_per_wavefront(case, &compiled, &image)?;
    let mb = full.get().or(mb);
    mutate(&mut stat);
    let run = isolated_run(
        &compiled.code,
        &image,
        case.dims,
        case.lds,
        &case.cfg,
        // The isolated run holds one work-group at a time: give it the launch's limit per group.
        case.timeout
            .saturating_mul(u64::from(case.dims.groups()).max(1)),
    )
    .map_err(WcetError::Analysis)?;
    let st = &compiled.structure;
    let n = st.n_blocks();
    let code = &compiled.code;
    let m = attribute(
        &run.log,
        &run.wf,
        run.cycles,
        2 * n,
        |pc| st.owner_of(pc).map(|o| owner_index(o, n)),
        |pc| is_memory(code, pc),
    )
    .map_err(WcetError::Analysis)?;
    let mut a = bound(case, compiled, (&m, ds), &stat, shape).map_err(failed)?;
    // Reordering: the last access is in the memory work, the overhead is the launch's own.
    let launch_overhead = a.overhead;
    if let Some(mb) = mb {
        // The last wavefront's last access may complete up to the access bound later.
        let tail = (mb.access + 2).saturating_sub(m.tail.max(tail_bound(&case.cfg)));
        a.overhead += tail;
        a.wcet += tail;
    }
    a.memory = mb;
    if case.reorder {
        let mb = mb.ok_or_else(|| failed("reordering without the memory hierarchy"))?;
        let p = reorder_bound::Parts {
            compiled: &a.compiled,
            mb: &mb,
            e_serial: a.e_serial,
            d_eff: a.bound.d_eff,
            overhead: launch_overhead,
        };
        let r = reorder_bound::bound(case, &p, reorder)?;
        a.wcet = r.wcet;
        a.reorder = Some(r);
    }
    Ok(a)
}

/// Per owner (C_conv blocks, then BSBs): the most cycles one visit can take on any input,
/// from the compute unit's timing rules ([`timing`]) along the longest path through the
/// owner's instructions ([`paths`]), every loop at its bound ([`loops`]). Memory instructions
/// include the wait for their shared pipe (units − 1, docs/assumptions.md#A30). `Err`
/// ([`WcetError::Input`]) for a loop without a bound or control flow the analysis cannot
/// follow, naming it.
pub fn static_costs(
    case: &WcetCase,
    compiled: &Compiled,
    run: RunShape,
    image: &Image,
    mem: &dyn Fn(&mut memory::MemBound),
) -> Result<(Vec<u64>, Option<memory::MemBound>), WcetError> {
    let g = Graph::new(&compiled.code).map_err(WcetError::Input)?;
    let bounds = loop_bounds(case, &g, compiled, image)?;
    let (rules, mb) = rules_for(case, &g, run, mem)?;
    let states = rules.states(&g);
    let extra = split_costs(case, &g, run);
    let cost = |i: usize, j: usize| rules.edge(&g.nodes[i], states[i], &g.nodes[j]) + extra(i, j);
    let c = Costed {
        g: &g,
        cost: &cost,
        bounds: &bounds,
    };
    let st = &compiled.structure;
    let n = st.n_blocks();
    let owner: Vec<usize> = g
        .nodes
        .iter()
        .map(|x| st.owner_of(x.pc).map(|o| owner_index(o, n)))
        .collect::<Option<_>>()
        .ok_or_else(|| failed("an instruction of the compiled kernel has no owner"))?;
    (0..2 * n)
        .map(|o| {
            let lo = owner.iter().position(|&x| x == o);
            let hi = owner.iter().rposition(|&x| x == o);
            match (lo, hi) {
                (Some(lo), Some(hi)) => c
                    .region(lo, hi, &|j| owner[j] == o)
                    .map_err(WcetError::Input),
                _ => Ok(0),
            }
        })
        .collect::<Result<_, _>>()
        .map(|v| (v, mb))
}

/// What the LDS term of a round needs of the compiled kernel: the most DS instructions one
/// context runs on any path (every loop at its bound), and whether it keeps a `split` (a
/// wavefront may then run as up to S + 1 contexts).
struct DsCount {
    most: u64,
    splits: bool,
}

fn ds_per_wavefront(
    case: &WcetCase,
    compiled: &Compiled,
    image: &Image,
) -> Result<DsCount, WcetError> {
    let g = Graph::new(&compiled.code).map_err(WcetError::Input)?;
    let bounds = loop_bounds(case, &g, compiled, image)?;
    let cost = |i: usize, _: usize| u64::from(timing::is_ds(&g.nodes[i]));
    let most = Costed {
        g: &g,
        cost: &cost,
        bounds: &bounds,
    }
    .region(0, g.nodes.len().saturating_sub(1), &|_| true)
    .map_err(WcetError::Input)?;
    let splits = g.nodes.iter().any(|n| n.f.unit == unit::PWS);
    Ok(DsCount { most, splits })
}

/// The timing rules of the case's launch, and with the memory hierarchy on its per-access
/// bound ([`memory`], after `mutate`: the tests under-estimate a mechanism with it): every
/// FLAT access completes at most [`memory::MemBound::access`] cycles after its issue and its
/// issue waits at most [`memory::MemBound::accept`] more for the hierarchy.
pub fn rules_for(
    case: &WcetCase,
    g: &Graph,
    run: RunShape,
    mutate: &dyn Fn(&mut memory::MemBound),
) -> Result<(Rules, Option<memory::MemBound>), WcetError> {
    let iso = isolation_config(&case.cfg, case.dims.waves_per_group()).n_simd as u64;
    let units = run.units().max(iso);
    let mut rules = Rules {
        lat: case.cfg.lat,
        pipe_wait: units - 1,
        vmem_wait: 0,
    };
    if !case.cfg.memory.hierarchy {
        return Ok((rules, None));
    }
    let mut cfg = case.cfg;
    cfg.n_simd = run.n_simd;
    let shape = Shape::new(case, &cfg, run);
    let traffic = memory::Traffic {
        lines_per_access: lines_per_access(g, case.dims.wg),
        // Several rounds: an ended wavefront's stores may still be in flight beside the
        // wavefront that took its place.
        waves: u64::from(shape.resident * case.dims.waves_per_group())
            * if case.dims.groups() > shape.resident {
                2
            } else {
                1
            },
        pending: rules.most_pending(g),
        units,
    };
    let mut mb = memory::MemBound::new(&cfg, traffic).map_err(WcetError::Input)?;
    mutate(&mut mb);
    rules.lat.flat = u32::try_from(mb.access)
        .map_err(|_| failed(format!("the access bound {} overflows", mb.access)))?;
    rules.vmem_wait = mb.accept;
    Ok((rules, Some(mb)))
}

/// L: the most 128-byte lines one FLAT instruction of `g` may touch ([`lanes`]: from the
/// lanes' addresses when they are affine in the lane, else one per lane, two for wider than a
/// dword).
fn lines_per_access(g: &Graph, wg: u32) -> u64 {
    lanes::lines_per_access(g, wg)
        .into_iter()
        .max()
        .unwrap_or(1)
        .max(1)
}

/// The extra cost of edge (i → j) for the `split`s and `merge`s inside loops
/// ([`loop_splits`]): j waits for its SIMD group's command port, and a `split` (`merge`) at i
/// keeps its wavefront e_split (e_merge) cycles. Nothing in no-split mode, where they are
/// one-cycle no-ops.
fn split_costs(case: &WcetCase, g: &Graph, run: RunShape) -> impl Fn(usize, usize) -> u64 {
    let inloop = loop_splits::InLoop::of(g);
    let mut cfg = case.cfg;
    cfg.n_simd = run.n_simd;
    let port = Shape::new(case, &cfg, run).port_wait;
    let (e_s, e_m) = (u64::from(cfg.lat.e_split), u64::from(cfg.lat.e_merge));
    let on = run.mode != Mode::NoSplit;
    move |i, j| {
        if !on {
            return 0;
        }
        let is = |k: usize| inloop.splits.contains(&k) || inloop.merges.contains(&k);
        let wait = if is(j) { port } else { 0 };
        let busy = match () {
            _ if inloop.splits.contains(&i) => e_s,
            _ if inloop.merges.contains(&i) => e_m,
            _ => 0,
        };
        wait + busy
    }
}

/// Per loop of `g`: the most times its back edges are taken, derived or annotated.
fn loop_bounds(
    case: &WcetCase,
    g: &Graph,
    compiled: &Compiled,
    image: &Image,
) -> Result<Vec<u64>, WcetError> {
    let insns = compiled.structure.insns();
    let aligned =
        insns.len() == g.nodes.len() && insns.iter().zip(&g.nodes).all(|(a, b)| a.pc == b.pc);
    if !aligned {
        return Err(failed("the decoders disagree on the compiled kernel"));
    }
    let sc = Scalar {
        g,
        acc: insns.iter().map(|i| ScalarAccess::of(&i.insn)).collect(),
    };
    let known = case.known(image);
    let f = &case.facts;
    g.loops
        .iter()
        .enumerate()
        .map(|(k, l)| match sc.derive(*l, &known) {
            Ok(b) => Ok(b),
            Err(why) => f.loops.get(k).and_then(|s| s.bound).ok_or_else(|| {
                let name = f.name(k, g.nodes[l.head].pc);
                WcetError::Input(format!(
                    "loop {name} is unbounded for the analysis: {why}; give its bound with \
                     `// @loop {label} N` in the kernel source (docs/cli.md#loop-bounds)",
                    label = f.label(k).unwrap_or("LABEL"),
                ))
            }),
        })
        .collect()
}

/// Assembles a kernel file (an OpenCL C `.cl` file is compiled first): its code, header and
/// flow facts (the `// @loop` and `// @range` lines, and a compiled kernel's HSA argument
/// layout).
pub fn load_with_facts(path: &std::path::Path) -> Result<(Vec<u32>, KernelMeta, Facts), String> {
    let text = super::run::read_input(path)?;
    let name = path.display().to_string();
    let k = super::run::Kernel::load(path).map_err(|(_, m)| m)?;
    if k.hsa.is_some() && k.prog.entry_pc() != 0 {
        return Err(format!(
            "{name}: the kernel's entry is not its first instruction, which the analysis needs"
        ));
    }
    let mut facts =
        Facts::parse(&text, &k.prog, &k.meta.args).map_err(|e| format!("{name}: {e}"))?;
    if let Some(h) = &k.hsa {
        let params: Vec<_> = h.user_args().collect();
        for r in &facts.ranges {
            if params.get(r.arg).map(|p| &p.kind) != Some(&rtgpu_firmware::hsa::ArgKind::Scalar) {
                return Err(format!(
                    "{name}: @range {}: parameter {} of kernel {} is not a scalar",
                    r.arg, r.arg, h.name
                ));
            }
        }
    }
    facts.hsa = k.hsa;
    Ok((k.prog.words(), k.meta, facts))
}

fn owner_index(o: Owner, n: usize) -> usize {
    match o {
        Owner::Block(u) => u,
        Owner::Bsb(u) => n + u,
    }
}

/// The launch the bound is for: the case's, or its re-provisioned form (Eq. 2 with
/// swfCount, docs/assumptions.md#A24): N_SIMD_total SIMDs with swfCount SpSIMDs each, and without
/// any SpSIMD (a no-split launch) when the kernel keeps no split.
#[derive(Clone, Copy, Debug)]
pub struct RunShape {
    mode: Mode,
    n_simd: usize,
    s: u32,
}

impl RunShape {
    fn of(case: &WcetCase, compiled: &Compiled) -> Result<RunShape, WcetError> {
        let plain = RunShape {
            mode: case.mode,
            n_simd: case.cfg.n_simd,
            s: case.s,
        };
        if !case.reprovision {
            return Ok(plain);
        }
        let swf = compiled.report.swf_count as u32;
        let total = keq::n_simd_total(case.cfg.n_simd as u32, case.s, swf) as usize;
        if total > 8 {
            return Err(WcetError::Input(format!(
                "re-provisioning gives {total} SIMDs (Eq. 2); the model has at most 8"
            )));
        }
        Ok(match swf {
            0 => RunShape {
                mode: Mode::NoSplit,
                n_simd: total,
                s: 1,
            },
            _ => RunShape {
                n_simd: total,
                s: swf,
                ..plain
            },
        })
    }

    /// SIMDs and SpSIMDs: the units that share the memory pipes.
    fn units(&self) -> u64 {
        self.n_simd as u64 * self.units_per_group()
    }

    /// Units per SIMD group: the contexts that share its command port, per wavefront slot.
    fn units_per_group(&self) -> u64 {
        match self.mode {
            Mode::Pws => u64::from(self.s) + 1,
            _ => 1,
        }
    }
}

/// The PWS bound from the isolated measurement `m`, the kernel's DS instructions `ds`, and the
/// static owner costs `stat`.
fn bound(
    case: &WcetCase,
    compiled: Compiled,
    (m, ds): (&Measurement, DsCount),
    stat: &[u64],
    run: RunShape,
) -> Result<Analysis, String> {
    let mut cfg = case.cfg;
    cfg.n_simd = run.n_simd;
    let st = &compiled.structure;
    let n = st.n_blocks();
    // The VALU occupancy a previous block may leave behind on another unit's pruned path
    // (`issue_period` − `valu`, when positive).
    let carry = u64::from(cfg.lat.issue_period.saturating_sub(cfg.lat.valu));
    let costs: Vec<u64> = stat.iter().map(|c| c + carry).collect();
    let (mut block, bsb) = (costs[..n].to_vec(), costs[n..].to_vec());
    let shape = Shape::new(case, &cfg, run);
    let lds = lds_round(&cfg, &shape, run, &ds);
    let e_s = u64::from(cfg.lat.e_split) + shape.port_wait;
    let e_m = u64::from(cfg.lat.e_merge) + shape.port_wait;
    if run.mode == Mode::Dws {
        // The model may split at every marked branch on a path (S counts live splits).
        for u in st.marked() {
            block[u] += e_s + e_m;
        }
    }
    let c = st.costed(&block, &bsb).map_err(|e| e.to_string())?;
    let inputs = KernelInputs {
        n_cu: 1,
        n_simd: run.n_simd as u32,
        n_wfc: cfg.n_wfc as u32,
        lanes_per_wf: 64,
        grid: case.dims.grid,
        wg: case.dims.wg,
        resident: shape.resident,
        d: m.d + shape.port_wait + lds,
        dispatch_spread: shape.spread,
        k: u64::from(shape.k),
        e_s,
        e_m,
    };
    let ipet_c = no_split_e_wf(&c).map_err(|e| e.to_string())?;
    let e_serial = match run.mode {
        // DWS: the split points are charged in `block` already.
        Mode::NoSplit | Mode::Dws => ipet_c,
        Mode::Pws => {
            let mut charged = block.clone();
            for u in st.marked() {
                charged[u] += e_s + e_m;
            }
            let c = st.costed(&charged, &bsb).map_err(|e| e.to_string())?;
            no_split_e_wf(&c).map_err(|e| e.to_string())?
        }
    };
    let (ipet, bound) = match case.mode {
        Mode::NoSplit => (ipet_c, KernelBound::no_split(&inputs, ipet_c)),
        Mode::Dws => (ipet_c, KernelBound::dws_charged(&inputs, case.s, ipet_c)),
        Mode::Pws => {
            let marked: Vec<usize> = st.marked().iter().map(|&u| c.from_conv(u)).collect();
            let p =
                analyze_pws(&c, &marked, run.s as usize, e_s, e_m).map_err(|e| e.to_string())?;
            let n_sb = p.selection.sb.len() as u64;
            (p.ipet, KernelBound::pws(&inputs, run.s, p.ipet, n_sb))
        }
    };
    let bound = bound.map_err(|e| e.to_string())?;
    let blocks = block_costs(&compiled, m, stat, (&block, &bsb));
    let overhead = m.first_dispatch + m.tail.max(tail_bound(&cfg));
    Ok(Analysis {
        mode: case.mode.name(),
        s: case.s,
        n_simd: run.n_simd,
        launch_s: run.s,
        launch_mode: run.mode,
        pass: summary(&compiled),
        blocks,
        ipet,
        wcet: bound.e_kernel + overhead,
        bound,
        measured_d: m.d,
        lds_round: lds,
        overhead,
        memory: None,
        e_serial,
        reorder: None,
        compiled,
    })
}

/// The cycles the other contexts' DS instructions may keep the LDS during one round: the
/// round's wavefronts (with several rounds also the next round's, as they replace finished
/// ones), each up to S + 1 contexts when the kernel keeps splits (docs/assumptions.md#A105).
fn lds_round(cfg: &CuConfig, shape: &Shape, run: RunShape, ds: &DsCount) -> u64 {
    let contexts = match run.mode {
        Mode::NoSplit => 1,
        _ if !ds.splits => 1,
        _ => u64::from(run.s) + 1,
    };
    let others = (shape.lds_waves * contexts).saturating_sub(1);
    timing::lds_interference(&cfg.lat, others, ds.most)
}

/// What the model's launch looks like to the bound.
struct Shape {
    resident: u32,
    k: u32,
    spread: u64,
    port_wait: u64,
    /// The wavefronts whose DS instructions may hold the LDS during one round: the round's,
    /// and with several rounds the next round's too ([`lds_round`]).
    lds_waves: u64,
}

impl Shape {
    fn new(case: &WcetCase, cfg: &CuConfig, run: RunShape) -> Shape {
        let d = case.dims;
        let waves = d.waves_per_group();
        let resident = resident_wgs(cfg, d.grid, d.wg, case.lds).min(d.groups());
        let n_simd = cfg.n_simd as u32;
        let live = resident * waves;
        // One round fits: the dispatcher deals the wavefronts round-robin over the SIMDs.
        // Several rounds: a SIMD may end up with as many as it has contexts.
        let k = if d.groups() <= resident {
            live.div_ceil(n_simd)
        } else {
            (cfg.n_wfc as u32).min(live)
        };
        let rounds = if d.groups() <= resident { 1 } else { 2 };
        Shape {
            resident,
            k,
            spread: u64::from(live.div_ceil(n_simd)) + 1,
            port_wait: run.units_per_group() * u64::from(k),
            lds_waves: rounds * u64::from(live),
        }
    }
}

fn summary(c: &Compiled) -> PassSummary {
    PassSummary {
        p: c.report.p.len(),
        kept: c.report.n_sb,
        swf_count: c.report.swf_count,
        warnings: c.report.warnings.clone(),
    }
}

/// The most cycles from the last wavefront's end to the end of the launch on any input: its
/// last accesses complete at most the longest memory latency later, and the launch ends the
/// cycle after.
fn tail_bound(cfg: &CuConfig) -> u64 {
    let l = &cfg.lat;
    u64::from(l.flat.max(l.smem).max(l.lds)) + 2
}

fn block_costs(
    c: &Compiled,
    m: &Measurement,
    stat: &[u64],
    (block, bsb): (&[u64], &[u64]),
) -> Vec<BlockCost> {
    let st = &c.structure;
    let n = st.n_blocks();
    let first_pc = |i: usize| {
        st.owners()
            .iter()
            .find(|(_, o)| owner_index(*o, n) == i)
            .map(|(pc, _)| *pc)
    };
    (0..2 * n)
        .filter_map(|i| {
            let pc = first_pc(i)?;
            let (name, e_bb) = match i < n {
                true => (format!("B{i}"), block[i]),
                false => (format!("BSB{}", i - n), bsb[i - n]),
            };
            let kind = match i < n {
                false => "else-head",
                true if st.split_pc(i).is_some() => "split if",
                true if st.is_if(i) => "if",
                true => "plain",
            };
            Some(BlockCost {
                name,
                kind,
                pc,
                cost: m.owners[i],
                static_cycles: stat[i],
                e_bb,
            })
        })
        .collect()
}

/// Simulates the compiled kernel of `a` in the configuration the bound is for.
pub fn observe(case: &WcetCase, a: &Analysis) -> Result<Observed, String> {
    observe_with(case, a, false).map(|(o, _)| o)
}

/// [`observe`], with every issue of the launch recorded when `log` is set.
pub fn observe_with(
    case: &WcetCase,
    a: &Analysis,
    log: bool,
) -> Result<(Observed, Vec<rtgpu_hw::cu::IssueRecord>), String> {
    let mut cfg = case.cfg;
    cfg.n_simd = a.n_simd;
    let image = case.image();
    let mut gpu = Gpu::new(cfg)?;
    if log {
        gpu.cu_mut().issue_log = Some(Vec::new());
    }
    let mut drv = Driver::new(gpu).map_err(|e| e.to_string())?;
    let desc = LaunchDesc {
        reorder: case.reorder,
        ..LaunchDesc::new(
            image.abi,
            case.dims,
            case.lds,
            a.launch_mode,
            a.launch_s,
            case.policy,
        )
    };
    let out = driver::run(&mut drv, &a.compiled.code, &image, desc, case.timeout)
        .map_err(|e| e.to_string())?;
    let cycles = out.counters.get("cycles");
    let issues = drv.into_bus().cu_mut().issue_log.take().unwrap_or_default();
    let o = Observed {
        status: status_name(&out.result),
        within: out.result.is_ok() && cycles <= a.wcet,
        cycles,
    };
    Ok((o, issues))
}

/// `rtgpu wcet`; `tick` after each random input. `Err((2, message))` for bad input,
/// `Err((1, message))` when the analysis itself fails (the measurement run).
pub fn wcet(o: &WcetOpts, tick: &dyn Fn()) -> Result<WcetReport, (u8, String)> {
    let (case, _) = WcetCase::from_opts(o).map_err(|m| (2, m))?;
    let analysis = analyze(&case).map_err(|e| (e.code(), e.to_string()))?;
    let multiphase =
        gub::bound(&case, &analysis, &|_| {}).map_err(|e| (e.code(), e.to_string()))?;
    let lemmas_apply = o.run && multiphase.lemmas_apply(&case, &analysis);
    let (observed, lemmas) = match o.run {
        true => {
            let (obs, log) = observe_with(&case, &analysis, lemmas_apply).map_err(|m| (1, m))?;
            let lemmas =
                lemmas_apply.then(|| phases::check(&analysis.compiled.code, &case.cfg, &log, true));
            (Some(obs), lemmas)
        }
        false => (None, None),
    };
    let mp = multiphase
        .not_applicable
        .is_none()
        .then_some(multiphase.wcet);
    let inputs = match o.inputs {
        Some(n) => Some(inputs::run_inputs(&case, &analysis, mp, n, tick).map_err(|m| (1, m))?),
        None => None,
    };
    let listing = match o.listing {
        true => Some(listing(&analysis.compiled)),
        false => None,
    };
    Ok(WcetReport {
        kernel: o.kernel.display().to_string(),
        dims: case.dims,
        args: case.known(&case.image()).roles,
        analysis,
        multiphase,
        lemmas,
        observed,
        inputs,
        listing,
    })
}

impl WcetReport {
    /// The report as text.
    pub fn text(&self) -> String {
        let a = &self.analysis;
        let b = &a.bound;
        let mut t = format!(
            "{} --mode {} --s {}: grid {} wg {}, {} SIMDs × S {}\n",
            self.kernel, a.mode, a.s, self.dims.grid, self.dims.wg, a.n_simd, a.launch_s
        );
        for (k, r) in self.args.iter().enumerate() {
            t += &format!("argument {k}: {}\n", r.name());
        }
        t += &format!(
            "pass: P = {}, kept splits = {}, swfCount = {}\n",
            a.pass.p, a.pass.kept, a.pass.swf_count
        );
        for w in &a.pass.warnings {
            t += &format!("warning: {w}\n");
        }
        t += "block  kind          pc  static  e_bb  measured (this input)\n";
        for c in &a.blocks {
            let measured = match c.cost.reached {
                true => c.cost.cycles.to_string(),
                false => "not reached".into(),
            };
            t += &format!(
                "{:<6} {:<9} {:#6x} {:>7} {:>5}  {measured}\n",
                c.name, c.kind, c.pc, c.static_cycles, c.e_bb,
            );
        }
        t += &format!(
            "IPET {}  E_WF {}  d {} (measured {})  k {}  G_parallel {}  resident {}  DS {}\n",
            a.ipet, b.e_wf, b.d_eff, a.measured_d, b.k, b.g_parallel, b.resident, b.ds
        );
        if let Some(m) = &a.memory {
            t += &m.text();
        }
        match &a.reorder {
            Some(r) => t += &r.text(),
            None => {
                t += &format!(
                    "E_kernel {} + overhead {} = analytical WCET {} cycles\n",
                    b.e_kernel, a.overhead, a.wcet
                )
            }
        }
        t += &self.multiphase.text();
        if let Some(o) = &self.observed {
            t += &format!(
                "observed {} cycles ({}), {} the bound\n",
                o.cycles,
                o.status,
                if o.within { "within" } else { "ABOVE" }
            );
            if self.multiphase.not_applicable.is_none() {
                let mp = self.multiphase.wcet;
                t += &format!(
                    "multi-phase: observed {} cycles, {} the GUB {mp} (tightness {:.2})\n",
                    o.cycles,
                    if o.cycles <= mp { "within" } else { "ABOVE" },
                    mp as f64 / o.cycles.max(1) as f64
                );
            }
        }
        if let Some(l) = &self.lemmas {
            t += &format!(
                "Lemmas 7/8: {} phases of {} wavefronts against the run, {} + {} violation(s)\n",
                l.phases,
                l.waves,
                l.lemma7.len(),
                l.lemma8.len()
            );
        }
        if let Some(r) = &self.inputs {
            t += &r.text(a.wcet);
        }
        if let Some(l) = &self.listing {
            t += "\n";
            t += l;
        }
        t
    }
}
