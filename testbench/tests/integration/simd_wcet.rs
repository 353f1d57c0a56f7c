//! Sim-D's WCET (`rtgpu wcet --exec simd`): the bound is never below the simulated launch on
//! random programs (tile shapes and alignments, compute lengths, work-group counts and sizes,
//! refresh phases; each bound computed once per program); Eqs. 17–19 on the vector_add phase
//! costs equal a hand computation; the two Sim-D kernels stay within their bounds.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rtgpu_firmware::launch::Dims;
use rtgpu_hw::cu::CuConfig;
use rtgpu_hw::dram::Part;
use rtgpu_testbench::cu::simd_gen::SimdProgram;
use rtgpu_testbench::cu::system::load_kernel;
use rtgpu_testbench::cu::wcet::simd::{bound, combine, cost, observe, PhaseBound};
use rtgpu_wcet::simd::Resource;
use std::path::Path;

/// Random programs per run.
const PROGRAMS: u64 = 40;

#[test]
fn simd_wcet_bounds_random_programs() {
    let mut rng = ChaCha8Rng::seed_from_u64(0x51D0);
    let mut violations = Vec::new();
    let mut tightest = f64::MAX;
    for seed in 0..PROGRAMS {
        let mut p = SimdProgram::random(&mut rng);
        p.groups = rng.gen_range(1..=8);
        let mut cfg = CuConfig::default();
        cfg.memory.refresh_phase = rng.gen_range(0..12_480);
        let (code, meta) = p.kernel().expect("the program assembles");
        let dims = Dims {
            grid: p.wg * p.groups,
            wg: p.wg,
        };
        let mut b = bound(&code, dims, &cfg).expect("the program is analysable");
        let o = observe((&code, &meta), dims, &cfg, seed, &mut b).expect("the launch runs");
        assert_eq!(o.status, "done", "{}", p.source());
        assert_eq!(o.exact, Some(true));
        tightest = tightest.min(o.tightness);
        if !o.within || !o.phases_within {
            violations.push((seed, o.cycles, b.wcet, b.phases.clone()));
        }
    }
    assert!(
        violations.is_empty(),
        "{} violations: {violations:?}",
        violations.len()
    );
    assert!(tightest >= 0.0);
}

fn phase(kind: Resource, bound: u64) -> PhaseBound {
    PhaseBound {
        kind,
        bound,
        tile: None,
        lid: None,
        observed: None,
    }
}

/// vector_add's phase costs (C 168, A 211, C 22, A 211, C 406, A 231, as its analysis gives
/// them) by hand: the access phase of a 4 KiB read, LID 327: ⌈(2 + 1 + 327)·0.625⌉ + 2 + 2 =
/// 211; the third compute phase: 4 wavefronts per SIMD × 56 cycles each (its second
/// `ds_read_b32` waits 3 cycles for the LDS) + 2 hand-over + its 3 DS instructions × the
/// work-group's 15 other wavefronts × `lds_period` 4 = 180 (docs/assumptions.md#A105): 406;
/// c_2wg = max(231, 168) + 211 + 211 + 211 + 406 + 406 = 1676 (Eq. 17); 64 work-groups:
/// 32·1676 + min(168, 231) = 53 800 (Eq. 18); + 8 launch = 53 808; Eq. 19:
/// ⌈53 808 / 7450⌉ = 8 refreshes of 350 cycles: 56 608.
#[test]
fn simd_wcet_of_a_phase_list_equals_the_hand_computation() {
    let cfg = CuConfig::default();
    assert_eq!(cost::access_cost(&cfg, &Part::DDR4_3200AA_X16, 327), 211);
    let (c, a) = (Resource::Compute, Resource::Access);
    let phases = [(c, 168), (a, 211), (c, 22), (a, 211), (c, 406), (a, 231)]
        .map(|(k, n)| phase(k, n))
        .to_vec();
    let dims = Dims {
        grid: 64 * 1024,
        wg: 1024,
    };
    let b = combine(dims, 16, phases.clone(), &cfg);
    assert_eq!((b.c_2wg, b.c_edge, b.schedule), (1676, 168, 53_800));
    assert_eq!((b.refreshes, b.refresh_cycles, b.wcet), (8, 2800, 56_608));
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../firmware/kernels/simd");
    let (code, _) = load_kernel(&root.join("vector_add.s")).expect("the kernel assembles");
    let va = bound(&code, dims, &cfg).expect("analysable");
    let costs = |p: &[PhaseBound]| p.iter().map(|p| p.bound).collect::<Vec<_>>();
    assert_eq!(costs(&va.phases), costs(&phases));
    assert_eq!(va.wcet, b.wcet);
}

/// Both Sim-D kernels at their default launch: simulated ≤ bound, every phase within its cost.
#[test]
fn simd_wcet_bounds_the_simd_kernels() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../firmware/kernels/simd");
    for name in ["vector_add.s", "stencil.s"] {
        let (code, meta) = load_kernel(&root.join(name)).expect("the kernel assembles");
        let cfg = CuConfig::default();
        let mut b = bound(&code, meta.dims, &cfg).expect("analysable");
        let o = observe((&code, &meta), meta.dims, &cfg, 1, &mut b).expect("runs");
        assert!(o.within && o.phases_within, "{name}: {o:?} {b:?}");
    }
}

fn cli_kernel(name: &str) -> String {
    format!("{}/../firmware/kernels/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// `rtgpu wcet --exec simd`: exit 0 with the bound above the run; 2 for a kernel the analysis
/// does not take (global memory in a compute phase); 1 when the launch fails (a tile outside the data memory).
#[test]
fn simd_wcet_cli_exit_codes() {
    use crate::common::rtgpu;
    let va = cli_kernel("simd/vector_add.s");
    let (code, out, err) = rtgpu(&["wcet", &va, "--exec", "simd", "--run", "--json"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let (b, o) = (&v["bound"], &v["observed"]);
    assert_eq!(o["within"], true);
    assert!(o["cycles"].as_u64().unwrap() <= b["wcet"].as_u64().unwrap());
    assert_eq!(b["phases"].as_array().unwrap().len(), 6);
    let branchy = cli_kernel("fig2_divergent.s");
    let (code, _, err) = rtgpu(&["wcet", &branchy, "--exec", "simd"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("compute phase"), "{err}");
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("outside.s");
    std::fs::write(
        &bad,
        "// @grid 1024\n// @wg 1024\n// @lds 4096\n// @args zero:grid\n\
         s_mov_b32 s16, 0x7ffff000\n s_mov_b32 s17, 0\n s_mov_b32 s18, 0x10040\n\
         s_mov_b32 s19, 64\n tile_ld s[16:19]\n s_load_dwordx2 s[8:9], s[0:1], 0x0\n\
         s_waitcnt lgkmcnt(0)\n s_mov_b32 s20, s8\n s_mov_b32 s21, 0\n s_mov_b32 s22, 0x10040\n\
         s_mov_b32 s23, 64\n tile_st s[20:23]\n s_endpgm\n",
    )
    .unwrap();
    let (code, _, err) = rtgpu(&["wcet", bad.to_str().unwrap(), "--exec", "simd", "--run"]);
    assert_eq!(code, 1, "{err}");
}

/// `rtgpu reproduce simd`: every kernel within its bound, the paper's numbers beside ours.
#[test]
fn reproduce_simd_runs_from_the_cli() {
    use crate::common::rtgpu;
    let (code, out, err) = rtgpu(&["reproduce", "simd", "--json"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["violations"], 0);
    let rows = v["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 6);
    assert!(
        rows.iter()
            .all(|r| r["rules"].as_u64() <= r["wcet"].as_u64()
                && r["tightness"].as_f64() >= Some(0.0))
    );
}
