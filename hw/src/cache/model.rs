//! Reference models of the L1 data cache and of the coalescer, written from the contract in
//! [`super`] (the module documentation of `cache/mod.rs`) and the reordering paper's Table 2,
//! Algorithm 3 and Section III-F only.
//!
//! Both are cycle-accurate: `outputs` is what the block drives during the current cycle
//! (combinational from the registers and the cycle's inputs), `step` returns the same outputs
//! and then applies the rising edge that ends the cycle.
//!
//! - [`CacheModel`]: `L1Cache<SETS, WAYS>`.
//! - [`CoalescerModel`]: the coalescer (in `coal_model`, re-exported here).
//! - [`run_sequence`]: the cache behind a fixed-latency memory, one access per cycle.
//!
//! # Readings of the contract
//!
//! Where the contract leaves a choice, the models take these readings:
//! 1. The outputs the contract defines "for an access" (`hit`, `way`, `victim`,
//!    `victim_valid`, `victim_line`, `req_ready`, `mem_req_line`, `mem_req_store`) are defined
//!    in every cycle from the current `req_line` and `req_store`, whatever `req_valid`:
//!    `req_ready` does not depend on `req_valid`. Only `mem_req_valid` needs a taken access.
//! 2. `req_ready` looks at the `pending` *register*: a fill presented in the cycle releases a
//!    stall only in the next cycle (the fill applies at the edge).
//! 3. Tags are never cleared: neither reset nor a write-evict touch them. `victim_line` is the
//!    tag register of the victim way even when `victim_valid` = 0 (0 after power-up).
//! 4. `req_line` and `mem_fill_line` are 25-bit ports: their higher bits are dropped (set and
//!    tag come from the low 25 bits). `accesses` and `misses` wrap at 2^32.
//! 5. `reset` overrides the whole edge: a fill or an access of a reset cycle is ignored.
//! 6. A fill is matched on its line alone, as the contract says: a late fill of a line that was
//!    write-evicted and allocated again clears the newer allocation's `pending`.
//! 7. [`CacheModel::new`] is the state after reset. The RTL powers up with every register 0
//!    (every age 0) and needs a reset cycle; the outputs during that reset cycle are the same
//!    from either state (no valid way, victim 0 with tag 0, counters 0, not ready).
//! 8. The coalescer's readings are in its own module (`coal_model`).

use std::collections::VecDeque;

pub use super::coal_model::{CoalescerIn, CoalescerModel, CoalescerOut};

/// Width of a line number (`byte_addr >> 7` of a 32-bit address).
pub const LINE_BITS: u32 = 25;
/// log2 of the line size (128 bytes).
pub const LINE_SHIFT: u32 = 7;
/// Lanes of a warp (the LD/ST path's coalescer).
pub const LANES: usize = 32;
/// The most sets a cache can have.
pub const MAX_SETS: usize = 32;
/// The associativities a cache can have.
pub const WAY_CHOICES: [usize; 5] = [1, 2, 4, 8, 16];

/// Mask of a 25-bit line number.
const LINE_MASK: u32 = (1 << LINE_BITS) - 1;

/// Inputs of one cache cycle, sampled at the rising edge that ends it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CacheIn {
    /// Synchronous reset: every way invalid, not pending, age\[w\] = w; counters 0.
    pub reset: bool,
    /// An access is presented.
    pub req_valid: bool,
    /// Line number of the access (25 bits; higher bits are dropped).
    pub req_line: u32,
    /// The access is a store (else a load).
    pub req_store: bool,
    /// The memory returns the line of an earlier load miss.
    pub mem_fill: bool,
    /// Line number of the fill (25 bits; higher bits are dropped).
    pub mem_fill_line: u32,
}

impl CacheIn {
    /// A cycle that resets the cache and does nothing else.
    pub const RESET: CacheIn = CacheIn {
        reset: true,
        req_valid: false,
        req_line: 0,
        req_store: false,
        mem_fill: false,
        mem_fill_line: 0,
    };

    /// A cycle that presents an access of `line` (a store when `store`) and nothing else.
    pub fn access(line: u32, store: bool) -> Self {
        Self::default().with_req(Some((line, store)))
    }

    /// A cycle that brings the fill of `line` and nothing else.
    pub fn fill(line: u32) -> Self {
        Self::default().with_fill(Some(line))
    }

    /// This cycle with the access `req` (line, store) presented, or none.
    pub fn with_req(self, req: Option<(u32, bool)>) -> Self {
        let (line, store) = req.unwrap_or_default();
        Self {
            req_valid: req.is_some(),
            req_line: line,
            req_store: store,
            ..self
        }
    }

    /// This cycle with the fill of `line`, or none.
    pub fn with_fill(self, line: Option<u32>) -> Self {
        Self {
            mem_fill: line.is_some(),
            mem_fill_line: line.unwrap_or_default(),
            ..self
        }
    }

    /// The presented access as (line, store).
    pub fn req(&self) -> Option<(u32, bool)> {
        self.req_valid.then_some((self.req_line, self.req_store))
    }
}

/// Outputs of one cache cycle (combinational from the registers and the inputs).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CacheOut {
    /// The access can be taken: not in reset and not a load miss that must stall.
    pub req_ready: bool,
    /// A valid way of `req_line`'s set (pending or not) holds `req_line`.
    pub hit: bool,
    /// The hit way, else the victim.
    pub way: u8,
    /// The lowest-numbered invalid way of the set, else the way of age WAYS−1.
    pub victim: u8,
    /// The victim way is valid (a load miss evicts a line).
    pub victim_valid: bool,
    /// Tag register (line number) of the victim way.
    pub victim_line: u32,
    /// An access is taken and it is a load miss or a store.
    pub mem_req_valid: bool,
    /// `req_line` (25 bits).
    pub mem_req_line: u32,
    /// `req_store`.
    pub mem_req_store: bool,
    /// Accesses taken since reset.
    pub accesses: u32,
    /// Misses among them.
    pub misses: u32,
}

/// The registers of one (set, way).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Way {
    /// Holds a line.
    valid: bool,
    /// Allocated, fill not yet returned.
    pending: bool,
    /// Line number held (25 bits).
    tag: u32,
    /// LRU age within the set (0 = most recently used).
    age: u8,
}

/// The lookup of one line in its set.
#[derive(Clone, Copy, Debug)]
struct Lookup {
    /// Set of the line.
    set: usize,
    /// The valid way holding the line.
    hit: Option<usize>,
    /// The lowest-numbered invalid way, else the LRU way.
    victim: usize,
    /// The set has an invalid way.
    has_invalid: bool,
}

/// Reference model of `L1Cache<SETS, WAYS>`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CacheModel {
    /// Number of sets (a power of two, 1..=32).
    sets: usize,
    /// Number of ways (1, 2, 4, 8 or 16).
    ways: usize,
    /// The ways, index set · ways + way.
    slots: Vec<Way>,
    /// Accesses taken since reset.
    accesses: u32,
    /// Misses among them.
    misses: u32,
}

impl CacheModel {
    /// A cache of `sets` sets (a power of two, 1..=32) and `ways` ways (1, 2, 4, 8 or 16), in
    /// its reset state (every tag 0).
    pub fn new(sets: usize, ways: usize) -> Result<Self, String> {
        if !sets.is_power_of_two() || sets > MAX_SETS {
            return Err(format!("sets must be a power of two in 1..=32, got {sets}"));
        }
        if !WAY_CHOICES.contains(&ways) {
            return Err(format!("ways must be 1, 2, 4, 8 or 16, got {ways}"));
        }
        let mut cache = CacheModel {
            sets,
            ways,
            slots: vec![Way::default(); sets * ways],
            accesses: 0,
            misses: 0,
        };
        cache.reset();
        Ok(cache)
    }

    /// Number of sets.
    pub fn sets(&self) -> usize {
        self.sets
    }

    /// Number of ways.
    pub fn ways(&self) -> usize {
        self.ways
    }

    /// The `valid` register of (`set`, `way`).
    pub fn valid(&self, set: usize, way: usize) -> bool {
        self.slot(set, way).valid
    }

    /// The `pending` register of (`set`, `way`).
    pub fn pending(&self, set: usize, way: usize) -> bool {
        self.slot(set, way).pending
    }

    /// The `tag` register (a line number) of (`set`, `way`).
    pub fn tag(&self, set: usize, way: usize) -> u32 {
        self.slot(set, way).tag
    }

    /// The `age` register of (`set`, `way`) (0 = most recently used).
    pub fn age(&self, set: usize, way: usize) -> u8 {
        self.slot(set, way).age
    }

    /// Accesses taken since reset.
    pub fn accesses(&self) -> u32 {
        self.accesses
    }

    /// Misses among the accesses taken since reset.
    pub fn misses(&self) -> u32 {
        self.misses
    }

    /// The set of a line number.
    pub fn set_of(&self, line: u32) -> usize {
        (line & LINE_MASK) as usize & (self.sets - 1)
    }

    /// The outputs during the current cycle, for the cycle's inputs `i`.
    pub fn outputs(&self, i: &CacheIn) -> CacheOut {
        let line = i.req_line & LINE_MASK;
        let l = self.lookup(line);
        let victim = self.slot(l.set, l.victim);
        let req_ready = !i.reset && !self.stalls(&l, i.req_store);
        let taken = i.req_valid && req_ready;
        CacheOut {
            req_ready,
            hit: l.hit.is_some(),
            way: l.hit.unwrap_or(l.victim) as u8,
            victim: l.victim as u8,
            victim_valid: victim.valid,
            victim_line: victim.tag,
            mem_req_valid: taken && (i.req_store || l.hit.is_none()),
            mem_req_line: line,
            mem_req_store: i.req_store,
            accesses: self.accesses,
            misses: self.misses,
        }
    }

    /// The outputs of the current cycle, then the rising edge that ends it.
    pub fn step(&mut self, i: &CacheIn) -> CacheOut {
        let out = self.outputs(i);
        if i.reset {
            self.reset();
            return out;
        }
        if i.mem_fill {
            self.fill(i.mem_fill_line & LINE_MASK);
        }
        if i.req_valid && out.req_ready {
            self.access(i.req_line & LINE_MASK, i.req_store, &out);
        }
        out
    }

    /// The registers of (`set`, `way`).
    fn slot(&self, set: usize, way: usize) -> &Way {
        assert!(set < self.sets && way < self.ways, "no way ({set}, {way})");
        &self.slots[set * self.ways + way]
    }

    /// The ways of `set`.
    fn set_ways(&self, set: usize) -> &[Way] {
        &self.slots[set * self.ways..(set + 1) * self.ways]
    }

    /// The ways of `set`, mutable.
    fn set_ways_mut(&mut self, set: usize) -> &mut [Way] {
        &mut self.slots[set * self.ways..(set + 1) * self.ways]
    }

    /// The way of `set` with age WAYS−1.
    fn lru_way(&self, set: usize) -> usize {
        let oldest = (self.ways - 1) as u8;
        let ways = self.set_ways(set);
        ways.iter()
            .position(|w| w.age == oldest)
            .expect("ages are a permutation")
    }

    /// Hit way and victim of `line` (25 bits).
    fn lookup(&self, line: u32) -> Lookup {
        let set = self.set_of(line);
        let ways = self.set_ways(set);
        let hit = ways.iter().position(|w| w.valid && w.tag == line);
        let invalid = ways.iter().position(|w| !w.valid);
        Lookup {
            set,
            hit,
            victim: invalid.unwrap_or_else(|| self.lru_way(set)),
            has_invalid: invalid.is_some(),
        }
    }

    /// The access of lookup `l` must wait: a load miss, no invalid way, the LRU way pending.
    fn stalls(&self, l: &Lookup, store: bool) -> bool {
        let load_miss = !store && l.hit.is_none();
        load_miss && !l.has_invalid && self.slot(l.set, self.lru_way(l.set)).pending
    }

    /// Synchronous reset: every way invalid, not pending, age\[w\] = w (tags kept); counters 0.
    fn reset(&mut self) {
        for ways in self.slots.chunks_mut(self.ways) {
            for (w, way) in ways.iter_mut().enumerate() {
                *way = Way {
                    valid: false,
                    pending: false,
                    tag: way.tag,
                    age: w as u8,
                };
            }
        }
        self.accesses = 0;
        self.misses = 0;
    }

    /// A fill of `line`: the pending way holding it stops being pending.
    fn fill(&mut self, line: u32) {
        let set = self.set_of(line);
        let ways = self.set_ways_mut(set);
        if let Some(w) = ways.iter_mut().find(|w| w.pending && w.tag == line) {
            w.pending = false;
        }
    }

    /// A taken access of `line` whose outputs were `out`.
    fn access(&mut self, line: u32, store: bool, out: &CacheOut) {
        let set = self.set_of(line);
        let way = usize::from(out.way);
        self.accesses = self.accesses.wrapping_add(1);
        match (store, out.hit) {
            (false, true) => self.touch(set, way),
            (false, false) => {
                let slot = &mut self.set_ways_mut(set)[way];
                (slot.valid, slot.pending, slot.tag) = (true, true, line);
                self.touch(set, way);
                self.misses = self.misses.wrapping_add(1);
            }
            (true, true) => self.evict(set, way),
            (true, false) => self.misses = self.misses.wrapping_add(1),
        }
    }

    /// LRU touch: the ages below `way`'s grow by one, `way`'s becomes 0.
    fn touch(&mut self, set: usize, way: usize) {
        let ways = self.set_ways_mut(set);
        let age = ways[way].age;
        for w in ways.iter_mut().filter(|w| w.age < age) {
            w.age += 1;
        }
        ways[way].age = 0;
    }

    /// Write-evict: `way` becomes invalid and the oldest; the ages above its drop by one.
    fn evict(&mut self, set: usize, way: usize) {
        let oldest = (self.ways - 1) as u8;
        let ways = self.set_ways_mut(set);
        let age = ways[way].age;
        for w in ways.iter_mut().filter(|w| w.age > age) {
            w.age -= 1;
        }
        ways[way].valid = false;
        ways[way].pending = false;
        ways[way].age = oldest;
    }
}

/// A memory that returns each load miss's fill a fixed number of cycles after its request.
struct FixedLatencyMemory {
    /// Cycles from a request to its fill.
    latency: u64,
    /// Outstanding fills: (cycle of the fill, line), in order.
    queue: VecDeque<(u64, u32)>,
}

impl FixedLatencyMemory {
    /// The fill presented during cycle `t`, if any.
    fn fill_at(&mut self, t: u64) -> Option<u32> {
        match self.queue.front() {
            Some(&(due, line)) if due == t => {
                self.queue.pop_front();
                Some(line)
            }
            _ => None,
        }
    }

    /// A load miss of `line` leaves the cache at the edge of cycle `t`.
    fn request(&mut self, t: u64, line: u32) {
        self.queue.push_back((t + self.latency, line));
    }
}

/// One cycle of [`run_sequence`]: cycle `t` presents the access (`line`, `store`) and the fill
/// due in `t`; true when the access is taken.
fn present(
    cache: &mut CacheModel,
    memory: &mut FixedLatencyMemory,
    t: u64,
    line: u32,
    store: bool,
) -> bool {
    let fill = memory.fill_at(t);
    let out = cache.step(&CacheIn {
        reset: false,
        req_valid: true,
        req_line: line,
        req_store: store,
        mem_fill: fill.is_some(),
        mem_fill_line: fill.unwrap_or(0),
    });
    if out.mem_req_valid && !out.mem_req_store {
        memory.request(t, out.mem_req_line);
    }
    out.req_ready
}

/// Runs `accesses` (line number, store) through a `sets` × `ways` cache, one presented per
/// cycle until taken, behind a memory that presents each load miss's fill `latency` (≥ 1)
/// cycles after the cycle of its `mem_req`. Cycle 0 is a reset cycle. Returns the cache's
/// `(accesses, misses)` after the last access and the cycles an access waited (not ready).
///
/// Panics on an invalid geometry or a zero latency.
pub fn run_sequence(
    sets: usize,
    ways: usize,
    accesses: &[(u32, bool)],
    latency: u32,
) -> (u32, u32, u64) {
    assert!(latency >= 1, "the memory latency must be at least 1 cycle");
    let mut cache = CacheModel::new(sets, ways).unwrap_or_else(|e| panic!("{e}"));
    let mut memory = FixedLatencyMemory {
        latency: u64::from(latency),
        queue: VecDeque::new(),
    };
    cache.step(&CacheIn {
        reset: true,
        ..CacheIn::default()
    });
    let (mut t, mut stalls) = (1u64, 0u64);
    for &(line, store) in accesses {
        while !present(&mut cache, &mut memory, t, line, store) {
            t += 1;
            stalls += 1;
        }
        t += 1;
    }
    (cache.accesses(), cache.misses(), stalls)
}

crate::ports!(CacheIn {
    reset,
    req_valid,
    req_line,
    req_store,
    mem_fill,
    mem_fill_line
});
crate::ports!(CacheOut {
    req_ready,
    hit,
    way,
    victim,
    victim_valid,
    victim_line,
    mem_req_valid,
    mem_req_line,
    mem_req_store,
    accesses,
    misses
});

impl crate::block::Clocked for CacheModel {
    type In = CacheIn;
    type Out = CacheOut;

    fn outputs(&self, input: &CacheIn) -> CacheOut {
        CacheModel::outputs(self, input)
    }

    fn step(&mut self, input: &CacheIn) {
        CacheModel::step(self, input);
    }

    fn cycle(&mut self, input: &CacheIn) -> CacheOut {
        CacheModel::step(self, input)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// A `sets` × `ways` cache after its reset cycle.
    fn cache(sets: usize, ways: usize) -> CacheModel {
        let mut c = CacheModel::new(sets, ways).unwrap();
        let out = c.step(&CacheIn {
            reset: true,
            ..CacheIn::default()
        });
        assert!(!out.req_ready);
        c
    }

    /// One cycle presenting the access (`line`, `store`) and no fill.
    fn access(c: &mut CacheModel, line: u32, store: bool) -> CacheOut {
        c.step(&CacheIn {
            req_valid: true,
            req_line: line,
            req_store: store,
            ..CacheIn::default()
        })
    }

    /// One cycle with no access and the fill of `line`.
    fn fill(c: &mut CacheModel, line: u32) -> CacheOut {
        c.step(&CacheIn {
            mem_fill: true,
            mem_fill_line: line,
            ..CacheIn::default()
        })
    }

    /// Ages of `set`, per way.
    fn ages(c: &CacheModel, set: usize) -> Vec<u8> {
        (0..c.ways()).map(|w| c.age(set, w)).collect()
    }

    /// The contract's invariants of every set: ages a permutation, invalid ways the oldest,
    /// pending only on valid ways, a tag in at most one valid way, in its own set.
    fn check_invariants(c: &CacheModel) {
        for s in 0..c.sets() {
            let mut sorted = ages(c, s);
            sorted.sort_unstable();
            assert_eq!(sorted, (0..c.ways() as u8).collect::<Vec<_>>(), "set {s}");
            let valid: Vec<usize> = (0..c.ways()).filter(|&w| c.valid(s, w)).collect();
            for w in 0..c.ways() {
                assert!(!c.pending(s, w) || c.valid(s, w), "pending invalid way");
                if !c.valid(s, w) {
                    assert!(valid.iter().all(|&v| c.age(s, v) < c.age(s, w)), "set {s}");
                }
            }
            for (i, &a) in valid.iter().enumerate() {
                assert_eq!(c.set_of(c.tag(s, a)), s);
                assert!(valid[i + 1..].iter().all(|&b| c.tag(s, a) != c.tag(s, b)));
            }
        }
    }

    /// The paper's example as line accesses: loads of 0..4 twice, stores of 16..20 twice.
    fn paper_example() -> Vec<(u32, bool)> {
        let loads = (0..4).map(|l| (l, false));
        let stores = (16..20).map(|l| (l, true));
        loads
            .clone()
            .chain(loads)
            .chain(stores.clone())
            .chain(stores)
            .collect()
    }

    /// Plain LRU with write-evict and no-write-allocate: a move-to-front list per set.
    fn lru_lists(sets: usize, ways: usize, seq: &[(u32, bool)]) -> (u32, u32) {
        let mut lists = vec![Vec::<u32>::new(); sets];
        let mut misses = 0;
        for &(line, store) in seq {
            let list = &mut lists[line as usize % sets];
            let pos = list.iter().position(|&l| l == line);
            if let Some(p) = pos {
                list.remove(p);
            } else {
                misses += 1;
            }
            if !store {
                list.insert(0, line);
                list.truncate(ways);
            }
        }
        (seq.len() as u32, misses)
    }

    /// Random geometries: (sets, ways).
    fn geometry() -> impl Strategy<Value = (usize, usize)> {
        (0u32..=5, 0usize..5).prop_map(|(s, w)| (1 << s, WAY_CHOICES[w]))
    }

    /// Random access sequences over `lines` distinct lines.
    fn sequence(lines: u32, len: usize) -> impl Strategy<Value = Vec<(u32, bool)>> {
        prop::collection::vec((0..lines, prop::bool::weighted(0.25)), 1..len)
    }

    #[test]
    fn geometry_is_validated() {
        for (sets, ways) in [(1, 1), (32, 16), (8, 2), (32, 4)] {
            assert!(CacheModel::new(sets, ways).is_ok(), "{sets}x{ways}");
        }
        for (sets, ways) in [(0, 4), (3, 4), (64, 4), (32, 0), (32, 3), (32, 32)] {
            assert!(CacheModel::new(sets, ways).is_err(), "{sets}x{ways}");
        }
    }

    #[test]
    fn reset_state() {
        let mut c = cache(4, 4);
        access(&mut c, 5, false);
        access(&mut c, 5, true);
        access(&mut c, 6, false);
        let during = c.step(&CacheIn {
            reset: true,
            req_valid: true,
            req_line: 7,
            mem_fill: true,
            mem_fill_line: 6,
            ..CacheIn::default()
        });
        assert!(!during.req_ready && !during.mem_req_valid);
        assert_eq!((c.accesses(), c.misses()), (0, 0));
        for s in 0..4 {
            assert_eq!(ages(&c, s), vec![0, 1, 2, 3]);
            assert!((0..4).all(|w| !c.valid(s, w) && !c.pending(s, w)));
        }
        // Power-up (every register 0) and reset state drive the same reset-cycle outputs.
        let fresh = CacheModel::new(4, 4).unwrap();
        let reset_in = CacheIn {
            reset: true,
            ..CacheIn::default()
        };
        let out = fresh.outputs(&reset_in);
        assert_eq!(
            (out.victim, out.victim_valid, out.victim_line),
            (0, false, 0)
        );
        assert_eq!(
            (out.hit, out.req_ready, out.accesses, out.misses),
            (false, false, 0, 0)
        );
    }

    #[test]
    fn paper_example_16_accesses_12_misses() {
        let seq = paper_example();
        for latency in [1, 5, 200] {
            assert_eq!(run_sequence(32, 4, &seq, latency), (16, 12, 0));
            assert_eq!(run_sequence(32, 4, &seq[..8], latency), (8, 4, 0));
        }
        // Cycle by cycle: the hits, the memory requests and the sets used.
        let mut c = cache(32, 4);
        let outs: Vec<_> = seq.iter().map(|&(l, st)| access(&mut c, l, st)).collect();
        let hits: Vec<bool> = outs.iter().map(|o| o.hit).collect();
        assert_eq!(
            hits,
            [[false; 4], [true; 4], [false; 4], [false; 4]].concat()
        );
        assert_eq!(outs.iter().filter(|o| o.mem_req_valid).count(), 12);
        assert!(outs[8..].iter().all(|o| o.mem_req_valid && o.mem_req_store));
        let used: Vec<usize> = (0..32).filter(|&s| (0..4).any(|w| c.valid(s, w))).collect();
        assert_eq!(used, vec![0, 1, 2, 3]);
    }

    #[test]
    fn order_sensitivity() {
        let (a, b, cc) = ((10, false), (20, false), (30, false));
        for latency in [1, 3, 200] {
            assert_eq!(run_sequence(1, 2, &[a, b, a, cc], latency).1, 3);
            assert_eq!(run_sequence(1, 2, &[a, b, cc, a], latency).1, 4);
        }
    }

    #[test]
    fn invalid_ways_first_lowest_numbered() {
        let mut c = cache(1, 4);
        // After reset the victim is way 0 although way 3 is the oldest.
        let out = access(&mut c, 100, false);
        assert_eq!(
            (out.hit, out.victim, out.way, out.victim_valid),
            (false, 0, 0, false)
        );
        assert_eq!(access(&mut c, 101, false).victim, 1);
        assert_eq!(access(&mut c, 102, false).victim, 2);
        assert_eq!(ages(&c, 0), vec![2, 1, 0, 3]);
        // A store hit on way 0 frees it: it is the victim again, before way 3.
        access(&mut c, 100, true);
        assert_eq!(ages(&c, 0), vec![3, 1, 0, 2]);
        let out = access(&mut c, 103, false);
        assert_eq!((out.victim, out.victim_valid), (0, false));
        check_invariants(&c);
    }

    #[test]
    fn lru_victim_is_the_oldest() {
        let mut c = cache(2, 4);
        // Lines 0, 2, 4, 6 fill set 0; their fills return.
        for l in [0, 2, 4, 6] {
            access(&mut c, l, false);
            fill(&mut c, l);
        }
        access(&mut c, 0, false);
        access(&mut c, 4, false);
        // MRU → LRU: 4, 0, 6, 2. Line 2 (way 1) is the victim, even with no access presented.
        assert_eq!(ages(&c, 0), vec![1, 3, 0, 2]);
        let idle = c.outputs(&CacheIn {
            req_line: 8,
            ..CacheIn::default()
        });
        assert_eq!((idle.hit, idle.victim, idle.victim_valid), (false, 1, true));
        assert_eq!(
            (idle.victim_line, idle.way, idle.mem_req_valid),
            (2, 1, false)
        );
        let out = access(&mut c, 8, false);
        assert_eq!(
            (out.victim, out.victim_line, out.mem_req_valid),
            (1, 2, true)
        );
        assert_eq!((c.tag(0, 1), c.pending(0, 1)), (8, true));
        assert_eq!(ages(&c, 0), vec![2, 0, 1, 3]);
        // Line 2 is gone, line 6 (way 3) is now the oldest.
        let out = access(&mut c, 2, false);
        assert_eq!((out.hit, out.victim, out.victim_line), (false, 3, 6));
        assert_eq!((c.accesses(), c.misses()), (8, 6));
    }

    #[test]
    fn outputs_defined_without_an_access() {
        let mut c = cache(4, 2);
        access(&mut c, 9, false);
        let before = c.clone();
        let i = CacheIn {
            req_line: 9,
            ..CacheIn::default()
        };
        let out = c.step(&i);
        assert!(out.hit && out.req_ready && !out.mem_req_valid);
        assert_eq!((out.way, out.mem_req_line, out.accesses), (0, 9, 1));
        assert_eq!(c, before);
    }

    #[test]
    fn line_ports_are_25_bits() {
        let mut c = cache(4, 2);
        let out = access(&mut c, 5 | 1 << 25, false);
        assert_eq!((out.mem_req_line, c.tag(1, 0)), (5, 5));
        assert!(access(&mut c, 5, false).hit);
        fill(&mut c, 5 | 1 << 31);
        assert!(!c.pending(1, 0));
    }

    #[test]
    fn write_evict_and_no_write_allocate() {
        let mut c = cache(2, 2);
        access(&mut c, 4, false);
        access(&mut c, 6, false);
        // Store hit: a hit, sent to memory, the way invalid and the oldest, not a miss.
        let out = access(&mut c, 6, true);
        assert!(out.hit && out.mem_req_valid && out.mem_req_store && out.req_ready);
        assert_eq!((out.way, out.mem_req_line, c.misses()), (1, 6, 2));
        assert!(!c.valid(0, 1) && !c.pending(0, 1));
        assert_eq!(ages(&c, 0), vec![0, 1]);
        // Store miss: sent to memory, a miss, nothing else changes.
        let before = c.clone();
        let out = access(&mut c, 8, true);
        assert!(!out.hit && out.mem_req_valid && out.mem_req_store);
        assert_eq!((c.accesses(), c.misses()), (4, 3));
        for w in 0..2 {
            let state = |m: &CacheModel| (m.valid(0, w), m.pending(0, w), m.tag(0, w), m.age(0, w));
            assert_eq!(state(&c), state(&before));
        }
        // The evicted line misses again.
        assert!(!access(&mut c, 6, false).hit);
        assert_eq!(c.misses(), 4);
        check_invariants(&c);
    }

    #[test]
    fn hit_on_a_pending_line_is_a_hit() {
        let mut c = cache(1, 2);
        access(&mut c, 3, false);
        let out = access(&mut c, 3, false);
        assert!(out.hit && out.req_ready && !out.mem_req_valid);
        assert_eq!((c.accesses(), c.misses()), (2, 1));
        assert!(c.pending(0, 0));
        fill(&mut c, 3);
        assert!(c.valid(0, 0) && !c.pending(0, 0));
        // A fill that matches no pending way is ignored.
        let before = c.clone();
        fill(&mut c, 3);
        fill(&mut c, 7);
        assert_eq!(c, before);
    }

    #[test]
    fn pending_lru_victim_stalls_until_its_fill() {
        let mut c = cache(1, 2);
        access(&mut c, 1, false);
        access(&mut c, 2, false);
        // Line 1 is the LRU and pending: a load miss waits, is not counted, asks nothing.
        for _ in 0..3 {
            let out = access(&mut c, 3, false);
            assert!(!out.req_ready && !out.mem_req_valid);
            assert_eq!((out.victim, out.victim_line, out.accesses), (0, 1, 2));
        }
        // A store and a load hit never stall.
        assert!(access(&mut c, 2, false).req_ready);
        let mut s = c.clone();
        assert!(access(&mut s, 9, true).req_ready);
        // The fill's own cycle still stalls (the pending register), the next one goes.
        let out = c.step(&CacheIn {
            req_valid: true,
            req_line: 3,
            mem_fill: true,
            mem_fill_line: 1,
            ..CacheIn::default()
        });
        assert!(!out.req_ready);
        let out = access(&mut c, 3, false);
        assert!(out.req_ready && out.mem_req_valid && out.victim_valid);
        assert_eq!(
            (out.victim, out.victim_line, c.tag(0, 0), c.misses()),
            (0, 1, 3, 3)
        );
    }

    #[test]
    fn pending_mru_does_not_stall() {
        let mut c = cache(1, 2);
        access(&mut c, 1, false);
        fill(&mut c, 1);
        access(&mut c, 2, false);
        // Way 1 (line 2) is pending but the LRU way 0 is not: evict line 1.
        let out = access(&mut c, 3, false);
        assert!(out.req_ready && out.victim_valid);
        assert_eq!((out.victim, out.victim_line), (0, 1));
    }

    #[test]
    fn fill_applies_before_the_access() {
        let mut c = cache(1, 2);
        access(&mut c, 5, false);
        access(&mut c, 5, true);
        // The old fill of line 5 comes in the edge that allocates line 5 again: it matches no
        // pending way first, then the access sets pending.
        let out = c.step(&CacheIn {
            req_valid: true,
            req_line: 5,
            mem_fill: true,
            mem_fill_line: 5,
            ..CacheIn::default()
        });
        assert!(!out.hit && out.mem_req_valid);
        assert!(c.valid(0, 0) && c.pending(0, 0));
        // A fill and a hit on its line in one edge: not pending any more.
        let out = c.step(&CacheIn {
            req_valid: true,
            req_line: 5,
            mem_fill: true,
            mem_fill_line: 5,
            ..CacheIn::default()
        });
        assert!(out.hit && !c.pending(0, 0));
    }

    #[test]
    fn run_sequence_counts_stall_cycles() {
        // A at cycle 1, B at 2, C waits from cycle 3 to the fill of A in cycle 1 + L.
        let seq = [(0, false), (1, false), (2, false)];
        assert_eq!(run_sequence(1, 2, &seq, 10), (3, 3, 9));
        assert_eq!(run_sequence(1, 2, &seq, 2), (3, 3, 1));
        assert_eq!(run_sequence(1, 2, &seq, 1), (3, 3, 0));
        assert_eq!(run_sequence(1, 4, &seq, 10), (3, 3, 0));
    }

    /// One random cycle of the invariant test.
    fn random_input() -> impl Strategy<Value = CacheIn> {
        (
            prop::bool::weighted(0.02),
            any::<bool>(),
            0u32..24,
            prop::bool::weighted(0.3),
            any::<bool>(),
            0u32..24,
        )
            .prop_map(
                |(reset, req_valid, req_line, req_store, mem_fill, fill)| CacheIn {
                    reset,
                    req_valid,
                    req_line,
                    req_store,
                    mem_fill,
                    mem_fill_line: fill,
                },
            )
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        #[test]
        fn ages_stay_a_permutation(
            (sets, ways) in geometry(),
            inputs in prop::collection::vec(random_input(), 1..300),
        ) {
            let mut c = cache(sets, ways);
            for i in &inputs {
                c.step(i);
                check_invariants(&c);
            }
        }

        #[test]
        fn victim_is_invalid_or_lru(
            (sets, ways) in geometry(),
            inputs in prop::collection::vec(random_input(), 1..300),
        ) {
            let mut c = cache(sets, ways);
            for i in &inputs {
                let out = c.outputs(i);
                let set = c.set_of(i.req_line);
                let v = usize::from(out.victim);
                let first_invalid = (0..ways).find(|&w| !c.valid(set, w));
                match first_invalid {
                    Some(w) => prop_assert_eq!(v, w),
                    None => prop_assert_eq!(c.age(set, v) as usize, ways - 1),
                }
                prop_assert_eq!(out.victim_valid, c.valid(set, v));
                prop_assert_eq!(out.victim_line, c.tag(set, v));
                c.step(i);
            }
        }

        #[test]
        fn misses_do_not_depend_on_latency(
            (sets, ways) in geometry(),
            seq in sequence(48, 200),
            latency in 1u32..300,
        ) {
            let (acc, miss, _) = run_sequence(sets, ways, &seq, 1);
            let (acc_l, miss_l, _) = run_sequence(sets, ways, &seq, latency);
            prop_assert_eq!((acc, miss), (acc_l, miss_l));
            prop_assert_eq!(acc as usize, seq.len());
        }

        #[test]
        fn misses_match_plain_lru_lists(
            (sets, ways) in geometry(),
            seq in sequence(40, 300),
            latency in 1u32..50,
        ) {
            let (acc, miss, _) = run_sequence(sets, ways, &seq, latency);
            prop_assert_eq!((acc, miss), lru_lists(sets, ways, &seq));
        }
    }
}
