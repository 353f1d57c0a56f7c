//! The grant an issue unit would make at one position of the cycle's visiting order, and what
//! it takes there.
//!
//! A compute unit with several issue units visits them in a rotating order; what a unit may
//! issue depends on what the units visited before it took (the memory pipe, the LDS, the
//! split/merge port). So that no grant depends on a unit visited later, each unit picks once
//! per position with what the units at the positions before it took: this block is one such
//! pick. Its eligible contexts are the unit's eligible contexts without that taken input, less
//! the legal ones whose next instruction needs a resource taken there; it grants over the
//! scheduler's last grant like the scheduler, and says what the granted instruction needs.

use crate::sched::rtl::pick::SchedPick;
use array_init::array_init;
use rust_hdl::prelude::*;

/// One position's pick over `C` contexts (1..=64).
#[derive(LogicBlock)]
pub struct PositionPick<const C: usize> {
    /// Scheduler policy when `rr` is 0: 0 = LRR, 1 = GTO.
    pub gto: Signal<In, Bit>,
    /// Scheduler policy: pure round-robin.
    pub rr: Signal<In, Bit>,
    /// Bit c: context c is eligible when nothing is taken before this position.
    pub eligible: Signal<In, Bits<C>>,
    /// Bit c: context c is present (pure RR's rotation).
    pub present: Signal<In, Bits<C>>,
    /// Context c's age rank (GTO).
    pub age: [Signal<In, Bits<6>>; C],
    /// The scheduler's last granted context.
    pub last: Signal<In, Bits<6>>,
    /// Some context has been granted since reset.
    pub last_valid: Signal<In, Bit>,
    /// Bit c: context c's next instruction is legal and needs the memory pipe (FLAT, SMEM).
    pub need_mem: Signal<In, Bits<C>>,
    /// Bit c: it is legal and needs the LDS (DS).
    pub need_lds: Signal<In, Bits<C>>,
    /// Bit c: it is legal and needs the split/merge port.
    pub need_port: Signal<In, Bits<C>>,
    /// The units visited before this position took the memory pipe.
    pub taken_mem: Signal<In, Bit>,
    /// They took the LDS.
    pub taken_lds: Signal<In, Bit>,
    /// They took the split/merge port.
    pub taken_port: Signal<In, Bit>,
    /// A context is granted at this position.
    pub valid: Signal<Out, Bit>,
    /// The granted context (0 when none).
    pub grant: Signal<Out, Bits<6>>,
    /// Its instruction needs the memory pipe (what the unit takes at this position).
    pub mem: Signal<Out, Bit>,
    /// It needs the LDS.
    pub lds: Signal<Out, Bit>,
    /// It needs the split/merge port.
    pub port: Signal<Out, Bit>,
    /// The scheduler's pick.
    pick: SchedPick<C>,
    /// Bit c: context c's instruction needs a resource taken before this position.
    blocked: Signal<Local, Bits<C>>,
    /// Context indices.
    kc: [Constant<Bits<6>>; C],
    zc: Constant<Bits<C>>,
}

impl<const C: usize> Default for PositionPick<C> {
    fn default() -> Self {
        Self {
            gto: Default::default(),
            rr: Default::default(),
            eligible: Default::default(),
            present: Default::default(),
            age: array_init(|_| Default::default()),
            last: Default::default(),
            last_valid: Default::default(),
            need_mem: Default::default(),
            need_lds: Default::default(),
            need_port: Default::default(),
            taken_mem: Default::default(),
            taken_lds: Default::default(),
            taken_port: Default::default(),
            valid: Default::default(),
            grant: Default::default(),
            mem: Default::default(),
            lds: Default::default(),
            port: Default::default(),
            pick: Default::default(),
            blocked: Default::default(),
            kc: array_init(|c| crate::hdl::k(c as u64)),
            zc: crate::hdl::k(0),
        }
    }
}

impl<const C: usize> Logic for PositionPick<C> {
    #[hdl_gen]
    fn update(&mut self) {
        self.blocked.next = self.zc.val();
        if self.taken_mem.val() {
            self.blocked.next = self.blocked.val() | self.need_mem.val();
        }
        if self.taken_lds.val() {
            self.blocked.next = self.blocked.val() | self.need_lds.val();
        }
        if self.taken_port.val() {
            self.blocked.next = self.blocked.val() | self.need_port.val();
        }
        self.pick.gto.next = self.gto.val();
        self.pick.rr.next = self.rr.val();
        self.pick.eligible.next = self.eligible.val() & !self.blocked.val();
        self.pick.present.next = self.present.val();
        self.pick.last.next = self.last.val();
        self.pick.last_valid.next = self.last_valid.val();
        for c in 0..C {
            self.pick.age[c].next = self.age[c].val();
        }
        self.valid.next = self.pick.grant_valid.val();
        self.grant.next = self.pick.grant.val();
        self.mem.next = false;
        self.lds.next = false;
        self.port.next = false;
        for c in 0..C {
            if self.pick.grant_valid.val() & (self.pick.grant.val() == self.kc[c].val()) {
                self.mem.next = self.need_mem.val().get_bit(c);
                self.lds.next = self.need_lds.val().get_bit(c);
                self.port.next = self.need_port.val().get_bit(c);
            }
        }
    }
}
