//! Gray code to binary, for pointers of up to 7 bits (a FIFO of up to 64 places).

use crate::hdl::k;
use rust_hdl::prelude::*;

/// Widest pointer the converter handles.
pub const MAX_BITS: usize = 7;

/// `b = g ^ (g >> 1) ^ … ^ (g >> 6)`: bit i of the binary value is the XOR of the Gray
/// code's bits i and above (combinational).
#[derive(LogicBlock)]
pub struct GrayToBin<const N: usize> {
    /// The Gray code.
    pub g: Signal<In, Bits<N>>,
    /// Its binary value.
    pub b: Signal<Out, Bits<N>>,
    /// Shift amounts 1..=6.
    k_sh: [Constant<Bits<N>>; MAX_BITS - 1],
}

impl<const N: usize> Default for GrayToBin<N> {
    fn default() -> Self {
        assert!(N <= MAX_BITS, "Gray pointers of up to {MAX_BITS} bits");
        Self {
            g: Default::default(),
            b: Default::default(),
            k_sh: array_init::array_init(|i| k(i as u64 + 1)),
        }
    }
}

impl<const N: usize> Logic for GrayToBin<N> {
    #[hdl_gen]
    fn update(&mut self) {
        self.b.next = self.g.val()
            ^ (self.g.val() >> self.k_sh[0].val())
            ^ (self.g.val() >> self.k_sh[1].val())
            ^ (self.g.val() >> self.k_sh[2].val())
            ^ (self.g.val() >> self.k_sh[3].val())
            ^ (self.g.val() >> self.k_sh[4].val())
            ^ (self.g.val() >> self.k_sh[5].val());
    }
}

/// The Gray code of `b` (reference for the tests).
pub fn to_gray(b: u64) -> u64 {
    b ^ (b >> 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every 7-bit code converts back (rust-hdl's simulation of the block).
    #[test]
    fn every_code_converts_back() {
        let mut uut = GrayToBin::<7>::default();
        uut.connect_all();
        for v in 0..128u64 {
            uut.g.next = to_gray(v).into();
            assert!(simulate(&mut uut, 10));
            assert_eq!(uut.b.val(), Bits::<7>::from(v), "code {v}");
        }
    }
}
