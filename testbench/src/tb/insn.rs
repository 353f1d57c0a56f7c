//! Testbench of the instruction decode stage (`hw/src/isa/rtl/insn_decode.rs`): a directed kernel
//! assembled by the firmware assembler plus illegal words, then random words biased toward
//! every format; the RTL is compared with the reference model every cycle.

use super::{drive, same, BlockTb, TbError, TbOptions, TbRun, TB_PERIOD_PS};
use crate::bench::engines::{of_tb, EngineCycles};
use crate::bench::BenchRow;
use crate::sim::cosim::verilog_of;
use crate::sim::waves::{named, Format, Gtkw};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rtgpu_firmware::isa::assemble;
use rtgpu_hw::isa::insn_model::{InsnDecodeIn, InsnDecodeModel, InsnDecodeOut, InsnFields};
use rtgpu_hw::isa::InsnDecode;
use rust_hdl::core::prelude::*;
use std::path::Path;

/// The `insn` testbench.
pub struct InsnTb;

/// The directed kernel: one instruction of most formats, a split/merge pair, the Sim-D tile
/// pair, a literal, VOP3a and VOP3b modifiers.
pub const DIRECTED_KERNEL: &str = "
    s_load_dwordx2 s[0:1], s[4:5], 0x0
    s_waitcnt lgkmcnt(0)
    v_mov_b32 v1, 0x12345678
    v_add_u32 v2, vcc, s0, v1
    v_cmp_gt_u32 vcc, 64, v0
    split vcc_lo, vcc_hi
    s_cbranch_execz skip
    flat_load_dword v3, v[4:5] glc
    v_mad_f32 v0, -|v1|, v2, v3 clamp mul:2
    v_add_u32_e64 v1, s[2:3], v2, v3
    ds_read2_b32 v[0:1], v2 offset0:1 offset1:2
    s_movk_i32 s7, 0x1234
    tile_ld s[8:11]
    tile_st s[96:99]
skip:
    s_waitcnt 0
    merge
    s_endpgm
";

/// Illegal words after the kernel: (word0, word1, what).
pub const ILLEGAL: [(u32, u32, &str); 6] = [
    (0xBF7F_05FF, 0, "split with a literal"),
    (0xBF7E_0063, 0, "tile_ld from s99 (past s98)"),
    (0xBF7D_0108, 0, "tile_st with ssrc1 = 1"),
    (0xE000_0000, 0, "MUBUF (not in the subset)"),
    (0xD101_0000, 0x0000_00FF, "VOP3 with the literal code"),
    (
        0xBE80_0600,
        0,
        "s_cmov_b32 (SOP1 opcode 6, not in the subset)",
    ),
];

/// (reset, valid, word0, word1) of the directed part.
fn directed() -> Vec<InsnDecodeIn> {
    let program = assemble(DIRECTED_KERNEL, "directed").expect("the directed kernel assembles");
    let words = program.words();
    let mut seq = vec![InsnDecodeIn::default()];
    for item in &program.items {
        let at = item.addr as usize / 4;
        let word1 = words.get(at + 1).copied().unwrap_or(0);
        seq.push(fetch(item.words[0], word1));
    }
    seq.extend(ILLEGAL.iter().map(|&(w0, w1, _)| fetch(w0, w1)));
    seq.push(InsnDecodeIn {
        valid: false,
        ..fetch(0xBF81_0000, 0)
    });
    seq.push(InsnDecodeIn {
        reset: true,
        ..fetch(0xBF81_0000, 0)
    });
    seq.push(InsnDecodeIn::default());
    seq
}

fn fetch(word0: u32, word1: u32) -> InsnDecodeIn {
    InsnDecodeIn {
        reset: false,
        valid: true,
        word0,
        word1,
    }
}

/// First-word prefixes of every format: (prefix value, prefix width in bits).
const PREFIXES: [(u32, u32); 12] = [
    (0b10, 2),
    (0xB, 4),
    (0x17D, 9),
    (0x17E, 9),
    (0x17F, 9),
    (0b110000, 6),
    (0b0111111, 7),
    (0b0, 1),
    (0b0111110, 7),
    (0b110100, 6),
    (0b110111, 6),
    (0b110110, 6),
];

/// A random word with a random format prefix (and so a fair share of legal opcodes).
pub fn biased_word(rng: &mut ChaCha8Rng) -> u32 {
    let w: u32 = rng.gen();
    if rng.gen_ratio(1, 8) {
        return w;
    }
    let (prefix, bits) = PREFIXES[rng.gen_range(0..PREFIXES.len())];
    let low = w & (u32::MAX >> bits);
    let w = prefix << (32 - bits) | low;
    // Small opcodes are where the subset lives; clear high opcode bits half the time.
    if rng.gen_bool(0.5) {
        w & !0x00F0_0000
    } else {
        w
    }
}

/// The stimulus of cycle `k`.
pub fn stimulus(k: u64, directed: &[InsnDecodeIn], rng: &mut ChaCha8Rng) -> InsnDecodeIn {
    if let Some(&inp) = directed.get(k as usize) {
        return inp;
    }
    let word1 = if rng.gen_bool(0.3) { 0xFF } else { rng.gen() };
    InsnDecodeIn {
        reset: rng.gen_ratio(1, 64),
        valid: rng.gen_ratio(15, 16),
        word0: biased_word(rng),
        word1,
    }
}

/// The decode stage's outputs as the model's type.
pub fn read_outputs(u: &InsnDecode) -> InsnDecodeOut {
    let fields = InsnFields {
        illegal: u.illegal.val(),
        format: u.format.val().index() as u8,
        unit: u.unit.val().index() as u8,
        opcode: u.opcode.val().index() as u16,
        dst: u.dst.val().index() as u8,
        sdst: u.sdst.val().index() as u8,
        src0: u.src0.val().index() as u16,
        src1: u.src1.val().index() as u16,
        src2: u.src2.val().index() as u16,
        imm: u.imm.val().index() as u32,
        literal: u.literal.val(),
        words: u.words.val().index() as u8,
        abs: u.abs.val().index() as u8,
        neg: u.neg.val().index() as u8,
        clamp: u.clamp.val(),
        omod: u.omod.val().index() as u8,
        glc: u.glc.val(),
        slc: u.slc.val(),
        gds: u.gds.val(),
        imm_offset: u.imm_offset.val(),
    };
    InsnDecodeOut {
        out_valid: u.out_valid.val(),
        fields,
    }
}

/// Drives the stage's inputs.
pub fn apply(u: &mut InsnDecode, inp: InsnDecodeIn) {
    u.reset.next = inp.reset;
    u.valid.next = inp.valid;
    u.word0.next = inp.word0.to_bits();
    u.word1.next = inp.word1.to_bits();
}

fn marker(out: &InsnDecodeOut) -> Option<String> {
    let f = &out.fields;
    match (out.out_valid, f.illegal, f.unit) {
        (true, true, _) => Some("illegal".into()),
        (true, false, 7) => Some(format!("split/merge op {:#x}", f.opcode)),
        _ => None,
    }
}

/// The decoder's format codes by value (`rtgpu_hw::isa::formats::format`).
const FORMAT_NAMES: [&str; 13] = [
    "NONE", "SOP2", "SOPK", "SOP1", "SOPC", "SOPP", "SMEM", "VOP1", "VOP2", "VOPC", "VOP3", "FLAT",
    "DS",
];

/// The decoder's unit codes by value (`rtgpu_hw::isa::formats::unit`).
pub const UNIT_NAMES: [&str; 10] = [
    "NONE", "SALU", "VALU", "VMEM", "SMEM", "LDS", "BRANCH", "PWS", "SYNC", "PROGRAM",
];

fn layout(window_cycles: u64) -> Gtkw {
    let p = |s: &'static str| (s, None);
    let hex = |s: &'static str| (s, Some(Format::Hex));
    let dec = |s: &'static str| (s, Some(Format::Dec));
    Gtkw::new("rtgpu insn: the instruction decode stage (hw/src/isa/rtl/insn_decode.rs)")
        .window(window_cycles * TB_PERIOD_PS)
        .names("format", &named(&FORMAT_NAMES))
        .names("unit", &named(&UNIT_NAMES))
        .group(
            "fetch (inputs)",
            &[
                p("insn.clock"),
                p("insn.reset"),
                p("insn.valid"),
                ("insn.word0", Some(Format::Insn)),
                hex("insn.word1"),
            ],
        )
        .group(
            "stage register",
            &[
                p("insn.full.q"),
                ("insn.w0.q", Some(Format::Insn)),
                hex("insn.w1.q"),
            ],
        )
        .group(
            "decoded",
            &[
                p("insn.out_valid"),
                p("insn.illegal"),
                ("insn.format", Some(Format::Named("format"))),
                ("insn.unit", Some(Format::Named("unit"))),
                hex("insn.opcode"),
                dec("insn.words"),
            ],
        )
        .group(
            "operands",
            &[
                hex("insn.dst"),
                hex("insn.sdst"),
                hex("insn.src0"),
                hex("insn.src1"),
                hex("insn.src2"),
                p("insn.literal"),
                hex("insn.imm"),
            ],
        )
        .group(
            "modifiers",
            &[
                hex("insn.abs"),
                hex("insn.neg"),
                p("insn.clamp"),
                dec("insn.omod"),
                p("insn.glc"),
                p("insn.slc"),
                p("insn.gds"),
                p("insn.imm_offset"),
            ],
        )
        .group(
            "legality",
            &[
                p("insn.f.chk.legal"),
                p("insn.f.chk.mask0.ok"),
                p("insn.f.chk.mask1.ok"),
            ],
        )
}

impl BlockTb for InsnTb {
    fn bench(&self, n: EngineCycles, dir: &Path) -> Option<Result<Vec<BenchRow>, String>> {
        of_tb(self, InsnDecode::default, |u| &mut u.clock, n, dir)
    }

    fn name(&self) -> &'static str {
        "insn"
    }

    fn description(&self) -> &'static str {
        "instruction decode stage (hw/src/isa): assembled kernel + illegal + biased random words, RTL == model every cycle"
    }

    fn run(&self, opts: &TbOptions) -> Result<TbRun, TbError> {
        let seq = directed();
        let cycles = opts.cycles.max(seq.len() as u64);
        let window = seq.len() as u64;
        let mut rng = ChaCha8Rng::seed_from_u64(opts.seed);
        let mut model = InsnDecodeModel::new();
        let (mut legal, mut illegal) = (0u64, 0u64);
        let mut run = drive(
            InsnDecode::default(),
            self.name(),
            |u| &mut u.clock,
            opts,
            cycles,
            |h, k| {
                let inp = stimulus(k, &seq, &mut rng);
                let got = h.cycle(|u| apply(u, inp), read_outputs)?;
                let want = model.outputs();
                same(k, &got, &want)?;
                model.clock(inp);
                legal += u64::from(got.out_valid && !got.fields.illegal);
                illegal += u64::from(got.fields.illegal);
                Ok(marker(&got))
            },
            move || layout(window),
        )?;
        run.summary = format!(
            "{cycles} cycles, RTL == model every cycle ({legal} legal, {illegal} illegal instructions decoded)"
        );
        Ok(run)
    }

    fn verilog(&self) -> Result<String, String> {
        verilog_of(&mut InsnDecode::default())
    }
}
