//! Testbench of the scalar ALU (`hw/src/salu/`): directed instructions with the values of
//! the GCN3 manual's corner cases (carries, borrows, overflow, shifts by 0 and 63, a field
//! past bit 31, the saveexecs), then every SALU instruction of the subset at random, with
//! random operands, SCC, EXEC, idle cycles and resets; RTL == model every cycle.
//!
//! The instructions come from the firmware's opcode table through its assembler and the
//! decoder's model ([`salu_ops`]), so the block sees the fields the compute unit decodes.

use super::{drive, same, BlockTb, TbError, TbOptions, TbRun, TB_PERIOD_PS};
use crate::bench::engines::{of_tb, EngineCycles};
use crate::bench::BenchRow;
use crate::sim::cosim::verilog_of;
use crate::sim::cosim::Waiver;
use crate::sim::waves::{named, Format, Gtkw};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rtgpu_firmware::isa::assemble;
use rtgpu_firmware::isa::{Format as Fmt, Sig, ALL_OPS};
use rtgpu_hw::isa::insn_model::{decode_fields, unit, InsnFields};
use rtgpu_hw::salu::model::SaluModel;
use rtgpu_hw::salu::{Salu, SaluIn, SaluOut};
use rust_hdl::core::prelude::*;
use std::path::Path;

/// The `salu` testbench.
pub struct SaluTb;

/// A register operand of `w` dwords at SGPR `n`.
fn reg(w: u8, n: u32) -> String {
    match w {
        2 => format!("s[{n}:{}]", n + 1),
        _ => format!("s{n}"),
    }
}

/// One assembly line per scalar instruction of the formats SOP2, SOPK, SOP1, SOPC (operands
/// arbitrary: the block takes their values).
fn scalar_lines() -> Vec<String> {
    ALL_OPS
        .iter()
        .filter_map(|&op| {
            let i = op.info();
            let line = match (i.format, i.sig) {
                (Fmt::Sop2, Sig::Sop2(d, a, b)) => {
                    format!("{} {}, {}, {}", i.name, reg(d, 4), reg(a, 6), reg(b, 8))
                }
                (Fmt::Sopk, _) => format!("{} s4, 0x1234", i.name),
                (Fmt::Sop1, Sig::Sop1(d, a)) => format!("{} {}, {}", i.name, reg(d, 4), reg(a, 6)),
                (Fmt::Sop1, Sig::GetPc) => format!("{} s[4:5]", i.name),
                (Fmt::Sopc, Sig::Sopc) => format!("{} s4, s6", i.name),
                _ => return None,
            };
            Some(line)
        })
        .collect()
}

/// Every SALU instruction of the subset with its mnemonic, assembled and decoded (the
/// decoder's model); the scalar branches (`s_setpc_b64`, `s_swappc_b64`) are left out.
pub fn salu_ops() -> Vec<(String, InsnFields)> {
    let lines = scalar_lines();
    let program = assemble(&lines.join("\n"), "salu").expect("the scalar instructions assemble");
    let words = program.words();
    let decoded = program.items.iter().map(|item| {
        let at = item.addr as usize / 4;
        decode_fields(words[at], words.get(at + 1).copied().unwrap_or(0))
    });
    lines
        .iter()
        .zip(decoded)
        .filter(|(_, f)| f.unit == unit::SALU && !f.illegal)
        .map(|(l, f)| (l.split(' ').next().unwrap_or_default().to_string(), f))
        .collect()
}

/// The block's inputs for instruction `f` with these operands.
pub fn issue(f: &InsnFields, a: u64, b: u64, scc: bool, exec: u64) -> SaluIn {
    SaluIn {
        reset: false,
        valid: true,
        format: f.format,
        opcode: f.opcode as u8,
        dst: f.dst & 0x7F,
        a,
        b,
        scc,
        exec,
    }
}

/// The directed cases: (mnemonic, a, b, SCC, EXEC).
const DIRECTED: [(&str, u64, u64, bool, u64); 14] = [
    ("s_add_u32", 0xFFFF_FFFF, 2, false, 0),
    ("s_sub_u32", 1, 2, false, 0),
    ("s_add_i32", 0x7FFF_FFFF, 1, false, 0),
    ("s_subb_u32", 0, 0, true, 0),
    ("s_addc_u32", 0xFFFF_FFFF, 0, true, 0),
    ("s_min_i32", 0xFFFF_FFFF, 1, false, 0),
    ("s_max_u32", 0xFFFF_FFFF, 1, false, 0),
    ("s_lshl_b64", 1, 63, false, 0),
    ("s_ashr_i64", 0xFFFF_FFFF_FFFF_FF00, 4, false, 0),
    ("s_bfe_u32", 0xF0F0_F0F0, 0x0040_0004, false, 0),
    ("s_mul_i32", 0xFFFF_FFFF, 0xFFFF_FFFF, false, 0),
    ("s_cmpk_lt_i32", 0xFFFF_FFFF, 0x0001, false, 0),
    ("s_and_saveexec_b64", 0x3C, 0, false, 0xF0),
    ("s_xor_saveexec_b64", u64::MAX, 0, false, u64::MAX),
];

/// The directed part: each case, an idle cycle, a reset with `valid` (ignored).
fn directed(ops: &[(String, InsnFields)]) -> Vec<SaluIn> {
    let mut seq = vec![SaluIn::default()];
    for &(name, a, b, scc, exec) in &DIRECTED {
        let (_, f) = ops
            .iter()
            .find(|(n, _)| n == name)
            .expect("a directed mnemonic is a SALU instruction");
        seq.push(issue(f, a, b, scc, exec));
    }
    seq.push(SaluIn::default());
    seq.push(SaluIn {
        reset: true,
        ..seq[1]
    });
    seq.push(SaluIn::default());
    seq
}

/// A random operand: any value, or one near the edges (0, 1, all ones, the sign bits).
pub fn operand(rng: &mut ChaCha8Rng) -> u64 {
    const EDGES: [u64; 6] = [0, 1, u64::MAX, 0x8000_0000, 0x7FFF_FFFF, 1 << 63];
    match rng.gen_range(0..4) {
        0 => EDGES[rng.gen_range(0..EDGES.len())],
        1 => rng.gen::<u64>() & 0xFFFF_FFFF,
        _ => rng.gen(),
    }
}

/// The stimulus of cycle `k`.
fn stimulus(k: u64, seq: &[SaluIn], ops: &[(String, InsnFields)], rng: &mut ChaCha8Rng) -> SaluIn {
    if let Some(&inp) = seq.get(k as usize) {
        return inp;
    }
    let f = ops[rng.gen_range(0..ops.len())].1;
    SaluIn {
        reset: rng.gen_ratio(1, 64),
        valid: rng.gen_ratio(7, 8),
        dst: rng.gen_range(0..128),
        ..issue(&f, operand(rng), operand(rng), rng.gen(), operand(rng))
    }
}

/// The block's outputs as the model's type.
pub fn read_outputs(u: &Salu) -> SaluOut {
    SaluOut {
        out_valid: u.out_valid.val(),
        out_dst: u.out_dst.val().index() as u8,
        sdst_we: u.sdst_we.val(),
        wide: u.wide.val(),
        d_lo: u.d_lo.val().index() as u32,
        d_hi: u.d_hi.val().index() as u32,
        scc_we: u.scc_we.val(),
        scc_out: u.scc_out.val(),
        exec_we: u.exec_we.val(),
        exec_out: u.exec_out.val().to_u64(),
    }
}

/// Drives the block's inputs.
pub fn apply(u: &mut Salu, i: &SaluIn) {
    u.reset.next = i.reset;
    u.valid.next = i.valid;
    u.format.next = u64::from(i.format).to_bits();
    u.opcode.next = u64::from(i.opcode).to_bits();
    u.dst.next = u64::from(i.dst).to_bits();
    u.a.next = i.a.to_bits();
    u.b.next = i.b.to_bits();
    u.scc.next = i.scc;
    u.exec.next = i.exec.to_bits();
}

/// rust-hdl emits the top's wiring as one `always @(*)`, which Verilator orders as a unit: it
/// drives the adder's, the logic unit's and the multiplier's operands and reads their results.
/// No loop at signal level: the units' inputs come from the block's inputs and the decode,
/// never from a unit's result.
const WAIVERS: [Waiver; 3] = [
    Waiver {
        rule: "UNOPTFLAT",
        signal: "top.add$y",
        why: "top always-block granularity: the adder's operand comes from b, EXEC and the decode",
    },
    Waiver {
        rule: "UNOPTFLAT",
        signal: "top.bitwise$d",
        why: "top always-block granularity: the logic unit's result feeds only the result mux",
    },
    Waiver {
        rule: "UNOPTFLAT",
        signal: "top.mul$d",
        why: "top always-block granularity: the multiplier's result feeds only the result mux",
    },
];

fn marker(inp: &SaluIn, out: &SaluOut) -> Option<String> {
    match (inp.valid && inp.reset, out.exec_we) {
        (true, _) => Some("reset".into()),
        (false, true) => Some("saveexec".into()),
        _ => None,
    }
}

fn layout(window_cycles: u64) -> Gtkw {
    let p = |s: &'static str| (s, None);
    let hex = |s: &'static str| (s, Some(Format::Hex));
    Gtkw::new("rtgpu salu: the scalar ALU (hw/src/salu/rtl/salu.rs)")
        .window(window_cycles * TB_PERIOD_PS)
        .names("format", &named(&["NONE", "SOP2", "SOPK", "SOP1", "SOPC"]))
        .group(
            "issue (inputs)",
            &[
                p("salu.clock"),
                p("salu.reset"),
                p("salu.valid"),
                ("salu.format", Some(Format::Named("format"))),
                hex("salu.opcode"),
                hex("salu.dst"),
                hex("salu.a"),
                hex("salu.b"),
                p("salu.scc"),
                hex("salu.exec"),
            ],
        )
        .group(
            "datapath",
            &[
                hex("salu.y"),
                hex("salu.add.sum"),
                p("salu.add.carry"),
                p("salu.add.ovf"),
                p("salu.cmp"),
                hex("salu.bitwise.d"),
                hex("salu.shift.d"),
                hex("salu.mul.d"),
                hex("salu.sized"),
                p("salu.scc_new"),
            ],
        )
        .group(
            "stage (outputs, the cycle after issue)",
            &[
                p("salu.out_valid"),
                hex("salu.out_dst"),
                p("salu.sdst_we"),
                p("salu.wide"),
                hex("salu.d_hi"),
                hex("salu.d_lo"),
                p("salu.scc_we"),
                p("salu.scc_out"),
                p("salu.exec_we"),
                hex("salu.exec_out"),
            ],
        )
}

impl BlockTb for SaluTb {
    fn bench(&self, n: EngineCycles, dir: &Path) -> Option<Result<Vec<BenchRow>, String>> {
        of_tb(self, Salu::default, |u| &mut u.clock, n, dir)
    }

    fn name(&self) -> &'static str {
        "salu"
    }

    fn description(&self) -> &'static str {
        "scalar ALU (hw/src/salu): directed corner cases + every SALU instruction at random, RTL == model every cycle"
    }

    fn run(&self, opts: &TbOptions) -> Result<TbRun, TbError> {
        let ops = salu_ops();
        let seq = directed(&ops);
        let cycles = opts.cycles.max(seq.len() as u64);
        let window = seq.len() as u64;
        let mut rng = ChaCha8Rng::seed_from_u64(opts.seed);
        let mut model = SaluModel::new();
        let mut issued = 0u64;
        let mut run = drive(
            Salu::default(),
            self.name(),
            |u| &mut u.clock,
            opts,
            cycles,
            |h, k| {
                let inp = stimulus(k, &seq, &ops, &mut rng);
                let got = h.cycle(|u| apply(u, &inp), read_outputs)?;
                same(k, &got, &model.outputs())?;
                model.clock(&inp);
                issued += u64::from(got.out_valid);
                Ok(marker(&inp, &got))
            },
            move || layout(window),
        )?;
        run.summary = format!(
            "{cycles} cycles, RTL == model every cycle ({issued} instructions of {} kinds)",
            ops.len()
        );
        Ok(run)
    }

    fn verilog(&self) -> Result<String, String> {
        verilog_of(&mut Salu::default())
    }

    fn lint_waivers(&self) -> &'static [Waiver] {
        &WAIVERS
    }
}
