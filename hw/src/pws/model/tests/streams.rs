//! Unit tests of the PWS model's edge cases (a merge and a split at one edge, reset, port
//! widths), DWS, and random command streams checked against the state invariants.

use super::*;

/// A rendezvous completing at the same edge as a split of the same WF: live gets both.
#[test]
fn merge_and_split_same_edge() {
    let mut b = Bench::new(toy(4));
    b.step(dispatch(0, 0, 0xF));
    b.step(split(0, 0, 0b11, 0b01)); // 0: 0x7, 1: 0x8
    b.run_to(5);
    b.step(split(0, 0, 0b01, 0)); // 0: 0x1, 2: 0x6
    b.run_to(9);
    assert_eq!(b.m.live(0), 2);
    b.step(merge(0, 0, 0x50)); // cycle 9
    b.step(merge(2, 0, 0x50)); // cycle 10: rendezvous, merge at the edge ending 11
    let o = b.step(split(1, 0, 0, 0b10)); // cycle 11: ctx 2 is not free yet → ctx 3
    assert_eq!((o.copy_from, o.copy_to), (1, 3));
    assert_eq!(b.states(), [MERGING, SPLITTING, EMPTY, SPLITTING]);
    assert_eq!(b.spms(), [0x7, 0x8, 0, 0]);
    assert_eq!(b.m.live(0), 2);
    assert_eq!(b.m.stack(0), [1]);
    assert_eq!(b.m.stack(1), [3]);
    assert_eq!(b.m.root(3), 0);
    // S = 2 (units 3): the same split overflows, since ctx 2 is still in MERGE_WAIT.
    let mut b = Bench::new(toy(3));
    b.step(dispatch(0, 0, 0xF));
    b.step(split(0, 0, 0b11, 0b01));
    b.run_to(5);
    b.step(split(0, 0, 0b01, 0));
    b.run_to(9);
    b.step(merge(0, 0, 0x50));
    b.step(merge(2, 0, 0x50));
    b.reject(split(1, 0, 0, 0b10), ErrorCode::SplitOverflow, 1);
    assert_eq!(b.states(), [READY, READY, EMPTY]);
    assert_eq!(b.m.live(0), 1);
}

/// Reset mid-sequence returns to power-up outputs; the reset cycle's command is ignored.
#[test]
fn reset_mid_sequence() {
    let mut b = Bench::new(toy(3));
    b.watchdog = 1;
    b.step(dispatch(0, 0, 0xF));
    b.step(split(0, 0, 0b11, 0b10));
    b.run_to(5);
    b.step(split(0, 0, 0b11, 0));
    b.run_to(9);
    b.step(merge(1, 0, 0x10));
    b.step(merge(2, 0, 0x20));
    b.run_to(12);
    let o = b.step(merge(0, 0, 0x20)); // rendezvous pending
    assert_eq!(o.error, 2);
    let o = b.step(GroupIn {
        reset: true,
        ..dispatch(0, 0, 0xF)
    });
    assert_eq!(o.ctx.iter().filter(|c| **c != CtxOut::default()).count(), 0);
    assert_power_up(&b);
    // Reset with a copy strobe and an error pending.
    b.step(dispatch(0, 0, 0xF));
    let o = b.step(split(0, 0, 1, 1));
    assert!(o.copy_valid);
    b.step(GroupIn {
        reset: true,
        ..split(0, 0, 1, 1)
    });
    assert_power_up(&b);
    b.step(end(0, 0));
    assert_eq!(b.out().error, ErrorCode::EmptyContext as u8);
    b.step(GroupIn {
        reset: true,
        ..idle()
    });
    assert_power_up(&b);
    // Usable again.
    b.step(dispatch(0, 0, 0x6));
    b.step(split(0, 0, 0b10, 0));
    assert_eq!(b.spms(), [0x2, 0x4, 0]);
}

/// Command ports are as wide as the contract says.
#[test]
fn port_widths() {
    let mut b = Bench::new(config(4, 2, 2, 2));
    // cmd 9 is cmd 1 on a 3-bit port; unit 8 is unit 0; slot 17 is slot 1.
    b.step(GroupIn {
        cmd: 9,
        cmd_unit: 8,
        cmd_slot: 17,
        cmd_mask: 0xF,
        ..idle()
    });
    assert_eq!(b.states(), [EMPTY, EMPTY, READY, EMPTY]);
}

/// DWS: splits take the lowest free slot on the same unit; slots are the relative ids;
/// a split is refused when the WF already has S descendants.
#[test]
fn dws_split_and_merge() {
    // S = 2, 4 slots; contexts k = slot * 3 + unit; unit 1 holds 1, 4, 7, 10.
    let mut b = Bench::dws(config(4, 2, 3, 4));
    b.step(dispatch(1, 1, 0xF)); // k 4
    assert_eq!(b.m.root(4), 1);
    // Split: M = lanes 0 and 2 → the lowest free slot on unit 1 is slot 0 (k 1).
    let o = b.step(split(1, 1, 0b01, 0b01));
    assert_eq!((o.copy_valid, o.copy_from, o.copy_to), (true, 4, 1));
    assert_eq!(o.ctx[4].spm, 0x5);
    assert_eq!(o.ctx[1].spm, 0xA);
    assert_eq!((o.ctx[1].parent_valid, o.ctx[1].parent), (true, 1));
    assert_eq!((o.ctx[4].sp, o.ctx[4].top), (1, 0));
    assert_eq!(b.m.stack(4), [0]);
    assert_eq!(b.m.root(1), 1);
    assert_eq!(b.m.live(4), 1);
    assert_eq!(o.ctx[1].state, SPLITTING);
    b.run_to(5);
    assert_eq!((b.out().ctx[4].state, b.out().ctx[1].state), (READY, READY));
    // The SWF in slot 0 splits: the lowest free slot is now 2 (k 7).
    let o = b.step(split(1, 0, 0b10, 0));
    assert_eq!((o.copy_from, o.copy_to), (1, 7));
    assert_eq!((o.ctx[1].spm, o.ctx[7].spm), (0x2, 0x8));
    assert_eq!(
        (o.ctx[7].parent, b.m.root(7), b.m.stack(1)),
        (0, 1, vec![2])
    );
    assert_eq!(b.m.live(4), 2);
    b.run_to(9);
    // live = S: every context of the WF is refused, though slot 3 is free.
    for (unit, slot) in [(1, 1), (1, 0), (1, 2)] {
        let before = b.m.clone();
        let o = b.step(split(unit, slot, 1, 0));
        assert!(o.split_denied);
        assert_eq!((o.error, o.copy_valid), (0, false));
        assert_eq!(b.m.ctx, before.ctx);
        let o = b.step(idle());
        assert!(!o.split_denied, "one-cycle strobe");
    }
    // Inner merge (k 7 first, partner = parent slot 0), then k 1 (top = slot 2).
    let t = b.t;
    b.step(merge(1, 2, 0x10));
    b.step(merge(1, 0, 0x10));
    b.step(idle());
    assert_eq!(
        (b.out().ctx[1].state, b.out().ctx[7].state),
        (MERGING, EMPTY)
    );
    b.run_to(t + 4);
    assert_eq!(b.out().ctx[1].state, READY);
    assert_eq!(b.out().ctx[1].spm, 0xA);
    assert_eq!(b.m.live(4), 1);
    // A split is allowed again (live 1 < S).
    let o = b.step(split(1, 1, 0b01, 0));
    assert_eq!((o.copy_from, o.copy_to), (4, 7));
    assert_eq!(b.m.stack(4), [0, 2]);
    b.run_to(b.t + 3);
    // Merge k 4 with k 7 (top), then with k 1.
    b.step(merge(1, 1, 0x30));
    b.step(merge(1, 2, 0x30));
    b.run_to(b.t + 2);
    assert_eq!(b.out().ctx[4].spm, 0x5);
    b.step(merge(1, 0, 0x40));
    b.step(merge(1, 1, 0x40));
    b.run_to(b.t + 2);
    let o = b.out();
    assert_eq!((o.ctx[4].state, o.ctx[4].spm, o.ctx[4].sp), (READY, 0xF, 0));
    assert_eq!((o.ctx[1].state, o.ctx[7].state), (EMPTY, EMPTY));
    assert_eq!(b.m.live(4), 0);
    // Other units were never touched.
    for k in (0..12).filter(|k| k % 3 != 1) {
        assert_eq!(o.ctx[k], CtxOut::default());
    }
}

#[test]
fn dws_takes_a_done_slot() {
    // S = 1, 2 slots per unit: k 0 and k 2 on unit 0; k 2's wavefront ends.
    let mut b = Bench::dws(config(4, 2, 2, 2));
    b.step(dispatch(0, 0, 0xF));
    b.step(dispatch(0, 1, 0xF));
    b.step(end(0, 1));
    // A DONE context with no parent is free (docs/assumptions.md#A21: "a free WF context on the
    // same SIMD").
    let o = b.step(split(0, 0, 0b11, 0));
    assert_eq!((o.copy_valid, o.copy_from, o.copy_to), (true, 0, 2));
    assert_eq!(
        (o.ctx[2].parent_valid, o.ctx[2].parent, o.ctx[2].spm),
        (true, 0, 0xC)
    );
    assert_eq!(o.ctx[2].state, State::Splitting as u8);
}

#[test]
fn dws_denials() {
    // S = 1, 2 slots per unit.
    let mut b = Bench::dws(config(4, 2, 2, 2));
    // Dispatch to any unit is fine in DWS.
    b.step(dispatch(0, 0, 0xF)); // k 0
    b.step(dispatch(0, 1, 0xF)); // k 2
                                 // No free slot on unit 0 (unit 1 is free but not in the family).
    let before = b.m.clone();
    let o = b.step(split(0, 0, 1, 0));
    assert!(o.split_denied);
    assert_eq!(o.error, 0);
    assert_eq!(b.m.ctx, before.ctx);
    b.step(end(0, 1));
    // On unit 1: the split takes slot 1 (k 3); then sp = S and live = S: refused.
    b.step(dispatch(1, 0, 0xF)); // k 1
    let o = b.step(split(1, 0, 0b11, 0));
    assert_eq!((o.copy_valid, o.copy_from, o.copy_to), (true, 1, 3));
    assert_eq!((o.ctx[3].parent, o.ctx[1].top), (0, 1));
    b.run_to(b.t + 3);
    let o = b.step(split(1, 0, 0b11, 0));
    assert!(o.split_denied);
    let o = b.step(split(1, 1, 0b11, 0));
    assert!(o.split_denied);
    // Checks 1..3 still come first.
    b.reject(split(0, 1, 1, 0), ErrorCode::EmptyContext, 2);
    b.step(merge(1, 0, 0));
    b.reject(split(1, 0, 1, 0), ErrorCode::BusyContext, 1);
    // The merge completes as in PWS.
    b.step(merge(1, 1, 0));
    b.run_to(b.t + 2);
    assert_eq!(b.states(), [READY, READY, DONE, EMPTY]);
}

/// S comes from the `s` input, not from UNITS: a two-unit group under DWS with S = 3 splits a
/// wavefront three times into its unit's free slots (stack depth 3, live 3) and refuses the
/// fourth though a slot is still free; under PWS with S = 0 every split overflows.
#[test]
fn s_is_an_input() {
    // 2 units, 5 slots: unit 0 holds k 0, 2, 4, 6, 8.
    let mut b = Bench::dws(config(4, 2, 2, 5));
    b.s = 3;
    b.step(dispatch(0, 0, 0xF));
    for (lanes, to) in [(0b0001, 2), (0b0011, 4), (0b0111, 6)] {
        let o = b.step(split(0, 0, lanes, 0));
        assert_eq!((o.copy_valid, o.copy_from, o.copy_to), (true, 0, to));
        b.run_to(b.t + 4);
    }
    assert_eq!((b.m.stack(0), b.m.live(0)), (vec![1, 2, 3], 3));
    assert_eq!(b.out().ctx[8].state, EMPTY, "slot 4 is free");
    let o = b.step(split(0, 0, 1, 0));
    assert!(o.split_denied, "live = S = 3");
    // The same group with S = 1 refuses the second split.
    let mut b = Bench::dws(config(4, 2, 2, 4));
    b.step(dispatch(0, 0, 0xF));
    assert!(b.step(split(0, 0, 1, 0)).copy_valid);
    b.run_to(b.t + 4);
    assert!(b.step(split(0, 0, 1, 0)).split_denied, "live = S = 1");
    // PWS with S = 0: the stack is full from the start.
    let mut b = Bench::new(config(4, 2, 2, 1));
    b.s = 0;
    b.step(dispatch(0, 0, 0xF));
    b.reject(split(0, 0, 1, 0), ErrorCode::SplitOverflow, 0);
}

/// Random command streams: the model never panics and keeps its bookkeeping consistent.
#[test]
fn random_streams_keep_invariants() {
    let mut rng = 0x2545_F491_4F6C_DD1Du64;
    let mut next = move || {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng
    };
    let (mut copies, mut rendezvous, mut denials) = (0, 0, 0);
    for round in 0..40 {
        let dws = round % 2 == 1;
        let units = 2 + (next() % 7) as usize;
        let n_wfc = 1 + (next() % 4) as usize;
        let lanes = [4, 8, 32, 64][(next() % 4) as usize];
        let mut cfg = config(lanes, lanes / 2, units, n_wfc);
        cfg.params.e_split = 1 + (next() % 4) as u8;
        cfg.params.e_merge = 1 + (next() % 3) as u8;
        let mut b = Bench::new(cfg);
        b.dws = dws;
        b.watchdog = 40;
        for _ in 0..3000 {
            let r = next();
            let unit = (r % units as u64) as u8;
            let slot = (r >> 8) as u8 % n_wfc as u8;
            let inp = match (r >> 16) % 16 {
                0..=1 => dispatch(if dws { unit } else { 0 }, slot, next()),
                2..=5 => split(unit, slot, next() as u32, next() as u32),
                6..=10 => merge(unit, slot, u32::from((r >> 24) % 8 == 0)),
                11 => end(unit, slot),
                12 if (r >> 32) % 64 == 0 => GroupIn {
                    reset: true,
                    ..idle()
                },
                12 => GroupIn {
                    cmd: 5 + (r >> 40) as u8 % 3,
                    ..idle()
                },
                _ => idle(),
            };
            let o = b.step(inp);
            check_invariants(&b.m, dws);
            copies += usize::from(o.copy_valid);
            rendezvous += usize::from(b.m.rendezvous.is_some());
            denials += usize::from(o.split_denied);
        }
    }
    // The streams reach the interesting cases.
    assert!(copies > 1000, "{copies} splits");
    assert!(rendezvous > 500, "{rendezvous} merges");
    assert!(denials > 100, "{denials} denials");
}

fn check_invariants(m: &SimdGroupModel, dws: bool) {
    let cfg = m.config();
    let s = cfg.units - 1;
    for (k, c) in m.ctx.iter().enumerate() {
        assert!(c.stack.len() <= s);
        assert_eq!(c.spm & !lane_mask(cfg.lanes), 0);
        if c.state == State::Empty {
            assert_eq!(*c, Context::empty(), "EMPTY context {k} not clear");
        }
        for &child in c.stack.as_slice() {
            let ck = m.member(k, child, dws);
            assert_eq!(
                m.ctx[ck].parent,
                Some(m.rel_id(k, dws)),
                "ctx {k} child {ck}"
            );
            assert_eq!(m.ctx[ck].root, c.root);
        }
        if let Some(p) = c.parent {
            let pk = m.member(k, p, dws);
            assert!(m.ctx[pk].stack.as_slice().contains(&m.rel_id(k, dws)));
        } else if !matches!(c.state, State::Empty) {
            // An original context: its live counts its descendants, whose SpMs are
            // disjoint from each other and from its own.
            assert_eq!(c.root, m.rel_id(k, dws));
            let members: Vec<usize> = m
                .family(k, dws)
                .filter(|&j| m.ctx[j].parent.is_some() && m.ctx[j].root == c.root)
                .collect();
            assert_eq!(usize::from(c.live), members.len(), "live of {k}");
            assert!(members.len() <= s);
            let mut union = c.spm;
            for j in members {
                assert_eq!(union & m.ctx[j].spm, 0, "overlapping SpMs");
                union |= m.ctx[j].spm;
            }
        }
    }
}
