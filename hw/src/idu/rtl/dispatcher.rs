//! The IDU's dispatcher: counters, limits and working bits per type and cluster, the
//! eligibility equations and the lazy reset (contract: [`super`]). Counters, limits and
//! working bits are kept per type in a [`TypeBank`] each (`sp`, `sfu`, `ldst`) (outputs `*_sp`, `*_sfu`, `*_ldst`),
//! indexed by cluster.

use super::bank::TypeBank;
use crate::hdl::k;
use rust_hdl::prelude::*;

/// The dispatcher for `K` clusters per type (1..=8).
#[derive(LogicBlock)]
pub struct Dispatcher<const K: usize> {
    /// Dispatcher clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset.
    pub reset: Signal<In, Bit>,
    /// Configuration write of (`cfg_working`, `cfg_limit`) for (`cfg_type`, `cfg_cluster`).
    pub cfg_we: Signal<In, Bit>,
    /// Type written: 0 SP, 1 SFU, 2 LD/ST.
    pub cfg_type: Signal<In, Bits<2>>,
    /// Cluster written.
    pub cfg_cluster: Signal<In, Bits<3>>,
    /// The cluster works (else it is power-gated).
    pub cfg_working: Signal<In, Bit>,
    /// Its limit (instructions per ratio period).
    pub cfg_limit: Signal<In, Bits<8>>,
    /// Kernel start: counters to 0, active.
    pub launch: Signal<In, Bit>,
    /// Kernel end: not active.
    pub stop: Signal<In, Bit>,
    /// 1: distribute by the limits; 0: the stock first-available dispatcher.
    pub enable: Signal<In, Bit>,
    /// An instruction is presented.
    pub in_valid: Signal<In, Bit>,
    /// Its type (3 dispatches nothing).
    pub in_type: Signal<In, Bits<2>>,
    /// Its tag.
    pub in_tag: Signal<In, Bits<8>>,
    /// Cluster k of the instruction's type has an empty input latch.
    pub ready: Signal<In, Bits<8>>,
    /// Eligible clusters.
    pub elig: Signal<Out, Bits<8>>,
    /// Every cluster of the type is at its limit or not working.
    pub all_full: Signal<Out, Bit>,
    /// The chosen cluster (0 when none).
    pub sel: Signal<Out, Bits<3>>,
    /// The instruction goes to cluster `sel` at this edge.
    pub dispatch: Signal<Out, Bit>,
    /// The instruction waits.
    pub stall: Signal<Out, Bit>,
    /// The dispatched instruction's tag (= `in_tag`).
    pub out_tag: Signal<Out, Bits<8>>,
    /// Between `launch` and `stop`.
    pub active: Signal<Out, Bit>,
    /// SP counters.
    pub cnt_sp: [Signal<Out, Bits<8>>; K],
    /// SFU counters.
    pub cnt_sfu: [Signal<Out, Bits<8>>; K],
    /// LD/ST counters.
    pub cnt_ldst: [Signal<Out, Bits<8>>; K],
    /// SP limits.
    pub limit_sp: [Signal<Out, Bits<8>>; K],
    /// SFU limits.
    pub limit_sfu: [Signal<Out, Bits<8>>; K],
    /// LD/ST limits.
    pub limit_ldst: [Signal<Out, Bits<8>>; K],
    /// SP working bits.
    pub working_sp: [Signal<Out, Bit>; K],
    /// SFU working bits.
    pub working_sfu: [Signal<Out, Bit>; K],
    /// LD/ST working bits.
    pub working_ldst: [Signal<Out, Bit>; K],
    /// The SP registers.
    sp: TypeBank<K>,
    /// The SFU registers.
    sfu: TypeBank<K>,
    /// The LD/ST registers.
    ldst: TypeBank<K>,
    active_r: DFF<Bit>,
    // The presented type's row.
    cur_cnt: [Signal<Local, Bits<8>>; K],
    cur_lim: [Signal<Local, Bits<8>>; K],
    cur_work: [Signal<Local, Bit>; K],
    under: [Signal<Local, Bit>; K],
    e: [Signal<Local, Bit>; K],
    eb: [Signal<Local, Bits<8>>; K],
    acc: [Signal<Local, Bits<8>>; K],
    next_cnt: [Signal<Local, Bits<8>>; K],
    full_any: Signal<Local, Bit>,
    all_full_l: Signal<Local, Bit>,
    typed: Signal<Local, Bit>,
    any: Signal<Local, Bit>,
    sel_l: Signal<Local, Bits<3>>,
    go: Signal<Local, Bit>,
    cfg_ok: Signal<Local, Bit>,
    bit_of: [Constant<Bits<8>>; K],
    idx: [Constant<Bits<3>>; K],
    t_sp: Constant<Bits<2>>,
    t_sfu: Constant<Bits<2>>,
    t_ldst: Constant<Bits<2>>,
    t_none: Constant<Bits<2>>,
    zero3: Constant<Bits<3>>,
    zero8: Constant<Bits<8>>,
    one8: Constant<Bits<8>>,
    /// One bit per cluster that exists (the low `K`): indexed by `cfg_cluster`, whereas
    /// `cfg_cluster < K` would be a constant comparison at `K` = 8, which Verilator rejects.
    clusters: Constant<Bits<8>>,
}

impl<const K: usize> Default for Dispatcher<K> {
    fn default() -> Self {
        assert!((1..=8).contains(&K), "1 to 8 clusters per type");
        Self {
            clock: Default::default(),
            reset: Default::default(),
            cfg_we: Default::default(),
            cfg_type: Default::default(),
            cfg_cluster: Default::default(),
            cfg_working: Default::default(),
            cfg_limit: Default::default(),
            launch: Default::default(),
            stop: Default::default(),
            enable: Default::default(),
            in_valid: Default::default(),
            in_type: Default::default(),
            in_tag: Default::default(),
            ready: Default::default(),
            elig: Default::default(),
            all_full: Default::default(),
            sel: Default::default(),
            dispatch: Default::default(),
            stall: Default::default(),
            out_tag: Default::default(),
            active: Default::default(),
            cnt_sp: array_init::array_init(|_| Default::default()),
            cnt_sfu: array_init::array_init(|_| Default::default()),
            cnt_ldst: array_init::array_init(|_| Default::default()),
            limit_sp: array_init::array_init(|_| Default::default()),
            limit_sfu: array_init::array_init(|_| Default::default()),
            limit_ldst: array_init::array_init(|_| Default::default()),
            working_sp: array_init::array_init(|_| Default::default()),
            working_sfu: array_init::array_init(|_| Default::default()),
            working_ldst: array_init::array_init(|_| Default::default()),
            sp: Default::default(),
            sfu: Default::default(),
            ldst: Default::default(),
            active_r: Default::default(),
            cur_cnt: array_init::array_init(|_| Default::default()),
            cur_lim: array_init::array_init(|_| Default::default()),
            cur_work: array_init::array_init(|_| Default::default()),
            under: array_init::array_init(|_| Default::default()),
            e: array_init::array_init(|_| Default::default()),
            eb: array_init::array_init(|_| Default::default()),
            acc: array_init::array_init(|_| Default::default()),
            next_cnt: array_init::array_init(|_| Default::default()),
            full_any: Default::default(),
            all_full_l: Default::default(),
            typed: Default::default(),
            any: Default::default(),
            sel_l: Default::default(),
            go: Default::default(),
            cfg_ok: Default::default(),
            bit_of: array_init::array_init(|i| k(1 << i)),
            idx: array_init::array_init(|i| k(i as u64)),
            t_sp: k(0),
            t_sfu: k(1),
            t_ldst: k(2),
            t_none: k(3),
            zero3: k(0),
            zero8: k(0),
            one8: k(1),
            clusters: k((1u64 << K) - 1),
        }
    }
}

impl<const K: usize> Logic for Dispatcher<K> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, active_r);
        // ---- The presented type's row (type 3: nothing works).
        self.typed.next = self.in_type.val() != self.t_none.val();
        for i in 0..K {
            self.cur_cnt[i].next = self.ldst.cnt[i].val();
            self.cur_lim[i].next = self.ldst.limit[i].val();
            self.cur_work[i].next = self.ldst.working[i].val() & self.typed.val();
            if self.in_type.val() == self.t_sp.val() {
                self.cur_cnt[i].next = self.sp.cnt[i].val();
                self.cur_lim[i].next = self.sp.limit[i].val();
                self.cur_work[i].next = self.sp.working[i].val();
            }
            if self.in_type.val() == self.t_sfu.val() {
                self.cur_cnt[i].next = self.sfu.cnt[i].val();
                self.cur_lim[i].next = self.sfu.limit[i].val();
                self.cur_work[i].next = self.sfu.working[i].val();
            }
            self.under[i].next = self.cur_cnt[i].val() < self.cur_lim[i].val();
        }
        // ---- all_full, eligibility, the lowest eligible cluster.
        self.full_any.next = false;
        for i in 0..K {
            if self.cur_work[i].val() & self.under[i].val() {
                self.full_any.next = true;
            }
        }
        self.all_full_l.next = !self.full_any.val() & self.typed.val();
        self.any.next = false;
        self.sel_l.next = self.zero3.val();
        for i in 0..K {
            self.e[i].next = self.cur_work[i].val()
                & (self.ready.val() & self.bit_of[i].val()).any()
                & (self.all_full_l.val() | self.under[i].val() | !self.enable.val());
        }
        for last in (K - 1)..K {
            for j in 0..K {
                if self.e[last - j].val() {
                    self.any.next = true;
                    self.sel_l.next = self.idx[last - j].val();
                }
            }
        }
        // elig as a chain of ORs (acc[i] = clusters 0..=i).
        for i in 0..K {
            self.eb[i].next = self.zero8.val();
            if self.e[i].val() {
                self.eb[i].next = self.bit_of[i].val();
            }
        }
        self.acc[0].next = self.eb[0].val();
        for i in 1..K {
            self.acc[i].next = self.acc[i - 1].val() | self.eb[i].val();
        }
        for last in (K - 1)..K {
            self.elig.next = self.acc[last].val();
        }
        self.go.next = self.in_valid.val() & self.active_r.q.val() & self.any.val();
        // ---- Counters: lazy reset with the dispatch that finds the type all full.
        for i in 0..K {
            self.next_cnt[i].next = self.cur_cnt[i].val();
            if self.all_full_l.val() {
                self.next_cnt[i].next = self.zero8.val();
            }
            if self.sel_l.val() == self.idx[i].val() {
                self.next_cnt[i].next = self.cur_cnt[i].val() + self.one8.val();
                if self.all_full_l.val() {
                    self.next_cnt[i].next = self.one8.val();
                }
            }
        }
        // ---- Configuration (while not active), launch, stop, reset.
        self.cfg_ok.next = self.cfg_we.val()
            & !self.active_r.q.val()
            & !self.launch.val()
            & self.clusters.val().get_bit(self.cfg_cluster.val().index());
        self.sp.clock.next = self.clock.val();
        self.sp.reset.next = self.reset.val();
        self.sp.launch.next = self.launch.val();
        self.sp.cfg_we.next = self.cfg_ok.val() & (self.cfg_type.val() == self.t_sp.val());
        self.sp.cfg_cluster.next = self.cfg_cluster.val();
        self.sp.cfg_working.next = self.cfg_working.val();
        self.sp.cfg_limit.next = self.cfg_limit.val();
        self.sp.cnt_we.next =
            self.go.val() & self.enable.val() & (self.in_type.val() == self.t_sp.val());
        self.sfu.clock.next = self.clock.val();
        self.sfu.reset.next = self.reset.val();
        self.sfu.launch.next = self.launch.val();
        self.sfu.cfg_we.next = self.cfg_ok.val() & (self.cfg_type.val() == self.t_sfu.val());
        self.sfu.cfg_cluster.next = self.cfg_cluster.val();
        self.sfu.cfg_working.next = self.cfg_working.val();
        self.sfu.cfg_limit.next = self.cfg_limit.val();
        self.sfu.cnt_we.next =
            self.go.val() & self.enable.val() & (self.in_type.val() == self.t_sfu.val());
        self.ldst.clock.next = self.clock.val();
        self.ldst.reset.next = self.reset.val();
        self.ldst.launch.next = self.launch.val();
        self.ldst.cfg_we.next = self.cfg_ok.val() & (self.cfg_type.val() == self.t_ldst.val());
        self.ldst.cfg_cluster.next = self.cfg_cluster.val();
        self.ldst.cfg_working.next = self.cfg_working.val();
        self.ldst.cfg_limit.next = self.cfg_limit.val();
        self.ldst.cnt_we.next =
            self.go.val() & self.enable.val() & (self.in_type.val() == self.t_ldst.val());
        for i in 0..K {
            self.sp.next_cnt[i].next = self.next_cnt[i].val();
            self.sfu.next_cnt[i].next = self.next_cnt[i].val();
            self.ldst.next_cnt[i].next = self.next_cnt[i].val();
            self.cnt_sp[i].next = self.sp.cnt[i].val();
            self.cnt_sfu[i].next = self.sfu.cnt[i].val();
            self.cnt_ldst[i].next = self.ldst.cnt[i].val();
            self.limit_sp[i].next = self.sp.limit[i].val();
            self.limit_sfu[i].next = self.sfu.limit[i].val();
            self.limit_ldst[i].next = self.ldst.limit[i].val();
            self.working_sp[i].next = self.sp.working[i].val();
            self.working_sfu[i].next = self.sfu.working[i].val();
            self.working_ldst[i].next = self.ldst.working[i].val();
        }
        if self.stop.val() {
            self.active_r.d.next = false;
        }
        if self.launch.val() {
            self.active_r.d.next = true;
        }
        if self.reset.val() {
            self.active_r.d.next = false;
        }
        self.all_full.next = self.all_full_l.val();
        self.sel.next = self.sel_l.val();
        self.dispatch.next = self.go.val();
        self.stall.next = self.in_valid.val() & !self.go.val();
        self.out_tag.next = self.in_tag.val();
        self.active.next = self.active_r.q.val();
    }
}
