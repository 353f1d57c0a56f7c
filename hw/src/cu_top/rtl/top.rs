//! `ComputeUnitTop`: the compute unit's blocks wired into one RTL design, written once for
//! any number of issue units (`compute_unit_top!`, below).

use super::barrier::BarrierRelease;
use super::ctx_number::CtxNumber;
use super::ctx_tags::CtxTags;
use super::issue_unit::IssueUnit;
use super::lds_check::LdsCheck;
use super::lds_port::LdsPort;
use super::mem_request::MemRequest;
use super::mem_return::MemReturn;
use super::split_ctl::SplitCtl;
use super::wave_init::WaveInit;
use crate::ctx::{CtxRegs, Vgprs, INIT_SGPRS};
use crate::cu::{abi::MAX_USER_SGPRS, CuError};
use crate::cu_top::{
    CODE_WORDS, CONTEXTS as C, GROUP_CONTEXTS, GROUP_CONTEXTS2, LDS_PART_WORDS, LDS_WORDS,
    SGPR_WORDS, SGPR_WORDS2, VGPRS, VGPR_ROWS,
};
use crate::dispatch::Dispatch;
use crate::fetch::Fetch;
use crate::hdl::k;
use crate::lds::Lds;
use crate::pws::rtl::simd_group::SimdGroup;
use crate::pws::ErrorCode;
use rust_hdl::prelude::*;

/// Defines a compute unit top with the issue units listed.
///
/// rust-hdl 0.46's Verilog writer cannot index a port array of an element of a sub-block
/// array by a loop variable, nor name a constant in an index, so the units cannot be an
/// array walked by loops: this macro writes the per-unit wiring once per unit instead, from
/// one source for every top. Its arguments are literals and names that the generated
/// indices use as they are:
///
/// - `units`, `log2`: the issue units `U` (2 or 4) and log2(`U`);
/// - `contexts`, `sgpr_words`: the group's contexts `K` = `U` · [`C`] and their SGPR words;
/// - `reg_ports`: the SGPR file's read and write ports (3 `U`, 3 `U` + 2), `returns`: its two
///   write ports of the memory's returns (3 `U`, 3 `U` + 1); `fetch_ports`: `U` + 1;
/// - per unit: its field, its number and the names of its VALU's ports on the VGPR file
///   (`a` slot, VGPR, data; `b`; `c`; write enable, slot, VGPR, mask, data, pair, the pair's
///   second row's data);
/// - the VGPR file's VALU port sets no unit uses (their inputs, tied off).
macro_rules! compute_unit_top {
    (
        $(#[$attr:meta])*
        $name:ident {
            units: $U:tt,
            log2: $LU:tt,
            contexts: $K:ident,
            sgpr_words: $SW:ident,
            reg_ports: ($RP:tt, $WP:tt),
            returns: ($R0:tt, $R1:tt),
            fetch_ports: $FP:tt,
            each: [$(
                $unit:ident = $u:tt (
                    $as:ident $ar:ident $ad:ident
                    $bs:ident $br:ident $bd:ident
                    $cs:ident $cr:ident $cd:ident
                    $we:ident $ws:ident $wr:ident $wm:ident $wd:ident $wt:ident $wd1:ident
                )
            ),+ $(,)?],
            spare_vgpr_ports: [$(
                (
                    $sas:ident $sar:ident $sbs:ident $sbr:ident $scs:ident $scr:ident
                    $swe:ident $sws:ident $swr:ident $swm:ident $swd:ident $swt:ident $swd1:ident
                )
            ),* $(,)?]
        }
    ) => {
        $(#[$attr])*
        #[derive(LogicBlock)]
        pub struct $name {
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
            /// The kernel argument segment's byte address (`s[0:1]` under the simple ABI).
            pub kernarg: Signal<In, Bits<64>>,
            /// The wavefronts start with the HSA ABI (`ABI` bit 0), from `rsrc2` and
            /// `user_data`; else with rtgpu's simple ABI from `kernarg`.
            pub hsa: Signal<In, Bit>,
            /// HSA: `COMPUTE_PGM_RSRC2` (user SGPR count, system SGPR enables).
            pub rsrc2: Signal<In, Bits<32>>,
            /// HSA: the user SGPRs' values (`USER_DATA[i]`).
            pub user_data: [Signal<In, Bits<32>>; MAX_USER_SGPRS],
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
            /// The splitting is DWS (a split takes a free context of the SIMD), else PWS (the parent's
            /// slot on another issue unit).
            pub dws: Signal<In, Bit>,
            /// S: under DWS the most live splits of a wavefront (1..=7); under PWS the SpSIMDs the
            /// launch uses (1..=U − 1: units 0..S issue, the order turns over them; a larger S is
            /// not checked here). Without splitting it only numbers the contexts an error names (as
            /// the behavioural unit's S + 1-unit group does).
            pub s: Signal<In, Bits<3>>,
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
            pub vtag: Signal<Out, Bits<32>>,
            /// Memory port: a scalar request (an SMEM load or `s_store_dword` issues).
            pub sreq: Signal<Out, Bit>,
            /// Its first dword index.
            pub saddr: Signal<Out, Bits<32>>,
            /// Its dwords (1, 2 or 4; 1 for a store).
            pub sn: Signal<Out, Bits<3>>,
            /// Its tag.
            pub stag: Signal<Out, Bits<32>>,
            /// It is a store (`s_store_dword`): `sdata` to dword `saddr`.
            pub sstore: Signal<Out, Bit>,
            /// The store's value (the SGPR `SDATA`).
            pub sdata: Signal<Out, Bits<32>>,
            /// Memory port: a vector response (in the cycle before the behavioural unit retires the
            /// access).
            pub vresp: Signal<In, Bit>,
            /// Its request's tag.
            pub vresp_tag: Signal<In, Bits<32>>,
            /// It answers a store.
            pub vresp_store: Signal<In, Bit>,
            /// Its request's lanes.
            pub vresp_mask: Signal<In, Bits<64>>,
            /// Lane `l`'s loaded dword.
            pub vresp_data: [Signal<In, Bits<32>>; 64],
            /// Memory port: a scalar response.
            pub sresp: Signal<In, Bit>,
            /// Its request's tag.
            pub sresp_tag: Signal<In, Bits<32>>,
            /// Its dwords.
            pub sresp_n: Signal<In, Bits<3>>,
            /// It answers a store.
            pub sresp_store: Signal<In, Bit>,
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
            /// Its information (a context index as the behavioural unit numbers it, slot · (S + 1) +
            /// unit, or the outstanding count).
            pub fault_info: Signal<Out, Bits<32>>,
            /// Probe: unit `u` issues an instruction this cycle.
            pub issue_valid: [Signal<Out, Bit>; $U],
            /// Unit `u`'s issue counts as an instruction (the `instructions` counter): it issues,
            /// and not an illegal word or a PC past the code, which the behavioural unit stops
            /// at before counting.
            pub issue_counts: [Signal<Out, Bit>; $U],
            /// Probe: its context (`k` = U · slot + `u`).
            pub issue_slot: [Signal<Out, Bits<6>>; $U],
            /// Probe: its PC.
            pub issue_pc: [Signal<Out, Bits<32>>; $U],
            /// Probe: unit `u`'s stall reason in a cycle without an issue ([`crate::issue::stall`]).
            pub stall: [Signal<Out, Bits<3>>; $U],
            /// Probe: the unit the cycle's issue visits first (then the next ones in turn), as the
            /// behavioural unit rotates its order every cycle.
            pub first: Signal<Out, Bits<2>>,
            /// Probe: a wavefront is dispatched this cycle.
            pub send: Signal<Out, Bit>,
            /// Probe: its slot.
            pub send_slot: Signal<Out, Bits<8>>,
            /// Probe: its work-group id.
            pub send_wg: Signal<Out, Bits<32>>,
            /// Probe: its wave index in the work-group.
            pub send_wave: Signal<Out, Bits<8>>,
            /// Probe: a split's child is copied from context `copy_from` into `copy_to` this cycle
            /// while a launch runs (a copy in the cycle an error stops the launch, after `busy`
            /// fell, is carried out but not shown: the behavioural unit stops before it).
            pub copy: Signal<Out, Bit>,
            /// Probe: the parent's context (`k`).
            pub copy_from: Signal<Out, Bits<6>>,
            /// Probe: the child's context (`k`: under DWS another slot of unit 0, under PWS the
            /// parent's slot of another unit).
            pub copy_to: Signal<Out, Bits<6>>,
            /// Instruction memory and the contexts' instruction buffers (port `u`: unit `u`'s issue;
            /// the last port: a dispatch).
            fetch: Fetch<$K, $FP, CODE_WORDS>,
            /// The contexts' scalar state (read ports 3u..3u+2 and write ports 3u..3u+2: unit `u`;
            /// the last two write ports: the memory's returns).
            regs: CtxRegs<$K, $SW, $RP, $WP>,
            /// The VGPR file (one slot per wavefront slot; a set of VALU ports per unit: `a`..`w`
            /// unit 0's, `a2`..`w2` unit 1's, ...).
            vgprs: Vgprs<C, VGPRS, 64, VGPR_ROWS>,
            /// The issue units: the SIMD (contexts U · c) and the SpSIMDs of PWS (contexts U · c + u).
            $( $unit: IssueUnit<C, $U>, )+
            /// A dispatched wavefront's registers.
            winit: WaveInit,
            /// The memory port's request and fault check.
            mreq: MemRequest,
            /// The memory port's tags, returns and requests in flight.
            mret: MemReturn<$K>,
            /// The split/merge unit (states, SpM, effective masks).
            group: SimdGroup<64, $U, $K>,
            /// The work-group dispatcher.
            disp: Dispatch<1, C, C>,
            /// The local data share: a partition per resident work-group entry.
            lds: Lds<LDS_WORDS>,
            /// The LDS's operand rows and instructions in flight.
            lport: LdsPort<$K>,
            /// The LDS fault check of the issue cycle.
            lcheck: LdsCheck,
            /// `s_barrier`'s release.
            bar: BarrierRelease<$K>,
            /// Each context's VGPR slot, work-group entry, age and last PC.
            tags: CtxTags<$K, $U>,
            /// `split` and `merge` at issue: the split stacks and the commands.
            sctl: SplitCtl<$K, $U>,
            /// The context an error names, in the behavioural unit's numbering (`fault_info`).
            fnum: CtxNumber<$U>,
            /// A launch is running.
            running: DFF<Bit>,
            /// The unit the cycle's issue visits first (the behavioural order, turned every cycle
            /// over PWS's S + 1 units).
            rot: DFF<Bits<2>>,
            /// The launch runs PWS (splitting on, not DWS).
            pws: Signal<Local, Bit>,
            /// The last unit of the order: S under PWS, else 0.
            rlast: Signal<Local, Bits<2>>,
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
            /// The context a split's copy starts (one-hot).
            copied: Signal<Local, Bits<$K>>,
            /// The contexts a dispatch or a copy starts.
            born: Signal<Local, Bits<$K>>,
            /// The contexts whose split/merge state is EMPTY (a merged child leaves).
            left: Signal<Local, Bits<$K>>,
            /// The contexts a dispatch starts (one-hot).
            started: Signal<Local, Bits<$K>>,
            /// The slots whose unit-0 contexts are EMPTY or DONE.
            free: Signal<Local, Bits<C>>,
            /// The live contexts.
            live: Signal<Local, Bits<$K>>,
            /// The contexts that issue `s_barrier` (built in a local signal: rust-hdl's simulation
            /// reads a sub-block's input port back as its last settled value, so two arrivals of one
            /// cycle built in the port itself kept only the last).
            arrive: Signal<Local, Bits<$K>>,
            /// The context whose `s_endpgm` issues (one-hot).
            ending: Signal<Local, Bits<$K>>,
            /// Unit `u`'s view of the contexts' masks (bit c: context U · c + u).
            start_u: [Signal<Local, Bits<C>>; $U],
            stop_u: [Signal<Local, Bits<C>>; $U],
            bar_u: [Signal<Local, Bits<C>>; $U],
            lds_ret_u: [Signal<Local, Bits<C>>; $U],
            hold_u: [Signal<Local, Bits<C>>; $U],
            /// Some unit issues a FLAT instruction, an SMEM instruction, a DS instruction,
            /// `s_endpgm`.
            any_flat: Signal<Local, Bit>,
            any_smem: Signal<Local, Bit>,
            any_ds: Signal<Local, Bit>,
            any_endpgm: Signal<Local, Bit>,
            /// Unit `u` stops the launch in its issue, if it issues.
            err_u: [Signal<Local, Bit>; $U],
            /// Unit `u`'s position in this cycle's visiting order (0: visited first).
            pos_u: [Signal<Local, Bits<2>>; $U],
            /// What the unit at position `p` of the order takes: the memory pipe, the LDS, the
            /// command port (its pick at that position: `f_*`, `p1_*`, `p2_*`).
            t_mem: [Signal<Local, Bit>; 3],
            t_lds: [Signal<Local, Bit>; 3],
            t_cmd: [Signal<Local, Bit>; 3],
            /// What the units before position `p` take (`tk_*[0]`: nothing).
            tk_mem: [Signal<Local, Bit>; 4],
            tk_lds: [Signal<Local, Bit>; 4],
            tk_cmd: [Signal<Local, Bit>; 4],
            /// The unit at position `p` stops the launch in its issue, if it issues.
            e_at: [Signal<Local, Bit>; 4],
            /// A unit before position `p` does.
            e_before: [Signal<Local, Bit>; 4],
            /// A unit visited before unit `u` stops the launch: the behavioural unit does not visit
            /// it. Its grant stands (so that no grant depends on another unit's error), and what it
            /// would make visible is dropped: its probe, its memory request, its errors.
            squash: [Signal<Local, Bit>; $U],
            /// The memory instruction's unit is squashed; the DS instruction's.
            m_squash: Signal<Local, Bit>,
            l_squash: Signal<Local, Bit>,
            /// Unit `u`'s view of the contexts whose `merge` would command (bit c: context U · c + u).
            mcmd_u: [Signal<Local, Bits<C>>; $U],
            /// Unit `u`'s error, unless it is squashed.
            fail_u: [Signal<Local, Bit>; $U],
            /// The memory instruction's fields, context and registers (its unit's).
            m_opcode: Signal<Local, Bits<10>>,
            m_dst: Signal<Local, Bits<8>>,
            m_src0: Signal<Local, Bits<9>>,
            m_src1: Signal<Local, Bits<9>>,
            m_imm: Signal<Local, Bits<32>>,
            m_imm_offset: Signal<Local, Bit>,
            m_eff: Signal<Local, Bits<64>>,
            m_wf: Signal<Local, Bits<8>>,
            m_k: Signal<Local, Bits<8>>,
            m_sbase: Signal<Local, Bits<64>>,
            m_soff: Signal<Local, Bits<64>>,
            m_sdata: Signal<Local, Bits<64>>,
            /// The DS instruction's fields and context (its unit's).
            l_opcode: Signal<Local, Bits<10>>,
            l_dst: Signal<Local, Bits<8>>,
            l_src0: Signal<Local, Bits<9>>,
            l_src1: Signal<Local, Bits<9>>,
            l_src2: Signal<Local, Bits<9>>,
            l_imm: Signal<Local, Bits<32>>,
            l_eff: Signal<Local, Bits<64>>,
            l_wi: Signal<Local, Bits<8>>,
            l_k: Signal<Local, Bits<8>>,
            /// The issuing DS instruction's LDS partition (its first word).
            g_base: Signal<Local, Bits<16>>,
            /// Unit `u`'s split mask {SSRC1, SSRC0} (its read ports 0 and 1).
            value_u: [Signal<Local, Bits<64>>; $U],
            /// Unit `u` sends a command to the split/merge unit (a split or merge that commands, or
            /// `s_endpgm`).
            cmd_u: [Signal<Local, Bit>; $U],
            /// `s_endpgm` issues; the command's unit's context and state (the command port takes one
            /// a cycle).
            p_endpgm: Signal<Local, Bit>,
            p_k: Signal<Local, Bits<8>>,
            p_pc: Signal<Local, Bits<32>>,
            p_wi: Signal<Local, Bits<8>>,
            p_alone: Signal<Local, Bit>,
            p_value: Signal<Local, Bits<64>>,
            /// A launch or a reset: the LDS's instructions in flight are forgotten.
            lds_reset: Signal<Local, Bit>,
            /// An issue stops the launch.
            error: Signal<Local, Bit>,
            ks: [Constant<Bits<8>>; C],
            kk: [Constant<Bits<8>>; $K],
            onehot: [Constant<Bits<C>>; C],
            onehot_k: [Constant<Bits<$K>>; $K],
            unit_no: [Constant<Bits<8>>; $U],
            /// Positions (and unit numbers) 0..=3 in the order's width, and `U` − 1.
            kpos: [Constant<Bits<2>>; 4],
            umask: Constant<Bits<2>>,
            /// Entry `r`'s LDS partition: its first word.
            part_base: [Constant<Bits<16>>; C],
            /// Words of a partition.
            part_words: Constant<Bits<32>>,
            /// The words a work-group may access: `lds_words`, at most `part_words`.
            wg_words: Signal<Local, Bits<32>>,
            /// Quarter numbers 1, 2, 3 (`kq[q - 1]`; quarter 0 is the default).
            kq: [Constant<Bits<2>>; 3],
            /// FLAT opcodes from here are stores (`flat_store_dword`, 0x1C, and the wider ones).
            op_store: Constant<Bits<10>>,
            /// SMEM's `s_store_dword` (0x10).
            op_sstore: Constant<Bits<10>>,
            one_reg: Constant<Bits<8>>,
            cmd_dispatch: Constant<Bits<3>>,
            cmd_split: Constant<Bits<3>>,
            cmd_merge: Constant<Bits<3>>,
            cmd_end: Constant<Bits<3>>,
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
            z9: Constant<Bits<9>>,
            z10: Constant<Bits<10>>,
            z32: Constant<Bits<32>>,
            z64: Constant<Bits<64>>,
            zc: Constant<Bits<C>>,
            zk: Constant<Bits<$K>>,
            all_c: Constant<Bits<C>>,
        }

        impl Default for $name {
            fn default() -> Self {
                // (The macro's numbers are literals the indices use: they must agree.)
                assert!($U == 2 || $U == 4, "two or four issue units");
                assert_eq!(1 << $LU, $U, "log2 of the units");
                assert_eq!($K, $U * C, "contexts");
                assert_eq!(($RP, $WP, $R0, $R1), (3 * $U, 3 * $U + 2, 3 * $U, 3 * $U + 1));
                assert_eq!($FP, $U + 1, "fetch ports");
                Self {
                    clock: Default::default(),
                    reset: Default::default(),
                    launch: Default::default(),
                    entry_pc: Default::default(),
                    wg_count: Default::default(),
                    waves: Default::default(),
                    wg_size: Default::default(),
                    kernarg: Default::default(),
                    hsa: Default::default(),
                    rsrc2: Default::default(),
                    user_data: array_init::array_init(|_| Default::default()),
                    gto: Default::default(),
                    rr: Default::default(),
                    lat_salu: Default::default(),
                    lat_valu: Default::default(),
                    lat_branch: Default::default(),
                    issue_period: Default::default(),
                    split_on: Default::default(),
                    dws: Default::default(),
                    s: Default::default(),
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
                    sstore: Default::default(),
                    sdata: Default::default(),
                    vresp: Default::default(),
                    vresp_tag: Default::default(),
                    vresp_store: Default::default(),
                    vresp_mask: Default::default(),
                    vresp_data: array_init::array_init(|_| Default::default()),
                    sresp: Default::default(),
                    sresp_tag: Default::default(),
                    sresp_n: Default::default(),
                    sresp_store: Default::default(),
                    sresp_data: array_init::array_init(|_| Default::default()),
                    busy: Default::default(),
                    fault: Default::default(),
                    fault_pc: Default::default(),
                    fault_mem: Default::default(),
                    fault_lds: Default::default(),
                    fault_addr: Default::default(),
                    fault_split: Default::default(),
                    fault_code: Default::default(),
                    fault_info: Default::default(),
                    issue_valid: array_init::array_init(|_| Default::default()),
                    issue_counts: array_init::array_init(|_| Default::default()),
                    issue_slot: array_init::array_init(|_| Default::default()),
                    issue_pc: array_init::array_init(|_| Default::default()),
                    stall: array_init::array_init(|_| Default::default()),
                    first: Default::default(),
                    send: Default::default(),
                    send_slot: Default::default(),
                    send_wg: Default::default(),
                    send_wave: Default::default(),
                    copy: Default::default(),
                    copy_from: Default::default(),
                    copy_to: Default::default(),
                    fetch: Default::default(),
                    regs: Default::default(),
                    vgprs: Default::default(),
                    $( $unit: Default::default(), )+
                    winit: Default::default(),
                    mreq: Default::default(),
                    mret: Default::default(),
                    group: Default::default(),
                    disp: Default::default(),
                    lds: Default::default(),
                    lport: Default::default(),
                    lcheck: Default::default(),
                    bar: Default::default(),
                    tags: Default::default(),
                    sctl: Default::default(),
                    fnum: Default::default(),
                    running: Default::default(),
                    rot: Default::default(),
                    pws: Default::default(),
                    rlast: Default::default(),
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
                    copied: Default::default(),
                    born: Default::default(),
                    left: Default::default(),
                    started: Default::default(),
                    free: Default::default(),
                    live: Default::default(),
                    arrive: Default::default(),
                    ending: Default::default(),
                    start_u: array_init::array_init(|_| Default::default()),
                    stop_u: array_init::array_init(|_| Default::default()),
                    bar_u: array_init::array_init(|_| Default::default()),
                    lds_ret_u: array_init::array_init(|_| Default::default()),
                    hold_u: array_init::array_init(|_| Default::default()),
                    any_flat: Default::default(),
                    any_smem: Default::default(),
                    any_ds: Default::default(),
                    any_endpgm: Default::default(),
                    err_u: array_init::array_init(|_| Default::default()),
                    pos_u: array_init::array_init(|_| Default::default()),
                    t_mem: array_init::array_init(|_| Default::default()),
                    t_lds: array_init::array_init(|_| Default::default()),
                    t_cmd: array_init::array_init(|_| Default::default()),
                    tk_mem: array_init::array_init(|_| Default::default()),
                    tk_lds: array_init::array_init(|_| Default::default()),
                    tk_cmd: array_init::array_init(|_| Default::default()),
                    e_at: array_init::array_init(|_| Default::default()),
                    e_before: array_init::array_init(|_| Default::default()),
                    squash: array_init::array_init(|_| Default::default()),
                    m_squash: Default::default(),
                    l_squash: Default::default(),
                    mcmd_u: array_init::array_init(|_| Default::default()),
                    fail_u: array_init::array_init(|_| Default::default()),
                    m_opcode: Default::default(),
                    m_dst: Default::default(),
                    m_src0: Default::default(),
                    m_src1: Default::default(),
                    m_imm: Default::default(),
                    m_imm_offset: Default::default(),
                    m_eff: Default::default(),
                    m_wf: Default::default(),
                    m_k: Default::default(),
                    m_sbase: Default::default(),
                    m_soff: Default::default(),
                    m_sdata: Default::default(),
                    l_opcode: Default::default(),
                    l_dst: Default::default(),
                    l_src0: Default::default(),
                    l_src1: Default::default(),
                    l_src2: Default::default(),
                    l_imm: Default::default(),
                    l_eff: Default::default(),
                    l_wi: Default::default(),
                    l_k: Default::default(),
                    g_base: Default::default(),
                    p_endpgm: Default::default(),
                    p_k: Default::default(),
                    p_pc: Default::default(),
                    p_wi: Default::default(),
                    p_alone: Default::default(),
                    value_u: array_init::array_init(|_| Default::default()),
                    cmd_u: array_init::array_init(|_| Default::default()),
                    p_value: Default::default(),
                    lds_reset: Default::default(),
                    error: Default::default(),
                    ks: array_init::array_init(|c| k(c as u64)),
                    kk: array_init::array_init(|c| k(c as u64)),
                    onehot: array_init::array_init(|c| k(1 << c)),
                    onehot_k: array_init::array_init(|c| k(1 << c)),
                    unit_no: array_init::array_init(|u| k(u as u64)),
                    kpos: array_init::array_init(|p| k(p as u64)),
                    umask: k($U - 1),
                    part_base: array_init::array_init(|r| k((r * LDS_PART_WORDS) as u64)),
                    part_words: k(LDS_PART_WORDS as u64),
                    wg_words: Default::default(),
                    kq: array_init::array_init(|q| k(q as u64 + 1)),
                    op_store: k(0x1C),
                    op_sstore: k(0x10),
                    one_reg: k(1),
                    cmd_dispatch: k(1),
                    cmd_split: k(crate::pws::Cmd::Split as u64),
                    cmd_merge: k(crate::pws::Cmd::Merge as u64),
                    cmd_end: k(4),
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
                z9: k(0),
                z10: k(0),
                    z32: k(0),
                    z64: k(0),
                    zc: k(0),
                    zk: k(0),
                    all_c: k((1 << C) - 1),
                }
            }
        }

        impl Logic for $name {
            #[hdl_gen]
            fn update(&mut self) {
                // Clocks and resets.
                dff_setup!(self, clock, running, rot, failed, fpc, fmem, flds, faddr, fsplit, fcode, finfo);
                $(
                    self.$unit.clock.next = self.clock.val();
                    self.$unit.reset.next = self.reset.val();
                    self.$unit.unit_no.next = self.unit_no[$u].val();
                )+
                self.tags.clock.next = self.clock.val();
                self.sctl.clock.next = self.clock.val();
                self.sctl.reset.next = self.reset.val();
                self.fetch.clock.next = self.clock.val();
                self.regs.clock.next = self.clock.val();
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

                // The dispatcher: one SIMD group; a slot is free when its unit-0 context is EMPTY or
                // DONE; a wavefront goes into unit 0 (k = U · c).
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
                    if (self.group.state[$U * c].val() == self.s_empty.val())
                        | (self.group.state[$U * c].val() == self.s_done.val())
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
                self.winit.hsa.next = self.hsa.val();
                self.winit.rsrc2.next = self.rsrc2.val();
                for i in 0..MAX_USER_SGPRS {
                    self.winit.user[i].next = self.user_data[i].val();
                }
                self.winit.wg_id.next = self.disp.send_wg[0].val();
                self.winit.wg_size.next = self.wg_size.val();
                self.winit.waves.next = self.waves.val();
                self.winit.wave.next = self.disp.send_wave[0].val();
                self.regs.init.next = self.disp.send[0].val();
                self.regs.init_ctx.next = self.disp.send_slot[0].val() << $LU;
                self.regs.init_pc.next = self.entry_pc.val();
                self.regs.init_exec.next = self.winit.lanes.val();
                for i in 0..INIT_SGPRS {
                    self.regs.init_s[i].next = self.winit.init_s[i].val();
                }
                self.vgprs.clear.next = self.disp.send[0].val();
                self.vgprs.clear_slot.next = self.disp.send_slot[0].val();
                self.vgprs.clear_v0.next = bit_cast::<32, 8>(self.disp.send_wave[0].val()) << 6;
                self.started.next = self.zk.val();
                self.fetch.pc[$U].next = self.entry_pc.val();
                for c in 0..C {
                    if self.disp.send[0].val() & (self.disp.send_slot[0].val() == self.ks[c].val()) {
                        self.started.next = self.onehot_k[$U * c].val();
                    }
                }
                self.fetch.sel[$U].next = self.started.val();
                self.tags.launch.next = self.launch.val();
                self.tags.send.next = self.disp.send[0].val();
                self.tags.send_ctx.next = self.disp.send_slot[0].val() << $LU;
                self.tags.send_wf.next = self.disp.send_slot[0].val();
                self.tags.send_wi.next = self.disp.send_wi[0].val();

                // A split's child (DWS: a context of unit 0; PWS: the parent's slot on another
                // unit): its parent's registers, instruction buffer and tags, copied at the edge
                // of the cycle after the split.
                self.copied.next = self.zk.val();
                for q in 0..$K {
                    if self.group.copy_valid.val()
                        & (bit_cast::<8, 7>(self.group.copy_to.val()) == self.kk[q].val())
                    {
                        self.copied.next = self.onehot_k[q].val();
                    }
                }
                self.born.next = self.started.val() | self.copied.val();
                self.regs.copy.next = self.group.copy_valid.val();
                self.regs.copy_from.next = bit_cast::<8, 7>(self.group.copy_from.val());
                self.regs.copy_to.next = bit_cast::<8, 7>(self.group.copy_to.val());
                self.fetch.copy.next = self.group.copy_valid.val();
                self.fetch.copy_from.next = bit_cast::<8, 7>(self.group.copy_from.val());
                self.fetch.copy_to.next = bit_cast::<8, 7>(self.group.copy_to.val());
                self.tags.copy.next = self.group.copy_valid.val();
                self.tags.copy_from.next = bit_cast::<8, 7>(self.group.copy_from.val());
                self.tags.copy_to.next = bit_cast::<8, 7>(self.group.copy_to.val());
                self.copy.next = self.group.copy_valid.val() & self.running.q.val();
                self.copy_from.next = self.group.copy_from.val().get_bits::<6>(0);
                self.copy_to.next = self.group.copy_to.val().get_bits::<6>(0);

                // The contexts' masks as each unit sees them (bit c: context U · c + u). A
                // merged child leaves its context (EMPTY again). (Built in local signals: an
                // input port reads back its last settled value.)
                self.left.next = self.zk.val();
                for q in 0..$K {
                    if self.group.state[q].val() == self.s_empty.val() {
                        self.left.next = self.left.val() | self.onehot_k[q].val();
                    }
                }
                for u in 0..$U {
                    self.start_u[u].next = self.zc.val();
                    self.stop_u[u].next = self.zc.val();
                    self.bar_u[u].next = self.zc.val();
                    self.lds_ret_u[u].next = self.zc.val();
                    self.mcmd_u[u].next = self.zc.val();
                }
                for c in 0..C {
                    for u in 0..$U {
                        if (self.born.val() & self.onehot_k[$U * c + u].val()) != self.zk.val() {
                            self.start_u[u].next = self.start_u[u].val() | self.onehot[c].val();
                        }
                        if (self.left.val() & self.onehot_k[$U * c + u].val()) != self.zk.val() {
                            self.stop_u[u].next = self.stop_u[u].val() | self.onehot[c].val();
                        }
                        if (self.bar.released.val() & self.onehot_k[$U * c + u].val()) != self.zk.val() {
                            self.bar_u[u].next = self.bar_u[u].val() | self.onehot[c].val();
                        }
                        if (self.lport.ret.val() & self.onehot_k[$U * c + u].val()) != self.zk.val() {
                            self.lds_ret_u[u].next = self.lds_ret_u[u].val() | self.onehot[c].val();
                        }
                        if self.sctl.mcmd.val().get_bit($U * c + u) {
                            self.mcmd_u[u].next = self.mcmd_u[u].val() | self.onehot[c].val();
                        }
                    }
                }

                // The issue units: the launch's settings, the contexts' state.
                $(
                    self.$unit.gto.next = self.gto.val();
                    self.$unit.rr.next = self.rr.val();
                    self.$unit.lat_salu.next = self.lat_salu.val();
                    self.$unit.lat_valu.next = self.lat_valu.val();
                    self.$unit.lat_branch.next = self.lat_branch.val();
                    self.$unit.issue_period.next = self.issue_period.val();
                    self.$unit.split_on.next = self.split_on.val();
                    self.$unit.start.next = self.start_u[$u].val();
                    self.$unit.stop.next = self.stop_u[$u].val();
                    self.$unit.bar_release.next = self.bar_u[$u].val();
                    self.$unit.lds_ret.next = self.lds_ret_u[$u].val();
                    self.$unit.mcmd.next = self.mcmd_u[$u].val();
                    self.$unit.pipe_lds.next = self.lds.busy.val();
                    self.$unit.port_free.next = !self.disp.send[0].val();
                )+
                for c in 0..C {
                    $(
                        self.$unit.w0[c].next = self.fetch.w0[$U * c + $u].val();
                        self.$unit.w1[c].next = self.fetch.w1[$U * c + $u].val();
                        self.$unit.fu[c].next = self.fetch.unit[$U * c + $u].val();
                        self.$unit.bad[c].next =
                            self.fetch.illegal[$U * c + $u].val() | self.fetch.oob[$U * c + $u].val();
                        self.$unit.oob[c].next = self.fetch.oob[$U * c + $u].val();
                        self.$unit.pc[c].next = self.regs.pc[$U * c + $u].val();
                        self.$unit.scc[c].next = self.regs.scc[$U * c + $u].val();
                        self.$unit.exec[c].next = self.regs.exec[$U * c + $u].val();
                        self.$unit.vcc[c].next = self.regs.vcc[$U * c + $u].val();
                        self.$unit.eff[c].next = self.group.eff[$U * c + $u].val();
                        self.$unit.spm[c].next = self.group.spm[$U * c + $u].val();
                        self.$unit.state[c].next = self.group.state[$U * c + $u].val();
                        self.$unit.alone[c].next = (self.group.sp[$U * c + $u].val() == self.z3.val())
                            & !self.group.parent_valid[$U * c + $u].val();
                        self.$unit.wi[c].next = self.tags.wi[$U * c + $u].val();
                        self.$unit.wf[c].next = self.tags.wf[$U * c + $u].val();
                        self.$unit.age[c].next = self.tags.age[$U * c + $u].val();
                        self.$unit.vm_ret[c].next = self.mret.vm_ret[$U * c + $u].val();
                        self.$unit.lgkm_ret[c].next = self.mret.lgkm_ret[$U * c + $u].val();
                    )+
                }

                // The cycle's order: the behavioural unit visits the units in turn, from the one
                // after the last cycle's first. A unit sees what the units visited before it
                // took: the memory pipe, the LDS, the split/merge unit's command port (a dispatch
                // takes the port before all, an earlier DS instruction the LDS). Each unit picks
                // at every position with what the positions before it take (`t_*`, from picks
                // at lower positions only: no loop), and issues its pick at its own position.
                for u in 0..$U {
                    self.pos_u[u].next = (self.kpos[u].val() - self.rot.q.val()) & self.umask.val();
                }
                for p in 0..3 {
                    self.t_mem[p].next = false;
                    self.t_lds[p].next = false;
                    self.t_cmd[p].next = false;
                }
                $(
                    if self.pos_u[$u].val() == self.kpos[0].val() {
                        self.t_mem[0].next = self.$unit.f_mem.val();
                        self.t_lds[0].next = self.$unit.f_lds.val();
                        self.t_cmd[0].next = self.$unit.f_cmd.val();
                    }
                    if self.pos_u[$u].val() == self.kpos[1].val() {
                        self.t_mem[1].next = self.$unit.p1_mem.val();
                        self.t_lds[1].next = self.$unit.p1_lds.val();
                        self.t_cmd[1].next = self.$unit.p1_cmd.val();
                    }
                    if self.pos_u[$u].val() == self.kpos[2].val() {
                        self.t_mem[2].next = self.$unit.p2_mem.val();
                        self.t_lds[2].next = self.$unit.p2_lds.val();
                        self.t_cmd[2].next = self.$unit.p2_cmd.val();
                    }
                )+
                self.tk_mem[0].next = false;
                self.tk_lds[0].next = false;
                self.tk_cmd[0].next = false;
                for p in 0..3 {
                    self.tk_mem[p + 1].next = self.tk_mem[p].val() | self.t_mem[p].val();
                    self.tk_lds[p + 1].next = self.tk_lds[p].val() | self.t_lds[p].val();
                    self.tk_cmd[p + 1].next = self.tk_cmd[p].val() | self.t_cmd[p].val();
                }
                $(
                    self.$unit.t1_mem.next = self.tk_mem[1].val();
                    self.$unit.t1_lds.next = self.tk_lds[1].val();
                    self.$unit.t1_cmd.next = self.tk_cmd[1].val();
                    self.$unit.t2_mem.next = self.tk_mem[2].val();
                    self.$unit.t2_lds.next = self.tk_lds[2].val();
                    self.$unit.t2_cmd.next = self.tk_cmd[2].val();
                    self.$unit.o_mem.next = false;
                    self.$unit.o_lds.next = false;
                    self.$unit.o_cmd.next = false;
                    for p in 1..$U {
                        if self.pos_u[$u].val() == self.kpos[p].val() {
                            self.$unit.o_mem.next = self.tk_mem[p].val();
                            self.$unit.o_lds.next = self.tk_lds[p].val();
                            self.$unit.o_cmd.next = self.tk_cmd[p].val();
                        }
                    }
                )+
                self.gerr.next = self.group.error.val() != self.z3.val();
                // (Nothing issues outside a launch; after a fault the contexts stay as they are.
                // The split/merge unit's error of the last edge, which the behavioural unit finds
                // at the start of the cycle, holds every unit but the first; the first unit's
                // error squashes them.)
                for u in 0..$U {
                    self.hold_u[u].next = self.zc.val();
                    if !self.running.q.val()
                        | ((self.pos_u[u].val() != self.kpos[0].val()) & self.gerr.val())
                    {
                        self.hold_u[u].next = self.all_c.val();
                    }
                }
                $(
                    self.$unit.hold.next = self.hold_u[$u].val();
                )+

                // Register reads and writes: unit u's ports 3u..3u + 2.
                for p in 0..3 {
                    $(
                        self.regs.rctx[3 * $u + p].next = self.$unit.rctx[p].val();
                        self.regs.rcode[3 * $u + p].next = self.$unit.rcode[p].val();
                        self.regs.rwide[3 * $u + p].next = self.$unit.rwide[p].val();
                        self.regs.rlit[3 * $u + p].next = self.$unit.rlit[p].val();
                        self.$unit.rdata[p].next = self.regs.rdata[3 * $u + p].val();
                        self.regs.wctx[3 * $u + p].next = self.$unit.wctx[p].val();
                        self.regs.sdst_we[3 * $u + p].next = self.$unit.sdst_we[p].val();
                        self.regs.sdst[3 * $u + p].next = self.$unit.sdst[p].val();
                        self.regs.wide[3 * $u + p].next = self.$unit.wide[p].val();
                        self.regs.d[3 * $u + p].next = self.$unit.d[p].val();
                        self.regs.exec_we[3 * $u + p].next = self.$unit.exec_we[p].val();
                        self.regs.exec_in[3 * $u + p].next = self.$unit.exec_in[p].val();
                        self.regs.scc_we[3 * $u + p].next = self.$unit.scc_we[p].val();
                        self.regs.scc_in[3 * $u + p].next = self.$unit.scc_in[p].val();
                        self.regs.pc_we[3 * $u + p].next = self.$unit.pc_we[p].val();
                        self.regs.pc_in[3 * $u + p].next = self.$unit.pc_in[p].val();
                    )+
                }
                // The issuing contexts' instruction buffers load their new PCs.
                $(
                    self.fetch.pc[$u].next = self.$unit.new_pc.val();
                    self.fetch.sel[$u].next = self.zk.val();
                )+
                for c in 0..C {
                    $(
                        if self.$unit.sel.val().get_bit(c) {
                            self.fetch.sel[$u].next = self.onehot_k[$U * c + $u].val();
                        }
                    )+
                }

                // The VALUs' VGPR ports: a set per unit.
                $(
                    self.vgprs.$as.next = self.$unit.a_slot.val();
                    self.vgprs.$ar.next = self.$unit.a_reg.val();
                    self.vgprs.$bs.next = self.$unit.b_slot.val();
                    self.vgprs.$br.next = self.$unit.b_reg.val();
                    self.vgprs.$cs.next = self.$unit.c_slot.val();
                    self.vgprs.$cr.next = self.$unit.c_reg.val();
                    self.vgprs.$we.next = self.$unit.we.val();
                    self.vgprs.$ws.next = self.$unit.w_slot.val();
                    self.vgprs.$wr.next = self.$unit.w_reg.val();
                    self.vgprs.$wm.next = self.$unit.w_mask.val();
                    self.vgprs.$wt.next = self.$unit.w_two.val();
                )+
                // (The VGPR file's port sets beyond the units': idle.)
                $(
                    self.vgprs.$sas.next = self.z8.val();
                    self.vgprs.$sar.next = self.z8.val();
                    self.vgprs.$sbs.next = self.z8.val();
                    self.vgprs.$sbr.next = self.z8.val();
                    self.vgprs.$scs.next = self.z8.val();
                    self.vgprs.$scr.next = self.z8.val();
                    self.vgprs.$swe.next = false;
                    self.vgprs.$sws.next = self.z8.val();
                    self.vgprs.$swr.next = self.z8.val();
                    self.vgprs.$swm.next = self.z64.val();
                    self.vgprs.$swt.next = false;
                    for l in 0..64 {
                        self.vgprs.$swd[l].next = self.z32.val();
                        self.vgprs.$swd1[l].next = self.z32.val();
                    }
                )*
                for l in 0..64 {
                    $(
                        self.$unit.a_row[l].next = self.vgprs.$ad[l].val();
                        self.$unit.b_row[l].next = self.vgprs.$bd[l].val();
                        self.$unit.c_row[l].next = self.vgprs.$cd[l].val();
                        self.vgprs.$wd[l].next = self.$unit.w_data[l].val();
                        self.vgprs.$wd1[l].next = self.$unit.w_data1[l].val();
                    )+
                }

                // The shared units' instructions: FLAT/SMEM, DS, and split/merge/`s_endpgm` each
                // come from at most one unit in a cycle.
                self.any_flat.next = false;
                self.any_smem.next = false;
                self.any_ds.next = false;
                self.any_endpgm.next = false;
                self.m_opcode.next = self.z10.val();
                self.m_dst.next = self.z8.val();
                self.m_src0.next = self.z9.val();
                self.m_src1.next = self.z9.val();
                self.m_imm.next = self.z32.val();
                self.m_imm_offset.next = false;
                self.m_eff.next = self.z64.val();
                self.m_wf.next = self.z8.val();
                self.m_k.next = self.z8.val();
                self.m_sbase.next = self.z64.val();
                self.m_soff.next = self.z64.val();
                self.m_sdata.next = self.z64.val();
                self.m_squash.next = false;
                self.l_opcode.next = self.z10.val();
                self.l_dst.next = self.z8.val();
                self.l_src0.next = self.z9.val();
                self.l_src1.next = self.z9.val();
                self.l_src2.next = self.z9.val();
                self.l_imm.next = self.z32.val();
                self.l_eff.next = self.z64.val();
                self.l_wi.next = self.z8.val();
                self.l_k.next = self.z8.val();
                self.l_squash.next = false;
                self.p_k.next = self.z8.val();
                self.p_pc.next = self.z32.val();
                self.p_wi.next = self.z8.val();
                self.p_alone.next = false;
                self.p_value.next = self.z64.val();
                $(
                    self.value_u[$u].next =
                        (bit_cast::<64, 32>(self.regs.rdata[3 * $u + 1].val().get_bits::<32>(0)) << 32)
                            | bit_cast::<64, 32>(self.regs.rdata[3 * $u].val().get_bits::<32>(0));
                    self.cmd_u[$u].next = self.$unit.endpgm.val()
                        | self.sctl.cmd_split[$u].val()
                        | self.sctl.cmd_merge[$u].val();
                    // (Each unit's error at issue: its own, or the shared units' fault on its
                    // instruction.)
                    self.err_u[$u].next = self.$unit.error.val()
                        | ((self.$unit.flat.val() | self.$unit.smem.val()) & self.mreq.fault.val())
                        | (self.$unit.ds.val() & self.lcheck.fault.val())
                        | self.sctl.fault_pending[$u].val()
                        | self.sctl.fault_overflow[$u].val();
                    if self.$unit.flat.val() {
                        self.any_flat.next = true;
                    }
                    if self.$unit.smem.val() {
                        self.any_smem.next = true;
                    }
                    if self.$unit.endpgm.val() {
                        self.any_endpgm.next = true;
                    }
                    if self.$unit.flat.val() | self.$unit.smem.val() {
                        self.m_opcode.next = self.$unit.opcode.val();
                        self.m_dst.next = self.$unit.dst.val();
                        self.m_src0.next = self.$unit.src0.val();
                        self.m_src1.next = self.$unit.src1.val();
                        self.m_imm.next = self.$unit.imm.val();
                        self.m_imm_offset.next = self.$unit.imm_offset.val();
                        self.m_eff.next = self.$unit.g_eff.val();
                        self.m_wf.next = self.$unit.g_wf.val();
                        self.m_k.next = self.$unit.rctx[0].val();
                        self.m_sbase.next = self.regs.rdata[3 * $u].val();
                        self.m_soff.next = self.regs.rdata[3 * $u + 1].val();
                        self.m_sdata.next = self.regs.rdata[3 * $u + 2].val();
                    }
                    if self.$unit.ds.val() {
                        self.any_ds.next = true;
                        self.l_opcode.next = self.$unit.opcode.val();
                        self.l_dst.next = self.$unit.dst.val();
                        self.l_src0.next = self.$unit.src0.val();
                        self.l_src1.next = self.$unit.src1.val();
                        self.l_src2.next = self.$unit.src2.val();
                        self.l_imm.next = self.$unit.imm.val();
                        self.l_eff.next = self.$unit.g_eff.val();
                        self.l_wi.next = self.$unit.g_wi.val();
                        self.l_k.next = self.$unit.rctx[0].val();
                    }
                    if self.cmd_u[$u].val() {
                        self.p_k.next = self.$unit.rctx[0].val();
                        self.p_pc.next = self.$unit.g_pc.val();
                        self.p_wi.next = self.$unit.g_wi.val();
                        self.p_alone.next = self.$unit.g_alone.val();
                        self.p_value.next = self.value_u[$u].val();
                    }
                )+
                self.p_endpgm.next = self.any_endpgm.val();

                // A unit is squashed when a unit visited before it stops the launch.
                for p in 0..4 {
                    self.e_at[p].next = false;
                }
                for u in 0..$U {
                    for p in 0..$U {
                        if self.pos_u[u].val() == self.kpos[p].val() {
                            self.e_at[p].next = self.err_u[u].val();
                        }
                    }
                }
                self.e_before[0].next = false;
                for p in 0..3 {
                    self.e_before[p + 1].next = self.e_before[p].val() | self.e_at[p].val();
                }
                for u in 0..$U {
                    self.squash[u].next = false;
                    for p in 0..$U {
                        if self.pos_u[u].val() == self.kpos[p].val() {
                            self.squash[u].next = self.e_before[p].val();
                        }
                    }
                    self.fail_u[u].next = self.err_u[u].val() & !self.squash[u].val();
                }
                $(
                    if self.$unit.flat.val() | self.$unit.smem.val() {
                        self.m_squash.next = self.squash[$u].val();
                    }
                    if self.$unit.ds.val() {
                        self.l_squash.next = self.squash[$u].val();
                    }
                )+

                // The memory port: FLAT and SMEM requests in the issue cycle, the returns.
                for p in 0..3 {
                    self.vgprs.x_slot[p].next = self.m_wf.val();
                }
                self.vgprs.x_reg[0].next = self.m_src0.val().get_bits::<8>(0);
                self.vgprs.x_reg[1].next = self.m_src0.val().get_bits::<8>(0) + self.one_reg.val();
                self.vgprs.x_reg[2].next = self.m_src1.val().get_bits::<8>(0);
                self.mreq.flat.next = self.any_flat.val();
                self.mreq.store.next = self.m_opcode.val() >= self.op_store.val();
                self.mreq.smem.next = self.any_smem.val();
                self.mreq.eff.next = self.m_eff.val();
                for l in 0..64 {
                    self.mreq.lo[l].next = self.vgprs.x0_data[l].val();
                    self.mreq.hi[l].next = self.vgprs.x1_data[l].val();
                    self.mreq.data[l].next = self.vgprs.x2_data[l].val();
                    self.vaddr[l].next = self.mreq.vaddr[l].val();
                    self.vdata[l].next = self.mreq.vdata[l].val();
                    self.vgprs.m_data[l].next = self.vresp_data[l].val();
                }
                self.mreq.sbase.next = self.m_sbase.val();
                self.mreq.soff.next = self.m_soff.val().get_bits::<32>(0);
                if self.m_imm_offset.val() {
                    self.mreq.soff.next = self.m_imm.val();
                }
                self.mreq.sop.next = self.m_opcode.val().get_bits::<2>(0);
                self.mreq.words.next = self.mem_words.val();
                self.vreq.next = self.mreq.vreq.val() & !self.m_squash.val();
                self.vstore.next = self.mreq.vstore.val();
                self.vmask.next = self.mreq.vmask.val();
                self.vtag.next = self.mret.tag.val();
                self.sreq.next = self.mreq.sreq.val() & !self.m_squash.val();
                self.saddr.next = self.mreq.saddr.val();
                self.sn.next = self.mreq.sn.val();
                self.stag.next = self.mret.tag.val();
                self.sstore.next = self.mreq.sreq.val() & (self.m_opcode.val() == self.op_sstore.val());
                self.sdata.next = self.m_sdata.val().get_bits::<32>(0);
                self.mret.launch.next = self.launch.val();
                self.mret.started.next = self.born.val();
                self.mret.req_ctx.next = self.m_k.val();
                self.mret.req_dst.next = self.m_dst.val();
                self.mret.req.next = (self.mreq.vreq.val() | self.mreq.sreq.val()) & !self.m_squash.val();
                self.mret.vresp.next = self.vresp.val();
                self.mret.vresp_tag.next = self.vresp_tag.val();
                self.mret.vresp_store.next = self.vresp_store.val();
                self.mret.vresp_mask.next = self.vresp_mask.val();
                self.mret.sresp.next = self.sresp.val();
                self.mret.sresp_tag.next = self.sresp_tag.val();
                self.mret.sresp_n.next = self.sresp_n.val();
                self.mret.sresp_store.next = self.sresp_store.val();
                for i in 0..4 {
                    self.mret.sresp_data[i].next = self.sresp_data[i].val();
                }
                self.vgprs.m_we.next = self.mret.m_we.val();
                self.tags.look[2].next = self.mret.m_slot.val();
                self.vgprs.m_slot.next = self.tags.look_wf[2].val();
                self.vgprs.m_reg.next = self.mret.m_reg.val();
                self.vgprs.m_mask.next = self.mret.m_mask.val();
                for p in $R0..$WP {
                    self.regs.wctx[p].next = self.mret.s_ctx.val();
                    self.regs.exec_we[p].next = false;
                    self.regs.exec_in[p].next = self.z64.val();
                    self.regs.scc_we[p].next = false;
                    self.regs.scc_in[p].next = false;
                    self.regs.pc_we[p].next = false;
                    self.regs.pc_in[p].next = self.z32.val();
                }
                self.regs.sdst_we[$R0].next = self.mret.s_we.val();
                self.regs.wide[$R0].next = self.mret.s_wide.val();
                self.regs.sdst[$R0].next = self.mret.s_dst.val();
                self.regs.d[$R0].next = self.mret.s_d.val();
                self.regs.sdst_we[$R1].next = self.mret.s2_we.val();
                self.regs.wide[$R1].next = true;
                self.regs.sdst[$R1].next = self.mret.s2_dst.val();
                self.regs.d[$R1].next = self.mret.s2_d.val();

                // The LDS: DS instructions into it, their quarters' rows from the VGPR file's `y`
                // ports, the write-back quarters through its `l` port, `done` to lgkmcnt; a partition
                // per resident entry, zeroed when the dispatcher admits a work-group into it.
                self.g_base.next = self.part_base[0].val();
                for r in 1..C {
                    if self.l_wi.val() == self.ks[r].val() {
                        self.g_base.next = self.part_base[r].val();
                    }
                }
                self.lds.valid.next = self.any_ds.val();
                self.lds.opcode.next = self.l_opcode.val().get_bits::<8>(0);
                self.lds.offset.next = self.l_imm.val();
                self.lds.vdst.next = self.l_dst.val();
                self.lds.exec.next = self.l_eff.val();
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
                self.lport.issue.next = self.any_ds.val();
                self.lport.ctx.next = self.l_k.val();
                self.lport.src[0].next = self.l_src0.val().get_bits::<8>(0);
                self.lport.src[1].next = self.l_src1.val().get_bits::<8>(0);
                self.lport.src[2].next = self.l_src2.val().get_bits::<8>(0);
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
                        if self.lds.quarter.val() == self.kq[q - 1].val() {
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
                // (The issue cycle's `ADDR` row: the LDS's write-first port `y0`.)
                self.lcheck.valid.next = self.any_ds.val();
                self.lcheck.opcode.next = self.l_opcode.val().get_bits::<8>(0);
                self.lcheck.offset.next = self.l_imm.val();
                self.lcheck.exec.next = self.l_eff.val();
                self.lcheck.words.next = self.wg_words.val();
                for l in 0..64 {
                    self.lcheck.addr[l].next = self.vgprs.y0_data[l].val();
                }

                // `s_barrier`: a context arrives when it issues one; the live contexts before this
                // cycle's dispatch decide the release.
                self.live.next = self.zk.val();
                self.arrive.next = self.zk.val();
                for c in 0..C {
                    $(
                        if self.$unit.live.val().get_bit(c) {
                            self.live.next = self.live.val() | self.onehot_k[$U * c + $u].val();
                        }
                    )+
                }
                for q in 0..$K {
                    self.bar.wi[q].next = self.tags.wi[q].val();
                    $(
                        if self.$unit.barrier.val() & (self.$unit.rctx[0].val() == self.kk[q].val()) {
                            self.arrive.next = self.arrive.val() | self.onehot_k[q].val();
                        }
                    )+
                }
                self.bar.arrive.next = self.arrive.val();
                self.bar.started.next = self.born.val();
                self.bar.live.next = self.live.val() & !self.started.val();

                // `split` and `merge` at issue (splitting on): the split stacks, the commands.
                self.sctl.dws.next = self.dws.val();
                $(
                    self.sctl.issue[$u].next = self.$unit.pws.val();
                    self.sctl.is_merge[$u].next = self.$unit.merge.val();
                    self.sctl.ctx[$u].next = self.$unit.rctx[0].val();
                    self.sctl.eff[$u].next = self.$unit.g_eff.val();
                    self.sctl.pending[$u].next = self.$unit.g_pend.val();
                    self.sctl.value[$u].next = self.value_u[$u].val();
                )+
                self.sctl.denied.next = self.group.split_denied.val();
                self.sctl.born.next = self.born.val();

                // The split/merge unit: a dispatch, else a split, a merge or an `s_endpgm`.
                self.group.dws.next = self.dws.val();
                self.group.s.next = self.s.val();
                self.group.watchdog.next = self.wd.val();
                self.group.cmd_unit.next = bit_cast::<3, $LU>(self.p_k.val().get_bits::<$LU>(0));
                self.group.cmd_pc.next = self.z32.val();
                self.group.cmd.next = self.z3.val();
                self.group.cmd_slot.next = self.p_k.val().get_bits::<4>($LU);
                self.group.cmd_mask.next = self.winit.lanes.val();
                if self.p_endpgm.val() {
                    self.group.cmd.next = self.cmd_end.val();
                }
                for u in 0..$U {
                    if self.sctl.cmd_split[u].val() {
                        self.group.cmd.next = self.cmd_split.val();
                        self.group.cmd_mask.next = self.p_value.val();
                    }
                }
                for u in 0..$U {
                    if self.sctl.cmd_merge[u].val() {
                        self.group.cmd.next = self.cmd_merge.val();
                        self.group.cmd_pc.next = self.p_pc.val();
                    }
                }
                if self.disp.send[0].val() {
                    self.group.cmd.next = self.cmd_dispatch.val();
                    self.group.cmd_unit.next = self.z3.val();
                    self.group.cmd_slot.next = self.disp.send_slot[0].val().get_bits::<4>(0);
                }
                for q in 0..$K {
                    self.group.exec[q].next = self.regs.exec[q].val();
                }
                for r in 0..C {
                    self.disp.ended[r].next = self.z8.val();
                    // (A wavefront with live splits does not end: the split/merge unit reports it.)
                    if self.p_endpgm.val() & self.p_alone.val() & (self.p_wi.val() == self.ks[r].val()) {
                        self.disp.ended[r].next = self.one8.val();
                    }
                }

                // The launch: running from `launch` until every work-group has ended or an error.
                // The split/merge unit's error of the last edge, as the behavioural unit maps it.
                self.gcode.next = self.e_protocol.val();
                if self.group.error.val() <= self.pws_e_last.val() {
                    self.gcode.next = bit_cast::<4, 3>(self.group.error.val()) + self.one4.val();
                }
                self.error.next = self.gerr.val();
                for u in 0..$U {
                    if self.fail_u[u].val() {
                        self.error.next = true;
                    }
                }
                // The context an error names: the split/merge unit's, else the failing unit's.
                self.fnum.s.next = self.s.val();
                self.fnum.k.next = self.z8.val();
                $(
                    if self.fail_u[$u].val() {
                        self.fnum.k.next = self.$unit.rctx[0].val();
                    }
                )+
                if self.gerr.val() {
                    self.fnum.k.next = bit_cast::<8, 7>(self.group.error_ctx.val());
                }
                self.tags.pc_ctx.next = bit_cast::<8, 7>(self.group.error_ctx.val());
                $(
                    self.tags.issue[$u].next = self.$unit.grant_valid.val();
                    self.tags.issue_ctx[$u].next = self.$unit.rctx[0].val();
                    self.tags.issue_pc[$u].next = self.$unit.g_pc.val();
                )+
                self.running.d.next = self.running.q.val();
                // (The order turns over PWS's S + 1 units; otherwise unit 0 alone issues and
                // the order stays.)
                self.pws.next = self.split_on.val() & !self.dws.val();
                self.rlast.next = self.kpos[0].val();
                if self.pws.val() {
                    self.rlast.next = self.s.val().get_bits::<2>(0);
                }
                self.rot.d.next = (self.rot.q.val() + self.kpos[1].val()) & self.umask.val();
                if self.rot.q.val() == self.rlast.val() {
                    self.rot.d.next = self.kpos[0].val();
                }
                self.failed.d.next = self.failed.q.val();
                self.fpc.d.next = self.fpc.q.val();
                self.ending.next = self.zk.val();
                for q in 0..$K {
                    if self.p_endpgm.val() & (self.p_k.val() == self.kk[q].val()) {
                        self.ending.next = self.onehot_k[q].val();
                    }
                }
                if self.running.q.val()
                    & self.disp.finished.val()
                    & ((self.live.val() & !self.ending.val()) == self.zk.val())
                    & self.mret.idle_next.val()
                    & self.lport.idle_next.val()
                {
                    self.running.d.next = false;
                }
                if self.running.q.val() & self.error.val() {
                    self.running.d.next = false;
                    self.failed.d.next = true;
                    // (The faults of the failing unit's instruction; a squashed unit's are
                    // dropped.)
                    self.fmem.d.next = self.mreq.fault.val() & !self.m_squash.val();
                    self.flds.d.next = self.lcheck.fault.val() & !self.l_squash.val();
                    self.faddr.d.next = self.mreq.fault_addr.val();
                    if self.lcheck.fault.val() & !self.l_squash.val() {
                        self.faddr.d.next = self.lcheck.fault_addr.val();
                    }
                    self.fsplit.d.next = self.gerr.val();
                    self.fcode.d.next = self.e_pending.val();
                    for u in 0..$U {
                        if (self.sctl.fault_pending[u].val() | self.sctl.fault_overflow[u].val())
                            & !self.squash[u].val()
                        {
                            self.fsplit.d.next = true;
                        }
                    }
                    $(
                        if self.fail_u[$u].val() {
                            self.fpc.d.next = self.$unit.g_pc.val();
                            self.finfo.d.next = bit_cast::<32, 16>(self.$unit.g_pend.val());
                        }
                    )+
                    for u in 0..$U {
                        if self.sctl.fault_overflow[u].val() & !self.squash[u].val() {
                            self.fcode.d.next = self.e_overflow.val();
                            self.finfo.d.next = self.fnum.number.val();
                        }
                    }
                    // (Found at the start of the cycle, before its issue: it wins.)
                    if self.gerr.val() {
                        self.fpc.d.next = self.tags.last_pc.val();
                        self.fmem.d.next = false;
                        self.flds.d.next = false;
                        self.fcode.d.next = self.gcode.val();
                        self.finfo.d.next = self.fnum.number.val();
                    }
                }
                if self.launch.val() {
                    self.running.d.next = true;
                    self.failed.d.next = false;
                    // (The behavioural launch's first cycle visits unit 1 first under PWS.)
                    self.rot.d.next = self.kpos[0].val();
                    if self.pws.val() {
                        self.rot.d.next = self.kpos[1].val();
                    }
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
                $(
                    self.issue_valid[$u].next = self.$unit.grant_valid.val() & !self.squash[$u].val();
                    self.issue_counts[$u].next =
                        self.issue_valid[$u].val() & !self.$unit.error.val();
                    self.issue_slot[$u].next = self.$unit.rctx[0].val().get_bits::<6>(0);
                    self.issue_pc[$u].next = self.$unit.g_pc.val();
                    self.stall[$u].next = self.$unit.stall.val();
                )+
                self.first.next = self.rot.q.val();
            }
        }
    };
}

compute_unit_top! {
    /// The compute unit in RTL with four issue units, the SIMD and three SpSIMDs: no
    /// splitting, DWS at any S, PWS at S = 1, 2 or 3 (see [`crate::cu_top`] for what it holds,
    /// its ports and timing); the top of the RTL system [`crate::cu_system::CuSystem4`].
    ComputeUnitTop {
        units: 4,
        log2: 2,
        contexts: GROUP_CONTEXTS,
        sgpr_words: SGPR_WORDS,
        reg_ports: (12, 14),
        returns: (12, 13),
        fetch_ports: 5,
        each: [
            unit0 = 0 (a_slot a_reg a_data b_slot b_reg b_data c_slot c_reg c_data we w_slot w_reg w_mask w_data w_two w_data1),
            unit1 = 1 (a2_slot a2_reg a2_data b2_slot b2_reg b2_data c2_slot c2_reg c2_data we2 w2_slot w2_reg w2_mask w2_data w2_two w2_data1),
            unit2 = 2 (a3_slot a3_reg a3_data b3_slot b3_reg b3_data c3_slot c3_reg c3_data we3 w3_slot w3_reg w3_mask w3_data w3_two w3_data1),
            unit3 = 3 (a4_slot a4_reg a4_data b4_slot b4_reg b4_data c4_slot c4_reg c4_data we4 w4_slot w4_reg w4_mask w4_data w4_two w4_data1),
        ],
        spare_vgpr_ports: []
    }
}

compute_unit_top! {
    /// The compute unit in RTL with two issue units, the SIMD and one SpSIMD: no splitting,
    /// DWS at any S, PWS at S = 1. The top of the RTL system [`crate::cu_system::CuSystem`]:
    /// the same source as [`ComputeUnitTop`], about three and a half times as fast under
    /// Verilator.
    ComputeUnitTop2 {
        units: 2,
        log2: 1,
        contexts: GROUP_CONTEXTS2,
        sgpr_words: SGPR_WORDS2,
        reg_ports: (6, 8),
        returns: (6, 7),
        fetch_ports: 3,
        each: [
            unit0 = 0 (a_slot a_reg a_data b_slot b_reg b_data c_slot c_reg c_data we w_slot w_reg w_mask w_data w_two w_data1),
            unit1 = 1 (a2_slot a2_reg a2_data b2_slot b2_reg b2_data c2_slot c2_reg c2_data we2 w2_slot w2_reg w2_mask w2_data w2_two w2_data1),
        ],
        spare_vgpr_ports: [
            (a3_slot a3_reg b3_slot b3_reg c3_slot c3_reg we3 w3_slot w3_reg w3_mask w3_data w3_two w3_data1),
            (a4_slot a4_reg b4_slot b4_reg c4_slot c4_reg we4 w4_slot w4_reg w4_mask w4_data w4_two w4_data1),
        ]
    }
}
