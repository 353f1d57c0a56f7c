//! The LDS fault check in a DS instruction's issue cycle: every lane of EXEC at once, so
//! that a fault stops the launch in the issue cycle, as the behavioural compute unit does
//! (the LDS itself reports it four cycles later, after its last quarter).

use crate::hdl::k;
use crate::lds::rtl::decode::LdsDecode;
use crate::lds::rtl::lane::LdsLane;
use rust_hdl::prelude::*;

/// The first faulting address of a DS instruction over its 64 lanes, combinational.
#[derive(LogicBlock)]
pub struct LdsCheck {
    /// A DS instruction issues.
    pub valid: Signal<In, Bit>,
    /// Its DS opcode.
    pub opcode: Signal<In, Bits<8>>,
    /// The decoder's `imm` (OFFSET1:OFFSET0 in bits \[15:0\]).
    pub offset: Signal<In, Bits<32>>,
    /// The lanes taking part (the effective EXEC).
    pub exec: Signal<In, Bits<64>>,
    /// The work-group's partition in words.
    pub words: Signal<In, Bits<32>>,
    /// Each lane's `ADDR` (the whole row, as the issue cycle's writes leave it).
    pub addr: [Signal<In, Bits<32>>; 64],
    /// An address of the instruction is not a multiple of 4 or lies past the partition.
    pub fault: Signal<Out, Bit>,
    /// The first such address in lane order (a lane's first address before its second).
    pub fault_addr: Signal<Out, Bits<32>>,
    /// Opcode classes and offsets.
    dec: LdsDecode,
    /// The lanes' addresses.
    lane: [LdsLane; 64],
    /// A faulting address has been found (in lane order).
    found: Signal<Local, Bit>,
    /// Its address.
    first: Signal<Local, Bits<32>>,
    /// 0.
    z16: Constant<Bits<16>>,
    /// 0.
    z32: Constant<Bits<32>>,
}

impl Default for LdsCheck {
    fn default() -> Self {
        Self {
            valid: Default::default(),
            opcode: Default::default(),
            offset: Default::default(),
            exec: Default::default(),
            words: Default::default(),
            addr: array_init::array_init(|_| Default::default()),
            fault: Default::default(),
            fault_addr: Default::default(),
            dec: Default::default(),
            lane: array_init::array_init(|_| Default::default()),
            found: Default::default(),
            first: Default::default(),
            z16: k(0),
            z32: k(0),
        }
    }
}

impl Logic for LdsCheck {
    #[hdl_gen]
    fn update(&mut self) {
        self.dec.opcode.next = self.opcode.val();
        self.dec.offset.next = self.offset.val();
        self.found.next = false;
        self.first.next = self.z32.val();
        for l in 0..64 {
            self.lane[l].addr.next = self.addr[l].val();
            self.lane[l].off_a.next = self.dec.off_a.val();
            self.lane[l].off_b.next = self.dec.off_b.val();
            self.lane[l].base.next = self.z16.val();
            self.lane[l].words.next = self.words.val();
            if self.exec.val().get_bit(l)
                & !self.found.val()
                & self.dec.two.val()
                & !self.lane[l].ok1.val()
            {
                self.first.next = self.lane[l].e1.val();
            }
            if self.exec.val().get_bit(l) & !self.found.val() & !self.lane[l].ok0.val() {
                self.first.next = self.lane[l].e0.val();
            }
            if self.exec.val().get_bit(l)
                & (!self.lane[l].ok0.val() | (self.dec.two.val() & !self.lane[l].ok1.val()))
            {
                self.found.next = true;
            }
        }
        self.fault.next = self.valid.val() & self.dec.legal.val() & self.found.val();
        self.fault_addr.next = self.first.val();
    }
}
