//! Self-check of the random assembly generator (`tests/support/gen.rs`): llvm-mc-14, the
//! encoding oracle, must accept every line it produces and encode each as one instruction.
//!
//! `GEN_SELFCHECK_LINES` and `GEN_SELFCHECK_SEED` override the line count and the seed.

#[path = "support/gen.rs"]
mod gen;
#[path = "support/llvm.rs"]
mod llvm;

use llvm::{env_or, explain_errors, llvm_mc};

use rand::SeedableRng;
use std::collections::HashSet;

/// Lines checked by default.
const LINES: usize = 3000;
/// Fixed default seed, so a failure reproduces.
const SEED: u64 = 0x6c6c_766d_2d6d_6331;

#[test]
fn llvm_mc_accepts_every_generated_line() {
    let n = env_or("GEN_SELFCHECK_LINES", LINES as u64) as usize;
    let lines = gen::lines(env_or("GEN_SELFCHECK_SEED", SEED), n);
    let mut input = lines.join("\n");
    input.push('\n');
    let out = llvm_mc(&input);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        !stderr.contains("error:"),
        "llvm-mc-14 rejected generated lines:\n{}",
        explain_errors(&stderr, &lines)
    );
    assert!(
        out.status.success(),
        "llvm-mc-14 failed ({}):\n{stderr}",
        out.status
    );
    let encoded = stdout.matches("; encoding:").count();
    assert_eq!(encoded, n, "expected one encoding per line");
}

#[test]
fn forms_are_unique_and_all_covered() {
    let forms = gen::forms();
    let unique: HashSet<_> = forms.iter().collect();
    assert_eq!(unique.len(), forms.len(), "duplicate form names");
    let lines = gen::lines(SEED, forms.len());
    for (form, line) in forms.iter().zip(&lines) {
        let mnemonic = line.split_whitespace().next().unwrap_or_default();
        let base = form.trim_end_matches("_e32").trim_end_matches("_e64");
        assert!(mnemonic.starts_with(base), "form {form} produced {line:?}");
    }
}

#[test]
fn generation_is_deterministic() {
    assert_eq!(gen::lines(7, 500), gen::lines(7, 500));
    let mut a = rand_chacha::ChaCha8Rng::seed_from_u64(1);
    let mut b = rand_chacha::ChaCha8Rng::seed_from_u64(1);
    assert_eq!(
        gen::line_for("v_mad_f32", &mut a),
        gen::line_for("v_mad_f32", &mut b)
    );
}
