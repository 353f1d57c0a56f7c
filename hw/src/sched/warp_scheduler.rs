//! The warp scheduler: two priority encoders and the last-granted register.

use crate::isa::formats::k;
use array_init::array_init;
use rust_hdl::prelude::*;

/// GTO/LRR warp scheduler for `W` warps (1..=64); see [`super`] for the policies.
#[derive(LogicBlock)]
pub struct WarpScheduler<const W: usize> {
    /// Core clock: the last-granted register loads on its rising edge.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: forget the last granted warp (LRR starts at warp 0 again).
    pub reset: Signal<In, Bit>,
    /// Policy: 0 = LRR, 1 = GTO.
    pub gto: Signal<In, Bit>,
    /// Bit w: warp w can issue this cycle (scoreboard, barrier, fetch and queue checks passed).
    pub eligible: Signal<In, Bits<W>>,
    /// A warp is granted this cycle (exactly when `eligible` is not 0).
    pub grant_valid: Signal<Out, Bit>,
    /// The granted warp (0 when none).
    pub grant: Signal<Out, Bits<6>>,
    /// The last granted warp: LRR's pointer (it starts after it), GTO's greedy warp.
    pub last: Signal<Out, Bits<6>>,
    /// Some warp has been granted since reset.
    pub last_valid: Signal<Out, Bit>,
    /// Last-granted register.
    last_r: DFF<Bits<6>>,
    /// Some warp has been granted since reset.
    last_valid_r: DFF<Bit>,
    /// Warp indices.
    index_of: [Constant<Bits<6>>; W],
    /// The lowest eligible warp, and whether there is one.
    oldest: Signal<Local, Bits<6>>,
    any: Signal<Local, Bit>,
    /// The lowest eligible warp after the last granted one, and whether there is one.
    after: Signal<Local, Bits<6>>,
    any_after: Signal<Local, Bit>,
    /// The last granted warp is eligible again.
    greedy: Signal<Local, Bit>,
    /// Sized zero.
    zero6: Constant<Bits<6>>,
}

impl<const W: usize> Default for WarpScheduler<W> {
    fn default() -> Self {
        assert!((1..=64).contains(&W), "W = {W} warps is outside 1..=64");
        Self {
            clock: Default::default(),
            reset: Default::default(),
            gto: Default::default(),
            eligible: Default::default(),
            grant_valid: Default::default(),
            grant: Default::default(),
            last: Default::default(),
            last_valid: Default::default(),
            last_r: Default::default(),
            last_valid_r: Default::default(),
            index_of: array_init(|w| k(w as u64)),
            oldest: Default::default(),
            any: Default::default(),
            after: Default::default(),
            any_after: Default::default(),
            greedy: Default::default(),
            zero6: k(0),
        }
    }
}

impl<const W: usize> Logic for WarpScheduler<W> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, last_r, last_valid_r);
        // Two priority encoders, walking down so the lowest index wins (the one-pass outer
        // loop names W - 1 for the index expression).
        self.any.next = false;
        self.oldest.next = self.zero6.val();
        self.any_after.next = false;
        self.after.next = self.zero6.val();
        self.greedy.next = false;
        for top in (W - 1)..W {
            for j in 0..W {
                if self.eligible.val().get_bit(top - j) {
                    self.any.next = true;
                    self.oldest.next = self.index_of[top - j].val();
                    if self.last_valid_r.q.val()
                        & (self.index_of[top - j].val() == self.last_r.q.val())
                    {
                        self.greedy.next = true;
                    }
                }
            }
            // Warps 1.. may come after the last granted one; warp 0 only before any grant.
            for j in 0..(W - 1) {
                if self.eligible.val().get_bit(top - j)
                    & (!self.last_valid_r.q.val()
                        | (self.index_of[top - j].val() > self.last_r.q.val()))
                {
                    self.any_after.next = true;
                    self.after.next = self.index_of[top - j].val();
                }
            }
        }
        if self.eligible.val().get_bit(0) & !self.last_valid_r.q.val() {
            self.any_after.next = true;
            self.after.next = self.zero6.val();
        }
        // LRR: after the last, else wrap to the lowest. GTO: the last if eligible, else oldest.
        self.grant.next = self.oldest.val();
        if self.gto.val() {
            if self.greedy.val() {
                self.grant.next = self.last_r.q.val();
            }
        } else if self.any_after.val() {
            self.grant.next = self.after.val();
        }
        self.grant_valid.next = self.any.val();
        if self.any.val() {
            self.last_r.d.next = self.grant.val();
            self.last_valid_r.d.next = true;
        }
        if self.reset.val() {
            self.last_r.d.next = self.zero6.val();
            self.last_valid_r.d.next = false;
        }
        self.last.next = self.last_r.q.val();
        self.last_valid.next = self.last_valid_r.q.val();
    }
}
