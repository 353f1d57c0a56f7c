//! `FixedMemory`: the word array, the cycle counter and the two response wheels.

use super::column::Column;
use super::words::Words;
use crate::fixed_mem::{LANES, MAX_LATENCY, SMEM_DWORDS};
use crate::hdl::k;
use rust_hdl::prelude::*;

/// The fixed-latency memory of `2^A` dwords (see [`crate::fixed_mem`] for its contract),
/// with `D` slots per response wheel: latencies up to `D` (a power of two, 2..=64; the
/// contract's memory has 64, the synthesized testbench instance fewer).
#[derive(LogicBlock)]
pub struct FixedMemory<const A: usize, const D: usize = MAX_LATENCY> {
    /// Core clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: the requests in flight are dropped, the words kept.
    pub reset: Signal<In, Bit>,
    /// Vector latency (clamped to 1..=D).
    pub flat_lat: Signal<In, Bits<16>>,
    /// Scalar latency (clamped to 1..=D).
    pub smem_lat: Signal<In, Bits<16>>,
    /// A vector request this cycle.
    pub vreq: Signal<In, Bit>,
    /// It is a store.
    pub vstore: Signal<In, Bit>,
    /// Its lanes.
    pub vmask: Signal<In, Bits<LANES>>,
    /// Each lane's dword index (low `A` bits used).
    pub vaddr: [Signal<In, Bits<32>>; LANES],
    /// Each lane's store value.
    pub vdata: [Signal<In, Bits<32>>; LANES],
    /// Its tag.
    pub vtag: Signal<In, Bits<32>>,
    /// A vector response this cycle.
    pub vresp: Signal<Out, Bit>,
    /// Its request's tag.
    pub vresp_tag: Signal<Out, Bits<32>>,
    /// Its request was a store.
    pub vresp_store: Signal<Out, Bit>,
    /// Its request's mask.
    pub vresp_mask: Signal<Out, Bits<LANES>>,
    /// The loaded words (0 outside the mask and for a store).
    pub vresp_data: [Signal<Out, Bits<32>>; LANES],
    /// A scalar request this cycle.
    pub sreq: Signal<In, Bit>,
    /// Its first dword index (low `A` bits used; wraps).
    pub saddr: Signal<In, Bits<32>>,
    /// Its dword count, 1..=4.
    pub sn: Signal<In, Bits<3>>,
    /// Its tag.
    pub stag: Signal<In, Bits<32>>,
    /// It is a store: `sdata` to word `saddr` at the edge (one word, whatever `sn`).
    pub sstore: Signal<In, Bit>,
    /// The scalar store's value.
    pub sdata: Signal<In, Bits<32>>,
    /// A scalar response this cycle.
    pub sresp: Signal<Out, Bit>,
    /// Its request's tag.
    pub sresp_tag: Signal<Out, Bits<32>>,
    /// Its request's count.
    pub sresp_n: Signal<Out, Bits<3>>,
    /// Its request was a store.
    pub sresp_store: Signal<Out, Bit>,
    /// The words read (0 past the count, and for a store).
    pub sresp_data: [Signal<Out, Bits<32>>; SMEM_DWORDS],
    /// Driver: the word read.
    pub read_address: Signal<In, Bits<A>>,
    /// Driver: the word of `read_address` in the cycle before.
    pub read_data: Signal<Out, Bits<32>>,
    /// Driver: the word written.
    pub write_address: Signal<In, Bits<A>>,
    /// Driver: its value.
    pub write_data: Signal<In, Bits<32>>,
    /// Driver: write at the edge (a vector store to the same word wins).
    pub write_enable: Signal<In, Bit>,
    /// The words.
    words: Words<A>,
    /// The cycle modulo `D`: the wheels' slot of the current cycle.
    now: DFF<Bits<6>>,
    /// Vector slots holding a response.
    vlive: DFF<Bits<D>>,
    /// Scalar slots holding a response.
    slive: DFF<Bits<D>>,
    /// Vector responses: tags.
    vtags: Column<Bits<32>, D>,
    /// Vector responses: stores.
    vstores: Column<Bit, D>,
    /// Vector responses: masks.
    vmasks: Column<Bits<LANES>, D>,
    /// Vector responses: each lane's word.
    vwords: [Column<Bits<32>, D>; LANES],
    /// Scalar responses: tags.
    stags: Column<Bits<32>, D>,
    /// Scalar responses: counts.
    sns: Column<Bits<3>, D>,
    /// Scalar responses: stores.
    sstores: Column<Bit, D>,
    /// Scalar responses: each dword.
    swords: [Column<Bits<32>, D>; SMEM_DWORDS],
    /// A vector request is written into its slot at this edge.
    vwe: Signal<Local, Bit>,
    /// A scalar request is written into its slot at this edge.
    swe: Signal<Local, Bit>,
    /// The vector slot written at this edge, one-hot (0: none).
    vsel: Signal<Local, Bits<D>>,
    /// The scalar slot written at this edge, one-hot.
    ssel: Signal<Local, Bits<D>>,
    /// The current cycle's slot, one-hot.
    rsel: Signal<Local, Bits<D>>,
    /// The vector slot written: the cycle's plus the latency, modulo `D`.
    vslot: Signal<Local, Bits<6>>,
    /// The scalar slot written.
    sslot: Signal<Local, Bits<6>>,
    /// The effective vector latency modulo `D`.
    vlat: Signal<Local, Bits<6>>,
    /// The effective scalar latency modulo `D`.
    slat: Signal<Local, Bits<6>>,
    /// A vector response this cycle.
    vhit: Signal<Local, Bit>,
    /// A scalar response this cycle.
    shit: Signal<Local, Bit>,
    /// The slots holding a vector response after the edge.
    vnext: Signal<Local, Bits<D>>,
    /// The slots holding a scalar response after the edge.
    snext: Signal<Local, Bits<D>>,
    /// The store's lane write enables.
    wen: Signal<Local, Bits<LANES>>,
    /// Each lane's word for the vector wheel (0 outside a load's mask).
    vld: [Signal<Local, Bits<32>>; LANES],
    /// Each dword for the scalar wheel (0 past the count, and for a store).
    sld: [Signal<Local, Bits<32>>; SMEM_DWORDS],
    /// Dword `i` of a scalar request (`i`).
    kd: [Constant<Bits<A>>; SMEM_DWORDS],
    /// Dword `i` of a scalar request is read (`i`, 3 bits).
    kn: [Constant<Bits<3>>; SMEM_DWORDS],
    /// 1 (the one-hot base).
    one: Constant<Bits<D>>,
    /// 1 (16 bits).
    l1: Constant<Bits<16>>,
    /// `D` (16 bits).
    ld: Constant<Bits<16>>,
    /// `D` − 1: the slot mask.
    dmask: Constant<Bits<6>>,
    /// 0 (6 bits).
    z6: Constant<Bits<6>>,
    /// 1 in 6 bits.
    o6: Constant<Bits<6>>,
    /// 0.
    z64: Constant<Bits<64>>,
    /// 0 (`D` bits).
    zd: Constant<Bits<D>>,
    /// 0.
    z32: Constant<Bits<32>>,
}

impl<const A: usize, const D: usize> Default for FixedMemory<A, D> {
    fn default() -> Self {
        assert!(
            D.is_power_of_two() && (2..=MAX_LATENCY).contains(&D),
            "2 to 64 slots, a power of two"
        );
        Self {
            clock: Default::default(),
            reset: Default::default(),
            flat_lat: Default::default(),
            smem_lat: Default::default(),
            vreq: Default::default(),
            vstore: Default::default(),
            vmask: Default::default(),
            vaddr: array_init::array_init(|_| Default::default()),
            vdata: array_init::array_init(|_| Default::default()),
            vtag: Default::default(),
            vresp: Default::default(),
            vresp_tag: Default::default(),
            vresp_store: Default::default(),
            vresp_mask: Default::default(),
            vresp_data: array_init::array_init(|_| Default::default()),
            sreq: Default::default(),
            saddr: Default::default(),
            sn: Default::default(),
            stag: Default::default(),
            sstore: Default::default(),
            sdata: Default::default(),
            sresp: Default::default(),
            sresp_tag: Default::default(),
            sresp_n: Default::default(),
            sresp_store: Default::default(),
            sresp_data: Default::default(),
            read_address: Default::default(),
            read_data: Default::default(),
            write_address: Default::default(),
            write_data: Default::default(),
            write_enable: Default::default(),
            words: Default::default(),
            now: Default::default(),
            vlive: Default::default(),
            slive: Default::default(),
            vtags: Default::default(),
            vstores: Default::default(),
            vmasks: Default::default(),
            vwords: array_init::array_init(|_| Default::default()),
            stags: Default::default(),
            sns: Default::default(),
            sstores: Default::default(),
            swords: Default::default(),
            vwe: Default::default(),
            swe: Default::default(),
            vsel: Default::default(),
            ssel: Default::default(),
            rsel: Default::default(),
            vslot: Default::default(),
            sslot: Default::default(),
            vlat: Default::default(),
            slat: Default::default(),
            vhit: Default::default(),
            shit: Default::default(),
            vnext: Default::default(),
            snext: Default::default(),
            wen: Default::default(),
            vld: array_init::array_init(|_| Default::default()),
            sld: Default::default(),
            kd: array_init::array_init(|i| k(i as u64)),
            kn: array_init::array_init(|i| k(i as u64)),
            one: k(1),
            l1: k(1),
            ld: k(D as u64),
            dmask: k(D as u64 - 1),
            z6: k(0),
            o6: k(1),
            z64: k(0),
            zd: k(0),
            z32: k(0),
        }
    }
}

impl<const A: usize, const D: usize> Logic for FixedMemory<A, D> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, now, vlive, slive);
        self.words.clock.next = self.clock.val();
        self.vtags.clock.next = self.clock.val();
        self.vstores.clock.next = self.clock.val();
        self.vmasks.clock.next = self.clock.val();
        self.stags.clock.next = self.clock.val();
        self.sns.clock.next = self.clock.val();
        self.sstores.clock.next = self.clock.val();

        // Latencies clamped to 1..=D, modulo D; the slots written and read.
        self.vlat.next = self.flat_lat.val().get_bits::<6>(0) & self.dmask.val();
        if self.flat_lat.val() < self.l1.val() {
            self.vlat.next = self.o6.val();
        }
        if self.flat_lat.val() >= self.ld.val() {
            self.vlat.next = self.z6.val();
        }
        self.slat.next = self.smem_lat.val().get_bits::<6>(0) & self.dmask.val();
        if self.smem_lat.val() < self.l1.val() {
            self.slat.next = self.o6.val();
        }
        if self.smem_lat.val() >= self.ld.val() {
            self.slat.next = self.z6.val();
        }
        self.now.d.next = (self.now.q.val() + self.o6.val()) & self.dmask.val();
        self.rsel.next = self.one.val() << self.now.q.val();
        self.vslot.next = (self.now.q.val() + self.vlat.val()) & self.dmask.val();
        self.sslot.next = (self.now.q.val() + self.slat.val()) & self.dmask.val();
        self.vwe.next = self.vreq.val() & !self.reset.val();
        self.swe.next = self.sreq.val() & !self.reset.val();
        self.vsel.next = self.zd.val();
        if self.vwe.val() {
            self.vsel.next = self.one.val() << self.vslot.val();
        }
        self.ssel.next = self.zd.val();
        if self.swe.val() {
            self.ssel.next = self.one.val() << self.sslot.val();
        }
        // A slot holds a response from its write until its cycle (a write wins).
        self.vnext.next = (self.vlive.q.val() & !self.rsel.val()) | self.vsel.val();
        self.snext.next = (self.slive.q.val() & !self.rsel.val()) | self.ssel.val();
        if self.reset.val() {
            self.vnext.next = self.zd.val();
            self.snext.next = self.zd.val();
        }
        self.vlive.d.next = self.vnext.val();
        self.slive.d.next = self.snext.val();
        self.vhit.next = (self.vlive.q.val() & self.rsel.val()).any();
        self.shit.next = (self.slive.q.val() & self.rsel.val()).any();

        // The words: the store's lanes, the loads' and the driver's reads.
        self.wen.next = self.z64.val();
        if self.vreq.val() & self.vstore.val() & !self.reset.val() {
            self.wen.next = self.vmask.val();
        }
        self.words.wen.next = self.wen.val();
        for l in 0..64 {
            self.words.addr[l].next = self.vaddr[l].val().get_bits::<A>(0);
            self.words.wdata[l].next = self.vdata[l].val();
        }
        for i in 0..4 {
            self.words.saddr[i].next = self.saddr.val().get_bits::<A>(0) + self.kd[i].val();
        }
        self.words.swe.next = self.sreq.val() & self.sstore.val() & !self.reset.val();
        self.words.swdata.next = self.sdata.val();
        self.words.read_address.next = self.read_address.val();
        self.words.write_address.next = self.write_address.val();
        self.words.write_data.next = self.write_data.val();
        self.words.write_enable.next = self.write_enable.val();
        self.read_data.next = self.words.read_data.val();

        // The vector wheel: the request's fields into its slot, the current slot out.
        self.vtags.we.next = self.vwe.val();
        self.vtags.waddr.next = self.vslot.val();
        self.vtags.now.next = self.now.q.val();
        self.vtags.d.next = self.vtag.val();
        self.vstores.we.next = self.vwe.val();
        self.vstores.waddr.next = self.vslot.val();
        self.vstores.now.next = self.now.q.val();
        self.vstores.d.next = self.vstore.val();
        self.vmasks.we.next = self.vwe.val();
        self.vmasks.waddr.next = self.vslot.val();
        self.vmasks.now.next = self.now.q.val();
        self.vmasks.d.next = self.vmask.val();
        self.vtags.hit.next = self.vhit.val();
        self.vstores.hit.next = self.vhit.val();
        self.vmasks.hit.next = self.vhit.val();
        self.vresp.next = self.vhit.val();
        self.vresp_tag.next = self.vtags.q.val();
        self.vresp_store.next = self.vstores.q.val();
        self.vresp_mask.next = self.vmasks.q.val();
        for l in 0..64 {
            self.vwords[l].clock.next = self.clock.val();
            self.vwords[l].we.next = self.vwe.val();
            self.vwords[l].waddr.next = self.vslot.val();
            self.vwords[l].now.next = self.now.q.val();
            self.vwords[l].hit.next = self.vhit.val();
            self.vld[l].next = self.z32.val();
            if self.vmask.val().get_bit(l) & !self.vstore.val() {
                self.vld[l].next = self.words.rdata[l].val();
            }
            self.vwords[l].d.next = self.vld[l].val();
            self.vresp_data[l].next = self.vwords[l].q.val();
        }

        // The scalar wheel.
        self.stags.we.next = self.swe.val();
        self.stags.waddr.next = self.sslot.val();
        self.stags.now.next = self.now.q.val();
        self.stags.d.next = self.stag.val();
        self.sns.we.next = self.swe.val();
        self.sns.waddr.next = self.sslot.val();
        self.sns.now.next = self.now.q.val();
        self.sns.d.next = self.sn.val();
        self.sstores.we.next = self.swe.val();
        self.sstores.waddr.next = self.sslot.val();
        self.sstores.now.next = self.now.q.val();
        self.sstores.d.next = self.sstore.val();
        self.stags.hit.next = self.shit.val();
        self.sns.hit.next = self.shit.val();
        self.sstores.hit.next = self.shit.val();
        self.sresp.next = self.shit.val();
        self.sresp_tag.next = self.stags.q.val();
        self.sresp_n.next = self.sns.q.val();
        self.sresp_store.next = self.sstores.q.val();
        for i in 0..4 {
            self.swords[i].clock.next = self.clock.val();
            self.swords[i].we.next = self.swe.val();
            self.swords[i].waddr.next = self.sslot.val();
            self.swords[i].now.next = self.now.q.val();
            self.swords[i].hit.next = self.shit.val();
            self.sld[i].next = self.z32.val();
            if (self.sn.val() > self.kn[i].val()) & !self.sstore.val() {
                self.sld[i].next = self.words.sdata[i].val();
            }
            self.swords[i].d.next = self.sld[i].val();
            self.sresp_data[i].next = self.swords[i].q.val();
        }
    }
}
