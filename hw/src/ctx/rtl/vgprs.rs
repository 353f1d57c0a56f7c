//! The vector register file: `S` wavefront slots of `V` VGPRs of `L` lanes, one
//! [`VgprLane`] per lane, with each VALU's three row read ports and lane-masked row (or pair) write (four
//! VALUs, one per issue unit of a group of up to four), the memory unit's three write-first row read ports and
//! lane-masked row write, and the LDS's ([`crate::ctx`]).

use super::vgpr_lane::VgprLane;
use rust_hdl::prelude::*;

/// The VGPRs of `S` slots × `V` registers × `L` lanes; `M` = `S` · `V` rows.
#[derive(LogicBlock)]
pub struct Vgprs<const S: usize, const V: usize, const L: usize, const M: usize> {
    /// Core clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: every word 0.
    pub reset: Signal<In, Bit>,
    /// Zero every VGPR of slot `clear_slot` at this edge (before a write), except `v0`,
    /// whose lane `l` takes `clear_v0 + l` (a dispatch: the work-item ids).
    pub clear: Signal<In, Bit>,
    /// The slot cleared.
    pub clear_slot: Signal<In, Bits<8>>,
    /// Lane 0's `v0` after a clear (the wavefront's first work-item id).
    pub clear_v0: Signal<In, Bits<32>>,
    /// Read port `a`'s slot (the wavefront of the context read).
    pub a_slot: Signal<In, Bits<8>>,
    /// Read port `a`'s VGPR.
    pub a_reg: Signal<In, Bits<8>>,
    /// Row `a`, lane `l` (0 past the end).
    pub a_data: [Signal<Out, Bits<32>>; L],
    /// Read port `b`'s slot.
    pub b_slot: Signal<In, Bits<8>>,
    /// Read port `b`'s VGPR.
    pub b_reg: Signal<In, Bits<8>>,
    /// Row `b`, lane `l` (0 past the end).
    pub b_data: [Signal<Out, Bits<32>>; L],
    /// Read port `c`'s slot (the VALU's third source).
    pub c_slot: Signal<In, Bits<8>>,
    /// Read port `c`'s VGPR.
    pub c_reg: Signal<In, Bits<8>>,
    /// Row `c`, lane `l` (0 past the end).
    pub c_data: [Signal<Out, Bits<32>>; L],
    /// Write the lanes of `w_mask` of row (`w_slot`, `w_reg`) at this edge.
    pub we: Signal<In, Bit>,
    /// The slot written.
    pub w_slot: Signal<In, Bits<8>>,
    /// The VGPR written.
    pub w_reg: Signal<In, Bits<8>>,
    /// The lanes written (bit `l`: lane `l`).
    pub w_mask: Signal<In, Bits<L>>,
    /// The values, lane `l`.
    pub w_data: [Signal<In, Bits<32>>; L],
    /// With `we`: row (`w_slot`, `w_reg` + 1) takes `w_data1` in the same lanes (a
    /// 64-bit result).
    pub w_two: Signal<In, Bit>,
    /// The pair's second row's values.
    pub w_data1: [Signal<In, Bits<32>>; L],
    /// Read port `a2`'s slot (the second VALU's ports `a2`, `b2`, `c2` and `w2`, as `a`,
    /// `b`, `c` and `w`: a SIMD group's second issue unit).
    pub a2_slot: Signal<In, Bits<8>>,
    /// Read port `a2`'s VGPR.
    pub a2_reg: Signal<In, Bits<8>>,
    /// Row `a2`'s words.
    pub a2_data: [Signal<Out, Bits<32>>; L],
    /// Read port `b2`'s slot.
    pub b2_slot: Signal<In, Bits<8>>,
    /// Read port `b2`'s VGPR.
    pub b2_reg: Signal<In, Bits<8>>,
    /// Row `b2`'s words.
    pub b2_data: [Signal<Out, Bits<32>>; L],
    /// Read port `c2`'s slot.
    pub c2_slot: Signal<In, Bits<8>>,
    /// Read port `c2`'s VGPR.
    pub c2_reg: Signal<In, Bits<8>>,
    /// Row `c2`'s words.
    pub c2_data: [Signal<Out, Bits<32>>; L],
    /// Write row (`w2_slot`, `w2_reg`) in the lanes of `w2_mask` (after port `w`).
    pub we2: Signal<In, Bit>,
    /// The slot written.
    pub w2_slot: Signal<In, Bits<8>>,
    /// The VGPR written.
    pub w2_reg: Signal<In, Bits<8>>,
    /// The lanes written.
    pub w2_mask: Signal<In, Bits<L>>,
    /// The values.
    pub w2_data: [Signal<In, Bits<32>>; L],
    /// With `we2`: row (`w2_slot`, `w2_reg` + 1) takes `w2_data1` in the same lanes (a
    /// 64-bit result).
    pub w2_two: Signal<In, Bit>,
    /// The pair's second row's values.
    pub w2_data1: [Signal<In, Bits<32>>; L],
    /// Read port `a3`'s slot (the third VALU's ports `a3`, `b3`, `c3` and `w3`, as `a`,
    /// `b`, `c` and `w`: a SIMD group's third issue unit).
    pub a3_slot: Signal<In, Bits<8>>,
    /// Read port `a3`'s VGPR.
    pub a3_reg: Signal<In, Bits<8>>,
    /// Row `a3`'s words.
    pub a3_data: [Signal<Out, Bits<32>>; L],
    /// Read port `b3`'s slot.
    pub b3_slot: Signal<In, Bits<8>>,
    /// Read port `b3`'s VGPR.
    pub b3_reg: Signal<In, Bits<8>>,
    /// Row `b3`'s words.
    pub b3_data: [Signal<Out, Bits<32>>; L],
    /// Read port `c3`'s slot.
    pub c3_slot: Signal<In, Bits<8>>,
    /// Read port `c3`'s VGPR.
    pub c3_reg: Signal<In, Bits<8>>,
    /// Row `c3`'s words.
    pub c3_data: [Signal<Out, Bits<32>>; L],
    /// Write row (`w3_slot`, `w3_reg`) in the lanes of `w3_mask` (after port `w2`).
    pub we3: Signal<In, Bit>,
    /// The slot written.
    pub w3_slot: Signal<In, Bits<8>>,
    /// The VGPR written.
    pub w3_reg: Signal<In, Bits<8>>,
    /// The lanes written.
    pub w3_mask: Signal<In, Bits<L>>,
    /// The values.
    pub w3_data: [Signal<In, Bits<32>>; L],
    /// With `we3`: row (`w3_slot`, `w3_reg` + 1) takes `w3_data1` in the same lanes (a
    /// 64-bit result).
    pub w3_two: Signal<In, Bit>,
    /// The pair's second row's values.
    pub w3_data1: [Signal<In, Bits<32>>; L],
    /// Read port `a4`'s slot (the fourth VALU's ports `a4`, `b4`, `c4` and `w4`, as `a`,
    /// `b`, `c` and `w`: a SIMD group's fourth issue unit).
    pub a4_slot: Signal<In, Bits<8>>,
    /// Read port `a4`'s VGPR.
    pub a4_reg: Signal<In, Bits<8>>,
    /// Row `a4`'s words.
    pub a4_data: [Signal<Out, Bits<32>>; L],
    /// Read port `b4`'s slot.
    pub b4_slot: Signal<In, Bits<8>>,
    /// Read port `b4`'s VGPR.
    pub b4_reg: Signal<In, Bits<8>>,
    /// Row `b4`'s words.
    pub b4_data: [Signal<Out, Bits<32>>; L],
    /// Read port `c4`'s slot.
    pub c4_slot: Signal<In, Bits<8>>,
    /// Read port `c4`'s VGPR.
    pub c4_reg: Signal<In, Bits<8>>,
    /// Row `c4`'s words.
    pub c4_data: [Signal<Out, Bits<32>>; L],
    /// Write row (`w4_slot`, `w4_reg`) in the lanes of `w4_mask` (after port `w3`).
    pub we4: Signal<In, Bit>,
    /// The slot written.
    pub w4_slot: Signal<In, Bits<8>>,
    /// The VGPR written.
    pub w4_reg: Signal<In, Bits<8>>,
    /// The lanes written.
    pub w4_mask: Signal<In, Bits<L>>,
    /// The values.
    pub w4_data: [Signal<In, Bits<32>>; L],
    /// With `we4`: row (`w4_slot`, `w4_reg` + 1) takes `w4_data1` in the same lanes (a
    /// 64-bit result).
    pub w4_two: Signal<In, Bit>,
    /// The pair's second row's values.
    pub w4_data1: [Signal<In, Bits<32>>; L],
    /// Write the lanes of `m_mask` of row (`m_slot`, `m_reg`) at this edge, after ports `w`
    /// ..`w4` (the memory's returns).
    pub m_we: Signal<In, Bit>,
    /// The slot written.
    pub m_slot: Signal<In, Bits<8>>,
    /// The VGPR written.
    pub m_reg: Signal<In, Bits<8>>,
    /// The lanes written.
    pub m_mask: Signal<In, Bits<L>>,
    /// The values, lane `l`.
    pub m_data: [Signal<In, Bits<32>>; L],
    /// Read port `x[p]`'s slot (the memory unit's ports: 0 and 1 an address pair, 2 store data).
    pub x_slot: [Signal<In, Bits<8>>; 3],
    /// Read port `x[p]`'s VGPR.
    pub x_reg: [Signal<In, Bits<8>>; 3],
    /// Row `x[0]`, lane `l`, as the VALUs' writes at this edge leave it (0 past the end).
    pub x0_data: [Signal<Out, Bits<32>>; L],
    /// Row `x[1]`, lane `l`, likewise.
    pub x1_data: [Signal<Out, Bits<32>>; L],
    /// Row `x[2]`, lane `l`, likewise.
    pub x2_data: [Signal<Out, Bits<32>>; L],
    /// The LDS's read ports' slot.
    pub y_slot: Signal<In, Bits<8>>,
    /// The LDS's read ports' VGPRs (`ADDR`, `DATA0`, `DATA1`).
    pub y_reg: [Signal<In, Bits<8>>; 3],
    /// Row (`y_slot`, `y_reg[0]`), lane `l` (0 past the end).
    pub y0_data: [Signal<Out, Bits<32>>; L],
    /// Row (`y_slot`, `y_reg[1]`), lane `l`.
    pub y1_data: [Signal<Out, Bits<32>>; L],
    /// Row (`y_slot`, `y_reg[2]`), lane `l`.
    pub y2_data: [Signal<Out, Bits<32>>; L],
    /// The LDS's write: row (`l_slot`, `l_reg`) takes `l_data` in the lanes of `l_mask` (after
    /// port `m`'s write).
    pub l_we: Signal<In, Bit>,
    /// With `l_we`: row (`l_slot`, `l_reg` + 1) takes `l_data1` in the same lanes.
    pub l_two: Signal<In, Bit>,
    /// The slot written.
    pub l_slot: Signal<In, Bits<8>>,
    /// The (first) VGPR written.
    pub l_reg: Signal<In, Bits<8>>,
    /// The lanes written.
    pub l_mask: Signal<In, Bits<L>>,
    /// The first row's values.
    pub l_data: [Signal<In, Bits<32>>; L],
    /// The second row's values.
    pub l_data1: [Signal<In, Bits<32>>; L],
    /// The lanes.
    lane: [VgprLane<M, V>; L],
    /// Lane `l`'s index.
    kl: [Constant<Bits<32>>; L],
    /// 1.
    one8: Constant<Bits<8>>,
}

impl<const S: usize, const V: usize, const L: usize, const M: usize> Default for Vgprs<S, V, L, M> {
    fn default() -> Self {
        assert_eq!(M, S * V, "M = S · V rows");
        Self {
            clock: Default::default(),
            reset: Default::default(),
            clear: Default::default(),
            clear_slot: Default::default(),
            clear_v0: Default::default(),
            a_slot: Default::default(),
            a_reg: Default::default(),
            a_data: array_init::array_init(|_| Default::default()),
            b_slot: Default::default(),
            b_reg: Default::default(),
            b_data: array_init::array_init(|_| Default::default()),
            c_slot: Default::default(),
            c_reg: Default::default(),
            c_data: array_init::array_init(|_| Default::default()),
            we: Default::default(),
            w_slot: Default::default(),
            w_reg: Default::default(),
            w_mask: Default::default(),
            w_data: array_init::array_init(|_| Default::default()),
            w_two: Default::default(),
            w_data1: array_init::array_init(|_| Default::default()),
            a2_slot: Default::default(),
            a2_reg: Default::default(),
            a2_data: array_init::array_init(|_| Default::default()),
            b2_slot: Default::default(),
            b2_reg: Default::default(),
            b2_data: array_init::array_init(|_| Default::default()),
            c2_slot: Default::default(),
            c2_reg: Default::default(),
            c2_data: array_init::array_init(|_| Default::default()),
            we2: Default::default(),
            w2_slot: Default::default(),
            w2_reg: Default::default(),
            w2_mask: Default::default(),
            w2_data: array_init::array_init(|_| Default::default()),
            w2_two: Default::default(),
            w2_data1: array_init::array_init(|_| Default::default()),
            a3_slot: Default::default(),
            a3_reg: Default::default(),
            a3_data: array_init::array_init(|_| Default::default()),
            b3_slot: Default::default(),
            b3_reg: Default::default(),
            b3_data: array_init::array_init(|_| Default::default()),
            c3_slot: Default::default(),
            c3_reg: Default::default(),
            c3_data: array_init::array_init(|_| Default::default()),
            we3: Default::default(),
            w3_slot: Default::default(),
            w3_reg: Default::default(),
            w3_mask: Default::default(),
            w3_data: array_init::array_init(|_| Default::default()),
            w3_two: Default::default(),
            w3_data1: array_init::array_init(|_| Default::default()),
            a4_slot: Default::default(),
            a4_reg: Default::default(),
            a4_data: array_init::array_init(|_| Default::default()),
            b4_slot: Default::default(),
            b4_reg: Default::default(),
            b4_data: array_init::array_init(|_| Default::default()),
            c4_slot: Default::default(),
            c4_reg: Default::default(),
            c4_data: array_init::array_init(|_| Default::default()),
            we4: Default::default(),
            w4_slot: Default::default(),
            w4_reg: Default::default(),
            w4_mask: Default::default(),
            w4_data: array_init::array_init(|_| Default::default()),
            w4_two: Default::default(),
            w4_data1: array_init::array_init(|_| Default::default()),
            m_we: Default::default(),
            m_slot: Default::default(),
            m_reg: Default::default(),
            m_mask: Default::default(),
            m_data: array_init::array_init(|_| Default::default()),
            x_slot: Default::default(),
            x_reg: Default::default(),
            x0_data: array_init::array_init(|_| Default::default()),
            x1_data: array_init::array_init(|_| Default::default()),
            x2_data: array_init::array_init(|_| Default::default()),
            y_slot: Default::default(),
            y_reg: Default::default(),
            y0_data: array_init::array_init(|_| Default::default()),
            y1_data: array_init::array_init(|_| Default::default()),
            y2_data: array_init::array_init(|_| Default::default()),
            l_we: Default::default(),
            l_two: Default::default(),
            l_slot: Default::default(),
            l_reg: Default::default(),
            l_mask: Default::default(),
            l_data: array_init::array_init(|_| Default::default()),
            l_data1: array_init::array_init(|_| Default::default()),
            lane: array_init::array_init(|_| Default::default()),
            kl: array_init::array_init(|l| crate::hdl::k(l as u64)),
            one8: crate::hdl::k(1),
        }
    }
}

impl<const S: usize, const V: usize, const L: usize, const M: usize> Logic for Vgprs<S, V, L, M> {
    #[hdl_gen]
    fn update(&mut self) {
        for l in 0..L {
            self.lane[l].clock.next = self.clock.val();
            self.lane[l].reset.next = self.reset.val();
            self.lane[l].clear.next = self.clear.val();
            self.lane[l].clear_slot.next = self.clear_slot.val();
            self.lane[l].clear_v0.next = self.clear_v0.val() + self.kl[l].val();
            self.lane[l].a_slot.next = self.a_slot.val();
            self.lane[l].a_reg.next = self.a_reg.val();
            self.lane[l].b_slot.next = self.b_slot.val();
            self.lane[l].b_reg.next = self.b_reg.val();
            self.lane[l].c_slot.next = self.c_slot.val();
            self.lane[l].c_reg.next = self.c_reg.val();
            self.lane[l].we.next = self.we.val() & self.w_mask.val().get_bit(l);
            self.lane[l].w_slot.next = self.w_slot.val();
            self.lane[l].w_reg.next = self.w_reg.val();
            self.lane[l].w_data.next = self.w_data[l].val();
            self.lane[l].weh.next = self.we.val() & self.w_two.val() & self.w_mask.val().get_bit(l);
            self.lane[l].wh_reg.next = self.w_reg.val() + self.one8.val();
            self.lane[l].wh_data.next = self.w_data1[l].val();
            self.lane[l].a2_slot.next = self.a2_slot.val();
            self.lane[l].a2_reg.next = self.a2_reg.val();
            self.lane[l].b2_slot.next = self.b2_slot.val();
            self.lane[l].b2_reg.next = self.b2_reg.val();
            self.lane[l].c2_slot.next = self.c2_slot.val();
            self.lane[l].c2_reg.next = self.c2_reg.val();
            self.lane[l].we2.next = self.we2.val() & self.w2_mask.val().get_bit(l);
            self.lane[l].w2_slot.next = self.w2_slot.val();
            self.lane[l].w2_reg.next = self.w2_reg.val();
            self.lane[l].w2_data.next = self.w2_data[l].val();
            self.lane[l].weh2.next =
                self.we2.val() & self.w2_two.val() & self.w2_mask.val().get_bit(l);
            self.lane[l].wh2_reg.next = self.w2_reg.val() + self.one8.val();
            self.lane[l].wh2_data.next = self.w2_data1[l].val();
            self.a2_data[l].next = self.lane[l].a2_data.val();
            self.b2_data[l].next = self.lane[l].b2_data.val();
            self.c2_data[l].next = self.lane[l].c2_data.val();
            self.lane[l].a3_slot.next = self.a3_slot.val();
            self.lane[l].a3_reg.next = self.a3_reg.val();
            self.lane[l].b3_slot.next = self.b3_slot.val();
            self.lane[l].b3_reg.next = self.b3_reg.val();
            self.lane[l].c3_slot.next = self.c3_slot.val();
            self.lane[l].c3_reg.next = self.c3_reg.val();
            self.lane[l].we3.next = self.we3.val() & self.w3_mask.val().get_bit(l);
            self.lane[l].w3_slot.next = self.w3_slot.val();
            self.lane[l].w3_reg.next = self.w3_reg.val();
            self.lane[l].w3_data.next = self.w3_data[l].val();
            self.lane[l].weh3.next =
                self.we3.val() & self.w3_two.val() & self.w3_mask.val().get_bit(l);
            self.lane[l].wh3_reg.next = self.w3_reg.val() + self.one8.val();
            self.lane[l].wh3_data.next = self.w3_data1[l].val();
            self.a3_data[l].next = self.lane[l].a3_data.val();
            self.b3_data[l].next = self.lane[l].b3_data.val();
            self.c3_data[l].next = self.lane[l].c3_data.val();
            self.lane[l].a4_slot.next = self.a4_slot.val();
            self.lane[l].a4_reg.next = self.a4_reg.val();
            self.lane[l].b4_slot.next = self.b4_slot.val();
            self.lane[l].b4_reg.next = self.b4_reg.val();
            self.lane[l].c4_slot.next = self.c4_slot.val();
            self.lane[l].c4_reg.next = self.c4_reg.val();
            self.lane[l].we4.next = self.we4.val() & self.w4_mask.val().get_bit(l);
            self.lane[l].w4_slot.next = self.w4_slot.val();
            self.lane[l].w4_reg.next = self.w4_reg.val();
            self.lane[l].w4_data.next = self.w4_data[l].val();
            self.lane[l].weh4.next =
                self.we4.val() & self.w4_two.val() & self.w4_mask.val().get_bit(l);
            self.lane[l].wh4_reg.next = self.w4_reg.val() + self.one8.val();
            self.lane[l].wh4_data.next = self.w4_data1[l].val();
            self.a4_data[l].next = self.lane[l].a4_data.val();
            self.b4_data[l].next = self.lane[l].b4_data.val();
            self.c4_data[l].next = self.lane[l].c4_data.val();
            self.lane[l].m_we.next = self.m_we.val() & self.m_mask.val().get_bit(l);
            self.lane[l].m_slot.next = self.m_slot.val();
            self.lane[l].m_reg.next = self.m_reg.val();
            self.lane[l].m_data.next = self.m_data[l].val();
            self.lane[l].x0_slot.next = self.x_slot[0].val();
            self.lane[l].x0_reg.next = self.x_reg[0].val();
            self.lane[l].x1_slot.next = self.x_slot[1].val();
            self.lane[l].x1_reg.next = self.x_reg[1].val();
            self.lane[l].x2_slot.next = self.x_slot[2].val();
            self.lane[l].x2_reg.next = self.x_reg[2].val();
            self.lane[l].y_slot.next = self.y_slot.val();
            self.lane[l].y0_reg.next = self.y_reg[0].val();
            self.lane[l].y1_reg.next = self.y_reg[1].val();
            self.lane[l].y2_reg.next = self.y_reg[2].val();
            self.y0_data[l].next = self.lane[l].y0_data.val();
            self.y1_data[l].next = self.lane[l].y1_data.val();
            self.y2_data[l].next = self.lane[l].y2_data.val();
            self.lane[l].l_we.next = self.l_we.val() & self.l_mask.val().get_bit(l);
            self.lane[l].l2_we.next =
                self.l_we.val() & self.l_two.val() & self.l_mask.val().get_bit(l);
            self.lane[l].l_slot.next = self.l_slot.val();
            self.lane[l].l_reg.next = self.l_reg.val();
            self.lane[l].l2_reg.next = self.l_reg.val() + self.one8.val();
            self.lane[l].l_data.next = self.l_data[l].val();
            self.lane[l].l2_data.next = self.l_data1[l].val();
            self.a_data[l].next = self.lane[l].a_data.val();
            self.b_data[l].next = self.lane[l].b_data.val();
            self.c_data[l].next = self.lane[l].c_data.val();
            self.x0_data[l].next = self.lane[l].x0_data.val();
            self.x1_data[l].next = self.lane[l].x1_data.val();
            self.x2_data[l].next = self.lane[l].x2_data.val();
        }
    }
}
