//! The GPU top: N compute units ([`crate::cu`], one by default) behind a 32-bit MMIO
//! register map ([`regs`]): code/data windows, launch registers, doorbell, the hardware queue
//! of sub-kernels ([`queue`]), status and counters.
//!
//! The compute units share the instruction memory (a code write goes to all) and the data
//! memory (it lives in compute unit 0 and is lent to each other compute unit for its cycle;
//! docs/assumptions.md#A79). Each has its own fixed-latency memory port, or its own memory
//! hierarchy with `memory.hierarchy`. Every cycle the queue starts what may start, then the
//! compute units step in index order, then the queue completes what finished. With one
//! compute unit and no queued work the GPU is exactly the compute unit of before (its run of
//! cycles, including the skipping of quiet cycles).

mod mmio;
pub mod queue;
pub mod regmap;
pub mod regs;

use crate::cu::memory::Memory;
use crate::cu::{Abi, ComputeUnit, CuConfig, IduLaunch, Launch, Mode, Status};
use crate::sched::model::Policy;
use crate::simd::Exec;
use queue::{Done, HwQueue, MAX_CUS};
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
    /// `WG_FIRST`: the sub-kernel's first work-group.
    wg_first: u32,
    /// `WG_COUNT`: its work-groups (0: to the end of the grid).
    wg_count: u32,
    /// `CU_MASK`: its compute units (0: all).
    cu_mask: u32,
}

/// The GPU: its compute units, the hardware queue and the register block.
pub struct Gpu {
    cus: Vec<ComputeUnit>,
    queue: HwQueue,
    regs: LaunchRegs,
    code_addr: u32,
    mem_addr: u64,
    wf_sel: u32,
    /// `CU_SEL`: the compute unit whose counters and wavefront times the registers show.
    cu_sel: usize,
    /// The last completion `DONE_POP` returned.
    popped: Done,
    /// The running launch came from the doorbell (its registers are locked).
    doorbell: bool,
}

impl Gpu {
    /// A GPU with one compute unit of this configuration.
    pub fn new(cfg: CuConfig) -> Result<Self, String> {
        Self::with_cus(cfg, 1)
    }

    /// A GPU with `n` (1..=32) compute units of this configuration.
    pub fn with_cus(cfg: CuConfig, n: usize) -> Result<Self, String> {
        if !(1..=MAX_CUS).contains(&n) {
            return Err(format!("compute units = {n} is outside 1..={MAX_CUS}"));
        }
        let mut cus = vec![ComputeUnit::new(cfg)?];
        for _ in 1..n {
            let mut cu = ComputeUnit::new(cfg)?;
            // (The data memory is compute unit 0's; see `on_cu`.)
            cu.mem = Memory::new(0);
            cus.push(cu);
        }
        Ok(Self {
            cus,
            queue: HwQueue::default(),
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
            cu_sel: 0,
            popped: Done::default(),
            doorbell: false,
        })
    }

    /// Compute unit 0 (for waveforms and probes; software uses the registers).
    pub fn cu(&self) -> &ComputeUnit {
        &self.cus[0]
    }

    /// Compute unit 0, to set up recording (software uses the registers).
    pub fn cu_mut(&mut self) -> &mut ComputeUnit {
        &mut self.cus[0]
    }

    /// Every compute unit.
    pub fn cus(&self) -> &[ComputeUnit] {
        &self.cus
    }

    /// The shared data memory.
    pub fn mem(&self) -> &Memory {
        &self.cus[0].mem
    }

    /// Cycles since power-up.
    pub fn now(&self) -> u64 {
        self.cus[0].now()
    }

    /// Runs `n` core clock cycles.
    pub fn run(&mut self, n: u64) {
        if self.single() {
            return self.cus[0].run(n);
        }
        for _ in 0..n {
            self.cycle();
        }
    }

    /// Runs one core clock cycle.
    pub fn step(&mut self) {
        if self.single() {
            return self.cus[0].step();
        }
        self.cycle();
    }

    /// One compute unit and nothing queued: the compute unit runs alone.
    fn single(&self) -> bool {
        self.cus.len() == 1 && self.queue.idle()
    }

    /// A cycle of the whole GPU: queued starts, every compute unit, completions.
    fn cycle(&mut self) {
        if self.failed_mask() == 0 {
            let now = self.now();
            for e in self.queue.start(self.busy_mask(), now) {
                self.start_parts(&e.launch, &queue::parts(&e));
            }
        }
        for j in 0..self.cus.len() {
            self.on_cu(j, ComputeUnit::step);
        }
        let (busy, failed, now) = (self.busy_mask(), self.failed_mask(), self.now());
        self.queue.complete(busy, failed, now);
    }

    /// Starts each compute unit's part of a launch.
    fn start_parts(&mut self, l: &Launch, parts: &[(usize, crate::cu::WgPart)]) {
        for &(cu, part) in parts {
            self.on_cu(cu, |c| c.launch_part(*l, part));
        }
    }

    /// Runs `f` on compute unit `j` with the shared data memory lent to it.
    fn on_cu(&mut self, j: usize, f: impl FnOnce(&mut ComputeUnit)) {
        if j == 0 {
            return f(&mut self.cus[0]);
        }
        let (home, rest) = self.cus.split_at_mut(1);
        let cu = &mut rest[j - 1];
        std::mem::swap(&mut home[0].mem, &mut cu.mem);
        f(cu);
        std::mem::swap(&mut home[0].mem, &mut cu.mem);
    }

    /// Bit i: compute unit i is running a launch.
    pub fn busy_mask(&self) -> u32 {
        self.mask_of(|s| s == Status::Busy)
    }

    /// Bit i: compute unit i stopped with an error.
    fn failed_mask(&self) -> u32 {
        self.mask_of(|s| matches!(s, Status::Error(_)))
    }

    fn mask_of(&self, f: impl Fn(Status) -> bool) -> u32 {
        (0..self.cus.len())
            .filter(|&i| f(self.cus[i].status()))
            .fold(0, |m, i| m | 1 << i)
    }

    /// The GPU's run state: an error of any compute unit, else busy while any runs or the
    /// queue holds work, else done once any has run (exactly the compute unit's state with
    /// one compute unit and no queue).
    fn status(&self) -> Status {
        let st = || self.cus.iter().map(ComputeUnit::status);
        if let Some(e) = st().find(|s| matches!(s, Status::Error(_))) {
            return e;
        }
        if st().any(|s| s == Status::Busy) || !self.queue.idle() {
            return Status::Busy;
        }
        match st().any(|s| s == Status::Done) {
            true => Status::Done,
            false => Status::Idle,
        }
    }

    /// The first compute unit in an error state (0 if none).
    fn error_cu(&self) -> usize {
        let failed = self.failed_mask();
        if failed == 0 {
            0
        } else {
            failed.trailing_zeros() as usize
        }
    }

    fn busy(&self) -> bool {
        self.status() == Status::Busy
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
            assert_eq!(one.mem().words(), burst.mem().words(), "{at:#x}+{n}");
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
