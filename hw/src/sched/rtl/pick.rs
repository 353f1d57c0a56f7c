//! The warp scheduler's pick: GTO's oldest-warp search and the two priority encoders, as
//! combinational logic over the last granted warp (the register is the caller's).
//!
//! [`super::warp_scheduler::WarpScheduler`] is this pick and its last-granted register. A
//! caller that needs the grant under two eligible masks in one cycle (an issue unit that
//! may be visited first or second) instantiates a second pick beside the scheduler, fed
//! with the scheduler's `last` and `last_valid`.
//!
//! LRR and pure RR share the priority encoders: they scan the eligible warps (LRR) or the
//! present-or-eligible warps (RR) from the last granted one; RR grants the warp found only
//! when it is eligible.
//!
//! GTO's oldest eligible warp (smallest age, then index) comes from a linear chain over the
//! warps: element w holds the best of warps 0..w (none for w = 0), and warp w takes over only
//! when it is eligible and strictly older (smaller age) than that best, so equal ages keep the
//! lower index. One 6-bit comparator and one mux per warp; the chain is W deep (a design that
//! needs the depth would use a comparison tree, log2 W levels).

use crate::hdl::k;
use array_init::array_init;
use rust_hdl::prelude::*;

/// The grant of [`super::warp_scheduler::WarpScheduler`] for `W` warps (1..=64), given the
/// last granted warp.
#[derive(LogicBlock)]
pub struct SchedPick<const W: usize> {
    /// Policy when `rr` is 0: 0 = LRR, 1 = GTO.
    pub gto: Signal<In, Bit>,
    /// Policy: 1 = pure round-robin (`gto` ignored).
    pub rr: Signal<In, Bit>,
    /// Bit w: warp w can issue this cycle.
    pub eligible: Signal<In, Bits<W>>,
    /// Bit w: warp w is present (pure RR rotates over `present | eligible`).
    pub present: Signal<In, Bits<W>>,
    /// Age rank of warp w (0 = oldest).
    pub age: [Signal<In, Bits<6>>; W],
    /// The last granted warp.
    pub last: Signal<In, Bits<6>>,
    /// Some warp has been granted since reset.
    pub last_valid: Signal<In, Bit>,
    /// A warp is granted.
    pub grant_valid: Signal<Out, Bit>,
    /// The granted warp (0 when none).
    pub grant: Signal<Out, Bits<6>>,
    /// Warp indices.
    index_of: [Constant<Bits<6>>; W],
    /// GTO's search, element w: some warp of 0..w is eligible (element 0: none).
    b_valid: [Signal<Local, Bit>; W],
    /// GTO's search, element w: the smallest age of the eligible warps of 0..w.
    b_age: [Signal<Local, Bits<6>>; W],
    /// GTO's search, element w: the first eligible warp of 0..w with that age.
    b_warp: [Signal<Local, Bits<6>>; W],
    /// Warp w is eligible and older than element w's warp (or element w has none).
    take: [Signal<Local, Bit>; W],
    /// The oldest eligible warp (by age, then index).
    oldest: Signal<Local, Bits<6>>,
    /// The warps the round-robin encoders scan: eligible (LRR, GTO) or present | eligible (RR).
    scan: Signal<Local, Bits<W>>,
    /// The lowest scanned warp (the round-robin wrap).
    lowest: Signal<Local, Bits<6>>,
    /// The lowest scanned warp is eligible.
    lowest_e: Signal<Local, Bit>,
    /// Some warp is eligible.
    any_e: Signal<Local, Bit>,
    /// The lowest scanned warp after the last granted one.
    after: Signal<Local, Bits<6>>,
    /// That warp is eligible.
    after_e: Signal<Local, Bit>,
    /// Some scanned warp comes after the last granted one.
    any_after: Signal<Local, Bit>,
    /// The round-robin pick (after, else lowest) is eligible.
    pick_e: Signal<Local, Bit>,
    /// The last granted warp is eligible again.
    greedy: Signal<Local, Bit>,
    /// Sized zero.
    zero6: Constant<Bits<6>>,
}

impl<const W: usize> Default for SchedPick<W> {
    fn default() -> Self {
        assert!((1..=64).contains(&W), "W = {W} warps is outside 1..=64");
        Self {
            gto: Default::default(),
            rr: Default::default(),
            eligible: Default::default(),
            present: Default::default(),
            age: array_init(|_| Default::default()),
            last: Default::default(),
            last_valid: Default::default(),
            grant_valid: Default::default(),
            grant: Default::default(),
            index_of: array_init(|w| k(w as u64)),
            b_valid: array_init(|_| Default::default()),
            b_age: array_init(|_| Default::default()),
            b_warp: array_init(|_| Default::default()),
            take: array_init(|_| Default::default()),
            oldest: Default::default(),
            scan: Default::default(),
            lowest: Default::default(),
            lowest_e: Default::default(),
            any_e: Default::default(),
            after: Default::default(),
            after_e: Default::default(),
            any_after: Default::default(),
            pick_e: Default::default(),
            greedy: Default::default(),
            zero6: k(0),
        }
    }
}

impl<const W: usize> Logic for SchedPick<W> {
    #[hdl_gen]
    fn update(&mut self) {
        // GTO's search up the warps (each element written before it is read), then two
        // priority encoders walking down so that the lowest index wins (the one-pass outer
        // loop names W - 1 for the index expressions).
        self.scan.next = self.eligible.val();
        if self.rr.val() {
            self.scan.next = self.eligible.val() | self.present.val();
        }
        self.any_e.next = false;
        self.lowest.next = self.zero6.val();
        self.lowest_e.next = false;
        self.any_after.next = false;
        self.after.next = self.zero6.val();
        self.after_e.next = false;
        self.greedy.next = false;
        self.b_valid[0].next = false;
        self.b_age[0].next = self.zero6.val();
        self.b_warp[0].next = self.zero6.val();
        for w in 0..(W - 1) {
            self.take[w].next = self.eligible.val().get_bit(w)
                & (!self.b_valid[w].val() | (self.age[w].val() < self.b_age[w].val()));
            self.b_valid[w + 1].next = self.b_valid[w].val() | self.eligible.val().get_bit(w);
            self.b_age[w + 1].next = self.b_age[w].val();
            self.b_warp[w + 1].next = self.b_warp[w].val();
            if self.take[w].val() {
                self.b_age[w + 1].next = self.age[w].val();
                self.b_warp[w + 1].next = self.index_of[w].val();
            }
        }
        for top in (W - 1)..W {
            self.take[top].next = self.eligible.val().get_bit(top)
                & (!self.b_valid[top].val() | (self.age[top].val() < self.b_age[top].val()));
            self.oldest.next = self.b_warp[top].val();
            if self.take[top].val() {
                self.oldest.next = self.index_of[top].val();
            }
            for j in 0..W {
                if self.eligible.val().get_bit(top - j) {
                    self.any_e.next = true;
                    if self.last_valid.val() & (self.index_of[top - j].val() == self.last.val()) {
                        self.greedy.next = true;
                    }
                }
                if self.scan.val().get_bit(top - j) {
                    self.lowest.next = self.index_of[top - j].val();
                    self.lowest_e.next = self.eligible.val().get_bit(top - j);
                }
            }
            // Warps 1.. may come after the last granted one; warp 0 only before any grant.
            for j in 0..(W - 1) {
                if self.scan.val().get_bit(top - j)
                    & (!self.last_valid.val() | (self.index_of[top - j].val() > self.last.val()))
                {
                    self.any_after.next = true;
                    self.after.next = self.index_of[top - j].val();
                    self.after_e.next = self.eligible.val().get_bit(top - j);
                }
            }
        }
        if self.scan.val().get_bit(0) & !self.last_valid.val() {
            self.any_after.next = true;
            self.after.next = self.zero6.val();
            self.after_e.next = self.eligible.val().get_bit(0);
        }
        // Round robin: after the last, else wrap to the lowest. GTO: the last if eligible,
        // else the oldest. RR grants its pick only if it is eligible.
        self.grant.next = self.lowest.val();
        self.pick_e.next = self.lowest_e.val();
        if self.any_after.val() {
            self.pick_e.next = self.after_e.val();
        }
        if self.gto.val() & !self.rr.val() {
            self.grant.next = self.oldest.val();
            if self.greedy.val() {
                self.grant.next = self.last.val();
            }
        } else if self.any_after.val() {
            self.grant.next = self.after.val();
        }
        self.grant_valid.next = self.any_e.val() & (!self.rr.val() | self.pick_e.val());
        if !self.grant_valid.val() {
            self.grant.next = self.zero6.val();
        }
    }
}
