//! The memory port's returns: request tags, the register writes and counter returns of the
//! responses, and the count of requests in flight.

use crate::hdl::k;
use rust_hdl::prelude::*;

/// Tags the top's memory requests and carries out the responses. A tag is
/// `dst << 10 | generation << 4 | context` (17 of its 32 bits; `C` ≤ 16, the contexts of a
/// four-unit group; the destination's 7 bits
/// hold every SGPR and, as loading checks, every VGPR a FLAT load names): each context's 6-bit generation counts
/// its dispatches, so a response for a wavefront that has ended (a store it did not wait
/// for) finds another generation and is dropped, as the behavioural compute unit drops it; a
/// context needs 64 dispatches to come back to a generation, at least 128 cycles, longer
/// than the 64-cycle latency bound of the fixed-latency memory. A live vector response of a
/// load writes its lanes into the VGPR (write port `m` of [`crate::ctx::Vgprs`], the data
/// straight from the response); a live
/// scalar response writes its 1, 2 or 4 SGPRs (two wide write ports of
/// [`crate::ctx::CtxRegs`]); each returns one count to its context's `vm_ret` or `lgkm_ret`.
/// `inflight` counts the requests without a response, dropped or not (the launch ends only
/// when none is left, as the behavioural launch waits for its pending accesses).
///
/// A response comes one cycle before the behavioural retire cycle: its registers are written
/// at the edge that ends it (the behavioural "start of the retire cycle") and its count is
/// returned in the next cycle from a register (`vret`/`sret`), so that no combinational path
/// runs from the memory's response through the issue control in the same cycle (Verilator
/// mis-ordered such a path through the top's one `always` block). A response in the cycle a
/// dispatch starts its context, or in a launch cycle (one of a launch that faulted), is
/// dropped.
#[derive(LogicBlock)]
pub struct MemReturn<const C: usize> {
    /// Core clock.
    pub clock: Signal<In, Clock>,
    /// A launch starts: no request in flight.
    pub launch: Signal<In, Bit>,
    /// Contexts a wavefront is dispatched into this cycle (bit `c`).
    pub started: Signal<In, Bits<C>>,
    /// The requesting context.
    pub req_ctx: Signal<In, Bits<8>>,
    /// The request's destination register.
    pub req_dst: Signal<In, Bits<8>>,
    /// A request goes out this cycle.
    pub req: Signal<In, Bit>,
    /// The request's tag.
    pub tag: Signal<Out, Bits<32>>,
    /// Vector response.
    pub vresp: Signal<In, Bit>,
    /// Its tag.
    pub vresp_tag: Signal<In, Bits<32>>,
    /// It answers a store.
    pub vresp_store: Signal<In, Bit>,
    /// Its lanes.
    pub vresp_mask: Signal<In, Bits<64>>,
    /// Scalar response.
    pub sresp: Signal<In, Bit>,
    /// Its tag.
    pub sresp_tag: Signal<In, Bits<32>>,
    /// Its dwords (1, 2 or 4).
    pub sresp_n: Signal<In, Bits<3>>,
    /// It answers a store (no register written).
    pub sresp_store: Signal<In, Bit>,
    /// The loaded dwords.
    pub sresp_data: [Signal<In, Bits<32>>; 4],
    /// Write the VGPR row (port `m`).
    pub m_we: Signal<Out, Bit>,
    /// Its slot.
    pub m_slot: Signal<Out, Bits<8>>,
    /// Its VGPR.
    pub m_reg: Signal<Out, Bits<8>>,
    /// Its lanes.
    pub m_mask: Signal<Out, Bits<64>>,
    /// SGPR write: the response's context.
    pub s_ctx: Signal<Out, Bits<8>>,
    /// Write the first SGPR (or pair).
    pub s_we: Signal<Out, Bit>,
    /// A pair.
    pub s_wide: Signal<Out, Bit>,
    /// The first SGPR.
    pub s_dst: Signal<Out, Bits<7>>,
    /// Its dwords (the second in bits 63:32).
    pub s_d: Signal<Out, Bits<64>>,
    /// Write the second pair (4 dwords).
    pub s2_we: Signal<Out, Bit>,
    /// Its first SGPR.
    pub s2_dst: Signal<Out, Bits<7>>,
    /// Its dwords.
    pub s2_d: Signal<Out, Bits<64>>,
    /// Context `c`'s FLAT returns this cycle.
    pub vm_ret: [Signal<Out, Bits<8>>; C],
    /// Context `c`'s SMEM returns this cycle.
    pub lgkm_ret: [Signal<Out, Bits<8>>; C],
    /// No request is in flight after this cycle.
    pub idle_next: Signal<Out, Bit>,
    /// Each context's generation.
    generation: [DFF<Bits<6>>; C],
    /// Context `c` had a live FLAT response in the previous cycle (counted now).
    vret: [DFF<Bit>; C],
    /// Context `c` had a live SMEM response in the previous cycle (counted now).
    sret: [DFF<Bit>; C],
    /// A live response this cycle (returns counted in the next).
    v_any: Signal<Local, Bit>,
    /// Requests in flight.
    inflight: DFF<Bits<8>>,
    /// The vector / scalar response is for a live wavefront.
    v_live: Signal<Local, Bit>,
    s_live: Signal<Local, Bit>,
    /// The requesting context's generation.
    req_gen: Signal<Local, Bits<6>>,
    /// The in-flight count after this cycle.
    count: Signal<Local, Bits<8>>,
    kc: [Constant<Bits<4>>; C],
    onehot: [Constant<Bits<C>>; C],
    one6: Constant<Bits<6>>,
    one8: Constant<Bits<8>>,
    two7: Constant<Bits<7>>,
    n1: Constant<Bits<3>>,
    n4: Constant<Bits<3>>,
    z6: Constant<Bits<6>>,
    z8: Constant<Bits<8>>,
    zc: Constant<Bits<C>>,
}

impl<const C: usize> Default for MemReturn<C> {
    fn default() -> Self {
        assert!(C <= 16, "four context bits in a tag");
        Self {
            clock: Default::default(),
            launch: Default::default(),
            started: Default::default(),
            req_ctx: Default::default(),
            req_dst: Default::default(),
            req: Default::default(),
            tag: Default::default(),
            vresp: Default::default(),
            vresp_tag: Default::default(),
            vresp_store: Default::default(),
            vresp_mask: Default::default(),
            sresp: Default::default(),
            sresp_tag: Default::default(),
            sresp_n: Default::default(),
            sresp_store: Default::default(),
            sresp_data: array_init::array_init(|_| Default::default()),
            m_we: Default::default(),
            m_slot: Default::default(),
            m_reg: Default::default(),
            m_mask: Default::default(),
            s_ctx: Default::default(),
            s_we: Default::default(),
            s_wide: Default::default(),
            s_dst: Default::default(),
            s_d: Default::default(),
            s2_we: Default::default(),
            s2_dst: Default::default(),
            s2_d: Default::default(),
            vm_ret: array_init::array_init(|_| Default::default()),
            lgkm_ret: array_init::array_init(|_| Default::default()),
            idle_next: Default::default(),
            generation: array_init::array_init(|_| Default::default()),
            vret: array_init::array_init(|_| Default::default()),
            sret: array_init::array_init(|_| Default::default()),
            v_any: Default::default(),
            inflight: Default::default(),
            v_live: Default::default(),
            s_live: Default::default(),
            req_gen: Default::default(),
            count: Default::default(),
            kc: array_init::array_init(|c| k(c as u64)),
            onehot: array_init::array_init(|c| k(1 << c)),
            one6: k(1),
            one8: k(1),
            two7: k(2),
            n1: k(1),
            n4: k(4),
            z6: k(0),
            z8: k(0),
            zc: k(0),
        }
    }
}

impl<const C: usize> Logic for MemReturn<C> {
    #[hdl_gen]
    fn update(&mut self) {
        // Generations and the request's tag.
        self.req_gen.next = self.z6.val();
        self.v_live.next = false;
        self.s_live.next = false;
        for c in 0..C {
            self.generation[c].clock.next = self.clock.val();
            self.generation[c].d.next = self.generation[c].q.val();
            if (self.started.val() & self.onehot[c].val()) != self.zc.val() {
                self.generation[c].d.next = self.generation[c].q.val() + self.one6.val();
            }
            if self.req_ctx.val().get_bits::<4>(0) == self.kc[c].val() {
                self.req_gen.next = self.generation[c].q.val();
            }
            // A response for a context a dispatch starts in this cycle, or in a launch cycle,
            // is dropped.
            self.vret[c].clock.next = self.clock.val();
            self.sret[c].clock.next = self.clock.val();
            self.vret[c].d.next = false;
            self.sret[c].d.next = false;
            if self.vresp.val()
                & !self.launch.val()
                & (self.vresp_tag.val().get_bits::<4>(0) == self.kc[c].val())
                & (self.vresp_tag.val().get_bits::<6>(4) == self.generation[c].q.val())
                & ((self.started.val() & self.onehot[c].val()) == self.zc.val())
            {
                self.v_live.next = true;
                self.vret[c].d.next = true;
            }
            if self.sresp.val()
                & !self.launch.val()
                & (self.sresp_tag.val().get_bits::<4>(0) == self.kc[c].val())
                & (self.sresp_tag.val().get_bits::<6>(4) == self.generation[c].q.val())
                & ((self.started.val() & self.onehot[c].val()) == self.zc.val())
            {
                self.s_live.next = true;
                self.sret[c].d.next = true;
            }
            self.vm_ret[c].next = self.z8.val();
            self.lgkm_ret[c].next = self.z8.val();
            if self.vret[c].q.val() {
                self.vm_ret[c].next = self.one8.val();
            }
            if self.sret[c].q.val() {
                self.lgkm_ret[c].next = self.one8.val();
            }
        }

        self.tag.next = bit_cast::<32, 4>(self.req_ctx.val().get_bits::<4>(0))
            | (bit_cast::<32, 6>(self.req_gen.val()) << 4)
            | (bit_cast::<32, 7>(self.req_dst.val().get_bits::<7>(0)) << 10);

        // The register writes.
        self.m_we.next = self.v_live.val() & !self.vresp_store.val();
        self.m_slot.next = bit_cast::<8, 4>(self.vresp_tag.val().get_bits::<4>(0));
        self.m_reg.next = bit_cast::<8, 7>(self.vresp_tag.val().get_bits::<7>(10));
        self.m_mask.next = self.vresp_mask.val();
        self.s_ctx.next = bit_cast::<8, 4>(self.sresp_tag.val().get_bits::<4>(0));
        self.s_we.next = self.s_live.val() & !self.sresp_store.val();
        self.s_wide.next = self.sresp_n.val() > self.n1.val();
        self.s_dst.next = self.sresp_tag.val().get_bits::<7>(10);
        self.s_d.next = (bit_cast::<64, 32>(self.sresp_data[1].val()) << 32)
            | bit_cast::<64, 32>(self.sresp_data[0].val());
        self.s2_we.next =
            self.s_live.val() & !self.sresp_store.val() & (self.sresp_n.val() == self.n4.val());
        self.s2_dst.next = self.sresp_tag.val().get_bits::<7>(10) + self.two7.val();
        self.s2_d.next = (bit_cast::<64, 32>(self.sresp_data[3].val()) << 32)
            | bit_cast::<64, 32>(self.sresp_data[2].val());

        // Requests in flight.
        self.inflight.clock.next = self.clock.val();
        self.count.next = self.inflight.q.val();
        if self.req.val() {
            self.count.next = self.count.val() + self.one8.val();
        }
        if self.vresp.val() {
            self.count.next = self.count.val() - self.one8.val();
        }
        if self.sresp.val() {
            self.count.next = self.count.val() - self.one8.val();
        }
        if self.launch.val() {
            self.count.next = self.z8.val();
        }
        self.inflight.d.next = self.count.val();
        // Idle once no response is outstanding and none is still to be counted.
        self.v_any.next = self.v_live.val() | self.s_live.val();
        self.idle_next.next = (self.count.val() == self.z8.val()) & !self.v_any.val();
    }
}
