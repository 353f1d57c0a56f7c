//! Properties of the Chapter 5 schedulers on the model GPU (four compute units, through the
//! driver and the hardware queue), over random application sets: no compute unit runs two
//! sub-kernels at once, every work-group of every kernel runs exactly once, and under the
//! thesis' scheduler a higher-priority application never waits for a lower one's sub-kernel
//! when the splitter gave it free compute units.

use proptest::prelude::*;
use rtgpu_firmware::rtsched::app::{AppSpec, KernelSpec, Priority, Profile};
use rtgpu_firmware::rtsched::engine::{run, Event, Outcome};
use rtgpu_firmware::rtsched::model::{profile, ModelGpu};
use rtgpu_firmware::rtsched::policy::Policy;
use std::collections::HashMap;
use std::sync::OnceLock;

const CUS: usize = 4;
/// Spin counts of the three work-group lengths.
const SPINS: [u32; 3] = [20, 60, 120];
/// Work-groups per kernel: 1..=MAX_TBS.
const MAX_TBS: u32 = 6;

/// Kind of a kernel of `tbs` work-groups of length class `c`.
fn kind(c: usize, tbs: u32) -> usize {
    c * MAX_TBS as usize + tbs as usize - 1
}

fn counts() -> Vec<u32> {
    (0..SPINS.len() * MAX_TBS as usize)
        .map(|k| SPINS[k / MAX_TBS as usize])
        .collect()
}

/// E(K, n) of every kind, measured once.
fn prof() -> &'static Profile {
    static P: OnceLock<Profile> = OnceLock::new();
    P.get_or_init(|| {
        let mut gpu = ModelGpu::new(CUS, &counts()).unwrap();
        let tbs: Vec<u32> = (0..counts().len())
            .map(|k| k as u32 % MAX_TBS + 1)
            .collect();
        profile(&mut gpu, &tbs, CUS as u32).unwrap()
    })
}

fn app_strategy(i: usize) -> impl Strategy<Value = AppSpec> {
    let kernels = prop::collection::vec((0..SPINS.len(), 1..=MAX_TBS), 1..=3);
    (0..3usize, 0..3000u64, 1000..12_000u64, kernels).prop_map(move |(p, arrival, deadline, ks)| {
        AppSpec {
            name: format!("app{i}"),
            priority: Priority::ALL[p],
            arrival,
            deadline,
            kernels: ks
                .iter()
                .enumerate()
                .map(|(j, &(c, tbs))| KernelSpec {
                    name: format!("K{j}"),
                    kind: kind(c, tbs),
                    tbs,
                })
                .collect(),
        }
    })
}

fn apps_strategy() -> impl Strategy<Value = Vec<AppSpec>> {
    (2..=5usize).prop_flat_map(|n| (0..n).map(app_strategy).collect::<Vec<_>>())
}

fn run_on_model(apps: &[AppSpec], policy: Policy) -> Outcome {
    let mut gpu = ModelGpu::new(CUS, &counts()).unwrap();
    run(apps.to_vec(), prof().clone(), 0, CUS, policy, &mut gpu).unwrap()
}

/// The start and end events of each hardware entry, by tag.
fn spans(o: &Outcome) -> HashMap<u32, (&Event, u64)> {
    let mut m = HashMap::new();
    for e in o.events.iter().filter(|e| e.what == "start") {
        let end = o
            .events
            .iter()
            .find(|x| x.what == "end" && x.tag == e.tag)
            .unwrap();
        m.insert(e.tag.unwrap(), (e, end.t));
    }
    m
}

/// No two entries overlap in time on a compute unit.
fn check_exclusive(o: &Outcome) -> Result<(), String> {
    let mut per_cu: Vec<Vec<(u64, u64)>> = vec![Vec::new(); CUS];
    for (e, end) in spans(o).values() {
        e.cus.iter().for_each(|&c| per_cu[c].push((e.t, *end)));
    }
    for (c, mut v) in per_cu.into_iter().enumerate() {
        v.sort_unstable();
        if let Some(w) = v.windows(2).find(|w| w[1].0 < w[0].1) {
            return Err(format!(
                "compute unit {c}: {:?} and {:?} overlap",
                w[0], w[1]
            ));
        }
    }
    Ok(())
}

/// Each kernel's entries cover its work-groups exactly once.
fn check_once(apps: &[AppSpec], o: &Outcome) -> Result<(), String> {
    for a in apps {
        for k in &a.kernels {
            let mut ranges: Vec<(u32, u32)> = o
                .events
                .iter()
                .filter(|e| {
                    e.what == "start" && e.app == a.name && e.kernel.as_ref() == Some(&k.name)
                })
                .map(|e| (e.first.unwrap(), e.first.unwrap() + e.size.unwrap()))
                .collect();
            ranges.sort_unstable();
            let mut next = 0;
            for (f, end) in ranges {
                if f != next {
                    return Err(format!("{} {}: work-group {next} then {f}", a.name, k.name));
                }
                next = end;
            }
            if next != k.tbs {
                return Err(format!(
                    "{} {}: {next} of {} work-groups",
                    a.name, k.name, k.tbs
                ));
            }
        }
    }
    Ok(())
}

/// At every decision, when a lower-priority application's sub-kernel starts at once on free
/// compute units, no higher-priority one placed then waits in the queue.
fn check_priority(apps: &[AppSpec], o: &Outcome) -> Result<(), String> {
    let prio: HashMap<&str, Priority> =
        apps.iter().map(|a| (a.name.as_str(), a.priority)).collect();
    let sp = spans(o);
    let submits: Vec<(&Event, u64)> = o
        .events
        .iter()
        .filter(|e| e.what == "submit")
        .map(|e| (e, sp[&e.tag.unwrap()].0.t))
        .collect();
    for (l, l_start) in &submits {
        for (h, h_start) in &submits {
            let now = l.t == h.t && *l_start == l.t && *h_start > h.t;
            if now && prio[h.app.as_str()] < prio[l.app.as_str()] {
                return Err(format!(
                    "at {}: {} waits while {} starts",
                    l.t, h.app, l.app
                ));
            }
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    /// Every scheduler: compute units exclusive, work-groups exactly once; ours: priority.
    /// (Mutations caught: the hardware queue ignoring busy compute units breaks exclusivity;
    /// both entries of a split sub-kernel starting at the same work-group breaks "exactly
    /// once"; the schedule generator serving the lowest priority first breaks priority.)
    #[test]
    fn schedules_are_exclusive_complete_and_respect_priority(apps in apps_strategy()) {
        for policy in Policy::ALL {
            let o = run_on_model(&apps, policy);
            prop_assert!(o.apps.iter().all(|a| a.finish < u64::MAX));
            check_exclusive(&o).map_err(TestCaseError::fail)?;
            check_once(&apps, &o).map_err(TestCaseError::fail)?;
            if policy == Policy::Ours {
                check_priority(&apps, &o).map_err(TestCaseError::fail)?;
            }
        }
    }
}
