//! The LDS RAM: `W` words of flip-flops with 32 ports, port `2·lane` for a lane's first word
//! and `2·lane+1` for its second. Each port reads its word (0 past the end) and may write it;
//! when several ports write one word the highest port's value stays (lane order, a lane's
//! second word after its first). `clear` zeroes a range of words, `reset` all of them.

use crate::hdl::k;
use rust_hdl::prelude::*;

/// Ports of the RAM: two per lane of a quarter.
pub const PORTS: usize = 32;

/// The RAM of `W` words.
#[derive(LogicBlock)]
pub struct LdsRam<const W: usize> {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Zero every word at this edge.
    pub reset: Signal<In, Bit>,
    /// Zero the words `clear_base .. clear_base + clear_words` at this edge.
    pub clear: Signal<In, Bit>,
    /// The first word cleared.
    pub clear_base: Signal<In, Bits<16>>,
    /// Words cleared.
    pub clear_words: Signal<In, Bits<32>>,
    /// Each port's word.
    pub idx: [Signal<In, Bits<16>>; PORTS],
    /// Port `p` writes (bit `p`).
    pub wen: Signal<In, Bits<32>>,
    /// Each port's write value.
    pub wdata: [Signal<In, Bits<32>>; PORTS],
    /// Each port's word as it is (0 for a word past the end).
    pub rdata: [Signal<Out, Bits<32>>; PORTS],
    /// The words.
    mem: [DFF<Bits<32>>; W],
    /// Word `w`'s index.
    kw: [Constant<Bits<16>>; W],
    /// Each word's next value.
    nv: [Signal<Local, Bits<32>>; W],
    /// Each port's read value.
    rv: [Signal<Local, Bits<32>>; PORTS],
    /// The range is at least 65,536 words long.
    big: Signal<Local, Bit>,
    /// 0.
    z16: Constant<Bits<16>>,
    /// 0.
    z32: Constant<Bits<32>>,
}

impl<const W: usize> Default for LdsRam<W> {
    fn default() -> Self {
        assert!((1..=1 << 16).contains(&W), "1 to 65,536 words");
        Self {
            clock: Default::default(),
            reset: Default::default(),
            clear: Default::default(),
            clear_base: Default::default(),
            clear_words: Default::default(),
            idx: Default::default(),
            wen: Default::default(),
            wdata: Default::default(),
            rdata: Default::default(),
            mem: array_init::array_init(|_| Default::default()),
            kw: array_init::array_init(|w| k(w as u64)),
            nv: array_init::array_init(|_| Default::default()),
            rv: Default::default(),
            big: Default::default(),
            z16: k(0),
            z32: k(0),
        }
    }
}

impl<const W: usize> Logic for LdsRam<W> {
    #[hdl_gen]
    fn update(&mut self) {
        self.big.next = self.clear_words.val().get_bits::<16>(16) != self.z16.val();
        for w in 0..W {
            self.mem[w].clock.next = self.clock.val();
            self.nv[w].next = self.mem[w].q.val();
            for p in 0..32 {
                if self.wen.val().get_bit(p) & (self.idx[p].val() == self.kw[w].val()) {
                    self.nv[w].next = self.wdata[p].val();
                }
            }
            if self.clear.val()
                & (self.kw[w].val() >= self.clear_base.val())
                & (self.big.val()
                    | ((self.kw[w].val() - self.clear_base.val())
                        < self.clear_words.val().get_bits::<16>(0)))
            {
                self.nv[w].next = self.z32.val();
            }
            if self.reset.val() {
                self.nv[w].next = self.z32.val();
            }
            self.mem[w].d.next = self.nv[w].val();
        }
        for p in 0..32 {
            self.rv[p].next = self.z32.val();
            for w in 0..W {
                if self.idx[p].val() == self.kw[w].val() {
                    self.rv[p].next = self.mem[w].q.val();
                }
            }
            self.rdata[p].next = self.rv[p].val();
        }
    }
}
