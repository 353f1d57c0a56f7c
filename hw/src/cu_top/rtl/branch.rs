//! The branch unit: whether a branch the compute unit issues is taken, and where it goes.

use crate::hdl::k;
use rust_hdl::prelude::*;

/// Branch decision of the issuing instruction (combinational), as the behavioural compute
/// unit's `branch` decides it: `s_branch` always; `s_cbranch_scc0/scc1` on SCC;
/// `s_cbranch_vccz/vccnz` on VCC & SpM; `s_cbranch_execz/execnz` on the effective mask
/// (EXEC & SpM); SOP1 `s_setpc_b64` and `s_swappc_b64` jump to the 64-bit source (the
/// latter also writes the next PC to its destination pair).
#[derive(LogicBlock)]
pub struct BranchTarget {
    /// The decoder's format code (3 SOP1, 5 SOPP).
    pub format: Signal<In, Bits<4>>,
    /// The decoder's opcode.
    pub opcode: Signal<In, Bits<10>>,
    /// The decoder's immediate (`simm16` in bits \[15:0\]).
    pub imm: Signal<In, Bits<32>>,
    /// The address of the next instruction.
    pub next_pc: Signal<In, Bits<32>>,
    /// SCC of the issuing context.
    pub scc: Signal<In, Bit>,
    /// VCC & SpM of the issuing context is 0.
    pub vccz: Signal<In, Bit>,
    /// EXEC & SpM of the issuing context is 0.
    pub execz: Signal<In, Bit>,
    /// The 64-bit source of `s_setpc_b64`/`s_swappc_b64`.
    pub src: Signal<In, Bits<64>>,
    /// The branch is taken.
    pub taken: Signal<Out, Bit>,
    /// Its target (meaningful with `taken`).
    pub target: Signal<Out, Bits<32>>,
    /// `s_swappc_b64`: write `next` to the destination pair.
    pub swap: Signal<Out, Bit>,
    /// `simm16` sign-extended.
    offset: Signal<Local, Bits<32>>,
    sop1: Constant<Bits<4>>,
    /// The opcodes: SOPP `s_branch`, `s_cbranch_scc0/scc1/vccz/vccnz/execz/execnz`; SOP1
    /// `s_swappc_b64` (`s_setpc_b64`, the other SOP1 branch, needs no opcode of its own).
    op: [Constant<Bits<10>>; 8],
    sign: Constant<Bits<32>>,
}

impl Default for BranchTarget {
    fn default() -> Self {
        let ops = [0x02, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x1E];
        Self {
            format: Default::default(),
            opcode: Default::default(),
            imm: Default::default(),
            next_pc: Default::default(),
            scc: Default::default(),
            vccz: Default::default(),
            execz: Default::default(),
            src: Default::default(),
            taken: Default::default(),
            target: Default::default(),
            swap: Default::default(),
            offset: Default::default(),
            sop1: k(3),
            op: ops.map(k),
            sign: k(0xFFFF_0000),
        }
    }
}

impl Logic for BranchTarget {
    #[hdl_gen]
    fn update(&mut self) {
        self.offset.next = bit_cast::<32, 16>(self.imm.val().get_bits::<16>(0));
        if self.imm.val().get_bit(15) {
            self.offset.next = self.offset.val() | self.sign.val();
        }
        self.target.next = self.next_pc.val() + (self.offset.val() << 2);
        self.swap.next = false;
        self.taken.next = false;
        if self.format.val() == self.sop1.val() {
            self.taken.next = true;
            self.target.next = self.src.val().get_bits::<32>(0);
            self.swap.next = self.opcode.val() == self.op[7].val();
        } else {
            if self.opcode.val() == self.op[0].val() {
                self.taken.next = true;
            }
            if self.opcode.val() == self.op[1].val() {
                self.taken.next = !self.scc.val();
            }
            if self.opcode.val() == self.op[2].val() {
                self.taken.next = self.scc.val();
            }
            if self.opcode.val() == self.op[3].val() {
                self.taken.next = self.vccz.val();
            }
            if self.opcode.val() == self.op[4].val() {
                self.taken.next = !self.vccz.val();
            }
            if self.opcode.val() == self.op[5].val() {
                self.taken.next = self.execz.val();
            }
            if self.opcode.val() == self.op[6].val() {
                self.taken.next = !self.execz.val();
            }
        }
    }
}
