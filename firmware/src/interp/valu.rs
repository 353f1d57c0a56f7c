//! Vector ALU: VOP1, VOP2, VOP3 and VOPC (native and `_e64` forms). Every instruction acts
//! on the lanes set in EXEC; lane masks it writes (VOPC results, carry-outs) hold 0 for the
//! other lanes.

use super::error::Trap;
use super::float;
use super::wave::{lanes, vreg, VSrc, Wave, EXEC, LANES, VCC};
use crate::isa::{Instruction, Op, Operand, Sig};

/// Executes a vector ALU instruction.
pub(crate) fn exec(w: &mut Wave, i: &Instruction) -> Result<(), Trap> {
    match i.op.info().sig {
        Sig::ReadLane => readfirstlane(w, i),
        Sig::Vopc => compare(w, i),
        Sig::Vopc64 => compare64(w, i),
        Sig::MadU64 => mad_u64_u32(w, i),
        Sig::Carry | Sig::CarryIn => carry(w, i),
        Sig::Cndmask => cndmask(w, i),
        Sig::Vop3(2, ..) => lshlrev_b64(w, i),
        _ => lanewise(w, i),
    }
}

/// The resolved 32-bit sources of an instruction (absent ones read as 0).
fn sources(w: &Wave, i: &Instruction, n: usize) -> Result<[VSrc; 3], Trap> {
    let mut s = [VSrc::Uniform(0); 3];
    for (k, slot) in s.iter_mut().enumerate().take(n) {
        if i.src[k].is_some() {
            *slot = w.vsrc(i.src[k])?;
        }
    }
    Ok(s)
}

/// Source `k` in `lane`, with the VOP3 source modifiers applied.
fn arg(w: &Wave, i: &Instruction, s: &[VSrc; 3], k: usize, lane: usize) -> u32 {
    float::source(i.mods, k, w.lane(s[k], lane))
}

/// The destination mask register of a VOPC or carry-out: VCC for e32, `sdst` for e64.
fn mask_dst(i: &Instruction) -> Result<Operand, Trap> {
    if i.e64 {
        i.sdst.ok_or(Trap::Illegal)
    } else {
        Ok(Operand::Special(VCC))
    }
}

/// The mask source of `v_addc_u32`/`v_cndmask_b32`: VCC for e32, `src2` for e64.
fn mask_src(w: &Wave, i: &Instruction) -> Result<u64, Trap> {
    if i.e64 {
        w.read64(i.src[2].ok_or(Trap::Illegal)?)
    } else {
        Ok(w.vcc())
    }
}

/// Ops computed lane by lane from up to three 32-bit sources into one VGPR.
fn lanewise(w: &mut Wave, i: &Instruction) -> Result<(), Trap> {
    let d = vreg(i.dst)?;
    let s = sources(w, i, 3)?;
    for l in lanes(w.exec()) {
        let (a, b, c) = (
            arg(w, i, &s, 0, l),
            arg(w, i, &s, 1, l),
            arg(w, i, &s, 2, l),
        );
        let r = if let Some(x) = float::eval(i.op, a, b, mac_acc(w, i, d, l, c)) {
            float::output(i.mods, x).to_bits()
        } else {
            integer(i.op, a, b, c, i.mods.clamp).ok_or(Trap::Illegal)?
        };
        w.set_vgpr(d, l, r);
    }
    Ok(())
}

/// The addend of `v_mac_f32` is its destination; other ops use source 2.
fn mac_acc(w: &Wave, i: &Instruction, d: u32, lane: usize, c: u32) -> u32 {
    if i.op == Op::VMacF32 {
        w.vgpr(d, lane)
    } else {
        c
    }
}

/// Integer (and float-to-integer) lane ops; `clamp` saturates the unsigned 24-bit multiplies.
fn integer(op: Op, a: u32, b: u32, c: u32, clamp: bool) -> Option<u32> {
    use Op::*;
    let sat = |v: u64| {
        if clamp {
            v.min(u64::from(u32::MAX)) as u32
        } else {
            v as u32
        }
    };
    let u24 = |v: u32| u64::from(v & 0xff_ffff);
    let r = match op {
        VMovB32 => a,
        VNotB32 => !a,
        VCvtI32F32 => f32::from_bits(a) as i32 as u32,
        VCvtU32F32 => f32::from_bits(a) as u32,
        VMulU32U24 => sat(u24(a) * u24(b)),
        VMadU32U24 => sat(u24(a) * u24(b) + u64::from(c)),
        VAndB32 => a & b,
        VOrB32 => a | b,
        VXorB32 => a ^ b,
        VLshlrevB32 => b << (a & 31),
        VLshrrevB32 => b >> (a & 31),
        VAshrrevI32 => ((b as i32) >> (a & 31)) as u32,
        VMinI32 => (a as i32).min(b as i32) as u32,
        VMaxI32 => (a as i32).max(b as i32) as u32,
        VMinU32 => a.min(b),
        VMaxU32 => a.max(b),
        VMulLoU32 => a.wrapping_mul(b),
        VMulHiU32 => ((u64::from(a) * u64::from(b)) >> 32) as u32,
        VBfeU32 => super::salu::bfe(a, b & 31, c & 31),
        VAlignbitB32 => ((u64::from(a) << 32 | u64::from(b)) >> (c & 31)) as u32,
        VMax3I32 => (a as i32).max(b as i32).max(c as i32) as u32,
        _ => return None,
    };
    Some(r)
}

/// `v_add_u32`, `v_sub_u32`, `v_subrev_u32`, `v_addc_u32`, `v_subb_u32`, `v_subbrev_u32`:
/// the carry (borrow) of each active lane goes to VCC or `sdst`; `clamp` saturates the
/// result (unsigned).
fn carry(w: &mut Wave, i: &Instruction) -> Result<(), Trap> {
    let d = vreg(i.dst)?;
    let s = sources(w, i, 2)?;
    let cin = if i.op.info().sig == Sig::CarryIn {
        mask_src(w, i)?
    } else {
        0
    };
    let mut out = 0u64;
    for l in lanes(w.exec()) {
        let (a, b) = (u64::from(w.lane(s[0], l)), u64::from(w.lane(s[1], l)));
        let bit = cin >> l & 1;
        let (r, c) = match i.op {
            Op::VAddU32 => (a + b, a + b > u64::from(u32::MAX)),
            Op::VAddcU32 => {
                let sum = a + b + bit;
                (sum, sum > u64::from(u32::MAX))
            }
            Op::VSubU32 => (a.wrapping_sub(b), b > a),
            Op::VSubbU32 => (a.wrapping_sub(b + bit), b + bit > a),
            Op::VSubbrevU32 => (b.wrapping_sub(a + bit), a + bit > b),
            _ => (b.wrapping_sub(a), a > b),
        };
        let value = match (i.mods.clamp, c, i.op) {
            (true, true, Op::VAddU32 | Op::VAddcU32) => u32::MAX,
            (true, true, _) => 0,
            _ => r as u32,
        };
        w.set_vgpr(d, l, value);
        out |= u64::from(c) << l;
    }
    w.write64(mask_dst(i)?, out)
}

/// `v_cndmask_b32`: `mask[lane] ? src1 : src0`.
fn cndmask(w: &mut Wave, i: &Instruction) -> Result<(), Trap> {
    let d = vreg(i.dst)?;
    let s = sources(w, i, 2)?;
    let mask = mask_src(w, i)?;
    for l in lanes(w.exec()) {
        let k = (mask >> l & 1) as usize;
        let r = arg(w, i, &s, k, l);
        w.set_vgpr(d, l, r);
    }
    Ok(())
}

/// VOPC: the result bit of each active lane (0 elsewhere) to VCC or `sdst`; `v_cmpx_*` also
/// writes it to EXEC.
fn compare(w: &mut Wave, i: &Instruction) -> Result<(), Trap> {
    let s = sources(w, i, 2)?;
    let mut out = 0u64;
    for l in lanes(w.exec()) {
        let (a, b) = (arg(w, i, &s, 0, l), arg(w, i, &s, 1, l));
        let bit = float::compare(i.op, a, b)
            .or_else(|| int_compare(i.op, a, b))
            .ok_or(Trap::Illegal)?;
        out |= u64::from(bit) << l;
    }
    w.write64(mask_dst(i)?, out)?;
    if i.op.name().starts_with("v_cmpx") {
        w.set_pair(EXEC, out);
    }
    Ok(())
}

/// `v_cmp_{eq,ne}_u64`: compares 64-bit sources (VGPR pairs or 64-bit scalars) into VCC or
/// `sdst`.
fn compare64(w: &mut Wave, i: &Instruction) -> Result<(), Trap> {
    let (s0, s1) = (
        i.src[0].ok_or(Trap::Illegal)?,
        i.src[1].ok_or(Trap::Illegal)?,
    );
    let mut out = 0u64;
    for l in lanes(w.exec()) {
        let (a, b) = (w.lane64(s0, l)?, w.lane64(s1, l)?);
        let bit = match i.op {
            Op::VCmpEqU64 => a == b,
            Op::VCmpNeU64 => a != b,
            _ => return Err(Trap::Illegal),
        };
        out |= u64::from(bit) << l;
    }
    w.write64(mask_dst(i)?, out)
}

/// `v_mad_u64_u32 vdst[2], sdst[2], src0, src1, src2[2]`: `src0 * src1 + src2` in 64 bits
/// (unsigned); the carry out of bit 63 of each active lane goes to `sdst`; `clamp`
/// saturates to all ones on carry.
fn mad_u64_u32(w: &mut Wave, i: &Instruction) -> Result<(), Trap> {
    let d = vreg(i.dst)?;
    let s = sources(w, i, 2)?;
    let s2 = i.src[2].ok_or(Trap::Illegal)?;
    let mut out = 0u64;
    for l in lanes(w.exec()) {
        let product = u64::from(w.lane(s[0], l)) * u64::from(w.lane(s[1], l));
        let (r, c) = product.overflowing_add(w.lane64(s2, l)?);
        let r = if c && i.mods.clamp { u64::MAX } else { r };
        w.set_vgpr(d, l, r as u32);
        w.set_vgpr(d + 1, l, (r >> 32) as u32);
        out |= u64::from(c) << l;
    }
    w.write64(i.sdst.ok_or(Trap::Illegal)?, out)
}

/// An integer compare; `None` for other opcodes.
fn int_compare(op: Op, a: u32, b: u32) -> Option<bool> {
    use Op::*;
    let (x, y) = (a as i32, b as i32);
    let r = match op {
        VCmpEqI32 | VCmpxEqI32 | VCmpEqU32 | VCmpxEqU32 => a == b,
        VCmpNeI32 | VCmpxNeI32 | VCmpNeU32 | VCmpxNeU32 => a != b,
        VCmpLtI32 | VCmpxLtI32 => x < y,
        VCmpLeI32 | VCmpxLeI32 => x <= y,
        VCmpGtI32 | VCmpxGtI32 => x > y,
        VCmpGeI32 | VCmpxGeI32 => x >= y,
        VCmpLtU32 | VCmpxLtU32 => a < b,
        VCmpLeU32 | VCmpxLeU32 => a <= b,
        VCmpGtU32 | VCmpxGtU32 => a > b,
        VCmpGeU32 | VCmpxGeU32 => a >= b,
        _ => return None,
    };
    Some(r)
}

/// `v_readfirstlane_b32`: the VGPR of the lowest active lane (lane 0 when none is active).
fn readfirstlane(w: &mut Wave, i: &Instruction) -> Result<(), Trap> {
    let src = vreg(i.src[0])?;
    let exec = w.exec();
    let lane = if exec == 0 {
        0
    } else {
        exec.trailing_zeros() as usize % LANES
    };
    let value = w.vgpr(src, lane);
    w.write(i.dst.ok_or(Trap::Illegal)?, value)
}

/// `v_lshlrev_b64 vdst[2], src0, src1[2]`: `src1 << src0[5:0]`.
fn lshlrev_b64(w: &mut Wave, i: &Instruction) -> Result<(), Trap> {
    let d = vreg(i.dst)?;
    let s0 = w.vsrc(i.src[0])?;
    let s1 = i.src[1].ok_or(Trap::Illegal)?;
    for l in lanes(w.exec()) {
        let r = w.lane64(s1, l)? << (w.lane(s0, l) & 63);
        w.set_vgpr(d, l, r as u32);
        w.set_vgpr(d + 1, l, (r >> 32) as u32);
    }
    Ok(())
}
