//! Subset membership and functional unit of an opcode.

use super::formats::unit;
use crate::hdl::k;
use rust_hdl::prelude::*;

/// Combinational: whether (format, opcode) is an instruction of rtgpu's subset, and which
/// functional unit executes it.
///
/// Membership is a 64-bit mask per format indexed by `opcode[5:0]` (with `opcode[9:6]`
/// selecting the 64-opcode page); VOP3 opcodes map to the VOPC page(s) (0x000..0x0FF), the
/// VOP2 page (0x100..0x13F, e64 forms), the VOP1 page (0x140..0x17F, e64 forms, without
/// `v_readfirstlane_b32`), or one of the nine VOP3-only opcodes (`v_mad_u64_u32` with the VOP3b layout).
#[derive(LogicBlock)]
pub struct OpcodeCheck {
    /// The word is in the SOP2 format (from [`crate::isa::InsnFormat`]).
    pub is_sop2: Signal<In, Bit>,
    /// The word is in the SOPK format (from [`crate::isa::InsnFormat`]).
    pub is_sopk: Signal<In, Bit>,
    /// The word is in the SOP1 format (from [`crate::isa::InsnFormat`]).
    pub is_sop1: Signal<In, Bit>,
    /// The word is in the SOPC format (from [`crate::isa::InsnFormat`]).
    pub is_sopc: Signal<In, Bit>,
    /// The word is in the SOPP format (from [`crate::isa::InsnFormat`]).
    pub is_sopp: Signal<In, Bit>,
    /// The word is in the SMEM format (from [`crate::isa::InsnFormat`]).
    pub is_smem: Signal<In, Bit>,
    /// The word is in the VOP1 format (from [`crate::isa::InsnFormat`]).
    pub is_vop1: Signal<In, Bit>,
    /// The word is in the VOP2 format (from [`crate::isa::InsnFormat`]).
    pub is_vop2: Signal<In, Bit>,
    /// The word is in the VOPC format (from [`crate::isa::InsnFormat`]).
    pub is_vopc: Signal<In, Bit>,
    /// The word is in the VOP3 format (from [`crate::isa::InsnFormat`]).
    pub is_vop3: Signal<In, Bit>,
    /// The word is in the FLAT format (from [`crate::isa::InsnFormat`]).
    pub is_flat: Signal<In, Bit>,
    /// The word is in the DS format (from [`crate::isa::InsnFormat`]).
    pub is_ds: Signal<In, Bit>,
    /// Opcode field from [`crate::isa::InsnFormat`].
    pub opcode: Signal<In, Bits<10>>,
    /// The opcode is in the subset.
    pub legal: Signal<Out, Bit>,
    /// Functional unit code ([`unit`](mod@unit)) of the format/opcode; meaningful only when `legal`.
    pub unit: Signal<Out, Bits<4>>,
    /// A VOP3 opcode with the carry-out layout (VOP3b: sdst in bits \[14:8\]).
    pub vop3b: Signal<Out, Bit>,
    m_sop2: Constant<Bits<64>>,
    m_sopk: Constant<Bits<64>>,
    m_sop1: Constant<Bits<64>>,
    m_sopc: Constant<Bits<64>>,
    m_sopp: Constant<Bits<64>>,
    m_sopp_branch: Constant<Bits<64>>,
    m_sopp_sync: Constant<Bits<64>>,
    m_smem: Constant<Bits<64>>,
    m_vop1: Constant<Bits<64>>,
    m_vop2: Constant<Bits<64>>,
    m_vop2_carry: Constant<Bits<64>>,
    m_vopc_page1: Constant<Bits<64>>,
    m_vopc_page3: Constant<Bits<64>>,
    m_flat: Constant<Bits<64>>,
    m_ds: Constant<Bits<64>>,
    page0: Constant<Bits<4>>,
    page1: Constant<Bits<4>>,
    page3: Constant<Bits<4>>,
    page_vop2: Constant<Bits<4>>,
    page_vop1: Constant<Bits<4>>,
    readlane_idx: Constant<Bits<6>>,
    op_pws: Constant<Bits<10>>,
    op_setpc: Constant<Bits<10>>,
    op_swappc: Constant<Bits<10>>,
    op_mad_f32: Constant<Bits<10>>,
    op_mad_u32_u24: Constant<Bits<10>>,
    op_bfe_u32: Constant<Bits<10>>,
    op_fma_f32: Constant<Bits<10>>,
    op_mul_lo_u32: Constant<Bits<10>>,
    op_mul_hi_u32: Constant<Bits<10>>,
    op_lshlrev_b64: Constant<Bits<10>>,
    op_alignbit_b32: Constant<Bits<10>>,
    /// `v_max3_i32`.
    op_max3_i32: Constant<Bits<10>>,
    op_mad_u64_u32: Constant<Bits<10>>,
    u_none: Constant<Bits<4>>,
    u_salu: Constant<Bits<4>>,
    u_valu: Constant<Bits<4>>,
    u_vmem: Constant<Bits<4>>,
    u_smem: Constant<Bits<4>>,
    u_lds: Constant<Bits<4>>,
    u_branch: Constant<Bits<4>>,
    u_pws: Constant<Bits<4>>,
    u_sync: Constant<Bits<4>>,
    u_program: Constant<Bits<4>>,
    u_tile: Constant<Bits<4>>,
    op_tile_ld: Constant<Bits<10>>,
    op_tile_st: Constant<Bits<10>>,
}

impl Default for OpcodeCheck {
    fn default() -> Self {
        Self {
            is_sop2: Default::default(),
            is_sopk: Default::default(),
            is_sop1: Default::default(),
            is_sopc: Default::default(),
            is_sopp: Default::default(),
            is_smem: Default::default(),
            is_vop1: Default::default(),
            is_vop2: Default::default(),
            is_vopc: Default::default(),
            is_vop3: Default::default(),
            is_flat: Default::default(),
            is_ds: Default::default(),
            opcode: Default::default(),
            legal: Default::default(),
            unit: Default::default(),
            vop3b: Default::default(),
            // Bit i set = opcode i of the page is in the subset (gfx8 numbers, llvm-mc).
            m_sop2: k(0x33_f03f_ffff),
            m_sopk: k(0xfffd),
            m_sop1: k(0x7_7000_0033),
            m_sopc: k(0xfff),
            m_sopp: k(0x57f7),
            m_sopp_branch: k(0x3f4),
            m_sopp_sync: k(0x1400),
            m_smem: k(0x1_0007),
            m_vop1: k(0x88c_0000_01e6),
            m_vop2: k(0x7e7f_fd2f),
            m_vop2_carry: k(0x7e00_0000),
            m_vopc_page1: k(0x205e_205e),
            m_vopc_page3: k(0x2400_7e7e_7e7e),
            m_flat: k(0xb0b0_0000),
            m_ds: k(0xc0_0000_0000_6001),
            page0: k(0),
            page1: k(1),
            page3: k(3),
            page_vop2: k(4),
            page_vop1: k(5),
            readlane_idx: k(2),
            op_pws: k(0x7f),
            op_setpc: k(0x1d),
            op_swappc: k(0x1e),
            op_mad_f32: k(0x1c1),
            op_mad_u32_u24: k(0x1c3),
            op_bfe_u32: k(0x1c8),
            op_fma_f32: k(0x1cb),
            op_mul_lo_u32: k(0x285),
            op_mul_hi_u32: k(0x286),
            op_lshlrev_b64: k(0x28f),
            op_alignbit_b32: k(0x1ce),
            op_max3_i32: k(0x1d4),
            op_mad_u64_u32: k(0x1e8),
            u_none: k(unit::NONE),
            u_salu: k(unit::SALU),
            u_valu: k(unit::VALU),
            u_vmem: k(unit::VMEM),
            u_smem: k(unit::SMEM),
            u_lds: k(unit::LDS),
            u_branch: k(unit::BRANCH),
            u_pws: k(unit::PWS),
            u_sync: k(unit::SYNC),
            u_program: k(unit::PROGRAM),
            u_tile: k(unit::TILE),
            op_tile_ld: k(0x7e),
            op_tile_st: k(0x7d),
        }
    }
}

impl Logic for OpcodeCheck {
    #[hdl_gen]
    fn update(&mut self) {
        self.legal.next = false;
        self.unit.next = self.u_none.val();
        self.vop3b.next = false;
        if self.is_sop2.val() {
            self.legal.next = (self.opcode.val().get_bits::<4>(6) == self.page0.val())
                & self
                    .m_sop2
                    .val()
                    .get_bit(self.opcode.val().get_bits::<6>(0).index());
            self.unit.next = self.u_salu.val();
        }
        if self.is_sopk.val() {
            self.legal.next = self
                .m_sopk
                .val()
                .get_bit(self.opcode.val().get_bits::<6>(0).index());
            self.unit.next = self.u_salu.val();
        }
        if self.is_sop1.val() {
            self.legal.next = (self.opcode.val().get_bits::<4>(6) == self.page0.val())
                & self
                    .m_sop1
                    .val()
                    .get_bit(self.opcode.val().get_bits::<6>(0).index());
            self.unit.next = self.u_salu.val();
            if (self.opcode.val() == self.op_setpc.val())
                | (self.opcode.val() == self.op_swappc.val())
            {
                self.unit.next = self.u_branch.val();
            }
        }
        if self.is_sopc.val() {
            self.legal.next = ((self.opcode.val().get_bits::<4>(6) == self.page0.val())
                & self
                    .m_sopc
                    .val()
                    .get_bit(self.opcode.val().get_bits::<6>(0).index()))
                | (self.opcode.val() == self.op_pws.val())
                | (self.opcode.val() == self.op_tile_ld.val())
                | (self.opcode.val() == self.op_tile_st.val());
            self.unit.next = self.u_salu.val();
            if self.opcode.val() == self.op_pws.val() {
                self.unit.next = self.u_pws.val();
            }
            if (self.opcode.val() == self.op_tile_ld.val())
                | (self.opcode.val() == self.op_tile_st.val())
            {
                self.unit.next = self.u_tile.val();
            }
        }
        if self.is_sopp.val() {
            self.legal.next = ((self.opcode.val().get_bits::<4>(6) == self.page0.val())
                & self
                    .m_sopp
                    .val()
                    .get_bit(self.opcode.val().get_bits::<6>(0).index()))
                | (self.opcode.val() == self.op_pws.val());
            self.unit.next = self.u_program.val();
            if self
                .m_sopp_branch
                .val()
                .get_bit(self.opcode.val().get_bits::<6>(0).index())
            {
                self.unit.next = self.u_branch.val();
            }
            if self
                .m_sopp_sync
                .val()
                .get_bit(self.opcode.val().get_bits::<6>(0).index())
            {
                self.unit.next = self.u_sync.val();
            }
            if self.opcode.val() == self.op_pws.val() {
                self.unit.next = self.u_pws.val();
            }
        }
        if self.is_smem.val() {
            self.legal.next = (self.opcode.val().get_bits::<4>(6) == self.page0.val())
                & self
                    .m_smem
                    .val()
                    .get_bit(self.opcode.val().get_bits::<6>(0).index());
            self.unit.next = self.u_smem.val();
        }
        if self.is_vop1.val() {
            self.legal.next = (self.opcode.val().get_bits::<4>(6) == self.page0.val())
                & self
                    .m_vop1
                    .val()
                    .get_bit(self.opcode.val().get_bits::<6>(0).index());
            self.unit.next = self.u_valu.val();
        }
        if self.is_vop2.val() {
            self.legal.next = self
                .m_vop2
                .val()
                .get_bit(self.opcode.val().get_bits::<6>(0).index());
            self.unit.next = self.u_valu.val();
        }
        if (self.is_vopc.val()) | (self.is_vop3.val()) {
            self.legal.next = ((self.opcode.val().get_bits::<4>(6) == self.page1.val())
                & self
                    .m_vopc_page1
                    .val()
                    .get_bit(self.opcode.val().get_bits::<6>(0).index()))
                | ((self.opcode.val().get_bits::<4>(6) == self.page3.val())
                    & self
                        .m_vopc_page3
                        .val()
                        .get_bit(self.opcode.val().get_bits::<6>(0).index()));
            self.unit.next = self.u_valu.val();
        }
        if (self.is_vop3.val()) & (self.opcode.val().get_bits::<4>(6) == self.page_vop2.val()) {
            self.legal.next = self
                .m_vop2
                .val()
                .get_bit(self.opcode.val().get_bits::<6>(0).index());
            self.vop3b.next = self
                .m_vop2_carry
                .val()
                .get_bit(self.opcode.val().get_bits::<6>(0).index());
        }
        if (self.is_vop3.val()) & (self.opcode.val().get_bits::<4>(6) == self.page_vop1.val()) {
            self.legal.next = self
                .m_vop1
                .val()
                .get_bit(self.opcode.val().get_bits::<6>(0).index())
                & (self.opcode.val().get_bits::<6>(0) != self.readlane_idx.val());
        }
        if (self.is_vop3.val())
            & ((self.opcode.val() == self.op_mad_f32.val())
                | (self.opcode.val() == self.op_mad_u32_u24.val())
                | (self.opcode.val() == self.op_bfe_u32.val())
                | (self.opcode.val() == self.op_fma_f32.val())
                | (self.opcode.val() == self.op_mul_lo_u32.val())
                | (self.opcode.val() == self.op_mul_hi_u32.val())
                | (self.opcode.val() == self.op_lshlrev_b64.val())
                | (self.opcode.val() == self.op_alignbit_b32.val())
                | (self.opcode.val() == self.op_max3_i32.val())
                | (self.opcode.val() == self.op_mad_u64_u32.val()))
        {
            self.legal.next = true;
        }
        if (self.is_vop3.val()) & (self.opcode.val() == self.op_mad_u64_u32.val()) {
            self.vop3b.next = true;
        }
        if self.is_flat.val() {
            self.legal.next = (self.opcode.val().get_bits::<4>(6) == self.page0.val())
                & self
                    .m_flat
                    .val()
                    .get_bit(self.opcode.val().get_bits::<6>(0).index());
            self.unit.next = self.u_vmem.val();
        }
        if self.is_ds.val() {
            self.legal.next = (self.opcode.val().get_bits::<4>(6) == self.page0.val())
                & self
                    .m_ds
                    .val()
                    .get_bit(self.opcode.val().get_bits::<6>(0).index());
            self.unit.next = self.u_lds.val();
        }
    }
}
