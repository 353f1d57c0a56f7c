//! The instruction fetch and buffer: the instruction memory, `P` fetch ports with their
//! predecode, and one instruction buffer per wavefront context.

use super::imem::InstrMem;
use crate::hdl::k;
use crate::isa::InsnCheck;
use rust_hdl::prelude::*;

/// Instruction fetch for `C` contexts through `P` fetch ports from `W` dwords of instruction
/// memory (timing, priorities and ports: [`crate::fetch`]).
#[derive(LogicBlock)]
pub struct Fetch<const C: usize, const P: usize, const W: usize> {
    /// Core clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: every buffer empty (the memory keeps its words).
    pub reset: Signal<In, Bit>,
    /// Write `wdata` into instruction dword `waddr` at this edge (the driver's `CODE_DATA`).
    pub wen: Signal<In, Bit>,
    /// The instruction dword written (`CODE_ADDR / 4`; ignored past the end).
    pub waddr: Signal<In, Bits<32>>,
    /// The value written.
    pub wdata: Signal<In, Bits<32>>,
    /// The instruction dword `rdata` shows (`CODE_ADDR / 4`).
    pub raddr: Signal<In, Bits<32>>,
    /// Instruction dword `raddr` (0 past the end): the driver's `CODE_DATA` reads.
    pub rdata: Signal<Out, Bits<32>>,
    /// The contexts whose buffers fetch port `p` loads at this edge (bit `c`: context `c`).
    pub sel: [Signal<In, Bits<C>>; P],
    /// The byte PC fetch port `p` reads the instruction at.
    pub pc: [Signal<In, Bits<32>>; P],
    /// Copy buffer `copy_from` into buffer `copy_to` at this edge (a split's child).
    pub copy: Signal<In, Bit>,
    /// The context whose buffer is copied.
    pub copy_from: Signal<In, Bits<8>>,
    /// The context that receives the copy (a fetch port loading it wins).
    pub copy_to: Signal<In, Bits<8>>,
    /// Context `c`'s buffer holds its instruction.
    pub valid: [Signal<Out, Bit>; C],
    /// Context `c`'s instruction, first dword.
    pub w0: [Signal<Out, Bits<32>>; C],
    /// Context `c`'s instruction, the dword after it (a 64-bit format's second half or a
    /// literal; 0 past the end of the memory).
    pub w1: [Signal<Out, Bits<32>>; C],
    /// Context `c`'s predecoded functional unit (0 when illegal or empty).
    pub unit: [Signal<Out, Bits<4>>; C],
    /// Context `c`'s instruction is not in the subset.
    pub illegal: [Signal<Out, Bit>; C],
    /// Context `c`'s PC is past the end of the instruction memory (`pc_out_of_range` at issue).
    pub oob: [Signal<Out, Bit>; C],
    /// The instruction memory.
    mem: InstrMem<W, P>,
    /// Each fetch port's predecode.
    chk: [InsnCheck; P],
    /// Buffers: valid.
    b_valid: [DFF<Bit>; C],
    /// Buffers: first dword.
    b_w0: [DFF<Bits<32>>; C],
    /// Buffers: second dword.
    b_w1: [DFF<Bits<32>>; C],
    /// Buffers: predecoded unit.
    b_unit: [DFF<Bits<4>>; C],
    /// Buffers: illegal.
    b_ill: [DFF<Bit>; C],
    /// Buffers: past the end.
    b_oob: [DFF<Bit>; C],
    /// Each port's predecoded unit.
    p_unit: [Signal<Local, Bits<4>>; P],
    /// Each port's PC is past the end.
    p_oob: [Signal<Local, Bit>; P],
    /// The copied buffer: valid, dwords, unit, illegal, past the end.
    cp_valid: Signal<Local, Bit>,
    cp_w0: Signal<Local, Bits<32>>,
    cp_w1: Signal<Local, Bits<32>>,
    cp_unit: Signal<Local, Bits<4>>,
    cp_ill: Signal<Local, Bit>,
    cp_oob: Signal<Local, Bit>,
    /// Context `c`'s index.
    kc: [Constant<Bits<8>>; C],
    /// `W`, the first dword past the end.
    kend: Constant<Bits<32>>,
    z4: Constant<Bits<4>>,
    z32: Constant<Bits<32>>,
}

impl<const C: usize, const P: usize, const W: usize> Default for Fetch<C, P, W> {
    fn default() -> Self {
        assert!((1..=128).contains(&C), "1 to 128 contexts");
        Self {
            clock: Default::default(),
            reset: Default::default(),
            wen: Default::default(),
            waddr: Default::default(),
            wdata: Default::default(),
            raddr: Default::default(),
            rdata: Default::default(),
            sel: array_init::array_init(|_| Default::default()),
            pc: array_init::array_init(|_| Default::default()),
            copy: Default::default(),
            copy_from: Default::default(),
            copy_to: Default::default(),
            valid: array_init::array_init(|_| Default::default()),
            w0: array_init::array_init(|_| Default::default()),
            w1: array_init::array_init(|_| Default::default()),
            unit: array_init::array_init(|_| Default::default()),
            illegal: array_init::array_init(|_| Default::default()),
            oob: array_init::array_init(|_| Default::default()),
            mem: Default::default(),
            chk: array_init::array_init(|_| Default::default()),
            b_valid: array_init::array_init(|_| Default::default()),
            b_w0: array_init::array_init(|_| Default::default()),
            b_w1: array_init::array_init(|_| Default::default()),
            b_unit: array_init::array_init(|_| Default::default()),
            b_ill: array_init::array_init(|_| Default::default()),
            b_oob: array_init::array_init(|_| Default::default()),
            p_unit: array_init::array_init(|_| Default::default()),
            p_oob: array_init::array_init(|_| Default::default()),
            cp_valid: Default::default(),
            cp_w0: Default::default(),
            cp_w1: Default::default(),
            cp_unit: Default::default(),
            cp_ill: Default::default(),
            cp_oob: Default::default(),
            kc: array_init::array_init(|c| k(c as u64)),
            kend: k(W as u64),
            z4: k(0),
            z32: k(0),
        }
    }
}

impl<const C: usize, const P: usize, const W: usize> Logic for Fetch<C, P, W> {
    #[hdl_gen]
    fn update(&mut self) {
        // The memory: the driver's port and the fetch ports' dword pairs, predecoded.
        self.mem.clock.next = self.clock.val();
        self.mem.wen.next = self.wen.val();
        self.mem.waddr.next = self.waddr.val();
        self.mem.wdata.next = self.wdata.val();
        self.mem.raddr.next = self.raddr.val();
        self.rdata.next = self.mem.rdata.val();
        for p in 0..P {
            self.mem.idx[p].next = self.pc[p].val() >> 2;
            self.p_oob[p].next = (self.pc[p].val() >> 2) >= self.kend.val();
            self.chk[p].w0.next = self.mem.rd0[p].val();
            self.chk[p].w1_srcs.next = self.mem.rd1[p].val().get_bits::<27>(0);
            self.p_unit[p].next = self.z4.val();
            if self.chk[p].legal.val() {
                self.p_unit[p].next = self.chk[p].unit.val();
            }
        }
        // The buffer a split copies.
        self.cp_valid.next = false;
        self.cp_w0.next = self.z32.val();
        self.cp_w1.next = self.z32.val();
        self.cp_unit.next = self.z4.val();
        self.cp_ill.next = false;
        self.cp_oob.next = false;
        for c in 0..C {
            if self.copy_from.val() == self.kc[c].val() {
                self.cp_valid.next = self.b_valid[c].q.val();
                self.cp_w0.next = self.b_w0[c].q.val();
                self.cp_w1.next = self.b_w1[c].q.val();
                self.cp_unit.next = self.b_unit[c].q.val();
                self.cp_ill.next = self.b_ill[c].q.val();
                self.cp_oob.next = self.b_oob[c].q.val();
            }
        }
        // Each buffer: kept, copied, or loaded by the highest port that names it.
        for c in 0..C {
            self.b_valid[c].clock.next = self.clock.val();
            self.b_w0[c].clock.next = self.clock.val();
            self.b_w1[c].clock.next = self.clock.val();
            self.b_unit[c].clock.next = self.clock.val();
            self.b_ill[c].clock.next = self.clock.val();
            self.b_oob[c].clock.next = self.clock.val();
            self.b_valid[c].d.next = self.b_valid[c].q.val();
            self.b_w0[c].d.next = self.b_w0[c].q.val();
            self.b_w1[c].d.next = self.b_w1[c].q.val();
            self.b_unit[c].d.next = self.b_unit[c].q.val();
            self.b_ill[c].d.next = self.b_ill[c].q.val();
            self.b_oob[c].d.next = self.b_oob[c].q.val();
            if self.copy.val() & (self.copy_to.val() == self.kc[c].val()) {
                self.b_valid[c].d.next = self.cp_valid.val();
                self.b_w0[c].d.next = self.cp_w0.val();
                self.b_w1[c].d.next = self.cp_w1.val();
                self.b_unit[c].d.next = self.cp_unit.val();
                self.b_ill[c].d.next = self.cp_ill.val();
                self.b_oob[c].d.next = self.cp_oob.val();
            }
            for p in 0..P {
                if self.sel[p].val().get_bit(c) {
                    self.b_valid[c].d.next = true;
                    self.b_w0[c].d.next = self.mem.rd0[p].val();
                    self.b_w1[c].d.next = self.mem.rd1[p].val();
                    self.b_unit[c].d.next = self.p_unit[p].val();
                    self.b_ill[c].d.next = !self.chk[p].legal.val();
                    self.b_oob[c].d.next = self.p_oob[p].val();
                }
            }
            if self.reset.val() {
                self.b_valid[c].d.next = false;
                self.b_w0[c].d.next = self.z32.val();
                self.b_w1[c].d.next = self.z32.val();
                self.b_unit[c].d.next = self.z4.val();
                self.b_ill[c].d.next = false;
                self.b_oob[c].d.next = false;
            }
            self.valid[c].next = self.b_valid[c].q.val();
            self.w0[c].next = self.b_w0[c].q.val();
            self.w1[c].next = self.b_w1[c].q.val();
            self.unit[c].next = self.b_unit[c].q.val();
            self.illegal[c].next = self.b_ill[c].q.val();
            self.oob[c].next = self.b_oob[c].q.val();
        }
    }
}
