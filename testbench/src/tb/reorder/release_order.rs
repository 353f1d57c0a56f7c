//! The reordering unit's reference model against the static release order of
//! `rtgpu_wcet::reorder::release_order` on random launches (random traces, mappings, arrival
//! order and timing, downstream stalls). A unit test of this crate, which joins the model and
//! the analysis; the RTL is held to the same order in `testbench/tests/integration/reorder.rs`.

use proptest::prelude::*;
use rtgpu_hw::reorder::model::{
    config_writes, state, ReorderIn, ReorderModel, ReorderOut, Warp, WarpConfig,
};

use super::testkit::{gen_traces, wcet_order, Rng};

/// A `w` × `d` × `t` unit with `warps` configured through the port (still IDLE).
fn configured(w: usize, d: usize, t: usize, warps: &[Warp]) -> ReorderModel {
    let mut m = ReorderModel::new(w, d, t).unwrap();
    let cfg: Vec<WarpConfig> = warps.iter().map(Warp::config).collect();
    for i in config_writes(&cfg) {
        assert_eq!(m.step(&i).state, state::IDLE);
    }
    m
}

/// A random scenario: its warps (on a random permutation of W slots, waves of `resident`
/// blocks), W, T and the number of PCs.
struct Scenario {
    /// The warps.
    warps: Vec<Warp>,
    /// Slots.
    w: usize,
    /// Trace entries per slot.
    t: usize,
    /// Static ld/st PCs.
    n_pcs: u8,
    /// Blocks per wave.
    resident: usize,
}

/// Builds a scenario of `blocks` × `per_block` warps and `extra` unused slots.
fn scenario(rng: &mut Rng, blocks: u8, per_block: u8, extra: usize, looped: bool) -> Scenario {
    let n = usize::from(blocks * per_block);
    let w = n + extra;
    let (n_pcs, traces) = gen_traces(rng, looped, n);
    let mut slots: Vec<u8> = (0..w as u8).collect();
    for i in (1..w).rev() {
        slots.swap(i, rng.below(i as u64 + 1) as usize);
    }
    let resident = 1 + rng.below(u64::from(blocks)) as usize;
    let warps: Vec<Warp> = traces
        .into_iter()
        .enumerate()
        .map(|(i, accs)| {
            let block = (i / usize::from(per_block)) as u8;
            let wave = (usize::from(block) / resident) as u8;
            let warp = (i % usize::from(per_block)) as u8;
            Warp {
                slot: slots[i],
                block,
                warp,
                wave,
                accs,
            }
        })
        .collect();
    let longest = warps.iter().map(|w| w.accs.len()).max().unwrap_or(0);
    let t = longest.max(1).next_power_of_two() << rng.below(2);
    Scenario {
        warps,
        w,
        t,
        n_pcs,
        resident,
    }
}

/// The random LD/ST side of a run: probabilities in % and the largest issue → arrival delay.
#[derive(Clone, Copy, Debug)]
struct Timing {
    /// A warp with a credit issues its next request.
    issue: u64,
    /// An arrived request is presented.
    present: u64,
    /// The downstream is ready.
    ready: u64,
    /// Largest issue → arrival delay.
    delay: u64,
}

/// The LD/ST side: warps issue in program order while they hold a credit (D minus issued
/// and not released), requests arrive after a random delay (so a warp's requests may
/// arrive out of order), one is presented per cycle.
struct Driver<'a> {
    /// The warps.
    warps: &'a [Warp],
    /// Warp of each slot.
    by_slot: Vec<Option<usize>>,
    /// Requests issued, per warp.
    issued: Vec<usize>,
    /// Requests released, per warp.
    released: Vec<usize>,
    /// Issued, not yet taken: (arrival cycle, warp, index).
    flight: Vec<(u64, usize, usize)>,
    /// Channel depth.
    d: usize,
}

impl<'a> Driver<'a> {
    /// A driver for `warps` on `w` slots of depth `d`.
    fn new(warps: &'a [Warp], w: usize, d: usize) -> Self {
        let mut by_slot = vec![None; w];
        for (i, x) in warps.iter().enumerate() {
            by_slot[usize::from(x.slot)] = Some(i);
        }
        let n = warps.len();
        Driver {
            warps,
            by_slot,
            issued: vec![0; n],
            released: vec![0; n],
            flight: Vec::new(),
            d,
        }
    }

    /// The warps' issues of cycle `now` (credit gate).
    fn issue(&mut self, now: u64, rng: &mut Rng, t: Timing) {
        for (i, w) in self.warps.iter().enumerate() {
            let credit = self.issued[i] - self.released[i] < self.d;
            if self.issued[i] < w.accs.len() && credit && rng.chance(t.issue) {
                self.flight
                    .push((now + rng.below(t.delay + 1), i, self.issued[i]));
                self.issued[i] += 1;
            }
        }
    }

    /// The place in `flight` of the request presented in cycle `now`, if any.
    fn present(&self, now: u64, rng: &mut Rng, t: Timing) -> Option<usize> {
        let arrived: Vec<usize> = (0..self.flight.len())
            .filter(|&f| self.flight[f].0 <= now)
            .collect();
        if arrived.is_empty() || !rng.chance(t.present) {
            return None;
        }
        Some(arrived[rng.below(arrived.len() as u64) as usize])
    }

    /// A release seen on the port: it is the warp's next access in program order.
    fn release(&mut self, o: &ReorderOut) -> (u8, u8) {
        let wi = self.by_slot[usize::from(o.rel_slot)].expect("release of a mapped slot");
        let index = usize::from(o.rel_tag);
        assert_eq!(
            index, self.released[wi],
            "slot {} out of program order",
            o.rel_slot
        );
        let a = self.warps[wi].accs[index];
        assert_eq!((o.rel_pc_idx, o.rel_store), (a.pc_idx, a.store));
        self.released[wi] += 1;
        (o.rel_slot, o.rel_tag)
    }
}

/// Runs scenario `s` on a unit of depth `d` until DONE; returns the releases `(slot, tag)`.
fn drive(s: &Scenario, d: usize, rule: u8, parallel: bool, rng: &mut Rng) -> Vec<(u8, u8)> {
    let mut m = configured(s.w, d, s.t, &s.warps);
    let t = Timing {
        issue: 20 + rng.below(81),
        present: 30 + rng.below(71),
        ready: 30 + rng.below(71),
        delay: rng.below(7),
    };
    let mut drv = Driver::new(&s.warps, s.w, d);
    let mut log = Vec::new();
    for now in 0..50_000 {
        drv.issue(now, rng, t);
        let p = drv.present(now, rng, t);
        let mut i = match p {
            Some(f) => s.warps[drv.flight[f].1].request(drv.flight[f].2),
            None => ReorderIn::default(),
        };
        (i.start, i.rule, i.parallel) = (now == 0, rule, parallel);
        i.rel_ready = rng.chance(t.ready);
        let o = m.step(&i);
        check_outputs(&m, &o);
        if let Some(f) = p {
            assert!(o.req_ready, "cycle {now}: a credited request must be taken");
            drv.flight.swap_remove(f);
        }
        if o.rel_valid && i.rel_ready {
            log.push(drv.release(&o));
        }
        if o.state == state::DONE {
            assert!(o.count.iter().all(|&c| c == 0), "entries left at DONE");
            return log;
        }
    }
    panic!("no DONE after 50000 cycles; released {log:?}");
}

/// Invariants of every cycle of a run without errors.
fn check_outputs(m: &ReorderModel, o: &ReorderOut) {
    assert_eq!(o.error, 0);
    assert_ne!(o.state, state::ERROR);
    assert_eq!(o.rel_valid, o.state == state::ISSUE);
    for (s, &c) in o.count.iter().enumerate() {
        assert!(usize::from(c) <= m.d());
        assert_eq!((o.free >> s) & 1 == 1, usize::from(c) < m.d());
    }
    assert_eq!(o.free >> m.w(), 0);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    /// Whatever the mapping, arrival interleaving and delays (program order of issue and the
    /// credit gate respected) and downstream stalls, the release sequence equals
    /// `release_order` of the same traces, every request is released once (one per cycle),
    /// in both search modes, for R0 (loop-free traces), R1 and R1 without epoch.
    #[test]
    fn release_order_equals_wcet(
        seed in any::<u64>(),
        blocks in 1u8..=4,
        per_block in 1u8..=3,
        extra in 0usize..=3,
        d in 1usize..=5,
        looped in any::<bool>(),
        parallel in any::<bool>(),
        rule_pick in 0usize..3,
    ) {
        let mut rng = Rng(seed);
        let s = scenario(&mut rng, blocks, per_block, extra, looped);
        let rule = if looped { [2, 3, 3][rule_pick] } else { [0, 2, 3][rule_pick] };
        let got = drive(&s, d, rule, parallel, &mut rng);
        let want = wcet_order(&s.warps, s.n_pcs, rule, s.resident);
        prop_assert_eq!(got, want);
    }
}
