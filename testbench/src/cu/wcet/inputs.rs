//! `rtgpu wcet --run --inputs N`: the one bound against N random inputs — random buffer
//! contents (each buffer's kind: `int`, `float`, ...) and every scalar argument with a
//! declared range (`// @range K LO..HI`) drawn from it; arguments without a range keep
//! their value (they are part of the launch shape).

use super::{observe, Analysis, WcetCase};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rtgpu_firmware::launch::Arg;
use serde::Serialize;

/// One input that exceeded the bound or failed.
#[derive(Clone, Debug, Serialize)]
pub struct Violation {
    /// The input's seed (its buffers and drawn arguments).
    pub seed: u64,
    /// Its scalar arguments (position, value).
    pub scalars: Vec<(usize, i64)>,
    /// Its cycles.
    pub cycles: u64,
    /// `done` or the error.
    pub status: String,
}

/// The bound against random inputs.
#[derive(Clone, Debug, Serialize)]
pub struct InputRuns {
    /// Inputs run.
    pub inputs: u64,
    /// The most cycles any of them took.
    pub worst: u64,
    /// The seed of that input.
    pub worst_seed: u64,
    /// The scalar arguments of that input (position, value).
    pub worst_scalars: Vec<(usize, i64)>,
    /// Bound / worst observed (1.0 is exact).
    pub tightness: f64,
    /// The inputs above the bound or not finishing.
    pub violations: Vec<Violation>,
    /// The multi-phase bound the inputs were also checked against (`None`: not applicable).
    pub multiphase: Option<u64>,
    /// The inputs above the multi-phase bound.
    pub multiphase_violations: Vec<Violation>,
}

/// Input `i` of the random series of `case`: its buffers from seed `case.seed + i`, its
/// ranged scalar arguments drawn from their ranges.
pub fn random_input(case: &WcetCase, i: u64) -> (WcetCase, Vec<(usize, i64)>) {
    let seed = case.seed.wrapping_add(i);
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x5eed_f1a9_u64);
    let mut c = case.clone();
    c.seed = seed;
    let mut scalars = Vec::new();
    for r in &case.facts.ranges {
        if let Some(a) = c.args.get_mut(r.arg) {
            let v = rng.gen_range(r.lo..=r.hi);
            *a = Arg::Scalar(v as u32);
            scalars.push((r.arg, v));
        }
    }
    (c, scalars)
}

/// Runs `n` random inputs of `case` against `a`'s bound and the multi-phase bound `mp`;
/// `tick` after each.
pub fn run_inputs(
    case: &WcetCase,
    a: &Analysis,
    mp: Option<u64>,
    n: u64,
    tick: &dyn Fn(),
) -> Result<InputRuns, String> {
    let mut r = InputRuns {
        inputs: n,
        worst: 0,
        worst_seed: case.seed,
        worst_scalars: Vec::new(),
        tightness: 0.0,
        violations: Vec::new(),
        multiphase: mp,
        multiphase_violations: Vec::new(),
    };
    for i in 0..n {
        let (c, scalars) = random_input(case, i);
        let o = observe(&c, a)?;
        if o.cycles > r.worst {
            (r.worst, r.worst_seed, r.worst_scalars) = (o.cycles, c.seed, scalars.clone());
        }
        let v = Violation {
            seed: c.seed,
            scalars,
            cycles: o.cycles,
            status: o.status,
        };
        if mp.is_some_and(|b| v.cycles > b || v.status != "done") {
            r.multiphase_violations.push(v.clone());
        }
        if !o.within {
            r.violations.push(v);
        }
        tick();
    }
    r.tightness = a.wcet as f64 / r.worst.max(1) as f64;
    Ok(r)
}

impl InputRuns {
    /// The summary lines of the report.
    pub fn text(&self, bound: u64) -> String {
        let mut t = format!(
            "{} random inputs: worst observed {} cycles (seed {}{}), bound {bound}, \
             tightness {:.2}, {} violation(s)\n",
            self.inputs,
            self.worst,
            self.worst_seed,
            scalars(&self.worst_scalars),
            self.tightness,
            self.violations.len()
        );
        if let Some(mp) = self.multiphase {
            t += &format!(
                "multi-phase GUB {mp}: tightness {:.2}, {} violation(s)\n",
                mp as f64 / self.worst.max(1) as f64,
                self.multiphase_violations.len()
            );
        }
        for v in self.violations.iter().chain(&self.multiphase_violations) {
            t += &format!(
                "ABOVE the bound: seed {}{}: {} cycles ({})\n",
                v.seed,
                scalars(&v.scalars),
                v.cycles,
                v.status
            );
        }
        t
    }
}

fn scalars(s: &[(usize, i64)]) -> String {
    s.iter().map(|(k, v)| format!(", arg {k} = {v}")).collect()
}
