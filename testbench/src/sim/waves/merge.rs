//! Merges the waveforms that RTL blocks record on their own clocks into the system's
//! waveform, on the system's time base.
//!
//! A block checked in lock-step inside the running system is stepped when its owner steps it:
//! every core cycle, only when its unit looks for an issue, or on the DRAM clock. Its own VCD
//! is on its harness clock (one period per step), so its times say nothing about the
//! system's. Each recording block therefore keeps a [`Track`]: per step, the harness time at
//! the step's start and the system time of the core cycle it belongs to (from a shared
//! [`SysClock`]). The merge maps every harness time to a system time by interpolating between
//! those step starts (steps that fall in one core cycle are spread evenly over it), puts each
//! block's scopes under `rtl.<instance>`, gives their variables fresh identifiers, and merges
//! every file's value changes in time order.

use crate::sim::signals::{Role, SignalInfo};
use std::collections::{BinaryHeap, HashMap};
use std::fs::File;
use std::io::{self, BufReader, BufWriter};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use vcd::{Command, Header, IdCode, Scope, ScopeItem, ScopeType};

/// The system's time in ps, set by whoever clocks the system and read by the blocks that
/// record.
#[derive(Clone, Debug, Default)]
pub struct SysClock(Arc<AtomicU64>);

impl SysClock {
    /// Sets the current time, ps.
    pub fn set(&self, ps: u64) {
        self.0.store(ps, Ordering::Relaxed);
    }

    /// The current time, ps.
    pub fn now(&self) -> u64 {
        self.0.load(Ordering::Relaxed)
    }
}

/// One block's recording: its scope name in the merged file, its VCD, and per step
/// (harness ps at the step's start, system ps).
#[derive(Clone, Debug, Default)]
pub struct Track {
    /// Scope of the instance under `rtl` (`pws_g0`).
    pub scope: String,
    /// The block's own VCD.
    pub vcd: PathBuf,
    /// Per step: (harness ps at its start, system ps of its core cycle).
    pub steps: Vec<(u64, u64)>,
}

/// Every recording block's track, handed over when the block is dropped (its VCD is closed
/// then too), for the caller that merges.
#[derive(Clone, Debug, Default)]
pub struct Tracks(Arc<Mutex<Vec<Track>>>);

impl Tracks {
    /// Adds a finished track.
    pub fn add(&self, track: Track) {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).push(track);
    }

    /// Every track handed over so far, in the order the blocks were dropped.
    pub fn snapshot(&self) -> Vec<Track> {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }
}

/// What recording blocks share with the system they run in: its clock and the list their
/// tracks go to.
#[derive(Clone, Debug, Default)]
pub struct Timeline {
    /// The system's time.
    pub clock: SysClock,
    /// Every recording block's track.
    pub tracks: Tracks,
}

/// Harness time → system time of one track.
struct TimeMap {
    /// (harness ps, system ps) at each step's start, both strictly increasing.
    points: Vec<(u64, u64)>,
}

impl TimeMap {
    /// From the steps: steps of one core cycle (`cycle_ps`) spread evenly over it.
    fn new(steps: &[(u64, u64)], cycle_ps: u64) -> Self {
        let mut points: Vec<(u64, u64)> = Vec::with_capacity(steps.len());
        let mut i = 0;
        while i < steps.len() {
            let sys = steps[i].1;
            let n = steps[i..].iter().take_while(|s| s.1 == sys).count() as u64;
            for j in 0..n {
                let h = steps[i + j as usize].0;
                let s = sys + j * cycle_ps / n;
                if points.last().is_none_or(|&(ph, ps)| h > ph && s > ps) {
                    points.push((h, s));
                }
            }
            i += n as usize;
        }
        Self { points }
    }

    /// The system time of harness time `t` (monotone in `t`).
    fn map(&self, t: u64) -> u64 {
        let k = self.points.partition_point(|p| p.0 <= t);
        match (k.checked_sub(1).map(|i| self.points[i]), self.points.get(k)) {
            (None, Some(&(h, s))) => s.saturating_sub(h - t),
            (None, None) => t,
            (Some((h, s)), None) => s + (t - h),
            (Some((h0, s0)), Some(&(h1, s1))) => {
                let f = u128::from(t - h0) * u128::from(s1 - s0) / u128::from(h1 - h0);
                s0 + f as u64
            }
        }
    }
}

/// One input file's value changes, with times already on the system's base.
struct Source {
    parser: vcd::Parser<BufReader<File>>,
    /// Identifier in the input → identifier in the merged file (`None`: kept as they are).
    ids: Option<HashMap<IdCode, IdCode>>,
    time: Option<TimeMap>,
    /// The next change and its (mapped) time.
    next: Option<(u64, Command)>,
    now: u64,
}

impl Source {
    fn advance(&mut self) -> io::Result<()> {
        self.next = None;
        for cmd in self.parser.by_ref() {
            let cmd = cmd?;
            match cmd {
                Command::Timestamp(t) => {
                    self.now = self.time.as_ref().map_or(t, |m| m.map(t));
                }
                Command::ChangeScalar(..)
                | Command::ChangeVector(..)
                | Command::ChangeReal(..)
                | Command::ChangeString(..) => {
                    self.next = Some((self.now, cmd));
                    return Ok(());
                }
                _ => {}
            }
        }
        Ok(())
    }

    /// The change with its identifier renamed (`None`: a variable the header did not define).
    fn renamed(&self, cmd: Command) -> Option<Command> {
        let id = |i: &IdCode| match &self.ids {
            Some(ids) => ids.get(i).copied(),
            None => Some(*i),
        };
        Some(match cmd {
            Command::ChangeScalar(i, v) => Command::ChangeScalar(id(&i)?, v),
            Command::ChangeVector(i, v) => Command::ChangeVector(id(&i)?, v),
            Command::ChangeReal(i, v) => Command::ChangeReal(id(&i)?, v),
            Command::ChangeString(i, v) => Command::ChangeString(id(&i)?, v),
            other => other,
        })
    }
}

fn open(path: &Path) -> io::Result<(vcd::Parser<BufReader<File>>, Header)> {
    let file = File::open(path)
        .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", path.display())))?;
    let mut p = vcd::Parser::new(BufReader::new(file));
    let h = p.parse_header()?;
    Ok((p, h))
}

/// Every variable's identifier in `items`, renamed to fresh ones from `next`.
fn rename(items: &mut [ScopeItem], next: &mut IdCode, ids: &mut HashMap<IdCode, IdCode>) {
    for item in items {
        match item {
            ScopeItem::Scope(s) => rename(&mut s.items, next, ids),
            ScopeItem::Var(v) => {
                v.code = *ids.entry(v.code).or_insert_with(|| {
                    let id = *next;
                    *next = next.next();
                    id
                });
            }
            _ => {}
        }
    }
}

/// The largest identifier used in `items`.
fn max_id(items: &[ScopeItem]) -> Option<IdCode> {
    items
        .iter()
        .filter_map(|i| match i {
            ScopeItem::Scope(s) => max_id(&s.items),
            ScopeItem::Var(v) => Some(v.code),
            _ => None,
        })
        .max()
}

/// The block's own scope tree as the instance's scope: Verilator's `TOP.vtop.dut` wrapper
/// (the generated shim's ports around the block) and the harness's single root scope are
/// stripped.
fn block_scope(h: Header, instance: &str) -> Scope {
    let scope_named = |items: &[ScopeItem], name: Option<&str>| {
        let mut scopes = items.iter().filter_map(|i| match i {
            ScopeItem::Scope(s) if name.is_none_or(|n| s.identifier == n) => Some(s.items.clone()),
            _ => None,
        });
        match name {
            Some(_) => scopes.next(),
            None => (items.len() == 1).then(|| scopes.next()).flatten(),
        }
    };
    let mut items = h.items;
    for name in ["TOP", "vtop", "dut"] {
        if let Some(inner) = scope_named(&items, Some(name)) {
            items = inner;
        }
    }
    if let Some(inner) = scope_named(&items, None) {
        items = inner;
    }
    let mut s = Scope::new(ScopeType::Module, instance.to_string());
    s.items = items;
    s
}

/// Rewrites `system` (a VCD) with every track's signals under `rtl.<instance>`, on the
/// system's time base; `cycle_ps` is the core cycle. Returns each instance's own variables
/// as merged (`rtl.pws_g0.cmd`, for a `.gtkw`). Changes before `window.0` are carried to it,
/// changes after `window.1` dropped, as the system's own recording does.
pub fn merge_into(
    system: &Path,
    tracks: &[Track],
    cycle_ps: u64,
    window: (u64, u64),
) -> io::Result<Vec<SignalInfo>> {
    if tracks.is_empty() {
        return Ok(Vec::new());
    }
    let (sys_parser, mut header) = open(system)?;
    let mut next = max_id(&header.items).map_or(IdCode::FIRST, |i| i.next());
    let mut rtl = Scope::new(ScopeType::Module, "rtl".to_string());
    let mut sources = vec![Source {
        parser: sys_parser,
        ids: None,
        time: None,
        next: None,
        now: 0,
    }];
    let mut names = Vec::new();
    for t in tracks {
        let (parser, h) = open(&t.vcd)?;
        let mut scope = block_scope(h, &t.scope);
        let mut ids = HashMap::new();
        rename(&mut scope.items, &mut next, &mut ids);
        names.extend(root_vars(&scope));
        rtl.items.push(ScopeItem::Scope(scope));
        sources.push(Source {
            parser,
            ids: Some(ids),
            time: Some(TimeMap::new(&t.steps, cycle_ps)),
            next: None,
            now: 0,
        });
    }
    header.items.push(ScopeItem::Scope(rtl));
    let merged = PathBuf::from(format!("{}.merging", system.display()));
    write_merged(&merged, &header, &mut sources, window)?;
    drop(sources);
    std::fs::rename(&merged, system)?;
    Ok(names)
}

/// The instance's own variables (not its sub-blocks'), in scope `rtl.<instance>`.
fn root_vars(s: &Scope) -> Vec<SignalInfo> {
    s.items
        .iter()
        .filter_map(|i| match i {
            ScopeItem::Var(v) => Some(SignalInfo {
                scope: vec!["rtl".to_string(), s.identifier.clone()],
                name: v.reference.clone(),
                width: v.size as usize,
                role: Role::Internal,
                variants: None,
                is_clock: false,
                index: 0,
            }),
            _ => None,
        })
        .collect()
}

fn write_merged(
    path: &Path,
    header: &Header,
    sources: &mut [Source],
    (from, to): (u64, u64),
) -> io::Result<()> {
    let mut w = vcd::Writer::new(BufWriter::new(File::create(path)?));
    w.header(header)?;
    let mut heap = BinaryHeap::new();
    for (k, s) in sources.iter_mut().enumerate() {
        s.advance()?;
        if let Some((t, _)) = &s.next {
            heap.push(std::cmp::Reverse((*t, k)));
        }
    }
    let mut stamped: Option<u64> = None;
    let mut held: Vec<Command> = Vec::new();
    while let Some(std::cmp::Reverse((t, k))) = heap.pop() {
        let Some((_, cmd)) = sources[k].next.take() else {
            continue;
        };
        let cmd = sources[k].renamed(cmd);
        sources[k].advance()?;
        if let Some((nt, _)) = &sources[k].next {
            heap.push(std::cmp::Reverse((*nt, k)));
        }
        let Some(cmd) = cmd else { continue };
        if t < from {
            held.push(cmd);
            continue;
        }
        if t > to {
            continue;
        }
        if !held.is_empty() {
            w.timestamp(from)?;
            stamped = Some(from);
            for c in held.drain(..) {
                w.command(&c)?;
            }
        }
        if stamped != Some(t) {
            w.timestamp(t)?;
            stamped = Some(t);
        }
        w.command(&cmd)?;
    }
    if !held.is_empty() {
        w.timestamp(from)?;
        stamped = Some(from);
        for c in held.drain(..) {
            w.command(&c)?;
        }
    }
    let end = sources.iter().map(|s| s.now).max().unwrap_or(0);
    let end = end.min(to.saturating_add(1));
    if stamped.is_none_or(|t| end > t) {
        w.timestamp(end)?;
    }
    w.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_in_one_core_cycle_are_spread_over_it() {
        let m = TimeMap::new(&[(0, 0), (1000, 0), (2000, 5000), (3000, 9000)], 1000);
        assert_eq!(m.map(0), 0);
        assert_eq!(m.map(500), 250);
        assert_eq!(m.map(1000), 500);
        assert_eq!(m.map(2000), 5000);
        assert_eq!(m.map(2500), 7000);
        assert_eq!(m.map(3500), 9500);
    }

    #[test]
    fn times_before_the_first_step_end_at_it() {
        let m = TimeMap::new(&[(3000, 10_000)], 1000);
        assert_eq!(m.map(2000), 9000);
        assert_eq!(m.map(0), 7000);
        assert_eq!(TimeMap::new(&[], 1000).map(42), 42);
    }
}
