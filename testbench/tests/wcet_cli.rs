//! `rtgpu wcet` and `rtgpu reproduce pws` as a user runs them: the bound beside the simulated
//! time in JSON, the listing, the plot, and the bad-input paths with their exit codes.

mod common;
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
fn wcet_reprovisioning_beyond_the_model_is_an_analysis_error() {
    // 4 SIMDs, S = 3, no split used: Eq. 2 gives 16 SIMDs; the model has at most 8.
    let k = kernel("vector_add.s");
    let (code, _, err) = rtgpu(&["wcet", &k, "--s", "3", "--reprovision"]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("16 SIMDs"), "{err}");
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
