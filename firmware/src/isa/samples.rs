//! Sample assembly lines of instructions, for tests that run one instruction at a time.

use super::{Op, Sig};
use rand::Rng;

/// Two assembly lines of a two-source vector ALU instruction with fixed registers, for tests
/// that run one instruction on chosen rows: its 32-bit encoding and its `_e64` form (sources
/// v1 and v2, VGPR destination v3, mask destination VCC or s\[8:9\], mask source VCC or
/// s\[6:7\]; `v_readfirstlane_b32` reads v1 into s4 and v2 into s5, a VOP3-only operation
/// writes f(v1, v2) to v3 and f(v2, v1) to v4); `None` for the other signatures (scalar,
/// memory, three-source and 64-bit vector operations).
pub fn vector_alu_lines(op: Op) -> Option<[String; 2]> {
    let (name, sig) = (op.info().name, op.info().sig);
    let e64 = format!("{name}_e64");
    let pair = |a: String, b: String| Some([a, b]);
    match sig {
        Sig::Vop1 => pair(format!("{name} v3, v1"), format!("{e64} v3, v1")),
        Sig::ReadLane => pair(format!("{name} s4, v1"), format!("{name} s5, v2")),
        Sig::Vop2 => pair(format!("{name} v3, v1, v2"), format!("{e64} v3, v1, v2")),
        Sig::Carry => pair(
            format!("{name} v3, vcc, v1, v2"),
            format!("{e64} v3, s[8:9], v1, v2 clamp"),
        ),
        Sig::CarryIn => pair(
            format!("{name} v3, vcc, v1, v2, vcc"),
            format!("{e64} v3, s[8:9], v1, v2, s[6:7] clamp"),
        ),
        Sig::Cndmask => pair(
            format!("{name} v3, v1, v2, vcc"),
            format!("{e64} v3, v1, v2, s[6:7]"),
        ),
        Sig::Vopc => pair(
            format!("{name} vcc, v1, v2"),
            format!("{e64} s[8:9], v1, v2"),
        ),
        Sig::Vop3(1, 1, 1, 0) => pair(format!("{name} v3, v1, v2"), format!("{name} v4, v2, v1")),
        _ => None,
    }
}

/// The 64-bit vector ALU operations of the subset on VGPR pairs (`v1`, `v2` and the pairs
/// `v[1:2]`, `v[3:4]`), one line per shape: the shift, the multiply-add without and with
/// clamp, the two compares in both encodings.
pub const WIDE_ALU_LINES: [&str; 5] = [
    "v_lshlrev_b64 v[3:4], v1, v[1:2]",
    "v_mad_u64_u32 v[3:4], s[8:9], v1, v2, v[3:4]",
    "v_mad_u64_u32 v[3:4], s[8:9], v1, v2, v[3:4] clamp",
    "v_cmp_eq_u64 vcc, v[1:2], v[3:4]",
    "v_cmp_ne_u64_e64 s[8:9], v[1:2], v[3:4]",
];

/// The fp32 vector ALU operations, with their sources.
const FP_OPS: [(&str, &str); 22] = [
    ("v_add_f32", "v1, v2"),
    ("v_sub_f32", "v1, v2"),
    ("v_subrev_f32", "v1, v2"),
    ("v_mul_f32", "v1, v2"),
    ("v_min_f32", "v1, v2"),
    ("v_max_f32", "v1, v2"),
    ("v_mac_f32", "v1, v2"),
    ("v_mad_f32", "v1, v2, v4"),
    ("v_fma_f32", "v1, v2, v4"),
    ("v_cvt_f32_i32", "v1"),
    ("v_cvt_f32_u32", "v1"),
    ("v_cvt_i32_f32", "v1"),
    ("v_cvt_u32_f32", "v1"),
    ("v_cmp_eq_f32", "v1, v2"),
    ("v_cmp_neq_f32", "v1, v2"),
    ("v_cmp_lt_f32", "v1, v2"),
    ("v_cmp_le_f32", "v1, v2"),
    ("v_cmp_gt_f32", "v1, v2"),
    ("v_cmpx_ge_f32", "v1, v2"),
    ("v_cmpx_eq_f32", "v1, v2"),
    ("v_cmpx_neq_f32", "v1, v2"),
    ("v_cmpx_lt_f32", "v1, v2"),
];

/// The modifier variants of the `_e64` forms: (source prefix and suffix per source, trailing
/// output modifiers).
const VARIANTS: [([(&str, &str); 3], &str); 5] = [
    ([("", ""), ("", ""), ("", "")], ""),
    ([("-", ""), ("|", "|"), ("-|", "|")], "clamp"),
    ([("|", "|"), ("-", ""), ("", "")], "mul:2"),
    ([("-|", "|"), ("", ""), ("-", "")], "div:2"),
    ([("", ""), ("-|", "|"), ("|", "|")], "mul:4 clamp"),
];

/// Assembly lines of the fp32 vector ALU operations (sources v1, v2 and v4, destination v3,
/// mask destination VCC or s\[8:9\]): the 32-bit encoding where there is one, and the
/// `_e64` (or VOP3) form in five variants of source modifiers (`-x`, `|x|`, `-|x|`) and
/// output modifiers (`clamp`, `mul:2`, `mul:4`, `div:2`). Some variants are not valid for
/// every operation (no source modifiers on `v_cvt_f32_i32`, no output modifiers on the
/// compares): the assembler rejects those.
pub fn fp_alu_lines() -> Vec<String> {
    let mut text = Vec::new();
    for (name, srcs) in FP_OPS {
        let dst = if name.starts_with("v_cmp") {
            "s[8:9]"
        } else {
            "v3"
        };
        let native_dst = if name.starts_with("v_cmp") {
            "vcc"
        } else {
            "v3"
        };
        if srcs.matches(',').count() < 2 {
            text.push(format!("{name} {native_dst}, {srcs}"));
        }
        let e64 = if srcs.matches(',').count() < 2 {
            format!("{name}_e64")
        } else {
            name.to_string()
        };
        for (mods, out) in VARIANTS {
            let srcs: Vec<String> = srcs
                .split(", ")
                .zip(mods)
                .map(|(s, (pre, post))| format!("{pre}{s}{post}"))
                .collect();
            let line = format!("{e64} {dst}, {} {out}", srcs.join(", "));
            text.push(line.trim_end().to_string());
        }
    }
    text
}

/// The special operands.
const SPECIAL: [u32; 30] = [
    0x0000_0000,
    0x8000_0000,
    0x0000_0001,
    0x8000_0001,
    0x007F_FFFF,
    0x0080_0000,
    0x0080_0001,
    0x3F80_0000,
    0xBF80_0000,
    0x3F00_0000,
    0x3FC0_0000,
    0x4020_0000,
    0x3380_0000,
    0x3400_0000,
    0x7F7F_FFFF,
    0xFF7F_FFFF,
    0x7F80_0000,
    0xFF80_0000,
    0x7FC0_0000,
    0xFFC0_0000,
    0x7FC1_2345,
    0xFFA0_0001,
    0x7F80_0001,
    0x4EFF_FFFF,
    0x4F00_0000,
    0xCF00_0000,
    0xCF00_0001,
    0x4F7F_FFFF,
    0x4F80_0000,
    0x7FFF_FFFF,
];

/// A random fp32 operand, for tests of the fp32 operations: a special value, any bits, or a random significand under an exponent
/// field near the denormal range, 1.0, the overflow range, or the NaN/∞ field.
pub fn fp_operand(rng: &mut impl Rng) -> u32 {
    let sign = u32::from(rng.gen_bool(0.5)) << 31;
    let exp: u32 = match rng.gen_range(0..5) {
        0 => rng.gen_range(0..4),
        1 => rng.gen_range(40..90),
        2 => rng.gen_range(110..145),
        3 => rng.gen_range(190..256),
        _ => rng.gen_range(0..256),
    };
    match rng.gen_range(0..4) {
        0 => SPECIAL[rng.gen_range(0..SPECIAL.len())],
        1 => rng.gen(),
        _ => sign | exp << 23 | rng.gen_range(0..1 << 23),
    }
}

/// A second fp32 operand related to `a` (equal, negated, a few ulps away, a power of two apart)
/// or independent: cancellations, ties and equal compares.
pub fn fp_partner(a: u32, rng: &mut impl Rng) -> u32 {
    match rng.gen_range(0..6) {
        0 => a,
        1 => a ^ 0x8000_0000,
        2 => (a ^ 0x8000_0000).wrapping_add(rng.gen_range(0..4)),
        3 => a.wrapping_add(rng.gen_range(0..40) << 23) ^ rng.gen_range(0..2) << 31,
        _ => fp_operand(rng),
    }
}
