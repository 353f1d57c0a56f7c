//! Testbench of the vector register file (`hw/src/ctx/`, [`Vgprs`]): every cycle at random,
//! lane-masked row and pair writes, two row reads (often of the row being written), slot clears (with
//! a write in the same cycle, as a dispatch writes v0), addresses past the end and resets;
//! RTL == model every cycle.

use super::{drive, same, BlockTb, TbError, TbOptions, TbRun, TB_PERIOD_PS};
use crate::sim::cosim::verilog_of;
use crate::sim::waves::{Format, Gtkw};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rtgpu_hw::ctx::model::VgprModel;
use rtgpu_hw::ctx::{
    ValuPorts, ValuRows, VgprAddr, VgprIn, VgprOut, Vgprs, TB_LANES, TB_ROWS, TB_SLOTS, TB_VGPRS,
};
use rust_hdl::core::prelude::*;

/// The `vgpr` testbench.
pub struct VgprTb;

/// The block's instance: the testbench's slots, VGPRs and lanes.
pub type VgprTbBlock = Vgprs<TB_SLOTS, TB_VGPRS, TB_LANES, TB_ROWS>;

/// A fresh model of the testbench's instance.
pub fn model() -> VgprModel {
    VgprModel::new(TB_SLOTS, TB_VGPRS, TB_LANES)
}

/// A lane's word of `d` as a signal value (0 past its end).
fn word(d: &[u32], l: usize) -> Bits<32> {
    u64::from(d.get(l).copied().unwrap_or(0)).to_bits()
}

/// Drives VALU port set `$v` ([`ValuPorts`]) onto the block's ports named.
macro_rules! drive_set {
    ($u:ident, $v:ident, $as:ident $ar:ident $bs:ident $br:ident $cs:ident $cr:ident $we:ident $ws:ident $wr:ident $wm:ident $wd:ident $two:ident $wd1:ident) => {
        $u.$as.next = u64::from($v.a.slot).to_bits();
        $u.$ar.next = u64::from($v.a.reg).to_bits();
        $u.$bs.next = u64::from($v.b.slot).to_bits();
        $u.$br.next = u64::from($v.b.reg).to_bits();
        $u.$cs.next = u64::from($v.c.slot).to_bits();
        $u.$cr.next = u64::from($v.c.reg).to_bits();
        $u.$we.next = $v.we;
        $u.$ws.next = u64::from($v.w.slot).to_bits();
        $u.$wr.next = u64::from($v.w.reg).to_bits();
        $u.$wm.next = $v.mask.to_bits();
        $u.$two.next = $v.two;
        for l in 0..TB_LANES {
            $u.$wd[l].next = word(&$v.data, l);
            $u.$wd1[l].next = word(&$v.data1, l);
        }
    };
}

/// Drives the block's inputs.
pub fn apply(u: &mut VgprTbBlock, i: &VgprIn) {
    u.reset.next = i.reset;
    u.clear.next = i.clear;
    u.clear_slot.next = u64::from(i.clear_slot).to_bits();
    u.clear_v0.next = u64::from(i.clear_v0).to_bits();
    let [v1, v2, v3, v4] = &i.valu;
    drive_set!(u, v1, a_slot a_reg b_slot b_reg c_slot c_reg we w_slot w_reg w_mask w_data w_two w_data1);
    drive_set!(u, v2, a2_slot a2_reg b2_slot b2_reg c2_slot c2_reg we2 w2_slot w2_reg w2_mask w2_data w2_two w2_data1);
    drive_set!(u, v3, a3_slot a3_reg b3_slot b3_reg c3_slot c3_reg we3 w3_slot w3_reg w3_mask w3_data w3_two w3_data1);
    drive_set!(u, v4, a4_slot a4_reg b4_slot b4_reg c4_slot c4_reg we4 w4_slot w4_reg w4_mask w4_data w4_two w4_data1);
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
    for l in 0..TB_LANES {
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
        valu: [
            [&u.a_data, &u.b_data, &u.c_data],
            [&u.a2_data, &u.b2_data, &u.c2_data],
            [&u.a3_data, &u.b3_data, &u.c3_data],
            [&u.a4_data, &u.b4_data, &u.c4_data],
        ]
        .map(|[a, b, c]| ValuRows {
            a: row(a),
            b: row(b),
            c: row(c),
        }),
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

/// A cycle of random traffic: the four VALUs' writes of a row or a pair (the others often to
/// the first's row),
/// the memory's and the LDS's (a row or a pair, often to the first's row), their lanes
/// masked; reads of random rows or of the row written, a clear or a reset now and then.
pub fn random_input(rng: &mut ChaCha8Rng) -> VgprIn {
    let w = address(rng);
    let read = |rng: &mut ChaCha8Rng| match rng.gen_ratio(1, 3) {
        true => w,
        false => address(rng),
    };
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
        valu: [0, 1, 2, 3].map(|n| ValuPorts {
            a: read(rng),
            b: read(rng),
            c: read(rng),
            we: rng.gen_ratio(if n == 0 { 3 } else { 2 }, 4),
            w: if n == 0 { w } else { read(rng) },
            mask: rng.gen_range(0..1 << TB_LANES),
            data: (0..TB_LANES).map(|_| rng.gen()).collect(),
            two: rng.gen_ratio(1, 3),
            data1: (0..TB_LANES).map(|_| rng.gen()).collect(),
        }),
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
            "fourth VALU: write port w4 (last of the VALUs'), read port a4",
            &[
                p("vgpr.we4"),
                dec("vgpr.w4_slot"),
                dec("vgpr.w4_reg"),
                bin("vgpr.w4_mask"),
                hex("vgpr.w4_data$0"),
                hex("vgpr.w4_data$1"),
                dec("vgpr.a4_slot"),
                dec("vgpr.a4_reg"),
                hex("vgpr.a4_data$0"),
                hex("vgpr.a4_data$1"),
            ],
        )
        .group(
            "memory write port m (wins over the VALUs' w..w4)",
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
            "read port x0 (write-first after w..w4)",
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

    fn not_synthesized_in_ci(&self) -> Option<&'static str> {
        Some("about 80 s of Yosys for its six write ports and 18 read ports (rtgpu synth vgpr)")
    }

    fn description(&self) -> &'static str {
        "the VGPR file (hw/src/ctx), 4 slots x 16 VGPRs x 4 lanes: random masked writes on the seven write ports (the four VALUs' w..w4 and the LDS's l: a row or a pair; m: a row), reads (ports a, b, c of the four VALU port sets, the write-first x ports, the LDS's y ports) of the written row, slot clears, resets; RTL == model every cycle"
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
            lanes += inp
                .valu
                .iter()
                .map(|v| u64::from(v.we) * u64::from(v.mask.count_ones()))
                .sum::<u64>();
            Ok(marker(&inp))
        },
        move || layout(window),
    )?;
    run.summary = format!(
        "{cycles} cycles, RTL == model every cycle ({lanes} lane words written by the VALUs)"
    );
    Ok(run)
}
