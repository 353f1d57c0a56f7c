//! The aging experiment with the cycle-level step model (`rtgpu_testbench::aging`): the
//! IDU reference model runs every step's instruction stream.

use rtgpu_firmware::aging::experiment::{policy_plan, step_workload};
use rtgpu_firmware::aging::{
    run_experiment_with, AgingState, CoreType, Distribution, ExperimentConfig, ExperimentReport,
    Plan, PvGenerator, PvMap, StepModel, Workload,
};
use rtgpu_testbench::aging::{stream_counts, system_config, CycleModel};

/// Four maps, one year of monthly steps.
fn small() -> ExperimentConfig {
    ExperimentConfig {
        years: 1.0,
        maps: 4,
        seed: 1,
        ..ExperimentConfig::default()
    }
}

fn report(cfg: &ExperimentConfig) -> ExperimentReport {
    run_experiment_with(cfg, &CycleModel::default()).unwrap()
}

/// Map `seed` of `cfg`, fresh, and the first step's workload.
fn fresh(cfg: &ExperimentConfig, seed: u64) -> (PvMap, AgingState, Workload) {
    let pv = PvGenerator::new(cfg.pv).unwrap().generate(seed).unwrap();
    let state = AgingState::fresh(pv.cores.len());
    let (_, step_s) = cfg.validate().unwrap();
    (pv, state, step_workload(cfg, step_s))
}

fn plan_of(cfg: &ExperimentConfig, seed: u64, p: Distribution) -> (PvMap, Plan, Workload) {
    let (pv, state, w) = fresh(cfg, seed);
    let plan = policy_plan(cfg, &pv, &state, &w, p).unwrap();
    (pv, plan, w)
}

/// The thesis' trend (Section 4.4.2) on 4 maps over a year:
/// - the IDU narrows the SP and SFU spread below Orig's and Even's on average, and its GPU
///   relative delay is below Orig's on every map (success 4/4) and below Even's on average;
/// - its time cost against Orig is small. Measured here: mean 2.7 %, max 3.5 % (50 maps over
///   3 years: 2.8 % / 4.7 %; the thesis: 1.05 % / 7.92 %). Asserted: mean < 5 %, max < 8 %
///   (the thesis' maximum), which leaves room for the stream's seed and the maps;
/// - Even, a round robin over clusters that drain between turns, costs nothing (measured
///   −0.03 %; asserted |cost| < 0.5 %);
/// - Orig's first-available dispatcher sends most of each type to cluster 0 (measured 87–93 %
///   of SP, 94–95 % of SFU), so cluster 0 has the largest share and the busiest pipeline on
///   every map (the thesis' Fig. 1.5 motivation).
#[test]
fn aging_cycle_model_trend() {
    let r = report(&small());
    let [orig, even, idu] = [0, 1, 2].map(|i| &r.summary[i]);
    for t in [CoreType::Sp, CoreType::Sfu] {
        let ti = t.index();
        let s = |p: &rtgpu_firmware::aging::experiment::PolicySummary| p.types[ti].spread_mean;
        assert!(s(idu) < s(orig) && s(idu) < s(even), "{t}\n{}", r.table());
        assert_eq!(idu.types[ti].narrower_maps, 4);
    }
    assert_eq!(idu.success_maps, 4, "{}", r.table());
    assert!(idu.max_rel_delay_mean < even.max_rel_delay_mean);
    assert!(idu.improvement_mean > 0.0);
    assert!(
        idu.time_cost_mean < 0.05 && idu.time_cost_max < 0.08,
        "{}",
        r.table()
    );
    assert!(even.time_cost_mean.abs() < 0.005, "{}", r.table());
    for m in &r.maps {
        let o = m.run(Distribution::Orig).unwrap();
        let busy = o.mean_busy.as_ref().unwrap();
        for t in [0, 1] {
            let top = o.mean_shares[t].iter().copied().fold(0.0, f64::max);
            assert_eq!(o.mean_shares[t][0], top, "map {} type {t}", m.seed);
            assert!(top > 0.8, "map {} type {t}: {:?}", m.seed, o.mean_shares[t]);
            let top_busy = busy[t].iter().copied().fold(0.0, f64::max);
            assert_eq!(busy[t][0], top_busy, "map {} type {t}", m.seed);
        }
    }
}

/// The IDU holds to the ratio: after `n` dispatches of a type, cluster `k`
/// has `n · limit_k / S` of them within `S`; Even's limits of 1 give equal shares within one
/// instruction. Stalls make the kernel longer, never shorter, than Orig's stock dispatcher.
#[test]
fn aging_cycle_model_follows_the_ratio() {
    let cfg = small();
    let model = CycleModel::default();
    for seed in [1, 2] {
        let (pv, plan, w) = plan_of(&cfg, seed, Distribution::Idu);
        let out = model.step(&pv, &plan, Distribution::Idu, &w).unwrap();
        let counts = stream_counts(&w.warp_insts, model.stream_len);
        for t in [0, 1] {
            let tp = &plan.program.types[t];
            let s = f64::from(tp.period());
            let n = counts[t] as f64;
            for (share, &l) in out.shares[t].iter().zip(&tp.limits) {
                let want = f64::from(l) / s;
                assert!((share - want).abs() * n <= s, "type {t}: {share} vs {want}");
            }
        }
        let (pv, even, w) = plan_of(&cfg, seed, Distribution::Even);
        let out_even = model.step(&pv, &even, Distribution::Even, &w).unwrap();
        for t in [0, 1] {
            let k = out_even.shares[t].len() as f64;
            let n = counts[t] as f64;
            for share in &out_even.shares[t] {
                assert!((share - 1.0 / k).abs() * n <= 1.0, "type {t}: {share}");
            }
        }
        let (pv, stock, w) = plan_of(&cfg, seed, Distribution::Orig);
        let out_orig = model.step(&pv, &stock, Distribution::Orig, &w).unwrap();
        assert!(out.time_s > out_orig.time_s);
    }
}

/// The step's time is the stream's end scaled to the step's instructions: with 0.9 warp
/// instructions per dispatcher cycle the kernel fills 90 % of the step plus the stalls and
/// the pipeline drain (under 5 % for Orig).
#[test]
fn aging_cycle_model_time_scale() {
    let cfg = small();
    let (pv, plan, w) = plan_of(&cfg, 3, Distribution::Orig);
    let out = CycleModel::default()
        .step(&pv, &plan, Distribution::Orig, &w)
        .unwrap();
    let frac = out.time_s / w.horizon_s;
    assert!((0.9..0.9 * 1.05).contains(&frac), "{frac}");
}

/// The IDU setting per policy: Orig the stock dispatcher, Even every limit 1, Idu the plan's
/// limits; gated clusters have no clock and no limit; the dispatcher runs at 876 MHz.
#[test]
fn aging_cycle_model_system_config() {
    let mut cfg = small();
    cfg.clusters_needed = [Some(4), None, None];
    let (_, orig, _) = plan_of(&cfg, 1, Distribution::Orig);
    let c = system_config(&orig, Distribution::Orig).unwrap();
    assert!(!c.enable);
    assert_eq!((c.k, c.disp_ps), (6, 1142));
    assert_eq!(&c.working[0][..6], &[true; 6]);
    assert_eq!((c.ii, c.depth), ([1, 4, 1], [4, 20, 4]));
    let (_, idu, _) = plan_of(&cfg, 1, Distribution::Idu);
    let c = system_config(&idu, Distribution::Idu).unwrap();
    assert!(c.enable);
    assert_eq!(&c.working[0][..6], &[true, true, true, true, false, false]);
    assert_eq!(&c.limits[0][..6], &idu.program.types[0].limits[..]);
    assert_eq!(
        &c.working[1][..],
        &[true, true, true, true, false, false, false, false]
    );
    assert_eq!(c.cluster_ps[0][4], 0);
    let c = system_config(&idu, Distribution::Even).unwrap();
    assert_eq!(&c.limits[0][..6], &[1, 1, 1, 1, 0, 0]);
    assert_eq!(c.limits[2][0], 1);
}

/// The stream: each type in the workload's proportion (largest remainder, at least one of a
/// type with instructions), the same order on every call and for every policy.
#[test]
fn aging_cycle_model_stream() {
    assert_eq!(stream_counts(&[6, 1, 2], 2000), [1333, 222, 445]);
    assert_eq!(stream_counts(&[1_000_000, 1, 0], 100), [99, 1, 0]);
    assert_eq!(stream_counts(&[0, 0, 0], 100), [0, 0, 0]);
    let (_, _, w) = fresh(&small(), 1);
    let m = CycleModel::default();
    let s = m.stream(&w).unwrap();
    assert_eq!(s, m.stream(&w).unwrap());
    assert_eq!(s.len(), 2000);
    let sp = s.iter().filter(|(t, _)| *t == 0).count();
    assert_eq!(sp, 1333);
    let other = CycleModel { seed: 2, ..m }.stream(&w).unwrap();
    assert_ne!(s, other);
    assert!(CycleModel { stream_len: 0, ..m }.stream(&w).is_err());
}

/// The report does not depend on the number of threads.
#[test]
fn aging_cycle_model_is_deterministic() {
    let cfg = ExperimentConfig {
        maps: 2,
        years: 0.25,
        ..small()
    };
    let one = report(&ExperimentConfig {
        threads: 1,
        ..cfg.clone()
    });
    let two = report(&ExperimentConfig { threads: 2, ..cfg });
    assert_eq!(one.maps, two.maps);
    assert_eq!(one.table(), two.table());
    assert!(one.model.starts_with("cycle"), "{}", one.model);
}
