//! The compute unit's configuration (serde, unknown fields rejected) and launch parameters.

use super::idu_port::{IduLaunch, IduShape};
use crate::memsys::MemConfig;
use crate::sched::model::Policy;
use serde::{Deserialize, Serialize};

/// How divergent branches marked with `split`/`merge` run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// No splitting: `split` and `merge` are 1-cycle no-ops, the arms serialize.
    NoSplit,
    /// Dynamic wavefront splitting (the DWS baseline of docs/assumptions.md#A21): at a `split`
    /// whose lanes diverge, the wavefront splits into a free context of the *same* SIMD
    /// (time-shared with every other wavefront) if one is free and the wavefront has fewer than S
    /// live splits; otherwise it serializes.
    Dws,
    /// Predictable wavefront splitting: every `split` takes a context of a dedicated SpSIMD
    /// (Section 4.1 of the PWS paper); none free is the fatal `split_overflow`
    /// (docs/assumptions.md#A9).
    Pws,
}

impl Mode {
    /// `nosplit`, `dws` or `pws`.
    pub fn name(self) -> &'static str {
        match self {
            Mode::NoSplit => "nosplit",
            Mode::Dws => "dws",
            Mode::Pws => "pws",
        }
    }

    /// The mode with this register code (0 no-split, 1 DWS, 2 PWS).
    pub fn from_code(code: u32) -> Option<Mode> {
        [Mode::NoSplit, Mode::Dws, Mode::Pws]
            .get(code as usize)
            .copied()
    }

    /// The register code.
    pub fn code(self) -> u32 {
        self as u32
    }
}

/// Cycle costs of the compute unit. Defaults: gem5's GCN3 model where it has one (issue
/// period 4, pipeline length 4), E_SPLIT = 4 and E_MERGE = 2 (our choice, docs/assumptions.md#A10),
/// and fixed memory latencies (docs/assumptions.md#A30) until the memory hierarchy replaces them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Latencies {
    /// Cycles a vector instruction occupies its unit's VALU (64 lanes on 16-wide SIMD: 4).
    pub issue_period: u32,
    /// Cycles from a VALU issue to its wavefront's next issue (result latency).
    pub valu: u32,
    /// Cycles from a SALU issue to its wavefront's next issue.
    pub salu: u32,
    /// Cycles from a branch issue to its wavefront's next issue (taken or not: constant).
    pub branch: u32,
    /// FLAT (vector memory) latency: issue to data written back / vmcnt decremented.
    pub flat: u32,
    /// Scalar memory latency (lgkmcnt).
    pub smem: u32,
    /// LDS latency (lgkmcnt).
    pub lds: u32,
    /// Cycles the LDS takes to accept one DS instruction, 1..=16: the RTL LDS takes a
    /// wavefront's 64 lanes 16 per cycle (4). A DS instruction issued in cycle k keeps the LDS
    /// from every unit in k..k + `lds_period` − 1 (docs/assumptions.md#A104); 1 gives one DS
    /// instruction per cycle per compute unit.
    pub lds_period: u32,
    /// E_SPLIT: `split` issue to both wavefronts ready (1..=15).
    pub e_split: u8,
    /// E_MERGE: rendezvous to the parent ready (1..=15).
    pub e_merge: u8,
    /// Memory jitter (a test hook; 0, the default, is off): with a nonzero seed each FLAT,
    /// SMEM and LDS access with a fixed latency completes early, 1..=its latency cycles after
    /// issue, drawn per access from the seed and the access's serial number (memory hits,
    /// short requests). The WCET bound is computed for the nominal latencies.
    pub jitter: u64,
}

impl Latencies {
    /// The cycles access `serial` of class latency `nominal` takes: `nominal`, or with
    /// [`Latencies::jitter`] a value in 1..=`nominal` drawn from the seed and `serial`.
    pub fn jittered(&self, nominal: u32, serial: u64) -> u32 {
        if self.jitter == 0 || nominal <= 1 {
            return nominal;
        }
        // splitmix64 of the seed and the serial.
        let mut z = self.jitter ^ serial.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        1 + (z % u64::from(nominal)) as u32
    }
}

impl Default for Latencies {
    fn default() -> Self {
        Self {
            issue_period: 4,
            valu: 4,
            salu: 1,
            branch: 2,
            flat: 64,
            smem: 32,
            lds: 16,
            lds_period: 4,
            e_split: 4,
            e_merge: 2,
            jitter: 0,
        }
    }
}

/// The compute unit's shape and costs (`rtgpu run --config FILE`, TOML or JSON).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct CuConfig {
    /// N_SIMD: SIMD units (each with its S SpSIMDs under PWS), 1..=8. Paper: 4.
    pub n_simd: usize,
    /// N_WFC: wavefront contexts per SIMD/SpSIMD, 1..=16. gem5: 10.
    pub n_wfc: usize,
    /// LDS bytes of the compute unit (shared by its resident work-groups), a multiple of 4 up
    /// to [`MAX_LDS_BYTES`]. gem5: 64 KiB.
    pub lds_bytes: u32,
    /// Data memory bytes (a multiple of 4), 4..=[`MAX_MEM_BYTES`]: the model allocates it.
    pub mem_bytes: u64,
    /// Instruction memory bytes (a multiple of 4), 4..=[`MAX_CODE_BYTES`].
    pub code_bytes: u32,
    /// Merge watchdog: cycles in MERGE_WAIT before `merge_watchdog`, 0 = off. Default 65,535:
    /// with reordering on, a merge partner can wait tens of thousands of cycles for its loads.
    pub watchdog: u16,
    /// Cycle costs.
    pub lat: Latencies,
    /// The global memory hierarchy.
    pub memory: MemConfig,
    /// The VALU lane clusters behind the IDU (used when a launch turns the IDU on).
    pub idu: IduShape,
}

impl Default for CuConfig {
    fn default() -> Self {
        Self {
            n_simd: 4,
            n_wfc: 10,
            lds_bytes: 64 * 1024,
            mem_bytes: 16 << 20,
            code_bytes: 64 * 1024,
            watchdog: u16::MAX,
            lat: Latencies::default(),
            memory: MemConfig::default(),
            idu: IduShape::default(),
        }
    }
}

/// The most data memory a configuration may give the model (it is allocated): 1 GiB.
pub const MAX_MEM_BYTES: u64 = 1 << 30;
/// The most instruction memory a configuration may give the model: 16 MiB.
pub const MAX_CODE_BYTES: u32 = 16 << 20;
/// The most LDS a configuration may give the compute unit: 16 MiB.
pub const MAX_LDS_BYTES: u32 = 16 << 20;

impl CuConfig {
    /// The configuration is inside the ranges the compute unit supports; the message names
    /// the field and its range.
    pub fn check(&self) -> Result<(), String> {
        let range = |name: &str, v: usize, lo: usize, hi: usize| {
            if (lo..=hi).contains(&v) {
                Ok(())
            } else {
                Err(format!("config: {name} = {v} is outside {lo}..={hi}"))
            }
        };
        range("n_simd", self.n_simd, 1, 8)?;
        range("n_wfc", self.n_wfc, 1, 16)?;
        range("lat.e_split", self.lat.e_split.into(), 1, 15)?;
        range("lat.e_merge", self.lat.e_merge.into(), 1, 15)?;
        range("lat.issue_period", self.lat.issue_period as usize, 1, 64)?;
        range("lat.lds_period", self.lat.lds_period as usize, 1, 16)?;
        for (name, v) in [
            ("lat.valu", self.lat.valu),
            ("lat.salu", self.lat.salu),
            ("lat.branch", self.lat.branch),
            ("lat.flat", self.lat.flat),
            ("lat.smem", self.lat.smem),
            ("lat.lds", self.lat.lds),
        ] {
            range(name, v as usize, 1, 100_000)?;
        }
        if !self.mem_bytes.is_multiple_of(4)
            || !self.code_bytes.is_multiple_of(4)
            || !self.lds_bytes.is_multiple_of(4)
        {
            return Err(
                "config: mem_bytes, code_bytes and lds_bytes must be multiples of 4".into(),
            );
        }
        let mem = usize::try_from(self.mem_bytes).unwrap_or(usize::MAX);
        range("mem_bytes", mem, 4, MAX_MEM_BYTES as usize)?;
        range(
            "code_bytes",
            self.code_bytes as usize,
            4,
            MAX_CODE_BYTES as usize,
        )?;
        range(
            "lds_bytes",
            self.lds_bytes as usize,
            0,
            MAX_LDS_BYTES as usize,
        )?;
        range("idu.depth", self.idu.depth as usize, 1, 64)?;
        range("idu.ii", self.idu.ii as usize, 1, 64)?;
        if self.memory.hierarchy && self.n_simd * self.n_wfc > 64 {
            return Err("config: the reordering unit has 64 channels: n_simd × n_wfc ≤ 64".into());
        }
        self.memory.check().map(|_| ())
    }
}

/// What one launch runs (written by the driver into the launch registers).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Launch {
    /// Byte address of the first instruction in instruction memory.
    pub entry_pc: u32,
    /// How the wavefronts' registers start (the kernel argument segment address in the
    /// simple ABI).
    pub abi: super::Abi,
    /// Work-items in the launch.
    pub grid: u32,
    /// Work-items per work-group.
    pub wg: u32,
    /// LDS bytes per work-group.
    pub lds_per_wg: u32,
    /// Split mode.
    pub mode: Mode,
    /// S: SpSIMDs per SIMD (PWS) or the most live splits per wavefront (DWS), 1..=7.
    pub s: u32,
    /// Issue policy of every SIMD/SpSIMD.
    pub policy: Policy,
    /// The reordering unit releases global ld/st in its static order (the hierarchy only).
    pub reorder: bool,
    /// The IDU between issue and the VALU lane clusters (`None`: the fixed `lat.valu`).
    pub idu: Option<IduLaunch>,
    /// Byte address of the reordering unit's trace table in data memory
    /// ([`crate::memsys::plan`]; read at the launch when `reorder`).
    pub trace_addr: u64,
    /// GCN or Sim-D execution ([`crate::simd`]).
    pub exec: crate::simd::Exec,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Off, every access takes its latency; on, every access takes 1..=latency and the draws
    /// differ (the mutation that returns `nominal` fails the second assertion).
    #[test]
    fn jitter_shortens_within_the_nominal_latency() {
        let mut l = Latencies::default();
        assert!((0..100).all(|s| l.jittered(64, s) == 64));
        l.jitter = 42;
        let draws: Vec<u32> = (0..100).map(|s| l.jittered(64, s)).collect();
        assert!(draws.iter().all(|d| (1..=64).contains(d)));
        assert!(draws.iter().filter(|&&d| d < 64).count() > 50, "{draws:?}");
        assert_eq!(l.jittered(1, 5), 1);
    }
}
