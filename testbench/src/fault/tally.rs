//! The outcomes of fault-injection runs and their counts with Wilson score intervals.

use serde::Serialize;

/// What one injected fault did to the run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Outcome {
    /// The run finished with the fault-free buffers.
    Masked,
    /// The run finished with different buffers: silent data corruption.
    Sdc,
    /// The GPU stopped with an error status (a memory fault, an illegal instruction, ...).
    Detected,
    /// The watchdog stopped the run.
    Hang,
}

/// Counts of outcomes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Tally {
    /// Masked runs.
    pub masked: u64,
    /// Silent data corruptions.
    pub sdc: u64,
    /// Detected errors.
    pub detected: u64,
    /// Hangs.
    pub hang: u64,
}

impl Tally {
    /// Counts one outcome.
    pub fn add(&mut self, o: Outcome) {
        *match o {
            Outcome::Masked => &mut self.masked,
            Outcome::Sdc => &mut self.sdc,
            Outcome::Detected => &mut self.detected,
            Outcome::Hang => &mut self.hang,
        } += 1;
    }

    /// Runs counted.
    pub fn n(&self) -> u64 {
        self.masked + self.sdc + self.detected + self.hang
    }

    /// Runs that did not end masked (the thesis' failures: incorrect output or crash).
    pub fn failures(&self) -> u64 {
        self.n() - self.masked
    }

    /// The failure rate and its 95 % Wilson interval.
    pub fn failure_rate(&self) -> (f64, f64, f64) {
        let n = self.n();
        let p = self.failures() as f64 / n.max(1) as f64;
        let (lo, hi) = wilson(self.failures(), n);
        (p, lo, hi)
    }
}

/// The 95 % Wilson score interval of `k` successes in `n` trials ((0, 1) for n = 0).
pub fn wilson(k: u64, n: u64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let z = 1.959_963_984_540_054_f64;
    let (n, p) = (n as f64, k as f64 / n as f64);
    let d = 1.0 + z * z / n;
    let c = (p + z * z / (2.0 * n)) / d;
    let h = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / d;
    ((c - h).max(0.0), (c + h).min(1.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Wilson's interval for 5 of 10 and 0 of 20 (reference values from the formula's
    /// published tables: 0.2366–0.7634, 0–0.1611). Catches z² / n in place of z² / (2n).
    #[test]
    fn wilson_reference_values() {
        let (lo, hi) = wilson(5, 10);
        assert!(
            (lo - 0.2366).abs() < 1e-4 && (hi - 0.7634).abs() < 1e-4,
            "{lo} {hi}"
        );
        let (lo, hi) = wilson(0, 20);
        assert!(lo == 0.0 && (hi - 0.1611).abs() < 1e-4, "{hi}");
    }
}
