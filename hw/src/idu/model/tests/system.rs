//! Unit tests of the IDU model's multi-clock system: the thesis' Fig. 1.5 (synchronous and
//! asynchronous clusters), initiation intervals, power gating, the time cut, and a proptest
//! that no instruction is lost, the trace is consistent and the ratio bound holds.

use super::*;

/// The Fig. 1.5 system: two working SP clusters C1 = 0, C2 = 1, enable 0.
fn fig15(disp: u64, c1: u64, c2: u64, depth: usize) -> SystemConfig {
    let mut cfg = SystemConfig::uniform(2, disp);
    cfg.cluster_ps[0][0] = c1;
    cfg.cluster_ps[0][1] = c2;
    cfg.working[0][0] = true;
    cfg.working[0][1] = true;
    cfg.limits[0][0] = 1;
    cfg.limits[0][1] = 1;
    cfg.depth[0] = depth;
    cfg.ii[0] = 1;
    cfg.enable = false;
    cfg.trace = true;
    cfg
}

const ABCD: [(u8, u8); 4] = [(0, 0xA), (0, 0xB), (0, 0xC), (0, 0xD)];

#[test]
fn idu_fig15_synchronous_all_to_c1() {
    for depth in [1, 4, 13] {
        let mut sys = IduSystem::new(fig15(1000, 1000, 1000, depth));
        let r = sys.run(&ABCD, 1_000_000);
        assert!(r.completed);
        let got: Vec<(u8, u8, u64)> = r
            .dispatches
            .iter()
            .map(|d| (d.tag, d.cluster, d.ps))
            .collect();
        // One per dispatcher cycle: the C1 edge at the same ps empties the latch first.
        assert_eq!(
            got,
            vec![
                (0xA, 0, 1000),
                (0xB, 0, 2000),
                (0xC, 0, 3000),
                (0xD, 0, 4000)
            ],
            "depth {depth}"
        );
        assert_eq!(r.stalls, 0);
        // D enters at 5000 and retires `depth` edges later.
        assert_eq!(r.end_ps, 5000 + 1000 * depth as u64);
        // Four back-to-back instructions: busy from edge 2 to edge 5 + depth - 1.
        assert_eq!(r.busy_cycles[0][0], depth as u64 + 3);
        assert_eq!(r.busy_cycles[0][1], 0);
        assert_eq!(r.dispatched[0][0], 4);
    }
}

#[test]
fn idu_fig15_asynchronous() {
    // disp 1000, C1 3500, C2 1500 (the stock dispatcher of the thesis' Fig. 1.5):
    //  1000: both latches empty -> A -> C1.
    //  2000: C1 latch full (its first edge is 3500) -> B -> C2.
    //  3000: C2 edge first (B enters), then C -> C2.
    //  3500: C1 edge: A enters. 4000: C1 empty -> D -> C1.
    for depth in [1, 4, 13] {
        let mut sys = IduSystem::new(fig15(1000, 3500, 1500, depth));
        let r = sys.run(&ABCD, 1_000_000);
        assert!(r.completed);
        let got: Vec<(u8, u8, u64)> = r
            .dispatches
            .iter()
            .map(|d| (d.tag, d.cluster, d.ps))
            .collect();
        assert_eq!(
            got,
            vec![
                (0xA, 0, 1000),
                (0xB, 1, 2000),
                (0xC, 1, 3000),
                (0xD, 0, 4000)
            ],
            "depth {depth}"
        );
        assert_eq!(r.stalls, 0);
        assert_eq!(r.dispatched[0][0], 2);
        assert_eq!(r.dispatched[0][1], 2);
        // Trace: cycle 2 saw C1 not ready.
        assert_eq!(r.trace[1].input.ready, 0b10);
        assert_eq!(r.trace[1].cycle, 2);
    }
}

#[test]
fn idu_system_sfu_initiation_interval() {
    // K = 1, SFU, all clocks 1000 ps, depth 2, ii 4.
    //  1000 A latched. 2000 cluster edge 2: A enters; B latched.
    //  3000, 4000, 5000: B waits (1, 2, 3 cycles since the accept) -> C stalls 3 times.
    //  6000 edge 6: B enters, then C latched. 10000 edge 10: C enters. Retire at 12000.
    //  Busy after edges 2, 3, 6, 7, 10, 11.
    let mut cfg = SystemConfig::uniform(1, 1000);
    cfg.working[1][0] = true;
    cfg.limits[1][0] = 1;
    cfg.depth[1] = 2;
    cfg.ii[1] = 4;
    let mut sys = IduSystem::new(cfg);
    let r = sys.run(&[(1, 1), (1, 2), (1, 3)], 1_000_000);
    assert!(r.completed);
    let ps: Vec<u64> = r.dispatches.iter().map(|d| d.ps).collect();
    assert_eq!(ps, vec![1000, 2000, 6000]);
    assert_eq!(r.stalls, 3);
    let retired: Vec<(u64, u8)> = r.retires.iter().map(|x| (x.ps, x.tag)).collect();
    assert_eq!(retired, vec![(4000, 1), (8000, 2), (12000, 3)]);
    assert_eq!(r.end_ps, 12000);
    assert_eq!(r.busy_cycles[1][0], 6);
}

#[test]
fn idu_system_power_gated_cluster_idle() {
    let mut cfg = SystemConfig::uniform(4, 1000);
    for (k, l) in [(0, 4), (1, 3), (3, 3)] {
        cfg.working[0][k] = true;
        cfg.limits[0][k] = l;
    }
    cfg.trace = true;
    let instrs: Vec<(u8, u8)> = (0..40).map(|i| (0, i)).collect();
    let mut sys = IduSystem::new(cfg);
    let r = sys.run(&instrs, 10_000_000);
    assert!(r.completed);
    assert_eq!(r.dispatched[0][2], 0);
    assert_eq!(r.busy_cycles[0][2], 0);
    assert!(r.trace.iter().all(|row| row.input.ready & 0b100 == 0));
    // Synchronous, always ready (ii 1): exactly the 1,1,1,1,2,2,2,4,4,4 pattern.
    let pattern = [0, 0, 0, 0, 1, 1, 1, 3, 3, 3];
    for (n, d) in r.dispatches.iter().enumerate() {
        assert_eq!(d.cluster, pattern[n % 10]);
        assert_eq!(d.ps, 1000 * (n as u64 + 1));
    }
    assert_eq!(r.dispatched[0][0], 16);
    assert_eq!(r.dispatched[0][1], 12);
    assert_eq!(r.dispatched[0][3], 12);
}

#[test]
fn idu_system_max_ps_cut() {
    // One SP cluster with limit 0 (always full: every dispatch resets lazily).
    let mut cfg = SystemConfig::uniform(1, 1000);
    cfg.working[0][0] = true;
    let mut sys = IduSystem::new(cfg);
    let r = sys.run(&[(0, 1), (0, 2), (0, 3)], 2500);
    assert!(!r.completed);
    assert_eq!(r.end_ps, 2500);
    assert_eq!(r.dispatches.len(), 2);
    // No instruction: done at 0.
    let r = sys.run(&[], 2500);
    assert!(r.completed);
    assert_eq!(r.end_ps, 0);
    assert_eq!(r.disp_cycles, 0);
}

/// A random system configuration: every type has at least cluster 0 working.
fn system_config() -> impl Strategy<Value = SystemConfig> {
    (
        1usize..=6,
        500u64..2000,
        proptest::collection::vec(500u64..4000, TYPES * 6),
        proptest::collection::vec(1u8..64, TYPES),
        proptest::collection::vec(1u8..=16, TYPES * 6),
        proptest::collection::vec(1usize..8, TYPES),
        proptest::collection::vec(1u32..5, TYPES),
        any::<bool>(),
    )
        .prop_map(|(k, disp_ps, periods, mask, lims, depth, ii, enable)| {
            let mut cfg = SystemConfig::uniform(k, disp_ps);
            for t in 0..TYPES {
                let m = (usize::from(mask[t]) & ((1 << k) - 1)) | 1;
                for c in 0..k {
                    cfg.working[t][c] = (m >> c) & 1 == 1;
                    // Stock runs get limits from 0 (a cluster at its limit from the
                    // start) to check that `enable` 0 ignores them.
                    cfg.limits[t][c] = lims[t * 6 + c] - u8::from(!enable);
                    cfg.cluster_ps[t][c] = periods[t * 6 + c];
                }
            }
            cfg.depth.copy_from_slice(&depth);
            cfg.ii.copy_from_slice(&ii);
            cfg.enable = enable;
            cfg.trace = true;
            cfg
        })
}

/// An upper bound of the run time: each dispatch comes at most one accept (ii cluster
/// cycles) plus one dispatcher cycle after the previous one; the last retires `depth`
/// cluster cycles after its accept.
fn time_bound(cfg: &SystemConfig, n: usize) -> u64 {
    let p = cfg.cluster_ps.iter().flatten().copied().max().unwrap_or(1);
    let ii = u64::from(*cfg.ii.iter().max().unwrap());
    let depth = *cfg.depth.iter().max().unwrap() as u64;
    n as u64 * (ii * p + cfg.disp_ps) + depth * p
}

/// No instruction lost or duplicated: dispatched in order, into a working cluster of its
/// type, retired once from that cluster, in order per cluster.
fn check_no_loss(
    cfg: &SystemConfig,
    instrs: &[(u8, u8)],
    r: &SystemRun,
) -> Result<(), TestCaseError> {
    let got: Vec<(u8, u8)> = r.dispatches.iter().map(|d| (d.ty, d.tag)).collect();
    prop_assert_eq!(&got, &instrs.to_vec());
    for t in 0..TYPES {
        for c in 0..cfg.k {
            let of = |ty: u8, cl: u8| usize::from(ty) == t && usize::from(cl) == c;
            let dis: Vec<u8> = r
                .dispatches
                .iter()
                .filter(|x| of(x.ty, x.cluster))
                .map(|x| x.tag)
                .collect();
            let ret: Vec<u8> = r
                .retires
                .iter()
                .filter(|x| of(x.ty, x.cluster))
                .map(|x| x.tag)
                .collect();
            prop_assert_eq!(&ret, &dis, "type {} cluster {}", t, c);
            prop_assert_eq!(r.dispatched[t][c], dis.len() as u64);
            prop_assert!(cfg.working[t][c] || dis.is_empty());
            check_busy(cfg, t, c, r)?;
        }
    }
    prop_assert_eq!(r.retires.len(), instrs.len());
    prop_assert_eq!(r.end_ps, r.retires.last().map_or(0, |x| x.ps));
    Ok(())
}

/// Busy cycles of cluster (`t`, `c`): n instructions accepted at least `ii` cycles
/// apart, each `depth` cycles in the pipeline.
fn check_busy(cfg: &SystemConfig, t: usize, c: usize, r: &SystemRun) -> Result<(), TestCaseError> {
    let (n, depth) = (r.dispatched[t][c], cfg.depth[t] as u64);
    let busy = r.busy_cycles[t][c];
    if n == 0 {
        prop_assert_eq!(busy, 0);
    } else {
        let overlap = depth.min(u64::from(cfg.ii[t]));
        prop_assert!(busy <= n * depth, "busy {} n {} depth {}", busy, n, depth);
        prop_assert!(busy >= depth + (n - 1) * overlap, "busy {} n {}", busy, n);
    }
    Ok(())
}

/// The dispatcher's cycles: the ready bits, the stock choice (`enable` 0), the stall count.
fn check_trace(cfg: &SystemConfig, r: &SystemRun) -> Result<(), TestCaseError> {
    for row in &r.trace {
        let t = usize::from(row.input.in_type);
        let working = (0..cfg.k).filter(|&c| cfg.working[t][c]);
        let mask = working.fold(0u8, |m, c| m | (1 << c));
        prop_assert_eq!(row.input.ready & !mask, 0, "ready from a gated cluster");
        let o = &row.output;
        if o.dispatch {
            prop_assert!((row.input.ready >> o.sel) & 1 == 1);
        }
        if !cfg.enable && row.input.in_valid {
            // Stock: the lowest ready working cluster, stall only when none is ready.
            prop_assert_eq!(o.dispatch, row.input.ready != 0);
            prop_assert_eq!(u32::from(o.sel), row.input.ready.trailing_zeros() % 8);
        }
    }
    let last = r.dispatches.last().map_or(0, |d| d.cycle);
    prop_assert_eq!(last, r.dispatches.len() as u64 + r.stalls);
    Ok(())
}

/// The ratio bound per type, after every dispatch of the type (`enable` 1).
fn check_system_ratio(cfg: &SystemConfig, r: &SystemRun) -> Result<(), TestCaseError> {
    for t in 0..TYPES {
        let work: Vec<usize> = (0..cfg.k).filter(|&c| cfg.working[t][c]).collect();
        let l: Vec<u8> = work.iter().map(|&c| cfg.limits[t][c]).collect();
        let mut counts = [0u64; MAX_K];
        let mut n = 0u64;
        for d in r.dispatches.iter().filter(|d| usize::from(d.ty) == t) {
            counts[usize::from(d.cluster)] += 1;
            n += 1;
            let c: Vec<u64> = work.iter().map(|&c| counts[c]).collect();
            check_ratio(&c, &l, n)?;
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn idu_system_no_loss_and_ratio(
        cfg in system_config(),
        types in proptest::collection::vec(0u8..3, 1..300),
    ) {
        let instrs: Vec<(u8, u8)> =
            types.iter().enumerate().map(|(i, &t)| (t, i as u8)).collect();
        let mut sys = IduSystem::new(cfg.clone());
        let r = sys.run(&instrs, time_bound(&cfg, instrs.len()));
        prop_assert!(r.completed, "not done by the bound");
        check_no_loss(&cfg, &instrs, &r)?;
        check_trace(&cfg, &r)?;
        if cfg.enable {
            check_system_ratio(&cfg, &r)?;
        }
    }
}
