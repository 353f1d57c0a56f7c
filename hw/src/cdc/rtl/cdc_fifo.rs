//! The dual-clock FIFO (contract in [`crate::cdc`]).

use super::gray::GrayToBin;
use crate::hdl::k;
use rust_hdl::prelude::*;

/// A dual-clock FIFO of `D = 2^(A1 − 1)` places of `W` bits with Gray-coded pointers of `A1`
/// bits and two-flop synchronizers.
#[derive(LogicBlock)]
pub struct CdcFifo<const W: usize, const D: usize, const A1: usize> {
    /// The writer's clock.
    pub wclk: Signal<In, Clock>,
    /// Synchronous reset of the writer's side: its pointer and its synchronizer of the read
    /// pointer.
    pub wreset: Signal<In, Bit>,
    /// Push `wdata` at the `wclk` edge that ends the cycle (ignored while `full`).
    pub push: Signal<In, Bit>,
    /// The entry to push.
    pub wdata: Signal<In, Bits<W>>,
    /// Places the writer sees free (pops reach it two to three `wclk` edges late).
    pub wfree: Signal<Out, Bits<A1>>,
    /// No place free: a push is ignored.
    pub full: Signal<Out, Bit>,
    /// The reader's clock.
    pub rclk: Signal<In, Clock>,
    /// Synchronous reset of the reader's side: its pointer and its synchronizer of the write
    /// pointer.
    pub rreset: Signal<In, Bit>,
    /// Pop the oldest entry at the `rclk` edge that ends the cycle (ignored without `rvalid`).
    pub pop: Signal<In, Bit>,
    /// The reader sees an entry.
    pub rvalid: Signal<Out, Bit>,
    /// The oldest entry the reader sees (0 when it sees none).
    pub rdata: Signal<Out, Bits<W>>,
    /// Entries the reader sees (pushes reach it two to three `rclk` edges late).
    pub rcount: Signal<Out, Bits<A1>>,
    /// The places, written on `wclk`.
    mem: [DFF<Bits<W>>; D],
    /// Write pointer, binary and Gray (`wclk`).
    wbin: DFF<Bits<A1>>,
    wgray: DFF<Bits<A1>>,
    /// Read pointer, binary and Gray (`rclk`).
    rbin: DFF<Bits<A1>>,
    rgray: DFF<Bits<A1>>,
    /// The write pointer's Gray code through two flops on `rclk`.
    w2r: [DFF<Bits<A1>>; 2],
    /// The read pointer's Gray code through two flops on `wclk`.
    r2w: [DFF<Bits<A1>>; 2],
    /// The synchronized write pointer in binary (reader's side).
    wptr_r: GrayToBin<A1>,
    /// The synchronized read pointer in binary (writer's side).
    rptr_w: GrayToBin<A1>,
    /// Free places and entries seen.
    free: Signal<Local, Bits<A1>>,
    count: Signal<Local, Bits<A1>>,
    /// A push and a pop take place at the edge.
    wdo: Signal<Local, Bit>,
    rdo: Signal<Local, Bit>,
    /// The pointers after the push or the pop.
    wnext: Signal<Local, Bits<A1>>,
    rnext: Signal<Local, Bits<A1>>,
    /// The place index of each memory word, D, 1, 0, and the address mask.
    k_idx: [Constant<Bits<A1>>; D],
    k_depth: Constant<Bits<A1>>,
    k_one: Constant<Bits<A1>>,
    k_zero: Constant<Bits<A1>>,
    k_mask: Constant<Bits<A1>>,
    k_zw: Constant<Bits<W>>,
}

impl<const W: usize, const D: usize, const A1: usize> Default for CdcFifo<W, D, A1> {
    fn default() -> Self {
        assert!(
            A1 >= 2 && D == 1 << (A1 - 1),
            "D = 2^(A1 - 1) places, at least 2"
        );
        Self {
            wclk: Default::default(),
            wreset: Default::default(),
            push: Default::default(),
            wdata: Default::default(),
            wfree: Default::default(),
            full: Default::default(),
            rclk: Default::default(),
            rreset: Default::default(),
            pop: Default::default(),
            rvalid: Default::default(),
            rdata: Default::default(),
            rcount: Default::default(),
            mem: array_init::array_init(|_| Default::default()),
            wbin: Default::default(),
            wgray: Default::default(),
            rbin: Default::default(),
            rgray: Default::default(),
            w2r: Default::default(),
            r2w: Default::default(),
            wptr_r: Default::default(),
            rptr_w: Default::default(),
            free: Default::default(),
            count: Default::default(),
            wdo: Default::default(),
            rdo: Default::default(),
            wnext: Default::default(),
            rnext: Default::default(),
            k_idx: array_init::array_init(|i| k(i as u64)),
            k_depth: k(D as u64),
            k_one: k(1),
            k_zero: k(0),
            k_mask: k(D as u64 - 1),
            k_zw: k(0),
        }
    }
}

impl<const W: usize, const D: usize, const A1: usize> Logic for CdcFifo<W, D, A1> {
    #[hdl_gen]
    fn update(&mut self) {
        // Clocks: the writer's registers on wclk, the reader's on rclk.
        for i in 0..D {
            self.mem[i].clock.next = self.wclk.val();
            self.mem[i].d.next = self.mem[i].q.val();
        }
        self.wbin.clock.next = self.wclk.val();
        self.wgray.clock.next = self.wclk.val();
        self.r2w[0].clock.next = self.wclk.val();
        self.r2w[1].clock.next = self.wclk.val();
        self.rbin.clock.next = self.rclk.val();
        self.rgray.clock.next = self.rclk.val();
        self.w2r[0].clock.next = self.rclk.val();
        self.w2r[1].clock.next = self.rclk.val();
        // The synchronizers.
        self.r2w[0].d.next = self.rgray.q.val();
        self.r2w[1].d.next = self.r2w[0].q.val();
        self.w2r[0].d.next = self.wgray.q.val();
        self.w2r[1].d.next = self.w2r[0].q.val();
        self.rptr_w.g.next = self.r2w[1].q.val();
        self.wptr_r.g.next = self.w2r[1].q.val();
        // Writer: free places against the synchronized read pointer.
        self.free.next = self.k_depth.val() - (self.wbin.q.val() - self.rptr_w.b.val());
        self.wfree.next = self.free.val();
        self.full.next = self.free.val() == self.k_zero.val();
        self.wdo.next = self.push.val() & (self.free.val() != self.k_zero.val());
        self.wnext.next = self.wbin.q.val() + self.k_one.val();
        self.wbin.d.next = self.wbin.q.val();
        self.wgray.d.next = self.wgray.q.val();
        if self.wdo.val() {
            self.wbin.d.next = self.wnext.val();
            self.wgray.d.next = self.wnext.val() ^ (self.wnext.val() >> self.k_one.val());
            for i in 0..D {
                if (self.wbin.q.val() & self.k_mask.val()) == self.k_idx[i].val() {
                    self.mem[i].d.next = self.wdata.val();
                }
            }
        }
        if self.wreset.val() {
            self.wbin.d.next = self.k_zero.val();
            self.wgray.d.next = self.k_zero.val();
            self.r2w[0].d.next = self.k_zero.val();
            self.r2w[1].d.next = self.k_zero.val();
        }
        // Reader: entries seen against the synchronized write pointer.
        self.count.next = self.wptr_r.b.val() - self.rbin.q.val();
        self.rcount.next = self.count.val();
        self.rvalid.next = self.count.val() != self.k_zero.val();
        self.rdata.next = self.k_zw.val();
        for i in 0..D {
            if (self.count.val() != self.k_zero.val())
                & ((self.rbin.q.val() & self.k_mask.val()) == self.k_idx[i].val())
            {
                self.rdata.next = self.mem[i].q.val();
            }
        }
        self.rdo.next = self.pop.val() & (self.count.val() != self.k_zero.val());
        self.rnext.next = self.rbin.q.val() + self.k_one.val();
        self.rbin.d.next = self.rbin.q.val();
        self.rgray.d.next = self.rgray.q.val();
        if self.rdo.val() {
            self.rbin.d.next = self.rnext.val();
            self.rgray.d.next = self.rnext.val() ^ (self.rnext.val() >> self.k_one.val());
        }
        if self.rreset.val() {
            self.rbin.d.next = self.k_zero.val();
            self.rgray.d.next = self.k_zero.val();
            self.w2r[0].d.next = self.k_zero.val();
            self.w2r[1].d.next = self.k_zero.val();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    type Fifo = CdcFifo<8, 4, 3>;

    /// One rising edge of the writer's clock (`w`) or the reader's, the inputs held.
    fn edge(u: &mut Fifo, w: bool) {
        let clk = if w { &mut u.wclk } else { &mut u.rclk };
        clk.next = Clock::from(false);
        assert!(simulate(u, 50));
        let clk = if w { &mut u.wclk } else { &mut u.rclk };
        clk.next = Clock::from(true);
        assert!(simulate(u, 50));
    }

    /// The pointers that cross clocks change one bit at a time (what makes a synchronizer
    /// that samples one mid-change see the old or the new pointer): pushing and popping
    /// through several wraps of the 3-bit pointers. Fails if a side sends its binary pointer.
    #[test]
    fn the_crossing_pointers_change_one_bit_per_edge() {
        let mut u = Fifo::default();
        u.connect_all();
        let (mut w_prev, mut r_prev, mut pops) = (0u64, 0u64, 0);
        for n in 0..40 {
            u.push.next = true;
            u.wdata.next = Bits::<8>::from(n as u64);
            u.pop.next = n % 3 != 0;
            for side in [true, false] {
                edge(&mut u, side);
            }
            let (w, r) = (
                u.wgray.q.val().index() as u64,
                u.rgray.q.val().index() as u64,
            );
            assert!(
                (w ^ w_prev).count_ones() <= 1,
                "write pointer {w_prev:03b} -> {w:03b}"
            );
            assert!(
                (r ^ r_prev).count_ones() <= 1,
                "read pointer {r_prev:03b} -> {r:03b}"
            );
            pops += usize::from(r != r_prev);
            (w_prev, r_prev) = (w, r);
        }
        assert!(pops > 16, "the read pointer wraps twice: {pops} pops");
    }
}
