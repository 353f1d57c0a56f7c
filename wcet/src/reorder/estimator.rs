//! The miss-rate estimator (Section III-F of the reordering paper): a plain LRU replay of the
//! release sequence.
//!
//! Every released instance sends its lines to the L1D in ascending order, one access each:
//!
//! - **load**: a miss if the line is absent; then the line is touched (hit) or filled (miss).
//! - **store, [`WritePolicy::EvictNoAllocate`]** (default; GPGPU-Sim Fermi "global write-evict,
//!   no write-allocate"; the paper does not state the write policy): a hit invalidates the line
//!   (the way becomes free); a miss is counted and allocates nothing.
//! - **store, [`WritePolicy::WriteBackAllocate`]**: a miss is counted and the line is filled; a
//!   hit touches it.
//!
//! Set index = line number mod `sets` (a linear index, not GPGPU-Sim's hash; `line & (sets − 1)`
//! for a power of two). Fills are allocate-on-miss: the tag and the LRU state change at the access,
//! so the LRU state follows the release order whatever the memory latency.
//!
//! **Victim way rule:** a fill takes the lowest-numbered invalid way of the set; when every way
//! is valid, the least recently used way is replaced in place (its way number is kept).

use std::fmt;

use serde::{Deserialize, Serialize};

use super::analyzer::Analysis;
use super::order::{check_permutation, OrderError, Released};

/// What a global store does in the L1D.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum WritePolicy {
    /// Hit: invalidate the line; miss: no allocation.
    #[default]
    EvictNoAllocate,
    /// Hit: touch; miss: fill.
    WriteBackAllocate,
}

/// The L1D geometry and write policy.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct CacheConfig {
    /// Number of sets (≥ 1).
    pub sets: u32,
    /// Ways per set (≥ 1).
    pub ways: u32,
    /// Line size in bytes; must be 128, the analyzer's line size.
    pub line_bytes: u32,
    /// Store behaviour.
    pub write: WritePolicy,
}

impl CacheConfig {
    /// 16 kB, 4-way, 32 sets × 128 B (the reordering paper's Table 2), write-evict.
    pub fn l1_16k() -> Self {
        Self::with_ways(4)
    }

    /// 32 kB, 8-way, 32 sets × 128 B, write-evict.
    pub fn l1_32k() -> Self {
        Self::with_ways(8)
    }

    /// 64 kB, 16-way, 32 sets × 128 B, write-evict.
    pub fn l1_64k() -> Self {
        Self::with_ways(16)
    }

    fn with_ways(ways: u32) -> Self {
        CacheConfig {
            sets: 32,
            ways,
            line_bytes: 128,
            write: WritePolicy::EvictNoAllocate,
        }
    }

    /// The same geometry with another write policy.
    pub fn with_write(self, write: WritePolicy) -> Self {
        CacheConfig { write, ..self }
    }

    /// Capacity in bytes.
    pub fn size_bytes(&self) -> u64 {
        u64::from(self.sets) * u64::from(self.ways) * u64::from(self.line_bytes)
    }

    /// Checks sets ≥ 1, 1 ≤ ways ≤ 1024, at most 2^24 lines in all and 128-byte lines.
    pub fn validate(&self) -> Result<(), EstimateError> {
        let lines = u64::from(self.sets) * u64::from(self.ways);
        if self.sets == 0
            || !(1..=1024).contains(&self.ways)
            || lines > 1 << 24
            || self.line_bytes != 128
        {
            return Err(EstimateError::BadCache { config: *self });
        }
        Ok(())
    }
}

/// A valid line evicted by a fill.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Victim {
    /// The way it occupied (and the new line now occupies).
    pub way: u32,
    /// The evicted line number.
    pub line: u32,
}

/// One line access.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct CacheEvent {
    /// The line number.
    pub line: u32,
    /// Its set.
    pub set: u32,
    /// From a store.
    pub is_store: bool,
    /// Hit or miss.
    pub hit: bool,
    /// The way hit, filled or invalidated; `None` for a store miss without allocation.
    pub way: Option<u32>,
    /// The valid line a fill replaced, if any.
    pub victim: Option<Victim>,
}

/// The replay's result.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Estimate {
    /// Line accesses (loads + stores).
    pub accesses: u64,
    /// Misses.
    pub misses: u64,
    /// Load line accesses.
    pub load_accesses: u64,
    /// Load misses.
    pub load_misses: u64,
    /// Store line accesses.
    pub store_accesses: u64,
    /// Store misses.
    pub store_misses: u64,
    /// Missing lines of each released instance, in release order.
    pub per_access: Vec<u32>,
    /// Every line access in order.
    pub events: Vec<CacheEvent>,
}

fn ratio(num: u64, den: u64) -> f64 {
    if den == 0 {
        0.0
    } else {
        num as f64 / den as f64
    }
}

impl Estimate {
    /// `misses / accesses` (0 when there is no access), over coalesced 128-byte line
    /// accesses, loads and stores.
    pub fn miss_rate(&self) -> f64 {
        ratio(self.misses, self.accesses)
    }

    /// `load_misses / load_accesses` (0 when there is no load).
    pub fn load_miss_rate(&self) -> f64 {
        ratio(self.load_misses, self.load_accesses)
    }
}

/// Why no estimate was produced.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EstimateError {
    /// The cache configuration is invalid ([`CacheConfig::validate`]).
    BadCache {
        /// The configuration.
        config: CacheConfig,
    },
    /// The order is not a permutation of the analysis' instances, or the analysis is malformed.
    Order(OrderError),
}

impl fmt::Display for EstimateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::BadCache { config } => write!(
                f,
                "bad cache {config:?}: need sets ≥ 1, 1 ≤ ways ≤ 1024, sets × ways ≤ 2^24 and \
                 128-byte lines"
            ),
            Self::Order(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for EstimateError {}

#[derive(Clone, Copy, Debug, Default)]
struct Way {
    line: Option<u32>,
    last_use: u64,
}

/// A set-associative LRU cache of 128-byte lines.
#[derive(Clone, Debug)]
pub struct LruCache {
    cfg: CacheConfig,
    ways: Vec<Way>,
    clock: u64,
}

impl LruCache {
    /// An empty (cold) cache.
    pub fn new(cfg: CacheConfig) -> Result<Self, EstimateError> {
        cfg.validate()?;
        Ok(LruCache {
            cfg,
            ways: vec![Way::default(); cfg.sets as usize * cfg.ways as usize],
            clock: 0,
        })
    }

    /// The line's set.
    pub fn set_of(&self, line: u32) -> u32 {
        line % self.cfg.sets
    }

    fn set_ways(&mut self, set: u32) -> &mut [Way] {
        let w = self.cfg.ways as usize;
        let start = set as usize * w;
        &mut self.ways[start..start + w]
    }

    /// The line's way, if present.
    pub fn lookup(&self, line: u32) -> Option<u32> {
        let w = self.cfg.ways as usize;
        let start = self.set_of(line) as usize * w;
        self.ways[start..start + w]
            .iter()
            .position(|x| x.line == Some(line))
            .map(|i| i as u32)
    }

    /// One line access under the configured write policy.
    pub fn access(&mut self, line: u32, is_store: bool) -> CacheEvent {
        self.clock += 1;
        let set = self.set_of(line);
        let found = self.lookup(line);
        let (way, victim) = match (found, is_store, self.cfg.write) {
            (Some(w), true, WritePolicy::EvictNoAllocate) => {
                self.set_ways(set)[w as usize] = Way::default();
                (Some(w), None)
            }
            (None, true, WritePolicy::EvictNoAllocate) => (None, None),
            (Some(w), _, _) => {
                let clock = self.clock;
                self.set_ways(set)[w as usize].last_use = clock;
                (Some(w), None)
            }
            (None, _, _) => {
                let (w, v) = self.fill(set, line);
                (Some(w), v)
            }
        };
        CacheEvent {
            line,
            set,
            is_store,
            hit: found.is_some(),
            way,
            victim,
        }
    }

    /// Fills `line` into `set`: lowest invalid way, else the LRU way.
    fn fill(&mut self, set: u32, line: u32) -> (u32, Option<Victim>) {
        let clock = self.clock;
        let ways = self.set_ways(set);
        let w = match ways.iter().position(|x| x.line.is_none()) {
            Some(w) => w,
            None => (0..ways.len())
                .min_by_key(|&i| ways[i].last_use)
                .unwrap_or(0),
        };
        let victim = ways[w].line.map(|l| Victim {
            way: w as u32,
            line: l,
        });
        ways[w] = Way {
            line: Some(line),
            last_use: clock,
        };
        (w as u32, victim)
    }
}

/// Replays a sequence of instances, each `(lines, is_store)` with lines in the order they are
/// sent (ascending for analyzer output), through a cold cache.
pub fn replay<'x>(
    seq: impl IntoIterator<Item = (&'x [u32], bool)>,
    cfg: CacheConfig,
) -> Result<Estimate, EstimateError> {
    let mut cache = LruCache::new(cfg)?;
    let mut est = Estimate::default();
    for (lines, is_store) in seq {
        let mut missing = 0u32;
        for &line in lines {
            let ev = cache.access(line, is_store);
            est.count(&ev);
            missing += u32::from(!ev.hit);
            est.events.push(ev);
        }
        est.per_access.push(missing);
    }
    Ok(est)
}

impl Estimate {
    fn count(&mut self, ev: &CacheEvent) {
        let miss = u64::from(!ev.hit);
        self.accesses += 1;
        self.misses += miss;
        if ev.is_store {
            self.store_accesses += 1;
            self.store_misses += miss;
        } else {
            self.load_accesses += 1;
            self.load_misses += miss;
        }
    }
}

/// Replays the release `order` of analysis `a` (which must be a permutation of its instances)
/// through a cold cache `cfg`.
pub fn estimate(
    a: &Analysis,
    order: &[Released],
    cfg: CacheConfig,
) -> Result<Estimate, EstimateError> {
    cfg.validate()?;
    a.validate()
        .map_err(|m| EstimateError::Order(OrderError::Malformed(m)))?;
    let accesses = check_permutation(a, order).map_err(EstimateError::Order)?;
    replay(
        accesses.iter().map(|x| (x.lines.as_slice(), x.is_store)),
        cfg,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tiny(write: WritePolicy) -> CacheConfig {
        CacheConfig {
            sets: 1,
            ways: 2,
            line_bytes: 128,
            write,
        }
    }

    #[test]
    fn lru_victims_and_lowest_invalid_way() {
        let mut c = LruCache::new(tiny(WritePolicy::EvictNoAllocate)).unwrap();
        let a = c.access(10, false);
        assert_eq!((a.hit, a.way, a.victim), (false, Some(0), None));
        assert_eq!(c.access(11, false).way, Some(1));
        assert!(c.access(10, false).hit); // 11 is now LRU
        let ev = c.access(12, false);
        assert_eq!(
            (ev.way, ev.victim),
            (Some(1), Some(Victim { way: 1, line: 11 }))
        );
        // a store hit invalidates way 0; the next fill takes it.
        let st = c.access(10, true);
        assert_eq!((st.hit, st.way), (true, Some(0)));
        assert_eq!(c.lookup(10), None);
        let st = c.access(99, true);
        assert_eq!((st.hit, st.way), (false, None));
        assert_eq!(c.access(13, false).way, Some(0));
    }

    #[test]
    fn write_back_allocate_fills_on_store_miss() {
        let lines = [5u32];
        let e = replay(
            [(&lines[..], true), (&lines[..], true), (&lines[..], false)],
            tiny(WritePolicy::WriteBackAllocate),
        )
        .unwrap();
        assert_eq!(
            (e.accesses, e.misses, e.store_misses, e.load_misses),
            (3, 1, 1, 0)
        );
        assert_eq!(e.per_access, vec![1, 0, 0]);
        let e = replay(
            [(&lines[..], true), (&lines[..], true), (&lines[..], false)],
            tiny(WritePolicy::EvictNoAllocate),
        )
        .unwrap();
        assert_eq!((e.misses, e.store_misses, e.load_misses), (3, 2, 1));
    }

    #[test]
    fn configs_and_errors() {
        assert_eq!(CacheConfig::l1_16k().size_bytes(), 16 * 1024);
        assert_eq!(CacheConfig::l1_32k().size_bytes(), 32 * 1024);
        assert_eq!(CacheConfig::l1_64k().size_bytes(), 64 * 1024);
        assert_eq!(CacheConfig::l1_64k().ways, 16);
        let bad = CacheConfig {
            line_bytes: 64,
            ..CacheConfig::l1_16k()
        };
        assert!(matches!(
            LruCache::new(bad),
            Err(EstimateError::BadCache { .. })
        ));
        let bad = CacheConfig {
            sets: 0,
            ..CacheConfig::l1_16k()
        };
        assert!(replay(std::iter::empty(), bad).is_err());
        let huge = CacheConfig {
            sets: u32::MAX,
            ..CacheConfig::l1_16k()
        };
        assert!(huge.validate().is_err());
        assert_eq!(Estimate::default().miss_rate(), 0.0);
    }
}
