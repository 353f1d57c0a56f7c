//! Testbench of the issue control block (`hw/src/issue/`), 10 contexts (the compute unit's
//! default N_WFC): first `vector_add` under GTO as the behavioural compute unit ran it
//! (group 0's SIMD, every cycle: the unit's inputs replayed, RTL == model == the compute
//! unit's grant, stall reason and counters), then random inputs under the three policies
//! (starts, stops, releases, returns, every unit and the sync/program opcodes, pipes and
//! ports, the IDU, resets); RTL == model every cycle.

pub mod replay;

use super::{drive, mismatch, same, BlockTb, TbError, TbOptions, TbRun, TB_PERIOD_PS};
use crate::sim::cosim::{verilog_of, Waiver};
use crate::sim::waves::{Format, Gtkw};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rtgpu_hw::cu::issue_trace::IssueSample;
use rtgpu_hw::issue::model::IssueModel;
use rtgpu_hw::issue::{
    CtxIn, CtxState, Issue, IssueCfg, IssueIn, IssueOut, Pick, Taken, TB_CONTEXTS,
};
use rtgpu_hw::sched::model::Policy;
use rust_hdl::core::prelude::*;

/// The `issue` testbench.
pub struct IssueTb;

/// The block's instance.
pub type IssueTbBlock = Issue<TB_CONTEXTS>;

/// Drives the block's inputs.
pub fn apply(u: &mut IssueTbBlock, i: &IssueIn) {
    let c = &i.cfg;
    u.reset.next = i.reset;
    u.gto.next = c.gto;
    u.rr.next = c.rr;
    u.lat_salu.next = u64::from(c.lat_salu).to_bits();
    u.lat_valu.next = u64::from(c.lat_valu).to_bits();
    u.lat_branch.next = u64::from(c.lat_branch).to_bits();
    u.issue_period.next = u64::from(c.issue_period).to_bits();
    u.split_on.next = c.split_on;
    u.pipe_mem.next = i.pipe_mem;
    u.pipe_lds.next = i.pipe_lds;
    u.port_free.next = i.port_free;
    u.o_mem.next = i.o_mem;
    u.o_lds.next = i.o_lds;
    u.o_port.next = i.o_port;
    let [t1, t2] = i.taken;
    (u.t1_mem.next, u.t1_lds.next, u.t1_port.next) = (t1.mem, t1.lds, t1.port);
    (u.t2_mem.next, u.t2_lds.next, u.t2_port.next) = (t2.mem, t2.lds, t2.port);
    u.idu_on.next = i.idu_on;
    u.idu_ok.next = i.idu_ok;
    u.idu_wait.next = u64::from(i.idu_wait).to_bits();
    let mask = |f: fn(&CtxIn) -> bool| {
        i.ctx
            .iter()
            .enumerate()
            .fold(0u64, |m, (c, x)| m | u64::from(f(x)) << c)
            .to_bits()
    };
    u.start.next = mask(|x| x.start);
    u.stop.next = mask(|x| x.stop);
    u.bar_release.next = mask(|x| x.release);
    u.hold.next = mask(|x| x.hold);
    u.gport_free.next = mask(|x| x.gport_free);
    for (c, x) in i.ctx.iter().enumerate().take(TB_CONTEXTS) {
        u.vm_ret[c].next = u64::from(x.vm_ret).to_bits();
        u.lgkm_ret[c].next = u64::from(x.lgkm_ret).to_bits();
        u.unit[c].next = u64::from(x.unit).to_bits();
        u.opcode[c].next = u64::from(x.opcode).to_bits();
        u.imm[c].next = u64::from(x.imm).to_bits();
        u.illegal[c].next = x.illegal;
        u.state[c].next = u64::from(x.state).to_bits();
        u.age[c].next = u64::from(x.age).to_bits();
    }
}

/// The block's outputs as the model's type.
pub fn read_outputs(u: &IssueTbBlock) -> IssueOut {
    let bit = |m: u64, c: usize| m >> c & 1 == 1;
    let (live, barrier) = (u.live.val().index() as u64, u.barrier.val().index() as u64);
    IssueOut {
        grant_valid: u.grant_valid.val(),
        grant: u.grant.val().index() as u8,
        f_valid: u.f_valid.val(),
        f_grant: u.f_grant.val().index() as u8,
        f_mem: u.f_mem.val(),
        f_lds: u.f_lds.val(),
        f_port: u.f_port.val(),
        at: [
            Pick {
                valid: u.p1_valid.val(),
                grant: u.p1_grant.val().index() as u8,
                mem: u.p1_mem.val(),
                lds: u.p1_lds.val(),
                port: u.p1_port.val(),
            },
            Pick {
                valid: u.p2_valid.val(),
                grant: u.p2_grant.val().index() as u8,
                mem: u.p2_mem.val(),
                lds: u.p2_lds.val(),
                port: u.p2_port.val(),
            },
        ],
        stall: u.stall.val().index() as u8,
        eligible: u.eligible.val().index() as u64,
        present: u.present.val().index() as u64,
        valu_busy: u.valu_busy.val().index() as u8,
        ctx: (0..TB_CONTEXTS)
            .map(|c| CtxState {
                live: bit(live, c),
                barrier: bit(barrier, c),
                wait: u.dep[c].val().index() as u16,
                vmcnt: u.vmcnt[c].val().index() as u8,
                lgkmcnt: u.lgkmcnt[c].val().index() as u8,
            })
            .collect(),
    }
}

/// A random context input: mostly READY, every unit, the sync and program opcodes.
fn random_ctx(rng: &mut ChaCha8Rng) -> CtxIn {
    const OPS: [u8; 6] = [0x00, 0x01, 0x0A, 0x0C, 0x0E, 0x05];
    CtxIn {
        start: rng.gen_ratio(1, 12),
        stop: rng.gen_ratio(1, 40),
        release: rng.gen_ratio(1, 6),
        hold: rng.gen_ratio(1, 30),
        gport_free: rng.gen_ratio(5, 6),
        vm_ret: if rng.gen_ratio(1, 5) {
            rng.gen_range(1..3)
        } else {
            0
        },
        lgkm_ret: if rng.gen_ratio(1, 5) {
            rng.gen_range(1..3)
        } else {
            0
        },
        unit: rng.gen_range(0..11),
        opcode: OPS[rng.gen_range(0..OPS.len())],
        imm: if rng.gen_ratio(1, 2) {
            rng.gen_range(0..0x400) & 0x30F
        } else {
            rng.gen()
        },
        illegal: rng.gen_ratio(1, 40),
        state: if rng.gen_ratio(4, 5) {
            1
        } else {
            rng.gen_range(0..8)
        },
        age: rng.gen_range(0..TB_CONTEXTS as u8),
    }
}

/// The static configuration of a random run: `policy`, small latencies.
pub fn random_cfg(policy: Policy, rng: &mut ChaCha8Rng) -> IssueCfg {
    IssueCfg {
        gto: policy == Policy::Gto,
        rr: policy == Policy::Rr,
        lat_salu: rng.gen_range(0..4),
        lat_valu: rng.gen_range(0..9),
        lat_branch: rng.gen_range(0..5),
        issue_period: rng.gen_range(0..6),
        split_on: rng.gen(),
    }
}

/// A cycle of random inputs with configuration `cfg`.
pub fn random_input(cfg: IssueCfg, rng: &mut ChaCha8Rng) -> IssueIn {
    IssueIn {
        reset: rng.gen_ratio(1, 300),
        cfg,
        pipe_mem: rng.gen_ratio(1, 4),
        pipe_lds: rng.gen_ratio(1, 4),
        port_free: rng.gen_ratio(3, 4),
        o_mem: rng.gen_ratio(1, 5),
        o_lds: rng.gen_ratio(1, 5),
        o_port: rng.gen_ratio(1, 5),
        taken: [(); 2].map(|_| Taken {
            mem: rng.gen_ratio(1, 3),
            lds: rng.gen_ratio(1, 3),
            port: rng.gen_ratio(1, 3),
        }),
        idu_on: rng.gen_ratio(1, 8),
        idu_ok: rng.gen(),
        idu_wait: rng.gen_range(0..12),
        ctx: (0..TB_CONTEXTS).map(|_| random_ctx(rng)).collect(),
    }
}

/// The replayed part: `vector_add` under GTO, group 0's SIMD: (inputs, the compute unit's
/// sample) per cycle.
pub fn replayed() -> Result<Vec<(IssueIn, IssueSample)>, String> {
    let case = replay::Case {
        kernel: "vector_add",
        mode: rtgpu_hw::cu::Mode::NoSplit,
        s: 1,
        policy: Policy::Gto,
    };
    let cfg = replay::config(case.policy)?;
    let unit = replay::by_unit(replay::record(&case)?)
        .remove(&(0, 0))
        .ok_or("no samples of group 0's SIMD")?;
    let mut v = Vec::with_capacity(unit.len());
    for (n, s) in unit.iter().enumerate() {
        v.push((
            replay::inputs(cfg, n.checked_sub(1).map(|p| &unit[p]), s)?,
            s.clone(),
        ));
    }
    Ok(v)
}

fn layout(window_cycles: u64) -> Gtkw {
    let p = |s: &'static str| (s, None);
    let hex = |s: &'static str| (s, Some(Format::Hex));
    let dec = |s: &'static str| (s, Some(Format::Dec));
    Gtkw::new("rtgpu issue: eligibility, stall reason, counters and the scheduler of one unit (hw/src/issue/rtl/issue.rs)")
        .window(window_cycles * TB_PERIOD_PS)
        .group(
            "shared inputs",
            &[
                p("issue.clock"),
                p("issue.reset"),
                p("issue.gto"),
                p("issue.rr"),
                p("issue.pipe_mem"),
                p("issue.pipe_lds"),
                p("issue.port_free"),
                hex("issue.start"),
                hex("issue.bar_release"),
            ],
        )
        .group(
            "decision",
            &[
                hex("issue.eligible"),
                hex("issue.present"),
                p("issue.grant_valid"),
                dec("issue.grant"),
                dec("issue.stall"),
                dec("issue.valu_busy"),
            ],
        )
        .group(
            "contexts 0 and 1",
            &[
                hex("issue.live"),
                hex("issue.barrier"),
                dec("issue.unit$0"),
                hex("issue.opcode$0"),
                dec("issue.dep$0"),
                dec("issue.vmcnt$0"),
                dec("issue.lgkmcnt$0"),
                dec("issue.unit$1"),
                dec("issue.dep$1"),
                dec("issue.vmcnt$1"),
            ],
        )
}

impl BlockTb for IssueTb {
    fn name(&self) -> &'static str {
        "issue"
    }

    fn description(&self) -> &'static str {
        "issue control of one SIMD (hw/src/issue), 10 contexts: vector_add's cycles as the behavioural compute unit ran them (RTL == model == its grants, stalls, counters), then random inputs under GTO, LRR, RR"
    }

    fn run(&self, opts: &TbOptions) -> Result<TbRun, TbError> {
        run_tb(opts)
    }

    fn verilog(&self) -> Result<String, String> {
        verilog_of(&mut IssueTbBlock::default())
    }

    fn lint_waivers(&self) -> &'static [Waiver] {
        &WAIVERS
    }
}

/// rust-hdl emits the top's wiring as one `always @(*)`, which Verilator orders as a unit:
/// the scheduler's grant goes to the contexts' `granted` inputs, which feed only their
/// registers' next values, never their eligibility (no loop at signal level). The issue
/// block has no use for the scheduler's last-grant outputs.
const WAIVERS: [Waiver; 4] = [
    Waiver {
        rule: "UNOPTFLAT",
        signal: "top.sched$grant_valid",
        why: "top always-block granularity: the grant feeds the contexts' registers, not their eligibility",
    },
    Waiver {
        rule: "UNOPTFLAT",
        signal: "top.sched$grant",
        why: "top always-block granularity: the grant feeds the contexts' registers, not their eligibility",
    },
    Waiver {
        rule: "UNUSEDSIGNAL",
        signal: "sched$last",
        why: "the issue block does not show the scheduler's last grant",
    },
    Waiver {
        rule: "UNUSEDSIGNAL",
        signal: "sched$last_valid",
        why: "the issue block does not show the scheduler's last grant",
    },
];

/// The testbench: the replayed kernel, then random inputs, RTL against the model (and the
/// compute unit where it ran).
fn run_tb(opts: &TbOptions) -> Result<TbRun, TbError> {
    let replayed = replayed().map_err(|e| mismatch(0, e))?;
    let window = (replayed.len() as u64).min(200);
    let cycles = opts.cycles.max(replayed.len() as u64 + 1);
    let mut rng = ChaCha8Rng::seed_from_u64(opts.seed);
    let mut model = IssueModel::new(TB_CONTEXTS);
    let mut cfg = random_cfg(Policy::Gto, &mut rng);
    let mut grants = 0u64;
    let mut run = drive(
        IssueTbBlock::default(),
        "issue",
        |u| &mut u.clock,
        opts,
        cycles,
        |h, k| {
            let at = k as usize;
            let inp = match replayed.get(at) {
                Some((i, _)) => i.clone(),
                None if at == replayed.len() => IssueIn {
                    reset: true,
                    ..random_input(cfg, &mut rng)
                },
                None => {
                    if rng.gen_ratio(1, 500) {
                        cfg = random_cfg(Policy::ALL[rng.gen_range(0..3)], &mut rng);
                    }
                    random_input(cfg, &mut rng)
                }
            };
            let got = h.cycle(|u| apply(u, &inp), read_outputs)?;
            same(k, &got, &model.clock(&inp))?;
            if let Some((_, s)) = replayed.get(at) {
                replay::agrees(s, &got).map_err(|e| mismatch(k, format!("compute unit: {e}")))?;
            }
            grants += u64::from(got.grant_valid);
            Ok((at == replayed.len()).then(|| "random inputs".to_string()))
        },
        move || layout(window),
    )?;
    run.summary = format!(
        "{cycles} cycles ({} of vector_add replayed, RTL == model == compute unit), RTL == model every cycle ({grants} grants)",
        replayed.len()
    );
    Ok(run)
}
