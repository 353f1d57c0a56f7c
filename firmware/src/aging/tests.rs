//! Tests of the host-side aging algorithms. Expected values are worked by hand from
//! the thesis' equations and algorithms (docs/works/thesis.md), and written next to
//! each assertion.

use super::model::{
    CALIBRATION_HCI_SHARE, CALIBRATION_POINT, CALIBRATION_TARGET, CALIBRATION_TIME_S,
    CALIBRATION_V_TH0, SECONDS_PER_YEAR,
};
use super::ratio::{generate_ratio, spread};
use super::*;

fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol
}

fn assert_close(a: f64, b: f64, tol: f64, what: &str) {
    assert!(close(a, b, tol), "{what}: {a} vs {b} (tol {tol})");
}

// ---------------------------------------------------------------------------------------
// Algorithm 4 (thesis Section 4.3.1)
// ---------------------------------------------------------------------------------------

/// A worked example (our numbers, four working clusters as in the thesis' Fig. 4.2): a = [2.0, 1.0,
/// 1.5, 0.5] %, s = [1.0, 1.2, 0.8, 1.5] % per M instructions, N = 4 M, S = 16.
/// - even split 1 M each: [3.0, 2.2, 2.3, 2.0], spread 1.0, AvgAge = 9.5 / 4 = 2.375;
/// - ST = [0.375, 1.375, 0.875, 1.875]; R = ST / s = [0.375, 1.14583, 1.09375, 1.25]
///   (Σ 3.86458);
/// - quotas 16 R / Σ = [1.5526, 4.7439, 4.5283, 5.1752], floors [1, 4, 4, 5] (Σ 14), the two
///   largest remainders (0.7439, 0.5526) → clusters 1 and 0: 2 : 5 : 4 : 5;
/// - with the full 4 M split 2:5:4:5 (0.5, 1.25, 1.0, 1.25 M):
///   [2.5, 2.5, 2.3, 2.375], spread 0.2.
#[test]
fn aging_alg4_worked_example() {
    let a = [2.0, 1.0, 1.5, 0.5];
    let s = [1.0, 1.2, 0.8, 1.5];
    let r = distribution_ratio(&a, &s, 4.0, 16, RatioPolicy::AvgTarget).unwrap();
    assert_eq!(r.limits, vec![2, 5, 4, 5]);
    assert_eq!(r.period(), 16);
    assert_close(r.target, 2.375, 1e-12, "AvgAge");
    for (got, want) in r
        .instructions
        .iter()
        .zip([0.375, 1.375 / 1.2, 1.09375, 1.25])
    {
        assert_close(*got, want, 1e-12, "R_j");
    }
    let even = &r.even_aging;
    for (got, want) in even.iter().zip([3.0, 2.2, 2.3, 2.0]) {
        assert_close(*got, want, 1e-12, "even aging");
    }
    assert_close(spread(even), 1.0, 1e-12, "even spread");
    let after = &r.predicted_aging;
    for (got, want) in after.iter().zip([2.5, 2.5, 2.3, 2.375]) {
        assert_close(*got, want, 1e-12, "aging after 2:5:4:5");
    }
    assert_close(spread(after), 0.2, 1e-12, "spread after 2:5:4:5");
}

/// Water-filling on the same example: Σ 1/s = 1 + 0.8333 + 1.25 + 0.6667 = 3.75,
/// Σ a/s = 2 + 0.8333 + 1.875 + 0.3333 = 5.04167, L = (4 + 5.04167) / 3.75 = 2.41111,
/// R = (L − a) / s = [0.41111, 1.17593, 1.13889, 1.27407] (Σ 4); quotas 4 R = [1.644,
/// 4.704, 4.556, 5.096] round to 2 : 5 : 4 : 5 as well.
#[test]
fn aging_alg4_waterfill_example() {
    let a = [2.0, 1.0, 1.5, 0.5];
    let s = [1.0, 1.2, 0.8, 1.5];
    let r = distribution_ratio(&a, &s, 4.0, 16, RatioPolicy::WaterFill).unwrap();
    let level = (4.0 + 2.0 + 1.0 / 1.2 + 1.875 + 0.5 / 1.5) / 3.75;
    assert_close(r.target, level, 1e-12, "L");
    assert_close(level, 2.41111, 1e-5, "L by hand");
    for (got, want) in r
        .instructions
        .iter()
        .zip([0.41111, 1.17593, 1.13889, 1.27407])
    {
        assert_close(*got, want, 1e-5, "R_j");
    }
    assert_close(r.instructions.iter().sum::<f64>(), 4.0, 1e-12, "Σ R");
    // Unrounded, every cluster ends at L.
    for j in 0..4 {
        assert_close(a[j] + s[j] * r.instructions[j], level, 1e-12, "a + s R");
    }
    assert_eq!(r.limits, vec![2, 5, 4, 5]);
}

/// Water-filling drops a cluster that is already above the level: a = [5, 0, 0], s = 1,
/// N = 2: L over all = (2 + 5) / 3 = 2.33 < 5, so cluster 0 gets 0 and L = (2 + 0) / 2 = 1.
/// With S = 10 the limits are [1, 4.5, 4.5] → the minimum 1 for cluster 0, the remaining 9
/// split 4.5 / 4.5 by λ: floors [1, 4, 4], one unit to the lower index of the tie: [1, 5, 4].
#[test]
fn aging_alg4_waterfill_clamps() {
    let r =
        distribution_ratio(&[5.0, 0.0, 0.0], &[1.0; 3], 2.0, 10, RatioPolicy::WaterFill).unwrap();
    assert_close(r.target, 1.0, 1e-12, "L");
    assert_eq!(r.instructions, vec![0.0, 1.0, 1.0]);
    assert_eq!(r.limits, vec![1, 5, 4]);
}

/// GenerateRatio by hand:
/// - Fig. 4.3's 4 : 3 : 3 with S = 10 stays 4 : 3 : 3;
/// - a zero weight still gets the minimum 1: [0, 1, 1], S = 64 → [1, 31.5, 31.5] →
///   [1, 32, 31] (tie to the lower index);
/// - the 255 cap binds: [1000, 1], S = 300 → λ with min(1000 λ, 255) + max(λ, 1) = 300:
///   [255, 45];
/// - all-zero weights are an even split: S = 64 over 3 → 21.33 each → [22, 21, 21];
/// - even policy over 6 clusters, S = 64 → 10.67 each → [11, 11, 11, 11, 10, 10].
#[test]
fn aging_generate_ratio_by_hand() {
    assert_eq!(generate_ratio(&[4.0, 3.0, 3.0], 10).unwrap(), vec![4, 3, 3]);
    assert_eq!(
        generate_ratio(&[0.0, 1.0, 1.0], 64).unwrap(),
        vec![1, 32, 31]
    );
    assert_eq!(generate_ratio(&[1000.0, 1.0], 300).unwrap(), vec![255, 45]);
    assert_eq!(generate_ratio(&[0.0; 3], 64).unwrap(), vec![22, 21, 21]);
    let even = distribution_ratio(&[0.3; 6], &[1.0; 6], 1e6, 64, RatioPolicy::Even).unwrap();
    assert_eq!(even.limits, vec![11, 11, 11, 11, 10, 10]);
    // The extremes of the period: S = k gives all ones, S = 255 k all 255.
    assert_eq!(generate_ratio(&[9.0, 1.0, 5.0], 3).unwrap(), vec![1, 1, 1]);
    assert_eq!(generate_ratio(&[9.0, 1.0], 510).unwrap(), vec![255, 255]);
}

/// Property: for random weights and periods, the limits sum to S and lie in 1..=255.
#[test]
fn aging_generate_ratio_sums_to_period() {
    use rand::{Rng, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(4);
    for _ in 0..2000 {
        let k = rng.gen_range(1..=8usize);
        let w: Vec<f64> = (0..k)
            .map(|_| {
                if rng.gen_bool(0.2) {
                    0.0
                } else {
                    rng.gen::<f64>() * 10f64.powi(rng.gen_range(-3..4))
                }
            })
            .collect();
        let s = rng.gen_range(k as u32..=255 * k as u32);
        let l = generate_ratio(&w, s).unwrap();
        assert_eq!(
            l.iter().map(|&x| u32::from(x)).sum::<u32>(),
            s,
            "{w:?} S={s}"
        );
        assert!(l.iter().all(|&x| x >= 1), "{w:?} S={s}: {l:?}");
    }
}

#[test]
fn aging_alg4_bad_inputs_are_errors() {
    let e = distribution_ratio(&[], &[], 1.0, 64, RatioPolicy::AvgTarget).unwrap_err();
    assert!(matches!(e, AgingError::NoClusters { .. }), "{e:?}");
    assert!(
        e.to_string().contains("at least one working cluster"),
        "{e}"
    );

    let e = distribution_ratio(
        &[1.0, f64::NAN],
        &[1.0, 1.0],
        1.0,
        64,
        RatioPolicy::AvgTarget,
    )
    .unwrap_err();
    assert!(matches!(e, AgingError::InvalidInput { .. }), "{e:?}");
    assert!(e.to_string().contains("aging of working cluster 1"), "{e}");

    let e = distribution_ratio(&[1.0], &[0.0], 1.0, 64, RatioPolicy::AvgTarget).unwrap_err();
    assert!(
        e.to_string().contains("sensitivity of working cluster 0"),
        "{e}"
    );

    let e =
        distribution_ratio(&[1.0], &[1.0], f64::INFINITY, 64, RatioPolicy::AvgTarget).unwrap_err();
    assert!(e.to_string().contains("instruction count"), "{e}");

    let e = distribution_ratio(&[1.0, 2.0], &[1.0], 1.0, 64, RatioPolicy::AvgTarget).unwrap_err();
    assert!(matches!(e, AgingError::Geometry(_)), "{e:?}");

    // Limits overflow: one cluster cannot hold 256 in 8 bits; 3 clusters cannot share 2.
    let e = distribution_ratio(&[1.0], &[1.0], 1.0, 256, RatioPolicy::AvgTarget).unwrap_err();
    assert_eq!(
        e,
        AgingError::LimitOverflow {
            period: 256,
            working: 1
        }
    );
    assert!(e.to_string().contains("1 <= S <= 255"), "{e}");
    let e = generate_ratio(&[1.0; 3], 2).unwrap_err();
    assert_eq!(
        e,
        AgingError::LimitOverflow {
            period: 2,
            working: 3
        }
    );
    let e = generate_ratio(&[1.0, -1.0], 8).unwrap_err();
    assert!(e.to_string().contains("weight of working cluster 1"), "{e}");
    assert!(generate_ratio(&[], 8).is_err());
}

// ---------------------------------------------------------------------------------------
// Algorithm 3 (thesis Section 4.3.1)
// ---------------------------------------------------------------------------------------

/// A hand-made example: 8 cores, 2 lanes per cluster, the kernel needs 3 clusters.
///
/// Delays (ps): core 0: 1000, 1: 1300, 2: 1100, 3: 1250, 4: 1010, 5: 1400, 6: 1050, 7: 1200.
/// - Sorted by delay, descending: 5 (1400), 1 (1300), 3 (1250), 7 (1200), 2 (1100),
///   6 (1050), 4 (1010), 0 (1000).
/// - Clusters of 2 in that order: {5, 1} key 1400, {3, 7} key 1250, {2, 6} key 1100,
///   {4, 0} key 1010.
/// - Healthiest first (IDU order): {4, 0}, {2, 6}, {3, 7}, {5, 1}; p_t = 3 gates {5, 1}.
/// - Frequencies 1/max delay: 990.1 MHz (1010 ps), 909.1 MHz (1100 ps), 800 MHz (1250 ps);
///   with the 876 MHz cap: 876, 876, 800 MHz → periods 1142, 1142, 1250 ps.
#[test]
fn aging_alg3_hand_example() {
    let d = [
        1000.0, 1300.0, 1100.0, 1250.0, 1010.0, 1400.0, 1050.0, 1200.0,
    ];
    let f = form_clusters(&d, 2, Some(3), None).unwrap();
    let cores: Vec<Vec<usize>> = f.clusters.iter().map(|c| c.cores.clone()).collect();
    assert_eq!(cores, vec![vec![4, 0], vec![2, 6], vec![3, 7], vec![5, 1]]);
    let keys: Vec<f64> = f.clusters.iter().map(|c| c.max_delay_ps).collect();
    assert_eq!(keys, vec![1010.0, 1100.0, 1250.0, 1400.0]);
    let working: Vec<bool> = f.clusters.iter().map(|c| c.working).collect();
    assert_eq!(working, vec![true, true, true, false]);
    assert_eq!(f.working(), 3);
    let periods: Vec<u64> = f.clusters.iter().map(|c| c.period_ps).collect();
    assert_eq!(periods, vec![1010, 1100, 1250, 0]);
    assert_close(f.clusters[0].freq_hz, 1e12 / 1010.0, 1e-3, "f0");
    assert_close(f.clusters[2].freq_hz, 800e6, 1e-3, "f2");
    assert_eq!(f.clusters[3].freq_hz, 0.0);

    let capped = form_clusters(&d, 2, Some(3), Some(NOMINAL_CLOCK_HZ)).unwrap();
    let periods: Vec<u64> = capped.clusters.iter().map(|c| c.period_ps).collect();
    assert_eq!(periods, vec![1142, 1142, 1250, 0]);

    // R_K unknown: every cluster works.
    let all = form_clusters(&d, 2, None, None).unwrap();
    assert_eq!(all.working(), 4);
    assert_eq!(all.clusters[3].period_ps, 1400);
}

/// Ties: equal delays sort by core index (0, 1, 2, 3 → {0, 1}, {2, 3}); equal cluster keys
/// keep the reversed formation order, so the later-formed {2, 3} is IDU cluster 0.
#[test]
fn aging_alg3_ties_are_deterministic() {
    let f = form_clusters(&[1000.0; 4], 2, Some(1), None).unwrap();
    let cores: Vec<Vec<usize>> = f.clusters.iter().map(|c| c.cores.clone()).collect();
    assert_eq!(cores, vec![vec![2, 3], vec![0, 1]]);
    assert_eq!(f.clusters[0].period_ps, 1000);
    assert!(!f.clusters[1].working);
}

/// The stock GPU's fixed map on the cores of the hand example: clusters in physical order
/// ({0, 1}, {2, 3}, ...), every cluster working at its slowest member's clock: delays
/// max(1000, 1300) = 1300, max(1100, 1250) = 1250, 1400, 1200 ps; capped at 876 MHz the
/// fastest period is 1142 ps. Bad inputs are rejected as by Algorithm 3.
#[test]
fn aging_fixed_map_hand_example() {
    let d = [
        1000.0, 1300.0, 1100.0, 1250.0, 1010.0, 1400.0, 1050.0, 1200.0,
    ];
    let f = fixed_clusters(&d, 2, None).unwrap();
    let cores: Vec<Vec<usize>> = f.clusters.iter().map(|c| c.cores.clone()).collect();
    assert_eq!(cores, vec![vec![0, 1], vec![2, 3], vec![4, 5], vec![6, 7]]);
    assert_eq!(f.working(), 4);
    let periods: Vec<u64> = f.clusters.iter().map(|c| c.period_ps).collect();
    assert_eq!(periods, vec![1300, 1250, 1400, 1200]);
    let capped = fixed_clusters(&[1000.0, 1000.0, 1200.0, 1100.0], 2, Some(NOMINAL_CLOCK_HZ));
    let periods: Vec<u64> = capped
        .unwrap()
        .clusters
        .iter()
        .map(|c| c.period_ps)
        .collect();
    assert_eq!(periods, vec![1142, 1200]);
    assert!(matches!(
        fixed_clusters(&d[..7], 2, None),
        Err(AgingError::Geometry(_))
    ));
    assert!(fixed_clusters(&[1000.0, f64::NAN], 2, None).is_err());
}

/// The stock plan: the fixed map for every type (nothing gated even when the kernel needs
/// fewer clusters), no ratio, limit 1 everywhere, a valid program.
#[test]
fn aging_stock_plan_is_the_fixed_map() {
    let pv = PvMap::generate(PvParams::default(), 7).unwrap();
    let state = AgingState::fresh(pv.cores.len());
    let mut w = month_workload();
    w.clusters_needed = [Some(4), None, None];
    let plan = stock_plan(&pv, &state, &w, &PlanConfig::default()).unwrap();
    plan.program.validate().unwrap();
    assert_eq!(plan.ratios, [None, None, None]);
    for t in CoreType::ALL {
        let g = &pv.params.geometry.types[t.index()];
        let f = &plan.formation[t.index()];
        assert_eq!(f.working(), g.clusters());
        for (k, c) in f.clusters.iter().enumerate() {
            let first = k * g.lanes_per_cluster;
            assert_eq!(
                c.cores,
                (first..first + g.lanes_per_cluster).collect::<Vec<_>>()
            );
        }
        let tp = &plan.program.types[t.index()];
        assert!(tp.limits.iter().all(|&l| l == 1), "{t}: {:?}", tp.limits);
    }
}

#[test]
fn aging_alg3_bad_inputs_are_errors() {
    let e = form_clusters(&[], 32, None, None).unwrap_err();
    assert!(matches!(e, AgingError::NoClusters { .. }), "{e:?}");
    assert!(e.to_string().contains("no clusters"), "{e}");
    let e = form_clusters(&[1000.0; 4], 0, None, None).unwrap_err();
    assert!(matches!(e, AgingError::NoClusters { .. }), "{e:?}");
    let e = form_clusters(&[1000.0; 5], 2, None, None).unwrap_err();
    assert!(e.to_string().contains("not a whole number"), "{e}");
    let e = form_clusters(&[1000.0, f64::NAN], 1, None, None).unwrap_err();
    assert!(e.to_string().contains("delay of core 1"), "{e}");
    let e = form_clusters(&[1000.0, -3.0], 1, None, None).unwrap_err();
    assert!(matches!(e, AgingError::InvalidInput { .. }), "{e:?}");
    let e = form_clusters(&[1000.0; 4], 2, Some(3), None).unwrap_err();
    assert!(
        e.to_string().contains("needs 3 clusters, there are 2"),
        "{e}"
    );
    let e = form_clusters(&[1000.0; 4], 2, None, Some(f64::NAN)).unwrap_err();
    assert!(e.to_string().contains("frequency cap"), "{e}");
}

// ---------------------------------------------------------------------------------------
// Process-variation maps (thesis Section 4.2)
// ---------------------------------------------------------------------------------------

#[test]
fn aging_pv_same_seed_same_map_different_seeds_differ() {
    let gen = PvGenerator::new(PvParams::default()).unwrap();
    let a = gen.generate(3).unwrap();
    let b = gen.generate(3).unwrap();
    assert_eq!(a, b);
    // A fresh generator (new factorisation) gives the same map too.
    assert_eq!(PvMap::generate(PvParams::default(), 3).unwrap(), a);
    let c = gen.generate(4).unwrap();
    assert_ne!(a.theta, c.theta);
    let differing = a.theta.iter().zip(&c.theta).filter(|(x, y)| x != y).count();
    assert_eq!(
        differing,
        a.theta.len(),
        "every cell differs between seeds 3 and 4"
    );
    let fa: Vec<f64> = a.cores.iter().map(|c| c.f_max_hz).collect();
    let fc: Vec<f64> = c.cores.iter().map(|c| c.f_max_hz).collect();
    assert_ne!(fa, fc);
}

/// Over 50 maps (seeds 0–49, as in the thesis): θ has mean μ_p = 1 and σ_p = 0.1; the
/// variogram E[(θ_a − θ_b)²] = 2σ²(1 − exp(−α_ρ·d)) at d = 1 (0.00121) and d = 16
/// (0.01264), which an uncorrelated field (0.02) would miss by far; the median core of every
/// map runs at 876 MHz; every core's f = K_f / θ_cp, V_th0 = 0.3 · θ_cp, θ_cp the largest θ
/// of its 2 × 2 tile.
#[test]
fn aging_pv_statistics_match_the_parameters() {
    let p = PvParams::default();
    let gen = PvGenerator::new(p).unwrap();
    let n = p.n_chip;
    let (mut sum, mut sum2, mut cells) = (0.0, 0.0, 0.0);
    let (mut v1, mut v16, mut pairs) = (0.0, 0.0, 0.0);
    for seed in 0..50 {
        let m = gen.generate(seed).unwrap();
        assert_eq!(m.theta.len(), n * n);
        for r in 0..n {
            for c in 0..n {
                let t = m.theta[r * n + c];
                sum += t;
                sum2 += (t - 1.0).powi(2);
                cells += 1.0;
                if c + 16 < n {
                    v1 += (m.theta[r * n + c + 1] - t).powi(2);
                    v16 += (m.theta[r * n + c + 16] - t).powi(2);
                    pairs += 1.0;
                }
            }
        }
        let mut f: Vec<f64> = m.cores.iter().map(|c| c.f_max_hz).collect();
        f.sort_by(f64::total_cmp);
        let median = 0.5 * (f[f.len() / 2 - 1] + f[f.len() / 2]);
        assert_close(median, 876e6, 1e-3, "median core frequency");
        assert_eq!(m.cores.len(), 256);
        for core in &m.cores {
            let (r0, c0) = core.tile_origin;
            let tile_max = [(0, 0), (0, 1), (1, 0), (1, 1)]
                .iter()
                .map(|(dr, dc)| m.theta_at(r0 + dr, c0 + dc).unwrap())
                .fold(f64::MIN, f64::max);
            assert_eq!(core.theta_cp, tile_max);
            assert_close(core.f_max_hz, m.k_f_hz / tile_max, 1e-3, "f = K_f / θ");
            assert_close(core.v_th0, 0.3 * tile_max, 1e-15, "V_th0");
        }
        // The tiles: SP cores first, 16 per tile row; the last LD/ST core ends the grid.
        assert_eq!(m.cores[0].tile_origin, (0, 0));
        assert_eq!(m.cores[17].tile_origin, (2, 2));
        assert_eq!(m.cores[192].core_type, CoreType::Sfu);
        assert_eq!(m.cores[192].tile_origin, (24, 0));
        assert_eq!(m.cores[255].tile_origin, (30, 30));
        assert_eq!(m.cores_of(CoreType::LdSt)[0].index, 0);
        assert_eq!(m.cores_of(CoreType::LdSt).len(), 32);
    }
    let mean = sum / cells;
    let std = (sum2 / cells).sqrt();
    assert!(close(mean, 1.0, 0.03), "mean θ {mean}");
    assert!((0.085..=0.115).contains(&std), "σ θ {std}");
    let want1 = 2.0 * 0.01 * (1.0 - (-2.0f64 / 32.0).exp());
    let want16 = 2.0 * 0.01 * (1.0 - (-1.0f64).exp());
    assert!(
        close(v1 / pairs, want1, 0.1 * want1),
        "variogram d=1 {} vs {want1}",
        v1 / pairs
    );
    assert!(
        close(v16 / pairs, want16, 0.25 * want16),
        "variogram d=16 {} vs {want16}",
        v16 / pairs
    );
}

/// σ_p = 0: every θ is 1, every core runs at 876 MHz with V_th0 = 0.3 V and nominal leakage.
#[test]
fn aging_pv_without_variation_is_nominal() {
    let p = PvParams {
        sigma_p: 0.0,
        ..PvParams::default()
    };
    let m = PvMap::generate(p, 9).unwrap();
    assert!(m.theta.iter().all(|&t| t == 1.0));
    for (i, c) in m.cores.iter().enumerate() {
        assert_close(c.f_max_hz, 876e6, 1e-3, "f");
        assert_close(c.v_th0, 0.3, 1e-15, "V_th0");
        assert_close(m.leakage_rel(i, 350.0).unwrap(), 1.0, 1e-15, "leakage");
    }
    // Leakage falls as θ (V_th) rises: our sign fix of Eq. 4.11.
    let m = PvMap::generate(PvParams::default(), 1).unwrap();
    let (slow, fast) = {
        let mut idx: Vec<usize> = (0..m.cores.len()).collect();
        idx.sort_by(|&a, &b| m.cores[a].theta_cp.total_cmp(&m.cores[b].theta_cp));
        (idx[idx.len() - 1], idx[0])
    };
    assert!(m.leakage_rel(slow, 350.0).unwrap() < m.leakage_rel(fast, 350.0).unwrap());
    assert!(m.leakage_rel(999, 350.0).is_err());
}

#[test]
fn aging_pv_bad_params_are_errors() {
    let bad = |p: PvParams| PvGenerator::new(p).unwrap_err();
    let d = PvParams::default();
    let e = bad(PvParams { n_chip: 0, ..d });
    assert!(e.to_string().contains("N_chip"), "{e}");
    assert!(bad(PvParams { n_chip: 100, ..d })
        .to_string()
        .contains("N_chip"));
    let e = bad(PvParams {
        sigma_p: f64::NAN,
        ..d
    });
    assert!(e.to_string().contains("sigma_p"), "{e}");
    let e = bad(PvParams {
        alpha_rho: -1.0,
        ..d
    });
    assert!(e.to_string().contains("alpha_rho"), "{e}");
    let e = bad(PvParams { core_tile: 4, ..d });
    assert!(e.to_string().contains("do not fit"), "{e}");
    let mut g = SmGeometry::default();
    g.types[1].lanes_per_cluster = 0;
    let e = bad(PvParams { geometry: g, ..d });
    assert!(matches!(e, AgingError::NoClusters { .. }), "{e:?}");
    let mut g = SmGeometry::default();
    g.types[0].lanes_per_cluster = 16; // 12 SP clusters > 8
    assert!(bad(PvParams { geometry: g, ..d })
        .to_string()
        .contains("at most 8"));
    // Too much variation: θ ≤ 0 somewhere.
    let e = PvMap::generate(PvParams { sigma_p: 5.0, ..d }, 0).unwrap_err();
    assert!(matches!(e, AgingError::ModelDomain(_)), "{e:?}");
}

// ---------------------------------------------------------------------------------------
// The aging model (thesis Section 4.1)
// ---------------------------------------------------------------------------------------

#[test]
fn aging_calibration_meets_its_targets() {
    let cal = Calibration::default();
    cal.validate().unwrap();
    let solved = cal
        .calibrated(CALIBRATION_TARGET, CALIBRATION_HCI_SHARE)
        .unwrap();
    assert_close(cal.a_n / solved.a_n, 1.0, 1e-12, "A_N");
    assert_close(cal.a_h / solved.a_h, 1.0, 1e-12, "A_H");
    let p = CALIBRATION_POINT;
    let (t, vth) = (CALIBRATION_TIME_S, CALIBRATION_V_TH0);
    let n = cal.nbti_dvth(t, p.duty, p.temp_k, vth).unwrap();
    let h = cal
        .hci_dvth(t, p.activity, p.freq_hz, p.temp_k, vth)
        .unwrap();
    assert_close(h / (n + h), 0.15, 1e-9, "HCI share");
    let age = cal.advance(CoreAge::default(), vth, &p, t).unwrap();
    assert_close(age.dvth_nbti, n, 1e-12, "advance from fresh = Eq. 4.1");
    assert_close(age.dvth_hci, h, 1e-12, "advance from fresh = Eq. 4.5");
    assert_close(
        cal.rel_delay(age, vth).unwrap(),
        1.10,
        1e-9,
        "+10 % after 3 years",
    );
}

/// Time: ΔV_NBTI grows as t^n = t^(1/6) at long times (Eq. 4.4: w ∝ 1/√t, w^(2n) ∝ t^(−1/6)),
/// so 10 years / 1 year = 10^(1/6) = 1.4678; ΔV_HCI as √t (Eq. 4.5): exactly √10.
#[test]
fn aging_model_monotone_in_time() {
    let cal = Calibration::default();
    let times = [
        1.0,
        3600.0,
        86_400.0,
        30.0 * 86_400.0,
        SECONDS_PER_YEAR,
        10.0 * SECONDS_PER_YEAR,
    ];
    let mut last = (0.0, 0.0, 1.0);
    for &t in &times {
        let n = cal.nbti_dvth(t, 0.5, 340.0, 0.3).unwrap();
        let h = cal.hci_dvth(t, 0.5, 876e6, 340.0, 0.3).unwrap();
        let d = cal
            .rel_delay(
                CoreAge {
                    dvth_nbti: n,
                    dvth_hci: h,
                },
                0.3,
            )
            .unwrap();
        assert!(
            n > last.0 && h > last.1 && d > last.2,
            "t = {t}: {n} {h} {d}"
        );
        last = (n, h, d);
    }
    assert_eq!(cal.nbti_dvth(0.0, 0.5, 340.0, 0.3).unwrap(), 0.0);
    let y = SECONDS_PER_YEAR;
    let ratio = cal.nbti_dvth(10.0 * y, 0.5, 340.0, 0.3).unwrap()
        / cal.nbti_dvth(y, 0.5, 340.0, 0.3).unwrap();
    assert_close(ratio, 1.4678, 0.002, "NBTI 10 y / 1 y");
    let ratio = cal.hci_dvth(10.0 * y, 0.5, 876e6, 340.0, 0.3).unwrap()
        / cal.hci_dvth(y, 0.5, 876e6, 340.0, 0.3).unwrap();
    assert_close(ratio, 10f64.sqrt(), 1e-12, "HCI 10 y / 1 y");
}

/// Duty cycle: NBTI's numerator (v·δ·t_m)^n grows with δ and w's recovery term
/// √(ξ3·v·(1−δ)·t_m) shrinks, so ΔV_NBTI grows with δ; δ = 0 gives no shift. HCI grows with
/// the activity α_B as √α_B.
#[test]
fn aging_model_monotone_in_duty_cycle() {
    let cal = Calibration::default();
    let t = SECONDS_PER_YEAR;
    assert_eq!(cal.nbti_dvth(t, 0.0, 340.0, 0.3).unwrap(), 0.0);
    let mut last = 0.0;
    for d in [0.001, 0.01, 0.1, 0.3, 0.5, 0.9, 1.0] {
        let n = cal.nbti_dvth(t, d, 340.0, 0.3).unwrap();
        assert!(n > last, "duty {d}: {n} <= {last}");
        last = n;
    }
    let h1 = cal.hci_dvth(t, 0.25, 876e6, 340.0, 0.3).unwrap();
    let h2 = cal.hci_dvth(t, 1.0, 876e6, 340.0, 0.3).unwrap();
    assert_close(h2 / h1, 2.0, 1e-12, "HCI ∝ √α");
    assert_eq!(cal.hci_dvth(t, 0.0, 876e6, 340.0, 0.3).unwrap(), 0.0);
}

/// Frequency: HCI ∝ √f at a fixed activity (Eq. 4.5: 4× f → 2× ΔV); NBTI has no f. For a
/// fixed instruction count a slower clock is busy longer (δ = n·CPI / (f·T)), so its NBTI
/// shift is larger, while the HCI shift is unchanged (α·f = n·CPI / T).
#[test]
fn aging_model_monotone_in_frequency() {
    let cal = Calibration::default();
    let t = SECONDS_PER_YEAR;
    let h1 = cal.hci_dvth(t, 0.5, 400e6, 340.0, 0.3).unwrap();
    let h2 = cal.hci_dvth(t, 0.5, 1600e6, 340.0, 0.3).unwrap();
    assert_close(h2 / h1, 2.0, 1e-12, "HCI ∝ √f");
    let mut last = f64::INFINITY;
    for f in [600e6, 700e6, 800e6, 876e6, 1000e6] {
        let insts = 1e16;
        let duty = insts / (f * t);
        let n = cal.nbti_dvth(t, duty, 340.0, 0.3).unwrap();
        assert!(n < last, "f = {f}: NBTI {n} not below {last}");
        last = n;
        let h = cal.hci_dvth(t, duty, f, 340.0, 0.3).unwrap();
        let h_ref = cal
            .hci_dvth(t, insts / (876e6 * t), 876e6, 340.0, 0.3)
            .unwrap();
        assert_close(h / h_ref, 1.0, 1e-12, "HCI per instruction");
    }
}

/// Temperature raises both (Arrhenius v(T)); a higher fresh V_th lowers both (less
/// overdrive in u(V_dd), Eq. 4.2 / 4.6).
#[test]
fn aging_model_temperature_and_threshold() {
    let cal = Calibration::default();
    let t = SECONDS_PER_YEAR;
    assert!(
        cal.nbti_dvth(t, 0.5, 360.0, 0.3).unwrap() > cal.nbti_dvth(t, 0.5, 330.0, 0.3).unwrap()
    );
    assert!(
        cal.hci_dvth(t, 0.5, 876e6, 360.0, 0.3).unwrap()
            > cal.hci_dvth(t, 0.5, 876e6, 330.0, 0.3).unwrap()
    );
    assert!(
        cal.nbti_dvth(t, 0.5, 340.0, 0.33).unwrap() < cal.nbti_dvth(t, 0.5, 340.0, 0.3).unwrap()
    );
    assert!(
        cal.hci_dvth(t, 0.5, 876e6, 340.0, 0.33).unwrap()
            < cal.hci_dvth(t, 0.5, 876e6, 340.0, 0.3).unwrap()
    );
}

/// Eq. 4.8 with r = −1.3: ΔV = 50 mV on V_dd − V_th0 = 0.7 V gives
/// (1 − 0.05/0.7)^(−1.3) − 1 = 0.928571^(−1.3) − 1 = exp(1.3 · 0.074108) − 1 = 0.101134.
/// Positive for every positive shift, 0 for none; r ≥ 0 (which would make aged cores
/// faster) is rejected.
#[test]
fn aging_model_delay_change_positive_for_positive_shift() {
    let cal = Calibration::default();
    assert_close(
        cal.rel_delay_change(0.05, 0.3).unwrap(),
        0.101134,
        1e-6,
        "Δ_rel d",
    );
    assert_eq!(cal.rel_delay_change(0.0, 0.3).unwrap(), 0.0);
    let mut last = 0.0;
    for dv in [1e-4, 0.01, 0.05, 0.1, 0.3, 0.6] {
        let d = cal.rel_delay_change(dv, 0.3).unwrap();
        assert!(d > last, "ΔV = {dv}: {d}");
        last = d;
    }
    // The slower core (less overdrive) loses more for the same shift.
    assert!(cal.rel_delay_change(0.05, 0.35).unwrap() > cal.rel_delay_change(0.05, 0.3).unwrap());
    let e = Calibration { r: 1.3, ..cal }.validate().unwrap_err();
    assert!(e.to_string().contains("invalid r"), "{e}");
}

/// Equivalent time: two steps of 1 year under constant stress equal one step of 2 years;
/// idle (δ = 0, α = 0) holds the shifts; a change of stress never lowers a shift.
#[test]
fn aging_model_advance_by_equivalent_time() {
    let cal = Calibration::default();
    let s = CoreStress {
        duty: 0.4,
        activity: 0.4,
        freq_hz: 800e6,
        temp_k: cal.temperature(0.4),
    };
    let y = SECONDS_PER_YEAR;
    let one = cal.advance(CoreAge::default(), 0.31, &s, 2.0 * y).unwrap();
    let half = cal.advance(CoreAge::default(), 0.31, &s, y).unwrap();
    let two = cal.advance(half, 0.31, &s, y).unwrap();
    assert_close(two.dvth_nbti / one.dvth_nbti, 1.0, 1e-9, "NBTI");
    assert_close(two.dvth_hci / one.dvth_hci, 1.0, 1e-12, "HCI");
    let idle = CoreStress {
        duty: 0.0,
        activity: 0.0,
        ..s
    };
    assert_eq!(cal.advance(two, 0.31, &idle, y).unwrap(), two);
    let light = CoreStress {
        duty: 0.01,
        activity: 0.01,
        ..s
    };
    let after = cal.advance(two, 0.31, &light, 86_400.0).unwrap();
    assert!(after.dvth_nbti >= two.dvth_nbti && after.dvth_hci >= two.dvth_hci);
}

/// The closed-form equivalent time inverts Eq. 4.1/4.4 in t: for times from a minute to
/// 10 years, duty cycles and temperatures, `t_eq(ΔV(t)) = t` to 1e-9. A shift at or below
/// the t → 0+ value of the new stress has equivalent time 0; no shift or no duty, 0.
#[test]
fn aging_model_equivalent_time_inverts_nbti() {
    let cal = Calibration::default();
    for &t in &[60.0, 86_400.0, SECONDS_PER_YEAR, 10.0 * SECONDS_PER_YEAR] {
        for &(duty, temp, vth) in &[(0.05, 320.0, 0.27), (0.5, 340.0, 0.3), (1.0, 358.0, 0.33)] {
            let dv = cal.nbti_dvth(t, duty, temp, vth).unwrap();
            let back = cal.nbti_equivalent_time(dv, duty, temp, vth).unwrap();
            assert_close(back / t, 1.0, 1e-9, "t_eq(ΔV(t)) / t");
        }
    }
    // Eq. 4.4's shift at t → 0+ (here at 1 ns) is a floor: below it t_eq = 0.
    let floor = cal.nbti_dvth(1e-9, 0.5, 340.0, 0.3).unwrap();
    assert!(
        floor
            > 0.01
                * cal
                    .nbti_dvth(3.0 * SECONDS_PER_YEAR, 0.5, 340.0, 0.3)
                    .unwrap()
    );
    assert_eq!(
        cal.nbti_equivalent_time(0.5 * floor, 0.5, 340.0, 0.3)
            .unwrap(),
        0.0
    );
    assert_eq!(cal.nbti_equivalent_time(0.0, 0.5, 340.0, 0.3).unwrap(), 0.0);
    assert_eq!(
        cal.nbti_equivalent_time(0.01, 0.0, 340.0, 0.3).unwrap(),
        0.0
    );
    assert!(cal.nbti_equivalent_time(-0.01, 0.5, 340.0, 0.3).is_err());
    assert!(cal
        .nbti_equivalent_time(0.01, f64::NAN, 340.0, 0.3)
        .is_err());
}

/// The bracketed solver finds the smallest x where a non-decreasing function reaches 0: on a
/// smooth function (x³ − 8 → 2), on a step (0 for x ≥ 0.3 → 0.3 to the tolerance) and on
/// a step at the lower end (as a never-stressed core's first stress); errors pass through.
#[test]
fn aging_solver_finds_the_threshold() {
    let cube = predict::solve_increasing(|x| Ok(x * x * x - 8.0), (0.0, -8.0), (5.0, 117.0), 1e-12)
        .unwrap();
    assert_close(cube, 2.0, 1e-9, "cube root");
    let step = |x: f64| Ok(if x >= 0.3 { 1.0 } else { -1.0 });
    let s = predict::solve_increasing(step, (0.0, -1.0), (1.0, 1.0), 1e-9).unwrap();
    assert!((0.3..0.3 + 1e-9).contains(&s), "{s}");
    let jump = |x: f64| Ok(if x > 0.0 { 0.5 + x } else { -1.0 });
    let s = predict::solve_increasing(jump, (0.0, -1.0), (1.0, 1.5), 1e-9).unwrap();
    assert!(s > 0.0 && s <= 1e-9, "{s}");
    let e = predict::solve_increasing(
        |_| Err(AgingError::Numerical("boom".into())),
        (0.0, -1.0),
        (1.0, 1.0),
        1e-9,
    )
    .unwrap_err();
    assert_eq!(e, AgingError::Numerical("boom".into()));
}

/// Water-filling on the nonlinear model (uneven scenario): the counts sum to N, every
/// cluster that gets work is predicted to end at the level L, and the one already above L
/// (the most aged) gets none.
#[test]
fn aging_waterfill_on_the_nonlinear_model() {
    let pv = PvMap::generate(PvParams::default(), 11).unwrap();
    let cal = Calibration::default();
    let state = uneven_history(&pv, &cal);
    let w = month_workload();
    let plan = plan(&pv, &state, &w, &PlanConfig::default()).unwrap();
    let f = &plan.formation[0];
    let model =
        ClusterPredictor::for_type(&pv, &state, &cal, f, CoreType::Sp, w.horizon_s).unwrap();
    let n = w.warp_insts[0] as f64;
    let (level, counts) = model.waterfill(n).unwrap();
    assert_close(counts.iter().sum::<f64>() / n, 1.0, 1e-6, "Σ R / N");
    for (j, &r) in counts.iter().enumerate() {
        let a = model.status(j).unwrap();
        if a >= level {
            assert_eq!(r, 0.0, "cluster {j} above L");
        } else {
            // To the solver's tolerance on n (1e-6 of the capacity).
            assert_close(
                model.aging_after(j, r).unwrap(),
                level,
                1e-6 * level,
                "aging at L",
            );
        }
    }
    assert_eq!(counts.iter().filter(|&&r| r == 0.0).count(), 1);
}

#[test]
fn aging_model_bad_inputs_are_errors() {
    let cal = Calibration::default();
    let e = cal.nbti_dvth(1.0, f64::NAN, 340.0, 0.3).unwrap_err();
    assert!(e.to_string().contains("invalid duty cycle: NaN"), "{e}");
    assert!(cal.nbti_dvth(1.0, 1.5, 340.0, 0.3).is_err());
    assert!(cal.nbti_dvth(-1.0, 0.5, 340.0, 0.3).is_err());
    assert!(cal.nbti_dvth(1.0, 0.5, 0.0, 0.3).is_err());
    assert!(cal.nbti_dvth(1.0, 0.5, 340.0, 1.2).is_err());
    assert!(cal.hci_dvth(1.0, 0.5, f64::INFINITY, 340.0, 0.3).is_err());
    let e = cal.rel_delay_change(0.7, 0.3).unwrap_err();
    assert!(matches!(e, AgingError::ModelDomain(_)), "{e:?}");
    assert!(e.to_string().contains("overdrive"), "{e}");
    // Far above the model's temperature range β of Eq. 4.4 turns negative at small t.
    let e = cal.nbti_dvth(1e-6, 0.01, 900.0, 0.3).unwrap_err();
    assert!(matches!(e, AgingError::ModelDomain(_)), "{e:?}");
    let e = Calibration {
        a_n: f64::NAN,
        ..cal
    }
    .validate()
    .unwrap_err();
    assert!(e.to_string().contains("A_N"), "{e}");
    let mut state = AgingState::fresh(3);
    let pv = PvMap::generate(PvParams::default(), 0).unwrap();
    assert!(state.advance(&pv, &cal, &[], 1.0).is_err());
}

// ---------------------------------------------------------------------------------------
// The whole host flow: program()
// ---------------------------------------------------------------------------------------

/// A month of a kernel: SP ≈ 30 % busy over 6 clusters, SFU ≈ 4 %, LD/ST ≈ 22 %.
fn month_workload() -> Workload {
    Workload {
        warp_insts: [
            4_000_000_000_000_000,
            100_000_000_000_000,
            500_000_000_000_000,
        ],
        clusters_needed: [None, None, None],
        horizon_s: 30.0 * 86_400.0,
    }
}

#[test]
fn aging_program_shape_on_a_fresh_gpu() {
    let pv = PvMap::generate(PvParams::default(), 7).unwrap();
    let state = AgingState::fresh(pv.cores.len());
    let mut w = month_workload();
    w.clusters_needed = [Some(4), None, None];
    let plan = plan(&pv, &state, &w, &PlanConfig::default()).unwrap();
    let p = &plan.program;
    p.validate().unwrap();
    assert_eq!(
        p.types[0].working,
        vec![true, true, true, true, false, false]
    );
    assert_eq!(&p.types[0].limits[4..], &[0, 0]);
    assert_eq!(&p.types[0].period_ps[4..], &[0, 0]);
    assert_eq!(p.types[1].working, vec![true; 4]);
    assert_eq!(p.types[2].working, vec![true]);
    assert_eq!(p.types[2].limits, vec![64]);
    for tp in &p.types {
        assert_eq!(tp.period(), 64);
        for (&w, &per) in tp.working.iter().zip(&tp.period_ps) {
            if w {
                assert!(per >= 1142, "period {per} ps is faster than 876 MHz");
            }
        }
    }
    // The formation partitions each type's cores, and clusters run at their slowest core.
    for t in CoreType::ALL {
        let f = &plan.formation[t.index()];
        let mut all: Vec<usize> = f.clusters.iter().flat_map(|c| c.cores.clone()).collect();
        all.sort_unstable();
        assert_eq!(all, (0..pv.cores_of(t).len()).collect::<Vec<_>>());
        for c in f.clusters.iter().filter(|c| c.working) {
            let slowest = c
                .cores
                .iter()
                .map(|&i| pv.cores_of(t)[i].f_max_hz)
                .fold(f64::INFINITY, f64::min);
            assert_close(
                c.freq_hz,
                slowest.min(NOMINAL_CLOCK_HZ),
                1e-3,
                "cluster clock",
            );
        }
    }
    // The cfg-port writes: every (type, cluster), type-major, in cluster order.
    let writes = p.register_writes();
    assert_eq!(writes.len(), 6 + 4 + 1);
    assert_eq!(writes[0].0, 0);
    assert_eq!(writes[4], (0, 4, false, 0));
    assert_eq!(writes[6].0, 1);
    assert_eq!(writes[6].1, 0);
    assert_eq!(writes[10], (2, 0, true, 64));
    // Same inputs, same program.
    assert_eq!(
        program(&pv, &state, &w, &PlanConfig::default()).unwrap(),
        plan.program
    );
}

/// Fig. 4.3's configuration loaded through the cfg port: clusters 1, 2, 4 working with
/// 4 : 3 : 3, cluster 3 gated (IDU clusters 0, 1, 3 and 2).
#[test]
fn aging_register_writes_of_fig_4_3() {
    let sp = TypeProgram {
        working: vec![true, true, false, true],
        limits: vec![4, 3, 0, 3],
        period_ps: vec![1142, 1142, 0, 1142],
    };
    let empty = TypeProgram {
        working: vec![],
        limits: vec![],
        period_ps: vec![],
    };
    let p = IduProgram {
        types: [sp, empty.clone(), empty],
    };
    p.validate().unwrap();
    assert_eq!(
        p.register_writes(),
        vec![
            (0, 0, true, 4),
            (0, 1, true, 3),
            (0, 2, false, 0),
            (0, 3, true, 3)
        ]
    );
    assert_eq!(p.types[0].period(), 10);
    // Malformed programs are refused.
    let mut bad = p.clone();
    bad.types[0].limits[1] = 0;
    assert!(bad
        .validate()
        .unwrap_err()
        .to_string()
        .contains("working cluster 1"));
    let mut bad = p.clone();
    bad.types[1].working = vec![false; 9];
    bad.types[1].limits = vec![0; 9];
    bad.types[1].period_ps = vec![0; 9];
    assert!(bad.validate().unwrap_err().to_string().contains("SFU"));
    let mut bad = p;
    bad.types[0].period_ps.pop();
    assert!(matches!(bad.validate(), Err(AgingError::Geometry(_))));
}

/// Two years of uneven history: SP core i at duty (i mod 6) / 6, the other types idle. Every
/// Algorithm-3 cluster then mixes long-stressed cores with never-stressed ones (i mod 6 = 0).
fn uneven_history(pv: &PvMap, cal: &Calibration) -> AgingState {
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
        .advance(pv, cal, &stress, 2.0 * SECONDS_PER_YEAR)
        .unwrap();
    state
}

/// The aging of every working SP cluster after the month's SP instructions run with
/// `shares` (per working cluster), by advancing the real aging state (not the planner's
/// predictor): every member core under [`predict::cluster_stress`], then the cluster's
/// slowest delay now over its slowest delay fresh.
fn sp_aging_after(
    pv: &PvMap,
    state: &AgingState,
    cal: &Calibration,
    plan: &Plan,
    w: &Workload,
    shares: &[f64],
) -> Vec<f64> {
    let n = w.warp_insts[0] as f64;
    let mut stress = vec![predict::idle_stress(cal); pv.cores.len()];
    let working: Vec<&FormedCluster> = plan.formation[0]
        .clusters
        .iter()
        .filter(|c| c.working)
        .collect();
    for (c, share) in working.iter().zip(shares) {
        let s = predict::cluster_stress(cal, n * share, 1.0, c.freq_hz, w.horizon_s).unwrap();
        for &i in &c.cores {
            stress[i] = s;
        }
    }
    let mut after = state.clone();
    after.advance(pv, cal, &stress, w.horizon_s).unwrap();
    let (now, fresh) = (after.rel_delays(pv, cal).unwrap(), |i: usize| {
        1.0 / pv.cores[i].f_max_hz
    });
    working
        .iter()
        .map(|c| {
            let d_now = c
                .cores
                .iter()
                .map(|&i| fresh(i) * now[i])
                .fold(0.0, f64::max);
            let d_fresh = c.cores.iter().map(|&i| fresh(i)).fold(0.0, f64::max);
            d_now / d_fresh - 1.0
        })
        .collect()
}

/// Unevenly aged SP cores (map 11, [`uneven_history`]), one month of [`month_workload`]:
/// the ratio gives the most aged cluster the least work and narrows the aging spread the IDU
/// actually produces (the state advanced with the limits' shares) below the even split's.
///
/// This scenario used to fail with "spread with the ratio 0.0181 vs even 0.0129": Algorithm 4
/// ran on a slope `s_j` measured at the even share and extrapolated linearly. Cluster 3's
/// slope was 1e-19 per instruction (its slowest core had been stressed for 2 years and
/// barely moves), 250× the fresh clusters', so `ST/s` asked it for 43/64 of the work; at
/// that share a never-stressed member takes a first-stress step (Eq. 4.4 at t → 0+) and
/// becomes the slowest, and the cluster aged to 0.0253 instead of the predicted 0.0181.
/// `GetInstNum` now inverts the model.
///
/// The old bound (spread < ½ of even's) was unreachable by any distribution: cluster 5
/// (the most aged) starts above every reachable level, so the spread is at least its aging
/// minus the water-filling level `L` of the others (giving them all N instructions cannot
/// lift them all above `L`), and that is more than half the even spread. The test now asks
/// for what can be had: a narrower spread than even, within 10 % of that lower bound, and
/// the clusters below the target at least 2× closer together.
#[test]
fn aging_program_balances_uneven_aging() {
    let pv = PvMap::generate(PvParams::default(), 11).unwrap();
    let cal = Calibration::default();
    let state = uneven_history(&pv, &cal);
    let w = month_workload();
    let plan = plan(&pv, &state, &w, &PlanConfig::default()).unwrap();
    let r = plan.ratios[0].as_ref().unwrap();
    assert_eq!(r.period(), 64);
    let k = r.limits.len();
    let oldest = (0..k)
        .max_by(|&x, &y| r.aging[x].total_cmp(&r.aging[y]))
        .unwrap();
    let youngest = (0..k)
        .min_by(|&x, &y| r.aging[x].total_cmp(&r.aging[y]))
        .unwrap();
    assert!(
        r.limits[oldest] == 1 && r.limits[youngest] > 1,
        "limits {:?} for aging {:?}",
        r.limits,
        r.aging
    );

    let even = sp_aging_after(&pv, &state, &cal, &plan, &w, &vec![1.0 / k as f64; k]);
    let ratio = sp_aging_after(&pv, &state, &cal, &plan, &w, &r.shares());
    // The planner's prediction is what happens.
    for (p, a) in r.predicted_aging.iter().zip(&ratio) {
        assert_close(*p, *a, 1e-12, "predicted vs advanced aging");
    }
    assert!(
        spread(&ratio) < spread(&even),
        "ratio {ratio:?} vs even {even:?}"
    );

    // The lower bound: water-filling's level L over the same clusters.
    let wf = PlanConfig {
        policy: RatioPolicy::WaterFill,
        ..PlanConfig::default()
    };
    let level = super::plan(&pv, &state, &w, &wf).unwrap().ratios[0]
        .as_ref()
        .unwrap()
        .target;
    let bound = r.aging[oldest] - level;
    assert!(
        bound > 0.5 * spread(&even),
        "bound {bound} vs even {}",
        spread(&even)
    );
    assert!(
        spread(&ratio) <= 1.1 * bound,
        "ratio {} vs bound {bound}",
        spread(&ratio)
    );

    // The clusters the ratio can steer (below AvgAge) end up close together.
    let steer: Vec<usize> = (0..k).filter(|&j| r.aging[j] < r.target).collect();
    assert_eq!(steer.len(), k - 1);
    let pick = |v: &[f64]| steer.iter().map(|&j| v[j]).collect::<Vec<f64>>();
    assert!(
        spread(&pick(&ratio)) < 0.5 * spread(&pick(&even)),
        "steerable: ratio {:?} vs even {:?}",
        pick(&ratio),
        pick(&even)
    );
}

/// GetInstNum inverts GetAging on the nonlinear model: for every working SP cluster of the
/// uneven scenario and targets between its aging now and at full load,
/// `GetAging(GetInstNum(target)) = target`; targets below the status give 0, above the
/// full-load aging the capacity.
#[test]
fn aging_predictor_inverts_the_model() {
    let pv = PvMap::generate(PvParams::default(), 11).unwrap();
    let cal = Calibration::default();
    let state = uneven_history(&pv, &cal);
    let w = month_workload();
    let plan = plan(&pv, &state, &w, &PlanConfig::default()).unwrap();
    let model = ClusterPredictor::for_type(
        &pv,
        &state,
        &cal,
        &plan.formation[0],
        CoreType::Sp,
        w.horizon_s,
    )
    .unwrap();
    for j in 0..model.clusters() {
        let a = model.status(j).unwrap();
        let cap = model.capacity(j).unwrap();
        assert_close(
            cap,
            plan.formation[0].clusters[j].freq_hz * w.horizon_s,
            1.0,
            "capacity",
        );
        let full = model.aging_after(j, cap).unwrap();
        assert!(full > a, "cluster {j}: {full} <= {a}");
        assert_eq!(model.inst_num(j, a - 1e-3).unwrap(), 0.0);
        assert_eq!(model.inst_num(j, full + 1e-3).unwrap(), cap);
        for x in [0.05, 0.3, 0.7, 0.99] {
            let target = a + x * (full - a);
            let n = model.inst_num(j, target).unwrap();
            assert!(n > 0.0 && n <= cap, "cluster {j}: n = {n}");
            let got = model.aging_after(j, n).unwrap();
            // The smallest n that reaches the target, to the solver's tolerance 1e-6 · cap
            // (a first-stress step may overshoot it).
            assert!(got >= target, "cluster {j}: {got} < {target}");
            let below = model.aging_after(j, (n - 2e-6 * cap).max(0.0)).unwrap();
            assert!(below < target, "cluster {j}: {below} just below n = {n}");
        }
    }
    assert!(model.status(99).is_err());
}

#[test]
fn aging_program_bad_inputs_are_errors() {
    let pv = PvMap::generate(PvParams::default(), 0).unwrap();
    let state = AgingState::fresh(pv.cores.len());
    let config = PlanConfig::default();
    let w = month_workload();

    // Zero clusters for a type the kernel uses.
    let mut z = w;
    z.clusters_needed[1] = Some(0);
    let e = program(&pv, &state, &z, &config).unwrap_err();
    assert!(matches!(e, AgingError::NoClusters { .. }), "{e:?}");
    assert!(e.to_string().contains("SFU"), "{e}");
    // ... but a type the kernel does not use may be gated entirely.
    z.warp_insts[1] = 0;
    let p = program(&pv, &state, &z, &config).unwrap();
    assert_eq!(p.types[1].working, vec![false; 4]);
    assert_eq!(p.types[1].limits, vec![0; 4]);

    // More clusters than exist.
    let mut m = w;
    m.clusters_needed[0] = Some(7);
    let e = program(&pv, &state, &m, &config).unwrap_err();
    assert!(e.to_string().contains("SP"), "{e}");

    // NaN horizon.
    let mut h = w;
    h.horizon_s = f64::NAN;
    let e = program(&pv, &state, &h, &config).unwrap_err();
    assert!(e.to_string().contains("horizon"), "{e}");

    // State of the wrong size.
    let e = program(&pv, &AgingState::fresh(3), &w, &config).unwrap_err();
    assert!(matches!(e, AgingError::Geometry(_)), "{e:?}");

    // NaN in the aging state.
    let mut s = state.clone();
    s.cores[5].dvth_nbti = f64::NAN;
    let e = program(&pv, &s, &w, &config).unwrap_err();
    assert!(matches!(e, AgingError::InvalidInput { .. }), "{e:?}");

    // Limits overflow: the single LD/ST cluster cannot hold 300 in 8 bits.
    let big = PlanConfig {
        period: 300,
        ..config.clone()
    };
    let e = program(&pv, &state, &w, &big).unwrap_err();
    assert_eq!(
        e,
        AgingError::LimitOverflow {
            period: 300,
            working: 1
        }
    );
    // Period below the working clusters: 6 SP clusters cannot share 5.
    let small = PlanConfig {
        period: 5,
        ..config.clone()
    };
    assert!(matches!(
        program(&pv, &state, &w, &small),
        Err(AgingError::LimitOverflow {
            period: 5,
            working: 6
        })
    ));
    // A NaN frequency cap and a bad calibration.
    let cap = PlanConfig {
        f_cap_hz: Some(f64::NAN),
        ..config.clone()
    };
    assert!(program(&pv, &state, &w, &cap).is_err());
    let cal = PlanConfig {
        calibration: Calibration {
            e_0: 0.0,
            ..Calibration::default()
        },
        ..config
    };
    assert!(program(&pv, &state, &w, &cal)
        .unwrap_err()
        .to_string()
        .contains("E_0"));
}
