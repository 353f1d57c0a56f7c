//! The issue control block against the behavioural compute unit: a kernel runs on the
//! compute unit with idle skipping off and its issue probe on
//! ([`rtgpu_hw::cu::issue_trace`]); each unit's samples become the block's inputs, cycle by
//! cycle (the events — starts, stops, barrier releases, memory returns — read from how each
//! context changed between the unit's issue in one cycle and its scan in the next), and the
//! block (model or RTL) must grant the context the compute unit granted, name the stall
//! reason it counted, and hold the counters the compute unit held, every cycle.

use rtgpu_firmware::driver::{self, Driver, LaunchDesc};
use rtgpu_firmware::isa::assemble;
use rtgpu_firmware::launch::{Image, KernelMeta};
use rtgpu_hw::cu::issue_trace::{CtxSnap, IssueSample};
use rtgpu_hw::cu::{ComputeUnit, CuConfig, Mode};
use rtgpu_hw::gpu::Gpu;
use rtgpu_hw::issue::{CtxIn, CtxState, IssueCfg, IssueIn, IssueOut};
use rtgpu_hw::sched::model::Policy;
use std::collections::BTreeMap;

/// A kernel run the block is checked on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Case {
    /// The kernel (`firmware/kernels/NAME.s`).
    pub kernel: &'static str,
    /// Split mode.
    pub mode: Mode,
    /// SpSIMDs per SIMD (PWS).
    pub s: u32,
    /// Scheduler.
    pub policy: Policy,
}

/// The kernels' sources, by name.
const KERNELS: [(&str, &str); 4] = [
    (
        "vector_add",
        include_str!("../../../../firmware/kernels/vector_add.s"),
    ),
    (
        "fig2_divergent",
        include_str!("../../../../firmware/kernels/fig2_divergent.s"),
    ),
    ("loop", include_str!("../../../../firmware/kernels/loop.s")),
    (
        "lds_reduce",
        include_str!("../../../../firmware/kernels/lds_reduce.s"),
    ),
];

/// The checked runs: four kernels (`fig2_divergent` under PWS with S = 1) under pure
/// round-robin and GTO.
pub fn cases() -> Vec<Case> {
    let mut v = Vec::new();
    for policy in [Policy::Rr, Policy::Gto] {
        for (kernel, _) in KERNELS {
            let (mode, s) = match kernel {
                "fig2_divergent" => (Mode::Pws, 1),
                _ => (Mode::NoSplit, 1),
            };
            v.push(Case {
                kernel,
                mode,
                s,
                policy,
            });
        }
    }
    v
}

/// Runs `case` on the behavioural compute unit (default configuration, idle skipping off)
/// and returns its issue samples.
pub fn record(case: &Case) -> Result<Vec<IssueSample>, String> {
    let mut gpu = run(case, CuConfig::default(), &|cu| {
        cu.set_skip_idle(false);
        cu.issue_trace = Some(Vec::new());
    })?;
    Ok(gpu.cu_mut().issue_trace.take().unwrap_or_default())
}

/// Runs `case` on the behavioural compute unit of configuration `cfg`, `prepare` applied to
/// it before the launch (a probe or a log to switch on); the GPU after the run.
pub fn run(case: &Case, cfg: CuConfig, prepare: &dyn Fn(&mut ComputeUnit)) -> Result<Gpu, String> {
    let text = KERNELS
        .iter()
        .find(|(n, _)| *n == case.kernel)
        .ok_or_else(|| format!("unknown kernel {}", case.kernel))?
        .1;
    let code = assemble(text, case.kernel)
        .map_err(|e| e.to_string())?
        .words();
    let meta = KernelMeta::parse(text).map_err(|e| e.to_string())?;
    let image = Image::build(&meta.args, meta.dims, 1);
    let mut gpu = Gpu::new(cfg)?;
    prepare(gpu.cu_mut());
    let mut drv = Driver::new(gpu).map_err(|e| e.to_string())?;
    let desc = LaunchDesc::new(
        image.kernarg,
        meta.dims,
        meta.lds,
        case.mode,
        case.s,
        case.policy,
    );
    let out = driver::run(&mut drv, &code, &image, desc, 10_000_000).map_err(|e| e.to_string())?;
    out.result.map_err(|e| format!("{}: {e}", case.kernel))?;
    Ok(drv.into_bus())
}

/// The samples of each (group, unit), in cycle order.
pub fn by_unit(samples: Vec<IssueSample>) -> BTreeMap<(u8, u8), Vec<IssueSample>> {
    let mut m: BTreeMap<(u8, u8), Vec<IssueSample>> = BTreeMap::new();
    for s in samples {
        m.entry((s.group, s.unit)).or_default().push(s);
    }
    m
}

/// The block's static configuration for the compute unit's default latencies and `policy`.
pub fn config(policy: Policy) -> Result<IssueCfg, String> {
    let lat = CuConfig::default().lat;
    let b = |v: u32| u8::try_from(v).map_err(|_| format!("issue period {v} > 255"));
    let w = |v: u32| u16::try_from(v).map_err(|_| format!("latency {v} > 65535"));
    Ok(IssueCfg {
        gto: policy == Policy::Gto,
        rr: policy == Policy::Rr,
        lat_salu: w(lat.salu)?,
        lat_valu: w(lat.valu)?,
        lat_branch: w(lat.branch)?,
        issue_period: b(lat.issue_period)?,
        split_on: false,
    })
}

/// One context's events between `prev` (after the unit's issue last cycle) and `now` (before
/// its scan this cycle); an error if a counter rose without an issue.
fn events(prev: &CtxSnap, now: &CtxSnap) -> Result<CtxIn, String> {
    let start = prev.serial != now.serial;
    let ret = |a: u32, b: u32| match start {
        true => Ok(0),
        false => a
            .checked_sub(b)
            .and_then(|d| u8::try_from(d).ok())
            .ok_or_else(|| format!("a counter went from {a} to {b} without an issue")),
    };
    Ok(CtxIn {
        start,
        stop: !start && prev.live && !now.live,
        release: !start && prev.barrier && !now.barrier,
        vm_ret: ret(prev.vmcnt, now.vmcnt)?,
        lgkm_ret: ret(prev.lgkmcnt, now.lgkmcnt)?,
        ..CtxIn::default()
    })
}

/// The block's inputs of sample `s`, the unit's previous sample being `prev`.
pub fn inputs(
    cfg: IssueCfg,
    prev: Option<&IssueSample>,
    s: &IssueSample,
) -> Result<IssueIn, String> {
    let mut ctx = Vec::with_capacity(s.slots.len());
    for (c, v) in s.slots.iter().enumerate() {
        let before = prev.map_or(CtxSnap::default(), |p| p.slots[c].after);
        ctx.push(CtxIn {
            hold: v.hold,
            gport_free: v.gport_free,
            unit: v.unit,
            opcode: v.opcode,
            imm: v.imm,
            illegal: v.illegal,
            state: v.state,
            age: v.age,
            ..events(&before, &v.before)?
        });
    }
    let idu_wait = s
        .grant
        .map_or(0, |g| s.slots[g].after.wait.min(u64::from(u16::MAX)) as u16);
    Ok(IssueIn {
        reset: false,
        cfg: IssueCfg {
            split_on: s.split_on,
            ..cfg
        },
        pipe_mem: s.pipes[0],
        pipe_lds: s.pipes[1],
        port_free: s.port_free,
        // (The unit's pipes and port as the compute unit saw them at its visit: what the
        // units visited before it took is in them.)
        o_mem: false,
        o_lds: false,
        o_port: false,
        taken: Default::default(),
        idu_on: s.idu_ok.is_some(),
        idu_ok: s.idu_ok.unwrap_or(false),
        idu_wait,
        ctx,
    })
}

/// Whether the block's outputs `o` are the compute unit's decision and state in sample `s`;
/// the difference as an error.
pub fn agrees(s: &IssueSample, o: &IssueOut) -> Result<(), String> {
    let grant = o.grant_valid.then_some(usize::from(o.grant));
    if grant != s.grant {
        return Err(format!("grant {grant:?}, the compute unit {:?}", s.grant));
    }
    if s.grant.is_none() && s.stall != Some(o.stall) {
        return Err(format!("stall {}, the compute unit {:?}", o.stall, s.stall));
    }
    if u64::from(o.valu_busy) != s.valu_busy {
        return Err(format!(
            "valu_busy {}, the compute unit {}",
            o.valu_busy, s.valu_busy
        ));
    }
    for (c, (v, st)) in s.slots.iter().zip(&o.ctx).enumerate() {
        if *st != state_of(&v.before) {
            return Err(format!(
                "context {c}: {st:?}, the compute unit {:?}",
                v.before
            ));
        }
    }
    Ok(())
}

/// A snapshot as the block's state (counters saturated to the block's widths).
fn state_of(s: &CtxSnap) -> CtxState {
    CtxState {
        live: s.live,
        barrier: s.barrier,
        wait: s.wait.min(u64::from(u16::MAX)) as u16,
        vmcnt: s.vmcnt.min(255) as u8,
        lgkmcnt: s.lgkmcnt.min(255) as u8,
    }
}

/// What a replay checked.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Replayed {
    /// Unit-cycles compared.
    pub cycles: u64,
    /// Of those, cycles with a grant.
    pub grants: u64,
    /// Cycles without a grant, per stall reason.
    pub stalls: [u64; 6],
}

/// Replays one unit's samples through `step` (a block: the cycle's outputs, then its edge),
/// every cycle checked with [`agrees`]; the first difference as an error naming the cycle.
pub fn replay_unit(
    cfg: IssueCfg,
    samples: &[IssueSample],
    mut step: impl FnMut(&IssueIn) -> Result<IssueOut, String>,
) -> Result<Replayed, String> {
    let mut r = Replayed::default();
    let mut prev: Option<&IssueSample> = None;
    for s in samples {
        let i = inputs(cfg, prev, s)?;
        let o = step(&i)?;
        agrees(s, &o).map_err(|e| format!("cycle {} (g{} u{}): {e}", s.cycle, s.group, s.unit))?;
        r.cycles += 1;
        match s.grant {
            Some(_) => r.grants += 1,
            None => r.stalls[usize::from(o.stall.min(5))] += 1,
        }
        prev = Some(s);
    }
    Ok(r)
}
