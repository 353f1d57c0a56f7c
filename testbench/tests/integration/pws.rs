//! The PWS split/merge unit (hw/src/pws/) on its RTL: the paper's examples bit for bit, every
//! error code at its cycle without side effects, DWS mode, constant costs, and random command
//! streams where RTL == reference model and the invariants hold every cycle.

use proptest::prelude::*;
use rtgpu_hw::pws::model::{GroupIn, GroupOut};
use rtgpu_hw::pws::{Cmd, ErrorCode, PwsParams, State};
use rtgpu_testbench::tb::pws::{self, command as cmd, run_script, Kind, PwsTb};
use rtgpu_testbench::tb::TbOptions;

fn reset() -> GroupIn {
    GroupIn {
        reset: true,
        ..GroupIn::default()
    }
}

fn idle() -> GroupIn {
    GroupIn::default()
}

/// `script` with `dws` and `watchdog` on every cycle.
fn with_mode(mut script: Vec<GroupIn>, dws: bool, watchdog: u16) -> Vec<GroupIn> {
    for i in &mut script {
        i.dws = dws;
        i.watchdog = watchdog;
    }
    script
}

/// Runs a script on `tb`'s shape; RTL == model and the invariants are checked inside.
fn outputs(tb: &PwsTb, script: &[GroupIn]) -> Vec<GroupOut> {
    match run_script(tb, script) {
        Ok(run) => run.outputs,
        Err(e) => panic!("{e}"),
    }
}

fn state(out: &GroupOut, k: usize) -> State {
    State::from_code(out.ctx[k].state).expect("a state code")
}

/// Context k of the S = 1 shape: slot * 2 + unit.
const U0S0: usize = 0;
const U1S0: usize = 1;
const U0S1: usize = 2;

/// Dispatch all lanes to u0/s0 at cycle 1, split it at cycle 2 (both READY at 6).
fn split_prefix(mask: u64) -> Vec<GroupIn> {
    let mut s = vec![
        reset(),
        cmd(Cmd::Dispatch, 0, 0, u64::MAX, 0),
        cmd(Cmd::Split, 0, 0, mask, 0),
    ];
    s.extend([idle(); 3]);
    s
}

/// Asserts that the command at cycle `at` of `script` raises `code` about context `ctx` in
/// cycle `at + 1` only, and otherwise changes nothing: every output of every cycle equals that
/// of the same script with an idle cycle in its place, apart from the error register.
fn assert_rejected(script: Vec<GroupIn>, at: usize, code: ErrorCode, ctx: u8) {
    let tb = &pws::S1;
    let got = outputs(tb, &script);
    let mut quiet = script.clone();
    quiet[at] = GroupIn {
        dws: script[at].dws,
        watchdog: script[at].watchdog,
        ..idle()
    };
    let want = outputs(tb, &quiet);
    assert_eq!(
        (got[at + 1].error, got[at + 1].error_ctx),
        (code as u8, ctx),
        "{}",
        code.name()
    );
    for (k, (g, w)) in got.iter().zip(&want).enumerate() {
        let strip = |o: &GroupOut| GroupOut {
            error: 0,
            error_ctx: 0,
            ..o.clone()
        };
        assert_eq!(strip(g), strip(w), "{}: cycle {k} differs", code.name());
        if k != at + 1 {
            assert_eq!(
                g.error,
                w.error,
                "{}: error outside cycle {}",
                code.name(),
                at + 1
            );
        }
    }
}

#[test]
fn fig5_golden_values_on_the_rtl() {
    let run = pws::simulate(&pws::FIG5, &TbOptions::default(), &mut pws::Fig5Stim)
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!((run.coverage.splits, run.coverage.merges), (2, 2));
    assert_eq!(run.coverage.max_sp, 2);
    // The rows checked inside the run, once more from the outputs: 1101/0010 → 1100/0010/0001.
    assert_eq!(
        [0, 1, 2].map(|k| run.outputs[10].ctx[k].spm),
        [0x3, 0x4, 0x8]
    );
    assert_eq!(run.outputs[22].ctx[0].spm, 0xF);
    assert!(pws::fig5_expected()
        .iter()
        .all(|r| r.cycle < pws::FIG5_CYCLES));
}

#[test]
fn fig3b_split_and_merge_on_the_toy_configuration() {
    // s0 = "11" (lanes 0, 1), s1 = "00": SWF1 = "1100" = 0x3, SWF2 = "0011" = 0xC.
    let mut script = vec![
        reset(),
        cmd(Cmd::Dispatch, 0, 0, 0xF, 0),
        cmd(Cmd::Split, 0, 0, 0b11, 0),
    ];
    script.extend([idle(); 3]);
    script.push(cmd(Cmd::Merge, 1, 0, 0, 0x10));
    script.push(cmd(Cmd::Merge, 0, 0, 0, 0x10));
    script.extend([idle(); 3]);
    let out = outputs(&pws::FIG5, &script);
    assert_eq!((out[3].ctx[0].spm, out[3].ctx[1].spm), (0x3, 0xC));
    assert_eq!(state(&out[8], 0), State::MergeWait);
    assert_eq!((out[9].ctx[0].spm, state(&out[9], 1)), (0xF, State::Empty));
    assert_eq!(state(&out[10], 0), State::Ready);
}

#[test]
fn split_at_64_lanes_takes_ssrc0_then_ssrc1() {
    let mut s = split_prefix(0xFFFF_0000_0000_FFFF);
    s.push(idle());
    let out = outputs(&pws::S1, &s);
    assert_eq!(out[3].ctx[U0S0].spm, 0xFFFF_0000_0000_FFFF);
    assert_eq!(out[3].ctx[U1S0].spm, 0x0000_FFFF_FFFF_0000);
    assert!(out[3].copy_valid);
    assert_eq!((out[3].copy_from, out[3].copy_to), (0, 1));
    assert_eq!(
        (state(&out[5], U0S0), state(&out[6], U0S0)),
        (State::Splitting, State::Ready)
    );
}

#[test]
fn costs_are_constant_and_one_cycle_costs_skip_the_busy_states() {
    let fast = PwsTb {
        config: rtgpu_hw::pws::model::ModelConfig {
            params: PwsParams {
                half: 32,
                e_split: 1,
                e_merge: 1,
            },
            ..pws::S1.config
        },
        ..pws::S1
    };
    let script = vec![
        reset(),
        cmd(Cmd::Dispatch, 0, 0, u64::MAX, 0),
        cmd(Cmd::Split, 0, 0, 0xF0, 0),
        cmd(Cmd::Merge, 1, 0, 0, 0x20),
        cmd(Cmd::Merge, 0, 0, 0, 0x20),
        idle(),
        idle(),
    ];
    let out = outputs(&fast, &script);
    assert_eq!([state(&out[3], 0), state(&out[3], 1)], [State::Ready; 2]);
    assert_eq!(
        [state(&out[5], 0), state(&out[5], 1)],
        [State::MergeWait; 2]
    );
    assert_eq!(
        (state(&out[6], 0), state(&out[6], 1)),
        (State::Ready, State::Empty)
    );
    assert_eq!(out[6].ctx[0].spm, u64::MAX);
}

#[test]
fn split_overflow() {
    let mut s = split_prefix(0xFF);
    s.push(cmd(Cmd::Split, 0, 0, 0xF, 0)); // cycle 6: S = 1 and the SpSIMD context is taken
    s.extend([idle(); 2]);
    assert_rejected(s, 6, ErrorCode::SplitOverflow, U0S0 as u8);
}

#[test]
fn busy_context() {
    let mut s = split_prefix(0xFF);
    s.insert(3, cmd(Cmd::Merge, 1, 0, 0, 0x40)); // cycle 3: the child is still SPLITTING
    assert_rejected(s, 3, ErrorCode::BusyContext, U1S0 as u8);
}

#[test]
fn empty_context() {
    let mut s = split_prefix(0xFF);
    s.push(cmd(Cmd::Split, 0, 1, 0xF, 0)); // cycle 6: u0/s1 was never dispatched
    s.push(idle());
    assert_rejected(s.clone(), 6, ErrorCode::EmptyContext, U0S1 as u8);
    s[6] = cmd(Cmd::Merge, 0, 1, 0, 0x40);
    assert_rejected(s, 6, ErrorCode::EmptyContext, U0S1 as u8);
}

#[test]
fn end_with_live_splits() {
    let mut s = split_prefix(0xFF);
    s.push(cmd(Cmd::End, 0, 0, 0, 0)); // cycle 6: the root still has a child
    s.push(idle());
    assert_rejected(s.clone(), 6, ErrorCode::EndLiveSplits, U0S0 as u8);
    s[6] = cmd(Cmd::End, 1, 0, 0, 0); // the child has a parent
    assert_rejected(s, 6, ErrorCode::EndLiveSplits, U1S0 as u8);
}

#[test]
fn bad_dispatch() {
    let mut s = split_prefix(0xFF);
    s.push(cmd(Cmd::Dispatch, 1, 1, u64::MAX, 0)); // cycle 6: PWS dispatches to unit 0 only
    s.push(idle());
    assert_rejected(s.clone(), 6, ErrorCode::BadDispatch, 3);
    s[6] = cmd(Cmd::Dispatch, 0, 0, u64::MAX, 0); // u0/s0 is running
    assert_rejected(s, 6, ErrorCode::BadDispatch, U0S0 as u8);
}

#[test]
fn bad_command() {
    for wrong in [
        cmd(Cmd::Dispatch, 2, 0, u64::MAX, 0), // unit 2 of a group with S = 1
        cmd(Cmd::Split, 0, 4, 0xF, 0),         // slot 4 of 4
        GroupIn { cmd: 5, ..idle() },
    ] {
        let mut s = split_prefix(0xFF);
        s.push(wrong);
        s.push(idle());
        assert_rejected(s, 6, ErrorCode::BadCommand, 0);
    }
}

#[test]
fn merge_watchdog_fires_after_its_bound_and_a_late_partner_still_merges() {
    let mut s = split_prefix(0xFF);
    s.push(cmd(Cmd::Merge, 1, 0, 0, 0x40)); // cycle 6: MERGE_WAIT from cycle 7, timer 0
    s.extend([idle(); 7]);
    s.push(cmd(Cmd::Merge, 0, 0, 0, 0x40)); // cycle 14: the partner; rendezvous in cycle 15
    s.extend([idle(); 3]);
    let out = outputs(&pws::S1, &with_mode(s.clone(), false, 5));
    let errors: Vec<(usize, u8, u8)> = out
        .iter()
        .enumerate()
        .filter(|(_, o)| o.error != 0)
        .map(|(k, o)| (k, o.error, o.error_ctx))
        .collect();
    let expected: Vec<(usize, u8, u8)> = (13..=16)
        .map(|k| (k, ErrorCode::MergeWatchdog as u8, U1S0 as u8))
        .collect();
    assert_eq!(
        errors, expected,
        "expired in cycles 12..=15, reported a cycle later"
    );
    assert_eq!(
        (out[17].ctx[0].spm, state(&out[17], 0)),
        (u64::MAX, State::Ready)
    );
    let off = outputs(&pws::S1, &with_mode(s, false, 0));
    assert!(off.iter().all(|o| o.error == 0), "watchdog 0 is off");
}

#[test]
fn dws_splits_on_the_same_unit_and_refuses_beyond_s() {
    let s = with_mode(
        vec![
            reset(),
            cmd(Cmd::Dispatch, 0, 0, u64::MAX, 0),
            cmd(Cmd::Split, 0, 0, 0xFF, 0), // takes u0/s1, the lowest free slot on unit 0
            idle(),
            idle(),
            idle(),
            cmd(Cmd::Split, 0, 0, 0xF, 0), // cycle 6: the WF has S = 1 live split: refused
            cmd(Cmd::Split, 0, 1, 0xF, 0), // cycle 7: the same WF, from the child: refused
            cmd(Cmd::Dispatch, 0, 3, u64::MAX, 0), // another WF on u0/s3
            cmd(Cmd::Split, 0, 3, 0xF0, 0), // cycle 9: takes u0/s2
            cmd(Cmd::Merge, 0, 1, 0, 0x80), // cycle 10: the first pair merges
            cmd(Cmd::Merge, 0, 0, 0, 0x80),
            idle(),
            idle(),
            idle(),
        ],
        true,
        0,
    );
    let out = outputs(&pws::S1, &s);
    assert_eq!((out[3].copy_from, out[3].copy_to), (0, 2));
    assert_eq!(out[3].ctx[2].spm, !0xFF);
    assert_eq!(
        (out[3].ctx[2].parent_valid, out[3].ctx[2].parent),
        (true, 0)
    );
    assert_eq!((out[3].ctx[0].sp, out[3].ctx[0].top), (1, 1));
    assert!(out[7].split_denied && out[8].split_denied);
    assert_eq!(out[7].ctx, out[6].ctx, "a refused split changes nothing");
    assert!(out[10].copy_valid);
    assert_eq!((out[10].copy_from, out[10].copy_to), (6, 4));
    assert_eq!(out[10].ctx[4].parent, 3, "relative ids are slots in DWS");
    assert_eq!(
        (out[13].ctx[0].spm, state(&out[13], 2)),
        (u64::MAX, State::Empty)
    );
    assert!(out.iter().all(|o| o.error == 0));
}

#[test]
fn random_streams_cover_every_error_code_dws_refusals_and_full_stacks() {
    for tb in [&pws::S1, &pws::S3, &pws::S7] {
        assert_eq!(tb.kind, Kind::Random);
        let mut errors = [0u64; 8];
        let (mut merges, mut denials, mut deepest) = (0, 0, 0);
        // Five seeds: with DONE contexts free for DWS splits (docs/assumptions.md#A21), END errors
        // are rarer.
        for seed in 1..=5 {
            let opts = TbOptions {
                seed,
                cycles: 3000,
                ..TbOptions::default()
            };
            let mut stim = pws::RandomStim::new(tb.config, seed);
            let run = pws::simulate(tb, &opts, &mut stim).unwrap_or_else(|e| panic!("{e}"));
            let c = run.coverage;
            (0..8).for_each(|e| errors[e] += c.errors[e]);
            merges += c.merges;
            denials += c.denials;
            deepest = deepest.max(c.max_sp);
        }
        for (code, n) in errors.iter().enumerate().skip(1) {
            assert!(*n > 0, "{}: no error {code}", tb.name);
        }
        assert!(
            merges > 50 && denials > 10,
            "{}: {merges} merges, {denials} denials",
            tb.name
        );
        // (S is an input: under DWS it may pass UNITS − 1, so the two-unit group's stacks
        // go deeper than PWS' one entry.)
        let s = (tb.config.units as u8 - 1).max(2);
        assert!(
            deepest >= s.min(5),
            "{}: deepest child stack {deepest}",
            tb.name
        );
    }
}

#[test]
fn every_pws_testbench_is_listed_and_runs() {
    for name in ["pws-fig5", "pws-s1", "pws-s3", "pws-s7", "pws-kernels"] {
        let tb = rtgpu_testbench::tb::find(name).unwrap();
        let run = tb
            .run(&TbOptions::default())
            .unwrap_or_else(|e| panic!("{e}"));
        assert!(run.summary.contains("RTL == model every cycle"), "{name}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 12, ..ProptestConfig::default() })]

    /// Random legal and illegal command streams in both modes: RTL == model and the
    /// invariants (disjoint SpMs covering each WF's lanes, stacks within S) every cycle.
    #[test]
    fn random_streams_rtl_equals_model(seed in any::<u64>(), which in 0usize..3) {
        let tb = [&pws::S1, &pws::S3, &pws::S7][which];
        let opts = TbOptions { seed, cycles: 1500, ..TbOptions::default() };
        let mut stim = pws::RandomStim::new(tb.config, seed);
        if let Err(e) = pws::simulate(tb, &opts, &mut stim) {
            panic!("{} seed {seed}: {e}", tb.name);
        }
    }
}
