//! The cycle harness: clock domains on one ps timeline, VCD recording, .gtkw files.

use crate::common::read_vcd;
use rtgpu_testbench::sim::clock::Period;
use rtgpu_testbench::sim::harness::{CycleStart, Harness, HarnessError};
use rtgpu_testbench::sim::signals::to_u64;
use rtgpu_testbench::sim::waves::{portable, VcdOptions, VcdRecorder};
use rtgpu_testbench::tb::{self, TbOptions};
use rust_hdl::prelude::*;
use std::path::Path;

/// Two counters, each on its own clock, and a wide one (72 bits) on the second clock.
#[derive(LogicBlock, Default)]
struct TwoClocks {
    clock_a: Signal<In, Clock>,
    clock_b: Signal<In, Clock>,
    count_a: Signal<Out, Bits<16>>,
    count_b: Signal<Out, Bits<16>>,
    reg_a: DFF<Bits<16>>,
    reg_b: DFF<Bits<16>>,
    wide: DFF<Bits<72>>,
}

impl Logic for TwoClocks {
    #[hdl_gen]
    fn update(&mut self) {
        self.reg_a.clock.next = self.clock_a.val();
        self.reg_b.clock.next = self.clock_b.val();
        self.wide.clock.next = self.clock_b.val();
        self.reg_a.d.next = self.reg_a.q.val() + 1;
        self.reg_b.d.next = self.reg_b.q.val() + 1;
        self.wide.d.next = self.wide.q.val() + 1;
        self.count_a.next = self.reg_a.q.val();
        self.count_b.next = self.reg_b.q.val();
    }
}

fn two_clocks(a: Period, b: Period) -> Harness<TwoClocks> {
    let mut h = Harness::new(TwoClocks::default(), "two").unwrap();
    h.add_clock("a", a, |u| &mut u.clock_a).unwrap();
    h.add_clock("b", b, |u| &mut u.clock_b).unwrap();
    h
}

#[test]
fn core_and_ddr4_clocks_share_one_timeline() {
    let mut h = two_clocks(Period::mhz(1000).unwrap(), Period::mhz(1600).unwrap());
    let mut starts = [0u64; 2];
    h.run_until(10_000, |_, ev| starts[ev.domain] += 1).unwrap();
    // Cycle starts at 0, 1000, ..., 10000 ps and at 0, 625, ..., 10000 ps.
    assert_eq!(starts, [11, 17]);
    // Rising edges at 500 + 1000k <= 10000 (10) and 312.5 + 625k <= 10000 (16).
    let u = h.uut();
    assert_eq!((u.count_a.val().index(), u.count_b.val().index()), (10, 16));
    assert_eq!(h.now_ps(), 10_000);
    assert_eq!(h.clock_names(), ["a", "b"]);
}

#[test]
fn at_one_instant_rising_edges_come_before_cycle_starts() {
    // a rises at 500 ps, exactly when b (500 ps period) starts its cycle 1.
    let mut h = two_clocks(Period::ps(1000).unwrap(), Period::ps(500).unwrap());
    let mut seen = Vec::new();
    h.run_until(500, |u, ev: CycleStart| {
        if ev.domain == 1 {
            seen.push((ev.cycle, ev.ps, u.count_a.val().index()));
        }
    })
    .unwrap();
    assert_eq!(seen, [(0, 0, 0), (1, 500, 1)]);
}

#[test]
fn a_rational_clock_meets_an_integer_one_exactly() {
    // 3 GHz (1000/3 ps) and 1 GHz: cycle 3 of the fast clock starts with cycle 1 of the slow.
    let mut h = two_clocks(Period::mhz(1000).unwrap(), Period::mhz(3000).unwrap());
    let mut at_1000 = Vec::new();
    h.run_until(1000, |_, ev| {
        if ev.ps == 1000 {
            at_1000.push((ev.domain, ev.cycle));
        }
    })
    .unwrap();
    assert_eq!(at_1000, [(0, 1), (1, 3)]);
}

#[test]
fn cycle_needs_exactly_one_clock() {
    let mut h = two_clocks(Period::ps(1000).unwrap(), Period::ps(500).unwrap());
    match h.cycle(|_| {}, |_| ()) {
        Err(HarnessError::NotSingleClock { domains: 2 }) => {}
        other => panic!("expected NotSingleClock, got {other:?}"),
    }
}

/// Domain b samples domain a's counter.
#[derive(LogicBlock, Default)]
struct CrossSample {
    clock_a: Signal<In, Clock>,
    clock_b: Signal<In, Clock>,
    seen: Signal<Out, Bits<16>>,
    reg_a: DFF<Bits<16>>,
    reg_b: DFF<Bits<16>>,
}

impl Logic for CrossSample {
    #[hdl_gen]
    fn update(&mut self) {
        self.reg_a.clock.next = self.clock_a.val();
        self.reg_b.clock.next = self.clock_b.val();
        self.reg_a.d.next = self.reg_a.q.val() + 1;
        self.reg_b.d.next = self.reg_a.q.val();
        self.seen.next = self.reg_b.q.val();
    }
}

fn sampled_after_three_edges(sequential: bool) -> u64 {
    let mut h = Harness::new(CrossSample::default(), "x").unwrap();
    let p = Period::ps(1000).unwrap();
    h.add_clock("a", p, |u| &mut u.clock_a).unwrap();
    h.add_clock("b", p, |u| &mut u.clock_b).unwrap();
    h.sequential_edges(sequential);
    h.run_until(2500, |_, _| {}).unwrap();
    h.uut().seen.val().index() as u64
}

#[test]
fn simultaneous_edges_sample_together_unless_sequential() {
    // After edges at 500, 1500, 2500: a counted 3. Together, b saw a's value before each edge
    // (2); sequentially, a's registers load first and b sees the new value (3).
    assert_eq!(sampled_after_three_edges(false), 2);
    assert_eq!(sampled_after_three_edges(true), 3);
}

/// A block that never settles: its output is its own negation.
#[derive(LogicBlock, Default)]
struct Oscillator {
    out: Signal<Out, Bit>,
}

impl Logic for Oscillator {
    fn update(&mut self) {
        self.out.next = !self.out.val();
    }
}

#[test]
fn a_block_that_never_settles_is_an_error_not_a_hang() {
    match Harness::new(Oscillator::default(), "osc") {
        Err(HarnessError::NoConvergence { ps: 0 }) => {}
        Err(e) => panic!("unexpected error {e}"),
        Ok(_) => panic!("an oscillator settled"),
    }
}

#[test]
fn the_decode_vcd_shows_the_split_one_cycle_after_fetch() {
    let dir = tempfile::tempdir().unwrap();
    let opts = TbOptions {
        waves_dir: Some(dir.path().to_path_buf()),
        cycles: 20,
        ..TbOptions::default()
    };
    let run = tb::find("decode").unwrap().run(&opts).unwrap();
    let waves = read_vcd(run.vcd.as_ref().unwrap());
    // Cycle 1 fetches `split vcc_lo, vcc_hi` (inputs change at 1000 ps); the stage loads it at
    // the rising edge at 1500 ps; two splits, then merges from the edge at 3500 ps.
    assert_eq!(
        waves["decode.insn"][1],
        (1000, "10111111011111110110101101101010".into())
    );
    assert_eq!(
        waves["decode.is_split"][..3],
        [(0, "0".into()), (1500, "1".into()), (3500, "0".into())]
    );
    assert_eq!(waves["decode.is_merge"][1], (3500, "1".into()));
    assert_eq!(
        waves["decode.clock"][1..3],
        [(500, "1".into()), (1000, "0".into())]
    );
    assert!(
        waves.contains_key("decode.src0_check.ok"),
        "sub-blocks are scopes"
    );
    let gtkw = std::fs::read_to_string(run.gtkw.unwrap()).unwrap();
    assert!(gtkw.contains("[dumpfile] \"decode.vcd\""));
    assert!(gtkw.contains("-decoded (outputs)"));
    assert!(gtkw.contains("decode.ssrc0[7:0]"));
}

/// The harness's recording and one that reads every signal at every instant, side by side
/// on `h` for `steps` instants (`root` names the block's top scope): the two files.
fn tracked_and_full<B: Block>(mut h: Harness<B>, root: &str, steps: usize) -> (Vec<u8>, Vec<u8>) {
    let dir = tempfile::tempdir().unwrap();
    let (tracked, full) = (dir.path().join("tracked.vcd"), dir.path().join("full.vcd"));
    h.record_vcd(&tracked, &VcdOptions::default()).unwrap();
    let mut every = VcdRecorder::create(&full, h.uut(), root, &VcdOptions::default()).unwrap();
    every.sample(h.now_ps(), h.uut()).unwrap();
    for _ in 0..steps {
        h.step(&mut |_, _| {}).unwrap();
        every.sample(h.now_ps(), h.uut()).unwrap();
    }
    let end = h.now_ps();
    h.finish().unwrap();
    every.finish(end).unwrap();
    (
        std::fs::read(&tracked).unwrap(),
        std::fs::read(&full).unwrap(),
    )
}

/// The harness's recording, which reads at each instant the signals of up to 64 bits and
/// only those others whose `changed` flag an update of the settle set (counters on clocks of
/// 1 and 1.6 GHz, one of them 72 bits wide: at most instants one clock's counters stand
/// still), writes the same bytes as a recording that reads every signal at every instant;
/// catches a change the tracking misses (rust-hdl's `changed` flag not noted after an update,
/// a signal of up to 64 bits left unread, or the signals' places lost between walks).
#[test]
fn a_recording_that_tracks_changes_writes_what_one_reading_everything_writes() {
    let h = two_clocks(Period::mhz(1000).unwrap(), Period::mhz(1600).unwrap());
    let (a, b) = tracked_and_full(h, "two", 1000);
    assert!(a.len() > 20_000, "the counters ran: {} bytes", a.len());
    assert!(a == b, "the tracked recording differs from the full one");
}

/// One combinational stage: its input plus one (72 bits: wider than the signals the
/// recorder reads at every sample, so their changes are noted).
#[derive(LogicBlock, Default)]
struct Stage {
    inp: Signal<In, Bits<72>>,
    out: Signal<Out, Bits<72>>,
}

impl Logic for Stage {
    fn update(&mut self) {
        self.out.next = self.inp.val() + 1;
    }
}

/// Stages in a row behind a counter.
const STAGES: usize = 12;

/// A counter feeding [`STAGES`] stages in a row: each count takes more updates to settle than
/// the recorder notes before it reads every signal instead (eight).
#[derive(LogicBlock, Default)]
struct Chain {
    clock: Signal<In, Clock>,
    end: Signal<Out, Bits<72>>,
    count: DFF<Bits<72>>,
    stages: [Stage; STAGES],
}

impl Logic for Chain {
    fn update(&mut self) {
        self.count.clock.next = self.clock.val();
        self.count.d.next = self.count.q.val() + 1;
        self.stages[0].inp.next = self.count.q.val();
        for i in 1..STAGES {
            self.stages[i].inp.next = self.stages[i - 1].out.val();
        }
        self.end.next = self.stages[STAGES - 1].out.val();
    }
}

/// A block whose rising edges settle in more updates than the recorder notes (it then reads
/// every signal) and whose falling edges settle in one or two (it reads the marked ones):
/// the harness's recording is byte for byte the full one; catches a sample that reads only
/// the marked signals after the notes stopped.
#[test]
fn a_recording_past_its_notes_reads_every_signal() {
    let mut h = Harness::new(Chain::default(), "chain").unwrap();
    h.add_clock("clock", Period::mhz(1000).unwrap(), |u| &mut u.clock)
        .unwrap();
    let (a, b) = tracked_and_full(h, "chain", 600);
    assert!(a.len() > 20_000, "the chain counted: {} bytes", a.len());
    assert!(a == b, "the tracked recording differs from the full one");
}

#[test]
fn vcd_recording_can_be_limited_to_a_scope() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("scoped.vcd");
    let mut h = Harness::new(rtgpu_hw::isa::PwsDecode::default(), "decode").unwrap();
    h.add_clock("clock", Period::ps(1000).unwrap(), |u| &mut u.clock)
        .unwrap();
    let scope = VcdOptions {
        scopes: vec!["decode.src0_check".into()],
        ..VcdOptions::default()
    };
    h.record_vcd(&path, &scope).unwrap();
    for _ in 0..3 {
        h.cycle(|u| u.valid.next = true, |_| ()).unwrap();
    }
    let done = h.finish().unwrap();
    let (_, signals) = done.vcd.unwrap();
    let paths: Vec<String> = signals.iter().map(|s| s.path()).collect();
    assert_eq!(paths, ["decode.src0_check.code", "decode.src0_check.ok"]);
    assert_eq!(read_vcd(&path).len(), 2);
}

#[test]
fn without_a_recorder_nothing_is_recorded() {
    let opts = TbOptions {
        cycles: 50,
        ..TbOptions::default()
    };
    let run = tb::find("counter").unwrap().run(&opts).unwrap();
    assert!(run.vcd.is_none() && run.gtkw.is_none() && run.vectors.is_none());
}

/// `decode.is_s` is a text prefix of `decode.is_sopc`, not a scope: an error naming the
/// block's top-level scopes.
#[test]
fn a_scope_is_a_path_not_a_text_prefix() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = Harness::new(rtgpu_hw::isa::PwsDecode::default(), "decode").unwrap();
    let not_a_scope = VcdOptions {
        scopes: vec!["decode.is_s".into()],
        ..VcdOptions::default()
    };
    let e = h
        .record_vcd(&dir.path().join("none.vcd"), &not_a_scope)
        .unwrap_err();
    assert!(matches!(e, HarnessError::Scope(_)), "{e}");
    let text = e.to_string();
    assert!(
        text.contains("decode.is_s") && text.contains("decode.src0_check"),
        "{text}"
    );
}

#[test]
fn cycle_after_run_until_still_applies_its_inputs() {
    let mut h = Harness::new(tb::Counter32::default(), "counter").unwrap();
    h.add_clock("clock", Period::ps(1000).unwrap(), |u| &mut u.clock)
        .unwrap();
    // Stops right after the start of cycle 2 (its rising edge is still pending).
    h.run_until(2000, |u, _| u.enable.next = true).unwrap();
    let count = |u: &tb::Counter32| u.count.val().index();
    assert_eq!(h.cycle(|u| u.enable.next = true, count).unwrap(), 3);
    assert_eq!(h.cycle(|u| u.enable.next = false, count).unwrap(), 4);
    assert_eq!(
        h.cycle(|_| {}, count).unwrap(),
        4,
        "enable was low in cycle 4"
    );
}

/// With two clocks the ports are recorded per instant, the clocks among them: a row after
/// each instant's rising edges and one after its cycle starts. Up to 5 ns with 1 ns and
/// 0.625 ns: rising edges at 500 + 1000k (5) and 312.5 + 625k (8), cycle starts at 1000k (6)
/// and 625k (9) with 0 and 5000 shared: 13 + 13 rows; at 2500 ps `a` rises and `b` starts,
/// two rows. Clocks cannot be added once recording is on.
#[test]
fn port_recording_takes_every_instant_of_two_clocks() {
    let mut h = two_clocks(Period::ps(1000).unwrap(), Period::ps(625).unwrap());
    h.record_ports().unwrap();
    h.run_until(5000, |_, _| {}).unwrap();
    let v = h.finish().unwrap().vectors.unwrap();
    assert!(v.per_instant && v.clocks.is_empty());
    let col = |n: &str| v.ports.iter().position(|p| p.name == n).unwrap();
    let (a, b) = (col("clock_a"), col("clock_b"));
    assert_eq!(v.rows.len(), 26);
    let levels: Vec<(u64, u64)> = v
        .rows
        .iter()
        .map(|r| (to_u64(&r[a]), to_u64(&r[b])))
        .collect();
    // 2000 a starts (both low), 2187.5 b rises, 2500 a rises, then b starts at 2500.
    let at = levels
        .windows(4)
        .position(|w| w == [(0, 0), (0, 1), (1, 1), (1, 0)]);
    assert!(at.is_some(), "{levels:?}");
    let mut h = Harness::new(tb::Counter32::default(), "counter").unwrap();
    h.add_clock("clock", Period::ps(1000).unwrap(), |u| &mut u.clock)
        .unwrap();
    h.record_ports().unwrap();
    let late = h.add_clock("again", Period::ps(500).unwrap(), |u| &mut u.clock);
    assert!(matches!(late, Err(HarnessError::Setup(_))));
}

#[test]
fn the_committed_gtkw_files_are_what_the_testbenches_write() {
    // The large testbenches (the compute unit's top) need more than a test thread's stack.
    rtgpu_testbench::sim::twin::on_rtl_stack_or_panic(committed_gtkw_files_match);
}

fn committed_gtkw_files_match() {
    let dir = tempfile::tempdir().unwrap();
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("../waveforms");
    for t in tb::all() {
        let opts = TbOptions {
            waves_dir: Some(dir.path().to_path_buf()),
            ..TbOptions::default()
        };
        let run = t.run(&opts).unwrap();
        let fresh = std::fs::read_to_string(run.gtkw.unwrap()).unwrap();
        let committed = std::fs::read_to_string(repo.join(format!("{}.gtkw", t.name())))
            .unwrap_or_else(|e| panic!("waveforms/{}.gtkw: {e}", t.name()));
        // The instruction filter's program path is the build's: compared as `rtgpu`.
        assert_eq!(
            portable(&fresh),
            portable(&committed),
            "regenerate with `rtgpu tb {}`",
            t.name()
        );
    }
}
