//! The greedy-then-oldest scheduler's age ranks.

use crate::hdl::k;
use rust_hdl::prelude::*;

/// Each context's age rank: how many of the `C` contexts have a smaller age (the behavioural
/// unit's `set_ranks`; a context's age is its wavefront's dispatch order in the launch, kept
/// after the wavefront ends, 0 before the first dispatch).
#[derive(LogicBlock)]
pub struct AgeRank<const C: usize> {
    /// Context `c`'s age.
    pub age: [Signal<In, Bits<32>>; C],
    /// Context `c`'s rank (0: the oldest).
    pub rank: [Signal<Out, Bits<6>>; C],
    /// The rank as it is counted.
    count: [Signal<Local, Bits<6>>; C],
    one: Constant<Bits<6>>,
    z6: Constant<Bits<6>>,
}

impl<const C: usize> Default for AgeRank<C> {
    fn default() -> Self {
        Self {
            age: array_init::array_init(|_| Default::default()),
            rank: array_init::array_init(|_| Default::default()),
            count: array_init::array_init(|_| Default::default()),
            one: k(1),
            z6: k(0),
        }
    }
}

impl<const C: usize> Logic for AgeRank<C> {
    #[hdl_gen]
    fn update(&mut self) {
        for c in 0..C {
            self.count[c].next = self.z6.val();
            for d in 0..C {
                if self.age[d].val() < self.age[c].val() {
                    self.count[c].next = self.count[c].val() + self.one.val();
                }
            }
            self.rank[c].next = self.count[c].val();
        }
    }
}
