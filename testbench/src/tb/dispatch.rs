//! Testbench of the work-group dispatcher (`hw/src/dispatch/`): random launches (first id,
//! end, stride, wavefronts per work-group, resident limit) on a closed-loop environment of
//! SIMD slots: every DISPATCH occupies its slot for a random time, after which the wavefront
//! ends (the slot frees, its entry's `ended` counts it); ports are sometimes busy, the
//! reordering limit sometimes holds work-groups back, and now and then a launch or a reset
//! arrives in the middle of one. RTL == model every cycle.

use super::{drive, same, BlockTb, TbError, TbOptions, TbRun, TB_PERIOD_PS};
use crate::sim::cosim::verilog_of;
use crate::sim::waves::{Format, Gtkw};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rtgpu_hw::block::Clocked;
use rtgpu_hw::dispatch::model::DispatchModel;
use rtgpu_hw::dispatch::{
    Dispatch, DispatchIn, DispatchOut, LaunchIn, Send, Shape, TB_GROUPS, TB_RESIDENT, TB_SLOTS,
};
use rust_hdl::core::prelude::*;

/// The `dispatch` testbench.
pub struct DispatchTb;

/// The block's instance: the testbench's SIMD groups, slots and resident entries.
pub type DispatchTbBlock = Dispatch<TB_GROUPS, TB_SLOTS, TB_RESIDENT>;

/// Drives the block's inputs.
pub fn apply(u: &mut DispatchTbBlock, i: &DispatchIn) {
    u.reset.next = i.reset;
    u.start.next = i.start;
    u.wg_first.next = u64::from(i.launch.first).to_bits();
    u.wg_end.next = u64::from(i.launch.end).to_bits();
    u.wg_stride.next = u64::from(i.launch.stride).to_bits();
    u.waves.next = u64::from(i.launch.waves).to_bits();
    u.max_res.next = u64::from(i.launch.max_res).to_bits();
    u.limit.next = u64::from(i.limit).to_bits();
    for g in 0..TB_GROUPS {
        u.free[g].next = u64::from(i.free[g]).to_bits();
        u.port_free[g].next = i.port_free[g];
    }
    for r in 0..TB_RESIDENT {
        u.ended[r].next = u64::from(i.ended[r]).to_bits();
    }
}

/// The block's outputs as the model's type.
pub fn read_outputs(u: &DispatchTbBlock) -> DispatchOut {
    let byte = |b: Bits<8>| b.index() as u8;
    DispatchOut {
        send: (0..TB_GROUPS)
            .map(|g| Send {
                valid: u.send[g].val(),
                slot: byte(u.send_slot[g].val()),
                wi: byte(u.send_wi[g].val()),
                wave: byte(u.send_wave[g].val()),
                wg: u.send_wg[g].val().index() as u32,
            })
            .collect(),
        admitted: (0..TB_RESIDENT).map(|r| u.admitted[r].val()).collect(),
        resident: (0..TB_RESIDENT).map(|r| u.resident[r].val()).collect(),
        live: (0..TB_RESIDENT).map(|r| byte(u.live[r].val())).collect(),
        pending: byte(u.pending.val()),
        next_wg: u.next_wg.val().index() as u32,
        finished: u.finished.val(),
    }
}

/// The environment the dispatcher serves: the SIMD slots (each empty or holding a wavefront
/// of a resident entry until a cycle), the reordering limit, and random launches.
pub struct Env {
    rng: ChaCha8Rng,
    shape: Shape,
    /// Per SIMD group and slot: (resident entry, the cycle its wavefront ends).
    slots: Vec<Vec<Option<(usize, u64)>>>,
    now: u64,
    limit: u32,
    launch: LaunchIn,
}

impl Env {
    /// An environment of `shape`, all slots free, seeded with `seed`.
    pub fn new(shape: Shape, seed: u64) -> Self {
        Self {
            rng: ChaCha8Rng::seed_from_u64(seed),
            shape,
            slots: vec![vec![None; shape.slots]; shape.groups],
            now: 0,
            limit: 0,
            launch: LaunchIn::default(),
        }
    }

    /// A random launch: a short range of ids, stride 1 mostly, up to the whole instance's
    /// slots per work-group, the resident limit mostly open.
    fn random_launch(&mut self) -> LaunchIn {
        let rng = &mut self.rng;
        let first = match rng.gen_ratio(1, 8) {
            true => u32::MAX - rng.gen_range(0..64),
            false => rng.gen_range(0..20),
        };
        let all = (self.shape.groups * self.shape.slots) as u8;
        LaunchIn {
            first,
            end: first.saturating_add(rng.gen_range(0..40)),
            stride: match rng.gen_range(0..4) {
                0 => rng.gen_range(2..5),
                _ => 1,
            },
            waves: match rng.gen_range(0..16) {
                0 => 0,
                1..=3 => rng.gen_range(1..=all),
                _ => rng.gen_range(1..=4),
            },
            max_res: match rng.gen_range(0..4) {
                0 => rng.gen_range(0..=self.shape.resident as u8 + 1),
                _ => 255,
            },
        }
    }

    /// The inputs of the next cycle: the slots' state, the wavefronts ending now (their slots
    /// free), the limit, now and then a launch or a reset.
    pub fn inputs(&mut self) -> DispatchIn {
        let mut i = DispatchIn::idle(self.shape);
        let now = self.now;
        for (g, slots) in self.slots.iter_mut().enumerate() {
            for (s, slot) in slots.iter_mut().enumerate() {
                match *slot {
                    Some((r, at)) if at <= now => {
                        i.ended[r] += 1;
                        *slot = None;
                    }
                    Some(_) => {}
                    None => i.free[g] |= 1 << s,
                }
            }
        }
        let rng = &mut self.rng;
        i.port_free = (0..self.shape.groups)
            .map(|_| rng.gen_ratio(7, 8))
            .collect();
        if rng.gen_ratio(1, 16) {
            // A stray end for an entry with nothing running (ignored, or counted against it).
            i.ended[rng.gen_range(0..self.shape.resident)] += rng.gen_range(1..3);
        }
        if rng.gen_ratio(1, 24) {
            self.limit = self.launch.first.wrapping_add(rng.gen_range(0..24));
        } else if rng.gen_ratio(1, 48) {
            self.limit = u32::MAX;
        }
        i.limit = self.limit;
        i.reset = now > 0 && rng.gen_ratio(1, 400);
        i.start = now == 0 || rng.gen_ratio(1, 150);
        if i.start {
            self.launch = self.random_launch();
            i.launch = self.launch;
        }
        i
    }

    /// Takes the cycle's DISPATCHes: each wavefront holds its slot for 1 to 40 cycles (a
    /// launch or reset leaves the slots as they are: the wavefronts run on).
    pub fn observe(&mut self, out: &DispatchOut) {
        for (g, s) in out.send.iter().enumerate() {
            if s.valid {
                let at = self.now + self.rng.gen_range(1..=40);
                self.slots[g][usize::from(s.slot)] = Some((usize::from(s.wi), at));
            }
        }
        self.now += 1;
    }
}

fn marker(k: u64, i: &DispatchIn) -> Option<String> {
    match (i.reset, i.start) {
        (true, _) => Some("reset".into()),
        (false, true) if k > 0 => Some(format!(
            "launch {}..{} /{} ×{}",
            i.launch.first, i.launch.end, i.launch.stride, i.launch.waves
        )),
        _ => None,
    }
}

fn layout(window_cycles: u64) -> Gtkw {
    let p = |s: &'static str| (s, None);
    let dec = |s: &'static str| (s, Some(Format::Dec));
    let bin = |s: &'static str| (s, Some(Format::Bin));
    Gtkw::new("rtgpu dispatch: work-group admission and one DISPATCH per SIMD group per cycle (hw/src/dispatch/rtl/dispatch.rs)")
        .window(window_cycles * TB_PERIOD_PS)
        .group(
            "launch",
            &[
                p("dispatch.clock"),
                p("dispatch.reset"),
                p("dispatch.start"),
                dec("dispatch.wg_first"),
                dec("dispatch.wg_end"),
                dec("dispatch.wg_stride"),
                dec("dispatch.waves"),
                dec("dispatch.max_res"),
                dec("dispatch.limit"),
            ],
        )
        .group(
            "SIMD groups 0 and 1: free slots, DISPATCH",
            &[
                bin("dispatch.free$0"),
                p("dispatch.port_free$0"),
                p("dispatch.send$0"),
                dec("dispatch.send_slot$0"),
                dec("dispatch.send_wg$0"),
                dec("dispatch.send_wave$0"),
                dec("dispatch.send_wi$0"),
                bin("dispatch.free$1"),
                p("dispatch.port_free$1"),
                p("dispatch.send$1"),
                dec("dispatch.send_slot$1"),
                dec("dispatch.send_wg$1"),
                dec("dispatch.send_wave$1"),
                dec("dispatch.send_wi$1"),
            ],
        )
        .group(
            "bookkeeping: pending, next id, entries 0 and 1",
            &[
                dec("dispatch.pending"),
                dec("dispatch.next_wg"),
                p("dispatch.finished"),
                p("dispatch.admitted$0"),
                p("dispatch.resident$0"),
                dec("dispatch.live$0"),
                dec("dispatch.ended$0"),
                p("dispatch.admitted$1"),
                p("dispatch.resident$1"),
                dec("dispatch.live$1"),
                dec("dispatch.ended$1"),
            ],
        )
}

impl BlockTb for DispatchTb {
    fn name(&self) -> &'static str {
        "dispatch"
    }

    fn description(&self) -> &'static str {
        "work-group dispatcher (hw/src/dispatch), 4 SIMD groups × 4 slots, 16 resident entries: random launches (strides, limits, resident caps), wavefronts ending at random, busy ports, resets; RTL == model every cycle"
    }

    fn run(&self, opts: &TbOptions) -> Result<TbRun, TbError> {
        run_tb(opts)
    }

    fn verilog(&self) -> Result<String, String> {
        verilog_of(&mut DispatchTbBlock::default())
    }
}

/// The testbench: the environment's random traffic, RTL against the model.
fn run_tb(opts: &TbOptions) -> Result<TbRun, TbError> {
    let window = 120;
    let cycles = opts.cycles.max(window);
    let mut env = Env::new(Shape::TB, opts.seed);
    let mut model = DispatchModel::new(Shape::TB);
    let mut sends = 0u64;
    let mut run = drive(
        DispatchTbBlock::default(),
        "dispatch",
        |u| &mut u.clock,
        opts,
        cycles,
        |h, k| {
            let inp = env.inputs();
            let got = h.cycle(|u| apply(u, &inp), read_outputs)?;
            let want = model.cycle(&inp);
            same(k, &got, &want)?;
            env.observe(&want);
            sends += want.send.iter().filter(|s| s.valid).count() as u64;
            Ok(marker(k, &inp))
        },
        move || layout(window),
    )?;
    run.summary = format!("{cycles} cycles, RTL == model every cycle ({sends} wavefronts started)");
    Ok(run)
}
