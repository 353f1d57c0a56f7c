//! The thesis' worked example (Fig. 5.4) on four compute units: High (A, B) arrives at 1 ms
//! with its deadline at 6 ms, Mid (C, D, E) at 0 ms with 8 ms, Low (F) at 4 ms with 9 ms; the
//! kernels' work-groups take 1, 2 or 3 ms. On the model a millisecond is `U` cycles and each
//! kind's spin count is the largest whose work-group fits its milliseconds
//! (docs/works/thesis.md#fig-5-4).

use super::app::{AppSpec, KernelSpec, Priority, Profile};
use super::engine::{run, Outcome};
use super::model::{count_for, profile, ModelGpu};
use super::policy::Policy;
use serde::Serialize;

/// Compute units in the example.
pub const CUS: usize = 4;

/// The kernels: name, work-groups, milliseconds per work-group (Fig. 5.4(a)).
pub const KERNELS: [(&str, u32, u64); 6] = [
    ("A", 3, 2),
    ("B", 3, 2),
    ("C", 3, 2),
    ("D", 4, 1),
    ("E", 3, 3),
    ("F", 5, 2),
];

/// The applications: name, priority, arrival (ms), absolute deadline (ms), kernels.
const APPS: [(&str, Priority, u64, u64, &[usize]); 3] = [
    ("High", Priority::High, 1, 6, &[0, 1]),
    ("Mid", Priority::Medium, 0, 8, &[2, 3, 4]),
    ("Low", Priority::Low, 4, 9, &[5]),
];

/// The applications with a millisecond of `u` cycles.
pub fn apps(u: u64) -> Vec<AppSpec> {
    APPS.iter()
        .map(|&(name, priority, arrival, deadline, ks)| AppSpec {
            name: name.into(),
            priority,
            arrival: arrival * u,
            deadline: (deadline - arrival) * u,
            kernels: ks
                .iter()
                .map(|&k| KernelSpec {
                    name: KERNELS[k].0.into(),
                    kind: k,
                    tbs: KERNELS[k].1,
                })
                .collect(),
        })
        .collect()
}

/// The example in milliseconds with the ideal E(K, n) = ⌈|K| / n⌉ · t_TB.
pub fn ideal() -> (Vec<AppSpec>, Profile) {
    let times = KERNELS
        .iter()
        .map(|&(_, tbs, ms)| {
            (1..=CUS as u64)
                .map(|n| u64::from(tbs).div_ceil(n) * ms)
                .collect()
        })
        .collect();
    (apps(1), Profile { times })
}

/// One of the thesis' facts about the example and whether the run holds it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Fact {
    /// What the thesis says.
    pub fact: &'static str,
    /// Our run holds it.
    pub holds: bool,
}

/// The example run on the model.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Fig54 {
    /// Cycles per millisecond.
    pub u: u64,
    /// Spin count per kernel A … F.
    pub counts: Vec<u32>,
    /// E(K, n), n = 1..=4, measured.
    pub profile: Profile,
    /// The schedule.
    pub outcome: Outcome,
    /// The robust facts.
    pub facts: Vec<Fact>,
}

/// Cycles a work-group is kept below its milliseconds (the host reacts a cycle after a
/// completion, and the launch's own start cycles).
const MARGIN: u64 = 16;

/// Runs the example under `policy` with a millisecond of `u` cycles.
pub fn run_fig54(u: u64, policy: Policy) -> Result<Fig54, String> {
    let mut gpu = ModelGpu::new(CUS, &[0; KERNELS.len()])?;
    let counts = (0..KERNELS.len())
        .map(|k| count_for(&mut gpu, k, KERNELS[k].2 * u - MARGIN))
        .collect::<Result<Vec<_>, _>>()?;
    let tbs: Vec<u32> = KERNELS.iter().map(|k| k.1).collect();
    let prof = profile(&mut gpu, &tbs, CUS as u32)?;
    let t0 = super::engine::GpuSide::now(&mut gpu)?;
    let mut specs = apps(u);
    for a in &mut specs {
        a.arrival += t0;
    }
    let mut outcome = run(specs, prof.clone(), 0, CUS, policy, &mut gpu)?;
    rebase(&mut outcome, t0);
    let facts = facts(&outcome, u);
    Ok(Fig54 {
        u,
        counts,
        profile: prof,
        outcome,
        facts,
    })
}

/// Times from the example's 0 ms (the GPU clock after the profiling).
fn rebase(o: &mut Outcome, t0: u64) {
    o.events.iter_mut().for_each(|e| e.t -= t0);
    for a in &mut o.apps {
        a.arrival -= t0;
        a.deadline -= t0;
        a.finish -= t0;
    }
}

/// The thesis' robust facts about the example, on outcome `o` with a millisecond of `u`.
pub fn facts(o: &Outcome, u: u64) -> Vec<Fact> {
    let ev = |what: &str, app: &str| {
        o.events
            .iter()
            .filter(move |e| e.what == what && e.app == app)
            .cloned()
            .collect::<Vec<_>>()
    };
    let c0: u32 = ev("submit", "Mid")
        .iter()
        .filter(|e| e.t == 0 && e.kernel.as_deref() == Some("C"))
        .filter_map(|e| e.size)
        .sum();
    let mid_share = ev("share", "Mid")
        .iter()
        .rfind(|e| e.t <= u)
        .and_then(|e| e.share);
    let high_end = o
        .apps
        .iter()
        .find(|a| a.name == "High")
        .map_or(u64::MAX, |a| a.finish);
    let low_first = ev("start", "Low")
        .iter()
        .map(|e| e.t)
        .min()
        .unwrap_or(u64::MAX);
    let f_sizes: Vec<u32> = ev("submit", "Low").iter().filter_map(|e| e.size).collect();
    vec![
        Fact {
            fact: "C'0 has 3 work-groups at 0 ms",
            holds: c0 == 3,
        },
        Fact {
            fact: "Mid's share is 1 compute unit at 1 ms",
            holds: mid_share == Some(1),
        },
        Fact {
            fact: "High completes by 6 ms",
            holds: high_end <= 6 * u,
        },
        Fact {
            fact: "Low gets no compute unit before High completes (6 ms)",
            holds: low_first >= high_end,
        },
        Fact {
            fact: "F's sub-kernels sum to 5 work-groups",
            holds: f_sizes.len() > 1 && f_sizes.iter().sum::<u32>() == 5,
        },
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The example through the driver on four compute units holds every robust fact, and
    /// its schedule is the one docs/works/thesis.md#fig-5-4 describes: C'0 whole at 0 ms; at
    /// 1 ms A'0 (3 work-groups: one on the free compute unit, two queued behind C'0); D'0 on
    /// the third compute unit C'0 frees; B'0 (3) and D'3 (1) at 4 ms; E'0 at 5 ms; E'1 (2)
    /// and F'0 (1) when High ends; F's remaining four in two sub-kernels of two.
    #[test]
    fn fig_5_4_on_the_model_holds_the_robust_facts() {
        let f = run_fig54(2000, Policy::Ours).unwrap();
        for fact in &f.facts {
            assert!(fact.holds, "{}", fact.fact);
        }
    }
}
