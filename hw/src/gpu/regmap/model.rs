//! The reference model of the register map block, written from the table of
//! [`crate::gpu::regs`]: [`lookup`] names the register at an offset, [`RegMapModel`] holds
//! the writable registers and answers one access per cycle a cycle later, as the block does.

use super::{
    LaunchOut, RegMapIn, RegMapOut, BANK2, ERR_BUSY, ERR_RANGE, ERR_READ_ONLY, ERR_UNMAPPED,
};
use crate::gpu::regs::{self, addr, status};

/// A register of the map.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reg {
    /// `ID`, `VERSION`, `CODE_SIZE`, `MEM_SIZE_*`: constants or configuration.
    Fixed(u32),
    /// `CTRL`.
    Ctrl,
    /// `STATUS`.
    Status,
    /// `ERROR`, `ERROR_PC`, `ERROR_INFO` (0, 1, 2).
    Error(u8),
    /// `CODE_ADDR`.
    CodeAddr,
    /// `CODE_DATA`.
    CodeData,
    /// `MEM_ADDR` low (false) or high half.
    MemAddr(bool),
    /// `MEM_DATA`.
    MemData,
    /// `CODE_SIZE`.
    CodeSize,
    /// `MEM_SIZE` low (false) or high half.
    MemSize(bool),
    /// A launch register, by word index from `ENTRY_PC` (0..=47).
    Launch(u32),
    /// A counter half: `cnt_idx` and the high half.
    Counter(u8, bool),
    /// `WF_COUNT`.
    WfCount,
    /// `WF_SEL`.
    WfSel,
    /// `WF_START` (false) or `WF_FINISH`.
    WfTime(bool),
}

/// Launch register word indices (from `ENTRY_PC`) that hold a register: 0..=12 (`ENTRY_PC`
/// to `PGM_RSRC2`), 16..=31 (`IDU_CLUSTER`), 32..=47 (`USER_DATA`).
fn launch_mapped(i: u32) -> bool {
    i <= 12 || (16..48).contains(&i)
}

/// The register at byte offset `a`, `None` for an unmapped or unaligned offset.
pub fn lookup(a: u32) -> Option<Reg> {
    if !a.is_multiple_of(4) {
        return None;
    }
    let half = a % 8 == 4;
    Some(match a {
        addr::ID => Reg::Fixed(regs::ID_VALUE),
        addr::VERSION => Reg::Fixed(regs::VERSION),
        addr::CTRL => Reg::Ctrl,
        addr::STATUS => Reg::Status,
        addr::ERROR => Reg::Error(0),
        addr::ERROR_PC => Reg::Error(1),
        addr::ERROR_INFO => Reg::Error(2),
        addr::CODE_ADDR => Reg::CodeAddr,
        addr::CODE_DATA => Reg::CodeData,
        addr::MEM_ADDR_LO => Reg::MemAddr(false),
        addr::MEM_ADDR_HI => Reg::MemAddr(true),
        addr::MEM_DATA => Reg::MemData,
        addr::CODE_SIZE => Reg::CodeSize,
        addr::MEM_SIZE_LO => Reg::MemSize(false),
        addr::MEM_SIZE_HI => Reg::MemSize(true),
        addr::WF_COUNT => Reg::WfCount,
        addr::WF_SEL => Reg::WfSel,
        addr::WF_START => Reg::WfTime(false),
        addr::WF_FINISH => Reg::WfTime(true),
        a if (addr::ENTRY_PC..addr::USER_DATA_END).contains(&a) => {
            let i = (a - addr::ENTRY_PC) / 4;
            return launch_mapped(i).then_some(Reg::Launch(i));
        }
        a if (addr::COUNTERS..addr::COUNTERS + 8 * regs::N_COUNTERS).contains(&a) => {
            Reg::Counter(((a - addr::COUNTERS) / 8) as u8, half)
        }
        a if (addr::COUNTERS2..addr::COUNTERS2 + 8 * regs::N_COUNTERS2).contains(&a) => {
            Reg::Counter(BANK2 + ((a - addr::COUNTERS2) / 8) as u8, half)
        }
        _ => return None,
    })
}

/// What a read returns before the RAM's word: a value, or the word of a window.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Data {
    /// A register's value (0 for a write or an error).
    #[default]
    Zero,
    /// A register's value.
    Value(u32),
    /// The instruction RAM's word.
    Code,
    /// The data RAM's word.
    Mem,
}

/// The response being presented: error kind and data.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Response {
    ack: bool,
    err: Option<u8>,
    data: Data,
}

/// The register map, cycle by cycle.
#[derive(Clone, Debug)]
pub struct RegMapModel {
    /// The 48 launch register words from `ENTRY_PC` (unmapped ones stay 0).
    launch: [u32; 48],
    code_addr: u32,
    mem_addr: u64,
    wf_sel: u32,
    resp: Response,
}

impl Default for RegMapModel {
    fn default() -> Self {
        Self::new()
    }
}

impl RegMapModel {
    /// The map after reset.
    pub fn new() -> Self {
        let d = LaunchOut::default();
        let mut launch = [0; 48];
        for (a, v) in [
            (addr::GRID, d.grid),
            (addr::WG, d.wg),
            (addr::MODE, d.mode),
            (addr::SCHED, d.sched),
        ] {
            launch[((a - addr::ENTRY_PC) / 4) as usize] = v;
        }
        Self {
            launch,
            code_addr: 0,
            mem_addr: 0,
            wf_sel: 0,
            resp: Response::default(),
        }
    }

    /// The outputs in a cycle with inputs `i` (the RAM ports and `doorbell`/`stop` follow
    /// the cycle's access).
    pub fn outputs(&self, i: &RegMapIn) -> RegMapOut {
        let (acc, reg) = (i.rd || i.wr, lookup(i.addr));
        let ok = acc && self.refusal(i, reg).is_none();
        let ctrl = i.wr && reg == Some(Reg::Ctrl) && ok;
        let data = match self.resp.data {
            Data::Zero => 0,
            Data::Value(v) => v,
            Data::Code => i.code_rdata,
            Data::Mem => i.mem_rdata,
        };
        RegMapOut {
            ack: self.resp.ack,
            err: self.resp.err.is_some(),
            err_code: self.resp.err.unwrap_or(0),
            rdata: data,
            doorbell: ctrl && i.wdata & regs::CTRL_DOORBELL != 0,
            stop: i.wr && reg == Some(Reg::Ctrl) && i.wdata & regs::CTRL_RESET != 0,
            code_req: ok && reg == Some(Reg::CodeData),
            code_we: i.wr,
            code_addr: self.code_addr,
            code_wdata: i.wdata,
            mem_req: ok && reg == Some(Reg::MemData),
            mem_we: i.wr,
            mem_addr: self.mem_addr,
            mem_wdata: i.wdata,
            cnt_idx: match reg {
                Some(Reg::Counter(c, _)) => c,
                _ => 0,
            },
            wf_sel: self.wf_sel,
            launch: self.launch_out(),
        }
    }

    /// The launch registers by name.
    fn launch_out(&self) -> LaunchOut {
        let r = |a: u32| self.launch[((a - addr::ENTRY_PC) / 4) as usize];
        let pair = |lo: u32| u64::from(r(lo)) | u64::from(r(lo + 4)) << 32;
        LaunchOut {
            entry_pc: r(addr::ENTRY_PC),
            kernarg: pair(addr::KERNARG_LO),
            grid: r(addr::GRID),
            wg: r(addr::WG),
            lds: r(addr::LDS),
            mode: r(addr::MODE),
            sched: r(addr::SCHED),
            features: r(addr::FEATURES),
            trace_addr: pair(addr::TRACE_ADDR_LO),
            abi: r(addr::ABI) & 1 != 0,
            rsrc2: r(addr::PGM_RSRC2),
            user: std::array::from_fn(|k| r(addr::USER_DATA + 4 * k as u32)),
            idu_ctl: std::array::from_fn(|k| r(addr::IDU_CLUSTER + 8 * k as u32) as u16),
            idu_ps: std::array::from_fn(|k| r(addr::IDU_CLUSTER + 8 * k as u32 + 4)),
        }
    }

    /// Why the access of `i` at register `reg` is refused, if it is.
    fn refusal(&self, i: &RegMapIn, reg: Option<Reg>) -> Option<u8> {
        let busy = u32::from(i.status) == status::BUSY;
        let launch_range = (addr::ENTRY_PC..addr::USER_DATA_END).contains(&i.addr);
        if i.wr && launch_range && busy {
            return Some(ERR_BUSY);
        }
        let Some(reg) = reg else {
            return Some(ERR_UNMAPPED);
        };
        match reg {
            Reg::Ctrl if !i.wr => Some(ERR_READ_ONLY),
            Reg::Ctrl => {
                let bell = i.wdata & (regs::CTRL_DOORBELL | regs::CTRL_RESET);
                (bell == regs::CTRL_DOORBELL && busy).then_some(ERR_BUSY)
            }
            Reg::CodeData => (self.code_addr / 4 >= i.code_bytes / 4).then_some(ERR_RANGE),
            Reg::MemData => {
                let bad = !self.mem_addr.is_multiple_of(4) || self.mem_addr / 4 >= i.mem_bytes / 4;
                bad.then_some(ERR_RANGE)
            }
            Reg::CodeAddr | Reg::MemAddr(_) | Reg::Launch(_) | Reg::WfSel => None,
            _ if i.wr => Some(ERR_READ_ONLY),
            _ => None,
        }
    }

    /// The value a read of `reg` returns.
    fn value(&self, i: &RegMapIn, reg: Reg) -> Data {
        let error = u32::from(i.status) == status::ERROR;
        let half = |v: u64, hi: bool| if hi { (v >> 32) as u32 } else { v as u32 };
        Data::Value(match reg {
            Reg::Fixed(v) => v,
            Reg::Status => u32::from(i.status),
            Reg::Error(k) if error => [i.error, i.error_pc, i.error_info][usize::from(k)],
            Reg::Error(_) => 0,
            Reg::CodeAddr => self.code_addr,
            Reg::MemAddr(hi) => half(self.mem_addr, hi),
            Reg::CodeSize => i.code_bytes,
            Reg::MemSize(hi) => half(i.mem_bytes, hi),
            Reg::Launch(k) => self.launch[k as usize],
            Reg::Counter(_, hi) => half(i.counter, hi),
            Reg::WfCount => i.wf_count,
            Reg::WfSel => self.wf_sel,
            Reg::WfTime(finish) => [i.wf_start, i.wf_finish][usize::from(finish)],
            Reg::CodeData => return Data::Code,
            Reg::MemData => return Data::Mem,
            Reg::Ctrl => 0,
        })
    }

    /// A write of `v` to `reg` (not refused).
    fn write(&mut self, reg: Reg, v: u32) {
        let set_half = |old: u64, hi: bool| match hi {
            true => old & 0xFFFF_FFFF | u64::from(v) << 32,
            false => old & !0xFFFF_FFFF | u64::from(v),
        };
        match reg {
            Reg::CodeAddr => self.code_addr = v,
            Reg::MemAddr(hi) => self.mem_addr = set_half(self.mem_addr, hi),
            Reg::WfSel => self.wf_sel = v,
            Reg::Launch(k) => self.launch[k as usize] = v & launch_mask(k),
            _ => {}
        }
    }

    /// The edge that ends a cycle with inputs `i`.
    pub fn clock(&mut self, i: &RegMapIn) {
        if i.reset {
            *self = Self::new();
            return;
        }
        self.resp = Response::default();
        if !(i.rd || i.wr) {
            return;
        }
        let reg = lookup(i.addr);
        self.resp.ack = true;
        if let Some(e) = self.refusal(i, reg) {
            self.resp.err = Some(e);
            return;
        }
        let reg = reg.expect("a register that is not refused is mapped");
        match reg {
            Reg::CodeData => self.code_addr = self.code_addr.wrapping_add(4),
            Reg::MemData => self.mem_addr = self.mem_addr.wrapping_add(4),
            _ => {}
        }
        match i.wr {
            true => self.write(reg, i.wdata),
            false => self.resp.data = self.value(i, reg),
        }
    }
}

/// The bits launch register word `k` keeps: `ABI` bit 0, `IDU_CLUSTER[k]` +0 bits 8:0.
pub fn launch_mask(k: u32) -> u32 {
    let a = addr::ENTRY_PC + 4 * k;
    match a {
        addr::ABI => 1,
        a if (addr::IDU_CLUSTER..addr::IDU_CLUSTER_END).contains(&a) && a % 8 == 0 => 0x1FF,
        _ => u32::MAX,
    }
}

#[cfg(test)]
mod tests;
