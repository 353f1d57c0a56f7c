//! Schedulers of the SM issue model: the behavioural GTO/LRR scheduler lives with its RTL block
//! (`rtgpu_hw::sched::model`); a random one for stress tests is here.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
pub use rtgpu_hw::sched::model::{Policy, PolicyScheduler, Scheduler, MAX_WARPS};

/// A random work-conserving scheduler (a third policy besides GTO and LRR, for stress tests): a
/// uniformly chosen eligible warp each cycle, reproducible from its seed.
#[derive(Clone, Debug)]
pub struct RandomScheduler {
    rng: ChaCha8Rng,
}

impl RandomScheduler {
    /// A scheduler seeded with `seed`.
    pub fn new(seed: u64) -> Self {
        Self {
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }
}

impl Scheduler for RandomScheduler {
    fn grant(&mut self, eligible: u64) -> Option<usize> {
        let n = eligible.count_ones();
        if n == 0 {
            return None;
        }
        let mut k = self.rng.gen_range(0..n);
        let mut m = eligible;
        loop {
            let w = m.trailing_zeros() as usize;
            if k == 0 {
                return Some(w);
            }
            k -= 1;
            m &= m - 1;
        }
    }
}
