//! Testbenches of the PWS split/merge unit (`hw/src/pws/`): the paper's Fig. 5 as a golden
//! sequence (`pws-fig5`), and random command streams in PWS and DWS mode at 64 lanes for
//! S = 1, 3, 7 (`pws-s1`, `pws-s3`, `pws-s7`). Every cycle: RTL == reference model, and the
//! split/merge invariants (Section 4.1 of the PWS paper) on the RTL's outputs.

mod invariants;
mod kernels;
mod stimulus;

use super::{drive, mismatch, BlockTb, TbError, TbOptions, TbRun, TB_PERIOD_PS};
use crate::bench::engines::{of_tb, EngineCycles};
use crate::bench::BenchRow;
use crate::sim::cosim::{verilog_of, Waiver};
use crate::sim::harness::HarnessError;
use crate::sim::waves::{as_refs, named, Format, Gtkw};
pub use invariants::{Coverage, Invariants};
use rtgpu_hw::pws::model::{CtxOut, GroupIn, GroupOut, ModelConfig, SimdGroupModel};
use rtgpu_hw::pws::{lane_mask, Cmd, ErrorCode, PwsParams, SimdGroup, State};
use rust_hdl::core::prelude::*;
use std::path::Path;
pub use stimulus::{
    command, family, fig5_expected, Fig5Stim, RandomStim, Script, Stimulus, FIG5_CYCLES,
};

/// Dispatches on the RTL shapes the testbenches instantiate (`LANES`, `UNITS`, `CTXS`).
macro_rules! by_shape {
    ($cfg:expr, $f:ident($($arg:expr),*)) => {
        match ($cfg.lanes, $cfg.units, $cfg.units * $cfg.n_wfc) {
            (4, 3, 3) => Ok($f::<4, 3, 3>($($arg),*)),
            (64, 2, 8) => Ok($f::<64, 2, 8>($($arg),*)),
            (64, 4, 24) => Ok($f::<64, 4, 24>($($arg),*)),
            (64, 8, 16) => Ok($f::<64, 8, 16>($($arg),*)),
            (l, u, c) => Err(format!(
                "no RTL instance of the PWS unit with {l} lanes, {u} units, {c} contexts \
                 (testbench/src/tb/pws.rs lists the shapes)"
            )),
        }
    };
}

/// Which stimulus a PWS testbench runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// The Fig. 5 sequence with its golden values.
    Fig5,
    /// Random commands (PWS and DWS), resets between segments.
    Random,
    /// The command streams of the compute unit running kernels (`kernels`).
    Kernels,
}

/// A PWS testbench: a block shape and a stimulus.
pub struct PwsTb {
    /// `rtgpu tb` name.
    pub name: &'static str,
    /// One line for `rtgpu list`.
    pub description: &'static str,
    /// The stimulus.
    pub kind: Kind,
    /// Lanes, units, N_WFC and the value parameters.
    pub config: ModelConfig,
}

/// `pws-fig5`: the paper's toy configuration (4 lanes, H = 2, 1 SIMD + 2 SpSIMDs, 1 slot).
pub const FIG5: PwsTb = PwsTb {
    name: "pws-fig5",
    description: "PWS unit, Fig. 5 of the paper (4 lanes, S = 2): nested split/merge, golden SpMs, stacks and cycles, RTL == model",
    kind: Kind::Fig5,
    config: ModelConfig {
        lanes: 4,
        units: 3,
        n_wfc: 1,
        params: PwsParams {
            half: 2,
            e_split: 4,
            e_merge: 2,
        },
    },
};

const fn random_tb(
    name: &'static str,
    description: &'static str,
    units: usize,
    n_wfc: usize,
) -> PwsTb {
    PwsTb {
        name,
        description,
        kind: Kind::Random,
        config: ModelConfig {
            lanes: 64,
            units,
            n_wfc,
            params: PwsParams {
                half: 32,
                e_split: 4,
                e_merge: 2,
            },
        },
    }
}

/// `pws-s1`: 64 lanes, two units (PWS at S = 1), N_WFC = 4; DWS segments take S in 0..=7, so
/// their splits can reach S live splits or the unit's free contexts.
pub const S1: PwsTb = random_tb(
    "pws-s1",
    "PWS unit, 64 lanes, S = 1, 4 slots: random PWS/DWS commands and errors, invariants, RTL == model",
    2,
    4,
);
/// `pws-s3`: 64 lanes, four units (PWS at S ≤ 3), N_WFC = 6; DWS segments take S in 0..=7.
pub const S3: PwsTb = random_tb(
    "pws-s3",
    "PWS unit, 64 lanes, S = 3, 6 slots: random PWS/DWS commands and errors, invariants, RTL == model",
    4,
    6,
);
/// `pws-kernels`: the shape of `pws-s3` driven by the compute unit running kernels.
pub const KERNELS: PwsTb = PwsTb {
    kind: Kind::Kernels,
    ..random_tb(
        "pws-kernels",
        "PWS unit, 64 lanes, S = 3, 6 slots: the compute unit's commands running fig5_nested and fig2_divergent (PWS) and synthetic (DWS), RTL == model",
        4,
        6,
    )
};
/// `pws-s7`: 64 lanes, S = 7, N_WFC = 2.
pub const S7: PwsTb = random_tb(
    "pws-s7",
    "PWS unit, 64 lanes, S = 7, 2 slots: random PWS/DWS commands and errors, invariants, RTL == model",
    8,
    2,
);

/// The 4-lane toy configuration (H = 2) takes lanes 0-1 from bits 0-1 and lanes 2-3 from bits
/// 32-33 of the 64-bit command mask; the assembled 64-bit mask's upper 60 bits have no lane.
/// (At 64 lanes every bit is used and the block lints clean without waivers.)
const TOY_WAIVERS: [Waiver; 1] = [Waiver {
    rule: "UNUSEDSIGNAL",
    signal: "m64",
    why: "4 lanes use 4 of the 64 bits of the assembled split mask",
}];

fn verilog_of_shape<const L: usize, const U: usize, const C: usize>(
    tb: &PwsTb,
) -> Result<String, String> {
    verilog_of(&mut SimdGroup::<L, U, C>::new(tb.config.params))
}

fn bench_shape<const L: usize, const U: usize, const C: usize>(
    tb: &PwsTb,
    n: EngineCycles,
    dir: &Path,
) -> Option<Result<Vec<BenchRow>, String>> {
    of_tb(
        tb,
        || SimdGroup::<L, U, C>::new(tb.config.params),
        |u| &mut u.clock,
        n,
        dir,
    )
}

impl BlockTb for PwsTb {
    fn synthesized_by(&self) -> Option<&'static str> {
        // The kernels' command streams drive the very unit of `pws-s3`; S = 3 and S = 7 are
        // the unit of `pws-s1` at other sizes.
        (self.name != S1.name && self.kind != Kind::Fig5).then_some(S1.name)
    }

    fn bench(&self, n: EngineCycles, dir: &Path) -> Option<Result<Vec<BenchRow>, String>> {
        by_shape!(self.config, bench_shape(self, n, dir)).unwrap_or_else(|e| Some(Err(e)))
    }

    fn name(&self) -> &'static str {
        self.name
    }

    fn description(&self) -> &'static str {
        self.description
    }

    fn run(&self, opts: &TbOptions) -> Result<TbRun, TbError> {
        let mut stim: Box<dyn Stimulus> = match self.kind {
            Kind::Fig5 => Box::new(Fig5Stim),
            Kind::Random => Box::new(RandomStim::new(self.config, opts.seed)),
            Kind::Kernels => Box::new(kernels::Replay(
                kernels::kernel_trace(self.config)
                    .map_err(|e| TbError::Harness(HarnessError::Setup(e)))?,
            )),
        };
        Ok(simulate(self, opts, stim.as_mut())?.run)
    }

    fn lint_waivers(&self) -> &'static [Waiver] {
        match self.kind {
            Kind::Fig5 => &TOY_WAIVERS,
            Kind::Random | Kind::Kernels => &[],
        }
    }

    fn verilog(&self) -> Result<String, String> {
        by_shape!(self.config, verilog_of_shape(self))?
    }
}

/// Drives the block's inputs for one cycle; values are cut to the ports' widths, as the
/// model cuts them.
pub(crate) fn apply<const L: usize, const U: usize, const C: usize>(
    u: &mut SimdGroup<L, U, C>,
    inp: &GroupIn,
    exec: &[u64],
) {
    u.reset.next = inp.reset;
    u.dws.next = inp.dws;
    u.watchdog.next = u64::from(inp.watchdog).to_bits();
    u.s.next = u64::from(inp.s & 7).to_bits();
    u.cmd.next = u64::from(inp.cmd & 7).to_bits();
    u.cmd_unit.next = u64::from(inp.cmd_unit & 7).to_bits();
    u.cmd_slot.next = u64::from(inp.cmd_slot & 15).to_bits();
    u.cmd_mask.next = inp.cmd_mask.to_bits();
    u.cmd_pc.next = u64::from(inp.cmd_pc).to_bits();
    for (port, &e) in u.exec.iter_mut().zip(exec) {
        port.next = (e & lane_mask(L)).to_bits();
    }
}

fn small<const N: usize>(b: Bits<N>) -> u8 {
    b.index() as u8
}

fn mask<const N: usize>(b: Bits<N>) -> u64 {
    b.to_u64()
}

/// The block's outputs as the model's type.
pub(crate) fn read_outputs<const L: usize, const U: usize, const C: usize>(
    u: &SimdGroup<L, U, C>,
) -> GroupOut {
    let ctx = (0..C)
        .map(|i| CtxOut {
            state: small(u.state[i].val()),
            spm: mask(u.spm[i].val()),
            eff: mask(u.eff[i].val()),
            parent_valid: u.parent_valid[i].val(),
            parent: small(u.parent[i].val()),
            sp: small(u.sp[i].val()),
            top: small(u.top[i].val()),
        })
        .collect();
    GroupOut {
        ctx,
        copy_valid: u.copy_valid.val(),
        copy_from: small(u.copy_from.val()),
        copy_to: small(u.copy_to.val()),
        split_denied: u.split_denied.val(),
        error: small(u.error.val()),
        error_ctx: small(u.error_ctx.val()),
    }
}

/// A waveform marker for what happens in a cycle.
fn marker(inp: &GroupIn, out: &GroupOut, units: usize) -> Option<String> {
    let ctx = |k: u8| format!("u{}/s{}", usize::from(k) % units, usize::from(k) / units);
    if out.copy_valid {
        return Some(format!(
            "split {} -> {}",
            ctx(out.copy_from),
            ctx(out.copy_to)
        ));
    }
    if out.error != 0 {
        return Some(format!("error {} at {}", out.error, ctx(out.error_ctx)));
    }
    let target = format!("u{}/s{}", inp.cmd_unit, inp.cmd_slot);
    match inp.cmd {
        c if c == Cmd::Dispatch as u8 => Some(format!("dispatch {target}")),
        c if c == Cmd::Merge as u8 => Some(format!("merge {target} @{:#x}", inp.cmd_pc)),
        c if c == Cmd::End as u8 => Some(format!("end {target}")),
        _ => None,
    }
}

/// What a PWS run leaves: the run, its coverage, and the RTL's outputs of every cycle.
pub struct PwsRun {
    /// The testbench run (waveform paths, summary).
    pub run: TbRun,
    /// What the run exercised.
    pub coverage: Coverage,
    /// The RTL's outputs, one entry per cycle.
    pub outputs: Vec<GroupOut>,
}

/// Runs `stim` on the RTL of `tb`'s shape with `tb`'s parameters: RTL == model and the
/// invariants every cycle, plus the stimulus' own checks.
pub fn simulate(tb: &PwsTb, opts: &TbOptions, stim: &mut dyn Stimulus) -> Result<PwsRun, TbError> {
    by_shape!(tb.config, simulate_shape(tb, opts, stim))
        .map_err(|e| TbError::Harness(HarnessError::Setup(e)))?
}

/// Runs a script (one input per cycle, EXEC = all lanes) without a waveform; see [`simulate`].
pub fn run_script(tb: &PwsTb, script: &[GroupIn]) -> Result<PwsRun, TbError> {
    let opts = TbOptions {
        cycles: script.len() as u64,
        ..TbOptions::default()
    };
    simulate(tb, &opts, &mut Script(script.to_vec()))
}

fn simulate_shape<const L: usize, const U: usize, const C: usize>(
    tb: &PwsTb,
    opts: &TbOptions,
    stim: &mut dyn Stimulus,
) -> Result<PwsRun, TbError> {
    let cycles = opts.cycles.max(stim.min_cycles());
    let mut model = SimdGroupModel::new(tb.config);
    let mut inv = Invariants::new(tb.config);
    let mut outputs = Vec::new();
    let run = drive(
        SimdGroup::<L, U, C>::new(tb.config.params),
        tb.name,
        |u| &mut u.clock,
        opts,
        cycles,
        |h, k| {
            let (inp, exec) = stim.next(k, &model);
            let got = h.cycle(|u| apply(u, &inp, &exec), read_outputs)?;
            if let Some(detail) = differences(&got, &model.outputs(&exec)) {
                return Err(mismatch(k, detail));
            }
            stim.check(k, &got).map_err(|detail| mismatch(k, detail))?;
            inv.check(&model, &got)
                .map_err(|detail| mismatch(k, detail))?;
            inv.observe(&inp, &got);
            model.clock(&inp);
            let label = marker(&inp, &got, U);
            outputs.push(got);
            Ok(label)
        },
        || layout(tb),
    )?;
    let summary = format!(
        "{cycles} cycles, RTL == model every cycle, invariants hold; {}",
        inv.summary()
    );
    Ok(PwsRun {
        run: TbRun { summary, ..run },
        coverage: inv.coverage().clone(),
        outputs,
    })
}

/// The fields where the RTL's outputs differ from the model's, or `None`.
fn differences(rtl: &GroupOut, model: &GroupOut) -> Option<String> {
    let mut out = Vec::new();
    for (k, (r, m)) in rtl.ctx.iter().zip(&model.ctx).enumerate() {
        if r != m {
            out.push(format!("context {k}: RTL {r:?}, model {m:?}"));
        }
    }
    let strip = |g: &GroupOut| GroupOut {
        ctx: Vec::new(),
        ..g.clone()
    };
    if strip(rtl) != strip(model) {
        out.push(format!("RTL {:?}, model {:?}", strip(rtl), strip(model)));
    }
    (!out.is_empty()).then(|| out.join("; "))
}

/// The waveform: commands, then per context its state and masks, then the strobes.
fn layout(tb: &PwsTb) -> Gtkw {
    let n = tb.name;
    let p = |s: &str| format!("{n}.{s}");
    let command = [
        ("reset", None),
        ("dws", None),
        ("s", Some(Format::Dec)),
        ("cmd", Some(Format::Named("cmd"))),
        ("cmd_unit", Some(Format::Dec)),
        ("cmd_slot", Some(Format::Dec)),
        // The toy configuration's command mask is two 32-bit operands, not one bit a lane.
        ("cmd_mask", Some(lane_or_hex(tb.config.lanes))),
        ("cmd_pc", Some(Format::Hex)),
    ]
    .map(|(s, f)| (p(s), f));
    let mut g = Gtkw::new(&format!(
        "rtgpu {n}: the PWS split/merge unit (hw/src/pws/)"
    ))
    .names(
        "cmd",
        &named(&["NONE", "DISPATCH", "SPLIT", "MERGE", "END"]),
    )
    .names("state", &named(&State::ALL.map(State::name)))
    .names("error", &named(&ErrorCode::ALL.map(ErrorCode::name)))
    .group("command", &as_refs(&command));
    if tb.kind == Kind::Fig5 {
        g = g.window(FIG5_CYCLES * TB_PERIOD_PS);
    }
    for k in 0..tb.config.units * tb.config.n_wfc {
        let traces = context_traces(n, k);
        let title = format!(
            "context {k}: unit {} slot {}",
            k % tb.config.units,
            k / tb.config.units
        );
        g = g.group(&title, &as_refs(&traces));
    }
    let events = [
        ("copy_valid", None),
        ("copy_from", Some(Format::Dec)),
        ("copy_to", Some(Format::Dec)),
        ("split_denied", None),
        ("error", Some(Format::Named("error"))),
        ("error_ctx", Some(Format::Dec)),
    ]
    .map(|(s, f)| (p(s), f));
    g.group("split/merge events", &as_refs(&events))
}

/// A command mask with one bit a lane (64 lanes) is drawn as a mask, else in hexadecimal.
fn lane_or_hex(lanes: usize) -> Format {
    if lanes == 64 {
        Format::Mask
    } else {
        Format::Hex
    }
}

fn context_traces(n: &str, k: usize) -> Vec<(String, Option<Format>)> {
    [
        ("state", Some(Format::Named("state"))),
        ("spm", Some(Format::Mask)),
        ("eff", Some(Format::Mask)),
        ("parent_valid", None),
        ("parent", Some(Format::Dec)),
        ("sp", Some(Format::Dec)),
        ("top", Some(Format::Dec)),
    ]
    .into_iter()
    .map(|(s, f)| (format!("{n}.{s}${k}"), f))
    .collect()
}
