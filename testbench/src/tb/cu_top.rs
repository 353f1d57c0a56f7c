//! Testbench of the compute unit's RTL top (`hw/src/cu_top/`): the driver writes
//! `firmware/kernels/rtl/scalar_loop.s` through the code port, then launches it once (four
//! work-groups of two wavefronts on the top's four contexts, greedy-then-oldest); every cycle
//! of the launch, the top's issue probe (wavefront and PC) and `busy` must be what the
//! behavioural compute unit issued in that cycle of the same launch.

use super::{drive, same, BlockTb, TbError, TbOptions, TbRun, TB_PERIOD_PS};
use crate::cu::rtl_top::{run_behavioural, IssueEvent, TopIo, TopLaunch};
use crate::sim::cosim::{verilog_of, KindWaiver, Waiver, BIT_CAST_WIDTH};
use crate::sim::waves::{named, Format, Gtkw};
use rtgpu_firmware::isa::assemble;
use rtgpu_hw::cu::{Abi, Mode};
use rtgpu_hw::cu_top::{ComputeUnitTop, GROUP_CONTEXTS};
use rtgpu_hw::issue::stall;
use rtgpu_hw::pws::State;
use rtgpu_hw::sched::model::Policy;

/// The `cu_top` testbench.
pub struct CuTopTb;

/// The launch: 512 work-items in work-groups of 128 (eight wavefronts for four contexts, so
/// work-groups wait for slots), greedy-then-oldest.
pub const LAUNCH: TopLaunch = TopLaunch {
    grid: 512,
    wg: 128,
    abi: Abi::Rtgpu {
        kernarg: 0x1_0000_2000,
    },
    policy: Policy::Gto,
    mode: Mode::NoSplit,
    s: 1,
};

/// Cycles the behavioural launch may take before the testbench gives up.
const LIMIT: u64 = 20_000;

/// `scalar_loop`'s dwords.
pub fn program() -> Vec<u32> {
    let text = include_str!("../../../firmware/kernels/rtl/scalar_loop.s");
    assemble(text, "scalar_loop")
        .expect("scalar_loop assembles")
        .words()
}

/// What the top shows in a cycle of the launch: `busy`, and the issue (wavefront, PC).
type Seen = (bool, Option<(u32, u32)>);

/// The behavioural compute unit's launch, cycle by cycle: the issue of each cycle and the
/// launch's length.
struct Expected {
    /// The issue of launch cycle `c` (at most one: one SIMD).
    issues: Vec<Option<IssueEvent>>,
    /// The launch's cycles: `busy` is high for cycles `0..cycles`.
    cycles: u64,
}

impl Expected {
    fn of(code: &[u32]) -> Result<Self, TbError> {
        let run = run_behavioural(code, &LAUNCH, &[], LIMIT)
            .map_err(|e| super::mismatch(0, format!("behavioural launch: {e}")))?;
        let mut issues = vec![None; run.cycles as usize + 1];
        for e in run.issues {
            issues[e.cycle as usize] = Some(e);
        }
        Ok(Self {
            issues,
            cycles: run.cycles,
        })
    }

    /// What the top must show in launch cycle `c`.
    fn at(&self, c: u64) -> Seen {
        let issue = self.issues.get(c as usize).copied().flatten();
        (c < self.cycles, issue.map(|e| (e.wave, e.pc)))
    }
}

/// The testbench's cycles: reset, the code writes, the launch cycle, then the launch.
struct Schedule {
    /// The code's dwords.
    code: Vec<u32>,
    /// The first cycle of the launch (the one after `launch`).
    first: u64,
}

impl Schedule {
    fn new(code: Vec<u32>) -> Self {
        let first = code.len() as u64 + 2;
        Self { code, first }
    }

    /// Drives cycle `k`'s inputs.
    fn apply(&self, u: &mut ComputeUnitTop, k: u64) {
        u.reset.next = k == 0;
        u.code_we.next = false;
        u.launch.next = false;
        match k {
            0 => {}
            k if k + 1 < self.first => u.write_code(k as usize - 1, self.code[k as usize - 1]),
            // (scalar_loop does not access memory.)
            k if k + 1 == self.first => u.start(&LAUNCH, 0),
            _ => {}
        }
    }
}

fn marker(k: u64, s: &Schedule, send: Option<(u64, u64)>, ended: bool) -> Option<String> {
    if k + 1 == s.first {
        return Some("launch".into());
    }
    if k == 1 {
        return Some("code load".into());
    }
    if ended {
        return Some("busy falls".into());
    }
    send.map(|(wg, wave)| format!("dispatch wg {wg} wave {wave}"))
}

/// The view, opening on the launch (cycle `launch`), its dispatches and first issues.
fn layout(launch: u64) -> Gtkw {
    let p = |s: &'static str| (s, None);
    let hex = |s: &'static str| (s, Some(Format::Hex));
    let dec = |s: &'static str| (s, Some(Format::Dec));
    let insn = |s: &'static str| (s, Some(Format::Insn));
    let state = |s: &'static str| (s, Some(Format::Named("state")));
    let stall_names = [
        "STRUCTURAL",
        "DEPENDENCY",
        "WAITCNT",
        "BARRIER",
        "SPLIT_MERGE",
        "IDLE",
    ];
    debug_assert_eq!(stall_names.len(), usize::from(stall::IDLE) + 1);
    Gtkw::new("rtgpu cu_top: the compute unit in RTL, scalar_loop launched once (hw/src/cu_top/rtl/top.rs)")
        .window_at(
            launch.saturating_sub(2) * TB_PERIOD_PS,
            crate::sim::waves::READABLE_CYCLES * TB_PERIOD_PS,
        )
        .names("state", &named(&State::ALL.map(State::name)))
        .names("stall", &named(&stall_names))
        .group(
            "code port and launch",
            &[
                p("cu_top.clock"),
                p("cu_top.reset"),
                p("cu_top.code_we"),
                dec("cu_top.code_addr"),
                insn("cu_top.code_data"),
                p("cu_top.launch"),
                dec("cu_top.wg_count"),
                dec("cu_top.waves"),
                p("cu_top.gto"),
            ],
        )
        .group(
            "dispatch",
            &[
                p("cu_top.send"),
                dec("cu_top.send_slot"),
                dec("cu_top.send_wg"),
                dec("cu_top.send_wave"),
            ],
        )
        .group(
            "issue unit 0 (the SIMD; the instruction at the PC, disassembled)",
            &[
                p("cu_top.first"),
                p("cu_top.issue_valid$0"),
                dec("cu_top.issue_slot$0"),
                hex("cu_top.issue_pc$0"),
                insn("cu_top.unit0.g_w0"),
                ("cu_top.stall$0", Some(Format::Named("stall"))),
            ],
        )
        .group(
            "issue units 1 to 3 (the SpSIMDs of PWS: split children; idle without splitting)",
            &[
                p("cu_top.issue_valid$1"),
                p("cu_top.issue_valid$2"),
                p("cu_top.issue_valid$3"),
            ],
        )
        .group(
            // Slot c is the split/merge unit's context 4c (4c + u its PWS partners).
            "slots' states (unit 0's contexts, as its issue control takes them)",
            &[
                state("cu_top.unit0.issue.state$0"),
                state("cu_top.unit0.issue.state$1"),
                state("cu_top.unit0.issue.state$2"),
                state("cu_top.unit0.issue.state$3"),
            ],
        )
        .group(
            "status",
            &[p("cu_top.busy"), p("cu_top.fault"), hex("cu_top.fault_pc")],
        )
}

impl BlockTb for CuTopTb {
    fn name(&self) -> &'static str {
        "cu_top"
    }

    fn description(&self) -> &'static str {
        "the compute unit in RTL (hw/src/cu_top), one SIMD of 4 contexts: scalar_loop written through the code port and launched once (grid 512, wg 128, GTO); every cycle its issue (wavefront, PC) and busy == the behavioural compute unit's"
    }

    fn run(&self, opts: &TbOptions) -> Result<TbRun, TbError> {
        on_rtl_stack(|| run_tb(opts))
    }

    fn verilog(&self) -> Result<String, String> {
        on_rtl_stack(|| verilog_of(&mut ComputeUnitTop::default()))
    }

    fn lint_waivers(&self) -> &'static [Waiver] {
        &WAIVERS
    }

    fn lint_kind_waivers(&self) -> &'static [KindWaiver] {
        &KIND_WAIVERS
    }

    fn not_synthesized_in_ci(&self) -> Option<&'static str> {
        Some("minutes of Yosys (rtgpu synth cu_top, or per sub-block rtgpu synth cu)")
    }

    fn not_cosimulated_in_ci(&self) -> Option<&'static str> {
        Some("with the VGPR file and the VALU the top is minutes of Icarus and about a minute of Verilator lint (rtgpu cosim cu_top --lint-only by hand)")
    }
}

/// Why an `UNOPTFLAT` is expected: rust-hdl writes a block's wiring as one `always @(*)`.
const GRANULARITY: &str = "always-block granularity: the block drives the sub-block's inputs and reads its outputs in one block; no loop at signal level";

/// One `UNOPTFLAT` waiver on `signal` (see [`GRANULARITY`]).
const fn unoptflat(signal: &'static str) -> Waiver {
    Waiver {
        rule: "UNOPTFLAT",
        signal,
        why: GRANULARITY,
    }
}

/// The top's and its sub-blocks' findings by signal (`?` stands for a unit's number, `*` for a
/// lane's). The combinational loops at block granularity: the top's wiring between the issue
/// units and the shared blocks (each unit's hold, start and free port from the others' flags,
/// what the units before it take, the errors, the split/merge unit's commands, the dispatch,
/// the LDS's and the memory returns' status), and inside each unit the SALU's, the issue control's, the branch target's
/// and the VALU's as in their own testbenches.
const WAIVERS: [Waiver; 46] = [
    unoptflat("top.cmd_u$?"),
    unoptflat("top.err_u$?"),
    unoptflat("top.disp$send$0"),
    unoptflat("top.disp$send_slot$0"),
    unoptflat("top.disp$send_wave$0"),
    unoptflat("top.lds.dp$active"),
    unoptflat("top.lds.dp$blocked_in"),
    unoptflat("top.mret$idle_next"),
    unoptflat("top.sctl$cmd_merge$?"),
    unoptflat("top.sctl$cmd_split$?"),
    unoptflat("top.sctl$fault_overflow$?"),
    unoptflat("top.unit?$bar_release"),
    unoptflat("top.unit?$hold"),
    unoptflat("top.unit?$start"),
    unoptflat("top.unit0$port_free"),
    unoptflat("top.unit?.br$target"),
    unoptflat("top.unit?.issue.sched$grant"),
    unoptflat("top.unit?.issue.sched$grant_valid"),
    unoptflat("top.unit?$o_*"),
    unoptflat("top.fnum$k"),
    unoptflat("top.mreq$sreq"),
    unoptflat("top.unit?.ctake*$f_cmd"),
    unoptflat("top.unit?.issue.pick?.pick$grant*"),
    unoptflat("top.unit?.salu.add$y"),
    unoptflat("top.unit?.salu.bitwise$d"),
    unoptflat("top.unit?.salu.mul$d"),
    unoptflat("top.unit?.valu.dp$dst"),
    unoptflat("top.unit?.valu.dp.lane$*.fpu.fadd.round$bits"),
    unoptflat("top.unit?.vops$c_reg"),
    // (The operands' block drives the VGPR file's read rows and the scalar ports' pair flags
    // from the instruction's fields and reads the rows and scalars back; the file's lanes
    // carry the loop through their read indices.)
    unoptflat("top.unit?.vops$s?_wide"),
    unoptflat("top.vgprs.lane$*.*_idx"),
    unoptflat("top.vgprs.lane$*.*_ok"),
    unused(
        "imm",
        "the branch unit reads simm16, bits 15:0 of the decoder's immediate",
    ),
    unused(
        "src",
        "s_setpc_b64/s_swappc_b64 jump to the pair's low word (PCs are 32 bits)",
    ),
    unused("room", "the fp rounding reads only the sign of lim - lz"),
    unused("m_src?", SGPR_FIELD),
    unused("l_src?", SGPR_FIELD),
    unused("m_soff", "an SMEM offset from an SGPR is its low dword"),
    unused(
        "m_sdata",
        "s_store_dword's SDATA is one SGPR, the pair's low dword",
    ),
    unused(
        "w0$?",
        "the command port's take reads the instruction word's encoding and opcode, bits 31:16",
    ),
    Waiver {
        rule: "UNUSEDPARAM",
        signal: "kpos$3",
        why: "position 3 of the visiting order exists with four units",
    },
    unused("l_opcode", "the DS opcodes of the subset are below 256"),
    unused("req_ctx", "the return tag keeps the context's 4 bits"),
    unused(
        "?resp_tag",
        "a return tag holds 17 of its 32 bits: context 4, generation 6, destination 7",
    ),
    unused(
        "req_dst",
        "the return tag keeps the destination's 7 bits (VGPRs below v24, SGPRs below s102)",
    ),
    unused(
        "rsrc2",
        "a wavefront's SGPRs take PGM_RSRC2's user count and id/info enables (scratch: 0)",
    ),
];

/// Why a 9-bit operand field is read without its top bit.
const SGPR_FIELD: &str =
    "a memory or DS instruction's operand field names an SGPR or VGPR by its low 8 bits";

/// One `UNUSEDSIGNAL` waiver on `signal`, `why` it is partly read.
const fn unused(signal: &'static str, why: &'static str) -> Waiver {
    Waiver {
        rule: "UNUSEDSIGNAL",
        signal,
        why,
    }
}

/// The findings by shape: the zero-extensions, and the sub-blocks' outputs that this stage of
/// the top does not read yet (rust-hdl names them `block$port`; the vector unit's, memory's
/// and splitting's, the decoder's VOP3 fields, the dispatcher's and the split/merge unit's
/// status).
const KIND_WAIVERS: [KindWaiver; 3] = [
    BIT_CAST_WIDTH[0],
    BIT_CAST_WIDTH[1],
    KindWaiver {
        rule: "UNUSEDSIGNAL",
        message: "*Signal is not used: '*$*'*",
        why: "an output of a sub-block that the first stage of the top does not read (vector unit, memory, splitting, status)",
    },
];

/// Runs `f` on a thread with the RTL threads' stack (rust-hdl builds the top, its code memory
/// and SGPR file, on the stack); a panic goes on.
fn on_rtl_stack<T: Send>(f: impl FnOnce() -> T + Send) -> T {
    crate::sim::twin::with_rtl_stack(f).unwrap_or_else(|p| std::panic::resume_unwind(p))
}

/// The testbench: the code load and the launch, every launch cycle against the behavioural
/// compute unit.
fn run_tb(opts: &TbOptions) -> Result<TbRun, TbError> {
    let s = Schedule::new(program());
    let want = Expected::of(&s.code)?;
    let cycles = s.first + want.cycles + 2;
    let launch = s.first - 1;
    let mut slots = [0u32; GROUP_CONTEXTS];
    let mut issued = 0u64;
    let mut run = drive(
        ComputeUnitTop::default(),
        "cu_top",
        |u| &mut u.clock,
        opts,
        cycles,
        |h, k| {
            let mut seen = Vec::new();
            let (busy, send) = h.cycle(
                |u| s.apply(u, k),
                |u| {
                    let c = k.saturating_sub(s.first);
                    u.observe(&LAUNCH, c, &mut slots, &mut seen);
                    let send = u.send.val().then(|| {
                        (
                            u.send_wg.val().index() as u64,
                            u.send_wave.val().index() as u64,
                        )
                    });
                    (u.busy.val(), send)
                },
            )?;
            let got: Seen = (busy, seen.first().map(|e| (e.wave, e.pc)));
            if k < s.first {
                // Before the launch: idle.
                same(k, &got, &(false, None))?;
                return Ok(marker(k, &s, None, false));
            }
            let c = k - s.first;
            same(k, &got, &want.at(c))?;
            issued += u64::from(got.1.is_some());
            Ok(marker(k, &s, send, c == want.cycles))
        },
        move || layout(launch),
    )?;
    run.summary = format!(
        "{cycles} cycles ({} code dwords, launch of {} cycles), every issue and busy == the behavioural compute unit ({issued} instructions)",
        s.code.len(),
        want.cycles
    );
    Ok(run)
}
