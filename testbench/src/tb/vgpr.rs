//! Testbench of the vector register file (`hw/src/ctx/`, [`Vgprs`]): every cycle at random,
//! lane-masked row writes, two row reads (often of the row being written), slot clears (with
//! a write in the same cycle, as a dispatch writes v0), addresses past the end and resets;
//! RTL == model every cycle.

use super::{drive, same, BlockTb, TbError, TbOptions, TbRun, TB_PERIOD_PS};
use crate::sim::cosim::verilog_of;
use crate::sim::waves::{Format, Gtkw};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rtgpu_hw::ctx::model::VgprModel;
use rtgpu_hw::ctx::{VgprAddr, VgprIn, VgprOut, Vgprs, TB_LANES, TB_ROWS, TB_SLOTS, TB_VGPRS};
use rust_hdl::core::prelude::*;

/// The `vgpr` testbench.
pub struct VgprTb;

/// The block's instance: the testbench's slots, VGPRs and lanes.
pub type VgprTbBlock = Vgprs<TB_SLOTS, TB_VGPRS, TB_LANES, TB_ROWS>;

/// A fresh model of the testbench's instance.
pub fn model() -> VgprModel {
    VgprModel::new(TB_SLOTS, TB_VGPRS, TB_LANES)
}

/// Drives the block's inputs.
pub fn apply(u: &mut VgprTbBlock, i: &VgprIn) {
    u.reset.next = i.reset;
    u.clear.next = i.clear;
    u.clear_slot.next = u64::from(i.clear_slot).to_bits();
    u.clear_v0.next = u64::from(i.clear_v0).to_bits();
    u.a_slot.next = u64::from(i.a.slot).to_bits();
    u.a_reg.next = u64::from(i.a.reg).to_bits();
    u.b_slot.next = u64::from(i.b.slot).to_bits();
    u.b_reg.next = u64::from(i.b.reg).to_bits();
    u.c_slot.next = u64::from(i.c.slot).to_bits();
    u.c_reg.next = u64::from(i.c.reg).to_bits();
    u.a2_slot.next = u64::from(i.a2.slot).to_bits();
    u.a2_reg.next = u64::from(i.a2.reg).to_bits();
    u.b2_slot.next = u64::from(i.b2.slot).to_bits();
    u.b2_reg.next = u64::from(i.b2.reg).to_bits();
    u.c2_slot.next = u64::from(i.c2.slot).to_bits();
    u.c2_reg.next = u64::from(i.c2.reg).to_bits();
    u.we2.next = i.we2;
    u.w2_slot.next = u64::from(i.w2.slot).to_bits();
    u.w2_reg.next = u64::from(i.w2.reg).to_bits();
    u.w2_mask.next = i.mask2.to_bits();
    u.we.next = i.we;
    u.w_slot.next = u64::from(i.w.slot).to_bits();
    u.w_reg.next = u64::from(i.w.reg).to_bits();
    u.w_mask.next = i.mask.to_bits();
    u.m_we.next = i.m_we;
    u.m_slot.next = u64::from(i.m.slot).to_bits();
    u.m_reg.next = u64::from(i.m.reg).to_bits();
    u.m_mask.next = i.m_mask.to_bits();
    u.y_slot.next = u64::from(i.y[0].slot).to_bits();
    for p in 0..3 {
        u.x_slot[p].next = u64::from(i.x[p].slot).to_bits();
        u.x_reg[p].next = u64::from(i.x[p].reg).to_bits();
        u.y_reg[p].next = u64::from(i.y[p].reg).to_bits();
    }
    u.l_we.next = i.l_we;
    u.l_two.next = i.l_two;
    u.l_slot.next = u64::from(i.l.slot).to_bits();
    u.l_reg.next = u64::from(i.l.reg).to_bits();
    u.l_mask.next = i.l_mask.to_bits();
    let word = |d: &[u32], l: usize| u64::from(d.get(l).copied().unwrap_or(0)).to_bits();
    for l in 0..TB_LANES {
        u.w_data[l].next = word(&i.data, l);
        u.w2_data[l].next = word(&i.data2, l);
        u.m_data[l].next = word(&i.m_data, l);
        u.l_data[l].next = word(&i.l_data, l);
        u.l_data1[l].next = word(&i.l_data1, l);
    }
}

/// The block's outputs as the model's type.
pub fn read_outputs(u: &VgprTbBlock) -> VgprOut {
    let row =
        |d: &[Signal<Out, Bits<32>>; TB_LANES]| d.iter().map(|s| s.val().index() as u32).collect();
    VgprOut {
        a: row(&u.a_data),
        b: row(&u.b_data),
        c: row(&u.c_data),
        a2: row(&u.a2_data),
        b2: row(&u.b2_data),
        c2: row(&u.c2_data),
        x: [row(&u.x0_data), row(&u.x1_data), row(&u.x2_data)],
        y: [row(&u.y0_data), row(&u.y1_data), row(&u.y2_data)],
    }
}

/// A row: mostly in the file, sometimes past its end (slot or VGPR).
fn address(rng: &mut ChaCha8Rng) -> VgprAddr {
    VgprAddr {
        slot: rng.gen_range(0..=TB_SLOTS as u8),
        reg: match rng.gen_ratio(1, 12) {
            true => rng.gen_range(TB_VGPRS as u8..=255),
            false => rng.gen_range(0..TB_VGPRS as u8),
        },
    }
}

/// A cycle of random traffic: four writes (the second VALU's often to the first's row) (their lanes masked; the memory's and the LDS's,
/// a row or a pair, often to the first's row), reads of random rows or of the row written, a
/// clear or a reset now and then.
pub fn random_input(rng: &mut ChaCha8Rng) -> VgprIn {
    let w = address(rng);
    let read = |rng: &mut ChaCha8Rng| match rng.gen_ratio(1, 3) {
        true => w,
        false => address(rng),
    };
    let w2 = read(rng);
    let m = read(rng);
    let l = read(rng);
    let y0 = read(rng);
    let y_reg = |rng: &mut ChaCha8Rng| VgprAddr {
        slot: y0.slot,
        ..read(rng)
    };
    VgprIn {
        reset: rng.gen_ratio(1, 200),
        clear: rng.gen_ratio(1, 24),
        clear_slot: rng.gen_range(0..=TB_SLOTS as u8),
        clear_v0: rng.gen(),
        a: read(rng),
        b: read(rng),
        c: read(rng),
        we: rng.gen_ratio(3, 4),
        w,
        mask: rng.gen_range(0..1 << TB_LANES),
        data: (0..TB_LANES).map(|_| rng.gen()).collect(),
        a2: read(rng),
        b2: read(rng),
        c2: read(rng),
        we2: rng.gen_ratio(1, 2),
        w2,
        mask2: rng.gen_range(0..1 << TB_LANES),
        data2: (0..TB_LANES).map(|_| rng.gen()).collect(),
        x: [read(rng), read(rng), read(rng)],
        m_we: rng.gen_ratio(1, 3),
        m,
        m_mask: rng.gen_range(0..1 << TB_LANES),
        m_data: (0..TB_LANES).map(|_| rng.gen()).collect(),
        y: [y0, y_reg(rng), y_reg(rng)],
        l_we: rng.gen_ratio(1, 3),
        l_two: rng.gen_ratio(1, 2),
        l,
        l_mask: rng.gen_range(0..1 << TB_LANES),
        l_data: (0..TB_LANES).map(|_| rng.gen()).collect(),
        l_data1: (0..TB_LANES).map(|_| rng.gen()).collect(),
    }
}

fn marker(inp: &VgprIn) -> Option<String> {
    match (inp.reset, inp.clear) {
        (true, _) => Some("reset".into()),
        (false, true) => Some(format!("clear slot {}", inp.clear_slot)),
        _ => None,
    }
}

fn layout(window_cycles: u64) -> Gtkw {
    let p = |s: &'static str| (s, None);
    let hex = |s: &'static str| (s, Some(Format::Hex));
    let dec = |s: &'static str| (s, Some(Format::Dec));
    let bin = |s: &'static str| (s, Some(Format::Bin));
    Gtkw::new("rtgpu vgpr: the VGPR file, per-lane flip-flop rows (hw/src/ctx/rtl/vgprs.rs)")
        .window(window_cycles * TB_PERIOD_PS)
        .group(
            "control",
            &[
                p("vgpr.clock"),
                p("vgpr.reset"),
                p("vgpr.clear"),
                dec("vgpr.clear_slot"),
                hex("vgpr.clear_v0"),
            ],
        )
        .group(
            "write port",
            &[
                p("vgpr.we"),
                dec("vgpr.w_slot"),
                dec("vgpr.w_reg"),
                bin("vgpr.w_mask"),
                hex("vgpr.w_data$0"),
                hex("vgpr.w_data$1"),
                hex("vgpr.w_data$2"),
                hex("vgpr.w_data$3"),
            ],
        )
        .group(
            "read port a",
            &[
                dec("vgpr.a_slot"),
                dec("vgpr.a_reg"),
                hex("vgpr.a_data$0"),
                hex("vgpr.a_data$1"),
                hex("vgpr.a_data$2"),
                hex("vgpr.a_data$3"),
            ],
        )
        .group(
            "read port b",
            &[
                dec("vgpr.b_slot"),
                dec("vgpr.b_reg"),
                hex("vgpr.b_data$0"),
                hex("vgpr.b_data$1"),
            ],
        )
        .group(
            "read port c (the VALU's third source)",
            &[
                dec("vgpr.c_slot"),
                dec("vgpr.c_reg"),
                hex("vgpr.c_data$0"),
                hex("vgpr.c_data$1"),
            ],
        )
        .group(
            "second VALU: write port w2 (after w), read port a2",
            &[
                p("vgpr.we2"),
                dec("vgpr.w2_slot"),
                dec("vgpr.w2_reg"),
                bin("vgpr.w2_mask"),
                hex("vgpr.w2_data$0"),
                hex("vgpr.w2_data$1"),
                dec("vgpr.a2_slot"),
                dec("vgpr.a2_reg"),
                hex("vgpr.a2_data$0"),
                hex("vgpr.a2_data$1"),
            ],
        )
        .group(
            "memory write port m (wins over w and w2)",
            &[
                p("vgpr.m_we"),
                dec("vgpr.m_slot"),
                dec("vgpr.m_reg"),
                bin("vgpr.m_mask"),
                hex("vgpr.m_data$0"),
                hex("vgpr.m_data$1"),
            ],
        )
        .group(
            "read port x0 (write-first after w and w2)",
            &[
                dec("vgpr.x_slot$0"),
                dec("vgpr.x_reg$0"),
                hex("vgpr.x0_data$0"),
                hex("vgpr.x0_data$1"),
            ],
        )
}

impl BlockTb for VgprTb {
    fn name(&self) -> &'static str {
        "vgpr"
    }

    fn description(&self) -> &'static str {
        "the VGPR file (hw/src/ctx), 4 slots x 16 VGPRs x 4 lanes: random masked writes on the four write ports (the two VALUs' w and w2, m, the LDS's l: a row or a pair), reads (ports a, b, c, a2, b2, c2, the write-first x ports, the LDS's y ports) of the written row, slot clears, resets; RTL == model every cycle"
    }

    fn run(&self, opts: &TbOptions) -> Result<TbRun, TbError> {
        run_tb(opts)
    }

    fn verilog(&self) -> Result<String, String> {
        verilog_of(&mut VgprTbBlock::default())
    }
}

/// The testbench: random traffic, RTL against the model.
fn run_tb(opts: &TbOptions) -> Result<TbRun, TbError> {
    let window = 60;
    let cycles = opts.cycles.max(window);
    let mut rng = ChaCha8Rng::seed_from_u64(opts.seed);
    let mut model = model();
    let mut lanes = 0u64;
    let mut run = drive(
        VgprTbBlock::default(),
        "vgpr",
        |u| &mut u.clock,
        opts,
        cycles,
        |h, k| {
            let inp = random_input(&mut rng);
            let got = h.cycle(|u| apply(u, &inp), read_outputs)?;
            same(k, &got, &model.outputs(&inp))?;
            model.clock(&inp);
            lanes += u64::from(inp.we) * u64::from(inp.mask.count_ones());
            Ok(marker(&inp))
        },
        move || layout(window),
    )?;
    run.summary = format!("{cycles} cycles, RTL == model every cycle ({lanes} lane words written)");
    Ok(run)
}
