//! Scalar ALU: SOP2, SOPK, SOP1 (except the PC instructions, see `control`) and SOPC, with
//! SCC as GCN3 defines it for each opcode.

use super::error::Trap;
use super::wave::{Wave, EXEC};
use crate::isa::{Instruction, Op, Operand};

/// Executes a scalar ALU instruction that does not change the PC.
pub(crate) fn exec(w: &mut Wave, i: &Instruction) -> Result<(), Trap> {
    use Op::*;
    match i.op {
        SAddU32 | SSubU32 | SAddI32 | SSubI32 | SAddcU32 | SSubbU32 | SMinI32 | SMinU32
        | SMaxI32 | SMaxU32 | SCselectB32 | SAndB32 | SOrB32 | SXorB32 | SAndn2B32 | SOrn2B32
        | SLshlB32 | SLshrB32 | SAshrI32 | SMulI32 | SBfeU32 => sop2_32(w, i),
        SCselectB64 | SAndB64 | SOrB64 | SXorB64 | SAndn2B64 | SOrn2B64 | SLshlB64 | SLshrB64
        | SAshrI64 => sop2_64(w, i),
        SMovkI32 | SCmpkEqI32 | SCmpkLgI32 | SCmpkGtI32 | SCmpkGeI32 | SCmpkLtI32 | SCmpkLeI32
        | SCmpkEqU32 | SCmpkLgU32 | SCmpkGtU32 | SCmpkGeU32 | SCmpkLtU32 | SCmpkLeU32
        | SAddkI32 | SMulkI32 => sopk(w, i),
        SMovB32 | SNotB32 => sop1_32(w, i),
        SMovB64 | SNotB64 => sop1_64(w, i),
        SAndSaveexecB64 | SOrSaveexecB64 | SXorSaveexecB64 => saveexec(w, i),
        _ => sopc(w, i),
    }
}

fn src(w: &Wave, i: &Instruction, k: usize) -> Result<u32, Trap> {
    w.read(i.src[k].ok_or(Trap::Illegal)?)
}

fn src64(w: &Wave, i: &Instruction, k: usize) -> Result<u64, Trap> {
    w.read64(i.src[k].ok_or(Trap::Illegal)?)
}

fn dst(i: &Instruction) -> Result<Operand, Trap> {
    i.dst.ok_or(Trap::Illegal)
}

/// Signed overflow of `a + b = r` (both operands' signs equal, result's differs).
fn add_overflow(a: u32, b: u32, r: u32) -> bool {
    (a ^ b) >> 31 == 0 && (a ^ r) >> 31 == 1
}

/// 32-bit SOP2: the result and the new SCC (`None`: SCC unchanged).
fn sop2_value(op: Op, a: u32, b: u32, scc: bool) -> (u32, Option<bool>) {
    use Op::*;
    let nz = |r: u32| (r, Some(r != 0));
    match op {
        SAddU32 => {
            let (r, c) = a.overflowing_add(b);
            (r, Some(c))
        }
        SSubU32 => (a.wrapping_sub(b), Some(b > a)),
        SAddcU32 => {
            let r = u64::from(a) + u64::from(b) + u64::from(scc);
            (r as u32, Some(r >> 32 != 0))
        }
        SSubbU32 => {
            let r = u64::from(a).wrapping_sub(u64::from(b) + u64::from(scc));
            (r as u32, Some(r >> 32 != 0))
        }
        SAddI32 => {
            let r = a.wrapping_add(b);
            (r, Some(add_overflow(a, b, r)))
        }
        SSubI32 => {
            let r = a.wrapping_sub(b);
            (r, Some((a ^ b) >> 31 == 1 && (a ^ r) >> 31 == 1))
        }
        SMinI32 => (
            (a as i32).min(b as i32) as u32,
            Some((a as i32) < (b as i32)),
        ),
        SMinU32 => (a.min(b), Some(a < b)),
        SMaxI32 => (
            (a as i32).max(b as i32) as u32,
            Some((a as i32) > (b as i32)),
        ),
        SMaxU32 => (a.max(b), Some(a > b)),
        SCselectB32 => (if scc { a } else { b }, None),
        SAndB32 => nz(a & b),
        SOrB32 => nz(a | b),
        SXorB32 => nz(a ^ b),
        SAndn2B32 => nz(a & !b),
        SOrn2B32 => nz(a | !b),
        SLshlB32 => nz(a << (b & 31)),
        SLshrB32 => nz(a >> (b & 31)),
        SAshrI32 => nz(((a as i32) >> (b & 31)) as u32),
        SMulI32 => (a.wrapping_mul(b), None),
        SBfeU32 => nz(bfe(a, b & 31, (b >> 16) & 0x7f)),
        _ => (0, None),
    }
}

/// `(value >> offset) & ((1 << width) - 1)`, widths of 32 and more keep every bit.
pub(crate) fn bfe(value: u32, offset: u32, width: u32) -> u32 {
    let shifted = value >> (offset & 31);
    if width >= 32 {
        shifted
    } else {
        shifted & ((1u32 << width) - 1)
    }
}

fn sop2_32(w: &mut Wave, i: &Instruction) -> Result<(), Trap> {
    let (a, b) = (src(w, i, 0)?, src(w, i, 1)?);
    let (r, scc) = sop2_value(i.op, a, b, w.scc);
    w.write(dst(i)?, r)?;
    if let Some(s) = scc {
        w.scc = s;
    }
    Ok(())
}

fn sop2_64(w: &mut Wave, i: &Instruction) -> Result<(), Trap> {
    use Op::*;
    let a = src64(w, i, 0)?;
    // Shift amounts are 32-bit operands (src1[5:0]).
    let shift = || src(w, i, 1).map(|b| b & 63);
    let r = match i.op {
        SCselectB64 => {
            let r = if w.scc { a } else { src64(w, i, 1)? };
            return w.write64(dst(i)?, r);
        }
        SAndB64 => a & src64(w, i, 1)?,
        SOrB64 => a | src64(w, i, 1)?,
        SXorB64 => a ^ src64(w, i, 1)?,
        SAndn2B64 => a & !src64(w, i, 1)?,
        SOrn2B64 => a | !src64(w, i, 1)?,
        SLshlB64 => a << shift()?,
        SLshrB64 => a >> shift()?,
        SAshrI64 => ((a as i64) >> shift()?) as u64,
        _ => return Err(Trap::Illegal),
    };
    w.write64(dst(i)?, r)?;
    w.scc = r != 0;
    Ok(())
}

/// SOPK: `s_movk`/`s_addk`/`s_mulk` sign-extend SIMM16; the compares sign-extend it for
/// `_i32` and zero-extend it for `_u32`.
fn sopk(w: &mut Wave, i: &Instruction) -> Result<(), Trap> {
    use Op::*;
    let d = dst(i)?;
    let simm = i.imm as u16 as i16 as i32;
    let zimm = i.imm & 0xffff;
    let cur = w.read(d)?;
    let (s, u) = (cur as i32, cur);
    let scc = match i.op {
        SMovkI32 => return w.write(d, simm as u32),
        SMulkI32 => return w.write(d, u.wrapping_mul(simm as u32)),
        SAddkI32 => {
            let r = u.wrapping_add(simm as u32);
            w.write(d, r)?;
            add_overflow(u, simm as u32, r)
        }
        SCmpkEqI32 => s == simm,
        SCmpkLgI32 => s != simm,
        SCmpkGtI32 => s > simm,
        SCmpkGeI32 => s >= simm,
        SCmpkLtI32 => s < simm,
        SCmpkLeI32 => s <= simm,
        SCmpkEqU32 => u == zimm,
        SCmpkLgU32 => u != zimm,
        SCmpkGtU32 => u > zimm,
        SCmpkGeU32 => u >= zimm,
        SCmpkLtU32 => u < zimm,
        SCmpkLeU32 => u <= zimm,
        _ => return Err(Trap::Illegal),
    };
    w.scc = scc;
    Ok(())
}

fn sop1_32(w: &mut Wave, i: &Instruction) -> Result<(), Trap> {
    let a = src(w, i, 0)?;
    if i.op == Op::SNotB32 {
        w.scc = !a != 0;
        return w.write(dst(i)?, !a);
    }
    w.write(dst(i)?, a)
}

fn sop1_64(w: &mut Wave, i: &Instruction) -> Result<(), Trap> {
    let a = src64(w, i, 0)?;
    if i.op == Op::SNotB64 {
        w.scc = !a != 0;
        return w.write64(dst(i)?, !a);
    }
    w.write64(dst(i)?, a)
}

/// `D = EXEC; EXEC = S0 op EXEC; SCC = EXEC != 0` (S0 is read before D is written).
fn saveexec(w: &mut Wave, i: &Instruction) -> Result<(), Trap> {
    let s0 = src64(w, i, 0)?;
    let exec = w.exec();
    let new = match i.op {
        Op::SAndSaveexecB64 => s0 & exec,
        Op::SOrSaveexecB64 => s0 | exec,
        _ => s0 ^ exec,
    };
    w.write64(dst(i)?, exec)?;
    w.set_pair(EXEC, new);
    w.scc = new != 0;
    Ok(())
}

/// SOPC compares (SCC = the comparison); `split` does not change architectural state.
fn sopc(w: &mut Wave, i: &Instruction) -> Result<(), Trap> {
    use Op::*;
    if i.op == Split {
        return Ok(());
    }
    let (a, b) = (src(w, i, 0)?, src(w, i, 1)?);
    let (sa, sb) = (a as i32, b as i32);
    w.scc = match i.op {
        SCmpEqI32 | SCmpEqU32 => a == b,
        SCmpLgI32 | SCmpLgU32 => a != b,
        SCmpGtI32 => sa > sb,
        SCmpGeI32 => sa >= sb,
        SCmpLtI32 => sa < sb,
        SCmpLeI32 => sa <= sb,
        SCmpGtU32 => a > b,
        SCmpGeU32 => a >= b,
        SCmpLtU32 => a < b,
        SCmpLeU32 => a <= b,
        _ => return Err(Trap::Illegal),
    };
    Ok(())
}
