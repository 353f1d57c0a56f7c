//! The VALU's instruction decode: the native shape of (format, opcode) as a class and an
//! 8-bit opcode, then one control bit per datapath choice, each a 1024-entry truth table
//! indexed by `{class, opcode}`.

use crate::hdl::k;
use rust_hdl::prelude::*;

/// Shape classes of the table index: VOPC (also VOP3 opcodes 0..=0xFF), VOP2 (VOP3
/// 0x100..=0x13F), VOP1 (VOP3 0x140..=0x1BF), VOP3-only.
pub mod class {
    /// Vector compares.
    pub const VOPC: usize = 0;
    /// Two sources.
    pub const VOP2: usize = 1;
    /// One source.
    pub const VOP1: usize = 2;
    /// VOP3-only opcodes (their low 8 bits; the table requires `opcode[9:8]` = 1 for the low
    /// bytes 0xC0..=0xFF, 2 for the others).
    pub const VOP3: usize = 3;
}

/// Control bit numbers: the order of [`control`]'s array and of the decoder's outputs.
pub mod bit {
    /// The instruction is in the block's subset.
    pub const LEGAL: usize = 0;
    /// The results go to the VGPR `dst`.
    pub const WRITES_VGPR: usize = 1;
    /// An SGPR is written at the end.
    pub const SGPR_WE: usize = 2;
    /// The SGPR write is a 64-bit lane mask.
    pub const SGPR_WIDE: usize = 3;
    /// `v_readfirstlane_b32`.
    pub const FIRST: usize = 4;
    /// `v_cmpx_*`: the mask also goes to EXEC.
    pub const CMPX: usize = 5;
    /// The adder takes `b` and `a` swapped (the `rev` forms).
    pub const SWAP: usize = 6;
    /// The adder subtracts.
    pub const SUB: usize = 7;
    /// The adder takes the lane's mask bit as carry / borrow in.
    pub const USE_CIN: usize = 8;
    /// Compares, min/max and right shifts are signed.
    pub const SIGNED: usize = 9;
    /// The multiplier's operands are cut to 24 bits.
    pub const U24: usize = 10;
    /// The result is the adder's.
    pub const SEL_ADD: usize = 11;
    /// The result is `!a`.
    pub const SEL_NOT: usize = 12;
    /// The result is `bit ? b : a`.
    pub const SEL_CND: usize = 13;
    /// The result is `a & b`.
    pub const SEL_AND: usize = 14;
    /// The result is `a | b`.
    pub const SEL_OR: usize = 15;
    /// The result is `a ^ b`.
    pub const SEL_XOR: usize = 16;
    /// The result is `b << a[4:0]`.
    pub const SEL_SHL: usize = 17;
    /// The result is `b >> a[4:0]` (arithmetic when signed).
    pub const SEL_SHR: usize = 18;
    /// The result is the minimum.
    pub const SEL_MIN: usize = 19;
    /// The result is the maximum.
    pub const SEL_MAX: usize = 20;
    /// The result is the product's low half.
    pub const SEL_LO: usize = 21;
    /// The result is the product's high half.
    pub const SEL_HI: usize = 22;
    /// A compare holds when `a < b`.
    pub const CMP_LT: usize = 23;
    /// A compare holds when `a == b`.
    pub const CMP_EQ: usize = 24;
    /// A compare holds when `a > b`.
    pub const CMP_GT: usize = 25;
    /// The lane's mask bit is the compare (else the carry / borrow).
    pub const FLAG_CMP: usize = 26;
    /// A compare holds when unordered (an fp32 NaN operand).
    pub const CMP_UN: usize = 27;
    /// The result is the fp32 unit's; the multiplier takes the significands. With none of
    /// the fp32 selects below, the adder's (`SUB`, `SWAP`, `SIGNED` as for the integers).
    pub const FP: usize = 28;
    /// The fp32 result is the product.
    pub const FP_MUL: usize = 29;
    /// The fp32 result is the minimum.
    pub const FP_MIN: usize = 30;
    /// The fp32 result is the maximum.
    pub const FP_MAX: usize = 31;
    /// The adder adds the rounded product and `c` (`v_mac_f32`, `v_mad_f32`).
    pub const FP_MAD: usize = 32;
    /// The adder adds the exact product and `c` (`v_fma_f32`).
    pub const FP_FMA: usize = 33;
    /// The adder converts `a` from an integer.
    pub const FP_INT: usize = 34;
    /// The result is `a` converted to an integer.
    pub const FP_TOINT: usize = 35;
    /// The lane's mask bit is the fp32 compare.
    pub const FP_CMP: usize = 36;
    /// The VOP3 source modifiers apply to `a` and `b`.
    pub const MODS: usize = 37;
    /// They apply to `c` too.
    pub const MODS_C: usize = 38;
    /// The result is `a >> b[4:0]` cut to its `c[4:0]` low bits (`v_bfe_u32`).
    pub const SEL_BFE: usize = 39;
    /// The result is a VGPR pair (`v_lshlrev_b64`, `v_mad_u64_u32`).
    pub const PAIR: usize = 40;
    /// The compare is the 64-bit one of (`a`, `c`) and (`b`, `d`).
    pub const WIDE: usize = 41;
    /// The result is (`b`, `d`) `<< a[5:0]` (`v_lshlrev_b64`).
    pub const SEL_SHL64: usize = 42;
    /// The result is `a · b` + (`c`, `d`), the mask bit its carry (`v_mad_u64_u32`).
    pub const SEL_MAD64: usize = 43;
}

/// The number of control bits.
pub const CONTROLS: usize = 44;

/// The control bits of `(class, op)` (all clear outside the subset).
pub fn control(cls: usize, op: usize) -> [bool; CONTROLS] {
    let mut c = [false; CONTROLS];
    let mut set = |bits: &[usize]| bits.iter().for_each(|&b| c[b] = true);
    let vgpr = [bit::LEGAL, bit::WRITES_VGPR];
    let mask = [bit::LEGAL, bit::SGPR_WE, bit::SGPR_WIDE];
    match (cls, op) {
        (class::VOP1, 0x01) => set(&vgpr),
        (class::VOP1, 0x02) => set(&[bit::LEGAL, bit::SGPR_WE, bit::FIRST]),
        (class::VOP1, 0x2B) => set(&[bit::LEGAL, bit::WRITES_VGPR, bit::SEL_NOT]),
        (class::VOP2, 0x00) => set(&[bit::LEGAL, bit::WRITES_VGPR, bit::SEL_CND]),
        (class::VOP2, 0x08) => set(&[bit::LEGAL, bit::WRITES_VGPR, bit::SEL_LO, bit::U24]),
        (class::VOP2, 0x0C..=0x0F) => {
            set(&vgpr);
            set(&[bit::SUB, [bit::SEL_MIN, bit::SEL_MAX][op & 1]]);
            if op < 0x0E {
                set(&[bit::SIGNED]);
            }
        }
        (class::VOP2, 0x10..=0x12) => {
            set(&vgpr);
            set(&[[bit::SEL_SHR, bit::SEL_SHR, bit::SEL_SHL][op - 0x10]]);
            if op == 0x11 {
                set(&[bit::SIGNED]);
            }
        }
        (class::VOP2, 0x13..=0x15) => {
            set(&vgpr);
            set(&[[bit::SEL_AND, bit::SEL_OR, bit::SEL_XOR][op - 0x13]]);
        }
        (class::VOP2, 0x19..=0x1E) => {
            set(&vgpr);
            set(&mask);
            set(&[bit::SEL_ADD]);
            if op != 0x19 && op != 0x1C {
                set(&[bit::SUB]);
            }
            if op == 0x1B || op == 0x1E {
                set(&[bit::SWAP]);
            }
            if op >= 0x1C {
                set(&[bit::USE_CIN]);
            }
        }
        (class::VOPC, 0xC0..=0xDF) => {
            set(&mask);
            set(&[bit::SUB]);
            int_compare(op, &mut set);
            if op & 0x10 != 0 {
                set(&[bit::CMPX]);
            }
        }
        (class::VOP3, 0x85) => set(&[bit::LEGAL, bit::WRITES_VGPR, bit::SEL_LO]),
        (class::VOP3, 0x86) => set(&[bit::LEGAL, bit::WRITES_VGPR, bit::SEL_HI]),
        (class::VOP3, 0xC8) => set(&[bit::LEGAL, bit::WRITES_VGPR, bit::SEL_BFE, bit::MODS_C]),
        (class::VOPC, 0xE0..=0xEF) | (class::VOP3, 0xE8 | 0x8F) => wide_control(cls, op, &mut set),
        _ => fp_control(cls, op, &mut set),
    }
    // Source modifiers: every operation but the carry forms, `v_readfirstlane_b32` and the
    // 64-bit operations.
    let unmodified = matches!((cls, op), (class::VOP2, 0x19..=0x1E) | (class::VOP1, 0x02))
        || c[bit::PAIR]
        || c[bit::WIDE];
    if c[bit::LEGAL] && !unmodified {
        c[bit::MODS] = true;
    }
    c
}

/// The control bits of an integer compare's predicate: the mask bit is the compare, which
/// holds when less, equal, greater by opcode bits \[2:0\], signed when bit 3 is clear.
fn int_compare(op: usize, set: &mut impl FnMut(&[usize])) {
    set(&[bit::FLAG_CMP]);
    for (i, b) in [bit::CMP_LT, bit::CMP_EQ, bit::CMP_GT]
        .into_iter()
        .enumerate()
    {
        if op >> i & 1 == 1 {
            set(&[b]);
        }
    }
    if op & 8 == 0 {
        set(&[bit::SIGNED]);
    }
}

/// The control bits of the 64-bit operations: the compares `v_cmp_*_{i64,u64}` (VOPC
/// 0xE0..=0xEF), `v_mad_u64_u32` (VOP3 0x1E8) and `v_lshlrev_b64` (VOP3 0x28F).
fn wide_control(cls: usize, op: usize, set: &mut impl FnMut(&[usize])) {
    let pair = [bit::LEGAL, bit::WRITES_VGPR, bit::PAIR];
    match cls {
        class::VOPC => {
            set(&[bit::LEGAL, bit::SGPR_WE, bit::SGPR_WIDE, bit::WIDE]);
            int_compare(op, set);
        }
        _ if op == 0xE8 => {
            set(&[&pair[..], &[bit::SEL_MAD64, bit::SGPR_WE, bit::SGPR_WIDE]].concat())
        }
        _ => set(&[&pair[..], &[bit::SEL_SHL64]].concat()),
    }
}

/// The control bits of the fp32 operations.
fn fp_control(cls: usize, op: usize, set: &mut impl FnMut(&[usize])) {
    let fp = [bit::LEGAL, bit::WRITES_VGPR, bit::FP];
    match (cls, op) {
        (class::VOP1, 0x05..=0x08) => {
            set(&fp);
            set(&[[bit::FP_INT, bit::FP_TOINT][(op - 5) / 2]]);
            if op == 0x05 || op == 0x08 {
                set(&[bit::SIGNED]);
            }
        }
        (class::VOP2, 0x01..=0x03) => {
            set(&fp);
            if op >= 2 {
                set(&[bit::SUB]);
            }
            if op == 3 {
                set(&[bit::SWAP]);
            }
        }
        (class::VOP2, 0x05) => set(&[&fp[..], &[bit::FP_MUL]].concat()),
        (class::VOP2, 0x0A) => set(&[&fp[..], &[bit::FP_MIN]].concat()),
        (class::VOP2, 0x0B) => set(&[&fp[..], &[bit::FP_MAX]].concat()),
        (class::VOP2, 0x16) => set(&[&fp[..], &[bit::FP_MAD]].concat()),
        (class::VOP3, 0xC1) => set(&[&fp[..], &[bit::FP_MAD, bit::MODS_C]].concat()),
        (class::VOP3, 0xCB) => set(&[&fp[..], &[bit::FP_FMA, bit::MODS_C]].concat()),
        (class::VOPC, 0x40..=0x5F) => {
            set(&[
                bit::LEGAL,
                bit::SGPR_WE,
                bit::SGPR_WIDE,
                bit::FLAG_CMP,
                bit::FP_CMP,
            ]);
            let preds = [bit::CMP_LT, bit::CMP_EQ, bit::CMP_GT, bit::CMP_UN];
            for (i, b) in preds.into_iter().enumerate() {
                if op >> i & 1 == 1 {
                    set(&[b]);
                }
            }
            if op & 0x10 != 0 {
                set(&[bit::CMPX]);
            }
        }
        _ => {}
    }
}

/// The truth table of control bit `b`.
fn table(b: usize) -> Constant<Bits<1024>> {
    let mut t = Bits::<1024>::default();
    for index in 0..1024usize {
        if control(index >> 8, index & 0xFF)[b] {
            t = t.replace_bit(index, true);
        }
    }
    Constant::new(t)
}

/// The decode: the table index from (format, opcode), the control bits (outputs named as
/// in [`bit`]), and the SGPR code of the instruction's scalar write.
#[derive(LogicBlock)]
pub struct ValuControl {
    /// Format code (7 VOP1, 8 VOP2, 9 VOPC, 10 VOP3).
    pub format: Signal<In, Bits<4>>,
    /// Opcode.
    pub opcode: Signal<In, Bits<10>>,
    /// The `dst` field, bits \[6:0\] (an SGPR code where the decode uses it).
    pub dst: Signal<In, Bits<7>>,
    /// The `sdst` field.
    pub sdst: Signal<In, Bits<7>>,
    /// The instruction is in the block's subset.
    pub legal: Signal<Out, Bit>,
    /// The results go to the VGPR `dst`.
    pub writes_vgpr: Signal<Out, Bit>,
    /// An SGPR is written at the end.
    pub sgpr_we: Signal<Out, Bit>,
    /// The SGPR write is a 64-bit lane mask.
    pub sgpr_wide: Signal<Out, Bit>,
    /// `v_cmpx_*`: the mask also goes to EXEC.
    pub cmpx: Signal<Out, Bit>,
    /// The adder takes `b` and `a` swapped (the `rev` forms).
    pub swap: Signal<Out, Bit>,
    /// The adder subtracts.
    pub sub: Signal<Out, Bit>,
    /// The adder takes the lane's mask bit as carry / borrow in.
    pub use_cin: Signal<Out, Bit>,
    /// Compares, min/max and right shifts are signed.
    pub is_signed: Signal<Out, Bit>,
    /// The multiplier's operands are cut to 24 bits.
    pub u24: Signal<Out, Bit>,
    /// The result is the adder's.
    pub sel_add: Signal<Out, Bit>,
    /// The result is `!a`.
    pub sel_not: Signal<Out, Bit>,
    /// The result is `bit ? b : a`.
    pub sel_cnd: Signal<Out, Bit>,
    /// The result is `a & b`.
    pub sel_and: Signal<Out, Bit>,
    /// The result is `a | b`.
    pub sel_or: Signal<Out, Bit>,
    /// The result is `a ^ b`.
    pub sel_xor: Signal<Out, Bit>,
    /// The result is `b << a[4:0]`.
    pub sel_shl: Signal<Out, Bit>,
    /// The result is `b >> a[4:0]` (arithmetic when signed).
    pub sel_shr: Signal<Out, Bit>,
    /// The result is the minimum.
    pub sel_min: Signal<Out, Bit>,
    /// The result is the maximum.
    pub sel_max: Signal<Out, Bit>,
    /// The result is the product's low half.
    pub sel_lo: Signal<Out, Bit>,
    /// The result is the product's high half.
    pub sel_hi: Signal<Out, Bit>,
    /// A compare holds when `a < b`.
    pub cmp_lt: Signal<Out, Bit>,
    /// A compare holds when `a == b`.
    pub cmp_eq: Signal<Out, Bit>,
    /// A compare holds when `a > b`.
    pub cmp_gt: Signal<Out, Bit>,
    /// The lane's mask bit is the compare (else the carry / borrow).
    pub flag_cmp: Signal<Out, Bit>,
    /// A compare holds when unordered.
    pub cmp_un: Signal<Out, Bit>,
    /// The result is the fp32 unit's.
    pub fp: Signal<Out, Bit>,
    /// The fp32 result is the product.
    pub fp_mul: Signal<Out, Bit>,
    /// The fp32 result is the minimum.
    pub fp_min: Signal<Out, Bit>,
    /// The fp32 result is the maximum.
    pub fp_max: Signal<Out, Bit>,
    /// The adder adds the rounded product and `c`.
    pub fp_mad: Signal<Out, Bit>,
    /// The adder adds the exact product and `c`.
    pub fp_fma: Signal<Out, Bit>,
    /// The adder converts `a` from an integer.
    pub fp_int: Signal<Out, Bit>,
    /// The result is `a` converted to an integer.
    pub fp_toint: Signal<Out, Bit>,
    /// The lane's mask bit is the fp32 compare.
    pub fp_cmp: Signal<Out, Bit>,
    /// The source modifiers apply to `a` and `b`.
    pub mods: Signal<Out, Bit>,
    /// They apply to `c`.
    pub mods_c: Signal<Out, Bit>,
    /// `v_bfe_u32`: the result is a bit field of `a`.
    pub sel_bfe: Signal<Out, Bit>,
    /// The result is a VGPR pair.
    pub pair: Signal<Out, Bit>,
    /// The compare is 64 bits wide.
    pub wide: Signal<Out, Bit>,
    /// The result is the 64-bit left shift.
    pub sel_shl64: Signal<Out, Bit>,
    /// The result is the 64-bit multiply-add.
    pub sel_mad64: Signal<Out, Bit>,
    /// The SGPR code of the scalar write.
    pub sgpr_dst: Signal<Out, Bits<7>>,
    /// The table index `{class, opcode[7:0]}`.
    index: Signal<Local, Bits<10>>,
    /// The control bits before the VOP3-only range check.
    raw: [Signal<Local, Bit>; CONTROLS],
    /// `opcode[9:8]` of the VOP3-only row the index names.
    page: Signal<Local, Bits<2>>,
    /// A VOP3-only index whose opcode is not its row's (0x1C0..=0x1FF, 0x200..=0x2BF).
    aliased: Signal<Local, Bit>,
    /// The format is a vector ALU one.
    vector: Signal<Local, Bit>,
    /// The index names an instruction of the table (no alias, a vector format).
    ok: Signal<Local, Bit>,
    /// The SGPR code (outputs are assigned once: see [`super`]).
    code: Signal<Local, Bits<7>>,
    /// The truth tables.
    truth: [Constant<Bits<1024>>; CONTROLS],
    /// Format codes VOP1, VOP2, VOPC, VOP3.
    fmt_vop1: Constant<Bits<4>>,
    /// VOP2.
    fmt_vop2: Constant<Bits<4>>,
    /// VOPC.
    fmt_vopc: Constant<Bits<4>>,
    /// VOP3.
    fmt_vop3: Constant<Bits<4>>,
    /// The index's class field per class.
    class_of: [Constant<Bits<10>>; 4],
    /// `0x40`: VOP1's offset in VOP3 opcodes' low byte (0x140).
    vop1_base: Constant<Bits<10>>,
    /// `0xFF`.
    low8: Constant<Bits<10>>,
    /// `opcode[9:8]` of the VOP3-only opcodes 0x200..=0x2BF.
    page2: Constant<Bits<2>>,
    /// `opcode[9:8]` of the VOP3-only opcodes 0x1C0..=0x1FF.
    page1: Constant<Bits<2>>,
    /// VCC's code.
    vcc: Constant<Bits<7>>,
}

impl Default for ValuControl {
    fn default() -> Self {
        use crate::isa::insn_model::format;
        Self {
            format: Default::default(),
            opcode: Default::default(),
            dst: Default::default(),
            sdst: Default::default(),
            legal: Default::default(),
            writes_vgpr: Default::default(),
            sgpr_we: Default::default(),
            sgpr_wide: Default::default(),
            cmpx: Default::default(),
            swap: Default::default(),
            sub: Default::default(),
            use_cin: Default::default(),
            is_signed: Default::default(),
            u24: Default::default(),
            sel_add: Default::default(),
            sel_not: Default::default(),
            sel_cnd: Default::default(),
            sel_and: Default::default(),
            sel_or: Default::default(),
            sel_xor: Default::default(),
            sel_shl: Default::default(),
            sel_shr: Default::default(),
            sel_min: Default::default(),
            sel_max: Default::default(),
            sel_lo: Default::default(),
            sel_hi: Default::default(),
            cmp_lt: Default::default(),
            cmp_eq: Default::default(),
            cmp_gt: Default::default(),
            flag_cmp: Default::default(),
            cmp_un: Default::default(),
            fp: Default::default(),
            fp_mul: Default::default(),
            fp_min: Default::default(),
            fp_max: Default::default(),
            fp_mad: Default::default(),
            fp_fma: Default::default(),
            fp_int: Default::default(),
            fp_toint: Default::default(),
            fp_cmp: Default::default(),
            mods: Default::default(),
            mods_c: Default::default(),
            sel_bfe: Default::default(),
            pair: Default::default(),
            wide: Default::default(),
            sel_shl64: Default::default(),
            sel_mad64: Default::default(),
            sgpr_dst: Default::default(),
            index: Default::default(),
            page: Default::default(),
            raw: array_init::array_init(|_| Default::default()),
            aliased: Default::default(),
            vector: Default::default(),
            ok: Default::default(),
            code: Default::default(),
            truth: array_init::array_init(table),
            fmt_vop1: k(format::VOP1.into()),
            fmt_vop2: k(format::VOP2.into()),
            fmt_vopc: k(format::VOPC.into()),
            fmt_vop3: k(format::VOP3.into()),
            class_of: array_init::array_init(|c| k((c as u64) << 8)),
            vop1_base: k(0x40),
            low8: k(0xFF),
            page2: k(2),
            page1: k(1),
            vcc: k(super::super::VCC.into()),
        }
    }
}

impl Logic for ValuControl {
    #[hdl_gen]
    fn update(&mut self) {
        // VOP3: opcode[9:8] = 0 compares, 1 with opcode[7:6] = 0 VOP2, 1 or 2 VOP1, else
        // VOP3-only; the native formats name their class.
        self.index.next = self.class_of[3].val() | (self.opcode.val() & self.low8.val());
        if self.opcode.val().get_bits::<2>(8) == self.class_of[0].val().get_bits::<2>(8) {
            self.index.next = self.class_of[0].val() | (self.opcode.val() & self.low8.val());
        }
        if (self.opcode.val().get_bits::<2>(8) == self.class_of[1].val().get_bits::<2>(8))
            & !self.opcode.val().get_bit(7)
        {
            self.index.next = self.class_of[1].val() | (self.opcode.val() & self.low8.val());
            if self.opcode.val().get_bit(6) {
                self.index.next = self.class_of[2].val()
                    | ((self.opcode.val() - self.vop1_base.val()) & self.low8.val());
            }
        }
        if (self.opcode.val().get_bits::<2>(8) == self.class_of[1].val().get_bits::<2>(8))
            & self.opcode.val().get_bit(7)
            & !self.opcode.val().get_bit(6)
        {
            self.index.next = self.class_of[2].val()
                | ((self.opcode.val() - self.vop1_base.val()) & self.low8.val());
        }
        if self.format.val() == self.fmt_vop1.val() {
            self.index.next = self.class_of[2].val() | (self.opcode.val() & self.low8.val());
        }
        if self.format.val() == self.fmt_vop2.val() {
            self.index.next = self.class_of[1].val() | (self.opcode.val() & self.low8.val());
        }
        if self.format.val() == self.fmt_vopc.val() {
            self.index.next = self.class_of[0].val() | (self.opcode.val() & self.low8.val());
        }
        // VOP3-only rows: 0x1C0..=0x1FF (low byte 0xC0 and up) and 0x200..=0x2BF.
        self.page.next = self.page2.val();
        if self.opcode.val().get_bit(7) & self.opcode.val().get_bit(6) {
            self.page.next = self.page1.val();
        }
        self.aliased.next = (self.index.val().get_bits::<2>(8)
            == self.class_of[3].val().get_bits::<2>(8))
            & (self.opcode.val().get_bits::<2>(8) != self.page.val());
        self.vector.next = (self.format.val() == self.fmt_vop1.val())
            | (self.format.val() == self.fmt_vop2.val())
            | (self.format.val() == self.fmt_vopc.val())
            | (self.format.val() == self.fmt_vop3.val());
        self.ok.next = !self.aliased.val() & self.vector.val();
        for b in 0..CONTROLS {
            self.raw[b].next = self.truth[b].val().get_bit(self.index.val().index());
        }
        // The outputs in the order of [`bit`] (`raw[i]` is bit `i`).
        self.legal.next = self.raw[0].val() & self.ok.val();
        self.writes_vgpr.next = self.raw[1].val() & self.ok.val();
        self.sgpr_we.next = self.raw[2].val() & self.ok.val();
        self.sgpr_wide.next = self.raw[3].val() & self.ok.val();
        self.cmpx.next = self.raw[5].val() & self.ok.val();
        self.swap.next = self.raw[6].val() & self.ok.val();
        self.sub.next = self.raw[7].val() & self.ok.val();
        self.use_cin.next = self.raw[8].val() & self.ok.val();
        self.is_signed.next = self.raw[9].val() & self.ok.val();
        self.u24.next = self.raw[10].val() & self.ok.val();
        self.sel_add.next = self.raw[11].val() & self.ok.val();
        self.sel_not.next = self.raw[12].val() & self.ok.val();
        self.sel_cnd.next = self.raw[13].val() & self.ok.val();
        self.sel_and.next = self.raw[14].val() & self.ok.val();
        self.sel_or.next = self.raw[15].val() & self.ok.val();
        self.sel_xor.next = self.raw[16].val() & self.ok.val();
        self.sel_shl.next = self.raw[17].val() & self.ok.val();
        self.sel_shr.next = self.raw[18].val() & self.ok.val();
        self.sel_min.next = self.raw[19].val() & self.ok.val();
        self.sel_max.next = self.raw[20].val() & self.ok.val();
        self.sel_lo.next = self.raw[21].val() & self.ok.val();
        self.sel_hi.next = self.raw[22].val() & self.ok.val();
        self.cmp_lt.next = self.raw[23].val() & self.ok.val();
        self.cmp_eq.next = self.raw[24].val() & self.ok.val();
        self.cmp_gt.next = self.raw[25].val() & self.ok.val();
        self.flag_cmp.next = self.raw[26].val() & self.ok.val();
        self.cmp_un.next = self.raw[27].val() & self.ok.val();
        self.fp.next = self.raw[28].val() & self.ok.val();
        self.fp_mul.next = self.raw[29].val() & self.ok.val();
        self.fp_min.next = self.raw[30].val() & self.ok.val();
        self.fp_max.next = self.raw[31].val() & self.ok.val();
        self.fp_mad.next = self.raw[32].val() & self.ok.val();
        self.fp_fma.next = self.raw[33].val() & self.ok.val();
        self.fp_int.next = self.raw[34].val() & self.ok.val();
        self.fp_toint.next = self.raw[35].val() & self.ok.val();
        self.fp_cmp.next = self.raw[36].val() & self.ok.val();
        self.mods.next = self.raw[37].val() & self.ok.val();
        self.mods_c.next = self.raw[38].val() & self.ok.val();
        self.sel_bfe.next = self.raw[39].val() & self.ok.val();
        self.pair.next = self.raw[40].val() & self.ok.val();
        self.wide.next = self.raw[41].val() & self.ok.val();
        self.sel_shl64.next = self.raw[42].val() & self.ok.val();
        self.sel_mad64.next = self.raw[43].val() & self.ok.val();
        // The scalar write: readfirstlane's and the e64 compares' `dst`, the e64 carries'
        // `sdst`, VCC for the 32-bit encodings.
        self.code.next = self.vcc.val();
        if self.format.val() == self.fmt_vop3.val() {
            self.code.next = self.sdst.val();
            if self.index.val().get_bits::<2>(8) == self.class_of[0].val().get_bits::<2>(8) {
                self.code.next = self.dst.val();
            }
        }
        if self.raw[4].val() {
            self.code.next = self.dst.val();
        }
        self.sgpr_dst.next = self.code.val();
    }
}

// The decode names `raw[i]` by these numbers.
const _: () =
    assert!(bit::FIRST == 4 && bit::FLAG_CMP == 26 && bit::MODS_C == 38 && bit::SEL_BFE == 39);
const _: () = assert!(bit::PAIR == 40 && bit::SEL_MAD64 == 43 && CONTROLS == 44);
