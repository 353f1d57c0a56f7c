//! Unit tests of the IDU model's dispatcher: the thesis' Fig. 4.3, the contract's rules and a
//! proptest of the long-run ratio bound. The multi-clock system's tests are in `system`.

use super::*;
use proptest::prelude::*;

/// One cycle of inputs with only the given fields set.
fn idle() -> DispIn {
    DispIn::default()
}

/// Reset, the given (type, cluster, working, limit) writes, launch.
fn configure(d: &mut DispatcherModel, writes: &[(u8, u8, bool, u8)]) {
    d.step(&DispIn {
        reset: true,
        ..idle()
    });
    for &(t, k, w, l) in writes {
        d.step(&DispIn {
            cfg_we: true,
            cfg_type: t,
            cfg_cluster: k,
            cfg_working: w,
            cfg_limit: l,
            ..idle()
        });
    }
    d.step(&DispIn {
        launch: true,
        ..idle()
    });
}

/// The Fig. 4.3 configuration: K = 4, type SP, thesis clusters 1, 2, 4 = indices 0, 1, 3
/// working with limits 4, 3, 3; index 2 gated.
fn fig43() -> DispatcherModel {
    let mut d = DispatcherModel::new(4);
    configure(&mut d, &[(0, 0, true, 4), (0, 1, true, 3), (0, 3, true, 3)]);
    d
}

/// An SP instruction presented with the given ready bits.
fn sp(tag: u8, ready: u8, enable: bool) -> DispIn {
    DispIn {
        enable,
        in_valid: true,
        in_type: 0,
        in_tag: tag,
        ready,
        ..idle()
    }
}

/// The thesis's cluster number of index `k` in the Fig. 4.3 configuration.
fn thesis(k: u8) -> u8 {
    k + 1
}

/// (C1, C2, C4) counters of type SP from the outputs.
fn c124(o: &DispOut) -> (u8, u8, u8) {
    (o.cnt[0], o.cnt[1], o.cnt[3])
}

#[test]
fn idu_fig43_golden() {
    let mut d = fig43();
    // The thesis' Fig. 4.3, ready (C1, C2, C4) per slot; the gated index 2 is forced ready too
    // (it must never be chosen).
    let c1 = [1, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0];
    let c2 = [1, 1, 1, 1, 0, 1, 1, 1, 1, 1, 1];
    let c4 = [1; 11];
    let clusters = [1, 2, 2, 1, 4, 2, 1, 4, 4, 1, 2];
    let counters = [
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
    for s in 0..11 {
        let ready = c1[s] | (c2[s] << 1) | 0b100 | (c4[s] << 3);
        let o = d.step(&sp(s as u8, ready, true));
        assert!(o.dispatch && !o.stall, "slot {}", s + 1);
        assert_eq!(o.out_tag, s as u8);
        assert_eq!(thesis(o.sel), clusters[s], "slot {}", s + 1);
        // Lazy reset: every counter is at its limit only in the cycle of slot 11.
        assert_eq!(o.all_full, s == 10, "slot {}", s + 1);
        // The counters after the dispatch are the next cycle's outputs.
        let after = d.outputs(&idle());
        assert_eq!(c124(&after), counters[s], "slot {}", s + 1);
        assert_eq!(after.cnt[2], 0);
        assert_eq!(&after.cnt[4..], &[0; 8], "other types untouched");
    }
}

#[test]
fn idu_fig43_c1_not_ready_with_quota_goes_to_next() {
    // Rows 8-9: C1 has quota (3 < 4) but is busy, so the instruction goes to C4.
    let mut d = fig43();
    for _ in 0..7 {
        d.step(&sp(0, 0b1111, true));
    }
    assert_eq!(c124(&d.outputs(&idle())), (4, 3, 0));
    let o = d.step(&sp(0, 0b1010, true));
    assert_eq!((o.elig, thesis(o.sel)), (0b1000, 4));
}

#[test]
fn idu_fig43_all_full_visible_before_row_11() {
    let mut d = fig43();
    for _ in 0..10 {
        assert!(d.step(&sp(0, 0b1111, true)).dispatch);
    }
    // 4/3/3: every working cluster at its limit, index 2 not working.
    let o = d.outputs(&sp(0, 0b1011, true));
    assert_eq!(c124(&o), (4, 3, 3));
    assert!(o.all_full);
    assert_eq!(o.elig, 0b1011);
    assert_eq!(o.sel, 0);
}

#[test]
fn idu_always_ready_repeats_with_lazy_reset() {
    let mut d = fig43();
    let pattern = [1, 1, 1, 1, 2, 2, 2, 4, 4, 4];
    for n in 0..50 {
        let o = d.step(&sp(n as u8, 0b1111, true));
        assert!(o.dispatch);
        assert_eq!(thesis(o.sel), pattern[n % 10], "dispatch {}", n + 1);
        // all_full in exactly the cycle of the lazy reset (the 11th, 21st, ...).
        assert_eq!(o.all_full, n > 0 && n % 10 == 0, "dispatch {}", n + 1);
        let after = c124(&d.outputs(&idle()));
        match n % 10 {
            9 => assert_eq!(after, (4, 3, 3)),
            0 => assert_eq!(after, (1, 0, 0)),
            _ => {}
        }
    }
}

#[test]
fn idu_enable_0_first_available_counters_unchanged() {
    let mut d = fig43();
    // Four IDU dispatches to C1: counters 4/0/0, C1 at its limit.
    for n in 0..4 {
        assert_eq!(d.step(&sp(n, 0b0001, true)).sel, 0);
    }
    assert_eq!(c124(&d.outputs(&idle())), (4, 0, 0));
    // Stock: always the lowest working ready cluster, even past its limit.
    for n in 0..8 {
        let o = d.step(&sp(n, 0b1111, false));
        assert_eq!((o.dispatch, o.elig, o.sel), (true, 0b1011, 0));
        assert!(!o.all_full);
        assert_eq!(c124(&d.outputs(&idle())), (4, 0, 0));
    }
    // The gated index 2 is never chosen, even when it is the only one "ready".
    let o = d.step(&sp(9, 0b0100, false));
    assert!(!o.dispatch && o.stall);
    assert_eq!(o.elig, 0);
    let o = d.step(&sp(9, 0b1100, false));
    assert_eq!((o.dispatch, o.sel), (true, 3));
    let o = d.step(&sp(10, 0b1010, false));
    assert_eq!((o.dispatch, o.sel), (true, 1));
    assert_eq!(c124(&d.outputs(&idle())), (4, 0, 0));
    // With enable 1 again the counters resume from 4/0/0: C1 is full, C2 is next.
    let o = d.step(&sp(11, 0b1111, true));
    assert_eq!((o.elig, o.sel), (0b1010, 1));
    assert_eq!(c124(&d.outputs(&idle())), (4, 1, 0));
}

#[test]
fn idu_strict_stall_when_only_full_clusters_ready() {
    let mut d = fig43();
    for _ in 0..4 {
        d.step(&sp(0, 0b0001, true));
    }
    // C1 at 4/4, only C1 ready: stall (the ratio is never broken); counters unchanged.
    for _ in 0..3 {
        let o = d.step(&sp(7, 0b0001, true));
        assert!(o.stall && !o.dispatch);
        assert!(!o.all_full);
        assert_eq!(o.elig, 0);
    }
    assert_eq!(c124(&d.outputs(&idle())), (4, 0, 0));
    // in_valid 0: neither stall nor dispatch, even with eligible clusters.
    let o = d.step(&DispIn {
        enable: true,
        ready: 0b1111,
        ..idle()
    });
    assert!(!o.stall && !o.dispatch);
    assert_eq!(o.elig, 0b1010);
    assert_eq!(o.sel, 1);
    assert_eq!(c124(&d.outputs(&idle())), (4, 0, 0));
}

/// A configuration write of (working `w`, limit `l`) for (type `t`, cluster `k`).
fn write(t: u8, k: u8, w: bool, l: u8) -> DispIn {
    DispIn {
        cfg_we: true,
        cfg_type: t,
        cfg_cluster: k,
        cfg_working: w,
        cfg_limit: l,
        ..idle()
    }
}

/// K = 4 after reset and the writes (1, 2, working, 9), (2, 3, working, 5) and writes to
/// bad addresses (type 3, clusters 4..=7), which are ignored.
fn configured_4() -> DispatcherModel {
    let mut d = DispatcherModel::new(4);
    d.step(&DispIn {
        reset: true,
        ..idle()
    });
    d.step(&write(1, 2, true, 9));
    d.step(&write(2, 3, true, 5));
    d.step(&write(3, 0, true, 7));
    for k in 4..8 {
        d.step(&write(0, k, true, 7));
    }
    d
}

/// The limits of [`configured_4`].
fn limits_4() -> Vec<u8> {
    let mut limit = vec![0u8; 12];
    limit[4 + 2] = 9;
    limit[8 + 3] = 5;
    limit
}

#[test]
fn idu_config_writes_and_bad_addresses() {
    let mut d = configured_4();
    let o = d.outputs(&idle());
    assert_eq!(o.limit, limits_4());
    assert_eq!(o.working, (1 << 6) | (1 << 11));
    assert!(!o.active);
    d.step(&write(1, 2, false, 1));
    let o = d.outputs(&idle());
    assert_eq!(o.limit[6], 1);
    assert_eq!(o.working, 1 << 11);
    // Reset clears everything.
    d.step(&DispIn {
        reset: true,
        ..idle()
    });
    let o = d.outputs(&idle());
    assert_eq!((o.limit, o.cnt), (vec![0; 12], vec![0; 12]));
    assert_eq!((o.working, o.active), (0, false));
}

#[test]
fn idu_config_ignored_while_active() {
    let mut d = configured_4();
    let unchanged = |d: &DispatcherModel, active: bool| {
        let o = d.outputs(&idle());
        assert_eq!(o.active, active);
        assert_eq!(o.limit, limits_4());
        assert_eq!(o.working, (1 << 6) | (1 << 11));
    };
    // A write in the launch cycle is ignored.
    d.step(&DispIn {
        launch: true,
        ..write(1, 2, false, 1)
    });
    unchanged(&d, true);
    // Writes while active are ignored, including in the stop cycle.
    d.step(&write(1, 2, false, 1));
    d.step(&write(0, 0, true, 3));
    d.step(&DispIn {
        stop: true,
        ..write(0, 1, true, 3)
    });
    unchanged(&d, false);
    // After stop they apply.
    d.step(&write(0, 1, true, 3));
    assert_eq!(d.outputs(&idle()).limit[1], 3);
}

#[test]
fn idu_type_3_stalls_and_inactive_stalls() {
    let mut d = fig43();
    let o = d.step(&DispIn {
        in_type: 3,
        ..sp(5, 0xFF, true)
    });
    assert!(o.stall && !o.dispatch);
    assert_eq!(o.elig, 0);
    assert!(!o.all_full);
    assert_eq!(o.sel, 0);
    assert_eq!(o.cnt, vec![0; 12]);
    assert_eq!(d.outputs(&idle()).cnt, vec![0; 12]);
    // A type with no working cluster: all_full 1, nothing eligible.
    let o = d.step(&DispIn {
        in_type: 1,
        ..sp(5, 0xFF, true)
    });
    assert!(o.all_full && o.stall && !o.dispatch);
    assert_eq!(o.elig, 0);
    // Not active: eligible but no dispatch; counters unchanged.
    d.step(&DispIn {
        stop: true,
        ..sp(6, 0b1111, true)
    });
    // The stop cycle still dispatched (active during it): C1 = 1.
    assert_eq!(c124(&d.outputs(&idle())), (1, 0, 0));
    let o = d.step(&sp(7, 0b1111, true));
    assert_eq!(o.elig, 0b1011);
    assert!(o.stall && !o.dispatch && !o.active);
    assert_eq!(c124(&d.outputs(&idle())), (1, 0, 0));
    // Launch clears the counters.
    d.step(&DispIn {
        launch: true,
        ..idle()
    });
    assert_eq!(c124(&d.outputs(&idle())), (0, 0, 0));
}

#[test]
fn idu_counters_per_type() {
    let mut d = DispatcherModel::new(2);
    configure(
        &mut d,
        &[
            (0, 0, true, 1),
            (0, 1, true, 1),
            (1, 0, true, 2),
            (1, 1, true, 1),
        ],
    );
    let ins = |t: u8| DispIn {
        in_type: t,
        ..sp(0, 0b11, true)
    };
    assert_eq!(d.step(&ins(1)).sel, 0);
    assert_eq!(d.step(&ins(0)).sel, 0);
    assert_eq!(d.step(&ins(1)).sel, 0);
    assert_eq!(d.step(&ins(0)).sel, 1);
    assert_eq!(d.outputs(&idle()).cnt, vec![1, 1, 2, 0, 0, 0]);
    assert_eq!(d.step(&ins(1)).sel, 1);
    // Type 0 all full: reset with the next type-0 dispatch only.
    let o = d.step(&ins(0));
    assert!(o.all_full);
    assert_eq!(o.sel, 0);
    assert_eq!(d.outputs(&idle()).cnt, vec![1, 0, 2, 1, 0, 0]);
}

#[test]
fn idu_single_cluster_limit_1_resets_lazily() {
    // Shrunk from idu_long_run_ratio (a model that ignored `all_full` in `quota_ok`
    // never dispatched again): K = 1, limit 1, ready once every 8 cycles.
    let mut d = DispatcherModel::new(1);
    configure(&mut d, &[(0, 0, true, 1)]);
    let mut at = Vec::new();
    for cycle in 0..17 {
        let ready = u8::from(cycle % 8 == 0);
        let o = d.step(&sp(at.len() as u8, ready, true));
        assert_eq!(o.stall, !o.dispatch);
        if o.dispatch {
            assert_eq!(o.all_full, !at.is_empty());
            at.push(cycle);
        }
        assert_eq!(d.outputs(&idle()).cnt[0], 1.min(at.len() as u8));
    }
    assert_eq!(at, vec![0, 8, 16]);
}

#[test]
fn idu_limit_0_counts_as_full() {
    // A working cluster with limit 0 is always full: it gets work only with the others
    // (through the lazy reset, when they are all at their limits too).
    let mut d = DispatcherModel::new(2);
    configure(&mut d, &[(0, 0, true, 0), (0, 1, true, 2)]);
    let sels: Vec<u8> = (0..6).map(|n| d.step(&sp(n, 0b11, true)).sel).collect();
    assert_eq!(sels, vec![1, 1, 0, 1, 1, 0]);
    assert_eq!(d.outputs(&idle()).cnt[..2], [1, 0]);
}

#[test]
fn idu_reset_and_launch_priority() {
    // The model's readings (module doc, items 1-2): reset beats launch and writes;
    // launch clears the counters even when the cycle dispatches.
    let mut d = fig43();
    d.step(&DispIn {
        launch: true,
        ..sp(0, 0b1111, true)
    });
    let o = d.outputs(&idle());
    assert!(o.active);
    assert_eq!(c124(&o), (0, 0, 0));
    assert!(d.step(&sp(1, 0b1111, true)).dispatch);
    let o = d.step(&DispIn {
        launch: true,
        stop: true,
        ..sp(2, 0b1111, true)
    });
    assert!(o.dispatch, "active during the launch cycle");
    let o = d.outputs(&idle());
    assert!(o.active, "launch beats stop");
    assert_eq!(c124(&o), (0, 0, 0), "launch beats the dispatch's update");
    d.step(&DispIn {
        reset: true,
        launch: true,
        ..idle()
    });
    let o = d.outputs(&idle());
    assert!(!o.active && o.working == 0 && o.limit == vec![0; 12]);
}

/// Checks the ratio bound (cluster `k` gets `n · limit_k / S` of `n` dispatches, within
/// `S`) for `counts` after `n` dispatches.
fn check_ratio(counts: &[u64], limits: &[u8], n: u64) -> Result<(), TestCaseError> {
    let s: u64 = limits.iter().map(|&l| u64::from(l)).sum();
    for (c, &l) in counts.iter().zip(limits) {
        // |c - n·l/S| ≤ S, in integers: |c·S - n·l| ≤ S².
        let lhs = (c * s).abs_diff(n * u64::from(l));
        prop_assert!(lhs <= s * s, "count {c} limit {l} n {n} S {s}");
    }
    Ok(())
}

/// The long-run ratio case: `work` clusters of type SP with limits `lims[c]` run `n`
/// instructions with the ready pattern `pattern` (repeated).
fn ratio_case(
    k: usize,
    work: &[usize],
    lims: &[u8],
    pattern: &[u8],
    n: usize,
) -> Result<(), TestCaseError> {
    let mut d = DispatcherModel::new(k);
    let writes: Vec<(u8, u8, bool, u8)> =
        work.iter().map(|&c| (0, c as u8, true, lims[c])).collect();
    configure(&mut d, &writes);
    let l: Vec<u8> = work.iter().map(|&c| lims[c]).collect();
    let mut counts = [0u64; MAX_K];
    let mut out_tags = Vec::new();
    for cycle in 0..(16 * n + 16) {
        if out_tags.len() == n {
            break;
        }
        let ready = pattern[cycle % pattern.len()];
        let o = d.step(&sp(out_tags.len() as u8, ready, true));
        prop_assert_eq!(o.stall, !o.dispatch);
        if o.dispatch {
            prop_assert!(work.contains(&usize::from(o.sel)));
            prop_assert!((ready >> o.sel) & 1 == 1);
            counts[usize::from(o.sel)] += 1;
            out_tags.push(o.out_tag);
            let c: Vec<u64> = work.iter().map(|&c| counts[c]).collect();
            check_ratio(&c, &l, out_tags.len() as u64)?;
        }
    }
    // Every cluster is ready within any 16 cycles, so each dispatch takes at most 16.
    let in_tags: Vec<u8> = (0..n).map(|i| i as u8).collect();
    prop_assert_eq!(out_tags, in_tags);
    let idle_sum: u64 = (0..MAX_K)
        .filter(|c| !work.contains(c))
        .map(|c| counts[c])
        .sum();
    prop_assert_eq!(idle_sum, 0);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn idu_long_run_ratio(
        k in 1usize..=8,
        nwork in 1usize..=6,
        perm in Just((0..8).collect::<Vec<usize>>()).prop_shuffle(),
        lims in proptest::collection::vec(1u8..=16, 8),
        pattern in proptest::collection::vec(any::<u8>(), 8..64),
        n in 1usize..400,
    ) {
        let work: Vec<usize> =
            perm.iter().copied().filter(|&c| c < k).take(nwork.min(k)).collect();
        // Every cluster is ready at least once per 8 cycles of the pattern.
        let pattern: Vec<u8> =
            pattern.iter().enumerate().map(|(i, &r)| r | (1 << (i % 8))).collect();
        ratio_case(k, &work, &lims, &pattern, n)?;
    }
}

mod system;
