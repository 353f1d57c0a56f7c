//! The decode of one instruction, combinational: the fields the decode stage registers.

use super::insn_check::InsnCheck;
use crate::hdl::k;
use crate::isa::InsnFormat;
use rust_hdl::prelude::*;

/// The fields of the instruction in `w0`/`w1`, in the same cycle ([`super::insn_decode::InsnDecode`]
/// is this block behind a stage register; the compute unit's RTL top decodes the issuing
/// context's instruction buffer with it). Without `full`, or for an illegal instruction,
/// every field is 0.
#[derive(LogicBlock)]
pub struct InsnFields {
    /// `w0` (and `w1`) hold an instruction.
    pub full: Signal<In, Bit>,
    /// First instruction dword.
    pub w0: Signal<In, Bits<32>>,
    /// The dword after it: second half of a 64-bit format or a 32-bit literal.
    pub w1: Signal<In, Bits<32>>,
    /// `full` (legal or not).
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
    /// Format and opcode of `w0`.
    fmt: InsnFormat,
    /// Unit and legality.
    chk: InsnCheck,
    /// A source field holds the literal code 255.
    has_literal: Signal<Local, Bit>,
    /// Decoded and legal.
    ok: Signal<Local, Bit>,
    m7_8: Constant<Bits<8>>,
    m8_9: Constant<Bits<9>>,
    m6_9: Constant<Bits<9>>,
    m16_32: Constant<Bits<32>>,
    m20_32: Constant<Bits<32>>,
    lit8: Constant<Bits<8>>,
    lit9: Constant<Bits<9>>,
    one: Constant<Bits<2>>,
    two: Constant<Bits<2>>,
    z2: Constant<Bits<2>>,
    z3: Constant<Bits<3>>,
    z4: Constant<Bits<4>>,
    z7: Constant<Bits<7>>,
    z8: Constant<Bits<8>>,
    z9: Constant<Bits<9>>,
    z10: Constant<Bits<10>>,
    z32: Constant<Bits<32>>,
}

impl Default for InsnFields {
    fn default() -> Self {
        Self {
            full: Default::default(),
            w0: Default::default(),
            w1: Default::default(),
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
            fmt: Default::default(),
            chk: Default::default(),
            has_literal: Default::default(),
            ok: Default::default(),
            m7_8: k(0x7f),
            m8_9: k(0xff),
            m6_9: k(0x3f),
            m16_32: k(0xffff),
            m20_32: k(0xf_ffff),
            lit8: k(255),
            lit9: k(255),
            one: k(1),
            two: k(2),
            z2: k(0),
            z3: k(0),
            z4: k(0),
            z7: k(0),
            z8: k(0),
            z9: k(0),
            z10: k(0),
            z32: k(0),
        }
    }
}

impl Logic for InsnFields {
    #[hdl_gen]
    fn update(&mut self) {
        self.fmt.word.next = self.w0.val().get_bits::<24>(8);
        self.chk.w0.next = self.w0.val();
        self.chk.w1_srcs.next = self.w1.val().get_bits::<27>(0);
        self.ok.next = self.full.val() & self.chk.legal.val();
        self.out_valid.next = self.full.val();
        self.illegal.next = self.full.val() & !self.ok.val();
        // Literal: a 32-bit format with a source code 255.
        self.has_literal.next = false;
        if (self.fmt.is_sop2.val()) | ((self.fmt.is_sopc.val()) & !self.chk.is_split.val()) {
            self.has_literal.next = (self.w0.val().get_bits::<8>(0) == self.lit8.val())
                | (self.w0.val().get_bits::<8>(8) == self.lit8.val());
        }
        if self.fmt.is_sop1.val() {
            self.has_literal.next = self.w0.val().get_bits::<8>(0) == self.lit8.val();
        }
        if (self.fmt.is_vop1.val()) | (self.fmt.is_vop2.val()) | (self.fmt.is_vopc.val()) {
            self.has_literal.next = self.w0.val().get_bits::<9>(0) == self.lit9.val();
        }
        // Defaults: an empty or illegal stage outputs zeros.
        self.format.next = self.z4.val();
        self.unit.next = self.z4.val();
        self.opcode.next = self.z10.val();
        self.dst.next = self.z8.val();
        self.sdst.next = self.z7.val();
        self.src0.next = self.z9.val();
        self.src1.next = self.z9.val();
        self.src2.next = self.z9.val();
        self.imm.next = self.z32.val();
        self.literal.next = false;
        self.words.next = self.z2.val();
        self.abs.next = self.z3.val();
        self.neg.next = self.z3.val();
        self.clamp.next = false;
        self.omod.next = self.z2.val();
        self.glc.next = false;
        self.slc.next = false;
        self.gds.next = false;
        self.imm_offset.next = false;
        if self.ok.val() {
            self.format.next = self.fmt.format.val();
            self.unit.next = self.chk.unit.val();
            self.opcode.next = self.fmt.opcode.val();
            self.words.next = self.one.val();
            // Scalar formats.
            if (self.fmt.is_sop2.val()) | (self.fmt.is_sopk.val()) | (self.fmt.is_sop1.val()) {
                self.dst.next = self.w0.val().get_bits::<8>(16) & self.m7_8.val();
            }
            if (self.fmt.is_sop2.val()) | (self.fmt.is_sop1.val()) | (self.fmt.is_sopc.val()) {
                self.src0.next = self.w0.val().get_bits::<9>(0) & self.m8_9.val();
            }
            if (self.fmt.is_sop2.val()) | (self.fmt.is_sopc.val()) {
                self.src1.next = self.w0.val().get_bits::<9>(8) & self.m8_9.val();
            }
            if (self.fmt.is_sopk.val()) | (self.fmt.is_sopp.val()) {
                self.imm.next = self.w0.val() & self.m16_32.val();
            }
            // Scalar memory.
            if self.fmt.is_smem.val() {
                self.dst.next = self.w0.val().get_bits::<8>(6) & self.m7_8.val();
                self.src0.next = self.w0.val().get_bits::<9>(0) & self.m6_9.val();
                self.imm.next = self.w1.val() & self.m20_32.val();
                self.glc.next = self.w0.val().get_bit(16);
                self.imm_offset.next = self.w0.val().get_bit(17);
                self.words.next = self.two.val();
            }
            // 32-bit vector formats.
            if (self.fmt.is_vop1.val()) | (self.fmt.is_vop2.val()) {
                self.dst.next = self.w0.val().get_bits::<8>(17);
            }
            if (self.fmt.is_vop1.val()) | (self.fmt.is_vop2.val()) | (self.fmt.is_vopc.val()) {
                self.src0.next = self.w0.val().get_bits::<9>(0);
            }
            if (self.fmt.is_vop2.val()) | (self.fmt.is_vopc.val()) {
                self.src1.next = self.w0.val().get_bits::<9>(9) & self.m8_9.val();
            }
            // VOP3.
            if self.fmt.is_vop3.val() {
                self.dst.next = self.w0.val().get_bits::<8>(0);
                self.src0.next = self.w1.val().get_bits::<9>(0);
                self.src1.next = self.w1.val().get_bits::<9>(9);
                self.src2.next = self.w1.val().get_bits::<9>(18);
                self.clamp.next = self.w0.val().get_bit(15);
                self.neg.next = self.w1.val().get_bits::<3>(29);
                self.omod.next = self.w1.val().get_bits::<2>(27);
                self.words.next = self.two.val();
                if self.chk.vop3b.val() {
                    self.sdst.next = self.w0.val().get_bits::<7>(8);
                } else {
                    self.abs.next = self.w0.val().get_bits::<3>(8);
                }
            }
            // FLAT and DS.
            if (self.fmt.is_flat.val()) | (self.fmt.is_ds.val()) {
                self.dst.next = self.w1.val().get_bits::<8>(24);
                self.src0.next = self.w1.val().get_bits::<9>(0) & self.m8_9.val();
                self.src1.next = self.w1.val().get_bits::<9>(8) & self.m8_9.val();
                self.words.next = self.two.val();
            }
            if self.fmt.is_flat.val() {
                self.glc.next = self.w0.val().get_bit(16);
                self.slc.next = self.w0.val().get_bit(17);
            }
            if self.fmt.is_ds.val() {
                self.src2.next = self.w1.val().get_bits::<9>(16) & self.m8_9.val();
                self.imm.next = self.w0.val() & self.m16_32.val();
                self.gds.next = self.w0.val().get_bit(16);
            }
            if self.has_literal.val() {
                self.literal.next = true;
                self.imm.next = self.w1.val();
                self.words.next = self.two.val();
            }
        }
    }
}
