//! The memory port of the compute unit: data memory, LDS, and the FLAT/SMEM/DS instructions.
//! Accesses happen at issue (stores write, loads read); a load's registers are written when it
//! completes, a fixed latency later (docs/assumptions.md#A30; the memory hierarchy is a later
//! block).

use super::regfile::{lanes, BadOperand, Sregs, Vrf};
use crate::isa::insn_model::{format, InsnFields};

/// A data memory or LDS access the kernel may not make.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fault {
    /// Data memory: unaligned, or past the end.
    Memory(u64),
    /// LDS: unaligned, or at or past the work-group's LDS size.
    Lds(u32),
    /// An operand code the instruction may not use.
    Operand(u16),
}

impl From<BadOperand> for Fault {
    fn from(b: BadOperand) -> Self {
        Fault::Operand(b.0)
    }
}

/// Flat data memory: dword i holds bytes 4i..4i+3.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Memory(Vec<u32>);

impl Memory {
    /// `bytes` bytes of zero (a multiple of 4).
    pub fn new(bytes: u64) -> Self {
        Self(vec![0; (bytes / 4) as usize])
    }

    /// Size in bytes.
    pub fn bytes(&self) -> u64 {
        self.0.len() as u64 * 4
    }

    fn index(&self, addr: u64) -> Result<usize, Fault> {
        let i = addr / 4;
        if !addr.is_multiple_of(4) || i >= self.0.len() as u64 {
            return Err(Fault::Memory(addr));
        }
        Ok(i as usize)
    }

    /// The dword at byte address `addr`.
    pub fn read(&self, addr: u64) -> Result<u32, Fault> {
        Ok(self.0[self.index(addr)?])
    }

    /// Writes the dword at byte address `addr`.
    pub fn write(&mut self, addr: u64, v: u32) -> Result<(), Fault> {
        let i = self.index(addr)?;
        self.0[i] = v;
        Ok(())
    }

    /// The `n` dwords from byte address `addr`, when all of them are in memory.
    pub fn span(&self, addr: u64, n: usize) -> Option<&[u32]> {
        let i = self.span_start(addr, n)?;
        Some(&self.0[i..i + n])
    }

    /// [`Memory::span`], writable.
    pub fn span_mut(&mut self, addr: u64, n: usize) -> Option<&mut [u32]> {
        let i = self.span_start(addr, n)?;
        Some(&mut self.0[i..i + n])
    }

    fn span_start(&self, addr: u64, n: usize) -> Option<usize> {
        let i = self.index(addr).ok()?;
        (n <= self.0.len() - i).then_some(i)
    }

    /// All of memory as dwords.
    pub fn words(&self) -> &[u32] {
        &self.0
    }

    /// All of memory as dwords, writable (Sim-D tile transfers).
    pub fn words_mut(&mut self) -> &mut [u32] {
        &mut self.0
    }
}

/// Which counter a memory instruction counts in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Counter {
    /// vmcnt (FLAT).
    Vm,
    /// lgkmcnt (SMEM, LDS).
    Lgkm,
}

/// Registers a load writes when it completes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Writeback {
    /// VGPRs `reg..reg+n` of these lanes.
    Vgpr {
        /// First VGPR.
        reg: usize,
        /// Per lane: the lane and its dwords (the first `n`).
        data: Vec<(usize, [u32; 4])>,
        /// Dwords per lane.
        n: usize,
    },
    /// SGPRs `first..first+n`.
    Sgpr {
        /// First SGPR code.
        first: u16,
        /// The dwords (the first `n`).
        data: [u32; 4],
        /// Dwords.
        n: usize,
    },
}

impl Writeback {
    /// Gives a vector load's data buffer back to the pool it came from.
    pub fn recycle(self, spare: &mut Vec<Loaded>) {
        if let Writeback::Vgpr { data, .. } = self {
            spare.push(data);
        }
    }

    /// Writes the loaded registers.
    pub fn apply(&self, r: &mut Sregs, v: &mut Vrf) -> Result<(), BadOperand> {
        match self {
            Writeback::Vgpr { reg, data, n } => {
                for (lane, d) in data {
                    for (k, &x) in d.iter().take(*n).enumerate() {
                        v.set(reg + k, *lane, x);
                    }
                }
            }
            Writeback::Sgpr { first, data, n } => {
                for (k, &x) in data.iter().take(*n).enumerate() {
                    r.write(first + k as u16, x)?;
                }
            }
        }
        Ok(())
    }
}

/// What a memory instruction leaves behind at issue.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Access {
    /// The counter it increments until it completes.
    pub counter: Counter,
    /// The registers to write at completion (loads).
    pub writeback: Option<Writeback>,
}

/// Dwords moved by a FLAT or SMEM opcode.
pub fn dwords(f: &InsnFields) -> usize {
    match (f.format, f.opcode) {
        (format::SMEM, 0x01) | (format::FLAT, 0x15 | 0x1D) => 2,
        (format::SMEM, 0x02) | (format::FLAT, 0x17 | 0x1F) => 4,
        _ => 1,
    }
}

/// Lane `lane`'s 64-bit address of FLAT instruction `f` (its VGPR pair).
fn lane_address(f: &InsnFields, v: &Vrf, lane: usize) -> u64 {
    let addr = usize::from(f.src0);
    u64::from(v.get(addr, lane)) | u64::from(v.get(addr + 1, lane)) << 32
}

/// The byte addresses of FLAT instruction `f`, one per lane of `eff`, with their lanes.
pub fn flat_addresses<'a>(
    f: &'a InsnFields,
    v: &'a Vrf,
    eff: u64,
) -> impl Iterator<Item = (usize, u64)> + 'a {
    lanes(eff).map(move |lane| (lane, lane_address(f, v, lane)))
}

/// Everything a memory instruction touches.
pub struct Port<'a> {
    /// Data memory.
    pub mem: &'a mut Memory,
    /// The work-group's LDS.
    pub lds: &'a mut [u32],
    /// The context's scalar state.
    pub r: &'a Sregs,
    /// The wavefront's VRF.
    pub v: &'a Vrf,
    /// The lanes that take part.
    pub eff: u64,
    /// Spare buffers for loaded data (taken here, given back by [`Writeback::recycle`]), so
    /// that a memory instruction allocates nothing once the pool has grown to the number of
    /// loads in flight.
    pub spare: &'a mut Vec<Loaded>,
}

/// The per-lane data of a vector load: (lane, dwords).
pub type Loaded = Vec<(usize, [u32; 4])>;

impl Port<'_> {
    /// An empty buffer for a load's data, from the pool.
    fn take_buffer(&mut self) -> Loaded {
        let mut b = self.spare.pop().unwrap_or_default();
        b.clear();
        b
    }

    /// The VGPR write-back of `n` dwords per lane into `f`'s destination; with `n` = 0 (a
    /// store) none, and the buffer goes back to the pool.
    fn writeback(&mut self, f: &InsnFields, data: Loaded, n: usize) -> Option<Writeback> {
        if n == 0 {
            self.spare.push(data);
            return None;
        }
        Some(Writeback::Vgpr {
            reg: usize::from(f.dst),
            data,
            n,
        })
    }

    /// Carries out a FLAT, SMEM or DS instruction.
    pub fn execute(&mut self, f: &InsnFields) -> Result<Access, Fault> {
        match f.format {
            format::FLAT => self.flat(f),
            format::SMEM => self.smem(f),
            _ => self.ds(f),
        }
    }

    fn flat(&mut self, f: &InsnFields) -> Result<Access, Fault> {
        let n = dwords(f);
        let data = usize::from(f.src1);
        let mut loaded = self.take_buffer();
        for lane in lanes(self.eff) {
            let base = lane_address(f, self.v, lane);
            let mut d = [0u32; 4];
            for (k, slot) in d.iter_mut().enumerate().take(n) {
                let a = base.wrapping_add(4 * k as u64);
                if f.opcode >= 0x1C {
                    self.mem.write(a, self.v.get(data + k, lane))?;
                } else {
                    *slot = self.mem.read(a)?;
                }
            }
            loaded.push((lane, d));
        }
        let writeback = self.writeback(f, loaded, if f.opcode < 0x1C { n } else { 0 });
        Ok(Access {
            counter: Counter::Vm,
            writeback,
        })
    }

    fn smem(&mut self, f: &InsnFields) -> Result<Access, Fault> {
        let n = dwords(f);
        let base = self.r.read64(f.src0 * 2, 0)?;
        let offset = if f.imm_offset {
            u64::from(f.imm)
        } else {
            u64::from(self.r.read(f.imm as u16 & 0xFF, 0)?)
        };
        let addr = base.wrapping_add(offset);
        let first = u16::from(f.dst);
        if f.opcode == 0x10 {
            self.mem.write(addr, self.r.read(first, 0)?)?;
            return Ok(Access {
                counter: Counter::Lgkm,
                writeback: None,
            });
        }
        let mut data = [0u32; 4];
        for (k, slot) in data.iter_mut().enumerate().take(n) {
            *slot = self.mem.read(addr.wrapping_add(4 * k as u64))?;
        }
        Ok(Access {
            counter: Counter::Lgkm,
            writeback: Some(Writeback::Sgpr { first, data, n }),
        })
    }

    fn lds_index(&self, addr: u32) -> Result<usize, Fault> {
        let i = (addr / 4) as usize;
        if !addr.is_multiple_of(4) || i >= self.lds.len() {
            return Err(Fault::Lds(addr));
        }
        Ok(i)
    }

    fn ds(&mut self, f: &InsnFields) -> Result<Access, Fault> {
        let (off0, off1) = (f.imm & 0xFF, (f.imm >> 8) & 0xFF);
        let (addr, d0, d1) = (
            usize::from(f.src0),
            usize::from(f.src1),
            usize::from(f.src2),
        );
        let mut loaded = self.take_buffer();
        for lane in lanes(self.eff) {
            let a = self.v.get(addr, lane);
            let mut d = [0u32; 4];
            match f.opcode {
                0x36 => d[0] = self.lds[self.lds_index(a.wrapping_add(f.imm & 0xFFFF))?],
                0x37 => {
                    d[0] = self.lds[self.lds_index(a.wrapping_add(off0 * 4))?];
                    d[1] = self.lds[self.lds_index(a.wrapping_add(off1 * 4))?];
                }
                0x0D => {
                    let i = self.lds_index(a.wrapping_add(f.imm & 0xFFFF))?;
                    self.lds[i] = self.v.get(d0, lane);
                }
                0x0E => {
                    let i = self.lds_index(a.wrapping_add(off0 * 4))?;
                    self.lds[i] = self.v.get(d0, lane);
                    let j = self.lds_index(a.wrapping_add(off1 * 4))?;
                    self.lds[j] = self.v.get(d1, lane);
                }
                _ => {
                    let i = self.lds_index(a.wrapping_add(f.imm & 0xFFFF))?;
                    self.lds[i] = self.lds[i].wrapping_add(self.v.get(d0, lane));
                }
            }
            loaded.push((lane, d));
        }
        let n = match f.opcode {
            0x36 => 1,
            0x37 => 2,
            _ => 0,
        };
        Ok(Access {
            counter: Counter::Lgkm,
            writeback: self.writeback(f, loaded, n),
        })
    }
}
