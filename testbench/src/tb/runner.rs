//! The common part of every single-clock block testbench.

use crate::sim::clock::Period;
use crate::sim::harness::{ClockPin, Harness, HarnessError};
use crate::sim::ports::PortVectors;
use crate::sim::vl::{Engine, VlOptions, VlPorts};
use crate::sim::waves::{Gtkw, VcdOptions};
use std::fmt;
use std::path::PathBuf;

/// How to run a testbench.
#[derive(Clone, Debug)]
pub struct TbOptions {
    /// Write `DIR/NAME.vcd` and `DIR/NAME.gtkw` here (`None`: no waveform).
    pub waves_dir: Option<PathBuf>,
    /// Record the port vectors (for cosimulation).
    pub record_ports: bool,
    /// Seed of the random part of the stimulus.
    pub seed: u64,
    /// Number of cycles (testbenches with a fixed directed part run at least that).
    pub cycles: u64,
    /// The engine evaluating the RTL.
    pub engine: Engine,
    /// The waveform's time window, ps (inclusive), on either engine; the `.gtkw` opens on it.
    pub vcd_window: (u64, u64),
    /// Write the waveform as FST (`NAME.fst`: Verilator's `--trace-fst`, or the harness's VCD
    /// converted by `vcd2fst`) instead of VCD.
    pub fst: bool,
    /// Record only the signals in these scopes (`--vcd-scope`; either engine's form, see
    /// [`crate::sim::waves::scopes`]); empty: every signal. A scope not in the block is
    /// [`HarnessError::Scope`].
    pub vcd_scopes: Vec<String>,
}

impl Default for TbOptions {
    fn default() -> Self {
        Self {
            waves_dir: None,
            record_ports: false,
            seed: 1,
            cycles: 1000,
            engine: Engine::Harness,
            vcd_window: (0, u64::MAX),
            fst: false,
            vcd_scopes: Vec::new(),
        }
    }
}

/// What a testbench run produced.
#[derive(Debug, Default)]
pub struct TbRun {
    /// Cycles simulated.
    pub cycles: u64,
    /// The waveform written (VCD, or FST with [`TbOptions::fst`]).
    pub vcd: Option<PathBuf>,
    /// The `.gtkw` written.
    pub gtkw: Option<PathBuf>,
    /// The port vectors recorded.
    pub vectors: Option<PortVectors>,
    /// One line on what was checked.
    pub summary: String,
}

/// Why a testbench failed.
#[derive(Debug)]
pub enum TbError {
    /// The RTL and the reference model disagree.
    Mismatch {
        /// The first cycle where they differ.
        cycle: u64,
        /// What differs.
        detail: String,
        /// The `.gtkw` of the run, if a waveform was written (a marker names the cycle).
        waves: Option<PathBuf>,
    },
    /// The harness failed (no convergence, waveform I/O).
    Harness(HarnessError),
}

/// A testbench's mismatch at `cycle` (the runner adds the waveform).
pub fn mismatch(cycle: u64, detail: String) -> TbError {
    TbError::Mismatch {
        cycle,
        detail,
        waves: None,
    }
}

impl fmt::Display for TbError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Mismatch {
                cycle,
                detail,
                waves,
            } => {
                write!(
                    f,
                    "RTL and reference model differ at cycle {cycle}: {detail}"
                )?;
                match waves {
                    Some(w) => write!(f, "\n  waveform: gtkwave {}", w.display()),
                    None => Ok(()),
                }
            }
            Self::Harness(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for TbError {}

impl From<HarnessError> for TbError {
    fn from(e: HarnessError) -> Self {
        Self::Harness(e)
    }
}

impl From<std::io::Error> for TbError {
    fn from(e: std::io::Error) -> Self {
        Self::Harness(HarnessError::Io(e))
    }
}

/// Core clock period of block testbenches: 1 ns, so the VCD reads 1 cycle per ns.
pub const TB_PERIOD_PS: u64 = 1000;

/// Runs `uut` (VCD scope `name`) on a 1 GHz clock for `cycles` cycles, calling `per_cycle`
/// with the harness and the cycle number; `per_cycle` may return a label to mark that cycle in
/// the waveform. Writes the VCD and the `.gtkw` laid out by `layout` when asked.
pub fn drive<B: VlPorts + 'static>(
    uut: B,
    name: &str,
    clock: ClockPin<B>,
    opts: &TbOptions,
    cycles: u64,
    mut per_cycle: impl FnMut(&mut Harness<B>, u64) -> Result<Option<String>, TbError>,
    layout: impl FnOnce() -> Gtkw,
) -> Result<TbRun, TbError> {
    let mut h = tb_harness(uut, name, clock, opts)?;
    let ran = run_cycles(cycles, |k| per_cycle(&mut h, k));
    tb_finish(h, name, opts, ran, layout)
}

/// Writes Verilator's own waveform as FST (rather than converting the harness's VCD).
fn native_fst(opts: &TbOptions) -> bool {
    opts.fst && opts.engine == Engine::Verilator
}

/// The first part of [`drive`]: `uut` (VCD scope `name`) in a harness on a 1 GHz clock,
/// recording the waveform and the port vectors as `opts` asks. For a testbench whose RTL is
/// owned by an adapter for the run ([`crate::sim::rtl::Rtl::from_harness`]).
pub fn tb_harness<B: VlPorts + 'static>(
    uut: B,
    name: &str,
    clock: ClockPin<B>,
    opts: &TbOptions,
) -> Result<Harness<B>, TbError> {
    tb_harness_clocked(uut, name, opts, |h| {
        let period = Period::ps(TB_PERIOD_PS).map_err(HarnessError::Setup)?;
        h.add_clock("clock", period, clock).map(|_| ())
    })
}

/// [`tb_harness`] for a block whose clocks `add_clocks` adds (several clocks: the port
/// vectors are recorded per instant).
pub fn tb_harness_clocked<B: VlPorts + 'static>(
    uut: B,
    name: &str,
    opts: &TbOptions,
    add_clocks: impl FnOnce(&mut Harness<B>) -> Result<(), HarnessError>,
) -> Result<Harness<B>, TbError> {
    let native_fst = native_fst(opts);
    let vl = VlOptions {
        trace: opts.waves_dir.is_some(),
        window: opts.vcd_window,
        fst: native_fst,
        ..VlOptions::default()
    };
    let mut h = Harness::with_engine(uut, name, opts.engine, &vl)?;
    add_clocks(&mut h)?;
    let vcd_path = opts
        .waves_dir
        .as_ref()
        .map(|d| d.join(format!("{name}.{}", if native_fst { "fst" } else { "vcd" })));
    if let Some(p) = &vcd_path {
        let window = (opts.vcd_window != (0, u64::MAX)).then_some(opts.vcd_window);
        h.record_vcd(
            p,
            &VcdOptions {
                scopes: opts.vcd_scopes.clone(),
                window,
            },
        )?;
    }
    if opts.record_ports {
        h.record_ports()?;
    }
    Ok(h)
}

/// What a testbench's cycles gave: how many were asked, the waveform's markers (ps, label)
/// and the failure that stopped them, if any.
pub struct Ran {
    cycles: u64,
    markers: Vec<(u64, String)>,
    failure: Option<TbError>,
}

impl Ran {
    /// A run of `cycles` cycles with these markers (ps, label) that ended in `failure`, for a
    /// testbench that drives its cycles itself.
    pub fn new(cycles: u64, markers: Vec<(u64, String)>, failure: Option<TbError>) -> Self {
        Ran {
            cycles,
            markers,
            failure,
        }
    }
}

/// The middle part of [`drive`]: `per_cycle` for cycles `0..cycles` until one fails,
/// collecting the labels it returns as markers.
pub fn run_cycles(
    cycles: u64,
    mut per_cycle: impl FnMut(u64) -> Result<Option<String>, TbError>,
) -> Ran {
    let mut markers = Vec::new();
    let mut failure = None;
    for k in 0..cycles {
        match per_cycle(k) {
            Ok(Some(label)) => markers.push((k * TB_PERIOD_PS, label)),
            Ok(None) => {}
            Err(e) => {
                // Keep the waveform of a failing run: it is when a person needs it most.
                markers.insert(0, (k * TB_PERIOD_PS, "FAILURE".to_string()));
                failure = Some(e);
                break;
            }
        }
    }
    Ran {
        cycles,
        markers,
        failure,
    }
}

/// The last part of [`drive`]: closes the harness `h` of [`tb_harness`], writes the
/// waveform's `.gtkw` (laid out by `layout`, with the markers) and returns the run, or its
/// failure (pointing at the waveform).
pub fn tb_finish<B: VlPorts + 'static>(
    h: Harness<B>,
    name: &str,
    opts: &TbOptions,
    ran: Ran,
    layout: impl FnOnce() -> Gtkw,
) -> Result<TbRun, TbError> {
    let Ran {
        cycles,
        markers,
        failure,
    } = ran;
    let done = h.finish()?;
    let mut run = TbRun {
        cycles,
        vectors: done.vectors,
        ..TbRun::default()
    };
    if let (Some((vcd, signals)), Some(dir)) = (done.vcd, &opts.waves_dir) {
        let gtkw = dir.join(format!("{name}.gtkw"));
        let view = markers
            .iter()
            .fold(layout(), |g, (ps, label)| g.marker(*ps, label))
            .within(opts.vcd_window)
            .recorded_only(!opts.vcd_scopes.is_empty());
        let vcd = match opts.fst && !native_fst(opts) {
            true => crate::sim::waves::to_fst(&vcd)?,
            false => vcd,
        };
        view.write(&gtkw, &vcd, &signals, done.end_ps)?;
        run.vcd = Some(vcd);
        run.gtkw = Some(gtkw);
    }
    match failure {
        Some(TbError::Mismatch { cycle, detail, .. }) => Err(TbError::Mismatch {
            cycle,
            detail,
            waves: run.gtkw,
        }),
        Some(e) => Err(e),
        None => Ok(run),
    }
}

/// The RTL's outputs of cycle `cycle` equal the reference model's, else a mismatch error.
pub fn same<T: PartialEq + fmt::Debug>(cycle: u64, rtl: &T, model: &T) -> Result<(), TbError> {
    if rtl == model {
        return Ok(());
    }
    Err(TbError::Mismatch {
        cycle,
        detail: format!("RTL {rtl:?}, model {model:?}"),
        waves: None,
    })
}
