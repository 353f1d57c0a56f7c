//! The memory port's request in the issue cycle of a FLAT or SMEM instruction, and the
//! access fault the behavioural memory port reports for it.

use crate::hdl::k;
use rust_hdl::prelude::*;

/// Forms the request of `flat_load_dword` / `flat_store_dword` (a dword per lane of the
/// effective mask, the address from the VGPR pair `lo`/`hi`) or of an SMEM load (1, 2 or 4
/// consecutive dwords from `sbase + soff`), and checks it as the behavioural memory port
/// does: an address that is not 4-aligned, at or past `words` dwords, or above 4 GiB faults.
/// A FLAT instruction faults at its lowest such lane (`fault_addr` that lane's address); the
/// lanes below it still go to the memory (a store writes them, as the behavioural port
/// writes the lanes before the faulting one). An SMEM load faults at its first address
/// outside memory and is not requested.
#[derive(LogicBlock)]
pub struct MemRequest {
    /// A FLAT instruction issues.
    pub flat: Signal<In, Bit>,
    /// It is a store.
    pub store: Signal<In, Bit>,
    /// An SMEM load issues.
    pub smem: Signal<In, Bit>,
    /// The effective mask (EXEC & SpM).
    pub eff: Signal<In, Bits<64>>,
    /// Lane `l`'s byte address, low dword (VGPR `ADDR`).
    pub lo: [Signal<In, Bits<32>>; 64],
    /// Lane `l`'s byte address, high dword (VGPR `ADDR + 1`).
    pub hi: [Signal<In, Bits<32>>; 64],
    /// Lane `l`'s store data (VGPR `DATA`).
    pub data: [Signal<In, Bits<32>>; 64],
    /// The SMEM base address (the SGPR pair `SBASE`).
    pub sbase: Signal<In, Bits<64>>,
    /// The SMEM byte offset (the immediate, or the SGPR it names).
    pub soff: Signal<In, Bits<32>>,
    /// The SMEM opcode's low bits: 0, 1, 2 for 1, 2, 4 dwords.
    pub sop: Signal<In, Bits<2>>,
    /// The data memory's size in dwords.
    pub words: Signal<In, Bits<32>>,
    /// Vector request.
    pub vreq: Signal<Out, Bit>,
    /// It is a store.
    pub vstore: Signal<Out, Bit>,
    /// Its lanes.
    pub vmask: Signal<Out, Bits<64>>,
    /// Lane `l`'s dword index.
    pub vaddr: [Signal<Out, Bits<32>>; 64],
    /// Lane `l`'s store data.
    pub vdata: [Signal<Out, Bits<32>>; 64],
    /// Scalar request.
    pub sreq: Signal<Out, Bit>,
    /// Its first dword index.
    pub saddr: Signal<Out, Bits<32>>,
    /// Its dwords.
    pub sn: Signal<Out, Bits<3>>,
    /// The request faults.
    pub fault: Signal<Out, Bit>,
    /// The faulting byte address (low 32 bits).
    pub fault_addr: Signal<Out, Bits<32>>,
    /// The lanes whose address is bad.
    bad: Signal<Local, Bits<64>>,
    /// The lowest bad lane of the mask (one-hot, or 0).
    first: Signal<Local, Bits<64>>,
    /// The SMEM address.
    sa: Signal<Local, Bits<64>>,
    /// Its dword index.
    sidx: Signal<Local, Bits<32>>,
    /// Its start is bad (misaligned, above 4 GiB or past the end).
    s_start: Signal<Local, Bit>,
    /// Some dword is past the end.
    s_bad: Signal<Local, Bit>,
    onehot: [Constant<Bits<64>>; 64],
    one64: Constant<Bits<64>>,
    one3: Constant<Bits<3>>,
    z2: Constant<Bits<2>>,
    z32: Constant<Bits<32>>,
    z64: Constant<Bits<64>>,
}

impl Default for MemRequest {
    fn default() -> Self {
        Self {
            flat: Default::default(),
            store: Default::default(),
            smem: Default::default(),
            eff: Default::default(),
            lo: array_init::array_init(|_| Default::default()),
            hi: array_init::array_init(|_| Default::default()),
            data: array_init::array_init(|_| Default::default()),
            sbase: Default::default(),
            soff: Default::default(),
            sop: Default::default(),
            words: Default::default(),
            vreq: Default::default(),
            vstore: Default::default(),
            vmask: Default::default(),
            vaddr: array_init::array_init(|_| Default::default()),
            vdata: array_init::array_init(|_| Default::default()),
            sreq: Default::default(),
            saddr: Default::default(),
            sn: Default::default(),
            fault: Default::default(),
            fault_addr: Default::default(),
            bad: Default::default(),
            first: Default::default(),
            sa: Default::default(),
            sidx: Default::default(),
            s_start: Default::default(),
            s_bad: Default::default(),
            onehot: array_init::array_init(|l| k(1 << l)),
            one64: k(1),
            one3: k(1),
            z2: k(0),
            z32: k(0),
            z64: k(0),
        }
    }
}

impl Logic for MemRequest {
    #[hdl_gen]
    fn update(&mut self) {
        // FLAT: a dword per lane; the lowest bad lane of the mask faults.
        self.bad.next = self.z64.val();
        for l in 0..64 {
            self.vaddr[l].next = self.lo[l].val() >> 2;
            self.vdata[l].next = self.data[l].val();
            if (self.lo[l].val().get_bits::<2>(0) != self.z2.val())
                | (self.hi[l].val() != self.z32.val())
                | ((self.lo[l].val() >> 2) >= self.words.val())
            {
                self.bad.next = self.bad.val() | self.onehot[l].val();
            }
        }
        self.first.next = (self.bad.val() & self.eff.val())
            & (!(self.bad.val() & self.eff.val()) + self.one64.val());
        self.vreq.next = self.flat.val();
        self.vstore.next = self.store.val();
        self.vmask.next = self.eff.val() & (self.first.val() - self.one64.val());
        self.fault_addr.next = self.z32.val();
        for l in 0..64 {
            if self.first.val().get_bit(l) {
                self.fault_addr.next = self.lo[l].val();
            }
        }

        // SMEM: 1, 2 or 4 dwords from SBASE + offset; the first dword outside memory faults.
        self.sa.next = self.sbase.val() + bit_cast::<64, 32>(self.soff.val());
        self.sidx.next = self.sa.val().get_bits::<32>(0) >> 2;
        self.sn.next = self.one3.val() << bit_cast::<3, 2>(self.sop.val());
        self.s_start.next = (self.sa.val().get_bits::<2>(0) != self.z2.val())
            | (self.sa.val().get_bits::<32>(32) != self.z32.val())
            | (self.sidx.val() >= self.words.val());
        self.s_bad.next = self.s_start.val()
            | ((self.sidx.val() + bit_cast::<32, 3>(self.sn.val())) > self.words.val());
        self.saddr.next = self.sidx.val();
        self.sreq.next = self.smem.val() & !self.s_bad.val();
        self.fault.next = (self.flat.val() & (self.first.val() != self.z64.val()))
            | (self.smem.val() & self.s_bad.val());
        if self.smem.val() {
            self.fault_addr.next = self.words.val() << 2;
            if self.s_start.val() {
                self.fault_addr.next = self.sa.val().get_bits::<32>(0);
            }
        }
    }
}
