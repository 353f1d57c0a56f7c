//! A bank of up to 16 launch registers of 32 bits: each word has its reset value and the
//! mask of the bits it keeps; an index past the bank reads 0.

use crate::hdl::k;
use rust_hdl::prelude::*;

/// `N` registers (at most 16) written one at a time.
#[derive(LogicBlock)]
pub struct RegBank<const N: usize> {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Every word to its reset value at this edge.
    pub reset: Signal<In, Bit>,
    /// Write word `idx` at this edge.
    pub we: Signal<In, Bit>,
    /// The word written or read.
    pub idx: Signal<In, Bits<4>>,
    /// The value written (masked by the word's mask).
    pub wdata: Signal<In, Bits<32>>,
    /// Every word.
    pub q: [Signal<Out, Bits<32>>; N],
    /// Word `idx`.
    pub rd: Signal<Out, Bits<32>>,
    /// The words (starting at their reset values, as after `reset`).
    regs: [DFFWithInit<Bits<32>>; N],
    /// Word `w`'s index.
    kw: [Constant<Bits<4>>; N],
    /// Reset values.
    init: [Constant<Bits<32>>; N],
    /// Bits kept.
    mask: [Constant<Bits<32>>; N],
    /// The word read.
    rv: Signal<Local, Bits<32>>,
    /// 0.
    z32: Constant<Bits<32>>,
}

impl<const N: usize> RegBank<N> {
    /// A bank with these reset values and masks.
    pub fn new(init: [u32; N], mask: [u32; N]) -> Self {
        assert!(N <= 16, "a bank has at most 16 words");
        Self {
            clock: Default::default(),
            reset: Default::default(),
            we: Default::default(),
            idx: Default::default(),
            wdata: Default::default(),
            q: array_init::array_init(|_| Default::default()),
            rd: Default::default(),
            regs: init.map(|v| DFFWithInit::new(u64::from(v).into())),
            kw: array_init::array_init(|w| k(w as u64)),
            init: init.map(|v| k(u64::from(v))),
            mask: mask.map(|v| k(u64::from(v))),
            rv: Default::default(),
            z32: k(0),
        }
    }
}

impl<const N: usize> Logic for RegBank<N> {
    #[hdl_gen]
    fn update(&mut self) {
        self.rv.next = self.z32.val();
        for w in 0..N {
            self.regs[w].clock.next = self.clock.val();
            self.regs[w].d.next = self.regs[w].q.val();
            if self.we.val() & (self.idx.val() == self.kw[w].val()) {
                self.regs[w].d.next = self.wdata.val() & self.mask[w].val();
            }
            if self.reset.val() {
                self.regs[w].d.next = self.init[w].val();
            }
            self.q[w].next = self.regs[w].q.val();
            if self.idx.val() == self.kw[w].val() {
                self.rv.next = self.regs[w].q.val();
            }
        }
        self.rd.next = self.rv.val();
    }
}
