//! Memory instructions: SMEM (scalar loads/stores), FLAT (per-lane 64-bit addresses into
//! data memory) and DS (the work-group's LDS). Every address of an instruction is checked
//! before any register or memory is written, so a faulting instruction changes nothing.

use super::error::Trap;
use super::wave::{lanes, vreg, Wave};
use crate::isa::{Instruction, Op, Sig};

/// The memories an instruction can reach.
pub(crate) struct Memories<'a> {
    /// Data memory, dword i = bytes 4i..4i+3.
    pub mem: &'a mut [u32],
    /// The work-group's LDS, dword granular.
    pub lds: &'a mut [u32],
    /// LDS size in bytes (accesses at or past it fault).
    pub lds_bytes: u32,
}

impl Memories<'_> {
    /// The dword index of an `n`-dword access at byte address `addr`.
    fn index(&self, addr: u64, n: u64) -> Result<usize, Trap> {
        let end = addr.checked_add(4 * n).ok_or(Trap::Memory(addr))?;
        if !addr.is_multiple_of(4) || end > 4 * self.mem.len() as u64 {
            return Err(Trap::Memory(addr));
        }
        Ok((addr / 4) as usize)
    }

    /// The dword index of an LDS access at byte address `addr`.
    fn lds_index(&self, addr: u64) -> Result<usize, Trap> {
        if !addr.is_multiple_of(4) || addr + 4 > u64::from(self.lds_bytes) {
            return Err(Trap::Lds(addr as u32));
        }
        Ok((addr / 4) as usize)
    }
}

/// Executes a memory instruction.
pub(crate) fn exec(w: &mut Wave, i: &Instruction, m: &mut Memories) -> Result<(), Trap> {
    match i.op.info().sig {
        Sig::Smem(n) => smem(w, i, m, n),
        Sig::FlatLoad(n) => flat_load(w, i, m, n),
        Sig::FlatStore(n) => flat_store(w, i, m, n),
        _ => ds(w, i, m),
    }
}

/// SMEM: address = `sbase` pair + (20-bit byte offset `imm`, or the `soffset` SGPR).
fn smem(w: &mut Wave, i: &Instruction, m: &mut Memories, n: u8) -> Result<(), Trap> {
    let base = w.read64(i.src[0].ok_or(Trap::Illegal)?)?;
    let offset = match i.src[1] {
        Some(reg) => u64::from(w.read(reg)?),
        None => u64::from(i.imm & 0xf_ffff),
    };
    let addr = base.wrapping_add(offset);
    let at = m.index(addr, u64::from(n))?;
    let dst = i.dst.ok_or(Trap::Illegal)?;
    let first = dst.code() as u8;
    if i.op == Op::SStoreDword {
        m.mem[at] = w.read(dst)?;
        return Ok(());
    }
    for k in 0..n as usize {
        w.s[(first as usize + k) % w.s.len()] = m.mem[at + k];
    }
    Ok(())
}

/// Each active lane's FLAT byte address (the VGPR pair `src[0]`), lowest lane first.
pub(crate) fn flat_lane_addresses(w: &Wave, i: &Instruction) -> Result<Vec<(usize, u64)>, Trap> {
    let a = vreg(i.src[0])?;
    Ok(lanes(w.exec())
        .map(|l| {
            (
                l,
                u64::from(w.vgpr(a, l)) | u64::from(w.vgpr(a + 1, l)) << 32,
            )
        })
        .collect())
}

/// The dword index of each active lane's FLAT access of `n` dwords (all checked first).
fn flat_addresses(
    w: &Wave,
    i: &Instruction,
    m: &Memories,
    n: u8,
) -> Result<Vec<(usize, usize)>, Trap> {
    flat_lane_addresses(w, i)?
        .into_iter()
        .map(|(l, addr)| m.index(addr, u64::from(n)).map(|at| (l, at)))
        .collect()
}

fn flat_load(w: &mut Wave, i: &Instruction, m: &mut Memories, n: u8) -> Result<(), Trap> {
    let d = vreg(i.dst)?;
    for (l, at) in flat_addresses(w, i, m, n)? {
        for k in 0..n as usize {
            w.set_vgpr(d + k as u32, l, m.mem[at + k]);
        }
    }
    Ok(())
}

fn flat_store(w: &mut Wave, i: &Instruction, m: &mut Memories, n: u8) -> Result<(), Trap> {
    let data = vreg(i.src[1])?;
    for (l, at) in flat_addresses(w, i, m, n)? {
        for k in 0..n as usize {
            m.mem[at + k] = w.vgpr(data + k as u32, l);
        }
    }
    Ok(())
}

/// The LDS dword indices of each active lane's access: `ds_*2_b32` use `offset0 * 4` and
/// `offset1 * 4`, the others the 16-bit offset.
fn ds_addresses(w: &Wave, i: &Instruction, m: &Memories) -> Result<Vec<(usize, [usize; 2])>, Trap> {
    let a = vreg(i.src[0])?;
    let two = matches!(i.op, Op::DsRead2B32 | Op::DsWrite2B32);
    let offsets = if two {
        [
            4 * u64::from(i.imm & 0xff),
            4 * u64::from(i.imm >> 8 & 0xff),
        ]
    } else {
        [u64::from(i.imm & 0xffff); 2]
    };
    lanes(w.exec())
        .map(|l| {
            let base = u64::from(w.vgpr(a, l));
            Ok((
                l,
                [
                    m.lds_index(base + offsets[0])?,
                    m.lds_index(base + offsets[1])?,
                ],
            ))
        })
        .collect()
}

fn ds(w: &mut Wave, i: &Instruction, m: &mut Memories) -> Result<(), Trap> {
    if i.mods.gds {
        return Err(Trap::Illegal);
    }
    let at = ds_addresses(w, i, m)?;
    let reg = |k: usize| vreg(i.src[k]);
    for (l, [x, y]) in at {
        match i.op {
            Op::DsReadB32 => w.set_vgpr(vreg(i.dst)?, l, m.lds[x]),
            Op::DsRead2B32 => {
                let d = vreg(i.dst)?;
                w.set_vgpr(d, l, m.lds[x]);
                w.set_vgpr(d + 1, l, m.lds[y]);
            }
            Op::DsWriteB32 => m.lds[x] = w.vgpr(reg(1)?, l),
            Op::DsWrite2B32 => {
                m.lds[x] = w.vgpr(reg(1)?, l);
                m.lds[y] = w.vgpr(reg(2)?, l);
            }
            Op::DsAddU32 => m.lds[x] = m.lds[x].wrapping_add(w.vgpr(reg(1)?, l)),
            _ => return Err(Trap::Illegal),
        }
    }
    Ok(())
}
