//! Unit tests of the DRAM controller model against Sim-D's Eq. 15 (the table of LIDs), and the
//! property test: random back-to-back runs checked for every promise of the contract and by
//! the independent DDR4 timing checker.

use super::*;

#[test]
fn eq15_table_values() {
    // Eq. 15 evaluated by hand for DDR4-3200AA, to make sure the helper is Eq. 15 as printed.
    let want = [
        (1, 74, 88),
        (2, 83, 97),
        (4, 101, 115),
        (8, 101, 127),
        (16, 126, 158),
    ];
    for (b, r, w) in want {
        assert_eq!((tid(&X16, b, false), tid(&X16, b, true)), (r, w), "b = {b}");
    }
    assert_eq!(tid(&X16, 64, false), 318);
    assert_eq!(tid(&X16, 65, true), 357);
    assert_eq!(tid(&X16, 256, true), 1118);
    assert_eq!(tid(&Part::DDR4_1866M_X16, 64, false), 284);
    assert_eq!(tid(&Part::DDR4_1866M_X16, 64, true), 305);
}

/// A contiguous request spanning exactly `bursts` bursts from word `16·k0 + off`.
fn contiguous_case(write: bool, k0: u32, off: u32, bursts: u32, slack: u32) -> Request {
    let lo = (16 * (bursts - 1) + 1).saturating_sub(off).max(1);
    let hi = 16 * bursts - off;
    let words = lo + slack % (hi - lo + 1);
    Request::contiguous(write, (k0 << 4) | off, words)
}

/// Run `reqs` back to back and check every property the contract promises.
fn check_run(part: Part, phase: u16, reqs: &[Request]) -> Result<(), TestCaseError> {
    let (log, done) = trace(part, phase, reqs);
    let c = commands(&part, &log);
    if let Err(e) = check_timing(&part, phase, &log) {
        return Err(TestCaseError::fail(e));
    }
    for (req, &(t_a, t_d, out, dq)) in reqs.iter().zip(&done) {
        let want = expected_bursts(&part, req);
        let cas: Vec<_> = c
            .iter()
            .filter(|x| {
                x.0 >= t_a
                    && x.0 <= t_d
                    && matches!(x.1, Command::Rd | Command::Rda | Command::Wr | Command::Wra)
            })
            .collect();
        prop_assert_eq!(cas.len(), want.len());
        prop_assert!(cas
            .iter()
            .all(|x| matches!(x.1, Command::Wr | Command::Wra) == req.write));
        prop_assert_eq!(dq as usize, 4 * want.len());
        prop_assert_eq!(dq_bursts(&part, &log, t_a, t_d), want);
        prop_assert!(all_closed_at(&c, t_d), "a bank open at done");
        prop_assert_eq!(out.done_lid as u64, t_d + 2 - t_a);
        prop_assert!(!out.done_error);
        // The next command of anyone comes no earlier than t_d + 2.
        if let Some(n) = c.iter().find(|x| x.0 > t_d) {
            prop_assert!(n.0 >= t_d + 2);
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn contiguous_requests_respect_the_contract(
        part in 0usize..3,
        before_due in 0u16..4000,
        reqs in prop::collection::vec(
            (any::<bool>(), 0u32..(1 << 26), 0u32..16, 1u32..=200, any::<u32>()),
            1..=3,
        ),
    ) {
        let part = Part::ALL[part];
        let reqs: Vec<_> = reqs
            .into_iter()
            .map(|(w, k0, off, b, slack)| contiguous_case(w, k0, off, b, slack))
            .collect();
        check_run(part, part.refi - 1 - before_due, &reqs)?;
    }

    #[test]
    fn tiles_respect_the_contract(
        part in 0usize..3,
        before_due in 0u16..3000,
        tiles in prop::collection::vec(
            (
                any::<bool>(),
                0u32..(1 << 22),
                1u32..80,
                prop_oneof![0u32..3000, (1u32..5).prop_map(|m| m << 14)],
                1u16..12,
            ),
            1..=3,
        ),
    ) {
        let part = Part::ALL[part];
        // The period is W + extra, or a multiple of 16384 words (64 KiB: the same bank in
        // another row on 8-bank parts, another pair on 16-bank parts).
        let reqs: Vec<_> = tiles
            .into_iter()
            .map(|(w, a, words, p, count)| {
                let period = if p >= 1 << 14 { p } else { words + p };
                Request::tile(w, a, words, period, count)
            })
            .collect();
        check_run(part, part.refi - 1 - before_due, &reqs)?;
    }
}

/// The LID table of the report: contiguous reads/writes of b bursts at word 0, the max
/// over the 256 burst-aligned starts of a pair span, and over the starts 16s + 1 (b + 1
/// bursts), next to Eq. 15 + 2. `cargo test --release -p rtgpu-hw lid_table -- --ignored
/// --nocapture`.
#[test]
#[ignore]
fn lid_table() {
    for part in Part::ALL {
        println!("{}", part.name);
        println!("   b dir  @0  max-aligned  Eq15(b)+2 | max-misaligned(b+1 bursts)  Eq15(b+1)+2");
        for b in [1u32, 2, 4, 8, 16, 32, 64, 128] {
            for write in [false, true] {
                let lid = |addr: u32| {
                    request_lid(part, 0, &Request::contiguous(write, addr, 16 * b)).unwrap()
                };
                let at0 = lid(0);
                let aligned = (0..256).map(|s| lid(16 * s)).max().unwrap();
                let mis = (0..256).map(|s| lid(16 * s + 1)).max().unwrap();
                println!(
                    "{b:4} {}  {at0:5}  {aligned:5}  {:5} | {mis:5}  {:5}",
                    if write { "W" } else { "R" },
                    tid(&part, b, write) + 2,
                    tid(&part, b + 1, write) + 2
                );
            }
        }
    }
}
