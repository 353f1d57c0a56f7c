//! Block testbenches of the DRAM controller: `dram-4k-read` (the paper's 4 KiB read, with a
//! waveform that explains it), `dram-mixed` and `dram-x8-mixed` (random tiles, 2D tiles,
//! indexed requests, bad requests and a refresh, on the 8- and 16-bank parts). Every cycle:
//! RTL == reference model; every command: the independent DDR4 checker.

use super::rtl;
use super::run::{Completion, Feeder};
use crate::bench::engines::{of_tb, EngineCycles};
use crate::bench::BenchRow;
use crate::sim::cosim::{verilog_of, SynthScript, Waiver};
use crate::sim::waves::{as_refs, named, Format, Gtkw};
use crate::tb::{drive, mismatch, BlockTb, TbError, TbOptions, TbRun, TB_PERIOD_PS};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rtgpu_hw::dram::model::{checker, trace_cmd, DramIn, DramModel, Request};
use rtgpu_hw::dram::{Command, DramCtrl, Part};
use std::path::Path;

/// What a DRAM testbench runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// One aligned 4 KiB read.
    Read4k,
    /// A random mixed sequence (seeded).
    Mixed,
}

/// A DRAM controller testbench.
pub struct DramTb {
    /// `rtgpu tb` name.
    pub name: &'static str,
    /// One line for `rtgpu list`.
    pub description: &'static str,
    /// The part.
    pub part: Part,
    /// The stimulus.
    pub kind: Kind,
}

/// `dram-4k-read`.
pub const READ_4K: DramTb = DramTb {
    name: "dram-4k-read",
    description: "DRAM controller, DDR4-3200AA x16: one aligned 4 KiB read (64 bursts), LID vs Eq. 15, RTL == model, DDR4 checker",
    part: Part::DDR4_3200AA_X16,
    kind: Kind::Read4k,
};

/// `dram-mixed`.
pub const MIXED: DramTb = DramTb {
    name: "dram-mixed",
    description: "DRAM controller, DDR4-3200AA x16: random tiles, 2D tiles, indexed and bad requests, a refresh; RTL == model, DDR4 checker",
    part: Part::DDR4_3200AA_X16,
    kind: Kind::Mixed,
};

/// `dram-x8-mixed`.
pub const X8_MIXED: DramTb = DramTb {
    name: "dram-x8-mixed",
    description: "DRAM controller, DDR4-3200AA x8 (16 banks, 4 bank groups): the mixed sequence; RTL == model, DDR4 checker",
    part: Part::DDR4_3200AA_X8,
    kind: Kind::Mixed,
};

/// rust-hdl narrows a value only by slicing a named signal, so these locals carry bits that
/// are never read; and rust-hdl emits each sub-block's logic as one `always @(*)`, which
/// Verilator orders as a unit: the arbiter reads a bank's head and drives its `issue`, the
/// bank's block reads `issue` (for next-state only) and drives its head, a loop at block
/// granularity that is not one at signal level (every bank output comes from registers);
/// Verilator names it by the arbiter's output. The same holds for the command generator's
/// `accept` (read by the front-end's next-state logic only).
const WAIVERS: [Waiver; 10] = [
    slice("sel_bg"),
    slice("sel_hi"),
    slice("shifted"),
    slice("pair_b"),
    slice("row_b"),
    slice("col_b"),
    slice("s_pair_b"),
    slice("s_row_b"),
    block_loop("top.arb$issue$*"),
    block_loop("top.gen$accept"),
];

const fn slice(signal: &'static str) -> Waiver {
    Waiver {
        rule: "UNUSEDSIGNAL",
        signal,
        why: "a wide intermediate sliced with get_bits (rust-hdl's only width-clean narrowing)",
    }
}

const fn block_loop(signal: &'static str) -> Waiver {
    Waiver {
        rule: "UNOPTFLAT",
        signal,
        why: "sub-block always-block granularity: the input only feeds next-state logic",
    }
}

/// Refresh phase of the testbenches: the first refresh falls due after 300 cycles.
fn phase(part: &Part, kind: Kind) -> u16 {
    match kind {
        Kind::Read4k => 0,
        Kind::Mixed => part.refi - 300,
    }
}

/// The request sequence of a testbench.
pub fn requests(kind: Kind, seed: u64, cycles: u64) -> Vec<Request> {
    match kind {
        Kind::Read4k => vec![Request::contiguous(false, 0, 1024)],
        Kind::Mixed => mixed(seed, cycles),
    }
}

/// Random requests, about one per 120 cycles of `cycles`: the Fig. 3 tile first, then tiles,
/// 2D tiles (sparse, and dense ones whose rows share bursts), indexed requests and the occasional bad request, and a bad request last.
fn mixed(seed: u64, cycles: u64) -> Vec<Request> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut reqs = vec![Request::tile(false, 2, 5, 7, 3)];
    for _ in 0..(cycles / 120).max(4) {
        let write = rng.gen_bool(0.4);
        let addr = rng.gen_range(0..1 << 16) * if rng.gen_bool(0.2) { 4096 } else { 1 };
        let r = match rng.gen_range(0..10) {
            0..=4 => Request::contiguous(write, addr, rng.gen_range(1..=640)),
            5 => {
                let words = rng.gen_range(1..=40);
                let period = words + rng.gen_range(0..3000);
                Request::tile(write, addr, words, period, rng.gen_range(2..=6))
            }
            6 => {
                // Dense: up to 16 rows share a burst (the stride sequencer's whole walk).
                let words = rng.gen_range(1..=20);
                let period = words + rng.gen_range(0..=12);
                Request::tile(write, addr, words, period, rng.gen_range(2..=48))
            }
            7 | 8 => {
                let base = rng.gen_range(0..1u32 << 24);
                let spread = 1u32 << rng.gen_range(4..20);
                let idx = (0..rng.gen_range(1..=8))
                    .map(|_| base + rng.gen_range(0..spread))
                    .collect();
                Request::indexed(write, idx)
            }
            _ => Request::tile(write, addr, 0, 1, 1),
        };
        reqs.push(r);
    }
    reqs.push(Request::tile(false, 0, 0, 1, 1));
    for (i, r) in reqs.iter_mut().enumerate() {
        r.tag = i as u8;
    }
    reqs
}

impl BlockTb for DramTb {
    fn synthesized_by(&self) -> Option<&'static str> {
        // The 4 KiB read runs the x16 controller of `dram-mixed` with another refresh phase
        // (the reset value of one counter); the x8 part is the same controller with 16 banks.
        (self.name != MIXED.name).then_some(MIXED.name)
    }

    fn bench(&self, n: EngineCycles, dir: &Path) -> Option<Result<Vec<BenchRow>, String>> {
        let phase = phase(&self.part, self.kind);
        match self.part.banks {
            8 => of_tb(
                self,
                || DramCtrl::<8>::new(&self.part, phase),
                |u| &mut u.clock,
                n,
                dir,
            ),
            _ => None,
        }
    }

    fn name(&self) -> &'static str {
        self.name
    }

    fn description(&self) -> &'static str {
        self.description
    }

    fn run(&self, opts: &TbOptions) -> Result<TbRun, TbError> {
        match self.part.banks {
            8 => simulate::<8>(self, opts),
            16 => simulate::<16>(self, opts),
            n => Err(mismatch(
                0,
                format!("no controller instance with {n} banks"),
            )),
        }
    }

    fn verilog(&self) -> Result<String, String> {
        let phase = phase(&self.part, self.kind);
        match self.part.banks {
            8 => verilog::<8>(&self.part, phase),
            16 => verilog::<16>(&self.part, phase),
            n => Err(format!("no controller instance with {n} banks")),
        }
    }

    fn lint_waivers(&self) -> &'static [Waiver] {
        &WAIVERS
    }

    /// Yosys' `share` pass spends 277 of the default script's 321 s on the x16 controller to
    /// save 103 of its 37,161 cells (0.3 %); without it the synthesis takes 44 s.
    fn synth_script(&self) -> SynthScript {
        SynthScript::FlatNoShare
    }
}

fn verilog<const NB: usize>(part: &Part, phase: u16) -> Result<String, String> {
    verilog_of(&mut DramCtrl::<NB>::new(part, phase))
}

/// Cycles the model needs for the sequence (the RTL must take exactly as many), plus a tail
/// that lets the last data burst and the refresh show.
fn cycles_needed(part: &Part, phase: u16, reqs: &[Request]) -> Result<u64, String> {
    let mut model = DramModel::new(*part, phase);
    let run = super::run::run(&mut model, part, phase, reqs, 40, 2_000_000)?;
    Ok(run.cycles)
}

fn simulate<const NB: usize>(tb: &DramTb, opts: &TbOptions) -> Result<TbRun, TbError> {
    let phase = phase(&tb.part, tb.kind);
    let reqs = requests(tb.kind, opts.seed, opts.cycles);
    let window = (tb.kind == Kind::Read4k).then_some(330);
    let (mut run, done) = simulate_requests::<NB>(tb.name, &tb.part, phase, &reqs, opts, window)?;
    if tb.kind == Kind::Read4k {
        check_4k(&tb.part, done[0].lid).map_err(|e| mismatch(run.cycles, e))?;
    }
    let lids: Vec<String> = done
        .iter()
        .map(|c| {
            if c.error {
                "bad".into()
            } else {
                c.lid.to_string()
            }
        })
        .collect();
    run.summary = format!("{}; LIDs {}", run.summary, lids.join(" "));
    Ok(run)
}

/// Runs `reqs` on the RTL (VCD scope and file name `name`) beside the model: RTL == model
/// every cycle, every command through the DDR4 checker. Returns the run and the completions.
pub fn simulate_requests<const NB: usize>(
    name: &str,
    part: &Part,
    phase: u16,
    reqs: &[Request],
    opts: &TbOptions,
    window: Option<u64>,
) -> Result<(TbRun, Vec<Completion>), TbError> {
    let n = cycles_needed(part, phase, reqs).map_err(|e| mismatch(0, e))?;
    let mut model = DramModel::new(*part, phase);
    let mut feeder = Feeder::new(reqs);
    let mut check = checker(part, phase).map_err(|e| mismatch(0, e))?;
    let mut commands = 0u64;
    // Cycle 0 resets the RTL (its refresh counter loads the phase); model cycle t = RTL t + 1.
    let mut run = drive(
        DramCtrl::<NB>::new(part, phase),
        name,
        |u| &mut u.clock,
        opts,
        n + 1,
        |h, k| {
            if k == 0 {
                let reset = DramIn {
                    reset: true,
                    ..DramIn::default()
                };
                h.cycle(|u| rtl::apply(u, &reset), |_| ())?;
                return Ok(Some("reset".into()));
            }
            let t = k - 1;
            let inp = feeder.input();
            let got = h.cycle(|u| rtl::apply(u, &inp), rtl::read)?;
            let want = model.step(&inp);
            if got != want {
                return Err(mismatch(k, format!("RTL {got:?}, model {want:?}")));
            }
            if let Some(tc) = trace_cmd(t, &got) {
                check
                    .check(&tc)
                    .map_err(|v| mismatch(k, format!("DDR4 timing violation: {v}")))?;
                commands += 1;
            }
            feeder.observe(t, &inp, &got);
            Ok(label(&inp, &got))
        },
        || layout(name, part, NB, window),
    )?;
    if !feeder.finished() {
        return Err(mismatch(n, "the requests did not all complete".into()));
    }
    run.summary = format!(
        "{} requests, {commands} commands, RTL == model every cycle, no DDR4 timing violation",
        reqs.len()
    );
    Ok((run, feeder.completions))
}

/// The 4 KiB read's LID never exceeds Eq. 15 for 64 bursts plus the front-end latency.
fn check_4k(part: &Part, lid: u32) -> Result<(), String> {
    let bound = super::bound::tid(part, false, 64) + super::bound::FRONT_END;
    if lid > bound {
        return Err(format!(
            "4 KiB read LID {lid} exceeds Eq. 15 + front-end = {bound}"
        ));
    }
    Ok(())
}

/// A waveform marker: acceptance, completion, refresh.
fn label(inp: &DramIn, o: &rtgpu_hw::dram::model::DramOut) -> Option<String> {
    if o.done {
        return Some(if o.done_error {
            format!("done #{} (bad request)", o.done_tag)
        } else {
            format!("done #{} LID {}", o.done_tag, o.done_lid)
        });
    }
    if inp.req_valid && o.req_ready {
        return Some(format!("request #{}", inp.req_tag));
    }
    (o.cmd == Command::Ref).then(|| "REF".to_string())
}

/// The waveform: request, command bus, data bus, refresh, then per bank its FIFO, state
/// and timing bounds.
fn layout(n: &str, part: &Part, banks: usize, window: Option<u64>) -> Gtkw {
    let p = |s: &str| format!("{n}.{s}");
    let top = |v: &[(&str, Option<Format>)]| {
        v.iter()
            .map(|(s, f)| (p(s), *f))
            .collect::<Vec<(String, Option<Format>)>>()
    };
    let request = top(&[
        ("req_valid", None),
        ("req_ready", None),
        ("req_write", None),
        ("req_indexed", None),
        ("req_addr", Some(Format::Hex)),
        ("req_words", Some(Format::Dec)),
        ("req_period", Some(Format::Dec)),
        ("req_count", Some(Format::Dec)),
        ("fe.burst_valid", None),
        ("fe.burst", Some(Format::Hex)),
        ("fe.burst_words", Some(Format::Hex)),
        ("gen.accept", None),
        ("req.busy_r.q", None),
        ("done", None),
        ("done_lid", Some(Format::Dec)),
    ]);
    let command = top(&[
        ("cmd", Some(Format::Named("cmd"))),
        ("cmd_bg", Some(Format::Dec)),
        ("cmd_bank", Some(Format::Dec)),
        ("cmd_row", Some(Format::Hex)),
        ("cmd_col", Some(Format::Dec)),
        ("arb.cur_pair.q", Some(Format::Dec)),
    ]);
    let data = top(&[
        ("dq_valid", None),
        ("dq_write", None),
        ("dq_bg", Some(Format::Dec)),
        ("dq_bank", Some(Format::Dec)),
        ("dq_col", Some(Format::Dec)),
        ("dq_beat", Some(Format::Dec)),
        ("dq_mask", Some(Format::Bin)),
    ]);
    let refresh = top(&[
        ("ref_owed", Some(Format::Dec)),
        ("rank.ref_cnt.q", Some(Format::Dec)),
        ("rank.rfc.q", Some(Format::Dec)),
    ]);
    let mut g = Gtkw::new(&format!(
        "rtgpu {n}: the Sim-D DRAM controller (hw/src/dram/), {}",
        part.name
    ))
    .names("cmd", &named(&Command::ALL.map(Command::name)))
    .names(
        "step",
        &named(&["-", "PRE(close)", "PRE(pre)", "ACT", "CAS"]),
    )
    .group("request and front-end", &as_refs(&request))
    .group("command bus", &as_refs(&command))
    .group("data bus (DQ scheduler)", &as_refs(&data))
    .group("refresh", &as_refs(&refresh));
    if let Some(w) = window {
        g = g.window(w * TB_PERIOD_PS);
    }
    for b in 0..banks {
        let traces = [
            ("len", Some(Format::Dec)),
            ("step", Some(Format::Named("step"))),
            ("legal", None),
            ("open", None),
            ("row_r.q", Some(Format::Hex)),
            ("act_wait", Some(Format::Dec)),
            ("cas_w.q", Some(Format::Dec)),
            ("pre_w.q", Some(Format::Dec)),
        ]
        .map(|(s, f)| (format!("{n}.banks${b}.{s}"), f));
        let bg = b % part.bank_groups as usize;
        g = g.group(
            &format!(
                "bank {b} (bank group {bg}, bank {})",
                b / part.bank_groups as usize
            ),
            &as_refs(&traces),
        );
    }
    g
}
