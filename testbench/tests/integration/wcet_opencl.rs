//! `rtgpu wcet` on OpenCL C kernels (the suite, compiled by clang-14, HSA ABI): the analysis
//! knows the kernel argument layout from the `.amdgpu_metadata`, bounds the kernels it
//! accepts for every input (computed once, random inputs below it), names a loop it cannot
//! bound, and reads the `// @loop` annotation from the `.cl` file.

use rtgpu_firmware::pws_pass::{compile, Marks, PassMode, PassOptions};
use rtgpu_hw::cu::{CuConfig, Mode};
use rtgpu_hw::sched::model::Policy;
use rtgpu_testbench::cu::wcet::graph::Graph;
use rtgpu_testbench::cu::wcet::inputs::{random_input, run_inputs};
use rtgpu_testbench::cu::wcet::loops::ArgRole;
use rtgpu_testbench::cu::wcet::taint::dependence;
use rtgpu_testbench::cu::wcet::{analyze, gub, load_with_facts, WcetCase, WcetError};
use std::path::{Path, PathBuf};

const SUITE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../firmware/suite");

/// The suite kernels the analysis refuses, with a word of the reason (their control flow).
const REFUSED: [(&str, &str); 2] = [("bfs.cl", "enters the loop"), ("reduce.cl", "overlap")];

fn suite() -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(SUITE)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "cl"))
        .collect();
    v.sort();
    v
}

fn cl_case(path: &Path, mode: Mode, policy: Policy) -> Result<WcetCase, String> {
    let (code, meta, facts) = load_with_facts(path)?;
    Ok(WcetCase {
        code,
        lds: meta.lds,
        dims: meta.dims,
        args: meta.args,
        seed: 7,
        cfg: CuConfig::default(),
        mode,
        s: 1,
        marks: Marks::Source,
        reprovision: false,
        policy,
        timeout: 50_000_000,
        facts,
        reorder: false,
    })
}

/// Every suite kernel the analysis accepts: the bound (and the multi-phase GUB) computed once
/// on the launch's input, then `n` random inputs (random buffers) within both; the refused
/// ones are exactly [`REFUSED`], each with an input error.
fn suite_over_inputs(n: u64, confs: &[(Mode, Policy)]) {
    for path in suite() {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        for &(mode, policy) in confs {
            let what = format!("{name} {mode:?} {policy:?}");
            let refused = REFUSED.iter().find(|(k, _)| *k == name);
            let c = match (cl_case(&path, mode, policy), refused) {
                (Ok(c), _) => c,
                (Err(e), Some((_, why))) => {
                    assert!(e.contains(why), "{what}: {e}");
                    continue;
                }
                (Err(e), None) => panic!("{what}: {e}"),
            };
            let a = match (analyze(&c), refused) {
                (Ok(a), None) => a,
                (Err(WcetError::Input(e)), Some((_, why))) => {
                    assert!(e.contains(why), "{what}: {e}");
                    continue;
                }
                (r, _) => panic!("{what}: {:?}", r.map(|a| a.wcet)),
            };
            let mp = gub::bound(&c, &a, &|_| {}).unwrap();
            let mp = mp.not_applicable.is_none().then_some(mp.wcet);
            let r = run_inputs(&c, &a, mp, n, &|| {}).unwrap();
            println!(
                "{what}: bound {} GUB {mp:?} worst {} tightness {:.2}",
                a.wcet, r.worst, r.tightness
            );
            assert!(r.violations.is_empty(), "{what}: {:?}", r.violations);
            assert!(
                r.multiphase_violations.is_empty(),
                "{what}: {:?}",
                r.multiphase_violations
            );
        }
    }
}

/// The short run (CI): every suite kernel, no-split under GTO, 3 random inputs.
#[test]
fn wcet_opencl_suite_bounds_hold_over_inputs() {
    suite_over_inputs(3, &[(Mode::NoSplit, Policy::Gto)]);
}

/// The long run: no-split under GTO and LRR and PWS (S = 1, the pass's own split points),
/// 30 random inputs each.
#[test]
#[ignore]
fn wcet_opencl_suite_bounds_hold_over_inputs_long() {
    suite_over_inputs(
        30,
        &[
            (Mode::NoSplit, Policy::Gto),
            (Mode::NoSplit, Policy::Lrr),
            (Mode::Pws, Policy::Gto),
        ],
    );
}

/// sgemm's arguments from the metadata: three buffers and three shape scalars; its loop runs
/// `n` times (`n` loaded from the argument segment through the kernarg pointer `s[6:7]`), and
/// nothing it accesses depends on the input. With `n` ranged, the loop (and so the accesses'
/// order) depends on the input, and the random inputs draw `n`.
#[test]
fn wcet_opencl_sgemm_argument_roles_and_dependence() {
    let path = Path::new(SUITE).join("sgemm.cl");
    let c = cl_case(&path, Mode::NoSplit, Policy::Gto).unwrap();
    let image = c.image();
    let known = c.known(&image);
    use ArgRole::{Buffer, Shape};
    assert_eq!(known.roles, [Buffer, Buffer, Buffer, Shape, Shape, Shape]);
    let opts = PassOptions {
        mode: PassMode::NoSplit,
        s: 1,
        marks: Marks::Source,
    };
    let compiled = compile(&c.code, &opts).unwrap();
    let g = Graph::new(&compiled.code).unwrap();
    let d = dependence(&g, compiled.structure.insns(), &known);
    assert!(d.independent(), "{d:?}");
    // Random inputs change the buffers, not the shape.
    let (r, _) = random_input(&c, 1);
    assert_ne!(r.image().mem, image.mem);
    assert_eq!(r.args, c.args);

    let mut ranged = c.clone();
    ranged.facts.ranges = vec![rtgpu_testbench::cu::wcet::loops::ArgRange {
        arg: 3,
        lo: 8,
        hi: 16,
    }];
    let known = ranged.known(&image);
    assert_eq!(known.roles[3], ArgRole::Ranged);
    let d = dependence(&g, compiled.structure.insns(), &known);
    assert!(!d.branches.is_empty(), "{d:?}");
    // The loop at n's largest value: the bound holds for every n of the range.
    let a = analyze(&ranged).unwrap();
    let r = run_inputs(&ranged, &a, None, 4, &|| {}).unwrap();
    assert!(r.violations.is_empty(), "{:?}", r.violations);
    assert!(r
        .worst_scalars
        .iter()
        .all(|&(k, v)| k == 3 && (8..=16).contains(&v)));
}

const DATA_LOOP: &str = "// A loop whose trip count is read from the input.
// @grid 64
// @wg 64
// @args int:grid zero:grid
__kernel void data_loop(__global const int *in, __global int *out) {
  uint i = get_global_id(0);
  int s = 0;
  int n = in[0] & 7;
  for (int k = 0; k < n; k++) s += in[(i + k) & 63];
  out[i] = s;
}
";

/// A data-dependent loop without annotation is an input error naming its label and the
/// annotation; with `// @loop LABEL 7` in the `.cl` file the bound holds over random inputs,
/// and an annotation below the real trip count (0) is caught by them.
#[test]
fn wcet_opencl_data_dependent_loop_needs_its_annotation() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("data_loop.cl");
    std::fs::write(&path, DATA_LOOP).unwrap();
    let c = cl_case(&path, Mode::NoSplit, Policy::Gto).unwrap();
    let e = match analyze(&c) {
        Err(WcetError::Input(e)) => e,
        other => panic!("{:?}", other.map(|a| a.wcet)),
    };
    assert!(e.contains("loop `.LBB0_"), "{e}");
    let label = e.split('`').nth(1).unwrap().to_string();
    assert!(e.contains(&format!("// @loop {label} N")), "{e}");
    for (n, holds) in [(7, true), (0, false)] {
        let src = format!("{DATA_LOOP}// @loop {label} {n}\n");
        std::fs::write(&path, src).unwrap();
        let c = cl_case(&path, Mode::NoSplit, Policy::Gto).unwrap();
        let a = analyze(&c).unwrap();
        let r = run_inputs(&c, &a, None, 12, &|| {}).unwrap();
        assert_eq!(r.violations.is_empty(), holds, "@loop {n}: {r:?}");
    }
    // A label that is no loop header is an error of the annotation.
    std::fs::write(&path, format!("{DATA_LOOP}// @loop .LBB0_99 3\n")).unwrap();
    let e = cl_case(&path, Mode::NoSplit, Policy::Gto).unwrap_err();
    assert!(e.contains(".LBB0_99"), "{e}");
}
