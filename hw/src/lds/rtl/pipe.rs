//! The delay line from the RAM to the write-back outputs: [`STAGES`] register stages, each
//! holding a quarter (its loaded dwords, lanes, VGPR, whether it is a load, a read2, the
//! instruction's last quarter). An empty stage holds zeros; `reset` empties every stage.

use crate::hdl::k;
use crate::lds::{QUARTER, STAGES};
use rust_hdl::prelude::*;

/// The pipeline.
#[derive(LogicBlock)]
pub struct LdsPipe {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Empty every stage at this edge.
    pub reset: Signal<In, Bit>,
    /// A quarter enters.
    pub in_valid: Signal<In, Bit>,
    /// It is a load's.
    pub in_read: Signal<In, Bit>,
    /// A `ds_read2_b32`'s.
    pub in_two: Signal<In, Bit>,
    /// The instruction's last quarter.
    pub in_last: Signal<In, Bit>,
    /// Its quarter.
    pub in_q: Signal<In, Bits<2>>,
    /// The first VGPR.
    pub in_vgpr: Signal<In, Bits<8>>,
    /// The quarter's lanes taking part.
    pub in_lanes: Signal<In, Bits<16>>,
    /// The RAM's first words of the lanes.
    pub in_d0: [Signal<In, Bits<32>>; QUARTER],
    /// The RAM's second words of the lanes.
    pub in_d1: [Signal<In, Bits<32>>; QUARTER],
    /// The last stage: a quarter.
    pub out_valid: Signal<Out, Bit>,
    /// A load's.
    pub out_read: Signal<Out, Bit>,
    /// A `ds_read2_b32`'s.
    pub out_two: Signal<Out, Bit>,
    /// The last quarter.
    pub out_last: Signal<Out, Bit>,
    /// Its quarter.
    pub out_q: Signal<Out, Bits<2>>,
    /// The first VGPR.
    pub out_vgpr: Signal<Out, Bits<8>>,
    /// The lanes.
    pub out_lanes: Signal<Out, Bits<16>>,
    /// First dwords.
    pub out_d0: [Signal<Out, Bits<32>>; QUARTER],
    /// Second dwords.
    pub out_d1: [Signal<Out, Bits<32>>; QUARTER],
    /// Per stage: valid.
    s_valid: [DFF<Bit>; STAGES],
    /// Per stage: a load.
    s_read: [DFF<Bit>; STAGES],
    /// Per stage: read2.
    s_two: [DFF<Bit>; STAGES],
    /// Per stage: last quarter.
    s_last: [DFF<Bit>; STAGES],
    /// Per stage: quarter.
    s_q: [DFF<Bits<2>>; STAGES],
    /// Per stage: VGPR.
    s_vgpr: [DFF<Bits<8>>; STAGES],
    /// Per stage: lanes.
    s_lanes: [DFF<Bits<16>>; STAGES],
    /// Stage `s`, lane `l`: first dword at `16·s + l`.
    s_d0: [DFF<Bits<32>>; STAGES * QUARTER],
    /// Second dword likewise.
    s_d1: [DFF<Bits<32>>; STAGES * QUARTER],
    /// Stage 0's quarter (0 when none enters).
    e_q: Signal<Local, Bits<2>>,
    /// Stage 0's VGPR (0 unless a load enters).
    e_vgpr: Signal<Local, Bits<8>>,
    /// Stage 0's lanes (0 unless a load enters).
    e_lanes: Signal<Local, Bits<16>>,
    /// Stage 0's first dwords (0 outside a load's lanes).
    e_d0: [Signal<Local, Bits<32>>; QUARTER],
    /// Stage 0's second dwords (0 outside a read2's lanes).
    e_d1: [Signal<Local, Bits<32>>; QUARTER],
    /// A load enters.
    e_rd: Signal<Local, Bit>,
    /// 0.
    z2: Constant<Bits<2>>,
    /// 0.
    z8: Constant<Bits<8>>,
    /// 0.
    z16: Constant<Bits<16>>,
    /// 0.
    z32: Constant<Bits<32>>,
}

impl Default for LdsPipe {
    fn default() -> Self {
        let d = || array_init::array_init(|_| Default::default());
        Self {
            clock: Default::default(),
            reset: Default::default(),
            in_valid: Default::default(),
            in_read: Default::default(),
            in_two: Default::default(),
            in_last: Default::default(),
            in_q: Default::default(),
            in_vgpr: Default::default(),
            in_lanes: Default::default(),
            in_d0: Default::default(),
            in_d1: Default::default(),
            out_valid: Default::default(),
            out_read: Default::default(),
            out_two: Default::default(),
            out_last: Default::default(),
            out_q: Default::default(),
            out_vgpr: Default::default(),
            out_lanes: Default::default(),
            out_d0: Default::default(),
            out_d1: Default::default(),
            s_valid: d(),
            s_read: d(),
            s_two: d(),
            s_last: d(),
            s_q: array_init::array_init(|_| Default::default()),
            s_vgpr: array_init::array_init(|_| Default::default()),
            s_lanes: array_init::array_init(|_| Default::default()),
            s_d0: array_init::array_init(|_| Default::default()),
            s_d1: array_init::array_init(|_| Default::default()),
            e_q: Default::default(),
            e_vgpr: Default::default(),
            e_lanes: Default::default(),
            e_d0: Default::default(),
            e_d1: Default::default(),
            e_rd: Default::default(),
            z2: k(0),
            z8: k(0),
            z16: k(0),
            z32: k(0),
        }
    }
}

impl Logic for LdsPipe {
    #[hdl_gen]
    fn update(&mut self) {
        for s in 0..STAGES {
            self.s_valid[s].clock.next = self.clock.val();
            self.s_read[s].clock.next = self.clock.val();
            self.s_two[s].clock.next = self.clock.val();
            self.s_last[s].clock.next = self.clock.val();
            self.s_q[s].clock.next = self.clock.val();
            self.s_vgpr[s].clock.next = self.clock.val();
            self.s_lanes[s].clock.next = self.clock.val();
        }
        for x in 0..(STAGES * QUARTER) {
            self.s_d0[x].clock.next = self.clock.val();
            self.s_d1[x].clock.next = self.clock.val();
        }
        // Stage 0: the quarter entering, zeros where it loads nothing.
        self.e_rd.next = self.in_valid.val() & self.in_read.val();
        self.e_q.next = self.z2.val();
        self.e_vgpr.next = self.z8.val();
        self.e_lanes.next = self.z16.val();
        if self.in_valid.val() {
            self.e_q.next = self.in_q.val();
        }
        if self.e_rd.val() {
            self.e_vgpr.next = self.in_vgpr.val();
            self.e_lanes.next = self.in_lanes.val();
        }
        for l in 0..16 {
            self.e_d0[l].next = self.z32.val();
            self.e_d1[l].next = self.z32.val();
            if self.e_rd.val() & self.in_lanes.val().get_bit(l) {
                self.e_d0[l].next = self.in_d0[l].val();
                if self.in_two.val() {
                    self.e_d1[l].next = self.in_d1[l].val();
                }
            }
        }
        if self.reset.val() {
            for s in 0..STAGES {
                self.s_valid[s].d.next = false;
                self.s_read[s].d.next = false;
                self.s_two[s].d.next = false;
                self.s_last[s].d.next = false;
                self.s_q[s].d.next = self.z2.val();
                self.s_vgpr[s].d.next = self.z8.val();
                self.s_lanes[s].d.next = self.z16.val();
            }
            for x in 0..(STAGES * QUARTER) {
                self.s_d0[x].d.next = self.z32.val();
                self.s_d1[x].d.next = self.z32.val();
            }
        } else {
            self.s_valid[0].d.next = self.in_valid.val();
            self.s_read[0].d.next = self.e_rd.val();
            self.s_two[0].d.next = self.e_rd.val() & self.in_two.val();
            self.s_last[0].d.next = self.in_valid.val() & self.in_last.val();
            self.s_q[0].d.next = self.e_q.val();
            self.s_vgpr[0].d.next = self.e_vgpr.val();
            self.s_lanes[0].d.next = self.e_lanes.val();
            for l in 0..16 {
                self.s_d0[l].d.next = self.e_d0[l].val();
                self.s_d1[l].d.next = self.e_d1[l].val();
            }
            for s in 1..STAGES {
                self.s_valid[s].d.next = self.s_valid[s - 1].q.val();
                self.s_read[s].d.next = self.s_read[s - 1].q.val();
                self.s_two[s].d.next = self.s_two[s - 1].q.val();
                self.s_last[s].d.next = self.s_last[s - 1].q.val();
                self.s_q[s].d.next = self.s_q[s - 1].q.val();
                self.s_vgpr[s].d.next = self.s_vgpr[s - 1].q.val();
                self.s_lanes[s].d.next = self.s_lanes[s - 1].q.val();
                for l in 0..16 {
                    self.s_d0[16 * s + l].d.next = self.s_d0[16 * s + l - 16].q.val();
                    self.s_d1[16 * s + l].d.next = self.s_d1[16 * s + l - 16].q.val();
                }
            }
        }
        for s in (STAGES - 1)..STAGES {
            self.out_valid.next = self.s_valid[s].q.val();
            self.out_read.next = self.s_read[s].q.val();
            self.out_two.next = self.s_two[s].q.val();
            self.out_last.next = self.s_last[s].q.val();
            self.out_q.next = self.s_q[s].q.val();
            self.out_vgpr.next = self.s_vgpr[s].q.val();
            self.out_lanes.next = self.s_lanes[s].q.val();
            for l in 0..16 {
                self.out_d0[l].next = self.s_d0[16 * s + l].q.val();
                self.out_d1[l].next = self.s_d1[16 * s + l].q.val();
            }
        }
    }
}
