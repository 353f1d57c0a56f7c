//! `IssueUnit`: one issue unit of the SIMD group (the SIMD, or under PWS the SpSIMD): its
//! contexts' issue control and scheduler, the granted instruction's decode, the SALU, the
//! branch unit and the VALU with its operand feed.

use super::age_rank::AgeRank;
use super::branch::BranchTarget;
use super::cmd_take::CmdTake;
use super::salu_operands::SaluOperands;
use super::valu_operands::ValuOperands;
use crate::hdl::k;
use crate::isa::rtl::insn_fields::InsnFields;
use crate::issue::Issue;
use crate::salu::Salu;
use crate::valu::Valu;
use rust_hdl::prelude::*;

/// An issue unit over its `C` contexts (the top numbers them `k` = slot · units + unit).
///
/// In a cycle it grants at most one context (the scheduler's policy among the eligible ones,
/// [`crate::issue`]) and executes the granted instruction: the SALU's result, the PC and
/// `s_swappc_b64`'s link go to its three register write ports at the edge; a VALU instruction
/// goes into the unit's VALU (four quarters, [`crate::valu`]) through its VGPR ports. The
/// shared resources (the memory pipe, the LDS, the split/merge unit's command port) are the
/// top's: it tells the unit what is taken before any unit's issue (`pipe_lds`, `port_free`),
/// what the units visited before it in the cycle took (`o_mem`, `o_lds`, `o_cmd`, from their
/// picks at their positions; low when the unit is visited first), and takes the unit's
/// `flat`, `smem`, `ds`, `pws`, `endpgm` and `barrier` flags with the granted context's state
/// (`g_*`). The unit's `f_*`, `p1_*` and `p2_*` say what its picks at positions 0, 1 and 2 of
/// the order take (the issue control's picks and what they need,
/// [`super::cmd_take::CmdTake`] for a `merge`), with `t1_*`, `t2_*` what the positions before
/// 1 and 2 take, so that no unit's grant depends combinationally on its own.
#[derive(LogicBlock)]
pub struct IssueUnit<const C: usize, const U: usize> {
    /// Core clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset.
    pub reset: Signal<In, Bit>,
    /// The unit's number (its contexts are the top's `k` = `U` · slot + `unit_no`, `U` the
    /// top's issue units, a power of two).
    pub unit_no: Signal<In, Bits<8>>,
    /// Scheduler policy: greedy-then-oldest.
    pub gto: Signal<In, Bit>,
    /// Scheduler policy: pure round-robin (neither: loose round-robin).
    pub rr: Signal<In, Bit>,
    /// `Latencies::salu`.
    pub lat_salu: Signal<In, Bits<16>>,
    /// `Latencies::valu`.
    pub lat_valu: Signal<In, Bits<16>>,
    /// `Latencies::branch`.
    pub lat_branch: Signal<In, Bits<16>>,
    /// `Latencies::issue_period`.
    pub issue_period: Signal<In, Bits<8>>,
    /// The launch splits (`split`/`merge` act and take the command port).
    pub split_on: Signal<In, Bit>,
    /// The LDS is still busy with an earlier cycle's DS instruction (DS instructions stall).
    pub pipe_lds: Signal<In, Bit>,
    /// No dispatch takes the split/merge unit's command port this cycle.
    pub port_free: Signal<In, Bit>,
    /// A unit visited earlier in the cycle takes the memory pipe (from the picks at the
    /// positions before this unit's; low when this unit is visited first).
    pub o_mem: Signal<In, Bit>,
    /// One takes the LDS.
    pub o_lds: Signal<In, Bit>,
    /// One takes the command port.
    pub o_cmd: Signal<In, Bit>,
    /// Bit `c`: a `merge` of context `c` would command (its split really split).
    pub mcmd: Signal<In, Bits<C>>,
    /// The unit's grant as the unit visited first takes the memory pipe.
    pub f_mem: Signal<Out, Bit>,
    /// It takes the LDS.
    pub f_lds: Signal<Out, Bit>,
    /// It takes the command port.
    pub f_cmd: Signal<Out, Bit>,
    /// With four units: what the unit at position 0 of the cycle's order takes, the memory
    /// pipe (for this unit's pick at position 1).
    pub t1_mem: Signal<In, Bit>,
    /// The LDS.
    pub t1_lds: Signal<In, Bit>,
    /// The command port.
    pub t1_cmd: Signal<In, Bit>,
    /// What the units at positions 0 and 1 take, the memory pipe (for the pick at position 2).
    pub t2_mem: Signal<In, Bit>,
    /// The LDS.
    pub t2_lds: Signal<In, Bit>,
    /// The command port.
    pub t2_cmd: Signal<In, Bit>,
    /// The unit's pick at position 1 takes the memory pipe.
    pub p1_mem: Signal<Out, Bit>,
    /// The LDS.
    pub p1_lds: Signal<Out, Bit>,
    /// The command port.
    pub p1_cmd: Signal<Out, Bit>,
    /// Its pick at position 2 takes the memory pipe.
    pub p2_mem: Signal<Out, Bit>,
    /// The LDS.
    pub p2_lds: Signal<Out, Bit>,
    /// The command port.
    pub p2_cmd: Signal<Out, Bit>,
    /// Contexts a dispatch or a split's copy starts at this edge.
    pub start: Signal<In, Bits<C>>,
    /// Contexts that leave (a merged child).
    pub stop: Signal<In, Bits<C>>,
    /// Contexts whose barrier is released this cycle.
    pub bar_release: Signal<In, Bits<C>>,
    /// Contexts that may not issue (outside a launch).
    pub hold: Signal<In, Bits<C>>,
    /// Context `c`'s buffered instruction words.
    pub w0: [Signal<In, Bits<32>>; C],
    /// Its second word.
    pub w1: [Signal<In, Bits<32>>; C],
    /// Its predecoded unit.
    pub fu: [Signal<In, Bits<4>>; C],
    /// It is illegal, or its PC is past the code.
    pub bad: [Signal<In, Bit>; C],
    /// Its PC is past the code.
    pub oob: [Signal<In, Bit>; C],
    /// Its PC.
    pub pc: [Signal<In, Bits<32>>; C],
    /// Its SCC.
    pub scc: [Signal<In, Bit>; C],
    /// Its EXEC.
    pub exec: [Signal<In, Bits<64>>; C],
    /// Its VCC.
    pub vcc: [Signal<In, Bits<64>>; C],
    /// Its effective mask (EXEC & SpM).
    pub eff: [Signal<In, Bits<64>>; C],
    /// Its SpM.
    pub spm: [Signal<In, Bits<64>>; C],
    /// Its split/merge state.
    pub state: [Signal<In, Bits<3>>; C],
    /// It has no live split (no child, no parent).
    pub alone: [Signal<In, Bit>; C],
    /// Its work-group entry.
    pub wi: [Signal<In, Bits<8>>; C],
    /// Its wavefront's VGPR slot.
    pub wf: [Signal<In, Bits<8>>; C],
    /// Its age (dispatch order).
    pub age: [Signal<In, Bits<32>>; C],
    /// Its vmcnt returns this cycle.
    pub vm_ret: [Signal<In, Bits<8>>; C],
    /// Its lgkmcnt returns this cycle from the memory port.
    pub lgkm_ret: [Signal<In, Bits<8>>; C],
    /// Bit `c`: a DS instruction of context `c` completes (one more lgkmcnt return).
    pub lds_ret: Signal<In, Bits<C>>,
    /// Register read port `p`: the context (the top's index `k`).
    pub rctx: [Signal<Out, Bits<8>>; 3],
    /// Its operand code.
    pub rcode: [Signal<Out, Bits<9>>; 3],
    /// It reads a pair.
    pub rwide: [Signal<Out, Bit>; 3],
    /// The literal.
    pub rlit: [Signal<Out, Bits<32>>; 3],
    /// Its value.
    pub rdata: [Signal<In, Bits<64>>; 3],
    /// Register write port `p` (0: the SALU; 1: the PC and the link; 2: the VALU's scalar
    /// result): the context.
    pub wctx: [Signal<Out, Bits<8>>; 3],
    /// Write the destination.
    pub sdst_we: [Signal<Out, Bit>; 3],
    /// The destination.
    pub sdst: [Signal<Out, Bits<7>>; 3],
    /// A pair.
    pub wide: [Signal<Out, Bit>; 3],
    /// The value.
    pub d: [Signal<Out, Bits<64>>; 3],
    /// Write EXEC.
    pub exec_we: [Signal<Out, Bit>; 3],
    /// The EXEC written.
    pub exec_in: [Signal<Out, Bits<64>>; 3],
    /// Write SCC.
    pub scc_we: [Signal<Out, Bit>; 3],
    /// The SCC written.
    pub scc_in: [Signal<Out, Bit>; 3],
    /// Write the PC.
    pub pc_we: [Signal<Out, Bit>; 3],
    /// The PC written.
    pub pc_in: [Signal<Out, Bits<32>>; 3],
    /// The VALU's VGPR rows `a`, `b`, `c` (slot, VGPR) and their words.
    pub a_slot: Signal<Out, Bits<8>>,
    /// Row `a`'s VGPR.
    pub a_reg: Signal<Out, Bits<8>>,
    /// Row `b`'s slot.
    pub b_slot: Signal<Out, Bits<8>>,
    /// Row `b`'s VGPR.
    pub b_reg: Signal<Out, Bits<8>>,
    /// Row `c`'s slot.
    pub c_slot: Signal<Out, Bits<8>>,
    /// Row `c`'s VGPR.
    pub c_reg: Signal<Out, Bits<8>>,
    /// Row `a`'s words.
    pub a_row: [Signal<In, Bits<32>>; 64],
    /// Row `b`'s words.
    pub b_row: [Signal<In, Bits<32>>; 64],
    /// Row `c`'s words.
    pub c_row: [Signal<In, Bits<32>>; 64],
    /// The VALU writes a quarter of a VGPR row at this edge.
    pub we: Signal<Out, Bit>,
    /// Its slot.
    pub w_slot: Signal<Out, Bits<8>>,
    /// Its VGPR.
    pub w_reg: Signal<Out, Bits<8>>,
    /// Its lanes.
    pub w_mask: Signal<Out, Bits<64>>,
    /// Lane `l`'s word.
    pub w_data: [Signal<Out, Bits<32>>; 64],
    /// The write is a pair: VGPR `w_reg` + 1 takes `w_data1` in the same lanes.
    pub w_two: Signal<Out, Bit>,
    /// Lane `l`'s word of the pair's second row.
    pub w_data1: [Signal<Out, Bits<32>>; 64],
    /// A context issues this cycle.
    pub grant_valid: Signal<Out, Bit>,
    /// Which.
    pub grant: Signal<Out, Bits<6>>,
    /// The stall reason of a cycle without an issue ([`crate::issue::stall`]).
    pub stall: Signal<Out, Bits<3>>,
    /// The live contexts.
    pub live: Signal<Out, Bits<C>>,
    /// The granted context, one-hot (its instruction buffer loads `new_pc`).
    pub sel: Signal<Out, Bits<C>>,
    /// The PC after the issuing instruction (the next one, or a branch target).
    pub new_pc: Signal<Out, Bits<32>>,
    /// The issuing instruction's fields.
    pub format: Signal<Out, Bits<4>>,
    /// Its opcode.
    pub opcode: Signal<Out, Bits<10>>,
    /// Its destination.
    pub dst: Signal<Out, Bits<8>>,
    /// Its sources.
    pub src0: Signal<Out, Bits<9>>,
    /// The second source.
    pub src1: Signal<Out, Bits<9>>,
    /// The third source.
    pub src2: Signal<Out, Bits<9>>,
    /// Its immediate (or literal).
    pub imm: Signal<Out, Bits<32>>,
    /// SMEM: the offset is the immediate.
    pub imm_offset: Signal<Out, Bit>,
    /// The issue stops the launch: an illegal instruction, or a PC past the code.
    pub error: Signal<Out, Bit>,
    /// A FLAT instruction issues.
    pub flat: Signal<Out, Bit>,
    /// An SMEM instruction issues.
    pub smem: Signal<Out, Bit>,
    /// A DS instruction issues.
    pub ds: Signal<Out, Bit>,
    /// `split` or `merge` issues with splitting on.
    pub pws: Signal<Out, Bit>,
    /// It is `merge`.
    pub merge: Signal<Out, Bit>,
    /// `s_endpgm` issues.
    pub endpgm: Signal<Out, Bit>,
    /// `s_barrier` issues.
    pub barrier: Signal<Out, Bit>,
    /// The granted context's PC.
    pub g_pc: Signal<Out, Bits<32>>,
    /// Its effective mask.
    pub g_eff: Signal<Out, Bits<64>>,
    /// Its work-group entry.
    pub g_wi: Signal<Out, Bits<8>>,
    /// Its VGPR slot.
    pub g_wf: Signal<Out, Bits<8>>,
    /// It has no live split.
    pub g_alone: Signal<Out, Bit>,
    /// Its outstanding memory operations (vmcnt + lgkmcnt).
    pub g_pend: Signal<Out, Bits<16>>,
    /// Issue control.
    issue: Issue<C>,
    /// Whether the first-visited grant takes the command port.
    ctake: CmdTake<C>,
    /// Whether the picks at positions 1 and 2 take the command port.
    ctake1: CmdTake<C>,
    ctake2: CmdTake<C>,
    /// The contexts' age ranks (greedy-then-oldest).
    ranks: AgeRank<C>,
    /// The issuing instruction's fields.
    fields: InsnFields,
    /// The SALU's and the branch unit's operand selection.
    sops: SaluOperands,
    /// The scalar ALU.
    salu: Salu,
    /// The branch unit.
    br: BranchTarget,
    /// The vector ALU's operands.
    vops: ValuOperands,
    /// The vector ALU.
    valu: Valu,
    /// The granted context's registers and state.
    g_w0: Signal<Local, Bits<32>>,
    g_w1: Signal<Local, Bits<32>>,
    g_scc: Signal<Local, Bit>,
    g_exec: Signal<Local, Bits<64>>,
    g_vcc: Signal<Local, Bits<64>>,
    g_spm: Signal<Local, Bits<64>>,
    g_oob: Signal<Local, Bit>,
    g_vm: Signal<Local, Bits<8>>,
    g_lgkm: Signal<Local, Bits<8>>,
    /// The granted context's top index.
    g_k: Signal<Local, Bits<8>>,
    /// The next instruction's address.
    next_pc: Signal<Local, Bits<32>>,
    /// A branch issues.
    branch: Signal<Local, Bit>,
    /// The VALU's scalar result.
    v_sd: Signal<Local, Bits<64>>,
    kc: [Constant<Bits<6>>; C],
    onehot: [Constant<Bits<C>>; C],
    m7: Constant<Bits<8>>,
    u_salu: Constant<Bits<4>>,
    u_valu: Constant<Bits<4>>,
    u_branch: Constant<Bits<4>>,
    u_vmem: Constant<Bits<4>>,
    u_smem: Constant<Bits<4>>,
    u_lds: Constant<Bits<4>>,
    u_sync: Constant<Bits<4>>,
    u_pws: Constant<Bits<4>>,
    u_program: Constant<Bits<4>>,
    op_barrier: Constant<Bits<10>>,
    op_endpgm: Constant<Bits<10>>,
    f_smem: Constant<Bits<4>>,
    f_sopp: Constant<Bits<4>>,
    one8: Constant<Bits<8>>,
    /// log2(`U`): a slot's first context.
    ushift: Constant<Bits<8>>,
    z8: Constant<Bits<8>>,
    z32: Constant<Bits<32>>,
    z64: Constant<Bits<64>>,
    zc: Constant<Bits<C>>,
    all_c: Constant<Bits<C>>,
}

impl<const C: usize, const U: usize> Default for IssueUnit<C, U> {
    fn default() -> Self {
        assert!(U.is_power_of_two(), "U = {U} units is not a power of two");
        Self {
            clock: Default::default(),
            reset: Default::default(),
            unit_no: Default::default(),
            gto: Default::default(),
            rr: Default::default(),
            lat_salu: Default::default(),
            lat_valu: Default::default(),
            lat_branch: Default::default(),
            issue_period: Default::default(),
            split_on: Default::default(),
            o_mem: Default::default(),
            o_lds: Default::default(),
            o_cmd: Default::default(),
            mcmd: Default::default(),
            f_mem: Default::default(),
            f_lds: Default::default(),
            f_cmd: Default::default(),
            t1_mem: Default::default(),
            t1_lds: Default::default(),
            t1_cmd: Default::default(),
            t2_mem: Default::default(),
            t2_lds: Default::default(),
            t2_cmd: Default::default(),
            p1_mem: Default::default(),
            p1_lds: Default::default(),
            p1_cmd: Default::default(),
            p2_mem: Default::default(),
            p2_lds: Default::default(),
            p2_cmd: Default::default(),
            pipe_lds: Default::default(),
            port_free: Default::default(),
            start: Default::default(),
            stop: Default::default(),
            bar_release: Default::default(),
            hold: Default::default(),
            w0: array_init::array_init(|_| Default::default()),
            w1: array_init::array_init(|_| Default::default()),
            fu: array_init::array_init(|_| Default::default()),
            bad: array_init::array_init(|_| Default::default()),
            oob: array_init::array_init(|_| Default::default()),
            pc: array_init::array_init(|_| Default::default()),
            scc: array_init::array_init(|_| Default::default()),
            exec: array_init::array_init(|_| Default::default()),
            vcc: array_init::array_init(|_| Default::default()),
            eff: array_init::array_init(|_| Default::default()),
            spm: array_init::array_init(|_| Default::default()),
            state: array_init::array_init(|_| Default::default()),
            alone: array_init::array_init(|_| Default::default()),
            wi: array_init::array_init(|_| Default::default()),
            wf: array_init::array_init(|_| Default::default()),
            age: array_init::array_init(|_| Default::default()),
            vm_ret: array_init::array_init(|_| Default::default()),
            lgkm_ret: array_init::array_init(|_| Default::default()),
            lds_ret: Default::default(),
            rctx: array_init::array_init(|_| Default::default()),
            rcode: array_init::array_init(|_| Default::default()),
            rwide: array_init::array_init(|_| Default::default()),
            rlit: array_init::array_init(|_| Default::default()),
            rdata: array_init::array_init(|_| Default::default()),
            wctx: array_init::array_init(|_| Default::default()),
            sdst_we: array_init::array_init(|_| Default::default()),
            sdst: array_init::array_init(|_| Default::default()),
            wide: array_init::array_init(|_| Default::default()),
            d: array_init::array_init(|_| Default::default()),
            exec_we: array_init::array_init(|_| Default::default()),
            exec_in: array_init::array_init(|_| Default::default()),
            scc_we: array_init::array_init(|_| Default::default()),
            scc_in: array_init::array_init(|_| Default::default()),
            pc_we: array_init::array_init(|_| Default::default()),
            pc_in: array_init::array_init(|_| Default::default()),
            a_slot: Default::default(),
            a_reg: Default::default(),
            b_slot: Default::default(),
            b_reg: Default::default(),
            c_slot: Default::default(),
            c_reg: Default::default(),
            a_row: array_init::array_init(|_| Default::default()),
            b_row: array_init::array_init(|_| Default::default()),
            c_row: array_init::array_init(|_| Default::default()),
            we: Default::default(),
            w_slot: Default::default(),
            w_reg: Default::default(),
            w_mask: Default::default(),
            w_data: array_init::array_init(|_| Default::default()),
            w_two: Default::default(),
            w_data1: array_init::array_init(|_| Default::default()),
            grant_valid: Default::default(),
            grant: Default::default(),
            stall: Default::default(),
            live: Default::default(),
            sel: Default::default(),
            new_pc: Default::default(),
            format: Default::default(),
            opcode: Default::default(),
            dst: Default::default(),
            src0: Default::default(),
            src1: Default::default(),
            src2: Default::default(),
            imm: Default::default(),
            imm_offset: Default::default(),
            error: Default::default(),
            flat: Default::default(),
            smem: Default::default(),
            ds: Default::default(),
            pws: Default::default(),
            merge: Default::default(),
            endpgm: Default::default(),
            barrier: Default::default(),
            g_pc: Default::default(),
            g_eff: Default::default(),
            g_wi: Default::default(),
            g_wf: Default::default(),
            g_alone: Default::default(),
            g_pend: Default::default(),
            issue: Default::default(),
            ctake: Default::default(),
            ctake1: Default::default(),
            ctake2: Default::default(),
            ranks: Default::default(),
            fields: Default::default(),
            sops: Default::default(),
            salu: Default::default(),
            br: Default::default(),
            vops: Default::default(),
            valu: Default::default(),
            g_w0: Default::default(),
            g_w1: Default::default(),
            g_scc: Default::default(),
            g_exec: Default::default(),
            g_vcc: Default::default(),
            g_spm: Default::default(),
            g_oob: Default::default(),
            g_vm: Default::default(),
            g_lgkm: Default::default(),
            g_k: Default::default(),
            next_pc: Default::default(),
            branch: Default::default(),
            v_sd: Default::default(),
            kc: array_init::array_init(|c| k(c as u64)),
            onehot: array_init::array_init(|c| k(1 << c)),
            m7: k(0x7F),
            u_salu: k(1),
            u_valu: k(2),
            u_vmem: k(3),
            u_smem: k(4),
            u_lds: k(5),
            u_branch: k(6),
            u_pws: k(7),
            u_sync: k(8),
            u_program: k(9),
            op_barrier: k(0x0A),
            op_endpgm: k(1),
            f_smem: k(6),
            f_sopp: k(5),
            one8: k(1),
            ushift: k(u64::from(U.trailing_zeros())),
            z8: k(0),
            z32: k(0),
            z64: k(0),
            zc: k(0),
            all_c: k((1 << C) - 1),
        }
    }
}

impl<const C: usize, const U: usize> Logic for IssueUnit<C, U> {
    #[hdl_gen]
    fn update(&mut self) {
        self.issue.clock.next = self.clock.val();
        self.salu.clock.next = self.clock.val();
        self.valu.clock.next = self.clock.val();
        self.vops.clock.next = self.clock.val();
        self.issue.reset.next = self.reset.val();
        self.salu.reset.next = self.reset.val();
        self.valu.reset.next = self.reset.val();

        // Issue control: the contexts' next instructions and states.
        self.issue.gto.next = self.gto.val();
        self.issue.rr.next = self.rr.val();
        self.issue.lat_salu.next = self.lat_salu.val();
        self.issue.lat_valu.next = self.lat_valu.val();
        self.issue.lat_branch.next = self.lat_branch.val();
        self.issue.issue_period.next = self.issue_period.val();
        self.issue.split_on.next = self.split_on.val();
        self.issue.pipe_mem.next = false;
        self.issue.pipe_lds.next = self.pipe_lds.val();
        self.issue.port_free.next = self.port_free.val();
        self.issue.idu_on.next = false;
        self.issue.idu_ok.next = false;
        self.issue.idu_wait.next = bit_cast::<16, 8>(self.z8.val());
        self.issue.start.next = self.start.val();
        self.issue.stop.next = self.stop.val();
        self.issue.bar_release.next = self.bar_release.val();
        self.issue.hold.next = self.hold.val();
        self.issue.gport_free.next = self.all_c.val();
        // The visiting order: what the units visited earlier took stalls this unit's
        // contexts that need it; what this unit's first-visited grant takes.
        self.issue.o_mem.next = self.o_mem.val();
        self.issue.o_lds.next = self.o_lds.val();
        self.issue.o_port.next = self.o_cmd.val();
        self.ctake.f_valid.next = self.issue.f_valid.val();
        self.ctake.f_grant.next = self.issue.f_grant.val();
        self.ctake.f_port.next = self.issue.f_port.val();
        self.ctake.mcmd.next = self.mcmd.val();
        self.f_mem.next = self.issue.f_mem.val();
        self.f_lds.next = self.issue.f_lds.val();
        self.f_cmd.next = self.ctake.f_cmd.val();
        self.issue.t1_mem.next = self.t1_mem.val();
        self.issue.t1_lds.next = self.t1_lds.val();
        self.issue.t1_port.next = self.t1_cmd.val();
        self.issue.t2_mem.next = self.t2_mem.val();
        self.issue.t2_lds.next = self.t2_lds.val();
        self.issue.t2_port.next = self.t2_cmd.val();
        self.ctake1.f_valid.next = self.issue.p1_valid.val();
        self.ctake1.f_grant.next = self.issue.p1_grant.val();
        self.ctake1.f_port.next = self.issue.p1_port.val();
        self.ctake1.mcmd.next = self.mcmd.val();
        self.ctake2.f_valid.next = self.issue.p2_valid.val();
        self.ctake2.f_grant.next = self.issue.p2_grant.val();
        self.ctake2.f_port.next = self.issue.p2_port.val();
        self.ctake2.mcmd.next = self.mcmd.val();
        self.p1_mem.next = self.issue.p1_mem.val();
        self.p1_lds.next = self.issue.p1_lds.val();
        self.p1_cmd.next = self.ctake1.f_cmd.val();
        self.p2_mem.next = self.issue.p2_mem.val();
        self.p2_lds.next = self.issue.p2_lds.val();
        self.p2_cmd.next = self.ctake2.f_cmd.val();
        for c in 0..C {
            self.ranks.age[c].next = self.age[c].val();
            self.issue.vm_ret[c].next = self.vm_ret[c].val();
            self.issue.lgkm_ret[c].next = self.lgkm_ret[c].val();
            if self.lds_ret.val().get_bit(c) {
                self.issue.lgkm_ret[c].next = self.lgkm_ret[c].val() + self.one8.val();
            }
            self.issue.unit[c].next = self.fu[c].val();
            self.ctake.w0[c].next = self.w0[c].val();
            self.ctake1.w0[c].next = self.w0[c].val();
            self.ctake2.w0[c].next = self.w0[c].val();
            self.issue.opcode[c].next = self.w0[c].val().get_bits::<8>(16) & self.m7.val();
            self.issue.imm[c].next = self.w0[c].val().get_bits::<16>(0);
            self.issue.illegal[c].next = self.bad[c].val();
            self.issue.state[c].next = self.state[c].val();
            self.issue.age[c].next = self.ranks.rank[c].val();
        }
        self.grant_valid.next = self.issue.grant_valid.val();
        self.grant.next = self.issue.grant.val();
        self.stall.next = self.issue.stall.val();
        self.live.next = self.issue.live.val();
        self.g_k.next =
            (bit_cast::<8, 6>(self.issue.grant.val()) << self.ushift.val()) | self.unit_no.val();

        // The granted context.
        self.g_w0.next = self.z32.val();
        self.g_w1.next = self.z32.val();
        self.g_pc.next = self.z32.val();
        self.g_scc.next = false;
        self.g_exec.next = self.z64.val();
        self.g_vcc.next = self.z64.val();
        self.g_eff.next = self.z64.val();
        self.g_spm.next = self.z64.val();
        self.g_wi.next = self.z8.val();
        self.g_wf.next = self.z8.val();
        self.g_vm.next = self.z8.val();
        self.g_lgkm.next = self.z8.val();
        self.g_alone.next = false;
        self.g_oob.next = false;
        self.sel.next = self.zc.val();
        for c in 0..C {
            if self.issue.grant.val() == self.kc[c].val() {
                self.g_w0.next = self.w0[c].val();
                self.g_w1.next = self.w1[c].val();
                self.g_pc.next = self.pc[c].val();
                self.g_scc.next = self.scc[c].val();
                self.g_exec.next = self.exec[c].val();
                self.g_vcc.next = self.vcc[c].val();
                self.g_eff.next = self.eff[c].val();
                self.g_spm.next = self.spm[c].val();
                self.g_wi.next = self.wi[c].val();
                self.g_wf.next = self.wf[c].val();
                self.g_vm.next = self.issue.vmcnt[c].val();
                self.g_lgkm.next = self.issue.lgkmcnt[c].val();
                self.g_alone.next = self.alone[c].val();
                self.g_oob.next = self.oob[c].val();
                if self.issue.grant_valid.val() {
                    self.sel.next = self.onehot[c].val();
                }
            }
        }
        self.g_pend.next =
            bit_cast::<16, 8>(self.g_vm.val()) + bit_cast::<16, 8>(self.g_lgkm.val());
        self.fields.full.next = self.issue.grant_valid.val();
        self.fields.w0.next = self.g_w0.val();
        self.fields.w1.next = self.g_w1.val();
        self.next_pc.next = self.g_pc.val() + (bit_cast::<32, 2>(self.fields.words.val()) << 2);
        self.format.next = self.fields.format.val();
        self.opcode.next = self.fields.opcode.val();
        self.dst.next = self.fields.dst.val();
        self.src0.next = self.fields.src0.val();
        self.src1.next = self.fields.src1.val();
        self.src2.next = self.fields.src2.val();
        self.imm.next = self.fields.imm.val();
        self.imm_offset.next = self.fields.imm_offset.val();
        self.error.next =
            self.issue.grant_valid.val() & (self.fields.illegal.val() | self.g_oob.val());

        // What issues.
        self.flat.next =
            self.issue.grant_valid.val() & (self.fields.unit.val() == self.u_vmem.val());
        self.smem.next =
            self.issue.grant_valid.val() & (self.fields.unit.val() == self.u_smem.val());
        self.ds.next = self.issue.grant_valid.val() & (self.fields.unit.val() == self.u_lds.val());
        self.pws.next = self.issue.grant_valid.val()
            & (self.fields.unit.val() == self.u_pws.val())
            & self.split_on.val();
        self.merge.next = self.fields.format.val() == self.f_sopp.val();
        self.endpgm.next = self.issue.grant_valid.val()
            & (self.fields.unit.val() == self.u_program.val())
            & (self.fields.opcode.val() == self.op_endpgm.val());
        self.barrier.next = self.issue.grant_valid.val()
            & (self.fields.unit.val() == self.u_sync.val())
            & (self.fields.opcode.val() == self.op_barrier.val());

        // Operands, the SALU, the branch unit.
        self.sops.format.next = self.fields.format.val();
        self.sops.opcode.next = self.fields.opcode.val();
        self.sops.unit.next = self.fields.unit.val();
        self.sops.dst.next = self.fields.dst.val();
        self.sops.src0.next = self.fields.src0.val();
        self.sops.src1.next = self.fields.src1.val();
        self.sops.imm.next = self.fields.imm.val();
        self.sops.next_pc.next = self.next_pc.val();
        self.sops.rdata0.next = self.rdata[0].val();
        self.sops.rdata1.next = self.rdata[1].val();
        for p in 0..3 {
            self.rctx[p].next = self.g_k.val();
            self.rlit[p].next = self.fields.imm.val();
        }
        self.rcode[2].next = self.fields.src2.val();
        self.rwide[2].next = self.vops.s2_wide.val();
        self.rcode[0].next = self.sops.rcode0.val();
        self.rcode[1].next = self.sops.rcode1.val();
        self.rwide[0].next = self.sops.rwide0.val() | self.vops.s0_wide.val();
        self.rwide[1].next = self.sops.rwide1.val() | self.vops.s1_wide.val();
        if self.fields.format.val() == self.f_smem.val() {
            // SMEM: the base pair, the offset SGPR and a store's SDATA.
            self.rcode[0].next = self.fields.src0.val() << 1;
            self.rwide[0].next = true;
            self.rcode[1].next = bit_cast::<9, 8>(self.fields.imm.val().get_bits::<8>(0));
            self.rwide[1].next = false;
            self.rcode[2].next = bit_cast::<9, 8>(self.fields.dst.val());
            self.rwide[2].next = false;
        }
        self.salu.valid.next =
            self.issue.grant_valid.val() & (self.fields.unit.val() == self.u_salu.val());
        self.salu.format.next = self.fields.format.val();
        self.salu.opcode.next = self.fields.opcode.val().get_bits::<8>(0);
        self.salu.dst.next = self.fields.dst.val().get_bits::<7>(0);
        self.salu.a.next = self.sops.a.val();
        self.salu.b.next = self.sops.b.val();
        self.salu.scc.next = self.g_scc.val();
        self.salu.exec.next = self.g_exec.val();
        self.br.format.next = self.fields.format.val();
        self.br.opcode.next = self.fields.opcode.val();
        self.br.imm.next = self.fields.imm.val();
        self.br.next_pc.next = self.next_pc.val();
        self.br.scc.next = self.g_scc.val();
        self.br.vccz.next = (self.g_vcc.val() & self.g_spm.val()) == self.z64.val();
        self.br.execz.next = self.g_eff.val() == self.z64.val();
        self.br.src.next = self.rdata[0].val();
        self.branch.next =
            self.issue.grant_valid.val() & (self.fields.unit.val() == self.u_branch.val());
        self.new_pc.next = self.next_pc.val();
        if self.branch.val() & self.br.taken.val() {
            self.new_pc.next = self.br.target.val();
        }

        // The VALU: operands over its quarters, VGPR write-back per quarter.
        self.valu.valid.next =
            self.issue.grant_valid.val() & (self.fields.unit.val() == self.u_valu.val());
        self.valu.format.next = self.fields.format.val();
        self.valu.opcode.next = self.fields.opcode.val();
        self.valu.dst.next = self.fields.dst.val();
        self.valu.sdst.next = self.fields.sdst.val();
        self.valu.clamp.next = self.fields.clamp.val();
        self.valu.omod.next = self.fields.omod.val();
        self.valu.abs.next = self.fields.abs.val();
        self.valu.neg.next = self.fields.neg.val();
        self.valu.exec.next = self.g_eff.val();
        self.valu.mask_in.next = self.vops.mask_in.val();
        self.vops.issue.next = self.valu.valid.val();
        self.vops.busy.next = self.valu.busy.val();
        self.vops.quarter.next = self.valu.quarter.val();
        self.vops.format.next = self.fields.format.val();
        self.vops.opcode.next = self.fields.opcode.val();
        self.vops.src0.next = self.fields.src0.val();
        self.vops.src1.next = self.fields.src1.val();
        self.vops.src2.next = self.fields.src2.val();
        self.vops.dst.next = self.fields.dst.val();
        self.vops.slot.next = self.g_wf.val();
        self.vops.ctx.next = self.g_k.val();
        self.vops.s0.next = self.rdata[0].val();
        self.vops.s1.next = self.rdata[1].val();
        self.vops.vcc.next = self.g_vcc.val();
        self.vops.s2.next = self.rdata[2].val();
        self.a_slot.next = self.vops.a_slot.val();
        self.a_reg.next = self.vops.a_reg.val();
        self.b_slot.next = self.vops.b_slot.val();
        self.b_reg.next = self.vops.b_reg.val();
        self.c_slot.next = self.vops.c_slot.val();
        self.c_reg.next = self.vops.c_reg.val();
        for l in 0..64 {
            self.vops.a_row[l].next = self.a_row[l].val();
            self.vops.b_row[l].next = self.b_row[l].val();
            self.vops.c_row[l].next = self.c_row[l].val();
        }
        for i in 0..16 {
            self.valu.a[i].next = self.vops.a[i].val();
            self.valu.b[i].next = self.vops.b[i].val();
            self.valu.c[i].next = self.vops.c[i].val();
            self.valu.d[i].next = self.vops.d[i].val();
        }
        self.we.next = self.valu.wb_valid.val();
        self.w_slot.next = self.vops.wb_slot.val();
        self.w_reg.next = self.valu.wb_vgpr.val();
        self.w_mask.next = bit_cast::<64, 16>(self.valu.wb_lanes.val())
            << (bit_cast::<8, 2>(self.valu.wb_quarter.val()) << 4);
        self.w_two.next = self.valu.wb_two.val();
        for q in 0..4 {
            for i in 0..16 {
                self.w_data[16 * q + i].next = self.valu.wb_data[i].val();
                self.w_data1[16 * q + i].next = self.valu.wb_data_hi[i].val();
            }
        }

        // Write-back at the issue edge: port 0 the SALU, port 1 the PC (and `s_swappc_b64`);
        // port 2 the VALU's scalar result at the edge that ends its last quarter.
        for p in 0..2 {
            self.wctx[p].next = self.g_k.val();
            self.sdst[p].next = self.fields.dst.val().get_bits::<7>(0);
        }
        self.sdst_we[0].next = self.salu.n_sdst_we.val();
        self.wide[0].next = self.salu.n_wide.val();
        self.d[0].next = (bit_cast::<64, 32>(self.salu.n_hi.val()) << 32)
            | bit_cast::<64, 32>(self.salu.n_lo.val());
        self.exec_we[0].next = self.salu.n_exec_we.val();
        self.exec_in[0].next = self.salu.n_exec.val();
        self.scc_we[0].next = self.salu.n_scc_we.val();
        self.scc_in[0].next = self.salu.n_scc.val();
        self.pc_we[0].next = false;
        self.pc_in[0].next = self.z32.val();
        self.sdst_we[1].next = self.branch.val() & self.br.swap.val();
        self.wide[1].next = true;
        self.d[1].next = bit_cast::<64, 32>(self.next_pc.val());
        self.exec_we[1].next = false;
        self.exec_in[1].next = self.z64.val();
        self.scc_we[1].next = false;
        self.scc_in[1].next = false;
        self.pc_we[1].next = self.issue.grant_valid.val();
        self.pc_in[1].next = self.new_pc.val();
        self.wctx[2].next = self.vops.wb_ctx.val();
        self.sdst[2].next = self.valu.n_sgpr_dst.val();
        self.sdst_we[2].next = self.valu.n_sgpr_we.val();
        self.wide[2].next = self.valu.n_sgpr_wide.val();
        self.v_sd.next = (bit_cast::<64, 32>(self.valu.n_sgpr_hi.val()) << 32)
            | bit_cast::<64, 32>(self.valu.n_sgpr_lo.val());
        self.d[2].next = self.v_sd.val();
        self.exec_we[2].next = self.valu.n_exec_we.val();
        self.exec_in[2].next = self.v_sd.val();
        self.scc_we[2].next = false;
        self.scc_in[2].next = false;
        self.pc_we[2].next = false;
        self.pc_in[2].next = self.z32.val();
    }
}
