//! The cycle harness: drives a rust-hdl block directly, single-threaded.
//!
//! rust-hdl's own `Simulation` runs testbenches in threads and is ~4000x slower
//! (docs/architecture.md). Here the testbench owns the block: it writes input
//! signals' `.next`, the harness moves the clocks and settles the block with rust-hdl's
//! `simulate` (a fixed-point loop over `update_all`).
//!
//! Time: every clock domain follows [`crate::sim::clock`]: cycle *k* of a domain begins with its
//! falling edge at k·P, where the testbench applies the cycle's inputs; the rising edge at
//! k·P + P/2 loads the registers. At one instant, rising edges are processed (and settled)
//! before cycle starts, so inputs computed at a cycle start see the state after every edge
//! of that instant.
//!
//! Recording: a VCD ([`VcdRecorder`]) and the root ports' vectors ([`PortVectors`], single
//! clock) can be switched on; when off they cost one branch per edge.

use crate::sim::clock::{EdgeTime, Period};
use crate::sim::ports::PortVectors;
use crate::sim::signals::{list_signals, SignalInfo};
use crate::sim::vl::{Engine, VlEngine, VlOptions, VlPorts};
use crate::sim::waves::scopes::resolve;
use crate::sim::waves::{VcdOptions, VcdRecorder};
use rust_hdl::core::prelude::*;
use rust_hdl::core::simulate::simulate;
use std::fmt;
use std::path::{Path, PathBuf};

/// How the harness reaches a domain's clock input in the block.
pub type ClockPin<B> = fn(&mut B) -> &mut Signal<In, Clock>;

/// A clock pin as the harness keeps it (a closure may pick one of an array of clocks).
type BoxedPin<B> = Box<dyn Fn(&mut B) -> &mut Signal<In, Clock> + Send>;

/// Clock domains a harness can hold (they are tracked in a 64-bit mask).
pub const MAX_DOMAINS: usize = 64;

/// Settling iterations before the harness declares a combinational loop.
const SETTLE_LIMIT: usize = 1000;

/// What went wrong in a run.
#[derive(Debug)]
pub enum HarnessError {
    /// The block did not settle at this time (a combinational loop or oscillation).
    NoConvergence {
        /// When, in ps.
        ps: u64,
    },
    /// `cycle` and port recording need exactly one clock domain.
    NotSingleClock {
        /// How many domains the harness has.
        domains: usize,
    },
    /// The harness was set up wrongly (too many domains, a clock added while recording ports,
    /// a port kind cosimulation cannot replay).
    Setup(String),
    /// Writing a waveform failed.
    Io(std::io::Error),
    /// The Verilator engine failed (a build error, a `$stop` or a crash in the model).
    Engine(String),
    /// A waveform scope asked for is not in the block (bad input: the message names the
    /// block's top-level scopes).
    Scope(String),
}

impl fmt::Display for HarnessError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NoConvergence { ps } => write!(
                f,
                "the block did not settle at {ps} ps after {SETTLE_LIMIT} iterations \
                 (combinational loop?)"
            ),
            Self::NotSingleClock { domains } => write!(
                f,
                "cycle() and port recording need exactly one clock domain, \
                 this harness has {domains}"
            ),
            Self::Setup(msg) => write!(f, "{msg}"),
            Self::Io(e) => write!(f, "waveform output failed: {e}"),
            Self::Engine(msg) | Self::Scope(msg) => write!(f, "{msg}"),
        }
    }
}

impl std::error::Error for HarnessError {}

impl From<std::io::Error> for HarnessError {
    fn from(e: std::io::Error) -> Self {
        Self::Io(e)
    }
}

/// The start of a cycle in one domain, as the testbench sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CycleStart {
    /// Index of the domain (order of [`Harness::add_clock`]).
    pub domain: usize,
    /// The cycle number in that domain.
    pub cycle: u64,
    /// Time of the cycle start, ps (rounded down).
    pub ps: u64,
}

struct Domain<B> {
    name: String,
    pin: BoxedPin<B>,
    next: EdgeTime,
}

/// What a finished run leaves behind.
pub struct Finished<B> {
    /// The block in its final state.
    pub uut: B,
    /// Time of the last edge processed, ps.
    pub end_ps: u64,
    /// The VCD written, with the signals it records.
    pub vcd: Option<(PathBuf, Vec<SignalInfo>)>,
    /// The port vectors recorded.
    pub vectors: Option<PortVectors>,
}

/// A whole cycle on the Verilator engine ([`VlEngine::cycle`]) for the block type.
type VlCycle<B> = fn(&mut VlEngine, &mut B, (u64, u64), &mut dyn FnMut(&B)) -> Result<(), String>;

/// The Verilator engine of a harness, with its settle and cycle functions for the block type.
struct Verilated<B> {
    engine: VlEngine,
    settle: fn(&mut VlEngine, &mut B, u64) -> Result<(), String>,
    cycle: VlCycle<B>,
    vcd: Option<PathBuf>,
}

/// A block under simulation.
pub struct Harness<B: Block> {
    /// On the heap: a block is a tree of signals (the 16-bank DRAM controller is ~300 kB), and a
    /// harness held by value is copied through the frames that build and return it, which
    /// overflowed a 2 MiB test thread's stack.
    uut: Box<B>,
    vl: Option<Verilated<B>>,
    root: String,
    domains: Vec<Domain<B>>,
    vcd: Option<VcdRecorder>,
    vectors: Option<PortVectors>,
    now_ps: u64,
    sequential_edges: bool,
}

impl<B: Block> Harness<B> {
    /// Takes `uut`, connects it and settles its initial state. `root` names its VCD scope.
    pub fn new(uut: B, root: &str) -> Result<Self, HarnessError> {
        let mut uut = Box::new(uut);
        uut.connect_all();
        if !simulate(&mut *uut, SETTLE_LIMIT) {
            return Err(HarnessError::NoConvergence { ps: 0 });
        }
        Ok(Self {
            uut,
            vl: None,
            root: root.to_string(),
            domains: Vec::new(),
            vcd: None,
            vectors: None,
            now_ps: 0,
            sequential_edges: false,
        })
    }

    /// Takes `uut` evaluated by `engine`: rust-hdl's settling loop ([`Harness::new`]) or its
    /// Verilated Verilog ([`VlEngine`], `opts` for its waveform). Testbenches drive and read the
    /// block the same way with either.
    pub fn with_engine(
        uut: B,
        root: &str,
        engine: Engine,
        opts: &VlOptions,
    ) -> Result<Self, HarnessError>
    where
        B: VlPorts,
    {
        if engine == Engine::Harness {
            return Self::new(uut, root);
        }
        let mut uut = Box::new(uut);
        let engine = VlEngine::new(&mut *uut, root, opts).map_err(HarnessError::Engine)?;
        let mut h = Self {
            uut,
            vl: Some(Verilated {
                engine,
                settle: |e, u, ps| e.settle(u, ps),
                cycle: |e, u, t, observe| e.cycle(u, t, observe),
                vcd: None,
            }),
            root: root.to_string(),
            domains: Vec::new(),
            vcd: None,
            vectors: None,
            now_ps: 0,
            sequential_edges: false,
        };
        h.settle()?;
        Ok(h)
    }

    /// Adds a clock domain driving the clock input `pin`; returns its index. At most
    /// [`MAX_DOMAINS`] domains, and none once port recording is on (it records one clock's
    /// cycles or several clocks' instants).
    pub fn add_clock(
        &mut self,
        name: &str,
        period: Period,
        pin: impl Fn(&mut B) -> &mut Signal<In, Clock> + Send + 'static,
    ) -> Result<usize, HarnessError> {
        self.add_domain(name, EdgeTime::first(period), Box::new(pin))
    }

    /// Like [`Harness::add_clock`], for a domain whose rising edges fall on whole periods
    /// (P, 2P, ...; cycle k starts at k·P + P/2): the convention of models that put every
    /// clock's first rising edge at one period.
    pub fn add_clock_rising_at_period(
        &mut self,
        name: &str,
        period: Period,
        pin: impl Fn(&mut B) -> &mut Signal<In, Clock> + Send + 'static,
    ) -> Result<usize, HarnessError> {
        self.add_domain(
            name,
            EdgeTime::first_rising_at_period(period),
            Box::new(pin),
        )
    }

    fn add_domain(
        &mut self,
        name: &str,
        first: EdgeTime,
        pin: BoxedPin<B>,
    ) -> Result<usize, HarnessError> {
        if self.domains.len() >= MAX_DOMAINS {
            return Err(HarnessError::Setup(format!(
                "at most {MAX_DOMAINS} clock domains"
            )));
        }
        if self.vectors.is_some() {
            return Err(HarnessError::Setup(
                "add every clock before record_ports()".into(),
            ));
        }
        self.domains.push(Domain {
            name: name.to_string(),
            pin,
            next: first,
        });
        Ok(self.domains.len() - 1)
    }

    /// With `on`, rising edges that fall on the same picosecond are applied one domain at a
    /// time, in the order the domains were added, the block settling after each (an earlier
    /// domain's registers load first and a later one samples their new values). Off (the
    /// default), simultaneous edges sample together, as in Verilog.
    pub fn sequential_edges(&mut self, on: bool) {
        self.sequential_edges = on;
    }

    /// The names of the clock domains.
    pub fn clock_names(&self) -> Vec<&str> {
        self.domains.iter().map(|d| d.name.as_str()).collect()
    }

    /// Starts writing a VCD to `path`, limited to `opts.scopes` (in either engine's form,
    /// see [`crate::sim::waves::scopes`]): a scope not in the block is
    /// [`HarnessError::Scope`].
    pub fn record_vcd(&mut self, path: &Path, opts: &VcdOptions) -> Result<(), HarnessError> {
        let scopes = match opts.scopes.is_empty() {
            true => Vec::new(),
            false => {
                let signals = list_signals(&*self.uut, &self.root);
                resolve(&signals, &self.root, &opts.scopes, self.vl.is_some())
                    .map_err(HarnessError::Scope)?
            }
        };
        if let Some(vl) = &mut self.vl {
            vl.engine
                .record_vcd(path, &scopes)
                .map_err(HarnessError::Engine)?;
            vl.vcd = Some(path.to_path_buf());
            return Ok(());
        }
        let opts = VcdOptions {
            scopes,
            ..opts.clone()
        };
        let mut rec =
            VcdRecorder::create(path, &*self.uut, &self.root, &opts)?.with_change_tracking();
        rec.sample(self.now_ps, &*self.uut)?;
        self.vcd = Some(rec);
        Ok(())
    }

    /// Starts recording the root ports: with one clock at every cycle start (the replay
    /// toggles the clock once per row), with several at every instant, the clocks recorded
    /// as inputs ([`PortVectors::per_instant`]).
    pub fn record_ports(&mut self) -> Result<(), HarnessError> {
        let vectors = match self.domains.len() {
            0 => return Err(HarnessError::NotSingleClock { domains: 0 }),
            1 => PortVectors::for_block(&*self.uut, &self.root),
            _ => PortVectors::for_block_per_instant(&*self.uut, &self.root),
        }
        .map_err(HarnessError::Setup)?;
        self.vectors = Some(vectors);
        Ok(())
    }

    /// The block's signals as the harness names them (the root scope is the harness's name).
    pub fn signals(&self) -> Vec<SignalInfo> {
        list_signals(&*self.uut, &self.root)
    }

    /// The name of the block's root scope.
    pub fn root(&self) -> &str {
        &self.root
    }

    /// Is the block evaluated by the Verilator engine (its waveform under `TOP.vtop.dut`)?
    pub fn is_verilated(&self) -> bool {
        self.vl.is_some()
    }

    /// The block (read outputs here).
    pub fn uut(&self) -> &B {
        &self.uut
    }

    /// The block (write inputs' `.next` here between cycles, or use the closures).
    pub fn uut_mut(&mut self) -> &mut B {
        &mut self.uut
    }

    /// Time of the last edge processed, ps.
    pub fn now_ps(&self) -> u64 {
        self.now_ps
    }

    /// One cycle of the only clock domain: `apply` writes the inputs at the cycle start, the
    /// block settles, `observe` reads the outputs (before the rising edge), then the rising
    /// edge loads the registers. If the domain is mid-cycle (after [`Harness::step`] or
    /// [`Harness::run_until`] stopped at a cycle start), its pending rising edge is processed
    /// first, so `apply` always lands on a cycle start.
    pub fn cycle<R>(
        &mut self,
        apply: impl FnOnce(&mut B),
        observe: impl FnOnce(&B) -> R,
    ) -> Result<R, HarnessError> {
        if self.domains.len() != 1 {
            return Err(HarnessError::NotSingleClock {
                domains: self.domains.len(),
            });
        }
        if self.domains[0].next.is_rising() {
            self.step(&mut |_, _| {})?;
        }
        if self.one_call_cycles() {
            return self.vl_cycle(apply, observe);
        }
        let mut apply = Some(apply);
        self.step(&mut |uut, _| {
            if let Some(f) = apply.take() {
                f(uut)
            }
        })?;
        let seen = observe(&*self.uut);
        self.step(&mut |_, _| {})?;
        Ok(seen)
    }

    /// A cycle can be one foreign call: the Verilator engine on a one-clock block, with no
    /// recording on the Rust side (the engine records its own waveform).
    fn one_call_cycles(&self) -> bool {
        self.vcd.is_none()
            && self.vectors.is_none()
            && self.vl.as_ref().is_some_and(|v| v.engine.one_clock())
    }

    /// [`Harness::cycle`] as one call of the Verilator engine, from a cycle start: the same
    /// edges, times and outputs as the two steps it replaces.
    fn vl_cycle<R>(
        &mut self,
        apply: impl FnOnce(&mut B),
        observe: impl FnOnce(&B) -> R,
    ) -> Result<R, HarnessError> {
        let start = self.domains[0].next;
        let rise = start.next();
        self.drive_clock(0, false);
        apply(&mut self.uut);
        let (mut observe, mut seen) = (Some(observe), None);
        let vl = self
            .vl
            .as_mut()
            .expect("one-call cycles run on the Verilator engine");
        (vl.cycle)(
            &mut vl.engine,
            &mut self.uut,
            (start.ps(), rise.ps()),
            &mut |u| seen = observe.take().map(|f| f(u)),
        )
        .map_err(HarnessError::Engine)?;
        self.drive_clock(0, true);
        self.now_ps = rise.ps();
        self.domains[0].next = rise.next();
        Ok(seen.expect("the engine observes every cycle"))
    }

    /// Applies inputs at the current instant and settles the block, without moving time: the
    /// outputs for these inputs can then be read (a combinational look between edges).
    pub fn poke(&mut self, apply: impl FnOnce(&mut B)) -> Result<(), HarnessError> {
        apply(&mut *self.uut);
        self.settle()
    }

    /// Runs every domain up to (and including) the edges at `end_ps`, calling `on_cycle` at
    /// each cycle start of each domain to apply that domain's inputs. Outputs can be read
    /// between calls of [`Harness::step`], which processes one instant at a time.
    pub fn run_until(
        &mut self,
        end_ps: u64,
        mut on_cycle: impl FnMut(&mut B, CycleStart),
    ) -> Result<(), HarnessError> {
        while self.next_edge().is_some_and(|e| e.ps() <= end_ps) {
            self.step(&mut on_cycle)?;
        }
        Ok(())
    }

    /// Processes the next instant: its rising edges, then its cycle starts. Returns false when
    /// there is no clock.
    pub fn step(
        &mut self,
        on_cycle: &mut dyn FnMut(&mut B, CycleStart),
    ) -> Result<bool, HarnessError> {
        self.step_observed(on_cycle, &mut |_, _| {})
    }

    /// [`Harness::step`], calling `before_rise(block, domain)` just before each domain's
    /// rising edge of the instant (after the edges ordered before it, with
    /// [`Harness::sequential_edges`]): the outputs its registers are about to load.
    pub fn step_observed(
        &mut self,
        on_cycle: &mut dyn FnMut(&mut B, CycleStart),
        before_rise: &mut dyn FnMut(&B, usize),
    ) -> Result<bool, HarnessError> {
        let Some(at) = self.next_edge() else {
            return Ok(false);
        };
        self.now_ps = at.ps();
        // Domains with an edge now, as bit masks (no allocation on this hot path).
        let (mut rising, mut starting) = (0u64, 0u64);
        for (i, d) in self.domains.iter().enumerate() {
            if d.next.cmp_time(&at).is_eq() {
                if d.next.is_rising() {
                    rising |= 1 << i;
                } else {
                    starting |= 1 << i;
                }
            }
        }
        if rising != 0 {
            for i in bits(rising) {
                before_rise(&*self.uut, i);
                self.drive_clock(i, true);
                if self.sequential_edges {
                    self.settle()?;
                }
            }
            self.settle()?;
            if let Some(v) = self.vectors.as_mut().filter(|v| v.per_instant) {
                v.sample(&*self.uut);
            }
        }
        if starting != 0 {
            for i in bits(starting) {
                self.drive_clock(i, false);
                let ev = CycleStart {
                    domain: i,
                    cycle: self.domains[i].next.cycle(),
                    ps: self.now_ps,
                };
                on_cycle(&mut *self.uut, ev);
            }
            self.settle()?;
            if let Some(v) = &mut self.vectors {
                v.sample(&*self.uut);
            }
        }
        for i in bits(rising | starting) {
            self.domains[i].next = self.domains[i].next.next();
        }
        if let Some(vcd) = &mut self.vcd {
            vcd.sample(self.now_ps, &*self.uut)?;
        }
        Ok(true)
    }

    /// Ends the run: closes the VCD and hands back the block and the recordings.
    pub fn finish(mut self) -> Result<Finished<B>, HarnessError> {
        // Dropping the engine closes its waveform.
        let vl_vcd = self.vl.take().and_then(|v| v.vcd);
        let vcd = match self.vcd {
            None if vl_vcd.is_some() => {
                let path = vl_vcd.unwrap_or_default();
                let signals = crate::sim::vl::vcd_signals(&path)?;
                Some((path, signals))
            }
            Some(rec) => {
                let signals = rec.signals().to_vec();
                Some((rec.finish(self.now_ps)?, signals))
            }
            None => None,
        };
        Ok(Finished {
            uut: *self.uut,
            end_ps: self.now_ps,
            vcd,
            vectors: self.vectors,
        })
    }

    fn next_edge(&self) -> Option<EdgeTime> {
        self.domains
            .iter()
            .map(|d| d.next)
            .min_by(|a, b| a.cmp_time(b))
    }

    fn drive_clock(&mut self, domain: usize, high: bool) {
        (self.domains[domain].pin)(&mut *self.uut).next = Clock::from(high);
    }

    fn settle(&mut self) -> Result<(), HarnessError> {
        if let Some(vl) = &mut self.vl {
            return (vl.settle)(&mut vl.engine, &mut *self.uut, self.now_ps)
                .map_err(HarnessError::Engine);
        }
        let settled = match &mut self.vcd {
            Some(rec) => settle_noting(&mut *self.uut, rec),
            None => simulate(&mut *self.uut, SETTLE_LIMIT),
        };
        if settled {
            Ok(())
        } else {
            Err(HarnessError::NoConvergence { ps: self.now_ps })
        }
    }
}

/// rust-hdl's `simulate(uut, SETTLE_LIMIT)` (update until nothing changes), telling `rec`
/// after every update which signals it changed.
fn settle_noting<B: Block>(uut: &mut B, rec: &mut VcdRecorder) -> bool {
    for _ in 0..SETTLE_LIMIT {
        uut.update_all();
        if !uut.has_changed() {
            return true;
        }
        rec.note_changes(uut);
    }
    false
}

/// The indices of the set bits of `mask`, lowest first.
fn bits(mask: u64) -> impl Iterator<Item = usize> {
    (0..MAX_DOMAINS).filter(move |i| mask & (1 << i) != 0)
}
