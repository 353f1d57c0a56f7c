//! One field of a response wheel: a register of type `T` per slot (`D` slots), one slot
//! written at an edge (one-hot `wsel`), the slot of the current cycle (`now`) read.

use crate::hdl::k;
use rust_hdl::prelude::*;

/// A field of the `D` slots of a response wheel.
#[derive(LogicBlock)]
pub struct Column<T: Synth, const D: usize> {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// The slot written at this edge, one-hot (0: none).
    pub wsel: Signal<In, Bits<D>>,
    /// The value written.
    pub d: Signal<In, T>,
    /// The slot read this cycle.
    pub now: Signal<In, Bits<6>>,
    /// Slot `now`'s value.
    pub q: Signal<Out, T>,
    /// The slots.
    slot: [DFF<T>; D],
    /// Slot `s`'s index.
    ks: [Constant<Bits<6>>; D],
}

impl<T: Synth, const D: usize> Default for Column<T, D> {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            wsel: Default::default(),
            d: Default::default(),
            now: Default::default(),
            q: Default::default(),
            slot: array_init::array_init(|_| Default::default()),
            ks: array_init::array_init(|s| k(s as u64)),
        }
    }
}

impl<T: Synth, const D: usize> Logic for Column<T, D> {
    #[hdl_gen]
    fn update(&mut self) {
        self.q.next = self.slot[0].q.val();
        for s in 0..D {
            self.slot[s].clock.next = self.clock.val();
            self.slot[s].d.next = self.slot[s].q.val();
            if self.wsel.val().get_bit(s) {
                self.slot[s].d.next = self.d.val();
            }
            if self.now.val() == self.ks[s].val() {
                self.q.next = self.slot[s].q.val();
            }
        }
    }
}
