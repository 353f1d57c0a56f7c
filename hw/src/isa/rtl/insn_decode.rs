//! The instruction decode stage of the compute unit.

use super::insn_fields::InsnFields;
use crate::hdl::k;
use rust_hdl::prelude::*;

/// Decode stage for rtgpu's GCN3 (gfx8) subset plus `split`/`merge`: one registered stage.
///
/// Timing: `word0`/`word1` with `valid` high at rising edge *k* are decoded on the outputs
/// during cycle *k+1*. An empty stage (power-up, `reset`, or no `valid`) drives every output 0.
///
/// Fields are raw extractions of the instruction's operand fields (0 where its format has
/// none); the reference model is [`crate::isa::insn_model`]. `illegal` is raised (with every
/// other field 0) where [`InsnCheck`](super::insn_check::InsnCheck) finds the instruction outside the subset: an unknown
/// format or opcode, a VOP3 source code 255 (gfx8 VOP3 has no literal), a `split` operand
/// that is not a mask source, or a Sim-D `tile_ld`/`tile_st` whose descriptor starts past s98
/// or whose ssrc1 is not 0 (docs/assumptions.md#A81).
#[derive(LogicBlock)]
pub struct InsnDecode {
    /// Core clock; the stage register loads on its rising edge.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: empties the stage.
    pub reset: Signal<In, Bit>,
    /// `word0` (and `word1`) hold an instruction this cycle.
    pub valid: Signal<In, Bit>,
    /// First instruction dword.
    pub word0: Signal<In, Bits<32>>,
    /// The dword after it: second half of a 64-bit format or a 32-bit literal.
    pub word1: Signal<In, Bits<32>>,
    /// The stage holds an instruction (legal or not).
    pub out_valid: Signal<Out, Bit>,
    /// The instruction is not in the subset (see above).
    pub illegal: Signal<Out, Bit>,
    /// Format code (1 SOP2, 2 SOPK, 3 SOP1, 4 SOPC, 5 SOPP, 6 SMEM, 7 VOP1, 8 VOP2, 9 VOPC,
    /// 10 VOP3, 11 FLAT, 12 DS).
    pub format: Signal<Out, Bits<4>>,
    /// Functional unit (1 SALU, 2 VALU, 3 VMEM, 4 SMEM, 5 LDS, 6 branch, 7 split/merge,
    /// 8 waitcnt/barrier, 9 nop/endpgm/sleep).
    pub unit: Signal<Out, Bits<4>>,
    /// Opcode field of the format.
    pub opcode: Signal<Out, Bits<10>>,
    /// Destination field: sdst, vdst, SMEM sdata, FLAT/DS vdst.
    pub dst: Signal<Out, Bits<8>>,
    /// VOP3b carry-out SGPR (bits \[14:8\]).
    pub sdst: Signal<Out, Bits<7>>,
    /// Source 0: ssrc0, src0, SMEM sbase (pair index), FLAT/DS addr.
    pub src0: Signal<Out, Bits<9>>,
    /// Source 1: ssrc1, vsrc1, VOP3 src1, FLAT data, DS data0.
    pub src1: Signal<Out, Bits<9>>,
    /// Source 2: VOP3 src2, DS data1.
    pub src2: Signal<Out, Bits<9>>,
    /// Immediate: SOPK/SOPP simm16, SMEM offset, DS offsets, or the literal.
    pub imm: Signal<Out, Bits<32>>,
    /// A 32-bit literal follows (it is `imm`).
    pub literal: Signal<Out, Bit>,
    /// Instruction length in dwords (1 or 2).
    pub words: Signal<Out, Bits<2>>,
    /// VOP3a `abs` bits.
    pub abs: Signal<Out, Bits<3>>,
    /// VOP3 `neg` bits.
    pub neg: Signal<Out, Bits<3>>,
    /// VOP3 `clamp`.
    pub clamp: Signal<Out, Bit>,
    /// VOP3 output modifier.
    pub omod: Signal<Out, Bits<2>>,
    /// SMEM/FLAT `glc`.
    pub glc: Signal<Out, Bit>,
    /// FLAT `slc`.
    pub slc: Signal<Out, Bit>,
    /// DS `gds`.
    pub gds: Signal<Out, Bit>,
    /// SMEM: the offset is an immediate (`imm`); else `imm[7:0]` is the soffset SGPR code.
    pub imm_offset: Signal<Out, Bit>,
    /// Stage register: first dword.
    w0: DFF<Bits<32>>,
    /// Stage register: second dword.
    w1: DFF<Bits<32>>,
    /// Stage register: holds an instruction.
    full: DFF<Bit>,
    /// The fields of the stage's instruction.
    f: InsnFields,
    z32: Constant<Bits<32>>,
}

impl Default for InsnDecode {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            valid: Default::default(),
            word0: Default::default(),
            word1: Default::default(),
            out_valid: Default::default(),
            illegal: Default::default(),
            format: Default::default(),
            unit: Default::default(),
            opcode: Default::default(),
            dst: Default::default(),
            sdst: Default::default(),
            src0: Default::default(),
            src1: Default::default(),
            src2: Default::default(),
            imm: Default::default(),
            literal: Default::default(),
            words: Default::default(),
            abs: Default::default(),
            neg: Default::default(),
            clamp: Default::default(),
            omod: Default::default(),
            glc: Default::default(),
            slc: Default::default(),
            gds: Default::default(),
            imm_offset: Default::default(),
            w0: Default::default(),
            w1: Default::default(),
            full: Default::default(),
            f: Default::default(),
            z32: k(0),
        }
    }
}

impl Logic for InsnDecode {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, w0, w1, full);
        // Stage register: an empty stage holds zeros.
        self.full.d.next = self.valid.val() & !self.reset.val();
        self.w0.d.next = self.z32.val();
        self.w1.d.next = self.z32.val();
        if self.valid.val() & !self.reset.val() {
            self.w0.d.next = self.word0.val();
            self.w1.d.next = self.word1.val();
        }
        self.f.full.next = self.full.q.val();
        self.f.w0.next = self.w0.q.val();
        self.f.w1.next = self.w1.q.val();
        self.out_valid.next = self.f.out_valid.val();
        self.illegal.next = self.f.illegal.val();
        self.format.next = self.f.format.val();
        self.unit.next = self.f.unit.val();
        self.opcode.next = self.f.opcode.val();
        self.dst.next = self.f.dst.val();
        self.sdst.next = self.f.sdst.val();
        self.src0.next = self.f.src0.val();
        self.src1.next = self.f.src1.val();
        self.src2.next = self.f.src2.val();
        self.imm.next = self.f.imm.val();
        self.literal.next = self.f.literal.val();
        self.words.next = self.f.words.val();
        self.abs.next = self.f.abs.val();
        self.neg.next = self.f.neg.val();
        self.clamp.next = self.f.clamp.val();
        self.omod.next = self.f.omod.val();
        self.glc.next = self.f.glc.val();
        self.slc.next = self.f.slc.val();
        self.gds.next = self.f.gds.val();
        self.imm_offset.next = self.f.imm_offset.val();
    }
}
