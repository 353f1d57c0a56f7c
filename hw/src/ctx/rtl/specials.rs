//! Each context's PC, VCC, EXEC, M0 and SCC: the copy, init, write-port and reset steps of
//! the edge ([`crate::ctx`]; a port's EXEC before its destination, then SCC, then the PC),
//! and for each read port the context's VCC, EXEC, M0 and SCC.

use crate::hdl::k;
use rust_hdl::prelude::*;

/// The per-context registers of `C` contexts with `R` read and `W` write ports.
#[derive(LogicBlock)]
pub struct Specials<const C: usize, const R: usize, const W: usize> {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Every context to the reset value.
    pub reset: Signal<In, Bit>,
    /// Context `init_ctx` to the reset value.
    pub init: Signal<In, Bit>,
    /// The context initialised.
    pub init_ctx: Signal<In, Bits<8>>,
    /// Its PC after `init`.
    pub init_pc: Signal<In, Bits<32>>,
    /// Its EXEC after `init`.
    pub init_exec: Signal<In, Bits<64>>,
    /// Copy context `copy_from` (an existing one) to `copy_to`.
    pub copy: Signal<In, Bit>,
    /// The context copied.
    pub copy_from: Signal<In, Bits<8>>,
    /// The context written.
    pub copy_to: Signal<In, Bits<8>>,
    /// The context write port `p` writes.
    pub wctx: [Signal<In, Bits<8>>; W],
    /// Write the destination.
    pub sdst_we: [Signal<In, Bit>; W],
    /// Its code (106/107 VCC, 124 M0, 126/127 EXEC take effect here).
    pub sdst: [Signal<In, Bits<7>>; W],
    /// A 64-bit destination.
    pub wide: [Signal<In, Bit>; W],
    /// The value (bits \[31:0\] for a 32-bit destination).
    pub d: [Signal<In, Bits<64>>; W],
    /// Write EXEC.
    pub exec_we: [Signal<In, Bit>; W],
    /// The new EXEC.
    pub exec_in: [Signal<In, Bits<64>>; W],
    /// Write SCC.
    pub scc_we: [Signal<In, Bit>; W],
    /// The new SCC.
    pub scc_in: [Signal<In, Bit>; W],
    /// Write the PC.
    pub pc_we: [Signal<In, Bit>; W],
    /// The new PC.
    pub pc_in: [Signal<In, Bits<32>>; W],
    /// The context read port `p` reads.
    pub rctx: [Signal<In, Bits<8>>; R],
    /// It exists.
    pub r_ok: [Signal<Out, Bit>; R],
    /// Its VCC.
    pub r_vcc: [Signal<Out, Bits<64>>; R],
    /// Its EXEC.
    pub r_exec: [Signal<Out, Bits<64>>; R],
    /// Its M0.
    pub r_m0: [Signal<Out, Bits<32>>; R],
    /// Its SCC.
    pub r_scc: [Signal<Out, Bit>; R],
    /// Context `c`'s PC.
    pub pc: [Signal<Out, Bits<32>>; C],
    /// Context `c`'s EXEC.
    pub exec: [Signal<Out, Bits<64>>; C],
    /// Context `c`'s VCC.
    pub vcc: [Signal<Out, Bits<64>>; C],
    /// Context `c`'s SCC.
    pub scc: [Signal<Out, Bit>; C],
    /// PCs.
    q_pc: [DFF<Bits<32>>; C],
    /// VCCs.
    q_vcc: [DFF<Bits<64>>; C],
    /// EXECs.
    q_exec: [DFF<Bits<64>>; C],
    /// M0s (power up all ones).
    q_m0: [DFFWithInit<Bits<32>>; C],
    /// SCCs.
    q_scc: [DFF<Bit>; C],
    /// Each context's next PC, VCC, EXEC, M0, SCC, built step by step.
    n_pc: [Signal<Local, Bits<32>>; C],
    n_vcc: [Signal<Local, Bits<64>>; C],
    n_exec: [Signal<Local, Bits<64>>; C],
    n_m0: [Signal<Local, Bits<32>>; C],
    n_scc: [Signal<Local, Bit>; C],
    /// The copied context's PC, VCC, EXEC, M0, SCC.
    cp_pc: Signal<Local, Bits<32>>,
    cp_vcc: Signal<Local, Bits<64>>,
    cp_exec: Signal<Local, Bits<64>>,
    cp_m0: Signal<Local, Bits<32>>,
    cp_scc: Signal<Local, Bit>,
    /// Each write port's low word, zero-extended.
    dlo: [Signal<Local, Bits<64>>; W],
    /// Each write port's low word in the high half.
    dup: [Signal<Local, Bits<64>>; W],
    /// Context `c`'s index.
    kc: [Constant<Bits<8>>; C],
    /// Codes 106, 107, 124, 126, 127.
    c106: Constant<Bits<7>>,
    c107: Constant<Bits<7>>,
    c124: Constant<Bits<7>>,
    c126: Constant<Bits<7>>,
    c127: Constant<Bits<7>>,
    /// `0xFFFF_FFFF` and its complement.
    low32: Constant<Bits<64>>,
    high32: Constant<Bits<64>>,
    /// 32, the high half's shift.
    k32: Constant<Bits<6>>,
    /// M0's reset value.
    ones32: Constant<Bits<32>>,
    /// 0.
    z32: Constant<Bits<32>>,
    /// 0.
    z64: Constant<Bits<64>>,
}

impl<const C: usize, const R: usize, const W: usize> Default for Specials<C, R, W> {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            init: Default::default(),
            init_ctx: Default::default(),
            init_pc: Default::default(),
            init_exec: Default::default(),
            copy: Default::default(),
            copy_from: Default::default(),
            copy_to: Default::default(),
            wctx: array_init::array_init(|_| Default::default()),
            sdst_we: array_init::array_init(|_| Default::default()),
            sdst: array_init::array_init(|_| Default::default()),
            wide: array_init::array_init(|_| Default::default()),
            d: array_init::array_init(|_| Default::default()),
            exec_we: array_init::array_init(|_| Default::default()),
            exec_in: array_init::array_init(|_| Default::default()),
            scc_we: array_init::array_init(|_| Default::default()),
            scc_in: array_init::array_init(|_| Default::default()),
            pc_we: array_init::array_init(|_| Default::default()),
            pc_in: array_init::array_init(|_| Default::default()),
            rctx: array_init::array_init(|_| Default::default()),
            r_ok: array_init::array_init(|_| Default::default()),
            r_vcc: array_init::array_init(|_| Default::default()),
            r_exec: array_init::array_init(|_| Default::default()),
            r_m0: array_init::array_init(|_| Default::default()),
            r_scc: array_init::array_init(|_| Default::default()),
            pc: array_init::array_init(|_| Default::default()),
            exec: array_init::array_init(|_| Default::default()),
            vcc: array_init::array_init(|_| Default::default()),
            scc: array_init::array_init(|_| Default::default()),
            q_pc: array_init::array_init(|_| Default::default()),
            q_vcc: array_init::array_init(|_| Default::default()),
            q_exec: array_init::array_init(|_| Default::default()),
            q_m0: array_init::array_init(|_| DFFWithInit::new(0xFFFF_FFFFu64.into())),
            q_scc: array_init::array_init(|_| Default::default()),
            n_pc: array_init::array_init(|_| Default::default()),
            n_vcc: array_init::array_init(|_| Default::default()),
            n_exec: array_init::array_init(|_| Default::default()),
            n_m0: array_init::array_init(|_| Default::default()),
            n_scc: array_init::array_init(|_| Default::default()),
            cp_pc: Default::default(),
            cp_vcc: Default::default(),
            cp_exec: Default::default(),
            cp_m0: Default::default(),
            cp_scc: Default::default(),
            dlo: array_init::array_init(|_| Default::default()),
            dup: array_init::array_init(|_| Default::default()),
            kc: array_init::array_init(|c| k(c as u64)),
            c106: k(106),
            c107: k(107),
            c124: k(124),
            c126: k(126),
            c127: k(127),
            low32: k(0xFFFF_FFFF),
            high32: k(0xFFFF_FFFF_0000_0000),
            k32: k(32),
            ones32: k(0xFFFF_FFFF),
            z32: k(0),
            z64: k(0),
        }
    }
}

impl<const C: usize, const R: usize, const W: usize> Logic for Specials<C, R, W> {
    #[hdl_gen]
    fn update(&mut self) {
        // The copy source.
        self.cp_pc.next = self.z32.val();
        self.cp_vcc.next = self.z64.val();
        self.cp_exec.next = self.z64.val();
        self.cp_m0.next = self.z32.val();
        self.cp_scc.next = false;
        for c in 0..C {
            if self.copy_from.val() == self.kc[c].val() {
                self.cp_pc.next = self.q_pc[c].q.val();
                self.cp_vcc.next = self.q_vcc[c].q.val();
                self.cp_exec.next = self.q_exec[c].q.val();
                self.cp_m0.next = self.q_m0[c].q.val();
                self.cp_scc.next = self.q_scc[c].q.val();
            }
        }
        for p in 0..W {
            self.dlo[p].next = self.d[p].val() & self.low32.val();
            self.dup[p].next = self.d[p].val() << self.k32.val();
        }
        for c in 0..C {
            self.n_pc[c].next = self.q_pc[c].q.val();
            self.n_vcc[c].next = self.q_vcc[c].q.val();
            self.n_exec[c].next = self.q_exec[c].q.val();
            self.n_m0[c].next = self.q_m0[c].q.val();
            self.n_scc[c].next = self.q_scc[c].q.val();
            if self.copy.val() & (self.copy_to.val() == self.kc[c].val()) {
                self.n_pc[c].next = self.cp_pc.val();
                self.n_vcc[c].next = self.cp_vcc.val();
                self.n_exec[c].next = self.cp_exec.val();
                self.n_m0[c].next = self.cp_m0.val();
                self.n_scc[c].next = self.cp_scc.val();
            }
            if (self.init.val() & (self.init_ctx.val() == self.kc[c].val())) | self.reset.val() {
                self.n_pc[c].next = self.z32.val();
                self.n_vcc[c].next = self.z64.val();
                self.n_exec[c].next = self.z64.val();
                self.n_m0[c].next = self.ones32.val();
                self.n_scc[c].next = false;
            }
            if self.init.val() & (self.init_ctx.val() == self.kc[c].val()) & !self.reset.val() {
                self.n_pc[c].next = self.init_pc.val();
                self.n_exec[c].next = self.init_exec.val();
            }
            for p in 0..W {
                if (self.wctx[p].val() == self.kc[c].val()) & !self.reset.val() {
                    if self.exec_we[p].val() {
                        self.n_exec[c].next = self.exec_in[p].val();
                    }
                    if self.sdst_we[p].val() & self.wide[p].val() {
                        if self.sdst[p].val() == self.c106.val() {
                            self.n_vcc[c].next = self.d[p].val();
                        }
                        if self.sdst[p].val() == self.c126.val() {
                            self.n_exec[c].next = self.d[p].val();
                        }
                    }
                    if self.sdst_we[p].val() & !self.wide[p].val() {
                        if self.sdst[p].val() == self.c106.val() {
                            self.n_vcc[c].next =
                                (self.n_vcc[c].val() & self.high32.val()) | self.dlo[p].val();
                        }
                        if self.sdst[p].val() == self.c107.val() {
                            self.n_vcc[c].next =
                                (self.n_vcc[c].val() & self.low32.val()) | self.dup[p].val();
                        }
                        if self.sdst[p].val() == self.c124.val() {
                            self.n_m0[c].next = self.d[p].val().get_bits::<32>(0);
                        }
                        if self.sdst[p].val() == self.c126.val() {
                            self.n_exec[c].next =
                                (self.n_exec[c].val() & self.high32.val()) | self.dlo[p].val();
                        }
                        if self.sdst[p].val() == self.c127.val() {
                            self.n_exec[c].next =
                                (self.n_exec[c].val() & self.low32.val()) | self.dup[p].val();
                        }
                    }
                    if self.scc_we[p].val() {
                        self.n_scc[c].next = self.scc_in[p].val();
                    }
                    if self.pc_we[p].val() {
                        self.n_pc[c].next = self.pc_in[p].val();
                    }
                }
            }
            self.q_pc[c].clock.next = self.clock.val();
            self.q_vcc[c].clock.next = self.clock.val();
            self.q_exec[c].clock.next = self.clock.val();
            self.q_m0[c].clock.next = self.clock.val();
            self.q_scc[c].clock.next = self.clock.val();
            self.q_pc[c].d.next = self.n_pc[c].val();
            self.q_vcc[c].d.next = self.n_vcc[c].val();
            self.q_exec[c].d.next = self.n_exec[c].val();
            self.q_m0[c].d.next = self.n_m0[c].val();
            self.q_scc[c].d.next = self.n_scc[c].val();
            self.pc[c].next = self.q_pc[c].q.val();
            self.exec[c].next = self.q_exec[c].q.val();
            self.vcc[c].next = self.q_vcc[c].q.val();
            self.scc[c].next = self.q_scc[c].q.val();
        }
        for p in 0..R {
            self.r_ok[p].next = false;
            self.r_vcc[p].next = self.z64.val();
            self.r_exec[p].next = self.z64.val();
            self.r_m0[p].next = self.z32.val();
            self.r_scc[p].next = false;
            for c in 0..C {
                if self.rctx[p].val() == self.kc[c].val() {
                    self.r_ok[p].next = true;
                    self.r_vcc[p].next = self.q_vcc[c].q.val();
                    self.r_exec[p].next = self.q_exec[c].q.val();
                    self.r_m0[p].next = self.q_m0[c].q.val();
                    self.r_scc[p].next = self.q_scc[c].q.val();
                }
            }
        }
    }
}
