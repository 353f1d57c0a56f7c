//! The L1 data cache and coalescer RTL (contract: `rtgpu_hw::cache`) on directed sequences:
//! the reordering paper's example, order sensitivity, stalls on a pending
//! victim, hits on pending lines, write-evict; the coalescer's ascending distinct lines. Then
//! Verilator lint and Yosys synthesis of each block.

use rtgpu_hw::cache::model::{CacheIn, CacheModel, CoalescerIn};
use rtgpu_testbench::tb::cache::rtl::{RtlCoalescer, RtlL1};
use std::collections::VecDeque;

const LD: bool = false;
const ST: bool = true;

fn load(line: u32) -> CacheIn {
    CacheIn::access(line, LD)
}

fn store(line: u32) -> CacheIn {
    CacheIn::access(line, ST)
}

fn fill(line: u32) -> CacheIn {
    CacheIn::fill(line)
}

/// What a run of a sequence of accesses did.
#[derive(Debug, PartialEq, Eq)]
struct Run {
    /// Per access: hit.
    hits: Vec<bool>,
    /// Per access: the memory request (line, store), if any.
    mem: Vec<Option<(u32, bool)>>,
    accesses: u32,
    misses: u32,
    /// Cycles spent stalled (req_ready low with an access presented).
    stalls: u64,
}

/// Presents `seq` in order (each access until taken) to a cache whose memory answers a load
/// miss `latency` cycles after it is sent (one fill per cycle, oldest first). Ends when every
/// fill has returned.
fn run<const S: usize, const W: usize>(seq: &[(u32, bool)], latency: u64) -> Run {
    let mut c = RtlL1::<S, W>::new().unwrap();
    let mut inflight: VecDeque<(u64, u32)> = VecDeque::new();
    let mut r = Run {
        hits: Vec::new(),
        mem: Vec::new(),
        accesses: 0,
        misses: 0,
        stalls: 0,
    };
    let mut next = 0;
    let mut now = 0u64;
    while next < seq.len() || !inflight.is_empty() {
        assert!(now < 100_000, "no progress");
        let fill = match inflight.front() {
            Some(&(due, line)) if due <= now => {
                inflight.pop_front();
                Some(line)
            }
            _ => None,
        };
        let req = seq.get(next).copied();
        let o = c
            .step(&CacheIn::default().with_req(req).with_fill(fill))
            .unwrap();
        if req.is_some() {
            if o.req_ready {
                r.hits.push(o.hit);
                r.mem
                    .push(o.mem_req_valid.then_some((o.mem_req_line, o.mem_req_store)));
                if o.mem_req_valid && !o.mem_req_store {
                    inflight.push_back((now + latency, o.mem_req_line));
                }
                next += 1;
            } else {
                assert!(!o.mem_req_valid, "a stalled access sends nothing");
                r.stalls += 1;
            }
        }
        now += 1;
    }
    let o = c.step(&CacheIn::default()).unwrap();
    r.accesses = o.accesses;
    r.misses = o.misses;
    r
}

/// The reordering paper's example (Fig. 7): release order CH2, CH3 (loads of lines 0..3), CH0, CH1
/// (stores of lines 16..19) on a cold 32 × 4 cache: 16 accesses, 12 misses, whatever the memory
/// latency. The second warp's loads hit (pending lines count); stores never allocate.
#[test]
fn paper_example_16_accesses_12_misses() {
    let mut seq = Vec::new();
    for _warp in 0..2 {
        seq.extend((0..4).map(|l| (l, LD)));
    }
    for _warp in 0..2 {
        seq.extend((16..20).map(|l| (l, ST)));
    }
    for latency in [1, 3, 10, 100] {
        let r = run::<32, 4>(&seq, latency);
        assert_eq!((r.accesses, r.misses), (16, 12), "latency {latency}");
        assert_eq!(r.stalls, 0);
        let mut want_hits = vec![false; 4];
        want_hits.extend([true; 4]);
        want_hits.extend([false; 8]);
        assert_eq!(r.hits, want_hits, "latency {latency}");
        let mut want_mem: Vec<_> = (0..4).map(|l| Some((l, LD))).collect();
        want_mem.extend([None; 4]);
        for _warp in 0..2 {
            want_mem.extend((16..20).map(|l| Some((l, ST))));
        }
        assert_eq!(r.mem, want_mem);
    }
}

/// Order sensitivity on 1 set × 2 ways: A, B, A, C misses 3 times, A, B, C, A 4 times,
/// whatever the latency (the C of A, B, C, A stalls until A's fill when the latency is long).
#[test]
fn order_sensitivity_on_one_set_of_two_ways() {
    let (a, b, c) = (0x10, 0x20, 0x30);
    for latency in [1, 4, 30] {
        let r = run::<1, 2>(&[(a, LD), (b, LD), (a, LD), (c, LD)], latency);
        assert_eq!((r.accesses, r.misses), (4, 3), "A,B,A,C latency {latency}");
        assert_eq!(r.hits, [false, false, true, false]);
        let r = run::<1, 2>(&[(a, LD), (b, LD), (c, LD), (a, LD)], latency);
        assert_eq!((r.accesses, r.misses), (4, 4), "A,B,C,A latency {latency}");
        assert_eq!(r.hits, [false; 4]);
    }
}

/// A load miss whose set is full and whose LRU way is pending stalls; a fill of another line
/// does not release it, the victim's fill does (from the next cycle: the stall reads the
/// registered pending bits).
#[test]
fn stall_on_a_pending_victim_until_its_fill() {
    let (a, b, c) = (4, 8, 12);
    let mut l1 = RtlL1::<4, 2>::new().unwrap();
    // All three lines map to set 0.
    assert!(l1.step(&load(a)).unwrap().req_ready);
    assert!(l1.step(&load(b)).unwrap().req_ready);
    for _ in 0..3 {
        let o = l1.step(&load(c)).unwrap();
        assert!(!o.req_ready && !o.hit && !o.mem_req_valid);
        assert_eq!((o.victim, o.victim_valid, o.victim_line), (0, true, a));
    }
    // B's fill leaves A pending.
    let o = l1.step(&load(c).with_fill(Some(b))).unwrap();
    assert!(!o.req_ready);
    // A load of a line in another set is not held up.
    let o = l1.step(&load(1)).unwrap();
    assert!(o.req_ready && !o.hit && o.mem_req_valid);
    // A store to the full set never stalls (and does not allocate).
    let o = l1.step(&store(c)).unwrap();
    assert!(o.req_ready && !o.hit && o.mem_req_valid && o.mem_req_store);
    // A's fill: the stall is decided on the registered pending bits, so C still waits in the
    // fill's cycle and goes in the next one, evicting A from way 0.
    let o = l1.step(&load(c).with_fill(Some(a))).unwrap();
    assert!(!o.req_ready);
    let o = l1.step(&load(c)).unwrap();
    assert!(o.req_ready && !o.hit && o.mem_req_valid && !o.mem_req_store);
    assert_eq!((o.way, o.victim_line), (0, a));
    // C now pending in way 0 and the LRU is B (way 1, filled): A's reload evicts B at once.
    let o = l1.step(&load(a)).unwrap();
    assert!(o.req_ready && !o.hit);
    assert_eq!((o.way, o.victim_line), (1, b));
    let o = l1.step(&CacheIn::default()).unwrap();
    assert_eq!((o.accesses, o.misses), (6, 6));
}

/// A load of a line whose fill is outstanding hits, sends nothing, and keeps it pending.
#[test]
fn a_hit_on_a_pending_line() {
    let mut l1 = RtlL1::<4, 2>::new().unwrap();
    let o = l1.step(&load(7)).unwrap();
    assert!(o.req_ready && !o.hit && o.mem_req_valid);
    for _ in 0..2 {
        let o = l1.step(&load(7)).unwrap();
        assert!(o.req_ready && o.hit && !o.mem_req_valid);
        assert_eq!(o.way, 0);
    }
    // Still pending: with the other way pending too, a third line of the set stalls.
    l1.step(&load(11)).unwrap();
    assert!(!l1.step(&load(15)).unwrap().req_ready);
    // A hit and a fill of the same line in one cycle.
    let o = l1.step(&load(7).with_fill(Some(7))).unwrap();
    assert!(o.req_ready && o.hit);
    let o = l1.step(&CacheIn::default()).unwrap();
    assert_eq!((o.accesses, o.misses), (5, 2));
}

/// Write-evict: a store hit invalidates its way (and goes to memory, not a miss); a store miss
/// allocates nothing.
#[test]
fn store_hit_invalidates_and_store_miss_does_not_allocate() {
    let mut l1 = RtlL1::<1, 2>::new().unwrap();
    l1.step(&load(5)).unwrap();
    l1.step(&fill(5)).unwrap();
    assert!(l1.step(&load(5)).unwrap().hit);
    let o = l1.step(&store(5)).unwrap();
    assert!(o.req_ready && o.hit && o.mem_req_valid && o.mem_req_store);
    assert_eq!(o.way, 0);
    // Line 5 is gone: both ways invalid, the victim is way 0.
    let o = l1.step(&load(5)).unwrap();
    assert!(!o.hit && o.mem_req_valid);
    assert_eq!((o.victim, o.victim_valid), (0, false));
    let o = l1.step(&store(9)).unwrap();
    assert!(!o.hit && o.mem_req_valid && o.mem_req_store);
    let o = l1.step(&load(9)).unwrap();
    assert!(!o.hit, "a store miss must not allocate");
    assert_eq!(o.way, 1);
    let o = l1.step(&CacheIn::default()).unwrap();
    assert_eq!((o.accesses, o.misses), (6, 4));
}

/// True LRU on 1 set × 4 ways: after 0, 1, 2, 3 and a touch of 0, line 4 evicts 1, then 5
/// evicts 2; a store hit on 3 makes its way the victim.
#[test]
fn lru_order_on_four_ways() {
    let mut l1 = RtlL1::<1, 4>::new().unwrap();
    for l in 0..4 {
        let o = l1.step(&load(l)).unwrap();
        assert_eq!((o.way, o.victim_valid), (l as u8, false));
        l1.step(&fill(l)).unwrap();
    }
    assert!(l1.step(&load(0)).unwrap().hit);
    let o = l1.step(&load(4)).unwrap();
    assert_eq!((o.way, o.victim_valid, o.victim_line), (1, true, 1));
    l1.step(&fill(4)).unwrap();
    let o = l1.step(&load(5)).unwrap();
    assert_eq!((o.way, o.victim_line), (2, 2));
    l1.step(&fill(5)).unwrap();
    let o = l1.step(&store(3)).unwrap();
    assert!(o.hit);
    let o = l1.step(&load(6)).unwrap();
    assert_eq!((o.way, o.victim_valid), (3, false));
    // Reset empties the cache and clears the counters.
    let o = l1.step(&CacheIn::RESET).unwrap();
    assert!(!o.req_ready);
    let o = l1.step(&load(0)).unwrap();
    assert!(!o.hit && o.req_ready);
    assert_eq!((o.accesses, o.victim), (0, 0));
}

/// Steps the coalescer until it is idle, collecting (line, last) per taken line.
fn drain(c: &mut RtlCoalescer<32>) -> Vec<(u32, bool)> {
    let mut out = Vec::new();
    loop {
        let o = c.step(&CoalescerIn::take()).unwrap();
        if !o.busy {
            assert!(!o.line_valid && !o.last);
            return out;
        }
        assert!(o.line_valid);
        out.push((o.line, o.last));
        assert!(out.len() <= 32);
    }
}

/// Distinct lines of the active lanes, ascending, one per `next`, `last` on the final one;
/// loads are ignored while busy; an empty mask loads nothing.
#[test]
fn coalescer_emits_ascending_distinct_lines() {
    let mut c = RtlCoalescer::<32>::new().unwrap();
    // Lanes scattered over lines 9, 3, 7, 3, ... with duplicates and byte offsets.
    let mut addr = [0u32; 32];
    for (i, a) in addr.iter_mut().enumerate() {
        let line = [9u32, 3, 7, 3, 0x1FF_FFFF, 9, 0, 7][i % 8];
        *a = (line << 7) | (i as u32 * 5 % 128);
    }
    // Lanes 4, 12, 20 (line 0x1FFFFFF) and every lane ≥ 24 inactive: lines 0, 3, 7, 9 remain.
    let mask = 0x00EF_EFEF;
    let o = c.step(&CoalescerIn::load(addr, mask)).unwrap();
    assert!(!o.busy);
    // Not taken yet: the same line stays.
    for _ in 0..2 {
        let o = c.step(&CoalescerIn::default()).unwrap();
        assert!(o.busy && o.line_valid);
        assert_eq!((o.line, o.last), (0, false));
    }
    // A load while busy is ignored.
    c.step(&CoalescerIn::load([0; 32], 1)).unwrap();
    assert_eq!(
        drain(&mut c),
        [(0, false), (3, false), (7, false), (9, true)]
    );
    // Every lane on one line, the largest: one line, last at once.
    c.step(&CoalescerIn::load([u32::MAX; 32], u64::from(u32::MAX)))
        .unwrap();
    assert_eq!(drain(&mut c), [(0x1FF_FFFF, true)]);
    // 32 distinct lines in descending lane order come out ascending.
    let mut addr = [0u32; 32];
    for (i, a) in addr.iter_mut().enumerate() {
        *a = (1000 - 3 * i as u32) << 7;
    }
    c.step(&CoalescerIn::load(addr, u64::from(u32::MAX)))
        .unwrap();
    let got = drain(&mut c);
    let want: Vec<_> = (0..32)
        .rev()
        .map(|i| (1000 - 3 * i as u32, i == 0))
        .collect();
    assert_eq!(got, want);
    // An empty mask loads nothing.
    c.step(&CoalescerIn::load(addr, 0)).unwrap();
    assert!(!c.step(&CoalescerIn::default()).unwrap().busy);
}

/// Verilator lint (clean) and Yosys synthesis (cell count printed) of the cache blocks.
fn lint_and_synth<B: rust_hdl::core::prelude::Block>(
    name: &str,
    mut uut: B,
    waivers: &[rtgpu_testbench::sim::cosim::Waiver],
) {
    use rtgpu_testbench::sim::cosim;
    let verilog = cosim::verilog_of(&mut uut).unwrap();
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    let lint = cosim::lint(&dir, &verilog, waivers).unwrap_or_else(|e| panic!("{e}"));
    assert!(lint.clean, "{name}: {:#?}", lint.findings);
    let synth = cosim::synth(&dir, &verilog).unwrap_or_else(|e| panic!("{e}"));
    assert!(synth.cells > 0, "{}", synth.stat);
    eprintln!("{name}: {} cells", synth.cells);
}

// (The 32 × 4 L1 is the `l1-cache` testbench's: `cosim.rs` synthesizes it.)
#[test]
fn the_l1_4x2_lints_and_synthesizes() {
    lint_and_synth("l1-4x2", rtgpu_hw::cache::L1Cache::<4, 2>::default(), &[]);
}

#[test]
fn the_coalescer_lints_and_synthesizes() {
    lint_and_synth(
        "coalescer",
        rtgpu_hw::cache::Coalescer::<32>::default(),
        &[],
    );
}

fn random_run<const S: usize, const W: usize>(seed: u64, cycles: usize, lines: u32) {
    let mut rng = seed;
    let mut next = move |n: u32| {
        rng = rng
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((rng >> 33) % u64::from(n)) as u32
    };
    let mut rtl = RtlL1::<S, W>::new().unwrap();
    let mut model = CacheModel::new(S, W).unwrap();
    model.step(&CacheIn {
        reset: true,
        ..CacheIn::default()
    });
    let mut outstanding: Vec<u32> = Vec::new();
    let (mut hits, mut stalls, mut store_hits) = (0, 0, 0);
    for cycle in 0..cycles {
        let req = (next(4) != 0).then(|| (next(lines) * 3 % (1 << 25), next(4) == 0));
        let fill = match next(3) {
            0 if !outstanding.is_empty() => {
                Some(outstanding.remove(next(outstanding.len() as u32) as usize))
            }
            1 => Some(next(lines) * 3),
            _ => None,
        };
        let inp = CacheIn {
            reset: next(500) == 0,
            ..CacheIn::default().with_req(req).with_fill(fill)
        };
        let want = model.step(&inp);
        let got = rtl.step(&inp).unwrap();
        assert_eq!(got, want, "cycle {cycle} seed {seed} {inp:?}");
        if got.mem_req_valid && !got.mem_req_store {
            outstanding.push(got.mem_req_line);
        }
        if let Some((_, store)) = req {
            hits += usize::from(got.hit && got.req_ready);
            store_hits += usize::from(got.hit && got.req_ready && store);
            stalls += usize::from(!got.req_ready && !inp.reset);
        }
    }
    assert!(
        hits > 0 && stalls > 0 && store_hits > 0,
        "{S}x{W}: {hits} hits, {stalls} stalls, {store_hits} store hits"
    );
}

/// The RTL against the reference model every cycle, on random loads, stores, fills (of
/// outstanding misses and stray lines) and resets, five geometries.
#[test]
fn rtl_equals_the_reference_model_every_cycle() {
    for seed in 0..4 {
        random_run::<4, 2>(seed, 3000, 40);
        random_run::<1, 2>(seed, 2000, 5);
        random_run::<2, 1>(seed, 2000, 6);
        random_run::<8, 16>(seed, 3000, 300);
        random_run::<32, 4>(seed, 3000, 400);
    }
}

/// The coalescer RTL against its reference model every cycle: random warps (clustered
/// addresses so lanes share lines), masks (empty ones included), loads while busy, `next`
/// back-pressure and resets.
#[test]
fn coalescer_rtl_equals_the_reference_model_every_cycle() {
    use rtgpu_hw::cache::model::{CoalescerIn, CoalescerModel};
    let mut rng = 7u64;
    let mut next = move |n: u64| {
        rng = rng
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (rng >> 33) % n
    };
    let mut rtl = RtlCoalescer::<32>::new().unwrap();
    let mut model = CoalescerModel::<32>::new();
    model.step(&CoalescerIn {
        reset: true,
        ..CoalescerIn::default()
    });
    let mut lines = 0;
    for cycle in 0..20_000 {
        let base = next(1 << 20) as u32 * 128;
        let spread = [1, 8, 64, 4096][next(4) as usize];
        let addr: [u32; 32] =
            std::array::from_fn(|_| base.wrapping_add(next(spread) as u32 * 4 * 32));
        let mask = match next(4) {
            0 => 0,
            1 => u64::from(u32::MAX),
            _ => next(1 << 32),
        };
        let inp = CoalescerIn {
            reset: next(400) == 0,
            load: next(3) == 0,
            addr,
            mask,
            size: 0,
            next: next(4) != 0,
        };
        let want = model.step(&inp);
        let got = rtl.step(&inp).unwrap();
        assert_eq!(got, want, "cycle {cycle}");
        lines += usize::from(got.line_valid && inp.next);
    }
    assert!(lines > 1000, "{lines} lines taken");
}

/// The `l1-cache` testbench (Rust side): the paper's example with a 20-cycle memory, then
/// random traffic, RTL == model every cycle.
#[test]
fn the_l1_testbench_passes() {
    use rtgpu_testbench::tb::{BlockTb, TbOptions};
    let opts = TbOptions {
        cycles: 3000,
        seed: 3,
        ..TbOptions::default()
    };
    let run = rtgpu_testbench::tb::cache::tb::L1Tb.run(&opts).unwrap();
    assert!(
        run.summary.contains("16 accesses / 12 misses"),
        "{}",
        run.summary
    );
}
