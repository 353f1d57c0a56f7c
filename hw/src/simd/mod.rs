//! Sim-D's execution model on the compute unit (the Sim-D paper, docs/works/simd.md): a
//! work-group runs as alternating **compute phases** (no DRAM access: registers and its
//! scratchpad, the LDS partition) and **access phases** (one work-group-wide tile transfer
//! between DRAM and the scratchpad, `tile_ld`/`tile_st`, through the Sim-D DRAM controller's
//! stride sequencer); two work-groups are resident (two slots, each with its own scratchpad),
//! and one's access phase overlaps the other's compute phase under the paper's rules.
//!
//! - [`tile`]: the tile descriptor and its data movement;
//! - [`access`]: the access resource (queue, dual-clock crossings, DRAM controller);
//! - [`sched`]: the two slots, GTRR, the pairwise rule and the phase log.
//!
//! The compute unit wires them in (`hw/src/cu/simd_port.rs`) when a launch sets the
//! `FEATURES` Sim-D bit (`rtgpu run --exec simd`). Choices the paper leaves open are
//! docs/assumptions.md#A81 to #A84.

pub mod access;
pub mod sched;
pub mod tile;

use access::{AccessUnit, Transfer};
use sched::PhaseSched;
use tile::TileDesc;

/// How a launch executes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Exec {
    /// The GCN compute unit (FLAT through the fixed latency or the cache hierarchy).
    #[default]
    Gcn,
    /// Sim-D phases with the phase rules (GTRR, pairwise).
    Simd,
    /// Sim-D phases, both slots scheduled freely (the baseline of the rules' cost).
    SimdFree,
}

/// A tile transfer the wavefronts of a slot wait at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Waiting {
    /// The descriptor (from the first wavefront to arrive).
    pub desc: TileDesc,
    /// The instruction's address.
    pub pc: u32,
    /// It is the work-group's final transfer (`s_endpgm` follows).
    pub last: bool,
    /// It holds or waits for the access resource.
    pub submitted: bool,
}

/// The Sim-D state of a launch.
pub struct SimdExec {
    /// The slots' scheduler.
    pub sched: PhaseSched,
    /// The access resource.
    pub access: AccessUnit,
    /// Per slot, the transfer its wavefronts wait at.
    pub waiting: [Option<Waiting>; 2],
}

impl SimdExec {
    /// The Sim-D state for `exec` around the access resource `access`.
    pub fn new(exec: Exec, access: AccessUnit) -> Self {
        SimdExec {
            sched: PhaseSched::new(exec == Exec::Simd),
            access,
            waiting: [None; 2],
        }
    }

    /// Slot `slot`'s wavefronts have all arrived at its waiting transfer in cycle `now`:
    /// it joins the access resource's queue.
    pub fn submit(&mut self, slot: usize, now: u64) {
        let Some(w) = self.waiting[slot].as_mut() else {
            return;
        };
        w.submitted = true;
        self.sched.submitted(slot, now, w.last);
        self.access.submit(Transfer { slot, desc: w.desc });
    }

    /// No transfer waits, is queued or in flight.
    pub fn idle(&self) -> bool {
        self.access.idle() && self.waiting.iter().all(Option::is_none)
    }
}
