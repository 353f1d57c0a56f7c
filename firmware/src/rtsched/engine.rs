//! The host's run time (Fig. 5.1): applications arrive, the policy places sub-kernels, the
//! GPU side runs them and reports completions; every step goes into an event log.

use super::app::{AppSpec, Priority, Profile};
use super::policy::Policy;
use super::state::{AppState, Placed, State};
use serde::Serialize;
use std::collections::HashMap;

/// A sub-kernel's completion as the GPU side reports it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Finished {
    /// The tag [`GpuSide::submit`] returned.
    pub tag: u32,
    /// Cycle it started.
    pub start: u64,
    /// Cycle it completed.
    pub end: u64,
}

/// What the host needs from the GPU: its clock, the enqueue and the completions.
pub trait GpuSide {
    /// Cycles since power-up.
    fn now(&mut self) -> Result<u64, String>;
    /// Enqueues `p` (a kernel of application spec `app`); returns its tag.
    fn submit(&mut self, app: &AppSpec, p: &Placed) -> Result<u32, String>;
    /// Runs until at least one sub-kernel completes or the clock reaches `until`; returns the
    /// completions (an error if a sub-kernel failed or nothing can happen any more).
    fn wait(&mut self, until: Option<u64>) -> Result<Vec<Finished>, String>;
}

/// One line of the event log.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Event {
    /// Cycle.
    pub t: u64,
    /// `arrive`, `share` (the splitter changed n_SM), `submit`, `start`, `end` (a
    /// sub-kernel entry) or `finish` (the application's last kernel ended).
    pub what: &'static str,
    /// The application.
    pub app: String,
    /// The kernel, for sub-kernel events.
    pub kernel: Option<String>,
    /// The sub-kernel, as `C'0`.
    pub sub: Option<String>,
    /// Its first work-group in this entry.
    pub first: Option<u32>,
    /// Its work-groups in this entry.
    pub size: Option<u32>,
    /// The hardware queue's tag of the entry.
    pub tag: Option<u32>,
    /// Its compute units.
    pub cus: Vec<usize>,
    /// The new share, for `share` events.
    pub share: Option<u32>,
}

/// One application's result.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct AppResult {
    /// Its name.
    pub name: String,
    /// Its class.
    pub priority: Priority,
    /// Arrival (cycles).
    pub arrival: u64,
    /// Absolute deadline (cycles).
    pub deadline: u64,
    /// Completion (cycles).
    pub finish: u64,
    /// finish ≤ deadline.
    pub met: bool,
}

/// A whole run.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Outcome {
    /// The scheduler.
    pub policy: Policy,
    /// The event log, in time order.
    pub events: Vec<Event>,
    /// Per application, in input order.
    pub apps: Vec<AppResult>,
}

/// The run's bookkeeping beside the policy's state.
struct Run<'a, G: GpuSide> {
    st: State,
    gpu: &'a mut G,
    policy: Policy,
    inflight: HashMap<u32, Placed>,
    events: Vec<Event>,
}

/// Runs `apps` under `policy` on `gpu` of `n_cus` compute units until every application
/// finished.
pub fn run<G: GpuSide>(
    apps: Vec<AppSpec>,
    profile: Profile,
    l_lnch: u64,
    n_cus: usize,
    policy: Policy,
    gpu: &mut G,
) -> Result<Outcome, String> {
    let st = State {
        apps: apps.into_iter().map(AppState::new).collect(),
        cus: vec![Vec::new(); n_cus],
        profile,
        l_lnch,
    };
    let mut r = Run {
        st,
        gpu,
        policy,
        inflight: HashMap::new(),
        events: Vec::new(),
    };
    r.main_loop()?;
    // (Starts are learnt at completions; stable, so same-time events keep their order.)
    r.events.sort_by_key(|e| e.t);
    let apps = r.st.apps.iter().map(result).collect();
    Ok(Outcome {
        policy,
        events: r.events,
        apps,
    })
}

fn result(a: &AppState) -> AppResult {
    let finish = a.finish.unwrap_or(u64::MAX);
    AppResult {
        name: a.spec.name.clone(),
        priority: a.spec.priority,
        arrival: a.spec.arrival,
        deadline: a.spec.abs_deadline(),
        finish,
        met: finish <= a.spec.abs_deadline(),
    }
}

impl<G: GpuSide> Run<'_, G> {
    fn main_loop(&mut self) -> Result<(), String> {
        loop {
            let now = self.gpu.now()?;
            self.arrivals(now);
            self.decide(now)?;
            if self.st.apps.iter().all(|a| a.finish.is_some()) {
                return Ok(());
            }
            let next = self
                .st
                .apps
                .iter()
                .filter(|a| !a.arrived)
                .map(|a| a.spec.arrival)
                .min();
            if self.inflight.is_empty() && next.is_none() {
                return Err("the scheduler placed nothing and nothing is running".into());
            }
            for f in self.gpu.wait(next)? {
                self.completed(f);
            }
        }
    }

    fn log(&mut self, t: u64, what: &'static str, app: usize, p: Option<&Placed>) {
        let spec = &self.st.apps[app].spec;
        let kernel = p.map(|p| spec.kernels[p.kernel].name.clone());
        self.events.push(Event {
            t,
            what,
            app: spec.name.clone(),
            sub: p.map(|p| format!("{}'{}", spec.kernels[p.kernel].name, p.sub)),
            kernel,
            first: p.map(|p| p.first),
            size: p.map(|p| p.count),
            tag: None,
            cus: p.map(|p| p.cus.clone()).unwrap_or_default(),
            share: None,
        });
    }

    fn tag_last(&mut self, tag: u32) {
        if let Some(e) = self.events.last_mut() {
            e.tag = Some(tag);
        }
    }

    fn arrivals(&mut self, now: u64) {
        for a in 0..self.st.apps.len() {
            if !self.st.apps[a].arrived && self.st.apps[a].spec.arrival <= now {
                self.st.apps[a].arrived = true;
                self.log(now, "arrive", a, None);
            }
        }
    }

    fn decide(&mut self, now: u64) -> Result<(), String> {
        let before: Vec<u32> = self.st.apps.iter().map(|a| a.share).collect();
        let placed = self.policy.decide(&mut self.st, now);
        for (a, &old) in before.iter().enumerate() {
            let share = self.st.apps[a].share;
            if share != old {
                self.log(now, "share", a, None);
                if let Some(e) = self.events.last_mut() {
                    e.share = Some(share);
                }
            }
        }
        for p in placed {
            let tag = self.gpu.submit(&self.st.apps[p.app].spec, &p)?;
            self.log(now, "submit", p.app, Some(&p));
            self.tag_last(tag);
            self.inflight.insert(tag, p);
        }
        Ok(())
    }

    fn completed(&mut self, f: Finished) {
        let Some(p) = self.inflight.remove(&f.tag) else {
            return;
        };
        self.log(f.start, "start", p.app, Some(&p));
        self.tag_last(f.tag);
        self.log(f.end, "end", p.app, Some(&p));
        self.tag_last(f.tag);
        if self.st.complete(&p, f.end) {
            self.log(f.end, "finish", p.app, None);
        }
    }
}
