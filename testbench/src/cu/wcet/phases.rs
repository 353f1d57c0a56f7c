//! The multi-phase profiles of a launch's own wavefronts and the paper's Lemmas 7 and 8
//! checked against the simulated run (docs/works/multiphase.md#def-6).
//!
//! Each wavefront's path is the one the run took (the paper's method: the analysis reads the
//! trace's instruction sequence, never its times). Its isolated issue cycles come from the
//! timing rules along that path ([`Rules::walk`]); an instruction's exec cycles are
//! [`super::gub::exec_cycles`] from its issue, its completion [`Rules::completion`] after it.
//! The exec phases are the unions of those exec intervals, the idle phases the gaps, and a last
//! idle phase runs to the last completion (Definition 1). PUB(w, i) is the durations of
//! w's phases 0..=i plus every exec cycle of the other wavefronts of its SIMD (Definition 6).
//! Measured from each wavefront's first issue in the run:
//!
//! - **Lemma 7**: the real end of the last initiation (issue + exec cycles) of the
//!   instructions in exec phase i is at most PUB(w, i);
//! - **Lemma 8**: the real completion of the instructions whose isolated completion falls in
//!   phase i is at most PUB(w, i).
//!
//! The checks apply where the bound's per-SIMD sum needs no other term: one SIMD, no barrier,
//! fixed memory latencies, no split.

use super::graph::{Graph, Node};
use super::gub::exec_cycles;
use super::timing::Rules;
use rtgpu_hw::cu::{CuConfig, IssueRecord};
use rtgpu_wcet::multiphase::{IsoTimes, Phase, PhaseKind, Profile};
use serde::Serialize;

/// The Lemma 7/8 checks of one run.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct LemmaCheck {
    /// Wavefronts profiled.
    pub waves: usize,
    /// Phases checked (Lemma 8; the exec ones also Lemma 7).
    pub phases: usize,
    /// Lemma 7 violations: (wave, phase, real end, PUB).
    pub lemma7: Vec<(u32, usize, u64, u64)>,
    /// Lemma 8 violations: (wave, phase, real end, PUB).
    pub lemma8: Vec<(u32, usize, u64, u64)>,
    /// Isolated time ≤ real time for every wavefront (the isolation is a lower envelope).
    pub max_tiso: u64,
}

/// The profile of one path with its isolated times, from the timing rules.
pub fn profile(path: &[Node], rules: &Rules) -> Profile {
    let t = rules.walk(path);
    let iso: Vec<IsoTimes> = path
        .iter()
        .zip(&t)
        .map(|(n, &at)| IsoTimes {
            issue: at,
            dispatch: at,
            init_end: at + exec_cycles(n, &rules.lat),
            complete: at + rules.completion(n),
        })
        .collect();
    Profile {
        phases: phases_of(&iso),
        iso,
    }
}

/// Definition 1's phases over the exec intervals `[issue, init_end)`, then an idle tail to
/// the last completion.
fn phases_of(iso: &[IsoTimes]) -> Vec<Phase> {
    let mut phases: Vec<Phase> = Vec::new();
    let mut end = 0;
    for x in iso {
        if x.issue > end {
            phases.push(Phase {
                kind: PhaseKind::Idle,
                start: end,
                dur: x.issue - end,
            });
        }
        match phases.last_mut() {
            Some(p) if p.kind == PhaseKind::Exec && p.start + p.dur >= x.issue => {
                p.dur = p.dur.max(x.init_end - p.start);
            }
            _ => phases.push(Phase {
                kind: PhaseKind::Exec,
                start: x.issue,
                dur: x.init_end - x.issue,
            }),
        }
        end = end.max(x.init_end);
    }
    let last = iso.iter().map(|x| x.complete).max().unwrap_or(0);
    if last > end {
        phases.push(Phase {
            kind: PhaseKind::Idle,
            start: end,
            dur: last - end,
        });
    }
    phases
}

/// The phase holding cycle `c` (the last one past the end).
fn phase_at(p: &Profile, c: u64) -> usize {
    p.phases
        .iter()
        .position(|x| c < x.start + x.dur)
        .unwrap_or(p.phases.len().saturating_sub(1))
}

/// Per wavefront of `log` (global number): its issues (cycle, node) in order.
fn per_wave(log: &[IssueRecord], g: &Graph) -> Vec<(u32, Vec<(u64, Node)>)> {
    let mut waves: std::collections::BTreeMap<u32, Vec<(u64, Node)>> = Default::default();
    for r in log {
        if let Ok(i) = g.nodes.binary_search_by_key(&r.pc, |n| n.pc) {
            waves.entry(r.wave).or_default().push((r.cycle, g.nodes[i]));
        }
    }
    waves.into_iter().collect()
}

/// Checks Lemmas 7 and 8 for every wavefront of a run on one SIMD (`log`, the run's issues
/// of `code`); `interference` false leaves the other wavefronts' exec cycles out of every
/// PUB (the mutation the tests show the checks catch).
pub fn check(code: &[u32], cfg: &CuConfig, log: &[IssueRecord], interference: bool) -> LemmaCheck {
    let Ok(g) = Graph::new(code) else {
        return LemmaCheck::default();
    };
    let rules = Rules {
        lat: cfg.lat,
        pipe_wait: 0,
        vmem_wait: 0,
    };
    let waves = per_wave(log, &g);
    let profiles: Vec<Profile> = waves
        .iter()
        .map(|(_, v)| profile(&v.iter().map(|x| x.1).collect::<Vec<_>>(), &rules))
        .collect();
    let e_all: u64 = profiles.iter().map(Profile::exec).sum();
    let mut r = LemmaCheck {
        waves: waves.len(),
        ..LemmaCheck::default()
    };
    for ((wave, issues), p) in waves.iter().zip(&profiles) {
        let others = if interference { e_all - p.exec() } else { 0 };
        let first = issues.first().map_or(0, |x| x.0);
        let mut end7 = vec![0u64; p.phases.len()];
        let mut end8 = vec![0u64; p.phases.len()];
        for ((cycle, n), iso) in issues.iter().zip(&p.iso) {
            let real = cycle - first;
            let i7 = phase_at(p, iso.issue);
            end7[i7] = end7[i7].max(real + (iso.init_end - iso.issue));
            let i8 = phase_at(p, iso.complete.saturating_sub(1));
            end8[i8] = end8[i8].max(real + rules.completion(n));
        }
        let mut prefix = 0;
        for (i, ph) in p.phases.iter().enumerate() {
            prefix += ph.dur;
            let pub_i = prefix + others;
            r.phases += 1;
            if ph.kind == PhaseKind::Exec && end7[i] > pub_i {
                r.lemma7.push((*wave, i, end7[i], pub_i));
            }
            if end8[i] > pub_i {
                r.lemma8.push((*wave, i, end8[i], pub_i));
            }
        }
        r.max_tiso = r.max_tiso.max(p.t_iso());
    }
    r
}
