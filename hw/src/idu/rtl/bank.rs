//! One instruction type's registers in the IDU's dispatcher ([`super::dispatcher`]): per
//! cluster a dispatch counter, a limit and a working bit, with their configuration write,
//! the counters' update on a dispatch, and their clearing at launch and reset.

use crate::hdl::k;
use rust_hdl::prelude::*;

/// The registers of one type for `K` clusters (1..=8).
#[derive(LogicBlock)]
pub struct TypeBank<const K: usize> {
    /// Dispatcher clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: counters, limits and working bits to 0.
    pub reset: Signal<In, Bit>,
    /// Kernel start: counters to 0 (before the reset, after the other writes).
    pub launch: Signal<In, Bit>,
    /// Configuration write of this type: `cfg_working` and `cfg_limit` into cluster
    /// `cfg_cluster`.
    pub cfg_we: Signal<In, Bit>,
    /// Cluster written.
    pub cfg_cluster: Signal<In, Bits<3>>,
    /// The cluster works (else it is power-gated).
    pub cfg_working: Signal<In, Bit>,
    /// Its limit (instructions per ratio period).
    pub cfg_limit: Signal<In, Bits<8>>,
    /// A dispatch of this type: every counter takes its `next_cnt` at this edge.
    pub cnt_we: Signal<In, Bit>,
    /// The counters' values after the dispatch.
    pub next_cnt: [Signal<In, Bits<8>>; K],
    /// Counters.
    pub cnt: [Signal<Out, Bits<8>>; K],
    /// Limits.
    pub limit: [Signal<Out, Bits<8>>; K],
    /// Working bits.
    pub working: [Signal<Out, Bit>; K],
    c: [DFF<Bits<8>>; K],
    l: [DFF<Bits<8>>; K],
    w: [DFF<Bit>; K],
    idx: [Constant<Bits<3>>; K],
    zero8: Constant<Bits<8>>,
}

impl<const K: usize> Default for TypeBank<K> {
    fn default() -> Self {
        assert!((1..=8).contains(&K), "1 to 8 clusters per type");
        Self {
            clock: Default::default(),
            reset: Default::default(),
            launch: Default::default(),
            cfg_we: Default::default(),
            cfg_cluster: Default::default(),
            cfg_working: Default::default(),
            cfg_limit: Default::default(),
            cnt_we: Default::default(),
            next_cnt: array_init::array_init(|_| Default::default()),
            cnt: array_init::array_init(|_| Default::default()),
            limit: array_init::array_init(|_| Default::default()),
            working: array_init::array_init(|_| Default::default()),
            c: array_init::array_init(|_| Default::default()),
            l: array_init::array_init(|_| Default::default()),
            w: array_init::array_init(|_| Default::default()),
            idx: array_init::array_init(|i| k(i as u64)),
            zero8: k(0),
        }
    }
}

impl<const K: usize> Logic for TypeBank<K> {
    #[hdl_gen]
    fn update(&mut self) {
        for i in 0..K {
            self.c[i].clock.next = self.clock.val();
            self.l[i].clock.next = self.clock.val();
            self.w[i].clock.next = self.clock.val();
            self.c[i].d.next = self.c[i].q.val();
            self.l[i].d.next = self.l[i].q.val();
            self.w[i].d.next = self.w[i].q.val();
            if self.cnt_we.val() {
                self.c[i].d.next = self.next_cnt[i].val();
            }
            if self.cfg_we.val() & (self.cfg_cluster.val() == self.idx[i].val()) {
                self.w[i].d.next = self.cfg_working.val();
                self.l[i].d.next = self.cfg_limit.val();
            }
            if self.launch.val() {
                self.c[i].d.next = self.zero8.val();
            }
            if self.reset.val() {
                self.c[i].d.next = self.zero8.val();
                self.l[i].d.next = self.zero8.val();
                self.w[i].d.next = false;
            }
            self.cnt[i].next = self.c[i].q.val();
            self.limit[i].next = self.l[i].q.val();
            self.working[i].next = self.w[i].q.val();
        }
    }
}
