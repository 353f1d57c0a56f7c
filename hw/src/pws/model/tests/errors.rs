//! Unit tests of the PWS model's errors (their codes, contexts and priority) and of the
//! MERGE_WAIT watchdog.

use super::*;

#[test]
fn error_bad_command() {
    let mut b = Bench::new(config(4, 2, 3, 2));
    b.step(dispatch(0, 0, 0xF));
    for cmd in 5..=7 {
        b.reject(
            GroupIn {
                cmd,
                ..dispatch(0, 1, 0xF)
            },
            ErrorCode::BadCommand,
            0,
        );
    }
    // Unit or slot out of range, whatever the context's state would say.
    b.reject(dispatch(3, 1, 0xF), ErrorCode::BadCommand, 0);
    b.reject(split(0, 2, 0, 0), ErrorCode::BadCommand, 0);
    b.reject(merge(3, 0, 0), ErrorCode::BadCommand, 0);
    b.reject(end(0, 2), ErrorCode::BadCommand, 0);
    // NONE ignores unit and slot.
    let o = b.step(GroupIn {
        cmd_unit: 7,
        cmd_slot: 15,
        ..idle()
    });
    assert_eq!(o.error, 0);
}

#[test]
fn error_bad_dispatch() {
    let mut b = Bench::new(toy(3));
    b.step(dispatch(0, 0, 0xF));
    b.reject(dispatch(0, 0, 0x1), ErrorCode::BadDispatch, 0);
    // PWS: never to a SpSIMD, even an EMPTY one.
    b.reject(dispatch(2, 0, 0x1), ErrorCode::BadDispatch, 2);
    b.step(split(0, 0, 0b01, 0));
    // A SPLITTING context is in use.
    b.reject(dispatch(0, 0, 0xF), ErrorCode::BadDispatch, 0);
}

#[test]
fn error_empty_context() {
    let mut b = Bench::new(config(4, 2, 2, 2));
    b.reject(split(0, 0, 1, 0), ErrorCode::EmptyContext, 0);
    b.reject(merge(1, 1, 0), ErrorCode::EmptyContext, 3);
    b.reject(end(0, 1), ErrorCode::EmptyContext, 2);
    b.step(dispatch(0, 1, 0xF));
    b.step(end(0, 1));
    b.reject(split(0, 1, 1, 0), ErrorCode::EmptyContext, 2);
    b.reject(merge(0, 1, 0), ErrorCode::EmptyContext, 2);
    b.reject(end(0, 1), ErrorCode::EmptyContext, 2);
}

#[test]
fn error_busy_context() {
    let mut cfg = toy(3);
    cfg.params.e_split = 8;
    let mut b = Bench::new(cfg);
    b.step(dispatch(0, 0, 0xF));
    b.step(split(0, 0, 1, 0));
    // SPLITTING (cycles 2..=8), both the original and the new context.
    b.reject(split(0, 0, 1, 0), ErrorCode::BusyContext, 0);
    b.reject(merge(1, 0, 0), ErrorCode::BusyContext, 1);
    b.reject(end(1, 0), ErrorCode::BusyContext, 1);
    assert_eq!(b.t, 8);
    assert_eq!(b.states(), [SPLITTING, SPLITTING, EMPTY]);
    b.step(idle());
    assert_eq!(b.states(), [READY, READY, EMPTY]);
    // MERGE_WAIT.
    b.step(merge(0, 0, 0x30));
    b.reject(merge(0, 0, 0x30), ErrorCode::BusyContext, 0);
    b.reject(split(0, 0, 0, 0), ErrorCode::BusyContext, 0);
    // MERGING.
    b.step(merge(1, 0, 0x30));
    b.step(idle());
    assert_eq!(b.states(), [MERGING, EMPTY, EMPTY]);
    let mut reference = b.m.clone();
    reference.clock(&idle());
    let o = b.step(end(0, 0));
    assert_eq!((o.error, o.error_ctx), (ErrorCode::BusyContext as u8, 0));
    assert_eq!(b.m.ctx, reference.ctx);
    assert_eq!(b.states(), [READY, EMPTY, EMPTY]);
}

#[test]
fn error_end_live_splits() {
    let mut b = Bench::new(toy(2));
    b.step(dispatch(0, 0, 0xF));
    b.step(split(0, 0, 1, 0));
    b.run_to(5);
    b.reject(end(0, 0), ErrorCode::EndLiveSplits, 0);
    b.reject(end(1, 0), ErrorCode::EndLiveSplits, 1);
}

#[test]
fn error_split_overflow() {
    // S = 1.
    let mut b = Bench::new(toy(2));
    b.step(dispatch(0, 0, 0xF));
    b.step(split(0, 0, 1, 0));
    b.run_to(5);
    b.reject(split(0, 0, 2, 0), ErrorCode::SplitOverflow, 0);
    b.reject(split(1, 0, 2, 0), ErrorCode::SplitOverflow, 1);
    // S = 2, two slots: slot 1's SpSIMD contexts do not serve slot 0.
    let mut b = Bench::new(config(4, 2, 3, 2));
    b.step(dispatch(0, 0, 0xF));
    b.step(dispatch(0, 1, 0xF));
    b.step(split(0, 0, 1, 0)); // → ctx 1
    b.run_to(6);
    b.step(split(1, 0, 1, 0)); // → ctx 2
    b.run_to(11);
    assert_eq!(b.states(), [READY, READY, READY, READY, EMPTY, EMPTY]);
    b.reject(split(0, 0, 1, 0), ErrorCode::SplitOverflow, 0);
    b.reject(split(2, 0, 1, 0), ErrorCode::SplitOverflow, 2);
    let o = b.step(split(0, 1, 1, 0));
    assert_eq!((o.copy_from, o.copy_to), (3, 4));
}

/// PWS below the group's units runs as a group of S + 1: at S = 1 on four units the child's
/// own split finds no SpSIMD within 1..=1 (units 2 and 3 are free) and overflows; at S = 2 the
/// child's split takes unit 2, and that grandchild's split overflows, unit 3 being free but
/// above S (each splitting context's stack is empty, so only the limit refuses).
#[test]
fn pws_below_the_units_uses_the_first_s_plus_one() {
    for s in [1u8, 2] {
        let mut b = Bench::new(toy(4));
        b.s = s;
        b.step(dispatch(0, 0, 0xF));
        let o = b.step(split(0, 0, 1, 0));
        assert_eq!((o.copy_from, o.copy_to), (0, 1));
        b.run_to(6);
        if s == 1 {
            b.reject(split(1, 0, 2, 0), ErrorCode::SplitOverflow, 1);
            continue;
        }
        let o = b.step(split(1, 0, 2, 0));
        assert_eq!((o.copy_from, o.copy_to), (1, 2));
        b.run_to(12);
        b.reject(split(2, 0, 2, 0), ErrorCode::SplitOverflow, 2);
    }
}

/// The checks' order: the first failing check names the error.
#[test]
fn error_priority() {
    let mut b = Bench::new(toy(2));
    // Bad unit beats empty context.
    b.reject(split(2, 0, 0, 0), ErrorCode::BadCommand, 0);
    b.step(dispatch(0, 0, 0xF));
    b.step(split(0, 0, 1, 0));
    // Busy beats end-with-children and overflow.
    b.reject(end(0, 0), ErrorCode::BusyContext, 0);
    b.reject(split(0, 0, 1, 0), ErrorCode::BusyContext, 0);
    // A command error beats an expired context in the same cycle.
    assert_eq!(b.t, 8);
    assert_eq!(b.states(), [READY, READY]);
    b.watchdog = 2;
    b.step(merge(1, 0, 0x10)); // ctx1 waits from cycle 9: timer 2 in cycle 11.
    b.run_to(11);
    assert_eq!(b.out().error, 0);
    let o = b.step(end(0, 0));
    assert_eq!((o.error, o.error_ctx), (ErrorCode::EndLiveSplits as u8, 0));
    let o = b.step(idle());
    assert_eq!((o.error, o.error_ctx), (ErrorCode::MergeWatchdog as u8, 1));
}

/// Merge watchdog: a context entering MERGE_WAIT at the edge ending cycle t is expired from
/// cycle t + 1 + W, reported from cycle t + 2 + W, every cycle while it waits.
#[test]
fn watchdog() {
    let mut b = Bench::new(toy(2));
    b.watchdog = 5;
    b.step(dispatch(0, 0, 0xF));
    b.step(split(0, 0, 1, 0));
    b.run_to(5);
    b.step(merge(0, 0, 0x10)); // t = 5
    for t in 6..=11 {
        assert_eq!(b.run_to(t).error, 0, "cycle {t}");
    }
    for t in 12..=15 {
        let o = b.run_to(t);
        assert_eq!((o.error, o.error_ctx), (2, 0), "cycle {t}");
    }
    // The partner arrives at cycle 15; in cycle 16 (r) ctx0 is still waiting and expired.
    let o = b.step(merge(1, 0, 0x10));
    assert_eq!((o.error, o.error_ctx), (2, 0));
    let o = b.step(idle());
    assert_eq!((o.error, o.error_ctx), (2, 0), "reported for cycle 16");
    assert_eq!(b.states(), [MERGING, EMPTY]);
    let o = b.step(idle());
    assert_eq!((o.error, o.error_ctx), (0, 0));
    assert_eq!(b.states(), [READY, EMPTY]);
}

#[test]
fn watchdog_bound_1_and_off() {
    let mut b = Bench::new(toy(2));
    b.step(dispatch(0, 0, 0xF));
    b.step(split(0, 0, 1, 0));
    b.run_to(5);
    b.step(merge(1, 0, 0x10)); // waits from cycle 6 (timer 0)
    b.run_to(1000);
    assert_eq!(b.out().error, 0, "0 = off");
    // Turning it on reports at once (the timer kept counting).
    b.watchdog = 1;
    let o = b.step(idle());
    assert_eq!((o.error, o.error_ctx), (2, 1));
    // A bound above the timer clears it again.
    b.watchdog = 2000;
    assert_eq!(b.step(idle()).error, 0);
    b.watchdog = 0;
    // Bound 1: expired in the second waiting cycle.
    let mut b = Bench::new(toy(2));
    b.watchdog = 1;
    b.step(dispatch(0, 0, 0xF));
    b.step(split(0, 0, 1, 0));
    b.run_to(5);
    b.step(merge(1, 0, 0x10));
    assert_eq!(b.run_to(7).error, 0);
    assert_eq!(b.run_to(8).error, 2);
    // SPLITTING and MERGING are never expired.
    let mut b = Bench::new(toy(2));
    b.watchdog = 1;
    b.step(dispatch(0, 0, 0xF));
    b.step(split(0, 0, 1, 0));
    for _ in 0..5 {
        assert_eq!(b.step(idle()).error, 0);
    }
}

/// The lowest expired context is named.
#[test]
fn watchdog_lowest_context() {
    let mut b = Bench::new(toy(3));
    b.watchdog = 10;
    b.step(dispatch(0, 0, 0xF));
    b.step(split(0, 0, 1, 0));
    b.run_to(5);
    b.step(split(0, 0, 2, 0));
    b.run_to(9);
    b.step(merge(2, 0, 0x10)); // t = 9: expired from 20, reported from 21
    b.step(merge(1, 0, 0x20)); // t = 10: expired from 21, reported from 22
    b.step(merge(0, 0, 0x30)); // t = 11 (partner 2, other pc): reported from 23
    assert_eq!(b.run_to(20).error, 0);
    assert_eq!((b.run_to(21).error, b.out().error_ctx), (2, 2));
    assert_eq!((b.run_to(22).error, b.out().error_ctx), (2, 1));
    assert_eq!((b.run_to(23).error, b.out().error_ctx), (2, 0));
    assert_eq!(b.states(), [MERGE_WAIT, MERGE_WAIT, MERGE_WAIT]);
}

/// The MERGE_WAIT timer saturates at 0xFFFF: with bound 0xFFFF the error appears and stays.
#[test]
fn watchdog_saturation() {
    let mut b = Bench::new(toy(2));
    b.watchdog = 0xFFFF;
    b.step(dispatch(0, 0, 0xF));
    b.step(split(0, 0, 1, 0));
    b.run_to(5);
    b.step(merge(1, 0, 0x10)); // timer n in cycle 6 + n
    let expired = 6 + 0xFFFF;
    assert_eq!(b.run_to(expired).error, 0);
    assert_eq!(b.m.ctx[1].timer, 0xFFFF);
    for t in expired + 1..expired + 100 {
        let o = b.run_to(t);
        assert_eq!((o.error, o.error_ctx), (2, 1), "cycle {t}");
    }
    assert_eq!(b.m.ctx[1].timer, 0xFFFF);
}
