//! `rtgpu run`, the main job, as a user runs it: the divergent kernel under every mode, the
//! counters in JSON, the waveform, and every error path with its named status and exit code.

use crate::common;
use common::rtgpu;

fn kernel(name: &str) -> String {
    format!("{}/../firmware/kernels/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// `rtgpu run KERNEL --json` + extra arguments: exit code and the report.
fn run_json(name: &str, extra: &[&str]) -> (i32, serde_json::Value, String) {
    let k = kernel(name);
    let mut args = vec!["run", k.as_str(), "--json"];
    args.extend_from_slice(extra);
    let (code, out, err) = rtgpu(&args);
    let v = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out} {err}"));
    (code, v, err)
}

fn counter(v: &serde_json::Value, name: &str) -> u64 {
    v["counters"][name]
        .as_u64()
        .unwrap_or_else(|| panic!("no counter {name}"))
}

#[test]
fn divergent_kernel_runs_its_arms_in_parallel_under_pws() {
    let (code, pws, _) = run_json("fig2_divergent.s", &["--mode", "pws", "--s", "1"]);
    assert_eq!(code, 0);
    assert_eq!(pws["status"], "done");
    let (_, nosplit, _) = run_json("fig2_divergent.s", &["--mode", "nosplit"]);
    // Two split/merge pairs per wavefront, four wavefronts.
    assert_eq!((counter(&pws, "splits"), counter(&pws, "merges")), (8, 8));
    assert_eq!(
        (counter(&nosplit, "splits"), counter(&nosplit, "merges")),
        (0, 0)
    );
    let (p, n) = (counter(&pws, "cycles"), counter(&nosplit, "cycles"));
    assert!(p < n, "PWS {p} cycles, no-split {n}");
    // Every wavefront finishes earlier.
    let finish = |v: &serde_json::Value| -> Vec<u64> {
        v["wf"]
            .as_array()
            .unwrap()
            .iter()
            .map(|w| w["finish"].as_u64().unwrap())
            .collect()
    };
    for (a, b) in finish(&pws).iter().zip(finish(&nosplit)) {
        assert!(*a < b, "wavefront finish {a} vs {b}");
    }
    assert_eq!(finish(&pws).len(), 4);
}

#[test]
fn text_report_names_the_counters() {
    let k = kernel("vector_add.s");
    let (code, out, _) = rtgpu(&["run", &k, "--mode", "dws", "--s", "3", "--sched", "lrr"]);
    assert_eq!(code, 0, "{out}");
    for word in [
        "status: done",
        "cycles",
        "instructions",
        "splits",
        "merges",
        "wavefront finish cycles",
    ] {
        assert!(out.contains(word), "{word}: {out}");
    }
}

#[test]
fn error_paths_end_with_the_named_status_and_exit_1() {
    let cases: [(&str, &[&str], &str); 3] = [
        ("errors/illegal.s", &[], "illegal_instruction"),
        ("fig5_nested.s", &["--s", "1"], "split_overflow"),
        ("errors/merge_mismatch.s", &[], "merge_watchdog"),
    ];
    for (name, extra, status) in cases {
        let (code, v, err) = run_json(name, extra);
        assert_eq!(code, 1, "{name}");
        assert_eq!(v["status"], status, "{name}");
        assert!(err.contains(status), "{name}: {err}");
    }
    // A timeout stops at the cycle asked for (the driver's last poll is cut to it).
    let (code, v, err) = run_json("fig2_divergent.s", &["--timeout", "100"]);
    assert_eq!(
        (code, &v["status"]),
        (1, &serde_json::json!("timeout")),
        "{err}"
    );
    assert!(err.contains("within 100 cycles"), "{err}");
}

#[test]
fn bad_input_exits_2() {
    let (code, _, err) = rtgpu(&["run", "no/such/kernel.s"]);
    assert_eq!(code, 2);
    assert!(err.contains("no/such/kernel.s"), "{err}");
    let k = kernel("vector_add.s");
    let (code, _, err) = rtgpu(&["run", &k, "--args", "bogus:1"]);
    assert_eq!(code, 2);
    assert!(err.contains("bogus:1"), "{err}");
    let dir = tempfile::tempdir().unwrap();
    let cfg = dir.path().join("cu.toml");
    std::fs::write(&cfg, "n_simd = 4\nwarp_size = 32\n").unwrap();
    let (code, _, err) = rtgpu(&["run", &k, "--config", cfg.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(err.contains("warp_size"), "{err}");
    // Launch sizes the compute unit would refuse are caught before the launch.
    for (extra, needle) in [
        (&["--grid", "100"][..], "not a positive multiple"),
        (&["--wg", "2048", "--grid", "2048"][..], "outside 1..=1024"),
    ] {
        let (code, _, err) = rtgpu(&[&["run", k.as_str()][..], extra].concat());
        assert_eq!(code, 2, "{extra:?}: {err}");
        assert!(err.contains(needle), "{extra:?}: {err}");
    }
}

#[test]
fn config_file_changes_the_timing() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = dir.path().join("cu.toml");
    std::fs::write(&cfg, "[lat]\nflat = 300\n").unwrap();
    let (_, slow, _) = run_json("vector_add.s", &["--config", cfg.to_str().unwrap()]);
    let (_, fast, _) = run_json("vector_add.s", &[]);
    assert!(counter(&slow, "cycles") > counter(&fast, "cycles") + 400);
}

#[test]
fn vcd_comes_with_a_gtkw() {
    let dir = tempfile::tempdir().unwrap();
    let vcd = dir.path().join("fig2.vcd");
    let k = kernel("fig2_divergent.s");
    let (code, _, err) = rtgpu(&["run", &k, "--grid", "64", "--vcd", vcd.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let text = std::fs::read_to_string(&vcd).unwrap();
    assert!(text.contains("$scope module spsimd1 $end"));
    let gtkw = std::fs::read_to_string(dir.path().join("fig2.gtkw")).unwrap();
    for sig in [
        "cu.g0.simd.issue_ctx",
        "cu.g0.spsimd1.ctx1.eff",
        "cu.g0.simd.ctx1.spm",
    ] {
        assert!(gtkw.contains(sig), "{sig}");
    }
    assert!(dir.path().join("fig2.state.txt").exists());
}

#[test]
fn the_committed_system_scenario_gtkw_files_are_what_rtgpu_scenario_writes() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let dir = tempfile::tempdir().unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_rtgpu"))
        .current_dir(&root)
        .args(["scenario", "--dir"])
        .arg(dir.path())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for (name, _, _) in rtgpu_testbench::cu::scenario::SCENARIOS {
        let fresh = std::fs::read_to_string(dir.path().join(format!("{name}.gtkw"))).unwrap();
        let committed = std::fs::read_to_string(root.join(format!("waveforms/{name}.gtkw")))
            .unwrap_or_else(|e| panic!("waveforms/{name}.gtkw: {e}"));
        // The instruction filter's program path is the build's: compared as `rtgpu`.
        assert_eq!(
            rtgpu_testbench::sim::waves::portable(&fresh),
            rtgpu_testbench::sim::waves::portable(&committed),
            "regenerate with `rtgpu scenario {name}`"
        );
        // The system groups are there, with the DRAM bus sampled in its own clock.
        assert!(fresh.contains("dram command bus") && fresh.contains("cu.mem.l1.hit"));
        let vcd = std::fs::read_to_string(dir.path().join(format!("{name}.vcd"))).unwrap();
        assert!(
            vcd.lines().any(|l| l
                .strip_prefix('#')
                .and_then(|t| t.parse::<u64>().ok())
                .is_some_and(|t| t % 1000 == 625)),
            "{name}: no DRAM-clock timestamp"
        );
    }
    let idu = std::fs::read_to_string(root.join("waveforms/system-idu.gtkw")).unwrap();
    assert!(idu.contains("idu (cluster + 1)"));
}

#[test]
fn run_drives_the_full_system_from_the_command_line() {
    let (code, v, err) = run_json("vector_add.s", &["--reorder", "--idu", "idu"]);
    assert_eq!(code, 0, "{err}");
    let c = |n: &str| counter(&v, n);
    assert_eq!(v["memory"]["reorder"], true);
    assert_eq!(v["memory"]["model"], "hierarchy");
    assert_eq!(v["memory"]["dram_part"], "ddr4-3200aa-x16");
    assert_eq!(v["idu"]["policy"], "idu");
    assert!(c("l1_misses") > 0 && c("dram_reads") > 0 && c("dram_cycles") > c("cycles"));
    let idu: u64 = (0..8).map(|k| c(&format!("idu_cluster{k}"))).sum();
    assert_eq!(idu, c("insts_valu"));
    let k = kernel("vector_add.s");
    let (code, _, err) = rtgpu(&["run", &k, "--reorder", "--memory", "fixed"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("--reorder needs the memory hierarchy"),
        "{err}"
    );
}

/// `--dump DIR` writes every buffer argument: vector_add's c holds a + b, dword for dword,
/// in both the raw and the hex file, and buffers.json lists the three buffers.
#[test]
fn dump_writes_every_buffer_argument() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().join("out");
    let k = kernel("vector_add.s");
    let (code, out, err) = rtgpu(&["run", &k, "--dump", d.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("buffers written to"), "{out}");
    let words = |k: usize| -> Vec<u32> {
        std::fs::read(d.join(format!("arg{k}.bin")))
            .unwrap()
            .chunks(4)
            .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
            .collect()
    };
    let (a, b, c) = (words(0), words(1), words(2));
    assert_eq!((a.len(), b.len(), c.len()), (256, 256, 256));
    assert!(a.iter().any(|&w| w != 0) && b.iter().any(|&w| w != 0));
    for i in 0..256 {
        let sum = f32::from_bits(a[i]) + f32::from_bits(b[i]);
        assert_eq!(c[i], sum.to_bits(), "c[{i}]");
    }
    let hex = std::fs::read_to_string(d.join("arg2.hex")).unwrap();
    let parsed: Vec<u32> = hex
        .lines()
        .map(|l| u32::from_str_radix(l, 16).unwrap())
        .collect();
    assert_eq!(parsed, c);
    let list: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(d.join("buffers.json")).unwrap()).unwrap();
    let inits: Vec<&str> = (0..3).map(|i| list[i]["init"].as_str().unwrap()).collect();
    assert_eq!(inits, ["float", "float", "zero"]);
    assert_eq!(list[2]["arg"], 2);
    assert_eq!(list[2]["dwords"], 256);
}

/// The human report shows the counters that measure something in the run's configuration:
/// no L1/DRAM counters with the fixed memory, no reordering counters with it off, no IDU
/// counters without the IDU; the JSON keeps every counter.
#[test]
fn text_report_shows_only_the_counters_that_apply() {
    let k = kernel("vector_add.s");
    let text = |extra: &[&str]| {
        let (code, out, err) = rtgpu(&[&["run", k.as_str()], extra].concat());
        assert_eq!(code, 0, "{err}");
        out
    };
    let has = |out: &str, name: &str| out.lines().any(|l| l.trim_start().starts_with(name));
    let fixed = text(&["--memory", "fixed"]);
    assert!(has(&fixed, "cycles") && has(&fixed, "splits"), "{fixed}");
    for name in ["l1_hits", "dram_reads", "reorder_held", "idu_cluster0"] {
        assert!(!has(&fixed, name), "{name} with the fixed memory:\n{fixed}");
    }
    let hier = text(&["--memory", "hierarchy"]);
    assert!(has(&hier, "l1_hits") && has(&hier, "dram_reads"), "{hier}");
    assert!(!has(&hier, "reorder_held"), "{hier}");
    let all = text(&["--reorder", "--idu", "idu"]);
    assert!(
        has(&all, "reorder_held") && has(&all, "idu_cluster0"),
        "{all}"
    );
    let (_, v, _) = run_json("vector_add.s", &["--memory", "fixed"]);
    assert!(
        v["counters"]["l1_hits"].is_u64(),
        "JSON keeps every counter"
    );
    assert_eq!(v["memory"]["model"], "fixed");
    assert!(v["memory"]["fixed_latency"].is_u64());
}

/// `rtgpu config --defaults` prints every field as TOML that reads back as the defaults;
/// the example configuration in docs/ names every field, at its default; a file with an
/// unknown field is bad input (exit 2) that names it.
#[test]
fn config_prints_the_full_configuration() {
    let (code, out, err) = rtgpu(&["config", "--defaults"]);
    assert_eq!(code, 0, "{err}");
    let defaults: toml::Value = toml::from_str(&out).unwrap();
    let back: rtgpu_hw::cu::CuConfig = toml::from_str(&out).unwrap();
    assert_eq!(back, rtgpu_hw::cu::CuConfig::default());
    let example = format!("{}/../docs/config.example.toml", env!("CARGO_MANIFEST_DIR"));
    let (code, full, err) = rtgpu(&["config", &example]);
    assert_eq!(code, 0, "{err}");
    let text = std::fs::read_to_string(&example).unwrap();
    let written: toml::Value = toml::from_str(&text).unwrap();
    assert_eq!(
        keys(&written),
        keys(&defaults),
        "the example names every field"
    );
    assert_eq!(full, out, "the example is at the defaults");
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.toml");
    std::fs::write(&bad, "n_simd = 4\nn_simds = 2\n").unwrap();
    let (code, _, err) = rtgpu(&["config", bad.to_str().unwrap()]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("n_simds"), "{err}");
    let (code, _, _) = rtgpu(&["config"]);
    assert_eq!(code, 2, "neither a file nor --defaults");
}

/// Every key path of a TOML value (`memory.l1_sets`, …), sorted.
fn keys(v: &toml::Value) -> Vec<String> {
    let mut out = Vec::new();
    if let toml::Value::Table(t) = v {
        for (k, v) in t {
            out.push(k.clone());
            out.extend(keys(v).into_iter().map(|s| format!("{k}.{s}")));
        }
    }
    out.sort();
    out
}

/// Idle-cycle skipping changes nothing a user sees: with and without `--no-skip`, the same
/// counters (every stall reason, the hierarchy's refusals), per-wavefront times, final
/// buffers and waveform, byte for byte. (Written against the first versions of skipping, it
/// caught three of their bugs: a context whose `ready_at` is the next cycle, the dispatcher's
/// per-cycle rotation, and a hierarchy that takes a waiting access in the stretch's first
/// cycle. With the naps of the issue stage, it caught a barrier release that did not wake the
/// group.)
#[test]
fn idle_cycle_skipping_gives_the_same_counters_buffers_and_waveform() {
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("skip");
    let cases: [(&str, &[&str]); 11] = [
        (
            "vector_add.s",
            &[
                "--memory",
                "hierarchy",
                "--mode",
                "nosplit",
                "--grid",
                "4096",
            ],
        ),
        (
            "fig2_divergent.s",
            &["--memory", "hierarchy", "--grid", "4096"],
        ),
        (
            "loop.s",
            &["--memory", "hierarchy", "--mode", "dws", "--sched", "lrr"],
        ),
        (
            "fig5_nested.s",
            &["--memory", "hierarchy", "--s", "3", "--grid", "2048"],
        ),
        (
            "synthetic.s",
            &["--memory", "hierarchy", "--reorder", "--mode", "nosplit"],
        ),
        ("lds_reduce.s", &["--grid", "2048"]),
        // Fixed latencies: units nap while every context waits for a known cycle or an event.
        ("fig2_divergent.s", &["--grid", "4096"]),
        (
            "fig5_nested.s",
            &["--s", "3", "--grid", "2048", "--sched", "rr"],
        ),
        ("loop.s", &["--mode", "dws", "--sched", "lrr"]),
        (
            "lds_reduce.s",
            &["--mode", "dws", "--s", "3", "--grid", "2048"],
        ),
        ("vector_add.s", &["--idu", "idu", "--grid", "2048"]),
    ];
    for (i, (name, extra)) in cases.iter().enumerate() {
        let outcome = |skip: bool| {
            let d = dir.join(format!("{i}-{skip}"));
            let _ = std::fs::remove_dir_all(&d);
            let (vcd, dump) = (d.join("w.vcd"), d.join("dump"));
            let mut args = vec![
                "--vcd",
                vcd.to_str().unwrap(),
                "--dump",
                dump.to_str().unwrap(),
            ];
            args.extend_from_slice(extra);
            if !skip {
                args.push("--no-skip");
            }
            let (code, v, err) = run_json(name, &args);
            assert_eq!(code, 0, "{name} {extra:?}: {err}");
            let read = |p: std::path::PathBuf| std::fs::read(&p).unwrap_or_else(|e| panic!("{e}"));
            let buffers: Vec<Vec<u8>> = (0..4)
                .map(|k| dump.join(format!("arg{k}.bin")))
                .filter(|p| p.exists())
                .map(read)
                .collect();
            (v["counters"].clone(), v["wf"].clone(), buffers, read(vcd))
        };
        let (on, off) = (outcome(true), outcome(false));
        assert!(counter(&serde_json::json!({ "counters": on.0 }), "cycles") > 0);
        assert_eq!(on.0, off.0, "{name} {extra:?}: counters");
        assert_eq!(on.1, off.1, "{name} {extra:?}: wavefront times");
        assert!(!on.2.is_empty(), "{name}: no buffer dumped");
        assert_eq!(on.2, off.2, "{name} {extra:?}: buffers");
        assert!(on.3 == off.3, "{name} {extra:?}: the waveforms differ");
    }
}
