//! The LDS RAM: `W` words with 32 ports, port `2·lane` for a lane's first word and
//! `2·lane+1` for its second. Each port reads its word as it is (0 past the end) and may
//! write it at the edge; when several ports write one word the highest port's value stays
//! (lane order, a lane's second word after its first). `clear` zeroes a range of words at the
//! edge, after the writes; `reset` zeroes all of them, last.
//!
//! It is a memory primitive like the fixed memory's word array: [`Logic`] written by hand, a
//! Rust `update` for rust-hdl's simulation and hand-written Verilog. Built from rust-hdl
//! flip-flops, the 1,024 words were 1,024 `DFF` instances with 32 write comparisons each and
//! 6 MB of Verilog inside the compute unit's top. In the Verilog the words are one array
//! written by the 32 ports, and a clear (a range of any length) does not write the array: a
//! `live` bit per word, set by a write and dropped by a clear or reset, makes a dropped word
//! read 0. That keeps the array at 32 write ports (a clear written word by word would be
//! `W` more, and Verilator refuses delayed array writes in a loop). The reads are masks
//! (`&`), not conditional choices, and so are the `live` updates that Yosys reads: its
//! `share` pass looks for choices between the 32 read ports and the 32 shifts and spent
//! minutes on them (the testbench instance: 373 s in all with choices, 91 s with masks; the
//! flip-flop version took 151 s). The simulators get the same `live` edge as indexed bit
//! writes (`ifdef SYNTHESIS` selects), which spares Verilator a `W`-bit shift per port.

use rust_hdl::prelude::*;
use std::fmt::Write;

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
    /// The words, for rust-hdl's simulation (not a signal).
    _words: Vec<u32>,
}

impl<const W: usize> Default for LdsRam<W> {
    fn default() -> Self {
        assert!((2..=1 << 16).contains(&W), "2 to 65,536 words");
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
            _words: vec![0; W],
        }
    }
}

impl<const W: usize> LdsRam<W> {
    /// The writes of an edge: the ports in ascending order, then the clear, then the reset.
    fn edge(&mut self) {
        let wen = self.wen.val();
        for p in (0..PORTS).filter(|&p| wen.get_bit(p)) {
            let i = self.idx[p].val().index();
            if i < W {
                self._words[i] = self.wdata[p].val().index() as u32;
            }
        }
        if self.clear.val() {
            let base = self.clear_base.val().index();
            let n = self.clear_words.val().index();
            let end = W.min(base.saturating_add(n));
            if let Some(s) = self._words.get_mut(base..end) {
                s.fill(0);
            }
        }
        if self.reset.val() {
            self._words.fill(0);
        }
    }

    /// The Verilog: the array and its `live` bits (both initialised to 0), the ports' writes
    /// at the edge, the combinational reads; the `live` updates in two descriptions of the
    /// same edge, as masks for Yosys (`ifdef SYNTHESIS`) and as indexed bit writes for the
    /// simulators ([`Self::verilog_live_masks`], [`Self::verilog_live_bits`]).
    fn verilog(&self) -> String {
        let (last, aw) = (W - 1, crate::hdl::index_bits(W));
        let mut v = format!(
            "reg [31:0] mem [0:{last}];\nreg [{last}:0] live;\n\
             wire [{last}:0] ones = {{{W}{{1'b1}}}};\n\
             // The clear's range ends at base + words, or past the array when words >= 2^16.\n\
             wire [16:0] clear_end = {{1'b0, clear_base}} + {{1'b0, clear_words[15:0]}};\n\
             wire big = |clear_words[31:16];\n\
             integer i;\ninitial begin\n   live = {{{W}{{1'b0}}}};\n   \
             for (i = 0; i <= {last}; i = i + 1) mem[i] = 32'h0;\nend\n\n"
        );
        for p in 0..PORTS {
            let _ = writeln!(
                v,
                "wire ok{p} = {{1'b0, idx${p}}} < 17'd{W};\nwire [{a}:0] ia{p} = idx${p}[{a}:0];",
                a = aw - 1
            );
        }
        v.push_str("\nalways @(posedge clock) begin\n");
        for p in 0..PORTS {
            let _ = writeln!(v, "   if (wen[{p}] && ok{p}) mem[ia{p}] <= wdata${p};");
        }
        let _ = write!(
            v,
            "end\n\n`ifdef SYNTHESIS\n{}`else\n{}`endif\n\nalways @(*) begin\n",
            self.verilog_live_masks(),
            self.verilog_live_bits()
        );
        for p in 0..PORTS {
            let _ = writeln!(
                v,
                "   rdata${p} = mem[ia{p}] & {{32{{ok{p} && live[ia{p}]}}}};"
            );
        }
        v.push_str("end\n");
        v
    }

    /// The words a clear drops, as a `W`-bit mask: from `clear_base` to `clear_end`.
    fn clear_range() -> String {
        format!("((ones << clear_base) & ~(big ? {{{W}{{1'b0}}}} : (ones << clear_end)))")
    }

    /// For Yosys: `live` from masks, `set` (the words written) and `cleared`, a
    /// `W`-bit shift per port. Masks rather than choices: Yosys' `share` pass spent minutes
    /// looking for choices between the 32 ports' shifts.
    fn verilog_live_masks(&self) -> String {
        let last = W - 1;
        let mut v = format!(
            "reg [{last}:0] set;\nwire [{last}:0] one = {{{{{last}{{1'b0}}}}, 1'b1}};\n\
             wire [{last}:0] cleared = clear ? {} : {{{W}{{1'b0}}}};\n\
             always @(*) begin\n   set = {{{W}{{1'b0}}}};",
            Self::clear_range()
        );
        for p in 0..PORTS {
            let _ = write!(
                v,
                "\n   set = set | ({{{W}{{wen[{p}]}}}} & (one << idx${p}));"
            );
        }
        let _ = writeln!(
            v,
            "\nend\nalways @(posedge clock)\n   \
             live <= reset ? {{{W}{{1'b0}}}} : ((live | set) & ~cleared);"
        );
        v
    }

    /// For the simulators: the same edge as indexed bit writes, which cost Verilator a
    /// comparison per port where the masks cost a `W`-bit shift per port at every
    /// evaluation. A clear drops its range first; a write outside the range then sets its
    /// word's bit (a later non-blocking write to a bit overrides the whole vector's); a
    /// reset drops all, last.
    fn verilog_live_bits(&self) -> String {
        let mut v = format!(
            "always @(posedge clock) begin\n   if (clear) live <= live & ~{};\n",
            Self::clear_range()
        );
        for p in 0..PORTS {
            let _ = writeln!(
                v,
                "   if (wen[{p}] && ok{p} && !(clear && idx${p} >= clear_base && \
                 (big || {{1'b0, idx${p}}} < clear_end))) live[ia{p}] <= 1'b1;"
            );
        }
        let _ = writeln!(v, "   if (reset) live <= {{{W}{{1'b0}}}};\nend");
        v
    }
}

impl<const W: usize> Logic for LdsRam<W> {
    fn update(&mut self) {
        if self.clock.pos_edge() {
            self.edge();
        }
        for p in 0..PORTS {
            let i = self.idx[p].val().index();
            let w = self._words.get(i).copied().unwrap_or(0);
            self.rdata[p].next = Bits::from(u64::from(w));
        }
    }

    fn connect(&mut self) {
        self.rdata.iter_mut().for_each(|s| s.connect());
    }

    fn hdl(&self) -> Verilog {
        Verilog::Custom(self.verilog())
    }
}
