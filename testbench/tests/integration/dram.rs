//! The Sim-D DRAM controller: worst-case LIDs against the paper's Eq. 15/16 over every
//! alignment, RTL == model on random request streams (with the independent DDR4 checker on
//! every command), Fig. 3's bursts on the RTL, refresh between requests, and the CLI.

use crate::common;
use common::rtgpu;

use proptest::prelude::*;
use rtgpu_hw::dram::model::{request_lid, DramIn, DramModel, Request};
use rtgpu_hw::dram::Part;
use rtgpu_testbench::oracle::ddr4;
use rtgpu_testbench::tb::dram::bound::{tiid, FRONT_END};
use rtgpu_testbench::tb::dram::rtl::RtlDram;
use rtgpu_testbench::tb::dram::run::run;
use rtgpu_testbench::tb::dram::sweep::{sweep, table, Sweep};
use rtgpu_testbench::tb::dram::tb::{self, Kind};
use rtgpu_testbench::tb::{BlockTb, TbOptions};

fn sizes() -> Vec<u32> {
    (1..=128).collect()
}

fn print(part: &Part, write: bool, rows: &[Sweep]) {
    let gaps: Vec<i64> = rows
        .iter()
        .map(|r| i64::from(r.bound) - i64::from(r.max))
        .collect();
    println!(
        "{} {}: bound - max over sizes 1..=128 bursts: min {} max {}",
        part.name,
        if write { "write" } else { "read" },
        gaps.iter().min().unwrap(),
        gaps.iter().max().unwrap()
    );
}

/// Over all 4096 word alignments, the worst LID of a b-burst request never
/// exceeds Eq. 15 for its worst burst count plus the front-end, and reaches it (the authors
/// derived Eq. 15 from exhaustive simulation of their arbiter). Both 3200AA parts, both
/// directions, every size from 1 to 128 bursts (4 KiB = 64, 8 KiB = 128).
#[test]
fn eq15_bounds_and_is_reached_on_the_3200aa_parts() {
    for part in [Part::DDR4_3200AA_X16, Part::DDR4_3200AA_X8] {
        for write in [false, true] {
            let rows = table(&part, write, &sizes()).unwrap();
            print(&part, write, &rows);
            for r in &rows {
                assert!(
                    r.max <= r.bound,
                    "{} {} {} words: max {} > bound {} (at word {})",
                    part.name,
                    write,
                    r.words,
                    r.max,
                    r.bound,
                    r.worst_addr
                );
            }
            let reached = rows.iter().filter(|r| r.max == r.bound).count();
            assert!(
                reached >= 127,
                "{} write={write}: bound reached at {reached} of 128 sizes",
                part.name
            );
        }
    }
    // The paper's worked example: a 4 KiB read, 318 cycles (80.5 %) aligned; 327 = 325 + 2
    // at the worst alignment (65 bursts).
    let s = sweep(&Part::DDR4_3200AA_X16, false, 1024).unwrap();
    assert_eq!((s.min, s.max, s.bound), (318, 327, 327));
}

/// DDR4-1866M: Eq. 15's 2-bank-group AC(b) was derived for 3200AA, where CCD_L = 2·CCD_S. At
/// 1866M (CCD_L = 5 < 8) six or more bursts inside one bank pair take longer from the first
/// ACT to the last CAS than AC(b) assumes (AC(b) counts on the ACTs of a second pair), so
/// the worst alignment exceeds the closed form by a few cycles. The finding is pinned here
/// and reported in the README.
#[test]
fn eq15_on_1866m_is_exceeded_by_a_few_cycles_at_even_burst_counts() {
    let part = Part::DDR4_1866M_X16;
    for write in [false, true] {
        let rows = table(&part, write, &sizes()).unwrap();
        print(&part, write, &rows);
        for r in &rows {
            assert!(r.max <= r.bound + 6, "{r:?}");
        }
        assert!(rows.iter().any(|r| r.max > r.bound));
    }
}

/// Eq. 16: iterative indexed requests of b ≥ 16 bursts never exceed the closed form plus the
/// front-end (three cycles: an index is taken the cycle after acceptance). Eq. 16 has no
/// ACT → RAS + RP term (Eq. 15 has), so it does not bound short requests whose last ACT's
/// RAS dominates (b = 3 in three rows: 83 cycles against 75); the paper applies it with
/// b = 1027.
#[test]
fn eq16_bounds_iterative_indexed_requests() {
    let part = Part::DDR4_3200AA_X16;
    let mut rng = 0x1234_5678u64;
    let mut next = |n: u32| {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        (rng % u64::from(n)) as u32
    };
    for case in 0..200 {
        let b = 16 + next(240);
        let s = 1 << next(22);
        let base = next(1 << 20) * 16;
        let idx: Vec<u32> = (0..b).map(|_| base + next(s)).collect();
        let write = case % 2 == 1;
        let mut model = DramModel::new(part, 0);
        let r = run(
            &mut model,
            &part,
            0,
            &[Request::indexed(write, idx)],
            0,
            1 << 22,
        )
        .unwrap();
        let lid = r.completions[0].lid;
        let bound = tiid(&part, write, b, s) + FRONT_END + 1;
        assert!(
            lid <= bound,
            "b {b} s {s} write {write}: LID {lid} > {bound}"
        );
    }
}

fn tb_run(t: &dyn BlockTb, seed: u64, cycles: u64) -> Result<String, String> {
    let opts = TbOptions {
        seed,
        cycles,
        ..TbOptions::default()
    };
    t.run(&opts).map(|r| r.summary).map_err(|e| e.to_string())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 6, .. ProptestConfig::default() })]
    /// RTL == model every cycle on random mixed request streams (tiles, 2D tiles, indexed,
    /// bad requests, a refresh), every command through the DDR4 checker; 8 and 16 banks.
    #[test]
    fn rtl_equals_model_on_random_streams(seed in 0u64..1_000_000) {
        tb_run(&tb::MIXED, seed, 3000).map_err(TestCaseError::fail)?;
        tb_run(&tb::X8_MIXED, seed, 1500).map_err(TestCaseError::fail)?;
    }
}

/// The 4 KiB read testbench: LID 318 from the trigger (316 from the first command, within
/// Eq. 15's 318).
#[test]
fn four_kib_read_testbench() {
    let s = tb_run(&tb::READ_4K, 1, 400).unwrap();
    assert!(s.ends_with("LIDs 318"), "{s}");
}

/// Fig. 3 on the RTL: a 5 × 3 tile with period 7 from word 2 is two bursts whose data-bus
/// masks are words {2–6, 9–13} and {0–4} (Section 3.2.1 of the Sim-D paper), and with one
/// burst per cycle its LID is 85, the authors' controller's (one row segment per cycle gave
/// 86). Mutation caught: the front-end walking one row per cycle (LID 86).
#[test]
fn fig3_tile_on_the_rtl() {
    let part = Part::DDR4_3200AA_X16;
    let mut rtl = RtlDram::<8>::new(&part, 0).unwrap();
    let mut masks: Vec<(u16, u32)> = Vec::new();
    let mut lids = Vec::new();
    for t in 0..200 {
        let inp = DramIn {
            req_valid: t == 0,
            req_addr: 2,
            req_words: 5,
            req_period: 7,
            req_count: 3,
            ..DramIn::default()
        };
        let o = rtl.step(&inp).unwrap();
        if o.done {
            lids.push(o.done_lid);
        }
        if o.dq_valid {
            if o.dq_beat == 0 {
                masks.push((o.dq_col, 0));
            }
            let m = masks.last_mut().unwrap();
            m.1 |= u32::from(o.dq_mask) << (4 * o.dq_beat);
        }
    }
    masks.sort();
    // Burst 0 is in bank 0 and burst 1 in bank 1, both column 0.
    let words: Vec<u32> = masks.iter().map(|m| m.1).collect();
    assert_eq!(words.len(), 2);
    assert!(
        words.contains(&0x3E7C) && words.contains(&0x001F),
        "{words:x?}"
    );
    assert_eq!(lids, [85]);
}

/// The stride sequencer emits one burst per cycle however many rows share it: a stride-2
/// gather of 512 words (64 bursts, 8 rows each) costs the 318 cycles of the 64 bursts read
/// contiguously (one row segment per cycle took 547), and dense tiles up to 16 rows per burst
/// (words 1, period 1) run on the RTL in lock-step with the model, each as fast as the
/// contiguous request over the same bursts. Mutations caught: one row per cycle (547), an RTL
/// walk of 16 stages instead of 17 (RTL != model on the 1 × 48 tile).
#[test]
fn dense_tiles_run_at_one_burst_per_cycle() {
    let part = Part::DDR4_3200AA_X16;
    let gather = Request::tile(false, 0, 1, 2, 512);
    assert_eq!(request_lid(part, 0, &gather).unwrap(), 318);
    assert_eq!(
        request_lid(part, 0, &Request::contiguous(false, 0, 1024)).unwrap(),
        318
    );
    // (words, period, rows): every row count per burst from 16 down, rows ending inside and
    // across bursts, the period one past a burst.
    let shapes = [
        (1, 2, 512),
        (1, 1, 48),
        (3, 4, 40),
        (5, 7, 30),
        (15, 16, 12),
        (16, 17, 10),
        (2, 9, 20),
    ];
    let reqs: Vec<Request> = shapes
        .iter()
        .enumerate()
        .map(|(i, &(w, p, c))| Request::tile(i % 2 == 1, 16 * i as u32 + 3, w, p, c))
        .collect();
    let (_, done) =
        tb::simulate_requests::<8>("dense", &part, 0, &reqs, &TbOptions::default(), None).unwrap();
    for (r, c) in reqs.iter().zip(&done) {
        // The contiguous request over the same words from the tile's first to its last.
        let span = (u32::from(r.count) - 1) * r.period + r.words;
        let flat = request_lid(part, 0, &Request::contiguous(r.write, r.addr, span)).unwrap();
        if r.period - r.words < 16 {
            assert_eq!(c.lid, flat, "{r:?}: every burst of the span is touched");
        }
    }
}

/// Refresh only between requests: with the first refresh due during a request, the REF
/// comes two cycles after `done` (when all banks are precharged and quiet), no request is
/// accepted while it is owed, and the next ACT waits tRFC (the checker enforces all of it).
#[test]
fn refresh_waits_for_the_request_boundary() {
    let part = Part::DDR4_3200AA_X16;
    let phase = part.refi - 100;
    let reqs = [
        Request::contiguous(false, 0, 2048),
        Request::contiguous(true, 1 << 16, 64),
    ];
    let mut model = DramModel::new(part, phase);
    let r = run(&mut model, &part, phase, &reqs, 0, 10_000).unwrap();
    let refs: Vec<u64> = r
        .trace
        .iter()
        .filter(|t| t.cmd == ddr4::Cmd::Ref)
        .map(|t| t.cycle)
        .collect();
    assert_eq!(refs, vec![r.completions[0].done + 2]);
    assert!(r.completions[1].accepted > refs[0]);
    let next_act = r
        .trace
        .iter()
        .find(|t| t.cycle > refs[0] && t.cmd == ddr4::Cmd::Act)
        .unwrap();
    assert_eq!(next_act.cycle, refs[0] + u64::from(part.rfc));
}

#[test]
fn cli_request_prints_the_stable_line_and_a_checkable_trace() {
    let dir = tempfile::tempdir().unwrap();
    let trace = dir.path().join("t.txt");
    let (code, out, err) = rtgpu(&[
        "dram",
        "request",
        "--part",
        "ddr4-3200aa-x16",
        "--dir",
        "read",
        "--addr",
        "0",
        "--words",
        "1024",
        "--trace",
        trace.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.trim(), "lid=318 cmds=67 acts=2 cas=64 util=80.5");
    let cmds = ddr4::parse_trace(&std::fs::read_to_string(&trace).unwrap()).unwrap();
    assert_eq!(cmds.len(), 67);
    let p = ddr4::Ddr4Part::by_name("ddr4-3200aa-x16").unwrap();
    ddr4::check_all(p, &cmds).unwrap();
    let (code, out, _) = rtgpu(&["dram", "sweep", "--dir", "write", "--words", "1024"]);
    assert_eq!(code, 0);
    assert_eq!(out.trim(), "min=350 max=359 bound=359 bounds=yes");
}

/// An iterative indexed request from a file: the stable line, one CAS per index (no
/// coalescing), the LID the library's driver gives for the same request, a trace the DDR4
/// checker accepts. And above 48 KiB the sweep says Eq. 15 no longer bounds (the pair
/// starvation explained in docs/blocks/dram.md): 16,384 words reach 4,224 against 4,167.
#[test]
fn cli_indexed_request_from_a_file_and_the_sweep_that_exceeds_eq15() {
    let dir = tempfile::tempdir().unwrap();
    let (idx, trace) = (dir.path().join("idx.txt"), dir.path().join("t.txt"));
    let words: Vec<u32> = (0..64).map(|i| 2 * i + 4096 * (i % 3)).collect();
    let text: Vec<String> = words.iter().map(|w| format!("{w:#x}")).collect();
    std::fs::write(&idx, format!("# a gather\n{}\n", text.join(", "))).unwrap();
    let (code, out, err) = rtgpu(&[
        "dram",
        "request",
        "--indexes",
        idx.to_str().unwrap(),
        "--trace",
        trace.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let lid = request_lid(Part::DDR4_3200AA_X16, 0, &Request::indexed(false, words)).unwrap();
    assert!(out.starts_with(&format!("lid={lid} ")), "{out} vs {lid}");
    assert!(out.contains(" cas=64 "), "{out}");
    let cmds = ddr4::parse_trace(&std::fs::read_to_string(&trace).unwrap()).unwrap();
    let p = ddr4::Ddr4Part::by_name("ddr4-3200aa-x16").unwrap();
    ddr4::check_all(p, &cmds).unwrap();
    let (code, out, _) = rtgpu(&["dram", "sweep", "--words", "16384"]);
    assert_eq!(code, 0);
    assert_eq!(out.trim(), "min=4158 max=4224 bound=4167 bounds=no");
    std::fs::write(&idx, "16\n32 0x1g\n").unwrap();
    let (code, _, err) = rtgpu(&["dram", "request", "--indexes", idx.to_str().unwrap()]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("idx.txt:2: `0x1g` is not a word address"),
        "{err}"
    );
}

#[test]
fn cli_request_writes_a_waveform_of_the_rtl() {
    let dir = tempfile::tempdir().unwrap();
    let vcd = dir.path().join("one.vcd");
    let (code, out, err) = rtgpu(&[
        "dram",
        "request",
        "--words",
        "16",
        "--vcd",
        vcd.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.trim(), "lid=76 cmds=2 acts=1 cas=1 util=5.3");
    assert!(vcd.exists() && dir.path().join("one.gtkw").exists());
}

/// `dram tiles`: the sweep's worst start gives, as a single request, the sweep's maximum, and
/// the unaligned tile (three bursts per 32-word row) costs more than the aligned one (two).
/// Mutation caught: the sweep building contiguous requests (period ignored) — the single
/// 2D request at the worst start then disagrees.
#[test]
fn cli_tile_sweep_agrees_with_single_requests() {
    let (code, out, err) = rtgpu(&["dram", "tiles", "--words", "32", "--rows", "16", "--json"]);
    assert_eq!(code, 0, "{err}");
    let rows: serde_json::Value = serde_json::from_str(&out).unwrap();
    let r = &rows[0];
    let (max, min, worst) = (
        r["max"].as_u64().unwrap(),
        r["min"].as_u64().unwrap(),
        r["worst_addr"].as_u64().unwrap(),
    );
    assert!(min < max, "{r}");
    let lid = |addr: u64| {
        let a = addr.to_string();
        let args = [
            "dram", "request", "--words", "32", "--period", "1024", "--count", "16", "--addr", &a,
        ];
        let (code, out, err) = rtgpu(&args);
        assert_eq!(code, 0, "{err}");
        out.split_whitespace()
            .next()
            .unwrap()
            .trim_start_matches("lid=")
            .parse::<u64>()
            .unwrap()
    };
    assert_eq!(lid(worst), max);
    assert_eq!(lid(0), min, "the aligned tile is the cheapest");
    let (code, _, err) = rtgpu(&["dram", "tiles", "--words", "2048", "--period", "1024"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("rows would overlap"), "{err}");
}

/// `dram tiles` over a list of periods, as CSV: one line per words × rows × period shape, the
/// Fig. 3 tile's worst start as costly as its LID from word 2 or more; `dram sweep --json` and
/// `dram table --json` say whether Eq. 15 bounds (`bounded`), true at 4 KiB where the maximum
/// equals the bound, false at 16,384 words. Mutation caught: `bounded` as `max < bound`
/// (false at 4 KiB).
#[test]
fn cli_tile_sweep_over_periods_as_csv_and_the_bounded_flag() {
    let args = [
        "dram", "tiles", "--words", "1,5", "--rows", "3", "--period", "7,32", "--csv",
    ];
    let (code, out, err) = rtgpu(&args);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "words,rows,period,min,max,worst_addr,util");
    let shapes: Vec<String> = lines[1..]
        .iter()
        .map(|l| l.split(',').take(3).collect::<Vec<_>>().join("x"))
        .collect();
    assert_eq!(shapes, ["1x3x7", "5x3x7", "1x3x32", "5x3x32"]);
    let fig3: Vec<u32> = lines[2]
        .split(',')
        .map(|f| f.parse().unwrap_or(0))
        .collect();
    assert!(fig3[3] <= 85 && fig3[4] >= 85, "{}", lines[2]);
    let sweep_json = |words: &str| {
        let (code, out, err) = rtgpu(&["dram", "sweep", "--words", words, "--json"]);
        assert_eq!(code, 0, "{err}");
        serde_json::from_str::<serde_json::Value>(&out).unwrap()
    };
    let s = sweep_json("1024");
    assert_eq!(
        (s["max"].as_u64(), s["bound"].as_u64()),
        (Some(327), Some(327))
    );
    assert_eq!(s["bounded"], true);
    assert_eq!(sweep_json("16384")["bounded"], false);
    let (code, out, err) = rtgpu(&["dram", "table", "--max-bursts", "2", "--json"]);
    assert_eq!(code, 0, "{err}");
    let rows: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(rows[1]["bounded"], true, "{rows}");
    let (code, _, err) = rtgpu(&["dram", "tiles", "--words", "8", "--period", "4"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("rows would overlap"), "{err}");
}

#[test]
fn cli_bad_arguments_exit_2_with_a_message() {
    for (args, needle) in [
        (vec!["dram", "request", "--words", "0"], "--words"),
        (
            vec!["dram", "request", "--words", "4", "--part", "ddr5"],
            "unknown DRAM part",
        ),
        (
            vec!["dram", "request", "--words", "4", "--addr", "1073741823"],
            "beyond",
        ),
        (
            vec!["dram", "request", "--words", "4", "--dir", "sideways"],
            "direction",
        ),
        (
            vec![
                "dram", "request", "--words", "8", "--period", "4", "--count", "2",
            ],
            "overlap",
        ),
        (vec!["dram", "sweep", "--words", "0"], "--words"),
        (
            vec!["dram", "request", "--indexes", "/nonexistent/idx.txt"],
            "/nonexistent/idx.txt",
        ),
        (
            vec!["dram", "request", "--indexes", "x.txt", "--words", "4"],
            "cannot be used with",
        ),
    ] {
        let (code, _, err) = rtgpu(&args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(err.contains(needle), "{args:?}: {err}");
    }
}

/// Every kind of command the testbenches expect shows up in the mixed stream.
#[test]
fn mixed_stream_exercises_every_command() {
    let part = Part::DDR4_3200AA_X16;
    let reqs = tb::requests(Kind::Mixed, 3, 4000);
    let mut model = DramModel::new(part, part.refi - 300);
    let r = run(&mut model, &part, part.refi - 300, &reqs, 0, 1 << 20).unwrap();
    for c in [
        ddr4::Cmd::Act,
        ddr4::Cmd::Pre,
        ddr4::Cmd::Rd,
        ddr4::Cmd::Rda,
        ddr4::Cmd::Wr,
        ddr4::Cmd::Wra,
        ddr4::Cmd::Ref,
    ] {
        assert!(r.count(c) > 0, "no {c:?}");
    }
    assert!(r.completions.iter().any(|c| c.error));
}

/// Sim-D's Section 3.2.3: streaming a whole index buffer (snoopy, a tile request: Eq. 15 on its
/// bursts plus one) beats iterating over 1024 indexes into a large buffer (Eq. 16, rows >
/// banks) up to 1.155 MiB for reads and 1.374 MiB for writes (the paper: 1.1 and 1.37 MiB).
#[test]
fn snoopy_beats_iterative_below_the_papers_crossover() {
    use rtgpu_testbench::tb::dram::bound::tid;
    let part = Part::DDR4_3200AA_X16;
    for (write, lo, hi) in [(false, 1.15, 1.16), (true, 1.37, 1.38)] {
        let iterative = tiid(&part, write, 1024, 1 << 26);
        let crossover = (1..1_000_000u32)
            .find(|&b| tid(&part, write, b + 1) > iterative)
            .unwrap();
        let mib = f64::from(crossover) * 64.0 / f64::from(1u32 << 20);
        assert!((lo..hi).contains(&mib), "write {write}: {mib} MiB");
    }
}
