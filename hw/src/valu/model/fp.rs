//! The model's fp32 lane operations, computed in integers from the IEEE 754 definitions (no
//! host floating point): every finite operand is an exact `mant · 2^exp`, a result is the
//! exact value rounded once to nearest even, denormals kept. The NaN policy is the
//! contract's ([`crate::valu`], "fp32"): a NaN operand comes out quieted, the first in each
//! operation's order; an invalid operation gives [`DEFAULT_NAN`].

/// The quiet bit of a NaN.
const QUIET: u32 = 0x0040_0000;
/// The NaN of an invalid operation (`∞ − ∞`, `0 · ∞`, the square root of a negative).
pub const DEFAULT_NAN: u32 = 0xFFC0_0000;
/// 1.0.
const ONE: u32 = 0x3F80_0000;
/// +∞.
const INF: u32 = 0x7F80_0000;

/// `x` is a NaN.
pub fn is_nan(x: u32) -> bool {
    x & 0x7FFF_FFFF > INF
}

fn is_inf(x: u32) -> bool {
    x & 0x7FFF_FFFF == INF
}

fn is_zero(x: u32) -> bool {
    x & 0x7FFF_FFFF == 0
}

fn negative(x: u32) -> bool {
    x >> 31 == 1
}

/// The first NaN of `xs`, quieted.
fn first_nan(xs: &[u32]) -> Option<u32> {
    xs.iter().find(|&&x| is_nan(x)).map(|&x| x | QUIET)
}

/// A finite value `(-1)^neg · mant · 2^exp`.
#[derive(Clone, Copy, Debug)]
struct Exact {
    neg: bool,
    mant: u128,
    exp: i32,
}

/// The exact value of a finite `x` (an infinity reads as `2^128`, past every range).
fn exact(x: u32) -> Exact {
    let (e, m) = ((x >> 23 & 0xFF) as i32, u128::from(x & 0x7F_FFFF));
    Exact {
        neg: negative(x),
        mant: if e == 0 { m } else { m | 1 << 23 },
        exp: e.max(1) - 150,
    }
}

/// `mant >> shift` with the bit below the result (half) and whether any lower bit is set.
fn split(mant: u128, shift: i32) -> (u128, bool, bool) {
    if shift <= 0 {
        return (mant << -shift, false, false);
    }
    let s = shift as u32;
    let q = mant.checked_shr(s).unwrap_or(0);
    let half = mant.checked_shr(s - 1).unwrap_or(0) & 1 == 1;
    let below = mant & 1u128.checked_shl(s - 1).map_or(u128::MAX, |b| b - 1);
    (q, half, below != 0)
}

/// `v` rounded to nearest even as fp32 bits: 24 significant bits, the last at `2^-149` at
/// the least (denormals), past the largest finite value an infinity.
fn round(v: Exact) -> u32 {
    let sign = u32::from(v.neg) << 31;
    if v.mant == 0 {
        return sign;
    }
    let bits = 128 - v.mant.leading_zeros() as i32;
    let lsb = (v.exp + bits - 24).max(-149);
    let (q, half, below) = split(v.mant, lsb - v.exp);
    let q = q + u128::from(half && (below || q & 1 == 1));
    // Denormals and normals in one code: exponent field e-1 above the 24-bit significand.
    let code = (((lsb + 149) as u128) << 23) + q;
    sign | code.min(u128::from(INF)) as u32
}

/// The exact sum of two finite values, rounded. Both are normalized to 64 bits first; one
/// more than 62 binades below the other only decides the direction of rounding, so it
/// becomes a unit two places below the larger one's last bit.
fn sum(x: Exact, y: Exact) -> u32 {
    let norm = |v: Exact| {
        let s = v.mant.leading_zeros() as i32 - 64;
        Exact {
            mant: v.mant << s,
            exp: v.exp - s,
            ..v
        }
    };
    match (x.mant == 0, y.mant == 0) {
        (true, true) => return u32::from(x.neg && y.neg) << 31,
        (true, false) => return round(y),
        (false, true) => return round(x),
        _ => {}
    }
    let (x, y) = (norm(x), norm(y));
    let (big, small) = if x.exp >= y.exp { (x, y) } else { (y, x) };
    let d = big.exp - small.exp;
    let (b, s, exp) = match d {
        0..=62 => (big.mant << d, small.mant, small.exp),
        _ => (big.mant << 2, 1, big.exp - 2),
    };
    let (neg, mant) = match (big.neg == small.neg, b >= s) {
        (true, _) => (big.neg, b + s),
        (false, true) => (big.neg, b - s),
        (false, false) => (small.neg, s - b),
    };
    // An exact cancellation is +0 when rounding to nearest.
    round(Exact {
        neg: neg && mant != 0,
        mant,
        exp,
    })
}

/// The exact product of two finite values.
fn product(x: u32, y: u32) -> Exact {
    let (a, b) = (exact(x), exact(y));
    Exact {
        neg: a.neg != b.neg,
        mant: a.mant * b.mant,
        exp: a.exp + b.exp,
    }
}

/// `x + y`; a NaN: `x`'s, else `y`'s.
pub fn add(x: u32, y: u32) -> u32 {
    if let Some(n) = first_nan(&[x, y]) {
        return n;
    }
    match (is_inf(x), is_inf(y)) {
        (true, true) if x != y => DEFAULT_NAN,
        (true, _) => x,
        (_, true) => y,
        _ => sum(exact(x), exact(y)),
    }
}

/// `x − y`; a NaN: `x`'s, else `y`'s (unchanged but quieted).
pub fn sub(x: u32, y: u32) -> u32 {
    first_nan(&[x, y]).unwrap_or_else(|| add(x, y ^ 0x8000_0000))
}

/// `x · y`; a NaN: `x`'s, else `y`'s.
pub fn mul(x: u32, y: u32) -> u32 {
    if let Some(n) = first_nan(&[x, y]) {
        return n;
    }
    let sign = (x ^ y) & 0x8000_0000;
    match (is_inf(x) || is_inf(y), is_zero(x) || is_zero(y)) {
        (true, true) => DEFAULT_NAN,
        (true, false) => sign | INF,
        (false, true) => sign,
        _ => round(product(x, y)),
    }
}

/// `x · y + z` rounded once; a NaN: `x`'s, else `y`'s, else `z`'s.
pub fn fma(x: u32, y: u32, z: u32) -> u32 {
    if let Some(n) = first_nan(&[x, y, z]) {
        return n;
    }
    let sign = (x ^ y) & 0x8000_0000;
    let (inf, zero) = (is_inf(x) || is_inf(y), is_zero(x) || is_zero(y));
    match (inf, zero, is_inf(z)) {
        (true, true, _) => DEFAULT_NAN,
        (true, false, true) if sign != z & 0x8000_0000 => DEFAULT_NAN,
        (true, false, _) => sign | INF,
        (false, _, true) => z,
        (false, true, _) if is_zero(z) => sign & z,
        (false, true, _) => z,
        _ => sum(product(x, y), exact(z)),
    }
}

/// The order of two non-NaN values (−0 equals +0).
fn order(x: u32, y: u32) -> std::cmp::Ordering {
    let key = |v: u32| {
        let m = i64::from(v & 0x7FFF_FFFF);
        if negative(v) {
            -m
        } else {
            m
        }
    };
    key(x).cmp(&key(y))
}

/// `v_min_f32` (`max` false) or `v_max_f32`: the other operand when one is a NaN (`y` when
/// both are, unchanged); of equal values −0 is the smaller.
pub fn min_max(x: u32, y: u32, max: bool) -> u32 {
    use std::cmp::Ordering::*;
    if is_nan(x) {
        return y;
    }
    if is_nan(y) {
        return x;
    }
    let x_wins = match (order(x, y), max) {
        (Less, false) | (Greater, true) => true,
        (Equal, _) => negative(x) != max,
        _ => false,
    };
    if x_wins {
        x
    } else {
        y
    }
}

/// A VOPC fp32 compare: predicate bits \[3:0\] hold when `x < y`, `x == y`, `x > y`,
/// unordered (a NaN operand).
pub fn compare(pred: u16, x: u32, y: u32) -> bool {
    use std::cmp::Ordering::*;
    let bit = if is_nan(x) || is_nan(y) {
        8
    } else {
        match order(x, y) {
            Less => 1,
            Equal => 2,
            Greater => 4,
        }
    };
    pred & bit != 0
}

/// `v_cvt_f32_i32` (`signed`) or `v_cvt_f32_u32`.
pub fn from_int(a: u32, signed: bool) -> u32 {
    let neg = signed && (a as i32) < 0;
    let mag = if neg { a.wrapping_neg() } else { a };
    round(Exact {
        neg,
        mant: u128::from(mag),
        exp: 0,
    })
}

/// `v_cvt_i32_f32` (`signed`) or `v_cvt_u32_f32`: toward zero, saturated, a NaN gives 0.
pub fn to_int(x: u32, signed: bool) -> u32 {
    if is_nan(x) {
        return 0;
    }
    let v = exact(x);
    let mag = split(v.mant, -v.exp.min(64)).0.min(1 << 40) as i64;
    let value = if v.neg { -mag } else { mag };
    if signed {
        value.clamp(i32::MIN.into(), i32::MAX.into()) as i32 as u32
    } else {
        value.clamp(0, u32::MAX.into()) as u32
    }
}

/// The output modifiers: omod (1 ×2, 2 ×4, 3 ×0.5, rounded; a NaN quieted) and then clamp
/// to \[0, 1\] (a NaN and −0 give +0).
pub fn output(x: u32, omod: u8, clamp: bool) -> u32 {
    let scaled = match omod & 3 {
        0 => x,
        _ if is_nan(x) => x | QUIET,
        _ if is_inf(x) => x,
        k => round(Exact {
            exp: exact(x).exp + [0, 1, 2, -1][usize::from(k)],
            ..exact(x)
        }),
    };
    match (clamp, is_nan(scaled) || negative(scaled), scaled > ONE) {
        (false, ..) => scaled,
        (true, true, _) => 0,
        (true, false, true) => ONE,
        _ => scaled,
    }
}

/// The VOP3 source modifiers of source `k`: `abs` bit `k` clears the sign, then `neg` bit
/// `k` flips it.
pub fn source(abs: u8, neg: u8, k: usize, x: u32) -> u32 {
    let cleared = if abs >> k & 1 == 1 {
        x & 0x7FFF_FFFF
    } else {
        x
    };
    cleared ^ u32::from(neg >> k & 1) << 31
}
