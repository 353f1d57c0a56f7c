//! The `rtgpu` program as a user runs it: exit codes, errors, machine-readable output.

use crate::common;
use common::rtgpu;

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
            "pws-kernels",
            "sched",
            "sched-example",
            "dram-4k-read",
            "dram-mixed",
            "dram-x8-mixed",
            "snoop",
            "idu-fig43",
            "l1-cache",
            "coalescer",
            "reorder-example",
            "salu",
            "valu",
            "lds",
            "fixed_mem",
            "fetch",
            "dispatch",
            "issue",
            "ctx",
            "vgpr",
            "regmap",
            "cu_system",
            "cdc",
            "decode",
            "counter",
            "cu_top"
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
fn synth_speaks_json_and_names_its_script() {
    let (code, out, err) = rtgpu(&["synth", "decode", "--json"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["block"], "decode");
    assert_eq!(v["script"], "synth -flatten -top top");
    // The decode stage's count on its page (docs/blocks/decode.md).
    assert_eq!(v["cells"], 177);
    assert_eq!(v["sub_blocks"].as_array().map(Vec::len), Some(0));
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
        "/../firmware/kernels/fig2_divergent.s"
    );
    let bin = dir.path().join("k.bin");
    let (code, out, err) = rtgpu(&["asm", kernel, "-o", bin.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("0044: BF7F6B6A           split vcc_lo, vcc_hi"),
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
fn asm_and_disasm_report_bad_input_with_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.s");
    std::fs::write(&bad, "  s_nop 0\n  split 0x1234, s1\n").unwrap();
    let (code, _, err) = rtgpu(&["asm", bad.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(
        err.contains("bad.s:2:3: error:") && err.contains("mask source"),
        "{err}"
    );
    let odd = dir.path().join("odd.bin");
    std::fs::write(&odd, [0u8; 6]).unwrap();
    let (code, _, err) = rtgpu(&["disasm", odd.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(err.contains("whole number of dwords"), "{err}");
    let illegal = dir.path().join("illegal.bin");
    std::fs::write(&illegal, [0, 0, 0x80, 0xBF, 0, 0, 0, 0xE0]).unwrap();
    let (code, _, err) = rtgpu(&["disasm", illegal.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(
        err.contains("at 0x0004") && err.contains("0xe0000000"),
        "{err}"
    );
    assert_eq!(rtgpu(&["asm", "/no/such/file.s"]).0, 2);
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
        vec!["multiphase", "hw-tables"],
    ] {
        let (code, out, err) = rtgpu(&bad);
        assert_eq!(code, 2, "{bad:?}");
        assert!(out.is_empty() && !err.is_empty(), "{bad:?}");
    }
}

#[test]
fn multiphase_hw_default_prints_the_class_table() {
    use rtgpu_wcet::trace::HwDesc;
    let (code, out, err) = rtgpu(&["multiphase", "hw-default", "--mem-lat", "400"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(HwDesc::from_json(&out), Ok(HwDesc::gpgpu_sim(400)));
    let (code, out, _) = rtgpu(&["multiphase", "hw-default"]);
    assert_eq!(code, 0);
    assert_eq!(HwDesc::from_json(&out), Ok(HwDesc::gpgpu_sim(200)));
    for bad in [
        vec!["multiphase", "hw-default", "--mem-lat", "5,400"],
        vec!["multiphase", "hw-default", "--mem-lat", "0"],
    ] {
        let (code, out, err) = rtgpu(&bad);
        assert_eq!(code, 2, "{bad:?}");
        assert!(out.is_empty() && !err.is_empty(), "{bad:?}");
    }
}

#[test]
fn multiphase_sgemm_reads_a_class_table_and_rejects_bad_ones() {
    let dir = tempfile::tempdir().unwrap();
    let (_, table, _) = rtgpu(&["multiphase", "hw-default"]);
    let write = |name: &str, text: &str| {
        let p = dir.path().join(name);
        std::fs::write(&p, text).unwrap();
        p.to_str().unwrap().to_string()
    };
    let sgemm = |extra: &[&str]| {
        let mut args = vec![
            "multiphase",
            "sgemm",
            "--warps",
            "4",
            "--mem-lat",
            "5,400",
            "--json",
        ];
        args.extend_from_slice(extra);
        rtgpu(&args)
    };
    // The default table, from a file, gives the built-in numbers (its `mem` latency, 200,
    // is replaced by each swept one).
    let default = write("default.json", &table);
    let (code, builtin, _) = sgemm(&[]);
    assert_eq!(code, 0);
    let (code, from_file, err) = sgemm(&["--hw", &default]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(from_file, builtin);
    // A slower FMA lengthens the runs: the table is used.
    let fp32 = "\"name\": \"fp32\",\n      \"unit\": 1,\n      \"init\": 1,";
    assert_eq!(table.matches(fp32).count(), 1, "{table}");
    let slow = write(
        "slow.json",
        &table.replace(fp32, &fp32.replace("\"init\": 1,", "\"init\": 4,")),
    );
    let (code, slower, err) = sgemm(&["--hw", &slow]);
    assert_eq!(code, 0, "{err}");
    let time = |json: &str| -> Vec<u64> {
        let v: serde_json::Value = serde_json::from_str(json).unwrap();
        let cells = v.as_array().unwrap().iter();
        cells.map(|c| c["simulated"].as_u64().unwrap()).collect()
    };
    let (before, after) = (time(&builtin), time(&slower));
    assert!(
        before.iter().zip(&after).all(|(b, a)| a > b),
        "{before:?} {after:?}"
    );
    // Bad tables: exit 2 with the file and the reason.
    let unknown = write("unknown.json", &table.replacen("\"lat\"", "\"latency\"", 1));
    let unit9 = write("unit9.json", &table.replace("\"unit\": 4", "\"unit\": 9"));
    let no_alu = write("no_alu.json", &table.replace("\"alu\"", "\"bar\""));
    let cases = [
        (unknown.as_str(), "unknown field `latency`"),
        (&unit9, "class `mma` is on unit 9, but there are 7 units"),
        (&no_alu, "no opcode class `alu`"),
        ("/no/such/table.json", "/no/such/table.json"),
    ];
    for (file, msg) in cases {
        let (code, out, err) = sgemm(&["--hw", file]);
        assert_eq!(code, 2, "{file}");
        assert!(out.is_empty(), "{file}");
        assert!(err.contains(file) && err.contains(msg), "{file}: {err}");
    }
    let (code, _, err) = rtgpu(&["multiphase", "fig3", "--hw", &default]);
    assert_eq!(code, 2);
    assert!(err.contains("--hw applies to sgemm only"), "{err}");
}

#[test]
fn aging_prints_the_table_and_json() {
    let args = ["aging", "--years", "1", "--maps", "3", "--seed", "1"];
    let (code, out, err) = rtgpu(&args);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.starts_with("aging experiment: 3 PV maps (seeds 1..=3), 1 years, 12 re-planning"),
        "{out}"
    );
    assert!(out.contains("step model: cycle"), "{out}");
    let lines: Vec<&str> = out.lines().collect();
    let head = lines
        .iter()
        .position(|l| l.starts_with("policy type"))
        .unwrap();
    let policies: Vec<&str> = lines[head + 1..head + 7]
        .iter()
        .map(|l| l.split_whitespace().next().unwrap())
        .collect();
    assert_eq!(policies, ["orig", "orig", "even", "even", "idu", "idu"]);
    let head = lines.iter().position(|l| l.contains("GPU delay")).unwrap();
    for (row, policy) in lines[head + 1..head + 4]
        .iter()
        .zip(["orig", "even", "idu"])
    {
        assert!(row.starts_with(policy), "{row}");
        assert_eq!(
            row.matches('%').count(),
            if policy == "orig" { 4 } else { 5 }
        );
    }
    assert!(lines[head + 3].contains("3/3"), "{out}");

    let (code, json, err) = rtgpu(&[&args[..], &["--model", "saturated", "--json"]].concat());
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["maps"].as_array().unwrap().len(), 3);
    assert_eq!(v["steps"], 12);
    assert!(v["model"].as_str().unwrap().starts_with("saturated"));
    let policies: Vec<&str> = v["summary"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["policy"].as_str().unwrap())
        .collect();
    assert_eq!(policies, ["Orig", "Even", "Idu"]);
}

/// Bad values exit 2 with nothing on stdout: the experiment's own checks with a one-line
/// message, clap's parse errors with clap's.
#[test]
fn aging_rejects_bad_arguments_with_exit_2() {
    for (bad, msg, ours) in [
        (vec!["--years", "0"], "invalid years: 0 (expected", true),
        (vec!["--years", "-1"], "invalid years: -1", true),
        (vec!["--years", "NaN"], "invalid years: NaN", true),
        (vec!["--maps", "0"], "--maps 0 is outside 1..=10000", true),
        (
            vec!["--steps-per-year", "0"],
            "invalid steps per year: 0",
            true,
        ),
        (
            vec!["--years", "1000"],
            "invalid re-planning steps: 12000",
            true,
        ),
        (vec!["--model", "spice"], "'spice'", false),
        (vec!["--orig-map", "random"], "'random'", false),
        (vec!["--maps", "many"], "'many'", false),
    ] {
        let (code, out, err) = rtgpu(&[&["aging"], &bad[..]].concat());
        assert_eq!(code, 2, "{bad:?}: {err}");
        assert!(out.is_empty(), "{bad:?}");
        assert!(err.contains(msg), "{bad:?}: {err}");
        if ours {
            assert!(err.starts_with("rtgpu: "), "{bad:?}: {err}");
            assert_eq!(err.lines().count(), 1, "{bad:?}: {err}");
        }
    }
}

#[test]
fn reorder_compare_prints_every_mode_and_the_exact_estimate() {
    let (code, out, err) = rtgpu(&[
        "reorder", "compare", "--cache", "16", "--seeds", "2", "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let c = &v["caches"][0];
    assert_eq!(
        (
            c["estimate_misses"].as_u64(),
            c["estimate_accesses"].as_u64()
        ),
        (Some(12), Some(16))
    );
    assert_eq!(c["exact"], true);
    let modes: Vec<&str> = c["modes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["mode"].as_str().unwrap())
        .collect();
    assert_eq!(modes, ["default", "reorder", "pure-rr"]);
    let (code, out, _) = rtgpu(&[
        "reorder", "compare", "--random", "8", "--cache", "16,32", "--seeds", "1",
    ]);
    assert_eq!(code, 0);
    assert!(
        out.contains("32kB   reorder") && out.contains("= sim"),
        "{out}"
    );
}

#[test]
fn reorder_compare_rejects_bad_input_with_a_message() {
    let (code, _, err) = rtgpu(&["reorder", "compare", "--cache", "24"]);
    assert_eq!(code, 2);
    assert!(err.contains("16, 32 or 64 kB"), "{err}");
    let (code, _, err) = rtgpu(&["reorder", "compare", "--kernel", "/no/such.ptx"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("built-in kernels: example, loop-barrier"),
        "{err}"
    );
}

/// The thesis' two host-side experiments as a user runs them from a clean clone: Chapter 3's
/// on every kernel (two injections per variant: the periods, the pass and the campaigns run;
/// no kernel skipped), Chapter 5's Fig. 5.4 with its five facts holding.
#[test]
fn the_thesis_chapters_3_and_5_run_from_the_cli() {
    let (code, out, err) = rtgpu(&["reproduce", "lee-ch3", "--injections", "2", "--json"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        v["skipped"].as_array().unwrap().len(),
        0,
        "{}",
        v["skipped"]
    );
    let rows = v["rows"].as_array().unwrap();
    assert!(rows.len() >= 22, "{} kernels", rows.len());
    assert!(rows.iter().all(|r| r["moved"].as_u64().unwrap() > 0));
    let (code, out, err) = rtgpu(&["rtsched", "fig5.4", "--json"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let facts = v["facts"].as_array().unwrap();
    assert_eq!(facts.len(), 5);
    assert!(facts.iter().all(|f| f["holds"] == true), "{facts:?}");
}

/// `rtgpu cosim NAME --lint-only`: the waivers and the lint's verdict, without the testbench
/// run, Icarus or Yosys (their lines absent).
#[test]
fn cosim_lint_only_runs_only_the_lint() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    let (code, out, err) = rtgpu(&["cosim", "valu", "--lint-only", "--dir", d]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("verilator --lint-only -Wall: clean"), "{out}");
    assert!(
        out.contains("verilator waiver: UNUSEDSIGNAL on `room`"),
        "{out}"
    );
    for absent in ["Rust run", "icarus", "yosys"] {
        assert!(!out.contains(absent), "{absent}: {out}");
    }
}
