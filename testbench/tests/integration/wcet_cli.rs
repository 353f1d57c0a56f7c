//! `rtgpu wcet` and `rtgpu reproduce pws` as a user runs them: the bound beside the simulated
//! time in JSON, the listing, the plot, and the bad-input paths with their exit codes.

use crate::common;
use common::rtgpu;

fn kernel(name: &str) -> String {
    format!("{}/../firmware/kernels/{name}", env!("CARGO_MANIFEST_DIR"))
}

fn wcet_json(name: &str, extra: &[&str]) -> (i32, serde_json::Value, String) {
    let k = kernel(name);
    let mut args = vec!["wcet", k.as_str(), "--json", "--run"];
    args.extend_from_slice(extra);
    let (code, out, err) = rtgpu(&args);
    let v = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out} {err}"));
    (code, v, err)
}

#[test]
fn wcet_prints_the_bound_beside_the_run_for_every_mode() {
    let mut wcets = Vec::new();
    for mode in ["nosplit", "dws", "pws"] {
        let (code, v, err) = wcet_json("fig2_divergent.s", &["--mode", mode, "--s", "1"]);
        assert_eq!(code, 0, "{mode}: {err}");
        let a = &v["analysis"];
        let o = &v["observed"];
        assert_eq!(o["status"], "done");
        assert_eq!(o["within"], true);
        assert!(o["cycles"].as_u64().unwrap() <= a["wcet"].as_u64().unwrap());
        assert_eq!(a["bound"]["k"], 1);
        assert_eq!(a["bound"]["ds"], 1);
        wcets.push(a["wcet"].as_u64().unwrap());
        // The blocks: fig2 has three ifs, so three BSBs (else-heads).
        let blocks = a["blocks"].as_array().unwrap();
        let bsbs = blocks
            .iter()
            .filter(|b| b["name"].as_str().unwrap().starts_with("BSB"))
            .count();
        assert_eq!(bsbs, 3, "{mode}");
        let kept = a["pass"]["kept"].as_u64().unwrap();
        assert_eq!(kept, if mode == "nosplit" { 0 } else { 2 }, "{mode}");
    }
    // DWS's (S+1) factor (Eq. 8) makes it the largest bound.
    assert!(wcets[1] > wcets[0] && wcets[1] > wcets[2], "{wcets:?}");
}

#[test]
fn wcet_text_and_listing() {
    let k = kernel("fig5_nested.s");
    let (code, out, err) = rtgpu(&["wcet", &k, "--s", "2", "--listing"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("analytical WCET"), "{out}");
    assert!(out.contains("merge"), "{out}");
    assert!(out.contains("split"), "{out}");
}

#[test]
fn wcet_bad_input_exits_2() {
    let k = kernel("fig2_divergent.s");
    for args in [
        vec!["wcet", k.as_str(), "--s", "0"],
        vec!["wcet", k.as_str(), "--s", "8"],
        vec!["wcet", k.as_str(), "--mode", "dws", "--reprovision"],
        vec!["wcet", k.as_str(), "--mode", "fast"],
        vec!["wcet", k.as_str(), "--grid", "100"],
        vec!["wcet", "/nonexistent.s"],
    ] {
        let (code, _, err) = rtgpu(&args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(!err.is_empty(), "{args:?}");
    }
}

#[test]
fn wcet_shapes_the_model_cannot_run_are_bad_input() {
    let dir = tempfile::tempdir().unwrap();
    let small = dir.path().join("small.toml");
    std::fs::write(&small, "n_simd = 1\nn_wfc = 2\nlds_bytes = 512\n").unwrap();
    let small = small.to_str().unwrap();
    // 4 SIMDs, S = 3, no split kept: Eq. 2 gives 16 SIMDs; the model has at most 8.
    let va = kernel("vector_add.s");
    let lds = kernel("lds_reduce.s");
    for (args, needle) in [
        (
            vec!["wcet", va.as_str(), "--s", "3", "--reprovision"],
            "16 SIMDs",
        ),
        // The reordering unit runs on the memory hierarchy only.
        (
            vec!["wcet", va.as_str(), "--reorder", "--memory", "fixed"],
            "--reorder needs --memory hierarchy",
        ),
        // A work-group of 4 wavefronts on 1 SIMD × 2 contexts.
        (
            vec!["wcet", lds.as_str(), "--config", small],
            "wavefront slots",
        ),
        // More LDS per work-group than the CU has.
        (
            vec![
                "wcet",
                lds.as_str(),
                "--config",
                small,
                "--wg",
                "128",
                "--grid",
                "256",
            ],
            "LDS",
        ),
    ] {
        let (code, _, err) = rtgpu(&args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(err.contains(needle), "{args:?}: {err}");
    }
}

/// `--reorder`: the reordering bound with the static estimate on vector_add, random inputs
/// within it, and the input-dependent accesses listed on fig2.
#[test]
fn wcet_reorder_bounds_the_launch_and_lists_dependent_accesses() {
    let va = kernel("vector_add.s");
    let (code, out, err) = rtgpu(&["wcet", &va, "--reorder", "--run", "--inputs", "3", "--json"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let r = &v["analysis"]["reorder"];
    assert_eq!(r["estimated"], true, "{r}");
    assert_eq!(v["analysis"]["wcet"], r["wcet"]);
    assert_eq!(v["inputs"]["violations"].as_array().unwrap().len(), 0);
    let fig2 = kernel("fig2_divergent.s");
    let (code, out, err) = rtgpu(&["wcet", &fig2, "--reorder"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("input-dependent: 0x"), "{out}");
    assert!(
        out.contains("multi-phase GUB (gto): not applicable"),
        "{out}"
    );
}

#[test]
fn wcet_kernels_the_pass_rejects_are_bad_input() {
    let k = format!(
        "{}/tests/integration/wcet_kernels/barrier_in_split.s",
        env!("CARGO_MANIFEST_DIR")
    );
    let (code, _, err) = rtgpu(&["wcet", &k, "--mode", "pws", "--run"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("docs/assumptions.md#A22"), "{err}");
    let x = format!(
        "{}/tests/integration/wcet_kernels/xarm.s",
        env!("CARGO_MANIFEST_DIR")
    );
    for mode in ["pws", "dws"] {
        let (code, _, err) = rtgpu(&["wcet", &x, "--mode", mode, "--mark", "all", "--run"]);
        assert_eq!(code, 2, "{err}");
        assert!(err.contains("then-arm"), "{err}");
    }
    // Without splitting the same kernel is fine.
    let (code, out, err) = rtgpu(&["wcet", &k, "--mode", "nosplit", "--run"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("within the bound"), "{out}");
}

#[test]
fn wcet_json_carries_the_listing_when_asked() {
    let (code, v, err) = wcet_json("fig2_divergent.s", &["--listing"]);
    assert_eq!(code, 0, "{err}");
    assert!(v["listing"].as_str().unwrap().contains("merge"));
    let (_, v, _) = wcet_json("fig2_divergent.s", &[]);
    assert!(v.get("listing").is_none());
}

#[test]
fn reproduce_pws_prints_the_tables_and_draws_the_plot() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().to_str().unwrap();
    let (code, stdout, err) = rtgpu(&["reproduce", "pws", "--out", out, "--n2", "4", "--json"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(v["table3"].as_array().unwrap().len(), 3);
    assert_eq!(v["speedups"].as_array().unwrap().len(), 6);
    let png = std::fs::read(dir.path().join("pws.png")).unwrap();
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    let (code, _, _) = rtgpu(&["reproduce", "fig9"]);
    assert_eq!(code, 2);
}

#[test]
fn wcet_run_inputs_prints_the_worst_and_the_tightness() {
    let k = kernel("loop.s");
    let (code, out, err) = rtgpu(&["wcet", &k, "--mode", "nosplit", "--run", "--inputs", "12"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("12 random inputs: worst observed"), "{out}");
    assert!(out.contains("0 violation(s)"), "{out}");
    // --inputs needs --run.
    let (code, _, _) = rtgpu(&["wcet", &k, "--inputs", "3"]);
    assert_eq!(code, 2);
    // A loop without a bound is bad input naming it.
    let dir = tempfile::tempdir().unwrap();
    let src = std::fs::read_to_string(&k)
        .unwrap()
        .replace("// @loop lane_loop 6", "");
    let f = dir.path().join("loop.s");
    std::fs::write(&f, src).unwrap();
    let (code, _, err) = rtgpu(&["wcet", f.to_str().unwrap()]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("`lane_loop`"), "{err}");
}

/// `--memory hierarchy` (or a configuration with it on): the bound, what each mechanism of
/// the hierarchy contributes, and the simulated launch on the hierarchy within it; `--memory
/// fixed` overrides a configuration's hierarchy. (Mutation: `observe` running with fixed
/// latencies, as it did before, shows 322 cycles, not the hierarchy's 954.)
#[test]
fn wcet_memory_hierarchy_prints_each_mechanism_and_holds() {
    let k = kernel("fig2_divergent.s");
    let (code, out, err) = rtgpu(&["wcet", &k, "--memory", "hierarchy", "--run"]);
    assert_eq!(code, 0, "{err}");
    for needle in ["DRAM worst", "queueing", "refresh", "within the bound"] {
        assert!(out.contains(needle), "{needle}: {out}");
    }
    assert!(out.contains("observed 954 cycles"), "{out}");
    let dir = tempfile::tempdir().unwrap();
    let hier = dir.path().join("hier.toml");
    std::fs::write(&hier, "[memory]\nhierarchy = true\n").unwrap();
    let hier = hier.to_str().unwrap();
    let (code, out, err) = rtgpu(&["wcet", &k, "--config", hier, "--memory", "fixed", "--run"]);
    assert_eq!(code, 0, "{err}");
    assert!(!out.contains("DRAM worst"), "{out}");
}

fn one_simd_config(dir: &tempfile::TempDir) -> String {
    let f = dir.path().join("one.toml");
    std::fs::write(&f, "n_simd = 1\n").unwrap();
    f.to_str().unwrap().to_string()
}

/// `--sched gto|lrr`: the multi-phase bound beside the PWS bound. `vector_add.s` on one SIMD
/// holds its four wavefronts there: one section, T 129, E 57 and the paper's closed form
/// `GUB = Tiso + (N − 1)·E` = 129 + 3 · 57 = 300, the same under both schedulers, above the
/// simulated time. (Mutation: charging the other wavefronts only with barriers, `per_simd = 1`,
/// gives 129.) `rr` and a kept split get no bound, with the reason.
#[test]
fn wcet_reports_the_multiphase_gub_per_scheduler() {
    let dir = tempfile::tempdir().unwrap();
    let one = one_simd_config(&dir);
    let mut gubs = Vec::new();
    for sched in ["gto", "lrr"] {
        let args = ["--mode", "nosplit", "--config", &one, "--sched", sched];
        let (code, v, err) = wcet_json("vector_add.s", &args);
        assert_eq!(code, 0, "{err}");
        let m = &v["multiphase"];
        assert_eq!(m["policy"], sched);
        assert_eq!(m["k"], 4);
        let s = &m["sections"][0];
        assert_eq!(
            (s["t_iso"].as_u64(), s["exec"].as_u64()),
            (Some(129), Some(57))
        );
        assert_eq!(s["gub"], 300);
        let observed = v["observed"]["cycles"].as_u64().unwrap();
        assert!(observed <= m["wcet"].as_u64().unwrap(), "{m}");
        gubs.push(m["wcet"].clone());
    }
    assert_eq!(gubs[0], gubs[1]);
    let (_, v, _) = wcet_json("vector_add.s", &["--mode", "nosplit", "--sched", "rr"]);
    let why = v["multiphase"]["not_applicable"].as_str().unwrap();
    assert!(why.contains("work-conserving"), "{why}");
    let (_, v, _) = wcet_json("fig2_divergent.s", &["--mode", "pws"]);
    let why = v["multiphase"]["not_applicable"].as_str().unwrap();
    assert!(why.contains("splits"), "{why}");
}

/// `rtgpu reproduce multiphase`: every kernel at the paper's seven latencies under LRR and
/// GTO, the GUB never below the simulated time, and the paper's first trend: the weighted
/// overestimation falls from 5 to 400 cycles under both schedulers (the launch's fixed costs
/// weigh less as the memory time grows). (Mutation: a GUB that ignores `lat.flat` in the
/// isolated path breaks the first check.)
#[test]
fn reproduce_multiphase_prints_table3_and_draws_the_plot() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().to_str().unwrap();
    let (code, stdout, err) = rtgpu(&["reproduce", "multiphase", "--out", out, "--json"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let cells = v["cells"].as_array().unwrap();
    assert!(cells.len() >= 5 * 14, "{}", cells.len());
    for c in cells {
        assert!(c["gub"].as_u64() >= c["observed"].as_u64(), "{c}");
    }
    let summary = v["summary"].as_array().unwrap();
    assert_eq!(summary.len(), 14);
    let weighted = |lat: u64, p: &str| {
        summary
            .iter()
            .find(|s| s["latency"] == lat && s["policy"] == p)
            .map(|s| s["ours"][2].as_f64().unwrap())
            .unwrap()
    };
    for p in ["lrr", "gto"] {
        assert!(weighted(400, p) < weighted(5, p), "{p}");
    }
    let png = std::fs::read(dir.path().join("multiphase-table3.png")).unwrap();
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
}

/// `rtgpu reproduce reorder-wcet`: Eqs. 1–4 on every kernel. The miss information never
/// raises the estimate (Eq. 4 ≤ Eq. 3), and where the estimator finds reuse the estimate
/// falls, Fig. 16's shape: `synthetic.s` (miss rate 0.03) at its default grid drops by more
/// than half. (Mutation: Eq. 4 evaluated without the miss rate gives Eq. 3's value and fails
/// the last check.)
#[test]
fn reproduce_reorder_wcet_shows_the_miss_information_tightening() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().to_str().unwrap();
    let args = [
        "reproduce",
        "reorder-wcet",
        "--out",
        out,
        "--scale",
        "1",
        "--json",
    ];
    let (code, stdout, err) = rtgpu(&args);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let rows = v["rows"].as_array().unwrap();
    assert!(rows.len() >= 6, "{v}");
    let get = |r: &serde_json::Value, k: &str| r[k].as_u64().unwrap();
    for r in rows {
        assert!(get(r, "wcet_mr") <= get(r, "wcet_no_mr"), "{r}");
    }
    let syn = rows.iter().find(|r| r["kernel"] == "synthetic.s").unwrap();
    assert!(2 * get(syn, "wcet_mr") < get(syn, "wcet_no_mr"), "{syn}");
    let png = std::fs::read(dir.path().join("reorder-wcet.png")).unwrap();
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
}
