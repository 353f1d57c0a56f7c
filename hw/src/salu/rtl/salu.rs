//! The SALU's top: the second operand, the units' inputs, the result and SCC, and the stage
//! register that holds them for the cycle after issue.

use super::adder::SaluAdder;
use super::control::SaluControl;
use super::logic::SaluLogic;
use super::mul::SaluMul;
use super::shift::SaluShift;
use crate::hdl::k;
use rust_hdl::prelude::*;

/// The scalar ALU; the contract (ports, timing, operations) is [`crate::salu`].
#[derive(LogicBlock)]
pub struct Salu {
    /// Core clock; the stage register loads on its rising edge.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: empties the stage.
    pub reset: Signal<In, Bit>,
    /// An SALU instruction issues this cycle.
    pub valid: Signal<In, Bit>,
    /// Format code (1 SOP2, 2 SOPK, 3 SOP1, 4 SOPC).
    pub format: Signal<In, Bits<4>>,
    /// Opcode.
    pub opcode: Signal<In, Bits<8>>,
    /// sdst code, passed to `out_dst`.
    pub dst: Signal<In, Bits<7>>,
    /// First operand.
    pub a: Signal<In, Bits<64>>,
    /// Second operand (SOPK: `simm16`).
    pub b: Signal<In, Bits<64>>,
    /// SCC before the instruction.
    pub scc: Signal<In, Bit>,
    /// EXEC before the instruction.
    pub exec: Signal<In, Bits<64>>,
    /// The stage holds an instruction.
    pub out_valid: Signal<Out, Bit>,
    /// Its sdst code.
    pub out_dst: Signal<Out, Bits<7>>,
    /// Write the result to `out_dst`.
    pub sdst_we: Signal<Out, Bit>,
    /// A 64-bit write (`d_hi` to `out_dst + 1`).
    pub wide: Signal<Out, Bit>,
    /// The result, bits \[31:0\].
    pub d_lo: Signal<Out, Bits<32>>,
    /// The result, bits \[63:32\] (0 unless `wide`).
    pub d_hi: Signal<Out, Bits<32>>,
    /// Write `scc_out` to SCC.
    pub scc_we: Signal<Out, Bit>,
    /// The new SCC.
    pub scc_out: Signal<Out, Bit>,
    /// Write `exec_out` to EXEC.
    pub exec_we: Signal<Out, Bit>,
    /// The new EXEC.
    pub exec_out: Signal<Out, Bits<64>>,
    /// This cycle's result, combinational (the stage's next contents): write the result to `dst`.
    pub n_sdst_we: Signal<Out, Bit>,
    /// This cycle's result, combinational (the stage's next contents): a 64-bit write.
    pub n_wide: Signal<Out, Bit>,
    /// This cycle's result, combinational (the stage's next contents): the result, bits \[31:0\].
    pub n_lo: Signal<Out, Bits<32>>,
    /// This cycle's result, combinational (the stage's next contents): the result, bits \[63:32\].
    pub n_hi: Signal<Out, Bits<32>>,
    /// This cycle's result, combinational (the stage's next contents): write SCC.
    pub n_scc_we: Signal<Out, Bit>,
    /// This cycle's result, combinational (the stage's next contents): the new SCC.
    pub n_scc: Signal<Out, Bit>,
    /// This cycle's result, combinational (the stage's next contents): write EXEC.
    pub n_exec_we: Signal<Out, Bit>,
    /// This cycle's result, combinational (the stage's next contents): the new EXEC.
    pub n_exec: Signal<Out, Bits<64>>,
    /// The decode.
    ctl: SaluControl,
    /// The adder (adds, subtracts, compares).
    add: SaluAdder,
    /// The logic unit (also the saveexecs' new EXEC).
    bitwise: SaluLogic,
    /// The shifter.
    shift: SaluShift,
    /// The multiplier.
    mul: SaluMul,
    /// The second operand: `b`, SOPK's constant (zero- or sign-extended), or EXEC.
    y: Signal<Local, Bits<64>>,
    /// The shifter's input: `a`, or its low half zero- or sign-extended.
    sx: Signal<Local, Bits<64>>,
    /// The shift amount: `b[5:0]`, or `b[4:0]` for a 32-bit shift.
    samount: Signal<Local, Bits<6>>,
    /// The comparison's `a < y` (signed or unsigned).
    lt: Signal<Local, Bit>,
    /// The comparison holds.
    cmp: Signal<Local, Bit>,
    /// A pick (min/max, cselect) chooses `a`.
    pick: Signal<Local, Bit>,
    /// The result of the 64-bit units.
    res: Signal<Local, Bits<64>>,
    /// `res`, bits \[63:32\] cleared unless wide.
    sized: Signal<Local, Bits<64>>,
    /// The result, bits \[31:0\].
    lo: Signal<Local, Bits<32>>,
    /// The new SCC.
    scc_new: Signal<Local, Bit>,
    /// SCC is written.
    scc_write: Signal<Local, Bit>,
    /// The stage takes an instruction at this edge.
    take: Signal<Local, Bit>,
    /// Stage register: valid.
    r_valid: DFF<Bit>,
    /// Stage register: sdst code.
    r_dst: DFF<Bits<7>>,
    /// Stage register: sdst write.
    r_we: DFF<Bit>,
    /// Stage register: 64-bit write.
    r_wide: DFF<Bit>,
    /// Stage register: result \[31:0\].
    r_lo: DFF<Bits<32>>,
    /// Stage register: result \[63:32\].
    r_hi: DFF<Bits<32>>,
    /// Stage register: SCC write.
    r_scc_we: DFF<Bit>,
    /// Stage register: new SCC.
    r_scc: DFF<Bit>,
    /// Stage register: EXEC write.
    r_exec_we: DFF<Bit>,
    /// Stage register: new EXEC.
    r_exec: DFF<Bits<64>>,
    /// `0xFFFF_FFFF`.
    low32: Constant<Bits<64>>,
    /// `0xFFFF_FFFF_0000_0000`.
    high32: Constant<Bits<64>>,
    /// `0xFFFF`.
    low16: Constant<Bits<64>>,
    /// `0xFFFF_FFFF_FFFF_0000`.
    sign16: Constant<Bits<64>>,
    /// 31, the largest 32-bit shift.
    max5: Constant<Bits<6>>,
    /// 0 (32 bits).
    z32: Constant<Bits<32>>,
    /// 0 (64 bits).
    z64: Constant<Bits<64>>,
    /// 0 (7 bits).
    z7: Constant<Bits<7>>,
}

impl Default for Salu {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            valid: Default::default(),
            format: Default::default(),
            opcode: Default::default(),
            dst: Default::default(),
            a: Default::default(),
            b: Default::default(),
            scc: Default::default(),
            exec: Default::default(),
            out_valid: Default::default(),
            out_dst: Default::default(),
            sdst_we: Default::default(),
            wide: Default::default(),
            d_lo: Default::default(),
            d_hi: Default::default(),
            scc_we: Default::default(),
            scc_out: Default::default(),
            exec_we: Default::default(),
            exec_out: Default::default(),
            ctl: Default::default(),
            add: Default::default(),
            bitwise: Default::default(),
            shift: Default::default(),
            mul: Default::default(),
            y: Default::default(),
            sx: Default::default(),
            samount: Default::default(),
            lt: Default::default(),
            cmp: Default::default(),
            pick: Default::default(),
            res: Default::default(),
            sized: Default::default(),
            lo: Default::default(),
            scc_new: Default::default(),
            scc_write: Default::default(),
            take: Default::default(),
            n_sdst_we: Default::default(),
            n_wide: Default::default(),
            n_lo: Default::default(),
            n_hi: Default::default(),
            n_scc_we: Default::default(),
            n_scc: Default::default(),
            n_exec_we: Default::default(),
            n_exec: Default::default(),
            r_valid: Default::default(),
            r_dst: Default::default(),
            r_we: Default::default(),
            r_wide: Default::default(),
            r_lo: Default::default(),
            r_hi: Default::default(),
            r_scc_we: Default::default(),
            r_scc: Default::default(),
            r_exec_we: Default::default(),
            r_exec: Default::default(),
            low32: k(0xFFFF_FFFF),
            high32: k(0xFFFF_FFFF_0000_0000),
            low16: k(0xFFFF),
            sign16: k(0xFFFF_FFFF_FFFF_0000),
            max5: k(31),
            z32: k(0),
            z64: k(0),
            z7: k(0),
        }
    }
}

impl Logic for Salu {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, r_valid, r_dst, r_we, r_wide, r_lo, r_hi, r_scc_we, r_scc, r_exec_we,
            r_exec
        );
        self.ctl.format.next = self.format.val();
        self.ctl.opcode.next = self.opcode.val();
        // The second operand.
        self.y.next = self.b.val();
        if self.ctl.b_imm.val() {
            self.y.next = self.b.val() & self.low16.val();
        }
        if self.ctl.b_imm.val() & self.ctl.b_sext.val() & self.b.val().get_bit(15) {
            self.y.next = (self.b.val() & self.low16.val()) | self.sign16.val();
        }
        if self.ctl.b_exec.val() {
            self.y.next = self.exec.val();
        }
        // The units.
        self.add.a.next = self.a.val();
        self.add.y.next = self.y.val();
        self.add.sub.next = self.ctl.sub.val();
        self.add.cin.next = self.ctl.use_cin.val() & self.scc.val();
        self.bitwise.a.next = self.a.val();
        self.bitwise.y.next = self.y.val();
        self.bitwise.sel_or.next = self.ctl.log_or.val();
        self.bitwise.sel_xor.next = self.ctl.log_xor.val();
        self.bitwise.sel_not.next = self.ctl.log_not.val();
        self.bitwise.inv_y.next = self.ctl.inv_b.val();
        self.sx.next = self.a.val();
        self.samount.next = self.b.val().get_bits::<6>(0);
        if !self.ctl.wide.val() {
            self.sx.next = self.a.val() & self.low32.val();
            self.samount.next = self.b.val().get_bits::<6>(0) & self.max5.val();
        }
        if !self.ctl.wide.val() & self.ctl.sh_arith.val() & self.a.val().get_bit(31) {
            self.sx.next = (self.a.val() & self.low32.val()) | self.high32.val();
        }
        self.shift.x.next = self.sx.val();
        self.shift.amount.next = self.samount.val();
        self.shift.left.next = self.ctl.sh_left.val();
        self.shift.arith.next = self.ctl.sh_arith.val();
        self.shift.bfe.next = self.ctl.bfe.val();
        self.shift.width.next = self.b.val().get_bits::<7>(16);
        self.mul.a.next = self.a.val().get_bits::<32>(0);
        self.mul.y.next = self.y.val().get_bits::<32>(0);
        // The comparison: min/max pick `a` when it holds, the compares write it to SCC.
        self.lt.next = self.add.lt_u.val();
        if self.ctl.is_signed.val() {
            self.lt.next = self.add.lt_s.val();
        }
        self.cmp.next = (self.ctl.cmp_eq.val() & self.add.eq.val())
            | (self.ctl.cmp_lt.val() & self.lt.val())
            | (self.ctl.cmp_gt.val() & !self.lt.val() & !self.add.eq.val());
        self.pick.next = self.cmp.val();
        if self.ctl.pick_scc.val() {
            self.pick.next = self.scc.val();
        }
        // The result: one unit's, bits 63..32 cleared unless wide.
        self.res.next = self.z64.val();
        if self.ctl.sel_add.val() {
            self.res.next = self.add.sum.val();
        }
        if self.ctl.sel_logic.val() {
            self.res.next = self.bitwise.d.val();
        }
        if self.ctl.sel_shift.val() {
            self.res.next = self.shift.d.val();
        }
        if self.ctl.sel_a.val() | (self.ctl.sel_pick.val() & self.pick.val()) {
            self.res.next = self.a.val();
        }
        if self.ctl.sel_b.val() | (self.ctl.sel_pick.val() & !self.pick.val()) {
            self.res.next = self.y.val();
        }
        if self.ctl.sel_exec.val() {
            self.res.next = self.exec.val();
        }
        self.sized.next = self.res.val();
        if !self.ctl.wide.val() {
            self.sized.next = self.res.val() & self.low32.val();
        }
        self.lo.next = self.sized.val().get_bits::<32>(0);
        if self.ctl.sel_mul.val() {
            self.lo.next = self.mul.d.val();
        }
        self.scc_new.next = (self.ctl.scc_carry.val() & self.add.carry.val())
            | (self.ctl.scc_ovf.val() & self.add.ovf.val())
            | (self.ctl.scc_nz.val()
                & ((self.lo.val() != self.z32.val())
                    | (self.sized.val().get_bits::<32>(32) != self.z32.val())))
            | (self.ctl.scc_cmp.val() & self.cmp.val())
            | (self.ctl.scc_exec.val() & (self.bitwise.d.val() != self.z64.val()));
        self.scc_write.next = self.ctl.scc_carry.val()
            | self.ctl.scc_ovf.val()
            | self.ctl.scc_nz.val()
            | self.ctl.scc_cmp.val()
            | self.ctl.scc_exec.val();
        // The stage register: an empty stage holds zeros.
        self.take.next = self.valid.val() & !self.reset.val();
        self.r_valid.d.next = self.take.val();
        self.r_dst.d.next = self.z7.val();
        self.r_we.d.next = false;
        self.r_wide.d.next = false;
        self.r_lo.d.next = self.z32.val();
        self.r_hi.d.next = self.z32.val();
        self.r_scc_we.d.next = false;
        self.r_scc.d.next = false;
        self.r_exec_we.d.next = false;
        self.r_exec.d.next = self.z64.val();
        if self.take.val() {
            self.r_dst.d.next = self.dst.val();
            self.r_we.d.next = self.ctl.sdst_we.val();
            self.r_wide.d.next = self.ctl.wide.val();
            self.r_lo.d.next = self.lo.val();
            self.r_hi.d.next = self.sized.val().get_bits::<32>(32);
            self.r_scc_we.d.next = self.scc_write.val();
            self.r_scc.d.next = self.scc_new.val() & self.scc_write.val();
            self.r_exec_we.d.next = self.ctl.exec_we.val();
            self.r_exec.d.next = self.bitwise.d.val();
            if !self.ctl.exec_we.val() {
                self.r_exec.d.next = self.z64.val();
            }
        }
        self.n_sdst_we.next = self.r_we.d.val();
        self.n_wide.next = self.r_wide.d.val();
        self.n_lo.next = self.r_lo.d.val();
        self.n_hi.next = self.r_hi.d.val();
        self.n_scc_we.next = self.r_scc_we.d.val();
        self.n_scc.next = self.r_scc.d.val();
        self.n_exec_we.next = self.r_exec_we.d.val();
        self.n_exec.next = self.r_exec.d.val();
        self.out_valid.next = self.r_valid.q.val();
        self.out_dst.next = self.r_dst.q.val();
        self.sdst_we.next = self.r_we.q.val();
        self.wide.next = self.r_wide.q.val();
        self.d_lo.next = self.r_lo.q.val();
        self.d_hi.next = self.r_hi.q.val();
        self.scc_we.next = self.r_scc_we.q.val();
        self.scc_out.next = self.r_scc.q.val();
        self.exec_we.next = self.r_exec_we.q.val();
        self.exec_out.next = self.r_exec.q.val();
    }
}
