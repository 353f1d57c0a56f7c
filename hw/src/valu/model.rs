//! Reference model of the VALU, written from the ISA's definitions (GCN3 manual) and the
//! contract in [`super`]: what one lane computes (fp32 in [`fp`], in integers), and the
//! four-quarter schedule around it.

use super::{ValuIn, ValuOut, QUARTER, VCC};
use crate::isa::insn_model::format;

pub mod fp;

/// An instruction of the subset in its native shape.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    /// VOP1 opcode.
    Vop1(u16),
    /// VOP2 opcode.
    Vop2(u16),
    /// VOPC opcode.
    Vopc(u16),
    /// VOP3-only opcode.
    Vop3(u16),
}

/// The instruction `(format, opcode)` names, with whether it is an `_e64` form; `None` outside
/// the block's subset.
pub fn op_of(fmt: u8, opcode: u16) -> Option<(Op, bool)> {
    let (op, e64) = match fmt {
        format::VOP1 => (Op::Vop1(opcode), false),
        format::VOP2 => (Op::Vop2(opcode), false),
        format::VOPC => (Op::Vopc(opcode), false),
        format::VOP3 => match opcode {
            0..=0xFF => (Op::Vopc(opcode), true),
            0x100..=0x13F => (Op::Vop2(opcode - 0x100), true),
            0x140..=0x1BF => (Op::Vop1(opcode - 0x140), true),
            _ => (Op::Vop3(opcode), true),
        },
        _ => return None,
    };
    let known = match op {
        Op::Vop1(o) => matches!(o, 0x01 | 0x02 | 0x05..=0x08 | 0x2B),
        Op::Vop2(o) => matches!(o, 0x00..=0x03 | 0x05 | 0x08 | 0x0A..=0x16 | 0x19..=0x1E),
        Op::Vopc(o) => matches!(o, 0x40..=0x5F | 0xC0..=0xEF),
        Op::Vop3(o) => matches!(o, 0x1C1 | 0x1C8 | 0x1CB | 0x1E8 | 0x285 | 0x286 | 0x28F),
    };
    known.then_some((op, e64))
}

/// One lane's inputs: the sources, the lane's bit of the mask source, the modifiers.
#[derive(Clone, Copy, Debug, Default)]
pub struct LaneIn {
    /// `src0`.
    pub a: u32,
    /// `src1`.
    pub b: u32,
    /// `src2`, or the destination's old value for `v_mac_f32` (a 64-bit operation's third
    /// dword).
    pub c: u32,
    /// A 64-bit operation's fourth dword.
    pub d: u32,
    /// The lane's bit of the mask source.
    pub bit: bool,
    /// VOP3 clamp.
    pub clamp: bool,
    /// VOP3 output modifier.
    pub omod: u8,
    /// VOP3 absolute-value bits (source `k` in bit `k`).
    pub abs: u8,
    /// VOP3 negate bits.
    pub neg: u8,
}

/// The 64-bit operations: `v_lshlrev_b64`, `v_mad_u64_u32`, `v_cmp_*_{i64,u64}`.
pub fn is_wide(op: Op) -> bool {
    matches!(op, Op::Vop3(0x1E8 | 0x28F) | Op::Vopc(0xE0..=0xEF))
}

/// The operations whose result is a VGPR pair: `v_lshlrev_b64`, `v_mad_u64_u32`.
pub fn writes_pair(op: Op) -> bool {
    matches!(op, Op::Vop3(0x1E8 | 0x28F))
}

/// The operations without source modifiers: the carry forms, `v_readfirstlane_b32` and the
/// 64-bit operations.
fn unmodified(op: Op) -> bool {
    matches!(op, Op::Vop2(0x19..=0x1E) | Op::Vop1(0x02)) || is_wide(op)
}

/// What one lane of `op` gives: (result, mask bit); the result's bits \[63:32\] are the high
/// dword of a 64-bit result (0 for the others). The source modifiers apply first (not to
/// `v_mac_f32`'s addend), the output modifiers to the fp32 results.
pub fn lane(op: Op, l: LaneIn) -> (u64, bool) {
    let m = |k: usize, x: u32| match unmodified(op) || (k == 2 && op == Op::Vop2(0x16)) {
        true => x,
        false => fp::source(l.abs, l.neg, k, x),
    };
    let (a, b, c) = (m(0, l.a), m(1, l.b), m(2, l.c));
    if let Some(r) = fp_value(op, a, b, c) {
        return (fp::output(r, l.omod, l.clamp).into(), false);
    }
    let pair = |lo: u32, hi: u32| u64::from(hi) << 32 | u64::from(lo);
    match op {
        Op::Vopc(o @ 0x40..=0x5F) => (0, fp::compare(o, a, b)),
        Op::Vopc(o @ 0xE0..=0xEF) => (0, compare64(o, pair(a, c), pair(b, l.d))),
        Op::Vop1(o @ (0x07 | 0x08)) => (fp::to_int(a, o == 0x08).into(), false),
        // v_bfe_u32: the `c[4:0]` bits of `a` from bit `b[4:0]` on.
        Op::Vop3(0x1C8) => (
            u64::from((a >> (b & 31)) & ((1u64 << (c & 31)) - 1) as u32),
            false,
        ),
        Op::Vop3(0x28F) => (pair(b, l.d) << (a & 63), false),
        Op::Vop3(0x1E8) => {
            let (sum, carry) = (u64::from(a) * u64::from(b)).overflowing_add(pair(c, l.d));
            (if carry && l.clamp { u64::MAX } else { sum }, carry)
        }
        _ => {
            let (r, bit) = integer(op, a, b, l.bit, l.clamp);
            (r.into(), bit)
        }
    }
}

/// The fp32 result of a float-producing `op`, before the output modifiers; `None` for the
/// others.
fn fp_value(op: Op, a: u32, b: u32, c: u32) -> Option<u32> {
    let r = match op {
        Op::Vop1(0x05) => fp::from_int(a, true),
        Op::Vop1(0x06) => fp::from_int(a, false),
        Op::Vop2(0x01) => fp::add(a, b),
        Op::Vop2(0x02) => fp::sub(a, b),
        Op::Vop2(0x03) => fp::sub(b, a),
        Op::Vop2(0x05) => fp::mul(a, b),
        Op::Vop2(0x0A) => fp::min_max(a, b, false),
        Op::Vop2(0x0B) => fp::min_max(a, b, true),
        Op::Vop2(0x16) | Op::Vop3(0x1C1) => fp::add(fp::mul(a, b), c),
        Op::Vop3(0x1CB) => fp::fma(a, b, c),
        _ => return None,
    };
    Some(r)
}

/// The integer operations: (result, mask bit) from `a` = src0, `b` = src1, the lane's bit of
/// the mask source, and clamp.
fn integer(op: Op, a: u32, b: u32, bit: bool, clamp: bool) -> (u32, bool) {
    let (wa, wb, c) = (u64::from(a), u64::from(b), u64::from(bit));
    // x + y (+ carry in) with the carry out, clamped to all ones.
    let add = |x: u64, y: u64| {
        let s = x + y;
        let carry = s > 0xFFFF_FFFF;
        (if carry && clamp { u32::MAX } else { s as u32 }, carry)
    };
    // x - y (- borrow in) with the borrow out, clamped to 0.
    let sub = |x: u64, y: u64| {
        let borrow = y > x;
        (
            if borrow && clamp {
                0
            } else {
                x.wrapping_sub(y) as u32
            },
            borrow,
        )
    };
    match op {
        Op::Vop1(0x2B) => (!a, false),
        Op::Vop1(_) => (a, false),
        Op::Vopc(o) => (0, compare(o, a, b)),
        Op::Vop3(0x285) => (a.wrapping_mul(b), false),
        Op::Vop3(_) => (((wa * wb) >> 32) as u32, false),
        Op::Vop2(o) => match o {
            0x00 => (if bit { b } else { a }, false),
            0x19 => add(wa, wb),
            0x1C => add(wa, wb + c),
            0x1A => sub(wa, wb),
            0x1B => sub(wb, wa),
            0x1D => sub(wa, wb + c),
            0x1E => sub(wb, wa + c),
            _ => (vop2(o, a, b, clamp), false),
        },
    }
}

/// The VOP2 operations without a mask bit.
fn vop2(o: u16, a: u32, b: u32, clamp: bool) -> u32 {
    let (sa, sb) = (a as i32, b as i32);
    match o {
        0x08 => {
            let p = u64::from(a & 0xFF_FFFF) * u64::from(b & 0xFF_FFFF);
            if clamp && p > u64::from(u32::MAX) {
                u32::MAX
            } else {
                p as u32
            }
        }
        0x0C => sa.min(sb) as u32,
        0x0D => sa.max(sb) as u32,
        0x0E => a.min(b),
        0x0F => a.max(b),
        0x10 => b >> (a & 31),
        0x11 => (sb >> (a & 31)) as u32,
        0x12 => b << (a & 31),
        0x13 => a & b,
        0x14 => a | b,
        _ => a ^ b,
    }
}

/// A VOPC integer compare: opcode bits \[2:0\] say whether it holds when less, equal,
/// greater (F, LT, EQ, LE, GT, NE, GE, T); bit 3 clear is signed.
fn compare(o: u16, a: u32, b: u32) -> bool {
    let ord = if o & 8 == 0 {
        (a as i32).cmp(&(b as i32))
    } else {
        a.cmp(&b)
    };
    holds(o, ord)
}

/// A 64-bit VOPC compare (0xE0..=0xEF), as [`compare`].
fn compare64(o: u16, a: u64, b: u64) -> bool {
    let ord = if o & 8 == 0 {
        (a as i64).cmp(&(b as i64))
    } else {
        a.cmp(&b)
    };
    holds(o, ord)
}

/// Whether compare `o` (bits \[2:0\]: less, equal, greater) holds for `ord`.
fn holds(o: u16, ord: std::cmp::Ordering) -> bool {
    use std::cmp::Ordering::*;
    let holds = match ord {
        Less => 1,
        Equal => 2,
        Greater => 4,
    };
    o & holds != 0
}

/// What the model knows of the instruction in flight.
#[derive(Clone, Copy, Debug)]
struct Flight {
    op: Op,
    e64: bool,
    quarter: u8,
    dst: u8,
    sdst: u8,
    clamp: bool,
    omod: u8,
    abs: u8,
    neg: u8,
    exec: u64,
    mask_in: u64,
    /// The mask built so far.
    mask: u64,
    /// `v_readfirstlane_b32`'s value so far, and whether an active lane gave it.
    first: (u32, bool),
}

impl Flight {
    fn writes_vgpr(&self) -> bool {
        !matches!(self.op, Op::Vopc(_) | Op::Vop1(0x02))
    }

    fn writes_pair(&self) -> bool {
        writes_pair(self.op)
    }

    /// The SGPR write at the end: (code, 64 bits wide), or none.
    fn sgpr(&self) -> Option<(u8, bool)> {
        let code = |e64_code: u8| if self.e64 { e64_code } else { VCC };
        match self.op {
            Op::Vop1(0x02) => Some((self.dst & 0x7F, false)),
            Op::Vopc(_) => Some((code(self.dst & 0x7F), true)),
            Op::Vop2(0x19..=0x1E) => Some((code(self.sdst & 0x7F), true)),
            Op::Vop3(0x1E8) => Some((self.sdst & 0x7F, true)),
            _ => None,
        }
    }
}

/// Cycle-level model of the VALU.
#[derive(Clone, Debug, Default)]
pub struct ValuModel {
    /// The instruction whose next quarter is read, if any.
    flight: Option<Flight>,
    /// The registered outputs (write-back and end of instruction).
    held: ValuOut,
}

impl ValuModel {
    /// An idle VALU.
    pub fn new() -> Self {
        Self::default()
    }

    /// The outputs during the current cycle.
    pub fn outputs(&self) -> ValuOut {
        let q = self.flight.map_or(0, |f| f.quarter);
        ValuOut {
            busy: q != 0,
            quarter: q,
            ..self.held
        }
    }

    /// The rising edge with these inputs.
    pub fn clock(&mut self, i: &ValuIn) {
        self.held = ValuOut::default();
        let issued = || {
            let (op, e64) = op_of(i.format, i.opcode)?;
            Some(Flight {
                op,
                e64,
                quarter: 0,
                dst: i.dst,
                sdst: i.sdst,
                clamp: i.clamp,
                omod: i.omod,
                abs: i.abs,
                neg: i.neg,
                exec: i.exec,
                mask_in: i.mask_in,
                mask: 0,
                first: (0, false),
            })
        };
        let flight = match (i.reset, self.flight) {
            (true, _) => None,
            (false, Some(f)) => Some(f),
            (false, None) if i.valid => issued(),
            _ => None,
        };
        self.flight = flight.and_then(|f| self.quarter(f, i));
    }

    /// Runs quarter `f.quarter` on the cycle's lanes; the flight after it, if any quarter is
    /// left.
    fn quarter(&mut self, mut f: Flight, i: &ValuIn) -> Option<Flight> {
        let base = 16 * usize::from(f.quarter);
        let mut lanes = 0u16;
        let mut data = [0u32; QUARTER];
        let mut data_hi = [0u32; QUARTER];
        if f.quarter == 0 {
            f.first.0 = i.a[0];
        }
        for l in 0..QUARTER {
            let at = base + l;
            if f.exec >> at & 1 == 0 {
                continue;
            }
            let (r, bit) = lane(
                f.op,
                LaneIn {
                    a: i.a[l],
                    b: i.b[l],
                    c: i.c[l],
                    d: i.d[l],
                    bit: f.mask_in >> at & 1 == 1,
                    clamp: f.clamp,
                    omod: f.omod,
                    abs: f.abs,
                    neg: f.neg,
                },
            );
            f.mask |= u64::from(bit) << at;
            if !f.first.1 {
                f.first = (i.a[l], true);
            }
            if f.writes_vgpr() {
                data[l] = r as u32;
                data_hi[l] = (r >> 32) as u32;
                lanes |= 1 << l;
            }
        }
        self.held.wb_valid = f.writes_vgpr();
        if self.held.wb_valid {
            self.held.wb_quarter = f.quarter;
            self.held.wb_vgpr = f.dst;
            self.held.wb_lanes = lanes;
            self.held.wb_data = data;
            self.held.wb_two = f.writes_pair();
            if f.writes_pair() {
                self.held.wb_data_hi = data_hi;
            }
        }
        if f.quarter < 3 {
            f.quarter += 1;
            return Some(f);
        }
        self.held.done = true;
        if let Some((code, wide)) = f.sgpr() {
            self.held.sgpr_we = true;
            self.held.sgpr_wide = wide;
            self.held.sgpr_dst = code;
            let data = if wide { f.mask } else { u64::from(f.first.0) };
            (self.held.sgpr_lo, self.held.sgpr_hi) = (data as u32, (data >> 32) as u32);
            self.held.exec_we = matches!(f.op, Op::Vopc(o) if o & 0x10 != 0);
        }
        None
    }
}

impl crate::block::Clocked for ValuModel {
    type In = ValuIn;
    type Out = ValuOut;

    /// The outputs are registers and the quarter counter: they do not depend on the inputs.
    fn outputs(&self, _input: &ValuIn) -> ValuOut {
        ValuModel::outputs(self)
    }

    fn step(&mut self, input: &ValuIn) {
        self.clock(input);
    }
}

/// One instruction's effect on whole rows: the VGPR results of the active lanes, the SGPR
/// write at the end (code, value, 64 bits wide, also EXEC), from the issue fields in `issue`
/// and the 64-lane sources `rows` (`a`, `b`, `c`, `d`), run through the cycle model quarter
/// by quarter.
pub fn run_rows(issue: &ValuIn, rows: [&[u32; 64]; 4]) -> RowEffect {
    let mut m = ValuModel::new();
    let mut e = RowEffect::default();
    for cycle in 0..4 {
        let q = m.outputs().quarter as usize;
        let quarter = |r: usize| std::array::from_fn(|l| rows[r][16 * q + l]);
        let inp = ValuIn {
            valid: cycle == 0,
            a: quarter(0),
            b: quarter(1),
            c: quarter(2),
            d: quarter(3),
            ..*issue
        };
        m.clock(&inp);
        let o = m.outputs();
        if o.wb_valid {
            for l in 0..QUARTER {
                if o.wb_lanes >> l & 1 == 1 {
                    let at = 16 * usize::from(o.wb_quarter) + l;
                    e.vgpr[at] = Some(o.wb_data[l]);
                    e.vgpr_hi[at] = o.wb_two.then_some(o.wb_data_hi[l]);
                }
            }
        }
        if o.done && o.sgpr_we {
            e.sgpr = Some((o.sgpr_dst, o.sgpr_data(), o.sgpr_wide, o.exec_we));
        }
    }
    e
}

/// What [`run_rows`] returns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RowEffect {
    /// The value written to each lane of the destination VGPR (`None`: not written).
    pub vgpr: [Option<u32>; 64],
    /// The value written to each lane of the VGPR after it (a 64-bit result's high dword).
    pub vgpr_hi: [Option<u32>; 64],
    /// The SGPR write: (code, value, 64 bits wide, also to EXEC).
    pub sgpr: Option<(u8, u64, bool, bool)>,
}

impl Default for RowEffect {
    fn default() -> Self {
        Self {
            vgpr: [None; 64],
            vgpr_hi: [None; 64],
            sgpr: None,
        }
    }
}

#[cfg(test)]
mod tests;
