//! The reordering unit's RTL (`rtgpu_hw::reorder::Reorder`, contract: `rtgpu_hw::reorder`)
//! against its reference model (`ReorderModel`), every output of every cycle, bit for bit:
//! directed launches whose release sequence also equals `rtgpu_wcet::reorder::release_order`,
//! the three errors and bypass; property tests on random launches (credit-gated LD/ST side,
//! random arrival order and timing, downstream stalls) and on random stimulus (configuration
//! writes in every state, resets, unmapped slots, pc mismatches, watchdogs, rule and mode
//! changes); then Verilator lint and Yosys synthesis.

use proptest::prelude::*;
use rtgpu_hw::reorder::model::{
    acc, config_writes, entry, error, idle, put, request, state, Acc, ReorderIn, ReorderModel,
    ReorderOut, Warp, WarpConfig,
};
use rtgpu_testbench::tb::reorder::rtl::RtlReorder;
use rtgpu_testbench::tb::reorder::testkit::{self, wcet_order, Rng};

// ---------------------------------------------------------------- lockstep

/// The RTL and the model side by side.
struct Lockstep<const W: usize, const D: usize, const T: usize> {
    /// The RTL in the harness.
    rtl: RtlReorder<W, D, T>,
    /// The reference model.
    model: ReorderModel,
    /// Cycles run.
    cycle: u64,
}

impl<const W: usize, const D: usize, const T: usize> Lockstep<W, D, T> {
    /// Both in their power-up state.
    fn new() -> Self {
        Lockstep {
            rtl: RtlReorder::new().expect("harness"),
            model: ReorderModel::new(W, D, T).expect("geometry"),
            cycle: 0,
        }
    }

    /// One cycle of both; panics (with the cycle and inputs) unless their outputs are equal.
    fn step(&mut self, i: &ReorderIn) -> ReorderOut {
        let want = self.model.step(i);
        let got = self.rtl.step(i).expect("harness");
        assert_eq!(
            got, want,
            "Reorder<{W}, {D}, {T}> cycle {}: RTL (left) != model (right); inputs {i:?}",
            self.cycle
        );
        self.cycle += 1;
        got
    }

    /// Steps through `inputs`, returning each cycle's outputs.
    fn run(&mut self, inputs: &[ReorderIn]) -> Vec<ReorderOut> {
        inputs.iter().map(|i| self.step(i)).collect()
    }
}

// ---------------------------------------------------------------- launches

/// Configures `warps` through the port in lockstep (the unit stays IDLE).
fn configure<const W: usize, const D: usize, const T: usize>(
    u: &mut Lockstep<W, D, T>,
    warps: &[Warp],
) {
    let cfg: Vec<WarpConfig> = warps.iter().map(Warp::config).collect();
    for i in config_writes(&cfg) {
        assert_eq!(u.step(&i).state, state::IDLE);
    }
}

/// The `(slot, tag)` of each release (`rel_valid & rel_ready`) of a scripted run.
fn releases(inputs: &[ReorderIn], outs: &[ReorderOut]) -> Vec<(u8, u8)> {
    inputs
        .iter()
        .zip(outs)
        .filter(|(i, o)| o.rel_valid && i.rel_ready)
        .map(|(_, o)| (o.rel_slot, o.rel_tag))
        .collect()
}

// ---------------------------------------------------------------- directed

/// Table 1's mapping: B0W0 → slot 2, B0W1 → 3, B1W0 → 0, B1W1 → 1; block 0 loads pc_idx 0,
/// block 1 stores pc_idx 1 (the reordering paper's worked example).
fn paper_warps() -> Vec<Warp> {
    let w = |slot, block, warp, a| Warp {
        slot,
        block,
        warp,
        wave: 0,
        accs: vec![a],
    };
    vec![
        w(2, 0, 0, acc(0, 0, 0, false)),
        w(3, 0, 1, acc(0, 0, 0, false)),
        w(0, 1, 0, acc(1, 0, 0, true)),
        w(1, 1, 1, acc(1, 0, 0, true)),
    ]
}

/// Fig. 7 with the requests arriving in runtime order W0..W3 (pure RR): the RTL waits at CH2
/// while CH0 and CH1 hold requests, then releases CH2, CH3, CH0, CH1, as the model and
/// `release_order` do, in both search modes under R0 and R1.
#[test]
fn paper_fig7_release_order() {
    let warps = paper_warps();
    let want = wcet_order(&warps, 2, 0, 2);
    assert_eq!(want, [(2, 0), (3, 0), (0, 0), (1, 0)]);
    for (rule, parallel) in [(0, false), (0, true), (3, false), (3, true)] {
        let mut u = Lockstep::<4, 10, 4>::new();
        configure(&mut u, &warps);
        let mut inputs = idle(16, rule, parallel);
        inputs[0].start = true;
        for (c, slot) in [0, 1, 2, 3].into_iter().enumerate() {
            let w = warps.iter().find(|w| w.slot == slot).unwrap();
            put(&mut inputs, c, w.request(0));
        }
        let outs = u.run(&inputs);
        assert_eq!((outs[2].state, outs[2].target), (state::SEARCH, 2));
        assert_eq!(outs[2].count, [1, 1, 0, 0]);
        assert_eq!(releases(&inputs, &outs), want, "rule {rule} {parallel}");
        assert_eq!(outs[15].state, state::DONE);
    }
}

/// A looped kernel with a barrier on 2 blocks × 2 warps (W = 4, D = 4, T = 8): pc 0 (load)
/// and pc 1 (store) in a loop of two iterations, a barrier, then pc 2 (load); B1W1 skips pc 1
/// in the second iteration. Warps issue in program order while they hold a credit and the
/// requests arrive newest first (LIFO), so most arrive out of order; the downstream stalls
/// every third cycle. The release sequence equals `release_order` (R1, with and without
/// epoch-major) in both search modes.
#[test]
fn looped_launch_with_out_of_order_arrival() {
    let full = vec![
        acc(0, 0, 0, false),
        acc(1, 0, 0, true),
        acc(0, 0, 1, false),
        acc(1, 0, 1, true),
        acc(2, 1, 0, false),
    ];
    let short = vec![
        acc(0, 0, 0, false),
        acc(1, 0, 0, true),
        acc(0, 0, 1, false),
        acc(2, 1, 0, false),
    ];
    let w = |slot, block, warp, accs: &Vec<Acc>| Warp {
        slot,
        block,
        warp,
        wave: 0,
        accs: accs.clone(),
    };
    let warps = vec![
        w(2, 0, 0, &full),
        w(0, 0, 1, &full),
        w(3, 1, 0, &full),
        w(1, 1, 1, &short),
    ];
    for rule in [2, 3] {
        let want = wcet_order(&warps, 3, rule, 2);
        for parallel in [false, true] {
            let mut u = Lockstep::<4, 4, 8>::new();
            configure(&mut u, &warps);
            let (mut issued, mut released) = (vec![0; 4], vec![0; 4]);
            let mut flight: Vec<(usize, usize)> = Vec::new();
            let mut log = Vec::new();
            for c in 0..400 {
                for (n, x) in warps.iter().enumerate() {
                    if issued[n] < x.accs.len() && issued[n] - released[n] < 4 {
                        flight.push((n, issued[n]));
                        issued[n] += 1;
                    }
                }
                let mut i = idle(1, rule, parallel)[0];
                i.start = c == 0;
                i.rel_ready = c % 3 != 2;
                let presented = flight.pop();
                if let Some((n, index)) = presented {
                    put(std::slice::from_mut(&mut i), 0, warps[n].request(index));
                }
                let o = u.step(&i);
                if presented.is_some() {
                    assert!(o.req_ready, "cycle {c}: a credited request is taken");
                }
                if o.rel_valid && i.rel_ready {
                    let n = warps.iter().position(|x| x.slot == o.rel_slot).unwrap();
                    assert_eq!(usize::from(o.rel_tag), released[n], "program order");
                    released[n] += 1;
                    log.push((o.rel_slot, o.rel_tag));
                }
                if o.state == state::DONE {
                    break;
                }
            }
            assert_eq!(log, want, "rule {rule} parallel {parallel}");
            assert_eq!(u.model.outputs(&ReorderIn::default()).state, state::DONE);
        }
    }
}

/// One warp with I0 (pc_idx 0) and I1 (pc_idx 1) on `slot`.
fn two_instructions(slot: u8) -> Warp {
    Warp {
        slot,
        block: 0,
        warp: 0,
        wave: 0,
        accs: vec![acc(0, 0, 0, false), acc(1, 0, 0, false)],
    }
}

/// The three errors, each held until reset: a pc mismatch (1), the watchdog (2, after
/// `watchdog` + 1 SEARCH cycles without a match), a request for an unmapped slot or one ≥ W
/// (3, in IDLE too); the search's error wins over 3 in the same edge.
#[test]
fn errors_match_the_model() {
    let w = two_instructions(0);
    // 1: the entry with seq 0 has pc_idx 1.
    let mut u = Lockstep::<2, 4, 2>::new();
    configure(&mut u, std::slice::from_ref(&w));
    let mut inputs = idle(8, 3, false);
    inputs[0].start = true;
    put(&mut inputs, 0, request(0, 0, 1, false, 0));
    put(&mut inputs, 5, w.request(1));
    let outs = u.run(&inputs);
    assert_eq!(
        (outs[3].state, outs[3].error),
        (state::ERROR, error::PC_MISMATCH)
    );
    assert_eq!(outs[7].count, [2, 0]);
    let o = u.step(&ReorderIn {
        reset: true,
        ..w.request(0)
    });
    assert!(!o.req_ready);
    let o = u.step(&ReorderIn::default());
    assert_eq!((o.state, o.error, o.count), (state::IDLE, 0, vec![0, 0]));
    // 2: nothing arrives.
    let mut u = Lockstep::<2, 4, 2>::new();
    configure(&mut u, std::slice::from_ref(&w));
    let mut inputs = idle(12, 3, false);
    inputs[0].start = true;
    inputs.iter_mut().for_each(|i| i.watchdog = 5);
    let outs = u.run(&inputs);
    assert!((2..=7).all(|c| outs[c].state == state::SEARCH));
    assert_eq!(
        (outs[8].state, outs[8].error),
        (state::ERROR, error::WATCHDOG)
    );
    // 3: unmapped slot 1, slot 5 ≥ W, in SEARCH and in IDLE.
    for (slot, at) in [(1, 3), (1, 0), (5, 3), (63, 1)] {
        let mut u = Lockstep::<4, 4, 8>::new();
        configure(&mut u, std::slice::from_ref(&w));
        let mut inputs = idle(8, 3, false);
        inputs[0].start = true;
        put(&mut inputs, at, request(slot, 0, 0, false, 0));
        let outs = u.run(&inputs);
        assert_eq!((outs[at + 1].state, outs[at + 1].error), (state::ERROR, 3));
    }
    // 1 and 3 in the same edge: 1 wins.
    let mut u = Lockstep::<2, 4, 2>::new();
    configure(&mut u, std::slice::from_ref(&w));
    let mut inputs = idle(4, 3, true);
    inputs[0].start = true;
    put(&mut inputs, 0, request(0, 0, 1, false, 0));
    put(&mut inputs, 2, request(1, 0, 0, false, 0));
    let outs = u.run(&inputs);
    assert_eq!(
        (outs[3].state, outs[3].error),
        (state::ERROR, error::PC_MISMATCH)
    );
}

/// The watchdog's wait counter saturates at 0xFFFF: after 65 540 SEARCH cycles without a match
/// and without a limit, a limit of 0xFFFF errors at the next edge (a wrapping counter would
/// let it wait 65 535 more cycles).
#[test]
fn watchdog_counter_saturates() {
    let mut u = Lockstep::<1, 1, 1>::new();
    let w = Warp {
        accs: vec![acc(0, 0, 0, false)],
        ..two_instructions(0)
    };
    configure(&mut u, std::slice::from_ref(&w));
    let mut i = idle(1, 0, false)[0];
    i.start = true;
    u.step(&i);
    i.start = false;
    assert_eq!(u.step(&i).state, state::SELECT);
    for _ in 0..65_541 {
        assert_eq!(u.step(&i).state, state::SEARCH);
    }
    i.watchdog = 0xffff;
    assert_eq!(u.step(&i).state, state::SEARCH);
    let o = u.step(&i);
    assert_eq!((o.state, o.error), (state::ERROR, error::WATCHDOG));
}

/// Bypass: the release port shows the requests in arrival order, `req_ready` = `rel_ready`,
/// the channels stay empty and the state IDLE (`start` ignored); then, bypass off, a launch
/// runs to DONE and a map write returns the unit to IDLE.
#[test]
fn bypass_then_a_launch() {
    let w = two_instructions(3);
    let mut u = Lockstep::<4, 4, 8>::new();
    configure(&mut u, std::slice::from_ref(&w));
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
    let outs = u.run(&inputs);
    assert_eq!(releases(&inputs, &outs), arrivals);
    assert!(outs
        .iter()
        .all(|o| o.state == state::IDLE && o.count == [0; 4]));
    let mut inputs = idle(12, 0, true);
    inputs[1].start = true;
    put(&mut inputs, 2, w.request(1));
    put(&mut inputs, 3, w.request(0));
    let outs = u.run(&inputs);
    assert_eq!(releases(&inputs, &outs), [(3, 0), (3, 1)]);
    assert_eq!(outs[11].state, state::DONE);
    let map = ReorderIn {
        map_we: true,
        map_slot: 9,
        ..ReorderIn::default()
    };
    u.step(&map);
    assert_eq!(u.step(&ReorderIn::default()).state, state::IDLE);
}

// ---------------------------------------------------------------- random launches

/// `n` warp traces of one random kernel, each cut to at most `t` entries; and its PC count.
fn gen_traces(rng: &mut Rng, looped: bool, n: usize, t: usize) -> (u8, Vec<Vec<Acc>>) {
    let (n_pcs, mut traces) = testkit::gen_traces(rng, looped, n);
    traces.iter_mut().for_each(|tr| tr.truncate(t));
    (n_pcs, traces)
}

/// A random launch: `blocks` × `per_block` warps on a random permutation of the W slots,
/// waves of `resident` blocks.
struct Launch {
    /// The warps.
    warps: Vec<Warp>,
    /// Static ld/st PCs.
    n_pcs: u8,
    /// Blocks per wave.
    resident: usize,
}

/// Builds a launch on `w` slots (at most `w` warps) with traces of at most `t` entries.
fn launch(rng: &mut Rng, w: usize, t: usize, looped: bool) -> Launch {
    let per_block = 1 + rng.below(w.min(3) as u64) as usize;
    let blocks = 1 + rng.below((w / per_block).min(4) as u64) as usize;
    let n = blocks * per_block;
    let (n_pcs, traces) = gen_traces(rng, looped, n, t);
    let mut slots: Vec<u8> = (0..w as u8).collect();
    for i in (1..w).rev() {
        slots.swap(i, rng.below(i as u64 + 1) as usize);
    }
    let resident = 1 + rng.below(blocks as u64) as usize;
    let warps = traces
        .into_iter()
        .enumerate()
        .map(|(i, accs)| {
            let block = i / per_block;
            Warp {
                slot: slots[i],
                block: block as u8,
                warp: (i % per_block) as u8,
                wave: (block / resident) as u8,
                accs,
            }
        })
        .collect();
    Launch {
        warps,
        n_pcs,
        resident,
    }
}

/// Releases as `(slot, tag)` (the tag is the trace index in these tests).
type Releases = Vec<(u8, u8)>;

/// Runs a random launch to DONE in lockstep: warps issue in program order while they hold a
/// credit (D minus issued and not released), requests arrive after a random delay (so a
/// warp's may arrive out of order), one is presented per cycle, the downstream is ready at
/// random. Returns the releases `(slot, tag)` and the order `release_order` wants.
fn run_launch<const W: usize, const D: usize, const T: usize>(
    seed: u64,
    looped: bool,
    rule: u8,
    parallel: bool,
) -> (Releases, Releases) {
    let mut rng = Rng(seed);
    let l = launch(&mut rng, W, T, looped);
    let mut u = Lockstep::<W, D, T>::new();
    configure(&mut u, &l.warps);
    let (issue, present, ready, delay) = (
        20 + rng.below(81),
        30 + rng.below(71),
        30 + rng.below(71),
        rng.below(7),
    );
    let n = l.warps.len();
    let (mut issued, mut released) = (vec![0; n], vec![0; n]);
    let mut flight: Vec<(u64, usize, usize)> = Vec::new();
    let mut log = Vec::new();
    for now in 0..20_000u64 {
        for (x, w) in l.warps.iter().enumerate() {
            let credit = issued[x] - released[x] < D;
            if issued[x] < w.accs.len() && credit && rng.chance(issue) {
                flight.push((now + rng.below(delay + 1), x, issued[x]));
                issued[x] += 1;
            }
        }
        let arrived: Vec<usize> = (0..flight.len()).filter(|&f| flight[f].0 <= now).collect();
        let p = (!arrived.is_empty() && rng.chance(present))
            .then(|| arrived[rng.below(arrived.len() as u64) as usize]);
        let mut i = match p {
            Some(f) => l.warps[flight[f].1].request(flight[f].2),
            None => ReorderIn::default(),
        };
        (i.start, i.rule, i.parallel) = (now == 0, rule, parallel);
        i.rel_ready = rng.chance(ready);
        let o = u.step(&i);
        if let Some(f) = p {
            assert!(o.req_ready, "cycle {now}: a credited request must be taken");
            flight.swap_remove(f);
        }
        if o.rel_valid && i.rel_ready {
            let x = l.warps.iter().position(|w| w.slot == o.rel_slot).unwrap();
            assert_eq!(usize::from(o.rel_tag), released[x], "program order");
            released[x] += 1;
            log.push((o.rel_slot, o.rel_tag));
        }
        assert_eq!(o.error, 0);
        if o.state == state::DONE {
            assert!(o.count.iter().all(|&c| c == 0), "entries left at DONE");
            return (log, wcet_order(&l.warps, l.n_pcs, rule, l.resident));
        }
    }
    panic!("no DONE after 20000 cycles; released {log:?}");
}

// ---------------------------------------------------------------- random stimulus

/// How often a random-stimulus run does something the contract calls an error or ignores, in
/// %, fixed per run (many runs make few errors, so they spend their time releasing).
#[derive(Clone, Copy, Debug)]
struct Appetite {
    /// A request for an unmapped slot or one ≥ W.
    bad_slot: u64,
    /// A request with another `pc_idx` than its trace entry.
    bad_pc: u64,
    /// A configuration write outside IDLE (and DONE).
    late_write: u64,
    /// A reset in a cycle outside ERROR.
    reset: u64,
}

/// Random inputs for every cycle, biased by the model's state so that requests mostly carry
/// the sequence number and `pc_idx` the unit expects (often for the target slot):
/// configuration writes in every state (slots ≥ W, lengths > T, indices ≥ T included), `start`
/// with and without `bypass`, rule, mode and bypass changes, requests to unmapped slots and
/// with wrong `pc_idx` (at a per-run rate), random `rel_ready` and `watchdog`, resets (often in
/// ERROR, so runs leave it). Returns the cycles spent in each state and the releases.
fn chaos<const W: usize, const D: usize, const T: usize>(
    seed: u64,
    cycles: u64,
) -> ([u64; 6], u64) {
    chaos_on(&mut Lockstep::<W, D, T>::new(), seed, cycles)
}

/// [`chaos`] on a given unit pair.
fn chaos_on<const W: usize, const D: usize, const T: usize>(
    u: &mut Lockstep<W, D, T>,
    seed: u64,
    cycles: u64,
) -> ([u64; 6], u64) {
    let mut rng = Rng(seed);
    let (mut rule, mut parallel, mut bypass) = (rng.below(4) as u8, rng.chance(50), false);
    let watchdog = if rng.chance(50) {
        0
    } else {
        1 + rng.below(30) as u16
    };
    let pick = |rng: &mut Rng, of: &[u64]| of[rng.below(of.len() as u64) as usize];
    let a = Appetite {
        bad_slot: pick(&mut rng, &[0, 0, 1, 5]),
        bad_pc: pick(&mut rng, &[0, 0, 1, 5]),
        late_write: pick(&mut rng, &[0, 2, 10]),
        reset: pick(&mut rng, &[0, 1]),
    };
    let (mut seen, mut released) = ([0u64; 6], 0);
    for _ in 0..cycles {
        let st = u.model.outputs(&ReorderIn::default()).state;
        let mut i = ReorderIn {
            watchdog,
            ..ReorderIn::default()
        };
        if rng.chance(2) {
            rule = rng.below(4) as u8;
        }
        if rng.chance(2) {
            parallel = !parallel;
        }
        if rng.chance(if bypass { 10 } else { 1 }) {
            bypass = !bypass;
        }
        (i.rule, i.parallel, i.bypass) = (rule, parallel, bypass);
        i.reset = rng.chance(if st == state::ERROR { 25 } else { a.reset });
        let configuring = matches!(st, state::IDLE | state::DONE);
        if rng.chance(if configuring { 40 } else { a.late_write }) {
            i.trace_we = true;
            i.trace_slot = pick_slot(&mut rng, W, a.bad_slot);
            let span = if rng.chance(90) { T } else { 512 };
            i.trace_index = rng.below(span as u64) as u16;
            let pc = rng.below(4) as u8;
            i.trace_entry = entry(pc, rng.below(3) as u8, rng.below(3) as u16);
            if rng.chance(10) {
                i.trace_entry = rng.bits() as u32;
            }
        }
        if rng.chance(if configuring { 15 } else { a.late_write }) {
            i.map_we = true;
            i.map_slot = pick_slot(&mut rng, W, a.bad_slot);
            (i.map_block, i.map_warp) = (rng.below(3) as u8, rng.below(40) as u8);
            i.map_wave = rng.below(2) as u8;
            let span = if rng.chance(90) { T + 1 } else { 1024 };
            i.map_len = rng.below(span as u64) as u16;
        }
        i.start = rng.chance(if st == state::IDLE { 25 } else { 5 });
        if rng.chance(60) {
            i = with_request(&mut rng, &u.model, i, a);
        }
        i.rel_ready = rng.chance(70);
        let o = u.step(&i);
        seen[usize::from(o.state)] += 1;
        released += u64::from(o.rel_valid && i.rel_ready);
    }
    (seen, released)
}

/// A slot number: below `w`, or with `bad` % any 6-bit value.
fn pick_slot(rng: &mut Rng, w: usize, bad: u64) -> u8 {
    if rng.chance(bad) {
        rng.below(64) as u8
    } else {
        rng.below(w as u64) as u8
    }
}

/// `i` with a request: for the target (half the time) or another mapped slot, with a sequence
/// number at or just after the slot's counter and the `pc_idx` of the matching trace entry;
/// at the run's rates for an unmapped slot or a wrong `pc_idx`. Nothing when no slot is
/// mapped (unless a bad slot is drawn).
fn with_request(rng: &mut Rng, m: &ReorderModel, mut i: ReorderIn, a: Appetite) -> ReorderIn {
    let mapped: Vec<usize> = (0..m.w()).filter(|&s| m.slot_map(s).is_some()).collect();
    let target = usize::from(m.outputs(&ReorderIn::default()).target);
    let slot = if rng.chance(a.bad_slot) {
        rng.below(64) as usize
    } else if mapped.contains(&target) && rng.chance(50) {
        target
    } else if !mapped.is_empty() {
        mapped[rng.below(mapped.len() as u64) as usize]
    } else {
        return i;
    };
    let (mut seq, mut pc) = (rng.bits() as u8, rng.below(4) as u8);
    if slot < m.w() && rng.chance(95) {
        let ahead = rng.below(3) as u8;
        seq = m.seq(slot).wrapping_add(ahead);
        let index = usize::from(m.head(slot)) + usize::from(ahead);
        if index < m.t() && !rng.chance(a.bad_pc) {
            pc = m.trace_entry(slot, index) as u8;
        }
    }
    let r = request(slot as u8, seq, pc, rng.chance(50), rng.bits() as u8);
    (i.req_valid, i.req_slot, i.req_seq) = (true, r.req_slot, r.req_seq);
    (i.req_pc_idx, i.req_store, i.req_tag) = (r.req_pc_idx, r.req_store, r.req_tag);
    i
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// Random launches run to DONE with the RTL equal to the model every cycle, and the
    /// release sequence equal to `release_order` (R0 on loop-free traces, R1 with and without
    /// epoch-major), both search modes, three geometries (D = 1 among them).
    #[test]
    fn rtl_equals_model_on_random_launches(
        seed in any::<u64>(),
        looped in any::<bool>(),
        parallel in any::<bool>(),
        rule_pick in 0usize..3,
    ) {
        let rule = if looped { [2, 3, 3][rule_pick] } else { [0, 2, 3][rule_pick] };
        let (got, want) = run_launch::<4, 4, 8>(seed, looped, rule, parallel);
        prop_assert_eq!(got, want);
        let (got, want) = run_launch::<6, 3, 4>(seed, looped, rule, parallel);
        prop_assert_eq!(got, want);
        let (got, want) = run_launch::<2, 1, 2>(seed, looped, rule, parallel);
        prop_assert_eq!(got, want);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Random stimulus (see `chaos`), the RTL equal to the model every cycle, four geometries
    /// (W = 1, D = 1 and T = 1 among them). (Few geometries: each is a separately compiled
    /// RTL design.)
    #[test]
    fn rtl_equals_model_on_random_stimulus(seed in any::<u64>()) {
        chaos::<4, 4, 8>(seed, 600);
        chaos::<6, 3, 4>(seed, 600);
        chaos::<1, 1, 1>(seed, 300);
        chaos::<2, 1, 2>(seed, 300);
    }
}

/// The random stimulus reaches every state and releases (so the property above exercises
/// them all).
#[test]
fn random_stimulus_reaches_every_state() {
    let (mut seen, mut released) = ([0u64; 6], 0);
    for seed in 0..8 {
        let (s, r) = chaos::<4, 4, 8>(seed, 1500);
        seen.iter_mut().zip(s).for_each(|(a, b)| *a += b);
        released += r;
    }
    eprintln!("cycles per state (IDLE, SELECT, SEARCH, ISSUE, DONE, ERROR): {seen:?}");
    eprintln!("releases: {released}");
    assert!(seen.iter().all(|&n| n > 100), "cycles per state {seen:?}");
    assert!(released > 300, "{released} releases");
}

// ---------------------------------------------------------------- Verilog

/// Icarus replays a random-stimulus run of the emitted Verilog (every output, every cycle,
/// compared with `!==`): TESTBENCH OK, so the Verilog behaves as the Rust simulation (and
/// settles: no zero-delay loop through the channels' search results).
#[test]
fn icarus_replays_a_random_run() {
    use rtgpu_testbench::sim::cosim::{self, SimOutcome};
    let mut u = Lockstep::<4, 4, 8>::new();
    u.rtl.record_ports().unwrap();
    let (seen, released) = chaos_on(&mut u, 11, 3000);
    assert!(
        released > 50 && seen.iter().all(|&n| n > 0),
        "{seen:?} {released}"
    );
    let vectors = u.rtl.finish().unwrap().expect("vectors recorded");
    let verilog = cosim::verilog_of(&mut rtgpu_hw::reorder::Reorder::<4, 4, 8>::default()).unwrap();
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("reorder-cosim");
    match cosim::replay(&dir, &verilog, &vectors).unwrap_or_else(|e| panic!("{e}")) {
        SimOutcome::Ok(line) => assert!(line.contains("3000 cycles"), "{line}"),
        other => panic!("{other:?} (files in {})", dir.display()),
    }
}

// ---------------------------------------------------------------- lint and synthesis

/// Verilator lint (clean, no waivers) and Yosys synthesis; returns the cell count.
fn lint_and_synth<B: rust_hdl::core::prelude::Block>(name: &str, mut uut: B) -> u64 {
    use rtgpu_testbench::sim::cosim;
    let verilog = cosim::verilog_of(&mut uut).unwrap();
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    let lint = cosim::lint(&dir, &verilog, &[]).unwrap_or_else(|e| panic!("{e}"));
    assert!(lint.clean, "{name}: {:#?}", lint.findings);
    let synth = cosim::synth(&dir, &verilog).unwrap_or_else(|e| panic!("{e}"));
    assert!(synth.cells > 0, "{}", synth.stat);
    eprintln!("{name}: {} cells", synth.cells);
    synth.cells
}

#[test]
fn reorder_4x4x8_lints_and_synthesizes() {
    lint_and_synth(
        "reorder-4x4x8",
        rtgpu_hw::reorder::Reorder::<4, 4, 8>::default(),
    );
}

/// A mid-size geometry and the paper's (48 × 10), for the cell counts (slow: run with
/// `--ignored`). The blocks are built on a thread with a large stack: `Reorder<48, 10, 16>` is
/// several megabytes of signals.
#[test]
#[ignore]
fn reorder_larger_geometries_synthesize() {
    let big = std::thread::Builder::new().stack_size(1 << 30);
    let run = big
        .spawn(|| {
            lint_and_synth(
                "reorder-8x4x16",
                rtgpu_hw::reorder::Reorder::<8, 4, 16>::default(),
            );
            lint_and_synth(
                "reorder-48x10x16",
                rtgpu_hw::reorder::Reorder::<48, 10, 16>::default(),
            );
        })
        .unwrap();
    run.join().unwrap();
}
