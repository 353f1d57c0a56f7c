//! The instruction memory: `W` dwords with one write port (the driver's `CODE_DATA`
//! window), `R` fetch ports that each read a dword and the one after it, and one plain read
//! port (`CODE_DATA` reads). A read past the end gives 0; a read of the word written at the
//! same edge gives the old word.
//!
//! A memory primitive, like rust-hdl's own `RAM` and the VGPR lanes: [`Logic`] written by
//! hand, a Rust `update` for rust-hdl's simulation (the words in a vector) and hand-written
//! Verilog (a `reg [31:0] words[W]` array, its reads indexed) for Icarus, Verilator and Yosys.
//! Written as `W` rust-hdl flip-flops, every read port was a comparison with every word,
//! evaluated by Verilator at every edge: a tenth of the RTL system's simulation time.

use crate::hdl::index_bits;
use rust_hdl::prelude::*;
use std::fmt::Write;

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
    /// Dword `idx + 1` of each fetch port (0 past the end; `idx + 1` wraps at 32 bits).
    pub rd1: [Signal<Out, Bits<32>>; R],
    /// The dwords, for rust-hdl's simulation (not a signal).
    _words: Vec<u32>,
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
            _words: vec![0; W],
        }
    }
}

impl<const W: usize, const R: usize> InstrMem<W, R> {
    /// Dword `a` (0 past the end).
    fn word(&self, a: u64) -> Bits<32> {
        let w = usize::try_from(a).ok().and_then(|a| self._words.get(a));
        Bits::from(u64::from(w.copied().unwrap_or(0)))
    }

    /// The Verilog: the array initialised to 0, the write at the edge, the reads (each
    /// compared with `W` as a whole 32-bit address, then indexed by its low bits).
    fn verilog(&self) -> String {
        let top = index_bits(W) - 1;
        let mut v = format!(
            "reg [31:0] words [0:{last}];\ninteger i;\n\
             initial begin\n   for (i = 0; i < {W}; i = i + 1) words[i] = 32'h0;\nend\n\n\
             always @(posedge clock) begin\n   \
             if (wen && waddr < 32'd{W}) words[waddr[{top}:0]] <= wdata;\nend\n\n",
            last = W - 1
        );
        for p in 0..R {
            let _ = writeln!(v, "wire [31:0] idx1${p} = idx${p} + 32'd1;");
        }
        let read = |out: &str, addr: &str| {
            format!("   {out} = ({addr} < 32'd{W}) ? words[{addr}[{top}:0]] : 32'h0;\n")
        };
        v.push_str("always @(*) begin\n");
        v.push_str(&read("rdata", "raddr"));
        for p in 0..R {
            v.push_str(&read(&format!("rd0${p}"), &format!("idx${p}")));
            v.push_str(&read(&format!("rd1${p}"), &format!("idx1${p}")));
        }
        v.push_str("end\n");
        v
    }
}

impl<const W: usize, const R: usize> Logic for InstrMem<W, R> {
    fn update(&mut self) {
        if self.clock.pos_edge() && self.wen.val() {
            let a = self.waddr.val().index();
            if a < W {
                self._words[a] = self.wdata.val().index() as u32;
            }
        }
        self.rdata.next = self.word(self.raddr.val().index() as u64);
        for p in 0..R {
            let a = self.idx[p].val().index() as u64;
            self.rd0[p].next = self.word(a);
            self.rd1[p].next = self.word((a + 1) & 0xFFFF_FFFF);
        }
    }

    fn connect(&mut self) {
        self.rdata.connect();
        for p in 0..R {
            self.rd0[p].connect();
            self.rd1[p].connect();
        }
    }

    fn hdl(&self) -> Verilog {
        Verilog::Custom(self.verilog())
    }
}
