//! Format, functional unit and legality of an instruction: the combinational front of the
//! decode stage, shared by the decode stage and the instruction fetch's predecode.

use super::formats::format;
use crate::hdl::k;
use crate::isa::{InsnFormat, MaskSourceCheck, OpcodeCheck};
use rust_hdl::prelude::*;

/// Combinational: the functional unit and legality of the instruction whose first dword is
/// `w0` (and whose VOP3 sources are in `w1_srcs`).
///
/// `legal` is low for an unknown format or an opcode outside the subset ([`OpcodeCheck`]), a
/// VOP3 source code 255 (gfx8 VOP3 has no literal), a `split` operand that is not a mask
/// source ([`MaskSourceCheck`]), or a bad Sim-D tile descriptor operand
/// (docs/assumptions.md#A81); the reference is `illegal` of
/// [`crate::isa::insn_model::decode_fields`].
#[derive(LogicBlock)]
pub struct InsnCheck {
    /// First instruction dword.
    pub w0: Signal<In, Bits<32>>,
    /// Bits \[26:0\] of the dword after it: a VOP3 instruction's three source fields.
    pub w1_srcs: Signal<In, Bits<27>>,
    /// The instruction is in the subset.
    pub legal: Signal<Out, Bit>,
    /// Functional unit code of the format/opcode (meaningful only when `legal`).
    pub unit: Signal<Out, Bits<4>>,
    /// The instruction is a `split`.
    pub is_split: Signal<Out, Bit>,
    /// A VOP3 opcode with the carry-out layout (VOP3b).
    pub vop3b: Signal<Out, Bit>,
    /// Format and opcode of `w0`.
    fmt: InsnFormat,
    /// Subset membership and unit.
    check: OpcodeCheck,
    /// `split` ssrc0 legality.
    mask0: MaskSourceCheck,
    /// `split` ssrc1 legality.
    mask1: MaskSourceCheck,
    /// The instruction is a Sim-D `tile_ld`/`tile_st` whose descriptor operand is bad
    /// (ssrc0 past s98 or ssrc1 not 0).
    bad_tile: Signal<Local, Bit>,
    /// The opcode of `split` in the SOPC format.
    op_split: Constant<Bits<10>>,
    /// The opcodes of `tile_ld` and `tile_st` in the SOPC format.
    op_tile_ld: Constant<Bits<10>>,
    op_tile_st: Constant<Bits<10>>,
    /// The last SGPR a tile descriptor (four SGPRs) may start at.
    tile_last: Constant<Bits<8>>,
    /// 0.
    z8: Constant<Bits<8>>,
    /// The literal source code.
    lit9: Constant<Bits<9>>,
    /// The SOPC format code.
    sopc: Constant<Bits<4>>,
}

impl Default for InsnCheck {
    fn default() -> Self {
        Self {
            w0: Default::default(),
            w1_srcs: Default::default(),
            legal: Default::default(),
            unit: Default::default(),
            is_split: Default::default(),
            vop3b: Default::default(),
            fmt: Default::default(),
            check: Default::default(),
            mask0: Default::default(),
            mask1: Default::default(),
            bad_tile: Default::default(),
            op_split: k(0x7f),
            op_tile_ld: k(0x7e),
            op_tile_st: k(0x7d),
            tile_last: k(98),
            z8: k(0),
            lit9: k(255),
            sopc: k(format::SOPC),
        }
    }
}

impl Logic for InsnCheck {
    #[hdl_gen]
    fn update(&mut self) {
        self.fmt.word.next = self.w0.val().get_bits::<24>(8);
        self.check.is_sop2.next = self.fmt.is_sop2.val();
        self.check.is_sopk.next = self.fmt.is_sopk.val();
        self.check.is_sop1.next = self.fmt.is_sop1.val();
        self.check.is_sopc.next = self.fmt.is_sopc.val();
        self.check.is_sopp.next = self.fmt.is_sopp.val();
        self.check.is_smem.next = self.fmt.is_smem.val();
        self.check.is_vop1.next = self.fmt.is_vop1.val();
        self.check.is_vop2.next = self.fmt.is_vop2.val();
        self.check.is_vopc.next = self.fmt.is_vopc.val();
        self.check.is_vop3.next = self.fmt.is_vop3.val();
        self.check.is_flat.next = self.fmt.is_flat.val();
        self.check.is_ds.next = self.fmt.is_ds.val();
        self.check.opcode.next = self.fmt.opcode.val();
        self.mask0.code.next = self.w0.val().get_bits::<8>(0);
        self.mask1.code.next = self.w0.val().get_bits::<8>(8);
        self.is_split.next = (self.fmt.format.val() == self.sopc.val())
            & (self.fmt.opcode.val() == self.op_split.val());
        self.bad_tile.next = (self.fmt.is_sopc.val())
            & ((self.fmt.opcode.val() == self.op_tile_ld.val())
                | (self.fmt.opcode.val() == self.op_tile_st.val()))
            & ((self.w0.val().get_bits::<8>(0) > self.tile_last.val())
                | (self.w0.val().get_bits::<8>(8) != self.z8.val()));
        self.legal.next = self.check.legal.val()
            & !self.bad_tile.val()
            & !(self.is_split.val() & !(self.mask0.ok.val() & self.mask1.ok.val()))
            & !((self.fmt.is_vop3.val())
                & ((self.w1_srcs.val().get_bits::<9>(0) == self.lit9.val())
                    | (self.w1_srcs.val().get_bits::<9>(9) == self.lit9.val())
                    | (self.w1_srcs.val().get_bits::<9>(18) == self.lit9.val())));
        self.unit.next = self.check.unit.val();
        self.vop3b.next = self.check.vop3b.val();
    }
}
