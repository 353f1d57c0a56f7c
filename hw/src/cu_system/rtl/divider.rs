//! A sequential 32-bit unsigned divider (restoring, one quotient bit a cycle).

use crate::hdl::k;
use rust_hdl::prelude::*;

/// `n / d` and `n % d` in 32 cycles: `start` in cycle *k* loads the operands at the edge,
/// `busy` is high in *k* + 1 ..= *k* + 32 and `q`/`r` hold the results from *k* + 33 until the
/// next `start` (a divisor of 0 gives `q` = all ones, `r` = `n`).
#[derive(LogicBlock)]
pub struct Divider {
    /// Core clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: not busy.
    pub reset: Signal<In, Bit>,
    /// Start a division of `n` by `d` (sampled at the edge).
    pub start: Signal<In, Bit>,
    /// Dividend.
    pub n: Signal<In, Bits<32>>,
    /// Divisor (held while `busy`).
    pub d: Signal<In, Bits<32>>,
    /// A division is running.
    pub busy: Signal<Out, Bit>,
    /// Quotient.
    pub q: Signal<Out, Bits<32>>,
    /// Remainder.
    pub r: Signal<Out, Bits<32>>,
    /// The quotient as it is shifted in (the dividend's bits shift out of its top).
    quo: DFF<Bits<32>>,
    /// The partial remainder.
    rem: DFF<Bits<33>>,
    /// Quotient bits still to find.
    left: DFF<Bits<6>>,
    /// The partial remainder with the dividend's next bit shifted in.
    shifted: Signal<Local, Bits<33>>,
    /// The divisor, 33 bits wide.
    dext: Signal<Local, Bits<33>>,
    one: Constant<Bits<6>>,
    all: Constant<Bits<6>>,
    z6: Constant<Bits<6>>,
    z33: Constant<Bits<33>>,
    one32: Constant<Bits<32>>,
}

impl Default for Divider {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            start: Default::default(),
            n: Default::default(),
            d: Default::default(),
            busy: Default::default(),
            q: Default::default(),
            r: Default::default(),
            quo: Default::default(),
            rem: Default::default(),
            left: Default::default(),
            shifted: Default::default(),
            dext: Default::default(),
            one: k(1),
            all: k(32),
            z6: k(0),
            z33: k(0),
            one32: k(1),
        }
    }
}

impl Logic for Divider {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, quo, rem, left);
        self.dext.next = bit_cast::<33, 32>(self.d.val());
        self.shifted.next =
            (self.rem.q.val() << 1) | bit_cast::<33, 1>(self.quo.q.val().get_bits::<1>(31));
        if self.left.q.val() != self.z6.val() {
            self.left.d.next = self.left.q.val() - self.one.val();
            self.rem.d.next = self.shifted.val();
            self.quo.d.next = self.quo.q.val() << 1;
            if self.shifted.val() >= self.dext.val() {
                self.rem.d.next = self.shifted.val() - self.dext.val();
                self.quo.d.next = (self.quo.q.val() << 1) | self.one32.val();
            }
        }
        if self.start.val() {
            self.quo.d.next = self.n.val();
            self.rem.d.next = self.z33.val();
            self.left.d.next = self.all.val();
        }
        if self.reset.val() {
            self.left.d.next = self.z6.val();
        }
        self.busy.next = self.left.q.val() != self.z6.val();
        self.q.next = self.quo.q.val();
        self.r.next = self.rem.q.val().get_bits::<32>(0);
    }
}
