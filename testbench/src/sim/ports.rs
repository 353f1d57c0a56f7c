//! Per-cycle recording of a block's port vectors, the input of cosimulation.

use crate::sim::signals::{for_each_value, root_ports, Role, SignalInfo, Word};
use rust_hdl::core::block::Block;

/// The ports of a block and their values, one row per clock cycle.
///
/// Row *k* holds the inputs applied in cycle *k* and the outputs observed in cycle *k* after
/// they settled, before the rising edge that ends the cycle. Clock ports are not recorded:
/// the replaying testbench drives them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PortVectors {
    /// The recorded ports (inputs and outputs, clocks excluded), in declaration order.
    pub ports: Vec<SignalInfo>,
    /// The clock ports of the block (the replay toggles them).
    pub clocks: Vec<SignalInfo>,
    /// One row per cycle, one value per entry of `ports`.
    pub rows: Vec<Vec<Word>>,
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
        })
    }

    /// Appends the current values of the ports as a row.
    pub fn sample(&mut self, uut: &dyn Block) {
        let mut row = Vec::with_capacity(self.ports.len());
        let mut next = self.ports.iter().peekable();
        for_each_value(uut, |index, value| {
            if next.peek().is_some_and(|p| p.index == index) {
                row.push(value);
                next.next();
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
