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
use crate::isa::{assemble, fp_alu_lines, fp_operand, fp_partner};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rtgpu_hw::isa::insn_model::{decode_fields, InsnFields};
use rtgpu_hw::valu::model::op_of;

/// Every line of the fp32 test, with its words and decoded fields.
fn lines() -> Vec<(String, Vec<u32>, InsnFields)> {
    fp_alu_lines()
        .into_iter()
        .filter_map(|line| {
            let words = assemble(&line, "t.s").ok()?.words();
            let f = decode_fields(words[0], words.get(1).copied().unwrap_or(0));
            op_of(f.format, f.opcode).map(|_| (line, words, f))
        })
        .collect()
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
                let a = fp_operand(&mut rng);
                let (b, c) = (fp_partner(a, &mut rng), fp_partner(a, &mut rng));
                w.set_vgpr(1, l, a);
                w.set_vgpr(2, l, b);
                w.set_vgpr(3, l, fp_partner(b, &mut rng));
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
