//! The memory hierarchy's configuration (serde, unknown fields rejected).

use crate::dram::Part;
use serde::{Deserialize, Serialize};

/// The DRAM parts the controller knows (`crate::dram::Part::ALL`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum DramPart {
    /// Micron DDR4-3200AA x16 (the default).
    #[default]
    #[serde(rename = "ddr4-3200aa-x16")]
    Ddr4_3200aaX16,
    /// DDR4-3200AA x8.
    #[serde(rename = "ddr4-3200aa-x8")]
    Ddr4_3200aaX8,
    /// DDR4-1866M x16.
    #[serde(rename = "ddr4-1866m-x16")]
    Ddr4_1866mX16,
}

impl DramPart {
    /// Every part, in `Part::ALL` order.
    pub const ALL: [DramPart; 3] = [
        DramPart::Ddr4_3200aaX16,
        DramPart::Ddr4_3200aaX8,
        DramPart::Ddr4_1866mX16,
    ];

    /// The part's timings.
    pub fn part(self) -> Part {
        Part::ALL[self as usize]
    }

    /// The part called `name`.
    pub fn by_name(name: &str) -> Result<DramPart, String> {
        let p = Part::by_name(name)?;
        Ok(Self::ALL[Part::ALL.iter().position(|q| q.name == p.name).unwrap_or(0)])
    }
}

/// How the compute unit's global memory is timed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct MemConfig {
    /// The real hierarchy (coalescing → reordering unit → L1 → CDC → Sim-D DRAM controller).
    /// Off: every FLAT access completes the fixed `flat` latency after issue.
    pub hierarchy: bool,
    /// L1 sets (a power of two, 1..=32).
    pub l1_sets: usize,
    /// L1 ways (1, 2, 4, 8 or 16).
    pub l1_ways: usize,
    /// Core cycles from an L1 hit to the load's data.
    pub l1_hit: u32,
    /// Entries per reordering channel (D), and the LD/ST queue's depth with reordering off.
    pub channel_depth: usize,
    /// Cycles the reordering unit may search for an expected instruction (0: no limit; the
    /// default, 65,535, turns a trace table that lists an access nobody makes into an error
    /// instead of a hang).
    pub reorder_watchdog: u16,
    /// Line requests (load misses, store writes) the L1 may hold for the DRAM side.
    pub miss_queue: usize,
    /// The DRAM part.
    pub dram_part: DramPart,
    /// The refresh interval counter after reset (0 ≤ phase < tREFI).
    pub refresh_phase: u16,
    /// Core clock period (ps): 1000 = 1 GHz.
    pub core_ps: u32,
    /// Places of each clock-domain crossing FIFO.
    pub cdc_depth: usize,
    /// Synchronizer flops of each crossing.
    pub cdc_stages: u32,
}

impl Default for MemConfig {
    /// The paper's L1 (16 KiB, 4-way: 32 sets), D = 10, DDR4-3200AA x16, 1 GHz core.
    fn default() -> Self {
        MemConfig {
            hierarchy: false,
            l1_sets: 32,
            l1_ways: 4,
            l1_hit: 4,
            channel_depth: 10,
            reorder_watchdog: u16::MAX,
            miss_queue: 16,
            dram_part: DramPart::Ddr4_3200aaX16,
            refresh_phase: 0,
            core_ps: 1000,
            cdc_depth: 8,
            cdc_stages: 2,
        }
    }
}

impl MemConfig {
    /// The DRAM part, or why the configuration is bad.
    pub fn check(&self) -> Result<Part, String> {
        let part = self.dram_part.part();
        crate::cache::model::CacheModel::new(self.l1_sets, self.l1_ways)?;
        let checks = [
            (
                (1..=16).contains(&self.channel_depth),
                "channel_depth must be 1..=16",
            ),
            (self.core_ps >= 1, "core_ps must be ≥ 1"),
            (
                (1..=64).contains(&self.cdc_depth),
                "cdc_depth must be 1..=64",
            ),
            (
                (1..=8).contains(&self.cdc_stages),
                "cdc_stages must be 1..=8",
            ),
            (
                (1..=1024).contains(&self.miss_queue),
                "miss_queue must be 1..=1024",
            ),
            (self.core_ps <= 1_000_000, "core_ps must be ≤ 1,000,000"),
            (self.l1_hit <= 1000, "l1_hit must be ≤ 1000"),
            (self.l1_hit >= 1, "l1_hit must be ≥ 1"),
            (
                self.refresh_phase < part.refi,
                "refresh_phase must be below the part's tREFI",
            ),
        ];
        match checks.iter().find(|(ok, _)| !ok) {
            Some((_, why)) => Err(format!("memory: {why}")),
            None => Ok(part),
        }
    }
}
