//! The IDU dispatcher RTL on the thesis' Fig. 4.3 and on the always-ready pattern.

use rtgpu_testbench::idu::rtl::{In, RtlDispatcher};

/// Thesis clusters 1, 2, 4 = indices 0, 1, 3; index 2 (thesis cluster 3) power-gated.
fn fig43() -> RtlDispatcher<4> {
    let mut d = RtlDispatcher::<4>::new().unwrap();
    for (k, w, l) in [(0, true, 4), (1, true, 3), (2, false, 0), (3, true, 3)] {
        d.step(&In {
            cfg: Some((0, k, w, l)),
            ..In::default()
        })
        .unwrap();
    }
    d.step(&In {
        launch: true,
        ..In::default()
    })
    .unwrap();
    d
}

/// Spec §2.7.2: the ready pattern per dispatch slot gives clusters 1,2,2,1,4,2,1,4,4,1,2 and
/// the counter columns of Fig. 4.3 (row 10: 4/3/3 all at limit; row 11: 0/1/0).
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
        let o = d
            .step(&In {
                enable: true,
                instr: Some((0, slot as u8)),
                ready,
                ..In::default()
            })
            .unwrap();
        assert!(o.dispatch, "slot {}", slot + 1);
        assert_eq!(
            thesis[o.sel as usize],
            want_cluster[slot],
            "slot {}",
            slot + 1
        );
        let after = d.step(&In::default()).unwrap();
        assert_eq!(
            (after.cnt[0], after.cnt[1], after.cnt[3]),
            want_cnt[slot],
            "counters after slot {}",
            slot + 1
        );
    }
}

/// Spec §2.7.4 item 2: always ready, limits 4/3/3 → 1,1,1,1,2,2,2,4,4,4 repeating.
#[test]
fn always_ready_repeats_the_ratio() {
    let mut d = fig43();
    let mut seq = Vec::new();
    for i in 0..30 {
        let o = d
            .step(&In {
                enable: true,
                instr: Some((0, i)),
                ready: 0b1011,
                ..In::default()
            })
            .unwrap();
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
        d.step(&In {
            enable: true,
            instr: Some((0, i)),
            ready: 0b0001,
            ..In::default()
        })
        .unwrap();
    }
    // C1 at its limit, only C1 ready: stall.
    let o = d
        .step(&In {
            enable: true,
            instr: Some((0, 9)),
            ready: 0b0001,
            ..In::default()
        })
        .unwrap();
    assert!(o.stall && !o.dispatch);
    // Stock dispatcher: C1 takes it, counters unchanged.
    let o = d
        .step(&In {
            enable: false,
            instr: Some((0, 9)),
            ready: 0b0001,
            ..In::default()
        })
        .unwrap();
    assert!(o.dispatch && o.sel == 0);
    assert_eq!(d.step(&In::default()).unwrap().cnt[0], 4);
    // Type 3 never dispatches.
    let o = d
        .step(&In {
            enable: true,
            instr: Some((3, 1)),
            ready: 0xFF,
            ..In::default()
        })
        .unwrap();
    assert!(o.stall);
}
