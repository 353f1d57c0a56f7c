//! The CAM of a snoopy indexed transfer (Section 3.2.3 of the Sim-D
//! paper): each entry (one work-item)
//! holds the word address it wants; the controller streams the whole buffer as an ordinary
//! tile request, and every cycle the CAM compares the 4 words on the data bus with every
//! entry. Reads: a matching entry captures its word (`hit`, `hit_word`; the data path takes
//! the word from that bus lane). Writes: a match puts the entry's word on the bus (`wmask`).
//!
//! Timing: `load` writes entry `load_entry` at the edge. In a cycle with `dq_valid`, the words
//! on the bus are `dq_base + i` for the bits i of `dq_mask`; `match_now[e]` and `wmask` are
//! combinational in that cycle, `hit[e]` (sticky) and `hit_word[e]` are set at its edge.
//! `clear` (or `reset`) forgets every hit, keeping the addresses.

use crate::hdl::k;
use rust_hdl::prelude::*;

/// The snoop CAM with `N` entries (N ≤ 16).
#[derive(LogicBlock)]
pub struct Snoop<const N: usize> {
    /// DRAM command clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: every entry invalid, no hits.
    pub reset: Signal<In, Bit>,
    /// Forget the hits (a new transfer), keep the addresses.
    pub clear: Signal<In, Bit>,
    /// Load an entry's address at the edge.
    pub load: Signal<In, Bit>,
    /// The entry loaded.
    pub load_entry: Signal<In, Bits<4>>,
    /// Its word address.
    pub load_addr: Signal<In, Bits<30>>,
    /// Words are on the data bus.
    pub dq_valid: Signal<In, Bit>,
    /// Word address of the first of the 4 words on the bus (burst · 16 + beat · 4).
    pub dq_base: Signal<In, Bits<30>>,
    /// Which of the 4 words are part of the transfer.
    pub dq_mask: Signal<In, Bits<4>>,
    /// Entry e's word is on the bus in this cycle.
    pub match_now: [Signal<Out, Bit>; N],
    /// Entry e has seen its word (sticky until `clear`).
    pub hit: [Signal<Out, Bit>; N],
    /// The bus lane (0..3) entry e's word was on.
    pub hit_word: [Signal<Out, Bits<2>>; N],
    /// For a write: the bus words some entry supplies in this cycle.
    pub wmask: Signal<Out, Bits<4>>,
    addr: [DFF<Bits<30>>; N],
    valid: [DFF<Bit>; N],
    hit_r: [DFF<Bit>; N],
    word_r: [DFF<Bits<2>>; N],
    lane: [Signal<Local, Bits<2>>; N],
    m: [Signal<Local, Bit>; N],
    delta: [Signal<Local, Bits<30>>; N],
    supplied: [Signal<Local, Bit>; 4],
    lane_bit: [Signal<Local, Bits<4>>; 4],
    lane_k: [Constant<Bits<2>>; 4],
    idx: [Constant<Bits<4>>; N],
    four: Constant<Bits<30>>,
    zero2: Constant<Bits<2>>,
    zero4: Constant<Bits<4>>,
    zero30: Constant<Bits<30>>,
    one4: Constant<Bits<4>>,
}

impl<const N: usize> Default for Snoop<N> {
    fn default() -> Self {
        assert!(N <= 16, "at most 16 entries");
        Self {
            clock: Default::default(),
            reset: Default::default(),
            clear: Default::default(),
            load: Default::default(),
            load_entry: Default::default(),
            load_addr: Default::default(),
            dq_valid: Default::default(),
            dq_base: Default::default(),
            dq_mask: Default::default(),
            match_now: array_init::array_init(|_| Default::default()),
            hit: array_init::array_init(|_| Default::default()),
            hit_word: array_init::array_init(|_| Default::default()),
            wmask: Default::default(),
            addr: array_init::array_init(|_| Default::default()),
            valid: array_init::array_init(|_| Default::default()),
            hit_r: array_init::array_init(|_| Default::default()),
            word_r: array_init::array_init(|_| Default::default()),
            lane: array_init::array_init(|_| Default::default()),
            m: array_init::array_init(|_| Default::default()),
            delta: array_init::array_init(|_| Default::default()),
            supplied: array_init::array_init(|_| Default::default()),
            lane_bit: array_init::array_init(|_| Default::default()),
            lane_k: array_init::array_init(|j| k(j as u64)),
            idx: array_init::array_init(|i| k(i as u64)),
            four: k(4),
            zero2: k(0),
            zero4: k(0),
            zero30: k(0),
            one4: k(1),
        }
    }
}

impl<const N: usize> Logic for Snoop<N> {
    #[hdl_gen]
    fn update(&mut self) {
        for e in 0..N {
            self.addr[e].clock.next = self.clock.val();
            self.valid[e].clock.next = self.clock.val();
            self.hit_r[e].clock.next = self.clock.val();
            self.word_r[e].clock.next = self.clock.val();
            self.addr[e].d.next = self.addr[e].q.val();
            self.valid[e].d.next = self.valid[e].q.val();
            self.hit_r[e].d.next = self.hit_r[e].q.val();
            self.word_r[e].d.next = self.word_r[e].q.val();
            // The entry's word is on lane addr - base when that is below 4 and the lane is used.
            self.delta[e].next = self.addr[e].q.val() - self.dq_base.val();
            self.lane[e].next = self.delta[e].val().get_bits::<2>(0);
            self.m[e].next = self.dq_valid.val()
                & self.valid[e].q.val()
                & (self.delta[e].val() < self.four.val())
                & (self.dq_mask.val() & (self.one4.val() << self.lane[e].val())).any();
            self.match_now[e].next = self.m[e].val();
            if self.m[e].val() {
                self.hit_r[e].d.next = true;
                self.word_r[e].d.next = self.lane[e].val();
            }
            self.hit[e].next = self.hit_r[e].q.val();
            self.hit_word[e].next = self.word_r[e].q.val();
            if self.load.val() & (self.load_entry.val() == self.idx[e].val()) {
                self.addr[e].d.next = self.load_addr.val();
                self.valid[e].d.next = true;
            }
            if self.clear.val() {
                self.hit_r[e].d.next = false;
                self.word_r[e].d.next = self.zero2.val();
            }
            if self.reset.val() {
                self.addr[e].d.next = self.zero30.val();
                self.valid[e].d.next = false;
                self.hit_r[e].d.next = false;
                self.word_r[e].d.next = self.zero2.val();
            }
        }
        // wmask: lane j is supplied when some entry matches on lane j.
        for j in 0..4 {
            self.supplied[j].next = false;
            for e in 0..N {
                if self.m[e].val() & (self.lane[e].val() == self.lane_k[j].val()) {
                    self.supplied[j].next = true;
                }
            }
            self.lane_bit[j].next = self.zero4.val();
            if self.supplied[j].val() {
                self.lane_bit[j].next = self.one4.val() << self.lane_k[j].val();
            }
        }
        self.wmask.next = self.lane_bit[0].val()
            | self.lane_bit[1].val()
            | self.lane_bit[2].val()
            | self.lane_bit[3].val();
    }
}
