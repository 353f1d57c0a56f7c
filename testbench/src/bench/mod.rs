//! `rtgpu bench`: simulated cycles per second of the same blocks under the direct harness
//! (VCD off and on) and rust-hdl's threaded `Simulation` (a formula of the cycle number as
//! stimulus, an output read every cycle), the DRAM and IDU models against their RTL, and
//! [`engines`]: harness, Verilator from Rust and pure C++ Verilator on recorded stimuli.

pub mod cu_rtl;
pub mod engines;
pub mod system;

use crate::cu::run::thread_cpu_seconds;
use crate::sim::clock::Period;
use crate::sim::harness::{ClockPin, Harness, HarnessError};
use crate::sim::waves::VcdOptions;
use crate::tb::Counter32;
use rtgpu_hw::isa::{InsnDecode, PwsDecode};
use rtgpu_hw::pws::SimdGroup;
use rust_hdl::core::prelude::*;
use std::path::Path;
use std::time::Instant;

/// A block the benchmark can drive.
pub trait BenchBlock: Block + Default + Send + 'static {
    /// Name in the report.
    const NAME: &'static str;
    /// The clock input.
    fn clock_pin(&mut self) -> &mut Signal<In, Clock>;
    /// The clock input's level.
    fn clock_high(&self) -> bool;
    /// Sets the inputs for cycle `k`.
    fn drive(&mut self, k: u64);
    /// Reads outputs.
    fn observe(&self) -> u64;
}

/// `clock_pin` and `clock_high` for a block whose clock input is its `clock` field.
macro_rules! clock_is_field_clock {
    () => {
        fn clock_pin(&mut self) -> &mut Signal<In, Clock> {
            &mut self.clock
        }
        fn clock_high(&self) -> bool {
            self.clock.val().clk
        }
    };
}

impl BenchBlock for Counter32 {
    const NAME: &'static str = "counter32";
    clock_is_field_clock!();
    fn drive(&mut self, _k: u64) {
        self.enable.next = true;
    }
    fn observe(&self) -> u64 {
        self.count.val().index() as u64
    }
}

impl BenchBlock for InsnDecode {
    const NAME: &'static str = "insn";
    clock_is_field_clock!();
    fn drive(&mut self, k: u64) {
        self.reset.next = false;
        self.word0.next = (k.wrapping_mul(2_654_435_769) as u32).to_bits();
        self.word1.next = (k as u32).to_bits();
        self.valid.next = k & 7 != 0;
    }
    fn observe(&self) -> u64 {
        u64::from(self.illegal.val())
            + self.format.val().index() as u64
            + self.src0.val().index() as u64
            + self.imm.val().index() as u64
    }
}

impl BenchBlock for PwsDecode {
    const NAME: &'static str = "decode";
    clock_is_field_clock!();
    fn drive(&mut self, k: u64) {
        self.reset.next = false;
        self.insn.next = ((k.wrapping_mul(2_654_435_769) as u32) ^ 0xBF7F_0000).to_bits();
        self.valid.next = k & 7 != 0;
    }
    fn observe(&self) -> u64 {
        u64::from(self.is_split.val())
            + u64::from(self.illegal.val())
            + self.ssrc0.val().index() as u64
    }
}

/// The PWS unit of the `pws-s3` testbench (64 lanes, S = 3, 6 slots).
pub type PwsS3 = SimdGroup<64, 4, 24>;

/// The PWS bench command of cycle `k`: per 16-cycle window one slot's WF is dispatched, split,
/// merged (child, then parent) and ended. Returns (cmd, unit, slot, mask).
fn pws_command(k: u64) -> (u64, u64, u64, u64) {
    let cmd = match k & 15 {
        0 => 1,
        1 => 2,
        6 | 7 => 3,
        12 => 4,
        _ => 0,
    };
    let unit = u64::from(k & 15 == 6);
    (
        cmd,
        unit,
        (k >> 4) % 6,
        k.wrapping_mul(0x9E37_79B9_7F4A_7C15),
    )
}

impl BenchBlock for PwsS3 {
    const NAME: &'static str = "pws-s3";
    clock_is_field_clock!();
    fn drive(&mut self, k: u64) {
        let (cmd, unit, slot, mask) = pws_command(k);
        self.reset.next = false;
        self.dws.next = false;
        self.watchdog.next = 0.into();
        // (S = 3: the group's three SpSIMDs.)
        self.s.next = 3.into();
        self.cmd.next = cmd.to_bits();
        self.cmd_unit.next = unit.to_bits();
        self.cmd_slot.next = slot.to_bits();
        self.cmd_mask.next = mask.to_bits();
        self.cmd_pc.next = 0x40.into();
    }
    fn observe(&self) -> u64 {
        u64::from(self.copy_valid.val())
            + self.copy_to.val().index() as u64
            + self.error.val().index() as u64
    }
}

/// One measurement.
#[derive(Clone, Debug, serde::Serialize)]
pub struct BenchRow {
    /// Block name.
    pub block: &'static str,
    /// Engine: `harness`, `harness+vcd`, `rust-hdl Simulation`, `verilator -O3`.
    pub engine: &'static str,
    /// Cycles simulated.
    pub cycles: u64,
    /// Wall time, s.
    pub seconds: f64,
    /// cycles / seconds.
    pub cycles_per_s: f64,
    /// Seconds the run's thread held a core (harness runs; `None` where not measured or the
    /// system does not tell).
    pub cpu_seconds: Option<f64>,
    /// cycles / cpu_seconds: the speed on one core, which other processes sharing the
    /// machine do not slow as they slow the wall clock.
    pub cycles_per_cpu_s: Option<f64>,
}

fn row(block: &'static str, engine: &'static str, cycles: u64, seconds: f64) -> BenchRow {
    BenchRow {
        block,
        engine,
        cycles,
        seconds,
        cycles_per_s: cycles as f64 / seconds.max(1e-12),
        cpu_seconds: None,
        cycles_per_cpu_s: None,
    }
}

impl BenchRow {
    /// The row with the run's CPU seconds.
    fn with_cpu(self, cpu_seconds: Option<f64>) -> Self {
        Self {
            cpu_seconds,
            cycles_per_cpu_s: cpu_seconds.map(|s| self.cycles as f64 / s.max(1e-12)),
            ..self
        }
    }
}

/// The direct harness, VCD off (`vcd = None`) or on.
pub fn harness<B: BenchBlock>(cycles: u64, vcd: Option<&Path>) -> Result<BenchRow, HarnessError> {
    let mut sink = 0u64;
    let row = timed_harness(B::default(), B::NAME, B::clock_pin, cycles, vcd, |h, k| {
        sink = sink.wrapping_add(h.cycle(|u| u.drive(k), B::observe)?);
        Ok(())
    })?;
    std::hint::black_box(sink);
    Ok(row)
}

/// `cycles` cycles of `uut` (`name`) in the harness on a 1 GHz clock at `clock`, `each(h, k)`
/// running cycle `k`, recording a VCD when asked; the row's engine is `harness` or
/// `harness+vcd` (the times, wall clock and the thread's CPU, leave out closing the VCD).
pub(crate) fn timed_harness<B: Block + 'static>(
    uut: B,
    name: &'static str,
    clock: ClockPin<B>,
    cycles: u64,
    vcd: Option<&Path>,
    mut each: impl FnMut(&mut Harness<B>, u64) -> Result<(), HarnessError>,
) -> Result<BenchRow, HarnessError> {
    let mut h = Harness::new(uut, name)?;
    let period = Period::mhz(1000).map_err(HarnessError::Setup)?;
    h.add_clock("clock", period, clock)?;
    if let Some(p) = vcd {
        h.record_vcd(p, &VcdOptions::default())?;
    }
    let (start, cpu) = (Instant::now(), thread_cpu_seconds());
    for k in 0..cycles {
        each(&mut h, k)?;
    }
    let secs = start.elapsed().as_secs_f64();
    let cpu = cpu.zip(thread_cpu_seconds()).map(|(a, b)| b - a);
    h.finish()?;
    let engine = if vcd.is_some() {
        "harness+vcd"
    } else {
        "harness"
    };
    Ok(row(name, engine, cycles, secs).with_cpu(cpu))
}

/// rust-hdl's threaded `Simulation` (one testbench thread, one clock).
pub fn rust_hdl_sim<B: BenchBlock>(cycles: u64) -> Result<BenchRow, String> {
    let mut sim = Simulation::<B>::new();
    sim.add_clock(5, |x: &mut Box<B>| {
        let c = x.clock_pin();
        c.next = !c.val();
    });
    sim.add_testbench(move |mut sim: Sim<B>| {
        let mut x = sim.init()?;
        let mut sink = 0u64;
        for k in 0..cycles {
            x.drive(k);
            x = sim.watch(|x| !x.clock_high(), x)?;
            x = sim.watch(|x| x.clock_high(), x)?;
            sink = sink.wrapping_add(x.observe());
        }
        std::hint::black_box(sink);
        sim.done(x)
    });
    let mut uut = B::default();
    uut.connect_all();
    let start = Instant::now();
    sim.run(Box::new(uut), cycles * 10 + 100)
        .map_err(|e| format!("rust-hdl Simulation failed: {e:?}"))?;
    Ok(row(
        B::NAME,
        "rust-hdl Simulation",
        cycles,
        start.elapsed().as_secs_f64(),
    ))
}

/// The DRAM controller on a looping mixed request stream (Sim-D): the RTL in the
/// harness, or the reference model. DRAM command cycles per second.
pub fn dram(cycles: u64, rtl: bool) -> Result<BenchRow, String> {
    use crate::tb::dram::run::Feeder;
    use crate::tb::dram::tb::{requests, Kind};
    use rtgpu_hw::dram::model::DramModel;
    use rtgpu_hw::dram::Part;
    let part = Part::DDR4_3200AA_X16;
    let reqs = requests(Kind::Mixed, 1, cycles);
    let mut feeder = Feeder::new(&reqs);
    let mut model = DramModel::new(part, 0);
    let mut dut = if rtl {
        Some(crate::tb::dram::rtl::RtlDram::<8>::new(&part, 0).map_err(|e| e.to_string())?)
    } else {
        None
    };
    let start = Instant::now();
    for t in 0..cycles {
        let inp = feeder.input();
        let out = match dut.as_mut() {
            Some(d) => d.step(&inp).map_err(|e| e.to_string())?,
            None => model.step(&inp),
        };
        feeder.observe(t, &inp, &out);
    }
    let secs = start.elapsed().as_secs_f64();
    Ok(row(
        "dram",
        if rtl { "harness" } else { "reference model" },
        cycles,
        secs,
    ))
}

/// The IDU with its clusters (4 per type) on a random instruction stream, every cluster on
/// its own clock (Fig. 1.5's 1.0 / 3.5 / 1.5 ns recipe spread over the clusters): the RTL in
/// the multi-clock harness or the reference model. Dispatcher cycles per second.
pub fn idu(instrs: usize, rtl: bool) -> Result<BenchRow, String> {
    use rtgpu_hw::idu::model::{IduSystem, SystemConfig, TYPES};
    let mut cfg = SystemConfig::uniform(4, 1000);
    for t in 0..TYPES {
        for c in 0..4 {
            cfg.working[t][c] = true;
            cfg.limits[t][c] = 1 + c as u8;
            cfg.cluster_ps[t][c] = [1000, 3500, 1500, 2000][c];
        }
    }
    let stream: Vec<(u8, u8)> = (0..instrs)
        .map(|i| ((i * 7 % 10).min(2) as u8, i as u8))
        .collect();
    let start = Instant::now();
    let run = if rtl {
        crate::tb::idu::system::run_rtl::<4>(&cfg, &stream, u64::MAX, None)
            .map_err(|e| e.to_string())?
    } else {
        IduSystem::new(cfg).run(&stream, u64::MAX)
    };
    let secs = start.elapsed().as_secs_f64();
    let engine = if rtl {
        "harness, 13 clocks"
    } else {
        "reference model"
    };
    Ok(row("idu", engine, run.disp_cycles, secs))
}

/// Wall time of the LID table (3200AA x16 reads, 1..=128 bursts, 4096 alignments each) on
/// every core.
pub fn dram_sweep() -> Result<f64, String> {
    let start = Instant::now();
    let sizes: Vec<u32> = (1..=128).collect();
    crate::tb::dram::sweep::table(&rtgpu_hw::dram::Part::DDR4_3200AA_X16, false, &sizes)?;
    Ok(start.elapsed().as_secs_f64())
}
