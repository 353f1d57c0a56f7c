//! The compute unit's waveform: per SIMD/SpSIMD the issuing context and class of each issue
//! and the PC and instruction word of the last one (shown as assembly); per context its state, PC, EXEC, SpM and effective mask (the signals
//! that show splitting at work); a `.gtkw` grouping them by SIMD.

use super::sys_probe::SysProbe;
use crate::sim::signals::SignalInfo;
use crate::sim::waves::merge::{merge_into, Track};
use crate::sim::waves::{as_refs, is_fst, named, vcd_to_fst, Format, Gtkw, ProbeRecorder};
use rtgpu_hw::cu::{ComputeUnit, Group, Status, CLASSES};
use rtgpu_hw::pws::State;
use std::io;
use std::path::{Path, PathBuf};

/// Picoseconds per core cycle (1 GHz).
pub const CYCLE_PS: u64 = 1000;

/// The `insn` value before a unit's first issue: out of its 32 bits, written as x (word 0 is
/// an instruction).
const NO_WORD: u64 = u64::MAX;

/// Per unit: issue_ctx (slot + 1 in the cycle it issues, else 0), pc and insn (of the last
/// issue, held until the next), class (in the cycle it issues, else 0). Per context: state, pc, exec, spm, eff.
const UNIT_VARS: [(&str, usize); 4] = [("issue_ctx", 5), ("pc", 32), ("insn", 32), ("class", 4)];
const CTX_VARS: [(&str, usize); 5] = [
    ("state", 3),
    ("pc", 32),
    ("exec", 64),
    ("spm", 64),
    ("eff", 64),
];

/// Name of unit u of SIMD g's group.
fn unit_scope(g: usize, u: usize) -> Vec<String> {
    let unit = if u == 0 {
        "simd".to_string()
    } else {
        format!("spsimd{u}")
    };
    vec!["cu".into(), format!("g{g}"), unit]
}

/// Records the compute unit cycle by cycle.
pub struct CuProbe {
    rec: ProbeRecorder,
    /// (group, unit, slot) of every context, in variable order.
    ctxs: Vec<(usize, usize, usize)>,
    units: Vec<(usize, usize)>,
    /// Per unit: the PC and word of its last issue (held between issues, so that GTKWave
    /// has room to print the instruction).
    held: Vec<(u64, u64)>,
    /// Contexts that ever held a wavefront (the `.gtkw` shows only those).
    used: Vec<bool>,
    /// Every variable's value, in declaration order: the context values are captured into
    /// their place before the step, the rest filled in after it.
    values: Vec<u64>,
    /// Where the context values start in `values`.
    ctx_at: usize,
    /// The contexts were captured at least once.
    captured: bool,
    /// Per group: its wake count at the last capture ([`Group::wakes`]).
    wakes: Vec<u64>,
    /// The runs of contexts (index ranges into `ctxs`, ascending) captured anew for the
    /// coming sample; the others hold the values the recorder last saw.
    fresh_ctx: Vec<std::ops::Range<usize>>,
    /// Every context is captured anew (the first capture).
    all_fresh: bool,
    /// Units per group and contexts per unit (`ctxs` is group, unit, slot major).
    shape: (usize, usize),
    /// The DRAM cycles of the last core cycle (reused).
    drams: Vec<(u64, [u64; 8])>,
    /// SIMD group 0's splits and merges: (cycle, label), for the `.gtkw`'s markers.
    events: Vec<(u64, String)>,
    cycles: u64,
    /// The memory hierarchy's and the IDU's variables.
    sys: SysProbe,
    /// The waveform asked for (VCD, or FST converted from the VCD being written).
    dump: PathBuf,
    /// The recorded window, ps (`--vcd-window`).
    window: (u64, u64),
    /// The waveform is limited to scopes (`--vcd-scope`): the `.gtkw` shows what it holds.
    scoped: bool,
    /// The waveform's top-level scopes (`cu` and the scopes right below it).
    top_level: Vec<String>,
}

impl CuProbe {
    /// Opens `vcd` for a compute unit with `groups` SIMD groups of `units` units and `n_wfc`
    /// contexts each, with the memory hierarchy's variables (`mem`) and the IDU's (`idu`). A
    /// `.fst` name writes a VCD beside it (`NAME.fst.vcd`) and converts it at the end. With
    /// `scopes` (dotted paths, `--vcd-scope`), only the variables in them are recorded.
    pub fn create(
        vcd: &Path,
        (groups, units, n_wfc): (usize, usize, usize),
        mem: bool,
        idu: bool,
        scopes: &[String],
    ) -> io::Result<Self> {
        let mut vars = vec![(vec!["cu".to_string()], "status".to_string(), 2)];
        let unit_list: Vec<(usize, usize)> = (0..groups)
            .flat_map(|g| (0..units).map(move |u| (g, u)))
            .collect();
        for &(g, u) in &unit_list {
            vars.extend(
                UNIT_VARS
                    .iter()
                    .map(|(n, w)| (unit_scope(g, u), n.to_string(), *w)),
            );
        }
        let ctxs: Vec<(usize, usize, usize)> = unit_list
            .iter()
            .flat_map(|&(g, u)| (0..n_wfc).map(move |s| (g, u, s)))
            .collect();
        for &(g, u, s) in &ctxs {
            let mut scope = unit_scope(g, u);
            scope.push(format!("ctx{}", s + 1));
            vars.extend(
                CTX_VARS
                    .iter()
                    .map(|(n, w)| (scope.clone(), n.to_string(), *w)),
            );
        }
        let ctx_at = 1 + unit_list.len() * UNIT_VARS.len();
        let sys_at = vars.len();
        let (sys, sys_vars) = SysProbe::new(vars.len(), &unit_list, mem, idu);
        vars.extend(sys_vars);
        let mut top_level: Vec<String> = Vec::new();
        for (scope, _, _) in &vars {
            for depth in 1..=scope.len().min(2) {
                let p = scope[..depth].join(".");
                if !top_level.contains(&p) {
                    top_level.push(p);
                }
            }
        }
        let dump = vcd.to_path_buf();
        let vcd = match is_fst(vcd) {
            true => PathBuf::from(format!("{}.vcd", vcd.display())),
            false => dump.clone(),
        };
        Ok(Self {
            dump,
            window: (0, u64::MAX),
            sys,
            rec: ProbeRecorder::create_in(&vcd, &vars, scopes)?,
            scoped: !scopes.is_empty(),
            top_level,
            used: vec![false; ctxs.len()],
            values: {
                let mut v = vec![0; sys_at];
                v.reserve(vars.len() - sys_at);
                v
            },
            ctx_at,
            captured: false,
            wakes: vec![u64::MAX; groups],
            fresh_ctx: Vec::new(),
            all_fresh: true,
            shape: (units, n_wfc),
            drams: Vec::new(),
            events: Vec::new(),
            held: vec![(0, NO_WORD); unit_list.len()],
            units: unit_list,
            ctxs,
            cycles: 0,
        })
    }

    /// Of `scopes`, those this waveform records something of.
    pub fn holds(&self, scopes: &[String]) -> Vec<String> {
        let recorded = self.rec.signals();
        scopes
            .iter()
            .filter(|p| recorded.iter().any(|s| s.is_in_scope(p)))
            .cloned()
            .collect()
    }

    /// The waveform's top-level scopes (`cu` and the scopes right below it).
    pub fn top_level(&self) -> &[String] {
        &self.top_level
    }

    /// Records only cycles `from..=to` (ps; `--vcd-window`); the `.gtkw` opens on them.
    pub fn with_window(mut self, window: (u64, u64)) -> Self {
        self.rec = self.rec.with_window(window);
        self.window = window;
        self
    }

    /// Samples cycle `cycle`: the context values [`CuProbe::capture`]d before the step, and
    /// from the compute unit the issues it made in the step.
    pub fn sample(&mut self, cycle: u64, cu: &ComputeUnit) -> io::Result<()> {
        self.values[0] = match cu.status() {
            Status::Idle => 0,
            Status::Busy => 1,
            Status::Done => 2,
            Status::Error(_) => 3,
        };
        for (i, &(g, u)) in self.units.iter().enumerate() {
            let issued = cu
                .groups()
                .get(g)
                .and_then(|grp| grp.units.get(u))
                .and_then(|x| x.issued);
            let (slot, class) = match issued {
                Some((s, p, w, c)) => {
                    self.held[i] = (u64::from(p), u64::from(w));
                    (s as u64 + 1, u64::from(c))
                }
                None => (0, 0),
            };
            let (pc, word) = self.held[i];
            let at = 1 + i * UNIT_VARS.len();
            self.values[at..at + UNIT_VARS.len()].copy_from_slice(&[slot, pc, word, class]);
        }
        self.values.truncate(self.ctx_range().end);
        self.sys.core_values(cu, cycle, &mut self.values);
        self.cycles = cycle + 1;
        self.sample_domains(cycle * CYCLE_PS, cu)
    }

    /// Writes the DRAM cycles of the last core cycle and the core sample at `t_core`, in time
    /// order (DRAM cycles before `t_core` over the previous core values).
    fn sample_domains(&mut self, t_core: u64, cu: &ComputeUnit) -> io::Result<()> {
        let at = self.sys.dram_cycles(cu, &mut self.drams);
        let mut core_done = false;
        for i in 0..self.drams.len() {
            let (t, d) = self.drams[i];
            if t > t_core && !core_done {
                self.sample_core(t_core)?;
                core_done = true;
            }
            self.values[at..at + d.len()].copy_from_slice(&d);
            self.rec.sample_part(t, &self.values, at..at + d.len())?;
        }
        if !core_done {
            self.sample_core(t_core)?;
        }
        Ok(())
    }

    /// The core sample at `t_core`: the values before the contexts, the contexts captured
    /// anew, and the values after them (the other contexts stand as last sampled).
    fn sample_core(&mut self, t_core: u64) -> io::Result<()> {
        let ctx = self.ctx_range();
        if self.all_fresh || self.rec.writes_all_at(t_core) {
            return self.rec.sample(t_core, &self.values);
        }
        self.rec.sample_part(t_core, &self.values, 0..ctx.start)?;
        for r in &self.fresh_ctx {
            let n = CTX_VARS.len();
            self.rec.sample_part(
                t_core,
                &self.values,
                ctx.start + r.start * n..ctx.start + r.end * n,
            )?;
        }
        self.rec
            .sample_part(t_core, &self.values, ctx.end..self.values.len())
    }

    /// Where the context values sit in `values` (the system's values follow them).
    fn ctx_range(&self) -> std::ops::Range<usize> {
        self.ctx_at..self.ctx_at + self.ctxs.len() * CTX_VARS.len()
    }

    /// Captures the per-context values of the current cycle (call before the step): of a
    /// group that an event woke since the last capture every context, otherwise only the
    /// contexts that issued in the last step (nothing else changes them).
    pub fn capture(&mut self, cu: &ComputeUnit) {
        self.fresh_ctx.clear();
        // After a quiet cycle the contexts are as they were captured before it, and no split
        // or merge happened.
        if cu.last_cycle_quiet() && self.captured {
            return;
        }
        // (A split's copy or a merge changes the group's outputs, which wakes it.)
        if let Some(g) = cu.groups().first() {
            if !self.captured || self.wakes.first() != Some(&g.wakes) {
                self.note_events(cu.now(), g);
            }
        }
        self.all_fresh = !self.captured;
        self.captured = true;
        let (units, n_wfc) = self.shape;
        for (gi, grp) in cu.groups().iter().enumerate().take(self.wakes.len()) {
            let first = gi * units * n_wfc;
            if std::mem::replace(&mut self.wakes[gi], grp.wakes) != grp.wakes {
                self.fresh_ctx.push(first..first + units * n_wfc);
                continue;
            }
            for (u, unit) in grp.units.iter().enumerate().take(units) {
                if let Some((slot, ..)) = unit.issued {
                    let i = first + u * n_wfc + slot;
                    self.fresh_ctx.push(i..i + 1);
                }
            }
        }
        for j in 0..self.fresh_ctx.len() {
            for i in self.fresh_ctx[j].clone() {
                self.capture_ctx(cu, i);
            }
        }
    }

    /// Captures context `i` (of `ctxs`) into its place in `values`.
    fn capture_ctx(&mut self, cu: &ComputeUnit, i: usize) {
        let (g, u, s) = self.ctxs[i];
        let values = match cu.groups().get(g) {
            Some(grp) if u < grp.n_units() => {
                let k = grp.k(u, s);
                let c = &grp.ctx[k];
                [
                    grp.state(k) as u64,
                    u64::from(c.pc),
                    c.r.exec,
                    grp.spm(k),
                    grp.eff(k),
                ]
            }
            _ => [0; CTX_VARS.len()],
        };
        let at = self.ctx_at + i * CTX_VARS.len();
        self.values[at..at + CTX_VARS.len()].copy_from_slice(&values);
        self.used[i] |= values[0] != State::Empty as u64;
    }

    /// Notes group 0's split copies and merge rendezvous (a context entering MERGING) of the
    /// current cycle; the markers' labels are short (`split simd.c1>sp1.c1`, `merge sp1.c1`)
    /// so that close ones stay legible.
    fn note_events(&mut self, cycle: u64, g: &Group) {
        let name = |k: usize| {
            let u = k % g.n_units();
            let unit = if u == 0 {
                "simd".to_string()
            } else {
                format!("sp{u}")
            };
            format!("{unit}.c{}", k / g.n_units() + 1)
        };
        if g.out.copy_valid {
            let (from, to) = (usize::from(g.out.copy_from), usize::from(g.out.copy_to));
            self.events
                .push((cycle, format!("split {}>{}", name(from), name(to))));
        }
        let n = g.n_units() * g.wfs.len();
        for k in 0..n {
            let state = g.state(k) as u64;
            let before = self
                .values
                .get(self.ctx_at + self.ctx_index(0, k, g) * CTX_VARS.len())
                .copied()
                .filter(|_| self.captured);
            if state == State::Merging as u64 && before != Some(state) {
                self.events.push((cycle, format!("merge {}", name(k))));
            }
        }
    }

    /// Index in `ctxs` of context k of group `g`.
    fn ctx_index(&self, group: usize, k: usize, g: &Group) -> usize {
        let per_unit = g.wfs.len();
        let units = g.n_units();
        (group * units + k % units) * per_unit + k / units
    }

    /// Finishes the VCD and writes `gtkw` beside it. The RTL blocks' recordings in `rtl` are
    /// merged into it under `rtl.<instance>` (on the system's time base), each with a group
    /// of its ports in the `.gtkw`.
    pub fn finish(self, gtkw: &Path, title: &str, rtl: &[Track]) -> io::Result<()> {
        let mut save = Gtkw::new(title)
            .names("state", &named(&State::ALL.map(State::name)))
            .names("class", &class_names())
            .names("status", &named(&["IDLE", "BUSY", "DONE", "ERROR"]))
            .group(
                "compute unit",
                &[("cu.status", Some(Format::Named("status")))],
            );
        for (cycle, label) in &self.events {
            save = save.marker(cycle * CYCLE_PS, label);
        }
        save = self.sys.gtkw(save);
        for &(g, u) in &self.units {
            let p = unit_scope(g, u).join(".");
            let mut traces: Vec<(String, Option<Format>)> = vec![
                (format!("{p}.issue_ctx"), Some(Format::Dec)),
                (format!("{p}.pc"), Some(Format::Hex)),
                (format!("{p}.insn"), Some(Format::Insn)),
                (format!("{p}.class"), Some(Format::Named("class"))),
            ];
            for (i, &(cg, cu_, s)) in self.ctxs.iter().enumerate() {
                if (cg, cu_) != (g, u) || !self.used[i] {
                    continue;
                }
                let c = format!("{p}.ctx{}", s + 1);
                traces.push((format!("{c}.state"), Some(Format::Named("state"))));
                traces.push((format!("{c}.pc"), Some(Format::Hex)));
                traces.push((format!("{c}.exec"), Some(Format::Mask)));
                traces.push((format!("{c}.spm"), Some(Format::Mask)));
                traces.push((format!("{c}.eff"), Some(Format::Mask)));
            }
            save = save.group(&p, &as_refs(&traces));
        }
        let end = self.cycles * CYCLE_PS;
        let mut signals = self.rec.signals().to_vec();
        let vcd = self.rec.finish(end)?;
        let merged = merge_into(&vcd, rtl, CYCLE_PS, self.window)?;
        save = rtl_groups(save, &merged, &mut signals);
        if vcd != self.dump {
            vcd_to_fst(&vcd, &self.dump)?;
            std::fs::remove_file(&vcd)?;
        }
        save.within(self.window)
            .recorded_only(self.scoped)
            .write(gtkw, &self.dump, &signals, end)
    }
}

/// A group's traces: (signal path, format).
type Traces = Vec<(String, Option<Format>)>;

/// At most this many traces per RTL instance in the `.gtkw` (the rest are in the file).
const RTL_TRACES: usize = 16;

/// A `.gtkw` group per merged RTL instance with its first scalar and vector ports (arrays
/// such as the split/merge unit's per-context `exec$k` stay in the file, not in the view),
/// and every merged variable's entry in `signals`.
fn rtl_groups(mut save: Gtkw, merged: &[SignalInfo], signals: &mut Vec<SignalInfo>) -> Gtkw {
    let mut by_instance: Vec<(String, Traces)> = Vec::new();
    for sig in merged {
        let group = format!("rtl {}", sig.scope.last().map_or("", String::as_str));
        if by_instance.last().is_none_or(|(g, _)| *g != group) {
            by_instance.push((group, Vec::new()));
        }
        let format = (sig.width > 1).then_some(Format::Hex);
        let shown = !sig.name.contains('$') && !matches!(sig.name.as_str(), "clock" | "reset");
        match by_instance.last_mut() {
            Some((_, traces)) if shown && traces.len() < RTL_TRACES => {
                traces.push((sig.path(), format))
            }
            _ => {}
        }
        signals.push(SignalInfo {
            index: signals.len(),
            ..sig.clone()
        });
    }
    for (group, traces) in &by_instance {
        save = save.group(group, &as_refs(traces));
    }
    save
}

/// The class names of the decoder's unit codes (0 = none).
fn class_names() -> Vec<(u64, String)> {
    std::iter::once("-")
        .chain(CLASSES)
        .enumerate()
        .map(|(i, n)| (i as u64, n.to_string()))
        .collect()
}
