//! The `rtgpu` program as a user runs it: exit codes, errors, machine-readable output.

use std::process::Command;

fn rtgpu(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_rtgpu"))
        .args(args)
        .output()
        .expect("rtgpu runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into(),
        String::from_utf8_lossy(&out.stderr).into(),
    )
}

#[test]
fn list_names_every_block_and_speaks_json() {
    let (code, out, _) = rtgpu(&["list", "--json"]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let names: Vec<&str> = v
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["decode", "counter"]);
}

#[test]
fn unknown_blocks_are_usage_errors() {
    for cmd in ["tb", "cosim", "synth"] {
        let (code, out, err) = rtgpu(&[cmd, "no_such_block"]);
        assert_eq!(code, 2, "{cmd}");
        assert!(out.is_empty());
        assert!(
            err.contains("unknown block `no_such_block`") && err.contains("decode"),
            "{err}"
        );
    }
}

#[test]
fn tb_writes_the_waveform_where_asked() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    let (code, out, err) = rtgpu(&["tb", "decode", "--cycles", "64", "--out", d]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("decode: PASS"), "{out}");
    assert!(dir.path().join("decode.vcd").is_file());
    assert!(dir.path().join("decode.gtkw").is_file());
}

#[test]
fn bad_arguments_exit_2_and_help_exits_0() {
    assert_eq!(rtgpu(&["tb", "decode", "--cycles", "many"]).0, 2);
    assert_eq!(rtgpu(&["frobnicate"]).0, 2);
    let (code, out, _) = rtgpu(&["--help"]);
    assert_eq!(code, 0);
    assert!(out.contains("cosim") && out.contains("synth") && out.contains("bench"));
}
