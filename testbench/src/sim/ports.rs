//! Per-cycle recording of a block's port vectors, the input of cosimulation.

use crate::sim::signals::{for_each_leaf, root_ports, Atoms, Role, SignalInfo, Word};
use rust_hdl::core::block::Block;

/// The ports of a block and their values, one row per clock cycle.
///
/// Single clock: row *k* holds the inputs applied in cycle *k* and the outputs observed in
/// cycle *k* after they settled, before the rising edge that ends the cycle. Clock ports are
/// not recorded: the replaying testbench drives them.
///
/// Several clocks ([`PortVectors::per_instant`]): the clocks are recorded like inputs, and a
/// row is taken after each instant settled: once after its rising edges (only clocks
/// changed), once after its cycle starts (clocks fall, inputs change). The replay applies
/// the rows in order, so every edge of every clock happens in its own row, as in the run.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PortVectors {
    /// The recorded ports (inputs and outputs, clocks excluded), in declaration order.
    pub ports: Vec<SignalInfo>,
    /// The clock ports of the block (the replay toggles them).
    pub clocks: Vec<SignalInfo>,
    /// One row per cycle, one value per entry of `ports`.
    pub rows: Vec<Vec<Word>>,
    /// The clocks are columns and a row is an instant (a block with several clocks).
    pub per_instant: bool,
}

impl PortVectors {
    /// An empty recording for `uut`'s root ports. Errors on inout ports, which the replaying
    /// testbench cannot drive and check yet.
    pub fn for_block(uut: &dyn Block, root: &str) -> Result<Self, String> {
        let (clocks, ports): (Vec<_>, Vec<_>) =
            root_ports(uut, root).into_iter().partition(|p| p.is_clock);
        if let Some(p) = ports.iter().find(|p| p.role == Role::InOut) {
            return Err(format!(
                "port `{}` is inout: cosimulation replays inputs and outputs only",
                p.name
            ));
        }
        Ok(Self {
            ports,
            clocks,
            rows: Vec::new(),
            per_instant: false,
        })
    }

    /// An empty recording for `uut`'s root ports, clocks included as inputs, one row per
    /// instant (a block with several clocks).
    pub fn for_block_per_instant(uut: &dyn Block, root: &str) -> Result<Self, String> {
        let mut v = Self::for_block(uut, root)?;
        v.ports = root_ports(uut, root);
        v.clocks.clear();
        v.per_instant = true;
        Ok(v)
    }

    /// Appends the current values of the ports as a row (only the ports' values are read:
    /// the walk skips every other signal).
    pub fn sample(&mut self, uut: &dyn Block) {
        let mut row = Vec::with_capacity(self.ports.len());
        let ports = &self.ports;
        let is_port = |i: usize| ports.binary_search_by_key(&i, |p| p.index).is_ok();
        for_each_leaf(uut, &mut Atoms::default(), is_port, |index, value| {
            if is_port(index) {
                row.push(value.to_word());
            }
        });
        self.rows.push(row);
    }

    /// The ports with a given role, with their column numbers.
    pub fn columns(&self, role: Role) -> impl Iterator<Item = (usize, &SignalInfo)> {
        self.ports
            .iter()
            .enumerate()
            .filter(move |(_, p)| p.role == role)
    }

    /// Number of recorded cycles.
    pub fn cycles(&self) -> usize {
        self.rows.len()
    }
}
