//! Kernels on the compute unit's RTL top ([`ComputeUnitTop`]) beside the behavioural compute
//! unit: the same code and launch on both, and their issue events compared cycle by cycle.
//!
//! The top's memory port is served here by the fixed-latency memory's reference model, as
//! the fixed-latency memory of the behavioural unit serves its accesses: a request's access
//! happens in its cycle, its response comes `flat` − 1 / `smem` − 1 cycles later and the top
//! counts it in the next ([`PortMemory`]); both sides start from the same memory image and
//! their final memories are compared.
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
use rtgpu_hw::fixed_mem::{FixedMemIn, FixedMemOut, FixedMemoryModel};
use rtgpu_hw::sched::model::Policy;
use rust_hdl::core::prelude::*;

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

/// A launch the RTL top can run: one SIMD group, no splitting, DWS with any S or PWS with
/// S = 1, rtgpu's simple ABI.
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
    /// No splitting, DWS or PWS.
    pub mode: Mode,
    /// S: DWS's most live splits of a wavefront (1..=7); 1 under PWS.
    pub s: u32,
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
            s: self.s,
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
            u.mem_words.next = (port.words().len() as u64).to_bits();
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
        let responses = port.responses();
        let (busy, fault, pc) = h
            .cycle(
                |u| {
                    u.launch.next = false;
                    drive_responses(u, &responses);
                },
                |u| {
                    run.splits += u64::from(u.copy.val());
                    observe(u, l, cycle, &mut slots, &mut run.issues);
                    port.take(u);
                    (u.busy.val(), u.fault.val(), u.fault_pc.val().index() as u32)
                },
            )
            .map_err(err)?;
        if !busy {
            run.cycles = cycle;
            run.fault = fault.then_some(pc);
            run.mem = port.words().to_vec();
            run.ended = true;
            return Ok(run);
        }
    }
    run.cycles = limit;
    run.mem = port.words().to_vec();
    Ok(run)
}

/// The fixed-latency memory behind the top's memory port: the block's reference model
/// ([`FixedMemoryModel`]) at latencies `flat` − 1 and `smem` − 1, so that a request's response
/// comes in the cycle before the behavioural retire cycle (the top counts it in the next). The
/// model holds a power of two of words; the launch's memory is its first `len`, and no access
/// passes them (the top requests a faulting FLAT instruction's lanes below the fault only,
/// and a faulting SMEM load not at all).
pub struct PortMemory {
    mem: FixedMemoryModel,
    len: usize,
}

impl PortMemory {
    /// A memory of `words`, nothing in flight.
    pub fn new(words: Vec<u32>) -> Self {
        let mut mem = FixedMemoryModel::new(words.len().next_power_of_two());
        mem.words_mut()[..words.len()].copy_from_slice(&words);
        Self {
            mem,
            len: words.len(),
        }
    }

    /// The launch's memory.
    pub fn words(&self) -> &[u32] {
        &self.mem.words()[..self.len]
    }

    /// The responses of the current cycle.
    pub fn responses(&self) -> FixedMemOut {
        self.mem.outputs()
    }

    /// Takes the cycle's requests from the top's outputs and clocks the memory.
    pub fn take(&mut self, u: &ComputeUnitTop) {
        let lat = TopLaunch::config().lat;
        let early = |l: u32| u16::try_from(l.saturating_sub(1)).unwrap_or(u16::MAX);
        let bits32 = |b: Bits<32>| b.index() as u32;
        let i = FixedMemIn {
            flat_lat: early(lat.flat),
            smem_lat: early(lat.smem),
            vreq: u.vreq.val(),
            vstore: u.vstore.val(),
            vmask: u.vmask.val().to_u64(),
            vaddr: std::array::from_fn(|l| bits32(u.vaddr[l].val())),
            vdata: std::array::from_fn(|l| bits32(u.vdata[l].val())),
            vtag: bits32(u.vtag.val()),
            sreq: u.sreq.val(),
            saddr: bits32(u.saddr.val()),
            sn: u.sn.val().index() as u8,
            stag: bits32(u.stag.val()),
            sstore: u.sstore.val(),
            sdata: bits32(u.sdata.val()),
            ..FixedMemIn::default()
        };
        self.mem.clock(&i);
    }
}

/// Drives the memory's responses `o` on the top's response inputs.
pub fn drive_responses(u: &mut ComputeUnitTop, o: &FixedMemOut) {
    u.vresp.next = o.vresp;
    u.vresp_tag.next = u64::from(o.vresp_tag).to_bits();
    u.vresp_store.next = o.vresp_store;
    u.vresp_mask.next = o.vresp_mask.to_bits();
    for (port, d) in u.vresp_data.iter_mut().zip(o.vresp_data) {
        port.next = u64::from(d).to_bits();
    }
    u.sresp.next = o.sresp;
    u.sresp_tag.next = u64::from(o.sresp_tag).to_bits();
    u.sresp_store.next = o.sresp_store;
    u.sresp_n.next = u64::from(o.sresp_n).to_bits();
    for (port, d) in u.sresp_data.iter_mut().zip(o.sresp_data) {
        port.next = u64::from(d).to_bits();
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
    u.s.next = u64::from(l.s).to_bits();
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
    let first = u.first.val().index();
    for n in (0..UNITS).map(|i| (first + i) % UNITS) {
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
