//! The block interface: one shape for every implementation of a block of the block diagram.
//!
//! A block is a clocked circuit with one port bundle in ([`Clocked::In`]) and one out
//! ([`Clocked::Out`]). The reference model of a block and its RTL (driven through a
//! simulation engine) implement the same trait with the same bundles, so the compute unit and
//! the memory hierarchy take either through [`Blocks`], and a lock-step checker (in the
//! simulation crate) can run both and compare them port by port every cycle.
//!
//! One cycle of a block, as every implementation sees it:
//! 1. the inputs of the cycle are applied; [`Clocked::outputs`] returns what the block drives
//!    with them (combinational outputs included), without changing its state; it may be
//!    called any number of times in a cycle, with different inputs;
//! 2. [`Clocked::step`] applies the cycle's final inputs and clocks the rising edge;
//!    [`Clocked::cycle`] does both and returns the outputs before the edge.
//!
//! A block that lives in another clock domain (the DRAM controller, the IDU's dispatcher) is
//! stepped by its owner at that domain's edges; the interface counts its own cycles.

pub mod ports;
mod sets;

pub use ports::{Ports, Visit};
pub use sets::{BlockKind, Blocks, Models};

/// A clocked block: a reference model, or an RTL implementation behind a simulation engine.
pub trait Clocked {
    /// The input port bundle.
    type In: Ports + Clone + Send;
    /// The output port bundle.
    type Out: Ports + Clone + PartialEq + Send;

    /// What the block drives during the current cycle with these inputs (no state change;
    /// an RTL implementation applies the inputs and settles, behind interior mutability).
    fn outputs(&self, input: &Self::In) -> Self::Out;

    /// [`Clocked::outputs`] into `out`; a block whose outputs hold buffers overrides it to
    /// reuse them, so that the per-cycle path allocates nothing.
    fn outputs_into(&self, input: &Self::In, out: &mut Self::Out) {
        *out = self.outputs(input);
    }

    /// Applies `input` and clocks the rising edge that ends the cycle.
    fn step(&mut self, input: &Self::In);

    /// [`Clocked::outputs`] then [`Clocked::step`] with the same inputs: the outputs of the
    /// cycle, before its edge.
    fn cycle(&mut self, input: &Self::In) -> Self::Out {
        let out = self.outputs(input);
        self.step(input);
        out
    }

    /// [`Clocked::cycle`] with the outputs written into `out` (its buffers reused).
    fn cycle_into(&mut self, input: &Self::In, out: &mut Self::Out) {
        *out = self.cycle(input);
    }

    /// Whether the last edge changed no output: with any inputs, the outputs are what they
    /// were before it, so an owner whose inputs did not change may keep the outputs it read.
    /// Only a model that can tell cheaply says `true`; an RTL implementation keeps the
    /// default `false`.
    fn outputs_kept(&self) -> bool {
        false
    }

    /// Whether an edge with `input` would change nothing: neither the state nor any output
    /// of the cycles after it, so that an owner who needs no output of such a cycle may skip
    /// it. Only a model that can tell cheaply says `true`; an RTL implementation keeps the
    /// default `false` (its clock and waveform must see every cycle).
    fn idle_with(&self, _input: &Self::In) -> bool {
        false
    }

    /// Whether the implementation is still sound: a lock-step pair reports its first
    /// mismatch (or its engine's failure) here. Models are always sound.
    fn check(&self) -> Result<(), Box<BlockFault>> {
        Ok(())
    }
}

/// A boxed block with these port bundles.
pub type DynBlock<I, O> = Box<dyn Clocked<In = I, Out = O> + Send>;

/// Why a block implementation stopped being trustworthy.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BlockFault {
    /// The block instance (e.g. `pws[g0]`, `sched[g1.u2]`, `l1`).
    pub block: String,
    /// The block's own cycle (steps since it was created) at which it happened.
    pub cycle: u64,
    /// What went wrong.
    pub kind: FaultKind,
    /// The cycles before it, oldest first, for a waveform of the window.
    pub window: Vec<WindowRow>,
}

/// What a [`BlockFault`] is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FaultKind {
    /// An output port differs between the reference and the implementation under test.
    Mismatch {
        /// Port name (`ctx[3].spm`).
        port: String,
        /// The reference model's value.
        expected: u64,
        /// The implementation's value.
        got: u64,
    },
    /// The implementation's simulation engine failed (its message).
    Engine(String),
}

/// One cycle of a lock-step window: the ports as (name, width, value).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct WindowRow {
    /// The block's cycle.
    pub cycle: u64,
    /// The inputs.
    pub inputs: Vec<(String, u32, u64)>,
    /// The reference model's outputs.
    pub expected: Vec<(String, u32, u64)>,
    /// The implementation's outputs.
    pub got: Vec<(String, u32, u64)>,
}

impl std::fmt::Display for BlockFault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.kind {
            FaultKind::Mismatch {
                port,
                expected,
                got,
            } => write!(
                f,
                "block {}, cycle {}, port {port}, expected {expected:#x}, got {got:#x}",
                self.block, self.cycle
            ),
            FaultKind::Engine(m) => write!(
                f,
                "block {}, cycle {}: the RTL engine failed: {m}",
                self.block, self.cycle
            ),
        }
    }
}

impl std::error::Error for BlockFault {}
