//! Tests of the DDR4 checker. Every rule has a legal trace at exactly the minimum (or maximum)
//! and the same trace one cycle short that fails naming exactly that rule. Each table runs on
//! all three parts; a few rules coincide with another on every real part (e.g. tRC = tRAS + tRP)
//! and are separated on a synthetic variant of the part (`tweak`).

use std::collections::BTreeSet;

use super::*;

// ---- trace builders (rank 0, column 0 unless changed) ----

fn cmd(cycle: u64, cmd: Cmd, bg: u8, bank: u8, row: u32) -> TraceCmd {
    TraceCmd::new(cycle, cmd, 0, bg, bank, row, 0)
}
fn act(t: u64, bg: u8, bank: u8, row: u32) -> TraceCmd {
    cmd(t, Cmd::Act, bg, bank, row)
}
fn pre(t: u64, bg: u8, bank: u8) -> TraceCmd {
    cmd(t, Cmd::Pre, bg, bank, 0)
}
fn prea(t: u64) -> TraceCmd {
    cmd(t, Cmd::Prea, 0, 0, 0)
}
fn rd(t: u64, bg: u8, bank: u8, row: u32) -> TraceCmd {
    cmd(t, Cmd::Rd, bg, bank, row)
}
fn rda(t: u64, bg: u8, bank: u8, row: u32) -> TraceCmd {
    cmd(t, Cmd::Rda, bg, bank, row)
}
fn wr(t: u64, bg: u8, bank: u8, row: u32) -> TraceCmd {
    cmd(t, Cmd::Wr, bg, bank, row)
}
fn wra(t: u64, bg: u8, bank: u8, row: u32) -> TraceCmd {
    cmd(t, Cmd::Wra, bg, bank, row)
}
fn refr(t: u64) -> TraceCmd {
    cmd(t, Cmd::Ref, 0, 0, 0)
}
fn on_rank(mut c: TraceCmd, rank: u8) -> TraceCmd {
    c.rank = rank;
    c
}

/// Distinct rules broken by the last command of `trace`, after the others passed.
fn rules_of_last(part: Ddr4Part, phase: u64, trace: &[TraceCmd]) -> BTreeSet<Rule> {
    let mut ch = Checker::with_refresh(part, phase);
    let (last, prefix) = trace.split_last().unwrap();
    for c in prefix {
        if let Err(v) = ch.check(c) {
            panic!("{}: prefix command failed: {v}", part.name);
        }
    }
    ch.violations(last).into_iter().map(|v| v.rule).collect()
}

fn assert_legal(part: Ddr4Part, phase: u64, trace: &[TraceCmd], what: &str) {
    let mut ch = Checker::with_refresh(part, phase);
    for c in trace {
        if let Err(v) = ch.check(c) {
            panic!("{what} on {}: legal trace rejected: {v}", part.name);
        }
    }
    if let Err(v) = ch.finish(trace.last().map_or(0, |c| c.cycle)) {
        panic!("{what} on {}: finish rejected: {v}", part.name);
    }
}

// ---- minimum-distance rules ----

struct Setup {
    /// Commands before the one under test (all legal).
    prefix: Vec<TraceCmd>,
    /// Index in `prefix` of the command the rule measures from.
    earlier: usize,
    /// The rule's minimum distance.
    required: u64,
    /// The command under test; its cycle is set by the test.
    last: TraceCmd,
}

struct TimingCase {
    name: &'static str,
    rule: Rule,
    tweak: fn(&mut Ddr4Part),
    build: fn(&Ddr4Part) -> Setup,
}

fn real(_: &mut Ddr4Part) {}
/// tRC > tRAS + tRP, to separate tRC from tRP (on real parts tRC = tRAS + tRP).
fn rc_long(p: &mut Ddr4Part) {
    p.rc = p.ras + p.rp + 1;
}
/// tRC < tRAS + tRP, to separate the auto-precharge tRAS lock-out from tRC.
fn rc_short(p: &mut Ddr4Part) {
    p.rc = p.ras + p.rp - 1;
}
/// As `rc_short`, and a short write recovery so WRA's tRAS lock-out binds.
fn rc_short_wr_short(p: &mut Ddr4Part) {
    rc_short(p);
    p.wr = 1;
}
/// tCCD_S > BL, to separate tCCD_S from the channel BL rule (equal on real parts).
fn ccd_s_long(p: &mut Ddr4Part) {
    p.ccd_s = p.bl + 1;
}
/// Two ranks, to exercise the channel BL rule on its own.
fn two_ranks(p: &mut Ddr4Part) {
    p.ranks = 2;
}

fn setup(prefix: Vec<TraceCmd>, earlier: usize, required: u64, last: TraceCmd) -> Setup {
    Setup {
        prefix,
        earlier,
        required,
        last,
    }
}

const TIMING: &[TimingCase] = &[
    TimingCase {
        name: "ACT -> RD",
        rule: Rule::Rcd,
        tweak: real,
        build: |p| setup(vec![act(0, 0, 0, 5)], 0, p.rcd, rd(0, 0, 0, 5)),
    },
    TimingCase {
        name: "ACT -> WRA",
        rule: Rule::Rcd,
        tweak: real,
        build: |p| setup(vec![act(0, 1, 2, 5)], 0, p.rcd, wra(0, 1, 2, 5)),
    },
    TimingCase {
        name: "RD -> RD same BG",
        rule: Rule::CcdL,
        tweak: real,
        build: |p| {
            let t = p.rrd_l + p.rcd;
            setup(
                vec![act(0, 0, 0, 5), act(p.rrd_l, 0, 1, 6), rd(t, 0, 0, 5)],
                2,
                p.ccd_l,
                rd(0, 0, 1, 6),
            )
        },
    },
    TimingCase {
        name: "WR -> WRA same BG",
        rule: Rule::CcdL,
        tweak: real,
        build: |p| {
            let t = p.rrd_l + p.rcd;
            setup(
                vec![act(0, 0, 0, 5), act(p.rrd_l, 0, 1, 6), wr(t, 0, 0, 5)],
                2,
                p.ccd_l,
                wra(0, 0, 1, 6),
            )
        },
    },
    TimingCase {
        name: "RD -> RD other BG",
        rule: Rule::CcdS,
        tweak: ccd_s_long,
        build: |p| {
            let t = p.rrd_s + p.rcd;
            setup(
                vec![act(0, 0, 0, 5), act(p.rrd_s, 1, 0, 6), rd(t, 0, 0, 5)],
                2,
                p.ccd_s,
                rd(0, 1, 0, 6),
            )
        },
    },
    TimingCase {
        name: "WR -> WR other BG",
        rule: Rule::CcdS,
        tweak: ccd_s_long,
        build: |p| {
            let t = p.rrd_s + p.rcd;
            setup(
                vec![act(0, 0, 0, 5), act(p.rrd_s, 1, 0, 6), wr(t, 0, 0, 5)],
                2,
                p.ccd_s,
                wr(0, 1, 0, 6),
            )
        },
    },
    TimingCase {
        name: "RD -> RD other rank (channel)",
        rule: Rule::Bl,
        tweak: two_ranks,
        build: |p| {
            let t = 1 + p.rcd;
            setup(
                vec![
                    act(0, 0, 0, 5),
                    on_rank(act(1, 0, 0, 5), 1),
                    on_rank(rd(t, 0, 0, 5), 1),
                ],
                2,
                p.bl,
                rd(0, 0, 0, 5),
            )
        },
    },
    TimingCase {
        name: "RD -> WR other rank (channel)",
        rule: Rule::Bl,
        tweak: two_ranks,
        build: |p| {
            let t = 1 + p.rcd;
            setup(
                vec![act(0, 0, 0, 5), on_rank(act(1, 0, 0, 5), 1), rd(t, 0, 0, 5)],
                2,
                p.bl,
                on_rank(wr(0, 0, 0, 5), 1),
            )
        },
    },
    TimingCase {
        name: "RD -> WR",
        rule: Rule::Rtw,
        tweak: real,
        build: |p| {
            setup(
                vec![act(0, 0, 0, 5), rd(p.rcd, 0, 0, 5)],
                1,
                p.rd_to_wr() as u64,
                wr(0, 0, 0, 5),
            )
        },
    },
    TimingCase {
        name: "RDA -> WR other bank",
        rule: Rule::Rtw,
        tweak: real,
        build: |p| {
            let t = p.rrd_s + p.rcd;
            setup(
                vec![act(0, 0, 0, 5), act(p.rrd_s, 1, 0, 6), rda(t, 0, 0, 5)],
                2,
                p.rd_to_wr() as u64,
                wr(0, 1, 0, 6),
            )
        },
    },
    TimingCase {
        name: "WR -> RD other BG",
        rule: Rule::WtrS,
        tweak: real,
        build: |p| {
            let t = p.rrd_s + p.rcd;
            setup(
                vec![act(0, 0, 0, 5), act(p.rrd_s, 1, 0, 6), wr(t, 0, 0, 5)],
                2,
                p.wr_to_rd_s(),
                rd(0, 1, 0, 6),
            )
        },
    },
    TimingCase {
        name: "WR -> RD same bank",
        rule: Rule::WtrL,
        tweak: real,
        build: |p| {
            setup(
                vec![act(0, 0, 0, 5), wr(p.rcd, 0, 0, 5)],
                1,
                p.wr_to_rd_l(),
                rd(0, 0, 0, 5),
            )
        },
    },
    TimingCase {
        name: "ACT -> ACT other BG",
        rule: Rule::RrdS,
        tweak: real,
        build: |p| setup(vec![act(0, 0, 0, 5)], 0, p.rrd_s, act(0, 1, 0, 5)),
    },
    TimingCase {
        name: "ACT -> ACT same BG",
        rule: Rule::RrdL,
        tweak: real,
        build: |p| setup(vec![act(0, 0, 0, 5)], 0, p.rrd_l, act(0, 0, 1, 5)),
    },
    TimingCase {
        name: "ACT -> PRE -> ACT same bank",
        rule: Rule::Rc,
        tweak: rc_long,
        build: |p| {
            setup(
                vec![act(0, 0, 0, 5), pre(p.ras, 0, 0)],
                0,
                p.rc,
                act(0, 0, 0, 6),
            )
        },
    },
    TimingCase {
        name: "fifth ACT",
        rule: Rule::Faw,
        tweak: real,
        build: |p| {
            let s = p.rrd_s;
            setup(
                vec![
                    act(0, 0, 0, 1),
                    act(s, 1, 0, 2),
                    act(2 * s, 0, 1, 3),
                    act(3 * s, 1, 1, 4),
                ],
                0,
                p.faw,
                act(0, 0, 2, 5),
            )
        },
    },
    TimingCase {
        name: "ACT -> PRE",
        rule: Rule::Ras,
        tweak: real,
        build: |p| setup(vec![act(0, 0, 0, 5)], 0, p.ras, pre(0, 0, 0)),
    },
    TimingCase {
        name: "ACT -> PREA (second bank binds)",
        rule: Rule::Ras,
        tweak: real,
        build: |p| {
            setup(
                vec![act(0, 0, 0, 5), act(p.rrd_s, 1, 0, 5)],
                1,
                p.ras,
                prea(0),
            )
        },
    },
    TimingCase {
        name: "RD -> PRE",
        rule: Rule::Rtp,
        tweak: real,
        build: |p| {
            setup(
                vec![act(0, 0, 0, 5), rd(p.ras, 0, 0, 5)],
                1,
                p.rtp,
                pre(0, 0, 0),
            )
        },
    },
    TimingCase {
        name: "RD -> PREA",
        rule: Rule::Rtp,
        tweak: real,
        build: |p| setup(vec![act(0, 1, 3, 5), rd(p.ras, 1, 3, 5)], 1, p.rtp, prea(0)),
    },
    TimingCase {
        name: "RDA -> PRE to the (closed) bank",
        rule: Rule::Rtp,
        tweak: real,
        build: |p| {
            setup(
                vec![act(0, 0, 0, 5), rda(p.ras, 0, 0, 5)],
                1,
                p.rtp,
                pre(0, 0, 0),
            )
        },
    },
    TimingCase {
        name: "WR -> PRE",
        rule: Rule::Wr,
        tweak: real,
        build: |p| {
            setup(
                vec![act(0, 0, 0, 5), wr(p.rcd, 0, 0, 5)],
                1,
                p.wr_to_pre(),
                pre(0, 0, 0),
            )
        },
    },
    TimingCase {
        name: "WRA -> PREA",
        rule: Rule::Wr,
        tweak: real,
        build: |p| {
            setup(
                vec![act(0, 0, 0, 5), wra(p.rcd, 0, 0, 5)],
                1,
                p.wr_to_pre(),
                prea(0),
            )
        },
    },
    TimingCase {
        name: "PRE -> ACT",
        rule: Rule::Rp,
        tweak: real,
        build: |p| {
            setup(
                vec![act(0, 0, 0, 5), pre(p.rc, 0, 0)],
                1,
                p.rp,
                act(0, 0, 0, 6),
            )
        },
    },
    TimingCase {
        name: "PREA -> ACT",
        rule: Rule::Rp,
        tweak: real,
        build: |p| setup(vec![act(0, 0, 0, 5), prea(p.rc)], 1, p.rp, act(0, 0, 0, 6)),
    },
    TimingCase {
        name: "PRE to a closed bank restarts tRP",
        rule: Rule::Rp,
        tweak: real,
        build: |p| {
            setup(
                vec![act(0, 0, 0, 5), pre(p.ras, 0, 0), pre(p.ras + 5, 0, 0)],
                2,
                p.rp,
                act(0, 0, 0, 6),
            )
        },
    },
    TimingCase {
        name: "RDA -> ACT",
        rule: Rule::RdaToAct,
        tweak: real,
        build: |p| {
            setup(
                vec![act(0, 0, 0, 5), rda(p.ras, 0, 0, 5)],
                1,
                p.rtp + p.rp,
                act(0, 0, 0, 6),
            )
        },
    },
    TimingCase {
        name: "WRA -> ACT",
        rule: Rule::WraToAct,
        tweak: real,
        build: |p| {
            setup(
                vec![act(0, 0, 0, 5), wra(p.rcd, 0, 0, 5)],
                1,
                p.wr_to_pre() + p.rp,
                act(0, 0, 0, 6),
            )
        },
    },
    TimingCase {
        name: "ACT -> early RDA -> ACT",
        rule: Rule::AutoPreRas,
        tweak: rc_short,
        build: |p| {
            setup(
                vec![act(0, 0, 0, 5), rda(p.rcd, 0, 0, 5)],
                0,
                p.ras + p.rp,
                act(0, 0, 0, 6),
            )
        },
    },
    TimingCase {
        name: "ACT -> early WRA -> ACT",
        rule: Rule::AutoPreRas,
        tweak: rc_short_wr_short,
        build: |p| {
            setup(
                vec![act(0, 0, 0, 5), wra(p.rcd, 0, 0, 5)],
                0,
                p.ras + p.rp,
                act(0, 0, 0, 6),
            )
        },
    },
    TimingCase {
        name: "REF -> ACT",
        rule: Rule::Rfc,
        tweak: real,
        build: |p| setup(vec![refr(0)], 0, p.rfc, act(0, 1, 1, 5)),
    },
    TimingCase {
        name: "REF -> REF",
        rule: Rule::RfcRef,
        tweak: real,
        build: |p| setup(vec![refr(0)], 0, p.rfc, refr(0)),
    },
    TimingCase {
        name: "REF -> PRE",
        rule: Rule::RfcPre,
        tweak: real,
        build: |p| setup(vec![refr(0)], 0, p.rfc, pre(0, 0, 0)),
    },
    TimingCase {
        name: "REF -> PREA",
        rule: Rule::RfcPre,
        tweak: real,
        build: |p| setup(vec![refr(0)], 0, p.rfc, prea(0)),
    },
    TimingCase {
        name: "ACT -> REF",
        rule: Rule::ActToRef,
        tweak: rc_long,
        build: |p| setup(vec![act(0, 0, 0, 5), pre(p.ras, 0, 0)], 0, p.rc, refr(0)),
    },
    TimingCase {
        name: "PRE -> REF",
        rule: Rule::PreToRef,
        tweak: real,
        build: |p| setup(vec![act(0, 0, 0, 5), pre(p.rc, 0, 0)], 1, p.rp, refr(0)),
    },
    TimingCase {
        name: "PREA -> REF",
        rule: Rule::PreToRef,
        tweak: real,
        build: |p| setup(vec![act(0, 1, 1, 5), prea(p.rc)], 1, p.rp, refr(0)),
    },
    TimingCase {
        name: "RDA -> REF",
        rule: Rule::RdaToRef,
        tweak: real,
        build: |p| {
            setup(
                vec![act(0, 0, 0, 5), rda(p.ras, 0, 0, 5)],
                1,
                p.rtp + p.rp,
                refr(0),
            )
        },
    },
    TimingCase {
        name: "WRA -> REF",
        rule: Rule::WraToRef,
        tweak: real,
        build: |p| {
            setup(
                vec![act(0, 0, 0, 5), wra(p.rcd, 0, 0, 5)],
                1,
                p.wr_to_pre() + p.rp,
                refr(0),
            )
        },
    },
    TimingCase {
        name: "ACT -> early RDA -> REF",
        rule: Rule::AutoPreRasToRef,
        tweak: rc_short,
        build: |p| {
            setup(
                vec![act(0, 0, 0, 5), rda(p.rcd, 0, 0, 5)],
                0,
                p.ras + p.rp,
                refr(0),
            )
        },
    },
];

#[test]
fn timing_rules_exact_minimum_passes_one_short_fails() {
    let mut runs = 0;
    for case in TIMING {
        for base in Ddr4Part::ALL {
            let mut p = base;
            (case.tweak)(&mut p);
            let s = (case.build)(&p);
            let e = s.prefix[s.earlier];
            let at = |cycle: u64| {
                let mut t = s.prefix.clone();
                let mut last = s.last;
                last.cycle = cycle;
                t.push(last);
                t
            };
            let what = format!("{} [{}]", case.name, case.rule);

            // Exactly the minimum: legal.
            assert_legal(p, 0, &at(e.cycle + s.required), &what);

            // One cycle short: exactly this rule.
            let short = at(e.cycle + s.required - 1);
            let rules = rules_of_last(p, 0, &short);
            assert_eq!(
                rules,
                BTreeSet::from([case.rule]),
                "{what} on {}: one cycle short",
                p.name
            );
            let mut ch = Checker::new(p);
            let (last, prefix) = short.split_last().unwrap();
            for c in prefix {
                ch.check(c).unwrap();
            }
            let v = ch.check(last).unwrap_err();
            assert_eq!(v.rule, case.rule, "{what}");
            assert_eq!(v.earlier, Some(e), "{what}: earlier command");
            assert_eq!(v.offending, Some(*last), "{what}: offending command");
            assert_eq!(
                v.measure,
                Measure::MinDistance {
                    required: s.required as i64,
                    actual: s.required as i64 - 1
                },
                "{what}"
            );
            let msg = v.to_string();
            assert!(msg.contains(case.rule.id()), "{msg}");
            assert!(msg.contains(&format_line(&e)), "{msg}");
            assert!(msg.contains(&format_line(last)), "{msg}");
            runs += 1;
        }
    }
    assert_eq!(runs, TIMING.len() * 3);
}

// ---- state, bus and refresh-count rules: a legal trace and an illegal twin ----

/// (refresh phase, legal trace, illegal trace whose last command breaks the rule)
type Pair = (u64, Vec<TraceCmd>, Vec<TraceCmd>);

struct PairCase {
    name: &'static str,
    rule: Rule,
    build: fn(&Ddr4Part) -> Pair,
}

const PAIRS: &[PairCase] = &[
    PairCase {
        name: "ACT to an open bank",
        rule: Rule::ActOpenBank,
        build: |p| {
            (
                0,
                vec![act(0, 0, 0, 5), pre(p.ras, 0, 0), act(p.rc, 0, 0, 6)],
                vec![act(0, 0, 0, 5), act(p.rc, 0, 0, 6)],
            )
        },
    },
    PairCase {
        name: "RD to a never opened bank",
        rule: Rule::RdClosedBank,
        build: |p| {
            (
                0,
                vec![act(0, 0, 0, 5), rd(p.rcd, 0, 0, 5)],
                vec![act(0, 0, 0, 5), rd(p.rcd, 0, 1, 5)],
            )
        },
    },
    PairCase {
        name: "RD after RDA closed the bank",
        rule: Rule::RdClosedBank,
        build: |p| {
            (
                0,
                vec![
                    act(0, 0, 0, 5),
                    rd(p.rcd, 0, 0, 5),
                    rda(p.rcd + p.ccd_l, 0, 0, 5),
                ],
                vec![
                    act(0, 0, 0, 5),
                    rda(p.rcd, 0, 0, 5),
                    rd(p.rcd + p.ccd_l, 0, 0, 5),
                ],
            )
        },
    },
    PairCase {
        name: "WR after WRA closed the bank",
        rule: Rule::WrClosedBank,
        build: |p| {
            (
                0,
                vec![
                    act(0, 0, 0, 5),
                    wr(p.rcd, 0, 0, 5),
                    wra(p.rcd + p.ccd_l, 0, 0, 5),
                ],
                vec![
                    act(0, 0, 0, 5),
                    wra(p.rcd, 0, 0, 5),
                    wr(p.rcd + p.ccd_l, 0, 0, 5),
                ],
            )
        },
    },
    PairCase {
        name: "WR after PRE",
        rule: Rule::WrClosedBank,
        build: |p| {
            (
                0,
                vec![act(0, 0, 0, 5), wr(p.ras, 0, 0, 5)],
                vec![act(0, 0, 0, 5), pre(p.ras, 0, 0), wr(p.ras + 1, 0, 0, 5)],
            )
        },
    },
    PairCase {
        name: "RD to the wrong row",
        rule: Rule::RdWrongRow,
        build: |p| {
            (
                0,
                vec![act(0, 0, 0, 5), rd(p.rcd, 0, 0, 5)],
                vec![act(0, 0, 0, 5), rd(p.rcd, 0, 0, 6)],
            )
        },
    },
    PairCase {
        name: "WRA to the wrong row",
        rule: Rule::WrWrongRow,
        build: |p| {
            (
                0,
                vec![act(0, 1, 1, 5), wra(p.rcd, 1, 1, 5)],
                vec![act(0, 1, 1, 5), wra(p.rcd, 1, 1, 4)],
            )
        },
    },
    PairCase {
        name: "REF with a bank open",
        rule: Rule::RefOpenBank,
        build: |p| {
            (
                0,
                vec![act(0, 0, 0, 5), pre(p.ras, 0, 0), refr(p.rc)],
                vec![act(0, 0, 0, 5), refr(p.rc)],
            )
        },
    },
    PairCase {
        name: "two commands in one cycle",
        rule: Rule::SameCycle,
        build: |_| {
            (
                0,
                vec![pre(5, 0, 0), pre(6, 1, 0)],
                vec![pre(5, 0, 0), pre(5, 1, 0)],
            )
        },
    },
    PairCase {
        name: "commands out of order",
        rule: Rule::OutOfOrder,
        build: |_| {
            (
                0,
                vec![pre(10, 0, 0), pre(11, 1, 0)],
                vec![pre(10, 0, 0), pre(9, 1, 0)],
            )
        },
    },
    PairCase {
        name: "bank group out of range",
        rule: Rule::AddressRange,
        build: |p| {
            let g = p.bank_groups;
            (
                0,
                vec![act(0, g - 1, p.banks_per_group - 1, p.rows - 1)],
                vec![act(0, g, 0, 0)],
            )
        },
    },
    PairCase {
        name: "ninth owed refresh",
        rule: Rule::Postponed,
        build: |p| {
            let t = 9 * p.refi;
            (0, vec![pre(t - 1, 0, 0)], vec![pre(t, 0, 0)])
        },
    },
    PairCase {
        name: "ninth pulled-in refresh",
        rule: Rule::PulledIn,
        build: |p| {
            let legal: Vec<_> = (0..8).map(|k| refr(k * p.rfc)).collect();
            let illegal: Vec<_> = (0..9).map(|k| refr(k * p.rfc)).collect();
            (0, legal, illegal)
        },
    },
];

#[test]
fn state_bus_refresh_rules_legal_passes_twin_fails() {
    for case in PAIRS {
        for p in Ddr4Part::ALL {
            let (phase, legal, illegal) = (case.build)(&p);
            let what = format!("{} [{}]", case.name, case.rule);
            assert_legal(p, phase, &legal, &what);
            let rules = rules_of_last(p, phase, &illegal);
            assert_eq!(rules, BTreeSet::from([case.rule]), "{what} on {}", p.name);
            let mut ch = Checker::with_refresh(p, phase);
            let (last, prefix) = illegal.split_last().unwrap();
            for c in prefix {
                ch.check(c).unwrap();
            }
            let v = ch.check(last).unwrap_err();
            assert_eq!(v.rule, case.rule);
            assert_eq!(v.offending, Some(*last));
            assert_eq!(v.cycle, last.cycle);
            assert!(v.to_string().contains(case.rule.id()), "{v}");
        }
    }
}

#[test]
fn every_rule_has_a_test() {
    let covered: BTreeSet<Rule> = TIMING
        .iter()
        .map(|c| c.rule)
        .chain(PAIRS.iter().map(|c| c.rule))
        .collect();
    let all: BTreeSet<Rule> = Rule::ALL.iter().copied().collect();
    assert_eq!(covered, all);
    // Identifiers are unique.
    let ids: BTreeSet<&str> = Rule::ALL.iter().map(|r| r.id()).collect();
    assert_eq!(ids.len(), Rule::ALL.len());
}

#[test]
fn state_violations_name_the_earlier_command() {
    let p = DDR4_3200AA_X16;
    let mut ch = Checker::new(p);
    let a = act(0, 0, 0, 5);
    ch.check(&a).unwrap();
    let v = ch.check(&rd(p.rcd, 0, 0, 7)).unwrap_err();
    assert_eq!(v.rule, Rule::RdWrongRow);
    assert_eq!(v.earlier, Some(a));
    assert_eq!(v.measure, Measure::State);
    let s = v.to_string();
    assert!(
        s.contains("RD wrong row") && s.contains("0 ACT 0 0 0 5 0"),
        "{s}"
    );
    assert!(s.contains("row 7 requested, row 5 is open"), "{s}");

    let mut ch = Checker::new(p);
    let a = act(0, 1, 2, 9);
    let c = rda(p.rcd, 1, 2, 9);
    ch.check(&a).unwrap();
    ch.check(&c).unwrap();
    let v = ch.check(&wr(p.rcd + 50, 1, 2, 9)).unwrap_err();
    assert_eq!(v.rule, Rule::WrClosedBank);
    assert_eq!(v.earlier, Some(c), "closed by the RDA");

    let mut ch = Checker::new(p);
    ch.check(&a).unwrap();
    let v = ch.check(&refr(p.rc + 100)).unwrap_err();
    assert_eq!(v.rule, Rule::RefOpenBank);
    assert_eq!(v.earlier, Some(a));
}

#[test]
fn address_range_per_field() {
    for p in Ddr4Part::ALL {
        let bad = [
            on_rank(act(0, 0, 0, 0), 1),
            act(0, 0, p.banks_per_group, 0),
            act(0, 0, 0, p.rows),
            pre(0, p.bank_groups, 0),
            TraceCmd::new(100, Cmd::Rd, 0, 0, 0, 0, p.columns),
            on_rank(refr(0), 1),
        ];
        for c in bad {
            let mut ch = Checker::new(p);
            if c.cmd == Cmd::Rd {
                ch.check(&act(0, 0, 0, 0)).unwrap();
            }
            let v = ch.check(&c).unwrap_err();
            assert_eq!(v.rule, Rule::AddressRange, "{c} on {}", p.name);
        }
        // PREA and REF ignore bank fields.
        let mut ch = Checker::new(p);
        ch.check(&TraceCmd::new(0, Cmd::Prea, 0, 200, 200, 1 << 30, 1 << 30))
            .unwrap();
        ch.check(&TraceCmd::new(
            p.rp,
            Cmd::Ref,
            0,
            200,
            200,
            1 << 30,
            1 << 30,
        ))
        .unwrap();
    }
}

// ---- refresh accounting ----

#[test]
fn refresh_owed_limits() {
    for p in Ddr4Part::ALL {
        let nine = 9 * p.refi;
        // A REF in the very cycle the ninth refresh falls due is legal (9 x tREFI interval).
        let mut ch = Checker::new(p);
        assert_eq!(ch.owed_refreshes(0, nine - 1), 8);
        assert_eq!(ch.owed_refreshes(0, nine), 9);
        ch.check(&refr(nine)).unwrap();
        assert_eq!(ch.owed_refreshes(0, nine), 8);
        ch.finish(nine).unwrap();
        // ... one cycle later is not.
        let mut ch = Checker::new(p);
        let v = ch.check(&refr(nine + 1)).unwrap_err();
        assert_eq!(v.rule, Rule::Postponed);
        assert_eq!(v.measure, Measure::Postponed { max: 8, owed: 9 });
        // finish() reports it too.
        let ch = Checker::new(p);
        ch.finish(nine - 1).unwrap();
        let v = ch.finish(nine).unwrap_err();
        assert_eq!(v.rule, Rule::Postponed);
        assert_eq!(v.offending, None);
        assert!(
            v.to_string().contains("too many postponed refreshes"),
            "{v}"
        );
        // check_all calls finish at the last command.
        assert_eq!(
            check_all(p, &[pre(nine, 0, 0)]).unwrap_err().rule,
            Rule::Postponed
        );
    }
}

#[test]
fn refresh_phase_shifts_due_times() {
    for p in Ddr4Part::ALL {
        let phase = p.refi - 100;
        let ch = Checker::with_refresh(p, phase);
        assert_eq!(ch.refreshes_due(99), 0);
        assert_eq!(ch.refreshes_due(100), 1);
        assert_eq!(ch.refreshes_due(100 + p.refi), 2);
        // Phase is taken modulo REFI.
        let ch2 = Checker::with_refresh(p, phase + 3 * p.refi);
        assert_eq!(ch2.refreshes_due(100), 1);
        // Ninth owed at 100 + 8*REFI.
        let last_ok = 100 + 8 * p.refi - 1;
        let mut ch = Checker::with_refresh(p, phase);
        ch.check(&pre(last_ok, 0, 0)).unwrap();
        assert_eq!(
            ch.check(&pre(last_ok + 1, 0, 0)).unwrap_err().rule,
            Rule::Postponed
        );
        // Regular REFs keep it legal for a long time.
        let mut ch = Checker::with_refresh(p, phase);
        for k in 0..40 {
            ch.check(&refr(100 + k * p.refi + 7)).unwrap();
        }
        ch.finish(100 + 48 * p.refi - 1).unwrap();
        assert!(ch.finish(100 + 48 * p.refi).is_err());
    }
}

// ---- a realistic legal trace ----

/// Two banks opened tRRD_S apart, eight RDs alternating between bank groups at tCCD_S (RDA
/// last on one bank, RD + PRE on the other), a write phase on two banks of one bank group at
/// tCCD_L ending in WRA + PRE, a REF as early as it is legal, and a read after it.
/// Every time is computed from the part's parameters by hand, not by the checker.
fn realistic(p: &Ddr4Part) -> (Vec<TraceCmd>, u64) {
    let s = p.rrd_s;
    let mut t = vec![act(0, 0, 0, 10), act(s, 1, 0, 20)];
    // First RD to bank 0 so that the RD to bank 1 lands exactly tRCD after its ACT.
    let t0 = s + p.rcd - p.ccd_s;
    assert!(t0 >= p.rcd);
    let mut times = Vec::new();
    for k in 0..8u64 {
        let tk = t0 + k * p.ccd_s;
        times.push(tk);
        let c = match k {
            6 => rda(tk, 0, 0, 10),
            _ if k % 2 == 0 => rd(tk, 0, 0, 10),
            _ => rd(tk, 1, 0, 20),
        };
        t.push(TraceCmd {
            col: 8 * k as u32,
            ..c
        });
    }
    let (t6, t7) = (times[6], times[7]);
    let tp = (t7 + p.rtp).max(s + p.ras);
    t.push(pre(tp, 1, 0));
    // Writes to banks (0,1) and (0,0) of bank group 0.
    let ta = tp + 1;
    t.push(act(ta, 0, 1, 30));
    let tb0 = (ta + p.rrd_l).max(t6 + p.rtp + p.rp).max(p.rc);
    t.push(act(tb0, 0, 0, 11));
    let tw = (ta + p.rcd)
        .max((tb0 + p.rcd).saturating_sub(p.ccd_l))
        .max(t7 + p.rd_to_wr() as u64);
    t.push(wr(tw, 0, 1, 30));
    t.push(wr(tw + p.ccd_l, 0, 0, 11));
    t.push(wra(tw + 2 * p.ccd_l, 0, 1, 30));
    t.push(wr(tw + 3 * p.ccd_l, 0, 0, 11));
    let tpb0 = (tw + 3 * p.ccd_l + p.wr_to_pre()).max(tb0 + p.ras);
    t.push(pre(tpb0, 0, 0));
    // REF as early as possible.
    let tr = [
        tb0 + p.rc,                              // ACT -> REF
        tpb0 + p.rp,                             // PRE -> REF
        t6 + p.rtp + p.rp,                       // RDA -> REF
        tw + 2 * p.ccd_l + p.wr_to_pre() + p.rp, // WRA -> REF
        ta + p.ras + p.rp,                       // auto-precharge lock-out
    ]
    .into_iter()
    .max()
    .unwrap();
    t.push(refr(tr));
    let tact = tr + p.rfc;
    t.push(act(tact, 1, 1, 40));
    t.push(rda(tact + p.rcd, 1, 1, 40));
    (t, tr)
}

#[test]
fn realistic_trace_passes_on_every_part() {
    for p in Ddr4Part::ALL {
        let (trace, tr) = realistic(&p);
        // A refresh falls due 10 cycles before the REF.
        let phase = p.refi - (tr - 10);
        let mut ch = Checker::with_refresh(p, phase);
        for c in &trace {
            if let Err(v) = ch.check(c) {
                panic!("{}: {v}", p.name);
            }
        }
        assert_eq!(ch.owed_refreshes(0, tr), 0);
        let last = trace.last().unwrap().cycle;
        let stats = ch.finish(last + 1000).unwrap();
        assert_eq!(stats.count(Cmd::Act), 5);
        assert_eq!(stats.count(Cmd::Rd), 7);
        assert_eq!(stats.count(Cmd::Rda), 2);
        assert_eq!(stats.count(Cmd::Wr), 3);
        assert_eq!(stats.count(Cmd::Wra), 1);
        assert_eq!(stats.count(Cmd::Pre), 2);
        assert_eq!(stats.count(Cmd::Ref), 1);
        assert_eq!(stats.count(Cmd::Prea), 0);
        assert_eq!(stats.total(), trace.len() as u64);
        // check_all (phase 0) accepts it too, through the text format.
        let text = format_trace(&trace);
        let parsed = parse_trace(&text).unwrap();
        assert_eq!(check_all(p, &parsed).unwrap().total(), trace.len() as u64);
    }
}

#[test]
fn realistic_trace_with_the_ref_one_cycle_early_fails() {
    for p in Ddr4Part::ALL {
        let (mut trace, tr) = realistic(&p);
        let i = trace.iter().position(|c| c.cmd == Cmd::Ref).unwrap();
        trace[i].cycle = tr - 1;
        let v = check_all(p, &trace).unwrap_err();
        assert_eq!(v.offending, Some(trace[i]), "{}: {v}", p.name);
    }
}

#[test]
fn check_all_stops_at_the_first_violation() {
    let p = DDR4_1866M_X16;
    let trace = [
        act(0, 0, 0, 1),
        rd(p.rcd, 0, 0, 1),
        rd(p.rcd + 1, 0, 0, 1),
        rd(p.rcd + 2, 0, 1, 1),
    ];
    let v = check_all(p, &trace).unwrap_err();
    assert_eq!(v.rule, Rule::CcdL);
    assert_eq!(v.offending, Some(trace[2]));
    assert_eq!(v.earlier, Some(trace[1]));
}

#[test]
fn check_records_a_command_even_when_it_fails() {
    let p = DDR4_3200AA_X16;
    let mut ch = Checker::new(p);
    ch.check(&act(0, 0, 0, 1)).unwrap();
    assert_eq!(
        ch.check(&rd(p.rcd - 1, 0, 0, 1)).unwrap_err().rule,
        Rule::Rcd
    );
    // The bad RD still counts for tCCD_L.
    assert_eq!(ch.check(&rd(p.rcd, 0, 0, 1)).unwrap_err().rule, Rule::CcdL);
    assert_eq!(ch.stats().count(Cmd::Rd), 2);
}

// ---- parts ----

#[test]
fn parts_by_name() {
    let x16 = Ddr4Part::by_name("ddr4-3200aa-x16").unwrap();
    assert_eq!((x16.bank_groups, x16.banks()), (2, 8));
    assert_eq!((x16.rrd_s, x16.rrd_l, x16.faw), (9, 11, 48));
    let x8 = Ddr4Part::by_name("DDR4-3200AA-X8").unwrap();
    assert_eq!((x8.bank_groups, x8.banks()), (4, 16));
    assert_eq!((x8.rrd_s, x8.rrd_l, x8.faw), (4, 8, 34));
    let m = Ddr4Part::by_name("ddr4-1866m-x16").unwrap();
    assert_eq!((m.cl, m.rc, m.rfc, m.refi), (13, 45, 327, 7280));
    assert!(Ddr4Part::by_name("ddr4-2400").is_none());
    // Numbers derived from the timing table.
    assert_eq!(x16.rd_to_wr(), 12);
    assert_eq!(x16.wr_to_rd_s(), 24);
    assert_eq!(x16.wr_to_rd_l(), 32);
    assert_eq!(x16.wr_to_pre() + x16.rp, 66);
    for p in Ddr4Part::ALL {
        assert_eq!(p.ranks, 1);
        assert_eq!(p.rc, p.ras + p.rp, "{}", p.name);
        assert_eq!(p.bl, 4);
    }
}

// ---- trace format ----

#[test]
fn format_line_is_exact() {
    let c = TraceCmd::new(123456789012, Cmd::Wra, 0, 1, 3, 65535, 1016);
    assert_eq!(format_line(&c), "123456789012 WRA 0 1 3 65535 1016");
    assert_eq!(c.to_string(), format_line(&c));
    for k in Cmd::ALL {
        assert_eq!(Cmd::from_name(k.name()), Some(k));
    }
}

#[test]
fn parse_format_round_trip() {
    let mut trace = Vec::new();
    for (i, k) in Cmd::ALL.iter().enumerate() {
        let i = i as u64;
        trace.push(TraceCmd::new(
            i * 1000 + 7,
            *k,
            (i % 2) as u8,
            (i % 4) as u8,
            (i % 3) as u8,
            (i * 9000) as u32,
            (i * 8) as u32,
        ));
    }
    trace.push(TraceCmd::new(
        u64::MAX,
        Cmd::Act,
        255,
        255,
        255,
        u32::MAX,
        u32::MAX,
    ));
    let text = format_trace(&trace);
    assert_eq!(parse_trace(&text).unwrap(), trace);
    for c in &trace {
        assert_eq!(parse_trace(&format_line(c)).unwrap(), vec![*c]);
    }
}

#[test]
fn parse_skips_blank_lines_and_comments() {
    let text = "# header\n\n  0 ACT 0 0 0 5 0   # open\n\t\n22 RD 0 0 0 5 8\n   # done\n";
    let t = parse_trace(text).unwrap();
    assert_eq!(
        t,
        vec![act(0, 0, 0, 5), TraceCmd::new(22, Cmd::Rd, 0, 0, 0, 5, 8)]
    );
    assert_eq!(parse_trace("").unwrap(), vec![]);
}

#[test]
fn parse_errors_have_line_and_column() {
    let cases: &[(&str, usize, usize, &str)] = &[
        ("0 ACT 0 0 0 5 0\n1 FOO 0 0 0 5 0\n", 2, 3, "CMD"),
        ("# c\n\n  x ACT 0 0 0 5 0\n", 3, 3, "cycle"),
        ("0 ACT 0 0 0 5\n", 1, 14, "missing `col`"),
        ("0 ACT 0 0 0 5 0 9\n", 1, 17, "found 8"),
        ("0 ACT 256 0 0 5 0\n", 1, 7, "rank"),
        ("0 ACT 0 0 0 -5 0\n", 1, 13, "row"),
        ("0 act 0 0 0 5 0\n", 1, 3, "CMD"),
        ("0 RD 0 0 0 5 0x10\n", 1, 14, "col"),
        ("99999999999999999999 REF 0 0 0 0 0\n", 1, 1, "cycle"),
    ];
    for (text, line, col, frag) in cases {
        let e = parse_trace(text).unwrap_err();
        assert_eq!((e.line, e.column), (*line, *col), "{text:?}: {e}");
        let s = e.to_string();
        assert!(s.starts_with(&format!("{line}:{col}: ")), "{s}");
        assert!(s.contains(frag), "{text:?}: {s}");
    }
}

#[test]
fn stats_display() {
    let p = DDR4_3200AA_X8;
    let s = check_all(p, &[act(0, 0, 0, 1), rd(p.rcd, 0, 0, 1)]).unwrap();
    assert_eq!(
        s.to_string(),
        "ACT=1 PRE=0 PREA=0 RD=1 RDA=0 WR=0 WRA=0 REF=0"
    );
}
