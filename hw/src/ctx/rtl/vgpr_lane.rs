//! One lane of the vector register file: its word of every (slot, VGPR) row, the clear
//! (`v0` to the lane's work-item id), the writes and the reset steps of the edge
//! ([`crate::ctx`]), each VALU's three read ports and its write of a row or a pair (four VALUs: up to four issue units), the memory unit's three write-first read ports, the
//! LDS's three write-first read ports and its write (one row or a pair).
//!
//! The lane is a memory primitive, like rust-hdl's own `RAM`: [`Logic`] written by hand, a
//! Rust `update` for rust-hdl's simulation (the rows in a vector) and hand-written Verilog
//! (a `reg [31:0] mem[M]` array) for Icarus, Verilator and Yosys. Written as rust-hdl
//! flip-flops, each lane was `M` `DFF` module instances and a read multiplexer per port
//! spelled out row by row: the 64 lanes of the top's file were two thirds of the compute
//! unit's Verilog (10.7 of 16 MB). Both descriptions take the edge's steps in the same order:
//! the clear, ports `w`, `w2`, `w3` and `w4` (each followed by its pair's second row `wh`,
//! `wh2`, ...), port `m`, the LDS's rows `l` and `l2`, the reset (the last step that writes a
//! word wins).

use crate::hdl::{index_bits, zeroes};
use rust_hdl::prelude::*;
use std::fmt::Write;

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
    /// Read port `c`'s slot (the VALU's third source).
    pub c_slot: Signal<In, Bits<8>>,
    /// Read port `c`'s VGPR.
    pub c_reg: Signal<In, Bits<8>>,
    /// The word of row (`c_slot`, `c_reg`) (0 past the end).
    pub c_data: Signal<Out, Bits<32>>,
    /// Write this lane's word of row (`w_slot`, `w_reg`).
    pub we: Signal<In, Bit>,
    /// The slot written.
    pub w_slot: Signal<In, Bits<8>>,
    /// The VGPR written.
    pub w_reg: Signal<In, Bits<8>>,
    /// The value.
    pub w_data: Signal<In, Bits<32>>,
    /// Write this lane's word of row (`w_slot`, `wh_reg`) (a 64-bit result's high
    /// dword; after port `w`'s).
    pub weh: Signal<In, Bit>,
    /// The pair's second VGPR.
    pub wh_reg: Signal<In, Bits<8>>,
    /// Its value.
    pub wh_data: Signal<In, Bits<32>>,
    /// Read port `a2`'s slot (the second VALU's ports `a2`, `b2`, `c2` and `w2`, as `a`,
    /// `b`, `c` and `w`: the second issue unit of a SIMD group).
    pub a2_slot: Signal<In, Bits<8>>,
    /// Read port `a2`'s VGPR.
    pub a2_reg: Signal<In, Bits<8>>,
    /// The lane's word of row `a2` (0 past the end).
    pub a2_data: Signal<Out, Bits<32>>,
    /// Read port `b2`'s slot.
    pub b2_slot: Signal<In, Bits<8>>,
    /// Read port `b2`'s VGPR.
    pub b2_reg: Signal<In, Bits<8>>,
    /// The lane's word of row `b2` (0 past the end).
    pub b2_data: Signal<Out, Bits<32>>,
    /// Read port `c2`'s slot.
    pub c2_slot: Signal<In, Bits<8>>,
    /// Read port `c2`'s VGPR.
    pub c2_reg: Signal<In, Bits<8>>,
    /// The lane's word of row `c2` (0 past the end).
    pub c2_data: Signal<Out, Bits<32>>,
    /// Write this lane's word of row (`w2_slot`, `w2_reg`) (after port `w`'s).
    pub we2: Signal<In, Bit>,
    /// The slot written.
    pub w2_slot: Signal<In, Bits<8>>,
    /// The VGPR written.
    pub w2_reg: Signal<In, Bits<8>>,
    /// The value.
    pub w2_data: Signal<In, Bits<32>>,
    /// Write this lane's word of row (`w2_slot`, `wh2_reg`) (a 64-bit result's high
    /// dword; after port `w2`'s).
    pub weh2: Signal<In, Bit>,
    /// The pair's second VGPR.
    pub wh2_reg: Signal<In, Bits<8>>,
    /// Its value.
    pub wh2_data: Signal<In, Bits<32>>,
    /// Read port `a3`'s slot (the third VALU's ports `a3`, `b3`, `c3` and `w3`, as `a`,
    /// `b`, `c` and `w`: issue unit 2 of a SIMD group).
    pub a3_slot: Signal<In, Bits<8>>,
    /// Read port `a3`'s VGPR.
    pub a3_reg: Signal<In, Bits<8>>,
    /// The lane's word of row `a3` (0 past the end).
    pub a3_data: Signal<Out, Bits<32>>,
    /// Read port `b3`'s slot.
    pub b3_slot: Signal<In, Bits<8>>,
    /// Read port `b3`'s VGPR.
    pub b3_reg: Signal<In, Bits<8>>,
    /// The lane's word of row `b3` (0 past the end).
    pub b3_data: Signal<Out, Bits<32>>,
    /// Read port `c3`'s slot.
    pub c3_slot: Signal<In, Bits<8>>,
    /// Read port `c3`'s VGPR.
    pub c3_reg: Signal<In, Bits<8>>,
    /// The lane's word of row `c3` (0 past the end).
    pub c3_data: Signal<Out, Bits<32>>,
    /// Write this lane's word of row (`w3_slot`, `w3_reg`) (after port `w2`'s).
    pub we3: Signal<In, Bit>,
    /// The slot written.
    pub w3_slot: Signal<In, Bits<8>>,
    /// The VGPR written.
    pub w3_reg: Signal<In, Bits<8>>,
    /// The value.
    pub w3_data: Signal<In, Bits<32>>,
    /// Write this lane's word of row (`w3_slot`, `wh3_reg`) (a 64-bit result's high
    /// dword; after port `w3`'s).
    pub weh3: Signal<In, Bit>,
    /// The pair's second VGPR.
    pub wh3_reg: Signal<In, Bits<8>>,
    /// Its value.
    pub wh3_data: Signal<In, Bits<32>>,
    /// Read port `a4`'s slot (the fourth VALU's ports `a4`, `b4`, `c4` and `w4`, as `a`,
    /// `b`, `c` and `w`: issue unit 3 of a SIMD group).
    pub a4_slot: Signal<In, Bits<8>>,
    /// Read port `a4`'s VGPR.
    pub a4_reg: Signal<In, Bits<8>>,
    /// The lane's word of row `a4` (0 past the end).
    pub a4_data: Signal<Out, Bits<32>>,
    /// Read port `b4`'s slot.
    pub b4_slot: Signal<In, Bits<8>>,
    /// Read port `b4`'s VGPR.
    pub b4_reg: Signal<In, Bits<8>>,
    /// The lane's word of row `b4` (0 past the end).
    pub b4_data: Signal<Out, Bits<32>>,
    /// Read port `c4`'s slot.
    pub c4_slot: Signal<In, Bits<8>>,
    /// Read port `c4`'s VGPR.
    pub c4_reg: Signal<In, Bits<8>>,
    /// The lane's word of row `c4` (0 past the end).
    pub c4_data: Signal<Out, Bits<32>>,
    /// Write this lane's word of row (`w4_slot`, `w4_reg`) (after port `w3`'s).
    pub we4: Signal<In, Bit>,
    /// The slot written.
    pub w4_slot: Signal<In, Bits<8>>,
    /// The VGPR written.
    pub w4_reg: Signal<In, Bits<8>>,
    /// The value.
    pub w4_data: Signal<In, Bits<32>>,
    /// Write this lane's word of row (`w4_slot`, `wh4_reg`) (a 64-bit result's high
    /// dword; after port `w4`'s).
    pub weh4: Signal<In, Bit>,
    /// The pair's second VGPR.
    pub wh4_reg: Signal<In, Bits<8>>,
    /// Its value.
    pub wh4_data: Signal<In, Bits<32>>,
    /// Write this lane's word of row (`m_slot`, `m_reg`) (the memory's write; after port `w4`'s).
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
    /// The lane's word of row `x0` as the VALUs' writes at this edge leave it (0 past the end).
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
    /// The rows, `slot · V + reg`, for rust-hdl's simulation (not a signal).
    _rows: Vec<u32>,
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
            c_slot: Default::default(),
            c_reg: Default::default(),
            c_data: Default::default(),
            we: Default::default(),
            w_slot: Default::default(),
            w_reg: Default::default(),
            w_data: Default::default(),
            weh: Default::default(),
            wh_reg: Default::default(),
            wh_data: Default::default(),
            a2_slot: Default::default(),
            a2_reg: Default::default(),
            a2_data: Default::default(),
            b2_slot: Default::default(),
            b2_reg: Default::default(),
            b2_data: Default::default(),
            c2_slot: Default::default(),
            c2_reg: Default::default(),
            c2_data: Default::default(),
            we2: Default::default(),
            w2_slot: Default::default(),
            w2_reg: Default::default(),
            w2_data: Default::default(),
            weh2: Default::default(),
            wh2_reg: Default::default(),
            wh2_data: Default::default(),
            a3_slot: Default::default(),
            a3_reg: Default::default(),
            a3_data: Default::default(),
            b3_slot: Default::default(),
            b3_reg: Default::default(),
            b3_data: Default::default(),
            c3_slot: Default::default(),
            c3_reg: Default::default(),
            c3_data: Default::default(),
            we3: Default::default(),
            w3_slot: Default::default(),
            w3_reg: Default::default(),
            w3_data: Default::default(),
            weh3: Default::default(),
            wh3_reg: Default::default(),
            wh3_data: Default::default(),
            a4_slot: Default::default(),
            a4_reg: Default::default(),
            a4_data: Default::default(),
            b4_slot: Default::default(),
            b4_reg: Default::default(),
            b4_data: Default::default(),
            c4_slot: Default::default(),
            c4_reg: Default::default(),
            c4_data: Default::default(),
            we4: Default::default(),
            w4_slot: Default::default(),
            w4_reg: Default::default(),
            w4_data: Default::default(),
            weh4: Default::default(),
            wh4_reg: Default::default(),
            wh4_data: Default::default(),
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
            _rows: vec![0; M],
        }
    }
}

/// The read and write ports' rows in the Verilog: the name, its slot and VGPR signals.
const PORTS: [(&str, &str, &str); 29] = [
    ("a", "a_slot", "a_reg"),
    ("b", "b_slot", "b_reg"),
    ("c", "c_slot", "c_reg"),
    ("w", "w_slot", "w_reg"),
    ("wh", "w_slot", "wh_reg"),
    ("a2", "a2_slot", "a2_reg"),
    ("b2", "b2_slot", "b2_reg"),
    ("c2", "c2_slot", "c2_reg"),
    ("w2", "w2_slot", "w2_reg"),
    ("wh2", "w2_slot", "wh2_reg"),
    ("a3", "a3_slot", "a3_reg"),
    ("b3", "b3_slot", "b3_reg"),
    ("c3", "c3_slot", "c3_reg"),
    ("w3", "w3_slot", "w3_reg"),
    ("wh3", "w3_slot", "wh3_reg"),
    ("a4", "a4_slot", "a4_reg"),
    ("b4", "b4_slot", "b4_reg"),
    ("c4", "c4_slot", "c4_reg"),
    ("w4", "w4_slot", "w4_reg"),
    ("wh4", "w4_slot", "wh4_reg"),
    ("m", "m_slot", "m_reg"),
    ("x0", "x0_slot", "x0_reg"),
    ("x1", "x1_slot", "x1_reg"),
    ("x2", "x2_slot", "x2_reg"),
    ("y0", "y_slot", "y0_reg"),
    ("y1", "y_slot", "y1_reg"),
    ("y2", "y_slot", "y2_reg"),
    ("l", "l_slot", "l_reg"),
    ("l2", "l_slot", "l2_reg"),
];

/// A word as a signal value.
fn bits32(x: u32) -> Bits<32> {
    Bits::from(u64::from(x))
}

impl<const M: usize, const V: usize> VgprLane<M, V> {
    /// The row of (`slot`, `reg`), if it is one.
    fn row(slot: Bits<8>, reg: Bits<8>) -> Option<usize> {
        let (s, r) = (slot.index(), reg.index());
        (s < M / V && r < V).then_some(s * V + r)
    }

    /// The word of a row (0 past the end).
    fn word(&self, row: Option<usize>) -> u32 {
        row.map_or(0, |r| self._rows[r])
    }

    /// The VALUs' writes at this edge, in order (`w`, `wh`, `w2`, `wh2`, ..., `wh4`): the
    /// row, the value.
    fn valu_writes(&self) -> [Option<(usize, Bits<32>)>; 8] {
        let at = |we: &Signal<In, Bit>,
                  slot: &Signal<In, Bits<8>>,
                  reg: &Signal<In, Bits<8>>,
                  data: &Signal<In, Bits<32>>| {
            Self::row(slot.val(), reg.val())
                .filter(|_| we.val())
                .map(|r| (r, data.val()))
        };
        [
            at(&self.we, &self.w_slot, &self.w_reg, &self.w_data),
            at(&self.weh, &self.w_slot, &self.wh_reg, &self.wh_data),
            at(&self.we2, &self.w2_slot, &self.w2_reg, &self.w2_data),
            at(&self.weh2, &self.w2_slot, &self.wh2_reg, &self.wh2_data),
            at(&self.we3, &self.w3_slot, &self.w3_reg, &self.w3_data),
            at(&self.weh3, &self.w3_slot, &self.wh3_reg, &self.wh3_data),
            at(&self.we4, &self.w4_slot, &self.w4_reg, &self.w4_data),
            at(&self.weh4, &self.w4_slot, &self.wh4_reg, &self.wh4_data),
        ]
    }

    /// A write-first read: the last VALU write's value on its row, else the word.
    fn x_read(&self, slot: Bits<8>, reg: Bits<8>) -> Bits<32> {
        let row = Self::row(slot, reg);
        let mut word = bits32(self.word(row));
        for (w, data) in self.valu_writes().into_iter().flatten() {
            if row == Some(w) {
                word = data;
            }
        }
        word
    }

    /// The steps of an edge: the clear, ports `w`, `wh`, ..., `w4`, `wh4`, port `m`, the
    /// LDS's `l` and `l2`, the reset.
    fn edge(&mut self) {
        if self.clear.val() {
            if let Some(first) = Self::row(self.clear_slot.val(), Bits::from(0)) {
                self._rows[first..first + V].fill(0);
                self._rows[first] = self.clear_v0.val().index() as u32;
            }
        }
        for (w, data) in self.valu_writes().into_iter().flatten() {
            self._rows[w] = data.index() as u32;
        }
        let writes = [
            (
                self.m_we.val(),
                self.m_slot.val(),
                self.m_reg.val(),
                self.m_data.val(),
            ),
            (
                self.l_we.val(),
                self.l_slot.val(),
                self.l_reg.val(),
                self.l_data.val(),
            ),
            (
                self.l2_we.val(),
                self.l_slot.val(),
                self.l2_reg.val(),
                self.l2_data.val(),
            ),
        ];
        for (we, slot, reg, data) in writes {
            if let Some(r) = Self::row(slot, reg).filter(|_| we) {
                self._rows[r] = data.index() as u32;
            }
        }
        if self.reset.val() {
            self._rows.fill(0);
        }
    }

    /// The Verilog: each port's row and whether it is one, the array initialised to 0, the
    /// edge's steps in [`VgprLane::edge`]'s order, the combinational reads.
    fn verilog(&self) -> String {
        let (slots, last) = (M / V, M - 1);
        let top = index_bits(M) - 1;
        let mut v = format!("reg [31:0] mem [0:{last}];\ninteger i;\n");
        for (p, slot, reg) in PORTS {
            let _ = writeln!(
                v,
                "wire [15:0] {p}_row = {{8'h0, {slot}}} * 16'd{V} + {{8'h0, {reg}}};\n\
                 wire [{top}:0] {p}_idx = {p}_row[{top}:0];\n\
                 wire {p}_ok = ({{1'b0, {slot}}} < 9'd{slots}) && ({{1'b0, {reg}}} < 9'd{V});"
            );
        }
        let rows = PORTS.map(|(p, _, _)| format!("{p}_row")).join(", ");
        let _ = writeln!(
            v,
            "// A row below M fits the index; Verilator's lint skips `unused*` names.\n\
             wire unused_row_bits = &{{1'b0, {rows}}};"
        );
        let _ = write!(
            v,
            "initial begin\n   for (i = 0; i <= {last}; i = i + 1) mem[i] = 32'h0;\nend\n\n\
             always @(posedge clock) begin\n"
        );
        for s in 0..slots {
            let first = s * V;
            let _ = write!(
                v,
                "   if (clear && clear_slot == 8'd{s}) begin\n      mem[{first}] <= clear_v0;\n{}   end\n",
                zeroes(first + 1..first + V)
            );
        }
        let _ = write!(
            v,
            "   if (we && w_ok) mem[w_idx] <= w_data;\n   \
             if (weh && wh_ok) mem[wh_idx] <= wh_data;\n   \
             if (we2 && w2_ok) mem[w2_idx] <= w2_data;\n   \
             if (weh2 && wh2_ok) mem[wh2_idx] <= wh2_data;\n   \
             if (we3 && w3_ok) mem[w3_idx] <= w3_data;\n   \
             if (weh3 && wh3_ok) mem[wh3_idx] <= wh3_data;\n   \
             if (we4 && w4_ok) mem[w4_idx] <= w4_data;\n   \
             if (weh4 && wh4_ok) mem[wh4_idx] <= wh4_data;\n   \
             if (m_we && m_ok) mem[m_idx] <= m_data;\n   \
             if (l_we && l_ok) mem[l_idx] <= l_data;\n   \
             if (l2_we && l2_ok) mem[l2_idx] <= l2_data;\n   \
             if (reset) begin\n{}   end\nend\n\n\
             always @(*) begin\n   a_data = a_ok ? mem[a_idx] : 32'h0;\n   \
             b_data = b_ok ? mem[b_idx] : 32'h0;\n   \
             c_data = c_ok ? mem[c_idx] : 32'h0;\n   \
             a2_data = a2_ok ? mem[a2_idx] : 32'h0;\n   \
             b2_data = b2_ok ? mem[b2_idx] : 32'h0;\n   \
             c2_data = c2_ok ? mem[c2_idx] : 32'h0;\n   \
             a3_data = a3_ok ? mem[a3_idx] : 32'h0;\n   \
             b3_data = b3_ok ? mem[b3_idx] : 32'h0;\n   \
             c3_data = c3_ok ? mem[c3_idx] : 32'h0;\n   \
             a4_data = a4_ok ? mem[a4_idx] : 32'h0;\n   \
             b4_data = b4_ok ? mem[b4_idx] : 32'h0;\n   \
             c4_data = c4_ok ? mem[c4_idx] : 32'h0;\n   \
\n",
            zeroes(0..M)
        );
        for x in ["x0", "x1", "x2", "y0", "y1", "y2"] {
            let _ = writeln!(
                v,
                "   {x}_data = !{x}_ok ? 32'h0 \
                 : (weh4 && wh4_ok && {x}_idx == wh4_idx) ? wh4_data \
                 : (we4 && w4_ok && {x}_idx == w4_idx) ? w4_data \
                 : (weh3 && wh3_ok && {x}_idx == wh3_idx) ? wh3_data \
                 : (we3 && w3_ok && {x}_idx == w3_idx) ? w3_data \
                 : (weh2 && wh2_ok && {x}_idx == wh2_idx) ? wh2_data \
                 : (we2 && w2_ok && {x}_idx == w2_idx) ? w2_data \
                 : (weh && wh_ok && {x}_idx == wh_idx) ? wh_data \
                 : (we && w_ok && {x}_idx == w_idx) ? w_data : mem[{x}_idx];"
            );
        }
        v.push_str("end\n");
        v
    }
}

impl<const M: usize, const V: usize> Logic for VgprLane<M, V> {
    fn update(&mut self) {
        if self.clock.pos_edge() {
            self.edge();
        }
        let (a, b, c) = (
            Self::row(self.a_slot.val(), self.a_reg.val()),
            Self::row(self.b_slot.val(), self.b_reg.val()),
            Self::row(self.c_slot.val(), self.c_reg.val()),
        );
        self.a_data.next = bits32(self.word(a));
        self.b_data.next = bits32(self.word(b));
        self.c_data.next = bits32(self.word(c));
        let word = |s: &Self, slot, reg| bits32(s.word(Self::row(slot, reg)));
        self.a2_data.next = word(self, self.a2_slot.val(), self.a2_reg.val());
        self.b2_data.next = word(self, self.b2_slot.val(), self.b2_reg.val());
        self.c2_data.next = word(self, self.c2_slot.val(), self.c2_reg.val());
        self.a3_data.next = word(self, self.a3_slot.val(), self.a3_reg.val());
        self.b3_data.next = word(self, self.b3_slot.val(), self.b3_reg.val());
        self.c3_data.next = word(self, self.c3_slot.val(), self.c3_reg.val());
        self.a4_data.next = word(self, self.a4_slot.val(), self.a4_reg.val());
        self.b4_data.next = word(self, self.b4_slot.val(), self.b4_reg.val());
        self.c4_data.next = word(self, self.c4_slot.val(), self.c4_reg.val());
        let y = self.y_slot.val();
        self.y0_data.next = self.x_read(y, self.y0_reg.val());
        self.y1_data.next = self.x_read(y, self.y1_reg.val());
        self.y2_data.next = self.x_read(y, self.y2_reg.val());
        self.x0_data.next = self.x_read(self.x0_slot.val(), self.x0_reg.val());
        self.x1_data.next = self.x_read(self.x1_slot.val(), self.x1_reg.val());
        self.x2_data.next = self.x_read(self.x2_slot.val(), self.x2_reg.val());
    }

    fn connect(&mut self) {
        self.a_data.connect();
        self.b_data.connect();
        self.c_data.connect();
        self.a2_data.connect();
        self.b2_data.connect();
        self.c2_data.connect();
        self.a3_data.connect();
        self.b3_data.connect();
        self.c3_data.connect();
        self.a4_data.connect();
        self.b4_data.connect();
        self.c4_data.connect();
        self.x0_data.connect();
        self.x1_data.connect();
        self.x2_data.connect();
        self.y0_data.connect();
        self.y1_data.connect();
        self.y2_data.connect();
    }

    fn hdl(&self) -> Verilog {
        Verilog::Custom(self.verilog())
    }
}
