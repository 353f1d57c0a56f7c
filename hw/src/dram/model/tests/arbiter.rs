//! Unit tests of the DRAM controller model: indexed requests (row misses, closing the other
//! banks), the arbiter's priorities, a row change within a pair, reset and a full FIFO
//! stalling the front-end.

use super::*;

/// The word address of (bank, row), column 0, on an 8-bank part.
fn word_at(bank: u32, row: u32) -> u32 {
    // k = row·2^10 | pair·2^8 | bank[0]; word = 16·k.
    ((row << 10) | ((bank >> 1) << 8) | (bank & 1)) << 4
}

#[test]
fn indexed_row_misses_one_bank() {
    // 4 indexes in rows 0..4 of bank 0. Index i is taken in 1 + i (idx_ready: register
    // empty, or emitted this cycle), emitted in 2 + i; entry 0 {ACT, RD}, entries 1..3
    // {PRE_PRE, ACT, RD} (shadow: another row open), entry 3 with ap (last).
    // ACT 3; RD 25; PRE max(3 + RAS, 25 + RTP) = 55; ACT max(55 + RP, 3 + RC) = 77; RD 99;
    // PRE max(77 + 52, 99 + 12) = 129; ACT 151; RD 173; PRE 203; ACT 225; RDA 247.
    // REF legal at max(247 + RTP, 225 + RAS) + RP = 299 (= 225 + RC) → done 297, LID 299.
    // (Eq. 16, rows > nB form: 4·(RAS + RP) = 296 from the first command in 3.)
    let idx: Vec<u32> = (0..4).map(|r| word_at(0, r) + 3 * r).collect();
    let (log, done) = trace(X16, 0, &[Request::indexed(false, idx)]);
    assert!(log[1..=4].iter().all(|o| o.idx_ready));
    assert!(!log[0].idx_ready && !log[5].idx_ready);
    let c: Vec<_> = commands(&X16, &log)
        .into_iter()
        .map(|(t, c, b, r, _)| (t, c, b, r))
        .collect();
    use Command::*;
    assert_eq!(
        c,
        vec![
            (3, Act, 0, 0),
            (25, Rd, 0, 0),
            (55, Pre, 0, 0),
            (77, Act, 0, 1),
            (99, Rd, 0, 1),
            (129, Pre, 0, 0),
            (151, Act, 0, 2),
            (173, Rd, 0, 2),
            (203, Pre, 0, 0),
            (225, Act, 0, 3),
            (247, Rda, 0, 3),
        ]
    );
    let (t_a, t_d, out, _) = done[0];
    assert_eq!((t_a, t_d, out.done_lid), (0, 297, 299));
    // One word per burst: word 3r of each.
    let b = dq_bursts(&X16, &log, t_a, t_d);
    let masks: Vec<u16> = b.iter().map(|x| x.3).collect();
    assert_eq!(masks, vec![1, 1 << 3, 1 << 6, 1 << 9]);
}

#[test]
fn indexed_closes_every_other_bank() {
    // Bank 0 rows 0, 1, 2 interleaved with bank 2 row 5 and bank 3 row 7: at the last
    // burst (bank 0 row 2) banks 2 and 3 are open in the shadow table → stand-alone PREs
    // into their FIFOs; bank 0's row misses carry pre_pre.
    let idx = vec![
        word_at(0, 0),
        word_at(2, 5),
        word_at(0, 1),
        word_at(3, 7),
        word_at(0, 2),
    ];
    let (log, done) = trace(X16, 0, &[Request::indexed(true, idx)]);
    let (_, t_d, out, dq) = done[0];
    let c = commands(&X16, &log);
    check_timing(&X16, 0, &log).unwrap();
    use Command::*;
    let count = |cmd: Command, b: usize| c.iter().filter(|x| x.1 == cmd && x.2 == b).count();
    assert_eq!((count(Act, 0), count(Act, 2), count(Act, 3)), (3, 1, 1));
    assert_eq!((count(Pre, 0), count(Pre, 2), count(Pre, 3)), (2, 1, 1));
    assert_eq!((count(Wr, 0), count(Wra, 0)), (2, 1));
    assert_eq!((count(Wr, 2), count(Wr, 3)), (1, 1));
    // Every bank-0 PRE directly precedes (among bank-0 commands) a row-miss ACT.
    let b0: Vec<_> = c.iter().filter(|x| x.2 == 0).map(|x| x.1).collect();
    assert_eq!(b0, vec![Act, Wr, Pre, Act, Wr, Pre, Act, Wra]);
    // The last CAS is WRA; the PREs of banks 2 and 3 come after their WRs.
    let last_cas = c
        .iter()
        .rev()
        .find(|x| matches!(x.1, Rd | Rda | Wr | Wra))
        .unwrap();
    assert_eq!((last_cas.1, last_cas.2), (Wra, 0));
    assert!(all_closed_at(&c, t_d));
    assert!(out.done && !out.done_error);
    assert_eq!(dq, 20);
    assert!(log[..=t_d as usize]
        .iter()
        .filter(|o| o.dq_valid)
        .all(|o| o.dq_write));
}

#[test]
fn arbiter_priorities() {
    let p = X16;
    let cas = |ap: bool| Entry {
        ap,
        ..Entry::default()
    };
    let act = Entry {
        act: true,
        ..Entry::default()
    };
    // Rule 5: bank 6 (distance 6) has ACT + 3 CAS to the row, bank 0 (distance 0) ACT +
    // 1 CAS → bank 6 first.
    let mut m = DramModel::new(p, 0);
    m.cycle = 1000;
    m.fifo[0].push(act);
    m.fifo[0].push(Entry {
        act: true,
        ..cas(true)
    });
    m.fifo[6].push(act);
    m.fifo[6].push(cas(false));
    m.fifo[6].push(cas(false));
    m.fifo[6].push(cas(true));
    assert_eq!(m.act_count(0), 1);
    assert_eq!(m.act_count(6), 4);
    let o = m.outputs();
    assert_eq!(
        (o.cmd, bank_of(&p, o.cmd_bg, o.cmd_bank)),
        (Command::Act, 6)
    );
    // An entry with ap stops the count: ACT(ap) + CAS → 1.
    let mut m2 = DramModel::new(p, 0);
    m2.fifo[2].push(Entry {
        act: true,
        ap: true,
        ..Entry::default()
    });
    m2.fifo[2].push(cas(false));
    assert_eq!(m2.act_count(2), 1);
    // Equal counts → smaller rotational distance from cur_pair (4): bank 5 (1) over 3 (7).
    let mut m = DramModel::new(p, 0);
    m.cycle = 1000;
    m.cur_pair = 4;
    m.fifo[3].push(act);
    m.fifo[5].push(act);
    let o = m.outputs();
    assert_eq!(
        (o.cmd, bank_of(&p, o.cmd_bg, o.cmd_bank)),
        (Command::Act, 5)
    );
    // PRE_PRE (tier 2) over ACT (tier 1) over PRE_CLOSE (tier 0); CAS over all.
    let mut m = DramModel::new(p, 0);
    m.cycle = 1000;
    m.bank[1].open = Some(0);
    m.bank[2].open = Some(0);
    m.bank[7].open = Some(0);
    m.fifo[0].push(act);
    m.fifo[1].push(Entry::CLOSE);
    m.fifo[2].push(Entry {
        pre_pre: true,
        act: true,
        ..cas(false)
    });
    assert_eq!(m.outputs().cmd, Command::Pre);
    assert_eq!(m.decide().issue, Some((2, Step::PrePre)));
    m.fifo[7].push(cas(false));
    assert_eq!(m.decide().issue, Some((7, Step::Cas)));
    m.fifo[2] = Fifo::default();
    m.fifo[7] = Fifo::default();
    assert_eq!(m.decide().issue, Some((0, Step::Act)));
    m.fifo[0] = Fifo::default();
    assert_eq!(m.decide().issue, Some((1, Step::PreClose)));
    // cur_pair follows the last CAS (b & !1), and only CAS.
    let mut m = DramModel::new(p, 0);
    m.cycle = 1000;
    m.bank[5].open = Some(0);
    m.fifo[5].push(cas(false));
    assert_eq!(m.step(&DramIn::default()).cmd, Command::Rd);
    assert_eq!(m.cur_pair(), 4);
    m.bank[3].open = Some(0);
    m.fifo[3].push(Entry::CLOSE);
    m.fifo[6].push(act);
    m.step(&DramIn::default());
    m.step(&DramIn::default());
    // The PRE popped bank 3's entry, the ACT opened bank 6 (its CAS waits for RCD).
    assert_eq!((m.fifo_len(3), m.fifo_len(6), m.cur_pair()), (0, 1, 4));
    assert_eq!((m.bank_open(3), m.bank_open(6)), (None, Some(0)));
}

#[test]
fn tile_row_change_in_same_pair() {
    // Two rows of 16 words, 16384 words (64 KiB) apart: burst 0 (bank 0, row 0) then burst
    // 1024 (bank 0, row 1). The successor is in the same pair but another row → RDA, and
    // the second burst needs an ACT to a closed bank. ACT 2, RDA 24, ACT max(2 + RC,
    // max(24 + RTP, 2 + RAS) + RP) = 76, RDA 98; REF legal max(98 + 12, 76 + 52) + 22 =
    // 150 → done 148, LID 150.
    let run = run_request(X16, 0, &Request::tile(false, 0, 16, 16384, 2)).unwrap();
    let c: Vec<_> = run
        .commands
        .iter()
        .map(|(t, o)| (*t, o.cmd, o.cmd_bg, o.cmd_bank, o.cmd_row))
        .collect();
    use Command::*;
    assert_eq!(
        c,
        vec![
            (2, Act, 0, 0, 0),
            (24, Rda, 0, 0, 0),
            (76, Act, 0, 0, 1),
            (98, Rda, 0, 0, 1)
        ]
    );
    assert_eq!((run.done_at, run.lid), (148, 150));
}

#[test]
fn reset_returns_to_power_up() {
    let mut m = DramModel::new(X16, 123);
    let req = Request::contiguous(true, 40, 700);
    m.step(&req.inputs());
    for _ in 0..60 {
        m.step(&DramIn::default());
    }
    assert!(m.busy() && (0..8).any(|b| m.fifo_len(b) > 0 || m.bank_open(b).is_some()));
    m.step(&DramIn {
        reset: true,
        ..req.inputs()
    });
    let mut fresh = DramModel::new(X16, 123);
    fresh.cycle = m.cycle();
    assert_eq!(m, fresh);
}

#[test]
fn fifo_full_stalls_the_front_end() {
    // Bursts 0, 2, 4, ... of a long read all go to banks 0/1; the FIFOs fill (8 entries)
    // and the front-end stalls, never overflowing (Fifo::push asserts).
    let mut m = DramModel::new(X16, 0);
    m.step(&Request::contiguous(false, 0, 2048).inputs());
    let mut max = 0;
    while !m.step(&DramIn::default()).done {
        max = max.max(m.fifo_len(0)).max(m.fifo_len(1));
    }
    assert_eq!(max, 8);
}
