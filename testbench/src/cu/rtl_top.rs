//! Kernels on the compute unit's RTL top ([`ComputeUnitTop`]) beside the behavioural compute
//! unit: the same code and launch on both, and their issue events compared cycle by cycle.
//!
//! Cycles are counted from the launch's first cycle. The behavioural unit dispatches in the
//! cycle of its doorbell (cycle 0); the RTL top's dispatcher takes the launch in a cycle of
//! its own (its `start` cycle), so the RTL's cycle 0 is the one after `launch`.

use crate::sim::clock::Period;
use crate::sim::harness::{Harness, HarnessError};
use crate::sim::twin::with_rtl_stack;
use crate::sim::vl::{Engine, VlOptions};
use crate::tb::TB_PERIOD_PS;
use rtgpu_hw::cu::{ComputeUnit, CuConfig, Launch, Mode, Status};
use rtgpu_hw::cu_top::{ComputeUnitTop, CODE_WORDS, CONTEXTS};
use rtgpu_hw::sched::model::Policy;
use rust_hdl::core::prelude::*;

/// One instruction issue: the launch cycle, the wavefront (its global index) and the PC.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IssueEvent {
    /// Cycle from the launch's first.
    pub cycle: u64,
    /// Global wavefront index (work-group × wavefronts per work-group + wave).
    pub wave: u32,
    /// The instruction's byte address.
    pub pc: u32,
}

/// What a launch did on one side.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TopRun {
    /// Every issue, in order.
    pub issues: Vec<IssueEvent>,
    /// Cycles until the launch ended.
    pub cycles: u64,
    /// The PC of the instruction that stopped the launch on an error.
    pub fault: Option<u32>,
}

/// A launch the RTL top can run: one SIMD group, no splitting, rtgpu's simple ABI.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TopLaunch {
    /// Work-items in the launch.
    pub grid: u32,
    /// Work-items per work-group.
    pub wg: u32,
    /// The kernel argument segment's address.
    pub kernarg: u64,
    /// The issue policy.
    pub policy: Policy,
}

impl TopLaunch {
    /// The behavioural compute unit's configuration of the RTL top's shape: one SIMD of
    /// [`CONTEXTS`] contexts, default latencies.
    pub fn config() -> CuConfig {
        CuConfig {
            n_simd: 1,
            n_wfc: CONTEXTS,
            code_bytes: (CODE_WORDS * 4) as u32,
            ..CuConfig::default()
        }
    }

    /// The behavioural launch.
    pub fn behavioural(&self) -> Launch {
        Launch {
            entry_pc: 0,
            abi: self.kernarg.into(),
            grid: self.grid,
            wg: self.wg,
            lds_per_wg: 0,
            mode: Mode::NoSplit,
            s: 1,
            policy: self.policy,
            reorder: false,
            idu: None,
            trace_addr: 0,
            exec: Default::default(),
        }
    }

    fn waves(&self) -> u32 {
        self.wg.div_ceil(64)
    }
}

/// Runs `code` on the behavioural compute unit for at most `limit` cycles.
pub fn run_behavioural(code: &[u32], l: &TopLaunch, limit: u64) -> Result<TopRun, String> {
    let mut cu = ComputeUnit::new(TopLaunch::config())?;
    cu.code = code.to_vec();
    cu.issue_log = Some(Vec::new());
    cu.launch(l.behavioural());
    let mut n = 0;
    while cu.status() == Status::Busy && n < limit {
        cu.step();
        n += 1;
    }
    let fault = match cu.status() {
        Status::Done => None,
        Status::Error(f) => Some(f.pc),
        s => {
            return Err(format!(
                "the behavioural launch did not end in {limit} cycles: {s:?}"
            ))
        }
    };
    let issues = cu
        .issue_log
        .take()
        .unwrap_or_default()
        .iter()
        .map(|r| IssueEvent {
            cycle: r.cycle,
            wave: r.wave,
            pc: r.pc,
        })
        .collect();
    Ok(TopRun {
        issues,
        cycles: cu.counters().cycles,
        fault,
    })
}

/// Runs `code` on the RTL top under `engine` for at most `limit` cycles.
pub fn run_rtl(code: &[u32], l: &TopLaunch, engine: Engine, limit: u64) -> Result<TopRun, String> {
    if code.len() > CODE_WORDS {
        return Err(format!(
            "{} code dwords do not fit the RTL top's {CODE_WORDS}",
            code.len()
        ));
    }
    let (code, l) = (code.to_vec(), *l);
    with_rtl_stack(move || drive(&code, &l, engine, limit).map_err(|e| e.to_string()))
        .map_err(|_| "the RTL top's simulation panicked".to_string())?
}

fn drive(code: &[u32], l: &TopLaunch, engine: Engine, limit: u64) -> Result<TopRun, String> {
    let err = |e: HarnessError| e.to_string();
    let top = ComputeUnitTop::default();
    // A quick build: the top's Verilog is large, and a lock-step run is short.
    let opts = VlOptions {
        quick: true,
        ..VlOptions::default()
    };
    let mut h = Harness::with_engine(top, "cu_top", engine, &opts).map_err(err)?;
    h.add_clock("clock", Period::ps(TB_PERIOD_PS)?, |u| &mut u.clock)
        .map_err(err)?;
    h.cycle(|u| u.reset.next = true, |_| ()).map_err(err)?;
    for (i, &w) in code.iter().enumerate() {
        h.cycle(|u| write_code(u, i, w), |_| ()).map_err(err)?;
    }
    h.cycle(|u| start(u, l), |_| ()).map_err(err)?;
    let mut run = TopRun {
        issues: Vec::new(),
        cycles: 0,
        fault: None,
    };
    let mut slots = [0u32; CONTEXTS];
    for cycle in 0..limit {
        let (busy, fault, pc) = h
            .cycle(
                |u| u.launch.next = false,
                |u| {
                    observe(u, l, cycle, &mut slots, &mut run.issues);
                    (u.busy.val(), u.fault.val(), u.fault_pc.val().index() as u32)
                },
            )
            .map_err(err)?;
        if !busy {
            run.cycles = cycle;
            run.fault = fault.then_some(pc);
            return Ok(run);
        }
    }
    Err(format!("the RTL launch did not end in {limit} cycles"))
}

/// A code write through the code port (reset low): dword `i` = `w`.
pub fn write_code(u: &mut ComputeUnitTop, i: usize, w: u32) {
    u.reset.next = false;
    u.code_we.next = true;
    u.code_addr.next = (i as u64).to_bits();
    u.code_data.next = u64::from(w).to_bits();
}

/// The launch inputs, with `launch` high for this cycle.
pub fn start(u: &mut ComputeUnitTop, l: &TopLaunch) {
    let lat = TopLaunch::config().lat;
    u.code_we.next = false;
    u.launch.next = true;
    u.entry_pc.next = 0u64.to_bits();
    u.wg_count.next = u64::from(l.grid / l.wg).to_bits();
    u.waves.next = u64::from(l.waves()).to_bits();
    u.wg_size.next = u64::from(l.wg).to_bits();
    u.kernarg.next = l.kernarg.to_bits();
    u.gto.next = l.policy == Policy::Gto;
    u.rr.next = l.policy == Policy::Rr;
    u.lat_salu.next = u64::from(lat.salu).to_bits();
    u.lat_valu.next = u64::from(lat.valu).to_bits();
    u.lat_branch.next = u64::from(lat.branch).to_bits();
    u.issue_period.next = u64::from(lat.issue_period).to_bits();
}

/// Reads one cycle's probes: a dispatch names the slot's wavefront (in `slots`), an issue
/// is recorded (in `issues`, with the wavefront its slot holds).
pub fn observe(
    u: &ComputeUnitTop,
    l: &TopLaunch,
    cycle: u64,
    slots: &mut [u32; CONTEXTS],
    issues: &mut Vec<IssueEvent>,
) {
    if u.issue_valid.val() {
        let slot = u.issue_slot.val().index();
        issues.push(IssueEvent {
            cycle,
            wave: slots.get(slot).copied().unwrap_or(u32::MAX),
            pc: u.issue_pc.val().index() as u32,
        });
    }
    if u.send.val() {
        let slot = u.send_slot.val().index();
        let global = u.send_wg.val().index() as u32 * l.waves() + u.send_wave.val().index() as u32;
        if let Some(s) = slots.get_mut(slot) {
            *s = global;
        }
    }
}

/// The first difference between two runs' issue events, cycles and faults, described.
pub fn first_difference(behavioural: &TopRun, rtl: &TopRun) -> Option<String> {
    let (b, r) = (&behavioural.issues, &rtl.issues);
    if let Some(i) = (0..b.len().min(r.len())).find(|&i| b[i] != r[i]) {
        return Some(format!("issue {i}: behavioural {:?}, RTL {:?}", b[i], r[i]));
    }
    if b.len() != r.len() {
        return Some(format!(
            "issues: behavioural {}, RTL {} (next: {:?} / {:?})",
            b.len(),
            r.len(),
            b.get(r.len()),
            r.get(b.len())
        ));
    }
    if behavioural.fault != rtl.fault {
        return Some(format!(
            "fault: behavioural {:?}, RTL {:?}",
            behavioural.fault, rtl.fault
        ));
    }
    (behavioural.cycles != rtl.cycles).then(|| {
        format!(
            "cycles: behavioural {}, RTL {}",
            behavioural.cycles, rtl.cycles
        )
    })
}
