//! The IDU dispatcher RTL on the thesis' Fig. 4.3 and on the always-ready pattern.

use rtgpu_hw::idu::model::DispIn;
use rtgpu_testbench::tb::idu::rtl::{config, present, RtlDispatcher};

/// Thesis clusters 1, 2, 4 = indices 0, 1, 3; index 2 (thesis cluster 3) power-gated.
fn fig43() -> RtlDispatcher<4> {
    let mut d = RtlDispatcher::<4>::new().unwrap();
    for (k, w, l) in [(0, true, 4), (1, true, 3), (2, false, 0), (3, true, 3)] {
        d.step(&config(0, k, w, l)).unwrap();
    }
    d.step(&DispIn {
        launch: true,
        ..DispIn::default()
    })
    .unwrap();
    d
}

/// The thesis' Fig. 4.3: the ready pattern per dispatch slot gives clusters 1,2,2,1,4,2,1,4,4,1,2
/// and the counter columns of Fig. 4.3 (row 10: 4/3/3 all at limit; row 11: 0/1/0).
#[test]
fn fig_4_3_golden_trace() {
    let mut d = fig43();
    let c1 = [1, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0];
    let c2 = [1, 1, 1, 1, 0, 1, 1, 1, 1, 1, 1];
    let want_cluster = [1, 2, 2, 1, 4, 2, 1, 4, 4, 1, 2];
    let want_cnt = [
        (1, 0, 0),
        (1, 1, 0),
        (1, 2, 0),
        (2, 2, 0),
        (2, 2, 1),
        (2, 3, 1),
        (3, 3, 1),
        (3, 3, 2),
        (3, 3, 3),
        (4, 3, 3),
        (0, 1, 0),
    ];
    let thesis = [1u8, 2, 3, 4];
    for slot in 0..11 {
        let ready = c1[slot] | c2[slot] << 1 | 1 << 3;
        let o = d.step(&present(0, slot as u8, ready)).unwrap();
        assert!(o.dispatch, "slot {}", slot + 1);
        assert_eq!(
            thesis[o.sel as usize],
            want_cluster[slot],
            "slot {}",
            slot + 1
        );
        let after = d.step(&DispIn::default()).unwrap();
        assert_eq!(
            (after.cnt[0], after.cnt[1], after.cnt[3]),
            want_cnt[slot],
            "counters after slot {}",
            slot + 1
        );
    }
}

/// Always ready, limits 4/3/3 → 1,1,1,1,2,2,2,4,4,4 repeating.
#[test]
fn always_ready_repeats_the_ratio() {
    let mut d = fig43();
    let mut seq = Vec::new();
    for i in 0..30 {
        let o = d.step(&present(0, i, 0b1011)).unwrap();
        assert!(o.dispatch);
        seq.push([1, 2, 3, 4][o.sel as usize]);
    }
    let period = [1, 1, 1, 1, 2, 2, 2, 4, 4, 4];
    assert_eq!(seq, period.repeat(3));
}

/// With no eligible cluster the instruction stalls; the stock dispatcher ignores the limits.
#[test]
fn stall_and_stock_dispatcher() {
    let mut d = fig43();
    for i in 0..4 {
        d.step(&present(0, i, 0b0001)).unwrap();
    }
    // C1 at its limit, only C1 ready: stall.
    let o = d.step(&present(0, 9, 0b0001)).unwrap();
    assert!(o.stall && !o.dispatch);
    // Stock dispatcher: C1 takes it, counters unchanged.
    let o = d
        .step(&DispIn {
            enable: false,
            ..present(0, 9, 0b0001)
        })
        .unwrap();
    assert!(o.dispatch && o.sel == 0);
    assert_eq!(d.step(&DispIn::default()).unwrap().cnt[0], 4);
    // Type 3 never dispatches.
    let o = d.step(&present(3, 1, 0xFF)).unwrap();
    assert!(o.stall);
}

// ---- The IDU with its clusters, each in its own clock domain: RTL == model.

use proptest::prelude::*;
use rtgpu_hw::idu::model::{IduSystem, SystemConfig, SystemRun, MAX_K, TYPES};
use rtgpu_testbench::tb::idu::system::{run_rtl, DEPTHS};

/// Two SP clusters, the stock dispatcher (the thesis' Fig. 1.5).
fn fig15(disp: u64, c1: u64, c2: u64) -> SystemConfig {
    let mut cfg = SystemConfig::uniform(2, disp);
    cfg.depth = DEPTHS;
    cfg.cluster_ps[0][0] = c1;
    cfg.cluster_ps[0][1] = c2;
    cfg.working[0] = [true, true, false, false, false, false, false, false];
    cfg.limits[0][0] = 1;
    cfg.limits[0][1] = 1;
    cfg.enable = false;
    cfg
}

const ABCD: [(u8, u8); 4] = [(0, 0xA), (0, 0xB), (0, 0xC), (0, 0xD)];

fn both(cfg: &SystemConfig, instrs: &[(u8, u8)], max_ps: u64) -> SystemRun {
    let want = IduSystem::new(cfg.clone()).run(instrs, max_ps);
    let got = match cfg.k {
        2 => run_rtl::<2>(cfg, instrs, max_ps, None),
        4 => run_rtl::<4>(cfg, instrs, max_ps, None),
        k => panic!("no RTL instance for K = {k}"),
    }
    .unwrap();
    assert_eq!(got, want, "RTL vs model");
    got
}

fn sent(r: &SystemRun) -> Vec<(u8, u8, u64)> {
    r.dispatches
        .iter()
        .map(|d| (d.tag, d.cluster, d.ps))
        .collect()
}

/// Fig. 1.5: with one clock everything goes to C1; with 1.0 / 3.5 / 1.5 ns clocks the
/// instructions spread A→C1, B→C2, C→C2, D→C1.
#[test]
fn fig_1_5_on_the_rtl() {
    let r = both(&fig15(1000, 1000, 1000), &ABCD, 1_000_000);
    assert_eq!(
        sent(&r),
        [
            (0xA, 0, 1000),
            (0xB, 0, 2000),
            (0xC, 0, 3000),
            (0xD, 0, 4000)
        ]
    );
    let r = both(&fig15(1000, 3500, 1500), &ABCD, 1_000_000);
    assert_eq!(
        sent(&r),
        [
            (0xA, 0, 1000),
            (0xB, 1, 2000),
            (0xC, 1, 3000),
            (0xD, 0, 4000)
        ]
    );
    assert!(r.completed);
    assert_eq!(r.stalls, 0);
}

fn arb_config() -> impl Strategy<Value = SystemConfig> {
    let periods = prop::collection::vec(800u64..4000, TYPES * 4);
    let limits = prop::collection::vec(0u8..6, TYPES * 4);
    let working = prop::collection::vec(any::<bool>(), TYPES * 4);
    let ii = prop::collection::vec(1u32..5, TYPES);
    (
        prop_oneof![Just(2usize), Just(4usize)],
        600u64..2000,
        periods,
        limits,
        working,
        ii,
        any::<bool>(),
    )
        .prop_map(|(k, disp, p, l, w, ii, enable)| {
            let mut cfg = SystemConfig::uniform(k, disp);
            cfg.depth = DEPTHS;
            cfg.enable = enable;
            for t in 0..TYPES {
                cfg.ii[t] = ii[t];
                for c in 0..k.min(MAX_K) {
                    cfg.cluster_ps[t][c] = p[t * 4 + c];
                    cfg.limits[t][c] = l[t * 4 + c];
                    cfg.working[t][c] = w[t * 4 + c] || c == 0;
                }
            }
            cfg
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]
    /// Random clocks, limits, working bits, intervals and instruction mixes: every dispatch,
    /// retirement, stall and busy cycle of the RTL equals the model's.
    #[test]
    fn rtl_system_equals_model(
        cfg in arb_config(),
        instrs in prop::collection::vec((0u8..3, any::<u8>()), 0..60),
    ) {
        let r = both(&cfg, &instrs, 2_000_000);
        prop_assert!(r.completed);
        prop_assert_eq!(r.retires.len(), instrs.len());
    }
}

/// The IDU with its clusters (3 × 4 clusters, each on its own clock): Verilator lint and Yosys
/// synthesis, like every testbench's block (the multi-clock top has no single-clock replay).
/// The lint also runs at 8 clusters per type, the compute unit's `--idu idu` geometry, where
/// a 3-bit `cfg_cluster < 8` once made the Verilog a constant comparison that Verilator
/// refused (the mutation this catches: that comparison back in the dispatcher).
#[test]
fn the_idu_top_lints_and_synthesizes() {
    use rtgpu_testbench::sim::cosim;
    use rtgpu_testbench::tb::idu::system::IduRtl;
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("idu-top");
    let eight = cosim::verilog_of(&mut IduRtl::<8>::default()).unwrap();
    let lint = cosim::lint(&dir.join("k8"), &eight, &[]).unwrap_or_else(|e| panic!("{e}"));
    assert!(lint.clean, "8 clusters: {:?}", lint.findings);
    let verilog = cosim::verilog_of(&mut IduRtl::<4>::default()).unwrap();
    let lint = cosim::lint(&dir, &verilog, &[]).unwrap_or_else(|e| panic!("{e}"));
    assert!(lint.clean, "{:?}", lint.findings);
    let synth = cosim::synth(&dir, &verilog).unwrap_or_else(|e| panic!("{e}"));
    assert!(synth.cells > 0, "{}", synth.stat);
    eprintln!("Idu<4, 4, 20, 4>: {} cells", synth.cells);
}

/// The driver's program (firmware: Algorithm 3 and 4 on an unevenly aged SM) loaded through
/// the configuration port with exactly its register writes: the RTL runs it as the model
/// runs the same configuration, and over whole ratio periods every SP cluster gets exactly
/// its limit per period (the ratio is never broken, whatever the cluster clocks).
#[test]
fn the_drivers_program_runs_on_the_rtl() {
    use rtgpu_firmware::aging::model::SECONDS_PER_YEAR;
    use rtgpu_firmware::aging::{
        program, AgingState, Calibration, CoreStress, PlanConfig, PvMap, PvParams, Workload,
    };
    use rtgpu_testbench::tb::idu::system::run_program;
    let pv = PvMap::generate(PvParams::default(), 11).unwrap();
    let cal = Calibration::default();
    let mut state = AgingState::fresh(pv.cores.len());
    let stress: Vec<CoreStress> = (0..pv.cores.len())
        .map(|i| {
            let d = if i < 192 { (i % 6) as f64 / 6.0 } else { 0.0 };
            CoreStress {
                duty: d,
                activity: d,
                freq_hz: 876e6,
                temp_k: cal.temperature(d),
            }
        })
        .collect();
    state
        .advance(&pv, &cal, &stress, 2.0 * SECONDS_PER_YEAR)
        .unwrap();
    let workload = Workload {
        warp_insts: [
            4_000_000_000_000_000,
            100_000_000_000_000,
            500_000_000_000_000,
        ],
        clusters_needed: [None, None, None],
        horizon_s: 30.0 * 86_400.0,
    };
    let prog = program(&pv, &state, &workload, &PlanConfig::default()).unwrap();
    let sp = &prog.types[0];
    let period: u32 = sp.period();
    assert!(sp.limits.iter().filter(|&&l| l > 0).count() >= 2, "{sp:?}");
    let periods = 5;
    let instrs: Vec<(u8, u8)> = (0..periods * period).map(|i| (0, i as u8)).collect();
    let (cfg, run) = run_program::<8>(&prog, 1142, &instrs, u64::MAX).unwrap();
    assert_eq!(
        run,
        IduSystem::new(cfg).run(&instrs, u64::MAX),
        "RTL vs model"
    );
    assert!(run.completed);
    for (c, &limit) in sp.limits.iter().enumerate() {
        assert_eq!(
            run.dispatched[0][c],
            u64::from(limit) * u64::from(periods),
            "cluster {c}"
        );
    }
}
