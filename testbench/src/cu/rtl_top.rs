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
use crate::sim::vl::VlPorts;
use crate::sim::vl::{Engine, VlOptions};
use crate::tb::TB_PERIOD_PS;
use rtgpu_hw::cu::abi::MAX_USER_SGPRS;
use rtgpu_hw::cu::{Abi, ComputeUnit, CuConfig, Launch, Mode, Status};
use rtgpu_hw::cu_top::{
    ComputeUnitTop, ComputeUnitTop2, CODE_WORDS, CONTEXTS, LDS_PART_WORDS, LDS_WORDS, UNITS, UNITS2,
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
    /// The issue unit (0: the SIMD; 1.. the SpSIMDs of PWS).
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

impl TopRun {
    /// The units that issued, as a mask (bit `u` for unit `u`).
    pub fn units_issued(&self) -> u8 {
        self.issues.iter().fold(0, |m, e| m | 1 << e.unit)
    }
}

/// A launch the RTL tops can run: one SIMD group, no splitting, DWS with any S or PWS with
/// S = 1..=3 (the four-unit top) or S = 1 (the two-unit top), either kernel ABI.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TopLaunch {
    /// Work-items in the launch.
    pub grid: u32,
    /// Work-items per work-group.
    pub wg: u32,
    /// The kernel ABI: rtgpu's simple ABI with the argument segment's address, or the HSA ABI
    /// (`PGM_RSRC2` and the user SGPRs).
    pub abi: Abi,
    /// The issue policy.
    pub policy: Policy,
    /// No splitting, DWS or PWS.
    pub mode: Mode,
    /// S: DWS's most live splits of a wavefront (1..=7); the SpSIMDs under PWS (1..=3).
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
            abi: self.abi,
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

/// Runs `code` on the RTL top `T` (the four-unit [`ComputeUnitTop`] or the two-unit
/// [`ComputeUnitTop2`]) under `engine` for at most `limit` cycles, with the data memory `mem`
/// behind its memory port.
pub fn run_rtl<T: TopIo>(
    code: &[u32],
    l: &TopLaunch,
    mem: &[u32],
    engine: Engine,
    limit: u64,
) -> Result<TopRun, String> {
    if l.mode == Mode::Pws && !(1..T::UNITS as u32).contains(&l.s) {
        return Err(format!(
            "PWS at S = {}: the RTL top has {} issue units (S = 1..={})",
            l.s,
            T::UNITS,
            T::UNITS - 1
        ));
    }
    if code.len() > CODE_WORDS {
        return Err(format!(
            "{} code dwords do not fit the RTL top's {CODE_WORDS}",
            code.len()
        ));
    }
    let (code, l) = (code.to_vec(), *l);
    let mut words = mem.to_vec();
    words.resize(memory_words(mem), 0);
    with_rtl_stack(move || drive::<T>(&code, &l, words, engine, limit).map_err(|e| e.to_string()))
        .map_err(|_| "the RTL top's simulation panicked".to_string())?
}

fn drive<T: TopIo>(
    code: &[u32],
    l: &TopLaunch,
    words: Vec<u32>,
    engine: Engine,
    limit: u64,
) -> Result<TopRun, String> {
    let err = |e: HarnessError| e.to_string();
    // A quick build: the top's Verilog is large, and a lock-step run is short.
    let opts = VlOptions {
        quick: true,
        ..VlOptions::default()
    };
    let mut h = Harness::with_engine(T::default(), T::ROOT, engine, &opts).map_err(err)?;
    h.add_clock("clock", Period::ps(TB_PERIOD_PS)?, |u| u.clock_pin())
        .map_err(err)?;
    h.cycle(|u| u.hold_reset(), |_| ()).map_err(err)?;
    for (i, &w) in code.iter().enumerate() {
        h.cycle(|u| u.write_code(i, w), |_| ()).map_err(err)?;
    }
    let mut port = PortMemory::new(words);
    h.cycle(|u| u.start(l, port.words().len()), |_| ())
        .map_err(err)?;
    let mut run = TopRun {
        issues: Vec::new(),
        cycles: 0,
        fault: None,
        mem: Vec::new(),
        splits: 0,
        ended: false,
    };
    let mut slots = vec![0u32; CONTEXTS * T::UNITS];
    for cycle in 0..limit {
        let responses = port.responses();
        let status = h
            .cycle(
                |u| u.drive_responses(&responses),
                |u| {
                    let status = u.status();
                    run.splits += u64::from(u.copies());
                    u.observe(l, cycle, &mut slots, &mut run.issues);
                    port.clock(&u.requests());
                    status
                },
            )
            .map_err(err)?;
        if !status.busy {
            run.cycles = cycle;
            run.fault = status.fault;
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

    /// Takes the cycle's requests `i` (the top's [`TopIo::requests`]) at the fixed latencies and
    /// clocks the memory.
    pub fn clock(&mut self, i: &FixedMemIn) {
        let lat = TopLaunch::config().lat;
        let early = |l: u32| u16::try_from(l.saturating_sub(1)).unwrap_or(u16::MAX);
        self.mem.clock(&FixedMemIn {
            flat_lat: early(lat.flat),
            smem_lat: early(lat.smem),
            ..*i
        });
    }
}

/// What a cycle's status outputs say.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TopStatus {
    /// A launch is running.
    pub busy: bool,
    /// The launch stopped on an error: the PC of the instruction that stopped it.
    pub fault: Option<u32>,
}

/// The top's ports as the runner and the testbench drive and read them: the four-unit
/// [`ComputeUnitTop`] and the two-unit [`ComputeUnitTop2`], one macro's instances with the same
/// ports but for the per-unit probes.
pub trait TopIo: VlPorts + Default + Send + 'static {
    /// Its issue units.
    const UNITS: usize;
    /// The design's name in the harness (its waveform's root).
    const ROOT: &'static str;
    /// The clock input.
    fn clock_pin(&mut self) -> &mut Signal<In, Clock>;
    /// A cycle of reset.
    fn hold_reset(&mut self);
    /// A code write through the code port (reset low): dword `i` = `w`.
    fn write_code(&mut self, i: usize, w: u32);
    /// The launch inputs, with `launch` high for this cycle, for a data memory of
    /// `mem_words` dwords and the top's LDS partition per work-group.
    fn start(&mut self, l: &TopLaunch, mem_words: usize);
    /// A launch cycle's inputs: `launch` low, the memory's responses `o` on the top's
    /// response inputs.
    fn drive_responses(&mut self, o: &FixedMemOut);
    /// The cycle's requests on the memory port (the latencies left 0).
    fn requests(&self) -> FixedMemIn;
    /// A split's child is copied this cycle, while a launch runs (the top's `copy` probe).
    fn copies(&self) -> bool;
    /// The status outputs.
    fn status(&self) -> TopStatus;
    /// Reads one cycle's probes: a dispatch names the context's wavefront (in `slots`, by
    /// context `k`), a split's copy gives the child's context its parent's, the issues are
    /// recorded (in `issues`, in the cycle's unit order, with the wavefront each context
    /// holds).
    fn observe(&self, l: &TopLaunch, cycle: u64, slots: &mut [u32], issues: &mut Vec<IssueEvent>);
}

/// Implements [`TopIo`] for a `compute_unit_top!` instance with `$units` issue units.
macro_rules! top_io {
    ($ty:ty, $units:expr, $root:literal) => {
        impl TopIo for $ty {
            const UNITS: usize = $units;
            const ROOT: &'static str = $root;

            fn clock_pin(&mut self) -> &mut Signal<In, Clock> {
                &mut self.clock
            }

            fn hold_reset(&mut self) {
                self.reset.next = true;
            }

            fn write_code(&mut self, i: usize, w: u32) {
                self.reset.next = false;
                self.code_we.next = true;
                self.code_addr.next = (i as u64).to_bits();
                self.code_data.next = u64::from(w).to_bits();
            }

            fn start(&mut self, l: &TopLaunch, mem_words: usize) {
                let lat = TopLaunch::config().lat;
                self.reset.next = false;
                self.code_we.next = false;
                self.launch.next = true;
                self.entry_pc.next = 0u64.to_bits();
                self.wg_count.next = u64::from(l.grid / l.wg).to_bits();
                self.waves.next = u64::from(l.waves()).to_bits();
                self.wg_size.next = u64::from(l.wg).to_bits();
                let (hsa, kernarg, rsrc2, user) = match l.abi {
                    Abi::Rtgpu { kernarg } => (false, kernarg, 0, [0; MAX_USER_SGPRS]),
                    Abi::Hsa { rsrc2, user } => (true, 0, rsrc2, user),
                };
                self.hsa.next = hsa;
                self.kernarg.next = kernarg.to_bits();
                self.rsrc2.next = u64::from(rsrc2).to_bits();
                for (port, u) in self.user_data.iter_mut().zip(user) {
                    port.next = u64::from(u).to_bits();
                }
                self.gto.next = l.policy == Policy::Gto;
                self.rr.next = l.policy == Policy::Rr;
                self.lat_salu.next = u64::from(lat.salu).to_bits();
                self.lat_valu.next = u64::from(lat.valu).to_bits();
                self.lat_branch.next = u64::from(lat.branch).to_bits();
                self.issue_period.next = u64::from(lat.issue_period).to_bits();
                self.split_on.next = l.mode != Mode::NoSplit;
                self.dws.next = l.mode == Mode::Dws;
                self.s.next = u64::from(l.s).to_bits();
                self.mem_words.next = (mem_words as u64).to_bits();
                self.lds_words.next = (LDS_PART_WORDS as u64).to_bits();
            }

            fn drive_responses(&mut self, o: &FixedMemOut) {
                self.launch.next = false;
                self.vresp.next = o.vresp;
                self.vresp_tag.next = u64::from(o.vresp_tag).to_bits();
                self.vresp_store.next = o.vresp_store;
                self.vresp_mask.next = o.vresp_mask.to_bits();
                for (port, d) in self.vresp_data.iter_mut().zip(o.vresp_data) {
                    port.next = u64::from(d).to_bits();
                }
                self.sresp.next = o.sresp;
                self.sresp_tag.next = u64::from(o.sresp_tag).to_bits();
                self.sresp_store.next = o.sresp_store;
                self.sresp_n.next = u64::from(o.sresp_n).to_bits();
                for (port, d) in self.sresp_data.iter_mut().zip(o.sresp_data) {
                    port.next = u64::from(d).to_bits();
                }
            }

            fn requests(&self) -> FixedMemIn {
                let bits32 = |b: Bits<32>| b.index() as u32;
                FixedMemIn {
                    vreq: self.vreq.val(),
                    vstore: self.vstore.val(),
                    vmask: self.vmask.val().to_u64(),
                    vaddr: std::array::from_fn(|l| bits32(self.vaddr[l].val())),
                    vdata: std::array::from_fn(|l| bits32(self.vdata[l].val())),
                    vtag: bits32(self.vtag.val()),
                    sreq: self.sreq.val(),
                    saddr: bits32(self.saddr.val()),
                    sn: self.sn.val().index() as u8,
                    stag: bits32(self.stag.val()),
                    sstore: self.sstore.val(),
                    sdata: bits32(self.sdata.val()),
                    ..FixedMemIn::default()
                }
            }

            fn copies(&self) -> bool {
                self.copy.val()
            }

            fn status(&self) -> TopStatus {
                TopStatus {
                    busy: self.busy.val(),
                    fault: self.fault.val().then(|| self.fault_pc.val().index() as u32),
                }
            }

            fn observe(
                &self,
                l: &TopLaunch,
                cycle: u64,
                slots: &mut [u32],
                issues: &mut Vec<IssueEvent>,
            ) {
                let first = self.first.val().index();
                for n in (0..$units).map(|i| (first + i) % $units) {
                    if self.issue_valid[n].val() {
                        let k = self.issue_slot[n].val().index();
                        issues.push(IssueEvent {
                            cycle,
                            unit: n as u8,
                            wave: slots.get(k).copied().unwrap_or(u32::MAX),
                            pc: self.issue_pc[n].val().index() as u32,
                        });
                    }
                }
                if self.copy.val() {
                    let (from, to) = (self.copy_from.val().index(), self.copy_to.val().index());
                    if let (Some(&w), true) = (slots.get(from), to < slots.len()) {
                        slots[to] = w;
                    }
                }
                if self.send.val() {
                    let slot = $units * self.send_slot.val().index();
                    let global = self.send_wg.val().index() as u32 * l.waves()
                        + self.send_wave.val().index() as u32;
                    if let Some(s) = slots.get_mut(slot) {
                        *s = global;
                    }
                }
            }
        }
    };
}

top_io!(ComputeUnitTop, UNITS, "cu_top");
top_io!(ComputeUnitTop2, UNITS2, "cu_top2");

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
