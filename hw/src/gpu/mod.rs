//! The GPU top: one compute unit ([`crate::cu`]) behind a 32-bit MMIO register map
//! ([`regs`]): code/data windows, launch registers, doorbell, status and counters.

pub mod regmap;
pub mod regs;

use crate::cu::{Abi, ComputeUnit, CuConfig, IduLaunch, Launch, Mode, Status};
use crate::sched::model::Policy;
use regs::{addr, status, BusError};

/// The launch registers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct LaunchRegs {
    entry_pc: u32,
    kernarg: u64,
    grid: u32,
    wg: u32,
    lds: u32,
    mode: u32,
    sched: u32,
    features: u32,
    trace_addr: u64,
    /// Per IDU cluster: (limit | working << 8, period ps).
    idu: [(u32, u32); 8],
    /// `ABI`: 0 rtgpu's simple ABI, 1 HSA.
    abi: u32,
    /// `PGM_RSRC2` (HSA).
    rsrc2: u32,
    /// `USER_DATA[i]` (HSA).
    user: [u32; 16],
}

/// The GPU: a compute unit and its register block.
pub struct Gpu {
    cu: ComputeUnit,
    regs: LaunchRegs,
    code_addr: u32,
    mem_addr: u64,
    wf_sel: u32,
}

impl Gpu {
    /// A GPU whose compute unit has this configuration.
    pub fn new(cfg: CuConfig) -> Result<Self, String> {
        Ok(Self {
            cu: ComputeUnit::new(cfg)?,
            regs: LaunchRegs {
                wg: 64,
                grid: 64,
                mode: Mode::Pws.code() | 1 << 4,
                sched: 1,
                ..LaunchRegs::default()
            },
            code_addr: 0,
            mem_addr: 0,
            wf_sel: 0,
        })
    }

    /// The compute unit (for waveforms and probes; software uses the registers).
    pub fn cu(&self) -> &ComputeUnit {
        &self.cu
    }

    /// The compute unit, to set up recording (software uses the registers).
    pub fn cu_mut(&mut self) -> &mut ComputeUnit {
        &mut self.cu
    }

    /// Runs `n` core clock cycles.
    pub fn run(&mut self, n: u64) {
        self.cu.run(n);
    }

    /// Runs one core clock cycle.
    pub fn step(&mut self) {
        self.cu.step();
    }

    fn busy(&self) -> bool {
        self.cu.status() == Status::Busy
    }

    /// An MMIO read.
    pub fn read(&mut self, a: u32) -> Result<u32, BusError> {
        let cfg = *self.cu.config();
        let c = self.cu.counters();
        Ok(match a {
            addr::ID => regs::ID_VALUE,
            addr::VERSION => regs::VERSION,
            addr::STATUS => self.status_code(),
            addr::ERROR | addr::ERROR_PC | addr::ERROR_INFO => self.error_reg(a),
            addr::CODE_ADDR => self.code_addr,
            addr::CODE_DATA => {
                let v = *self
                    .cu
                    .code
                    .get((self.code_addr / 4) as usize)
                    .ok_or(BusError::OutOfRange)?;
                self.code_addr = self.code_addr.wrapping_add(4);
                v
            }
            addr::MEM_ADDR_LO => self.mem_addr as u32,
            addr::MEM_ADDR_HI => (self.mem_addr >> 32) as u32,
            addr::MEM_DATA => {
                let v = self
                    .cu
                    .mem
                    .read(self.mem_addr)
                    .map_err(|_| BusError::OutOfRange)?;
                self.mem_addr = self.mem_addr.wrapping_add(4);
                v
            }
            addr::CODE_SIZE => cfg.code_bytes,
            addr::MEM_SIZE_LO => cfg.mem_bytes as u32,
            addr::MEM_SIZE_HI => (cfg.mem_bytes >> 32) as u32,
            addr::ENTRY_PC => self.regs.entry_pc,
            addr::KERNARG_LO => self.regs.kernarg as u32,
            addr::KERNARG_HI => (self.regs.kernarg >> 32) as u32,
            addr::GRID => self.regs.grid,
            addr::WG => self.regs.wg,
            addr::LDS => self.regs.lds,
            addr::MODE => self.regs.mode,
            addr::SCHED => self.regs.sched,
            addr::FEATURES => self.regs.features,
            addr::ABI => self.regs.abi,
            addr::PGM_RSRC2 => self.regs.rsrc2,
            a if (addr::USER_DATA..addr::USER_DATA_END).contains(&a) && a % 4 == 0 => {
                self.regs.user[((a - addr::USER_DATA) / 4) as usize]
            }
            addr::TRACE_ADDR_LO => self.regs.trace_addr as u32,
            addr::TRACE_ADDR_HI => (self.regs.trace_addr >> 32) as u32,
            a if (addr::IDU_CLUSTER..addr::IDU_CLUSTER_END).contains(&a) && a % 4 == 0 => {
                let (lo, hi) = self.regs.idu[((a - addr::IDU_CLUSTER) / 8) as usize];
                if a % 8 == 0 {
                    lo
                } else {
                    hi
                }
            }
            a if (addr::COUNTERS2..addr::COUNTERS2 + 8 * regs::N_COUNTERS2).contains(&a)
                && a % 4 == 0 =>
            {
                let v = counter2(c, ((a - addr::COUNTERS2) / 8) as usize);
                if a % 8 == 0 {
                    v as u32
                } else {
                    (v >> 32) as u32
                }
            }
            addr::WF_COUNT => c.wf.len() as u32,
            addr::WF_SEL => self.wf_sel,
            addr::WF_START | addr::WF_FINISH => {
                let (s, f) = c.wf.get(self.wf_sel as usize).copied().unwrap_or((0, 0));
                (if a == addr::WF_START { s } else { f }) as u32
            }
            a if (addr::COUNTERS..addr::COUNTERS + 8 * regs::N_COUNTERS).contains(&a)
                && a % 4 == 0 =>
            {
                let i = (a - addr::COUNTERS) / 8;
                let v = counter(c, i as usize);
                if a % 8 == 0 {
                    v as u32
                } else {
                    (v >> 32) as u32
                }
            }
            addr::CTRL => return Err(BusError::ReadOnly),
            _ => return Err(BusError::Unmapped),
        })
    }

    fn status_code(&self) -> u32 {
        match self.cu.status() {
            Status::Idle => status::IDLE,
            Status::Busy => status::BUSY,
            Status::Done => status::DONE,
            Status::Error(_) => status::ERROR,
        }
    }

    fn error_reg(&self, a: u32) -> u32 {
        match self.cu.status() {
            Status::Error(f) => match a {
                addr::ERROR => f.error as u32,
                addr::ERROR_PC => f.pc,
                _ => f.info,
            },
            _ => 0,
        }
    }

    /// `out.len()` MMIO reads of register `a`, in order: through `MEM_DATA`, in one copy
    /// when the whole span is in memory. The same as that many [`Gpu::read`]s.
    pub fn read_burst(&mut self, a: u32, out: &mut [u32]) -> Result<(), BusError> {
        if let Some(src) = (a == addr::MEM_DATA)
            .then(|| self.cu.mem.span(self.mem_addr, out.len()))
            .flatten()
        {
            out.copy_from_slice(src);
            self.mem_addr += 4 * out.len() as u64;
            return Ok(());
        }
        out.iter_mut().try_for_each(|w| {
            *w = self.read(a)?;
            Ok(())
        })
    }

    /// MMIO writes of `words` to register `a`, in order: through `MEM_DATA`, in one copy
    /// when the whole span is in memory. The same as that many [`Gpu::write`]s.
    pub fn write_burst(&mut self, a: u32, words: &[u32]) -> Result<(), BusError> {
        if let Some(dst) = (a == addr::MEM_DATA)
            .then(|| self.cu.mem.span_mut(self.mem_addr, words.len()))
            .flatten()
        {
            dst.copy_from_slice(words);
            self.mem_addr += 4 * words.len() as u64;
            return Ok(());
        }
        words.iter().try_for_each(|&w| self.write(a, w))
    }

    /// An MMIO write.
    pub fn write(&mut self, a: u32, v: u32) -> Result<(), BusError> {
        let launch_reg = (addr::ENTRY_PC..addr::USER_DATA_END).contains(&a);
        if launch_reg && self.busy() {
            return Err(BusError::Busy);
        }
        match a {
            addr::CTRL => self.ctrl(v)?,
            addr::CODE_ADDR => self.code_addr = v,
            addr::CODE_DATA => {
                let slot = self
                    .cu
                    .code
                    .get_mut((self.code_addr / 4) as usize)
                    .ok_or(BusError::OutOfRange)?;
                *slot = v;
                self.code_addr = self.code_addr.wrapping_add(4);
            }
            addr::MEM_ADDR_LO => self.mem_addr = self.mem_addr & !0xFFFF_FFFF | u64::from(v),
            addr::MEM_ADDR_HI => self.mem_addr = self.mem_addr & 0xFFFF_FFFF | u64::from(v) << 32,
            addr::MEM_DATA => {
                self.cu
                    .mem
                    .write(self.mem_addr, v)
                    .map_err(|_| BusError::OutOfRange)?;
                self.mem_addr = self.mem_addr.wrapping_add(4);
            }
            addr::ENTRY_PC => self.regs.entry_pc = v,
            addr::KERNARG_LO => self.regs.kernarg = self.regs.kernarg & !0xFFFF_FFFF | u64::from(v),
            addr::KERNARG_HI => {
                self.regs.kernarg = self.regs.kernarg & 0xFFFF_FFFF | u64::from(v) << 32
            }
            addr::GRID => self.regs.grid = v,
            addr::WG => self.regs.wg = v,
            addr::LDS => self.regs.lds = v,
            addr::MODE => self.regs.mode = v,
            addr::SCHED => self.regs.sched = v,
            addr::FEATURES => self.regs.features = v,
            addr::ABI => self.regs.abi = v & 1,
            addr::PGM_RSRC2 => self.regs.rsrc2 = v,
            a if (addr::USER_DATA..addr::USER_DATA_END).contains(&a) && a % 4 == 0 => {
                self.regs.user[((a - addr::USER_DATA) / 4) as usize] = v
            }
            a if (addr::IDU_CLUSTER..addr::IDU_CLUSTER_END).contains(&a) && a % 4 == 0 => {
                let r = &mut self.regs.idu[((a - addr::IDU_CLUSTER) / 8) as usize];
                if a % 8 == 0 {
                    r.0 = v & 0x1FF
                } else {
                    r.1 = v
                }
            }
            addr::TRACE_ADDR_LO => {
                self.regs.trace_addr = self.regs.trace_addr & !0xFFFF_FFFF | u64::from(v)
            }
            addr::TRACE_ADDR_HI => {
                self.regs.trace_addr = self.regs.trace_addr & 0xFFFF_FFFF | u64::from(v) << 32
            }
            addr::WF_SEL => self.wf_sel = v,
            a if self.read_only(a) => return Err(BusError::ReadOnly),
            _ => return Err(BusError::Unmapped),
        }
        Ok(())
    }

    /// A mapped register software may only read.
    fn read_only(&mut self, a: u32) -> bool {
        a != addr::CODE_DATA && a != addr::MEM_DATA && a != addr::CTRL && self.peek(a)
    }

    /// Whether `a` is a readable register (without side effects).
    fn peek(&self, a: u32) -> bool {
        matches!(
            a,
            addr::ID
                | addr::VERSION
                | addr::STATUS
                | addr::ERROR
                | addr::ERROR_PC
                | addr::ERROR_INFO
                | addr::CODE_SIZE
                | addr::MEM_SIZE_LO
                | addr::MEM_SIZE_HI
                | addr::WF_COUNT
                | addr::WF_START
                | addr::WF_FINISH
        ) || ((addr::COUNTERS..addr::COUNTERS + 8 * regs::N_COUNTERS).contains(&a)
            || (addr::COUNTERS2..addr::COUNTERS2 + 8 * regs::N_COUNTERS2).contains(&a))
            && a.is_multiple_of(4)
    }

    fn ctrl(&mut self, v: u32) -> Result<(), BusError> {
        if v & regs::CTRL_RESET != 0 {
            self.cu.abort();
        }
        if v & regs::CTRL_DOORBELL != 0 {
            if self.busy() {
                return Err(BusError::Busy);
            }
            self.cu.launch(self.launch());
        }
        Ok(())
    }

    /// The launch the registers describe (an unknown mode code or S outside 1..=7 makes
    /// the compute unit refuse it as bad_launch).
    fn launch(&self) -> Launch {
        let r = &self.regs;
        let s = (r.mode >> 4) & 7;
        let (mode, s) = match Mode::from_code(r.mode & 3) {
            Some(m) => (m, s),
            None => (Mode::NoSplit, 0),
        };
        Launch {
            entry_pc: r.entry_pc,
            abi: if r.abi == 1 {
                Abi::Hsa {
                    rsrc2: r.rsrc2,
                    user: r.user,
                }
            } else {
                Abi::Rtgpu { kernarg: r.kernarg }
            },
            grid: r.grid,
            wg: r.wg,
            lds_per_wg: r.lds,
            mode,
            s,
            policy: match r.sched & 3 {
                1 => Policy::Gto,
                2 => Policy::Rr,
                _ => Policy::Lrr,
            },
            reorder: r.features & regs::FEATURE_REORDER != 0,
            idu: (r.features & regs::FEATURE_IDU != 0).then(|| IduLaunch {
                enable: r.features & regs::FEATURE_IDU_ENABLE != 0,
                clusters: r.idu.map(|(lo, ps)| (lo & 0x100 != 0, lo as u8, ps)),
            }),
            trace_addr: r.trace_addr,
        }
    }
}

/// Counter `i` of the register map.
fn counter(c: &crate::cu::Counters, i: usize) -> u64 {
    match i {
        0 => c.cycles,
        1 => c.instructions(),
        2..=10 => c.insts[i - 2],
        11..=16 => c.stalls[i - 11],
        17 => c.splits,
        18 => c.merges,
        19 => c.serialized,
        _ => mem_counter(&c.mem, i),
    }
}

/// Counter `i` of the second bank.
fn counter2(c: &crate::cu::Counters, i: usize) -> u64 {
    match i {
        0..=7 => c.idu[i],
        8 => c.mem.reorder_held,
        _ => u64::from(c.mem.dram.lid_max),
    }
}

/// Memory hierarchy counter `i` (20..=29) of the register map.
fn mem_counter(m: &crate::memsys::MemCounters, i: usize) -> u64 {
    let d = &m.dram;
    let v = [
        m.l1_accesses,
        m.l1_hits,
        m.l1_misses,
        m.l1_stalls,
        m.reorder_stalls,
        d.reads,
        d.writes,
        d.lid_sum,
        d.refreshes,
        d.cycles,
    ];
    v.get(i.wrapping_sub(20)).copied().unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gpu() -> Gpu {
        Gpu::new(CuConfig::default()).unwrap()
    }

    #[test]
    fn every_address_answers_without_panicking() {
        let mut g = gpu();
        for a in (0..0x400).chain([0xFFFF_FFFC, 0x1001, 0x8000_0000]) {
            let mapped = g.read(a).is_ok();
            if !mapped {
                assert!(matches!(
                    g.read(a),
                    Err(BusError::Unmapped | BusError::ReadOnly)
                ));
            }
            // Writes of 0 to every address: an error response or a register, never a panic
            // (CTRL = 0 does nothing).
            let _ = g.write(a, 0);
        }
        assert_eq!(g.read(addr::ID), Ok(regs::ID_VALUE));
    }

    #[test]
    fn abi_registers_describe_the_launch() {
        let mut g = gpu();
        assert_eq!(g.launch().abi, Abi::Rtgpu { kernarg: 0 });
        g.write(addr::KERNARG_LO, 0x1000).unwrap();
        assert_eq!(g.launch().abi, Abi::Rtgpu { kernarg: 0x1000 });
        g.write(addr::ABI, 1).unwrap();
        g.write(addr::PGM_RSRC2, 0x90).unwrap();
        g.write(addr::USER_DATA + 4, 0x800).unwrap();
        g.write(addr::USER_DATA + 60, 7).unwrap();
        assert_eq!(g.read(addr::USER_DATA + 60), Ok(7));
        let mut user = [0; 16];
        (user[1], user[15]) = (0x800, 7);
        assert_eq!(g.launch().abi, Abi::Hsa { rsrc2: 0x90, user });
    }

    /// A burst equals its words one by one: the memory, the window's address and the
    /// response, also when the burst runs past the end of memory.
    #[test]
    fn bursts_equal_single_accesses() {
        let end = CuConfig::default().mem_bytes;
        for (at, n) in [
            (0x100u64, 37usize),
            (end - 16, 4),
            (end - 8, 5),
            (end, 1),
            (2, 3),
        ] {
            let words: Vec<u32> = (0..n as u32).map(|i| 0x1000 + i).collect();
            let (mut one, mut burst) = (gpu(), gpu());
            for g in [&mut one, &mut burst] {
                g.write(addr::MEM_ADDR_LO, at as u32).unwrap();
                g.write(addr::MEM_ADDR_HI, (at >> 32) as u32).unwrap();
            }
            let single = words.iter().try_for_each(|&w| one.write(addr::MEM_DATA, w));
            assert_eq!(
                burst.write_burst(addr::MEM_DATA, &words),
                single,
                "{at:#x}+{n}"
            );
            assert_eq!(one.cu.mem.words(), burst.cu.mem.words(), "{at:#x}+{n}");
            let moved = one.read(addr::MEM_ADDR_LO);
            assert_eq!(moved, burst.read(addr::MEM_ADDR_LO), "{at:#x}+{n}");
            for g in [&mut one, &mut burst] {
                g.write(addr::MEM_ADDR_LO, at as u32).unwrap();
            }
            let (mut a, mut b) = (vec![0; n], vec![0; n]);
            let single = a.iter_mut().try_for_each(|w| {
                *w = one.read(addr::MEM_DATA)?;
                Ok(())
            });
            assert_eq!(burst.read_burst(addr::MEM_DATA, &mut b), single);
            assert_eq!(
                (a, one.read(addr::MEM_ADDR_LO)),
                (b, burst.read(addr::MEM_ADDR_LO))
            );
        }
    }

    #[test]
    fn error_responses() {
        let mut g = gpu();
        assert_eq!(g.read(0x3FC), Err(BusError::Unmapped));
        assert_eq!(g.read(addr::ID + 1), Err(BusError::Unmapped));
        assert_eq!(g.write(addr::STATUS, 1), Err(BusError::ReadOnly));
        assert_eq!(g.write(addr::COUNTERS + 8, 1), Err(BusError::ReadOnly));
        assert_eq!(g.read(addr::CTRL), Err(BusError::ReadOnly));
        g.write(addr::CODE_ADDR, CuConfig::default().code_bytes)
            .unwrap();
        assert_eq!(g.write(addr::CODE_DATA, 1), Err(BusError::OutOfRange));
        g.write(addr::MEM_ADDR_HI, 1).unwrap();
        assert_eq!(g.read(addr::MEM_DATA), Err(BusError::OutOfRange));
    }

    #[test]
    fn windows_auto_increment_and_launch_registers_lock_while_busy() {
        let mut g = gpu();
        g.write(addr::MEM_ADDR_LO, 0x100).unwrap();
        for v in [7, 8, 9] {
            g.write(addr::MEM_DATA, v).unwrap();
        }
        g.write(addr::MEM_ADDR_LO, 0x104).unwrap();
        assert_eq!(g.read(addr::MEM_DATA), Ok(8));
        assert_eq!(g.read(addr::MEM_ADDR_LO), Ok(0x108));
        // s_endpgm at 0; a 64-work-item launch.
        g.write(addr::CODE_ADDR, 0).unwrap();
        g.write(addr::CODE_DATA, 0xBF81_0000).unwrap();
        g.write(addr::CTRL, regs::CTRL_DOORBELL).unwrap();
        assert_eq!(g.read(addr::STATUS), Ok(status::BUSY));
        assert_eq!(g.write(addr::GRID, 128), Err(BusError::Busy));
        assert_eq!(g.write(addr::USER_DATA + 60, 1), Err(BusError::Busy));
        assert_eq!(
            g.write(addr::CTRL, regs::CTRL_DOORBELL),
            Err(BusError::Busy)
        );
        g.run(100);
        assert_eq!(g.read(addr::STATUS), Ok(status::DONE));
        assert_eq!(g.read(addr::WF_COUNT), Ok(1));
        assert!(g.read(addr::COUNTERS).unwrap() > 0);
        g.write(addr::CTRL, regs::CTRL_RESET).unwrap();
        assert_eq!(g.read(addr::STATUS), Ok(status::IDLE));
        assert_eq!(g.read(addr::COUNTERS), Ok(0));
        // Reset also abandons a launch that never ends (a branch to itself).
        g.write(addr::CODE_ADDR, 0).unwrap();
        g.write(addr::CODE_DATA, 0xBF82_FFFF).unwrap();
        g.write(addr::CTRL, regs::CTRL_DOORBELL).unwrap();
        g.run(1000);
        assert_eq!(g.read(addr::STATUS), Ok(status::BUSY));
        g.write(addr::CTRL, regs::CTRL_RESET).unwrap();
        assert_eq!(g.read(addr::STATUS), Ok(status::IDLE));
        assert!(g.write(addr::GRID, 128).is_ok());
    }
}
