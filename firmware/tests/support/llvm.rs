//! Running llvm-mc-14, the encoding oracle, from tests. A missing llvm-mc-14 fails the test
//! ("run scripts/setup"); it never skips.
#![allow(dead_code)]

use std::io::{ErrorKind, Write};
use std::process::{Command, Output, Stdio};

/// `name` from the environment parsed as a number, else `default`.
pub fn env_or(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// Runs llvm-mc-14 for fiji with encodings shown on `input` (stdin); `extra` adds flags
/// (e.g. `-disassemble`).
pub fn llvm_mc_with(input: &str, extra: &[&str]) -> Output {
    let spawned = Command::new("llvm-mc-14")
        .args(["-arch=amdgcn", "-mcpu=fiji", "-show-encoding"])
        .args(extra)
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

/// Runs llvm-mc-14 (assembling) on `input`.
pub fn llvm_mc(input: &str) -> Output {
    llvm_mc_with(input, &[])
}

/// The instructions llvm-mc printed: (text, encoded bytes), in order.
pub fn encodings(stdout: &str) -> Vec<(String, Vec<u8>)> {
    stdout
        .lines()
        .filter_map(|l| {
            let (text, enc) = l.split_once("; encoding: [")?;
            let bytes = enc
                .trim_end_matches(']')
                .split(',')
                .map(|b| {
                    u8::from_str_radix(b.trim().trim_start_matches("0x"), 16).expect("hex byte")
                })
                .collect();
            Some((text.trim().to_string(), bytes))
        })
        .collect()
}

/// Little-endian bytes → dwords.
pub fn dwords(bytes: &[u8]) -> Vec<u32> {
    bytes
        .chunks(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

/// The first few llvm-mc errors, each with the input line it points at.
pub fn explain_errors(stderr: &str, lines: &[String]) -> String {
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
