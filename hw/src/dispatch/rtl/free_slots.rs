//! The free-slot summary: per SIMD group its lowest free slot, and the free slots of every
//! group counted.

use crate::hdl::k;
use array_init::array_init;
use rust_hdl::prelude::*;

/// Per SIMD group, whether a slot is free and the lowest free one; the count of every free
/// slot (combinational).
#[derive(LogicBlock)]
pub struct FreeSlots<const G: usize, const S: usize> {
    /// Bit `s` of `free[g]`: slot `s` of SIMD group `g` is free.
    pub free: [Signal<In, Bits<S>>; G],
    /// SIMD group `g` has a free slot.
    pub any: [Signal<Out, Bit>; G],
    /// SIMD group `g`'s lowest free slot (0 when none).
    pub first: [Signal<Out, Bits<8>>; G],
    /// Free slots of every group together.
    pub total: Signal<Out, Bits<8>>,
    /// The running count.
    count: Signal<Local, Bits<8>>,
    /// Slot indices.
    ks: [Constant<Bits<8>>; S],
    /// Sized zero.
    zero: Constant<Bits<8>>,
    /// Sized one.
    one: Constant<Bits<8>>,
}

impl<const G: usize, const S: usize> Default for FreeSlots<G, S> {
    fn default() -> Self {
        assert!((1..=16).contains(&S), "S = {S} slots is outside 1..=16");
        Self {
            free: array_init(|_| Default::default()),
            any: array_init(|_| Default::default()),
            first: array_init(|_| Default::default()),
            total: Default::default(),
            count: Default::default(),
            ks: array_init(|s| k(s as u64)),
            zero: k(0),
            one: k(1),
        }
    }
}

impl<const G: usize, const S: usize> Logic for FreeSlots<G, S> {
    #[hdl_gen]
    fn update(&mut self) {
        self.count.next = self.zero.val();
        for g in 0..G {
            self.any[g].next = false;
            self.first[g].next = self.zero.val();
            for s in 0..S {
                if self.free[g].val().get_bit(s) {
                    self.count.next = self.count.val() + self.one.val();
                    if !self.any[g].val() {
                        self.first[g].next = self.ks[s].val();
                    }
                    self.any[g].next = true;
                }
            }
        }
        self.total.next = self.count.val();
    }
}
