//! `ComputeUnitTop`: the compute unit's blocks wired into one RTL design.

use super::age_rank::AgeRank;
use super::barrier::BarrierRelease;
use super::branch::BranchTarget;
use super::ctx_tags::CtxTags;
use super::lds_check::LdsCheck;
use super::lds_port::LdsPort;
use super::mem_request::MemRequest;
use super::mem_return::MemReturn;
use super::salu_operands::SaluOperands;
use super::split_ctl::SplitCtl;
use super::valu_operands::ValuOperands;
use super::wave_init::WaveInit;
use crate::ctx::{CtxRegs, Vgprs, INIT_SGPRS};
use crate::cu::CuError;
use crate::cu_top::{
    CODE_WORDS, CONTEXTS as C, LDS_PART_WORDS, LDS_WORDS, SGPR_WORDS, VGPRS, VGPR_ROWS,
};
use crate::dispatch::Dispatch;
use crate::fetch::Fetch;
use crate::hdl::k;
use crate::isa::rtl::insn_fields::InsnFields;
use crate::issue::Issue;
use crate::lds::Lds;
use crate::pws::rtl::simd_group::SimdGroup;
use crate::pws::ErrorCode;
use crate::salu::Salu;
use crate::valu::Valu;
use rust_hdl::prelude::*;

/// The compute unit in RTL (see [`crate::cu_top`] for what it holds, its ports and timing).
#[derive(LogicBlock)]
pub struct ComputeUnitTop {
    /// Core clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: no launch, every context empty (the code memory keeps its words).
    pub reset: Signal<In, Bit>,
    /// Start a launch with the launch inputs below (one cycle).
    pub launch: Signal<In, Bit>,
    /// The kernel's first instruction (byte address into the code memory).
    pub entry_pc: Signal<In, Bits<32>>,
    /// Work-groups in the launch.
    pub wg_count: Signal<In, Bits<32>>,
    /// Wavefronts per work-group (`⌈wg_size / 64⌉`).
    pub waves: Signal<In, Bits<8>>,
    /// Work-items per work-group.
    pub wg_size: Signal<In, Bits<32>>,
    /// The kernel argument segment's byte address (`s[0:1]`).
    pub kernarg: Signal<In, Bits<64>>,
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
    /// The launch splits (`split`/`merge` act; else they are no-ops).
    pub split_on: Signal<In, Bit>,
    /// The splitting is DWS (a split takes a free context of the SIMD); only DWS is built.
    pub dws: Signal<In, Bit>,
    /// Write `code_data` to code dword `code_addr`.
    pub code_we: Signal<In, Bit>,
    /// The code dword written.
    pub code_addr: Signal<In, Bits<32>>,
    /// The value written.
    pub code_data: Signal<In, Bits<32>>,
    /// Code dword `code_addr` (combinational: the instruction memory's read port).
    pub code_rdata: Signal<Out, Bits<32>>,
    /// The data memory's size in dwords (memory accesses at or past it fault).
    pub mem_words: Signal<In, Bits<32>>,
    /// The launch's LDS size per work-group in dwords: an LDS access at or past it faults.
    /// A partition holds at most `LDS_PART_WORDS` (256); a larger value is taken as 256, so
    /// a work-group never reaches another's partition.
    pub lds_words: Signal<In, Bits<32>>,
    /// Memory port: a vector request (a FLAT instruction issues).
    pub vreq: Signal<Out, Bit>,
    /// It is a store.
    pub vstore: Signal<Out, Bit>,
    /// Its lanes.
    pub vmask: Signal<Out, Bits<64>>,
    /// Lane `l`'s dword index.
    pub vaddr: [Signal<Out, Bits<32>>; 64],
    /// Lane `l`'s store data.
    pub vdata: [Signal<Out, Bits<32>>; 64],
    /// Its tag (returned with the response).
    pub vtag: Signal<Out, Bits<16>>,
    /// Memory port: a scalar request (an SMEM load issues).
    pub sreq: Signal<Out, Bit>,
    /// Its first dword index.
    pub saddr: Signal<Out, Bits<32>>,
    /// Its dwords (1, 2 or 4).
    pub sn: Signal<Out, Bits<3>>,
    /// Its tag.
    pub stag: Signal<Out, Bits<16>>,
    /// Memory port: a vector response (in the cycle before the behavioural unit retires the
    /// access).
    pub vresp: Signal<In, Bit>,
    /// Its request's tag.
    pub vresp_tag: Signal<In, Bits<16>>,
    /// It answers a store.
    pub vresp_store: Signal<In, Bit>,
    /// Its request's lanes.
    pub vresp_mask: Signal<In, Bits<64>>,
    /// Lane `l`'s loaded dword.
    pub vresp_data: [Signal<In, Bits<32>>; 64],
    /// Memory port: a scalar response.
    pub sresp: Signal<In, Bit>,
    /// Its request's tag.
    pub sresp_tag: Signal<In, Bits<16>>,
    /// Its dwords.
    pub sresp_n: Signal<In, Bits<3>>,
    /// The loaded dwords.
    pub sresp_data: [Signal<In, Bits<32>>; 4],
    /// A launch is running.
    pub busy: Signal<Out, Bit>,
    /// The launch stopped on an error (illegal instruction, PC past the code, memory access).
    pub fault: Signal<Out, Bit>,
    /// The PC of the instruction that stopped it.
    pub fault_pc: Signal<Out, Bits<32>>,
    /// The error is a memory access outside the data memory.
    pub fault_mem: Signal<Out, Bit>,
    /// The error is an LDS access outside the work-group's partition.
    pub fault_lds: Signal<Out, Bit>,
    /// Its byte address (low 32 bits; an LDS address is relative to the partition).
    pub fault_addr: Signal<Out, Bits<32>>,
    /// The error is one of splitting, the behavioural error code `fault_code` with its
    /// information `fault_info` (`split_overflow`, `merge_watchdog`, `end_live_splits`,
    /// `split_pending_memory`, `pws_protocol`).
    pub fault_split: Signal<Out, Bit>,
    /// Its code ([`crate::cu::CuError`]).
    pub fault_code: Signal<Out, Bits<4>>,
    /// Its information (the split/merge unit's context index, or the outstanding count).
    pub fault_info: Signal<Out, Bits<32>>,
    /// Probe: an instruction issues this cycle.
    pub issue_valid: Signal<Out, Bit>,
    /// Probe: its context (wavefront slot).
    pub issue_slot: Signal<Out, Bits<6>>,
    /// Probe: its PC.
    pub issue_pc: Signal<Out, Bits<32>>,
    /// Probe: the stall reason of a cycle without an issue ([`crate::issue::stall`]).
    pub stall: Signal<Out, Bits<3>>,
    /// Probe: a wavefront is dispatched this cycle.
    pub send: Signal<Out, Bit>,
    /// Probe: its slot.
    pub send_slot: Signal<Out, Bits<8>>,
    /// Probe: its work-group id.
    pub send_wg: Signal<Out, Bits<32>>,
    /// Probe: its wave index in the work-group.
    pub send_wave: Signal<Out, Bits<8>>,
    /// Probe: a split's child is copied from context `copy_from` into `copy_to` this cycle.
    pub copy: Signal<Out, Bit>,
    /// Probe: the parent's context.
    pub copy_from: Signal<Out, Bits<6>>,
    /// Probe: the child's context.
    pub copy_to: Signal<Out, Bits<6>>,
    /// Instruction memory and the contexts' instruction buffers.
    fetch: Fetch<C, 2, CODE_WORDS>,
    /// The contexts' scalar state.
    regs: CtxRegs<C, SGPR_WORDS, 3, 5>,
    /// The VGPR file (one slot per context).
    vgprs: Vgprs<C, VGPRS, 64, VGPR_ROWS>,
    /// Issue control.
    issue: Issue<C>,
    /// The issuing instruction's fields.
    fields: InsnFields,
    /// The SALU's and the branch unit's operand selection.
    sops: SaluOperands,
    /// The scalar ALU.
    salu: Salu,
    /// The vector ALU's operands.
    vops: ValuOperands,
    /// The vector ALU.
    valu: Valu,
    /// The branch unit.
    br: BranchTarget,
    /// A dispatched wavefront's registers.
    winit: WaveInit,
    /// The memory port's request and fault check.
    mreq: MemRequest,
    /// The memory port's tags, returns and requests in flight.
    mret: MemReturn<C>,
    /// The split/merge unit (states, SpM, effective masks).
    group: SimdGroup<64, 2, { 2 * C }>,
    /// The work-group dispatcher.
    disp: Dispatch<1, C, C>,
    /// The local data share: a partition per resident work-group entry.
    lds: Lds<LDS_WORDS>,
    /// The LDS's operand rows and instructions in flight.
    lport: LdsPort<C>,
    /// The LDS fault check of the issue cycle.
    lcheck: LdsCheck,
    /// `s_barrier`'s release.
    bar: BarrierRelease<C>,
    /// The contexts' age ranks (greedy-then-oldest).
    ranks: AgeRank<C>,
    /// Each context's VGPR slot, work-group entry, age and last PC.
    tags: CtxTags<C>,
    /// `split` and `merge` at issue: the split stacks and the commands.
    sctl: SplitCtl<C>,
    /// A launch is running.
    running: DFF<Bit>,
    /// It stopped on an error.
    failed: DFF<Bit>,
    /// The PC of the error.
    fpc: DFF<Bits<32>>,
    /// The error is a memory access.
    fmem: DFF<Bit>,
    /// The error is an LDS access.
    flds: DFF<Bit>,
    /// Its address.
    faddr: DFF<Bits<32>>,
    /// The error is one of splitting; its code and information.
    fsplit: DFF<Bit>,
    fcode: DFF<Bits<4>>,
    finfo: DFF<Bits<32>>,
    /// The split/merge unit reports an error this cycle; its code as the behavioural one.
    gerr: Signal<Local, Bit>,
    gcode: Signal<Local, Bits<4>>,
    /// The parent and child of this cycle's copy (top context indices).
    cp_from: Signal<Local, Bits<8>>,
    cp_to: Signal<Local, Bits<8>>,
    /// The context a split's copy starts (one-hot).
    copied: Signal<Local, Bits<C>>,
    /// The contexts a dispatch or a copy starts.
    born: Signal<Local, Bits<C>>,
    /// The contexts whose split/merge state is EMPTY (a merged child leaves).
    left: Signal<Local, Bits<C>>,
    /// The issuing context's VGPR slot.
    g_wf: Signal<Local, Bits<8>>,
    /// A `split` or `merge` issues with splitting on.
    is_pws: Signal<Local, Bit>,
    /// A FLAT / SMEM / DS instruction issues.
    is_flat: Signal<Local, Bit>,
    is_smem: Signal<Local, Bit>,
    is_ds: Signal<Local, Bit>,
    /// The issuing context's LDS partition (its first word).
    g_base: Signal<Local, Bits<16>>,
    /// A launch or a reset: the LDS's instructions in flight are forgotten.
    lds_reset: Signal<Local, Bit>,
    /// The slots whose contexts are EMPTY or DONE.
    free: Signal<Local, Bits<C>>,
    /// The context whose `s_endpgm` issues (one-hot).
    ending: Signal<Local, Bits<C>>,
    /// The context a dispatch starts (one-hot).
    started: Signal<Local, Bits<C>>,
    /// The issuing context's instruction, PC and registers.
    g_w0: Signal<Local, Bits<32>>,
    g_w1: Signal<Local, Bits<32>>,
    g_pc: Signal<Local, Bits<32>>,
    g_scc: Signal<Local, Bit>,
    g_exec: Signal<Local, Bits<64>>,
    g_vcc: Signal<Local, Bits<64>>,
    g_eff: Signal<Local, Bits<64>>,
    g_spm: Signal<Local, Bits<64>>,
    g_wi: Signal<Local, Bits<8>>,
    g_oob: Signal<Local, Bit>,
    /// The issuing context's outstanding memory operations (vmcnt + lgkmcnt).
    g_pend: Signal<Local, Bits<16>>,
    g_vm: Signal<Local, Bits<8>>,
    g_lgkm: Signal<Local, Bits<8>>,
    /// It has no live split (no child, no parent).
    g_alone: Signal<Local, Bit>,
    /// The next instruction's address and the PC the issue writes.
    next_pc: Signal<Local, Bits<32>>,
    new_pc: Signal<Local, Bits<32>>,
    /// The issuing instruction is `s_endpgm`; it is a branch.
    endpgm: Signal<Local, Bit>,
    branch: Signal<Local, Bit>,
    /// An issue stops the launch.
    error: Signal<Local, Bit>,
    /// The VALU's scalar result (a lane mask, or `v_readfirstlane_b32`'s word).
    v_sd: Signal<Local, Bits<64>>,
    m7: Constant<Bits<8>>,
    kc: [Constant<Bits<6>>; C],
    ks: [Constant<Bits<8>>; C],
    onehot: [Constant<Bits<C>>; C],
    u_salu: Constant<Bits<4>>,
    u_valu: Constant<Bits<4>>,
    u_branch: Constant<Bits<4>>,
    u_vmem: Constant<Bits<4>>,
    u_smem: Constant<Bits<4>>,
    u_lds: Constant<Bits<4>>,
    u_sync: Constant<Bits<4>>,
    op_barrier: Constant<Bits<10>>,
    /// Entry `r`'s LDS partition: its first word.
    part_base: [Constant<Bits<16>>; C],
    /// Words of a partition.
    part_words: Constant<Bits<32>>,
    /// The words a work-group may access: `lds_words`, at most `part_words`.
    wg_words: Signal<Local, Bits<32>>,
    /// Quarter numbers.
    kq: [Constant<Bits<2>>; 4],
    f_smem: Constant<Bits<4>>,
    op_store: Constant<Bits<10>>,
    one_reg: Constant<Bits<8>>,
    u_program: Constant<Bits<4>>,
    op_endpgm: Constant<Bits<10>>,
    cmd_dispatch: Constant<Bits<3>>,
    cmd_split: Constant<Bits<3>>,
    cmd_merge: Constant<Bits<3>>,
    cmd_end: Constant<Bits<3>>,
    u_pws: Constant<Bits<4>>,
    f_sopp: Constant<Bits<4>>,
    /// The behavioural error codes of splitting, and the split/merge unit's last error
    /// (`end_live_splits`) that maps to one of its own.
    e_pending: Constant<Bits<4>>,
    e_overflow: Constant<Bits<4>>,
    e_protocol: Constant<Bits<4>>,
    pws_e_last: Constant<Bits<3>>,
    one4: Constant<Bits<4>>,
    s_empty: Constant<Bits<3>>,
    s_done: Constant<Bits<3>>,
    one8: Constant<Bits<8>>,
    res: Constant<Bits<8>>,
    wd: Constant<Bits<16>>,
    z3: Constant<Bits<3>>,
    z8: Constant<Bits<8>>,
    z32: Constant<Bits<32>>,
    z64: Constant<Bits<64>>,
    zc: Constant<Bits<C>>,
    all_c: Constant<Bits<C>>,
}

impl Default for ComputeUnitTop {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            launch: Default::default(),
            entry_pc: Default::default(),
            wg_count: Default::default(),
            waves: Default::default(),
            wg_size: Default::default(),
            kernarg: Default::default(),
            gto: Default::default(),
            rr: Default::default(),
            lat_salu: Default::default(),
            lat_valu: Default::default(),
            lat_branch: Default::default(),
            issue_period: Default::default(),
            code_we: Default::default(),
            code_addr: Default::default(),
            code_data: Default::default(),
            code_rdata: Default::default(),
            mem_words: Default::default(),
            lds_words: Default::default(),
            vreq: Default::default(),
            vstore: Default::default(),
            vmask: Default::default(),
            vaddr: array_init::array_init(|_| Default::default()),
            vdata: array_init::array_init(|_| Default::default()),
            vtag: Default::default(),
            sreq: Default::default(),
            saddr: Default::default(),
            sn: Default::default(),
            stag: Default::default(),
            vresp: Default::default(),
            vresp_tag: Default::default(),
            vresp_store: Default::default(),
            vresp_mask: Default::default(),
            vresp_data: array_init::array_init(|_| Default::default()),
            sresp: Default::default(),
            sresp_tag: Default::default(),
            sresp_n: Default::default(),
            sresp_data: array_init::array_init(|_| Default::default()),
            busy: Default::default(),
            fault: Default::default(),
            fault_pc: Default::default(),
            fault_mem: Default::default(),
            fault_lds: Default::default(),
            fault_addr: Default::default(),
            issue_valid: Default::default(),
            issue_slot: Default::default(),
            issue_pc: Default::default(),
            stall: Default::default(),
            send: Default::default(),
            send_slot: Default::default(),
            send_wg: Default::default(),
            send_wave: Default::default(),
            fetch: Default::default(),
            regs: Default::default(),
            issue: Default::default(),
            fields: Default::default(),
            sops: Default::default(),
            salu: Default::default(),
            vops: Default::default(),
            valu: Default::default(),
            vgprs: Default::default(),
            br: Default::default(),
            winit: Default::default(),
            mreq: Default::default(),
            mret: Default::default(),
            group: Default::default(),
            disp: Default::default(),
            lds: Default::default(),
            lport: Default::default(),
            lcheck: Default::default(),
            bar: Default::default(),
            ranks: Default::default(),
            tags: Default::default(),
            sctl: Default::default(),
            running: Default::default(),
            failed: Default::default(),
            fpc: Default::default(),
            fmem: Default::default(),
            flds: Default::default(),
            faddr: Default::default(),
            fsplit: Default::default(),
            fcode: Default::default(),
            finfo: Default::default(),
            gerr: Default::default(),
            gcode: Default::default(),
            cp_from: Default::default(),
            cp_to: Default::default(),
            copied: Default::default(),
            born: Default::default(),
            left: Default::default(),
            g_wf: Default::default(),
            is_pws: Default::default(),
            split_on: Default::default(),
            dws: Default::default(),
            fault_split: Default::default(),
            fault_code: Default::default(),
            fault_info: Default::default(),
            copy: Default::default(),
            copy_from: Default::default(),
            copy_to: Default::default(),
            is_flat: Default::default(),
            is_smem: Default::default(),
            is_ds: Default::default(),
            g_base: Default::default(),
            lds_reset: Default::default(),
            free: Default::default(),
            started: Default::default(),
            ending: Default::default(),
            g_w0: Default::default(),
            g_w1: Default::default(),
            g_pc: Default::default(),
            g_scc: Default::default(),
            g_exec: Default::default(),
            g_vcc: Default::default(),
            g_eff: Default::default(),
            g_spm: Default::default(),
            g_wi: Default::default(),
            g_oob: Default::default(),
            g_pend: Default::default(),
            g_vm: Default::default(),
            g_lgkm: Default::default(),
            g_alone: Default::default(),
            next_pc: Default::default(),
            new_pc: Default::default(),
            endpgm: Default::default(),
            branch: Default::default(),
            error: Default::default(),
            v_sd: Default::default(),
            m7: k(0x7F),
            kc: array_init::array_init(|c| k(c as u64)),
            ks: array_init::array_init(|c| k(c as u64)),
            onehot: array_init::array_init(|c| k(1 << c)),
            u_salu: k(1),
            u_valu: k(2),
            u_branch: k(6),
            u_vmem: k(3),
            u_smem: k(4),
            u_lds: k(5),
            u_sync: k(8),
            op_barrier: k(0x0A),
            part_base: array_init::array_init(|r| k((r * LDS_PART_WORDS) as u64)),
            part_words: k(LDS_PART_WORDS as u64),
            wg_words: Default::default(),
            kq: array_init::array_init(|q| k(q as u64)),
            f_smem: k(6),
            op_store: k(0x1C),
            one_reg: k(1),
            u_program: k(9),
            op_endpgm: k(1),
            cmd_dispatch: k(1),
            cmd_split: k(crate::pws::Cmd::Split as u64),
            cmd_merge: k(crate::pws::Cmd::Merge as u64),
            cmd_end: k(4),
            u_pws: k(7),
            f_sopp: k(5),
            e_pending: k(CuError::SplitPendingMemory as u64),
            e_overflow: k(CuError::SplitOverflow as u64),
            e_protocol: k(CuError::PwsProtocol as u64),
            pws_e_last: k(ErrorCode::EndLiveSplits as u64),
            one4: k(1),
            s_empty: k(0),
            s_done: k(5),
            one8: k(1),
            res: k(C as u64),
            wd: k(0xFFFF),
            z3: k(0),
            z8: k(0),
            z32: k(0),
            z64: k(0),
            zc: k(0),
            all_c: k((1 << C) - 1),
        }
    }
}

impl Logic for ComputeUnitTop {
    #[hdl_gen]
    fn update(&mut self) {
        // Clocks and resets.
        dff_setup!(self, clock, running, failed, fpc, fmem, flds, faddr, fsplit, fcode, finfo);
        for c in 0..C {
            self.ranks.age[c].next = self.tags.age[c].val();
        }
        self.tags.clock.next = self.clock.val();
        self.sctl.clock.next = self.clock.val();
        self.sctl.reset.next = self.reset.val();
        self.fetch.clock.next = self.clock.val();
        self.regs.clock.next = self.clock.val();
        self.issue.clock.next = self.clock.val();
        self.salu.clock.next = self.clock.val();
        self.valu.clock.next = self.clock.val();
        self.vops.clock.next = self.clock.val();
        self.vgprs.clock.next = self.clock.val();
        self.mret.clock.next = self.clock.val();
        self.group.clock.next = self.clock.val();
        self.disp.clock.next = self.clock.val();
        self.lds.clock.next = self.clock.val();
        self.lport.clock.next = self.clock.val();
        self.bar.clock.next = self.clock.val();
        self.lds_reset.next = self.reset.val() | self.launch.val();
        self.lds.reset.next = self.lds_reset.val();
        self.lport.reset.next = self.lds_reset.val();
        self.bar.reset.next = self.lds_reset.val();
        self.fetch.reset.next = self.reset.val();
        self.regs.reset.next = self.reset.val();
        self.issue.reset.next = self.reset.val();
        self.salu.reset.next = self.reset.val();
        self.valu.reset.next = self.reset.val();
        self.vgprs.reset.next = self.reset.val();
        // (A launch starts from empty contexts, as the behavioural unit builds its groups.)
        self.group.reset.next = self.reset.val() | self.launch.val();
        self.disp.reset.next = self.reset.val();

        // The driver's code writes.
        self.fetch.wen.next = self.code_we.val();
        self.fetch.waddr.next = self.code_addr.val();
        self.fetch.wdata.next = self.code_data.val();
        self.fetch.raddr.next = self.code_addr.val();
        self.code_rdata.next = self.fetch.rdata.val();

        // The dispatcher: one SIMD group; a slot is free when its context is EMPTY or DONE.
        self.disp.start.next = self.launch.val();
        self.disp.wg_first.next = self.z32.val();
        self.disp.wg_end.next = self.wg_count.val();
        self.disp.wg_stride.next = bit_cast::<32, 8>(self.one8.val());
        self.disp.waves.next = self.waves.val();
        self.disp.max_res.next = self.res.val();
        self.disp.limit.next = self.wg_count.val();
        self.disp.port_free[0].next = true;
        self.free.next = self.zc.val();
        for c in 0..C {
            if (self.group.state[2 * c].val() == self.s_empty.val())
                | (self.group.state[2 * c].val() == self.s_done.val())
            {
                self.free.next = self.free.val() | self.onehot[c].val();
            }
        }
        self.disp.free[0].next = self.free.val();
        self.send.next = self.disp.send[0].val();
        self.send_slot.next = self.disp.send_slot[0].val();
        self.send_wg.next = self.disp.send_wg[0].val();
        self.send_wave.next = self.disp.send_wave[0].val();

        // A dispatched wavefront's registers.
        self.winit.kernarg.next = self.kernarg.val();
        self.winit.wg_id.next = self.disp.send_wg[0].val();
        self.winit.wg_size.next = self.wg_size.val();
        self.winit.wave.next = self.disp.send_wave[0].val();
        self.regs.init.next = self.disp.send[0].val();
        self.regs.init_ctx.next = self.disp.send_slot[0].val();
        self.regs.init_pc.next = self.entry_pc.val();
        self.regs.init_exec.next = self.winit.lanes.val();
        for i in 0..INIT_SGPRS {
            self.regs.init_s[i].next = self.winit.init_s[i].val();
        }
        self.vgprs.clear.next = self.disp.send[0].val();
        self.vgprs.clear_slot.next = self.disp.send_slot[0].val();
        self.vgprs.clear_v0.next = bit_cast::<32, 8>(self.disp.send_wave[0].val()) << 6;
        self.started.next = self.zc.val();
        self.fetch.pc[1].next = self.entry_pc.val();
        for c in 0..C {
            if self.disp.send[0].val() & (self.disp.send_slot[0].val() == self.ks[c].val()) {
                self.started.next = self.onehot[c].val();
            }
        }
        self.tags.launch.next = self.launch.val();
        self.tags.send.next = self.disp.send[0].val();
        self.tags.send_ctx.next = self.disp.send_slot[0].val();
        self.tags.send_wi.next = self.disp.send_wi[0].val();

        // A split's child (DWS: a context of the SIMD, k = 2c): its parent's registers,
        // instruction buffer and tags, copied at the edge of the cycle after the split.
        self.cp_from.next = bit_cast::<8, 7>(self.group.copy_from.val()) >> 1;
        self.cp_to.next = bit_cast::<8, 7>(self.group.copy_to.val()) >> 1;
        self.copied.next = self.zc.val();
        for c in 0..C {
            if self.group.copy_valid.val() & (self.cp_to.val() == self.ks[c].val()) {
                self.copied.next = self.onehot[c].val();
            }
        }
        self.born.next = self.started.val() | self.copied.val();
        self.regs.copy.next = self.group.copy_valid.val();
        self.regs.copy_from.next = self.cp_from.val();
        self.regs.copy_to.next = self.cp_to.val();
        self.fetch.copy.next = self.group.copy_valid.val();
        self.fetch.copy_from.next = self.cp_from.val();
        self.fetch.copy_to.next = self.cp_to.val();
        self.tags.copy.next = self.group.copy_valid.val();
        self.tags.copy_from.next = self.cp_from.val();
        self.tags.copy_to.next = self.cp_to.val();
        self.copy.next = self.group.copy_valid.val();
        self.copy_from.next = self.cp_from.val().get_bits::<6>(0);
        self.copy_to.next = self.cp_to.val().get_bits::<6>(0);

        // Issue control: the contexts' next instructions and states.
        self.issue.gto.next = self.gto.val();
        self.issue.rr.next = self.rr.val();
        self.issue.lat_salu.next = self.lat_salu.val();
        self.issue.lat_valu.next = self.lat_valu.val();
        self.issue.lat_branch.next = self.lat_branch.val();
        self.issue.issue_period.next = self.issue_period.val();
        self.issue.split_on.next = self.split_on.val();
        self.issue.pipe_mem.next = false;
        self.issue.pipe_lds.next = self.lds.busy.val();
        self.issue.port_free.next = !self.disp.send[0].val();
        self.issue.idu_on.next = false;
        self.issue.idu_ok.next = false;
        self.issue.idu_wait.next = bit_cast::<16, 8>(self.z8.val());
        self.fetch.sel[1].next = self.started.val();
        self.issue.start.next = self.born.val();
        // A merged child leaves its context (EMPTY again).
        // (Built in a local signal: an input port reads back its last settled value.)
        self.left.next = self.zc.val();
        for c in 0..C {
            if self.group.state[2 * c].val() == self.s_empty.val() {
                self.left.next = self.left.val() | self.onehot[c].val();
            }
        }
        self.issue.stop.next = self.left.val();
        self.issue.bar_release.next = self.bar.released.val();
        // Nothing issues outside a launch (after a fault, the contexts stay as they are).
        self.issue.hold.next = self.zc.val();
        if !self.running.q.val() {
            self.issue.hold.next = self.all_c.val();
        }
        self.issue.gport_free.next = self.all_c.val();
        for c in 0..C {
            self.issue.vm_ret[c].next = self.mret.vm_ret[c].val();
            self.issue.lgkm_ret[c].next = self.mret.lgkm_ret[c].val();
            if self.lport.ret.val().get_bit(c) {
                self.issue.lgkm_ret[c].next = self.mret.lgkm_ret[c].val() + self.one8.val();
            }
            self.issue.unit[c].next = self.fetch.unit[c].val();
            self.issue.opcode[c].next = self.fetch.w0[c].val().get_bits::<8>(16) & self.m7.val();
            self.issue.imm[c].next = self.fetch.w0[c].val().get_bits::<16>(0);
            self.issue.illegal[c].next = self.fetch.illegal[c].val() | self.fetch.oob[c].val();
            self.issue.state[c].next = self.group.state[2 * c].val();
            self.issue.age[c].next = self.ranks.rank[c].val();
        }

        // The issuing context.
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
        for c in 0..C {
            if self.issue.grant.val() == self.kc[c].val() {
                self.g_w0.next = self.fetch.w0[c].val();
                self.g_w1.next = self.fetch.w1[c].val();
                self.g_pc.next = self.regs.pc[c].val();
                self.g_scc.next = self.regs.scc[c].val();
                self.g_exec.next = self.regs.exec[c].val();
                self.g_vcc.next = self.regs.vcc[c].val();
                self.g_eff.next = self.group.eff[2 * c].val();
                self.g_spm.next = self.group.spm[2 * c].val();
                self.g_wi.next = self.tags.wi[c].val();
                self.g_wf.next = self.tags.wf[c].val();
                self.g_vm.next = self.issue.vmcnt[c].val();
                self.g_lgkm.next = self.issue.lgkmcnt[c].val();
                self.g_alone.next = (self.group.sp[2 * c].val() == self.z3.val())
                    & !self.group.parent_valid[2 * c].val();
                self.g_oob.next = self.fetch.oob[c].val();
            }
        }
        self.g_pend.next =
            bit_cast::<16, 8>(self.g_vm.val()) + bit_cast::<16, 8>(self.g_lgkm.val());
        self.g_base.next = self.part_base[0].val();
        for r in 1..C {
            if self.g_wi.val() == self.ks[r].val() {
                self.g_base.next = self.part_base[r].val();
            }
        }
        self.fields.full.next = self.issue.grant_valid.val();
        self.fields.w0.next = self.g_w0.val();
        self.fields.w1.next = self.g_w1.val();
        self.next_pc.next = self.g_pc.val() + (bit_cast::<32, 2>(self.fields.words.val()) << 2);

        // Operands, the SALU, the branch unit.
        self.sops.format.next = self.fields.format.val();
        self.sops.opcode.next = self.fields.opcode.val();
        self.sops.unit.next = self.fields.unit.val();
        self.sops.dst.next = self.fields.dst.val();
        self.sops.src0.next = self.fields.src0.val();
        self.sops.src1.next = self.fields.src1.val();
        self.sops.imm.next = self.fields.imm.val();
        self.sops.next_pc.next = self.next_pc.val();
        self.sops.rdata0.next = self.regs.rdata[0].val();
        self.sops.rdata1.next = self.regs.rdata[1].val();
        for p in 0..3 {
            self.regs.rctx[p].next = bit_cast::<8, 6>(self.issue.grant.val());
            self.regs.rlit[p].next = self.fields.imm.val();
        }
        self.regs.rcode[2].next = self.fields.src2.val();
        self.regs.rwide[2].next = self.vops.s2_wide.val();
        self.regs.rcode[0].next = self.sops.rcode0.val();
        self.regs.rcode[1].next = self.sops.rcode1.val();
        self.regs.rwide[0].next = self.sops.rwide0.val();
        self.regs.rwide[1].next = self.sops.rwide1.val();
        if self.fields.format.val() == self.f_smem.val() {
            // SMEM: the base pair and the offset SGPR.
            self.regs.rcode[0].next = self.fields.src0.val() << 1;
            self.regs.rwide[0].next = true;
            self.regs.rcode[1].next = bit_cast::<9, 8>(self.fields.imm.val().get_bits::<8>(0));
            self.regs.rwide[1].next = false;
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
        self.br.src.next = self.regs.rdata[0].val();
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
        self.vops.ctx.next = bit_cast::<8, 6>(self.issue.grant.val());
        self.vops.s0.next = self.regs.rdata[0].val().get_bits::<32>(0);
        self.vops.s1.next = self.regs.rdata[1].val().get_bits::<32>(0);
        self.vops.vcc.next = self.g_vcc.val();
        self.vops.s2.next = self.regs.rdata[2].val();
        self.vgprs.a_slot.next = self.vops.a_slot.val();
        self.vgprs.a_reg.next = self.vops.a_reg.val();
        self.vgprs.b_slot.next = self.vops.b_slot.val();
        self.vgprs.b_reg.next = self.vops.b_reg.val();
        self.vgprs.c_slot.next = self.vops.c_slot.val();
        self.vgprs.c_reg.next = self.vops.c_reg.val();
        for l in 0..64 {
            self.vops.a_row[l].next = self.vgprs.a_data[l].val();
            self.vops.b_row[l].next = self.vgprs.b_data[l].val();
            self.vops.c_row[l].next = self.vgprs.c_data[l].val();
        }
        for i in 0..16 {
            self.valu.a[i].next = self.vops.a[i].val();
            self.valu.b[i].next = self.vops.b[i].val();
            self.valu.c[i].next = self.vops.c[i].val();
        }
        self.vgprs.we.next = self.valu.wb_valid.val();
        self.vgprs.w_slot.next = self.vops.wb_slot.val();
        self.vgprs.w_reg.next = self.valu.wb_vgpr.val();
        self.vgprs.w_mask.next = bit_cast::<64, 16>(self.valu.wb_lanes.val())
            << (bit_cast::<8, 2>(self.valu.wb_quarter.val()) << 4);
        for q in 0..4 {
            for i in 0..16 {
                self.vgprs.w_data[16 * q + i].next = self.valu.wb_data[i].val();
            }
        }

        // Write-back at the issue edge: port 0 the SALU, port 1 the PC (and `s_swappc_b64`);
        // port 2 the VALU's scalar result at the edge that ends its last quarter.
        for p in 0..2 {
            self.regs.wctx[p].next = bit_cast::<8, 6>(self.issue.grant.val());
            self.regs.sdst[p].next = self.fields.dst.val().get_bits::<7>(0);
        }
        self.regs.sdst_we[0].next = self.salu.n_sdst_we.val();
        self.regs.wide[0].next = self.salu.n_wide.val();
        self.regs.d[0].next = (bit_cast::<64, 32>(self.salu.n_hi.val()) << 32)
            | bit_cast::<64, 32>(self.salu.n_lo.val());
        self.regs.exec_we[0].next = self.salu.n_exec_we.val();
        self.regs.exec_in[0].next = self.salu.n_exec.val();
        self.regs.scc_we[0].next = self.salu.n_scc_we.val();
        self.regs.scc_in[0].next = self.salu.n_scc.val();
        self.regs.pc_we[0].next = false;
        self.regs.pc_in[0].next = self.z32.val();
        self.regs.sdst_we[1].next = self.branch.val() & self.br.swap.val();
        self.regs.wide[1].next = true;
        self.regs.d[1].next = bit_cast::<64, 32>(self.next_pc.val());
        self.regs.exec_we[1].next = false;
        self.regs.exec_in[1].next = self.z64.val();
        self.regs.scc_we[1].next = false;
        self.regs.scc_in[1].next = false;
        self.regs.pc_we[1].next = self.issue.grant_valid.val();
        self.regs.pc_in[1].next = self.new_pc.val();
        self.regs.wctx[2].next = self.vops.wb_ctx.val();
        self.regs.sdst[2].next = self.valu.n_sgpr_dst.val();
        self.regs.sdst_we[2].next = self.valu.n_sgpr_we.val();
        self.regs.wide[2].next = self.valu.n_sgpr_wide.val();
        self.v_sd.next = (bit_cast::<64, 32>(self.valu.n_sgpr_hi.val()) << 32)
            | bit_cast::<64, 32>(self.valu.n_sgpr_lo.val());
        self.regs.d[2].next = self.v_sd.val();
        self.regs.exec_we[2].next = self.valu.n_exec_we.val();
        self.regs.exec_in[2].next = self.v_sd.val();
        self.regs.scc_we[2].next = false;
        self.regs.scc_in[2].next = false;
        self.regs.pc_we[2].next = false;
        self.regs.pc_in[2].next = self.z32.val();
        self.fetch.pc[0].next = self.new_pc.val();
        self.fetch.sel[0].next = self.zc.val();
        for c in 0..C {
            if self.issue.grant_valid.val() & (self.issue.grant.val() == self.kc[c].val()) {
                self.fetch.sel[0].next = self.onehot[c].val();
            }
        }

        // The memory port: FLAT and SMEM requests in the issue cycle, the returns.
        self.is_flat.next =
            self.issue.grant_valid.val() & (self.fields.unit.val() == self.u_vmem.val());
        self.is_smem.next =
            self.issue.grant_valid.val() & (self.fields.unit.val() == self.u_smem.val());
        for p in 0..3 {
            self.vgprs.x_slot[p].next = self.g_wf.val();
        }
        self.vgprs.x_reg[0].next = self.fields.src0.val().get_bits::<8>(0);
        self.vgprs.x_reg[1].next = self.fields.src0.val().get_bits::<8>(0) + self.one_reg.val();
        self.vgprs.x_reg[2].next = self.fields.src1.val().get_bits::<8>(0);
        self.mreq.flat.next = self.is_flat.val();
        self.mreq.store.next = self.fields.opcode.val() >= self.op_store.val();
        self.mreq.smem.next = self.is_smem.val();
        self.mreq.eff.next = self.g_eff.val();
        for l in 0..64 {
            self.mreq.lo[l].next = self.vgprs.x0_data[l].val();
            self.mreq.hi[l].next = self.vgprs.x1_data[l].val();
            self.mreq.data[l].next = self.vgprs.x2_data[l].val();
            self.vaddr[l].next = self.mreq.vaddr[l].val();
            self.vdata[l].next = self.mreq.vdata[l].val();
            self.vgprs.m_data[l].next = self.vresp_data[l].val();
        }
        self.mreq.sbase.next = self.regs.rdata[0].val();
        self.mreq.soff.next = self.regs.rdata[1].val().get_bits::<32>(0);
        if self.fields.imm_offset.val() {
            self.mreq.soff.next = self.fields.imm.val();
        }
        self.mreq.sop.next = self.fields.opcode.val().get_bits::<2>(0);
        self.mreq.words.next = self.mem_words.val();
        self.mreq.tag.next = self.mret.tag.val();
        self.vreq.next = self.mreq.vreq.val();
        self.vstore.next = self.mreq.vstore.val();
        self.vmask.next = self.mreq.vmask.val();
        self.vtag.next = self.mret.tag.val();
        self.sreq.next = self.mreq.sreq.val();
        self.saddr.next = self.mreq.saddr.val();
        self.sn.next = self.mreq.sn.val();
        self.stag.next = self.mret.tag.val();
        self.mret.launch.next = self.launch.val();
        self.mret.started.next = self.born.val();
        self.mret.req_ctx.next = bit_cast::<8, 6>(self.issue.grant.val());
        self.mret.req_dst.next = self.fields.dst.val();
        self.mret.req.next = self.mreq.vreq.val() | self.mreq.sreq.val();
        self.mret.vresp.next = self.vresp.val();
        self.mret.vresp_tag.next = self.vresp_tag.val();
        self.mret.vresp_store.next = self.vresp_store.val();
        self.mret.vresp_mask.next = self.vresp_mask.val();
        self.mret.sresp.next = self.sresp.val();
        self.mret.sresp_tag.next = self.sresp_tag.val();
        self.mret.sresp_n.next = self.sresp_n.val();
        for i in 0..4 {
            self.mret.sresp_data[i].next = self.sresp_data[i].val();
        }
        self.vgprs.m_we.next = self.mret.m_we.val();
        self.tags.look[2].next = self.mret.m_slot.val();
        self.vgprs.m_slot.next = self.tags.look_wf[2].val();
        self.vgprs.m_reg.next = self.mret.m_reg.val();
        self.vgprs.m_mask.next = self.mret.m_mask.val();
        for p in 3..5 {
            self.regs.wctx[p].next = self.mret.s_ctx.val();
            self.regs.exec_we[p].next = false;
            self.regs.exec_in[p].next = self.z64.val();
            self.regs.scc_we[p].next = false;
            self.regs.scc_in[p].next = false;
            self.regs.pc_we[p].next = false;
            self.regs.pc_in[p].next = self.z32.val();
        }
        self.regs.sdst_we[3].next = self.mret.s_we.val();
        self.regs.wide[3].next = self.mret.s_wide.val();
        self.regs.sdst[3].next = self.mret.s_dst.val();
        self.regs.d[3].next = self.mret.s_d.val();
        self.regs.sdst_we[4].next = self.mret.s2_we.val();
        self.regs.wide[4].next = true;
        self.regs.sdst[4].next = self.mret.s2_dst.val();
        self.regs.d[4].next = self.mret.s2_d.val();

        // The LDS: DS instructions into it, their quarters' rows from the VGPR file's `y`
        // ports, the write-back quarters through its `l` port, `done` to lgkmcnt; a partition
        // per resident entry, zeroed when the dispatcher admits a work-group into it.
        self.is_ds.next =
            self.issue.grant_valid.val() & (self.fields.unit.val() == self.u_lds.val());
        self.lds.valid.next = self.is_ds.val();
        self.lds.opcode.next = self.fields.opcode.val().get_bits::<8>(0);
        self.lds.offset.next = self.fields.imm.val();
        self.lds.vdst.next = self.fields.dst.val();
        self.lds.exec.next = self.g_eff.val();
        self.lds.wg_base.next = self.g_base.val();
        self.wg_words.next = self.lds_words.val();
        if self.lds_words.val() > self.part_words.val() {
            self.wg_words.next = self.part_words.val();
        }
        self.lds.wg_words.next = self.wg_words.val();
        self.lds.clear.next = false;
        self.lds.clear_base.next = self.part_base[0].val();
        self.lds.clear_words.next = self.part_words.val();
        for r in 0..C {
            if self.disp.admitted[r].val() {
                self.lds.clear.next = true;
                self.lds.clear_base.next = self.part_base[r].val();
            }
        }
        self.lport.issue.next = self.is_ds.val();
        self.lport.ctx.next = bit_cast::<8, 6>(self.issue.grant.val());
        self.lport.src[0].next = self.fields.src0.val().get_bits::<8>(0);
        self.lport.src[1].next = self.fields.src1.val().get_bits::<8>(0);
        self.lport.src[2].next = self.fields.src2.val().get_bits::<8>(0);
        self.lport.busy.next = self.lds.busy.val();
        self.lport.done.next = self.lds.done.val();
        self.lport.started.next = self.born.val();
        self.tags.look[0].next = self.lport.y_slot.val();
        self.vgprs.y_slot.next = self.tags.look_wf[0].val();
        for p in 0..3 {
            self.vgprs.y_reg[p].next = self.lport.y_reg[p].val();
        }
        for i in 0..16 {
            self.lds.addr[i].next = self.vgprs.y0_data[i].val();
            self.lds.data0[i].next = self.vgprs.y1_data[i].val();
            self.lds.data1[i].next = self.vgprs.y2_data[i].val();
            for q in 1..4 {
                if self.lds.quarter.val() == self.kq[q].val() {
                    self.lds.addr[i].next = self.vgprs.y0_data[16 * q + i].val();
                    self.lds.data0[i].next = self.vgprs.y1_data[16 * q + i].val();
                    self.lds.data1[i].next = self.vgprs.y2_data[16 * q + i].val();
                }
            }
        }
        self.vgprs.l_we.next = self.lds.wb_valid.val() & self.lport.wb_we.val();
        self.vgprs.l_two.next = self.lds.wb_two.val();
        self.tags.look[1].next = self.lport.wb_slot.val();
        self.vgprs.l_slot.next = self.tags.look_wf[1].val();
        self.vgprs.l_reg.next = self.lds.wb_vgpr.val();
        self.vgprs.l_mask.next = bit_cast::<64, 16>(self.lds.wb_lanes.val())
            << (bit_cast::<8, 2>(self.lds.wb_quarter.val()) << 4);
        for q in 0..4 {
            for i in 0..16 {
                self.vgprs.l_data[16 * q + i].next = self.lds.wb_data0[i].val();
                self.vgprs.l_data1[16 * q + i].next = self.lds.wb_data1[i].val();
            }
        }
        self.lcheck.valid.next = self.is_ds.val();
        self.lcheck.opcode.next = self.fields.opcode.val().get_bits::<8>(0);
        self.lcheck.offset.next = self.fields.imm.val();
        self.lcheck.exec.next = self.g_eff.val();
        self.lcheck.words.next = self.wg_words.val();
        for l in 0..64 {
            self.lcheck.addr[l].next = self.vgprs.x0_data[l].val();
        }

        // `s_barrier`: a context arrives when it issues one; the live contexts before this
        // cycle's dispatch decide the release.
        self.bar.arrive.next = self.zc.val();
        for c in 0..C {
            self.bar.wi[c].next = self.tags.wi[c].val();
            if self.issue.grant_valid.val()
                & (self.issue.grant.val() == self.kc[c].val())
                & (self.fields.unit.val() == self.u_sync.val())
                & (self.fields.opcode.val() == self.op_barrier.val())
            {
                self.bar.arrive.next = self.onehot[c].val();
            }
        }
        self.bar.started.next = self.born.val();
        self.bar.live.next = self.issue.live.val() & !self.started.val();

        // `split` and `merge` at issue (splitting on): the split stacks, the commands.
        self.is_pws.next = self.issue.grant_valid.val()
            & (self.fields.unit.val() == self.u_pws.val())
            & self.split_on.val();
        self.sctl.issue.next = self.is_pws.val();
        self.sctl.is_merge.next = self.fields.format.val() == self.f_sopp.val();
        self.sctl.dws.next = self.dws.val();
        self.sctl.ctx.next = bit_cast::<8, 6>(self.issue.grant.val());
        self.sctl.eff.next = self.g_eff.val();
        self.sctl.value.next = (bit_cast::<64, 32>(self.regs.rdata[1].val().get_bits::<32>(0))
            << 32)
            | bit_cast::<64, 32>(self.regs.rdata[0].val().get_bits::<32>(0));
        self.sctl.pending.next = self.g_pend.val();
        self.sctl.denied.next = self.group.split_denied.val();
        self.sctl.born.next = self.born.val();

        // The split/merge unit: a dispatch, else a split, a merge or an `s_endpgm`.
        self.endpgm.next = self.issue.grant_valid.val()
            & (self.fields.unit.val() == self.u_program.val())
            & (self.fields.opcode.val() == self.op_endpgm.val());
        self.group.dws.next = self.dws.val();
        self.group.watchdog.next = self.wd.val();
        self.group.cmd_unit.next = self.z3.val();
        self.group.cmd_pc.next = self.z32.val();
        self.group.cmd.next = self.z3.val();
        self.group.cmd_slot.next = self.issue.grant.val().get_bits::<4>(0);
        self.group.cmd_mask.next = self.winit.lanes.val();
        if self.endpgm.val() {
            self.group.cmd.next = self.cmd_end.val();
        }
        if self.sctl.cmd_split.val() {
            self.group.cmd.next = self.cmd_split.val();
            self.group.cmd_mask.next = self.sctl.value.val();
        }
        if self.sctl.cmd_merge.val() {
            self.group.cmd.next = self.cmd_merge.val();
            self.group.cmd_pc.next = self.g_pc.val();
        }
        if self.disp.send[0].val() {
            self.group.cmd.next = self.cmd_dispatch.val();
            self.group.cmd_slot.next = self.disp.send_slot[0].val().get_bits::<4>(0);
        }
        for c in 0..C {
            self.group.exec[2 * c].next = self.regs.exec[c].val();
            self.group.exec[2 * c + 1].next = self.z64.val();
        }
        for r in 0..C {
            self.disp.ended[r].next = self.z8.val();
            // (A wavefront with live splits does not end: the split/merge unit reports it.)
            if self.endpgm.val() & self.g_alone.val() & (self.g_wi.val() == self.ks[r].val()) {
                self.disp.ended[r].next = self.one8.val();
            }
        }

        // The launch: running from `launch` until every work-group has ended or an error.
        // The split/merge unit's error of the last edge, as the behavioural unit maps it.
        self.gerr.next = self.group.error.val() != self.z3.val();
        self.gcode.next = self.e_protocol.val();
        if self.group.error.val() <= self.pws_e_last.val() {
            self.gcode.next = bit_cast::<4, 3>(self.group.error.val()) + self.one4.val();
        }
        self.error.next = (self.issue.grant_valid.val()
            & (self.fields.illegal.val() | self.g_oob.val()))
            | self.mreq.fault.val()
            | self.lcheck.fault.val()
            | self.sctl.fault_pending.val()
            | self.sctl.fault_overflow.val()
            | self.gerr.val();
        self.tags.pc_ctx.next = bit_cast::<8, 7>(self.group.error_ctx.val()) >> 1;
        self.tags.issue.next = self.issue.grant_valid.val();
        self.tags.issue_ctx.next = bit_cast::<8, 6>(self.issue.grant.val());
        self.tags.issue_pc.next = self.g_pc.val();
        self.running.d.next = self.running.q.val();
        self.failed.d.next = self.failed.q.val();
        self.fpc.d.next = self.fpc.q.val();
        self.ending.next = self.zc.val();
        for c in 0..C {
            if self.endpgm.val() & (self.issue.grant.val() == self.kc[c].val()) {
                self.ending.next = self.onehot[c].val();
            }
        }
        if self.running.q.val()
            & self.disp.finished.val()
            & ((self.issue.live.val() & !self.ending.val()) == self.zc.val())
            & self.mret.idle_next.val()
            & self.lport.idle_next.val()
        {
            self.running.d.next = false;
        }
        if self.running.q.val() & self.error.val() {
            self.running.d.next = false;
            self.failed.d.next = true;
            self.fpc.d.next = self.g_pc.val();
            self.fmem.d.next = self.mreq.fault.val();
            self.flds.d.next = self.lcheck.fault.val();
            self.faddr.d.next = self.mreq.fault_addr.val();
            if self.lcheck.fault.val() {
                self.faddr.d.next = self.lcheck.fault_addr.val();
            }
            self.fsplit.d.next =
                self.sctl.fault_pending.val() | self.sctl.fault_overflow.val() | self.gerr.val();
            self.fcode.d.next = self.e_pending.val();
            self.finfo.d.next = bit_cast::<32, 16>(self.g_pend.val());
            if self.sctl.fault_overflow.val() {
                self.fcode.d.next = self.e_overflow.val();
                self.finfo.d.next = bit_cast::<32, 6>(self.issue.grant.val()) << 1;
            }
            // (Found at the start of the cycle, before its issue: it wins.)
            if self.gerr.val() {
                self.fpc.d.next = self.tags.last_pc.val();
                self.fmem.d.next = false;
                self.flds.d.next = false;
                self.fcode.d.next = self.gcode.val();
                self.finfo.d.next = bit_cast::<32, 7>(self.group.error_ctx.val());
            }
        }
        if self.launch.val() {
            self.running.d.next = true;
            self.failed.d.next = false;
        }
        if self.reset.val() {
            self.running.d.next = false;
            self.failed.d.next = false;
        }
        self.busy.next = self.running.q.val();
        self.fault.next = self.failed.q.val();
        self.fault_pc.next = self.fpc.q.val();
        self.fault_mem.next = self.fmem.q.val();
        self.fault_lds.next = self.flds.q.val();
        self.fault_addr.next = self.faddr.q.val();
        self.fault_split.next = self.fsplit.q.val();
        self.fault_code.next = self.fcode.q.val();
        self.fault_info.next = self.finfo.q.val();
        self.issue_valid.next = self.issue.grant_valid.val();
        self.issue_slot.next = self.issue.grant.val();
        self.issue_pc.next = self.g_pc.val();
        self.stall.next = self.issue.stall.val();
    }
}
