//! The RTL system of one compute unit, [`CuSystem`]: the GPU's register map
//! ([`crate::gpu::regmap::RegMap`]) in front of the compute unit's RTL top
//! in its two-unit instance ([`crate::cu_top::ComputeUnitTop2`]: PWS at S = 1, about three
//! and a half times the four-unit top's speed under Verilator), with a data RAM behind the
//! `MEM_DATA` window; [`CuSystem4`] is the same system on the four-unit top
//! ([`crate::cu_top::ComputeUnitTop`]: PWS at S = 1, 2 and 3 too). The
//! firmware driver runs a kernel on it by register accesses, as it does on the behavioural
//! GPU ([`crate::gpu::Gpu`]); the testbench's `RtlBus` carries them over the Verilator engine.
//! The data memory is the fixed-latency memory [`crate::fixed_mem::FixedMemory`] at the
//! behavioural latencies ([`LAT_FLAT`], [`LAT_SMEM`]): the driver reaches it through
//! `MEM_DATA` on its `RAM`-like port, the compute unit through its memory port (FLAT and SMEM
//! requests and responses). The memory answers a request of cycle *k* in *k* + `LAT_FLAT` − 1
//! (or `LAT_SMEM` − 1): the top counts a response in the cycle after it, the behavioural
//! retire cycle (docs/assumptions.md#A116). A launch resets the memory's requests in flight
//! (those of a launch that faulted); the words stay.
//!
//! # Reference
//!
//! The behavioural [`crate::gpu::Gpu`] with one compute unit of [`config`] (one SIMD of
//! [`crate::cu_top::CONTEXTS`] contexts, the default latencies, code and data memories of
//! the system's sizes), restricted to what the top executes ([`crate::cu_top::supported()`], no-split,
//! DWS with any S, or PWS with S = 1 (S = 1..=3 on [`CuSystem4`]), rtgpu's simple ABI).
//!
//! # Ports
//!
//! | port | dir | width | meaning |
//! |---|---|---|---|
//! | `clock` | in | 1 | core clock |
//! | `reset` | in | 1 | power-on reset: the register map's defaults, status idle, counters 0 (the memories keep their words); registered, it acts at the edge after the next |
//! | `rd`, `wr`, `addr`, `wdata` | in | 1, 1, 32, 32 | the register bus access, registered at the edge that ends its cycle (the input stage); the register map sees it in the next cycle |
//! | `ack`, `err`, `err_code`, `rdata` | out | 1, 1, 2, 32 | its response, two cycles after the access |
//! | `status` | out | 2 | probe: `STATUS` |
//! | `issue_valid`, `issue_pc` | out | 1, 32 (each of 2 on `CuSystem`, 4 on `CuSystem4`) | probes: the compute unit's issue unit `u` issues, at this PC |
//!
//! # Registers: as the behavioural GPU
//!
//! `ID`, `VERSION`, `CTRL` (doorbell, reset), `STATUS`, `ERROR`, `ERROR_PC`, `ERROR_INFO`,
//! `CODE_ADDR`/`CODE_DATA` (onto the top's instruction memory, [`CODE_BYTES`]),
//! `MEM_ADDR`/`MEM_DATA` (onto the data memory's driver port, `4 · 2^A` bytes; [`MEM_ADDR_BITS`] in the
//! simulated system), `CODE_SIZE`, `MEM_SIZE`, every launch register as a register, `WF_SEL`,
//! and `WG_FIRST`, `WG_COUNT`, `CU_MASK` (kept beside the register map by
//! [`rtl::sub_kernel::SubKernelRegs`], with its timing and busy refusal). Counter 0 (`cycles`:
//! the launch's cycles, as the behavioural unit counts them, one more for a launch that
//! faults), counter 1 (`instructions`: instructions issued) and the `splits` counter (a
//! split's child copied while the unit is busy) count.
//!
//! # Registers: not (yet) as the behavioural GPU
//!
//! - The other counters, `COUNTER2`, `WF_COUNT`, `WF_START` and `WF_FINISH` read 0: the top
//!   has no per-class, stall, memory or per-wavefront counters yet.
//! - The registers of several compute units and of the queue (`N_CU` .. `ERROR_CU`) are
//!   unmapped, and `CTRL`'s enqueue bit is ignored (the register map's contract).
//! - A doorbell divides `GRID` by `WG` in a sequential divider first
//!   ([`rtl::divider::Divider`], 32 cycles, `STATUS` busy) and then runs the behavioural
//!   launch checks ([`rtl::launch_check::LaunchCheck`]); the compute unit's launch starts after
//!   that, so the launch's cycles (counter 0) equal the behavioural count but `STATUS` turns
//!   busy a cycle later (the input stage) and stays busy 33 cycles longer
//!   (docs/assumptions.md#A106).
//! - Settings the top does not have end in `bad_launch` with information code 10 instead of
//!   running: PWS with S above the top's SpSIMDs (1, or 3 on [`CuSystem4`]), any `FEATURES` bit other than reordering (which is
//!   code 7: the system has no memory hierarchy). A sub-kernel other than the
//!   whole launch on compute unit 0 is code 9 (docs/assumptions.md#A107). `LDS`, `IDU_CLUSTER`,
//!   and `TRACE_ADDR` are checked or kept but unused.
//! - A fault is `pc_out_of_range` (`ERROR_INFO` the PC) if the faulting PC is past the code
//!   memory, `memory_fault` (`ERROR_INFO` the byte address of the lowest bad lane) for a bad
//!   FLAT or SMEM address, else `illegal_instruction` (`ERROR_INFO` the instruction's first
//!   dword, read from the code memory while no `CODE_DATA` access uses its port).
//! - The latencies are the behavioural defaults as constants ([`LAT_SALU`] ..
//!   [`ISSUE_PERIOD`]); the behavioural GPU takes them from its configuration.
//!
//! # Timing
//!
//! Every input but the clock is registered first (the input stage: no logic depends on an
//! input within its cycle), then the register map's timing: one access per cycle, the response
//! two cycles after the access. `STATUS` is busy from two cycles after the doorbell's write.
//! The compute unit's timing from its `launch` on is the behavioural GPU's.

pub mod rtl;

pub use rtl::system::{CuSystem, CuSystem4};

use crate::cu::{CuConfig, Latencies};
use crate::cu_top::{CODE_WORDS, CONTEXTS};

/// The largest S [`CuSystem`] runs under PWS: its two-unit top's SpSIMDs.
pub const PWS_S_MAX2: usize = crate::cu_top::UNITS2 - 1;

/// The largest S [`CuSystem4`] runs under PWS: its four-unit top's SpSIMDs.
pub const PWS_S_MAX4: usize = crate::cu_top::UNITS - 1;

/// The data RAM's address width (dwords) of the simulated system: 262,144 dwords, 1 MiB (the
/// driver's image puts the argument segment at 4 KiB and the buffers from 64 KiB, so this
/// leaves 960 KiB of buffers: `vector_add`'s three at grid 65,536 take 768 KiB).
pub const MEM_ADDR_BITS: usize = 18;

/// The data RAM's address width of the synthesized system (`rtgpu synth`): 16 dwords, so
/// Yosys does not spend its time on the RAM's initial values.
pub const SYNTH_MEM_ADDR_BITS: usize = 4;

/// The simulated system.
pub type CuSystemSim = CuSystem<MEM_ADDR_BITS>;

/// The simulated system on the four-unit top (PWS at S = 2 and 3).
pub type CuSystem4Sim = CuSystem4<MEM_ADDR_BITS>;

/// Bytes of the instruction memory (the top's [`CODE_WORDS`]).
pub const CODE_BYTES: u32 = 4 * CODE_WORDS as u32;

/// Bytes of the simulated system's data memory.
pub const MEM_BYTES: u64 = 4 << MEM_ADDR_BITS;

/// LDS bytes per work-group the launch check accepts (the behavioural default `lds_bytes`).
pub const LDS_BYTES: u32 = 64 * 1024;

/// The first instruction of `code` the RTL system does not run: one its compute unit's top
/// does not execute ([`crate::cu_top::first_unsupported`]; the system serves the top's
/// memory port, so every instruction the top executes runs).
pub fn first_unsupported(code: &[u32]) -> Option<(u32, crate::cu_top::Unsupported)> {
    crate::cu_top::first_unsupported(code)
}

/// `Latencies::salu` of the system (the behavioural default).
pub const LAT_SALU: u32 = 1;
/// `Latencies::valu`.
pub const LAT_VALU: u32 = 4;
/// `Latencies::branch`.
pub const LAT_BRANCH: u32 = 2;
/// `Latencies::issue_period`.
pub const ISSUE_PERIOD: u32 = 4;
/// `Latencies::flat`: the data memory's vector latency.
pub const LAT_FLAT: u32 = 64;
/// `Latencies::smem`: the data memory's scalar latency.
pub const LAT_SMEM: u32 = 32;

/// The behavioural compute unit the system equals: one SIMD of [`CONTEXTS`] contexts, the
/// system's memories and latencies, no memory hierarchy.
pub fn config() -> CuConfig {
    let mut cfg = CuConfig {
        n_simd: 1,
        n_wfc: CONTEXTS,
        code_bytes: CODE_BYTES,
        mem_bytes: MEM_BYTES,
        lds_bytes: LDS_BYTES,
        ..CuConfig::default()
    };
    cfg.lat.salu = LAT_SALU;
    cfg.lat.valu = LAT_VALU;
    cfg.lat.branch = LAT_BRANCH;
    cfg.lat.issue_period = ISSUE_PERIOD;
    cfg.lat.flat = LAT_FLAT;
    cfg.lat.smem = LAT_SMEM;
    cfg.memory.hierarchy = false;
    cfg
}

/// Why a configuration is not the system's (`None`: it is): the first field that differs.
pub fn differs(cfg: &CuConfig) -> Option<String> {
    let sys = config();
    let fields: [(&str, u64, u64); 5] = [
        ("n_simd", cfg.n_simd as u64, 1),
        ("n_wfc", cfg.n_wfc as u64, CONTEXTS as u64),
        ("code_bytes", cfg.code_bytes.into(), CODE_BYTES.into()),
        ("mem_bytes", cfg.mem_bytes, MEM_BYTES),
        ("memory.hierarchy", cfg.memory.hierarchy.into(), 0),
    ];
    if let Some((name, got, want)) = fields.iter().find(|f| f.1 != f.2) {
        return Some(format!("{name} = {got} (the RTL system has {want})"));
    }
    let lat = |l: &Latencies| (l.salu, l.valu, l.branch, l.issue_period, l.flat, l.smem);
    (lat(&cfg.lat) != lat(&sys.lat)).then(|| {
        format!(
            "the latencies (salu, valu, branch, issue_period, flat, smem) = {:?} (the RTL system has {:?})",
            lat(&cfg.lat),
            lat(&sys.lat)
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The system's constants are the behavioural defaults it claims: fails if a latency
    /// constant or `LDS_BYTES` drifts from `CuConfig::default()`.
    #[test]
    fn constants_are_the_behavioural_defaults() {
        let d = CuConfig::default();
        assert_eq!(config().lat.salu, d.lat.salu);
        assert_eq!((LAT_FLAT, LAT_SMEM), (d.lat.flat, d.lat.smem));
        assert_eq!(config().lat, d.lat);
        assert_eq!(LDS_BYTES, d.lds_bytes);
        assert!(config().check().is_ok());
        assert_eq!(differs(&config()), None);
        assert!(differs(&d).is_some_and(|m| m.starts_with("n_simd = 4")));
    }
}
