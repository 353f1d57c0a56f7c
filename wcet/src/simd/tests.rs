//! Tests: the paper's closed form against hand-computed values (docs/works/simd.md#wcet), the
//! schedule of the abstract two-slot machine against the closed form and Eqs. 10–14 on
//! random phase lists, Theorem 1 (shorter phases never end later), and Eq. 19's example.

use super::*;
use proptest::prelude::*;

/// (C, A, C, A) = (100, 200, 50, 250).
fn example() -> Vec<PhaseCost> {
    vec![
        PhaseCost::compute(100),
        PhaseCost::access(200),
        PhaseCost::compute(50),
        PhaseCost::access(250),
    ]
}

/// Eq. 17 by hand: c_2wg = max(250, 100) + max(100, 200) + max(200, 50) + max(50, 250) = 900;
/// w = 4: 2·900 + min(100, 250) = 1900; w = 5: 2·900 + (100 + 200 + 50 + 250) = 2400.
#[test]
fn closed_form_and_schedule_equal_the_hand_computation() {
    let p = example();
    assert_eq!(c_2wg(&p), 900);
    assert_eq!(closed_form(4, &p), 1900);
    assert_eq!(closed_form(5, &p), 2400);
    assert_eq!(schedule(4, &p), Ok(1900));
    assert_eq!(schedule(5, &p), Ok(2400));
    // Eq. 10: 4·600; Eq. 14: max(4·max(150, 450), 2·600).
    assert_eq!(upper(4, &p), 2400);
    assert_eq!(lower(4, &p), 1800);
}

/// Eq. 19 by hand (DDR4-3200AA at 1 GHz): ⌊(12480 − 560)·0.625⌋ = 7450 cycles between
/// refreshes; 10^6 cycles carry ⌈10^6 / 7450⌉ = 135 refreshes of 350 cycles: 1 047 250.
#[test]
fn refresh_inflation_equals_the_hand_computation() {
    let r = Refresh::new(12480, 560, 625, 1000);
    assert_eq!(r.interval, 7450);
    assert_eq!(r.count(1_000_000), 135);
    assert_eq!(r.inflate(1_000_000), 1_047_250);
    // Asymptotically nRFC / (nREFI − nRFC) = 4.70 %.
    let pct = (r.inflate(100_000_000) - 100_000_000) as f64 / 1e6;
    assert!((4.69..4.71).contains(&pct), "{pct}");
}

#[test]
fn malformed_phase_lists_are_refused() {
    assert!(schedule(2, &[]).is_err());
    assert!(schedule(2, &[PhaseCost::compute(1)]).is_err());
    assert!(schedule(2, &[PhaseCost::access(1), PhaseCost::compute(1)]).is_err());
}

fn phase_list() -> impl Strategy<Value = Vec<PhaseCost>> {
    prop::collection::vec((1u64..400, 1u64..400), 1..6).prop_map(|v| {
        v.into_iter()
            .flat_map(|(c, a)| [PhaseCost::compute(c), PhaseCost::access(a)])
            .collect()
    })
}

proptest! {
    /// The abstract machine's schedule is Eq. 18's closed form, and lies between Eq. 14 and
    /// Eq. 10.
    #[test]
    fn the_schedule_is_the_closed_form_between_the_bounds(p in phase_list(), w in 1u64..12) {
        let s = schedule(w, &p).unwrap();
        prop_assert_eq!(s, closed_form(w, &p));
        prop_assert!(lower(w, &p) <= s && s <= upper(w, &p));
    }

    /// Theorem 1: a phase running shorter than its cost never makes the schedule end later.
    #[test]
    fn shorter_phases_never_end_later(p in phase_list(), w in 1u64..8, i in 0usize..12, cut in 1u64..400) {
        let mut q = p.clone();
        let k = i % q.len();
        q[k].cycles = q[k].cycles.saturating_sub(cut);
        prop_assert!(schedule(w, &q).unwrap() <= schedule(w, &p).unwrap());
    }
}
