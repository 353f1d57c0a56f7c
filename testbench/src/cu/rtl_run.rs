//! `rtgpu run KERNEL --top rtl`: the kernel through the firmware driver onto the RTL system
//! over [`RtlBus`], with the report of a behavioural run. The system is the two-unit one
//! ([`rtgpu_hw::cu_system::CuSystem`]: no split, DWS at any S, PWS at S = 1), or for PWS at
//! S = 2 and 3 the four-unit one ([`rtgpu_hw::cu_system::CuSystem4`], 3.5 times slower),
//! each Verilated once and cached.
//!
//! Before anything is built the run refuses what the RTL does not have: switches (PWS with S
//! above 3, a configuration other than the system's, reordering, the IDU, the memory
//! hierarchy, Sim-D, `--rtl`, `--vcd`, `--vulnerability`; exit 2) and
//! instructions of units the top does not execute ([`UnsupportedInRtl`], exit 1).

use super::rtl_bus::{RtlBus, SystemPorts};
use super::run::{
    check_launch, dump_and_check, load_config, report, Kernel, RunOpts, RunReport, Speed,
};
use crate::sim::twin::on_rtl_stack;
use crate::sim::vl::VlOptions;
use rtgpu_firmware::driver::{self, Driver, LaunchDesc, Outcome};
use rtgpu_firmware::isa::decode;
use rtgpu_firmware::launch::{Arg, Dims, Image};
use rtgpu_hw::cu::{CuConfig, Mode};
use rtgpu_hw::cu_system;
use rtgpu_hw::cu_system::{first_unsupported, CuSystem4Sim, CuSystemSim};
use rtgpu_hw::cu_top::LDS_PART_WORDS;
use rtgpu_hw::simd::Exec;
use serde::Serialize;

/// A kernel with an instruction the RTL top does not execute yet (the `--json` output).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct UnsupportedInRtl {
    /// Always `unsupported_in_rtl`.
    pub error: &'static str,
    /// The kernel file.
    pub kernel: String,
    /// The first such instruction's byte address.
    pub pc: u32,
    /// Its text.
    pub instruction: String,
    /// Its unit.
    pub unit: &'static str,
    /// What the RTL runs.
    pub message: String,
}

impl UnsupportedInRtl {
    /// The one-line description.
    pub fn text(&self) -> String {
        format!(
            "unsupported_in_rtl: {} at pc {:#x}: `{}` ({}): {}",
            self.kernel, self.pc, self.instruction, self.unit, self.message
        )
    }
}

/// Why an RTL run did not give a report.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RtlRefusal {
    /// Bad input or a failure, with its exit code (2 a switch the RTL does not have).
    Coded(u8, String),
    /// An instruction the top does not execute (exit 1).
    Unsupported(Box<UnsupportedInRtl>),
}

impl RtlRefusal {
    /// The `(exit code, message)` of [`super::run`].
    pub fn coded(self) -> (u8, String) {
        match self {
            RtlRefusal::Coded(c, m) => (c, m),
            RtlRefusal::Unsupported(u) => (1, u.text()),
        }
    }
}

fn usage(m: impl Into<String>) -> RtlRefusal {
    RtlRefusal::Coded(2, m.into())
}

/// The first switch of `o` the RTL system does not have, as the message of an exit-2 error.
pub fn refused_switch(o: &RunOpts) -> Option<String> {
    let pws_above =
        format!("--mode pws with --s above {PWS_S_MAX} (its compute unit has {PWS_S_MAX} SpSIMDs)");
    let switches: [(bool, &str); 8] = [
        (o.mode == Mode::Pws && o.s > PWS_S_MAX, &pws_above),
        (o.reorder, "--reorder"),
        (o.idu != "off", "--idu"),
        (
            o.memory.as_deref() == Some("hierarchy"),
            "--memory hierarchy",
        ),
        (o.exec != Exec::Gcn, "--exec simd/simd-free"),
        (o.rtl.is_some(), "--rtl (the whole compute unit is RTL)"),
        (
            o.vcd.is_some(),
            "--vcd (use `rtgpu tb cu_system` for its waveform)",
        ),
        (o.vulnerability, "--vulnerability"),
    ];
    switches
        .iter()
        .find(|s| s.0)
        .map(|(_, what)| format!("--top rtl: the RTL system does not have {what} yet"))
}

/// The configuration of an RTL run: the system's, or `--config` if it is the system's.
fn rtl_config(o: &RunOpts) -> Result<CuConfig, RtlRefusal> {
    let Some(path) = &o.config else {
        return Ok(cu_system::config());
    };
    let cfg = load_config(path).map_err(usage)?;
    match cu_system::differs(&cfg) {
        Some(d) => Err(usage(format!("--top rtl: {}: {d}", path.display()))),
        None => Ok(cfg),
    }
}

/// A launch whose work-groups need more LDS than the top's partition of
/// `LDS_PART_WORDS` dwords (docs/assumptions.md#A126): the message.
fn lds_too_big(lds: u32) -> Option<String> {
    let part = 4 * LDS_PART_WORDS as u32;
    (lds > part).then(|| {
        format!(
            "--top rtl: the kernel needs {lds} bytes of LDS per work-group; the RTL compute \
             unit's partitions hold {part} (docs/assumptions.md#A126)"
        )
    })
}

/// The first instruction of `code` the top does not execute, as the refusal.
fn check_code(kernel: &str, code: &[u32]) -> Result<(), RtlRefusal> {
    let Some((pc, why)) = first_unsupported(code) else {
        return Ok(());
    };
    let at = &code[(pc / 4) as usize..];
    let instruction =
        decode(at).map_or_else(|_| format!("{:#010x}", at[0]), |(i, _)| i.to_string());
    Err(RtlRefusal::Unsupported(Box::new(UnsupportedInRtl {
        error: "unsupported_in_rtl",
        kernel: kernel.to_string(),
        pc,
        instruction,
        unit: why.unit_name(),
        message: why.to_string(),
    })))
}

/// The largest S the RTL systems run under PWS: the four-unit top's SpSIMDs.
pub const PWS_S_MAX: u32 = cu_system::PWS_S_MAX4 as u32;

/// The launch needs the four-unit system ([`CuSystem4Sim`]): PWS at S = 2 or 3, which the
/// two-unit system's one SpSIMD does not run.
pub fn needs_four_units(desc: &LaunchDesc) -> bool {
    desc.mode == Mode::Pws && desc.s > cu_system::PWS_S_MAX2 as u32
}

/// Runs `code` with `image` and launch `desc` through the driver on a fresh RTL system (the
/// two-unit one, or the four-unit one when [`needs_four_units`]), at most `timeout` cycles:
/// the outcome and the wall-clock seconds of the driver session.
pub fn run_code(
    code: &[u32],
    image: &Image,
    desc: LaunchDesc,
    timeout: u64,
) -> Result<(Outcome, f64), String> {
    match needs_four_units(&desc) {
        false => run_code_on::<CuSystemSim>(code, image, desc, timeout),
        true => run_code_on::<CuSystem4Sim>(code, image, desc, timeout),
    }
}

/// [`run_code`] on the RTL system `S`, whatever the launch (the system's launch check
/// refuses what its top does not run).
pub fn run_code_on<S: SystemPorts>(
    code: &[u32],
    image: &Image,
    desc: LaunchDesc,
    timeout: u64,
) -> Result<(Outcome, f64), String> {
    let (code, image) = (code.to_vec(), image.clone());
    on_rtl_stack(move || {
        let bus = system_bus::<S>()?;
        let t0 = std::time::Instant::now();
        let mut drv = Driver::new(bus).map_err(|e| e.to_string())?;
        let out = driver::run(&mut drv, &code, &image, desc, timeout).map_err(|e| e.to_string());
        if let Some(f) = drv.bus().failure() {
            return Err(format!("the RTL simulation failed: {f}"));
        }
        Ok((out?, t0.elapsed().as_secs_f64()))
    })
}

/// The RTL system `S` on the Verilator engine, reset: a quick build (the system's Verilog is
/// large: the compute unit's top with its VGPR file and VALU), built once and cached. Call it
/// on a thread with the RTL's stack ([`on_rtl_stack`]).
pub fn system_bus<S: SystemPorts>() -> Result<RtlBus<S>, String> {
    RtlBus::new(&VlOptions {
        quick: true,
        ..VlOptions::default()
    })
}

/// A launch of `rtgpu run --top rtl`, checked and built: what the driver loads and starts.
pub struct RtlLaunch {
    /// The kernel file's name.
    pub name: String,
    /// The system's configuration (the behavioural GPU of the system's shape).
    pub cfg: CuConfig,
    /// The launch's dimensions.
    pub dims: Dims,
    /// The code.
    pub code: Vec<u32>,
    /// The memory image (arguments, buffers).
    pub image: Image,
    /// The launch descriptor.
    pub desc: LaunchDesc,
    /// The kernel (for `--check`'s reference).
    pub kernel: Kernel,
    /// The arguments (for `--dump` and `--check`).
    pub args: Vec<Arg>,
}

/// Checks `o` for the RTL system (switches, ABI, configuration, launch, instructions) and
/// builds its launch.
pub fn prepare(o: &RunOpts) -> Result<RtlLaunch, RtlRefusal> {
    if let Some(m) = refused_switch(o) {
        return Err(usage(m));
    }
    let kernel = Kernel::load(&o.kernel).map_err(|(c, m)| RtlRefusal::Coded(c, m))?;
    let cfg = rtl_config(o)?;
    let (dims, args) = o.launch.resolve(&kernel.meta).map_err(usage)?;
    check_launch(&cfg, dims, kernel.meta.lds, &args).map_err(usage)?;
    if let Some(m) = lds_too_big(kernel.meta.lds) {
        return Err(usage(m));
    }
    let name = o.kernel.display().to_string();
    let (code, _) = kernel.code(o.mode, o.s);
    check_code(&name, &code)?;
    let image = kernel.image(&args, dims, o.launch.seed).map_err(usage)?;
    let desc = LaunchDesc {
        entry_pc: kernel.prog.entry_pc(),
        ..LaunchDesc::new(image.abi, dims, kernel.meta.lds, o.mode, o.s, o.sched)
    };
    Ok(RtlLaunch {
        name,
        cfg,
        dims,
        code,
        image,
        desc,
        kernel,
        args,
    })
}

/// `rtgpu run --top rtl`: the report of [`super::run`], the cycles from the RTL.
pub fn run(o: &RunOpts) -> Result<RunReport, RtlRefusal> {
    let l = prepare(o)?;
    let (outcome, seconds) =
        run_code(&l.code, &l.image, l.desc, o.timeout).map_err(|m| RtlRefusal::Coded(1, m))?;
    let (dump, check) = dump_and_check(o, &l.kernel, (l.dims, &l.args), &l.image, &outcome)
        .map_err(|(c, m)| RtlRefusal::Coded(c, m))?;
    let mut r = report(o, &l.cfg, l.name, l.dims, outcome.result, outcome.counters);
    (r.dump, r.check) = (dump, check);
    if o.bench {
        r.speed = Some(Speed {
            seconds,
            cycles_per_second: r.perf.get("cycles") as f64 / seconds.max(1e-9),
            cpu_seconds: None,
        });
    }
    Ok(r)
}
