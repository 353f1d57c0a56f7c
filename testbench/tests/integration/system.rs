//! The full system: every kernel of firmware/kernels in every combination of split
//! mode, scheduler, reordering and DRAM part runs on the compute unit with its real memory
//! hierarchy and leaves exactly the reference interpreter's buffers; the independent DDR4
//! checker sees every DRAM command with zero violations; with reordering on, the L1 miss count
//! equals the static estimator's prediction.

use rtgpu_firmware::aging::experiment::Distribution;
use rtgpu_firmware::launch::Dims;
use rtgpu_hw::cu::{CuConfig, Mode};
use rtgpu_hw::memsys::DramPart;
use rtgpu_hw::sched::model::Policy;
use rtgpu_testbench::cu::system::{run_case, SysCase, SysOutcome};
use rtgpu_testbench::oracle::ddr4::Cmd;
use std::path::PathBuf;

const KERNELS: [&str; 6] = [
    "vector_add.s",
    "fig2_divergent.s",
    "fig5_nested.s",
    "loop.s",
    "lds_reduce.s",
    "synthetic.s",
];

const MODES: [(Mode, u32); 4] = [
    (Mode::NoSplit, 1),
    (Mode::Dws, 1),
    (Mode::Pws, 2),
    (Mode::Pws, 3),
];

fn kernel(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../firmware/kernels")
        .join(name)
}

/// Reordering on: 16 work-groups of 4 wavefronts, two rounds of the 10 resident work-groups
/// (40 slots), the second one partial. Off: 4 work-groups (every slot refills anyway).
fn dims(reorder: bool) -> Dims {
    Dims {
        grid: if reorder { 4096 } else { 1024 },
        wg: 256,
    }
}

fn case(
    name: &str,
    (mode, s): (Mode, u32),
    policy: Policy,
    reorder: bool,
    part: DramPart,
) -> SysCase {
    let mut cfg = CuConfig::default();
    cfg.memory.dram_part = part;
    SysCase {
        kernel: kernel(name),
        cfg,
        mode,
        s,
        policy,
        reorder,
        idu: None,
        dims: Some(dims(reorder)),
        seed: 3,
        timeout: 5_000_000,
    }
}

/// Every oracle agrees with the run.
fn check(c: &SysCase) -> SysOutcome {
    let what = format!(
        "{} {:?} S={} {:?} reorder={} {:?}",
        c.kernel.display(),
        c.mode,
        c.s,
        c.policy,
        c.reorder,
        c.cfg.memory.dram_part
    );
    let o = run_case(c).unwrap_or_else(|e| panic!("{what}: {e}"));
    o.result.clone().unwrap_or_else(|e| panic!("{what}: {e}"));
    assert_eq!(
        o.exact,
        Some(true),
        "{what}: buffers differ from the interpreter"
    );
    let stats = o
        .ddr4
        .clone()
        .unwrap_or_else(|v| panic!("{what}: DDR4 violation {v:?}"));
    // A load miss reads its whole line: two 64-byte bursts, two RD/RDA per read request.
    let rd = stats.count(Cmd::Rd) + stats.count(Cmd::Rda);
    let wr = stats.count(Cmd::Wr) + stats.count(Cmd::Wra);
    assert!(o.get("dram_reads") > 0, "{what}: no DRAM read");
    assert_eq!(rd, 2 * o.get("dram_reads"), "{what}: read bursts");
    assert!(wr >= o.get("dram_writes"), "{what}: write bursts");
    if let Some(p) = o.predicted_misses {
        assert_eq!(
            o.get("l1_misses"),
            p,
            "{what}: L1 misses vs the static estimator"
        );
    }
    o
}

/// Every combination of kernel, mode, policy, reordering, DRAM part and IDU.
fn combinations() -> Vec<SysCase> {
    let mut v = Vec::new();
    for name in KERNELS {
        for mode in MODES {
            for policy in [Policy::Gto, Policy::Lrr] {
                for reorder in [false, true] {
                    for part in DramPart::ALL {
                        for idu in [None, Some(Distribution::Orig), Some(Distribution::Idu)] {
                            let mut c = case(name, mode, policy, reorder, part);
                            c.idu = idu;
                            v.push(c);
                        }
                    }
                }
            }
        }
    }
    v
}

#[test]
fn every_kernel_every_combination_matches_the_interpreter_and_the_oracles() {
    let all = combinations();
    assert_eq!(all.len(), 6 * 4 * 2 * 2 * 3 * 3);
    let half = all.len() / 2;
    std::thread::scope(|s| {
        for chunk in [&all[..half], &all[half..]] {
            s.spawn(move || chunk.iter().for_each(|c| drop(check(c))));
        }
    });
}

#[test]
fn the_idu_distributes_valu_instructions_by_its_limits() {
    let mut c = case(
        "synthetic.s",
        MODES[3],
        Policy::Gto,
        false,
        DramPart::default(),
    );
    c.idu = Some(Distribution::Idu);
    let o = check(&c);
    let per: Vec<u64> = (0..8).map(|k| o.get(&format!("idu_cluster{k}"))).collect();
    assert_eq!(per.iter().sum::<u64>(), o.get("insts_valu"), "{per:?}");
    let limits = rtgpu_testbench::cu::idu_launch(c.idu, 1).unwrap().unwrap();
    for k in 0..8 {
        let (working, limit, _) = limits.clusters[k];
        if !working {
            assert_eq!(per[k], 0, "gated cluster {k}");
        }
        // Each of the 16 units (4 SIMDs × S + 1) runs whole ratio periods but its last.
        let period: u64 = limits.clusters.iter().map(|c| u64::from(c.1)).sum();
        let share = per.iter().sum::<u64>() * u64::from(limit) / period;
        assert!(
            per[k].abs_diff(share) <= period * 16,
            "cluster {k}: {per:?} vs limits {limits:?}"
        );
    }
}

#[test]
fn reordering_keeps_the_accesses_and_its_misses_are_predicted() {
    let mut off = case(
        "vector_add.s",
        MODES[0],
        Policy::Lrr,
        false,
        DramPart::default(),
    );
    off.dims = Some(dims(true));
    let off = check(&off);
    let on = check(&case(
        "vector_add.s",
        MODES[0],
        Policy::Lrr,
        true,
        DramPart::default(),
    ));
    assert_eq!(on.predicted_misses, Some(on.get("l1_misses")));
    assert_eq!(off.get("l1_accesses"), on.get("l1_accesses"));
    assert!(on.get("dram_reads") > 0 && off.get("dram_writes") == on.get("dram_writes"));
}

#[test]
fn smaller_l1s_change_the_miss_count_and_the_estimator_follows() {
    for name in ["synthetic.s", "loop.s", "fig2_divergent.s"] {
        let mut misses = Vec::new();
        for (sets, ways) in [(2, 2), (8, 4), (16, 4), (32, 4), (16, 8)] {
            let mut c = case(name, MODES[2], Policy::Lrr, true, DramPart::default());
            c.cfg.memory.l1_sets = sets;
            c.cfg.memory.l1_ways = ways;
            // With the sequence-major release every wavefront's n-th access waits for every
            // other's (n-1)-th: synthetic's PWS merge partners, missing in a small L1, wait
            // longer than the default merge watchdog (16 sets: 320,950 cycles, done).
            c.cfg.watchdog = 0;
            misses.push(check(&c).get("l1_misses"));
        }
        if name == "synthetic.s" {
            // Its loads re-read A[i]: a 16 KiB L1 keeps a round's lines, 2 KiB does not.
            assert!(misses[0] > misses[3], "{name}: {misses:?}");
        }
    }
}

#[test]
fn a_flat_as_the_first_instruction_waits_for_its_rounds_configuration() {
    // No s_load before the load: the wavefront reaches its FLAT while the reordering unit is
    // still being configured for its round (two rounds: 16 work-groups, 10 resident).
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("flat_first.s");
    let src = "// @grid 4096\n// @wg 256\n// @args iota:grid\n.text\n\
        v_lshlrev_b32 v1, 2, v0\n\
        s_mul_i32 s5, s2, 0x400\n\
        v_add_u32 v1, vcc, s5, v1\n\
        v_add_u32 v2, vcc, 0x10000, v1\n\
        v_mov_b32 v3, 0\n\
        flat_load_dword v4, v[2:3]\n\
        s_waitcnt vmcnt(0)\n\
        v_add_u32 v4, vcc, 1, v4\n\
        flat_store_dword v[2:3], v4\n\
        s_endpgm\n";
    std::fs::write(&path, src).unwrap();
    let mut c = case(
        "vector_add.s",
        MODES[0],
        Policy::Gto,
        true,
        DramPart::default(),
    );
    c.kernel = path;
    let o = check(&c);
    assert_eq!(o.get("dram_writes"), 4096 * 4 / 128);
}

#[test]
fn a_second_launch_on_the_same_gpu_times_exactly_like_the_first() {
    use rtgpu_firmware::driver::{run, Driver, LaunchDesc};
    use rtgpu_firmware::launch::Image;
    use rtgpu_hw::gpu::Gpu;
    use rtgpu_testbench::cu::system::load_kernel;
    let (code, meta) = load_kernel(&kernel("fig2_divergent.s")).unwrap();
    let image = Image::build(&meta.args, meta.dims, 1);
    let mut cfg = CuConfig::default();
    cfg.memory.hierarchy = true;
    let mut drv = Driver::new(Gpu::new(cfg).unwrap()).unwrap();
    let desc = LaunchDesc::new(
        image.kernarg,
        meta.dims,
        meta.lds,
        Mode::Pws,
        1,
        Policy::Gto,
    );
    let first = run(&mut drv, &code, &image, desc, 1_000_000).unwrap();
    drv.bus_mut().run(12_345);
    let second = run(&mut drv, &code, &image, desc, 1_000_000).unwrap();
    assert!(first.result.is_ok() && second.result.is_ok());
    assert_eq!(first.counters, second.counters);
    assert!(first.counters.get("dram_cycles") < 2 * first.counters.get("cycles"));
}
