//! The evaluation of Section 5.4 on the model: random sets of the twelve Table 5.1
//! applications (repeats allowed), random inter-arrival delays in a window, on N compute
//! units; per scheduler the applications that meet their deadlines, per priority class, and
//! the total timing violation. Table 5.1 gives names, classes and deadlines; the workloads
//! are ours (the thesis' K20m profiles are not published): each application is two or three
//! spin kernels of short work-groups (3–7 ms, like a Rodinia kernel's many thread blocks)
//! whose N-compute-unit time is 35–47 % of its deadline (docs/assumptions.md#A80).

use super::app::{AppSpec, KernelSpec, Priority, Profile};
use super::engine::{run, GpuSide, Outcome};
use super::model::{count_for, profile, ModelGpu};
use super::policy::Policy;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::Serialize;

/// One Table 5.1 application and the workload that stands for it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Rodinia {
    /// Its name.
    pub name: &'static str,
    /// Its class (Table 5.1).
    pub priority: Priority,
    /// Its relative deadline in ms (Table 5.1).
    pub deadline_ms: u64,
    /// Our workload: kernels, each of `tbs` work-groups of `tb_ms` ms.
    pub kernels: u32,
    /// Work-groups per kernel.
    pub tbs: u32,
    /// Milliseconds per work-group.
    pub tb_ms: u64,
}

const fn app(
    name: &'static str,
    priority: Priority,
    deadline_ms: u64,
    (kernels, tbs, tb_ms): (u32, u32, u64),
) -> Rodinia {
    Rodinia {
        name,
        priority,
        deadline_ms,
        kernels,
        tbs,
        tb_ms,
    }
}

/// Table 5.1 (names, classes, deadlines) with our workloads.
pub const TABLE_5_1: [Rodinia; 12] = [
    app("Leukocyte", Priority::High, 50, (3, 26, 3)),
    app("HeartWall", Priority::High, 50, (2, 26, 5)),
    app("HotSpot", Priority::High, 1000, (2, 520, 5)),
    app("SRAD", Priority::High, 30, (2, 26, 3)),
    app("BackProp", Priority::Medium, 30, (2, 13, 7)),
    app("PathFinder", Priority::Medium, 20, (2, 13, 4)),
    app("Kmeans", Priority::Medium, 100, (2, 52, 5)),
    app("Streamcluster", Priority::Medium, 2400, (3, 780, 5)),
    app("BFS", Priority::Low, 15, (2, 13, 3)),
    app("B+Tree", Priority::Low, 400, (2, 208, 5)),
    app("Gaussian", Priority::Low, 1700, (3, 520, 5)),
    app("CFD", Priority::Low, 70000, (2, 520, 5)),
];

/// The thesis' own numbers (Section 5.4), printed beside ours.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct ThesisFigures {
    /// Up to this many times as many applications meet deadlines as TimeGraph and k-exclusion
    /// (Fig. 5.5).
    pub met_ratio: f64,
    /// Up to this many in the scalability analysis (Fig. 5.8).
    pub scal_ratio: f64,
    /// Average timing violation reduced by these percentages against TimeGraph,
    /// k-exclusion and GPU-EvR (Fig. 5.7).
    pub violation_cut: [f64; 3],
    /// The framework saturates at about this many injected applications.
    pub saturation: u32,
}

/// Section 5.4's figures.
pub const THESIS: ThesisFigures = ThesisFigures {
    met_ratio: 1.37,
    scal_ratio: 1.56,
    violation_cut: [54.57, 50.45, 46.39],
    saturation: 80,
};

/// The experiment's parameters.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct EvalConfig {
    /// Cycles per millisecond of the thesis.
    pub u: u64,
    /// Compute units (the thesis: 13).
    pub cus: usize,
    /// Applications per set, for the deadline sweep (Fig. 5.5–5.7).
    pub sweep: Vec<usize>,
    /// Inter-arrival delays are uniform in 0..=this many ms (the thesis: 200).
    pub window_ms: u64,
    /// Applications per set for the scalability analysis (Fig. 5.8), injected within
    /// `burst_ms`.
    pub scal: Vec<usize>,
    /// The scalability analysis' window (ms).
    pub burst_ms: u64,
    /// Random sets per point.
    pub sets: usize,
    /// Seed of the first set.
    pub seed: u64,
}

impl EvalConfig {
    /// The short run (CI).
    pub fn short() -> Self {
        Self {
            u: 50,
            cus: 13,
            sweep: vec![10, 20],
            window_ms: 200,
            scal: vec![5, 10],
            burst_ms: 10,
            sets: 1,
            seed: 1,
        }
    }

    /// The full set.
    pub fn long() -> Self {
        Self {
            sweep: vec![20, 40, 60, 80, 100],
            scal: vec![3, 5, 7, 9, 11, 13, 15],
            sets: 3,
            ..Self::short()
        }
    }
}

/// One scheduler on one point, summed over the sets.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Row {
    /// The analysis: `deadlines` (Fig. 5.5–5.7) or `scalability` (Fig. 5.8).
    pub analysis: &'static str,
    /// Applications injected per set.
    pub apps: usize,
    /// The scheduler.
    pub policy: Policy,
    /// Applications that met their deadline, per class (high, medium, low).
    pub met: [u32; 3],
    /// Applications injected, per class.
    pub injected: [u32; 3],
    /// Total timing violation, ms.
    pub violation_ms: f64,
}

impl Row {
    /// Applications that met their deadline.
    pub fn total(&self) -> u32 {
        self.met.iter().sum()
    }
}

/// The whole evaluation.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Report {
    /// Its parameters.
    pub config: EvalConfig,
    /// Spin count per Table 5.1 application.
    pub counts: Vec<u32>,
    /// E(K, n) per application's kernel, measured.
    pub profile: Profile,
    /// Every point.
    pub rows: Vec<Row>,
    /// The thesis' figures.
    pub thesis: ThesisFigures,
}

/// A random set of `n` applications arriving within `window_ms` of each other (the first at
/// 0), a millisecond being `u` cycles.
pub fn random_set(n: usize, window_ms: u64, u: u64, rng: &mut ChaCha8Rng) -> Vec<AppSpec> {
    let mut t = 0;
    (0..n)
        .map(|i| {
            let kind = rng.gen_range(0..TABLE_5_1.len());
            let r = &TABLE_5_1[kind];
            let spec = AppSpec {
                name: format!("{}#{i}", r.name),
                priority: r.priority,
                arrival: t,
                deadline: r.deadline_ms * u,
                kernels: (0..r.kernels)
                    .map(|k| KernelSpec {
                        name: format!("K{k}"),
                        kind,
                        tbs: r.tbs,
                    })
                    .collect(),
            };
            t += rng.gen_range(0..=window_ms * u);
            spec
        })
        .collect()
}

/// The row of `o`.
fn row(analysis: &'static str, apps: usize, o: &Outcome, u: u64) -> Row {
    let mut r = Row {
        analysis,
        apps,
        policy: o.policy,
        met: [0; 3],
        injected: [0; 3],
        violation_ms: 0.0,
    };
    for a in &o.apps {
        let c = a.priority as usize;
        r.injected[c] += 1;
        r.met[c] += u32::from(a.met);
        r.violation_ms += a.finish.saturating_sub(a.deadline) as f64 / u as f64;
    }
    r
}

/// Adds `b`'s counts to `a`.
fn add(a: &mut Row, b: &Row) {
    for c in 0..3 {
        a.met[c] += b.met[c];
        a.injected[c] += b.injected[c];
    }
    a.violation_ms += b.violation_ms;
}

/// Runs `apps` under `policy` on `gpu` from its current cycle.
fn run_set(
    gpu: &mut ModelGpu,
    cfg: &EvalConfig,
    prof: &Profile,
    mut apps: Vec<AppSpec>,
    policy: Policy,
) -> Result<Outcome, String> {
    let t0 = gpu.now()?;
    apps.iter_mut().for_each(|a| a.arrival += t0);
    run(apps, prof.clone(), 0, cfg.cus, policy, gpu)
}

/// Runs the evaluation; `tick` is called after each set run (done, total).
pub fn evaluate(cfg: &EvalConfig, tick: &mut dyn FnMut(usize, usize)) -> Result<Report, String> {
    let mut gpu = ModelGpu::new(cfg.cus, &[0; TABLE_5_1.len()])?;
    let counts = (0..TABLE_5_1.len())
        .map(|k| count_for(&mut gpu, k, TABLE_5_1[k].tb_ms * cfg.u - 16))
        .collect::<Result<Vec<_>, _>>()?;
    let tbs: Vec<u32> = TABLE_5_1.iter().map(|r| r.tbs).collect();
    let prof = profile(&mut gpu, &tbs, cfg.cus as u32)?;
    let points: Vec<(&'static str, usize, u64)> =
        (cfg.sweep.iter().map(|&n| ("deadlines", n, cfg.window_ms)))
            .chain(cfg.scal.iter().map(|&n| ("scalability", n, cfg.burst_ms)))
            .collect();
    let total = points.len() * cfg.sets * Policy::ALL.len();
    let (mut rows, mut done) = (Vec::new(), 0);
    for (analysis, n, window) in points {
        let mut sums: Vec<Option<Row>> = vec![None; Policy::ALL.len()];
        for s in 0..cfg.sets {
            let mut rng = ChaCha8Rng::seed_from_u64(cfg.seed + s as u64 * 1000 + n as u64);
            let set = random_set(n, window, cfg.u, &mut rng);
            for (p, policy) in Policy::ALL.into_iter().enumerate() {
                let o = run_set(&mut gpu, cfg, &prof, set.clone(), policy)?;
                let r = row(analysis, n, &o, cfg.u);
                match &mut sums[p] {
                    Some(acc) => add(acc, &r),
                    None => sums[p] = Some(r),
                }
                done += 1;
                tick(done, total);
            }
        }
        rows.extend(sums.into_iter().flatten());
    }
    Ok(Report {
        config: cfg.clone(),
        counts,
        profile: prof,
        rows,
        thesis: THESIS,
    })
}
