//! The vector ALU: VOP1, VOP2, VOPC and VOP3 (native and `_e64` forms) over the lanes of the
//! effective mask (EXEC & SpM, docs/assumptions.md#A12), integer and fp32, on the wavefront's
//! [`Vrf`]. A behavioural datapath: fp32 is Rust's IEEE `f32` (firmware/kernels/README.md).

use super::regfile::{code, lanes, BadOperand, Sregs, Vrf, LANES};
use crate::isa::insn_model::{format, InsnFields};

/// An instruction in its native shape (`_e64` forms mapped back to VOP1/VOP2/VOPC).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Shape {
    Vop1(u16),
    Vop2(u16),
    Vopc(u16),
    /// A VOP3-only opcode.
    Vop3(u16),
}

fn shape(f: &InsnFields) -> (Shape, bool) {
    match f.format {
        format::VOP1 => (Shape::Vop1(f.opcode), false),
        format::VOP2 => (Shape::Vop2(f.opcode), false),
        format::VOPC => (Shape::Vopc(f.opcode), false),
        _ => match f.opcode {
            0..=0xFF => (Shape::Vopc(f.opcode), true),
            0x100..=0x13F => (Shape::Vop2(f.opcode - 0x100), true),
            0x140..=0x1BF => (Shape::Vop1(f.opcode - 0x140), true),
            op => (Shape::Vop3(op), true),
        },
    }
}

/// Whether the shape's sources are fp32 (input modifiers apply).
fn float_in(s: Shape) -> bool {
    match s {
        Shape::Vop1(op) => matches!(op, 0x07 | 0x08 | 0x22 | 0x23 | 0x27),
        Shape::Vop2(op) => matches!(op, 0x00 | 0x01 | 0x02 | 0x03 | 0x05 | 0x0A | 0x0B | 0x16),
        Shape::Vopc(op) => op < 0x80,
        Shape::Vop3(op) => matches!(op, 0x1C1 | 0x1CB),
    }
}

/// Whether the result is fp32 (output modifiers apply).
#[inline(always)]
fn float_out(s: Shape) -> bool {
    match s {
        Shape::Vop1(op) => matches!(op, 0x05 | 0x06 | 0x22 | 0x23 | 0x27),
        Shape::Vop2(op) => matches!(op, 0x01 | 0x02 | 0x03 | 0x05 | 0x0A | 0x0B | 0x16),
        Shape::Vopc(_) => false,
        Shape::Vop3(op) => matches!(op, 0x1C1 | 0x1CB),
    }
}

/// A source operand: a VGPR or one scalar value for every lane.
#[derive(Clone, Copy)]
struct Src {
    vgpr: Option<usize>,
    value: u32,
    /// The scalar read as a 64-bit operand (SGPR pair, or a constant widened).
    value64: u64,
}

impl Src {
    fn new(code: u16, r: &Sregs, literal: u32) -> Result<Src, BadOperand> {
        Ok(if code >= code::VGPR0 {
            Src {
                vgpr: Some(usize::from(code - code::VGPR0)),
                value: 0,
                value64: 0,
            }
        } else {
            Src {
                vgpr: None,
                value: r.read(code, literal)?,
                // Only 64-bit operands use it; codes without a pair read as their 32 bits.
                value64: r
                    .read64(code, literal)
                    .or_else(|_| r.read(code, literal).map(u64::from))?,
            }
        })
    }

    fn get(self, v: &Vrf, lane: usize) -> u32 {
        self.vgpr.map_or(self.value, |reg| v.get(reg, lane))
    }

    /// The value of every lane: the VGPR's row in place, or the scalar in every lane (in
    /// `own`), with the input modifiers `(float, abs, neg)` applied to the lanes of `eff` (the
    /// row then copied into `own`).
    fn lanes<'a>(
        self,
        v: &'a Vrf,
        (float, abs, neg): (bool, bool, bool),
        eff: u64,
        own: &'a mut Option<[u32; LANES]>,
    ) -> &'a [u32; LANES] {
        let row = match self.vgpr {
            Some(reg) if !float => return v.row(reg),
            Some(reg) => own.insert(*v.row(reg)),
            None if !float && self.value == 0 => return &[0; LANES],
            None => own.insert([self.value; LANES]),
        };
        if float {
            for lane in lanes(eff) {
                row[lane] = input_mod(row[lane], abs, neg);
            }
        }
        row
    }

    /// The 64-bit value (a VGPR pair, or the scalar as a 64-bit operand).
    fn get64(self, v: &Vrf, lane: usize) -> u64 {
        match self.vgpr {
            Some(reg) => u64::from(v.get(reg, lane)) | u64::from(v.get(reg + 1, lane)) << 32,
            None => self.value64,
        }
    }
}

/// Everything one lane's operation sees.
struct LaneIn {
    a: u32,
    b: u32,
    c: u32,
    /// Carry-in / condition bit of this lane.
    bit: bool,
}

/// Runs one vector ALU instruction on the lanes of `eff`.
pub fn execute(f: &InsnFields, r: &mut Sregs, v: &mut Vrf, eff: u64) -> Result<(), BadOperand> {
    let (s, e64) = shape(f);
    let src1 = if e64 {
        f.src1
    } else {
        code::VGPR0 + (f.src1 & 0xFF)
    };
    let srcs = [
        Src::new(f.src0, r, f.imm)?,
        Src::new(src1, r, f.imm)?,
        if e64 {
            Src::new(f.src2, r, f.imm)?
        } else {
            Src {
                vgpr: None,
                value: 0,
                value64: 0,
            }
        },
    ];
    // The mask input of v_cndmask_b32 / v_addc/subb/subbrev_u32: VCC, or the e64 form's
    // third source.
    let mask_in = match (e64, s) {
        (true, Shape::Vop2(0x00 | 0x1C..=0x1E)) => r.read64(f.src2, f.imm)?,
        _ => r.vcc,
    };
    if s == Shape::Vop1(0x02) {
        // v_readfirstlane_b32: the lowest active lane, lane 0 when none is.
        let lane = if eff == 0 {
            0
        } else {
            eff.trailing_zeros() as usize
        };
        return r.write(u16::from(f.dst), srcs[0].get(v, lane));
    }
    match s {
        Shape::Vop3(0x28F) => return lshlrev_b64(f, &srcs, v, eff),
        Shape::Vop3(0x1E8) => return mad_u64_u32(f, &srcs, r, v, eff),
        Shape::Vopc(0xE0..=0xEF) => {
            let m = lanes(eff)
                .filter(|&lane| vopc64(f.opcode, srcs[0].get64(v, lane), srcs[1].get64(v, lane)))
                .fold(0u64, |m, lane| m | 1 << lane);
            return write_mask(f, s, e64, r, m);
        }
        _ => {}
    }
    let float = float_in(s) && e64;
    // A source is read in place from its VGPR row; a scalar, or a row with input modifiers,
    // is first written into a row of its own. The lanes are computed into a separate row
    // (the destination may be a source) and then written to the destination.
    let [o0, o1, o2] = &mut [None, None, None];
    let mods = |i: usize| (float, f.abs >> i & 1 == 1, f.neg >> i & 1 == 1);
    let rows = [
        srcs[0].lanes(v, mods(0), eff, o0),
        srcs[1].lanes(v, mods(1), eff, o1),
        srcs[2].lanes(v, mods(2), eff, o2),
    ];
    let dst = usize::from(f.dst);
    let (d, mask_out) = specialised(
        s,
        Lanes {
            rows,
            mask_in,
            eff,
            old: v.row(dst),
        },
        f,
    );
    if !matches!(s, Shape::Vopc(_)) {
        write_row(v.row_mut(dst), &d, eff);
    }
    write_mask(f, s, e64, r, mask_out)
}

/// Writes the lanes of `eff` of `d` into `out`: the whole row at once when every lane is on.
fn write_row(out: &mut [u32; LANES], d: &[u32; LANES], eff: u64) {
    if eff == u64::MAX {
        *out = *d;
    } else {
        for lane in lanes(eff) {
            out[lane] = d[lane];
        }
    }
}

/// The operands of one instruction over the 64 lanes, and its destination row's values.
struct Lanes<'a> {
    rows: [&'a [u32; LANES]; 3],
    /// Carry-in / condition bits.
    mask_in: u64,
    /// The lanes that take the result.
    eff: u64,
    /// The destination's values before the instruction (`v_mac_f32` adds to them).
    old: &'a [u32; LANES],
}

/// Runs `s` over the lanes: the frequent shapes through a loop compiled for that shape
/// alone (the lane operation folded, no per-lane dispatch), the others through the same
/// loop with the shape read per lane. Returns every lane's result and the mask bits of the
/// lanes of `eff`.
fn specialised(s: Shape, l: Lanes, f: &InsnFields) -> ([u32; LANES], u64) {
    /// `(kind, opcode)` as one constant: 1 VOP1, 2 VOP2, 3 VOPC, 4 VOP3.
    const fn key(s: Shape) -> u32 {
        match s {
            Shape::Vop1(op) => 1 << 16 | op as u32,
            Shape::Vop2(op) => 2 << 16 | op as u32,
            Shape::Vopc(op) => 3 << 16 | op as u32,
            Shape::Vop3(op) => 4 << 16 | op as u32,
        }
    }
    const fn shape_of(k: u32) -> Shape {
        let op = (k & 0xFFFF) as u16;
        match k >> 16 {
            1 => Shape::Vop1(op),
            2 => Shape::Vop2(op),
            3 => Shape::Vopc(op),
            _ => Shape::Vop3(op),
        }
    }
    fn fixed<const K: u32>(l: Lanes, f: &InsnFields) -> ([u32; LANES], u64) {
        over_lanes(shape_of(K), l, f)
    }
    macro_rules! table {
        ($($s:expr),* $(,)?) => {
            match key(s) {
                $(k if k == key($s) => fixed::<{ key($s) }>(l, f),)*
                _ => over_lanes(s, l, f),
            }
        };
    }
    use Shape::*;
    table!(
        Vop1(0x01),  // v_mov_b32
        Vop2(0x00),  // v_cndmask_b32
        Vop2(0x01),  // v_add_f32
        Vop2(0x05),  // v_mul_f32
        Vop2(0x11),  // v_ashrrev_i32
        Vop2(0x12),  // v_lshlrev_b32
        Vop2(0x13),  // v_and_b32
        Vop2(0x14),  // v_or_b32
        Vop2(0x15),  // v_xor_b32
        Vop2(0x16),  // v_mac_f32
        Vop2(0x19),  // v_add_u32
        Vop2(0x1A),  // v_sub_u32
        Vop2(0x1B),  // v_subrev_u32
        Vop2(0x1C),  // v_addc_u32
        Vop3(0x1C1), // v_mad_f32
        Vop3(0x285), // v_mul_lo_u32
        Vopc(0xC1),  // v_cmp_lt_i32
        Vopc(0xCA),  // v_cmp_eq_u32
    )
}

/// Every lane computed into a row (a lane operation has no side effect; a loop without a
/// branch, which the compiler vectorises when `s` is a constant); the row and the mask bits
/// of the lanes of `eff`.
#[inline(always)]
fn over_lanes(s: Shape, l: Lanes, f: &InsnFields) -> ([u32; LANES], u64) {
    let fout = float_out(s);
    let mut d = [0u32; LANES];
    let mut bits = [false; LANES];
    for lane in 0..LANES {
        let inp = LaneIn {
            a: l.rows[0][lane],
            b: l.rows[1][lane],
            c: l.rows[2][lane],
            bit: l.mask_in >> lane & 1 == 1,
        };
        let (x, bit) = lane_op(s, &inp, l.old[lane], f.clamp);
        d[lane] = if fout {
            output_mod(x, f.omod, f.clamp)
        } else {
            x
        };
        bits[lane] = bit;
    }
    if !matches!(s, Shape::Vopc(_) | Shape::Vop2(0x19..=0x1E)) {
        return (d, 0);
    }
    let mask = bits.iter().rev().fold(0u64, |m, &b| m << 1 | u64::from(b));
    (d, mask & l.eff)
}

/// Writes the lane mask an instruction produces: VOPC results (VCC, or the e64 form's SGPR
/// pair; `v_cmpx` also EXEC) and the carry-out of `v_add/sub/subrev/addc_u32`.
fn write_mask(
    f: &InsnFields,
    s: Shape,
    e64: bool,
    r: &mut Sregs,
    m: u64,
) -> Result<(), BadOperand> {
    match s {
        Shape::Vopc(op) => {
            r.write64(if e64 { u16::from(f.dst) } else { code::VCC_LO }, m)?;
            if op & 0x10 != 0 {
                r.exec = m;
            }
            Ok(())
        }
        Shape::Vop2(0x19..=0x1E) => {
            r.write64(if e64 { u16::from(f.sdst) } else { code::VCC_LO }, m)
        }
        _ => Ok(()),
    }
}

/// `v_lshlrev_b64 v[d:d+1], src0, src1(64)`.
fn lshlrev_b64(f: &InsnFields, srcs: &[Src; 3], v: &mut Vrf, eff: u64) -> Result<(), BadOperand> {
    for lane in lanes(eff) {
        let d = srcs[1].get64(v, lane) << (srcs[0].get(v, lane) & 63);
        v.set(usize::from(f.dst), lane, d as u32);
        v.set(usize::from(f.dst) + 1, lane, (d >> 32) as u32);
    }
    Ok(())
}

/// `v_mad_u64_u32 v[d:d+1], sdst, src0, src1, src2(64)`: the 64-bit `src0 * src1 + src2`,
/// the carry out of bit 63 to `sdst` (saturated to all ones with `clamp`).
fn mad_u64_u32(
    f: &InsnFields,
    srcs: &[Src; 3],
    r: &mut Sregs,
    v: &mut Vrf,
    eff: u64,
) -> Result<(), BadOperand> {
    let mut carry = 0u64;
    for lane in lanes(eff) {
        let product = u64::from(srcs[0].get(v, lane)) * u64::from(srcs[1].get(v, lane));
        let (d, c) = product.overflowing_add(srcs[2].get64(v, lane));
        let d = if c && f.clamp { u64::MAX } else { d };
        v.set(usize::from(f.dst), lane, d as u32);
        v.set(usize::from(f.dst) + 1, lane, (d >> 32) as u32);
        carry |= u64::from(c) << lane;
    }
    r.write64(u16::from(f.sdst), carry)
}

/// A 64-bit VOPC compare (0xE0..=0xEF): bits [2:0] as for the 32-bit ones, 0xE8 unsigned.
fn vopc64(op: u16, a: u64, b: u64) -> bool {
    let ord = if op & 0x08 == 0 {
        (a as i64).cmp(&(b as i64))
    } else {
        a.cmp(&b)
    };
    int_holds(op, ord)
}

/// Whether integer compare `op` (bits [2:0] F, LT, EQ, LE, GT, NE, GE, T) holds for `ord`.
#[inline(always)]
fn int_holds(op: u16, ord: std::cmp::Ordering) -> bool {
    use std::cmp::Ordering::*;
    match op & 7 {
        0 => false,
        1 => ord == Less,
        2 => ord == Equal,
        3 => ord != Greater,
        4 => ord == Greater,
        5 => ord != Equal,
        6 => ord != Less,
        _ => true,
    }
}

fn input_mod(x: u32, abs: bool, neg: bool) -> u32 {
    let x = if abs { x & 0x7FFF_FFFF } else { x };
    if neg {
        x ^ 0x8000_0000
    } else {
        x
    }
}

#[inline(always)]
fn output_mod(d: u32, omod: u8, clamp: bool) -> u32 {
    let mut x = f32::from_bits(d);
    x = match omod {
        1 => x * 2.0,
        2 => x * 4.0,
        3 => x * 0.5,
        _ => x,
    };
    if clamp {
        // NaN clamps to 0.
        x = if x.is_nan() { 0.0 } else { x.clamp(0.0, 1.0) };
    }
    x.to_bits()
}

#[inline(always)]
fn fl(x: u32) -> f32 {
    f32::from_bits(x)
}

/// Saturates a u64 result to 32 bits when `clamp` is set.
#[inline(always)]
fn sat(x: u64, clamp: bool) -> u32 {
    if clamp {
        x.min(u64::from(u32::MAX)) as u32
    } else {
        x as u32
    }
}

/// One lane: (result, mask bit).
#[inline(always)]
fn lane_op(s: Shape, i: &LaneIn, old: u32, clamp: bool) -> (u32, bool) {
    let (a, b, c) = (i.a, i.b, i.c);
    match s {
        Shape::Vop1(op) => (vop1(op, a), false),
        Shape::Vop2(op) => vop2(op, i, old, clamp),
        Shape::Vopc(op) => (0, vopc(op, a, b)),
        Shape::Vop3(op) => (vop3(op, a, b, c, clamp), false),
    }
}

#[inline(always)]
fn vop1(op: u16, a: u32) -> u32 {
    match op {
        0x05 => (a as i32 as f32).to_bits(),
        0x06 => (a as f32).to_bits(),
        0x07 => fl(a) as u32,
        0x08 => fl(a) as i32 as u32,
        0x22 | 0x23 => (1.0 / fl(a)).to_bits(),
        0x27 => fl(a).sqrt().to_bits(),
        0x2B => !a,
        _ => a,
    }
}

#[inline(always)]
fn vop2(op: u16, i: &LaneIn, old: u32, clamp: bool) -> (u32, bool) {
    let (a, b) = (i.a, i.b);
    let carry = |x: u64| (sat(x, clamp), x >> 32 != 0);
    let borrow = |x: u32, y: u32| {
        let d = if clamp {
            x.saturating_sub(y)
        } else {
            x.wrapping_sub(y)
        };
        (d, y > x)
    };
    let d = match op {
        0x00 => return (if i.bit { b } else { a }, false),
        0x01 => (fl(a) + fl(b)).to_bits(),
        0x02 => (fl(a) - fl(b)).to_bits(),
        0x03 => (fl(b) - fl(a)).to_bits(),
        0x05 => (fl(a) * fl(b)).to_bits(),
        0x08 => sat(u64::from(a & 0xFF_FFFF) * u64::from(b & 0xFF_FFFF), clamp),
        0x0A => fl(a).min(fl(b)).to_bits(),
        0x0B => fl(a).max(fl(b)).to_bits(),
        0x0C => (a as i32).min(b as i32) as u32,
        0x0D => (a as i32).max(b as i32) as u32,
        0x0E => a.min(b),
        0x0F => a.max(b),
        0x10 => b >> (a & 31),
        0x11 => ((b as i32) >> (a & 31)) as u32,
        0x12 => b << (a & 31),
        0x13 => a & b,
        0x14 => a | b,
        0x15 => a ^ b,
        0x16 => (fl(a) * fl(b) + fl(old)).to_bits(),
        0x19 => return carry(u64::from(a) + u64::from(b)),
        0x1A => return borrow(a, b),
        0x1B => return borrow(b, a),
        0x1D => return borrow_in(a, b, i.bit, clamp),
        0x1E => return borrow_in(b, a, i.bit, clamp),
        _ => return carry(u64::from(a) + u64::from(b) + u64::from(i.bit)),
    };
    (d, false)
}

/// `x - y - bit` with the borrow out (saturated to 0 with `clamp`).
#[inline(always)]
fn borrow_in(x: u32, y: u32, bit: bool, clamp: bool) -> (u32, bool) {
    let d = i64::from(x) - i64::from(y) - i64::from(bit);
    let out = if d < 0 && clamp { 0 } else { d as u32 };
    (out, d < 0)
}

#[inline(always)]
fn vop3(op: u16, a: u32, b: u32, c: u32, clamp: bool) -> u32 {
    match op {
        0x1C1 => (fl(a) * fl(b) + fl(c)).to_bits(),
        0x1C3 => sat(
            u64::from(a & 0xFF_FFFF) * u64::from(b & 0xFF_FFFF) + u64::from(c),
            clamp,
        ),
        0x1C8 => {
            let width = c & 31;
            (a >> (b & 31)) & ((1u64 << width) - 1) as u32
        }
        0x1CB => fl(a).mul_add(fl(b), fl(c)).to_bits(),
        0x1CE => ((u64::from(a) << 32 | u64::from(b)) >> (c & 31)) as u32,
        0x1D4 => (a as i32).max(b as i32).max(c as i32) as u32,
        0x285 => a.wrapping_mul(b),
        _ => ((u64::from(a) * u64::from(b)) >> 32) as u32,
    }
}

/// A VOPC compare. Integer opcodes: bits [2:0] F, LT, EQ, LE, GT, NE, GE, T; 0xC0 signed,
/// 0xC8 unsigned. Float opcodes (below 0x80): bits [3:0] the 16 IEEE predicates.
#[inline(always)]
fn vopc(op: u16, a: u32, b: u32) -> bool {
    use std::cmp::Ordering::*;
    if op >= 0x80 {
        let ord = if op & 0x08 == 0 {
            (a as i32).cmp(&(b as i32))
        } else {
            a.cmp(&b)
        };
        return int_holds(op, ord);
    }
    let ord = fl(a).partial_cmp(&fl(b));
    let (lt, eq, gt) = (ord == Some(Less), ord == Some(Equal), ord == Some(Greater));
    let unordered = ord.is_none();
    match op & 0xF {
        0 => false,
        1 => lt,
        2 => eq,
        3 => lt || eq,
        4 => gt,
        5 => lt || gt,
        6 => gt || eq,
        7 => !unordered,
        8 => unordered,
        9 => !(gt || eq),
        10 => !(lt || gt),
        11 => !gt,
        12 => !(lt || eq),
        13 => !eq,
        14 => !lt,
        _ => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::isa::insn_model::decode_fields;

    /// The mask a VOPC compare or a carry-out writes holds only the lanes of the effective
    /// mask; the destination's other lanes keep their values.
    #[test]
    fn mask_results_and_writes_keep_to_the_effective_lanes() {
        let (mut r, mut v) = (Sregs::default(), Vrf::default());
        *v.row_mut(0) = [0xFFFF_FFFF; LANES];
        *v.row_mut(1) = [0xFFFF_FFFF; LANES];
        *v.row_mut(2) = [7; LANES];
        // v_cmp_eq_u32 vcc, v0, v1: true in every lane.
        execute(&decode_fields(0x7D94_0300, 0), &mut r, &mut v, 0b1010).unwrap();
        assert_eq!(r.vcc, 0b1010);
        // v_add_u32 v2, vcc, v0, v1: a carry out of every lane.
        execute(&decode_fields(0x3204_0300, 0), &mut r, &mut v, 0xF0).unwrap();
        assert_eq!(r.vcc, 0xF0);
        assert_eq!((v.get(2, 4), v.get(2, 3), v.get(2, 8)), (0xFFFF_FFFE, 7, 7));
    }

    #[test]
    fn lshlrev_b64_reads_a_scalar_source_as_64_bits() {
        let mut r = Sregs::default();
        let mut v = Vrf::default();
        // v_lshlrev_b64 v[2:3], 4, -1 = 0xD28F0002 0x00018284
        let f = decode_fields(0xD28F_0002, 0x0001_8284);
        execute(&f, &mut r, &mut v, 0b11).unwrap();
        assert_eq!((v.get(2, 1), v.get(3, 1)), (0xFFFF_FFF0, 0xFFFF_FFFF));
        // v_lshlrev_b64 v[2:3], 4, s[6:7] = 0xD28F0002 0x00000C84
        r.s[6] = 0x8000_0001;
        r.s[7] = 0x1;
        let f = decode_fields(0xD28F_0002, 0x0000_0C84);
        execute(&f, &mut r, &mut v, 0b1).unwrap();
        assert_eq!((v.get(2, 0), v.get(3, 0)), (0x10, 0x18));
        // Lane 1 is not in the mask: unchanged.
        assert_eq!(v.get(2, 1), 0xFFFF_FFF0);
    }
}
