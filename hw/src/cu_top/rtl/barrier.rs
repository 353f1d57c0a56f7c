//! `s_barrier` across a work-group's wavefronts: the release of the contexts waiting there.

use crate::hdl::k;
use rust_hdl::prelude::*;

/// The barrier release of `C` contexts: a context that issued `s_barrier` waits until every
/// live context of its work-group (its resident entry) waits there; all of them are released
/// together in the cycle after the last one's `s_barrier`, before that cycle's issue (the
/// behavioural compute unit's `release_barriers`, which runs before its dispatch and issue).
#[derive(LogicBlock)]
pub struct BarrierRelease<const C: usize> {
    /// Core clock.
    pub clock: Signal<In, Clock>,
    /// No context waits (a reset or a launch).
    pub reset: Signal<In, Bit>,
    /// Bit `c`: context `c` issues `s_barrier` this cycle.
    pub arrive: Signal<In, Bits<C>>,
    /// Bit `c`: a dispatch starts a wavefront in context `c` this cycle.
    pub started: Signal<In, Bits<C>>,
    /// Bit `c`: context `c` is live (before this cycle's dispatch).
    pub live: Signal<In, Bits<C>>,
    /// Context `c`'s resident work-group entry.
    pub wi: [Signal<In, Bits<8>>; C],
    /// Bit `c`: context `c`'s barrier is released this cycle (the issue stage's `bar_release`).
    pub released: Signal<Out, Bits<C>>,
    /// Bit `c`: context `c` waits at a barrier (as the last edge left it).
    waiting: DFF<Bits<C>>,
    /// Context `c`'s work-group has a live context not waiting.
    short: [Signal<Local, Bit>; C],
    /// The release as it is built.
    rel: Signal<Local, Bits<C>>,
    /// One-hot context bits.
    onehot: [Constant<Bits<C>>; C],
    /// 0.
    zc: Constant<Bits<C>>,
}

impl<const C: usize> Default for BarrierRelease<C> {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            arrive: Default::default(),
            started: Default::default(),
            live: Default::default(),
            wi: array_init::array_init(|_| Default::default()),
            released: Default::default(),
            waiting: Default::default(),
            short: array_init::array_init(|_| Default::default()),
            rel: Default::default(),
            onehot: array_init::array_init(|c| k(1 << c)),
            zc: k(0),
        }
    }
}

impl<const C: usize> Logic for BarrierRelease<C> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, waiting);
        self.rel.next = self.zc.val();
        for c in 0..C {
            self.short[c].next = false;
            for d in 0..C {
                if self.live.val().get_bit(d)
                    & !self.waiting.q.val().get_bit(d)
                    & (self.wi[d].val() == self.wi[c].val())
                {
                    self.short[c].next = true;
                }
            }
            if self.waiting.q.val().get_bit(c) & self.live.val().get_bit(c) & !self.short[c].val() {
                self.rel.next = self.rel.val() | self.onehot[c].val();
            }
        }
        self.released.next = self.rel.val();
        self.waiting.d.next =
            (self.waiting.q.val() & !self.rel.val() & !self.started.val()) | self.arrive.val();
        if self.reset.val() {
            self.waiting.d.next = self.zc.val();
        }
    }
}
