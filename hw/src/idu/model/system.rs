//! The IDU's multi-clock harness ([`IduSystem`]): the dispatcher plus, per (type, cluster),
//! a one-entry input latch and a pipeline, each on its own period, on one picosecond
//! timeline.

use std::collections::VecDeque;

use super::{DispIn, DispOut, DispatcherModel, MAX_K, TYPES, TYPE_BITS};

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
