//! Kernels on the compute unit's RTL top ([`ComputeUnitTop`]) beside the behavioural compute
//! unit: the same code and launch on both, and their issue events compared cycle by cycle.
//!
//! The top's memory port is served here, as the fixed-latency memory of the behavioural
//! unit serves its accesses: a request's access happens in its cycle, its response comes
//! `flat` / `smem` cycles later ([`PortMemory`]); both sides start from the same memory image
//! and their final memories are compared.
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
use rtgpu_hw::cu_top::{
    ComputeUnitTop, CODE_WORDS, CONTEXTS, GROUP_CONTEXTS, LDS_PART_WORDS, LDS_WORDS, UNITS,
};
use rtgpu_hw::sched::model::Policy;
use rust_hdl::core::prelude::*;
use std::collections::VecDeque;

/// One instruction issue: the launch cycle, the issue unit, the wavefront (its global index)
/// and the PC.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IssueEvent {
    /// Cycle from the launch's first.
    pub cycle: u64,
    /// The issue unit (0: the SIMD; 1: the SpSIMD of PWS).
    pub unit: u8,
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
    /// The data memory after the launch.
    pub mem: Vec<u32>,
    /// Splits carried out (a context copied into another).
    pub splits: u64,
    /// The launch ended within the cycle limit (an RTL run that did not end still shows its
    /// issues, so that the first difference can be found).
    pub ended: bool,
}

/// A launch the RTL top can run: one SIMD group, no splitting or DWS with S = 1, rtgpu's
/// simple ABI.
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
    /// No splitting or DWS (S = 1).
    pub mode: Mode,
}

impl TopLaunch {
    /// The behavioural compute unit's configuration of the RTL top's shape: one SIMD of
    /// [`CONTEXTS`] contexts, the top's LDS ([`LDS_WORDS`]), default latencies.
    pub fn config() -> CuConfig {
        CuConfig {
            n_simd: 1,
            n_wfc: CONTEXTS,
            code_bytes: (CODE_WORDS * 4) as u32,
            lds_bytes: (LDS_WORDS * 4) as u32,
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
            // (The top's partition: docs/assumptions.md#A126.)
            lds_per_wg: (LDS_PART_WORDS * 4) as u32,
            mode: self.mode,
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

/// The data memory of a launch with image `mem`: its dwords (at least one).
fn memory_words(mem: &[u32]) -> usize {
    mem.len().max(1)
}

/// Runs `code` on the behavioural compute unit for at most `limit` cycles, with the data
/// memory `mem` (its size is the memory's).
pub fn run_behavioural(
    code: &[u32],
    l: &TopLaunch,
    mem: &[u32],
    limit: u64,
) -> Result<TopRun, String> {
    let mut cfg = TopLaunch::config();
    cfg.mem_bytes = 4 * memory_words(mem) as u64;
    let mut cu = ComputeUnit::new(cfg)?;
    cu.mem.words_mut()[..mem.len()].copy_from_slice(mem);
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
            unit: r.unit,
            wave: r.wave,
            pc: r.pc,
        })
        .collect();
    Ok(TopRun {
        issues,
        cycles: cu.counters().cycles,
        fault,
        mem: cu.mem.words().to_vec(),
        splits: cu.counters().splits,
        ended: true,
    })
}

/// Runs `code` on the RTL top under `engine` for at most `limit` cycles, with the data
/// memory `mem` behind its memory port.
pub fn run_rtl(
    code: &[u32],
    l: &TopLaunch,
    mem: &[u32],
    engine: Engine,
    limit: u64,
) -> Result<TopRun, String> {
    if code.len() > CODE_WORDS {
        return Err(format!(
            "{} code dwords do not fit the RTL top's {CODE_WORDS}",
            code.len()
        ));
    }
    let (code, l) = (code.to_vec(), *l);
    let mut words = mem.to_vec();
    words.resize(memory_words(mem), 0);
    with_rtl_stack(move || drive(&code, &l, words, engine, limit).map_err(|e| e.to_string()))
        .map_err(|_| "the RTL top's simulation panicked".to_string())?
}

fn drive(
    code: &[u32],
    l: &TopLaunch,
    words: Vec<u32>,
    engine: Engine,
    limit: u64,
) -> Result<TopRun, String> {
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
    let mut port = PortMemory::new(words);
    h.cycle(
        |u| {
            start(u, l);
            u.mem_words.next = (port.words.len() as u64).to_bits();
            u.lds_words.next = (LDS_PART_WORDS as u64).to_bits();
        },
        |_| (),
    )
    .map_err(err)?;
    let mut run = TopRun {
        issues: Vec::new(),
        cycles: 0,
        fault: None,
        mem: Vec::new(),
        splits: 0,
        ended: false,
    };
    let mut slots = [0u32; GROUP_CONTEXTS];
    for cycle in 0..limit {
        let due = port.due(cycle);
        let (busy, fault, pc) = h
            .cycle(
                |u| {
                    u.launch.next = false;
                    due.drive(u);
                },
                |u| {
                    run.splits += u64::from(u.copy.val());
                    observe(u, l, cycle, &mut slots, &mut run.issues);
                    port.take(u, cycle);
                    (u.busy.val(), u.fault.val(), u.fault_pc.val().index() as u32)
                },
            )
            .map_err(err)?;
        if !busy {
            run.cycles = cycle;
            run.fault = fault.then_some(pc);
            run.mem = port.words;
            run.ended = true;
            return Ok(run);
        }
    }
    run.cycles = limit;
    run.mem = port.words;
    Ok(run)
}

/// A vector response: due cycle, tag, store, lanes, data.
type VResp = (u64, u64, bool, u64, [u32; 64]);

/// A scalar response: due cycle, tag, store, dwords, data.
type SResp = (u64, u64, bool, u64, [u32; 4]);

/// The responses of one cycle (none, one or both).
pub struct Responses {
    v: Option<VResp>,
    s: Option<SResp>,
}

impl Responses {
    /// Drives them on the top's response inputs.
    pub fn drive(&self, u: &mut ComputeUnitTop) {
        u.vresp.next = self.v.is_some();
        let (_, tag, store, mask, data) = self.v.unwrap_or((0, 0, false, 0, [0; 64]));
        u.vresp_tag.next = tag.to_bits();
        u.vresp_store.next = store;
        u.vresp_mask.next = mask.to_bits();
        for (l, d) in data.iter().enumerate() {
            u.vresp_data[l].next = u64::from(*d).to_bits();
        }
        u.sresp.next = self.s.is_some();
        let (_, tag, store, n, data) = self.s.unwrap_or((0, 0, false, 0, [0; 4]));
        u.sresp_tag.next = tag.to_bits();
        u.sresp_store.next = store;
        u.sresp_n.next = n.to_bits();
        for (i, d) in data.iter().enumerate() {
            u.sresp_data[i].next = u64::from(*d).to_bits();
        }
    }
}

/// The fixed-latency memory behind the top's memory port, served from Rust: a request's
/// access in its cycle (a vector store's lanes in ascending order, so the highest of lanes
/// naming one word stays; a scalar store's one word), its response `flat` − 1 (vector) or `smem` − 1 (scalar) cycles later,
/// the cycle before the behavioural retire cycle (the top counts it in the next).
pub struct PortMemory {
    /// The data memory.
    pub words: Vec<u32>,
    vector: VecDeque<VResp>,
    scalar: VecDeque<SResp>,
}

impl PortMemory {
    /// A memory of `words`, nothing in flight.
    pub fn new(words: Vec<u32>) -> Self {
        Self {
            words,
            vector: VecDeque::new(),
            scalar: VecDeque::new(),
        }
    }

    fn word(&self, a: u64) -> u32 {
        self.words.get(a as usize).copied().unwrap_or(0)
    }

    /// Takes the responses due in `cycle`.
    pub fn due(&mut self, cycle: u64) -> Responses {
        let v = match self.vector.front() {
            Some(r) if r.0 == cycle => self.vector.pop_front(),
            _ => None,
        };
        let s = match self.scalar.front() {
            Some(r) if r.0 == cycle => self.scalar.pop_front(),
            _ => None,
        };
        Responses { v, s }
    }

    /// Takes the requests of `cycle`: the access now, the response queued.
    pub fn take(&mut self, u: &ComputeUnitTop, cycle: u64) {
        let lat = TopLaunch::config().lat;
        if u.vreq.val() {
            let mask = u.vmask.val().to_u64();
            let store = u.vstore.val();
            let mut data = [0u32; 64];
            for (l, d) in data
                .iter_mut()
                .enumerate()
                .filter(|(l, _)| mask >> l & 1 == 1)
            {
                let a = u.vaddr[l].val().index() as u64;
                match store {
                    true => {
                        if let Some(w) = self.words.get_mut(a as usize) {
                            *w = u.vdata[l].val().index() as u32;
                        }
                    }
                    false => *d = self.word(a),
                }
            }
            let tag = u.vtag.val().index() as u64;

            let due = cycle + u64::from(lat.flat) - 1;
            self.vector.push_back((due, tag, store, mask, data));
        }
        if u.sreq.val() {
            let (a, n) = (u.saddr.val().index() as u64, u.sn.val().index() as u64);
            let store = u.sstore.val();
            let mut data = [0u32; 4];
            match store {
                true => {
                    if let Some(w) = self.words.get_mut(a as usize) {
                        *w = u.sdata.val().index() as u32;
                    }
                }
                false => {
                    for (i, d) in data.iter_mut().enumerate().take(n as usize) {
                        *d = self.word(a + i as u64);
                    }
                }
            }
            let due = cycle + u64::from(lat.smem) - 1;
            let tag = u.stag.val().index() as u64;
            self.scalar.push_back((due, tag, store, n, data));
        }
    }
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
    u.split_on.next = l.mode != Mode::NoSplit;
    u.dws.next = l.mode == Mode::Dws;
}

/// Reads one cycle's probes: a dispatch names the context's wavefront (in `slots`, by
/// context `k`), a split's copy gives the child's context its parent's, the issues are
/// recorded (in `issues`, in the cycle's unit order, with the wavefront each context holds).
pub fn observe(
    u: &ComputeUnitTop,
    l: &TopLaunch,
    cycle: u64,
    slots: &mut [u32; GROUP_CONTEXTS],
    issues: &mut Vec<IssueEvent>,
) {
    let order = match u.first.val() {
        true => [1, 0],
        false => [0, 1],
    };
    for n in order {
        if u.issue_valid[n].val() {
            let k = u.issue_slot[n].val().index();
            issues.push(IssueEvent {
                cycle,
                unit: n as u8,
                wave: slots.get(k).copied().unwrap_or(u32::MAX),
                pc: u.issue_pc[n].val().index() as u32,
            });
        }
    }
    if u.copy.val() {
        let (from, to) = (u.copy_from.val().index(), u.copy_to.val().index());
        if let (Some(&w), true) = (slots.get(from), to < slots.len()) {
            slots[to] = w;
        }
    }
    if u.send.val() {
        let slot = UNITS * u.send_slot.val().index();
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
    if !rtl.ended {
        return Some(format!(
            "the RTL launch did not end in {} cycles (the behavioural one took {})",
            rtl.cycles, behavioural.cycles
        ));
    }
    if let Some(i) = (0..behavioural.mem.len().max(rtl.mem.len()))
        .find(|&i| behavioural.mem.get(i) != rtl.mem.get(i))
    {
        return Some(format!(
            "memory dword {i} (byte {:#x}): behavioural {:?}, RTL {:?}",
            4 * i,
            behavioural.mem.get(i),
            rtl.mem.get(i)
        ));
    }
    if behavioural.splits != rtl.splits {
        return Some(format!(
            "splits: behavioural {}, RTL {}",
            behavioural.splits, rtl.splits
        ));
    }
    if behavioural.fault != rtl.fault {
        return Some(format!(
            "fault: behavioural {:?}, RTL {:?}",
            behavioural.fault, rtl.fault
        ));
    }
    // A launch that stops on a fault counts its fault cycle on the RTL only
    // (docs/assumptions.md#A108).
    let fault_cycle = u64::from(rtl.fault.is_some());
    (behavioural.cycles + fault_cycle != rtl.cycles).then(|| {
        format!(
            "cycles: behavioural {} (+ {fault_cycle} for a fault), RTL {}",
            behavioural.cycles, rtl.cycles
        )
    })
}
