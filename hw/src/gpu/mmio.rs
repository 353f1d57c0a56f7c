//! The GPU's MMIO registers: reads, writes, bursts, the doorbell and the enqueue, and the
//! launch the registers describe ([`super::regs`] has the map).

use super::*;

impl Gpu {
    /// An MMIO read.
    pub fn read(&mut self, a: u32) -> Result<u32, BusError> {
        if let Some(v) = self.read_multi(a) {
            return Ok(v);
        }
        let cfg = *self.cus[0].config();
        let c = self.cus[self.cu_sel].counters();
        Ok(match a {
            addr::ID => regs::ID_VALUE,
            addr::VERSION => regs::VERSION,
            addr::STATUS => self.status_code(),
            addr::ERROR | addr::ERROR_PC | addr::ERROR_INFO => self.error_reg(a),
            addr::CODE_ADDR => self.code_addr,
            addr::CODE_DATA => {
                let v = *self.cus[0]
                    .code
                    .get((self.code_addr / 4) as usize)
                    .ok_or(BusError::OutOfRange)?;
                self.code_addr = self.code_addr.wrapping_add(4);
                v
            }
            addr::MEM_ADDR_LO => self.mem_addr as u32,
            addr::MEM_ADDR_HI => (self.mem_addr >> 32) as u32,
            addr::MEM_DATA => {
                let v = self.cus[0]
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
        match self.status() {
            Status::Idle => status::IDLE,
            Status::Busy => status::BUSY,
            Status::Done => status::DONE,
            Status::Error(_) => status::ERROR,
        }
    }

    fn error_reg(&self, a: u32) -> u32 {
        match self.cus[self.error_cu()].status() {
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
            .then(|| self.cus[0].mem.span(self.mem_addr, out.len()))
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
            .then(|| self.cus[0].mem.span_mut(self.mem_addr, words.len()))
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
        if launch_reg && self.doorbell && self.busy() {
            return Err(BusError::Busy);
        }
        match a {
            addr::CTRL => self.ctrl(v)?,
            addr::CODE_ADDR => self.code_addr = v,
            addr::CODE_DATA => {
                // (Every compute unit holds the same code.)
                let i = (self.code_addr / 4) as usize;
                for cu in &mut self.cus {
                    *cu.code.get_mut(i).ok_or(BusError::OutOfRange)? = v;
                }
                self.code_addr = self.code_addr.wrapping_add(4);
            }
            addr::MEM_ADDR_LO => self.mem_addr = self.mem_addr & !0xFFFF_FFFF | u64::from(v),
            addr::MEM_ADDR_HI => self.mem_addr = self.mem_addr & 0xFFFF_FFFF | u64::from(v) << 32,
            addr::MEM_DATA => {
                self.cus[0]
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
            addr::WG_FIRST => self.regs.wg_first = v,
            addr::WG_COUNT => self.regs.wg_count = v,
            addr::CU_MASK => self.regs.cu_mask = v,
            addr::CU_SEL if (v as usize) < self.cus.len() => self.cu_sel = v as usize,
            addr::CU_SEL => return Err(BusError::OutOfRange),
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
        ) || regs::MULTI_READ_ONLY.contains(&a)
            || ((addr::COUNTERS..addr::COUNTERS + 8 * regs::N_COUNTERS).contains(&a)
                || (addr::COUNTERS2..addr::COUNTERS2 + 8 * regs::N_COUNTERS2).contains(&a))
                && a.is_multiple_of(4)
    }

    fn ctrl(&mut self, v: u32) -> Result<(), BusError> {
        if v & regs::CTRL_RESET != 0 {
            self.cus.iter_mut().for_each(ComputeUnit::abort);
            self.queue = HwQueue::default();
            self.doorbell = false;
        }
        if v & regs::CTRL_DOORBELL != 0 {
            if self.busy() {
                return Err(BusError::Busy);
            }
            let e = self.entry();
            self.start_parts(&e.launch, &queue::parts(&e));
            self.doorbell = true;
        }
        if v & regs::CTRL_ENQUEUE != 0 {
            if self.doorbell && self.busy() {
                return Err(BusError::Busy);
            }
            self.doorbell = false;
            self.queue.push(self.entry()).ok_or(BusError::Busy)?;
        }
        Ok(())
    }

    /// The sub-kernel the launch registers describe: `WG_COUNT` 0 is the rest of the grid,
    /// `CU_MASK` 0 (or only absent compute units) every compute unit. A sub-kernel without
    /// work-groups keeps one, so that the compute unit refuses it as bad_launch.
    fn entry(&self) -> queue::Entry {
        let r = &self.regs;
        let groups = r.grid.checked_div(r.wg).unwrap_or(0);
        let count = match r.wg_count {
            0 => groups.saturating_sub(r.wg_first),
            n => n,
        };
        let all = u32::MAX >> (32 - self.cus.len());
        let mask = match r.cu_mask & all {
            0 => all,
            m => m,
        };
        queue::Entry {
            tag: 0,
            launch: self.launch(),
            first: r.wg_first,
            count: count.max(1),
            mask,
        }
    }

    /// The registers of the compute units and the queue (`None`: not one of them).
    fn read_multi(&mut self, a: u32) -> Option<u32> {
        let hi = |v: u64| (v >> 32) as u32;
        Some(match a {
            addr::WG_FIRST => self.regs.wg_first,
            addr::WG_COUNT => self.regs.wg_count,
            addr::CU_MASK => self.regs.cu_mask,
            addr::N_CU => self.cus.len() as u32,
            addr::CU_SEL => self.cu_sel as u32,
            addr::CU_BUSY => self.busy_mask(),
            addr::QUEUE_LEN => self.queue.waiting() as u32,
            addr::QUEUE_TAIL => self.queue.next_tag(),
            addr::DONE_COUNT => self.queue.done_len() as u32,
            addr::DONE_POP => match self.queue.pop_done() {
                Some(d) => {
                    self.popped = d;
                    d.tag
                }
                None => regs::DONE_NONE,
            },
            addr::DONE_FAILED => u32::from(self.popped.failed),
            addr::DONE_START_LO => self.popped.start as u32,
            addr::DONE_START_HI => hi(self.popped.start),
            addr::DONE_END_LO => self.popped.end as u32,
            addr::DONE_END_HI => hi(self.popped.end),
            addr::NOW_LO => self.now() as u32,
            addr::NOW_HI => hi(self.now()),
            addr::ERROR_CU => self.error_cu() as u32,
            _ => return None,
        })
    }

    /// The launch the registers describe (an unknown mode code or S outside 1..=7 makes
    /// the compute unit refuse it as bad_launch).
    pub(super) fn launch(&self) -> Launch {
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
            exec: match (
                r.features & regs::FEATURE_SIMD != 0,
                r.features & regs::FEATURE_SIMD_FREE != 0,
            ) {
                (false, _) => Exec::Gcn,
                (true, false) => Exec::Simd,
                (true, true) => Exec::SimdFree,
            },
        }
    }
}
