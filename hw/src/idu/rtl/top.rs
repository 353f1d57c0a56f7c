//! The IDU with its clusters (contract: [`super`]): the [`Dispatcher`] in its clock domain and,
//! per type, `K` [`Cluster`]s each in its own clock domain (SP, SFU and LD/ST pipelines of
//! `DSP`, `DSFU`, `DLDST` stages). The dispatcher sees the `ready` bits of the presented type's
//! clusters; the chosen cluster's latch is filled at the dispatcher's edge.

use crate::hdl::k;
use crate::idu::{Cluster, Dispatcher};
use rust_hdl::prelude::*;

/// The distribution unit and `3 × K` clusters.
#[derive(LogicBlock)]
pub struct Idu<const K: usize, const DSP: usize, const DSFU: usize, const DLDST: usize> {
    /// Dispatcher clock.
    pub dclock: Signal<In, Clock>,
    /// SP cluster clocks.
    pub clk_sp: [Signal<In, Clock>; K],
    /// SFU cluster clocks.
    pub clk_sfu: [Signal<In, Clock>; K],
    /// LD/ST cluster clocks.
    pub clk_ldst: [Signal<In, Clock>; K],
    /// Dispatcher: synchronous reset.
    pub reset: Signal<In, Bit>,
    /// Dispatcher: configuration write.
    pub cfg_we: Signal<In, Bit>,
    /// Dispatcher: type written.
    pub cfg_type: Signal<In, Bits<2>>,
    /// Dispatcher: cluster written.
    pub cfg_cluster: Signal<In, Bits<3>>,
    /// Dispatcher: the cluster works.
    pub cfg_working: Signal<In, Bit>,
    /// Dispatcher: its limit.
    pub cfg_limit: Signal<In, Bits<8>>,
    /// Dispatcher: kernel start.
    pub launch: Signal<In, Bit>,
    /// Dispatcher: kernel end.
    pub stop: Signal<In, Bit>,
    /// Dispatcher: 1 IDU distribution, 0 stock.
    pub enable: Signal<In, Bit>,
    /// Dispatcher: an instruction is presented.
    pub in_valid: Signal<In, Bit>,
    /// Dispatcher: its type.
    pub in_type: Signal<In, Bits<2>>,
    /// Dispatcher: its tag.
    pub in_tag: Signal<In, Bits<8>>,
    /// Initiation interval of the SP clusters (cluster cycles).
    pub ii_sp: Signal<In, Bits<4>>,
    /// Initiation interval of the SFU clusters.
    pub ii_sfu: Signal<In, Bits<4>>,
    /// Initiation interval of the LD/ST clusters.
    pub ii_ldst: Signal<In, Bits<4>>,
    /// Eligible clusters (dispatcher).
    pub elig: Signal<Out, Bits<8>>,
    /// Every cluster of the type at its limit or not working.
    pub all_full: Signal<Out, Bit>,
    /// The chosen cluster.
    pub sel: Signal<Out, Bits<3>>,
    /// The instruction goes to cluster `sel` of its type at this dispatcher edge.
    pub dispatch: Signal<Out, Bit>,
    /// The instruction waits.
    pub stall: Signal<Out, Bit>,
    /// Between `launch` and `stop`.
    pub active: Signal<Out, Bit>,
    /// Counters, limits and working bits per type and cluster (the host's status registers).
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
    /// Cluster (type, k) retires an instruction at its next edge (its write-back port).
    pub retire_sp: [Signal<Out, Bit>; K],
    /// SFU retirements.
    pub retire_sfu: [Signal<Out, Bit>; K],
    /// LD/ST retirements.
    pub retire_ldst: [Signal<Out, Bit>; K],
    /// The retiring instructions' tags.
    pub rtag_sp: [Signal<Out, Bits<8>>; K],
    /// SFU retiring tags.
    pub rtag_sfu: [Signal<Out, Bits<8>>; K],
    /// LD/ST retiring tags.
    pub rtag_ldst: [Signal<Out, Bits<8>>; K],
    /// Cluster (type, k) holds an instruction in some stage (its activity, for the aging
    /// accounting).
    pub busy_sp: [Signal<Out, Bit>; K],
    /// SFU activity.
    pub busy_sfu: [Signal<Out, Bit>; K],
    /// LD/ST activity.
    pub busy_ldst: [Signal<Out, Bit>; K],
    /// The dispatcher.
    pub disp: Dispatcher<K>,
    /// SP clusters.
    pub sp: [Cluster<DSP>; K],
    /// SFU clusters.
    pub sfu: [Cluster<DSFU>; K],
    /// LD/ST clusters.
    pub ldst: [Cluster<DLDST>; K],
    rdy: [Signal<Local, Bit>; K],
    rb: [Signal<Local, Bits<8>>; K],
    racc: [Signal<Local, Bits<8>>; K],
    hit: [Signal<Local, Bit>; K],
    bit_of: [Constant<Bits<8>>; K],
    idx: [Constant<Bits<3>>; K],
    t_sp: Constant<Bits<2>>,
    t_sfu: Constant<Bits<2>>,
    t_ldst: Constant<Bits<2>>,
    zero8: Constant<Bits<8>>,
}

impl<const K: usize, const DSP: usize, const DSFU: usize, const DLDST: usize> Default
    for Idu<K, DSP, DSFU, DLDST>
{
    fn default() -> Self {
        Self {
            dclock: Default::default(),
            clk_sp: array_init::array_init(|_| Default::default()),
            clk_sfu: array_init::array_init(|_| Default::default()),
            clk_ldst: array_init::array_init(|_| Default::default()),
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
            ii_sp: Default::default(),
            ii_sfu: Default::default(),
            ii_ldst: Default::default(),
            elig: Default::default(),
            all_full: Default::default(),
            sel: Default::default(),
            dispatch: Default::default(),
            stall: Default::default(),
            active: Default::default(),
            cnt_sp: array_init::array_init(|_| Default::default()),
            cnt_sfu: array_init::array_init(|_| Default::default()),
            cnt_ldst: array_init::array_init(|_| Default::default()),
            limit_sp: array_init::array_init(|_| Default::default()),
            limit_sfu: array_init::array_init(|_| Default::default()),
            limit_ldst: array_init::array_init(|_| Default::default()),
            retire_sp: array_init::array_init(|_| Default::default()),
            retire_sfu: array_init::array_init(|_| Default::default()),
            retire_ldst: array_init::array_init(|_| Default::default()),
            rtag_sp: array_init::array_init(|_| Default::default()),
            rtag_sfu: array_init::array_init(|_| Default::default()),
            rtag_ldst: array_init::array_init(|_| Default::default()),
            busy_sp: array_init::array_init(|_| Default::default()),
            busy_sfu: array_init::array_init(|_| Default::default()),
            busy_ldst: array_init::array_init(|_| Default::default()),
            disp: Default::default(),
            sp: array_init::array_init(|_| Default::default()),
            sfu: array_init::array_init(|_| Default::default()),
            ldst: array_init::array_init(|_| Default::default()),
            rdy: array_init::array_init(|_| Default::default()),
            rb: array_init::array_init(|_| Default::default()),
            racc: array_init::array_init(|_| Default::default()),
            hit: array_init::array_init(|_| Default::default()),
            bit_of: array_init::array_init(|i| k(1 << i)),
            idx: array_init::array_init(|i| k(i as u64)),
            t_sp: k(0),
            t_sfu: k(1),
            t_ldst: k(2),
            zero8: k(0),
        }
    }
}

impl<const K: usize, const DSP: usize, const DSFU: usize, const DLDST: usize> Logic
    for Idu<K, DSP, DSFU, DLDST>
{
    #[hdl_gen]
    fn update(&mut self) {
        self.disp.clock.next = self.dclock.val();
        self.disp.reset.next = self.reset.val();
        self.disp.cfg_we.next = self.cfg_we.val();
        self.disp.cfg_type.next = self.cfg_type.val();
        self.disp.cfg_cluster.next = self.cfg_cluster.val();
        self.disp.cfg_working.next = self.cfg_working.val();
        self.disp.cfg_limit.next = self.cfg_limit.val();
        self.disp.launch.next = self.launch.val();
        self.disp.stop.next = self.stop.val();
        self.disp.enable.next = self.enable.val();
        self.disp.in_valid.next = self.in_valid.val();
        self.disp.in_type.next = self.in_type.val();
        self.disp.in_tag.next = self.in_tag.val();
        // ---- The clusters: clocks, the latch write, static settings.
        for i in 0..K {
            self.hit[i].next =
                self.disp.dispatch.val() & (self.disp.sel.val() == self.idx[i].val());
            self.sp[i].dclock.next = self.dclock.val();
            self.sfu[i].dclock.next = self.dclock.val();
            self.ldst[i].dclock.next = self.dclock.val();
            self.sp[i].clock.next = self.clk_sp[i].val();
            self.sfu[i].clock.next = self.clk_sfu[i].val();
            self.ldst[i].clock.next = self.clk_ldst[i].val();
            self.sp[i].put.next = self.hit[i].val() & (self.in_type.val() == self.t_sp.val());
            self.sfu[i].put.next = self.hit[i].val() & (self.in_type.val() == self.t_sfu.val());
            self.ldst[i].put.next = self.hit[i].val() & (self.in_type.val() == self.t_ldst.val());
            self.sp[i].tag_in.next = self.disp.out_tag.val();
            self.sfu[i].tag_in.next = self.disp.out_tag.val();
            self.ldst[i].tag_in.next = self.disp.out_tag.val();
            self.sp[i].ii.next = self.ii_sp.val();
            self.sfu[i].ii.next = self.ii_sfu.val();
            self.ldst[i].ii.next = self.ii_ldst.val();
            self.sp[i].working.next = self.disp.working_sp[i].val();
            self.sfu[i].working.next = self.disp.working_sfu[i].val();
            self.ldst[i].working.next = self.disp.working_ldst[i].val();
        }
        // ---- Outputs.
        self.elig.next = self.disp.elig.val();
        self.all_full.next = self.disp.all_full.val();
        self.sel.next = self.disp.sel.val();
        self.dispatch.next = self.disp.dispatch.val();
        self.stall.next = self.disp.stall.val();
        self.active.next = self.disp.active.val();
        for i in 0..K {
            self.cnt_sp[i].next = self.disp.cnt_sp[i].val();
            self.cnt_sfu[i].next = self.disp.cnt_sfu[i].val();
            self.cnt_ldst[i].next = self.disp.cnt_ldst[i].val();
            self.limit_sp[i].next = self.disp.limit_sp[i].val();
            self.limit_sfu[i].next = self.disp.limit_sfu[i].val();
            self.limit_ldst[i].next = self.disp.limit_ldst[i].val();
            self.retire_sp[i].next = self.sp[i].retire.val();
            self.retire_sfu[i].next = self.sfu[i].retire.val();
            self.retire_ldst[i].next = self.ldst[i].retire.val();
            self.rtag_sp[i].next = self.sp[i].retire_tag.val();
            self.rtag_sfu[i].next = self.sfu[i].retire_tag.val();
            self.rtag_ldst[i].next = self.ldst[i].retire_tag.val();
            self.busy_sp[i].next = self.sp[i].busy.val();
            self.busy_sfu[i].next = self.sfu[i].busy.val();
            self.busy_ldst[i].next = self.ldst[i].busy.val();
        }
        // ---- The presented type's ready bits, as a chain of ORs.
        for i in 0..K {
            self.rdy[i].next = false;
            if self.in_type.val() == self.t_sp.val() {
                self.rdy[i].next = self.sp[i].ready.val();
            }
            if self.in_type.val() == self.t_sfu.val() {
                self.rdy[i].next = self.sfu[i].ready.val();
            }
            if self.in_type.val() == self.t_ldst.val() {
                self.rdy[i].next = self.ldst[i].ready.val();
            }
            self.rb[i].next = self.zero8.val();
            if self.rdy[i].val() {
                self.rb[i].next = self.bit_of[i].val();
            }
        }
        self.racc[0].next = self.rb[0].val();
        for i in 1..K {
            self.racc[i].next = self.racc[i - 1].val() | self.rb[i].val();
        }
        for last in (K - 1)..K {
            self.disp.ready.next = self.racc[last].val();
        }
    }
}
