//! `rtgpu sweep` as a user runs it: a small grid's CSV (header, one row per run, every oracle
//! clean, the estimator's misses column-wise), the summary's totals line, the expected
//! split_overflow of a PWS S below @min-s, and bad input with exit code 2.

use crate::common;
use common::rtgpu;
use std::collections::HashMap;

fn kernel(name: &str) -> String {
    format!("{}/../firmware/kernels/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// The CSV as rows of column name → value.
fn parse_csv(text: &str) -> (Vec<String>, Vec<HashMap<String, String>>) {
    assert!(!text.contains('"'), "no field needs quoting here: {text}");
    let mut lines = text.lines();
    let header: Vec<String> = lines.next().unwrap().split(',').map(String::from).collect();
    let rows = lines
        .map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            assert_eq!(f.len(), header.len(), "row width: {l}");
            header
                .iter()
                .cloned()
                .zip(f.iter().map(|s| s.to_string()))
                .collect()
        })
        .collect();
    (header, rows)
}

/// `rtgpu sweep ARGS --csv DIR/out.csv --quiet`: exit code, stdout, stderr, CSV text.
fn sweep(args: &[&str]) -> (i32, String, String, String) {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("out.csv");
    let mut all = vec!["sweep", "--quiet", "--csv", csv.to_str().unwrap()];
    all.extend_from_slice(args);
    let (code, out, err) = rtgpu(&all);
    let text = std::fs::read_to_string(&csv).unwrap_or_default();
    (code, out, err, text)
}

#[test]
fn a_small_grid_writes_one_exact_clean_predicted_row_per_run() {
    let (va, fig2) = (kernel("vector_add.s"), kernel("fig2_divergent.s"));
    let args = [
        va.as_str(),
        fig2.as_str(),
        "--modes",
        "nosplit,pws",
        "--s",
        "1,2",
        "--sched",
        "gto",
        "--reorder",
        "off,on",
        "--idu",
        "off",
        "--dram",
        "ddr4-3200aa-x16",
        "--jobs",
        "2",
    ];
    let (code, out, err, text) = sweep(&args);
    assert_eq!(code, 0, "{out}\n{err}");
    let (header, rows) = parse_csv(&text);
    let head = "kernel,mode,s,sched,reorder,idu,dram,grid,wg,status,exact,ddr4,predicted_misses";
    assert_eq!(header[..13].join(","), head);
    for c in [
        "cycles",
        "l1_accesses",
        "l1_misses",
        "dram_reads",
        "idu_cluster0",
    ] {
        assert!(header.contains(&c.to_string()), "no counter column {c}");
    }
    // nosplit ignores S: (nosplit, pws S=1, pws S=2) × reorder off/on per kernel.
    assert_eq!(rows.len(), 2 * 3 * 2, "{text}");
    let nosplit = rows.iter().filter(|r| r["mode"] == "nosplit").count();
    assert_eq!(nosplit, 4);
    // Grid order: kernels as given, then mode, S, ..., reorder.
    assert_eq!(rows[0]["kernel"], "vector_add.s");
    assert_eq!(rows[11]["kernel"], "fig2_divergent.s");
    assert_eq!((&*rows[0]["reorder"], &*rows[1]["reorder"]), ("off", "on"));
    for r in &rows {
        assert_eq!(
            (&*r["status"], &*r["exact"], &*r["ddr4"]),
            ("done", "true", "ok"),
            "{r:?}"
        );
        assert_eq!((&*r["grid"], &*r["wg"]), ("256", "64"));
        assert!(r["cycles"].parse::<u64>().unwrap() > 0);
        match &*r["reorder"] {
            "on" => assert_eq!(r["l1_misses"], r["predicted_misses"], "{r:?}"),
            _ => assert_eq!(r["predicted_misses"], ""),
        }
    }
    let totals = out.lines().last().unwrap();
    assert!(totals.starts_with("total: 12 runs, 12 done"), "{out}");
    assert!(
        out.contains("vector_add.s") && out.contains("pws S=2"),
        "{out}"
    );
}

#[test]
fn pws_below_min_s_is_an_expected_split_overflow() {
    let k = kernel("fig5_nested.s");
    let args = [
        k.as_str(),
        "--modes",
        "pws",
        "--s",
        "1,2",
        "--sched",
        "lrr",
        "--reorder",
        "off",
        "--idu",
        "off",
        "--dram",
        "ddr4-1866m-x16",
    ];
    let (code, out, err, text) = sweep(&args);
    assert_eq!(code, 0, "{out}\n{err}");
    let (_, rows) = parse_csv(&text);
    let status: Vec<&str> = rows.iter().map(|r| r["status"].as_str()).collect();
    assert_eq!(status, ["split_overflow", "done"]);
    assert_eq!((&*rows[0]["exact"], &*rows[1]["exact"]), ("", "true"));
    assert!(out.contains("total: 2 runs, 1 done, 1 expected split_overflow, 0 failed"));
}

#[test]
fn a_bad_axis_value_exits_2_naming_it() {
    for (opt, bad) in [
        ("--modes", "foo"),
        ("--dram", "ddr5"),
        ("--s", "9"),
        ("--idu", "x"),
    ] {
        let (code, _, err, _) = sweep(&[opt, bad]);
        assert_eq!(code, 2, "{opt} {bad}: {err}");
        assert!(err.contains(bad) && !err.contains("panicked"), "{err}");
    }
}

#[test]
fn a_missing_kernel_or_config_exits_2() {
    let (code, _, err, _) = sweep(&["no/such/kernel.s"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("no/such/kernel.s"), "{err}");
    let k = kernel("vector_add.s");
    let (code, _, err, _) = sweep(&[&k, "--config", "no/such.toml"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("no/such.toml"), "{err}");
}

#[test]
fn help_documents_every_option() {
    let (code, out, _) = rtgpu(&["sweep", "--help"]);
    assert_eq!(code, 0);
    for o in [
        "--modes",
        "--s",
        "--sched",
        "--reorder",
        "--idu",
        "--dram",
        "--config",
        "--grid",
        "--wg",
        "--seed",
        "--jobs",
        "--csv",
        "--timeout",
        "--quiet",
    ] {
        assert!(out.contains(o), "--help lacks {o}: {out}");
    }
}
