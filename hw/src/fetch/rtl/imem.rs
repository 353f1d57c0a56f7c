//! The instruction memory: `W` dwords of flip-flops with one write port (the driver's
//! `CODE_DATA` window), `R` fetch ports that each read a dword and the one after it, and one
//! plain read port (`CODE_DATA` reads). A read past the end gives 0; a read of the word
//! written at the same edge gives the old word.

use crate::hdl::k;
use rust_hdl::prelude::*;

/// The instruction memory of `W` dwords with `R` fetch ports.
#[derive(LogicBlock)]
pub struct InstrMem<const W: usize, const R: usize> {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Write `wdata` into dword `waddr` at this edge.
    pub wen: Signal<In, Bit>,
    /// The dword written (ignored past the end).
    pub waddr: Signal<In, Bits<32>>,
    /// The value written.
    pub wdata: Signal<In, Bits<32>>,
    /// The dword the plain read port reads.
    pub raddr: Signal<In, Bits<32>>,
    /// Dword `raddr` (0 past the end).
    pub rdata: Signal<Out, Bits<32>>,
    /// Each fetch port's first dword.
    pub idx: [Signal<In, Bits<32>>; R],
    /// Dword `idx` of each fetch port (0 past the end).
    pub rd0: [Signal<Out, Bits<32>>; R],
    /// Dword `idx + 1` of each fetch port (0 past the end).
    pub rd1: [Signal<Out, Bits<32>>; R],
    /// The dwords.
    mem: [DFF<Bits<32>>; W],
    /// Dword `w`'s index.
    kw: [Constant<Bits<32>>; W],
    /// Each fetch port's second dword index.
    idx1: [Signal<Local, Bits<32>>; R],
    /// 1.
    one: Constant<Bits<32>>,
    /// 0.
    z32: Constant<Bits<32>>,
}

impl<const W: usize, const R: usize> Default for InstrMem<W, R> {
    fn default() -> Self {
        assert!((1..=1 << 20).contains(&W), "1 to 2^20 dwords");
        Self {
            clock: Default::default(),
            wen: Default::default(),
            waddr: Default::default(),
            wdata: Default::default(),
            raddr: Default::default(),
            rdata: Default::default(),
            idx: array_init::array_init(|_| Default::default()),
            rd0: array_init::array_init(|_| Default::default()),
            rd1: array_init::array_init(|_| Default::default()),
            mem: array_init::array_init(|_| Default::default()),
            kw: array_init::array_init(|w| k(w as u64)),
            idx1: array_init::array_init(|_| Default::default()),
            one: k(1),
            z32: k(0),
        }
    }
}

impl<const W: usize, const R: usize> Logic for InstrMem<W, R> {
    #[hdl_gen]
    fn update(&mut self) {
        self.rdata.next = self.z32.val();
        for p in 0..R {
            self.idx1[p].next = self.idx[p].val() + self.one.val();
            self.rd0[p].next = self.z32.val();
            self.rd1[p].next = self.z32.val();
        }
        for w in 0..W {
            self.mem[w].clock.next = self.clock.val();
            self.mem[w].d.next = self.mem[w].q.val();
            if self.wen.val() & (self.waddr.val() == self.kw[w].val()) {
                self.mem[w].d.next = self.wdata.val();
            }
            if self.raddr.val() == self.kw[w].val() {
                self.rdata.next = self.mem[w].q.val();
            }
            for p in 0..R {
                if self.idx[p].val() == self.kw[w].val() {
                    self.rd0[p].next = self.mem[w].q.val();
                }
                if self.idx1[p].val() == self.kw[w].val() {
                    self.rd1[p].next = self.mem[w].q.val();
                }
            }
        }
    }
}
