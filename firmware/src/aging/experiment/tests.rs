//! Tests of the experiment with the analytic [`SaturatedModel`] and with stub step models
//! (the cycle-level model's tests are in `testbench/tests/integration/aging.rs`).

use super::super::{CoreStress, PvGenerator};
use super::*;

/// Three maps, half a year of monthly steps: small enough for a unit test.
fn small() -> ExperimentConfig {
    ExperimentConfig {
        years: 0.5,
        maps: 3,
        seed: 1,
        ..ExperimentConfig::default()
    }
}

fn run(cfg: &ExperimentConfig, policy: Distribution) -> Vec<(RunResult, RunResult)> {
    let r = run_experiment(cfg).unwrap();
    r.maps
        .iter()
        .map(|m| {
            let pick = |p| m.run(p).unwrap().clone();
            (pick(policy), pick(Distribution::Orig))
        })
        .collect()
}

/// The same settings give the same report whatever the number of threads, and the
/// report survives a JSON round trip (up to the last bit of a float: serde_json parses
/// floats to within one ulp).
#[test]
fn aging_experiment_is_deterministic() {
    let one = run_experiment(&ExperimentConfig {
        threads: 1,
        ..small()
    })
    .unwrap();
    let two = run_experiment(&ExperimentConfig {
        threads: 2,
        ..small()
    })
    .unwrap();
    assert_eq!(one.maps, two.maps);
    assert_eq!(one.summary, two.summary);
    assert_eq!(one.table(), two.table());
    assert_eq!((one.steps, one.maps.len()), (6, 3));
    let seeds: Vec<u64> = one.maps.iter().map(|m| m.seed).collect();
    assert_eq!(seeds, vec![1, 2, 3]);
    let json = serde_json::to_string(&one).unwrap();
    let back: ExperimentReport = serde_json::from_str(&json).unwrap();
    assert_eq!(back.config, one.config);
    assert_eq!(back.table(), one.table());
    let close = |a: f64, b: f64| (a - b).abs() <= 1e-12 * a.abs().max(1.0);
    for (b, o) in back.maps.iter().zip(&one.maps) {
        for (rb, ro) in b.runs.iter().zip(&o.runs) {
            assert!(close(rb.kernel_time_s, ro.kernel_time_s) && rb.policy == ro.policy);
            assert!(close(rb.spread[0], ro.spread[0]));
        }
    }
    // Another seed, other maps.
    let other = run_experiment(&ExperimentConfig {
        seed: 7,
        maps: 1,
        ..small()
    })
    .unwrap();
    assert_ne!(other.maps[0].runs, one.maps[0].runs);
}

#[test]
fn aging_experiment_bad_inputs_are_errors() {
    let bad = |cfg: ExperimentConfig| run_experiment(&cfg).unwrap_err();
    for years in [0.0, -1.0, f64::NAN, f64::INFINITY] {
        let e = bad(ExperimentConfig { years, ..small() });
        assert!(matches!(e, AgingError::InvalidInput { .. }), "{e:?}");
        assert!(e.to_string().contains("years"), "{e}");
    }
    let e = bad(ExperimentConfig { maps: 0, ..small() });
    assert!(e.to_string().contains("number of maps"), "{e}");
    let e = bad(ExperimentConfig {
        steps_per_year: 0,
        ..small()
    });
    assert!(e.to_string().contains("steps per year"), "{e}");
    let e = bad(ExperimentConfig {
        years: 1e6,
        ..small()
    });
    assert!(e.to_string().contains("re-planning steps"), "{e}");
    let mut load = DEFAULT_LOAD;
    load[1] = 1.5;
    let e = bad(ExperimentConfig { load, ..small() });
    assert!(e.to_string().contains("SFU load"), "{e}");
    load[1] = f64::NAN;
    assert!(matches!(
        bad(ExperimentConfig { load, ..small() }),
        AgingError::InvalidInput { .. }
    ));
    // The old placeholder load (SP 30 % of six clusters = 1.8 warp instructions per cycle)
    // is more than the warp scheduler issues.
    let e = bad(ExperimentConfig {
        load: [0.30, 0.10, 0.20],
        ..small()
    });
    assert!(e.to_string().contains("per dispatcher cycle"), "{e}");
    let mut cfg = small();
    cfg.pv.n_chip = 0;
    assert!(bad(cfg).to_string().contains("N_chip"));
    let mut cfg = small();
    cfg.plan.calibration.e_0 = -1.0;
    assert!(bad(cfg).to_string().contains("E_0"));
    let mut cfg = small();
    cfg.plan.period = 3; // 6 SP clusters cannot share 3
    assert!(matches!(bad(cfg), AgingError::LimitOverflow { .. }));
    let mut cfg = small();
    cfg.clusters_needed[0] = Some(9);
    assert!(bad(cfg).to_string().contains("needs 9 clusters"));
}

/// The default load issues 0.6 + 0.1 + 0.2 = 0.9 warp instructions per dispatcher cycle
/// (the median core clock is the dispatcher's).
#[test]
fn aging_experiment_issue_rate() {
    let cfg = small();
    assert!(
        (cfg.issue_rate() - 0.9).abs() < 1e-12,
        "{}",
        cfg.issue_rate()
    );
    let (_, step_s) = cfg.validate().unwrap();
    let w = step_workload(&cfg, step_s);
    let n: u64 = w.warp_insts.iter().sum();
    let rate = n as f64 / (NOMINAL_CLOCK_HZ * step_s);
    assert!((rate - 0.9).abs() < 1e-9, "{rate}");
    assert_eq!(w.warp_insts[0], 6 * w.warp_insts[1]);
}

/// [`small`] with a light LD/ST load (SP 10 %, SFU 10 %, LD/ST 5 %), so that under the
/// saturated model the SP and SFU clusters bound every policy's kernel (with the default
/// 20 % the single LD/ST cluster bounds Orig's and Even's).
fn cluster_bound() -> ExperimentConfig {
    ExperimentConfig {
        load: [0.10, 0.10, 0.05],
        ..small()
    }
}

/// The trend under the saturated model on the small configuration (3 maps, half a year):
/// - on every map the IDU narrows the SP and SFU spread and the relative σ below Orig's and
///   Even's, and has the lowest GPU relative delay;
/// - Orig's saturated shares follow the cluster clocks (`f_j / Σ f`): nearly even (no share
///   above 20 % of six);
/// - with the default load the LD/ST cluster (20 % busy) bounds Orig's and Even's kernels,
///   so Even costs nothing.
#[test]
fn aging_experiment_idu_narrows_the_spread() {
    let r = run_experiment(&small()).unwrap();
    for m in &r.maps {
        let (o, e, i) = (
            m.run(Distribution::Orig).unwrap(),
            m.run(Distribution::Even).unwrap(),
            m.run(Distribution::Idu).unwrap(),
        );
        for t in [CoreType::Sp, CoreType::Sfu] {
            let ti = t.index();
            assert!(
                i.spread[ti] < 0.2 * o.spread[ti].min(e.spread[ti]),
                "map {} {t}",
                m.seed
            );
            assert!(
                i.rel_sigma[ti] < o.rel_sigma[ti].min(e.rel_sigma[ti]),
                "map {}",
                m.seed
            );
        }
        assert!(
            i.max_rel_delay < o.max_rel_delay.min(e.max_rel_delay),
            "map {}",
            m.seed
        );
        assert!(o.max_rel_delay > 1.0);
        let sp = &o.mean_shares[0];
        let top = sp.iter().copied().fold(0.0, f64::max);
        assert!(
            (sp.iter().sum::<f64>() - 1.0).abs() < 1e-9 && top < 0.2,
            "{sp:?}"
        );
        assert!(o.mean_busy.is_none());
    }
    let (orig, idu) = (&r.summary[0], &r.summary[2]);
    assert_eq!((orig.success_maps, idu.success_maps), (0, 3));
    assert_eq!(idu.types[0].narrower_maps, 3);
    assert!(idu.improvement_mean > 0.0);
    for p in &r.summary[..2] {
        assert_eq!(
            (p.time_cost_mean, p.time_cost_max),
            (0.0, 0.0),
            "{:?}",
            p.policy
        );
    }
}

/// The saturated model charges a split its full imbalance where the split's clusters bound
/// the kernel: Orig's `N cpi / Σ f` is the least any split of a type can take, so Even and
/// Idu never beat it (on map 2 the LD/ST cluster bounds all three), and with the default PV→V_th0 coupling (a slow cluster has less
/// overdrive, ages less per instruction and gets more instructions) the IDU loads its slow
/// SP and SFU clusters beyond the LD/ST bound and waits for them. Measured on these 3 maps:
/// mean 10 %, max 30 % with the default load; 106 % / 127 % where SP and SFU bound every
/// policy (light LD/ST). Asserted: 3–20 % and below 50 %; 50–200 %.
#[test]
fn aging_experiment_saturated_cost() {
    let r = run_experiment(&small()).unwrap();
    for m in &r.maps {
        let o = m.run(Distribution::Orig).unwrap().kernel_time_s;
        let e = m.run(Distribution::Even).unwrap().kernel_time_s;
        let i = m.run(Distribution::Idu).unwrap().kernel_time_s;
        assert!(e >= o && i >= o, "map {}: {o} {e} {i}", m.seed);
    }
    let idu = &r.summary[2];
    assert!(
        (0.03..0.20).contains(&idu.time_cost_mean) && idu.time_cost_max < 0.5,
        "saturated cost {} / {}",
        idu.time_cost_mean,
        idu.time_cost_max
    );
    let bound = run_experiment(&cluster_bound()).unwrap();
    let (even, idu) = (&bound.summary[1], &bound.summary[2]);
    assert!(even.time_cost_mean > 0.0);
    assert!(
        (0.5..2.0).contains(&idu.time_cost_mean),
        "{}",
        idu.time_cost_mean
    );
}

/// With PV only in the clock (`vth_theta_slope` = 0) a slow cluster is busy longer per
/// instruction, so Algorithm 4 unloads it: under the saturated, cluster-bound model the IDU
/// then costs less than Even (which waits for its slowest cluster).
#[test]
fn aging_experiment_pv_in_the_clock_only() {
    let mut cfg = cluster_bound();
    cfg.pv.vth_theta_slope = 0.0;
    let r = run_experiment(&cfg).unwrap();
    let (even, idu) = (&r.summary[1], &r.summary[2]);
    assert!(idu.types[0].spread_mean < 0.2 * even.types[0].spread_mean);
    assert!(
        idu.time_cost_mean < even.time_cost_mean,
        "idu {} even {}",
        idu.time_cost_mean,
        even.time_cost_mean
    );
}

/// With power gating (SP needs 4 of 6 clusters, SFU 3 of 4) the gated cores idle under Even
/// and Idu, and the IDU still narrows the spread of the working clusters below Even's. Orig's
/// stock GPU gates nothing: it spreads the same instructions over all six SP clusters.
#[test]
fn aging_experiment_with_power_gating() {
    let mut cfg = ExperimentConfig {
        maps: 1,
        years: 2.0 / 12.0,
        ..small()
    };
    cfg.clusters_needed = [Some(4), Some(3), None];
    let r = run_experiment(&cfg).unwrap();
    let idu = r.maps[0].run(Distribution::Idu).unwrap();
    let even = r.maps[0].run(Distribution::Even).unwrap();
    let orig = r.maps[0].run(Distribution::Orig).unwrap();
    assert!(idu.spread[0] < even.spread[0] && idu.spread[1] < even.spread[1]);
    assert_eq!(idu.mean_shares[0].len(), 4);
    assert_eq!(orig.mean_shares[0].len(), 6);
    // Fewer working clusters at the same load: the instructions scale with p_t.
    let (_, step_s) = cfg.validate().unwrap();
    let w = step_workload(&cfg, step_s);
    let full = step_workload(&small(), step_s);
    assert_eq!(w.warp_insts[0] * 6, full.warp_insts[0] * 4);
}

/// Orig on Algorithm 3's clusters instead of the fixed map: the plan is Algorithm 3's, the
/// metrics follow it; the IDU still ages the GPU less.
#[test]
fn aging_experiment_orig_on_algorithm_3() {
    let cfg = ExperimentConfig {
        orig_map: OrigMap::Alg3,
        maps: 1,
        ..small()
    };
    let pv = PvGenerator::new(cfg.pv).unwrap().generate(1).unwrap();
    let state = AgingState::fresh(pv.cores.len());
    let (_, step_s) = cfg.validate().unwrap();
    let w = step_workload(&cfg, step_s);
    let alg3 = policy_plan(&cfg, &pv, &state, &w, Distribution::Orig).unwrap();
    let even = policy_plan(&cfg, &pv, &state, &w, Distribution::Even).unwrap();
    assert_eq!(alg3.formation, even.formation);
    let fixed = policy_plan(&small(), &pv, &state, &w, Distribution::Orig).unwrap();
    assert_ne!(fixed.formation, alg3.formation);
    let (idu, orig) = &run(&cfg, Distribution::Idu)[0];
    assert!(idu.max_rel_delay < orig.max_rel_delay);
}

/// A stub step model: every instruction of a type on its first working cluster.
struct FirstCluster {
    time_s: f64,
    shares_len_bias: usize,
}

impl StepModel for FirstCluster {
    fn name(&self) -> String {
        "first cluster".into()
    }

    fn step(
        &self,
        _pv: &PvMap,
        plan: &Plan,
        _policy: Distribution,
        _workload: &Workload,
    ) -> Result<StepOutcome, AgingError> {
        let shares = std::array::from_fn(|t| {
            let k = plan.formation[t].working() + self.shares_len_bias;
            (0..k).map(|j| if j == 0 { 1.0 } else { 0.0 }).collect()
        });
        Ok(StepOutcome {
            time_s: self.time_s,
            shares,
            busy: None,
        })
    }
}

/// The experiment ages the cores from the step model's shares and sums its times: with
/// everything on the first cluster, Orig's (fixed) cluster 0 holds the most-aged cores and
/// the others stay fresh; the kernel time is steps × the step time; the shares are
/// reported. Outcomes that do not fit the plan are errors.
#[test]
fn aging_experiment_uses_the_step_model() {
    let cfg = ExperimentConfig { maps: 1, ..small() };
    let model = FirstCluster {
        time_s: 2.0,
        shares_len_bias: 0,
    };
    let r = run_experiment_with(&cfg, &model).unwrap();
    assert_eq!(r.model, "first cluster");
    let orig = r.maps[0].run(Distribution::Orig).unwrap();
    assert_eq!(orig.kernel_time_s, 12.0);
    assert_eq!(orig.mean_shares[0], vec![1.0, 0.0, 0.0, 0.0, 0.0, 0.0]);
    // Orig ran on the fixed map: SP cores 32.. never worked, so their relative delay is 1
    // and the relative σ of the SP cores is large.
    assert!(orig.rel_sigma[0] > 1.0, "{}", orig.rel_sigma[0]);
    assert_eq!(r.summary[2].time_cost_mean, 0.0);
    for (time_s, bias) in [(f64::NAN, 0), (-1.0, 0), (1.0, 1)] {
        let bad = FirstCluster {
            time_s,
            shares_len_bias: bias,
        };
        assert!(run_experiment_with(&cfg, &bad).is_err());
    }
}

/// Stress follows the shares: a cluster with share 0 idles (duty 0), one with everything is
/// busy `N · cpi / (f · step)`.
#[test]
fn aging_experiment_stress_from_shares() {
    let cfg = small();
    let pv = PvGenerator::new(cfg.pv).unwrap().generate(1).unwrap();
    let state = AgingState::fresh(pv.cores.len());
    let (_, step_s) = cfg.validate().unwrap();
    let w = step_workload(&cfg, step_s);
    let plan = policy_plan(&cfg, &pv, &state, &w, Distribution::Orig).unwrap();
    let shares = [vec![1.0, 0.0, 0.0, 0.0, 0.0, 0.0], vec![0.25; 4], vec![1.0]];
    let stress: Vec<CoreStress> = step_stress(&cfg, &pv, &plan, &shares, &w).unwrap();
    let c0 = &plan.formation[0].clusters[0];
    let duty = w.warp_insts[0] as f64 / (c0.freq_hz * step_s);
    assert!(
        (stress[0].duty - duty).abs() < 1e-12,
        "{} {duty}",
        stress[0].duty
    );
    assert!((0.5..0.7).contains(&duty), "{duty}");
    assert_eq!(stress[32].duty, 0.0);
}

/// The table: a row per policy and distributed type, the columns aligned.
#[test]
fn aging_experiment_table_is_aligned() {
    let r = run_experiment(&ExperimentConfig {
        maps: 1,
        years: 1.0 / 12.0,
        ..small()
    })
    .unwrap();
    let table = r.table();
    let lines: Vec<&str> = table.lines().collect();
    let head = lines
        .iter()
        .position(|l| l.starts_with("policy type"))
        .unwrap();
    let rows = &lines[head..head + 7];
    assert!(rows[1].starts_with("orig   SP ") && rows[6].starts_with("idu    SFU"));
    assert!(rows.iter().all(|l| l.len() == rows[0].len()), "{table}");
    let head2 = lines
        .iter()
        .position(|l| l.starts_with("policy ") && l.contains("GPU"))
        .unwrap();
    let rows2 = &lines[head2..head2 + 4];
    assert!(rows2.iter().all(|l| l.len() == rows2[0].len()), "{table}");
    assert!(table.contains("1 PV maps (seeds 1..=1)"), "{table}");
    assert!(table.contains("step model: saturated"), "{table}");
}
