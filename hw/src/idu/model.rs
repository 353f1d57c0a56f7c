//! Reference model of the IDU, written from the contract in [`super`] (the module
//! documentation of `idu/mod.rs`) and the thesis' Section 4.3.2 only.
//!
//! Two parts:
//! - [`DispatcherModel`]: the dispatcher, cycle-accurate on its own clock.
//!   [`DispatcherModel::outputs`] is what it drives during the current cycle (combinational
//!   from the registers and the cycle's inputs), [`DispatcherModel::step`] returns the same
//!   outputs and then applies the rising edge that ends the cycle.
//! - [`IduSystem`]: the multi-clock harness of the contract's "clusters" section: the
//!   dispatcher plus, per (type, cluster), a one-entry input latch and a pipeline, each domain
//!   on its own period, all on one picosecond timeline.
//!
//! Port widths follow the contract: `cfg_type` and `in_type` are 2 bits, `cfg_cluster` 3 bits,
//! `ready` K bits. Higher bits of the `u8` fields of [`DispIn`] are dropped, as a port of that
//! width would drop them (so `cfg_type` = 4 is a write to type 0; the "bad" values the contract
//! ignores are type 3 and cluster K..=7).
//!
//! Readings of the contract where it leaves a choice (the edge of one cycle, in priority
//! order):
//! 1. `reset` overrides everything else of the cycle.
//! 2. `launch` clears every counter and sets `active`; in that cycle the configuration write,
//!    the counter update of a dispatch (possible only when already active) and `stop` are
//!    ignored. The dispatch itself (the outputs of the cycle) still happens.
//! 3. Otherwise, a configuration write applies when `active` (the register, as it is during
//!    the cycle) is 0; the counters update on `dispatch & enable`; `stop` clears `active`.
//!    A write in the `stop` cycle is therefore still ignored (the unit is active during it).
//!
//! The registers power up as after `reset` (every counter, limit and working bit 0, not
//! active).

use std::collections::VecDeque;

/// Number of instruction types (0 SP, 1 SFU, 2 LD/ST).
pub const TYPES: usize = 3;
/// Largest number of clusters per type.
pub const MAX_K: usize = 8;

/// Width of the `cfg_type` / `in_type` ports.
const TYPE_BITS: u8 = 0b11;
/// Width of the `cfg_cluster` port (and of `sel`).
const CLUSTER_BITS: u8 = 0b111;

/// Inputs of one dispatcher cycle, sampled at the rising edge that ends it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DispIn {
    /// Synchronous reset: every counter, limit and working bit 0, not active.
    pub reset: bool,
    /// Configuration write enable.
    pub cfg_we: bool,
    /// Type of the configuration write (2 bits; 3 is ignored).
    pub cfg_type: u8,
    /// Cluster of the configuration write (3 bits; K and above are ignored).
    pub cfg_cluster: u8,
    /// Working bit written by the configuration write.
    pub cfg_working: bool,
    /// Limit written by the configuration write.
    pub cfg_limit: u8,
    /// The kernel starts: every counter 0, active 1.
    pub launch: bool,
    /// The kernel ended: active 0 (counters keep their values).
    pub stop: bool,
    /// 1 = IDU distribution, 0 = stock dispatcher (first available working, ready cluster).
    pub enable: bool,
    /// The warp scheduler presents an instruction.
    pub in_valid: bool,
    /// Type of the presented instruction (2 bits; 3 dispatches nothing).
    pub in_type: u8,
    /// Tag of the presented instruction.
    pub in_tag: u8,
    /// Bit k: cluster k (of type `in_type`) has an empty input latch.
    pub ready: u8,
}

/// Outputs of one dispatcher cycle (combinational from the registers and the inputs).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DispOut {
    /// Bit k: cluster k is eligible for the presented instruction.
    pub elig: u8,
    /// Every cluster of type `in_type` is full (not working or at its limit); 0 for type 3.
    pub all_full: bool,
    /// The lowest eligible cluster (0 when none).
    pub sel: u8,
    /// The instruction is latched into cluster `sel` at the edge.
    pub dispatch: bool,
    /// The instruction is presented but not dispatched.
    pub stall: bool,
    /// `in_tag`: the instruction to latch into cluster `sel` when `dispatch`.
    pub out_tag: u8,
    /// Counter of (type t, cluster k) at index t·K + k.
    pub cnt: Vec<u8>,
    /// Limit of (type t, cluster k) at index t·K + k.
    pub limit: Vec<u8>,
    /// Bit t·K + k: (type t, cluster k) is working.
    pub working: u32,
    /// A kernel is running.
    pub active: bool,
}

/// The dispatcher of the contract: K clusters per type, [`TYPES`] types.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DispatcherModel {
    /// Clusters per type (1..=8).
    k: usize,
    /// Distribution counters, `[type][cluster]`.
    cnt: [[u8; MAX_K]; TYPES],
    /// Limits, `[type][cluster]`.
    limit: [[u8; MAX_K]; TYPES],
    /// Working bits, `[type][cluster]`.
    working: [[bool; MAX_K]; TYPES],
    /// A kernel is running.
    active: bool,
}

impl DispatcherModel {
    /// A dispatcher with `k` clusters per type (1..=8), in its reset state.
    pub fn new(k: usize) -> Self {
        assert!((1..=MAX_K).contains(&k), "K must be 1..=8, got {k}");
        DispatcherModel {
            k,
            cnt: [[0; MAX_K]; TYPES],
            limit: [[0; MAX_K]; TYPES],
            working: [[false; MAX_K]; TYPES],
            active: false,
        }
    }

    /// Clusters per type.
    pub fn k(&self) -> usize {
        self.k
    }

    /// The outputs during the current cycle, for the cycle's inputs `i`.
    pub fn outputs(&self, i: &DispIn) -> DispOut {
        let t = usize::from(i.in_type & TYPE_BITS);
        let (elig, all_full) = if t < TYPES {
            self.eligibility(t, i.ready, i.enable)
        } else {
            (0, false)
        };
        let sel = if elig == 0 {
            0
        } else {
            elig.trailing_zeros() as u8
        };
        let dispatch = i.in_valid && self.active && elig != 0;
        let (cnt, limit, working) = self.registers();
        DispOut {
            elig,
            all_full,
            sel,
            dispatch,
            stall: i.in_valid && !dispatch,
            out_tag: i.in_tag,
            cnt,
            limit,
            working,
            active: self.active,
        }
    }

    /// The outputs of the current cycle, then the rising edge that ends it.
    pub fn step(&mut self, i: &DispIn) -> DispOut {
        let out = self.outputs(i);
        self.edge(i, &out);
        out
    }

    /// `(elig, all_full)` of the contract's equations for type `t` (< [`TYPES`]).
    fn eligibility(&self, t: usize, ready: u8, enable: bool) -> (u8, bool) {
        let (cnt, limit, working) = (&self.cnt[t], &self.limit[t], &self.working[t]);
        let all_full = (0..self.k).all(|k| !working[k] || cnt[k] >= limit[k]);
        let elig = (0..self.k)
            .filter(|&k| {
                let quota_ok = all_full || cnt[k] < limit[k];
                working[k] && (ready >> k) & 1 == 1 && (quota_ok || !enable)
            })
            .fold(0u8, |m, k| m | (1 << k));
        (elig, all_full)
    }

    /// The register outputs `cnt`, `limit` (index t·K + k) and `working` (bit t·K + k).
    fn registers(&self) -> (Vec<u8>, Vec<u8>, u32) {
        let mut cnt = Vec::with_capacity(TYPES * self.k);
        let mut limit = Vec::with_capacity(TYPES * self.k);
        let mut working = 0u32;
        for t in 0..TYPES {
            for k in 0..self.k {
                cnt.push(self.cnt[t][k]);
                limit.push(self.limit[t][k]);
                working |= u32::from(self.working[t][k]) << (t * self.k + k);
            }
        }
        (cnt, limit, working)
    }

    /// The rising edge that ends the cycle with inputs `i` and outputs `out`.
    fn edge(&mut self, i: &DispIn, out: &DispOut) {
        if i.reset {
            *self = DispatcherModel::new(self.k);
            return;
        }
        if i.launch {
            self.cnt = [[0; MAX_K]; TYPES];
            self.active = true;
            return;
        }
        self.config_write(i);
        if out.dispatch && i.enable {
            self.count(usize::from(i.in_type & TYPE_BITS), out);
        }
        if i.stop {
            self.active = false;
        }
    }

    /// The configuration write of the cycle, if any and allowed.
    fn config_write(&mut self, i: &DispIn) {
        let t = usize::from(i.cfg_type & TYPE_BITS);
        let k = usize::from(i.cfg_cluster & CLUSTER_BITS);
        if i.cfg_we && !self.active && t < TYPES && k < self.k {
            self.working[t][k] = i.cfg_working;
            self.limit[t][k] = i.cfg_limit;
        }
    }

    /// The counter update of an IDU dispatch of type `t` (lazy reset when `all_full`).
    fn count(&mut self, t: usize, out: &DispOut) {
        for k in 0..self.k {
            let base = if out.all_full { 0 } else { self.cnt[t][k] };
            self.cnt[t][k] = base.wrapping_add(u8::from(k == usize::from(out.sel)));
        }
    }
}

/// Configuration of an [`IduSystem`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SystemConfig {
    /// Clusters per type (1..=8).
    pub k: usize,
    /// Dispatcher clock period (ps, ≥ 1).
    pub disp_ps: u64,
    /// Clock period of cluster (type t, cluster k), `[t][k]` (ps, ≥ 1 when working).
    pub cluster_ps: [[u64; MAX_K]; TYPES],
    /// Pipeline depth per type (≥ 1 for a type with a working cluster).
    pub depth: [usize; TYPES],
    /// Initiation interval per type in cluster cycles (≥ 1; SP 1, SFU 4, LD/ST 1).
    pub ii: [u32; TYPES],
    /// Working bit per (type, cluster).
    pub working: [[bool; MAX_K]; TYPES],
    /// Limit per (type, cluster).
    pub limits: [[u8; MAX_K]; TYPES],
    /// The `enable` port (IDU distribution), held for the whole run.
    pub enable: bool,
    /// Record a [`TraceRow`] per dispatcher cycle.
    pub trace: bool,
}

impl SystemConfig {
    /// `k` clusters per type, every clock at `period_ps`, depths 4/20/4 (our choice), ii
    /// 1/4/1, nothing working, limits 0, IDU enabled, no trace.
    pub fn uniform(k: usize, period_ps: u64) -> Self {
        SystemConfig {
            k,
            disp_ps: period_ps,
            cluster_ps: [[period_ps; MAX_K]; TYPES],
            depth: [4, 20, 4],
            ii: [1, 4, 1],
            working: [[false; MAX_K]; TYPES],
            limits: [[0; MAX_K]; TYPES],
            enable: true,
            trace: false,
        }
    }
}

/// One dispatch: the instruction `tag` of type `ty` latched into `cluster`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Dispatch {
    /// Time of the dispatcher edge that latched it (ps).
    pub ps: u64,
    /// Number of that dispatcher edge (the first edge, at `disp_ps`, is 1).
    pub cycle: u64,
    /// Instruction type.
    pub ty: u8,
    /// Instruction tag.
    pub tag: u8,
    /// Cluster index (of type `ty`).
    pub cluster: u8,
}

/// One retirement: the instruction left the last pipeline stage of its cluster.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Retire {
    /// Time of the cluster edge at which it retired (ps).
    pub ps: u64,
    /// Instruction type.
    pub ty: u8,
    /// Instruction tag.
    pub tag: u8,
    /// Cluster index (of type `ty`).
    pub cluster: u8,
}

/// The dispatcher's inputs and outputs of one cycle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TraceRow {
    /// Time of the edge that ends the cycle (ps).
    pub ps: u64,
    /// Number of that edge (the first is 1).
    pub cycle: u64,
    /// The inputs of the cycle.
    pub input: DispIn,
    /// The outputs of the cycle.
    pub output: DispOut,
}

/// Result of [`IduSystem::run`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SystemRun {
    /// Every dispatch, in time order.
    pub dispatches: Vec<Dispatch>,
    /// Every retirement, in time order (same-picosecond retirements by type, then cluster).
    pub retires: Vec<Retire>,
    /// When `completed`: the edge at which the last instruction retired (0 for no
    /// instruction); otherwise `max_ps`.
    pub end_ps: u64,
    /// Every instruction was dispatched and retired by `max_ps`.
    pub completed: bool,
    /// Dispatcher cycles with `stall`.
    pub stalls: u64,
    /// Dispatcher edges simulated.
    pub disp_cycles: u64,
    /// Per (type, cluster): cluster cycles in which some stage held an instruction.
    pub busy_cycles: [[u64; MAX_K]; TYPES],
    /// Per (type, cluster): instructions latched into it.
    pub dispatched: [[u64; MAX_K]; TYPES],
    /// One row per dispatcher cycle when [`SystemConfig::trace`], else empty.
    pub trace: Vec<TraceRow>,
}

/// The dispatcher and its clusters on one picosecond timeline (the contract's "clusters"
/// section).
///
/// Before time 0 the host configures the dispatcher through its ports (one `reset` cycle,
/// one write per (type, cluster < K), one `launch` cycle): those cycles are not on the
/// timeline, so the kernel runs from time 0 and the first instruction can be dispatched at the
/// first dispatcher edge. Every domain has its first rising edge at one period. At equal
/// picoseconds the cluster edges come first, then the dispatcher's. The dispatcher's `ready`
/// for the presented instruction of type t is, bit k, the latch-empty flag of cluster (t, k)
/// and its working bit (a cluster that is not working has no clock and `ready` 0). The warp
/// scheduler presents the head of the instruction queue every dispatcher cycle until it is
/// dispatched; `enable` is held at [`SystemConfig::enable`].
///
/// Pipeline timing: an instruction that enters stage 0 at cluster edge e holds stage j during
/// the cycle after edge e + j and retires at edge e + `depth` (it is counted in `busy_cycles`
/// for `depth` cluster cycles). The initiation interval counts edges: the pipeline accepts at
/// edge e' only when e' − e ≥ `ii` for the previous accept e.
#[derive(Clone, Debug)]
pub struct IduSystem {
    /// The configuration.
    cfg: SystemConfig,
    /// The dispatcher, configured and launched.
    disp: DispatcherModel,
}

impl IduSystem {
    /// A system for `cfg` (panics on an invalid configuration).
    pub fn new(cfg: SystemConfig) -> Self {
        assert!((1..=MAX_K).contains(&cfg.k), "K must be 1..=8");
        assert!(cfg.disp_ps >= 1, "dispatcher period must be ≥ 1 ps");
        for t in 0..TYPES {
            assert!(cfg.ii[t] >= 1, "ii must be ≥ 1");
            for k in (0..cfg.k).filter(|&k| cfg.working[t][k]) {
                assert!(cfg.cluster_ps[t][k] >= 1, "cluster period must be ≥ 1 ps");
                assert!(cfg.depth[t] >= 1, "pipeline depth must be ≥ 1");
            }
        }
        let disp = Self::configured(&cfg);
        IduSystem { cfg, disp }
    }

    /// The configuration.
    pub fn config(&self) -> &SystemConfig {
        &self.cfg
    }

    /// The dispatcher (after [`IduSystem::run`]: as it stands at the end of the run).
    pub fn dispatcher(&self) -> &DispatcherModel {
        &self.disp
    }

    /// The host's configuration sequence, through the dispatcher's ports.
    fn configured(cfg: &SystemConfig) -> DispatcherModel {
        let mut d = DispatcherModel::new(cfg.k);
        d.step(&DispIn {
            reset: true,
            ..DispIn::default()
        });
        for t in 0..TYPES {
            for k in 0..cfg.k {
                d.step(&DispIn {
                    cfg_we: true,
                    cfg_type: t as u8,
                    cfg_cluster: k as u8,
                    cfg_working: cfg.working[t][k],
                    cfg_limit: cfg.limits[t][k],
                    ..DispIn::default()
                });
            }
        }
        d.step(&DispIn {
            launch: true,
            ..DispIn::default()
        });
        d
    }

    /// Runs the instruction queue `instrs` (type, tag) from time 0 (fresh clusters, the
    /// dispatcher configured and launched again) until every instruction has retired or the
    /// next event would be later than `max_ps`.
    pub fn run(&mut self, instrs: &[(u8, u8)], max_ps: u64) -> SystemRun {
        self.disp = Self::configured(&self.cfg);
        let mut sim = Sim::new(&self.cfg, instrs);
        let mut now = 0;
        loop {
            if sim.done() {
                return sim.finish(now, true);
            }
            now = sim.next_event();
            if now > max_ps {
                return sim.finish(max_ps, false);
            }
            sim.edges(&mut self.disp, now);
        }
    }
}

/// One cluster's state: clock, input latch, pipeline, accounting.
#[derive(Clone, Debug)]
struct Cluster {
    /// Working: the cluster has a clock. A cluster that is not working never has an edge and
    /// is never ready.
    working: bool,
    /// Period (ps).
    period: u64,
    /// Time of the next rising edge (ps).
    next_ps: u64,
    /// Rising edges so far.
    edges: u64,
    /// Edge at which the pipeline last accepted.
    last_accept: Option<u64>,
    /// Initiation interval (cluster cycles).
    ii: u64,
    /// The input latch.
    latch: Option<u8>,
    /// Pipeline stages; stage 0 first.
    stages: VecDeque<Option<u8>>,
    /// Cluster cycles with some stage holding an instruction.
    busy: u64,
}

impl Cluster {
    /// Cluster `k` of type `t` of `cfg`, at time 0.
    fn new(cfg: &SystemConfig, t: usize, k: usize) -> Self {
        Cluster {
            working: cfg.working[t][k],
            period: cfg.cluster_ps[t][k],
            next_ps: cfg.cluster_ps[t][k],
            edges: 0,
            last_accept: None,
            ii: u64::from(cfg.ii[t]),
            latch: None,
            stages: vec![None; cfg.depth[t]].into(),
            busy: 0,
        }
    }

    /// The `ready` the dispatcher sees: working and the latch empty.
    fn ready(&self) -> bool {
        self.working && self.latch.is_none()
    }

    /// No instruction in the latch or the pipeline.
    fn idle(&self) -> bool {
        self.latch.is_none() && self.stages.iter().all(Option::is_none)
    }

    /// Time of the next rising edge, if the cluster has a clock.
    fn next_edge(&self) -> Option<u64> {
        self.working.then_some(self.next_ps)
    }

    /// The rising edge at `self.next_ps`; returns the retired tag.
    fn edge(&mut self) -> Option<u8> {
        self.edges += 1;
        let retired = self.stages.pop_back().flatten();
        let accept =
            self.latch.is_some() && self.last_accept.is_none_or(|a| self.edges - a >= self.ii);
        if accept {
            self.last_accept = Some(self.edges);
        }
        self.stages
            .push_front(if accept { self.latch.take() } else { None });
        if self.stages.iter().any(Option::is_some) {
            self.busy += 1;
        }
        self.next_ps += self.period;
        retired
    }
}

/// The state of one [`IduSystem::run`] apart from the dispatcher.
struct Sim<'a> {
    /// Clusters per type.
    k: usize,
    /// Dispatcher period (ps).
    disp_ps: u64,
    /// The `enable` port.
    enable: bool,
    /// Record the trace.
    trace: bool,
    /// The instruction queue (type, tag).
    instrs: &'a [(u8, u8)],
    /// Index of the instruction the warp scheduler presents.
    head: usize,
    /// Time of the next dispatcher edge (ps).
    disp_next: u64,
    /// The clusters, index t·K + k.
    clusters: Vec<Cluster>,
    /// The result so far.
    run: SystemRun,
}

impl<'a> Sim<'a> {
    /// Time 0: fresh clusters, nothing dispatched.
    fn new(cfg: &SystemConfig, instrs: &'a [(u8, u8)]) -> Self {
        let clusters = (0..TYPES * cfg.k)
            .map(|i| Cluster::new(cfg, i / cfg.k, i % cfg.k))
            .collect();
        Sim {
            k: cfg.k,
            disp_ps: cfg.disp_ps,
            enable: cfg.enable,
            trace: cfg.trace,
            instrs,
            head: 0,
            disp_next: cfg.disp_ps,
            clusters,
            run: SystemRun::default(),
        }
    }

    /// Every instruction dispatched and retired.
    fn done(&self) -> bool {
        self.head == self.instrs.len() && self.clusters.iter().all(Cluster::idle)
    }

    /// Time of the next edge of any domain.
    fn next_event(&self) -> u64 {
        let clusters = self.clusters.iter().filter_map(Cluster::next_edge);
        clusters.fold(self.disp_next, u64::min)
    }

    /// Every edge at `now`: the clusters', then the dispatcher's.
    fn edges(&mut self, disp: &mut DispatcherModel, now: u64) {
        for (i, c) in self.clusters.iter_mut().enumerate() {
            if c.next_edge() != Some(now) {
                continue;
            }
            if let Some(tag) = c.edge() {
                let (ty, cluster) = ((i / self.k) as u8, (i % self.k) as u8);
                let ps = now;
                self.run.retires.push(Retire {
                    ps,
                    ty,
                    tag,
                    cluster,
                });
            }
        }
        if self.disp_next == now {
            self.dispatcher_edge(disp, now);
            self.disp_next += self.disp_ps;
        }
    }

    /// The dispatcher's inputs: the head of the queue and the ready bits of its type.
    fn inputs(&self) -> DispIn {
        let presented = self.instrs.get(self.head).copied();
        let (in_type, in_tag) = presented.unwrap_or((0, 0));
        let t = usize::from(in_type & TYPE_BITS);
        let ready = if t < TYPES {
            let cl = &self.clusters[t * self.k..(t + 1) * self.k];
            (0..self.k)
                .filter(|&k| cl[k].ready())
                .fold(0u8, |m, k| m | (1 << k))
        } else {
            0
        };
        DispIn {
            enable: self.enable,
            in_valid: presented.is_some(),
            in_type,
            in_tag,
            ready,
            ..DispIn::default()
        }
    }

    /// The dispatcher's edge at `now`: one cycle of the dispatcher, the latch it fills.
    fn dispatcher_edge(&mut self, disp: &mut DispatcherModel, now: u64) {
        self.run.disp_cycles += 1;
        let input = self.inputs();
        let out = disp.step(&input);
        if out.dispatch {
            self.latch(usize::from(input.in_type & TYPE_BITS), &out, now);
        }
        self.run.stalls += u64::from(out.stall);
        if self.trace {
            self.run.trace.push(TraceRow {
                ps: now,
                cycle: self.run.disp_cycles,
                input,
                output: out,
            });
        }
    }

    /// Fills the latch of cluster (`t`, `out.sel`) with `out.out_tag` at `now`.
    fn latch(&mut self, t: usize, out: &DispOut, now: u64) {
        let k = usize::from(out.sel);
        let c = &mut self.clusters[t * self.k + k];
        assert!(c.latch.is_none(), "dispatch into a full latch");
        c.latch = Some(out.out_tag);
        self.run.dispatched[t][k] += 1;
        self.run.dispatches.push(Dispatch {
            ps: now,
            cycle: self.run.disp_cycles,
            ty: t as u8,
            tag: out.out_tag,
            cluster: out.sel,
        });
        self.head += 1;
    }

    /// The result, ending at `end_ps`.
    fn finish(mut self, end_ps: u64, completed: bool) -> SystemRun {
        for (i, c) in self.clusters.iter().enumerate() {
            self.run.busy_cycles[i / self.k][i % self.k] = c.busy;
        }
        SystemRun {
            end_ps,
            completed,
            ..self.run
        }
    }
}

crate::ports!(DispIn {
    reset,
    cfg_we,
    cfg_type,
    cfg_cluster,
    cfg_working,
    cfg_limit,
    launch,
    stop,
    enable,
    in_valid,
    in_type,
    in_tag,
    ready
});
crate::ports!(DispOut {
    elig,
    all_full,
    sel,
    dispatch,
    stall,
    out_tag,
    cnt,
    limit,
    working,
    active
});

impl crate::block::Clocked for DispatcherModel {
    type In = DispIn;
    type Out = DispOut;

    fn outputs(&self, input: &DispIn) -> DispOut {
        DispatcherModel::outputs(self, input)
    }

    fn step(&mut self, input: &DispIn) {
        DispatcherModel::step(self, input);
    }

    fn cycle(&mut self, input: &DispIn) -> DispOut {
        DispatcherModel::step(self, input)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// One cycle of inputs with only the given fields set.
    fn idle() -> DispIn {
        DispIn::default()
    }

    /// Reset, the given (type, cluster, working, limit) writes, launch.
    fn configure(d: &mut DispatcherModel, writes: &[(u8, u8, bool, u8)]) {
        d.step(&DispIn {
            reset: true,
            ..idle()
        });
        for &(t, k, w, l) in writes {
            d.step(&DispIn {
                cfg_we: true,
                cfg_type: t,
                cfg_cluster: k,
                cfg_working: w,
                cfg_limit: l,
                ..idle()
            });
        }
        d.step(&DispIn {
            launch: true,
            ..idle()
        });
    }

    /// The Fig. 4.3 configuration: K = 4, type SP, thesis clusters 1, 2, 4 = indices 0, 1, 3
    /// working with limits 4, 3, 3; index 2 gated.
    fn fig43() -> DispatcherModel {
        let mut d = DispatcherModel::new(4);
        configure(&mut d, &[(0, 0, true, 4), (0, 1, true, 3), (0, 3, true, 3)]);
        d
    }

    /// An SP instruction presented with the given ready bits.
    fn sp(tag: u8, ready: u8, enable: bool) -> DispIn {
        DispIn {
            enable,
            in_valid: true,
            in_type: 0,
            in_tag: tag,
            ready,
            ..idle()
        }
    }

    /// The thesis's cluster number of index `k` in the Fig. 4.3 configuration.
    fn thesis(k: u8) -> u8 {
        k + 1
    }

    /// (C1, C2, C4) counters of type SP from the outputs.
    fn c124(o: &DispOut) -> (u8, u8, u8) {
        (o.cnt[0], o.cnt[1], o.cnt[3])
    }

    #[test]
    fn idu_fig43_golden() {
        let mut d = fig43();
        // The thesis' Fig. 4.3, ready (C1, C2, C4) per slot; the gated index 2 is forced ready too
        // (it must never be chosen).
        let c1 = [1, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0];
        let c2 = [1, 1, 1, 1, 0, 1, 1, 1, 1, 1, 1];
        let c4 = [1; 11];
        let clusters = [1, 2, 2, 1, 4, 2, 1, 4, 4, 1, 2];
        let counters = [
            (1, 0, 0),
            (1, 1, 0),
            (1, 2, 0),
            (2, 2, 0),
            (2, 2, 1),
            (2, 3, 1),
            (3, 3, 1),
            (3, 3, 2),
            (3, 3, 3),
            (4, 3, 3),
            (0, 1, 0),
        ];
        for s in 0..11 {
            let ready = c1[s] | (c2[s] << 1) | 0b100 | (c4[s] << 3);
            let o = d.step(&sp(s as u8, ready, true));
            assert!(o.dispatch && !o.stall, "slot {}", s + 1);
            assert_eq!(o.out_tag, s as u8);
            assert_eq!(thesis(o.sel), clusters[s], "slot {}", s + 1);
            // Lazy reset: every counter is at its limit only in the cycle of slot 11.
            assert_eq!(o.all_full, s == 10, "slot {}", s + 1);
            // The counters after the dispatch are the next cycle's outputs.
            let after = d.outputs(&idle());
            assert_eq!(c124(&after), counters[s], "slot {}", s + 1);
            assert_eq!(after.cnt[2], 0);
            assert_eq!(&after.cnt[4..], &[0; 8], "other types untouched");
        }
    }

    #[test]
    fn idu_fig43_c1_not_ready_with_quota_goes_to_next() {
        // Rows 8-9: C1 has quota (3 < 4) but is busy, so the instruction goes to C4.
        let mut d = fig43();
        for _ in 0..7 {
            d.step(&sp(0, 0b1111, true));
        }
        assert_eq!(c124(&d.outputs(&idle())), (4, 3, 0));
        let o = d.step(&sp(0, 0b1010, true));
        assert_eq!((o.elig, thesis(o.sel)), (0b1000, 4));
    }

    #[test]
    fn idu_fig43_all_full_visible_before_row_11() {
        let mut d = fig43();
        for _ in 0..10 {
            assert!(d.step(&sp(0, 0b1111, true)).dispatch);
        }
        // 4/3/3: every working cluster at its limit, index 2 not working.
        let o = d.outputs(&sp(0, 0b1011, true));
        assert_eq!(c124(&o), (4, 3, 3));
        assert!(o.all_full);
        assert_eq!(o.elig, 0b1011);
        assert_eq!(o.sel, 0);
    }

    #[test]
    fn idu_always_ready_repeats_with_lazy_reset() {
        let mut d = fig43();
        let pattern = [1, 1, 1, 1, 2, 2, 2, 4, 4, 4];
        for n in 0..50 {
            let o = d.step(&sp(n as u8, 0b1111, true));
            assert!(o.dispatch);
            assert_eq!(thesis(o.sel), pattern[n % 10], "dispatch {}", n + 1);
            // all_full in exactly the cycle of the lazy reset (the 11th, 21st, ...).
            assert_eq!(o.all_full, n > 0 && n % 10 == 0, "dispatch {}", n + 1);
            let after = c124(&d.outputs(&idle()));
            match n % 10 {
                9 => assert_eq!(after, (4, 3, 3)),
                0 => assert_eq!(after, (1, 0, 0)),
                _ => {}
            }
        }
    }

    #[test]
    fn idu_enable_0_first_available_counters_unchanged() {
        let mut d = fig43();
        // Four IDU dispatches to C1: counters 4/0/0, C1 at its limit.
        for n in 0..4 {
            assert_eq!(d.step(&sp(n, 0b0001, true)).sel, 0);
        }
        assert_eq!(c124(&d.outputs(&idle())), (4, 0, 0));
        // Stock: always the lowest working ready cluster, even past its limit.
        for n in 0..8 {
            let o = d.step(&sp(n, 0b1111, false));
            assert_eq!((o.dispatch, o.elig, o.sel), (true, 0b1011, 0));
            assert!(!o.all_full);
            assert_eq!(c124(&d.outputs(&idle())), (4, 0, 0));
        }
        // The gated index 2 is never chosen, even when it is the only one "ready".
        let o = d.step(&sp(9, 0b0100, false));
        assert!(!o.dispatch && o.stall);
        assert_eq!(o.elig, 0);
        let o = d.step(&sp(9, 0b1100, false));
        assert_eq!((o.dispatch, o.sel), (true, 3));
        let o = d.step(&sp(10, 0b1010, false));
        assert_eq!((o.dispatch, o.sel), (true, 1));
        assert_eq!(c124(&d.outputs(&idle())), (4, 0, 0));
        // With enable 1 again the counters resume from 4/0/0: C1 is full, C2 is next.
        let o = d.step(&sp(11, 0b1111, true));
        assert_eq!((o.elig, o.sel), (0b1010, 1));
        assert_eq!(c124(&d.outputs(&idle())), (4, 1, 0));
    }

    #[test]
    fn idu_strict_stall_when_only_full_clusters_ready() {
        let mut d = fig43();
        for _ in 0..4 {
            d.step(&sp(0, 0b0001, true));
        }
        // C1 at 4/4, only C1 ready: stall (the ratio is never broken); counters unchanged.
        for _ in 0..3 {
            let o = d.step(&sp(7, 0b0001, true));
            assert!(o.stall && !o.dispatch);
            assert!(!o.all_full);
            assert_eq!(o.elig, 0);
        }
        assert_eq!(c124(&d.outputs(&idle())), (4, 0, 0));
        // in_valid 0: neither stall nor dispatch, even with eligible clusters.
        let o = d.step(&DispIn {
            enable: true,
            ready: 0b1111,
            ..idle()
        });
        assert!(!o.stall && !o.dispatch);
        assert_eq!(o.elig, 0b1010);
        assert_eq!(o.sel, 1);
        assert_eq!(c124(&d.outputs(&idle())), (4, 0, 0));
    }

    /// A configuration write of (working `w`, limit `l`) for (type `t`, cluster `k`).
    fn write(t: u8, k: u8, w: bool, l: u8) -> DispIn {
        DispIn {
            cfg_we: true,
            cfg_type: t,
            cfg_cluster: k,
            cfg_working: w,
            cfg_limit: l,
            ..idle()
        }
    }

    /// K = 4 after reset and the writes (1, 2, working, 9), (2, 3, working, 5) and writes to
    /// bad addresses (type 3, clusters 4..=7), which are ignored.
    fn configured_4() -> DispatcherModel {
        let mut d = DispatcherModel::new(4);
        d.step(&DispIn {
            reset: true,
            ..idle()
        });
        d.step(&write(1, 2, true, 9));
        d.step(&write(2, 3, true, 5));
        d.step(&write(3, 0, true, 7));
        for k in 4..8 {
            d.step(&write(0, k, true, 7));
        }
        d
    }

    /// The limits of [`configured_4`].
    fn limits_4() -> Vec<u8> {
        let mut limit = vec![0u8; 12];
        limit[4 + 2] = 9;
        limit[8 + 3] = 5;
        limit
    }

    #[test]
    fn idu_config_writes_and_bad_addresses() {
        let mut d = configured_4();
        let o = d.outputs(&idle());
        assert_eq!(o.limit, limits_4());
        assert_eq!(o.working, (1 << 6) | (1 << 11));
        assert!(!o.active);
        d.step(&write(1, 2, false, 1));
        let o = d.outputs(&idle());
        assert_eq!(o.limit[6], 1);
        assert_eq!(o.working, 1 << 11);
        // Reset clears everything.
        d.step(&DispIn {
            reset: true,
            ..idle()
        });
        let o = d.outputs(&idle());
        assert_eq!((o.limit, o.cnt), (vec![0; 12], vec![0; 12]));
        assert_eq!((o.working, o.active), (0, false));
    }

    #[test]
    fn idu_config_ignored_while_active() {
        let mut d = configured_4();
        let unchanged = |d: &DispatcherModel, active: bool| {
            let o = d.outputs(&idle());
            assert_eq!(o.active, active);
            assert_eq!(o.limit, limits_4());
            assert_eq!(o.working, (1 << 6) | (1 << 11));
        };
        // A write in the launch cycle is ignored.
        d.step(&DispIn {
            launch: true,
            ..write(1, 2, false, 1)
        });
        unchanged(&d, true);
        // Writes while active are ignored, including in the stop cycle.
        d.step(&write(1, 2, false, 1));
        d.step(&write(0, 0, true, 3));
        d.step(&DispIn {
            stop: true,
            ..write(0, 1, true, 3)
        });
        unchanged(&d, false);
        // After stop they apply.
        d.step(&write(0, 1, true, 3));
        assert_eq!(d.outputs(&idle()).limit[1], 3);
    }

    #[test]
    fn idu_type_3_stalls_and_inactive_stalls() {
        let mut d = fig43();
        let o = d.step(&DispIn {
            in_type: 3,
            ..sp(5, 0xFF, true)
        });
        assert!(o.stall && !o.dispatch);
        assert_eq!(o.elig, 0);
        assert!(!o.all_full);
        assert_eq!(o.sel, 0);
        assert_eq!(o.cnt, vec![0; 12]);
        assert_eq!(d.outputs(&idle()).cnt, vec![0; 12]);
        // A type with no working cluster: all_full 1, nothing eligible.
        let o = d.step(&DispIn {
            in_type: 1,
            ..sp(5, 0xFF, true)
        });
        assert!(o.all_full && o.stall && !o.dispatch);
        assert_eq!(o.elig, 0);
        // Not active: eligible but no dispatch; counters unchanged.
        d.step(&DispIn {
            stop: true,
            ..sp(6, 0b1111, true)
        });
        // The stop cycle still dispatched (active during it): C1 = 1.
        assert_eq!(c124(&d.outputs(&idle())), (1, 0, 0));
        let o = d.step(&sp(7, 0b1111, true));
        assert_eq!(o.elig, 0b1011);
        assert!(o.stall && !o.dispatch && !o.active);
        assert_eq!(c124(&d.outputs(&idle())), (1, 0, 0));
        // Launch clears the counters.
        d.step(&DispIn {
            launch: true,
            ..idle()
        });
        assert_eq!(c124(&d.outputs(&idle())), (0, 0, 0));
    }

    #[test]
    fn idu_counters_per_type() {
        let mut d = DispatcherModel::new(2);
        configure(
            &mut d,
            &[
                (0, 0, true, 1),
                (0, 1, true, 1),
                (1, 0, true, 2),
                (1, 1, true, 1),
            ],
        );
        let ins = |t: u8| DispIn {
            in_type: t,
            ..sp(0, 0b11, true)
        };
        assert_eq!(d.step(&ins(1)).sel, 0);
        assert_eq!(d.step(&ins(0)).sel, 0);
        assert_eq!(d.step(&ins(1)).sel, 0);
        assert_eq!(d.step(&ins(0)).sel, 1);
        assert_eq!(d.outputs(&idle()).cnt, vec![1, 1, 2, 0, 0, 0]);
        assert_eq!(d.step(&ins(1)).sel, 1);
        // Type 0 all full: reset with the next type-0 dispatch only.
        let o = d.step(&ins(0));
        assert!(o.all_full);
        assert_eq!(o.sel, 0);
        assert_eq!(d.outputs(&idle()).cnt, vec![1, 0, 2, 1, 0, 0]);
    }

    #[test]
    fn idu_single_cluster_limit_1_resets_lazily() {
        // Shrunk from idu_long_run_ratio (a model that ignored `all_full` in `quota_ok`
        // never dispatched again): K = 1, limit 1, ready once every 8 cycles.
        let mut d = DispatcherModel::new(1);
        configure(&mut d, &[(0, 0, true, 1)]);
        let mut at = Vec::new();
        for cycle in 0..17 {
            let ready = u8::from(cycle % 8 == 0);
            let o = d.step(&sp(at.len() as u8, ready, true));
            assert_eq!(o.stall, !o.dispatch);
            if o.dispatch {
                assert_eq!(o.all_full, !at.is_empty());
                at.push(cycle);
            }
            assert_eq!(d.outputs(&idle()).cnt[0], 1.min(at.len() as u8));
        }
        assert_eq!(at, vec![0, 8, 16]);
    }

    #[test]
    fn idu_limit_0_counts_as_full() {
        // A working cluster with limit 0 is always full: it gets work only with the others
        // (through the lazy reset, when they are all at their limits too).
        let mut d = DispatcherModel::new(2);
        configure(&mut d, &[(0, 0, true, 0), (0, 1, true, 2)]);
        let sels: Vec<u8> = (0..6).map(|n| d.step(&sp(n, 0b11, true)).sel).collect();
        assert_eq!(sels, vec![1, 1, 0, 1, 1, 0]);
        assert_eq!(d.outputs(&idle()).cnt[..2], [1, 0]);
    }

    #[test]
    fn idu_reset_and_launch_priority() {
        // The model's readings (module doc, items 1-2): reset beats launch and writes;
        // launch clears the counters even when the cycle dispatches.
        let mut d = fig43();
        d.step(&DispIn {
            launch: true,
            ..sp(0, 0b1111, true)
        });
        let o = d.outputs(&idle());
        assert!(o.active);
        assert_eq!(c124(&o), (0, 0, 0));
        assert!(d.step(&sp(1, 0b1111, true)).dispatch);
        let o = d.step(&DispIn {
            launch: true,
            stop: true,
            ..sp(2, 0b1111, true)
        });
        assert!(o.dispatch, "active during the launch cycle");
        let o = d.outputs(&idle());
        assert!(o.active, "launch beats stop");
        assert_eq!(c124(&o), (0, 0, 0), "launch beats the dispatch's update");
        d.step(&DispIn {
            reset: true,
            launch: true,
            ..idle()
        });
        let o = d.outputs(&idle());
        assert!(!o.active && o.working == 0 && o.limit == vec![0; 12]);
    }

    /// The Fig. 1.5 system: two working SP clusters C1 = 0, C2 = 1, enable 0.
    fn fig15(disp: u64, c1: u64, c2: u64, depth: usize) -> SystemConfig {
        let mut cfg = SystemConfig::uniform(2, disp);
        cfg.cluster_ps[0][0] = c1;
        cfg.cluster_ps[0][1] = c2;
        cfg.working[0][0] = true;
        cfg.working[0][1] = true;
        cfg.limits[0][0] = 1;
        cfg.limits[0][1] = 1;
        cfg.depth[0] = depth;
        cfg.ii[0] = 1;
        cfg.enable = false;
        cfg.trace = true;
        cfg
    }

    const ABCD: [(u8, u8); 4] = [(0, 0xA), (0, 0xB), (0, 0xC), (0, 0xD)];

    #[test]
    fn idu_fig15_synchronous_all_to_c1() {
        for depth in [1, 4, 13] {
            let mut sys = IduSystem::new(fig15(1000, 1000, 1000, depth));
            let r = sys.run(&ABCD, 1_000_000);
            assert!(r.completed);
            let got: Vec<(u8, u8, u64)> = r
                .dispatches
                .iter()
                .map(|d| (d.tag, d.cluster, d.ps))
                .collect();
            // One per dispatcher cycle: the C1 edge at the same ps empties the latch first.
            assert_eq!(
                got,
                vec![
                    (0xA, 0, 1000),
                    (0xB, 0, 2000),
                    (0xC, 0, 3000),
                    (0xD, 0, 4000)
                ],
                "depth {depth}"
            );
            assert_eq!(r.stalls, 0);
            // D enters at 5000 and retires `depth` edges later.
            assert_eq!(r.end_ps, 5000 + 1000 * depth as u64);
            // Four back-to-back instructions: busy from edge 2 to edge 5 + depth - 1.
            assert_eq!(r.busy_cycles[0][0], depth as u64 + 3);
            assert_eq!(r.busy_cycles[0][1], 0);
            assert_eq!(r.dispatched[0][0], 4);
        }
    }

    #[test]
    fn idu_fig15_asynchronous() {
        // disp 1000, C1 3500, C2 1500 (the stock dispatcher of the thesis' Fig. 1.5):
        //  1000: both latches empty -> A -> C1.
        //  2000: C1 latch full (its first edge is 3500) -> B -> C2.
        //  3000: C2 edge first (B enters), then C -> C2.
        //  3500: C1 edge: A enters. 4000: C1 empty -> D -> C1.
        for depth in [1, 4, 13] {
            let mut sys = IduSystem::new(fig15(1000, 3500, 1500, depth));
            let r = sys.run(&ABCD, 1_000_000);
            assert!(r.completed);
            let got: Vec<(u8, u8, u64)> = r
                .dispatches
                .iter()
                .map(|d| (d.tag, d.cluster, d.ps))
                .collect();
            assert_eq!(
                got,
                vec![
                    (0xA, 0, 1000),
                    (0xB, 1, 2000),
                    (0xC, 1, 3000),
                    (0xD, 0, 4000)
                ],
                "depth {depth}"
            );
            assert_eq!(r.stalls, 0);
            assert_eq!(r.dispatched[0][0], 2);
            assert_eq!(r.dispatched[0][1], 2);
            // Trace: cycle 2 saw C1 not ready.
            assert_eq!(r.trace[1].input.ready, 0b10);
            assert_eq!(r.trace[1].cycle, 2);
        }
    }

    #[test]
    fn idu_system_sfu_initiation_interval() {
        // K = 1, SFU, all clocks 1000 ps, depth 2, ii 4.
        //  1000 A latched. 2000 cluster edge 2: A enters; B latched.
        //  3000, 4000, 5000: B waits (1, 2, 3 cycles since the accept) -> C stalls 3 times.
        //  6000 edge 6: B enters, then C latched. 10000 edge 10: C enters. Retire at 12000.
        //  Busy after edges 2, 3, 6, 7, 10, 11.
        let mut cfg = SystemConfig::uniform(1, 1000);
        cfg.working[1][0] = true;
        cfg.limits[1][0] = 1;
        cfg.depth[1] = 2;
        cfg.ii[1] = 4;
        let mut sys = IduSystem::new(cfg);
        let r = sys.run(&[(1, 1), (1, 2), (1, 3)], 1_000_000);
        assert!(r.completed);
        let ps: Vec<u64> = r.dispatches.iter().map(|d| d.ps).collect();
        assert_eq!(ps, vec![1000, 2000, 6000]);
        assert_eq!(r.stalls, 3);
        let retired: Vec<(u64, u8)> = r.retires.iter().map(|x| (x.ps, x.tag)).collect();
        assert_eq!(retired, vec![(4000, 1), (8000, 2), (12000, 3)]);
        assert_eq!(r.end_ps, 12000);
        assert_eq!(r.busy_cycles[1][0], 6);
    }

    #[test]
    fn idu_system_power_gated_cluster_idle() {
        let mut cfg = SystemConfig::uniform(4, 1000);
        for (k, l) in [(0, 4), (1, 3), (3, 3)] {
            cfg.working[0][k] = true;
            cfg.limits[0][k] = l;
        }
        cfg.trace = true;
        let instrs: Vec<(u8, u8)> = (0..40).map(|i| (0, i)).collect();
        let mut sys = IduSystem::new(cfg);
        let r = sys.run(&instrs, 10_000_000);
        assert!(r.completed);
        assert_eq!(r.dispatched[0][2], 0);
        assert_eq!(r.busy_cycles[0][2], 0);
        assert!(r.trace.iter().all(|row| row.input.ready & 0b100 == 0));
        // Synchronous, always ready (ii 1): exactly the 1,1,1,1,2,2,2,4,4,4 pattern.
        let pattern = [0, 0, 0, 0, 1, 1, 1, 3, 3, 3];
        for (n, d) in r.dispatches.iter().enumerate() {
            assert_eq!(d.cluster, pattern[n % 10]);
            assert_eq!(d.ps, 1000 * (n as u64 + 1));
        }
        assert_eq!(r.dispatched[0][0], 16);
        assert_eq!(r.dispatched[0][1], 12);
        assert_eq!(r.dispatched[0][3], 12);
    }

    #[test]
    fn idu_system_max_ps_cut() {
        // One SP cluster with limit 0 (always full: every dispatch resets lazily).
        let mut cfg = SystemConfig::uniform(1, 1000);
        cfg.working[0][0] = true;
        let mut sys = IduSystem::new(cfg);
        let r = sys.run(&[(0, 1), (0, 2), (0, 3)], 2500);
        assert!(!r.completed);
        assert_eq!(r.end_ps, 2500);
        assert_eq!(r.dispatches.len(), 2);
        // No instruction: done at 0.
        let r = sys.run(&[], 2500);
        assert!(r.completed);
        assert_eq!(r.end_ps, 0);
        assert_eq!(r.disp_cycles, 0);
    }

    /// Checks the ratio bound (cluster `k` gets `n · limit_k / S` of `n` dispatches, within
    /// `S`) for `counts` after `n` dispatches.
    fn check_ratio(counts: &[u64], limits: &[u8], n: u64) -> Result<(), TestCaseError> {
        let s: u64 = limits.iter().map(|&l| u64::from(l)).sum();
        for (c, &l) in counts.iter().zip(limits) {
            // |c - n·l/S| ≤ S, in integers: |c·S - n·l| ≤ S².
            let lhs = (c * s).abs_diff(n * u64::from(l));
            prop_assert!(lhs <= s * s, "count {c} limit {l} n {n} S {s}");
        }
        Ok(())
    }

    /// The long-run ratio case: `work` clusters of type SP with limits `lims[c]` run `n`
    /// instructions with the ready pattern `pattern` (repeated).
    fn ratio_case(
        k: usize,
        work: &[usize],
        lims: &[u8],
        pattern: &[u8],
        n: usize,
    ) -> Result<(), TestCaseError> {
        let mut d = DispatcherModel::new(k);
        let writes: Vec<(u8, u8, bool, u8)> =
            work.iter().map(|&c| (0, c as u8, true, lims[c])).collect();
        configure(&mut d, &writes);
        let l: Vec<u8> = work.iter().map(|&c| lims[c]).collect();
        let mut counts = [0u64; MAX_K];
        let mut out_tags = Vec::new();
        for cycle in 0..(16 * n + 16) {
            if out_tags.len() == n {
                break;
            }
            let ready = pattern[cycle % pattern.len()];
            let o = d.step(&sp(out_tags.len() as u8, ready, true));
            prop_assert_eq!(o.stall, !o.dispatch);
            if o.dispatch {
                prop_assert!(work.contains(&usize::from(o.sel)));
                prop_assert!((ready >> o.sel) & 1 == 1);
                counts[usize::from(o.sel)] += 1;
                out_tags.push(o.out_tag);
                let c: Vec<u64> = work.iter().map(|&c| counts[c]).collect();
                check_ratio(&c, &l, out_tags.len() as u64)?;
            }
        }
        // Every cluster is ready within any 16 cycles, so each dispatch takes at most 16.
        let in_tags: Vec<u8> = (0..n).map(|i| i as u8).collect();
        prop_assert_eq!(out_tags, in_tags);
        let idle_sum: u64 = (0..MAX_K)
            .filter(|c| !work.contains(c))
            .map(|c| counts[c])
            .sum();
        prop_assert_eq!(idle_sum, 0);
        Ok(())
    }

    /// A random system configuration: every type has at least cluster 0 working.
    fn system_config() -> impl Strategy<Value = SystemConfig> {
        (
            1usize..=6,
            500u64..2000,
            proptest::collection::vec(500u64..4000, TYPES * 6),
            proptest::collection::vec(1u8..64, TYPES),
            proptest::collection::vec(1u8..=16, TYPES * 6),
            proptest::collection::vec(1usize..8, TYPES),
            proptest::collection::vec(1u32..5, TYPES),
            any::<bool>(),
        )
            .prop_map(|(k, disp_ps, periods, mask, lims, depth, ii, enable)| {
                let mut cfg = SystemConfig::uniform(k, disp_ps);
                for t in 0..TYPES {
                    let m = (usize::from(mask[t]) & ((1 << k) - 1)) | 1;
                    for c in 0..k {
                        cfg.working[t][c] = (m >> c) & 1 == 1;
                        // Stock runs get limits from 0 (a cluster at its limit from the
                        // start) to check that `enable` 0 ignores them.
                        cfg.limits[t][c] = lims[t * 6 + c] - u8::from(!enable);
                        cfg.cluster_ps[t][c] = periods[t * 6 + c];
                    }
                }
                cfg.depth.copy_from_slice(&depth);
                cfg.ii.copy_from_slice(&ii);
                cfg.enable = enable;
                cfg.trace = true;
                cfg
            })
    }

    /// An upper bound of the run time: each dispatch comes at most one accept (ii cluster
    /// cycles) plus one dispatcher cycle after the previous one; the last retires `depth`
    /// cluster cycles after its accept.
    fn time_bound(cfg: &SystemConfig, n: usize) -> u64 {
        let p = cfg.cluster_ps.iter().flatten().copied().max().unwrap_or(1);
        let ii = u64::from(*cfg.ii.iter().max().unwrap());
        let depth = *cfg.depth.iter().max().unwrap() as u64;
        n as u64 * (ii * p + cfg.disp_ps) + depth * p
    }

    /// No instruction lost or duplicated: dispatched in order, into a working cluster of its
    /// type, retired once from that cluster, in order per cluster.
    fn check_no_loss(
        cfg: &SystemConfig,
        instrs: &[(u8, u8)],
        r: &SystemRun,
    ) -> Result<(), TestCaseError> {
        let got: Vec<(u8, u8)> = r.dispatches.iter().map(|d| (d.ty, d.tag)).collect();
        prop_assert_eq!(&got, &instrs.to_vec());
        for t in 0..TYPES {
            for c in 0..cfg.k {
                let of = |ty: u8, cl: u8| usize::from(ty) == t && usize::from(cl) == c;
                let dis: Vec<u8> = r
                    .dispatches
                    .iter()
                    .filter(|x| of(x.ty, x.cluster))
                    .map(|x| x.tag)
                    .collect();
                let ret: Vec<u8> = r
                    .retires
                    .iter()
                    .filter(|x| of(x.ty, x.cluster))
                    .map(|x| x.tag)
                    .collect();
                prop_assert_eq!(&ret, &dis, "type {} cluster {}", t, c);
                prop_assert_eq!(r.dispatched[t][c], dis.len() as u64);
                prop_assert!(cfg.working[t][c] || dis.is_empty());
                check_busy(cfg, t, c, r)?;
            }
        }
        prop_assert_eq!(r.retires.len(), instrs.len());
        prop_assert_eq!(r.end_ps, r.retires.last().map_or(0, |x| x.ps));
        Ok(())
    }

    /// Busy cycles of cluster (`t`, `c`): n instructions accepted at least `ii` cycles
    /// apart, each `depth` cycles in the pipeline.
    fn check_busy(
        cfg: &SystemConfig,
        t: usize,
        c: usize,
        r: &SystemRun,
    ) -> Result<(), TestCaseError> {
        let (n, depth) = (r.dispatched[t][c], cfg.depth[t] as u64);
        let busy = r.busy_cycles[t][c];
        if n == 0 {
            prop_assert_eq!(busy, 0);
        } else {
            let overlap = depth.min(u64::from(cfg.ii[t]));
            prop_assert!(busy <= n * depth, "busy {} n {} depth {}", busy, n, depth);
            prop_assert!(busy >= depth + (n - 1) * overlap, "busy {} n {}", busy, n);
        }
        Ok(())
    }

    /// The dispatcher's cycles: the ready bits, the stock choice (`enable` 0), the stall count.
    fn check_trace(cfg: &SystemConfig, r: &SystemRun) -> Result<(), TestCaseError> {
        for row in &r.trace {
            let t = usize::from(row.input.in_type);
            let working = (0..cfg.k).filter(|&c| cfg.working[t][c]);
            let mask = working.fold(0u8, |m, c| m | (1 << c));
            prop_assert_eq!(row.input.ready & !mask, 0, "ready from a gated cluster");
            let o = &row.output;
            if o.dispatch {
                prop_assert!((row.input.ready >> o.sel) & 1 == 1);
            }
            if !cfg.enable && row.input.in_valid {
                // Stock: the lowest ready working cluster, stall only when none is ready.
                prop_assert_eq!(o.dispatch, row.input.ready != 0);
                prop_assert_eq!(u32::from(o.sel), row.input.ready.trailing_zeros() % 8);
            }
        }
        let last = r.dispatches.last().map_or(0, |d| d.cycle);
        prop_assert_eq!(last, r.dispatches.len() as u64 + r.stalls);
        Ok(())
    }

    /// The ratio bound per type, after every dispatch of the type (`enable` 1).
    fn check_system_ratio(cfg: &SystemConfig, r: &SystemRun) -> Result<(), TestCaseError> {
        for t in 0..TYPES {
            let work: Vec<usize> = (0..cfg.k).filter(|&c| cfg.working[t][c]).collect();
            let l: Vec<u8> = work.iter().map(|&c| cfg.limits[t][c]).collect();
            let mut counts = [0u64; MAX_K];
            let mut n = 0u64;
            for d in r.dispatches.iter().filter(|d| usize::from(d.ty) == t) {
                counts[usize::from(d.cluster)] += 1;
                n += 1;
                let c: Vec<u64> = work.iter().map(|&c| counts[c]).collect();
                check_ratio(&c, &l, n)?;
            }
        }
        Ok(())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        #[test]
        fn idu_long_run_ratio(
            k in 1usize..=8,
            nwork in 1usize..=6,
            perm in Just((0..8).collect::<Vec<usize>>()).prop_shuffle(),
            lims in proptest::collection::vec(1u8..=16, 8),
            pattern in proptest::collection::vec(any::<u8>(), 8..64),
            n in 1usize..400,
        ) {
            let work: Vec<usize> =
                perm.iter().copied().filter(|&c| c < k).take(nwork.min(k)).collect();
            // Every cluster is ready at least once per 8 cycles of the pattern.
            let pattern: Vec<u8> =
                pattern.iter().enumerate().map(|(i, &r)| r | (1 << (i % 8))).collect();
            ratio_case(k, &work, &lims, &pattern, n)?;
        }

        #[test]
        fn idu_system_no_loss_and_ratio(
            cfg in system_config(),
            types in proptest::collection::vec(0u8..3, 1..300),
        ) {
            let instrs: Vec<(u8, u8)> =
                types.iter().enumerate().map(|(i, &t)| (t, i as u8)).collect();
            let mut sys = IduSystem::new(cfg.clone());
            let r = sys.run(&instrs, time_bound(&cfg, instrs.len()));
            prop_assert!(r.completed, "not done by the bound");
            check_no_loss(&cfg, &instrs, &r)?;
            check_trace(&cfg, &r)?;
            if cfg.enable {
                check_system_ratio(&cfg, &r)?;
            }
        }
    }
}
