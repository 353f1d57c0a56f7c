//! The VALU's operands over its four quarters: the VGPR rows its three sources name, the
//! lanes of the quarter it reads, the scalar sources copied into every lane, the mask input,
//! and the four dwords of the 64-bit operations on the three read ports.

use crate::hdl::k;
use crate::isa::insn_model::format;
use crate::valu::QUARTER;
use rust_hdl::prelude::*;

/// Feeds the VALU ([`crate::valu`]'s contract) from the VGPR file and the scalar read ports.
///
/// In the issue cycle (`issue`, the VALU's quarter 0) the sources are the decoder's fields:
/// `src0` (a VGPR for codes 256..=511, else the scalar `s0` of read port 0) and `src1` (the
/// VOP3 code, or in the 32-bit encodings always the VGPR `vsrc1`, with the scalar `s1` of
/// read port 1) and the third, `c`: the VOP3 `src2` (a VGPR, or the 32-bit scalar read port 2
/// resolves: `s2_wide` is low), or `v_mac_f32`'s destination VGPR (both encodings), whose old
/// value it adds. They are held at the edge for quarters 1..3 (`busy`), with the wavefront's
/// VGPR slot and context, which the write-back also uses (until the next issue). The VGPR
/// read ports address the cycle's rows; `a`/`b` are the quarter's 16 lanes of the row, or the
/// scalar in every lane. `mask_in` is VCC, or for the `_e64` forms of `v_cndmask_b32`,
/// `v_addc_u32`, `v_subb_u32` and `v_subbrev_u32` the pair read port 2 resolves from `src2`.
///
/// The 64-bit operations take the dwords of the VALU's table of 64-bit operands
/// ([`crate::valu`]) from the same three VGPR read ports, a port whose own source is a scalar
/// reading a pair's second row, and their 64-bit scalars as pairs from the scalar read ports
/// (`s0_wide`, `s1_wide`, `s2_wide`):
///
/// | operation | port `a` | port `b` | port `c` | `d` from |
/// |---|---|---|---|---|
/// | `v_lshlrev_b64` | `src0` | `src1` | `src1` + 1 | port `c`, or `s1` \[63:32\] |
/// | `v_mad_u64_u32` | `src0`, or `src2` + 1 when `src0` is a scalar | `src1`, or `src2` + 1 when only `src1` is | `src2` | that port, or `s2` \[63:32\] |
/// | `v_cmp_*_{i64,u64}` | `src0`, or `src1` + 1 when `src0` is a scalar | `src1` | `src0` + 1 (`c`, else `s0` \[63:32\]) | port `a`, or `s1` \[63:32\] |
///
/// A 64-bit operation with four VGPR dwords (`v_mad_u64_u32` of three VGPRs, a compare of
/// two VGPR pairs) needs a fourth row: the top refuses it before it runs
/// ([`crate::cu_top::supported::valu_supported`]).
#[derive(LogicBlock)]
pub struct ValuOperands {
    /// Core clock.
    pub clock: Signal<In, Clock>,
    /// A VALU instruction issues this cycle.
    pub issue: Signal<In, Bit>,
    /// The VALU reads quarters 1..3 of the held instruction.
    pub busy: Signal<In, Bit>,
    /// The quarter the VALU reads this cycle.
    pub quarter: Signal<In, Bits<2>>,
    /// The decoder's format code (issue cycle).
    pub format: Signal<In, Bits<4>>,
    /// The decoder's opcode (issue cycle).
    pub opcode: Signal<In, Bits<10>>,
    /// The decoder's `src0` (issue cycle).
    pub src0: Signal<In, Bits<9>>,
    /// The decoder's `src1` (issue cycle).
    pub src1: Signal<In, Bits<9>>,
    /// The decoder's `src2` (issue cycle).
    pub src2: Signal<In, Bits<9>>,
    /// The decoder's VGPR destination (issue cycle).
    pub dst: Signal<In, Bits<8>>,
    /// The issuing wavefront's VGPR slot.
    pub slot: Signal<In, Bits<8>>,
    /// The issuing context.
    pub ctx: Signal<In, Bits<8>>,
    /// Read port 0's value (`src0` as a scalar; a pair when `s0_wide`).
    pub s0: Signal<In, Bits<64>>,
    /// Read port 1's value (`src1` as a scalar; a pair when `s1_wide`).
    pub s1: Signal<In, Bits<64>>,
    /// The issuing context's VCC.
    pub vcc: Signal<In, Bits<64>>,
    /// Read port 2's value (`src2`: a pair when `s2_wide`, else a scalar in bits \[31:0\]).
    pub s2: Signal<In, Bits<64>>,
    /// Read port 2 reads a pair: the issuing instruction takes its mask from `src2`, or
    /// `v_mad_u64_u32`'s scalar addend.
    pub s2_wide: Signal<Out, Bit>,
    /// Read port 0 reads a pair: a 64-bit compare's scalar `src0`.
    pub s0_wide: Signal<Out, Bit>,
    /// Read port 1 reads a pair: the scalar 64-bit `src1` of a compare or `v_lshlrev_b64`.
    pub s1_wide: Signal<Out, Bit>,
    /// VGPR read port `a`'s row.
    pub a_row: [Signal<In, Bits<32>>; 64],
    /// VGPR read port `b`'s row.
    pub b_row: [Signal<In, Bits<32>>; 64],
    /// VGPR read port `c`'s row.
    pub c_row: [Signal<In, Bits<32>>; 64],
    /// VGPR read port `a`'s slot.
    pub a_slot: Signal<Out, Bits<8>>,
    /// VGPR read port `a`'s register.
    pub a_reg: Signal<Out, Bits<8>>,
    /// VGPR read port `b`'s slot.
    pub b_slot: Signal<Out, Bits<8>>,
    /// VGPR read port `b`'s register.
    pub b_reg: Signal<Out, Bits<8>>,
    /// VGPR read port `c`'s slot.
    pub c_slot: Signal<Out, Bits<8>>,
    /// VGPR read port `c`'s register.
    pub c_reg: Signal<Out, Bits<8>>,
    /// The VALU's `a`: `src0` of the quarter's lanes.
    pub a: [Signal<Out, Bits<32>>; QUARTER],
    /// The VALU's `b`: `src1` of the quarter's lanes.
    pub b: [Signal<Out, Bits<32>>; QUARTER],
    /// The VALU's `c`: `src2` (or `v_mac_f32`'s old destination) of the quarter's lanes.
    pub c: [Signal<Out, Bits<32>>; QUARTER],
    /// The VALU's `d`: a 64-bit operation's fourth dword of the quarter's lanes.
    pub d: [Signal<Out, Bits<32>>; QUARTER],
    /// The VALU's `mask_in` (issue cycle).
    pub mask_in: Signal<Out, Bits<64>>,
    /// The held instruction's VGPR slot (its write-back).
    pub wb_slot: Signal<Out, Bits<8>>,
    /// The held instruction's context (its scalar write-back).
    pub wb_ctx: Signal<Out, Bits<8>>,
    /// The cycle's sources: a VGPR, its number, the scalar.
    av: Signal<Local, Bit>,
    areg: Signal<Local, Bits<8>>,
    aval: Signal<Local, Bits<32>>,
    bv: Signal<Local, Bit>,
    breg: Signal<Local, Bits<8>>,
    bval: Signal<Local, Bits<32>>,
    cv: Signal<Local, Bit>,
    creg: Signal<Local, Bits<8>>,
    cval: Signal<Local, Bits<32>>,
    /// `d` comes from port `a`, `b` or `c`'s row, else it is `dval`.
    da: Signal<Local, Bit>,
    db: Signal<Local, Bit>,
    dc: Signal<Local, Bit>,
    dval: Signal<Local, Bits<32>>,
    /// The issuing instruction is `v_mac_f32`.
    mac: Signal<Local, Bit>,
    /// It is a 64-bit compare, `v_lshlrev_b64`, `v_mad_u64_u32`.
    cmp64: Signal<Local, Bit>,
    shl64: Signal<Local, Bit>,
    mad64: Signal<Local, Bit>,
    cur_slot: Signal<Local, Bits<8>>,
    /// The held sources.
    r_av: DFF<Bit>,
    r_areg: DFF<Bits<8>>,
    r_aval: DFF<Bits<32>>,
    r_bv: DFF<Bit>,
    r_breg: DFF<Bits<8>>,
    r_bval: DFF<Bits<32>>,
    r_cv: DFF<Bit>,
    r_creg: DFF<Bits<8>>,
    r_cval: DFF<Bits<32>>,
    r_da: DFF<Bit>,
    r_db: DFF<Bit>,
    r_dc: DFF<Bit>,
    r_dval: DFF<Bits<32>>,
    r_slot: DFF<Bits<8>>,
    r_ctx: DFF<Bits<8>>,
    f_vop3: Constant<Bits<4>>,
    f_vop2: Constant<Bits<4>>,
    /// `v_mac_f32`'s opcode in VOP2 and in VOP3.
    mac_ops: [Constant<Bits<10>>; 2],
    /// The `_e64` opcodes whose mask comes from `src2`.
    mask_ops: [Constant<Bits<10>>; 4],
    f_vopc: Constant<Bits<4>>,
    /// `opcode[9:4]` of the 64-bit compares (VOPC 0xE0..=0xEF, VOP3 0x0E0..=0x0EF).
    cmp64_page: Constant<Bits<6>>,
    /// `v_lshlrev_b64`'s and `v_mad_u64_u32`'s VOP3 opcodes.
    shl64_op: Constant<Bits<10>>,
    mad64_op: Constant<Bits<10>>,
    one8: Constant<Bits<8>>,
    z32: Constant<Bits<32>>,
    kq: [Constant<Bits<2>>; 4],
}

impl Default for ValuOperands {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            issue: Default::default(),
            busy: Default::default(),
            quarter: Default::default(),
            format: Default::default(),
            opcode: Default::default(),
            src0: Default::default(),
            src1: Default::default(),
            src2: Default::default(),
            dst: Default::default(),
            slot: Default::default(),
            ctx: Default::default(),
            s0: Default::default(),
            s1: Default::default(),
            vcc: Default::default(),
            s2: Default::default(),
            s2_wide: Default::default(),
            s0_wide: Default::default(),
            s1_wide: Default::default(),
            a_row: array_init::array_init(|_| Default::default()),
            b_row: array_init::array_init(|_| Default::default()),
            c_row: array_init::array_init(|_| Default::default()),
            a_slot: Default::default(),
            a_reg: Default::default(),
            b_slot: Default::default(),
            b_reg: Default::default(),
            c_slot: Default::default(),
            c_reg: Default::default(),
            a: array_init::array_init(|_| Default::default()),
            b: array_init::array_init(|_| Default::default()),
            c: array_init::array_init(|_| Default::default()),
            d: array_init::array_init(|_| Default::default()),
            mask_in: Default::default(),
            wb_slot: Default::default(),
            wb_ctx: Default::default(),
            av: Default::default(),
            areg: Default::default(),
            aval: Default::default(),
            bv: Default::default(),
            breg: Default::default(),
            bval: Default::default(),
            cv: Default::default(),
            creg: Default::default(),
            cval: Default::default(),
            da: Default::default(),
            db: Default::default(),
            dc: Default::default(),
            dval: Default::default(),
            mac: Default::default(),
            cmp64: Default::default(),
            shl64: Default::default(),
            mad64: Default::default(),
            cur_slot: Default::default(),
            r_av: Default::default(),
            r_areg: Default::default(),
            r_aval: Default::default(),
            r_bv: Default::default(),
            r_breg: Default::default(),
            r_bval: Default::default(),
            r_cv: Default::default(),
            r_creg: Default::default(),
            r_cval: Default::default(),
            r_da: Default::default(),
            r_db: Default::default(),
            r_dc: Default::default(),
            r_dval: Default::default(),
            r_slot: Default::default(),
            r_ctx: Default::default(),
            f_vop3: k(format::VOP3.into()),
            f_vop2: k(format::VOP2.into()),
            mac_ops: [k(0x16), k(0x116)],
            // v_cndmask_b32, v_addc_u32, v_subb_u32, v_subbrev_u32 as VOP3 opcodes.
            mask_ops: [k(0x100), k(0x11C), k(0x11D), k(0x11E)],
            f_vopc: k(format::VOPC.into()),
            cmp64_page: k(0x0E),
            shl64_op: k(0x28F),
            mad64_op: k(0x1E8),
            one8: k(1),
            z32: k(0),
            kq: array_init::array_init(|q| k(q as u64)),
        }
    }
}

impl Logic for ValuOperands {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, r_av, r_areg, r_aval, r_bv, r_breg, r_bval, r_cv, r_creg, r_cval, r_da,
            r_db, r_dc, r_dval, r_slot, r_ctx
        );
        // The issue cycle's sources, from the fields.
        self.av.next = self.src0.val().get_bit(8);
        self.areg.next = self.src0.val().get_bits::<8>(0);
        self.aval.next = self.s0.val().get_bits::<32>(0);
        self.bv.next = self.src1.val().get_bit(8) | (self.format.val() != self.f_vop3.val());
        self.breg.next = self.src1.val().get_bits::<8>(0);
        self.bval.next = self.s1.val().get_bits::<32>(0);
        self.mac.next = ((self.format.val() == self.f_vop2.val())
            & (self.opcode.val() == self.mac_ops[0].val()))
            | ((self.format.val() == self.f_vop3.val())
                & (self.opcode.val() == self.mac_ops[1].val()));
        self.cv.next = self.src2.val().get_bit(8) | self.mac.val();
        self.creg.next = self.src2.val().get_bits::<8>(0);
        if self.mac.val() {
            self.creg.next = self.dst.val();
        }
        self.cval.next = self.s2.val().get_bits::<32>(0);
        self.cur_slot.next = self.slot.val();
        self.mask_in.next = self.vcc.val();
        self.s2_wide.next = false;
        if self.format.val() == self.f_vop3.val() {
            for i in 0..4 {
                if self.opcode.val() == self.mask_ops[i].val() {
                    self.mask_in.next = self.s2.val();
                    self.s2_wide.next = true;
                }
            }
        }
        // The 64-bit operations: the pairs' second rows on the free ports, the scalars' high
        // dwords (the table above).
        self.cmp64.next = ((self.format.val() == self.f_vopc.val())
            | (self.format.val() == self.f_vop3.val()))
            & (self.opcode.val().get_bits::<6>(4) == self.cmp64_page.val());
        self.shl64.next =
            (self.format.val() == self.f_vop3.val()) & (self.opcode.val() == self.shl64_op.val());
        self.mad64.next =
            (self.format.val() == self.f_vop3.val()) & (self.opcode.val() == self.mad64_op.val());
        self.da.next = false;
        self.db.next = false;
        self.dc.next = false;
        self.dval.next = self.z32.val();
        self.s0_wide.next = false;
        self.s1_wide.next = false;
        if self.shl64.val() {
            self.cv.next = false;
            self.creg.next = self.src1.val().get_bits::<8>(0) + self.one8.val();
            self.dc.next = self.bv.val();
            self.dval.next = self.s1.val().get_bits::<32>(32);
            self.s1_wide.next = !self.bv.val();
        }
        if self.mad64.val() {
            self.dval.next = self.s2.val().get_bits::<32>(32);
            self.s2_wide.next = !self.src2.val().get_bit(8);
            if !self.av.val() {
                self.areg.next = self.src2.val().get_bits::<8>(0) + self.one8.val();
                self.da.next = self.src2.val().get_bit(8);
            } else if !self.bv.val() {
                self.breg.next = self.src2.val().get_bits::<8>(0) + self.one8.val();
                self.db.next = self.src2.val().get_bit(8);
            }
        }
        if self.cmp64.val() {
            self.cv.next = self.av.val();
            self.creg.next = self.src0.val().get_bits::<8>(0) + self.one8.val();
            self.cval.next = self.s0.val().get_bits::<32>(32);
            self.s0_wide.next = !self.av.val();
            self.dval.next = self.s1.val().get_bits::<32>(32);
            self.s1_wide.next = !self.bv.val();
            if !self.av.val() {
                self.areg.next = self.src1.val().get_bits::<8>(0) + self.one8.val();
                self.da.next = self.bv.val();
            }
        }
        // Quarters 1..3: the held ones.
        if self.busy.val() {
            self.av.next = self.r_av.q.val();
            self.areg.next = self.r_areg.q.val();
            self.aval.next = self.r_aval.q.val();
            self.bv.next = self.r_bv.q.val();
            self.breg.next = self.r_breg.q.val();
            self.bval.next = self.r_bval.q.val();
            self.cv.next = self.r_cv.q.val();
            self.creg.next = self.r_creg.q.val();
            self.cval.next = self.r_cval.q.val();
            self.da.next = self.r_da.q.val();
            self.db.next = self.r_db.q.val();
            self.dc.next = self.r_dc.q.val();
            self.dval.next = self.r_dval.q.val();
            self.cur_slot.next = self.r_slot.q.val();
        }
        self.r_av.d.next = self.r_av.q.val();
        self.r_areg.d.next = self.r_areg.q.val();
        self.r_aval.d.next = self.r_aval.q.val();
        self.r_bv.d.next = self.r_bv.q.val();
        self.r_breg.d.next = self.r_breg.q.val();
        self.r_bval.d.next = self.r_bval.q.val();
        self.r_cv.d.next = self.r_cv.q.val();
        self.r_creg.d.next = self.r_creg.q.val();
        self.r_cval.d.next = self.r_cval.q.val();
        self.r_da.d.next = self.r_da.q.val();
        self.r_db.d.next = self.r_db.q.val();
        self.r_dc.d.next = self.r_dc.q.val();
        self.r_dval.d.next = self.r_dval.q.val();
        self.r_slot.d.next = self.r_slot.q.val();
        self.r_ctx.d.next = self.r_ctx.q.val();
        if self.issue.val() & !self.busy.val() {
            self.r_av.d.next = self.av.val();
            self.r_areg.d.next = self.areg.val();
            self.r_aval.d.next = self.aval.val();
            self.r_bv.d.next = self.bv.val();
            self.r_breg.d.next = self.breg.val();
            self.r_bval.d.next = self.bval.val();
            self.r_cv.d.next = self.cv.val();
            self.r_creg.d.next = self.creg.val();
            self.r_cval.d.next = self.cval.val();
            self.r_da.d.next = self.da.val();
            self.r_db.d.next = self.db.val();
            self.r_dc.d.next = self.dc.val();
            self.r_dval.d.next = self.dval.val();
            self.r_slot.d.next = self.slot.val();
            self.r_ctx.d.next = self.ctx.val();
        }
        self.a_slot.next = self.cur_slot.val();
        self.b_slot.next = self.cur_slot.val();
        self.a_reg.next = self.areg.val();
        self.b_reg.next = self.breg.val();
        self.c_slot.next = self.cur_slot.val();
        self.c_reg.next = self.creg.val();
        self.wb_slot.next = self.r_slot.q.val();
        self.wb_ctx.next = self.r_ctx.q.val();
        // The quarter's lanes of the rows, or the scalars.
        for i in 0..QUARTER {
            self.a[i].next = self.aval.val();
            self.b[i].next = self.bval.val();
            self.c[i].next = self.cval.val();
            self.d[i].next = self.dval.val();
        }
        for q in 0..4 {
            if self.quarter.val() == self.kq[q].val() {
                for i in 0..QUARTER {
                    if self.av.val() {
                        self.a[i].next = self.a_row[16 * q + i].val();
                    }
                    if self.bv.val() {
                        self.b[i].next = self.b_row[16 * q + i].val();
                    }
                    if self.cv.val() {
                        self.c[i].next = self.c_row[16 * q + i].val();
                    }
                    if self.da.val() {
                        self.d[i].next = self.a_row[16 * q + i].val();
                    }
                    if self.db.val() {
                        self.d[i].next = self.b_row[16 * q + i].val();
                    }
                    if self.dc.val() {
                        self.d[i].next = self.c_row[16 * q + i].val();
                    }
                }
            }
        }
    }
}
