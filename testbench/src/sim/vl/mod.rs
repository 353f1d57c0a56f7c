//! The Verilator engine for rust-hdl blocks: the block's emitted Verilog, Verilated
//! ([`rtgpu_verilator`]) and evaluated in place of rust-hdl's settling loop.
//!
//! The harness keeps the Rust block as a *shadow*: testbenches write its inputs and read its
//! outputs exactly as with rust-hdl; at every settle the engine packs the inputs and clock
//! levels ([`VlPorts`]), evaluates the Verilated model once, and writes its outputs back. Only
//! the root ports are mirrored: a testbench that reads an internal signal sees its reset value.
//!
//! Models are built once and cached under `target/verilator/`, keyed by a hash of the
//! Verilog and the flags. A waveform is the model's own VCD (`--trace`), the block under the
//! scope `TOP.vtop.dut`; [`VL_ROOT`] maps the harness's signal paths onto it.

mod args;
mod blocks;
pub mod memo;
mod ports;

pub use args::EngineArgs;
pub use ports::{Bus, PortField, VlPorts};

use crate::paths::with_path;
use crate::sim::cosim::verilog_of;
use crate::sim::harness::HarnessError;
use crate::sim::signals::{root_ports, Role, SignalInfo};
use rtgpu_verilator::{build, BuildOptions, Design, Model, Trace};
use std::path::{Path, PathBuf};

/// The scope of the block in a Verilator waveform (the harness names it after the block).
pub const VL_ROOT: &str = "TOP.vtop.dut";

/// Which engine evaluates a block's RTL.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Engine {
    /// rust-hdl's own evaluation in the cycle harness (no tools needed).
    #[default]
    Harness,
    /// The emitted Verilog, Verilated and loaded into the process.
    Verilator,
}

/// What the Verilator engine records.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VlOptions {
    /// Build the model with tracing (needed for a waveform).
    pub trace: bool,
    /// The waveform's time window, ps (inclusive).
    pub window: (u64, u64),
    /// Write the waveform as FST (`--trace-fst`) instead of VCD.
    pub fst: bool,
    /// Compile for build time rather than simulation speed (`BuildOptions::quick`): for
    /// large designs in tests.
    pub quick: bool,
}

impl Default for VlOptions {
    fn default() -> Self {
        VlOptions {
            trace: false,
            window: (0, u64::MAX),
            fst: false,
            quick: false,
        }
    }
}

/// Where built models are cached: `target/verilator/` (see [`crate::paths::target_dir`]).
pub fn cache_dir() -> PathBuf {
    crate::paths::target_dir().join("verilator")
}

/// A Verilated block behind its Rust shadow.
pub struct VlEngine {
    model: Model,
    built: rtgpu_verilator::Built,
    window: (u64, u64),
    /// The outputs after a [`VlEngine::cycle`]'s rising edge.
    after: Vec<u64>,
    /// The output words the shadow's output signals hold (unpacked last), `None` before the
    /// first unpack: outputs equal to them are not unpacked again.
    shown: Option<Vec<u64>>,
}

impl VlEngine {
    /// Verilates `uut` (its name `name` for messages and the cache), checking that its
    /// [`VlPorts`] list matches the emitted Verilog's ports.
    pub fn new<B: VlPorts>(uut: &mut B, name: &str, opts: &VlOptions) -> Result<Self, String> {
        let verilog = memo::verilog(uut, &cache_dir().join("verilog"), |b| verilog_of(b))
            .map_err(|e| format!("{name}: {e}"))?;
        let ports = uut.ports();
        check_ports(uut, name, &ports)?;
        let design = Design {
            name: name.to_string(),
            verilog,
            ports,
        };
        let built = build(
            &design,
            &BuildOptions {
                cache_dir: cache_dir(),
                trace: opts.trace,
                fst: opts.fst,
                tools: Default::default(),
                quick: opts.quick,
            },
        )
        .map_err(|e| e.to_string())?;
        let model = Model::new(&built, None)?;
        let after = vec![0; model.outputs().len()];
        Ok(VlEngine {
            model,
            built,
            window: opts.window,
            after,
            shown: None,
        })
    }

    /// Was the model found in the cache (no tool ran)?
    pub fn cached(&self) -> bool {
        self.built.cached
    }

    /// Starts the waveform in `path` (the model must be built with tracing), limited to
    /// `scopes` (Verilator's names, `TOP.vtop.dut...`; empty: every signal).
    pub fn record_vcd(&mut self, path: &Path, scopes: &[String]) -> Result<(), String> {
        let trace = Trace {
            path: path.to_path_buf(),
            from: self.window.0,
            to: self.window.1,
            scopes: scopes.to_vec(),
        };
        self.model.trace_to(&trace)
    }

    /// One evaluation at `ps`: the shadow's inputs and clocks in, its outputs out.
    pub fn settle<B: VlPorts>(&mut self, uut: &mut B, ps: u64) -> Result<(), String> {
        let offsets = &self.built.layout.offsets;
        let mut bus = Bus::new(offsets, self.model.inputs_mut());
        uut.pack_inputs(&mut bus);
        let clocks = bus.clocks;
        self.model.set_clocks(clocks);
        self.model.eval(ps).map_err(|e| e.to_string())?;
        show(&mut self.shown, offsets, self.model.outputs_mut(), uut);
        Ok(())
    }

    /// Whether the block has exactly one clock input ([`VlEngine::cycle`] drives it).
    pub fn one_clock(&self) -> bool {
        self.built.layout.clocks == 1
    }

    /// A whole cycle of a one-clock block in one foreign call: the shadow's inputs with the
    /// clock low evaluated at `times.0`, its outputs handed to `observe`, then the rising edge
    /// at `times.1`, whose outputs the shadow holds afterwards. The same evaluations as two
    /// [`VlEngine::settle`]s, with half the calls.
    pub fn cycle<B: VlPorts>(
        &mut self,
        uut: &mut B,
        times: (u64, u64),
        observe: &mut dyn FnMut(&B),
    ) -> Result<(), String> {
        let offsets = &self.built.layout.offsets;
        let mut bus = Bus::new(offsets, self.model.inputs_mut());
        uut.pack_inputs(&mut bus);
        let low = bus.clocks;
        self.model
            .cycle((low, low | 1), times, Some(&mut self.after))
            .map_err(|e| e.to_string())?;
        show(&mut self.shown, offsets, self.model.outputs_mut(), uut);
        observe(uut);
        show(&mut self.shown, offsets, &mut self.after, uut);
        Ok(())
    }

    /// Writes the buffered waveform out.
    pub fn flush(&mut self) {
        self.model.flush();
    }

    /// A new instance of the same model, from reset (every register at 0).
    pub fn fresh_model(&self) -> Result<Model, String> {
        Model::new(&self.built, None)
    }
}

/// Unpacks `words` into the shadow's output signals unless they hold them already (`shown`):
/// most cycles leave a block's outputs as they were, and unpacking every port of a wide block
/// into rust-hdl's values was the largest cost of a Verilated block in the running system.
fn show<B: VlPorts>(
    shown: &mut Option<Vec<u64>>,
    offsets: &[usize],
    words: &mut [u64],
    uut: &mut B,
) {
    if shown.as_deref() == Some(&*words) {
        return;
    }
    uut.unpack_outputs(&mut Bus::new(offsets, words));
    match shown {
        Some(s) => s.copy_from_slice(words),
        None => *shown = Some(words.to_vec()),
    }
}

/// The signals a VCD or FST declares (its header), with their scopes as written.
pub fn vcd_signals(path: &Path) -> Result<Vec<SignalInfo>, HarnessError> {
    let io = |e| HarnessError::Io(with_path(e, path));
    let header = match crate::sim::waves::is_fst(path) {
        true => crate::sim::waves::fst_header(path).map_err(io)?,
        false => {
            let file = std::fs::File::open(path).map_err(io)?;
            let mut parser = vcd::Parser::new(std::io::BufReader::new(file));
            parser.parse_header().map_err(io)?
        }
    };
    let mut out = Vec::new();
    collect(&header.items, &mut Vec::new(), &mut out);
    Ok(out)
}

fn collect(items: &[vcd::ScopeItem], scope: &mut Vec<String>, out: &mut Vec<SignalInfo>) {
    for item in items {
        match item {
            vcd::ScopeItem::Scope(s) => {
                scope.push(s.identifier.clone());
                collect(&s.items, scope, out);
                scope.pop();
            }
            vcd::ScopeItem::Var(v) => out.push(SignalInfo {
                scope: scope.clone(),
                name: v.reference.clone(),
                width: v.size as usize,
                role: Role::Internal,
                variants: None,
                is_clock: false,
                index: out.len(),
            }),
            _ => {}
        }
    }
}

/// The [`VlPorts`] list equals the Verilog's root ports (names and widths, as a set).
fn check_ports<B: VlPorts>(
    uut: &B,
    name: &str,
    ports: &[rtgpu_verilator::Port],
) -> Result<(), String> {
    let mut listed: Vec<(String, usize)> =
        ports.iter().map(|p| (p.name.clone(), p.width)).collect();
    let mut emitted: Vec<(String, usize)> = root_ports(uut, "top")
        .into_iter()
        .map(|s| (s.name, s.width))
        .collect();
    listed.sort();
    emitted.sort();
    if listed == emitted {
        return Ok(());
    }
    let missing: Vec<&String> = emitted
        .iter()
        .filter(|p| !listed.contains(p))
        .map(|p| &p.0)
        .collect();
    let extra: Vec<&String> = listed
        .iter()
        .filter(|p| !emitted.contains(p))
        .map(|p| &p.0)
        .collect();
    Err(format!(
        "{name}: the block's vl_ports! list does not match its Verilog ports \
         (not listed: {missing:?}; listed but not in the Verilog: {extra:?})"
    ))
}
