//! What a Sim-D launch measured ([`SimdSummary`]): its phases, the tile requests and the DRAM
//! data-bus use, from the compute unit's Sim-D state after the run.

use rtgpu_hw::simd::sched::{Phase, PhaseKind};
use rtgpu_hw::simd::SimdExec;
use serde::Serialize;

/// A Sim-D launch's phases and DRAM use (`rtgpu run --exec simd`).
#[derive(Clone, Debug, Default, Serialize)]
pub struct SimdSummary {
    /// `simd` (phase rules) or `simd-free`.
    pub exec: &'static str,
    /// Compute phases.
    pub compute_phases: usize,
    /// Access phases (tile transfers).
    pub access_phases: usize,
    /// Tile requests the DRAM controller completed.
    pub requests: u64,
    /// Their mean LID (DRAM command-clock cycles).
    pub mean_lid: f64,
    /// Their largest LID.
    pub max_lid: u32,
    /// DRAM data-bus utilisation over the launch: cycles with data / DRAM cycles.
    pub bus_utilisation: f64,
    /// DRAM data-bus utilisation while a tile request was in the controller: data cycles /
    /// the requests' LIDs.
    pub bus_utilisation_in_requests: f64,
    /// Bytes moved.
    pub bytes: u64,
    /// REF commands.
    pub refreshes: u64,
    /// Every phase (core cycles from the launch).
    #[serde(skip)]
    pub phases: Vec<Phase>,
}

impl SimdSummary {
    /// The summary of `s` (rules on or off).
    pub fn of(s: &SimdExec) -> Self {
        let c = s.access.counters;
        let count = |k| s.sched.log.iter().filter(|p| p.kind == k).count();
        let ratio = |a: u64, b: u64| if b == 0 { 0.0 } else { a as f64 / b as f64 };
        SimdSummary {
            exec: if s.sched.rules { "simd" } else { "simd-free" },
            compute_phases: count(PhaseKind::Compute),
            access_phases: count(PhaseKind::Access),
            requests: c.requests,
            mean_lid: ratio(c.lid_sum, c.requests),
            max_lid: c.lid_max,
            bus_utilisation: ratio(c.dq_cycles, c.dram_cycles),
            bus_utilisation_in_requests: ratio(c.dq_cycles, c.lid_sum),
            bytes: c.bytes,
            refreshes: c.refreshes,
            phases: s.sched.log.clone(),
        }
    }

    /// The human-readable lines.
    pub fn text(&self) -> String {
        format!(
            "sim-d ({}): {} compute + {} access phases; {} tile requests, {} bytes, LID mean \
             {:.1} max {} DRAM cycles; DRAM bus use {:.1} % of the launch, {:.1} % within \
             requests; {} refreshes\n",
            self.exec,
            self.compute_phases,
            self.access_phases,
            self.requests,
            self.bytes,
            self.mean_lid,
            self.max_lid,
            100.0 * self.bus_utilisation,
            100.0 * self.bus_utilisation_in_requests,
            self.refreshes
        )
    }
}
