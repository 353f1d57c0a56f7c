//! One lane of the vector register file: its word of every (slot, VGPR) row in flip-flops,
//! the clear (`v0` to the lane's work-item id), the two writes and the reset steps of the edge
//! ([`crate::ctx`]), the two read ports, the memory unit's three write-first read ports, the
//! LDS's three read ports and its write (one row or a pair).

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
    /// Write this lane's word of row (`m_slot`, `m_reg`) (the memory's write; after port `w`'s).
    pub m_we: Signal<In, Bit>,
    /// The slot written.
    pub m_slot: Signal<In, Bits<8>>,
    /// The VGPR written.
    pub m_reg: Signal<In, Bits<8>>,
    /// The value.
    pub m_data: Signal<In, Bits<32>>,
    /// Read port `x0`'s slot (ports `x0`..`x2` are named, not an array: rust-hdl cannot
    /// index a port array of an element of a block array).
    pub x0_slot: Signal<In, Bits<8>>,
    /// Read port `x0`'s VGPR.
    pub x0_reg: Signal<In, Bits<8>>,
    /// The lane's word of row `x0` as port `w`'s write at this edge leaves it (0 past the end).
    pub x0_data: Signal<Out, Bits<32>>,
    /// Read port `x1`'s slot.
    pub x1_slot: Signal<In, Bits<8>>,
    /// Read port `x1`'s VGPR.
    pub x1_reg: Signal<In, Bits<8>>,
    /// The lane's word of row `x1`, likewise.
    pub x1_data: Signal<Out, Bits<32>>,
    /// Read port `x2`'s slot.
    pub x2_slot: Signal<In, Bits<8>>,
    /// Read port `x2`'s VGPR.
    pub x2_reg: Signal<In, Bits<8>>,
    /// The lane's word of row `x2`, likewise.
    pub x2_data: Signal<Out, Bits<32>>,
    /// The LDS's read ports' slot.
    pub y_slot: Signal<In, Bits<8>>,
    /// Read port `y0`'s VGPR.
    pub y0_reg: Signal<In, Bits<8>>,
    /// Read port `y1`'s VGPR.
    pub y1_reg: Signal<In, Bits<8>>,
    /// Read port `y2`'s VGPR.
    pub y2_reg: Signal<In, Bits<8>>,
    /// The lane's word of row (`y_slot`, `y0_reg`) (0 past the end).
    pub y0_data: Signal<Out, Bits<32>>,
    /// Likewise for `y1_reg`.
    pub y1_data: Signal<Out, Bits<32>>,
    /// Likewise for `y2_reg`.
    pub y2_data: Signal<Out, Bits<32>>,
    /// Write this lane's word of row (`l_slot`, `l_reg`) (the LDS's write; after port `m`'s).
    pub l_we: Signal<In, Bit>,
    /// Write this lane's word of row (`l_slot`, `l2_reg`) (the pair's second row).
    pub l2_we: Signal<In, Bit>,
    /// The slot written.
    pub l_slot: Signal<In, Bits<8>>,
    /// The VGPR written.
    pub l_reg: Signal<In, Bits<8>>,
    /// The pair's second VGPR.
    pub l2_reg: Signal<In, Bits<8>>,
    /// The value of row `l_reg`.
    pub l_data: Signal<In, Bits<32>>,
    /// The value of row `l2_reg`.
    pub l2_data: Signal<In, Bits<32>>,
    /// Ports `x0`..`x2` as arrays.
    x_slot: [Signal<Local, Bits<8>>; 3],
    x_reg: [Signal<Local, Bits<8>>; 3],
    x_data: [Signal<Local, Bits<32>>; 3],
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
            m_we: Default::default(),
            m_slot: Default::default(),
            m_reg: Default::default(),
            m_data: Default::default(),
            x0_slot: Default::default(),
            x0_reg: Default::default(),
            x0_data: Default::default(),
            x1_slot: Default::default(),
            x1_reg: Default::default(),
            x1_data: Default::default(),
            x2_slot: Default::default(),
            x2_reg: Default::default(),
            x2_data: Default::default(),
            y_slot: Default::default(),
            y0_reg: Default::default(),
            y1_reg: Default::default(),
            y2_reg: Default::default(),
            y0_data: Default::default(),
            y1_data: Default::default(),
            y2_data: Default::default(),
            l_we: Default::default(),
            l2_we: Default::default(),
            l_slot: Default::default(),
            l_reg: Default::default(),
            l2_reg: Default::default(),
            l_data: Default::default(),
            l2_data: Default::default(),
            x_slot: Default::default(),
            x_reg: Default::default(),
            x_data: Default::default(),
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
        self.y0_data.next = self.z32.val();
        self.y1_data.next = self.z32.val();
        self.y2_data.next = self.z32.val();
        self.x_slot[0].next = self.x0_slot.val();
        self.x_slot[1].next = self.x1_slot.val();
        self.x_slot[2].next = self.x2_slot.val();
        self.x_reg[0].next = self.x0_reg.val();
        self.x_reg[1].next = self.x1_reg.val();
        self.x_reg[2].next = self.x2_reg.val();
        for p in 0..3 {
            self.x_data[p].next = self.z32.val();
        }
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
            for p in 0..3 {
                if (self.x_slot[p].val() == self.kslot[r].val())
                    & (self.x_reg[p].val() == self.kreg[r].val())
                {
                    self.x_data[p].next = self.words[r].q.val();
                    if self.we.val()
                        & (self.w_slot.val() == self.kslot[r].val())
                        & (self.w_reg.val() == self.kreg[r].val())
                    {
                        self.x_data[p].next = self.w_data.val();
                    }
                }
            }
            if self.m_we.val()
                & (self.m_slot.val() == self.kslot[r].val())
                & (self.m_reg.val() == self.kreg[r].val())
            {
                self.words[r].d.next = self.m_data.val();
            }
            if self.l_slot.val() == self.kslot[r].val() {
                if self.l_we.val() & (self.l_reg.val() == self.kreg[r].val()) {
                    self.words[r].d.next = self.l_data.val();
                }
                if self.l2_we.val() & (self.l2_reg.val() == self.kreg[r].val()) {
                    self.words[r].d.next = self.l2_data.val();
                }
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
            if self.y_slot.val() == self.kslot[r].val() {
                if self.y0_reg.val() == self.kreg[r].val() {
                    self.y0_data.next = self.words[r].q.val();
                }
                if self.y1_reg.val() == self.kreg[r].val() {
                    self.y1_data.next = self.words[r].q.val();
                }
                if self.y2_reg.val() == self.kreg[r].val() {
                    self.y2_data.next = self.words[r].q.val();
                }
            }
        }
        self.x0_data.next = self.x_data[0].val();
        self.x1_data.next = self.x_data[1].val();
        self.x2_data.next = self.x_data[2].val();
    }
}
