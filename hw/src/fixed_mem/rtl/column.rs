//! One field of a response wheel: `D` slots of type `T`, one slot written at an edge
//! (`we`, `waddr`), the slot of the current cycle (`now`) read as it is and shown when it
//! holds a response (`hit`; else the type's 0).
//!
//! It is a primitive like [`super::words::Words`]: a memory array with hand-written Verilog
//! and a Rust `update` for rust-hdl's simulation. Built from rust-hdl flip-flops instead, the
//! 64 lanes × 64 slots of the vector wheel were 4,096 `DFF` module instances, and their
//! Verilog alone doubled the RTL system's (20 MB); as an array, Verilator and Yosys see one
//! memory per field.

use rust_hdl::prelude::*;

/// A field of the `D` slots of a response wheel.
#[derive(LogicBlock)]
pub struct Column<T: Synth, const D: usize> {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Write slot `waddr` at this edge.
    pub we: Signal<In, Bit>,
    /// The slot written (below `D`).
    pub waddr: Signal<In, Bits<6>>,
    /// The value written.
    pub d: Signal<In, T>,
    /// The slot read this cycle (below `D`).
    pub now: Signal<In, Bits<6>>,
    /// The slot read holds a response.
    pub hit: Signal<In, Bit>,
    /// Slot `now`'s value with `hit`, else 0.
    pub q: Signal<Out, T>,
    /// The slots, for rust-hdl's simulation (not a signal).
    _slots: Vec<T>,
}

impl<T: Synth, const D: usize> Default for Column<T, D> {
    fn default() -> Self {
        assert!(
            D.is_power_of_two() && (2..=64).contains(&D),
            "2 to 64 slots, a power of two"
        );
        Self {
            clock: Default::default(),
            we: Default::default(),
            waddr: Default::default(),
            d: Default::default(),
            now: Default::default(),
            hit: Default::default(),
            q: Default::default(),
            _slots: vec![T::default(); D],
        }
    }
}

/// A slot index: the low bits of a 6-bit signal (`D` a power of two).
fn slot<const D: usize>(s: Bits<6>) -> usize {
    s.index() & (D - 1)
}

impl<T: Synth, const D: usize> Column<T, D> {
    /// The Verilog of the array: every slot initialised to 0, the write at the edge, the
    /// combinational read.
    fn verilog(&self) -> String {
        let (w, last, top) = (T::BITS, D - 1, D.trailing_zeros() - 1);
        format!(
            "reg [{m}:0] mem [0:{last}];\ninteger i;\ninitial begin\n   \
             for (i = 0; i <= {last}; i = i + 1) mem[i] = {w}'h0;\nend\n\n\
             always @(posedge clock) begin\n   if (we) mem[waddr[{top}:0]] <= d;\nend\n\n\
             always @(*) begin\n   q = {w}'h0;\n   if (hit) q = mem[now[{top}:0]];\nend\n\n\
             // Below 64 slots the indices' high bits are 0; Verilator's lint skips `unused*` names.\n\
             wire unused_slot_bits = &{{1'b0, waddr, now}};\n",
            m = w - 1
        )
    }
}

impl<T: Synth, const D: usize> Logic for Column<T, D> {
    fn update(&mut self) {
        if self.clock.pos_edge() && self.we.val() {
            self._slots[slot::<D>(self.waddr.val())] = self.d.val();
        }
        self.q.next = if self.hit.val() {
            self._slots[slot::<D>(self.now.val())]
        } else {
            T::default()
        };
    }

    fn connect(&mut self) {
        self.q.connect();
    }

    fn hdl(&self) -> Verilog {
        Verilog::Custom(self.verilog())
    }
}
