//! `CtxNumber`: the behavioural compute unit's number of one of the top's contexts.

use crate::hdl::k;
use rust_hdl::prelude::*;

/// The behavioural number of the top's context `k` (= slot · `U` + unit, `U` the top's issue
/// units): slot · (S + 1) + unit.
///
/// The behavioural unit builds a SIMD group of S + 1 units for every launch, DWS included
/// (where only unit 0 issues and S bounds a wavefront's live splits), and numbers its contexts
/// over them. The top has `U` units whatever S is, so the context an error names
/// (`fault_info`) is renumbered here. Under PWS (S + 1 = `U`) the numbers are equal.
/// Combinational.
#[derive(LogicBlock)]
pub struct CtxNumber<const U: usize> {
    /// The top's context index.
    pub k: Signal<In, Bits<8>>,
    /// S (1..=7).
    pub s: Signal<In, Bits<3>>,
    /// The behavioural unit's context index.
    pub number: Signal<Out, Bits<32>>,
    /// The context's slot.
    slot: Signal<Local, Bits<32>>,
    /// S + 1, the behavioural group's units.
    units: Signal<Local, Bits<4>>,
    /// The sum so far: unit + slot · (S + 1) over the bits of S + 1.
    acc: Signal<Local, Bits<32>>,
    /// log2(`U`) and `U` − 1.
    unit_bits: Constant<Bits<32>>,
    unit_mask: Constant<Bits<32>>,
    one4: Constant<Bits<4>>,
    /// Shifts 0..=3, one per bit of S + 1.
    sh: [Constant<Bits<32>>; 4],
}

impl<const U: usize> Default for CtxNumber<U> {
    fn default() -> Self {
        assert!(U.is_power_of_two(), "U = {U} is not a power of two");
        Self {
            k: Default::default(),
            s: Default::default(),
            number: Default::default(),
            slot: Default::default(),
            units: Default::default(),
            acc: Default::default(),
            unit_bits: k(u64::from(U.trailing_zeros())),
            unit_mask: k(U as u64 - 1),
            one4: k(1),
            sh: array_init::array_init(|b| k(b as u64)),
        }
    }
}

impl<const U: usize> Logic for CtxNumber<U> {
    #[hdl_gen]
    fn update(&mut self) {
        self.slot.next = bit_cast::<32, 8>(self.k.val()) >> self.unit_bits.val();
        self.units.next = bit_cast::<4, 3>(self.s.val()) + self.one4.val();
        self.acc.next = bit_cast::<32, 8>(self.k.val()) & self.unit_mask.val();
        for b in 0..4 {
            if self.units.val().get_bit(b) {
                self.acc.next = self.acc.val() + (self.slot.val() << self.sh[b].val());
            }
        }
        self.number.next = self.acc.val();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every context and S of a top of `U` units: slot · (S + 1) + unit.
    fn check<const U: usize>() {
        let mut b = CtxNumber::<U>::default();
        b.connect_all();
        for s in 1..=7u64 {
            for kk in 0..(16 * U as u64) {
                b.k.next = kk.to_bits();
                b.s.next = s.to_bits();
                assert!(simulate(&mut b, 10));
                let want = kk / U as u64 * (s + 1) + kk % U as u64;
                assert_eq!(b.number.val().index() as u64, want, "U {U} k {kk} S {s}");
            }
        }
    }

    /// Two and four units. Caught: the unit dropped (a PWS child numbered as its parent),
    /// S + 1 taken as S.
    #[test]
    fn numbers_as_the_behavioural_group() {
        check::<2>();
        check::<4>();
    }
}
