//! The RTL vector ALU's reference model (`rtgpu_hw::valu::model`, fp32 in integers) against
//! this interpreter (Rust `f32` on the host) on the fp32 instructions: every one of the
//! block's fp32 operations, plain and with source modifiers (`-x`, `|x|`), omod (×2, ×4,
//! ×0.5) and clamp, on operands biased to the special values (±0, denormals, the smallest and
//! largest normals, ±∞, quiet and signalling NaNs with payloads, the limits of the integer
//! conversions, ties) and to exponents whose sums and differences reach the overflow and
//! underflow boundaries and cancel. Bit for bit, NaN payloads included.
//!
//! `fp_model_equals_the_interpreter` runs 192 waves (12,288 lanes) on each of the 97 lines,
//! 1.19 million lanes in all; `fp_model_equals_the_interpreter_long` (`--ignored`) 32 times
//! more. Mutations caught (each failing the short test): the model's rounding toward zero
//! instead of to nearest even in `round` (`half` ignored), denormal results flushed to zero,
//! the default NaN positive (`0x7FC00000`), `fma`'s NaN order `y, x, z` instead of
//! `x, y, z`, the abs modifier ignored (`source` without the `abs` clear).

use super::valu_block::check;
use super::wave::{Wave, EXEC, VCC};
use crate::isa::assemble;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rtgpu_hw::isa::insn_model::{decode_fields, InsnFields};
use rtgpu_hw::valu::model::op_of;

/// The fp32 operations of the block, with their source shapes.
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

/// Every line of the fp32 test: the 32-bit encoding where there is one, and the `_e64` form
/// in every modifier variant the assembler takes; with its words and decoded fields.
fn lines() -> Vec<(String, Vec<u32>, InsnFields)> {
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
            text.push(format!("{e64} {dst}, {} {out}", srcs.join(", ")));
        }
    }
    text.into_iter()
        .filter_map(|line| {
            let words = assemble(&line, "t.s").ok()?.words();
            let f = decode_fields(words[0], words.get(1).copied().unwrap_or(0));
            op_of(f.format, f.opcode).map(|_| (line, words, f))
        })
        .collect()
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

/// A random operand: a special value, any bits, or a random significand under an exponent
/// field near the denormal range, 1.0, the overflow range, or the NaN/∞ field.
fn operand(rng: &mut ChaCha8Rng) -> u32 {
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

/// A second operand related to `a` (equal, negated, a few ulps away, a power of two apart)
/// or independent: cancellations, ties and equal compares.
fn partner(a: u32, rng: &mut ChaCha8Rng) -> u32 {
    match rng.gen_range(0..6) {
        0 => a,
        1 => a ^ 0x8000_0000,
        2 => (a ^ 0x8000_0000).wrapping_add(rng.gen_range(0..4)),
        3 => a.wrapping_add(rng.gen_range(0..40) << 23) ^ rng.gen_range(0..2) << 31,
        _ => operand(rng),
    }
}

/// Runs `waves` random waves through every line, model against interpreter.
fn run(waves: u64) {
    let lines = lines();
    assert_eq!(lines.len(), 97, "the fp32 lines the assembler takes");
    for (n, (line, words, f)) in lines.iter().enumerate() {
        let mut rng = ChaCha8Rng::seed_from_u64(n as u64);
        for _ in 0..waves {
            let mut w = Wave::new(0);
            w.set_pair(EXEC, rng.gen::<u64>() | 1);
            w.set_pair(VCC, rng.gen());
            for l in 0..64 {
                let a = operand(&mut rng);
                let (b, c) = (partner(a, &mut rng), partner(a, &mut rng));
                w.set_vgpr(1, l, a);
                w.set_vgpr(2, l, b);
                w.set_vgpr(3, l, partner(b, &mut rng));
                w.set_vgpr(4, l, c);
            }
            if let Err(e) = check(line, words, f, &mut w) {
                panic!("{e}");
            }
        }
    }
}

#[test]
fn fp_model_equals_the_interpreter() {
    run(192);
}

#[test]
#[ignore = "long: 32 times the cases of fp_model_equals_the_interpreter"]
fn fp_model_equals_the_interpreter_long() {
    run(192 * 32);
}
