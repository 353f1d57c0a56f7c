//! A rust-hdl block in the cycle harness as a [`Clocked`] block: [`Rtl`], with the port
//! bundle of its reference model (`apply` drives the bundle's values onto the ports, `read`
//! reads the outputs back into the bundle).

use crate::sim::clock::Period;
use crate::sim::harness::Harness;
use crate::sim::vl::{Engine, VlOptions, VlPorts};
use crate::sim::waves::merge::{SysClock, Timeline, Track, Tracks};
use crate::sim::waves::scopes::{resolve, top_level};
use crate::tb::TB_PERIOD_PS;
use rtgpu_hw::block::{BlockFault, Clocked, FaultKind, Ports};
use rust_hdl::core::prelude::*;
use std::cell::RefCell;

/// How an adapter drives a block's inputs from a bundle.
pub type Apply<B, I> = fn(&mut B, &I);
/// How an adapter reads a block's outputs into a bundle.
pub type Read<B, O> = fn(&B) -> O;
/// The block's clock input.
pub type Pin<B> = fn(&mut B) -> &mut Signal<rust_hdl::core::prelude::In, Clock>;

/// An RTL block in the harness, one clock domain, one [`Clocked::cycle`] per clock cycle.
/// A failure of the harness (a combinational loop) is reported by [`Clocked::check`]; the
/// outputs read after it are the default bundle.
pub struct Rtl<B: Block, I, O> {
    name: String,
    harness: RefCell<Harness<B>>,
    apply: Apply<B, I>,
    read: Read<B, O>,
    cycle: u64,
    error: RefCell<Option<String>>,
    /// Recording on the system's time base.
    track: Option<Noted>,
}

/// A block's recording on the system's time base: the system's clock, the block's track, and
/// where the track goes when the block is dropped.
struct Noted {
    clock: SysClock,
    track: Track,
    tracks: Tracks,
}

impl Drop for Noted {
    /// Hands the block's track over for the merge.
    fn drop(&mut self) {
        self.tracks.add(std::mem::take(&mut self.track));
    }
}

/// How an adapter evaluates its block: the engine, and its waveform options.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EngineChoice {
    /// Which engine.
    pub engine: Engine,
    /// Options of the Verilator engine.
    pub vl: VlOptions,
}

impl<B: VlPorts + 'static, I, O: Default> Rtl<B, I, O> {
    /// `block` in a harness (scope `name` in waveforms) evaluated by `engine`, its clock at
    /// `pin`.
    pub fn new(
        name: &str,
        block: B,
        pin: Pin<B>,
        (apply, read): (Apply<B, I>, Read<B, O>),
        engine: EngineChoice,
    ) -> Result<Self, String> {
        let err = |e: crate::sim::harness::HarnessError| format!("{name}: {e}");
        let scope = scope_name(name);
        let mut harness =
            Harness::with_engine(block, &scope, engine.engine, &engine.vl).map_err(err)?;
        let period = Period::ps(TB_PERIOD_PS)?;
        harness.add_clock("clock", period, pin).map_err(err)?;
        Ok(Self::from_harness(name, harness, (apply, read)))
    }

    /// The block already in `harness` (one clock of its own), as block `name`: for a
    /// testbench that sets the harness up ([`crate::tb::tb_harness`]) and closes it after the
    /// run ([`Rtl::into_harness`]).
    pub fn from_harness(
        name: &str,
        harness: Harness<B>,
        (apply, read): (Apply<B, I>, Read<B, O>),
    ) -> Self {
        Rtl {
            name: name.to_string(),
            harness: RefCell::new(harness),
            apply,
            read,
            cycle: 0,
            error: RefCell::new(None),
            track: None,
        }
    }

    /// The harness back, to close it (its waveform).
    pub fn into_harness(self) -> Harness<B> {
        self.harness.into_inner()
    }

    /// One cycle with `input` whose outputs are not compared (a reset before the block
    /// joins a lock-step pair).
    pub fn reset_cycle(mut self, input: &I) -> Result<Self, String> {
        let apply = self.apply;
        self.harness
            .get_mut()
            .cycle(|u| apply(u, input), |_| ())
            .map_err(|e| format!("{}: {e}", self.name))?;
        Ok(self)
    }

    /// Records the block's own signals from now on, in `dir/<name>.vcd` (the block's scopes;
    /// 1 ps time unit on the harness clock, one period per [`Clocked::cycle`]), only those in
    /// `scopes` if any are given (each one in the block: see [`Rtl::scopes_in`]). Every cycle also
    /// notes the system's time (`timeline`'s clock) in the block's track, handed to
    /// `timeline`'s tracks when the block is dropped, so that the recording can be merged into
    /// the system's waveform ([`crate::sim::waves::merge`]).
    pub fn record_in(
        mut self,
        dir: &std::path::Path,
        scopes: &[String],
        timeline: &Timeline,
    ) -> Result<Self, String> {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        let scope = scope_name(&self.name);
        let path = dir.join(format!("{scope}.vcd"));
        let opts = crate::sim::waves::VcdOptions {
            scopes: scopes.to_vec(),
            ..Default::default()
        };
        self.harness
            .get_mut()
            .record_vcd(&path, &opts)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        let track = Track {
            scope,
            vcd: path,
            steps: Vec::new(),
        };
        self.track = Some(Noted {
            clock: timeline.clock.clone(),
            track,
            tracks: timeline.tracks.clone(),
        });
        Ok(self)
    }

    /// Of the waveform scopes `asked` (`--vcd-scope`, either engine's form), those in this
    /// block's waveform, and the waveform's top-level scopes (as it names them).
    pub fn scopes_in(&mut self, asked: &[String]) -> (Vec<String>, Vec<String>) {
        let h = self.harness.get_mut();
        let (signals, root, vl) = (h.signals(), h.root().to_string(), h.is_verilated());
        let found = asked
            .iter()
            .filter(|a| resolve(&signals, &root, std::slice::from_ref(a), vl).is_ok())
            .cloned()
            .collect();
        (found, top_level(&signals, &root, vl))
    }

    /// The harness (to record a waveform).
    pub fn harness_mut(&mut self) -> &mut Harness<B> {
        self.harness.get_mut()
    }

    fn fail(&self, e: impl std::fmt::Display) -> O {
        self.error.borrow_mut().get_or_insert(e.to_string());
        O::default()
    }
}

impl<B, I, O> Clocked for Rtl<B, I, O>
where
    B: VlPorts + 'static,
    I: Ports + Clone + Send,
    O: Ports + Clone + PartialEq + Default + Send,
{
    type In = I;
    type Out = O;

    fn outputs(&self, input: &I) -> O {
        let mut h = self.harness.borrow_mut();
        match h.poke(|u| (self.apply)(u, input)) {
            Ok(()) => (self.read)(h.uut()),
            Err(e) => self.fail(e),
        }
    }

    fn step(&mut self, input: &I) {
        self.cycle(input);
    }

    fn cycle(&mut self, input: &I) -> O {
        let (apply, read) = (self.apply, self.read);
        self.cycle += 1;
        if let Some(n) = &mut self.track {
            let at = (self.harness.get_mut().now_ps(), n.clock.now());
            n.track.steps.push(at);
        }
        match self.harness.get_mut().cycle(|u| apply(u, input), read) {
            Ok(o) => o,
            Err(e) => self.fail(e),
        }
    }

    fn check(&self) -> Result<(), Box<BlockFault>> {
        match &*self.error.borrow() {
            None => Ok(()),
            Some(m) => Err(Box::new(BlockFault {
                block: self.name.clone(),
                cycle: self.cycle,
                kind: FaultKind::Engine(m.clone()),
                window: Vec::new(),
            })),
        }
    }
}

/// A block instance's name as a VCD scope and file name (`pws[g0]` → `pws_g0`).
fn scope_name(name: &str) -> String {
    let s: String = name
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    s.trim_end_matches('_').to_string()
}
