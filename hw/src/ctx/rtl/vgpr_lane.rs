//! One lane of the vector register file: its word of every (slot, VGPR) row in flip-flops,
//! the clear (`v0` to the lane's work-item id), write and reset steps of the edge ([`crate::ctx`]) and the two read ports.

use crate::hdl::k;
use rust_hdl::prelude::*;

/// A lane's `M` words (`M` / `V` slots of `V` VGPRs).
#[derive(LogicBlock)]
pub struct VgprLane<const M: usize, const V: usize> {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Zero every word.
    pub reset: Signal<In, Bit>,
    /// Zero the words of slot `clear_slot`.
    pub clear: Signal<In, Bit>,
    /// The slot cleared.
    pub clear_slot: Signal<In, Bits<8>>,
    /// This lane's `v0` after a clear.
    pub clear_v0: Signal<In, Bits<32>>,
    /// Read port `a`'s slot.
    pub a_slot: Signal<In, Bits<8>>,
    /// Read port `a`'s VGPR.
    pub a_reg: Signal<In, Bits<8>>,
    /// The lane's word of row `a` (0 past the end).
    pub a_data: Signal<Out, Bits<32>>,
    /// Read port `b`'s slot.
    pub b_slot: Signal<In, Bits<8>>,
    /// Read port `b`'s VGPR.
    pub b_reg: Signal<In, Bits<8>>,
    /// The lane's word of row `b` (0 past the end).
    pub b_data: Signal<Out, Bits<32>>,
    /// Write this lane's word of row (`w_slot`, `w_reg`).
    pub we: Signal<In, Bit>,
    /// The slot written.
    pub w_slot: Signal<In, Bits<8>>,
    /// The VGPR written.
    pub w_reg: Signal<In, Bits<8>>,
    /// The value.
    pub w_data: Signal<In, Bits<32>>,
    /// The words, row `slot · V + reg`.
    words: [DFF<Bits<32>>; M],
    /// Row `r`'s slot.
    kslot: [Constant<Bits<8>>; M],
    /// Row `r`'s VGPR.
    kreg: [Constant<Bits<8>>; M],
    /// 0.
    z32: Constant<Bits<32>>,
    /// VGPR 0.
    z8: Constant<Bits<8>>,
}

impl<const M: usize, const V: usize> Default for VgprLane<M, V> {
    fn default() -> Self {
        assert!(V > 0 && M.is_multiple_of(V), "whole slots of V VGPRs");
        assert!(M / V <= 256 && V <= 256, "8-bit slot and VGPR numbers");
        Self {
            clock: Default::default(),
            reset: Default::default(),
            clear: Default::default(),
            clear_slot: Default::default(),
            clear_v0: Default::default(),
            a_slot: Default::default(),
            a_reg: Default::default(),
            a_data: Default::default(),
            b_slot: Default::default(),
            b_reg: Default::default(),
            b_data: Default::default(),
            we: Default::default(),
            w_slot: Default::default(),
            w_reg: Default::default(),
            w_data: Default::default(),
            words: array_init::array_init(|_| Default::default()),
            kslot: array_init::array_init(|r| k((r / V) as u64)),
            kreg: array_init::array_init(|r| k((r % V) as u64)),
            z32: k(0),
            z8: k(0),
        }
    }
}

impl<const M: usize, const V: usize> Logic for VgprLane<M, V> {
    #[hdl_gen]
    fn update(&mut self) {
        self.a_data.next = self.z32.val();
        self.b_data.next = self.z32.val();
        for r in 0..M {
            self.words[r].clock.next = self.clock.val();
            self.words[r].d.next = self.words[r].q.val();
            if self.clear.val() & (self.clear_slot.val() == self.kslot[r].val()) {
                self.words[r].d.next = self.z32.val();
                if self.kreg[r].val() == self.z8.val() {
                    self.words[r].d.next = self.clear_v0.val();
                }
            }
            if self.we.val()
                & (self.w_slot.val() == self.kslot[r].val())
                & (self.w_reg.val() == self.kreg[r].val())
            {
                self.words[r].d.next = self.w_data.val();
            }
            if self.reset.val() {
                self.words[r].d.next = self.z32.val();
            }
            if (self.a_slot.val() == self.kslot[r].val()) & (self.a_reg.val() == self.kreg[r].val())
            {
                self.a_data.next = self.words[r].q.val();
            }
            if (self.b_slot.val() == self.kslot[r].val()) & (self.b_reg.val() == self.kreg[r].val())
            {
                self.b_data.next = self.words[r].q.val();
            }
        }
    }
}
