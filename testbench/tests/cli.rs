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
    assert_eq!(
        names,
        [
            "insn",
            "pws-fig5",
            "pws-s1",
            "pws-s3",
            "pws-s7",
            "sched",
            "sched-example",
            "decode",
            "counter"
        ]
    );
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

#[test]
fn asm_lists_writes_and_disasm_reassembles() {
    let dir = tempfile::tempdir().unwrap();
    let kernel = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../firmware/kernels/divergent_scale.s"
    );
    let bin = dir.path().join("k.bin");
    let (code, out, err) = rtgpu(&["asm", kernel, "-o", bin.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("002c: BF7F6B6A           split vcc_lo, vcc_hi"),
        "{out}"
    );
    assert!(out.contains("BFFF0000           merge"), "{out}");
    let (code, listing, err) = rtgpu(&["disasm", bin.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let again = dir.path().join("again.s");
    std::fs::write(&again, &listing).unwrap();
    let bin2 = dir.path().join("again.bin");
    assert_eq!(
        rtgpu(&["asm", again.to_str().unwrap(), "-o", bin2.to_str().unwrap()]).0,
        0
    );
    assert_eq!(std::fs::read(&bin).unwrap(), std::fs::read(&bin2).unwrap());
}

#[test]
fn asm_and_disasm_report_bad_input_with_exit_1() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.s");
    std::fs::write(&bad, "  s_nop 0\n  split 0x1234, s1\n").unwrap();
    let (code, _, err) = rtgpu(&["asm", bad.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(
        err.contains("bad.s:2:3: error:") && err.contains("mask source"),
        "{err}"
    );
    let odd = dir.path().join("odd.bin");
    std::fs::write(&odd, [0u8; 6]).unwrap();
    let (code, _, err) = rtgpu(&["disasm", odd.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(err.contains("whole number of dwords"), "{err}");
    let illegal = dir.path().join("illegal.bin");
    std::fs::write(&illegal, [0, 0, 0x80, 0xBF, 0, 0, 0, 0xE0]).unwrap();
    let (code, _, err) = rtgpu(&["disasm", illegal.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(
        err.contains("at 0x0004") && err.contains("0xe0000000"),
        "{err}"
    );
    assert_eq!(rtgpu(&["asm", "/no/such/file.s"]).0, 1);
}

#[test]
fn multiphase_sgemm_prints_the_table_and_rejects_bad_arguments() {
    let (code, out, _) = rtgpu(&["multiphase", "sgemm", "--warps", "4", "--mem-lat", "5,400"]);
    assert_eq!(code, 0);
    assert!(
        out.contains("double buffering") && out.contains("4 warps"),
        "{out}"
    );
    let (code, out, _) = rtgpu(&[
        "multiphase",
        "sgemm",
        "--warps",
        "4",
        "--mem-lat",
        "5",
        "--json",
    ]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v.as_array().unwrap().len(), 2);
    let (code, out, _) = rtgpu(&["multiphase", "fig3", "--policy", "gto"]);
    assert_eq!(code, 0);
    assert!(
        out.starts_with("# warp pc opcode issue dispatch ready\n"),
        "{out}"
    );
    assert!(
        out.contains("\n1 8 fu1 5 10 17\n") && out.contains("block time 17; GUB 23"),
        "{out}"
    );
    for bad in [
        vec!["multiphase", "gemm"],
        vec!["multiphase", "sgemm", "--policy", "fifo"],
        vec!["multiphase", "sgemm", "--warps", "0"],
        vec!["multiphase", "sgemm", "--mem-lat", "0"],
    ] {
        let (code, out, err) = rtgpu(&bad);
        assert_eq!(code, 2, "{bad:?}");
        assert!(out.is_empty() && !err.is_empty(), "{bad:?}");
    }
}
