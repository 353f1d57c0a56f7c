//! One field of a response wheel: a register of type `T` per slot (`D` slots), one slot
//! written at an edge (one-hot `wsel`), the slot of the current cycle (`now`) read, shown
//! when it holds a response (`hit`; else the type's 0). Every signal that leaves the block is
//! assigned once, its value built in a local first.

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
    /// The slot read holds a response.
    pub hit: Signal<In, Bit>,
    /// Slot `now`'s value with `hit`, else 0.
    pub q: Signal<Out, T>,
    /// The slots.
    slot: [DFF<T>; D],
    /// Slot `s`'s index.
    ks: [Constant<Bits<6>>; D],
    /// Each slot's next value.
    nv: [Signal<Local, T>; D],
    /// Slot `now`'s value.
    cur: Signal<Local, T>,
    /// The output's value.
    out: Signal<Local, T>,
    /// 0.
    zero: Constant<T>,
}

impl<T: Synth, const D: usize> Default for Column<T, D> {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            wsel: Default::default(),
            d: Default::default(),
            now: Default::default(),
            hit: Default::default(),
            q: Default::default(),
            slot: array_init::array_init(|_| Default::default()),
            ks: array_init::array_init(|s| k(s as u64)),
            nv: array_init::array_init(|_| Default::default()),
            cur: Default::default(),
            out: Default::default(),
            zero: Constant::new(T::default()),
        }
    }
}

impl<T: Synth, const D: usize> Logic for Column<T, D> {
    #[hdl_gen]
    fn update(&mut self) {
        self.cur.next = self.slot[0].q.val();
        for s in 0..D {
            self.slot[s].clock.next = self.clock.val();
            self.nv[s].next = self.slot[s].q.val();
            if self.wsel.val().get_bit(s) {
                self.nv[s].next = self.d.val();
            }
            self.slot[s].d.next = self.nv[s].val();
            if self.now.val() == self.ks[s].val() {
                self.cur.next = self.slot[s].q.val();
            }
        }
        self.out.next = self.zero.val();
        if self.hit.val() {
            self.out.next = self.cur.val();
        }
        self.q.next = self.out.val();
    }
}
