//! Testbench of the vector ALU (`hw/src/valu/`): directed instructions with the corner cases
//! of the ISA (carries and borrows in every lane, clamp, `v_readfirstlane_b32` with an empty
//! and a high EXEC, `v_cmpx`, the 64-bit product's high half; fp32: a tie to even, `v_fma_f32`
//! against `v_mad_f32` on a product that rounds, a denormal halved by omod, NaNs compared,
//! a saturating conversion, −0 against +0; 64-bit: a shift across the dwords, a multiply-add
//! that carries out with and without clamp, signed against unsigned compares of pairs), then
//! every instruction of the block's subset at
//! random (fp32 with source and output modifiers), with random rows (biased to fp32 special
//! values), EXEC, mask sources, `valid` while busy, idle cycles and resets; RTL == model
//! every cycle. The testbench plays the VGPR file: each cycle it feeds the 16 lanes of the
//! quarter the block names.
//!
//! The instructions come from the firmware's opcode table through its assembler and the
//! decoder's model ([`valu_ops`]), so the block sees the fields the compute unit decodes.

use super::{drive, same, BlockTb, TbError, TbOptions, TbRun, TB_PERIOD_PS};
use crate::sim::cosim::verilog_of;
use crate::sim::cosim::{KindWaiver, SynthScript, Waiver, BIT_CAST_WIDTH};
use crate::sim::waves::{named, Format, Gtkw};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rtgpu_firmware::isa::assemble;
use rtgpu_firmware::isa::{fp_alu_lines, fp_operand, fp_partner, vector_alu_lines, ALL_OPS};
use rtgpu_hw::isa::insn_model::{decode_fields, InsnFields};
use rtgpu_hw::valu::model::{op_of, ValuModel};
use rtgpu_hw::valu::{Valu, ValuIn, ValuOut, QUARTER};
use rust_hdl::core::prelude::*;

/// The `valu` testbench.
pub struct ValuTb;

/// Every instruction of the block's subset, in both encodings (`v_bfe_u32` in its one; and
/// `v_mul_u32_u24` also with clamp; the fp32 ones also with source and output modifiers, `v_mad_f32` and `v_fma_f32`),
/// with its assembly line, assembled and decoded (the decoder's model).
pub fn valu_ops() -> Vec<(String, InsnFields)> {
    let mut lines: Vec<String> = ALL_OPS
        .iter()
        .filter_map(|&op| vector_alu_lines(op))
        .flatten()
        .collect();
    lines.push("v_mul_u32_u24_e64 v3, v1, v2 clamp".into());
    // (The integer three-source operation of the subset: its sources come as rows.)
    lines.push("v_bfe_u32 v3, v1, v2, v4".into());
    lines.extend(WIDE.iter().map(|l| l.to_string()));
    let fp: Vec<String> = fp_alu_lines()
        .into_iter()
        .filter(|l| !lines.contains(l))
        .collect();
    lines.extend(fp);
    let decoded = |line: &String| {
        let words = assemble(line, "valu").ok()?.words();
        let f = decode_fields(words[0], words.get(1).copied().unwrap_or(0));
        (!f.illegal && op_of(f.format, f.opcode).is_some()).then_some(f)
    };
    let mut ops: Vec<(String, InsnFields)> = lines
        .into_iter()
        .filter_map(|line| decoded(&line).map(|f| (line, f)))
        .collect();
    let eq = ops.iter().find(|(l, _)| l == WIDE[3]).map(|(_, f)| *f);
    ops.extend(other_compares(&eq.expect("v_cmp_eq_u64 decodes")));
    ops
}

// The 64-bit operations the assembler knows (their sources come as rows: `a`..`d` per the
// block's table).
use rtgpu_firmware::isa::WIDE_ALU_LINES as WIDE;

/// The 64-bit compares' predicates in opcode order (0xE0..=0xE7 `_i64`, 0xE8..=0xEF `_u64`).
const PREDICATES: [&str; 8] = ["f", "lt", "eq", "le", "gt", "ne", "ge", "t"];

/// The 64-bit compares the decoder's subset lacks (it has `v_cmp_eq_u64` and
/// `v_cmp_ne_u64`): the block takes every opcode of 0xE0..=0xEF, so these are
/// `v_cmp_eq_u64_e32`'s fields with the opcode changed.
fn other_compares(eq: &InsnFields) -> Vec<(String, InsnFields)> {
    (0xE0u16..=0xEF)
        .filter(|&op| op != 0xEA && op != 0xED)
        .map(|op| {
            let (p, t) = (
                PREDICATES[usize::from(op & 7)],
                ["i", "u"][usize::from(op >> 3 & 1)],
            );
            let line = format!("v_cmp_{p}_{t}64_e32 vcc, v[1:2], v[3:4]");
            (line, InsnFields { opcode: op, ..*eq })
        })
        .collect()
}

/// The issue-cycle inputs of instruction `f` (rows not set).
pub fn issue(f: &InsnFields, exec: u64, mask_in: u64) -> ValuIn {
    ValuIn {
        reset: false,
        valid: true,
        format: f.format,
        opcode: f.opcode,
        dst: f.dst,
        sdst: f.sdst & 0x7F,
        clamp: f.clamp,
        omod: f.omod,
        abs: f.abs,
        neg: f.neg,
        exec,
        mask_in,
        ..ValuIn::default()
    }
}

/// One lane's random value: any, near the integer edges (0, 1, all ones, the sign bits), or
/// an fp32 value biased to the special ones (zeros, denormals, ∞, NaNs, overflow and
/// underflow ranges).
pub fn lane_value(rng: &mut ChaCha8Rng) -> u32 {
    const EDGES: [u32; 6] = [0, 1, u32::MAX, 0x8000_0000, 0x7FFF_FFFF, 0xFF_FFFF];
    match rng.gen_range(0..6) {
        0 => EDGES[rng.gen_range(0..EDGES.len())],
        1 => rng.gen_range(0..64),
        2 | 3 => fp_operand(rng),
        _ => rng.gen(),
    }
}

/// Random source rows: `b` equals `a` in about a quarter of the lanes (compares, min/max,
/// borrows on equal operands) and is an fp32 value near it in another quarter
/// (cancellations, ties); `c` likewise, and `d` near `c` (64-bit compares whose high dwords
/// are equal).
pub fn rows(rng: &mut ChaCha8Rng) -> [[u32; 64]; 4] {
    let a: [u32; 64] = std::array::from_fn(|_| lane_value(rng));
    let mut near = |x: u32| match rng.gen_range(0..4) {
        0 => x,
        1 => fp_partner(x, rng),
        _ => lane_value(rng),
    };
    let b = a.map(&mut near);
    let c = a.map(&mut near);
    let d = c.map(near);
    [a, b, c, d]
}

/// A random mask: any, none, all, one lane.
pub fn mask(rng: &mut ChaCha8Rng) -> u64 {
    match rng.gen_range(0..6) {
        0 => 0,
        1 => u64::MAX,
        2 => 1 << rng.gen_range(0..64),
        _ => rng.gen(),
    }
}

/// The instruction the caller is feeding: its issue inputs and source rows.
#[derive(Clone, Copy, Debug)]
pub struct Feed {
    /// The issue-cycle inputs.
    pub issue: ValuIn,
    /// `src0`, 64 lanes.
    pub a: [u32; 64],
    /// `src1`, 64 lanes.
    pub b: [u32; 64],
    /// `src2` (or `v_mac_f32`'s old destination), 64 lanes.
    pub c: [u32; 64],
    /// A 64-bit operation's fourth dword, 64 lanes.
    pub d: [u32; 64],
}

impl Feed {
    /// The inputs of a cycle in which the block reads quarter `q`, with `valid`, `reset`.
    pub fn input(&self, q: u8, valid: bool, reset: bool) -> ValuIn {
        let at = 16 * usize::from(q);
        ValuIn {
            valid,
            reset,
            a: std::array::from_fn(|l| self.a[at + l]),
            b: std::array::from_fn(|l| self.b[at + l]),
            c: std::array::from_fn(|l| self.c[at + l]),
            d: std::array::from_fn(|l| self.d[at + l]),
            ..self.issue
        }
    }
}

/// A directed case: (assembly line, EXEC, mask source, `a`, `b` and `c` lane values; lane
/// `l` adds `l` to each; `d` is `c`'s value).
type Directed = (&'static str, u64, u64, u32, u32, u32);

/// The 64-bit directed cases.
const WIDE_DIRECTED: [Directed; 5] = [
    // (1 + l, 0x8000_0000 + l) << 33: the low dword's bits cross into the high one.
    (
        "v_lshlrev_b64 v[3:4], v1, v[1:2]",
        u64::MAX,
        0,
        33,
        0x8000_0001,
        0,
    ),
    // (2^32 − 1)^2 + (2^64 − 1 − …): a carry out in every lane; saturated with clamp.
    (
        "v_mad_u64_u32 v[3:4], s[8:9], v1, v2, v[3:4]",
        u64::MAX,
        0,
        u32::MAX - 64,
        u32::MAX - 64,
        u32::MAX - 64,
    ),
    (
        "v_mad_u64_u32 v[3:4], s[8:9], v1, v2, v[3:4] clamp",
        u64::MAX,
        0,
        u32::MAX - 64,
        u32::MAX - 64,
        u32::MAX - 64,
    ),
    // (a, c) = (-1 + l, -1 + l) against (b, d) = (0 + l, -1 + l): the high dwords equal,
    // the low ones decide, unsigned.
    ("v_cmp_eq_u64 vcc, v[1:2], v[3:4]", u64::MAX, 0, 7, 7, 7),
    (
        "v_cmp_lt_i64_e32 vcc, v[1:2], v[3:4]",
        u64::MAX,
        0,
        0x8000_0000,
        0x7FFF_FFFF,
        0x8000_0000,
    ),
];

/// The fp32 directed cases (lane 0 holds the case, the other lanes a few ulps off).
const FP_DIRECTED: [Directed; 7] = [
    // 1 + 2^-24: a tie, to the even 1.0.
    (
        "v_add_f32 v3, v1, v2",
        u64::MAX,
        0,
        0x3F80_0000,
        0x3380_0000,
        0,
    ),
    // (1 + 2^-12)^2 − (1 + 2^-11) = 2^-24 fused; 0 when the product is rounded first.
    (
        "v_fma_f32 v3, v1, v2, v4",
        u64::MAX,
        0,
        0x3F80_0800,
        0x3F80_0800,
        0xBF80_1000,
    ),
    (
        "v_mad_f32 v3, v1, v2, v4",
        u64::MAX,
        0,
        0x3F80_0800,
        0x3F80_0800,
        0xBF80_1000,
    ),
    // The denormal −|3 · 2^-149| halved: −1.5 · 2^-149, a tie, to −2 · 2^-149.
    (
        "v_mul_f32_e64 v3, -|v1|, v2 div:2",
        u64::MAX,
        0,
        0x0000_0003,
        0x3F80_0000,
        0,
    ),
    // NaNs are unordered: `neq` holds.
    (
        "v_cmp_neq_f32 vcc, v1, v2",
        u64::MAX,
        0,
        0x7FC0_0000,
        0xFFC0_0000,
        0,
    ),
    // 2^31 saturates to i32::MAX.
    ("v_cvt_i32_f32 v3, v1", u64::MAX, 0, 0x4F00_0000, 0, 0),
    // −0 is below +0.
    ("v_min_f32 v3, v1, v2", u64::MAX, 0, 0, 0x8000_0000, 0),
];

/// The integer directed cases.
const DIRECTED: [Directed; 10] = [
    ("v_add_u32 v3, vcc, v1, v2", u64::MAX, 0, u32::MAX, 1, 0),
    (
        "v_subb_u32 v3, vcc, v1, v2, vcc",
        0xFFFF_0000_FFFF_0000,
        u64::MAX,
        5,
        5,
        0,
    ),
    (
        "v_add_u32_e64 v3, s[8:9], v1, v2 clamp",
        u64::MAX,
        0,
        u32::MAX,
        2,
        0,
    ),
    (
        "v_subrev_u32_e64 v3, s[8:9], v1, v2 clamp",
        u64::MAX,
        0,
        9,
        3,
        0,
    ),
    ("v_readfirstlane_b32 s4, v1", 0, 0, 0x1234, 0, 0),
    ("v_readfirstlane_b32 s4, v1", 1 << 40, 0, 0x1000, 0, 0),
    (
        "v_cmpx_gt_i32_e64 s[8:9], v1, v2",
        0xF0F0,
        0,
        0x8000_0000,
        3,
        0,
    ),
    (
        "v_mul_hi_u32 v3, v1, v2",
        u64::MAX,
        0,
        u32::MAX,
        u32::MAX,
        0,
    ),
    ("v_ashrrev_i32 v3, v1, v2", u64::MAX, 0, 31, 0x8000_0000, 0),
    (
        "v_cndmask_b32 v3, v1, v2, vcc",
        u64::MAX,
        0xAAAA_AAAA_AAAA_AAAA,
        7,
        9,
        0,
    ),
];

/// The directed feeds, in order: the integer cases, then the fp32 ones.
fn directed(ops: &[(String, InsnFields)]) -> Vec<Feed> {
    DIRECTED
        .iter()
        .chain(FP_DIRECTED.iter())
        .chain(WIDE_DIRECTED.iter())
        .map(|&(line, exec, mask_in, a, b, c)| {
            let (_, f) = ops
                .iter()
                .find(|(l, _)| l == line)
                .unwrap_or_else(|| panic!("{line} is a VALU instruction of the subset"));
            Feed {
                issue: issue(f, exec, mask_in),
                a: std::array::from_fn(|l| a.wrapping_add(l as u32)),
                b: std::array::from_fn(|l| b.wrapping_add(l as u32)),
                c: std::array::from_fn(|l| c.wrapping_add(l as u32)),
                d: std::array::from_fn(|l| c.wrapping_add(l as u32)),
            }
        })
        .collect()
}

/// A random instruction of `ops` with random rows and masks.
pub fn random_feed(ops: &[(String, InsnFields)], rng: &mut ChaCha8Rng) -> Feed {
    let f = ops[rng.gen_range(0..ops.len())].1;
    let [a, b, c, d] = rows(rng);
    Feed {
        issue: issue(&f, mask(rng), mask(rng)),
        a,
        b,
        c,
        d,
    }
}

/// The block's outputs as the model's type.
pub fn read_outputs(u: &Valu) -> ValuOut {
    ValuOut {
        busy: u.busy.val(),
        quarter: u.quarter.val().index() as u8,
        wb_valid: u.wb_valid.val(),
        wb_quarter: u.wb_quarter.val().index() as u8,
        wb_vgpr: u.wb_vgpr.val().index() as u8,
        wb_lanes: u.wb_lanes.val().index() as u16,
        wb_data: std::array::from_fn(|l| u.wb_data[l].val().index() as u32),
        wb_two: u.wb_two.val(),
        wb_data_hi: std::array::from_fn(|l| u.wb_data_hi[l].val().index() as u32),
        done: u.done.val(),
        sgpr_we: u.sgpr_we.val(),
        sgpr_wide: u.sgpr_wide.val(),
        sgpr_dst: u.sgpr_dst.val().index() as u8,
        sgpr_lo: u.sgpr_lo.val().index() as u32,
        sgpr_hi: u.sgpr_hi.val().index() as u32,
        exec_we: u.exec_we.val(),
    }
}

/// Drives the block's inputs.
pub fn apply(u: &mut Valu, i: &ValuIn) {
    u.reset.next = i.reset;
    u.valid.next = i.valid;
    u.format.next = u64::from(i.format).to_bits();
    u.opcode.next = u64::from(i.opcode).to_bits();
    u.dst.next = u64::from(i.dst).to_bits();
    u.sdst.next = u64::from(i.sdst).to_bits();
    u.clamp.next = i.clamp;
    u.omod.next = u64::from(i.omod).to_bits();
    u.abs.next = u64::from(i.abs).to_bits();
    u.neg.next = u64::from(i.neg).to_bits();
    u.exec.next = i.exec.to_bits();
    u.mask_in.next = i.mask_in.to_bits();
    for l in 0..QUARTER {
        u.a[l].next = u64::from(i.a[l]).to_bits();
        u.b[l].next = u64::from(i.b[l]).to_bits();
        u.c[l].next = u64::from(i.c[l]).to_bits();
        u.d[l].next = u64::from(i.d[l]).to_bits();
    }
}

/// The caller of the stimulus: the instruction being fed, the next ones, and the randomness.
struct Stimulus {
    ops: Vec<(String, InsnFields)>,
    queue: std::collections::VecDeque<Feed>,
    feed: Feed,
    rng: ChaCha8Rng,
}

impl Stimulus {
    /// The inputs of the cycle in which the block shows `now`: the feed's quarter while busy
    /// (with a random `valid`, ignored), else the next feed's issue, an idle cycle or a reset.
    fn next(&mut self, now: &ValuOut) -> ValuIn {
        let rng = &mut self.rng;
        if now.busy {
            let valid = rng.gen_ratio(1, 4);
            return self.feed.input(now.quarter, valid, rng.gen_ratio(1, 256));
        }
        let directed = self.queue.pop_front();
        let (valid, reset) = match directed {
            Some(_) => (true, false),
            None => (rng.gen_ratio(7, 8), rng.gen_ratio(1, 64)),
        };
        self.feed = directed.unwrap_or_else(|| random_feed(&self.ops, rng));
        self.feed.input(0, valid, reset)
    }
}

/// rust-hdl emits a block's wiring as one `always @(*)`, which Verilator orders as a unit:
/// the top drives the datapath's inputs and reads its outputs in one block. No loop at signal
/// level: a lane's inputs come from the decode and the block's inputs, never from a lane's
/// result. The rounding's `room` is a difference of which only the sign is read.
const WAIVERS: [Waiver; 2] = [
    Waiver {
        rule: "UNOPTFLAT",
        signal: "top.dp$dst",
        why: "top always-block granularity: the datapath's dst comes from the held or issued field, never from a datapath output",
    },
    Waiver {
        rule: "UNUSEDSIGNAL",
        signal: "room",
        why: "the rounding reads only the sign of lim - lz (whether the leading zeros fit the exponent)",
    },
];

/// The findings of the fp32 lanes by shape, the same in each of the 16 lanes: the
/// zero-extensions, and the fp lane's adder at block granularity.
const KIND_WAIVERS: [KindWaiver; 3] = [
    BIT_CAST_WIDTH[0],
    BIT_CAST_WIDTH[1],
    KindWaiver {
        rule: "UNOPTFLAT",
        message: "*Circular combinational logic: 'top.dp.lane$*.fpu.fadd.round$bits'*",
        why: "fp lane always-block granularity: it drives the adder's operands and reads its rounded sum; the operands never come from the sum",
    },
];

fn marker(inp: &ValuIn, out: &ValuOut) -> Option<String> {
    match (inp.reset, out.done, out.exec_we) {
        (true, _, _) => Some("reset".into()),
        (false, true, true) => Some("cmpx".into()),
        (false, true, false) => Some("done".into()),
        _ => None,
    }
}

fn layout(window_cycles: u64) -> Gtkw {
    let p = |s: &'static str| (s, None);
    let hex = |s: &'static str| (s, Some(Format::Hex));
    let dec = |s: &'static str| (s, Some(Format::Dec));
    let lanes = |s: &'static str| (s, Some(Format::Mask));
    Gtkw::new("rtgpu valu: the vector ALU (integer and fp32), 16 lanes x 4 quarters (hw/src/valu/rtl/valu.rs)")
        .window(window_cycles * TB_PERIOD_PS)
        .names(
            "format",
            &named(&[
                "NONE", "SOP2", "SOPK", "SOP1", "SOPC", "SOPP", "SMEM", "VOP1", "VOP2", "VOPC",
                "VOP3",
            ]),
        )
        .group(
            "issue (inputs)",
            &[
                p("valu.clock"),
                p("valu.reset"),
                p("valu.valid"),
                ("valu.format", Some(Format::Named("format"))),
                hex("valu.opcode"),
                dec("valu.dst"),
                lanes("valu.exec"),
                lanes("valu.mask_in"),
                hex("valu.a$0"),
                hex("valu.b$0"),
                hex("valu.c$0"),
                dec("valu.omod"),
                ("valu.abs", Some(Format::Bin)),
                ("valu.neg", Some(Format::Bin)),
            ],
        )
        .group(
            "quarter counter",
            &[
                p("valu.busy"),
                dec("valu.quarter"),
                lanes("valu.dp.lanes"),
                lanes("valu.mask_now"),
            ],
        )
        .group(
            "write-back (a quarter, the cycle after)",
            &[
                p("valu.wb_valid"),
                dec("valu.wb_quarter"),
                dec("valu.wb_vgpr"),
                lanes("valu.wb_lanes"),
                hex("valu.wb_data$0"),
                hex("valu.wb_data$15"),
            ],
        )
        .group(
            "end of instruction",
            &[
                p("valu.done"),
                p("valu.sgpr_we"),
                p("valu.sgpr_wide"),
                dec("valu.sgpr_dst"),
                hex("valu.sgpr_hi"),
                hex("valu.sgpr_lo"),
                p("valu.exec_we"),
            ],
        )
}

impl BlockTb for ValuTb {
    fn name(&self) -> &'static str {
        "valu"
    }

    fn description(&self) -> &'static str {
        "vector ALU (hw/src/valu), integer and fp32, 16 lanes x 4 quarters: directed corner cases + every instruction of its subset at random, RTL == model every cycle"
    }

    fn run(&self, opts: &TbOptions) -> Result<TbRun, TbError> {
        let ops = valu_ops();
        let queue: std::collections::VecDeque<Feed> = directed(&ops).into();
        let window = 4 * queue.len() as u64 + 2;
        let cycles = opts.cycles.max(window);
        let mut stim = Stimulus {
            feed: queue[0],
            queue,
            rng: ChaCha8Rng::seed_from_u64(opts.seed),
            ops,
        };
        let kinds = stim.ops.len();
        let mut model = ValuModel::new();
        let mut done = 0u64;
        let mut run = drive(
            Valu::default(),
            self.name(),
            |u| &mut u.clock,
            opts,
            cycles,
            |h, k| {
                let inp = stim.next(&model.outputs());
                let got = h.cycle(|u| apply(u, &inp), read_outputs)?;
                same(k, &got, &model.outputs())?;
                model.clock(&inp);
                done += u64::from(got.done);
                Ok(marker(&inp, &got))
            },
            move || layout(window),
        )?;
        run.summary = format!(
            "{cycles} cycles, RTL == model every cycle ({done} instructions of {kinds} kinds)"
        );
        Ok(run)
    }

    fn verilog(&self) -> Result<String, String> {
        verilog_of(&mut Valu::default())
    }

    fn lint_waivers(&self) -> &'static [Waiver] {
        &WAIVERS
    }

    fn not_synthesized_in_ci(&self) -> Option<&'static str> {
        Some("3 to 4 minutes of Yosys and 3.4 GB with synth -noshare (rtgpu synth valu)")
    }

    fn lint_kind_waivers(&self) -> &'static [KindWaiver] {
        &KIND_WAIVERS
    }

    /// The default script's `share` pass does not finish on the 16 fp32 lanes (23 GB).
    fn synth_script(&self) -> SynthScript {
        SynthScript::FlatNoShare
    }
}
