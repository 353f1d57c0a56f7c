//! The compute unit from the command line: `rtgpu run` ([`run`]) and its waveform
//! ([`probe`]); `rtgpu sweep` ([`sweep`]) over a configuration grid.

mod dump;
pub mod evals;
pub mod probe;
pub mod rtl_bus;
pub mod rtl_run;
pub mod rtl_top;
pub(crate) mod run;
pub mod scenario;
pub mod simd;
pub mod simd_gen;
pub mod suite;
pub mod sweep;
mod sys_probe;
pub mod system;
pub mod vuln;
pub mod wcet;

pub use run::{
    assemble_kernel, check_launch, idu_launch, load_config, parse_config, parse_idu, read_input,
    read_input_bytes, run, run_loaded, status_name, AutoSplit, Kernel, LaunchOpts, RunOpts,
    RunReport, Top, MAX_INPUT_BYTES,
};

use crate::sim::waves::merge::SysClock;
use probe::CuProbe;
use rtgpu_firmware::driver::Bus;
use rtgpu_hw::gpu::regs::BusError;
use rtgpu_hw::gpu::Gpu;
use std::io;

/// The GPU on the driver's bus, recording the compute unit's waveform while the clock runs.
pub struct Recording {
    /// The GPU.
    pub gpu: Gpu,
    probe: Option<CuProbe>,
    cycle: u64,
    error: Option<io::Error>,
    /// Set to each recorded cycle's time, for RTL blocks that record on the system's base.
    clock: Option<SysClock>,
}

impl Recording {
    /// The GPU, with a probe if a waveform is wanted.
    pub fn new(gpu: Gpu, probe: Option<CuProbe>) -> Self {
        Self {
            gpu,
            probe,
            cycle: 0,
            error: None,
            clock: None,
        }
    }

    /// Sets `clock` to each recorded cycle's time ([`probe::CYCLE_PS`] per cycle) before the
    /// cycle runs.
    pub fn with_clock(mut self, clock: SysClock) -> Self {
        self.clock = Some(clock);
        self
    }

    /// Ends the recording: the probe (if any) and the first write error.
    pub fn finish(self) -> (Gpu, Option<CuProbe>, Option<io::Error>) {
        (self.gpu, self.probe, self.error)
    }
}

impl Bus for Recording {
    fn read(&mut self, a: u32) -> Result<u32, BusError> {
        self.gpu.read(a)
    }

    fn write(&mut self, a: u32, v: u32) -> Result<(), BusError> {
        self.gpu.write(a, v)
    }

    fn read_burst(&mut self, a: u32, out: &mut [u32]) -> Result<(), BusError> {
        self.gpu.read_burst(a, out)
    }

    fn write_burst(&mut self, a: u32, words: &[u32]) -> Result<(), BusError> {
        self.gpu.write_burst(a, words)
    }

    fn tick(&mut self, cycles: u64) {
        let Some(probe) = self.probe.as_mut() else {
            self.gpu.run(cycles);
            return;
        };
        for _ in 0..cycles {
            if let Some(c) = &self.clock {
                c.set(self.cycle * probe::CYCLE_PS);
            }
            probe.capture(self.gpu.cu());
            self.gpu.step();
            if let Err(e) = probe.sample(self.cycle, self.gpu.cu()) {
                self.error.get_or_insert(e);
            }
            self.cycle += 1;
        }
    }
}
