//! Testbench of the fixed-latency memory (`hw/src/fixed_mem/`), 16 dwords, latencies up to
//! 16 (`TB_DEPTH`, so that Yosys synthesizes it in a minute or two): a directed
//! sequence at vector latency 5 and scalar latency 3 (a store of 16 lanes with lane 63 on
//! lane 3's word, a load of the stored words while the store is in flight, a scalar load of
//! four words wrapping past the end beside a second vector load, a driver write and a vector
//! store to one word at one edge, a scalar load of it), then random requests on both ports
//! with random latencies, driver reads and writes and resets; RTL == model every cycle.

use super::{drive, same, BlockTb, TbError, TbOptions, TbRun, TB_PERIOD_PS};
use crate::sim::cosim::verilog_of;
use crate::sim::cosim::KindWaiver;
use crate::sim::waves::{Format, Gtkw};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rtgpu_hw::fixed_mem::{
    FixedMemIn, FixedMemOut, FixedMemory, FixedMemoryModel, LANES, SMEM_DWORDS, TB_ADDR_BITS,
    TB_DEPTH,
};
use rust_hdl::core::prelude::*;

/// The `fixed_mem` testbench.
pub struct FixedMemTb;

/// The block's instance: the testbench's 16 dwords, latencies up to 16.
pub type FixedMemTbBlock = FixedMemory<TB_ADDR_BITS, TB_DEPTH>;

/// The testbench's words with wheels of `D` slots.
pub type FixedMemOf<const D: usize> = FixedMemory<TB_ADDR_BITS, D>;

/// Words of the testbench's instance.
pub const TB_WORDS: usize = 1 << TB_ADDR_BITS;

/// The block's outputs as the model's type.
pub fn read_outputs<const D: usize>(u: &FixedMemOf<D>) -> FixedMemOut {
    let w = |s: &Signal<Out, Bits<32>>| s.val().index() as u32;
    FixedMemOut {
        vresp: u.vresp.val(),
        vresp_tag: u.vresp_tag.val().index() as u32,
        vresp_store: u.vresp_store.val(),
        vresp_mask: u.vresp_mask.val().to_u64(),
        vresp_data: std::array::from_fn(|l| w(&u.vresp_data[l])),
        sresp: u.sresp.val(),
        sresp_tag: u.sresp_tag.val().index() as u32,
        sresp_n: u.sresp_n.val().index() as u8,
        sresp_store: u.sresp_store.val(),
        sresp_data: std::array::from_fn(|k| w(&u.sresp_data[k])),
        read_data: w(&u.read_data),
    }
}

/// Drives the block's inputs.
pub fn apply<const D: usize>(u: &mut FixedMemOf<D>, i: &FixedMemIn) {
    u.reset.next = i.reset;
    u.flat_lat.next = u64::from(i.flat_lat).to_bits();
    u.smem_lat.next = u64::from(i.smem_lat).to_bits();
    u.vreq.next = i.vreq;
    u.vstore.next = i.vstore;
    u.vmask.next = i.vmask.to_bits();
    u.vtag.next = u64::from(i.vtag).to_bits();
    for l in 0..LANES {
        u.vaddr[l].next = u64::from(i.vaddr[l]).to_bits();
        u.vdata[l].next = u64::from(i.vdata[l]).to_bits();
    }
    u.sreq.next = i.sreq;
    u.saddr.next = u64::from(i.saddr).to_bits();
    u.sn.next = u64::from(i.sn).to_bits();
    u.stag.next = u64::from(i.stag).to_bits();
    u.sstore.next = i.sstore;
    u.sdata.next = u64::from(i.sdata).to_bits();
    let word = |a: u32| (u64::from(a) % TB_WORDS as u64).to_bits();
    u.read_address.next = word(i.read_address);
    u.write_address.next = word(i.write_address);
    u.write_data.next = u64::from(i.write_data).to_bits();
    u.write_enable.next = i.write_enable;
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

/// A random address: mostly a word of the memory, sometimes any 32 bits (only the low bits
/// count).
fn address(rng: &mut ChaCha8Rng) -> u32 {
    match rng.gen_ratio(1, 8) {
        true => rng.gen(),
        false => rng.gen_range(0..TB_WORDS as u32),
    }
}

/// One cycle's random inputs at latencies `lat` (vector, scalar): each port requests half the
/// time (loads and stores alike, counts 0..=7 but mostly 1..=4), the driver reads and writes
/// random words, and one cycle in `reset_odds` resets.
pub fn random_input(rng: &mut ChaCha8Rng, lat: (u16, u16), reset_odds: u32) -> FixedMemIn {
    FixedMemIn {
        reset: rng.gen_ratio(1, reset_odds),
        flat_lat: lat.0,
        smem_lat: lat.1,
        vreq: rng.gen(),
        vstore: rng.gen(),
        vmask: mask(rng),
        vaddr: std::array::from_fn(|_| address(rng)),
        vdata: std::array::from_fn(|_| rng.gen()),
        vtag: rng.gen(),
        sreq: rng.gen(),
        saddr: address(rng),
        sn: match rng.gen_ratio(1, 8) {
            true => rng.gen_range(0..8),
            false => rng.gen_range(1..=SMEM_DWORDS as u8),
        },
        stag: rng.gen(),
        sstore: rng.gen_ratio(1, 4),
        sdata: rng.gen(),
        read_address: address(rng),
        write_address: address(rng),
        write_data: rng.gen(),
        write_enable: rng.gen_ratio(1, 4),
    }
}

/// A random latency: mostly 1..=8 (short waits, many responses), sometimes 0 or 12..=70
/// (at and past the wheels' depths: clamped).
pub fn random_latency(rng: &mut ChaCha8Rng) -> u16 {
    match rng.gen_range(0..8) {
        0 => 0,
        1 => rng.gen_range(12..=70),
        _ => rng.gen_range(1..=8),
    }
}

/// The directed latencies (vector, scalar).
const DIRECTED_LAT: (u16, u16) = (5, 3);

/// A cycle without requests at the directed latencies.
fn idle() -> FixedMemIn {
    FixedMemIn {
        flat_lat: DIRECTED_LAT.0,
        smem_lat: DIRECTED_LAT.1,
        ..FixedMemIn::default()
    }
}

/// A vector request at the directed latency: lanes (lane, word, value).
fn vector(store: bool, tag: u32, lanes: &[(usize, u32, u32)]) -> FixedMemIn {
    let mut i = FixedMemIn {
        vreq: true,
        vstore: store,
        vtag: tag,
        ..idle()
    };
    for &(l, a, d) in lanes {
        i.vmask |= 1 << l;
        i.vaddr[l] = a;
        i.vdata[l] = d;
    }
    i
}

/// Adds a scalar load of `n` words from `addr` to `i`.
fn with_scalar(mut i: FixedMemIn, addr: u32, n: u8, tag: u32) -> FixedMemIn {
    (i.sreq, i.saddr, i.sn, i.stag) = (true, addr, n, tag);
    i
}

/// Adds a scalar store of `data` to word `addr` to `i`.
fn with_scalar_store(i: FixedMemIn, addr: u32, data: u32, tag: u32) -> FixedMemIn {
    FixedMemIn {
        sstore: true,
        sdata: data,
        ..with_scalar(i, addr, 1, tag)
    }
}

/// The directed cycles, in order.
fn directed() -> Vec<FixedMemIn> {
    let lanes16 = |v: fn(u32) -> u32| -> Vec<(usize, u32, u32)> {
        (0..16).map(|l| (l as usize, l, v(l))).collect()
    };
    let mut store = lanes16(|l| 0xA00 + l);
    store.push((63, 3, 0xF63));
    let idle = idle();
    let mut clash = vector(true, 5, &[(0, 2, 0xE2)]);
    (clash.write_enable, clash.write_address, clash.write_data) = (true, 2, 0xD2);
    // (The driver, a scalar store and a lane on word 2 at one edge: the lane's value stays;
    // the scalar store alone on word 9.)
    let clash = with_scalar_store(clash, 2, 0xC2, 7);
    vec![
        vector(true, 1, &store),
        vector(false, 2, &lanes16(|_| 0)),
        with_scalar(vector(false, 3, &[(7, 15, 0), (40, 3, 0)]), 14, 4, 4),
        clash,
        with_scalar(idle, 2, 2, 6),
        with_scalar_store(idle, 9, 0x5709, 8),
        with_scalar(idle, 8, 2, 9),
        FixedMemIn {
            read_address: 2,
            ..idle
        },
    ]
}

/// The stimulus: the directed cycles, idle until their responses are out, then random
/// cycles whose latencies change now and then.
struct Stimulus {
    queue: std::collections::VecDeque<FixedMemIn>,
    rng: ChaCha8Rng,
    lat: (u16, u16),
    cycle: u64,
}

/// Cycles of the directed part and its responses.
const DIRECTED_CYCLES: u64 = 14;

impl Stimulus {
    fn next(&mut self) -> FixedMemIn {
        self.cycle += 1;
        if let Some(i) = self.queue.pop_front() {
            return i;
        }
        if self.cycle <= DIRECTED_CYCLES {
            return idle();
        }
        if self.rng.gen_ratio(1, 64) {
            self.lat = (random_latency(&mut self.rng), random_latency(&mut self.rng));
        }
        random_input(&mut self.rng, self.lat, 128)
    }
}

/// The addresses' bits above the address width: the contract uses only the low `A` bits.
const KIND_WAIVERS: [KindWaiver; 2] = [
    KindWaiver {
        rule: "UNUSEDSIGNAL",
        message: "*Bits of signal are not used: 'vaddr$*'[31:*]*",
        why: "a lane's address is a dword index of which only the low A bits are used (the contract)",
    },
    KindWaiver {
        rule: "UNUSEDSIGNAL",
        message: "*Bits of signal are not used: 'saddr'[31:*]*",
        why: "the scalar address is a dword index of which only the low A bits are used (the contract)",
    },
];

fn marker(inp: &FixedMemIn, out: &FixedMemOut) -> Option<String> {
    let mut m = Vec::new();
    if inp.reset {
        m.push("reset".to_string());
    }
    if inp.vreq && !inp.reset {
        let kind = if inp.vstore { "store" } else { "load" };
        m.push(format!("v{kind} {}", inp.vtag));
    }
    if inp.sreq && !inp.reset {
        let kind = if inp.sstore { "store" } else { "load" };
        m.push(format!("s_{kind} {}", inp.stag));
    }
    if out.vresp {
        m.push(format!("vresp {}", out.vresp_tag));
    }
    if out.sresp {
        m.push(format!("sresp {}", out.sresp_tag));
    }
    (!m.is_empty()).then(|| m.join(", "))
}

fn layout(window_cycles: u64) -> Gtkw {
    let p = |s: &'static str| (s, None);
    let hex = |s: &'static str| (s, Some(Format::Hex));
    let dec = |s: &'static str| (s, Some(Format::Dec));
    let lanes = |s: &'static str| (s, Some(Format::Mask));
    Gtkw::new("rtgpu fixed_mem: the fixed-latency memory, 16 dwords, latencies up to 16; vector latency 5, scalar 3 in the directed part (hw/src/fixed_mem/rtl/fixed_mem.rs)")
        .window(window_cycles * TB_PERIOD_PS)
        .group(
            "vector request (issue cycle k)",
            &[
                p("fixed_mem.clock"),
                p("fixed_mem.reset"),
                dec("fixed_mem.flat_lat"),
                p("fixed_mem.vreq"),
                p("fixed_mem.vstore"),
                dec("fixed_mem.vtag"),
                lanes("fixed_mem.vmask"),
                dec("fixed_mem.vaddr$0"),
                hex("fixed_mem.vdata$0"),
                dec("fixed_mem.vaddr$3"),
                hex("fixed_mem.vdata$3"),
                dec("fixed_mem.vaddr$63"),
                hex("fixed_mem.vdata$63"),
            ],
        )
        .group(
            "vector response (cycle k + flat_lat)",
            &[
                p("fixed_mem.vresp"),
                dec("fixed_mem.vresp_tag"),
                p("fixed_mem.vresp_store"),
                lanes("fixed_mem.vresp_mask"),
                hex("fixed_mem.vresp_data$0"),
                hex("fixed_mem.vresp_data$3"),
                hex("fixed_mem.vresp_data$7"),
                hex("fixed_mem.vresp_data$40"),
            ],
        )
        .group(
            "scalar request and response (cycle k + smem_lat)",
            &[
                dec("fixed_mem.smem_lat"),
                p("fixed_mem.sreq"),
                dec("fixed_mem.saddr"),
                dec("fixed_mem.sn"),
                dec("fixed_mem.stag"),
                p("fixed_mem.sstore"),
                hex("fixed_mem.sdata"),
                p("fixed_mem.sresp"),
                dec("fixed_mem.sresp_tag"),
                dec("fixed_mem.sresp_n"),
                p("fixed_mem.sresp_store"),
                hex("fixed_mem.sresp_data$0"),
                hex("fixed_mem.sresp_data$1"),
                hex("fixed_mem.sresp_data$2"),
                hex("fixed_mem.sresp_data$3"),
            ],
        )
        .group(
            "driver port (MEM_DATA) and the wheels",
            &[
                p("fixed_mem.write_enable"),
                dec("fixed_mem.write_address"),
                hex("fixed_mem.write_data"),
                dec("fixed_mem.read_address"),
                hex("fixed_mem.read_data"),
                dec("fixed_mem.now.q"),
                lanes("fixed_mem.vlive.q"),
                lanes("fixed_mem.slive.q"),
            ],
        )
}

impl BlockTb for FixedMemTb {
    fn not_synthesized_in_ci(&self) -> Option<&'static str> {
        Some("about 55 s of Yosys for its 64 lanes of 16-slot wheels (rtgpu synth fixed_mem)")
    }

    fn name(&self) -> &'static str {
        "fixed_mem"
    }

    fn description(&self) -> &'static str {
        "fixed-latency data memory (hw/src/fixed_mem), 16 dwords, 16-slot wheels: directed store/loads/scalar loads + random requests on both ports, latencies, driver accesses, resets; RTL == model every cycle"
    }

    fn run(&self, opts: &TbOptions) -> Result<TbRun, TbError> {
        on_rtl_stack(|| run_tb(opts))
    }

    fn verilog(&self) -> Result<String, String> {
        on_rtl_stack(|| verilog_of(&mut FixedMemTbBlock::default()))
    }

    fn lint_kind_waivers(&self) -> &'static [KindWaiver] {
        &KIND_WAIVERS
    }
}

// (rust-hdl builds the block, its 73 wheel fields of D registers, on the stack.)
use crate::sim::twin::on_rtl_stack_or_panic as on_rtl_stack;

/// The testbench: the directed sequence, then random cycles, RTL against the model.
fn run_tb(opts: &TbOptions) -> Result<TbRun, TbError> {
    let cycles = opts.cycles.max(DIRECTED_CYCLES + 8);
    let mut stim = Stimulus {
        queue: directed().into(),
        rng: ChaCha8Rng::seed_from_u64(opts.seed),
        lat: DIRECTED_LAT,
        cycle: 0,
    };
    let mut model = FixedMemoryModel::with_depth(TB_WORDS, TB_DEPTH);
    let (mut vresp, mut sresp) = (0u64, 0u64);
    let mut run = drive(
        FixedMemTbBlock::default(),
        "fixed_mem",
        |u| &mut u.clock,
        opts,
        cycles,
        |h, k| {
            let inp = stim.next();
            let got = h.cycle(|u| apply(u, &inp), read_outputs)?;
            same(k, &got, &model.outputs())?;
            model.clock(&inp);
            vresp += u64::from(got.vresp);
            sresp += u64::from(got.sresp);
            Ok(marker(&inp, &got))
        },
        move || layout(DIRECTED_CYCLES + 2),
    )?;
    run.summary = format!(
        "{cycles} cycles, RTL == model every cycle ({vresp} vector and {sresp} scalar responses)"
    );
    Ok(run)
}
