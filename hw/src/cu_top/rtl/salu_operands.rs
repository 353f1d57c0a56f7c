//! Which scalar operands the issuing SALU or branch instruction reads, and the SALU's `a`
//! and `b` from them.

use crate::hdl::k;
use crate::isa::insn_model::format;
use crate::salu::wide_sources;
use rust_hdl::prelude::*;

/// The SALU's operand selection ([`crate::salu`]'s contract, `wide_sources`): read port 0
/// resolves `src0` (SOPK: the register `dst` names), port 1 `src1`; each as a 64-bit pair
/// for the 64-bit operations (and port 0 for `s_setpc_b64`/`s_swappc_b64`). `a` is port 0
/// (`s_getpc_b64`: the next PC); `b` is port 1 (SOPK: `simm16` zero-extended).
#[derive(LogicBlock)]
pub struct SaluOperands {
    /// The decoder's format code.
    pub format: Signal<In, Bits<4>>,
    /// The decoder's opcode.
    pub opcode: Signal<In, Bits<10>>,
    /// The decoder's unit code.
    pub unit: Signal<In, Bits<4>>,
    /// The decoder's destination field.
    pub dst: Signal<In, Bits<8>>,
    /// The decoder's `src0`.
    pub src0: Signal<In, Bits<9>>,
    /// The decoder's `src1`.
    pub src1: Signal<In, Bits<9>>,
    /// The decoder's immediate.
    pub imm: Signal<In, Bits<32>>,
    /// The address of the next instruction.
    pub next_pc: Signal<In, Bits<32>>,
    /// Read port 0's operand.
    pub rdata0: Signal<In, Bits<64>>,
    /// Read port 1's operand.
    pub rdata1: Signal<In, Bits<64>>,
    /// Read port 0's code.
    pub rcode0: Signal<Out, Bits<9>>,
    /// Read port 0 reads a pair.
    pub rwide0: Signal<Out, Bit>,
    /// Read port 1's code.
    pub rcode1: Signal<Out, Bits<9>>,
    /// Read port 1 reads a pair.
    pub rwide1: Signal<Out, Bit>,
    /// The SALU's `a`.
    pub a: Signal<Out, Bits<64>>,
    /// The SALU's `b`.
    pub b: Signal<Out, Bits<64>>,
    f_sop2: Constant<Bits<4>>,
    f_sopk: Constant<Bits<4>>,
    f_sop1: Constant<Bits<4>>,
    u_branch: Constant<Bits<4>>,
    /// SOP2 opcodes with two pairs, then with a pair `a` only.
    both: [Constant<Bits<10>>; 6],
    first: [Constant<Bits<10>>; 3],
    /// SOP1 opcodes with a pair `a`.
    sop1_wide: [Constant<Bits<10>>; 5],
    getpc: Constant<Bits<10>>,
    m16: Constant<Bits<64>>,
}

impl Default for SaluOperands {
    fn default() -> Self {
        Self {
            format: Default::default(),
            opcode: Default::default(),
            unit: Default::default(),
            dst: Default::default(),
            src0: Default::default(),
            src1: Default::default(),
            imm: Default::default(),
            next_pc: Default::default(),
            rdata0: Default::default(),
            rdata1: Default::default(),
            rcode0: Default::default(),
            rwide0: Default::default(),
            rcode1: Default::default(),
            rwide1: Default::default(),
            a: Default::default(),
            b: Default::default(),
            f_sop2: k(format::SOP2.into()),
            f_sopk: k(format::SOPK.into()),
            f_sop1: k(format::SOP1.into()),
            u_branch: k(crate::isa::insn_model::unit::BRANCH.into()),
            both: opcodes(format::SOP2, |w| w == (true, true)),
            first: opcodes(format::SOP2, |w| w == (true, false)),
            sop1_wide: opcodes(format::SOP1, |w| w.0),
            getpc: k(0x1C),
            m16: k(0xFFFF),
        }
    }
}

/// The opcodes of format `fmt` whose operand widths ([`wide_sources`], the SALU's own list)
/// satisfy `pick`, as constants; exactly `N` of them.
fn opcodes<const N: usize>(fmt: u8, pick: fn((bool, bool)) -> bool) -> [Constant<Bits<10>>; N] {
    let ops: Vec<u8> = (0..=u8::MAX)
        .filter(|&op| pick(wide_sources(fmt, op)))
        .collect();
    assert_eq!(ops.len(), N, "wide_sources lists {ops:?}");
    array_init::from_iter(ops.into_iter().map(|op| k(op.into()))).expect("N opcodes, counted above")
}

impl Logic for SaluOperands {
    #[hdl_gen]
    fn update(&mut self) {
        self.rcode0.next = self.src0.val();
        self.rcode1.next = self.src1.val();
        self.rwide0.next = false;
        self.rwide1.next = false;
        self.a.next = self.rdata0.val();
        self.b.next = self.rdata1.val();
        if self.format.val() == self.f_sop2.val() {
            for i in 0..6 {
                if self.opcode.val() == self.both[i].val() {
                    self.rwide0.next = true;
                    self.rwide1.next = true;
                }
            }
            for i in 0..3 {
                if self.opcode.val() == self.first[i].val() {
                    self.rwide0.next = true;
                }
            }
        }
        if self.format.val() == self.f_sop1.val() {
            for i in 0..5 {
                if self.opcode.val() == self.sop1_wide[i].val() {
                    self.rwide0.next = true;
                }
            }
            if self.unit.val() == self.u_branch.val() {
                self.rwide0.next = true;
            }
            if self.opcode.val() == self.getpc.val() {
                self.a.next = bit_cast::<64, 32>(self.next_pc.val());
            }
        }
        if self.format.val() == self.f_sopk.val() {
            self.rcode0.next = bit_cast::<9, 8>(self.dst.val());
            self.b.next = bit_cast::<64, 32>(self.imm.val()) & self.m16.val();
        }
    }
}
