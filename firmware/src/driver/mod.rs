//! The driver: the only code that touches the GPU's MMIO registers
//! ([`rtgpu_hw::gpu::regs`]). It loads code and data, writes the launch registers, rings the
//! doorbell, waits with a timeout, and reads results, counters and per-wavefront times.
//! Every failure is a [`DriverError`] with a message.

mod queue;
mod session;

pub use queue::{Completion, SubKernel};
pub use session::{run, Outcome};

use crate::launch::{Dims, LaunchError};
use rtgpu_hw::cu::{Abi, CuError, IduLaunch, Mode};
use rtgpu_hw::gpu::regs::{self, addr, status, BusError};
use rtgpu_hw::gpu::Gpu;
use rtgpu_hw::sched::model::Policy;
use rtgpu_hw::simd::Exec;
use std::fmt;

/// A 32-bit MMIO bus with a clock: what the driver needs from the GPU.
pub trait Bus {
    /// Reads a register.
    fn read(&mut self, a: u32) -> Result<u32, BusError>;
    /// Writes a register.
    fn write(&mut self, a: u32, v: u32) -> Result<(), BusError>;
    /// Lets `cycles` core clock cycles pass.
    fn tick(&mut self, cycles: u64);

    /// Reads register `a` `out.len()` times, in order (a burst through an auto-incrementing
    /// window); a bus that can do it faster overrides this.
    fn read_burst(&mut self, a: u32, out: &mut [u32]) -> Result<(), BusError> {
        out.iter_mut().try_for_each(|w| {
            *w = self.read(a)?;
            Ok(())
        })
    }

    /// Writes `words` to register `a`, in order (a burst through an auto-incrementing
    /// window); a bus that can do it faster overrides this.
    fn write_burst(&mut self, a: u32, words: &[u32]) -> Result<(), BusError> {
        words.iter().try_for_each(|&w| self.write(a, w))
    }
}

impl Bus for Gpu {
    fn read(&mut self, a: u32) -> Result<u32, BusError> {
        Gpu::read(self, a)
    }

    fn write(&mut self, a: u32, v: u32) -> Result<(), BusError> {
        Gpu::write(self, a, v)
    }

    fn tick(&mut self, cycles: u64) {
        self.run(cycles);
    }

    fn read_burst(&mut self, a: u32, out: &mut [u32]) -> Result<(), BusError> {
        Gpu::read_burst(self, a, out)
    }

    fn write_burst(&mut self, a: u32, words: &[u32]) -> Result<(), BusError> {
        Gpu::write_burst(self, a, words)
    }
}

/// Everything that can go wrong, by cause.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DriverError {
    /// The bus refused an access.
    Bus {
        /// Register offset.
        addr: u32,
        /// The bus's response.
        error: BusError,
    },
    /// The device at the bus is not an rtgpu (its ID register).
    NotAGpu(u32),
    /// Code or data does not fit the GPU's memory.
    TooLarge {
        /// "code" or "data".
        what: &'static str,
        /// Bytes needed.
        bytes: u64,
        /// Bytes available.
        limit: u64,
    },
    /// The launch itself is malformed (sizes, arguments).
    BadLaunch(String),
    /// The GPU did not finish within the timeout.
    Timeout {
        /// Cycles waited.
        cycles: u64,
    },
    /// The GPU stopped with an error status.
    Hardware {
        /// The error code.
        error: CuError,
        /// PC of the faulting instruction.
        pc: u32,
        /// ERROR_INFO.
        info: u32,
    },
    /// STATUS held a code the driver does not know.
    UnknownStatus(u32),
    /// The device's register map version is not the one this driver was written for.
    Version(u32),
}

impl fmt::Display for DriverError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DriverError::Bus { addr, error } => {
                write!(f, "MMIO access to {addr:#05x} refused: {error}")
            }
            DriverError::NotAGpu(id) => {
                write!(f, "no rtgpu on the bus (ID register reads {id:#010x})")
            }
            DriverError::TooLarge { what, bytes, limit } => {
                write!(f, "{what} needs {bytes} bytes but the GPU has {limit}")
            }
            DriverError::BadLaunch(m) => write!(f, "bad launch: {m}"),
            DriverError::Timeout { cycles } => {
                write!(f, "the kernel did not finish within {cycles} cycles")
            }
            DriverError::Hardware { error, pc, info } => write!(
                f,
                "GPU error {} (code {}) at pc {pc:#x}, info {info:#x}{}",
                error.name(),
                *error as u32,
                hint(*error, *info)
            ),
            DriverError::UnknownStatus(s) => write!(f, "unknown STATUS value {s}"),
            DriverError::Version(v) => write!(
                f,
                "the rtgpu's register map is version {v}, this driver knows version {}",
                regs::VERSION
            ),
        }
    }
}

/// A short explanation of an error's info field.
fn hint(e: CuError, info: u32) -> String {
    match e {
        CuError::BadLaunch => {
            let what = [
                "work-group size outside 1..=1024",
                "grid size not a positive multiple of the work-group size",
                "a work-group has more wavefronts than the compute unit has SIMD slots",
                "LDS size too large or not a multiple of 4",
                "mode or S invalid (S must be 1..=7)",
                "entry PC outside instruction memory",
                "reordering needs the memory hierarchy (memory.hierarchy = true)",
                "the reordering trace table is unreadable or does not match the launch",
                "the sub-kernel's work-groups are empty, outside the grid, or use reordering",
                "a launch setting the RTL compute unit does not have yet (PWS with S other \
                 than 1, a FEATURES bit, the HSA ABI)",
            ];
            let check = (info as usize).checked_sub(1).and_then(|i| what.get(i));
            format!(": {}", check.unwrap_or(&"unknown check"))
        }
        CuError::SplitOverflow => {
            ": split with no free SpSIMD context (nested deeper than S)".into()
        }
        CuError::MergeWatchdog => ": a merge partner never arrived".into(),
        CuError::IllegalInstruction => format!(": word {info:#010x}"),
        CuError::MemoryFault | CuError::LdsFault => format!(": address {info:#x}"),
        CuError::ReorderTrace => format!(": wavefront {info} issued an access its trace lacks"),
        CuError::MemorySystem => match info {
            16 => ": the DRAM side failed".into(),
            17 => ": the memory path lost a request".into(),
            c => {
                format!(": reordering unit error {c} (1 wrong pc_idx, 2 watchdog, 3 unmapped slot)")
            }
        },
        CuError::EndLiveSplits => {
            ": s_endpgm while the wavefront still had live splits (a split without its merge)"
                .into()
        }
        CuError::PcOutOfRange => {
            format!(": the PC {info:#x} left instruction memory (a kernel without s_endpgm?)")
        }
        CuError::SplitPendingMemory => {
            format!(": split or merge with {info} memory operations outstanding (s_waitcnt first)")
        }
        CuError::PwsProtocol => {
            ": the split/merge unit reported a protocol error (empty or busy context, bad \
             command)"
                .into()
        }
        CuError::RtlBlock => {
            ": a block run as RTL disagreed with its reference model, or its RTL could not be \
             built for this configuration"
                .into()
        }
    }
}

impl std::error::Error for DriverError {}

impl From<LaunchError> for DriverError {
    fn from(e: LaunchError) -> Self {
        DriverError::BadLaunch(e.0)
    }
}

/// The launch registers' contents.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LaunchDesc {
    /// Entry PC.
    pub entry_pc: u32,
    /// How the wavefronts' registers start (rtgpu's simple ABI: the kernel argument segment
    /// address).
    pub abi: Abi,
    /// Grid and work-group sizes.
    pub dims: Dims,
    /// LDS bytes per work-group.
    pub lds: u32,
    /// Split mode.
    pub mode: Mode,
    /// S.
    pub s: u32,
    /// Issue policy.
    pub policy: Policy,
    /// The reordering unit on (`FEATURES` bit 0).
    pub reorder: bool,
    /// Byte address of the reordering trace table (`TRACE_ADDR`).
    pub trace_addr: u64,
    /// The IDU in front of the VALU lane clusters (`FEATURES` bits 1–2, `IDU_CLUSTER`).
    pub idu: Option<IduLaunch>,
    /// GCN or Sim-D execution (`FEATURES` bits 3–4).
    pub exec: Exec,
}

impl LaunchDesc {
    /// A launch at entry pc 0 without reordering or IDU (set those fields to add them); `abi`
    /// is a kernel argument segment address for rtgpu's simple ABI, or an [`Abi`].
    pub fn new(
        abi: impl Into<Abi>,
        dims: Dims,
        lds: u32,
        mode: Mode,
        s: u32,
        policy: Policy,
    ) -> Self {
        Self {
            entry_pc: 0,
            abi: abi.into(),
            dims,
            lds,
            mode,
            s,
            policy,
            reorder: false,
            trace_addr: 0,
            idu: None,
            exec: Exec::Gcn,
        }
    }
}

/// The performance counters after a launch. In JSON: `counters` is an object from name to
/// value (in register order) and `wf` a list of `{"start": …, "finish": …}`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PerfCounters {
    /// By name ([`regs::COUNTER_NAMES`]), in register order.
    pub counters: Vec<(String, u64)>,
    /// Per wavefront: (start cycle, finish cycle).
    pub wf: Vec<(u64, u64)>,
}

impl serde::Serialize for PerfCounters {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        /// The counters as one object, in register order.
        struct ByName<'a>(&'a [(String, u64)]);
        impl serde::Serialize for ByName<'_> {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.collect_map(self.0.iter().map(|(n, v)| (n, v)))
            }
        }
        /// One wavefront's start and finish cycles.
        #[derive(serde::Serialize)]
        struct Span {
            start: u64,
            finish: u64,
        }
        let wf: Vec<Span> = self
            .wf
            .iter()
            .map(|&(start, finish)| Span { start, finish })
            .collect();
        let mut st = s.serialize_struct("PerfCounters", 2)?;
        st.serialize_field("counters", &ByName(&self.counters))?;
        st.serialize_field("wf", &wf)?;
        st.end()
    }
}

impl PerfCounters {
    /// The counter called `name` (0 if there is none).
    pub fn get(&self, name: &str) -> u64 {
        self.counters
            .iter()
            .find(|(n, _)| n == name)
            .map_or(0, |(_, v)| *v)
    }
}

/// The driver over a bus.
pub struct Driver<B: Bus> {
    bus: B,
}

impl<B: Bus> Driver<B> {
    /// Takes the bus after checking that an rtgpu answers on it.
    pub fn new(mut bus: B) -> Result<Self, DriverError> {
        let id = read(&mut bus, addr::ID)?;
        if id != regs::ID_VALUE {
            return Err(DriverError::NotAGpu(id));
        }
        let version = read(&mut bus, addr::VERSION)?;
        if version != regs::VERSION {
            return Err(DriverError::Version(version));
        }
        Ok(Self { bus })
    }

    /// The bus (to look at the model behind it).
    pub fn bus(&self) -> &B {
        &self.bus
    }

    /// The bus, to let time pass or look at the device between launches.
    pub fn bus_mut(&mut self) -> &mut B {
        &mut self.bus
    }

    /// Gives the bus back.
    pub fn into_bus(self) -> B {
        self.bus
    }

    fn read(&mut self, a: u32) -> Result<u32, DriverError> {
        read(&mut self.bus, a)
    }

    /// A 64-bit register from its low half at `a` and high half at `a + 4`.
    fn read64(&mut self, a: u32) -> Result<u64, DriverError> {
        Ok(u64::from(self.read(a)?) | u64::from(self.read(a + 4)?) << 32)
    }

    fn write(&mut self, a: u32, v: u32) -> Result<(), DriverError> {
        self.bus.write(a, v).map_err(refused(a))
    }

    /// Loads a code image at instruction address 0.
    pub fn load_code(&mut self, words: &[u32]) -> Result<(), DriverError> {
        let limit = u64::from(self.read(addr::CODE_SIZE)?);
        let bytes = 4 * words.len() as u64;
        if bytes > limit {
            return Err(DriverError::TooLarge {
                what: "code",
                bytes,
                limit,
            });
        }
        self.write(addr::CODE_ADDR, 0)?;
        words
            .iter()
            .try_for_each(|&w| self.write(addr::CODE_DATA, w))
    }

    fn mem_size(&mut self) -> Result<u64, DriverError> {
        Ok(u64::from(self.read(addr::MEM_SIZE_LO)?)
            | u64::from(self.read(addr::MEM_SIZE_HI)?) << 32)
    }

    /// Writes dwords to data memory from byte address `at`.
    pub fn write_mem(&mut self, at: u64, words: &[u32]) -> Result<(), DriverError> {
        let limit = self.mem_size()?;
        let bytes = at + 4 * words.len() as u64;
        if bytes > limit {
            return Err(DriverError::TooLarge {
                what: "data",
                bytes,
                limit,
            });
        }
        self.set_mem_addr(at)?;
        self.bus
            .write_burst(addr::MEM_DATA, words)
            .map_err(refused(addr::MEM_DATA))
    }

    fn set_mem_addr(&mut self, at: u64) -> Result<(), DriverError> {
        self.write(addr::MEM_ADDR_LO, at as u32)?;
        self.write(addr::MEM_ADDR_HI, (at >> 32) as u32)
    }

    /// Reads `n` dwords of data memory from byte address `at`.
    pub fn read_mem(&mut self, at: u64, n: usize) -> Result<Vec<u32>, DriverError> {
        self.set_mem_addr(at)?;
        let mut words = vec![0; n];
        self.bus
            .read_burst(addr::MEM_DATA, &mut words)
            .map_err(refused(addr::MEM_DATA))?;
        Ok(words)
    }

    /// Writes the launch registers and rings the doorbell (the whole grid on every compute
    /// unit). The GPU itself checks the sizes (a bad launch ends in its `bad_launch` status,
    /// which [`Driver::wait`] reports).
    pub fn launch(&mut self, d: &LaunchDesc) -> Result<(), DriverError> {
        self.write_launch(d, &SubKernel::ALL)?;
        self.write(addr::CTRL, regs::CTRL_DOORBELL)
    }

    /// Writes the launch registers of `d` and the sub-kernel `sub`.
    fn write_launch(&mut self, d: &LaunchDesc, sub: &SubKernel) -> Result<(), DriverError> {
        if d.s > 7 {
            return Err(DriverError::BadLaunch(format!(
                "S = {} does not fit the MODE register (1..=7)",
                d.s
            )));
        }
        self.write(addr::ENTRY_PC, d.entry_pc)?;
        self.write_abi(&d.abi)?;
        self.write(addr::GRID, d.dims.grid)?;
        self.write(addr::WG, d.dims.wg)?;
        self.write(addr::LDS, d.lds)?;
        self.write(addr::MODE, d.mode.code() | (d.s & 7) << 4)?;
        let sched = match d.policy {
            Policy::Lrr => 0,
            Policy::Gto => 1,
            Policy::Rr => 2,
        };
        self.write(addr::SCHED, sched)?;
        let idu = d.idu.map_or(0, |i| {
            regs::FEATURE_IDU | (u32::from(i.enable) * regs::FEATURE_IDU_ENABLE)
        });
        for (k, &(working, limit, ps)) in d.idu.unwrap_or_default().clusters.iter().enumerate() {
            let a = addr::IDU_CLUSTER + 8 * k as u32;
            self.write(a, u32::from(limit) | u32::from(working) << 8)?;
            self.write(a + 4, ps)?;
        }
        self.write(
            addr::FEATURES,
            (u32::from(d.reorder) * regs::FEATURE_REORDER) | idu | exec_bits(d.exec),
        )?;
        self.write(addr::TRACE_ADDR_LO, d.trace_addr as u32)?;
        self.write(addr::TRACE_ADDR_HI, (d.trace_addr >> 32) as u32)?;
        self.write(addr::WG_FIRST, sub.first)?;
        self.write(addr::WG_COUNT, sub.count)?;
        self.write(addr::CU_MASK, sub.cus)
    }

    /// The ABI registers: `KERNARG` for the simple ABI, `PGM_RSRC2` and `USER_DATA` for HSA.
    fn write_abi(&mut self, abi: &Abi) -> Result<(), DriverError> {
        match *abi {
            Abi::Rtgpu { kernarg } => {
                self.write(addr::ABI, 0)?;
                self.write(addr::KERNARG_LO, kernarg as u32)?;
                self.write(addr::KERNARG_HI, (kernarg >> 32) as u32)
            }
            Abi::Hsa { rsrc2, user } => {
                self.write(addr::ABI, 1)?;
                self.write(addr::PGM_RSRC2, rsrc2)?;
                for (i, &v) in (0..).zip(&user) {
                    self.write(addr::USER_DATA + 4 * i, v)?;
                }
                Ok(())
            }
        }
    }

    /// Waits until the GPU is done, polling every `poll` cycles, for at most `timeout` cycles.
    pub fn wait(&mut self, timeout: u64, poll: u64) -> Result<(), DriverError> {
        let poll = poll.max(1);
        let mut waited = 0;
        loop {
            match self.read(addr::STATUS)? {
                status::DONE => return Ok(()),
                status::BUSY | status::IDLE if waited >= timeout => {
                    return Err(DriverError::Timeout { cycles: waited })
                }
                status::BUSY | status::IDLE => {
                    // The last poll stops at the timeout itself.
                    let step = poll.min(timeout - waited);
                    self.bus.tick(step);
                    waited += step;
                }
                status::ERROR => return Err(self.hardware_error()?),
                s => return Err(DriverError::UnknownStatus(s)),
            }
        }
    }

    fn hardware_error(&mut self) -> Result<DriverError, DriverError> {
        let code = self.read(addr::ERROR)?;
        let error = CuError::from_code(code).ok_or(DriverError::UnknownStatus(code))?;
        Ok(DriverError::Hardware {
            error,
            pc: self.read(addr::ERROR_PC)?,
            info: self.read(addr::ERROR_INFO)?,
        })
    }

    /// Reads every counter and the per-wavefront times.
    pub fn counters(&mut self) -> Result<PerfCounters, DriverError> {
        let mut counters = Vec::new();
        let banks = [
            (addr::COUNTERS, &regs::COUNTER_NAMES[..]),
            (addr::COUNTERS2, &regs::COUNTER2_NAMES[..]),
        ];
        for (base, names) in banks {
            for (i, name) in names.iter().enumerate() {
                let v = self.read64(base + 8 * i as u32)?;
                counters.push((name.to_string(), v));
            }
        }
        let n = self.read(addr::WF_COUNT)?;
        let mut wf = Vec::new();
        for i in 0..n {
            self.write(addr::WF_SEL, i)?;
            wf.push((
                u64::from(self.read(addr::WF_START)?),
                u64::from(self.read(addr::WF_FINISH)?),
            ));
        }
        Ok(PerfCounters { counters, wf })
    }
}

fn read<B: Bus>(bus: &mut B, a: u32) -> Result<u32, DriverError> {
    bus.read(a).map_err(refused(a))
}

/// The error of a bus access to register `a` that the bus refused.
fn refused(a: u32) -> impl FnOnce(BusError) -> DriverError {
    move |error| DriverError::Bus { addr: a, error }
}

/// The `FEATURES` bits of an execution model.
fn exec_bits(e: Exec) -> u32 {
    match e {
        Exec::Gcn => 0,
        Exec::Simd => regs::FEATURE_SIMD,
        Exec::SimdFree => regs::FEATURE_SIMD | regs::FEATURE_SIMD_FREE,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A bus answering rtgpu's ID and a chosen register map version, refusing all else.
    struct IdBus(u32);

    impl Bus for IdBus {
        fn read(&mut self, a: u32) -> Result<u32, BusError> {
            match a {
                addr::ID => Ok(regs::ID_VALUE),
                addr::VERSION => Ok(self.0),
                _ => Err(BusError::Unmapped),
            }
        }
        fn write(&mut self, _: u32, _: u32) -> Result<(), BusError> {
            Err(BusError::Unmapped)
        }
        fn tick(&mut self, _: u64) {}
    }

    /// The register map is version 3 (N compute units and the queue) and the driver
    /// refuses a version-1 device, whose `SCHED` = 2 meant LRR. Fails if `regs::VERSION`
    /// is left at 1 or if `Driver::new` skips the version check.
    #[test]
    fn register_map_version_is_checked() {
        assert_eq!(regs::VERSION, 3);
        let mut gpu = Gpu::new(Default::default()).unwrap();
        assert_eq!(gpu.read(addr::VERSION), Ok(3));
        assert!(Driver::new(gpu).is_ok());
        assert!(Driver::new(IdBus(3)).is_ok());
        match Driver::new(IdBus(1)) {
            Err(e @ DriverError::Version(1)) => assert!(e.to_string().contains("version 1")),
            Err(e) => panic!("{e}"),
            Ok(_) => panic!("a version-1 device was accepted"),
        }
    }

    #[test]
    fn every_gpu_error_is_described() {
        for error in CuError::ALL {
            for info in [0, 1, 99] {
                let e = DriverError::Hardware { error, pc: 0, info };
                let text = e.to_string();
                let hint = text.split_once(&format!("info {info:#x}")).map(|p| p.1);
                assert!(
                    hint.is_some_and(|h| h.starts_with(": ") && h.len() > 6),
                    "{text}"
                );
            }
        }
    }
}
