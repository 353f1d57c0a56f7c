//! Testbench of the RTL system (`hw/src/cu_system/`): a short driver session over its bus as
//! `rtgpu run --top rtl` runs one (identify the device, load `scalar_loop` through the code
//! window, a few words through the data window and back, the launch registers and the
//! doorbell, status polls until done, the counters), the same session on the behavioural GPU
//! of the same shape; the launch's result, its cycles and instructions and the data read back
//! must be equal. The system's data RAM is the synthesized size (16 dwords).

use super::{tb_finish, tb_harness, BlockTb, Ran, TbError, TbOptions, TbRun, TB_PERIOD_PS};
use crate::cu::rtl_bus::RtlBus;
use crate::sim::cosim::verilog_of;
use crate::sim::twin::on_rtl_stack_or_panic;
use crate::sim::waves::{named, Format, Gtkw};
use rtgpu_firmware::driver::{Bus, Driver, DriverError, LaunchDesc};
use rtgpu_firmware::isa::assemble;
use rtgpu_firmware::launch::Dims;
use rtgpu_hw::cu::Mode;
use rtgpu_hw::cu_system::{self, CuSystem, SYNTH_MEM_ADDR_BITS as A};
use rtgpu_hw::gpu::Gpu;
use rtgpu_hw::sched::model::Policy;

/// The `cu_system` testbench.
pub struct CuSystemTb;

/// The kernel the session runs.
const KERNEL: &str = include_str!("../../../firmware/kernels/rtl/scalar_loop.s");

/// What a session gave: the launch's result, cycles, instructions and the data read back.
type Session = (Result<(), DriverError>, u64, u64, Vec<u32>);

/// The driver session on `drv`; `mark` is called with a label before each phase.
fn session<B: Bus>(
    drv: &mut Driver<B>,
    mut mark: impl FnMut(&Driver<B>, &str),
) -> Result<Session, DriverError> {
    let code = assemble(KERNEL, "scalar_loop.s")
        .map_err(|e| DriverError::BadLaunch(e.to_string()))?
        .words();
    mark(drv, "load code");
    drv.load_code(&code)?;
    mark(drv, "data window");
    drv.write_mem(16, &[0x1111, 0x2222, 0x3333])?;
    let data = drv.read_mem(12, 4)?;
    mark(drv, "launch registers, doorbell");
    let dims = Dims { grid: 192, wg: 64 };
    drv.launch(&LaunchDesc::new(
        0x20u64,
        dims,
        0,
        Mode::NoSplit,
        1,
        Policy::Lrr,
    ))?;
    mark(drv, "status polls");
    let result = drv.wait(5_000, 16);
    mark(drv, "counters");
    let c = drv.counters()?;
    Ok((result, c.get("cycles"), c.get("instructions"), data))
}

/// The behavioural GPU of the testbench system's shape.
fn behavioural() -> Result<Session, String> {
    let mut cfg = cu_system::config();
    cfg.mem_bytes = 4 << A;
    let mut drv = Driver::new(Gpu::new(cfg)?).map_err(|e| e.to_string())?;
    session(&mut drv, |_, _| ()).map_err(|e| e.to_string())
}

fn layout(cycles: u64) -> Gtkw {
    let p = |s: &'static str| (s, None);
    let hex = |s: &'static str| (s, Some(Format::Hex));
    let dec = |s: &'static str| (s, Some(Format::Dec));
    Gtkw::new("rtgpu cu_system: the register map in front of the compute unit's RTL top")
        .window(cycles * TB_PERIOD_PS)
        .names(
            "err",
            &named(&["unmapped", "read_only", "busy", "out_of_range"]),
        )
        .names("status", &named(&["idle", "busy", "done", "error"]))
        .group(
            "bus",
            &[
                p("cu_system.clock"),
                p("cu_system.reset"),
                p("cu_system.rd"),
                p("cu_system.wr"),
                hex("cu_system.addr"),
                hex("cu_system.wdata"),
                p("cu_system.ack"),
                p("cu_system.err"),
                ("cu_system.err_code", Some(Format::Named("err"))),
                hex("cu_system.rdata"),
            ],
        )
        .group(
            "launch",
            &[
                ("cu_system.status", Some(Format::Named("status"))),
                p("cu_system.issue_valid$0"),
                hex("cu_system.issue_pc$0"),
                p("cu_system.issue_valid$1"),
                hex("cu_system.issue_pc$1"),
            ],
        )
        .group(
            "counters",
            &[dec("cu_system.ctl.cycles"), dec("cu_system.ctl.insts")],
        )
}

impl BlockTb for CuSystemTb {
    fn name(&self) -> &'static str {
        "cu_system"
    }

    fn description(&self) -> &'static str {
        "the RTL system (hw/src/cu_system): a driver session over its bus (code load, data window, launch, status polls, counters), equal to the same session on the behavioural GPU"
    }

    fn run(&self, opts: &TbOptions) -> Result<TbRun, TbError> {
        on_rtl_stack_or_panic(|| run_tb(opts))
    }

    fn verilog(&self) -> Result<String, String> {
        on_rtl_stack_or_panic(|| verilog_of(&mut CuSystem::<A>::default()))
    }

    fn not_cosimulated_in_ci(&self) -> Option<&'static str> {
        Some("its compute unit's RTL top is minutes of Icarus, lint and Yosys (rtgpu cosim cu_system by hand)")
    }
}

/// The testbench: the session on the RTL against the behavioural GPU's.
fn run_tb(opts: &TbOptions) -> Result<TbRun, TbError> {
    let want = behavioural().map_err(|m| super::mismatch(0, m))?;
    let h = tb_harness(
        CuSystem::<A>::default(),
        "cu_system",
        |u| &mut u.clock,
        opts,
    )?;
    let bus = RtlBus::from_harness(h).map_err(|m| super::mismatch(0, m))?;
    let mut drv = Driver::new(bus).map_err(|e| super::mismatch(0, e.to_string()))?;
    let mut markers = Vec::new();
    let got = session(&mut drv, |d, label| {
        markers.push((d.bus().cycles() * TB_PERIOD_PS, label.to_string()))
    });
    let bus = drv.into_bus();
    let cycles = bus.cycles();
    let failure = match got {
        Ok(s) if s == want => None,
        Ok(s) => Some(format!("RTL {s:?}, behavioural {want:?}")),
        Err(e) => Some(e.to_string()),
    };
    let ran = Ran::new(cycles, markers, failure.map(|m| super::mismatch(cycles, m)));
    let mut run = tb_finish(bus.into_harness(), "cu_system", opts, ran, || {
        layout(cycles)
    })?;
    run.summary = format!(
        "{cycles} cycles: the driver's session equals the behavioural GPU's (scalar_loop, \
         {} launch cycles, {} instructions)",
        want.1, want.2
    );
    Ok(run)
}
