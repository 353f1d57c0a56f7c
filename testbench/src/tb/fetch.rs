//! Testbench of the instruction fetch and buffer (`hw/src/fetch/`): the driver writes the
//! `fig2_divergent` kernel into the instruction memory through the write port, then every
//! cycle at random: fetch ports loading one context (an issue unit's grant), several (the
//! dispatcher's broadcast) or none, PCs in the code, unaligned or past its end, colliding
//! ports, split copies, code writes, read-backs and resets; RTL == model every cycle.

use super::insn::UNIT_NAMES;
use super::{drive, same, BlockTb, TbError, TbOptions, TbRun, TB_PERIOD_PS};
use crate::sim::cosim::{verilog_of, Waiver};
use crate::sim::waves::{named, Format, Gtkw};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rtgpu_firmware::isa::assemble;
use rtgpu_hw::fetch::model::FetchModel;
use rtgpu_hw::fetch::{
    Buffer, Fetch, FetchIn, FetchOut, FetchPort, TB_CONTEXTS, TB_PORTS, TB_WORDS,
};
use rust_hdl::core::prelude::*;

/// The `fetch` testbench.
pub struct FetchTb;

/// The block's instance: the testbench's contexts, ports and memory.
pub type FetchTbBlock = Fetch<TB_CONTEXTS, TB_PORTS, TB_WORDS>;

/// The kernel the driver loads: `fig2_divergent`'s dwords, cut to the memory.
pub fn program() -> Vec<u32> {
    let text = include_str!("../../../firmware/kernels/fig2_divergent.s");
    let mut words = assemble(text, "fig2_divergent")
        .expect("fig2_divergent assembles")
        .words()
        .to_vec();
    words.truncate(TB_WORDS);
    words
}

/// Drives the block's inputs.
pub fn apply(u: &mut FetchTbBlock, i: &FetchIn) {
    u.reset.next = i.reset;
    u.wen.next = i.wen;
    u.waddr.next = u64::from(i.waddr).to_bits();
    u.wdata.next = u64::from(i.wdata).to_bits();
    u.raddr.next = u64::from(i.raddr).to_bits();
    for p in 0..TB_PORTS {
        let port = i.ports.get(p).copied().unwrap_or_default();
        u.sel[p].next = (port.sel as u64).to_bits();
        u.pc[p].next = u64::from(port.pc).to_bits();
    }
    u.copy.next = i.copy;
    u.copy_from.next = u64::from(i.copy_from).to_bits();
    u.copy_to.next = u64::from(i.copy_to).to_bits();
}

/// The block's outputs as the model's type.
pub fn read_outputs(u: &FetchTbBlock) -> FetchOut {
    FetchOut {
        rdata: u.rdata.val().index() as u32,
        buffers: (0..TB_CONTEXTS)
            .map(|c| Buffer {
                valid: u.valid[c].val(),
                w0: u.w0[c].val().index() as u32,
                w1: u.w1[c].val().index() as u32,
                unit: u.unit[c].val().index() as u8,
                illegal: u.illegal[c].val(),
                oob: u.oob[c].val(),
            })
            .collect(),
    }
}

/// A random fetch port: idle, one context, or several; a PC in the code, unaligned or past
/// its end.
fn random_port(rng: &mut ChaCha8Rng) -> FetchPort {
    let sel = match rng.gen_range(0..8) {
        0..=2 => 0,
        3..=5 => 1 << rng.gen_range(0..TB_CONTEXTS),
        _ => rng.gen_range(0..1u128 << TB_CONTEXTS),
    };
    let words = TB_WORDS as u32;
    let pc = match rng.gen_range(0..16) {
        0 => 4 * words + rng.gen_range(0..64),
        1 => rng.gen(),
        2 => rng.gen_range(0..4 * words),
        _ => 4 * rng.gen_range(0..words),
    };
    FetchPort { sel, pc }
}

/// The inputs of cycle `k`: the program's dwords through the write port first, then random
/// traffic.
pub fn stimulus(k: u64, program: &[u32], rng: &mut ChaCha8Rng) -> FetchIn {
    match program.get(k as usize) {
        Some(&w) => FetchIn {
            wen: true,
            waddr: k as u32,
            wdata: w,
            raddr: rng.gen_range(0..TB_WORDS as u32),
            ..FetchIn::default()
        },
        None => random_input(program, rng),
    }
}

/// A cycle of random traffic: fetches, copies, writes of the program's dwords, read-backs
/// and (rarely) a reset.
pub fn random_input(program: &[u32], rng: &mut ChaCha8Rng) -> FetchIn {
    let ctx = |rng: &mut ChaCha8Rng| rng.gen_range(0..TB_CONTEXTS as u8 + 1);
    FetchIn {
        reset: rng.gen_ratio(1, 64),
        wen: rng.gen_ratio(1, 32),
        waddr: rng.gen_range(0..TB_WORDS as u32 + 2),
        wdata: program[rng.gen_range(0..program.len())],
        raddr: rng.gen_range(0..TB_WORDS as u32 + 2),
        ports: (0..TB_PORTS).map(|_| random_port(rng)).collect(),
        copy: rng.gen_ratio(1, 6),
        copy_from: ctx(rng),
        copy_to: ctx(rng),
    }
}

fn marker(k: u64, loaded: u64, inp: &FetchIn) -> Option<String> {
    if k + 1 == loaded {
        return Some("code loaded".into());
    }
    match (inp.reset, inp.copy && k >= loaded) {
        (true, _) => Some("reset".into()),
        (false, true) => Some(format!("copy {}->{}", inp.copy_from, inp.copy_to)),
        _ => None,
    }
}

fn layout(window_cycles: u64) -> Gtkw {
    let p = |s: &'static str| (s, None);
    let hex = |s: &'static str| (s, Some(Format::Hex));
    let dec = |s: &'static str| (s, Some(Format::Dec));
    let insn = |s: &'static str| (s, Some(Format::Insn));
    let unit = |s: &'static str| (s, Some(Format::Named("unit")));
    Gtkw::new("rtgpu fetch: instruction memory, fetch ports, one predecoded buffer per context (hw/src/fetch/rtl/fetch.rs)")
        .window(window_cycles * TB_PERIOD_PS)
        .names("unit", &named(&UNIT_NAMES))
        .group(
            "driver port (CODE_DATA)",
            &[
                p("fetch.clock"),
                p("fetch.reset"),
                p("fetch.wen"),
                dec("fetch.waddr"),
                insn("fetch.wdata"),
                dec("fetch.raddr"),
                hex("fetch.rdata"),
            ],
        )
        .group(
            "fetch ports and split copy",
            &[
                hex("fetch.sel$0"),
                hex("fetch.pc$0"),
                unit("fetch.p_unit$0"),
                hex("fetch.sel$1"),
                hex("fetch.pc$1"),
                unit("fetch.p_unit$1"),
                p("fetch.copy"),
                dec("fetch.copy_from"),
                dec("fetch.copy_to"),
            ],
        )
        .group(
            "buffers of contexts 0 and 1",
            &[
                p("fetch.valid$0"),
                insn("fetch.w0$0"),
                hex("fetch.w1$0"),
                unit("fetch.unit$0"),
                p("fetch.illegal$0"),
                p("fetch.oob$0"),
                p("fetch.valid$1"),
                insn("fetch.w0$1"),
                unit("fetch.unit$1"),
                p("fetch.oob$1"),
            ],
        )
}

impl BlockTb for FetchTb {
    fn name(&self) -> &'static str {
        "fetch"
    }

    fn description(&self) -> &'static str {
        "instruction fetch and buffers (hw/src/fetch), 8 contexts, 2 ports, 64 dwords: fig2's code loaded, then random fetches, broadcasts, collisions, copies, writes, resets; RTL == model every cycle"
    }

    fn run(&self, opts: &TbOptions) -> Result<TbRun, TbError> {
        run_tb(opts)
    }

    fn verilog(&self) -> Result<String, String> {
        verilog_of(&mut FetchTbBlock::default())
    }

    fn lint_waivers(&self) -> &'static [Waiver] {
        &WAIVERS
    }
}

/// The predecode shares the decode stage's legality block, whose `split` flag and VOP3b
/// layout only the decode stage's field extraction uses.
const WAIVERS: [Waiver; 4] = [
    Waiver {
        rule: "UNUSEDSIGNAL",
        signal: "chk$0$is_split",
        why: "the predecode keeps the unit and legality only",
    },
    Waiver {
        rule: "UNUSEDSIGNAL",
        signal: "chk$0$vop3b",
        why: "the predecode keeps the unit and legality only",
    },
    Waiver {
        rule: "UNUSEDSIGNAL",
        signal: "chk$1$is_split",
        why: "the predecode keeps the unit and legality only",
    },
    Waiver {
        rule: "UNUSEDSIGNAL",
        signal: "chk$1$vop3b",
        why: "the predecode keeps the unit and legality only",
    },
];

/// The testbench: the program loaded, then random traffic, RTL against the model.
fn run_tb(opts: &TbOptions) -> Result<TbRun, TbError> {
    let program = program();
    let loaded = program.len() as u64;
    let window = loaded + 40;
    let cycles = opts.cycles.max(window);
    let mut rng = ChaCha8Rng::seed_from_u64(opts.seed);
    let mut model = FetchModel::new(TB_CONTEXTS, TB_WORDS);
    let mut loads = 0u64;
    let mut run = drive(
        FetchTbBlock::default(),
        "fetch",
        |u| &mut u.clock,
        opts,
        cycles,
        |h, k| {
            let inp = stimulus(k, &program, &mut rng);
            let got = h.cycle(|u| apply(u, &inp), read_outputs)?;
            same(k, &got, &model.outputs(inp.raddr))?;
            model.clock(&inp);
            loads += inp
                .ports
                .iter()
                .map(|p| u64::from(p.sel.count_ones()))
                .sum::<u64>();
            Ok(marker(k, loaded, &inp))
        },
        move || layout(window),
    )?;
    run.summary = format!("{cycles} cycles, RTL == model every cycle ({loads} buffer loads)");
    Ok(run)
}
