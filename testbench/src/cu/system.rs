//! One full-system launch with every oracle beside it: the reference interpreter's buffers,
//! the independent DDR4 timing checker over every DRAM command, and (reordering on) the static
//! L1 estimator's miss count. The system tests and `rtgpu sweep` run these.

use super::run::{assemble_kernel, check_launch, idu_launch, read_input, status_name};
use crate::oracle::ddr4::{CheckStats, Violation};
use rtgpu_firmware::aging::experiment::Distribution;
use rtgpu_firmware::driver::{self, Driver, LaunchDesc, PerfCounters};
use rtgpu_firmware::interp::{self, InterpConfig};
use rtgpu_firmware::launch::{Dims, Image, KernelMeta};
use rtgpu_firmware::ldst_trace::{analyze, predict_l1};
use rtgpu_hw::block::Blocks;
use rtgpu_hw::cu::{resident_wgs, ComputeUnit, CuConfig, Mode};
use rtgpu_hw::dram::model::{checker, trace_cmd, DramOut};
use rtgpu_hw::gpu::Gpu;
use rtgpu_hw::sched::model::Policy;
use rtgpu_wcet::reorder::analyzer::Analysis;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// One launch of the system.
#[derive(Clone, Debug)]
pub struct SysCase {
    /// Kernel source.
    pub kernel: PathBuf,
    /// The compute unit and its memory ([`run_case`] turns `memory.hierarchy` on: its DDR4
    /// oracle needs the DRAM).
    pub cfg: CuConfig,
    /// Split mode and S.
    pub mode: Mode,
    /// S.
    pub s: u32,
    /// Issue policy.
    pub policy: Policy,
    /// The reordering unit on.
    pub reorder: bool,
    /// The IDU's host flow policy (`None`: the fixed VALU latency); chip map 1.
    pub idu: Option<Distribution>,
    /// Dimensions (default: the kernel's).
    pub dims: Option<Dims>,
    /// Buffer seed.
    pub seed: u64,
    /// Cycle limit.
    pub timeout: u64,
}

/// What the launch and its oracles gave.
#[derive(Clone, Debug)]
pub struct SysOutcome {
    /// `Ok` when the GPU reported done, else the driver's message.
    pub result: Result<(), String>,
    /// `done`, the GPU error's name (`split_overflow`, ...), `timeout` or `driver_error`.
    pub status: String,
    /// The GPU's counters.
    pub counters: PerfCounters,
    /// The buffers equal the interpreter's (`None` when the launch failed).
    pub exact: Option<bool>,
    /// The DDR4 checker over every command: its statistics or the first violation.
    pub ddr4: Result<CheckStats, Violation>,
    /// Reordering on: the estimator's L1 misses (loads and stores).
    pub predicted_misses: Option<u64>,
}

impl SysOutcome {
    /// A counter by name.
    pub fn get(&self, name: &str) -> u64 {
        self.counters.get(name)
    }
}

/// The kernel's code and header.
pub fn load_kernel(path: &Path) -> Result<(Vec<u32>, KernelMeta), String> {
    let text = read_input(path)?;
    let (prog, meta) = assemble_kernel(&text, &path.display().to_string())?;
    Ok((prog.words(), meta))
}

/// A launch done: the driver's outcome, the GPU after it, and what the launch was given.
pub struct Launched {
    /// Status, counters and buffers.
    pub out: driver::Outcome,
    /// The GPU afterwards (its memory hierarchy, DRAM trace, lock-step fault).
    pub gpu: Gpu,
    /// The kernel's code.
    pub code: Vec<u32>,
    /// The kernel's header.
    pub meta: KernelMeta,
    /// The memory image the launch started from.
    pub image: Image,
    /// The launch's dimensions.
    pub dims: Dims,
}

impl SysCase {
    /// Runs the launch alone, without oracles. `blocks` chooses each block's implementation
    /// (`None`: the reference models); `record_dram` keeps every DRAM command for a checker.
    pub fn launch(
        &self,
        blocks: Option<Arc<dyn Blocks>>,
        record_dram: bool,
    ) -> Result<Launched, String> {
        self.launch_with(blocks, record_dram, &mut |_| {})
    }

    /// [`SysCase::launch`] with the reference models and every issue recorded (the compute
    /// unit's issue log, read from `Launched::gpu`).
    pub fn launch_logged(&self) -> Result<Launched, String> {
        self.launch_with(None, false, &mut |cu| cu.issue_log = Some(Vec::new()))
    }

    /// [`SysCase::launch`] with the reference models, `setup` applied to the compute unit
    /// before the launch (a log turned on, idle-cycle skipping off).
    pub fn launch_set_up(
        &self,
        mut setup: impl FnMut(&mut ComputeUnit),
    ) -> Result<Launched, String> {
        self.launch_with(None, false, &mut setup)
    }

    fn launch_with(
        &self,
        blocks: Option<Arc<dyn Blocks>>,
        record_dram: bool,
        setup: &mut dyn FnMut(&mut ComputeUnit),
    ) -> Result<Launched, String> {
        let (code, meta) = load_kernel(&self.kernel)?;
        let dims = self.dims.unwrap_or(meta.dims);
        check_launch(&self.cfg, dims, meta.lds, &meta.args)?;
        let image = Image::build(&meta.args, dims, self.seed);
        let mut gpu = Gpu::new(self.cfg)?;
        gpu.cu_mut().record_dram = record_dram;
        setup(gpu.cu_mut());
        if let Some(b) = blocks {
            gpu.cu_mut().set_blocks(b);
        }
        let mut drv = Driver::new(gpu).map_err(|e| e.to_string())?;
        let desc = LaunchDesc {
            reorder: self.reorder,
            idu: idu_launch(self.idu, 1)?,
            ..LaunchDesc::new(
                image.kernarg,
                dims,
                meta.lds,
                self.mode,
                self.s,
                self.policy,
            )
        };
        let out =
            driver::run(&mut drv, &code, &image, desc, self.timeout).map_err(|e| e.to_string())?;
        Ok(Launched {
            out,
            gpu: drv.into_bus(),
            code,
            meta,
            image,
            dims,
        })
    }
}

/// Runs the case (with the memory hierarchy) and its oracles. `Err` for bad input (kernel,
/// configuration).
pub fn run_case(c: &SysCase) -> Result<SysOutcome, String> {
    let mut c = c.clone();
    c.cfg.memory.hierarchy = true;
    let Launched {
        out,
        gpu,
        code,
        meta,
        image,
        dims,
    } = c.launch(None, true)?;
    let cfg = c.cfg;
    let ddr4 = check_dram(&gpu, &cfg)?;
    let exact = match out.result {
        Ok(()) => Some(
            out.buffers
                == interp::buffers(&code, dims, meta.lds, &image, &InterpConfig::default())
                    .map_err(|e| format!("interpreter: {e}"))?,
        ),
        Err(_) => None,
    };
    let predicted_misses = match c.reorder {
        true => Some(predicted(&code, &meta, &image, dims, &cfg)?),
        false => None,
    };
    Ok(SysOutcome {
        status: status_name(&out.result),
        result: out.result.map_err(|e| e.to_string()),
        counters: out.counters,
        exact,
        ddr4,
        predicted_misses,
    })
}

/// Every DRAM command of the launch through the independent checker.
fn check_dram(gpu: &Gpu, cfg: &CuConfig) -> Result<Result<CheckStats, Violation>, String> {
    let Some(m) = gpu.cu().mem_sys() else {
        return Err("the launch had no memory hierarchy".into());
    };
    let trace = m.dram_trace().unwrap_or(&[]);
    check_trace(trace, m.counters().dram.cycles, cfg)
}

/// A DRAM command trace of `cycles` DRAM cycles through the independent checker.
pub fn check_trace(
    trace: &[(u64, DramOut)],
    cycles: u64,
    cfg: &CuConfig,
) -> Result<Result<CheckStats, Violation>, String> {
    let mut chk = checker(&cfg.memory.dram_part.part(), cfg.memory.refresh_phase)?;
    for (cycle, o) in trace {
        if let Some(t) = trace_cmd(*cycle, o) {
            if let Err(v) = chk.check(&t) {
                return Ok(Err(v));
            }
        }
    }
    Ok(chk.finish(cycles.saturating_sub(1)))
}

/// The reordering analysis of a launch: its global accesses as the reference interpreter
/// makes them (the static estimator's input).
pub(crate) fn launch_analysis(
    code: &[u32],
    meta: &KernelMeta,
    image: &Image,
    dims: Dims,
) -> Result<Analysis, String> {
    analyze(
        code,
        0,
        dims,
        meta.lds,
        image.kernarg,
        &image.mem,
        &InterpConfig::default(),
    )
    .map_err(|e| e.to_string())
}

/// The static estimator's L1 misses for rounds of the compute unit's resident work-groups.
fn predicted(
    code: &[u32],
    meta: &KernelMeta,
    image: &Image,
    dims: Dims,
    cfg: &CuConfig,
) -> Result<u64, String> {
    let a = launch_analysis(code, meta, image, dims)?;
    let r = resident_wgs(cfg, dims.grid, dims.wg, meta.lds) as usize;
    let m = &cfg.memory;
    let e = predict_l1(&a, r, m.l1_sets as u32, m.l1_ways as u32)?;
    Ok(e.misses)
}
