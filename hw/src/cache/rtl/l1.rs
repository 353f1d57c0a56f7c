//! The L1 data cache (contract: [`super`], "L1Cache").
//!
//! The state is held by `WAYS` [`WayColumn`]s: column `w` keeps way `w` of every set (valid,
//! pending, tag, age registers per set) and reads two rows out of them, the access's set and
//! the fill's set. The top works on the access's row, one set of locals per way:
//!
//! - fill: `f_match[w]` = the fill's tag is way `w` of the fill's set and it is pending; the
//!   column clears that `pending`. When the fill's set is the access's set, the row written
//!   back by the access keeps the fill's effect (`pend[w]`); the stall is decided on the
//!   registered `pending`, so a fill of the LRU victim releases a stall in the next cycle.
//! - hit: `m[w]` = valid & tag == `req_line`; `hit` = an OR chain of `m`.
//! - victim: `first_inv[w]` = way `w` is the lowest-numbered invalid way (an OR chain of the
//!   invalid bits below it), `old[w]` = age == WAYS−1; `vict[w]` = `first_inv[w]` when some way is
//!   invalid, else `old[w]` (one-hot: the ages are a permutation).
//! - the touched way `tgt[w]` = `m[w]` on a hit, else `vict[w]`; its age `t_age`.
//! - new ages, per way: a touch (`touch_age`: `tgt` → 0, ages below `t_age` + 1) and an
//!   invalidation (`inval_age`: `tgt` → WAYS−1, ages above `t_age` − 1).
//! - the row written back (loads and store hits): ages from the touch (loads) or the
//!   invalidation (store hits); the victim of a load miss gets valid, pending and the tag; the
//!   hit way of a store loses valid and pending. Store misses write nothing.
//!
//! Ages, `way` and `victim` are 4 bits wide whatever `WAYS` (const generics cannot size a port
//! by log2 WAYS); their values are below `WAYS`. The ages written are masked with WAYS−1 (a
//! no-op on values below WAYS), so the age register bits above log2 WAYS have a constant 0 input
//! and synthesis removes them.
//!
//! Verilator lint: a column's read outputs depend combinationally on its read addresses, and
//! the top reads those outputs in its one `always` block. Verilator splits that block into
//! independent parts only when no local signal joins them, so the columns' read addresses are
//! computed straight from the ports (no shared `a_set` local); otherwise it reports UNOPTFLAT.

use crate::hdl::k;
use rust_hdl::prelude::*;

/// Way `w` of every one of `SETS` sets: the registers and their two read ports.
#[derive(LogicBlock)]
pub struct WayColumn<const SETS: usize> {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: invalid, not pending, age `home_age` in every set (tags are kept).
    pub reset: Signal<In, Bit>,
    /// This way's age after reset (its way number).
    pub home_age: Signal<In, Bits<4>>,
    /// The access's set (read port `valid`/`pending`/`tag`/`age`, write port `wr_*`).
    pub a_set: Signal<In, Bits<5>>,
    /// The fill's set (read port `f_pending`/`f_tag`, `fill_clear`).
    pub f_set: Signal<In, Bits<5>>,
    /// Clear `pending` in the fill's set at the edge.
    pub fill_clear: Signal<In, Bit>,
    /// Write the access's set at the edge (after the fill's clear).
    pub wr: Signal<In, Bit>,
    /// Valid bit written.
    pub wr_valid: Signal<In, Bit>,
    /// Pending bit written.
    pub wr_pending: Signal<In, Bit>,
    /// Tag written.
    pub wr_tag: Signal<In, Bits<25>>,
    /// Age written.
    pub wr_age: Signal<In, Bits<4>>,
    /// The access's set: valid.
    pub valid: Signal<Out, Bit>,
    /// The access's set: pending (before this edge's fill).
    pub pending: Signal<Out, Bit>,
    /// The access's set: tag.
    pub tag: Signal<Out, Bits<25>>,
    /// The access's set: age.
    pub age: Signal<Out, Bits<4>>,
    /// The fill's set: pending.
    pub f_pending: Signal<Out, Bit>,
    /// The fill's set: tag.
    pub f_tag: Signal<Out, Bits<25>>,
    valid_r: [DFF<Bit>; SETS],
    pending_r: [DFF<Bit>; SETS],
    tag_r: [DFF<Bits<25>>; SETS],
    age_r: [DFF<Bits<4>>; SETS],
    set_idx: [Constant<Bits<5>>; SETS],
    // Read-port mux chains (element `s` = the port's value over sets 0..=s); each signal is
    // written once per evaluation, so an event-driven simulator sees no glitch on the outputs
    // (a default-then-override output loops Icarus through the top's feedback).
    rd_valid: [Signal<Local, Bit>; SETS],
    rd_pending: [Signal<Local, Bit>; SETS],
    rd_tag: [Signal<Local, Bits<25>>; SETS],
    rd_age: [Signal<Local, Bits<4>>; SETS],
    fr_pending: [Signal<Local, Bit>; SETS],
    fr_tag: [Signal<Local, Bits<25>>; SETS],
}

impl<const SETS: usize> Default for WayColumn<SETS> {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            home_age: Default::default(),
            a_set: Default::default(),
            f_set: Default::default(),
            fill_clear: Default::default(),
            wr: Default::default(),
            wr_valid: Default::default(),
            wr_pending: Default::default(),
            wr_tag: Default::default(),
            wr_age: Default::default(),
            valid: Default::default(),
            pending: Default::default(),
            tag: Default::default(),
            age: Default::default(),
            f_pending: Default::default(),
            f_tag: Default::default(),
            valid_r: array_init::array_init(|_| Default::default()),
            pending_r: array_init::array_init(|_| Default::default()),
            tag_r: array_init::array_init(|_| Default::default()),
            age_r: array_init::array_init(|_| Default::default()),
            set_idx: array_init::array_init(|s| k(s as u64)),
            rd_valid: array_init::array_init(|_| Default::default()),
            rd_pending: array_init::array_init(|_| Default::default()),
            rd_tag: array_init::array_init(|_| Default::default()),
            rd_age: array_init::array_init(|_| Default::default()),
            fr_pending: array_init::array_init(|_| Default::default()),
            fr_tag: array_init::array_init(|_| Default::default()),
        }
    }
}

impl<const SETS: usize> Logic for WayColumn<SETS> {
    #[hdl_gen]
    fn update(&mut self) {
        // Read ports: mux chains (set 0 is the default when no set matches).
        self.rd_valid[0].next = self.valid_r[0].q.val();
        self.rd_pending[0].next = self.pending_r[0].q.val();
        self.rd_tag[0].next = self.tag_r[0].q.val();
        self.rd_age[0].next = self.age_r[0].q.val();
        self.fr_pending[0].next = self.pending_r[0].q.val();
        self.fr_tag[0].next = self.tag_r[0].q.val();
        for s in 1..SETS {
            if self.a_set.val() == self.set_idx[s].val() {
                self.rd_valid[s].next = self.valid_r[s].q.val();
                self.rd_pending[s].next = self.pending_r[s].q.val();
                self.rd_tag[s].next = self.tag_r[s].q.val();
                self.rd_age[s].next = self.age_r[s].q.val();
            } else {
                self.rd_valid[s].next = self.rd_valid[s - 1].val();
                self.rd_pending[s].next = self.rd_pending[s - 1].val();
                self.rd_tag[s].next = self.rd_tag[s - 1].val();
                self.rd_age[s].next = self.rd_age[s - 1].val();
            }
            if self.f_set.val() == self.set_idx[s].val() {
                self.fr_pending[s].next = self.pending_r[s].q.val();
                self.fr_tag[s].next = self.tag_r[s].q.val();
            } else {
                self.fr_pending[s].next = self.fr_pending[s - 1].val();
                self.fr_tag[s].next = self.fr_tag[s - 1].val();
            }
        }
        for last in (SETS - 1)..SETS {
            self.valid.next = self.rd_valid[last].val();
            self.pending.next = self.rd_pending[last].val();
            self.tag.next = self.rd_tag[last].val();
            self.age.next = self.rd_age[last].val();
            self.f_pending.next = self.fr_pending[last].val();
            self.f_tag.next = self.fr_tag[last].val();
        }
        for s in 0..SETS {
            self.valid_r[s].clock.next = self.clock.val();
            self.pending_r[s].clock.next = self.clock.val();
            self.tag_r[s].clock.next = self.clock.val();
            self.age_r[s].clock.next = self.clock.val();
            self.valid_r[s].d.next = self.valid_r[s].q.val();
            self.pending_r[s].d.next = self.pending_r[s].q.val();
            self.tag_r[s].d.next = self.tag_r[s].q.val();
            self.age_r[s].d.next = self.age_r[s].q.val();
            // Writes: the fill, then the access, then reset.
            if self.fill_clear.val() & (self.f_set.val() == self.set_idx[s].val()) {
                self.pending_r[s].d.next = false;
            }
            if self.wr.val() & (self.a_set.val() == self.set_idx[s].val()) {
                self.valid_r[s].d.next = self.wr_valid.val();
                self.pending_r[s].d.next = self.wr_pending.val();
                self.tag_r[s].d.next = self.wr_tag.val();
                self.age_r[s].d.next = self.wr_age.val();
            }
            if self.reset.val() {
                self.valid_r[s].d.next = false;
                self.pending_r[s].d.next = false;
                self.age_r[s].d.next = self.home_age.val();
            }
        }
    }
}

/// The L1 data cache: `SETS` sets (a power of two, 1..=32) of `WAYS` ways (1, 2, 4, 8 or 16),
/// 128-byte lines, true LRU, allocate on load miss, write-evict and no-write-allocate.
#[derive(LogicBlock)]
pub struct L1Cache<const SETS: usize, const WAYS: usize> {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: every way invalid, not pending, `age[w] = w`; counters 0. One reset
    /// cycle is needed before use.
    pub reset: Signal<In, Bit>,
    /// An access is presented.
    pub req_valid: Signal<In, Bit>,
    /// Its line number (byte address >> 7); set = line mod SETS, tag = the whole line.
    pub req_line: Signal<In, Bits<25>>,
    /// It is a store (else a load).
    pub req_store: Signal<In, Bit>,
    /// Memory returns the line of an earlier load miss at this edge.
    pub mem_fill: Signal<In, Bit>,
    /// The returned line: the pending way holding it stops being pending.
    pub mem_fill_line: Signal<In, Bits<25>>,
    /// The access is taken at the edge if `req_valid`: not in reset, and not a load miss whose
    /// set has no invalid way and whose LRU way is pending (after this edge's fill).
    pub req_ready: Signal<Out, Bit>,
    /// Some valid way of the set holds `req_line` (pending ways count).
    pub hit: Signal<Out, Bit>,
    /// The hit way, else the victim (below WAYS).
    pub way: Signal<Out, Bits<4>>,
    /// The lowest-numbered invalid way of the set, else its LRU way (age WAYS−1).
    pub victim: Signal<Out, Bits<4>>,
    /// The victim is valid: a load miss would evict it.
    pub victim_valid: Signal<Out, Bit>,
    /// The victim's tag (its line number).
    pub victim_line: Signal<Out, Bits<25>>,
    /// A request goes to memory at this edge: a taken load miss or a taken store.
    pub mem_req_valid: Signal<Out, Bit>,
    /// Its line (= `req_line`).
    pub mem_req_line: Signal<Out, Bits<25>>,
    /// It is a store (= `req_store`).
    pub mem_req_store: Signal<Out, Bit>,
    /// Accesses taken since reset.
    pub accesses: Signal<Out, Bits<32>>,
    /// Misses (load or store) among them.
    pub misses: Signal<Out, Bits<32>>,
    ways: [WayColumn<SETS>; WAYS],
    accesses_r: DFF<Bits<32>>,
    misses_r: DFF<Bits<32>>,
    // The access and the fill address the same set.
    same_set: Signal<Local, Bit>,
    // Per way of the access's row.
    f_match: [Signal<Local, Bit>; WAYS],
    pend: [Signal<Local, Bit>; WAYS],
    m: [Signal<Local, Bit>; WAYS],
    hit_acc: [Signal<Local, Bit>; WAYS],
    inv_acc: [Signal<Local, Bit>; WAYS],
    first_inv: [Signal<Local, Bit>; WAYS],
    old: [Signal<Local, Bit>; WAYS],
    vict: [Signal<Local, Bit>; WAYS],
    tgt: [Signal<Local, Bit>; WAYS],
    touch_age: [Signal<Local, Bits<4>>; WAYS],
    inval_age: [Signal<Local, Bits<4>>; WAYS],
    // The row's summary.
    hit_l: Signal<Local, Bit>,
    any_inv: Signal<Local, Bit>,
    hit_way: Signal<Local, Bits<4>>,
    victim_l: Signal<Local, Bits<4>>,
    vline: Signal<Local, Bits<25>>,
    vpend: Signal<Local, Bit>,
    t_age: Signal<Local, Bits<4>>,
    load_miss: Signal<Local, Bit>,
    stall: Signal<Local, Bit>,
    taken: Signal<Local, Bit>,
    way_idx: [Constant<Bits<4>>; WAYS],
    set_mask: Constant<Bits<5>>,
    oldest: Constant<Bits<4>>,
    age_mask: Constant<Bits<4>>,
    zero4: Constant<Bits<4>>,
    one4: Constant<Bits<4>>,
    zero25: Constant<Bits<25>>,
    zero32: Constant<Bits<32>>,
    one32: Constant<Bits<32>>,
}

impl<const SETS: usize, const WAYS: usize> Default for L1Cache<SETS, WAYS> {
    fn default() -> Self {
        assert!(
            SETS.is_power_of_two() && SETS <= 32,
            "SETS: a power of two, 1..=32"
        );
        assert!(
            WAYS.is_power_of_two() && WAYS <= 16,
            "WAYS: 1, 2, 4, 8 or 16"
        );
        Self {
            clock: Default::default(),
            reset: Default::default(),
            req_valid: Default::default(),
            req_line: Default::default(),
            req_store: Default::default(),
            mem_fill: Default::default(),
            mem_fill_line: Default::default(),
            req_ready: Default::default(),
            hit: Default::default(),
            way: Default::default(),
            victim: Default::default(),
            victim_valid: Default::default(),
            victim_line: Default::default(),
            mem_req_valid: Default::default(),
            mem_req_line: Default::default(),
            mem_req_store: Default::default(),
            accesses: Default::default(),
            misses: Default::default(),
            ways: array_init::array_init(|_| Default::default()),
            accesses_r: Default::default(),
            misses_r: Default::default(),
            same_set: Default::default(),
            f_match: array_init::array_init(|_| Default::default()),
            pend: array_init::array_init(|_| Default::default()),
            m: array_init::array_init(|_| Default::default()),
            hit_acc: array_init::array_init(|_| Default::default()),
            inv_acc: array_init::array_init(|_| Default::default()),
            first_inv: array_init::array_init(|_| Default::default()),
            old: array_init::array_init(|_| Default::default()),
            vict: array_init::array_init(|_| Default::default()),
            tgt: array_init::array_init(|_| Default::default()),
            touch_age: array_init::array_init(|_| Default::default()),
            inval_age: array_init::array_init(|_| Default::default()),
            hit_l: Default::default(),
            any_inv: Default::default(),
            hit_way: Default::default(),
            victim_l: Default::default(),
            vline: Default::default(),
            vpend: Default::default(),
            t_age: Default::default(),
            load_miss: Default::default(),
            stall: Default::default(),
            taken: Default::default(),
            way_idx: array_init::array_init(|w| k(w as u64)),
            set_mask: k(SETS as u64 - 1),
            oldest: k(WAYS as u64 - 1),
            age_mask: k(WAYS as u64 - 1),
            zero4: k(0),
            one4: k(1),
            zero25: k(0),
            zero32: k(0),
            one32: k(1),
        }
    }
}

impl<const SETS: usize, const WAYS: usize> Logic for L1Cache<SETS, WAYS> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, accesses_r, misses_r);
        // ---- The two rows: the access's set and the fill's set. The columns' read addresses
        // come straight from the ports (no local shared with the logic that reads the rows):
        // Verilator then splits this block and sees no combinational loop through a column.
        for w in 0..WAYS {
            self.ways[w].clock.next = self.clock.val();
            self.ways[w].reset.next = self.reset.val();
            self.ways[w].home_age.next = self.way_idx[w].val();
            self.ways[w].a_set.next = self.req_line.val().get_bits::<5>(0) & self.set_mask.val();
            self.ways[w].f_set.next =
                self.mem_fill_line.val().get_bits::<5>(0) & self.set_mask.val();
        }
        self.same_set.next = (self.req_line.val().get_bits::<5>(0) & self.set_mask.val())
            == (self.mem_fill_line.val().get_bits::<5>(0) & self.set_mask.val());
        for w in 0..WAYS {
            // The fill clears its way's pending; the access sees the row after it.
            self.f_match[w].next = self.mem_fill.val()
                & self.ways[w].f_pending.val()
                & (self.ways[w].f_tag.val() == self.mem_fill_line.val());
            self.ways[w].fill_clear.next = self.f_match[w].val();
            self.pend[w].next =
                self.ways[w].pending.val() & !(self.f_match[w].val() & self.same_set.val());
            self.m[w].next =
                self.ways[w].valid.val() & (self.ways[w].tag.val() == self.req_line.val());
            self.old[w].next = self.ways[w].age.val() == self.oldest.val();
        }
        // ---- Hit, and the lowest invalid way (OR chains over the ways).
        self.hit_acc[0].next = self.m[0].val();
        self.inv_acc[0].next = !self.ways[0].valid.val();
        self.first_inv[0].next = !self.ways[0].valid.val();
        for w in 1..WAYS {
            self.hit_acc[w].next = self.hit_acc[w - 1].val() | self.m[w].val();
            self.inv_acc[w].next = self.inv_acc[w - 1].val() | !self.ways[w].valid.val();
            self.first_inv[w].next = !self.ways[w].valid.val() & !self.inv_acc[w - 1].val();
        }
        for last in (WAYS - 1)..WAYS {
            self.hit_l.next = self.hit_acc[last].val();
            self.any_inv.next = self.inv_acc[last].val();
        }
        // ---- Victim and touched way (one-hot), encoded; the touched way's age.
        self.hit_way.next = self.zero4.val();
        self.victim_l.next = self.zero4.val();
        self.vline.next = self.zero25.val();
        self.vpend.next = false;
        self.t_age.next = self.zero4.val();
        for w in 0..WAYS {
            self.vict[w].next = self.old[w].val();
            if self.any_inv.val() {
                self.vict[w].next = self.first_inv[w].val();
            }
            self.tgt[w].next = self.vict[w].val();
            if self.hit_l.val() {
                self.tgt[w].next = self.m[w].val();
            }
            if self.m[w].val() {
                self.hit_way.next = self.way_idx[w].val();
            }
            if self.vict[w].val() {
                self.victim_l.next = self.way_idx[w].val();
                self.vline.next = self.ways[w].tag.val();
                self.vpend.next = self.ways[w].pending.val();
            }
            if self.tgt[w].val() {
                self.t_age.next = self.ways[w].age.val();
            }
        }
        // ---- New ages: touch (load) and invalidation (store hit).
        for w in 0..WAYS {
            self.touch_age[w].next = self.ways[w].age.val();
            if self.ways[w].age.val() < self.t_age.val() {
                self.touch_age[w].next = self.ways[w].age.val() + self.one4.val();
            }
            if self.tgt[w].val() {
                self.touch_age[w].next = self.zero4.val();
            }
            self.inval_age[w].next = self.ways[w].age.val();
            if self.ways[w].age.val() > self.t_age.val() {
                self.inval_age[w].next = self.ways[w].age.val() - self.one4.val();
            }
            if self.tgt[w].val() {
                self.inval_age[w].next = self.oldest.val();
            }
        }
        // ---- Handshake.
        self.load_miss.next = !self.req_store.val() & !self.hit_l.val();
        self.stall.next = self.load_miss.val() & !self.any_inv.val() & self.vpend.val();
        self.taken.next = self.req_valid.val() & !self.reset.val() & !self.stall.val();
        // ---- The row written back: loads and store hits (a store miss changes nothing).
        for w in 0..WAYS {
            self.ways[w].wr.next = self.taken.val() & (!self.req_store.val() | self.hit_l.val());
            self.ways[w].wr_valid.next = self.ways[w].valid.val();
            self.ways[w].wr_pending.next = self.pend[w].val();
            self.ways[w].wr_tag.next = self.ways[w].tag.val();
            self.ways[w].wr_age.next = self.touch_age[w].val() & self.age_mask.val();
            if self.req_store.val() {
                self.ways[w].wr_age.next = self.inval_age[w].val() & self.age_mask.val();
                if self.tgt[w].val() {
                    self.ways[w].wr_valid.next = false;
                    self.ways[w].wr_pending.next = false;
                }
            }
            if self.load_miss.val() & self.tgt[w].val() {
                self.ways[w].wr_valid.next = true;
                self.ways[w].wr_pending.next = true;
                self.ways[w].wr_tag.next = self.req_line.val();
            }
        }
        // ---- Counters.
        if self.taken.val() {
            self.accesses_r.d.next = self.accesses_r.q.val() + self.one32.val();
            if !self.hit_l.val() {
                self.misses_r.d.next = self.misses_r.q.val() + self.one32.val();
            }
        }
        if self.reset.val() {
            self.accesses_r.d.next = self.zero32.val();
            self.misses_r.d.next = self.zero32.val();
        }
        // ---- Outputs.
        self.req_ready.next = !self.reset.val() & !self.stall.val();
        self.hit.next = self.hit_l.val();
        self.way.next = self.victim_l.val();
        if self.hit_l.val() {
            self.way.next = self.hit_way.val();
        }
        self.victim.next = self.victim_l.val();
        self.victim_valid.next = !self.any_inv.val();
        self.victim_line.next = self.vline.val();
        self.mem_req_valid.next = self.taken.val() & (!self.hit_l.val() | self.req_store.val());
        self.mem_req_line.next = self.req_line.val();
        self.mem_req_store.next = self.req_store.val();
        self.accesses.next = self.accesses_r.q.val();
        self.misses.next = self.misses_r.q.val();
    }
}
