//! Testbenches of the warp scheduler (`hw/src/sched/`): `sched` drives random eligible and
//! present masks and GTO age ranks through 64 warps under the three policies; `sched-example` runs the paper's
//! Fig. 3 block (two warps of the Fig. 2 kernel) on the SM issue model with this RTL as its
//! scheduler (ages `age[w] = w`: the lowest index is the oldest). Both compare every grant with
//! the SM model's behavioural scheduler, written independently from Accel-Sim's GTO/LRR
//! definitions and the reordering paper's pure round-robin.

use super::{drive, same, BlockTb, TbError, TbOptions, TbRun, TB_PERIOD_PS};
use crate::oracle::sm::{simulate, CycleTrace, Policy, PolicyScheduler, Scheduler};
use crate::sim::cosim::verilog_of;
use crate::sim::waves::{Format, Gtkw};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rtgpu_hw::hdl::k;
pub use rtgpu_hw::sched::model::SchedIn;
use rtgpu_hw::sched::model::MAX_WARPS;
use rtgpu_hw::sched::WarpScheduler;
use rtgpu_wcet::trace::{Block, DynInst, HwDesc};
use rust_hdl::prelude::*;

/// Warps of the random testbench (the block's maximum).
pub const RANDOM_WARPS: usize = 64;

/// The `sched` testbench.
pub struct SchedTb;

/// The reference: the SM model's behavioural scheduler ([`PolicyScheduler::grant_rr`] with
/// the cycle's present mask and age ranks), rebuilt at each reset.
pub struct Reference {
    warps: usize,
    policy: Policy,
    sched: PolicyScheduler,
}

impl Reference {
    /// A reference for `warps` warps under `policy`.
    pub fn new(warps: usize, policy: Policy) -> Self {
        Self {
            warps,
            policy,
            sched: PolicyScheduler::new(policy, warps),
        }
    }

    /// The grant of a cycle (and the state update of its edge); a reset edge restarts it.
    /// The policy may change only in the first cycle after a reset (or at the start).
    pub fn step(&mut self, inp: &SchedIn) -> Option<usize> {
        let policy = inp.policy();
        if policy != self.policy {
            self.policy = policy;
            self.sched = PolicyScheduler::new(policy, self.warps);
        }
        let grant = self
            .sched
            .grant_rr(inp.eligible, inp.present, |w| u64::from(inp.age[w]));
        if inp.reset {
            self.sched = PolicyScheduler::new(policy, self.warps);
        }
        grant
    }
}

/// Drives the scheduler's inputs (`age[w]` for the block's warps `0..W`).
pub fn apply<const W: usize>(u: &mut WarpScheduler<W>, inp: &SchedIn) {
    u.reset.next = inp.reset;
    u.gto.next = inp.gto;
    u.rr.next = inp.rr;
    u.eligible.next = (inp.eligible & low_bits(W)).to_bits();
    u.present.next = (inp.present & low_bits(W)).to_bits();
    for (port, &a) in u.age.iter_mut().zip(&inp.age) {
        port.next = a.to_bits();
    }
}

/// The classic ages: warp w has rank w (GTO's oldest is the lowest eligible index).
pub fn index_ages() -> [u8; MAX_WARPS] {
    std::array::from_fn(|w| w as u8)
}

/// The RTL's grant.
pub fn read_grant<const W: usize>(u: &WarpScheduler<W>) -> Option<usize> {
    u.grant_valid.val().then(|| u.grant.val().index())
}

fn low_bits(n: usize) -> u64 {
    if n >= 64 {
        u64::MAX
    } else {
        (1 << n) - 1
    }
}

/// Random GTO age ranks for 64 warps: by index, a permutation, ranks with ties, or few
/// distinct ranks (many ties, broken by index).
fn random_ages(rng: &mut ChaCha8Rng) -> [u8; MAX_WARPS] {
    let mut age = index_ages();
    match rng.gen_range(0..4) {
        0 => {}
        1 => {
            for w in (1..MAX_WARPS).rev() {
                age.swap(w, rng.gen_range(0..=w));
            }
        }
        2 => age.iter_mut().for_each(|a| *a = rng.gen_range(0..64)),
        _ => age.iter_mut().for_each(|a| *a = rng.gen_range(0..4)),
    }
    age
}

/// Random stimulus: segments of one policy separated by resets; masks sparse, dense, single
/// warps, empty, and runs where the same mask repeats (GTO's greed, LRR's rotation); present
/// masks that add stalled warps to the eligible ones (pure RR waits on them); age ranks
/// redrawn now and then (the oldest warp moves while GTO runs).
fn stimulus(
    k: u64,
    rng: &mut ChaCha8Rng,
    policy_now: &mut Policy,
    held: &mut u64,
    ages: &mut [u8; MAX_WARPS],
) -> SchedIn {
    // The policy changes only in the cycle after a reset (the model restarts then).
    let reset = k == 0 || rng.gen_ratio(1, 200);
    let policy = *policy_now;
    if reset {
        *policy_now = Policy::ALL[rng.gen_range(0..Policy::ALL.len())];
    }
    if k == 0 || rng.gen_ratio(1, 40) {
        *ages = random_ages(rng);
    }
    if rng.gen_ratio(1, 3) {
        *held = match rng.gen_range(0..6) {
            0 => 0,
            1 => 1 << rng.gen_range(0..64),
            2 => rng.gen::<u64>() & rng.gen::<u64>() & rng.gen::<u64>(),
            3 => !(1u64 << rng.gen_range(0..64)),
            _ => rng.gen(),
        };
    }
    let stalled = match rng.gen_range(0..3) {
        0 => 0,
        1 => rng.gen::<u64>() & rng.gen::<u64>(),
        _ => rng.gen(),
    };
    let mut inp = SchedIn {
        reset,
        eligible: *held,
        present: *held | stalled,
        age: *ages,
        ..SchedIn::default()
    };
    inp.set_policy(policy);
    inp
}

fn layout(name: &str) -> Gtkw {
    let p = |s: &str| format!("{name}.{s}");
    let (reset, gto, rr, eligible, present, valid, grant, last, last_valid) = (
        p("reset"),
        p("gto"),
        p("rr"),
        p("eligible"),
        p("present"),
        p("grant_valid"),
        p("grant"),
        p("last"),
        p("last_valid"),
    );
    Gtkw::new(&format!("rtgpu {name}: the warp scheduler (hw/src/sched/)"))
        .window(60 * TB_PERIOD_PS)
        .group(
            "inputs",
            &[
                (reset.as_str(), None),
                (gto.as_str(), None),
                (rr.as_str(), None),
                (eligible.as_str(), Some(Format::Hex)),
                (present.as_str(), Some(Format::Hex)),
            ],
        )
        .group(
            "grant",
            &[
                (valid.as_str(), None),
                (grant.as_str(), Some(Format::Dec)),
                (last.as_str(), Some(Format::Dec)),
                (last_valid.as_str(), None),
            ],
        )
}

impl BlockTb for SchedTb {
    fn name(&self) -> &'static str {
        "sched"
    }

    fn description(&self) -> &'static str {
        "warp scheduler, 64 warps: random eligible/present masks and age ranks under GTO, LRR and pure RR, grant == SM model's scheduler every cycle"
    }

    fn run(&self, opts: &TbOptions) -> Result<TbRun, TbError> {
        let mut rng = ChaCha8Rng::seed_from_u64(opts.seed);
        let (mut policy, mut held, mut ages) = (Policy::Lrr, 0u64, index_ages());
        let mut model = Reference::new(RANDOM_WARPS, Policy::Lrr);
        let mut grants = 0u64;
        let mut run = drive(
            WarpScheduler::<RANDOM_WARPS>::default(),
            self.name(),
            |u| &mut u.clock,
            opts,
            opts.cycles,
            |h, k| {
                let inp = stimulus(k, &mut rng, &mut policy, &mut held, &mut ages);
                let got = h.cycle(|u| apply(u, &inp), read_grant)?;
                same(k, &got, &model.step(&inp))?;
                grants += u64::from(got.is_some());
                Ok(None)
            },
            || layout(self.name()),
        )?;
        run.summary = format!(
            "{} cycles, {grants} grants, RTL == model every cycle",
            opts.cycles
        );
        Ok(run)
    }

    fn verilog(&self) -> Result<String, String> {
        verilog_of(&mut WarpScheduler::<RANDOM_WARPS>::default())
    }
}

/// The RTL scheduler as the SM issue model's [`Scheduler`]: each `grant` call is one clock
/// cycle of the block in the harness (so the model's issue stage runs on the real RTL).
pub struct RtlScheduler<const W: usize> {
    harness: crate::sim::harness::Harness<WarpScheduler<W>>,
    policy: Policy,
    /// A harness failure, kept for the caller (the trait's `grant` cannot return it).
    pub error: Option<crate::sim::harness::HarnessError>,
}

impl<const W: usize> RtlScheduler<W> {
    /// A fresh scheduler block under `policy`, on a 1 GHz clock (pure RR sees present =
    /// eligible here: the SM model has no present mask).
    pub fn new(policy: Policy) -> Result<Self, crate::sim::harness::HarnessError> {
        let mut harness =
            crate::sim::harness::Harness::new(WarpScheduler::<W>::default(), "sched")?;
        let period = crate::sim::clock::Period::ps(TB_PERIOD_PS)
            .map_err(crate::sim::harness::HarnessError::Setup)?;
        harness.add_clock("clock", period, |u| &mut u.clock)?;
        Ok(Self {
            harness,
            policy,
            error: None,
        })
    }
}

impl<const W: usize> Scheduler for RtlScheduler<W> {
    fn grant(&mut self, eligible: u64) -> Option<usize> {
        let mut inp = SchedIn {
            eligible,
            present: eligible,
            age: index_ages(),
            ..SchedIn::default()
        };
        inp.set_policy(self.policy);
        match self.harness.cycle(|u| apply(u, &inp), read_grant) {
            Ok(g) => g,
            Err(e) => {
                self.error = Some(e);
                None
            }
        }
    }
}

/// The scheduler with probe ports for the example's waveform: the SM model's per-unit
/// initiation state goes in on `fu_busy` and comes out unchanged on `unit_busy`, so the VCD
/// shows it beside the grants.
#[derive(LogicBlock)]
pub struct SchedProbe<const W: usize, const F: usize> {
    /// Core clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset of the scheduler.
    pub reset: Signal<In, Bit>,
    /// Policy: 0 = LRR, 1 = GTO.
    pub gto: Signal<In, Bit>,
    /// Bit w: warp w can issue this cycle.
    pub eligible: Signal<In, Bits<W>>,
    /// Probe in: bit f = functional unit f is initiating this cycle (from the SM model).
    pub fu_busy: Signal<In, Bits<F>>,
    /// A warp is granted.
    pub grant_valid: Signal<Out, Bit>,
    /// The granted warp.
    pub grant: Signal<Out, Bits<6>>,
    /// The last granted warp.
    pub last: Signal<Out, Bits<6>>,
    /// Some warp was granted since reset.
    pub last_valid: Signal<Out, Bit>,
    /// Probe out: `fu_busy`.
    pub unit_busy: Signal<Out, Bits<F>>,
    /// The scheduler.
    sched: WarpScheduler<W>,
    /// Warp indices: the scheduler's ages (the lowest index is the oldest).
    index_of: [Constant<Bits<6>>; W],
}

impl<const W: usize, const F: usize> Default for SchedProbe<W, F> {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            gto: Default::default(),
            eligible: Default::default(),
            fu_busy: Default::default(),
            grant_valid: Default::default(),
            grant: Default::default(),
            last: Default::default(),
            last_valid: Default::default(),
            unit_busy: Default::default(),
            sched: Default::default(),
            index_of: std::array::from_fn(|w| k(w as u64)),
        }
    }
}

impl<const W: usize, const F: usize> Logic for SchedProbe<W, F> {
    #[hdl_gen]
    fn update(&mut self) {
        self.sched.clock.next = self.clock.val();
        self.sched.reset.next = self.reset.val();
        self.sched.gto.next = self.gto.val();
        self.sched.rr.next = false;
        self.sched.eligible.next = self.eligible.val();
        self.sched.present.next = self.eligible.val();
        for w in 0..W {
            self.sched.age[w].next = self.index_of[w].val();
        }
        self.grant_valid.next = self.sched.grant_valid.val();
        self.grant.next = self.sched.grant.val();
        self.last.next = self.sched.last.val();
        self.last_valid.next = self.sched.last_valid.val();
        self.unit_busy.next = self.fu_busy.val();
    }
}

/// The `sched-example` testbench: Fig. 3 of the paper under GTO.
pub struct SchedExampleTb;

/// The paper's Fig. 2 kernel (Example 1) on its three units (one opcode class per unit,
/// [`HwDesc::from_costs`]: class `fuN` on unit N), and the Fig. 3 block of two warps.
pub fn fig3_block() -> (Block, HwDesc) {
    let hw = HwDesc::from_costs(&[(2, 6), (3, 4), (2, 4)]);
    let warp = vec![
        DynInst::new(0, &[], Some(0)),
        DynInst::new(1, &[], Some(1)),
        DynInst::new(1, &[], Some(2)),
        DynInst::new(2, &[0], Some(3)),
    ];
    (vec![warp.clone(), warp], hw)
}

/// Example warps and units.
const EX_WARPS: usize = 2;
const EX_FUS: usize = 3;

fn busy_bits(t: &CycleTrace) -> u64 {
    t.initiating
        .iter()
        .enumerate()
        .filter(|(_, w)| w.is_some())
        .map(|(f, _)| 1u64 << f)
        .sum()
}

fn example_layout(name: &str) -> Gtkw {
    let p = |s: &str| format!("{name}.{s}");
    let names = [
        "gto",
        "eligible",
        "grant_valid",
        "grant",
        "last",
        "unit_busy",
        "last_valid",
    ]
    .map(p);
    Gtkw::new(&format!(
        "rtgpu {name}: two warps of the Fig. 2 kernel under GTO (issue, grant, units initiating)"
    ))
    .group(
        "issue stage",
        &[
            (names[0].as_str(), None),
            (names[1].as_str(), Some(Format::Bin)),
            (names[2].as_str(), None),
            (names[3].as_str(), Some(Format::Dec)),
            (names[4].as_str(), Some(Format::Dec)),
            (names[6].as_str(), None),
        ],
    )
    .group(
        "functional units",
        &[(names[5].as_str(), Some(Format::Bin))],
    )
}

impl BlockTb for SchedExampleTb {
    fn name(&self) -> &'static str {
        "sched-example"
    }

    fn description(&self) -> &'static str {
        "warp scheduler in the SM issue model: Fig. 3 (2 warps of the Fig. 2 kernel) under GTO, block time 17, grant == model every cycle"
    }

    fn run(&self, opts: &TbOptions) -> Result<TbRun, TbError> {
        let (block, hw) = fig3_block();
        let mut model = PolicyScheduler::new(Policy::Gto, EX_WARPS);
        let sm = simulate(&block, &hw, &mut model).map_err(|e| TbError::Mismatch {
            cycle: 0,
            detail: format!("the SM model failed: {e}"),
            waves: None,
        })?;
        let trace = sm.cycles.clone();
        // After the block: nothing eligible, nothing granted (runs honour `--cycles`).
        let cycles = opts.cycles.max(trace.len() as u64);
        let idle = CycleTrace {
            cycle: 0,
            eligible: 0,
            granted: None,
            initiating: vec![None; EX_FUS],
            dispatched: vec![None; EX_FUS],
            barrier_wait: 0,
            release: false,
        };
        let mut run = drive(
            SchedProbe::<EX_WARPS, EX_FUS>::default(),
            self.name(),
            |u| &mut u.clock,
            opts,
            cycles,
            |h, k| {
                let t = trace.get(k as usize).unwrap_or(&idle);
                let got = h.cycle(
                    |u| {
                        u.gto.next = true;
                        u.eligible.next = t.eligible.to_bits();
                        u.fu_busy.next = busy_bits(t).to_bits();
                    },
                    |u| u.grant_valid.val().then(|| u.grant.val().index()),
                )?;
                same(k, &got, &t.granted)?;
                Ok(got.map(|w| format!("w{w} issues")))
            },
            || example_layout(self.name()).window(trace.len() as u64 * TB_PERIOD_PS),
        )?;
        run.summary = format!(
            "{cycles} cycles, block time {} (paper: 17 under GTO), RTL grant == model every cycle",
            sm.block_time
        );
        Ok(run)
    }

    fn verilog(&self) -> Result<String, String> {
        verilog_of(&mut SchedProbe::<EX_WARPS, EX_FUS>::default())
    }
}
