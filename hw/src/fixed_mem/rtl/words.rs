//! The word array of the fixed-latency memory: `2^A` dwords with 64 lane ports (read as
//! they are, written at the edge), 4 scalar read ports (the first also written at the edge)
//! and the driver's port of rust-hdl's `RAM` (registered read, write at the edge). It is a primitive like rust-hdl's own `RAM`:
//! rust-hdl blocks have no memory arrays with this many ports, so [`Logic`] is written by
//! hand, a Rust `update` for rust-hdl's simulation and hand-written Verilog for the rest;
//! both write the driver's word first, then the scalar word, then the lanes in ascending
//! order, so the last write of a word stays (the highest lane; a lane over the scalar word
//! and the driver's).

use super::super::{LANES, SMEM_DWORDS};
use rust_hdl::prelude::*;
use std::fmt::Write;

/// The word array.
#[derive(LogicBlock)]
pub struct Words<const A: usize> {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Each lane's word.
    pub addr: [Signal<In, Bits<A>>; LANES],
    /// Lane `l` writes `wdata[l]` to `addr[l]` at the edge (bit `l`).
    pub wen: Signal<In, Bits<LANES>>,
    /// Each lane's write value.
    pub wdata: [Signal<In, Bits<32>>; LANES],
    /// Each lane's word as it is.
    pub rdata: [Signal<Out, Bits<32>>; LANES],
    /// The scalar ports' words.
    pub saddr: [Signal<In, Bits<A>>; SMEM_DWORDS],
    /// Their words as they are.
    pub sdata: [Signal<Out, Bits<32>>; SMEM_DWORDS],
    /// The scalar port writes `swdata` to `saddr[0]` at the edge.
    pub swe: Signal<In, Bit>,
    /// Its value.
    pub swdata: Signal<In, Bits<32>>,
    /// Driver: the word read at the edge.
    pub read_address: Signal<In, Bits<A>>,
    /// Driver: the word of `read_address` at the last edge (before its writes).
    pub read_data: Signal<Out, Bits<32>>,
    /// Driver: the word written.
    pub write_address: Signal<In, Bits<A>>,
    /// Driver: its value.
    pub write_data: Signal<In, Bits<32>>,
    /// Driver: write at the edge.
    pub write_enable: Signal<In, Bit>,
    /// The words, for rust-hdl's simulation (not a signal).
    _words: Vec<u32>,
}

impl<const A: usize> Default for Words<A> {
    fn default() -> Self {
        assert!((1..=24).contains(&A), "1 to 24 address bits");
        Self {
            clock: Default::default(),
            addr: array_init::array_init(|_| Default::default()),
            wen: Default::default(),
            wdata: array_init::array_init(|_| Default::default()),
            rdata: array_init::array_init(|_| Default::default()),
            saddr: Default::default(),
            sdata: Default::default(),
            swe: Default::default(),
            swdata: Default::default(),
            read_address: Default::default(),
            read_data: Default::default(),
            write_address: Default::default(),
            write_data: Default::default(),
            write_enable: Default::default(),
            _words: vec![0; 1 << A],
        }
    }
}

impl<const A: usize> Words<A> {
    /// The word at `a`.
    fn at(&self, a: Bits<A>) -> u32 {
        self._words[a.index()]
    }

    /// The writes of an edge: the driver's, the scalar port's, then the lanes in ascending
    /// order.
    fn write(&mut self) {
        if self.write_enable.val() {
            let a = self.write_address.val().index();
            self._words[a] = self.write_data.val().index() as u32;
        }
        if self.swe.val() {
            let a = self.saddr[0].val().index();
            self._words[a] = self.swdata.val().index() as u32;
        }
        let wen = self.wen.val();
        for l in (0..LANES).filter(|&l| wen.get_bit(l)) {
            let a = self.addr[l].val().index();
            self._words[a] = self.wdata[l].val().index() as u32;
        }
    }

    /// The Verilog of the array: the words and the read register initialised to 0, the writes of an edge in the
    /// order of [`Words::write`], the combinational reads.
    fn verilog(&self) -> String {
        let mut v = format!(
            "reg [31:0] mem [0:{last}];\ninteger i;\ninitial begin\n   \
             read_data = 32'h0;\n   \
             for (i = 0; i <= {last}; i = i + 1) mem[i] = 32'h0;\nend\n\n\
             always @(posedge clock) begin\n   read_data <= mem[read_address];\n   \
             if (write_enable) mem[write_address] <= write_data;\n   \
             if (swe) mem[saddr$0] <= swdata;\n",
            last = (1usize << A) - 1
        );
        for l in 0..LANES {
            let _ = writeln!(v, "   if (wen[{l}]) mem[addr${l}] <= wdata${l};");
        }
        v.push_str("end\n\nalways @(*) begin\n");
        for l in 0..LANES {
            let _ = writeln!(v, "   rdata${l} = mem[addr${l}];");
        }
        for k in 0..SMEM_DWORDS {
            let _ = writeln!(v, "   sdata${k} = mem[saddr${k}];");
        }
        v.push_str("end\n");
        v
    }
}

/// A word as a signal value.
fn bits32(x: u32) -> Bits<32> {
    Bits::from(u64::from(x))
}

impl<const A: usize> Logic for Words<A> {
    fn update(&mut self) {
        if self.clock.pos_edge() {
            self.read_data.next = bits32(self.at(self.read_address.val()));
            self.write();
        }
        for l in 0..LANES {
            self.rdata[l].next = bits32(self.at(self.addr[l].val()));
        }
        for k in 0..SMEM_DWORDS {
            self.sdata[k].next = bits32(self.at(self.saddr[k].val()));
        }
    }

    fn connect(&mut self) {
        self.read_data.connect();
        self.rdata.iter_mut().for_each(|s| s.connect());
        self.sdata.iter_mut().for_each(|s| s.connect());
    }

    fn hdl(&self) -> Verilog {
        Verilog::Custom(self.verilog())
    }
}
