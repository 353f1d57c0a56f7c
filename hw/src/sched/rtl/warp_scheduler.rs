//! The warp scheduler: its pick ([`super::pick::SchedPick`], GTO's search and the round-robin
//! encoders) and the last-granted register.

use super::pick::SchedPick;
use crate::hdl::k;
use array_init::array_init;
use rust_hdl::prelude::*;

/// GTO/LRR/pure-RR warp scheduler for `W` warps (1..=64); see [`super`] for the policies.
#[derive(LogicBlock)]
pub struct WarpScheduler<const W: usize> {
    /// Core clock: the last-granted register loads on its rising edge.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: forget the last granted warp (LRR starts at warp 0 again).
    pub reset: Signal<In, Bit>,
    /// Policy when `rr` is 0: 0 = LRR, 1 = GTO.
    pub gto: Signal<In, Bit>,
    /// Policy: 1 = pure round-robin (`gto` ignored).
    pub rr: Signal<In, Bit>,
    /// Bit w: warp w can issue this cycle (scoreboard, barrier, fetch and queue checks passed).
    pub eligible: Signal<In, Bits<W>>,
    /// Bit w: warp w is present — it can become eligible by itself (pure RR rotates over
    /// `present | eligible`; the other policies ignore it).
    pub present: Signal<In, Bits<W>>,
    /// Age rank of warp w (0 = oldest); GTO's fallback grants the eligible warp with the
    /// smallest (age, index); LRR ignores it. Drive `age[w] = w` for the classic
    /// lowest-index-is-oldest GTO.
    pub age: [Signal<In, Bits<6>>; W],
    /// A warp is granted this cycle (GTO, LRR: exactly when `eligible` is not 0; RR: when the
    /// current warp is eligible).
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
    /// The grant over the register's warp.
    pick: SchedPick<W>,
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
            rr: Default::default(),
            eligible: Default::default(),
            present: Default::default(),
            age: array_init(|_| Default::default()),
            grant_valid: Default::default(),
            grant: Default::default(),
            last: Default::default(),
            last_valid: Default::default(),
            last_r: Default::default(),
            last_valid_r: Default::default(),
            pick: Default::default(),
            zero6: k(0),
        }
    }
}

impl<const W: usize> Logic for WarpScheduler<W> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, last_r, last_valid_r);
        self.pick.gto.next = self.gto.val();
        self.pick.rr.next = self.rr.val();
        self.pick.eligible.next = self.eligible.val();
        self.pick.present.next = self.present.val();
        for w in 0..W {
            self.pick.age[w].next = self.age[w].val();
        }
        self.pick.last.next = self.last_r.q.val();
        self.pick.last_valid.next = self.last_valid_r.q.val();
        self.grant_valid.next = self.pick.grant_valid.val();
        self.grant.next = self.pick.grant.val();
        if self.grant_valid.val() {
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
