//! Testbench of the contexts' scalar state (`hw/src/ctx/`, [`CtxRegs`]): every cycle at
//! random, write-backs (SGPRs, pairs, VCC/EXEC halves, M0, bad codes, EXEC, SCC, PC) on two
//! ports, operand reads of every kind of code on three ports, split copies, dispatch inits
//! and resets, on contexts that exist and one that does not; RTL == model every cycle.

use super::{drive, same, BlockTb, TbError, TbOptions, TbRun, TB_PERIOD_PS};
use crate::sim::cosim::{verilog_of, Waiver};
use crate::sim::waves::{Format, Gtkw};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rtgpu_hw::ctx::model::CtxRegsModel;
use rtgpu_hw::ctx::{
    CtxIn, CtxOut, CtxRegs, CtxView, ReadOut, ReadPort, WritePort, TB_CONTEXTS, TB_READS,
    TB_SGPR_WORDS, TB_WRITES,
};
use rust_hdl::core::prelude::*;

/// The `ctx` testbench.
pub struct CtxTb;

/// The block's instance: the testbench's contexts and ports.
pub type CtxTbBlock = CtxRegs<TB_CONTEXTS, TB_SGPR_WORDS, TB_READS, TB_WRITES>;

/// Drives the block's inputs (missing ports idle).
pub fn apply(u: &mut CtxTbBlock, i: &CtxIn) {
    u.reset.next = i.reset;
    u.init.next = i.init;
    u.init_ctx.next = u64::from(i.init_ctx).to_bits();
    u.init_pc.next = u64::from(i.init_pc).to_bits();
    u.init_exec.next = i.init_exec.to_bits();
    for (port, &v) in u.init_s.iter_mut().zip(&i.init_s) {
        port.next = u64::from(v).to_bits();
    }
    u.copy.next = i.copy;
    u.copy_from.next = u64::from(i.copy_from).to_bits();
    u.copy_to.next = u64::from(i.copy_to).to_bits();
    for p in 0..TB_READS {
        let r = i.reads.get(p).copied().unwrap_or_default();
        u.rctx[p].next = u64::from(r.ctx).to_bits();
        u.rcode[p].next = u64::from(r.code).to_bits();
        u.rwide[p].next = r.wide;
        u.rlit[p].next = u64::from(r.literal).to_bits();
    }
    for p in 0..TB_WRITES {
        let w = i.writes.get(p).copied().unwrap_or_default();
        u.wctx[p].next = u64::from(w.ctx).to_bits();
        u.sdst_we[p].next = w.sdst_we;
        u.sdst[p].next = u64::from(w.sdst).to_bits();
        u.wide[p].next = w.wide;
        u.d[p].next = w.d.to_bits();
        u.exec_we[p].next = w.exec_we;
        u.exec_in[p].next = w.exec.to_bits();
        u.scc_we[p].next = w.scc_we;
        u.scc_in[p].next = w.scc;
        u.pc_we[p].next = w.pc_we;
        u.pc_in[p].next = u64::from(w.pc).to_bits();
    }
}

/// The block's outputs as the model's type.
pub fn read_outputs(u: &CtxTbBlock) -> CtxOut {
    CtxOut {
        reads: (0..TB_READS)
            .map(|p| ReadOut {
                data: u.rdata[p].val().to_u64(),
                bad: u.rbad[p].val(),
            })
            .collect(),
        wbad: (0..TB_WRITES).map(|p| u.wbad[p].val()).collect(),
        ctx: (0..TB_CONTEXTS)
            .map(|c| CtxView {
                pc: u.pc[c].val().index() as u32,
                exec: u.exec[c].val().to_u64(),
                vcc: u.vcc[c].val().to_u64(),
                scc: u.scc[c].val(),
            })
            .collect(),
    }
}

/// A context: one of the block's, or (rarely) the first that does not exist.
fn context(rng: &mut ChaCha8Rng) -> u8 {
    match rng.gen_ratio(1, 16) {
        true => TB_CONTEXTS as u8,
        false => rng.gen_range(0..TB_CONTEXTS as u8),
    }
}

/// A 64-bit value, sometimes 0 (so that VCCZ and EXECZ are seen set).
fn value(rng: &mut ChaCha8Rng) -> u64 {
    match rng.gen_range(0..6) {
        0 => 0,
        1 => rng.gen::<u32>().into(),
        _ => rng.gen(),
    }
}

/// A destination code: mostly SGPRs and the special registers, sometimes any 7-bit code.
fn destination(rng: &mut ChaCha8Rng) -> u8 {
    const SPECIAL: [u8; 6] = [101, 106, 107, 124, 126, 127];
    match rng.gen_range(0..8) {
        0..=3 => rng.gen_range(0..=101),
        4..=6 => SPECIAL[rng.gen_range(0..SPECIAL.len())],
        _ => rng.gen_range(0..128),
    }
}

/// A source code: every kind (SGPRs, specials, constants, VGPR codes, reserved codes).
fn source(rng: &mut ChaCha8Rng) -> u16 {
    const SPECIAL: [u16; 12] = [100, 101, 106, 107, 124, 126, 127, 248, 251, 252, 253, 255];
    match rng.gen_range(0..8) {
        0..=2 => rng.gen_range(0..=101),
        3..=5 => SPECIAL[rng.gen_range(0..SPECIAL.len())],
        _ => rng.gen_range(0..512),
    }
}

/// A random write-back bundle.
pub fn random_write(rng: &mut ChaCha8Rng) -> WritePort {
    WritePort {
        ctx: context(rng),
        sdst_we: rng.gen_ratio(3, 4),
        sdst: destination(rng),
        wide: rng.gen(),
        d: value(rng),
        exec_we: rng.gen_ratio(1, 6),
        exec: value(rng),
        scc_we: rng.gen_ratio(1, 3),
        scc: rng.gen(),
        pc_we: rng.gen_ratio(1, 3),
        pc: rng.gen(),
    }
}

/// A random operand read.
pub fn random_read(rng: &mut ChaCha8Rng) -> ReadPort {
    ReadPort {
        ctx: context(rng),
        code: source(rng),
        wide: rng.gen(),
        literal: rng.gen(),
    }
}

/// A cycle of random traffic: writes on both ports, reads on every port, a copy, an init or
/// a reset now and then. One cycle in eight the second port writes the first's context at
/// its code or the next (the same word, or a pair's half): the last port must win.
pub fn random_input(rng: &mut ChaCha8Rng) -> CtxIn {
    let mut writes: Vec<WritePort> = (0..TB_WRITES).map(|_| random_write(rng)).collect();
    if rng.gen_ratio(1, 8) {
        let first = writes[0];
        writes[1].ctx = first.ctx;
        writes[1].sdst = first.sdst.saturating_add(rng.gen_range(0..2)).min(127);
    }
    CtxIn {
        reset: rng.gen_ratio(1, 128),
        init: rng.gen_ratio(1, 16),
        init_ctx: context(rng),
        init_pc: rng.gen(),
        init_exec: rng.gen(),
        init_s: rng.gen(),
        copy: rng.gen_ratio(1, 8),
        copy_from: context(rng),
        copy_to: context(rng),
        reads: (0..TB_READS).map(|_| random_read(rng)).collect(),
        writes,
    }
}

fn marker(inp: &CtxIn) -> Option<String> {
    match (inp.reset, inp.copy, inp.init) {
        (true, _, _) => Some("reset".into()),
        (false, true, _) => Some(format!("copy {}->{}", inp.copy_from, inp.copy_to)),
        (false, false, true) => Some(format!("init {}", inp.init_ctx)),
        _ => None,
    }
}

fn layout(window_cycles: u64) -> Gtkw {
    let p = |s: &'static str| (s, None);
    let hex = |s: &'static str| (s, Some(Format::Hex));
    let dec = |s: &'static str| (s, Some(Format::Dec));
    Gtkw::new("rtgpu ctx: the contexts' scalar state, operand reads and write-backs (hw/src/ctx/rtl/ctx_regs.rs)")
        .window(window_cycles * TB_PERIOD_PS)
        .group(
            "control: reset, dispatch init, split copy",
            &[
                p("ctx.clock"),
                p("ctx.reset"),
                p("ctx.init"),
                dec("ctx.init_ctx"),
                p("ctx.copy"),
                dec("ctx.copy_from"),
                dec("ctx.copy_to"),
            ],
        )
        .group(
            "read port 0 (operand resolution)",
            &[
                dec("ctx.rctx$0"),
                dec("ctx.rcode$0"),
                p("ctx.rwide$0"),
                hex("ctx.rlit$0"),
                hex("ctx.rdata$0"),
                p("ctx.rbad$0"),
            ],
        )
        .group(
            "write port 0 (write-back)",
            &[
                dec("ctx.wctx$0"),
                p("ctx.sdst_we$0"),
                dec("ctx.sdst$0"),
                p("ctx.wide$0"),
                hex("ctx.d$0"),
                p("ctx.exec_we$0"),
                hex("ctx.exec_in$0"),
                p("ctx.wbad$0"),
            ],
        )
        .group(
            "contexts 0 and 1",
            &[
                hex("ctx.pc$0"),
                hex("ctx.exec$0"),
                hex("ctx.vcc$0"),
                p("ctx.scc$0"),
                hex("ctx.pc$1"),
                hex("ctx.exec$1"),
                hex("ctx.vcc$1"),
                p("ctx.scc$1"),
            ],
        )
}

impl BlockTb for CtxTb {
    fn not_synthesized_in_ci(&self) -> Option<&'static str> {
        Some("about 60 s of Yosys for 204 SGPR words behind 3 read ports (rtgpu synth ctx)")
    }

    fn name(&self) -> &'static str {
        "ctx"
    }

    fn description(&self) -> &'static str {
        "the contexts' scalar state (hw/src/ctx), 2 contexts, 3 read and 2 write ports: random write-backs, operand reads of every code, copies, inits, resets; RTL == model every cycle"
    }

    fn run(&self, opts: &TbOptions) -> Result<TbRun, TbError> {
        run_tb(opts)
    }

    fn verilog(&self) -> Result<String, String> {
        verilog_of(&mut CtxTbBlock::default())
    }

    fn lint_waivers(&self) -> &'static [Waiver] {
        &WAIVERS
    }
}

/// rust-hdl writes the operand resolution's zero-extensions (`bit_cast`) as an AND with a
/// 64-bit mask of the narrower signal, which Verilator reports as a width mismatch; the
/// value is the zero-extension Verilog makes of it.
const WAIVERS: [Waiver; 5] = [
    Waiver {
        rule: "WIDTH",
        signal: "code",
        why: "bit_cast zero-extension of the 9-bit code",
    },
    Waiver {
        rule: "WIDTH",
        signal: "hi",
        why: "bit_cast zero-extension of the pair's second word",
    },
    Waiver {
        rule: "WIDTH",
        signal: "lo",
        why: "bit_cast zero-extension of the SGPR word",
    },
    Waiver {
        rule: "WIDTH",
        signal: "m0",
        why: "bit_cast zero-extension of M0",
    },
    Waiver {
        rule: "WIDTH",
        signal: "lit",
        why: "bit_cast zero-extension of the literal",
    },
];

/// The testbench: random traffic, RTL against the model.
fn run_tb(opts: &TbOptions) -> Result<TbRun, TbError> {
    let window = 60;
    let cycles = opts.cycles.max(window);
    let mut rng = ChaCha8Rng::seed_from_u64(opts.seed);
    let mut model = CtxRegsModel::new(TB_CONTEXTS);
    let mut bad = 0u64;
    let mut run = drive(
        CtxTbBlock::default(),
        "ctx",
        |u| &mut u.clock,
        opts,
        cycles,
        |h, k| {
            let inp = random_input(&mut rng);
            let got = h.cycle(|u| apply(u, &inp), read_outputs)?;
            let want = model.outputs(&inp);
            same(k, &got, &want)?;
            bad += want.reads.iter().filter(|r| r.bad).count() as u64;
            model.clock(&inp);
            Ok(marker(&inp))
        },
        move || layout(window),
    )?;
    run.summary = format!("{cycles} cycles, RTL == model every cycle ({bad} bad reads flagged)");
    Ok(run)
}
