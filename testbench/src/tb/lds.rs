//! Testbench of the local data share (`hw/src/lds/`): directed instructions (a write then a
//! read back of every lane, `ds_add_u32` with every lane on one word, `ds_write2_b32` /
//! `ds_read2_b32`, lanes writing one word, a fault in quarter 2, a partition cleared), then
//! every DS instruction of the subset at random: random offsets, addresses over a few words
//! (lanes collide) with unaligned and out-of-partition ones, random EXEC, partitions,
//! `valid` while busy, idle cycles, clears and resets; RTL == model every cycle. The
//! testbench plays the VGPR file: each cycle it feeds the 16 lanes of the quarter the block
//! names.
//!
//! The instructions come from the firmware's assembler and the decoder's model
//! ([`ds_fields`]), so the block sees the fields the compute unit decodes.

use super::{drive, same, BlockTb, TbError, TbOptions, TbRun, TB_PERIOD_PS};
use crate::sim::cosim::verilog_of;
use crate::sim::cosim::Waiver;
use crate::sim::waves::{Format, Gtkw};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rtgpu_firmware::isa::assemble;
use rtgpu_hw::isa::insn_model::{decode_fields, InsnFields};
use rtgpu_hw::lds::model::LdsModel;
use rtgpu_hw::lds::{op, Lds, LdsIn, LdsOut, QUARTER, TB_WORDS};
use rust_hdl::core::prelude::*;

/// The `lds` testbench.
pub struct LdsTb;

/// The block's instance: the testbench's RAM size.
pub type LdsTbBlock = Lds<TB_WORDS>;

/// The decoder's fields of a DS assembly line (assembled by the firmware's assembler).
pub fn ds_fields(line: &str) -> InsnFields {
    let program = assemble(line, "lds").expect("the DS instruction assembles");
    let w = program.words();
    let f = decode_fields(w[0], w.get(1).copied().unwrap_or(0));
    assert!(!f.illegal, "{line} decodes");
    f
}

/// The assembly line of DS opcode `opcode` with byte offsets `o0`, `o1` (OFFSET0/1 of the
/// two-address forms, else the 16-bit offset `o1:o0`).
pub fn ds_line(opcode: u8, o0: u8, o1: u8) -> String {
    let off = u16::from(o1) << 8 | u16::from(o0);
    match opcode {
        op::ADD => format!("ds_add_u32 v1, v2 offset:{off}"),
        op::WRITE => format!("ds_write_b32 v1, v2 offset:{off}"),
        op::WRITE2 => format!("ds_write2_b32 v1, v2, v3 offset0:{o0} offset1:{o1}"),
        op::READ => format!("ds_read_b32 v4, v1 offset:{off}"),
        _ => format!("ds_read2_b32 v[4:5], v1 offset0:{o0} offset1:{o1}"),
    }
}

/// The issue-cycle inputs of instruction `f` on partition `base`, `words` (rows not set).
pub fn issue(f: &InsnFields, exec: u64, base: u16, words: u32) -> LdsIn {
    LdsIn {
        valid: true,
        opcode: f.opcode as u8,
        offset: f.imm,
        vdst: f.dst,
        exec,
        wg_base: base,
        wg_words: words,
        ..LdsIn::default()
    }
}

/// The instruction the caller is feeding: its issue inputs and operand rows.
#[derive(Clone, Copy, Debug)]
pub struct Feed {
    /// The issue-cycle inputs.
    pub issue: LdsIn,
    /// `ADDR`, 64 lanes.
    pub addr: [u32; 64],
    /// `DATA0`, 64 lanes.
    pub data0: [u32; 64],
    /// `DATA1`, 64 lanes.
    pub data1: [u32; 64],
}

impl Feed {
    /// The inputs of a cycle in which the block reads quarter `q`, with `valid`, `reset`,
    /// `clear`.
    pub fn input(&self, q: u8, valid: bool, reset: bool, clear: bool) -> LdsIn {
        let at = 16 * usize::from(q);
        LdsIn {
            valid,
            reset,
            clear,
            clear_base: self.issue.wg_base,
            clear_words: self.issue.wg_words,
            addr: std::array::from_fn(|l| self.addr[at + l]),
            data0: std::array::from_fn(|l| self.data0[at + l]),
            data1: std::array::from_fn(|l| self.data1[at + l]),
            ..self.issue
        }
    }
}

/// A random mask: any, none, all, one lane.
fn mask(rng: &mut ChaCha8Rng) -> u64 {
    match rng.gen_range(0..6) {
        0 => 0,
        1 | 2 => u64::MAX,
        3 => 1 << rng.gen_range(0..64),
        _ => rng.gen(),
    }
}

/// A random DS instruction of the subset (assembled, decoded) on a random partition of the
/// RAM, with addresses mostly aligned over a few words (lanes collide), some unaligned or
/// past the partition, and random data.
pub fn random_feed(rng: &mut ChaCha8Rng) -> Feed {
    let opcode = op::ALL[rng.gen_range(0..op::ALL.len())];
    let faulty = rng.gen_ratio(1, 4);
    // Offsets of 0..=3 words (any 16 bits in a faulty feed).
    let (o0, o1) = match (faulty, matches!(opcode, op::WRITE2 | op::READ2)) {
        (true, false) => (rng.gen(), rng.gen_range(0..2)),
        (_, true) => (rng.gen_range(0..4u8), rng.gen_range(0..4u8)),
        (false, false) => (4 * rng.gen_range(0..4u8), 0),
    };
    let f = ds_fields(&ds_line(opcode, o0, o1));
    let words = rng.gen_range(4..=TB_WORDS as u32);
    let base = rng.gen_range(0..=TB_WORDS as u32 - words) as u16;
    // Offsets reach 3 words past the address: keep the addresses 3 words inside.
    let span = (words - 3).min(rng.gen_range(1..=8));
    Feed {
        issue: issue(&f, mask(rng), base, words),
        addr: std::array::from_fn(|_| match (faulty, rng.gen_range(0..32)) {
            (true, 0) => rng.gen_range(0..4 * words + 16),
            (true, 1) => 4 * words + rng.gen_range(0..64),
            _ => 4 * rng.gen_range(0..span),
        }),
        data0: std::array::from_fn(|_| rng.gen()),
        data1: std::array::from_fn(|_| rng.gen()),
    }
}

/// The block's outputs as the model's type.
pub fn read_outputs(u: &LdsTbBlock) -> LdsOut {
    LdsOut {
        busy: u.busy.val(),
        quarter: u.quarter.val().index() as u8,
        wb_valid: u.wb_valid.val(),
        wb_quarter: u.wb_quarter.val().index() as u8,
        wb_vgpr: u.wb_vgpr.val().index() as u8,
        wb_two: u.wb_two.val(),
        wb_lanes: u.wb_lanes.val().index() as u16,
        wb_data0: std::array::from_fn(|l| u.wb_data0[l].val().index() as u32),
        wb_data1: std::array::from_fn(|l| u.wb_data1[l].val().index() as u32),
        done: u.done.val(),
        fault: u.fault.val(),
        fault_addr: u.fault_addr.val().index() as u32,
    }
}

/// Drives the block's inputs.
pub fn apply(u: &mut LdsTbBlock, i: &LdsIn) {
    u.reset.next = i.reset;
    u.valid.next = i.valid;
    u.opcode.next = u64::from(i.opcode).to_bits();
    u.offset.next = u64::from(i.offset).to_bits();
    u.vdst.next = u64::from(i.vdst).to_bits();
    u.exec.next = i.exec.to_bits();
    u.wg_base.next = u64::from(i.wg_base).to_bits();
    u.wg_words.next = u64::from(i.wg_words).to_bits();
    u.clear.next = i.clear;
    u.clear_base.next = u64::from(i.clear_base).to_bits();
    u.clear_words.next = u64::from(i.clear_words).to_bits();
    for l in 0..QUARTER {
        u.addr[l].next = u64::from(i.addr[l]).to_bits();
        u.data0[l].next = u64::from(i.data0[l]).to_bits();
        u.data1[l].next = u64::from(i.data1[l]).to_bits();
    }
}

/// The directed feeds, in order: (line, EXEC, partition base and words, lane `l`'s `ADDR`,
/// `DATA0`, `DATA1`), then a clear of words 8..24 between the last two.
fn directed() -> Vec<Feed> {
    type Row = fn(u32) -> u32;
    let cases: [(&str, u64, u16, u32, Row, Row, Row); 8] = [
        (
            "ds_write_b32 v1, v2 offset:0",
            u64::MAX,
            0,
            64,
            |l| 4 * l,
            |l| 1000 + l,
            |_| 0,
        ),
        (
            "ds_read_b32 v4, v1 offset:4",
            u64::MAX,
            0,
            64,
            |l| 4 * l,
            |_| 0,
            |_| 0,
        ),
        (
            "ds_add_u32 v1, v2 offset:8",
            u64::MAX,
            0,
            64,
            |_| 0,
            |l| l + 1,
            |_| 0,
        ),
        (
            "ds_write2_b32 v1, v2, v3 offset0:1 offset1:2",
            0xFFFF_0000_FFFF_0000,
            16,
            48,
            |l| 4 * (l % 8),
            |l| l,
            |l| 100 + l,
        ),
        (
            "ds_read2_b32 v[4:5], v1 offset0:0 offset1:3",
            u64::MAX,
            16,
            48,
            |l| 4 * (l % 12),
            |_| 0,
            |_| 0,
        ),
        (
            "ds_write_b32 v1, v2 offset:0",
            u64::MAX,
            0,
            64,
            |l| 4 * (l % 3),
            |l| l,
            |_| 0,
        ),
        (
            "ds_write_b32 v1, v2 offset:0",
            u64::MAX,
            0,
            64,
            |l| if l == 40 { 6 } else { 4 * l },
            |_| 7,
            |_| 0,
        ),
        (
            "ds_read_b32 v4, v1 offset:0",
            u64::MAX,
            0,
            64,
            |l| 4 * l,
            |_| 0,
            |_| 0,
        ),
    ];
    cases
        .iter()
        .map(|&(line, exec, base, words, a, d0, d1)| Feed {
            issue: issue(&ds_fields(line), exec, base, words),
            addr: std::array::from_fn(|l| a(l as u32)),
            data0: std::array::from_fn(|l| d0(l as u32)),
            data1: std::array::from_fn(|l| d1(l as u32)),
        })
        .collect()
}

/// The caller of the stimulus: the instruction being fed, the next ones, and the randomness.
struct Stimulus {
    queue: std::collections::VecDeque<Feed>,
    feed: Feed,
    rng: ChaCha8Rng,
    /// Cycles since the start (the directed clear comes in cycle 28).
    cycle: u64,
}

impl Stimulus {
    /// The inputs of the cycle in which the block shows `now`: the feed's quarter while busy
    /// (with a random `valid`, ignored), else the next feed's issue, an idle cycle, a clear or
    /// a reset.
    fn next(&mut self, now: &LdsOut) -> LdsIn {
        self.cycle += 1;
        let rng = &mut self.rng;
        if now.busy {
            let valid = rng.gen_ratio(1, 4);
            let i = self.feed.input(
                now.quarter,
                valid,
                rng.gen_ratio(1, 512),
                rng.gen_ratio(1, 8),
            );
            return clear_range(rng, i);
        }
        if self.cycle == 29 {
            // The directed clear of words 8..24, between the last two directed feeds.
            let mut i = self.feed.input(0, false, false, true);
            (i.clear_base, i.clear_words) = (8, 16);
            return i;
        }
        let directed = self.queue.pop_front();
        let (valid, reset, clear) = match directed {
            Some(_) => (true, false, false),
            None => (
                rng.gen_ratio(7, 8),
                rng.gen_ratio(1, 128),
                rng.gen_ratio(1, 16),
            ),
        };
        self.feed = directed.unwrap_or_else(|| random_feed(rng));
        // (A directed feed never clears, so `clear_range` leaves it as it is.)
        let i = self.feed.input(0, valid, reset, clear);
        clear_range(&mut self.rng, i)
    }
}

/// Half the random clears take a range of their own instead of the feed's partition: a few
/// words where the partitions start (the words most accessed), or anywhere, or more than
/// 2^16 words.
fn clear_range(rng: &mut ChaCha8Rng, mut i: LdsIn) -> LdsIn {
    if i.clear && rng.gen_ratio(1, 2) {
        (i.clear_base, i.clear_words) = match rng.gen_range(0..4) {
            0 => (
                rng.gen_range(0..TB_WORDS as u16 + 4),
                0x1_0000 + rng.gen::<u16>() as u32,
            ),
            1 => (rng.gen_range(0..TB_WORDS as u16 + 4), rng.gen_range(0..12)),
            _ => (rng.gen_range(0..8), rng.gen_range(0..6)),
        };
    }
    i
}

/// rust-hdl emits a block's wiring as one `always @(*)`, which Verilator orders as a unit:
/// the top drives the RAM's ports from the datapath and the datapath's `old` words from the
/// RAM; the datapath drives its lanes' and sums' inputs and reads their outputs. No loop at
/// signal level: the RAM's read values depend on the ports' words only, its writes land at
/// the clock edge.
const WAIVERS: [Waiver; 4] = [
    Waiver {
        rule: "UNOPTFLAT",
        signal: "top.dp$active",
        why: "top always-block granularity: the datapath's lanes come from EXEC and the quarter counter, never from a datapath output",
    },
    Waiver {
        rule: "UNOPTFLAT",
        signal: "top.dp$blocked_in",
        why: "top always-block granularity: the fault carried into a quarter is a register, never a datapath output",
    },
    Waiver {
        rule: "UNOPTFLAT",
        signal: "top.dp$old",
        why: "top always-block granularity: the RAM's read words feed the datapath, whose write values go to the RAM's flip-flops, not back to the read",
    },
    Waiver {
        rule: "UNOPTFLAT",
        signal: "top.dp$sums$en",
        why: "datapath always-block granularity: the sums' enables come from the lanes' addresses, never from a sum",
    },
];

fn marker(inp: &LdsIn, out: &LdsOut) -> Option<String> {
    match (inp.reset, out.fault, out.done, inp.clear) {
        (true, _, _, _) => Some("reset".into()),
        (false, true, _, _) => Some("fault".into()),
        (false, false, true, _) => Some("done".into()),
        (false, false, false, true) => Some("clear".into()),
        _ => None,
    }
}

fn layout(window_cycles: u64) -> Gtkw {
    let p = |s: &'static str| (s, None);
    let hex = |s: &'static str| (s, Some(Format::Hex));
    let dec = |s: &'static str| (s, Some(Format::Dec));
    let lanes = |s: &'static str| (s, Some(Format::Mask));
    Gtkw::new("rtgpu lds: the local data share, 16 lanes x 4 quarters, latency 16 (hw/src/lds/rtl/lds.rs)")
        .window(window_cycles * TB_PERIOD_PS)
        .group(
            "issue (inputs)",
            &[
                p("lds.clock"),
                p("lds.reset"),
                p("lds.valid"),
                hex("lds.opcode"),
                hex("lds.offset"),
                dec("lds.vdst"),
                lanes("lds.exec"),
                dec("lds.wg_base"),
                dec("lds.wg_words"),
                p("lds.clear"),
                hex("lds.addr$0"),
                hex("lds.data0$0"),
            ],
        )
        .group(
            "quarter counter and RAM ports",
            &[
                p("lds.busy"),
                dec("lds.quarter"),
                lanes("lds.active"),
                lanes("lds.ram.wen"),
                dec("lds.ram.idx$0"),
                hex("lds.ram.wdata$0"),
                hex("lds.ram.rdata$0"),
                p("lds.dp.blocked"),
            ],
        )
        .group(
            "write-back (a quarter, 13 cycles after its access)",
            &[
                p("lds.wb_valid"),
                dec("lds.wb_quarter"),
                dec("lds.wb_vgpr"),
                p("lds.wb_two"),
                lanes("lds.wb_lanes"),
                hex("lds.wb_data0$0"),
                hex("lds.wb_data1$0"),
            ],
        )
        .group(
            "completion and fault",
            &[p("lds.done"), p("lds.fault"), hex("lds.fault_addr")],
        )
}

impl BlockTb for LdsTb {
    fn not_synthesized_in_ci(&self) -> Option<&'static str> {
        Some("about 90 s of Yosys for its 32 write ports (rtgpu synth lds)")
    }

    fn name(&self) -> &'static str {
        "lds"
    }

    fn description(&self) -> &'static str {
        "local data share (hw/src/lds), 16 lanes x 4 quarters, latency 16: directed cases + every DS instruction at random (collisions, faults, clears), RTL == model every cycle"
    }

    fn run(&self, opts: &TbOptions) -> Result<TbRun, TbError> {
        on_rtl_stack(|| run_tb(opts))
    }

    fn verilog(&self) -> Result<String, String> {
        on_rtl_stack(|| verilog_of(&mut LdsTbBlock::default()))
    }

    fn lint_waivers(&self) -> &'static [Waiver] {
        &WAIVERS
    }
}

// Runs `f` on a thread with the RTL threads' stack (rust-hdl builds the LDS, its flat arrays
// of lanes, adders and stages, on the stack).
use crate::sim::twin::on_rtl_stack_or_panic as on_rtl_stack;

/// The testbench: the directed sequence, then random instructions, RTL against the model.
fn run_tb(opts: &TbOptions) -> Result<TbRun, TbError> {
    let queue: std::collections::VecDeque<Feed> = directed().into();
    let window = 4 * queue.len() as u64 + 20;
    let cycles = opts.cycles.max(window);
    let mut stim = Stimulus {
        feed: queue[0],
        queue,
        rng: ChaCha8Rng::seed_from_u64(opts.seed),
        cycle: 0,
    };
    let mut model = LdsModel::new(TB_WORDS);
    let (mut done, mut faults) = (0u64, 0u64);
    let mut run = drive(
        LdsTbBlock::default(),
        "lds",
        |u| &mut u.clock,
        opts,
        cycles,
        |h, k| {
            let inp = stim.next(&model.outputs());
            let got = h.cycle(|u| apply(u, &inp), read_outputs)?;
            same(k, &got, &model.outputs())?;
            model.clock(&inp);
            done += u64::from(got.done);
            faults += u64::from(got.fault);
            Ok(marker(&inp, &got))
        },
        move || layout(window),
    )?;
    run.summary =
        format!("{cycles} cycles, RTL == model every cycle ({done} instructions, {faults} faults)");
    Ok(run)
}
