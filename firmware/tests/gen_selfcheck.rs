//! Self-check of the random assembly generator (`tests/support/gen.rs`): llvm-mc-14, the
//! encoding oracle, must accept every line it produces and encode each as one instruction.
//!
//! `GEN_SELFCHECK_LINES` and `GEN_SELFCHECK_SEED` override the line count and the seed.

#[path = "support/gen.rs"]
mod gen;

use rand::SeedableRng;
use std::collections::HashSet;
use std::io::{ErrorKind, Write};
use std::process::{Command, Output, Stdio};

/// Lines checked by default.
const LINES: usize = 3000;
/// Fixed default seed, so a failure reproduces.
const SEED: u64 = 0x6c6c_766d_2d6d_6331;

/// `name` from the environment parsed as a number, else `default`.
fn env_or(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// Runs llvm-mc-14 on `input` (stdin) for fiji with encodings shown.
fn llvm_mc(input: &str) -> Output {
    let spawned = Command::new("llvm-mc-14")
        .args(["-arch=amdgcn", "-mcpu=fiji", "-show-encoding"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn();
    let mut child = match spawned {
        Ok(child) => child,
        Err(e) if e.kind() == ErrorKind::NotFound => {
            panic!("llvm-mc-14 not found: run scripts/setup")
        }
        Err(e) => panic!("cannot run llvm-mc-14: {e}"),
    };
    let mut stdin = child.stdin.take().expect("piped stdin");
    let input = input.to_owned();
    // Feed stdin from a thread: llvm-mc's output could otherwise fill the pipe and block.
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let out = child.wait_with_output().expect("llvm-mc-14 output");
    writer
        .join()
        .expect("stdin writer")
        .expect("write llvm-mc-14 stdin");
    out
}

/// The first few llvm-mc errors, each with the generated line it points at.
fn explain_errors(stderr: &str, lines: &[String]) -> String {
    stderr
        .lines()
        .filter(|l| l.contains("error:"))
        .take(20)
        .map(|l| {
            let n: Option<usize> = l.split(':').nth(1).and_then(|n| n.parse().ok());
            let src = n.and_then(|n| lines.get(n - 1)).map_or("?", String::as_str);
            format!("{l}\n    line: {src}")
        })
        .collect::<Vec<_>>()
        .join("\n")
}

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
