//! Tests of the reordering unit's reference model: the paper's Fig. 7 walk-through, the
//! out-of-order arrival and full-channel cases, the three errors, bypass, the configuration port's
//! readings. The property test against `rtgpu_wcet::reorder::release_order` on random launches
//! is in the testbench (`rtgpu_testbench::tb::reorder`), the crate that joins the two.

use super::*;

/// A loop-free, barrier-free access.
fn acc(pc_idx: u8, store: bool) -> Acc {
    super::acc(pc_idx, 0, 0, store)
}

/// A `w` × `d` × `t` unit with `warps` configured through the port (still IDLE).
fn configured(w: usize, d: usize, t: usize, warps: &[Warp]) -> ReorderModel {
    let mut m = ReorderModel::new(w, d, t).unwrap();
    let cfg: Vec<WarpConfig> = warps.iter().map(Warp::config).collect();
    for i in config_writes(&cfg) {
        assert_eq!(m.step(&i).state, state::IDLE);
    }
    m
}

/// Steps `m` through `inputs`, returning each cycle's outputs.
fn run_script(m: &mut ReorderModel, inputs: &[ReorderIn]) -> Vec<ReorderOut> {
    inputs.iter().map(|i| m.step(i)).collect()
}

/// The releases `(cycle, slot, tag)` of a scripted run (`rel_valid & rel_ready`).
fn releases(inputs: &[ReorderIn], outs: &[ReorderOut]) -> Vec<(usize, u8, u8)> {
    let taken = inputs.iter().zip(outs).enumerate();
    taken
        .filter(|(_, (i, o))| o.rel_valid && i.rel_ready)
        .map(|(c, (_, o))| (c, o.rel_slot, o.rel_tag))
        .collect()
}

/// The first cycle of `inputs` gets `start`.
fn with_start(mut inputs: Vec<ReorderIn>) -> Vec<ReorderIn> {
    inputs[0].start = true;
    inputs
}

/// The `(state, target)` outputs of a run.
fn states(outs: &[ReorderOut]) -> Vec<(u8, u8)> {
    outs.iter().map(|o| (o.state, o.target)).collect()
}

// ---------------------------------------------------------------- the paper's example

/// Table 1's mapping: B0W0 → slot 2, B0W1 → 3, B1W0 → 0, B1W1 → 1; block 0 loads pc_idx 0,
/// block 1 stores pc_idx 1 (the paper's worked example).
fn paper_warps() -> Vec<Warp> {
    let w = |slot, block, warp, a| Warp {
        slot,
        block,
        warp,
        wave: 0,
        accs: vec![a],
    };
    vec![
        w(2, 0, 0, acc(0, false)),
        w(3, 0, 1, acc(0, false)),
        w(0, 1, 0, acc(1, true)),
        w(1, 1, 1, acc(1, true)),
    ]
}

/// Fig. 7 with requests arriving in runtime order W0..W3 (pure RR): the unit waits at CH2
/// although CH0 and CH1 are full, then releases CH2, CH3, CH0, CH1, step by step.
#[test]
fn paper_fig7_walkthrough() {
    use state::*;
    let want = [
        (IDLE, 0),
        (SELECT, 0),
        (SEARCH, 2), // CH0, CH1 hold requests; CH2's arrives at this edge
        (SEARCH, 2),
        (ISSUE, 2),
        (SELECT, 2),
        (SEARCH, 3),
        (ISSUE, 3),
        (SELECT, 3),
        (SEARCH, 0),
        (ISSUE, 0),
        (SELECT, 0),
        (SEARCH, 1),
        (ISSUE, 1),
        (SELECT, 1),
        (DONE, 1),
    ];
    for (rule, parallel) in [(0, false), (0, true), (3, false), (3, true)] {
        let warps = paper_warps();
        let mut m = configured(4, 10, 4, &warps);
        let mut inputs = with_start(idle(want.len(), rule, parallel));
        for (c, slot) in [0, 1, 2, 3].into_iter().enumerate() {
            let w = warps.iter().find(|w| w.slot == slot).unwrap();
            put(&mut inputs, c, w.request(0));
        }
        let outs = run_script(&mut m, &inputs);
        assert_eq!(states(&outs), want, "rule {rule} parallel {parallel}");
        assert_eq!(outs[2].count, vec![1, 1, 0, 0]);
        let rel: Vec<_> = outs.iter().filter(|o| o.rel_valid).collect();
        let got: Vec<_> = rel
            .iter()
            .map(|o| (o.rel_slot, o.rel_store, o.rel_pc_idx))
            .collect();
        let fig7: [(u8, bool, u8); 4] = [(2, false, 0), (3, false, 0), (0, true, 1), (1, true, 1)];
        assert_eq!(got, fig7);
        assert_eq!(outs.last().unwrap().count, vec![0; 4]);
        assert_eq!((0..4).map(|s| m.head(s)).collect::<Vec<_>>(), [1; 4]);
    }
}

// ---------------------------------------------------- out-of-order arrival

/// One warp with I0 (pc_idx 0) and I1 (pc_idx 1) on slot 0.
fn two_instructions() -> Warp {
    Warp {
        slot: 0,
        block: 0,
        warp: 0,
        wave: 0,
        accs: vec![acc(0, false), acc(1, false)],
    }
}

/// One warp with I0 (pc 0x10) and I1 (pc 0x20): runs it with I1 presented in cycle 0 and I0 in
/// cycle `i0_at`; returns the outputs and the search pointer during each cycle.
fn out_of_order(parallel: bool, i0_at: usize) -> (Vec<ReorderOut>, Vec<u8>) {
    let w = two_instructions();
    let mut m = configured(1, 10, 2, std::slice::from_ref(&w));
    let mut inputs = with_start(idle(14, 3, parallel));
    put(&mut inputs, 0, w.request(1));
    put(&mut inputs, i0_at, w.request(0));
    let mut sp = Vec::new();
    let outs = inputs
        .iter()
        .map(|i| {
            sp.push(m.search_pointer());
            m.step(i)
        })
        .collect();
    (outs, sp)
}

/// The tags shown with `rel_valid` (every test using it keeps `rel_ready` = 1).
fn released_tags(outs: &[ReorderOut]) -> Vec<u8> {
    outs.iter()
        .filter(|o| o.rel_valid)
        .map(|o| o.rel_tag)
        .collect()
}

/// Number of SEARCH cycles of a run.
fn search_cycles(outs: &[ReorderOut]) -> usize {
    outs.iter().filter(|o| o.state == state::SEARCH).count()
}

/// I1 enqueued before I0; I0 is released first. Sequential: the search pointer
/// steps past I1 (3 SEARCH cycles in all); parallel: 2 SEARCH cycles.
#[test]
fn intra_warp_out_of_order_arrival() {
    let (outs, sp) = out_of_order(false, 1);
    assert_eq!(released_tags(&outs), [0, 1]);
    assert_eq!(outs[2].count, vec![2]);
    assert_eq!((outs[2].state, sp[2]), (state::SEARCH, 0)); // I1: no match
    assert_eq!((outs[3].state, sp[3]), (state::SEARCH, 1)); // I0: match
    assert_eq!(outs[4].state, state::ISSUE);
    assert_eq!(
        (outs[6].state, outs[6].expect_seq, sp[6]),
        (state::SEARCH, 1, 0)
    );
    assert_eq!(search_cycles(&outs), 3);
    assert_eq!(outs[9].state, state::DONE);

    let (outs, _) = out_of_order(true, 1);
    assert_eq!(released_tags(&outs), [0, 1]);
    assert_eq!(outs[3].state, state::ISSUE);
    assert_eq!(search_cycles(&outs), 2);
    assert_eq!(outs[8].state, state::DONE);
}

/// Sequential search wraps at the count, entries pushed meanwhile included: with I0 arriving
/// in cycle 3 the pointer reads I1 twice (wrapping to 0 at count 1), then moves to I0.
#[test]
fn sequential_pointer_wraps_and_includes_pushes() {
    let (outs, sp) = out_of_order(false, 3);
    let search: Vec<u8> = (0..outs.len())
        .filter(|&c| outs[c].state == state::SEARCH && outs[c].expect_seq == 0)
        .map(|c| sp[c])
        .collect();
    assert_eq!(search, [0, 0, 1]);
    assert_eq!(released_tags(&outs), [0, 1]);
}

// ---------------------------------------------------------- full channel

/// Credit gate: slot 1's warp issues 12 back-to-back stores (issued only while `free[1]`)
/// while the unit waits at slot 0; `free[1]` drops after D = 10, slot 0's request (cycle 20,
/// the port is free since slot 1 is gated) still gets through, then the 12 stores follow.
#[test]
fn credit_gate_full_channel() {
    let target = Warp {
        slot: 0,
        block: 0,
        warp: 0,
        wave: 0,
        accs: vec![acc(0, false)],
    };
    let stores = (0..12).map(|k| Acc { k, ..acc(1, true) }).collect();
    let storer = Warp {
        slot: 1,
        warp: 1,
        accs: stores,
        ..target.clone()
    };
    let mut m = configured(2, 10, 16, &[target.clone(), storer.clone()]);
    let (mut sent, mut target_sent, mut log) = (0, false, Vec::new());
    for c in 0..80 {
        let mut i = idle(1, 3, false)[0];
        i.start = c == 0;
        let free = m.outputs(&i).free;
        if c >= 20 && !target_sent {
            put(std::slice::from_mut(&mut i), 0, target.request(0));
        } else if sent < 12 && free & 2 != 0 {
            put(std::slice::from_mut(&mut i), 0, storer.request(sent));
        }
        let o = m.step(&i);
        if i.req_valid {
            assert!(o.req_ready, "cycle {c}: an issued request must be taken");
            if i.req_slot == 0 {
                target_sent = true;
            } else {
                sent += 1;
            }
        }
        if (10..20).contains(&c) {
            assert_eq!((o.free & 2, o.count[1], sent), (0, 10, 10), "cycle {c}");
            assert_eq!((o.state, o.target), (state::SEARCH, 0), "cycle {c}");
        }
        if o.rel_valid {
            log.push((o.rel_slot, o.rel_tag));
        }
    }
    let want: Vec<(u8, u8)> = std::iter::once((0, 0))
        .chain((0..12).map(|t| (1, t)))
        .collect();
    assert_eq!(log, want);
    assert_eq!(m.outputs(&ReorderIn::default()).state, state::DONE);
}

/// A full channel takes no push even in the cycle its entry leaves (`free` is the count
/// during the cycle); the push is taken the next cycle.
#[test]
fn full_channel_push_waits_for_the_pop() {
    let w = two_instructions();
    let mut m = configured(1, 1, 2, std::slice::from_ref(&w));
    let mut inputs = with_start(idle(12, 0, true));
    put(&mut inputs, 0, w.request(0));
    for c in 1..5 {
        put(&mut inputs, c, w.request(1));
    }
    let outs = run_script(&mut m, &inputs);
    assert_eq!(outs[3].state, state::ISSUE);
    assert!(!outs[3].req_ready && outs[3].free == 0);
    assert!(outs[4].req_ready && outs[4].count == vec![0]);
    assert_eq!(outs[5].count, vec![1]);
    let rel = releases(&inputs, &outs);
    assert_eq!(rel.iter().map(|r| r.2).collect::<Vec<_>>(), [0, 1]);
}

// ---------------------------------------------------------------- errors

/// Error 1: the entry with the expected sequence number has another `pc_idx` than the
/// trace head; ERROR holds (requests still land) until reset, which keeps the trace memory.
#[test]
fn error_pc_mismatch() {
    let w = two_instructions();
    let mut m = configured(2, 4, 2, std::slice::from_ref(&w));
    let mut inputs = with_start(idle(8, 3, false));
    put(&mut inputs, 0, request(0, 0, 1, false, 0));
    put(&mut inputs, 5, w.request(1));
    let outs = run_script(&mut m, &inputs);
    assert_eq!((outs[2].state, outs[2].error), (state::SEARCH, 0));
    for o in &outs[3..] {
        assert_eq!(
            (o.state, o.error, o.rel_valid),
            (state::ERROR, error::PC_MISMATCH, false)
        );
    }
    assert_eq!(m.channel(0).len(), 2);
    let o = m.step(&ReorderIn {
        reset: true,
        start: true,
        ..w.request(0)
    });
    assert!(!o.req_ready);
    let o = m.outputs(&ReorderIn::default());
    assert_eq!((o.state, o.error, o.count), (state::IDLE, 0, vec![0, 0]));
    assert_eq!((m.slot_map(0), m.trace_entry(0, 1)), (None, entry(1, 0, 0)));
}

/// Error 2: with `watchdog` = 5, SEARCH may wait 5 cycles; the 6th without a match errors.
/// A match in that 6th cycle does not; `watchdog` = 0 never errors.
#[test]
fn error_watchdog() {
    let w = two_instructions();
    let run = |watchdog: u16, arrive: Option<usize>| {
        let mut m = configured(1, 4, 2, std::slice::from_ref(&w));
        let mut inputs = with_start(idle(400, 3, false));
        inputs.iter_mut().for_each(|i| i.watchdog = watchdog);
        if let Some(c) = arrive {
            put(&mut inputs, c, w.request(0));
        }
        run_script(&mut m, &inputs)
    };
    let outs = run(5, None);
    assert!((2..=7).all(|c| outs[c].state == state::SEARCH));
    assert_eq!(
        (outs[8].state, outs[8].error),
        (state::ERROR, error::WATCHDOG)
    );
    let outs = run(5, Some(6));
    assert_eq!(outs[8].state, state::ISSUE);
    let outs = run(0, None);
    assert!(outs.iter().skip(2).all(|o| o.state == state::SEARCH));
}

/// Error 3: a request for an unmapped slot (or a slot ≥ W, whose `req_ready` is 0) errors
/// in any state, IDLE included, and is dropped.
#[test]
fn error_unmapped_slot() {
    let w = two_instructions();
    for (slot, at) in [(1, 3), (1, 0), (5, 3), (63, 1)] {
        let mut m = configured(4, 4, 2, std::slice::from_ref(&w));
        let mut inputs = with_start(idle(8, 3, false));
        put(&mut inputs, at, request(slot, 0, 0, false, 0));
        let outs = run_script(&mut m, &inputs);
        assert_eq!(outs[at].req_ready, slot < 4);
        assert_ne!(outs[at].state, state::ERROR);
        let o = &outs[at + 1];
        assert_eq!(
            (o.state, o.error, o.count.iter().sum::<u8>()),
            (state::ERROR, 3, 0)
        );
    }
}

/// One edge raises one error: the search's pc mismatch wins over an unmapped request.
#[test]
fn error_priority_search_over_unmapped() {
    let w = two_instructions();
    let mut m = configured(2, 4, 2, std::slice::from_ref(&w));
    let mut inputs = with_start(idle(4, 3, true));
    put(&mut inputs, 0, request(0, 0, 1, false, 0));
    put(&mut inputs, 2, request(1, 0, 0, false, 0));
    let outs = run_script(&mut m, &inputs);
    assert_eq!(outs[2].state, state::SEARCH);
    assert_eq!(
        (outs[3].state, outs[3].error),
        (state::ERROR, error::PC_MISMATCH)
    );
}

// ---------------------------------------------------------------- bypass

/// Bypass: the release port shows the request (arrival order), `req_ready` = `rel_ready`,
/// nothing is stored or checked against the map, the state stays IDLE and `start` is
/// ignored.
#[test]
fn bypass_is_arrival_order() {
    let mut m = configured(4, 2, 1, &paper_warps()[..1]);
    let arrivals = [(3, 7), (0, 1), (2, 9), (3, 2), (1, 4), (2, 3)];
    let mut inputs = idle(1 + 2 * arrivals.len(), 0, false);
    inputs
        .iter_mut()
        .for_each(|i| (i.bypass, i.start) = (true, true));
    for (n, &(slot, tag)) in arrivals.iter().enumerate() {
        put(
            &mut inputs,
            1 + 2 * n,
            request(slot, 0, tag, tag % 2 == 1, tag),
        );
        inputs[2 * n].rel_ready = false;
    }
    let outs = run_script(&mut m, &inputs);
    for (i, o) in inputs.iter().zip(&outs).skip(1) {
        assert_eq!(
            (o.rel_valid, o.rel_slot, o.rel_tag),
            (i.req_valid, i.req_slot, i.req_tag)
        );
        assert_eq!((o.rel_store, o.rel_pc_idx), (i.req_store, i.req_pc_idx));
        assert_eq!(
            (o.req_ready, o.state, o.error),
            (i.rel_ready, state::IDLE, 0)
        );
        assert_eq!(o.count, vec![0; 4]);
    }
    let rel = releases(&inputs, &outs);
    let got: Vec<_> = rel.iter().map(|r| (r.1, r.2)).collect();
    assert_eq!(got, arrivals);
}

// ---------------------------------------------------------------- configuration

/// Parameter validation.
#[test]
fn new_validates_parameters() {
    assert!(ReorderModel::new(48, 10, 64).is_ok());
    assert!(ReorderModel::new(64, 16, 256).is_ok());
    assert!(ReorderModel::new(1, 1, 1).is_ok());
    for (w, d, t) in [
        (0, 10, 8),
        (65, 10, 8),
        (4, 0, 8),
        (4, 17, 8),
        (4, 4, 0),
        (4, 4, 6),
    ] {
        assert!(ReorderModel::new(w, d, t).is_err(), "{w} {d} {t}");
    }
    assert!(ReorderModel::new(4, 4, 512).is_err());
}

/// The trace entry encoding and the configuration cycles.
#[test]
fn entry_and_config_writes() {
    assert_eq!(entry(0x12, 0x34, 0x5678), 0x5678_3412);
    let w = config_writes(&[(3, 1, 2, 0, vec![5, 6]), (0, 0, 0, 1, vec![])]);
    assert_eq!(w.len(), 4);
    assert!(w[..2]
        .iter()
        .all(|i| i.trace_we && !i.map_we && i.trace_slot == 3));
    assert_eq!((w[1].trace_index, w[1].trace_entry), (1, 6));
    assert_eq!(
        (w[2].map_slot, w[2].map_block, w[2].map_warp, w[2].map_len),
        (3, 1, 2, 2)
    );
    assert_eq!((w[3].map_slot, w[3].map_wave, w[3].map_len), (0, 1, 0));
    let mut m = ReorderModel::new(4, 4, 2).unwrap();
    run_script(&mut m, &w);
    assert_eq!((m.trace_entry(3, 0), m.trace_entry(3, 1)), (5, 6));
    let map = SlotMap {
        block: 1,
        warp: 2,
        wave: 0,
        len: 2,
    };
    assert_eq!((m.slot_map(3), m.slot_map(1)), (Some(map), None));
}

/// Writes outside IDLE are ignored (map writes also work in DONE, returning to IDLE); the
/// configuration registers hold outside IDLE; a map write with `map_len` > T is ignored;
/// the values at the `start` edge are the run's.
#[test]
fn configuration_only_while_idle() {
    let w = two_instructions();
    let mut m = configured(2, 4, 2, std::slice::from_ref(&w));
    let map = |len| ReorderIn {
        map_we: true,
        map_slot: 1,
        map_len: len,
        ..ReorderIn::default()
    };
    let trace = ReorderIn {
        trace_we: true,
        trace_entry: 9,
        rule: 1,
        bypass: true,
        ..ReorderIn::default()
    };
    m.step(&map(3));
    assert_eq!(m.slot_map(1), None);
    m.step(&ReorderIn {
        start: true,
        rule: 2,
        parallel: true,
        ..ReorderIn::default()
    });
    assert_eq!(m.config(), (2, true, false));
    run_script(&mut m, &[trace, map(1)]);
    let seen = (m.slot_map(1), m.trace_entry(0, 0), m.config());
    assert_eq!(seen, (None, 0, (2, true, false)));
    let mut inputs = idle(12, 0, false);
    put(&mut inputs, 0, w.request(0));
    put(&mut inputs, 1, w.request(1));
    let outs = run_script(&mut m, &inputs);
    assert_eq!(outs.last().unwrap().state, state::DONE);
    m.step(&trace);
    assert_eq!(
        (m.outputs(&trace).state, m.trace_entry(0, 0)),
        (state::DONE, 0)
    );
    m.step(&map(1));
    assert_eq!(m.outputs(&trace).state, state::IDLE);
    assert_eq!((m.slot_map(1).map(|s| s.len), m.head(0)), (Some(1), 2));
}

/// `start` with the `bypass` input set is ignored; `reset` overrides start, writes and
/// requests of its cycle.
#[test]
fn start_and_reset_priority() {
    let w = two_instructions();
    let mut m = configured(2, 4, 2, std::slice::from_ref(&w));
    let start = ReorderIn {
        start: true,
        bypass: true,
        ..ReorderIn::default()
    };
    m.step(&start);
    assert_eq!(m.outputs(&start).state, state::IDLE);
    let all = ReorderIn {
        reset: true,
        bypass: false,
        trace_we: true,
        trace_index: 1,
        trace_entry: 7,
        ..start
    };
    let o = m.step(&ReorderIn {
        map_we: true,
        ..all
    });
    assert!(!o.req_ready && !o.rel_valid);
    let o = m.outputs(&ReorderIn::default());
    let kept = (o.state, m.trace_entry(0, 1), m.slot_map(0));
    assert_eq!(kept, (state::IDLE, entry(1, 0, 0), None));
    assert_eq!(m.config(), (0, false, false));
}

/// A map write in the `start` cycle lands at the start edge: the first SELECT sees it.
#[test]
fn map_write_in_start_cycle_is_seen() {
    let w = Warp {
        slot: 3,
        ..two_instructions()
    };
    let cfg = config_writes(&[w.config()]);
    let (traces, map) = cfg.split_at(2);
    let mut m = ReorderModel::new(4, 4, 2).unwrap();
    run_script(&mut m, traces);
    let mut inputs = idle(4, 0, false);
    inputs[0] = ReorderIn {
        start: true,
        ..map[0]
    };
    let outs = run_script(&mut m, &inputs);
    assert_eq!(states(&outs), [(0, 0), (1, 0), (2, 3), (2, 3)]);
}

/// Each rule bit selects its key field; the wave is most significant, then (block, warp).
#[test]
fn rule_bits_select_key_fields() {
    let slot = |slot, block, warp, wave, a| Warp {
        slot,
        block,
        warp,
        wave,
        accs: vec![a],
    };
    let a = |pc_idx, epoch, k| Acc {
        pc_idx,
        epoch,
        k,
        store: false,
    };
    let warps = [
        slot(0, 0, 1, 0, a(1, 0, 1)),
        slot(1, 1, 0, 0, a(0, 1, 0)),
        slot(2, 0, 0, 1, a(0, 0, 0)),
        slot(3, 1, 1, 0, a(0, 1, 0)),
    ];
    for (rule, first) in [(0, 1), (1, 0), (2, 1), (3, 0)] {
        let mut m = configured(4, 4, 1, &warps);
        let outs = run_script(&mut m, &with_start(idle(3, rule, false)));
        assert_eq!(
            (outs[2].state, outs[2].target),
            (state::SEARCH, first),
            "rule {rule}"
        );
    }
}
