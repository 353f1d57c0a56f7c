//! Format recognition and opcode extraction for the first instruction word.

use super::formats::format;
use crate::hdl::k;
use rust_hdl::prelude::*;

/// Combinational: which gfx8 format a first instruction word is in, and its opcode field.
///
/// Prefixes, tested in this order: `[31:23]` = 0x17D SOP1, 0x17E SOPC, 0x17F SOPP;
/// `[31:28]` = 0xB SOPK; `[31:30]` = 0b10 SOP2; `[31:26]` = 0b110000 SMEM, 0b110100 VOP3,
/// 0b110110 DS, 0b110111 FLAT (other `0b11` prefixes: none); `[31:25]` = 0b0111111 VOP1,
/// 0b0111110 VOPC; else `[31]` = 0 VOP2.
#[derive(LogicBlock)]
pub struct InsnFormat {
    /// Bits \[31:8\] of the first instruction word (bits \[7:0\] never hold an opcode).
    pub word: Signal<In, Bits<24>>,
    /// Format code ([`format`](mod@format)), `NONE` for an unknown prefix.
    pub format: Signal<Out, Bits<4>>,
    /// The opcode field of that format, zero-extended (0 for `NONE`).
    pub opcode: Signal<Out, Bits<10>>,
    /// The word is in the SOP2 format.
    pub is_sop2: Signal<Out, Bit>,
    /// The word is in the SOPK format.
    pub is_sopk: Signal<Out, Bit>,
    /// The word is in the SOP1 format.
    pub is_sop1: Signal<Out, Bit>,
    /// The word is in the SOPC format.
    pub is_sopc: Signal<Out, Bit>,
    /// The word is in the SOPP format.
    pub is_sopp: Signal<Out, Bit>,
    /// The word is in the SMEM format.
    pub is_smem: Signal<Out, Bit>,
    /// The word is in the VOP1 format.
    pub is_vop1: Signal<Out, Bit>,
    /// The word is in the VOP2 format.
    pub is_vop2: Signal<Out, Bit>,
    /// The word is in the VOPC format.
    pub is_vopc: Signal<Out, Bit>,
    /// The word is in the VOP3 format.
    pub is_vop3: Signal<Out, Bit>,
    /// The word is in the FLAT format.
    pub is_flat: Signal<Out, Bit>,
    /// The word is in the DS format.
    pub is_ds: Signal<Out, Bit>,
    p9_sop1: Constant<Bits<9>>,
    p9_sopc: Constant<Bits<9>>,
    p9_sopp: Constant<Bits<9>>,
    p4_sopk: Constant<Bits<4>>,
    p2_sop2: Constant<Bits<2>>,
    p6_smem: Constant<Bits<6>>,
    p6_vop3: Constant<Bits<6>>,
    p6_ds: Constant<Bits<6>>,
    p6_flat: Constant<Bits<6>>,
    p7_vop1: Constant<Bits<7>>,
    p7_vopc: Constant<Bits<7>>,
    f_none: Constant<Bits<4>>,
    f_sop2: Constant<Bits<4>>,
    f_sopk: Constant<Bits<4>>,
    f_sop1: Constant<Bits<4>>,
    f_sopc: Constant<Bits<4>>,
    f_sopp: Constant<Bits<4>>,
    f_smem: Constant<Bits<4>>,
    f_vop1: Constant<Bits<4>>,
    f_vop2: Constant<Bits<4>>,
    f_vopc: Constant<Bits<4>>,
    f_vop3: Constant<Bits<4>>,
    f_flat: Constant<Bits<4>>,
    f_ds: Constant<Bits<4>>,
    zero: Constant<Bits<10>>,
    m5: Constant<Bits<10>>,
    m6: Constant<Bits<10>>,
    m7: Constant<Bits<10>>,
    m8: Constant<Bits<10>>,
    sh1: Constant<Bits<10>>,
    sh3: Constant<Bits<10>>,
}

impl Default for InsnFormat {
    fn default() -> Self {
        Self {
            word: Default::default(),
            format: Default::default(),
            opcode: Default::default(),
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
            p9_sop1: k(0x17D),
            p9_sopc: k(0x17E),
            p9_sopp: k(0x17F),
            p4_sopk: k(0xB),
            p2_sop2: k(0b10),
            p6_smem: k(0b110000),
            p6_vop3: k(0b110100),
            p6_ds: k(0b110110),
            p6_flat: k(0b110111),
            p7_vop1: k(0b0111111),
            p7_vopc: k(0b0111110),
            f_none: k(format::NONE),
            f_sop2: k(format::SOP2),
            f_sopk: k(format::SOPK),
            f_sop1: k(format::SOP1),
            f_sopc: k(format::SOPC),
            f_sopp: k(format::SOPP),
            f_smem: k(format::SMEM),
            f_vop1: k(format::VOP1),
            f_vop2: k(format::VOP2),
            f_vopc: k(format::VOPC),
            f_vop3: k(format::VOP3),
            f_flat: k(format::FLAT),
            f_ds: k(format::DS),
            zero: k(0),
            m5: k(0x1f),
            m6: k(0x3f),
            m7: k(0x7f),
            m8: k(0xff),
            sh1: k(1),
            sh3: k(3),
        }
    }
}

impl Logic for InsnFormat {
    #[hdl_gen]
    fn update(&mut self) {
        self.format.next = self.f_none.val();
        self.opcode.next = self.zero.val();
        self.is_sop2.next = false;
        self.is_sopk.next = false;
        self.is_sop1.next = false;
        self.is_sopc.next = false;
        self.is_sopp.next = false;
        self.is_smem.next = false;
        self.is_vop1.next = false;
        self.is_vop2.next = false;
        self.is_vopc.next = false;
        self.is_vop3.next = false;
        self.is_flat.next = false;
        self.is_ds.next = false;
        if !self.word.val().get_bit(23) {
            if self.word.val().get_bits::<7>(17) == self.p7_vop1.val() {
                self.format.next = self.f_vop1.val();
                self.is_vop1.next = true;
                self.opcode.next = self.word.val().get_bits::<10>(1) & self.m8.val();
            } else if self.word.val().get_bits::<7>(17) == self.p7_vopc.val() {
                self.format.next = self.f_vopc.val();
                self.is_vopc.next = true;
                self.opcode.next = self.word.val().get_bits::<10>(9) & self.m8.val();
            } else {
                self.format.next = self.f_vop2.val();
                self.is_vop2.next = true;
                self.opcode.next =
                    (self.word.val().get_bits::<10>(14) >> self.sh3.val()) & self.m6.val();
            }
        } else if self.word.val().get_bits::<2>(22) == self.p2_sop2.val() {
            if self.word.val().get_bits::<9>(15) == self.p9_sop1.val() {
                self.format.next = self.f_sop1.val();
                self.is_sop1.next = true;
                self.opcode.next = self.word.val().get_bits::<10>(0) & self.m8.val();
            } else if self.word.val().get_bits::<9>(15) == self.p9_sopc.val() {
                self.format.next = self.f_sopc.val();
                self.is_sopc.next = true;
                self.opcode.next = self.word.val().get_bits::<10>(8) & self.m7.val();
            } else if self.word.val().get_bits::<9>(15) == self.p9_sopp.val() {
                self.format.next = self.f_sopp.val();
                self.is_sopp.next = true;
                self.opcode.next = self.word.val().get_bits::<10>(8) & self.m7.val();
            } else if self.word.val().get_bits::<4>(20) == self.p4_sopk.val() {
                self.format.next = self.f_sopk.val();
                self.is_sopk.next = true;
                self.opcode.next =
                    (self.word.val().get_bits::<10>(14) >> self.sh1.val()) & self.m5.val();
            } else {
                self.format.next = self.f_sop2.val();
                self.is_sop2.next = true;
                self.opcode.next =
                    (self.word.val().get_bits::<10>(14) >> self.sh1.val()) & self.m7.val();
            }
        } else if self.word.val().get_bits::<6>(18) == self.p6_smem.val() {
            self.format.next = self.f_smem.val();
            self.is_smem.next = true;
            self.opcode.next = self.word.val().get_bits::<10>(10) & self.m8.val();
        } else if self.word.val().get_bits::<6>(18) == self.p6_vop3.val() {
            self.format.next = self.f_vop3.val();
            self.is_vop3.next = true;
            self.opcode.next = self.word.val().get_bits::<10>(8);
        } else if self.word.val().get_bits::<6>(18) == self.p6_ds.val() {
            self.format.next = self.f_ds.val();
            self.is_ds.next = true;
            self.opcode.next = self.word.val().get_bits::<10>(9) & self.m8.val();
        } else if self.word.val().get_bits::<6>(18) == self.p6_flat.val() {
            self.format.next = self.f_flat.val();
            self.is_flat.next = true;
            self.opcode.next = self.word.val().get_bits::<10>(10) & self.m7.val();
        }
    }
}
