//! fp32 semantics of the vector ALU (kernels/README.md): IEEE binary32, round to nearest
//! even, denormals kept; VOP3 source modifiers (`|x|`, `-x`) and output modifiers (omod,
//! clamp).
//!
//! NaN results are fixed here rather than left to the host (IEEE 754 lets an operation
//! return any of its NaN operands, and the compiled code of `x * y` may take either first):
//! an arithmetic operation with a NaN operand returns the first NaN operand in its order
//! (`x` before `y` before `z`; `v_subrev_f32` computes `y − x`, so `y` first), quieted; an
//! invalid operation without one (`∞ − ∞`, `0 · ∞`, the square root of a negative) returns
//! [`DEFAULT_NAN`] (docs/assumptions.md, A99).

use crate::isa::{Modifiers, Op};

/// The NaN of an invalid operation: negative, quiet, no payload (x86-64's default NaN).
pub(crate) const DEFAULT_NAN: u32 = 0xFFC0_0000;

/// The result `r` of an arithmetic operation on `operands` (in the operation's order), with
/// the NaN policy of the module: the first NaN operand quieted, else [`DEFAULT_NAN`] for a
/// NaN `r`.
fn arith(operands: &[f32], r: f32) -> f32 {
    match operands.iter().find(|x| x.is_nan()) {
        Some(n) => f32::from_bits(n.to_bits() | 0x0040_0000),
        None if r.is_nan() => f32::from_bits(DEFAULT_NAN),
        None => r,
    }
}

/// Applies the VOP3 source modifiers of source `k` to a 32-bit value: `abs` clears the sign
/// bit, then `neg` flips it (pure bit operations, so NaNs pass unchanged).
pub(crate) fn source(mods: Modifiers, k: usize, bits: u32) -> u32 {
    let mut b = bits;
    if mods.abs >> k & 1 == 1 {
        b &= 0x7fff_ffff;
    }
    if mods.neg >> k & 1 == 1 {
        b ^= 0x8000_0000;
    }
    b
}

/// Applies the output modifiers to a float result: omod (×2, ×4, ×0.5) first, then clamp to
/// [0.0, 1.0] (NaN, −0.0 and negatives clamp to +0.0).
pub(crate) fn output(mods: Modifiers, value: f32) -> f32 {
    let scaled = match mods.omod {
        1 => arith(&[value], value * 2.0),
        2 => arith(&[value], value * 4.0),
        3 => arith(&[value], value * 0.5),
        _ => value,
    };
    if !mods.clamp {
        scaled
    } else if scaled > 1.0 {
        1.0
    } else if scaled > 0.0 {
        scaled
    } else {
        0.0
    }
}

/// `v_min_f32`: the smaller operand; the other operand when one is NaN; −0.0 is below +0.0.
pub(crate) fn min(a: f32, b: f32) -> f32 {
    if a.is_nan() {
        b
    } else if b.is_nan() || a < b || (a == b && a.is_sign_negative()) {
        a
    } else {
        b
    }
}

/// `v_max_f32`: the larger operand; the other operand when one is NaN; +0.0 is above −0.0.
pub(crate) fn max(a: f32, b: f32) -> f32 {
    if a.is_nan() {
        b
    } else if b.is_nan() || a > b || (a == b && a.is_sign_positive()) {
        a
    } else {
        b
    }
}

/// The result of a float-producing vector op on (possibly modified) sources `a`, `b`, `c`
/// (`c` is the old destination for `v_mac_f32`); `None` if `op` does not produce a float.
pub(crate) fn eval(op: Op, a: u32, b: u32, c: u32) -> Option<f32> {
    use Op::*;
    let (x, y, z) = (f32::from_bits(a), f32::from_bits(b), f32::from_bits(c));
    let r = match op {
        VAddF32 => arith(&[x, y], x + y),
        VSubF32 => arith(&[x, y], x - y),
        VSubrevF32 => arith(&[y, x], y - x),
        VMulF32 => arith(&[x, y], x * y),
        VMinF32 => min(x, y),
        VMaxF32 => max(x, y),
        VMacF32 | VMadF32 => {
            let t = arith(&[x, y], x * y);
            arith(&[t, z], t + z)
        }
        VFmaF32 => arith(&[x, y, z], x.mul_add(y, z)),
        VRcpF32 | VRcpIflagF32 => arith(&[x], 1.0 / x),
        VSqrtF32 => arith(&[x], x.sqrt()),
        VCvtF32I32 => a as i32 as f32,
        VCvtF32U32 => a as f32,
        _ => return None,
    };
    Some(r)
}

/// A float compare (`v_cmp*_*_f32`); `None` for other opcodes. Ordered compares are false
/// with a NaN operand; `neq` (not equal, unordered) is true.
pub(crate) fn compare(op: Op, a: u32, b: u32) -> Option<bool> {
    use Op::*;
    let (x, y) = (f32::from_bits(a), f32::from_bits(b));
    let r = match op {
        VCmpEqF32 | VCmpxEqF32 => x == y,
        VCmpNeqF32 | VCmpxNeqF32 => x != y,
        VCmpLtF32 | VCmpxLtF32 => x < y,
        VCmpLeF32 | VCmpxLeF32 => x <= y,
        VCmpGtF32 | VCmpxGtF32 => x > y,
        VCmpGeF32 | VCmpxGeF32 => x >= y,
        _ => return None,
    };
    Some(r)
}
