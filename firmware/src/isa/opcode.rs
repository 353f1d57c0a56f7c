//! The opcode table: every instruction of rtgpu's GCN3 subset, its format, opcode number and
//! operand signature. Opcode numbers are gfx8's (checked against `llvm-mc -mcpu=fiji` by the
//! LLVM oracle test); `split`/`merge` are rtgpu's PWS instructions (docs/assumptions.md#A2).

/// The encoding formats of the subset (gfx8 layouts).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// Scalar, two sources: `10 op[29:23] sdst[22:16] ssrc1[15:8] ssrc0[7:0]`.
    Sop2,
    /// Scalar with a 16-bit constant: `1011 op[27:23] sdst[22:16] simm16[15:0]`.
    Sopk,
    /// Scalar, one source: `101111101 sdst[22:16] op[15:8] ssrc0[7:0]`.
    Sop1,
    /// Scalar compare: `101111110 op[22:16] ssrc1[15:8] ssrc0[7:0]`.
    Sopc,
    /// Scalar program control: `101111111 op[22:16] simm16[15:0]`.
    Sopp,
    /// Scalar memory (64 bits): `110000 op[25:18] imm[17] glc[16] sdata[12:6] sbase[5:0]`,
    /// then `offset[19:0]` or `soffset[7:0]`.
    Smem,
    /// Vector, one source: `0111111 vdst[24:17] op[16:9] src0[8:0]`.
    Vop1,
    /// Vector, two sources: `0 op[30:25] vdst[24:17] vsrc1[16:9] src0[8:0]`.
    Vop2,
    /// Vector compare: `0111110 op[24:17] vsrc1[16:9] src0[8:0]`.
    Vopc,
    /// Vector, three sources (64 bits): `110100 op[25:16] clamp[15] abs[10:8]|sdst[14:8]
    /// vdst[7:0]`, then `neg[31:29] omod[28:27] src2[26:18] src1[17:9] src0[8:0]`.
    Vop3,
    /// Flat memory (64 bits): `110111 op[24:18] slc[17] glc[16]`, then
    /// `vdst[31:24] tfe[23] data[15:8] addr[7:0]`.
    Flat,
    /// Local data share (64 bits): `110110 op[24:17] gds[16] offset1[15:8] offset0[7:0]`, then
    /// `vdst[31:24] data1[23:16] data0[15:8] addr[7:0]`.
    Ds,
}

impl Format {
    /// The format's name as the GCN3 manual writes it (`SOP2`, `VOP3`, `DS`).
    pub fn name(self) -> &'static str {
        match self {
            Format::Sop2 => "SOP2",
            Format::Sopk => "SOPK",
            Format::Sop1 => "SOP1",
            Format::Sopc => "SOPC",
            Format::Sopp => "SOPP",
            Format::Smem => "SMEM",
            Format::Vop1 => "VOP1",
            Format::Vop2 => "VOP2",
            Format::Vopc => "VOPC",
            Format::Vop3 => "VOP3",
            Format::Flat => "FLAT",
            Format::Ds => "DS",
        }
    }

    /// The format is 64 bits long (a second dword always follows the first).
    pub fn is_64bit(self) -> bool {
        matches!(
            self,
            Format::Smem | Format::Vop3 | Format::Flat | Format::Ds
        )
    }
}

/// The operand signature of an instruction: which operands its assembly form lists.
/// Numbers are widths in dwords.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sig {
    /// `sdst, ssrc0, ssrc1` with widths (dst, src0, src1).
    Sop2(u8, u8, u8),
    /// `sdst, simm16`.
    Sopk,
    /// `sdst, ssrc0` with widths (dst, src0).
    Sop1(u8, u8),
    /// `s_getpc_b64 sdst[2]`.
    GetPc,
    /// `s_setpc_b64 ssrc0[2]`.
    SetPc,
    /// `ssrc0, ssrc1`.
    Sopc,
    /// `split ssrc0, ssrc1`: SOPC, both operands must be mask sources (docs/assumptions.md#A2).
    Split,
    /// `tile_ld s[n:n+3]` / `tile_st s[n:n+3]`: Sim-D's work-group-wide tile transfers (SOPC,
    /// ssrc0 = the descriptor's first SGPR, ssrc1 = 0; docs/assumptions.md#A81).
    Tile,
    /// No operand (`s_endpgm`, `s_barrier`, `merge`).
    SoppNone,
    /// A 16-bit count (`s_nop 3`, `s_sleep 2`).
    SoppImm,
    /// A branch target: label or signed dword offset.
    Branch,
    /// `vmcnt(N) expcnt(N) lgkmcnt(N)` or a 16-bit number.
    Waitcnt,
    /// `sdata[w], sbase[2], offset|soffset`.
    Smem(u8),
    /// `vdst, src0` (e32 and e64).
    Vop1,
    /// `v_readfirstlane_b32 sdst, vsrc0` (e32 only).
    ReadLane,
    /// `vdst, src0, vsrc1`.
    Vop2,
    /// `vdst, vcc, src0, vsrc1` (e64: `vdst, sdst[2], src0, src1`).
    Carry,
    /// `vdst, vcc, src0, vsrc1, vcc` (e64: `vdst, sdst[2], src0, src1, src2[2]`).
    CarryIn,
    /// `vdst, src0, vsrc1, vcc` (e64: `vdst, src0, src1, src2[2]`).
    Cndmask,
    /// `vcc, src0, vsrc1` (e64: `sdst[2], src0, src1`).
    Vopc,
    /// A 64-bit compare: `vcc, src0[2], vsrc1[2]` (e64: `sdst[2], src0[2], src1[2]`).
    Vopc64,
    /// `v_mad_u64_u32 vdst[2], sdst[2], src0, src1, src2[2]` (VOP3b: a carry-out pair).
    MadU64,
    /// VOP3-only `vdst, src0, src1[, src2]` with widths (dst, src0, src1, src2; 0 = absent).
    Vop3(u8, u8, u8, u8),
    /// `vdst[w], vaddr[2]`.
    FlatLoad(u8),
    /// `vaddr[2], vdata[w]`.
    FlatStore(u8),
    /// `vdst, vaddr [offset:N]`.
    DsRead,
    /// `vaddr, vdata [offset:N]`.
    DsWrite,
    /// `vdst[2], vaddr [offset0:N] [offset1:N]`.
    DsRead2,
    /// `vaddr, vdata0, vdata1 [offset0:N] [offset1:N]`.
    DsWrite2,
}

/// Which VOP3 modifiers an opcode accepts (as LLVM does for gfx8).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ModSet {
    /// Source modifiers `-x`, `|x|` (neg/abs).
    pub source: bool,
    /// `clamp`.
    pub clamp: bool,
    /// Output modifiers `mul:2`, `mul:4`, `div:2`.
    pub omod: bool,
}

impl ModSet {
    /// No modifier.
    pub const NONE: ModSet = ModSet {
        source: false,
        clamp: false,
        omod: false,
    };
    /// Float arithmetic: everything.
    pub const FLOAT: ModSet = ModSet {
        source: true,
        clamp: true,
        omod: true,
    };
    /// Float compares: source modifiers and clamp.
    pub const COMPARE: ModSet = ModSet {
        source: true,
        clamp: true,
        omod: false,
    };
    /// Conversions to float from integers: clamp and output modifiers.
    pub const OUTPUT: ModSet = ModSet {
        source: false,
        clamp: true,
        omod: true,
    };
    /// Integer arithmetic with saturation: clamp only.
    pub const CLAMP: ModSet = ModSet {
        source: false,
        clamp: true,
        omod: false,
    };
    /// Source modifiers only (`v_cndmask_b32`).
    pub const SOURCE: ModSet = ModSet {
        source: true,
        clamp: false,
        omod: false,
    };
}

/// One row of the opcode table.
#[derive(Clone, Copy, Debug)]
pub struct OpInfo {
    /// The mnemonic as LLVM spells it, without `_e32`/`_e64`.
    pub name: &'static str,
    /// Native encoding format.
    pub format: Format,
    /// Opcode number in the native format.
    pub code: u16,
    /// Operand signature.
    pub sig: Sig,
    /// VOP3 modifiers accepted.
    pub mods: ModSet,
}

macro_rules! opcodes {
    ($($variant:ident $name:literal $format:ident $code:literal $sig:expr, $mods:ident;)*) => {
        /// Every mnemonic of the subset.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Op {
            $(
                #[doc = concat!("`", $name, "`")]
                $variant,
            )*
        }

        /// The table, in [`Op`] order.
        pub const OPS: &[OpInfo] = &[
            $(OpInfo {
                name: $name,
                format: Format::$format,
                code: $code,
                sig: $sig,
                mods: ModSet::$mods,
            },)*
        ];

        /// Every [`Op`], in table order.
        pub const ALL_OPS: &[Op] = &[$(Op::$variant,)*];
    };
}

use Sig::*;

opcodes! {
    SAddU32 "s_add_u32" Sop2 0x0 Sop2(1, 1, 1), NONE;
    SSubU32 "s_sub_u32" Sop2 0x1 Sop2(1, 1, 1), NONE;
    SAddI32 "s_add_i32" Sop2 0x2 Sop2(1, 1, 1), NONE;
    SSubI32 "s_sub_i32" Sop2 0x3 Sop2(1, 1, 1), NONE;
    SAddcU32 "s_addc_u32" Sop2 0x4 Sop2(1, 1, 1), NONE;
    SSubbU32 "s_subb_u32" Sop2 0x5 Sop2(1, 1, 1), NONE;
    SMinI32 "s_min_i32" Sop2 0x6 Sop2(1, 1, 1), NONE;
    SMinU32 "s_min_u32" Sop2 0x7 Sop2(1, 1, 1), NONE;
    SMaxI32 "s_max_i32" Sop2 0x8 Sop2(1, 1, 1), NONE;
    SMaxU32 "s_max_u32" Sop2 0x9 Sop2(1, 1, 1), NONE;
    SCselectB32 "s_cselect_b32" Sop2 0xa Sop2(1, 1, 1), NONE;
    SCselectB64 "s_cselect_b64" Sop2 0xb Sop2(2, 2, 2), NONE;
    SAndB32 "s_and_b32" Sop2 0xc Sop2(1, 1, 1), NONE;
    SAndB64 "s_and_b64" Sop2 0xd Sop2(2, 2, 2), NONE;
    SOrB32 "s_or_b32" Sop2 0xe Sop2(1, 1, 1), NONE;
    SOrB64 "s_or_b64" Sop2 0xf Sop2(2, 2, 2), NONE;
    SXorB32 "s_xor_b32" Sop2 0x10 Sop2(1, 1, 1), NONE;
    SXorB64 "s_xor_b64" Sop2 0x11 Sop2(2, 2, 2), NONE;
    SAndn2B32 "s_andn2_b32" Sop2 0x12 Sop2(1, 1, 1), NONE;
    SAndn2B64 "s_andn2_b64" Sop2 0x13 Sop2(2, 2, 2), NONE;
    SOrn2B32 "s_orn2_b32" Sop2 0x14 Sop2(1, 1, 1), NONE;
    SOrn2B64 "s_orn2_b64" Sop2 0x15 Sop2(2, 2, 2), NONE;
    SLshlB32 "s_lshl_b32" Sop2 0x1c Sop2(1, 1, 1), NONE;
    SLshlB64 "s_lshl_b64" Sop2 0x1d Sop2(2, 2, 1), NONE;
    SLshrB32 "s_lshr_b32" Sop2 0x1e Sop2(1, 1, 1), NONE;
    SLshrB64 "s_lshr_b64" Sop2 0x1f Sop2(2, 2, 1), NONE;
    SAshrI32 "s_ashr_i32" Sop2 0x20 Sop2(1, 1, 1), NONE;
    SAshrI64 "s_ashr_i64" Sop2 0x21 Sop2(2, 2, 1), NONE;
    SMulI32 "s_mul_i32" Sop2 0x24 Sop2(1, 1, 1), NONE;
    SBfeU32 "s_bfe_u32" Sop2 0x25 Sop2(1, 1, 1), NONE;
    SMovkI32 "s_movk_i32" Sopk 0x0 Sopk, NONE;
    SCmpkEqI32 "s_cmpk_eq_i32" Sopk 0x2 Sopk, NONE;
    SCmpkLgI32 "s_cmpk_lg_i32" Sopk 0x3 Sopk, NONE;
    SCmpkGtI32 "s_cmpk_gt_i32" Sopk 0x4 Sopk, NONE;
    SCmpkGeI32 "s_cmpk_ge_i32" Sopk 0x5 Sopk, NONE;
    SCmpkLtI32 "s_cmpk_lt_i32" Sopk 0x6 Sopk, NONE;
    SCmpkLeI32 "s_cmpk_le_i32" Sopk 0x7 Sopk, NONE;
    SCmpkEqU32 "s_cmpk_eq_u32" Sopk 0x8 Sopk, NONE;
    SCmpkLgU32 "s_cmpk_lg_u32" Sopk 0x9 Sopk, NONE;
    SCmpkGtU32 "s_cmpk_gt_u32" Sopk 0xa Sopk, NONE;
    SCmpkGeU32 "s_cmpk_ge_u32" Sopk 0xb Sopk, NONE;
    SCmpkLtU32 "s_cmpk_lt_u32" Sopk 0xc Sopk, NONE;
    SCmpkLeU32 "s_cmpk_le_u32" Sopk 0xd Sopk, NONE;
    SAddkI32 "s_addk_i32" Sopk 0xe Sopk, NONE;
    SMulkI32 "s_mulk_i32" Sopk 0xf Sopk, NONE;
    SMovB32 "s_mov_b32" Sop1 0x0 Sop1(1, 1), NONE;
    SMovB64 "s_mov_b64" Sop1 0x1 Sop1(2, 2), NONE;
    SNotB32 "s_not_b32" Sop1 0x4 Sop1(1, 1), NONE;
    SNotB64 "s_not_b64" Sop1 0x5 Sop1(2, 2), NONE;
    SGetpcB64 "s_getpc_b64" Sop1 0x1c GetPc, NONE;
    SSetpcB64 "s_setpc_b64" Sop1 0x1d SetPc, NONE;
    SSwappcB64 "s_swappc_b64" Sop1 0x1e Sop1(2, 2), NONE;
    SAndSaveexecB64 "s_and_saveexec_b64" Sop1 0x20 Sop1(2, 2), NONE;
    SOrSaveexecB64 "s_or_saveexec_b64" Sop1 0x21 Sop1(2, 2), NONE;
    SXorSaveexecB64 "s_xor_saveexec_b64" Sop1 0x22 Sop1(2, 2), NONE;
    SCmpEqI32 "s_cmp_eq_i32" Sopc 0x0 Sopc, NONE;
    SCmpLgI32 "s_cmp_lg_i32" Sopc 0x1 Sopc, NONE;
    SCmpGtI32 "s_cmp_gt_i32" Sopc 0x2 Sopc, NONE;
    SCmpGeI32 "s_cmp_ge_i32" Sopc 0x3 Sopc, NONE;
    SCmpLtI32 "s_cmp_lt_i32" Sopc 0x4 Sopc, NONE;
    SCmpLeI32 "s_cmp_le_i32" Sopc 0x5 Sopc, NONE;
    SCmpEqU32 "s_cmp_eq_u32" Sopc 0x6 Sopc, NONE;
    SCmpLgU32 "s_cmp_lg_u32" Sopc 0x7 Sopc, NONE;
    SCmpGtU32 "s_cmp_gt_u32" Sopc 0x8 Sopc, NONE;
    SCmpGeU32 "s_cmp_ge_u32" Sopc 0x9 Sopc, NONE;
    SCmpLtU32 "s_cmp_lt_u32" Sopc 0xa Sopc, NONE;
    SCmpLeU32 "s_cmp_le_u32" Sopc 0xb Sopc, NONE;
    Split "split" Sopc 0x7f Split, NONE;
    TileLd "tile_ld" Sopc 0x7e Tile, NONE;
    TileSt "tile_st" Sopc 0x7d Tile, NONE;
    SNop "s_nop" Sopp 0x0 SoppImm, NONE;
    SEndpgm "s_endpgm" Sopp 0x1 SoppNone, NONE;
    SBranch "s_branch" Sopp 0x2 Branch, NONE;
    SCbranchScc0 "s_cbranch_scc0" Sopp 0x4 Branch, NONE;
    SCbranchScc1 "s_cbranch_scc1" Sopp 0x5 Branch, NONE;
    SCbranchVccz "s_cbranch_vccz" Sopp 0x6 Branch, NONE;
    SCbranchVccnz "s_cbranch_vccnz" Sopp 0x7 Branch, NONE;
    SCbranchExecz "s_cbranch_execz" Sopp 0x8 Branch, NONE;
    SCbranchExecnz "s_cbranch_execnz" Sopp 0x9 Branch, NONE;
    SBarrier "s_barrier" Sopp 0xa SoppNone, NONE;
    SWaitcnt "s_waitcnt" Sopp 0xc Waitcnt, NONE;
    SSleep "s_sleep" Sopp 0xe SoppImm, NONE;
    Merge "merge" Sopp 0x7f SoppNone, NONE;
    SLoadDword "s_load_dword" Smem 0x0 Smem(1), NONE;
    SLoadDwordx2 "s_load_dwordx2" Smem 0x1 Smem(2), NONE;
    SLoadDwordx4 "s_load_dwordx4" Smem 0x2 Smem(4), NONE;
    SStoreDword "s_store_dword" Smem 0x10 Smem(1), NONE;
    VMovB32 "v_mov_b32" Vop1 0x1 Vop1, NONE;
    VCvtF32I32 "v_cvt_f32_i32" Vop1 0x5 Vop1, OUTPUT;
    VCvtF32U32 "v_cvt_f32_u32" Vop1 0x6 Vop1, OUTPUT;
    VCvtI32F32 "v_cvt_i32_f32" Vop1 0x8 Vop1, FLOAT;
    VCvtU32F32 "v_cvt_u32_f32" Vop1 0x7 Vop1, FLOAT;
    VRcpF32 "v_rcp_f32" Vop1 0x22 Vop1, FLOAT;
    VRcpIflagF32 "v_rcp_iflag_f32" Vop1 0x23 Vop1, FLOAT;
    VSqrtF32 "v_sqrt_f32" Vop1 0x27 Vop1, FLOAT;
    VNotB32 "v_not_b32" Vop1 0x2b Vop1, NONE;
    VReadfirstlaneB32 "v_readfirstlane_b32" Vop1 0x2 ReadLane, NONE;
    VAddU32 "v_add_u32" Vop2 0x19 Carry, CLAMP;
    VSubU32 "v_sub_u32" Vop2 0x1a Carry, CLAMP;
    VSubrevU32 "v_subrev_u32" Vop2 0x1b Carry, CLAMP;
    VAddcU32 "v_addc_u32" Vop2 0x1c CarryIn, CLAMP;
    VSubbU32 "v_subb_u32" Vop2 0x1d CarryIn, CLAMP;
    VSubbrevU32 "v_subbrev_u32" Vop2 0x1e CarryIn, CLAMP;
    VAddF32 "v_add_f32" Vop2 0x1 Vop2, FLOAT;
    VSubF32 "v_sub_f32" Vop2 0x2 Vop2, FLOAT;
    VSubrevF32 "v_subrev_f32" Vop2 0x3 Vop2, FLOAT;
    VMulF32 "v_mul_f32" Vop2 0x5 Vop2, FLOAT;
    VMulU32U24 "v_mul_u32_u24" Vop2 0x8 Vop2, CLAMP;
    VAndB32 "v_and_b32" Vop2 0x13 Vop2, NONE;
    VOrB32 "v_or_b32" Vop2 0x14 Vop2, NONE;
    VXorB32 "v_xor_b32" Vop2 0x15 Vop2, NONE;
    VLshlrevB32 "v_lshlrev_b32" Vop2 0x12 Vop2, NONE;
    VLshrrevB32 "v_lshrrev_b32" Vop2 0x10 Vop2, NONE;
    VAshrrevI32 "v_ashrrev_i32" Vop2 0x11 Vop2, NONE;
    VMinF32 "v_min_f32" Vop2 0xa Vop2, FLOAT;
    VMaxF32 "v_max_f32" Vop2 0xb Vop2, FLOAT;
    VMinI32 "v_min_i32" Vop2 0xc Vop2, NONE;
    VMaxI32 "v_max_i32" Vop2 0xd Vop2, NONE;
    VMinU32 "v_min_u32" Vop2 0xe Vop2, NONE;
    VMaxU32 "v_max_u32" Vop2 0xf Vop2, NONE;
    VCndmaskB32 "v_cndmask_b32" Vop2 0x0 Cndmask, SOURCE;
    VMacF32 "v_mac_f32" Vop2 0x16 Vop2, FLOAT;
    VMadF32 "v_mad_f32" Vop3 0x1c1 Vop3(1, 1, 1, 1), FLOAT;
    VMadU32U24 "v_mad_u32_u24" Vop3 0x1c3 Vop3(1, 1, 1, 1), CLAMP;
    VFmaF32 "v_fma_f32" Vop3 0x1cb Vop3(1, 1, 1, 1), FLOAT;
    VMulLoU32 "v_mul_lo_u32" Vop3 0x285 Vop3(1, 1, 1, 0), NONE;
    VMulHiU32 "v_mul_hi_u32" Vop3 0x286 Vop3(1, 1, 1, 0), NONE;
    VBfeU32 "v_bfe_u32" Vop3 0x1c8 Vop3(1, 1, 1, 1), NONE;
    VLshlrevB64 "v_lshlrev_b64" Vop3 0x28f Vop3(2, 1, 2, 0), NONE;
    VAlignbitB32 "v_alignbit_b32" Vop3 0x1ce Vop3(1, 1, 1, 1), NONE;
    VMax3I32 "v_max3_i32" Vop3 0x1d4 Vop3(1, 1, 1, 1), NONE;
    VMadU64U32 "v_mad_u64_u32" Vop3 0x1e8 MadU64, CLAMP;
    FlatLoadDword "flat_load_dword" Flat 0x14 FlatLoad(1), NONE;
    FlatLoadDwordx2 "flat_load_dwordx2" Flat 0x15 FlatLoad(2), NONE;
    FlatLoadDwordx4 "flat_load_dwordx4" Flat 0x17 FlatLoad(4), NONE;
    FlatStoreDword "flat_store_dword" Flat 0x1c FlatStore(1), NONE;
    FlatStoreDwordx2 "flat_store_dwordx2" Flat 0x1d FlatStore(2), NONE;
    FlatStoreDwordx4 "flat_store_dwordx4" Flat 0x1f FlatStore(4), NONE;
    DsReadB32 "ds_read_b32" Ds 0x36 DsRead, NONE;
    DsWriteB32 "ds_write_b32" Ds 0xd DsWrite, NONE;
    DsRead2B32 "ds_read2_b32" Ds 0x37 DsRead2, NONE;
    DsWrite2B32 "ds_write2_b32" Ds 0xe DsWrite2, NONE;
    DsAddU32 "ds_add_u32" Ds 0x0 DsWrite, NONE;
    VCmpEqI32 "v_cmp_eq_i32" Vopc 0xc2 Vopc, NONE;
    VCmpxEqI32 "v_cmpx_eq_i32" Vopc 0xd2 Vopc, NONE;
    VCmpEqU32 "v_cmp_eq_u32" Vopc 0xca Vopc, NONE;
    VCmpxEqU32 "v_cmpx_eq_u32" Vopc 0xda Vopc, NONE;
    VCmpNeI32 "v_cmp_ne_i32" Vopc 0xc5 Vopc, NONE;
    VCmpxNeI32 "v_cmpx_ne_i32" Vopc 0xd5 Vopc, NONE;
    VCmpNeU32 "v_cmp_ne_u32" Vopc 0xcd Vopc, NONE;
    VCmpxNeU32 "v_cmpx_ne_u32" Vopc 0xdd Vopc, NONE;
    VCmpLtI32 "v_cmp_lt_i32" Vopc 0xc1 Vopc, NONE;
    VCmpxLtI32 "v_cmpx_lt_i32" Vopc 0xd1 Vopc, NONE;
    VCmpLtU32 "v_cmp_lt_u32" Vopc 0xc9 Vopc, NONE;
    VCmpxLtU32 "v_cmpx_lt_u32" Vopc 0xd9 Vopc, NONE;
    VCmpLeI32 "v_cmp_le_i32" Vopc 0xc3 Vopc, NONE;
    VCmpxLeI32 "v_cmpx_le_i32" Vopc 0xd3 Vopc, NONE;
    VCmpLeU32 "v_cmp_le_u32" Vopc 0xcb Vopc, NONE;
    VCmpxLeU32 "v_cmpx_le_u32" Vopc 0xdb Vopc, NONE;
    VCmpGtI32 "v_cmp_gt_i32" Vopc 0xc4 Vopc, NONE;
    VCmpxGtI32 "v_cmpx_gt_i32" Vopc 0xd4 Vopc, NONE;
    VCmpGtU32 "v_cmp_gt_u32" Vopc 0xcc Vopc, NONE;
    VCmpxGtU32 "v_cmpx_gt_u32" Vopc 0xdc Vopc, NONE;
    VCmpGeI32 "v_cmp_ge_i32" Vopc 0xc6 Vopc, NONE;
    VCmpxGeI32 "v_cmpx_ge_i32" Vopc 0xd6 Vopc, NONE;
    VCmpGeU32 "v_cmp_ge_u32" Vopc 0xce Vopc, NONE;
    VCmpxGeU32 "v_cmpx_ge_u32" Vopc 0xde Vopc, NONE;
    VCmpEqF32 "v_cmp_eq_f32" Vopc 0x42 Vopc, COMPARE;
    VCmpxEqF32 "v_cmpx_eq_f32" Vopc 0x52 Vopc, COMPARE;
    VCmpNeqF32 "v_cmp_neq_f32" Vopc 0x4d Vopc, COMPARE;
    VCmpxNeqF32 "v_cmpx_neq_f32" Vopc 0x5d Vopc, COMPARE;
    VCmpLtF32 "v_cmp_lt_f32" Vopc 0x41 Vopc, COMPARE;
    VCmpxLtF32 "v_cmpx_lt_f32" Vopc 0x51 Vopc, COMPARE;
    VCmpLeF32 "v_cmp_le_f32" Vopc 0x43 Vopc, COMPARE;
    VCmpxLeF32 "v_cmpx_le_f32" Vopc 0x53 Vopc, COMPARE;
    VCmpGtF32 "v_cmp_gt_f32" Vopc 0x44 Vopc, COMPARE;
    VCmpxGtF32 "v_cmpx_gt_f32" Vopc 0x54 Vopc, COMPARE;
    VCmpGeF32 "v_cmp_ge_f32" Vopc 0x46 Vopc, COMPARE;
    VCmpxGeF32 "v_cmpx_ge_f32" Vopc 0x56 Vopc, COMPARE;
    VCmpEqU64 "v_cmp_eq_u64" Vopc 0xea Vopc64, NONE;
    VCmpNeU64 "v_cmp_ne_u64" Vopc 0xed Vopc64, NONE;
}

/// First VOP3 opcode of the VOP2 instructions' e64 forms.
pub const VOP3_FROM_VOP2: u16 = 0x100;
/// First VOP3 opcode of the VOP1 instructions' e64 forms.
pub const VOP3_FROM_VOP1: u16 = 0x140;

impl Op {
    /// This opcode's table row.
    pub fn info(self) -> &'static OpInfo {
        &OPS[self as usize]
    }

    /// The mnemonic without encoding suffix.
    pub fn name(self) -> &'static str {
        self.info().name
    }

    /// Looks up a mnemonic (without `_e32`/`_e64`).
    pub fn by_name(name: &str) -> Option<Op> {
        ALL_OPS.iter().copied().find(|op| op.name() == name)
    }

    /// The instruction has a VOP3 (`_e64`) form besides its native one.
    pub fn has_e64(self) -> bool {
        let info = self.info();
        matches!(info.format, Format::Vop2 | Format::Vopc)
            || (info.format == Format::Vop1 && info.sig != ReadLane)
    }

    /// The VOP3 opcode of this instruction's e64 form (or its native VOP3 opcode).
    pub fn vop3_code(self) -> Option<u16> {
        let info = self.info();
        match info.format {
            Format::Vop3 => Some(info.code),
            Format::Vopc => Some(info.code),
            Format::Vop2 => Some(VOP3_FROM_VOP2 + info.code),
            Format::Vop1 if self.has_e64() => Some(VOP3_FROM_VOP1 + info.code),
            _ => None,
        }
    }

    /// The VOP3 encoding of this instruction writes a carry-out SGPR pair in bits \[14:8\]
    /// (the VOP3b layout) instead of the `abs` bits.
    pub fn is_vop3b(self) -> bool {
        matches!(self.info().sig, Carry | CarryIn | MadU64)
    }

    /// The opcode for a native (format, opcode) pair.
    pub fn from_native(format: Format, code: u16) -> Option<Op> {
        ALL_OPS
            .iter()
            .copied()
            .find(|op| op.info().format == format && op.info().code == code)
    }

    /// The opcode encoded by a VOP3 opcode number (native VOP3 or an e64 form); the flag is
    /// true for e64 forms of VOP1/VOP2/VOPC instructions.
    pub fn from_vop3(code: u16) -> Option<(Op, bool)> {
        ALL_OPS.iter().copied().find_map(|op| {
            let e64 = op.info().format != Format::Vop3;
            (op.vop3_code() == Some(code)).then_some((op, e64))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn table_is_consistent() {
        assert_eq!(OPS.len(), ALL_OPS.len());
        let mut native = HashSet::new();
        let mut vop3 = HashSet::new();
        for &op in ALL_OPS {
            assert_eq!(Op::by_name(op.name()), Some(op));
            assert!(native.insert((op.info().format, op.info().code)), "{op:?}");
            if let Some(c) = op.vop3_code() {
                assert!(vop3.insert(c), "{op:?} VOP3 {c:#x}");
            }
        }
    }
}
