//! Unit tests of the DRAM controller model: the helpers the tests share (traces, commands,
//! DQ bursts, the DDR4 timing checker, Sim-D's Eq. 15 and 16) and hand-checked cycle traces of
//! tiles, refresh and bad requests. The indexed requests, the arbiter's priorities, row
//! changes, reset and FIFO back-pressure are in `arbiter`; Eq. 15's table and the property
//! test over random runs in `props`.

use super::*;
use proptest::prelude::*;

use super::driver::{drive, Completion};
use crate::oracle::ddr4::{Rule, Violation};

const X16: Part = Part::DDR4_3200AA_X16;

/// Every cycle's outputs of a back-to-back run of `reqs`, and the per-request results.
fn trace(part: Part, phase: u16, reqs: &[Request]) -> (Vec<DramOut>, Vec<Completion>) {
    let mut model = DramModel::new(part, phase);
    let mut log = Vec::new();
    let done = drive(&mut model, reqs, 1_000_000, |t, out, _| {
        assert_eq!(t as usize, log.len());
        log.push(*out);
    })
    .expect("run finishes");
    (log, done)
}

/// Bank index (0..nB) of a command or DQ output.
fn bank_of(part: &Part, bg: u8, bank: u8) -> usize {
    bank as usize * part.bank_groups as usize + bg as usize
}

/// (cycle, command, bank, row, col) of every command in `log`.
fn commands(part: &Part, log: &[DramOut]) -> Vec<(u64, Command, usize, u32, u16)> {
    log.iter()
        .enumerate()
        .filter(|(_, o)| o.cmd != Command::Nop)
        .map(|(t, o)| {
            (
                t as u64,
                o.cmd,
                bank_of(part, o.cmd_bg, o.cmd_bank),
                o.cmd_row,
                o.cmd_col,
            )
        })
        .collect()
}

/// The bursts moved on DQ in `log[from..=to]`: (bank, row, DDR4 column, mask, write),
/// sorted. Panics if a reservation's beats are not 0, 1, 2, 3 in consecutive cycles.
fn dq_bursts(
    part: &Part,
    log: &[DramOut],
    from: u64,
    to: u64,
) -> Vec<(usize, u32, u16, u16, bool)> {
    let mut v = Vec::new();
    let mut cur: Option<(usize, u32, u16, u16, bool)> = None;
    let mut expect_beat = 0u8;
    for o in &log[from as usize..=to as usize] {
        if !o.dq_valid {
            assert_eq!(expect_beat, 0, "a DQ reservation was cut short");
            continue;
        }
        assert_eq!(o.dq_beat, expect_beat, "DQ beats out of order");
        let key = (bank_of(part, o.dq_bg, o.dq_bank), o.dq_row, o.dq_col);
        if o.dq_beat == 0 {
            cur = Some((key.0, key.1, key.2, 0, o.dq_write));
        }
        let c = cur.as_mut().expect("beat 0 first");
        assert_eq!((c.0, c.1, c.2, c.4), (key.0, key.1, key.2, o.dq_write));
        c.3 |= u16::from(o.dq_mask) << (4 * o.dq_beat);
        expect_beat = (o.dq_beat + 1) % 4;
        if expect_beat == 0 {
            v.push(cur.take().unwrap());
        }
    }
    v.sort();
    v
}

/// The bursts a tile must move, from the address mapping of the contract (written out
/// again here): (bank, row, DDR4 column, mask, write), sorted.
fn expected_bursts(part: &Part, req: &Request) -> Vec<(usize, u32, u16, u16, bool)> {
    let p = (part.banks as u32 / 2).trailing_zeros();
    let mut m: std::collections::BTreeMap<u32, u16> = Default::default();
    for r in 0..u32::from(req.count) {
        for i in 0..req.words {
            let word = (req.addr + r * req.period + i) & WORD_MASK;
            *m.entry(word >> 4).or_default() |= 1 << (word & 15);
        }
    }
    let mut v: Vec<_> = m
        .into_iter()
        .map(|(k, mask)| {
            let a = k << 6; // byte address of the burst
            let bank = (((a >> 14) & ((1 << p) - 1)) << 1 | ((a >> 6) & 1)) as usize;
            let col = ((a >> 7) & 0x7f) as u16 * 8;
            let row = a >> (14 + p);
            (bank, row, col, mask, req.write)
        })
        .collect();
    v.sort();
    v
}

/// Every violation the independent DDR4 timing checker ([`crate::oracle::ddr4`]) finds in the
/// commands of `log` (a run from cycle 0 with refresh phase `phase`), up to the end of the log.
fn timing_violations(part: &Part, phase: u16, log: &[DramOut]) -> Vec<Violation> {
    let mut ch = checker(part, phase).expect("the checker knows the part");
    let mut v = Vec::new();
    for (t, o) in log.iter().enumerate() {
        if let Some(c) = trace_cmd(t as u64, o) {
            v.extend(ch.violations(&c));
            let _ = ch.check(&c);
        }
    }
    v.extend(ch.finish(log.len().saturating_sub(1) as u64).err());
    v
}

/// The commands of `log` break no DDR4 timing rule (see [`timing_violations`]).
fn check_timing(part: &Part, phase: u16, log: &[DramOut]) -> Result<(), String> {
    match timing_violations(part, phase, log).first() {
        None => Ok(()),
        Some(v) => Err(v.to_string()),
    }
}

/// Every bank closed after the commands up to cycle `t` (by the checker's own count).
fn all_closed_at(cmds: &[(u64, Command, usize, u32, u16)], t: u64) -> bool {
    let mut open = [false; 16];
    for &(tc, c, b, _, _) in cmds.iter().take_while(|c| c.0 <= t) {
        let _ = tc;
        match c {
            Command::Act => open[b] = true,
            Command::Pre | Command::Rda | Command::Wra => open[b] = false,
            _ => {}
        }
    }
    !open.iter().any(|&o| o)
}

// ------------------------------------------------------------------ Eq. 15 / 16 --

/// Eq. 15's AC(b) (2 bank groups) or the reference's 4BG form.
fn ac(p: &Part, b: u32) -> u32 {
    let (rrd, rcd, l, s) = (
        u32::from(p.rrd_s),
        u32::from(p.rcd),
        u32::from(p.ccd_l),
        u32::from(p.ccd_s),
    );
    if p.bank_groups > 2 {
        return rcd + (b - 1) * s;
    }
    match b {
        1..=4 => (b - 1) * rrd + rcd,
        5 | 6 => 2 * rrd + rcd + (b - 4) * l + s,
        7 | 8 => 3 * rrd + rcd + l + s,
        _ if b % 2 == 1 => rrd + rcd + 2 * l + (b - 4) * s,
        _ => 2 * rrd + rcd + l + (b - 5) * s,
    }
}

/// Eq. 15: tID_R(b), tID_W(b).
fn tid(p: &Part, b: u32, write: bool) -> u32 {
    let u = u32::from;
    if write {
        ac(p, b) + u(p.cwl) + u(p.bl) + u(p.wr) + u(p.rp)
    } else {
        (ac(p, b) + u(p.rtp) + u(p.rp)).max((b - 1).min(3) * u(p.rrd_s) + u(p.ras) + u(p.rp))
    }
}

#[test]
fn fig3_tile_two_bursts() {
    // Fig. 3: start word 2 (byte 0x8), 5 words, period 7, 3 rows: rows cover words
    // 2..=6, 9..=13, 16..=20. Burst 0 (words 0..16): bits 2–6 = 0x007C and bits 9–13 =
    // 0x3E00 → 0x3E7C; burst 1 (words 16..32): bits 0–4 → 0x001F.
    let req = Request::tile(false, 2, 5, 7, 3);
    let (log, done) = trace(X16, 0, std::slice::from_ref(&req));
    let (t_a, t_d, out, dq) = done[0];
    let bursts = dq_bursts(&X16, &log, t_a, t_d);
    assert_eq!(
        bursts,
        vec![(0, 0, 0, 0x3E7C, false), (1, 0, 0, 0x001F, false)],
        "two bursts, bank 0 then bank 1 (a[6]), column 0"
    );
    assert_eq!(bursts, expected_bursts(&X16, &req));
    assert_eq!(dq, 8);
    // One burst per cycle: burst 0 (rows 0 and 1 merged) is emitted in cycle 1 with
    // successor burst 1 (same pair, same row → RD, ap = 0), burst 1 (row 2, the last) in
    // cycle 2 with ap = 1; the partner bank 0 is open in the shadow table → a stand-alone PRE
    // for bank 0.
    // ACT b0 in 2; ACT b1 (other BG) at 2 + RRD_S = 11; RD b0 at 2 + RCD = 24;
    // RDA b1 at 11 + RCD = 33; PRE b0 at max(2 + RAS, 24 + RTP) = 54.
    // REF legal: max(54 + RP = 76, max(33 + RTP, 11 + RAS) + RP = 85, 11 + RC = 85) = 85
    // → done in 83, LID 85: the authors' controller's LID for this tile.
    let c = commands(&X16, &log);
    assert_eq!(
        c,
        vec![
            (2, Command::Act, 0, 0, 0),
            (11, Command::Act, 1, 0, 0),
            (24, Command::Rd, 0, 0, 0),
            (33, Command::Rda, 1, 0, 0),
            (54, Command::Pre, 0, 0, 0),
        ]
    );
    assert_eq!((t_a, t_d, out.done_lid), (0, 83, 85));
    check_timing(&X16, 0, &log).unwrap();
}

#[test]
fn one_burst_read() {
    // Accepted in 0, segment processed and pushed in 1, head visible in 2: ACT in 2,
    // RDA in 2 + RCD = 24. REF legal at max(24 + RTP, 2 + RAS) + RP = max(36, 54) + 22 =
    // 76 (and ACT→REF: 2 + RC = 76) → done in 74, LID = 74 + 2 − 0 = 76.
    // Eq. 15 (b = 1): max(AC(1) + RTP + RP, 0·RRD_S + RAS + RP) = max(56, 74) = 74, from
    // the first command in 2: 2 + 74 = 76.
    let run = run_request(X16, 0, &Request::contiguous(false, 0, 16)).unwrap();
    let cmds: Vec<_> = run
        .commands
        .iter()
        .map(|(t, o)| (*t, o.cmd, o.cmd_bg, o.cmd_bank, o.cmd_row, o.cmd_col))
        .collect();
    assert_eq!(
        cmds,
        vec![
            (2, Command::Act, 0, 0, 0, 0),
            (24, Command::Rda, 0, 0, 0, 0)
        ]
    );
    assert_eq!((run.accepted_at, run.done_at, run.lid), (0, 74, 76));
    assert_eq!(run.lid, 2 + tid(&X16, 1, false));
    assert_eq!(run.dq_cycles, 4);
    assert!(!run.error);
    // DQ: RDA in 24 → beats in 24 + CL = 46..=49, all 16 words.
    let (log, _) = trace(X16, 0, &[Request::contiguous(false, 0, 16)]);
    for (t, o) in log.iter().enumerate() {
        let beat = (t as i64) - 46;
        if (0..4).contains(&beat) {
            assert!(o.dq_valid && !o.dq_write && o.dq_mask == 0xf && o.dq_beat == beat as u8);
        } else {
            assert!(!o.dq_valid && o.dq_mask == 0 && o.dq_beat == 0, "cycle {t}");
        }
    }
    assert!(log[74].done && log[74].done_tag == 0 && log[74].done_lid == 76);
    assert!(log.iter().filter(|o| o.done).count() == 1);
}

#[test]
fn aligned_4k_read() {
    // 1024 words at word 0: 64 bursts, alternating banks 0 and 1 (pair 0, row 0).
    let run = run_request(X16, 0, &Request::contiguous(false, 0, 1024)).unwrap();
    println!("4 KiB aligned read on {}: LID {}", X16.name, run.lid);
    for (t, o) in run.commands.iter().take(12) {
        println!(
            "  {t:4} {:4} bg {} bank {} row {} col {}",
            o.cmd.name(),
            o.cmd_bg,
            o.cmd_bank,
            o.cmd_row,
            o.cmd_col
        );
    }
    // Eq. 15: tID_R(64) = 318 from the first command (cycle 2 here).
    assert_eq!(tid(&X16, 64, false), 318);
    assert!(run.lid <= 318 + 2, "LID {}", run.lid);
    let cas: Vec<_> = run
        .commands
        .iter()
        .filter(|(_, o)| matches!(o.cmd, Command::Rd | Command::Rda))
        .collect();
    assert_eq!(cas.len(), 64);
    // Only the last CAS (burst 63 → bank 1) auto-precharges; bank 0 closes with a PRE.
    assert_eq!(cas.last().unwrap().1.cmd, Command::Rda);
    assert_eq!(cas.last().unwrap().1.cmd_bg, 1);
    let pres: Vec<_> = run
        .commands
        .iter()
        .filter(|(_, o)| o.cmd == Command::Pre)
        .collect();
    assert_eq!(pres.len(), 1);
    assert_eq!((pres[0].1.cmd_bg, pres[0].1.cmd_bank), (0, 0));
    assert_eq!(run.dq_cycles, 256);
}

#[test]
fn refresh_without_request() {
    let p = X16;
    let mut m = DramModel::new(p, p.refi - 5);
    // The counter holds tREFI − 5 in cycle 0, tREFI − 1 in cycle 4: owed = 1 from cycle 5,
    // where REF is legal (power-up: all bounds met) → REF in 5, owed back to 0 in 6.
    let mut owed = Vec::new();
    for t in 0..40u64 {
        let o = m.step(&DramIn::default());
        owed.push(o.ref_owed);
        if t == 5 {
            assert_eq!(o.cmd, Command::Ref);
            assert!(!o.req_ready, "no acceptance while owed > 0");
        } else {
            assert_eq!(o.cmd, Command::Nop, "cycle {t}");
        }
    }
    assert_eq!(&owed[..8], &[0, 0, 0, 0, 0, 1, 0, 0]);
    // Next due tREFI cycles later.
    let mut m = DramModel::new(p, p.refi - 5);
    let mut refs = Vec::new();
    for t in 0..(2 * u64::from(p.refi) + 10) {
        if m.step(&DramIn::default()).cmd == Command::Ref {
            refs.push(t);
        }
    }
    assert_eq!(
        refs,
        vec![5, 5 + u64::from(p.refi), 5 + 2 * u64::from(p.refi)]
    );
}

#[test]
fn refresh_waits_for_done_and_blocks_acceptance() {
    let p = X16;
    // The 4 KiB read runs 0..=t_d (t_d ≈ 316); refresh falls due at the edge of cycle
    // 99 (counter tREFI − 100 in cycle 0), so owed = 1 from 100 while the request runs.
    let first = Request::contiguous(false, 0, 1024);
    let second = Request::contiguous(true, 4096, 16).with_tag(2);
    let (log, done) = trace(p, p.refi - 100, &[first, second]);
    let (_, t_d, _, _) = done[0];
    assert_eq!(log[99].ref_owed, 0);
    assert!((100..=t_d as usize).all(|t| log[t].ref_owed == 1));
    // Nothing refreshes while the request is in progress; the REF comes in t_d + 2 (REF
    // legal from t_d + 2 by the done rule, nothing in progress from t_d + 1).
    let refs: Vec<_> = (0..log.len())
        .filter(|&t| log[t].cmd == Command::Ref)
        .collect();
    assert_eq!(refs, vec![t_d as usize + 2]);
    // req_ready = 0 in t_d, t_d + 1, t_d + 2 (owed = 1); owed = 0 from t_d + 3, where the
    // second request (presented since cycle 0) is accepted.
    for t in t_d..=t_d + 2 {
        assert!(!log[t as usize].req_ready, "cycle {t}");
    }
    assert_eq!(log[t_d as usize + 3].ref_owed, 0);
    let (t_a2, _, out2, _) = done[1];
    assert_eq!(t_a2, t_d + 3);
    assert_eq!(out2.done_tag, 2);
    // Its ACT waits tRFC after the REF.
    let c = commands(&p, &log);
    let act = c.iter().find(|x| x.0 > t_d && x.1 == Command::Act).unwrap();
    assert_eq!(act.0, t_d + 2 + u64::from(p.rfc));
    check_timing(&p, p.refi - 100, &log).unwrap();
}

#[test]
fn one_burst_write() {
    // WRA in 24 (as the read): DQ from 24 + CWL − 2 = 38 to 41. REF legal at
    // max(24 + CWL + BL + WR, 2 + RAS) + RP = max(68, 54) + 22 = 90 → LID 90 = Eq. 15's
    // tID_W(1) = 88, + 2.
    let (log, done) = trace(X16, 0, &[Request::contiguous(true, 0, 16)]);
    let c = commands(&X16, &log);
    assert_eq!(
        c,
        vec![(2, Command::Act, 0, 0, 0), (24, Command::Wra, 0, 0, 0)]
    );
    assert_eq!((done[0].1, done[0].2.done_lid), (88, 90));
    let dq: Vec<usize> = (0..log.len()).filter(|&t| log[t].dq_valid).collect();
    assert_eq!(dq, vec![38, 39, 40, 41]);
    assert!(dq.iter().all(|&t| log[t].dq_write && log[t].dq_mask == 0xf));
}

#[test]
fn refresh_overflow() {
    let p = X16;
    // Due at the edges of cycles 0, tREFI, 2·tREFI, ...: a read of 30000 bursts (≥ 4
    // cycles each, so longer than 8·tREFI = 99840 cycles) sees more than eight refreshes
    // fall due: owed saturates at 8 and the ninth (edge of 8·tREFI) sets ref_overflow.
    let first = Request::contiguous(false, 0, 16 * 30_000);
    let second = Request::contiguous(false, 0, 16).with_tag(9);
    let (log, done) = trace(p, p.refi - 1, &[first, second]);
    let (_, t_d, _, _) = done[0];
    assert!(t_d > 8 * u64::from(p.refi));
    let first_overflow = log.iter().position(|o| o.ref_overflow).unwrap() as u64;
    assert_eq!(first_overflow, 8 * u64::from(p.refi) + 1);
    assert_eq!(log[first_overflow as usize - 1].ref_owed, 8);
    assert!(
        log[first_overflow as usize..]
            .iter()
            .all(|o| o.ref_overflow),
        "sticky"
    );
    assert!(log.iter().all(|o| o.ref_owed <= 8));
    // After done (t_d = 121228, after the dues at 0..=9·tREFI): eight REFs tRFC apart
    // from t_d + 2; the due at 10·tREFI = 124800 falls among them, so a ninth follows;
    // the second request is accepted when owed is back to 0, after the last REF.
    assert!(
        t_d < 10 * u64::from(p.refi) && t_d + 2 + 7 * u64::from(p.rfc) > 10 * u64::from(p.refi)
    );
    let refs: Vec<u64> = (0..log.len() as u64)
        .filter(|&t| log[t as usize].cmd == Command::Ref)
        .collect();
    let want: Vec<u64> = (0..9).map(|i| t_d + 2 + i * u64::from(p.rfc)).collect();
    assert_eq!(refs, want);
    assert_eq!(done[1].0, want[8] + 1);
    // The overflow this test provokes is the only rule the checker sees broken.
    let v = timing_violations(&p, p.refi - 1, &log);
    assert!(
        !v.is_empty() && v.iter().all(|v| v.rule == Rule::Postponed),
        "{v:?}"
    );
}

#[test]
fn bad_requests() {
    for (req, why) in [
        (Request::tile(false, 0, 0, 16, 1), "W = 0"),
        (Request::tile(true, 0, 16, 16, 0), "C = 0"),
        (Request::tile(false, 0, 16, 15, 2), "P < W with C > 1"),
        (
            Request {
                period: 0,
                ..Request::indexed(false, vec![1, 2])
            },
            "indexed, P < W with C > 1",
        ),
    ] {
        let mut m = DramModel::new(X16, 0);
        let o0 = m.step(&DramIn {
            req_tag: 0x77,
            ..req.inputs()
        });
        assert!(o0.req_ready && !o0.done, "{why}");
        // Completes in t_a + 1 = 1 with error, LID 0, tag echoed, ready again.
        let o1 = m.step(&DramIn::default());
        assert!(o1.done && o1.done_error, "{why}");
        assert_eq!((o1.done_lid, o1.done_tag), (0, 0x77), "{why}");
        assert!(o1.req_ready, "{why}");
        for _ in 0..300 {
            let o = m.step(&DramIn::default());
            assert_eq!(o.cmd, Command::Nop, "{why}");
            assert!(!o.done && !o.dq_valid && !o.idx_ready, "{why}");
        }
        assert!(!m.busy());
    }
    // Not bad: P < W with C = 1.
    let run = run_request(X16, 0, &Request::tile(false, 0, 16, 1, 1)).unwrap();
    assert_eq!((run.error, run.lid), (false, 76));
    // A bad request, then a good one accepted in t_a + 1 = 1 (its ACT in 3).
    let runs = run_requests(
        X16,
        0,
        &[
            Request::tile(false, 0, 0, 0, 1),
            Request::contiguous(false, 0, 16),
        ],
    )
    .unwrap();
    assert!(runs[0].error && runs[0].commands.is_empty());
    assert_eq!((runs[0].accepted_at, runs[0].done_at), (0, 1));
    assert_eq!(runs[1].accepted_at, 1);
    assert_eq!(runs[1].commands[0].0, 3);
    assert_eq!(runs[1].lid, 76);
    assert_eq!(
        request_lid(X16, 0, &Request::tile(false, 0, 0, 0, 1)),
        Err(RunError::BadRequest { done_at: 1 })
    );
}

mod arbiter;
mod props;
