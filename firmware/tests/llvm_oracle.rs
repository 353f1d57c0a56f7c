//! The LLVM oracle: for thousands of random lines covering every instruction form and operand
//! form of the subset (tests/support/gen.rs), rtgpu's encoder must produce exactly the bytes
//! `llvm-mc -arch=amdgcn -mcpu=fiji -show-encoding` prints; rtgpu's disassembly of LLVM's
//! bytes must reassemble to the same bytes; LLVM's own disassembly text must assemble to the
//! same bytes with rtgpu's assembler. llvm-mc missing = failure.
//!
//! `ORACLE_LINES` and `ORACLE_SEED` override the line count and the seed.

#[path = "support/gen.rs"]
mod gen;
#[path = "support/llvm.rs"]
mod llvm;

use llvm::{dwords, encodings, env_or, explain_errors, llvm_mc, llvm_mc_with};
use rtgpu_firmware::isa::{assemble_line, decode, Format, Op, ALL_OPS};
use std::collections::HashSet;

const LINES: u64 = 6000;
const SEED: u64 = 0x005e_ed0f_117a;

/// The random lines and LLVM's (text, bytes) for each.
fn oracle() -> (Vec<String>, Vec<(String, Vec<u8>)>) {
    let lines = gen::lines(
        env_or("ORACLE_SEED", SEED),
        env_or("ORACLE_LINES", LINES) as usize,
    );
    let out = llvm_mc(&(lines.join("\n") + "\n"));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success() && !stderr.contains("error:"),
        "llvm-mc rejected: {}",
        explain_errors(&stderr, &lines)
    );
    let enc = encodings(&String::from_utf8_lossy(&out.stdout));
    assert_eq!(enc.len(), lines.len(), "one encoding per line");
    (lines, enc)
}

/// Our encoding of one line, or the error text.
fn ours(line: &str) -> Result<Vec<u32>, String> {
    let insn = assemble_line(line).map_err(|e| e.to_string())?;
    insn.encode().map_err(|e| e.to_string())
}

fn report(what: &str, failures: &[String], total: usize) {
    assert!(
        failures.is_empty(),
        "{what}: {} of {total} lines fail; first ones:\n{}",
        failures.len(),
        failures
            .iter()
            .take(25)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}

#[test]
fn encodings_equal_llvm() {
    let (lines, enc) = oracle();
    let mut failures = Vec::new();
    for (line, (text, bytes)) in lines.iter().zip(&enc) {
        let want = dwords(bytes);
        match ours(line) {
            Ok(got) if got == want => {}
            Ok(got) => failures.push(format!(
                "{line:<50} ours {got:08X?} llvm {want:08X?} ({text})"
            )),
            Err(e) => failures.push(format!("{line:<50} ours: {e}; llvm {want:08X?}")),
        }
    }
    report("encoding differs from llvm-mc", &failures, lines.len());
}

#[test]
fn our_disassembly_of_llvm_bytes_reassembles() {
    let (lines, enc) = oracle();
    let mut failures = Vec::new();
    for (line, (_, bytes)) in lines.iter().zip(&enc) {
        let words = dwords(bytes);
        let result = decode(&words)
            .map_err(|e| e.to_string())
            .and_then(|(insn, len)| {
                if len != words.len() {
                    return Err(format!("decoded {len} words of {}", words.len()));
                }
                let text = insn.to_string();
                ours(&text).map(|w| (text, w))
            });
        match result {
            Ok((_, again)) if again == words => {}
            Ok((text, again)) => failures.push(format!(
                "{line}: disassembled as {text:?} → {again:08X?}, want {words:08X?}"
            )),
            Err(e) => failures.push(format!("{line} ({words:08X?}): {e}")),
        }
    }
    report("disassembly does not reassemble", &failures, lines.len());
}

#[test]
fn llvm_disassembly_text_assembles_to_the_same_bytes() {
    let (lines, enc) = oracle();
    let hex: Vec<String> = enc
        .iter()
        .map(|(_, b)| {
            b.iter()
                .map(|x| format!("{x:#04x}"))
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect();
    let out = llvm_mc_with(&(hex.join("\n") + "\n"), &["-disassemble"]);
    let texts: Vec<String> = encodings(&String::from_utf8_lossy(&out.stdout))
        .into_iter()
        .map(|(t, _)| t)
        .collect();
    assert_eq!(
        texts.len(),
        enc.len(),
        "llvm-mc disassembled every instruction"
    );
    // LLVM's disassembly can drop bits (e.g. unused s_waitcnt bits): compare with what LLVM
    // assembles from its own text.
    let out = llvm_mc(&(texts.join("\n") + "\n"));
    let again = encodings(&String::from_utf8_lossy(&out.stdout));
    assert_eq!(
        again.len(),
        texts.len(),
        "llvm-mc reassembled its disassembly"
    );
    let mut failures = Vec::new();
    for ((text, bytes), line) in again.iter().zip(&lines) {
        match ours(text) {
            Ok(got) if got == dwords(bytes) => {}
            Ok(got) => failures.push(format!(
                "{text:<50} ours {got:08X?} llvm {:08X?} (from {line})",
                dwords(bytes)
            )),
            Err(e) => failures.push(format!("{text:<50} ours: {e} (from {line})")),
        }
    }
    report("llvm's disassembly text", &failures, lines.len());
}

#[test]
fn every_instruction_form_is_covered() {
    let (_, enc) = oracle();
    let mut seen = HashSet::new();
    for (_, bytes) in &enc {
        if let Ok((insn, _)) = decode(&dwords(bytes)) {
            seen.insert((insn.op, insn.e64));
        }
    }
    let mut missing = Vec::new();
    // (split/merge and Sim-D's tile transfers are rtgpu's own: LLVM does not know them.)
    let ours = [Op::Split, Op::Merge, Op::TileLd, Op::TileSt];
    for &op in ALL_OPS.iter().filter(|op| !ours.contains(op)) {
        let native = op.info().format != Format::Vop3;
        if native && !seen.contains(&(op, false)) {
            missing.push(op.name().to_string());
        }
        if (op.has_e64() || !native) && !seen.contains(&(op, op.has_e64())) {
            missing.push(format!("{}_e64", op.name()));
        }
    }
    assert!(missing.is_empty(), "forms never exercised: {missing:?}");
}
