//! The SALU's instruction decode: one control bit per datapath choice, each a 256-entry
//! truth table indexed by `{format[1:0], opcode[5:0]}` (the four scalar formats have distinct
//! low format bits and opcodes below 64).

use crate::hdl::k;
use rust_hdl::prelude::*;

/// The datapath choices of one instruction ([`control`] is the table they come from).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Ctl {
    /// The result is the adder's sum.
    pub sel_add: bool,
    /// The result is the logic unit's.
    pub sel_logic: bool,
    /// The result is the shifter's (shifts, `s_bfe_u32`).
    pub sel_shift: bool,
    /// The result is the multiplier's.
    pub sel_mul: bool,
    /// The result is `a` or the second operand (min/max, `s_cselect_*`).
    pub sel_pick: bool,
    /// The result is `a` (`s_mov_*`, `s_getpc_b64`).
    pub sel_a: bool,
    /// The result is the second operand (`s_movk_i32`).
    pub sel_b: bool,
    /// The result is the old EXEC (the saveexecs).
    pub sel_exec: bool,
    /// A 64-bit result and write.
    pub wide: bool,
    /// The result is written to `dst`.
    pub sdst_we: bool,
    /// EXEC takes the logic unit's result (the saveexecs).
    pub exec_we: bool,
    /// SCC = the adder's carry (add) or borrow (sub).
    pub scc_carry: bool,
    /// SCC = the adder's signed overflow.
    pub scc_ovf: bool,
    /// SCC = the result is not 0.
    pub scc_nz: bool,
    /// SCC = the comparison holds.
    pub scc_cmp: bool,
    /// SCC = the new EXEC is not 0.
    pub scc_exec: bool,
    /// The adder subtracts.
    pub sub: bool,
    /// The adder takes SCC as carry / borrow in.
    pub use_cin: bool,
    /// The comparison is signed.
    pub is_signed: bool,
    /// The comparison holds when equal.
    pub cmp_eq: bool,
    /// The comparison holds when less.
    pub cmp_lt: bool,
    /// The comparison holds when greater.
    pub cmp_gt: bool,
    /// A pick chooses `a` when SCC is set (else when the comparison holds).
    pub pick_scc: bool,
    /// The logic unit ORs.
    pub log_or: bool,
    /// The logic unit XORs.
    pub log_xor: bool,
    /// The logic unit inverts `a`.
    pub log_not: bool,
    /// The logic unit inverts its second operand first (andn2, orn2).
    pub inv_b: bool,
    /// The shifter shifts left.
    pub sh_left: bool,
    /// A right shift is arithmetic.
    pub sh_arith: bool,
    /// The shifter extracts a bit field.
    pub bfe: bool,
    /// The second operand is `b[15:0]` (SOPK).
    pub b_imm: bool,
    /// With `b_imm`: sign-extended (every SOPK instruction but the unsigned compares).
    pub b_sext: bool,
    /// The second operand is EXEC (the saveexecs).
    pub b_exec: bool,
}

/// Combinational decode of (format, opcode) into the control bits of [`Ctl`].
#[derive(LogicBlock)]
pub struct SaluControl {
    /// The decoder's format code (1 SOP2, 2 SOPK, 3 SOP1, 4 SOPC).
    pub format: Signal<In, Bits<4>>,
    /// The opcode.
    pub opcode: Signal<In, Bits<8>>,
    /// The result is the adder's sum.
    pub sel_add: Signal<Out, Bit>,
    /// The result is the logic unit's.
    pub sel_logic: Signal<Out, Bit>,
    /// The result is the shifter's (shifts, `s_bfe_u32`).
    pub sel_shift: Signal<Out, Bit>,
    /// The result is the multiplier's.
    pub sel_mul: Signal<Out, Bit>,
    /// The result is `a` or the second operand (min/max, `s_cselect_*`).
    pub sel_pick: Signal<Out, Bit>,
    /// The result is `a` (`s_mov_*`, `s_getpc_b64`).
    pub sel_a: Signal<Out, Bit>,
    /// The result is the second operand (`s_movk_i32`).
    pub sel_b: Signal<Out, Bit>,
    /// The result is the old EXEC (the saveexecs).
    pub sel_exec: Signal<Out, Bit>,
    /// A 64-bit result and write.
    pub wide: Signal<Out, Bit>,
    /// The result is written to `dst`.
    pub sdst_we: Signal<Out, Bit>,
    /// EXEC takes the logic unit's result (the saveexecs).
    pub exec_we: Signal<Out, Bit>,
    /// SCC = the adder's carry (add) or borrow (sub).
    pub scc_carry: Signal<Out, Bit>,
    /// SCC = the adder's signed overflow.
    pub scc_ovf: Signal<Out, Bit>,
    /// SCC = the result is not 0.
    pub scc_nz: Signal<Out, Bit>,
    /// SCC = the comparison holds.
    pub scc_cmp: Signal<Out, Bit>,
    /// SCC = the new EXEC is not 0.
    pub scc_exec: Signal<Out, Bit>,
    /// The adder subtracts.
    pub sub: Signal<Out, Bit>,
    /// The adder takes SCC as carry / borrow in.
    pub use_cin: Signal<Out, Bit>,
    /// The comparison is signed.
    pub is_signed: Signal<Out, Bit>,
    /// The comparison holds when equal.
    pub cmp_eq: Signal<Out, Bit>,
    /// The comparison holds when less.
    pub cmp_lt: Signal<Out, Bit>,
    /// The comparison holds when greater.
    pub cmp_gt: Signal<Out, Bit>,
    /// A pick chooses `a` when SCC is set (else when the comparison holds).
    pub pick_scc: Signal<Out, Bit>,
    /// The logic unit ORs.
    pub log_or: Signal<Out, Bit>,
    /// The logic unit XORs.
    pub log_xor: Signal<Out, Bit>,
    /// The logic unit inverts `a`.
    pub log_not: Signal<Out, Bit>,
    /// The logic unit inverts its second operand first (andn2, orn2).
    pub inv_b: Signal<Out, Bit>,
    /// The shifter shifts left.
    pub sh_left: Signal<Out, Bit>,
    /// A right shift is arithmetic.
    pub sh_arith: Signal<Out, Bit>,
    /// The shifter extracts a bit field.
    pub bfe: Signal<Out, Bit>,
    /// The second operand is `b[15:0]` (SOPK).
    pub b_imm: Signal<Out, Bit>,
    /// With `b_imm`: sign-extended (every SOPK instruction but the unsigned compares).
    pub b_sext: Signal<Out, Bit>,
    /// The second operand is EXEC (the saveexecs).
    pub b_exec: Signal<Out, Bit>,
    /// The table index `{format[1:0], opcode[5:0]}`.
    index: Signal<Local, Bits<8>>,
    /// The truth tables, in the order of the outputs.
    truth: [Constant<Bits<256>>; CONTROLS],
    /// `format[1:0] << 6` (SOPC, format 4, on page 0).
    page: Signal<Local, Bits<8>>,
    /// The format codes 1..=3 (SOP2, SOPK, SOP1).
    format_of: [Constant<Bits<4>>; 3],
    /// Their pages `code << 6`.
    page_of: [Constant<Bits<8>>; 3],
    /// SOPC's page, 0.
    sopc_page: Constant<Bits<8>>,
    /// `0x3F`.
    low6: Constant<Bits<8>>,
}

/// The number of control bits.
const CONTROLS: usize = 33;

/// The control bits of every table index, as a list of [`Ctl`] fields.
fn field(c: &Ctl, i: usize) -> bool {
    [
        c.sel_add,
        c.sel_logic,
        c.sel_shift,
        c.sel_mul,
        c.sel_pick,
        c.sel_a,
        c.sel_b,
        c.sel_exec,
        c.wide,
        c.sdst_we,
        c.exec_we,
        c.scc_carry,
        c.scc_ovf,
        c.scc_nz,
        c.scc_cmp,
        c.scc_exec,
        c.sub,
        c.use_cin,
        c.is_signed,
        c.cmp_eq,
        c.cmp_lt,
        c.cmp_gt,
        c.pick_scc,
        c.log_or,
        c.log_xor,
        c.log_not,
        c.inv_b,
        c.sh_left,
        c.sh_arith,
        c.bfe,
        c.b_imm,
        c.b_sext,
        c.b_exec,
    ][i]
}

/// The truth table of control bit `i`.
fn table(i: usize) -> Constant<Bits<256>> {
    let mut t = Bits::<256>::default();
    for index in 0..256usize {
        let fmt = match index >> 6 {
            0 => 4,
            f => f as u8,
        };
        if field(&control(fmt, (index & 63) as u8), i) {
            t = t.replace_bit(index, true);
        }
    }
    Constant::new(t)
}

impl Default for SaluControl {
    fn default() -> Self {
        Self {
            format: Default::default(),
            opcode: Default::default(),
            sel_add: Default::default(),
            sel_logic: Default::default(),
            sel_shift: Default::default(),
            sel_mul: Default::default(),
            sel_pick: Default::default(),
            sel_a: Default::default(),
            sel_b: Default::default(),
            sel_exec: Default::default(),
            wide: Default::default(),
            sdst_we: Default::default(),
            exec_we: Default::default(),
            scc_carry: Default::default(),
            scc_ovf: Default::default(),
            scc_nz: Default::default(),
            scc_cmp: Default::default(),
            scc_exec: Default::default(),
            sub: Default::default(),
            use_cin: Default::default(),
            is_signed: Default::default(),
            cmp_eq: Default::default(),
            cmp_lt: Default::default(),
            cmp_gt: Default::default(),
            pick_scc: Default::default(),
            log_or: Default::default(),
            log_xor: Default::default(),
            log_not: Default::default(),
            inv_b: Default::default(),
            sh_left: Default::default(),
            sh_arith: Default::default(),
            bfe: Default::default(),
            b_imm: Default::default(),
            b_sext: Default::default(),
            b_exec: Default::default(),
            index: Default::default(),
            truth: array_init::array_init(table),
            page: Default::default(),
            format_of: array_init::array_init(|f| k(f as u64 + 1)),
            page_of: array_init::array_init(|f| k((f as u64 + 1) << 6)),
            sopc_page: k(0),
            low6: k(0x3F),
        }
    }
}

impl Logic for SaluControl {
    #[hdl_gen]
    fn update(&mut self) {
        self.page.next = self.sopc_page.val();
        for f in 0..3 {
            if self.format.val() == self.format_of[f].val() {
                self.page.next = self.page_of[f].val();
            }
        }
        self.index.next = (self.opcode.val() & self.low6.val()) | self.page.val();
        self.sel_add.next = self.truth[0].val().get_bit(self.index.val().index());
        self.sel_logic.next = self.truth[1].val().get_bit(self.index.val().index());
        self.sel_shift.next = self.truth[2].val().get_bit(self.index.val().index());
        self.sel_mul.next = self.truth[3].val().get_bit(self.index.val().index());
        self.sel_pick.next = self.truth[4].val().get_bit(self.index.val().index());
        self.sel_a.next = self.truth[5].val().get_bit(self.index.val().index());
        self.sel_b.next = self.truth[6].val().get_bit(self.index.val().index());
        self.sel_exec.next = self.truth[7].val().get_bit(self.index.val().index());
        self.wide.next = self.truth[8].val().get_bit(self.index.val().index());
        self.sdst_we.next = self.truth[9].val().get_bit(self.index.val().index());
        self.exec_we.next = self.truth[10].val().get_bit(self.index.val().index());
        self.scc_carry.next = self.truth[11].val().get_bit(self.index.val().index());
        self.scc_ovf.next = self.truth[12].val().get_bit(self.index.val().index());
        self.scc_nz.next = self.truth[13].val().get_bit(self.index.val().index());
        self.scc_cmp.next = self.truth[14].val().get_bit(self.index.val().index());
        self.scc_exec.next = self.truth[15].val().get_bit(self.index.val().index());
        self.sub.next = self.truth[16].val().get_bit(self.index.val().index());
        self.use_cin.next = self.truth[17].val().get_bit(self.index.val().index());
        self.is_signed.next = self.truth[18].val().get_bit(self.index.val().index());
        self.cmp_eq.next = self.truth[19].val().get_bit(self.index.val().index());
        self.cmp_lt.next = self.truth[20].val().get_bit(self.index.val().index());
        self.cmp_gt.next = self.truth[21].val().get_bit(self.index.val().index());
        self.pick_scc.next = self.truth[22].val().get_bit(self.index.val().index());
        self.log_or.next = self.truth[23].val().get_bit(self.index.val().index());
        self.log_xor.next = self.truth[24].val().get_bit(self.index.val().index());
        self.log_not.next = self.truth[25].val().get_bit(self.index.val().index());
        self.inv_b.next = self.truth[26].val().get_bit(self.index.val().index());
        self.sh_left.next = self.truth[27].val().get_bit(self.index.val().index());
        self.sh_arith.next = self.truth[28].val().get_bit(self.index.val().index());
        self.bfe.next = self.truth[29].val().get_bit(self.index.val().index());
        self.b_imm.next = self.truth[30].val().get_bit(self.index.val().index());
        self.b_sext.next = self.truth[31].val().get_bit(self.index.val().index());
        self.b_exec.next = self.truth[32].val().get_bit(self.index.val().index());
    }
}

/// The control bits of SALU instruction (format code `fmt`, opcode `op`); all clear for an
/// opcode outside the subset.
pub fn control(fmt: u8, op: u8) -> Ctl {
    use crate::isa::insn_model::format;
    match fmt {
        format::SOP2 => sop2(op),
        format::SOPK => sopk(op),
        format::SOP1 => sop1(op),
        format::SOPC if op < 12 => compare(op % 6, op < 6),
        _ => Ctl::default(),
    }
}

/// A write of the result to `dst`, 64 bits wide when `wide`.
fn write(wide: bool) -> Ctl {
    Ctl {
        sdst_we: true,
        wide,
        ..Ctl::default()
    }
}

/// A comparison of kind 0 eq, 1 lg, 2 gt, 3 ge, 4 lt, 5 le into SCC (the adder subtracts).
fn compare(kind: u8, signed: bool) -> Ctl {
    Ctl {
        sub: true,
        is_signed: signed,
        scc_cmp: true,
        cmp_eq: matches!(kind, 0 | 3 | 5),
        cmp_lt: matches!(kind, 1 | 4 | 5),
        cmp_gt: matches!(kind, 1..=3),
        ..Ctl::default()
    }
}

/// An adder operation: `sub`, carry/borrow in, SCC from the carry (else the overflow).
fn add(sub: bool, use_cin: bool, scc_carry: bool) -> Ctl {
    Ctl {
        sel_add: true,
        sub,
        use_cin,
        scc_carry,
        scc_ovf: !scc_carry,
        ..write(false)
    }
}

/// A logic operation (`and`, `or`, `xor` by `kind` 0..=2, 3 = not; AND is the logic unit's
/// default), SCC = result != 0.
fn logic(kind: u8, inv_b: bool, wide: bool) -> Ctl {
    Ctl {
        sel_logic: true,
        log_or: kind == 1,
        log_xor: kind == 2,
        log_not: kind == 3,
        inv_b,
        scc_nz: true,
        ..write(wide)
    }
}

/// A shift (`left`, or right and `arith`), SCC = result != 0.
fn shift(left: bool, arith: bool, wide: bool) -> Ctl {
    Ctl {
        sel_shift: true,
        sh_left: left,
        sh_arith: arith,
        scc_nz: true,
        ..write(wide)
    }
}

fn sop2(op: u8) -> Ctl {
    let wide = op & 1 == 1;
    match op {
        0x00..=0x05 => add(op & 1 == 1, op >= 4, op != 2 && op != 3),
        0x06..=0x09 => Ctl {
            sel_pick: true,
            sdst_we: true,
            ..compare(if op < 8 { 4 } else { 2 }, op & 1 == 0)
        },
        0x0A | 0x0B => Ctl {
            sel_pick: true,
            pick_scc: true,
            ..write(wide)
        },
        0x0C..=0x15 => logic(((op - 0x0C) / 2) % 3, op >= 0x12, wide),
        0x1C..=0x21 => shift(op < 0x1E, op >= 0x20, wide),
        0x24 => Ctl {
            sel_mul: true,
            ..write(false)
        },
        0x25 => Ctl {
            bfe: true,
            ..shift(false, false, false)
        },
        _ => Ctl::default(),
    }
}

fn sopk(op: u8) -> Ctl {
    let imm = |c: Ctl, sext: bool| Ctl {
        b_imm: true,
        b_sext: sext,
        ..c
    };
    match op {
        0x00 => imm(
            Ctl {
                sel_b: true,
                ..write(false)
            },
            true,
        ),
        0x02..=0x07 => imm(compare(op - 2, true), true),
        0x08..=0x0D => imm(compare(op - 8, false), false),
        0x0E => imm(add(false, false, false), true),
        0x0F => imm(
            Ctl {
                sel_mul: true,
                ..write(false)
            },
            true,
        ),
        _ => Ctl::default(),
    }
}

fn sop1(op: u8) -> Ctl {
    match op {
        0x00 | 0x01 | 0x1C => Ctl {
            sel_a: true,
            ..write(op != 0)
        },
        0x04 | 0x05 => logic(3, false, op == 5),
        0x20..=0x22 => Ctl {
            sel_exec: true,
            exec_we: true,
            scc_exec: true,
            scc_nz: false,
            sel_logic: false,
            b_exec: true,
            ..logic(op - 0x20, false, true)
        },
        _ => Ctl::default(),
    }
}
