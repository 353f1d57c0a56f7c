//! `rtgpu sweep`: a kernel set over a configuration grid (mode × S × scheduler × reorder ×
//! IDU × DRAM part), every point a [`run_case`] with its oracles, in parallel over the cores;
//! a progress bar on stderr, one CSV row per run and a summary table on stdout.

use super::run::{check_launch, load_config, parse_idu, parse_mode, parse_policy};
use super::system::{load_kernel, run_case, SysCase, SysOutcome};
use crate::paths;
use rtgpu_firmware::aging::experiment::Distribution;
use rtgpu_firmware::launch::Dims;
use rtgpu_hw::cu::{CuConfig, Mode};
use rtgpu_hw::memsys::DramPart;
use rtgpu_hw::sched::model::Policy;
use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};

/// The arguments of `rtgpu sweep`.
#[derive(Clone, Debug, clap::Args)]
pub struct SweepOpts {
    /// Kernel sources (default: every .s directly in --kernel-dir, sorted). Each runs with
    /// its own @grid/@wg unless --grid/--wg are given.
    pub kernels: Vec<PathBuf>,
    /// Where the default kernel set is read (default: firmware/kernels under the current
    /// directory).
    #[arg(long, value_name = "DIR")]
    pub kernel_dir: Option<PathBuf>,
    /// Split modes, comma-separated: nosplit, dws, pws. nosplit ignores S (it runs once, as
    /// S=1).
    #[arg(long, value_delimiter = ',', default_value = "nosplit,dws,pws", value_parser = parse_mode)]
    pub modes: Vec<Mode>,
    /// S values (1..=7) for dws and pws. A PWS S below the kernel's @min-s still runs: it
    /// ends in split_overflow, which counts as expected.
    #[arg(long, value_delimiter = ',', default_value = "1",
          value_parser = clap::value_parser!(u32).range(1..=7))]
    pub s: Vec<u32>,
    /// Issue policies: gto, lrr.
    #[arg(long, value_delimiter = ',', default_value = "gto,lrr", value_parser = parse_policy)]
    pub sched: Vec<Policy>,
    /// The reordering unit: off, on.
    #[arg(long, value_delimiter = ',', default_value = "off,on", value_parser = parse_switch)]
    pub reorder: Vec<bool>,
    /// VALU through the IDU (host flow on chip map 1): off (fixed VALU latency), orig, even,
    /// idu.
    #[arg(long, value_delimiter = ',', default_value = "off,orig,idu", value_parser = parse_idu_axis)]
    pub idu: Vec<Idu>,
    /// DRAM parts: ddr4-3200aa-x16, ddr4-3200aa-x8, ddr4-1866m-x16.
    #[arg(long, value_delimiter = ',',
          default_value = "ddr4-3200aa-x16,ddr4-3200aa-x8,ddr4-1866m-x16",
          value_parser = DramPart::by_name)]
    pub dram: Vec<DramPart>,
    /// Compute unit configuration (TOML if it ends in .toml, else JSON); its memory
    /// hierarchy is forced on and its DRAM part replaced by each --dram value.
    #[arg(long)]
    pub config: Option<PathBuf>,
    /// Work-items per launch (default: each kernel's @grid).
    #[arg(long)]
    pub grid: Option<u32>,
    /// Work-items per work-group (default: each kernel's @wg).
    #[arg(long)]
    pub wg: Option<u32>,
    /// Seed of the random buffer contents.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Parallel runs (default: the available cores).
    #[arg(long)]
    pub jobs: Option<usize>,
    /// Write one row per run here.
    #[arg(long, default_value = "sweep.csv")]
    pub csv: PathBuf,
    /// Give up a run after this many cycles (its status is then `timeout`).
    #[arg(long, default_value_t = 10_000_000)]
    pub timeout: u64,
    /// No progress bar.
    #[arg(long)]
    pub quiet: bool,
}

/// An IDU setting of the grid: `None` is `off`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Idu(pub Option<Distribution>);

impl Idu {
    /// `off`, `orig`, `even` or `idu`.
    pub fn name(self) -> &'static str {
        self.0.map_or("off", Distribution::name)
    }
}

fn parse_idu_axis(s: &str) -> Result<Idu, String> {
    parse_idu(s).map(Idu)
}

/// `off` or `on`.
pub(crate) fn parse_switch(s: &str) -> Result<bool, String> {
    match s {
        "off" => Ok(false),
        "on" => Ok(true),
        _ => Err(format!("unknown setting `{s}`; use off or on")),
    }
}

pub(crate) fn on_off(b: bool) -> &'static str {
    if b {
        "on"
    } else {
        "off"
    }
}

/// One point of the grid.
#[derive(Clone, Debug)]
pub struct Point {
    /// The kernel's file name.
    pub name: String,
    /// The kernel's @min-s.
    pub min_s: u32,
    /// The launch.
    pub case: SysCase,
}

impl Point {
    /// `nosplit`, `dws S=1`, `pws S=3`.
    pub fn mode_label(&self) -> String {
        match self.case.mode {
            Mode::NoSplit => "nosplit".into(),
            m => format!("{} S={}", m.name(), self.case.s),
        }
    }

    /// The DRAM part's name.
    pub fn dram(&self) -> &'static str {
        self.case.cfg.memory.dram_part.part().name
    }

    /// One line naming every setting.
    pub fn label(&self) -> String {
        let c = &self.case;
        format!(
            "{} {} {} reorder={} idu={} {}",
            self.name,
            self.mode_label(),
            c.policy.name(),
            on_off(c.reorder),
            Idu(c.idu).name(),
            self.dram()
        )
    }

    /// The setting columns of the CSV.
    fn fields(&self) -> Vec<String> {
        let c = &self.case;
        let dims = c.dims.unwrap_or(Dims { grid: 0, wg: 0 });
        vec![
            self.name.clone(),
            c.mode.name().into(),
            c.s.to_string(),
            c.policy.name().into(),
            on_off(c.reorder).into(),
            Idu(c.idu).name().into(),
            self.dram().into(),
            dims.grid.to_string(),
            dims.wg.to_string(),
        ]
    }
}

/// A point and what its run gave (`Err`: the harness could not run it).
#[derive(Clone, Debug)]
pub struct Run {
    /// The point.
    pub point: Point,
    /// The launch and its oracles.
    pub outcome: Result<SysOutcome, String>,
}

impl Run {
    fn status(&self) -> &str {
        match &self.outcome {
            Ok(o) => &o.status,
            Err(_) => "harness_error",
        }
    }

    fn done(&self) -> bool {
        self.status() == "done"
    }

    /// A PWS launch with S below the kernel's @min-s that stopped with `split_overflow`.
    pub fn expected_overflow(&self) -> bool {
        let c = &self.point.case;
        c.mode == Mode::Pws && c.s < self.point.min_s && self.status() == "split_overflow"
    }

    /// It did not finish (and did not overflow as expected).
    pub fn failed(&self) -> bool {
        !self.done() && !self.expected_overflow()
    }

    /// It finished but its buffers differ from the interpreter's.
    pub fn not_exact(&self) -> bool {
        self.done() && self.outcome.as_ref().is_ok_and(|o| o.exact != Some(true))
    }

    /// The DDR4 checker found a violation.
    pub fn ddr4_violation(&self) -> bool {
        self.outcome.as_ref().is_ok_and(|o| o.ddr4.is_err())
    }

    /// It finished with reordering on and its L1 misses differ from the estimator's.
    pub fn mispredicted(&self) -> bool {
        let wrong = |o: &SysOutcome| o.predicted_misses.is_some_and(|p| p != o.get("l1_misses"));
        self.done() && self.outcome.as_ref().is_ok_and(wrong)
    }

    /// Every check passed.
    pub fn ok(&self) -> bool {
        !(self.failed() || self.not_exact() || self.ddr4_violation() || self.mispredicted())
    }

    /// A counter (0 when the harness could not run it).
    fn get(&self, name: &str) -> u64 {
        self.outcome.as_ref().map_or(0, |o| o.get(name))
    }

    /// The verdict columns of the CSV.
    fn fields(&self) -> Vec<String> {
        let Ok(o) = &self.outcome else {
            return vec![
                self.status().into(),
                String::new(),
                String::new(),
                String::new(),
            ];
        };
        vec![
            o.status.clone(),
            o.exact.map_or(String::new(), |e| e.to_string()),
            match &o.ddr4 {
                Ok(_) => "ok".into(),
                Err(v) => v.rule.id().into(),
            },
            o.predicted_misses.map_or(String::new(), |p| p.to_string()),
        ]
    }
}

/// A kernel set: every `.s` directly in `dir` (the repository's is `firmware/kernels`),
/// sorted.
pub fn kernels_in(dir: &Path) -> Result<Vec<PathBuf>, String> {
    let entries = std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut v: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_file() && p.extension().is_some_and(|e| e == "s"))
        .collect();
    v.sort();
    Ok(v)
}

/// The (mode, S) pairs: nosplit once (as S=1), dws and pws per S.
pub(crate) fn mode_s(modes: &[Mode], s: &[u32]) -> Vec<(Mode, u32)> {
    let mut v = Vec::new();
    for &m in modes {
        let ss: &[u32] = if m == Mode::NoSplit { &[1] } else { s };
        for &s in ss {
            if !v.contains(&(m, s)) {
                v.push((m, s));
            }
        }
    }
    v
}

/// Checks a launch's dimensions (exit 2 rather than a bad_launch row).
fn check_dims(name: &str, d: Dims) -> Result<(), String> {
    if !(1..=1024).contains(&d.wg) || d.grid == 0 || !d.grid.is_multiple_of(d.wg) {
        return Err(format!(
            "{name}: grid {} / wg {}: the work-group size must be 1..=1024 and the grid a \
             positive multiple of it",
            d.grid, d.wg
        ));
    }
    Ok(())
}

/// The compute unit configuration of the sweep.
fn base_config(o: &SweepOpts) -> Result<CuConfig, String> {
    let mut cfg = match &o.config {
        Some(p) => load_config(p)?,
        None => CuConfig::default(),
    };
    cfg.memory.hierarchy = true;
    cfg.check()?;
    Ok(cfg)
}

/// The settings of one launch, without the kernel.
#[derive(Clone, Copy, Debug)]
struct Setting {
    mode: Mode,
    s: u32,
    policy: Policy,
    reorder: bool,
    idu: Option<Distribution>,
    part: DramPart,
}

/// Every setting of the grid, in order (mode, S, scheduler, reorder, IDU, DRAM part).
fn settings(o: &SweepOpts) -> Vec<Setting> {
    let mut v = Vec::new();
    for (mode, s) in mode_s(&o.modes, &o.s) {
        for &policy in &o.sched {
            for &reorder in &o.reorder {
                for &Idu(idu) in &o.idu {
                    v.extend(o.dram.iter().map(|&part| Setting {
                        mode,
                        s,
                        policy,
                        reorder,
                        idu,
                        part,
                    }));
                }
            }
        }
    }
    v
}

/// One kernel's points, in grid order.
fn kernel_points(o: &SweepOpts, path: &Path, cfg: CuConfig) -> Result<Vec<Point>, String> {
    let (_, meta) = load_kernel(path)?;
    let name = path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into(),
    );
    let dims = Dims {
        grid: o.grid.unwrap_or(meta.dims.grid),
        wg: o.wg.unwrap_or(meta.dims.wg),
    };
    check_dims(&name, dims)?;
    check_launch(&cfg, dims, meta.lds, &meta.args).map_err(|e| format!("{name}: {e}"))?;
    let point = |st: Setting| {
        let mut cfg = cfg;
        cfg.memory.dram_part = st.part;
        let case = SysCase {
            kernel: path.to_path_buf(),
            cfg,
            mode: st.mode,
            s: st.s,
            policy: st.policy,
            reorder: st.reorder,
            idu: st.idu,
            dims: Some(dims),
            seed: o.seed,
            timeout: o.timeout,
        };
        Point {
            name: name.clone(),
            min_s: meta.min_s,
            case,
        }
    };
    Ok(settings(o).into_iter().map(point).collect())
}

/// Every point of the grid, in order. `Err` for bad input.
pub fn plan(o: &SweepOpts) -> Result<Vec<Point>, String> {
    let axes = [
        ("--modes", o.modes.len()),
        ("--s", o.s.len()),
        ("--sched", o.sched.len()),
        ("--reorder", o.reorder.len()),
        ("--idu", o.idu.len()),
        ("--dram", o.dram.len()),
    ];
    if let Some((name, _)) = axes.iter().find(|(_, n)| *n == 0) {
        return Err(format!("{name}: no values"));
    }
    let kernels = match o.kernels.is_empty() {
        true => kernels_in(&paths::kernel_dir(o.kernel_dir.as_deref()).map_err(|e| e.1)?)?,
        false => o.kernels.clone(),
    };
    if kernels.is_empty() {
        return Err("no kernels".into());
    }
    let cfg = base_config(o)?;
    let mut v = Vec::new();
    for k in &kernels {
        v.extend(kernel_points(o, k, cfg)?);
    }
    Ok(v)
}

/// `[#####.....] 37/864 LABEL` on stderr, overwriting the previous one.
fn progress(done: usize, total: usize, label: &str) {
    const WIDTH: usize = 30;
    let full = done * WIDTH / total.max(1);
    let bar = format!("{}{}", "#".repeat(full), ".".repeat(WIDTH - full));
    let line = format!("[{bar}] {done}/{total} {label}");
    eprint!("\r{line:<110.110}");
    if done == total {
        eprintln!();
    }
}

/// The machine's cores: the number of jobs of a parallel command unless `--jobs` says.
pub fn default_jobs() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// The jobs `--jobs` asks for, else [`default_jobs`]; `--jobs 0` is refused (a usage error).
pub fn jobs(asked: Option<usize>) -> Result<usize, String> {
    match asked {
        Some(0) => Err("--jobs 0: use at least 1".into()),
        Some(n) => Ok(n),
        None => Ok(default_jobs()),
    }
}

/// `f` of every item over `jobs` threads (at least 1, at most one per item); `done(n, i, r)`
/// is called on this thread as each finishes (`n` finished so far, `i` the item's index). The
/// results come back in the items' order.
pub fn parallel<T: Sync, R: Send>(
    items: &[T],
    jobs: usize,
    f: impl Fn(&T) -> R + Sync,
    mut done: impl FnMut(usize, usize, &R),
) -> Vec<R> {
    let total = items.len();
    let (work_tx, work_rx) = crossbeam::channel::unbounded();
    let (done_tx, done_rx) = crossbeam::channel::unbounded();
    for i in 0..total {
        work_tx.send(i).expect("the queue is open");
    }
    drop(work_tx);
    let mut out: Vec<Option<R>> = (0..total).map(|_| None).collect();
    std::thread::scope(|scope| {
        for _ in 0..jobs.clamp(1, total.max(1)) {
            let (rx, tx, f) = (work_rx.clone(), done_tx.clone(), &f);
            scope.spawn(move || {
                for i in rx {
                    // The receiver outlives every worker.
                    let _ = tx.send((i, f(&items[i])));
                }
            });
        }
        drop(done_tx);
        for (n, (i, r)) in done_rx.iter().enumerate() {
            done(n + 1, i, &r);
            out[i] = Some(r);
        }
    });
    out.into_iter()
        .map(|r| r.expect("every item ran"))
        .collect()
}

/// [`parallel`] for a fallible `f` on every core: the results in the items' order, or the
/// first error in that order (a panic of `f` is an error naming it).
pub fn try_parallel<T: Sync, R: Send>(
    items: &[T],
    f: impl Fn(&T) -> Result<R, String> + Sync,
) -> Result<Vec<R>, String> {
    parallel(
        items,
        default_jobs(),
        |x| catch_panic(|| f(x)),
        |_, _, _| {},
    )
    .into_iter()
    .collect()
}

/// A panic of `f` as an `Err` naming it.
pub fn catch_panic<R>(f: impl FnOnce() -> Result<R, String>) -> Result<R, String> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)).unwrap_or_else(|e| {
        let msg = e
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_default();
        Err(format!("panic: {msg}"))
    })
}

/// Runs every point over `jobs` threads; the runs come back in grid order.
pub fn execute(points: Vec<Point>, jobs: usize, show: bool) -> Vec<Run> {
    let total = points.len();
    let out = parallel(
        &points,
        jobs,
        |p| catch_panic(|| run_case(&p.case)),
        |n, i, _| {
            if show {
                progress(n, total, &points[i].label());
            }
        },
    );
    points
        .into_iter()
        .zip(out)
        .map(|(point, outcome)| Run { point, outcome })
        .collect()
}

/// A CSV field, quoted when it holds a comma, quote or line break.
pub(crate) fn quote(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

pub(crate) fn csv_line(fields: &[String]) -> String {
    let q: Vec<String> = fields.iter().map(|f| quote(f)).collect();
    q.join(",") + "\n"
}

/// The CSV: a header, then one row per run.
pub fn csv(runs: &[Run]) -> String {
    let names: Vec<String> = runs
        .iter()
        .find_map(|r| r.outcome.as_ref().ok())
        .map(|o| o.counters.counters.iter().map(|(n, _)| n.clone()).collect())
        .unwrap_or_default();
    let head = "kernel,mode,s,sched,reorder,idu,dram,grid,wg,status,exact,ddr4,predicted_misses";
    let mut header: Vec<String> = head.split(',').map(String::from).collect();
    header.extend(names.iter().cloned());
    let mut out = csv_line(&header);
    for r in runs {
        let mut f = r.point.fields();
        f.extend(r.fields());
        let value = |n: &String| match &r.outcome {
            Ok(o) => o.get(n).to_string(),
            Err(_) => String::new(),
        };
        f.extend(names.iter().map(value));
        out += &csv_line(&f);
    }
    out
}

/// The runs of one summary line: kernel × mode(S) × reorder × IDU.
struct Group<'a> {
    key: (String, String, bool, Idu),
    runs: Vec<&'a Run>,
}

fn groups(runs: &[Run]) -> Vec<Group<'_>> {
    let mut v: Vec<Group> = Vec::new();
    for r in runs {
        let p = &r.point;
        let key = (
            p.name.clone(),
            p.mode_label(),
            p.case.reorder,
            Idu(p.case.idu),
        );
        match v.iter_mut().find(|g| g.key == key) {
            Some(g) => g.runs.push(r),
            None => v.push(Group { key, runs: vec![r] }),
        }
    }
    v
}

/// `min–max` of a counter over the finished runs, `-` if none.
fn range(runs: &[&Run], name: &str) -> String {
    let v: Vec<u64> = runs
        .iter()
        .filter(|r| r.done())
        .map(|r| r.get(name))
        .collect();
    match (v.iter().min(), v.iter().max()) {
        (Some(a), Some(b)) if a == b => a.to_string(),
        (Some(a), Some(b)) => format!("{a}–{b}"),
        _ => "-".into(),
    }
}

/// L1 misses / accesses over the finished runs, in percent.
fn miss_rate(runs: &[&Run]) -> String {
    let done = || runs.iter().filter(|r| r.done());
    let misses: u64 = done().map(|r| r.get("l1_misses")).sum();
    let accesses: u64 = done().map(|r| r.get("l1_accesses")).sum();
    match accesses {
        0 => "-".into(),
        a => format!("{:.1}%", 100.0 * misses as f64 / a as f64),
    }
}

/// Runs for which `f` holds.
fn count(runs: &[&Run], f: impl Fn(&Run) -> bool) -> usize {
    runs.iter().filter(|r| f(r)).count()
}

const HEADER: &str =
    "kernel            mode      reorder idu   runs          cycles  L1 miss      \
                      DRAM reads  fail ovf inexact ddr4 mispred";

fn group_line(g: &Group) -> String {
    let (kernel, mode, reorder, idu) = &g.key;
    let r = &g.runs;
    format!(
        "{kernel:<17} {mode:<9} {:<7} {:<5} {:>4} {:>15} {:>8} {:>15} {:>5} {:>3} {:>7} {:>4} {:>7}",
        on_off(*reorder),
        idu.name(),
        r.len(),
        range(r, "cycles"),
        miss_rate(r),
        range(r, "dram_reads"),
        count(r, Run::failed),
        count(r, Run::expected_overflow),
        count(r, Run::not_exact),
        count(r, Run::ddr4_violation),
        count(r, Run::mispredicted),
    )
}

fn totals_line(runs: &[Run], csv: &Path) -> String {
    let all: Vec<&Run> = runs.iter().collect();
    format!(
        "total: {} runs, {} done, {} expected split_overflow, {} failed, {} not exact, \
         {} DDR4 violations, {} mispredicted; csv {}",
        all.len(),
        count(&all, Run::done),
        count(&all, Run::expected_overflow),
        count(&all, Run::failed),
        count(&all, Run::not_exact),
        count(&all, Run::ddr4_violation),
        count(&all, Run::mispredicted),
        csv.display()
    )
}

/// Why a run failed its checks.
fn reason(r: &Run) -> String {
    match &r.outcome {
        Err(e) => e.clone(),
        Ok(o) if r.failed() => o.result.clone().err().unwrap_or_default(),
        Ok(_) if r.not_exact() => "buffers differ from the interpreter".into(),
        Ok(o) => match &o.ddr4 {
            Err(v) => format!("DDR4 violation {} at cycle {}", v.rule.id(), v.cycle),
            Ok(_) => format!(
                "L1 misses {} vs predicted {}",
                o.get("l1_misses"),
                o.predicted_misses.unwrap_or(0)
            ),
        },
    }
}

/// The summary table, the first failures and the totals line.
pub fn summary(runs: &[Run], csv: &Path) -> String {
    let mut out = format!("{HEADER}\n");
    for g in groups(runs) {
        out += &(group_line(&g) + "\n");
    }
    for r in runs.iter().filter(|r| !r.ok()).take(10) {
        out += &format!("FAIL {}: {}: {}\n", r.point.label(), r.status(), reason(r));
    }
    out + &totals_line(runs, csv) + "\n"
}

/// `rtgpu sweep`. `Err((2, message))` for bad input, `Err((1, message))` when a run failed
/// a check or the CSV could not be written.
pub fn sweep(o: &SweepOpts) -> Result<(), (u8, String)> {
    let points = plan(o).map_err(|e| (2, e))?;
    let jobs = jobs(o.jobs).map_err(|e| (2, e))?;
    let csv_err = |e: std::io::Error| format!("{}: {e}", o.csv.display());
    let mut file = File::create(&o.csv).map_err(|e| (2, csv_err(e)))?;
    let runs = execute(points, jobs, !o.quiet);
    file.write_all(csv(&runs).as_bytes())
        .map_err(|e| (1, csv_err(e)))?;
    print!("{}", summary(&runs, &o.csv));
    match runs.iter().filter(|r| !r.ok()).count() {
        0 => Ok(()),
        n => Err((1, format!("{n} of {} runs failed a check", runs.len()))),
    }
}
