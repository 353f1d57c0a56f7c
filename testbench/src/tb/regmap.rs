//! Testbench of the GPU register map (`hw/src/gpu/regmap/`): a directed session as the
//! driver runs one (identify the device, load code through the code window and read it
//! back, set the launch registers, ring the doorbell, be refused while busy, read the
//! counters, the error registers and the wavefront times, every kind of refusal), then
//! random register traffic ([`rtgpu_hw::gpu::regmap::traffic`]); RTL == model every cycle.
//! The testbench plays the two RAMs behind the windows (one cycle of read latency) and a
//! compute unit ([`CuStandIn`]: busy for a while after a doorbell, then done or in error).

use super::{drive, same, BlockTb, TbError, TbOptions, TbRun, TB_PERIOD_PS};
use crate::sim::cosim::{verilog_of, Waiver};
use crate::sim::waves::{named, Format, Gtkw};
use rtgpu_hw::gpu::regmap::model::RegMapModel;
use rtgpu_hw::gpu::regmap::traffic::{access, Access, CuStandIn, Rams};
use rtgpu_hw::gpu::regmap::{LaunchOut, RegMap, RegMapIn, RegMapOut};
use rtgpu_hw::gpu::regs::{addr, CTRL_DOORBELL};
use rust_hdl::core::prelude::*;

/// The `regmap` testbench.
pub struct RegMapTb;

/// Instruction memory bytes of the testbench's RAM (small: the window runs off its end).
pub const CODE_BYTES: u32 = 64;
/// Data memory bytes of the testbench's RAM.
pub const MEM_BYTES: u64 = 256;

/// Drives the block's inputs.
pub fn apply(u: &mut RegMap, i: &RegMapIn) {
    u.reset.next = i.reset;
    u.rd.next = i.rd;
    u.wr.next = i.wr;
    u.addr.next = u64::from(i.addr).to_bits();
    u.wdata.next = u64::from(i.wdata).to_bits();
    u.status.next = u64::from(i.status).to_bits();
    u.error.next = u64::from(i.error).to_bits();
    u.error_pc.next = u64::from(i.error_pc).to_bits();
    u.error_info.next = u64::from(i.error_info).to_bits();
    u.code_bytes.next = u64::from(i.code_bytes).to_bits();
    u.mem_bytes.next = i.mem_bytes.to_bits();
    u.code_rdata.next = u64::from(i.code_rdata).to_bits();
    u.mem_rdata.next = u64::from(i.mem_rdata).to_bits();
    u.counter.next = i.counter.to_bits();
    u.wf_count.next = u64::from(i.wf_count).to_bits();
    u.wf_start.next = u64::from(i.wf_start).to_bits();
    u.wf_finish.next = u64::from(i.wf_finish).to_bits();
}

/// A 32-bit output.
fn w32(s: &Signal<Out, Bits<32>>) -> u32 {
    s.val().index() as u32
}

/// A 64-bit value output in halves.
fn pair(lo: &Signal<Out, Bits<32>>, hi: &Signal<Out, Bits<32>>) -> u64 {
    u64::from(w32(lo)) | u64::from(w32(hi)) << 32
}

/// The launch registers on the block's outputs.
fn read_launch(u: &RegMap) -> LaunchOut {
    LaunchOut {
        entry_pc: w32(&u.entry_pc),
        kernarg: pair(&u.kernarg_lo, &u.kernarg_hi),
        grid: w32(&u.grid),
        wg: w32(&u.wg),
        lds: w32(&u.lds),
        mode: w32(&u.mode),
        sched: w32(&u.sched),
        features: w32(&u.features),
        trace_addr: pair(&u.trace_lo, &u.trace_hi),
        abi: u.abi.val(),
        rsrc2: w32(&u.rsrc2),
        user: std::array::from_fn(|i| w32(&u.user[i])),
        idu_ctl: std::array::from_fn(|i| u.idu_ctl[i].val().index() as u16),
        idu_ps: std::array::from_fn(|i| w32(&u.idu_ps[i])),
    }
}

/// The block's outputs as the model's type.
pub fn read_outputs(u: &RegMap) -> RegMapOut {
    RegMapOut {
        ack: u.ack.val(),
        err: u.err.val(),
        err_code: u.err_code.val().index() as u8,
        rdata: w32(&u.rdata),
        doorbell: u.doorbell.val(),
        stop: u.stop.val(),
        code_req: u.code_req.val(),
        code_we: u.code_we.val(),
        code_addr: w32(&u.code_addr),
        code_wdata: w32(&u.code_wdata),
        mem_req: u.mem_req.val(),
        mem_we: u.mem_we.val(),
        mem_addr: pair(&u.mem_addr_lo, &u.mem_addr_hi),
        mem_wdata: w32(&u.mem_wdata),
        cnt_idx: u.cnt_idx.val().index() as u8,
        wf_sel: w32(&u.wf_sel),
        launch: read_launch(u),
    }
}

/// A read of `a`.
fn rd(a: u32) -> Access {
    Access {
        rd: true,
        addr: a,
        ..Access::default()
    }
}

/// A write of `v` to `a`.
fn wr(a: u32, v: u32) -> Access {
    Access {
        wr: true,
        addr: a,
        wdata: v,
        ..Access::default()
    }
}

/// The directed session, in order.
pub fn directed() -> Vec<Access> {
    let mut s = vec![rd(addr::ID), rd(addr::VERSION), rd(addr::STATUS)];
    s.push(wr(addr::CODE_ADDR, 0));
    s.extend((0..3).map(|k| wr(addr::CODE_DATA, 0xBF81_0000 + k)));
    s.extend([
        wr(addr::CODE_ADDR, 4),
        rd(addr::CODE_DATA),
        rd(addr::CODE_DATA),
    ]);
    s.extend([
        wr(addr::MEM_ADDR_LO, MEM_BYTES as u32 - 4),
        wr(addr::MEM_DATA, 7),
    ]);
    s.extend([rd(addr::MEM_DATA), rd(addr::MEM_ADDR_LO)]);
    s.extend([
        wr(addr::GRID, 256),
        wr(addr::WG, 128),
        wr(addr::USER_DATA + 4, 0x800),
    ]);
    s.extend([wr(addr::ABI, 3), wr(addr::IDU_CLUSTER, 0x3FF)]);
    s.extend([
        wr(addr::CTRL, CTRL_DOORBELL),
        rd(addr::STATUS),
        wr(addr::GRID, 64),
    ]);
    s.extend([wr(addr::CTRL, CTRL_DOORBELL), wr(addr::LDS + 1, 0)]);
    s.extend([
        rd(addr::COUNTERS),
        rd(addr::COUNTERS + 4),
        rd(addr::COUNTERS2 + 8 * 9),
    ]);
    s.extend([wr(addr::WF_SEL, 3), rd(addr::WF_START), rd(addr::WF_FINISH)]);
    s.extend([
        rd(addr::CTRL),
        wr(addr::STATUS, 1),
        rd(addr::ID + 2),
        rd(0x3FC),
    ]);
    s.extend([wr(addr::CODE_ADDR, CODE_BYTES), rd(addr::CODE_DATA)]);
    s.extend((0..30).map(|_| rd(addr::STATUS)));
    s.extend([
        rd(addr::ERROR),
        rd(addr::ERROR_INFO),
        wr(addr::CTRL, 2),
        rd(addr::STATUS),
    ]);
    s
}

/// The surroundings of the block: the accesses to make, the RAMs and the compute unit.
struct Bench {
    queue: std::collections::VecDeque<Access>,
    seed: u64,
    rams: Rams,
    cu: CuStandIn,
}

impl Bench {
    fn new(seed: u64) -> Self {
        Self {
            queue: directed().into(),
            seed,
            rams: Rams::new(CODE_BYTES, MEM_BYTES),
            cu: CuStandIn::new(seed),
        }
    }

    /// The inputs of cycle `k` (a reset in the first cycle), given the model.
    fn input(&mut self, k: u64, m: &RegMapModel) -> RegMapIn {
        let acc = self
            .queue
            .pop_front()
            .unwrap_or_else(|| access(self.seed.wrapping_mul(0x1_0000_0001) ^ k));
        let mut i = acc.input();
        // A reset in the first cycle and, after the directed session, one cycle in 512.
        i.reset = k == 0 || (self.queue.is_empty() && access(k ^ self.seed).wdata % 512 == 1);
        self.rams.drive(&mut i);
        let o = m.outputs(&i);
        self.cu.drive(&mut i, o.cnt_idx, o.wf_sel);
        i
    }

    /// The edge that ends the cycle.
    fn clock(&mut self, o: &RegMapOut) {
        self.rams.clock(o);
        self.cu.clock(o);
    }
}

/// `ABI` keeps bit 0 (its bank word's other bits stay 0 and are not output).
const WAIVERS: [Waiver; 1] = [Waiver {
    rule: "UNUSEDSIGNAL",
    signal: "b_main$q$11",
    why: "ABI keeps bit 0 only: the bank word's bits 31:1 are always 0 and not output",
}];

fn marker(i: &RegMapIn, o: &RegMapOut) -> Option<String> {
    match (i.reset, o.doorbell, o.stop, o.ack && o.err) {
        (true, ..) => Some("reset".into()),
        (_, true, ..) => Some("doorbell".into()),
        (_, _, true, _) => Some("stop".into()),
        (.., true) => Some(format!("bus error {}", o.err_code)),
        _ => None,
    }
}

fn layout(window_cycles: u64) -> Gtkw {
    let p = |s: &'static str| (s, None);
    let hex = |s: &'static str| (s, Some(Format::Hex));
    let dec = |s: &'static str| (s, Some(Format::Dec));
    Gtkw::new("rtgpu regmap: the GPU's MMIO register map (hw/src/gpu/regmap/rtl/regmap.rs)")
        .window(window_cycles * TB_PERIOD_PS)
        .names(
            "err",
            &named(&["unmapped", "read_only", "busy", "out_of_range"]),
        )
        .names("status", &named(&["idle", "busy", "done", "error"]))
        .group(
            "bus",
            &[
                p("regmap.clock"),
                p("regmap.reset"),
                p("regmap.rd"),
                p("regmap.wr"),
                hex("regmap.addr"),
                hex("regmap.wdata"),
                p("regmap.ack"),
                p("regmap.err"),
                ("regmap.err_code", Some(Format::Named("err"))),
                hex("regmap.rdata"),
            ],
        )
        .group(
            "compute unit",
            &[
                ("regmap.status", Some(Format::Named("status"))),
                p("regmap.doorbell"),
                p("regmap.stop"),
                dec("regmap.cnt_idx"),
                hex("regmap.counter"),
                dec("regmap.wf_sel"),
            ],
        )
        .group(
            "windows (RAM ports)",
            &[
                p("regmap.code_req"),
                p("regmap.code_we"),
                hex("regmap.code_addr"),
                hex("regmap.code_rdata"),
                p("regmap.mem_req"),
                p("regmap.mem_we"),
                hex("regmap.mem_addr_lo"),
                hex("regmap.mem_rdata"),
            ],
        )
        .group(
            "launch registers",
            &[
                hex("regmap.entry_pc"),
                dec("regmap.grid"),
                dec("regmap.wg"),
                hex("regmap.mode"),
                p("regmap.abi"),
                hex("regmap.user$1"),
                hex("regmap.idu_ctl$0"),
            ],
        )
}

impl BlockTb for RegMapTb {
    fn name(&self) -> &'static str {
        "regmap"
    }

    fn description(&self) -> &'static str {
        "GPU MMIO register map (hw/src/gpu/regmap): a directed driver session + random register traffic (windows, refusals, doorbells), RTL == model every cycle"
    }

    fn run(&self, opts: &TbOptions) -> Result<TbRun, TbError> {
        let window = directed().len() as u64 + 8;
        let cycles = opts.cycles.max(window);
        let mut bench = Bench::new(opts.seed);
        let mut model = RegMapModel::new();
        let (mut errors, mut bells) = (0u64, 0u64);
        let mut run = drive(
            RegMap::default(),
            "regmap",
            |u| &mut u.clock,
            opts,
            cycles,
            |h, k| {
                let inp = bench.input(k, &model);
                let got = h.cycle(|u| apply(u, &inp), read_outputs)?;
                same(k, &got, &model.outputs(&inp))?;
                model.clock(&inp);
                bench.clock(&got);
                errors += u64::from(got.ack && got.err);
                bells += u64::from(got.doorbell);
                Ok(marker(&inp, &got))
            },
            move || layout(window),
        )?;
        run.summary = format!(
            "{cycles} cycles, RTL == model every cycle ({bells} doorbells, {errors} bus errors)"
        );
        Ok(run)
    }

    fn verilog(&self) -> Result<String, String> {
        verilog_of(&mut RegMap::default())
    }

    fn lint_waivers(&self) -> &'static [Waiver] {
        &WAIVERS
    }
}
