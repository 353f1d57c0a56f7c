//! Clock domains on one picosecond timeline.
//!
//! A domain of period P (a rational number of picoseconds) runs cycle *k* from k·P to
//! (k+1)·P: its clock falls at k·P, where the testbench applies the cycle's inputs, and rises at
//! k·P + P/2, where registers load. Edges are kept as exact rationals (half-period counts), so
//! domains whose periods do not divide each other never drift; the VCD gets them rounded down to
//! whole picoseconds.

use std::cmp::Ordering;
use std::fmt;

/// A clock period of `num / den` picoseconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Period {
    num: u64,
    den: u64,
}

impl Period {
    /// A period of `num / den` ps, reduced. Errors when `den` is zero, when the period is
    /// under 2 ps (half-periods must be distinct picoseconds on the VCD timeline), or when the
    /// reduced terms exceed 32 bits (edge times are compared exactly in 128 bits).
    pub fn new(num: u64, den: u64) -> Result<Self, String> {
        if den == 0 || num < 2 * den {
            return Err(format!(
                "a clock period must be at least 2 ps, got {num}/{den} ps"
            ));
        }
        let g = gcd(num, den);
        let (num, den) = (num / g, den / g);
        if num > u64::from(u32::MAX) || den > u64::from(u32::MAX) {
            return Err(format!(
                "clock period {num}/{den} ps: terms must fit in 32 bits"
            ));
        }
        Ok(Self { num, den })
    }

    /// A whole number of picoseconds.
    pub fn ps(ps: u64) -> Result<Self, String> {
        Self::new(ps, 1)
    }

    /// The period of a clock of `mhz` MHz (exact: 10^6 / mhz ps).
    pub fn mhz(mhz: u64) -> Result<Self, String> {
        Self::new(1_000_000, mhz)
    }

    /// The period as a float, in ps (for reports).
    pub fn as_ps_f64(&self) -> f64 {
        self.num as f64 / self.den as f64
    }
}

impl fmt::Display for Period {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.den == 1 {
            write!(f, "{} ps", self.num)
        } else {
            write!(f, "{}/{} ps", self.num, self.den)
        }
    }
}

fn gcd(mut a: u64, mut b: u64) -> u64 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// The next edge of one domain: half-period index `h` (even = cycle start, odd = rising edge),
/// at time `(h + lead) · P / 2`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EdgeTime {
    period: Period,
    half: u64,
    lead: u64,
}

impl EdgeTime {
    /// The first edge (the start of cycle 0, at t = 0) of a domain.
    pub fn first(period: Period) -> Self {
        Self {
            period,
            half: 0,
            lead: 0,
        }
    }

    /// The first edge of a domain whose rising edges fall on whole periods (P, 2P, ...): its
    /// cycle k starts at k·P + P/2 and rises at (k + 1)·P.
    pub fn first_rising_at_period(period: Period) -> Self {
        Self {
            period,
            half: 0,
            lead: 1,
        }
    }

    /// The edge after this one.
    pub fn next(self) -> Self {
        Self {
            half: self.half + 1,
            ..self
        }
    }

    /// Is this the rising edge (the middle of a cycle)?
    pub fn is_rising(&self) -> bool {
        self.half % 2 == 1
    }

    /// The cycle this edge belongs to.
    pub fn cycle(&self) -> u64 {
        self.half / 2
    }

    /// Time of the edge, rounded down to whole picoseconds.
    pub fn ps(&self) -> u64 {
        let t = u128::from(self.half + self.lead) * u128::from(self.period.num)
            / (2 * u128::from(self.period.den));
        u64::try_from(t).unwrap_or(u64::MAX)
    }

    /// Exact comparison of two edges' times (`h1·n1/(2·d1)` vs `h2·n2/(2·d2)`).
    pub fn cmp_time(&self, other: &Self) -> Ordering {
        let a = u128::from(self.half + self.lead)
            * u128::from(self.period.num)
            * u128::from(other.period.den);
        let b = u128::from(other.half + other.lead)
            * u128::from(other.period.num)
            * u128::from(self.period.den);
        a.cmp(&b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edges_of_a_1ghz_clock() {
        let p = Period::mhz(1000).unwrap();
        let e0 = EdgeTime::first(p);
        let e1 = e0.next();
        let e2 = e1.next();
        assert_eq!((e0.ps(), e0.is_rising(), e0.cycle()), (0, false, 0));
        assert_eq!((e1.ps(), e1.is_rising(), e1.cycle()), (500, true, 0));
        assert_eq!((e2.ps(), e2.is_rising(), e2.cycle()), (1000, false, 1));
    }

    #[test]
    fn rational_periods_do_not_drift() {
        // 3 GHz: 1000/3 ps. Cycle 3 starts at exactly 1000 ps, with the 1 GHz cycle 1.
        let fast = Period::mhz(3000).unwrap();
        let slow = Period::mhz(1000).unwrap();
        let mut f = EdgeTime::first(fast);
        for _ in 0..6 {
            f = f.next();
        }
        let s = EdgeTime::first(slow).next().next();
        assert_eq!(f.cycle(), 3);
        assert_eq!(f.cmp_time(&s), Ordering::Equal);
        assert_eq!(f.ps(), 1000);
        // Cycle 1 of the fast clock starts at 333.33 ps, rounded down.
        assert_eq!(EdgeTime::first(fast).next().next().ps(), 333);
    }

    #[test]
    fn a_clock_rising_at_whole_periods() {
        let p = Period::ps(3500).unwrap();
        let e0 = EdgeTime::first_rising_at_period(p);
        let e1 = e0.next();
        let e3 = e1.next().next();
        assert_eq!((e0.ps(), e0.is_rising(), e0.cycle()), (1750, false, 0));
        assert_eq!((e1.ps(), e1.is_rising(), e1.cycle()), (3500, true, 0));
        assert_eq!((e3.ps(), e3.is_rising(), e3.cycle()), (7000, true, 1));
        let other = EdgeTime::first(Period::ps(1000).unwrap());
        let at_7000 = (0..14).fold(other, |e, _| e.next());
        assert_eq!(e3.cmp_time(&at_7000), Ordering::Equal);
    }

    #[test]
    fn ddr4_3200_command_clock() {
        let p = Period::mhz(1600).unwrap();
        assert_eq!(p.as_ps_f64(), 625.0);
        assert_eq!(EdgeTime::first(p).next().ps(), 312);
    }

    #[test]
    fn bad_periods_are_refused() {
        assert!(Period::new(0, 1).is_err());
        assert!(Period::new(1, 0).is_err());
        assert!(Period::mhz(0).is_err());
        assert!(
            Period::new(1, 1).is_err(),
            "a 1 ps period has sub-ps half-periods"
        );
        assert!(Period::new(u64::MAX, 3).is_err());
        assert!(Period::ps(2).is_ok());
    }

    #[test]
    fn periods_are_reduced() {
        assert_eq!(Period::mhz(1000).unwrap(), Period::ps(1000).unwrap());
        assert_eq!(Period::mhz(1600).unwrap().to_string(), "625 ps");
        assert_eq!(Period::mhz(3000).unwrap().to_string(), "1000/3 ps");
    }
}
