//! `rtgpu suite`: every OpenCL C suite kernel (firmware/suite/NAME.cl, one per entry of
//! [`rtgpu_firmware::suite::REFERENCES`]) over a configuration grid — split mode × S ×
//! scheduler × memory (fixed latency, or the hierarchy with the reordering unit off and on) —
//! each launch checked against the kernel's host-side reference as `rtgpu run --check` does.
//! The runs go in parallel over the cores; the result is one CSV row per run, a summary table
//! and (`--json`) the rows.
//!
//! `--size N` scales each kernel's default launch ([`scaled`]): the grid grows N times and the
//! scalar arguments that size the problem grow with it, so that the work (not only the idle
//! work-items) grows.

use super::run::{check_launch, load_config, parse_mode, parse_policy, Kernel, RunOpts, RunReport};
use super::sweep::{catch_panic, csv_line, mode_s, on_off, parallel, parse_switch};
use rtgpu_firmware::launch::{Arg, Count, Dims, KernelMeta};
use rtgpu_firmware::suite::REFERENCES;
use rtgpu_hw::cu::{CuConfig, Mode};
use rtgpu_hw::sched::model::Policy;
use serde::Serialize;
use std::path::{Path, PathBuf};

/// The suite's directory, relative to the current directory.
pub const SUITE_DIR: &str = "firmware/suite";

/// The arguments of `rtgpu suite`.
#[derive(Clone, Debug, clap::Args)]
pub struct SuiteOpts {
    /// Kernels by name, comma-separated (default: every suite kernel whose NAME.cl is in
    /// --suite-dir).
    #[arg(long, value_delimiter = ',')]
    pub kernels: Vec<String>,
    /// Where the kernels are read (default: firmware/suite under the current directory).
    #[arg(long, value_name = "DIR")]
    pub suite_dir: Option<PathBuf>,
    /// Split modes, comma-separated: nosplit, dws, pws. nosplit ignores S (it runs once, as
    /// S=1).
    #[arg(long, value_delimiter = ',', default_value = "nosplit,dws,pws", value_parser = parse_mode)]
    pub modes: Vec<Mode>,
    /// S values (1..=7) for dws and pws.
    #[arg(long, value_delimiter = ',', default_value = "1,3",
          value_parser = clap::value_parser!(u32).range(1..=7))]
    pub s: Vec<u32>,
    /// Issue policies: gto, lrr, rr.
    #[arg(long, value_delimiter = ',', default_value = "gto,lrr,rr", value_parser = parse_policy)]
    pub sched: Vec<Policy>,
    /// Global memory timing: fixed (the lat.flat latency), hierarchy (coalescer, L1, DRAM).
    #[arg(long, value_delimiter = ',', default_value = "fixed,hierarchy",
          value_parser = ["fixed", "hierarchy"])]
    pub memory: Vec<String>,
    /// The reordering unit with the hierarchy: off, on (fixed memory always runs it off).
    #[arg(long, value_delimiter = ',', default_value = "off,on", value_parser = parse_switch)]
    pub reorder: Vec<bool>,
    /// Scale every kernel's default launch N times (1..=64; see docs/cli.md#rtgpu-suite for
    /// how each kernel grows). A size whose buffers do not fit the data memory is refused.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=64))]
    pub size: u32,
    /// Compute unit configuration (TOML if it ends in .toml, else JSON); the memory and
    /// reorder axes override its memory model.
    #[arg(long)]
    pub config: Option<PathBuf>,
    /// Seed of the random buffer contents.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Parallel runs (default: the available cores).
    #[arg(long)]
    pub jobs: Option<usize>,
    /// Write one row per run here.
    #[arg(long, default_value = "suite.csv")]
    pub out: PathBuf,
    /// Give up a run after this many cycles (it then counts as FAILED, status `timeout`).
    #[arg(long, default_value_t = 10_000_000)]
    pub timeout: u64,
    /// Print the rows as JSON instead of the summary table.
    #[arg(long)]
    pub json: bool,
}

/// Argument position of hotspot's `h` (rows): it grows with the size.
const HOTSPOT_H: usize = 4;
/// Argument position of sgemm's `n` (the matrices' side).
const SGEMM_N: usize = 3;
/// Argument position of bfs's `n` (the graph's nodes).
const BFS_N: usize = 1;

/// The launch of kernel `name` at size `n` from its default launch `meta`:
/// - **hotspot** (a w × h grid): h and the grid × N (the same width, N times the rows);
/// - **sgemm** (n × n matrices, one work-item per element): the side × k, the grid × k², with
///   k the integer square root of N (the work-items grow by the square at or below N);
/// - **bfs** (a graph of n nodes, one work-item per node, each with up to 8 edges): n, the grid
///   and the fixed-size buffers (the edges, the costs and flags) × N: N times the nodes and
///   edges, N times the wavefronts;
/// - **every other kernel** (one-dimensional): the grid × N, and every scalar argument that
///   counts the elements — a value within one work-group below the default grid or equal to
///   it, as `n` of vector_add, nn, saxpy and `cols` of pathfinder — × N. Buffers sized
///   `grid` or `groups` follow the grid.
pub fn scaled(name: &str, meta: &KernelMeta, n: u32) -> Result<(Dims, Vec<Arg>), String> {
    let d = meta.dims;
    let too_big = || format!("{name}: --size {n} overflows the launch's sizes");
    // (argument position, factor) of the scalars that grow, and the grid's factor.
    let (grow, grid_by): (Vec<(usize, u32)>, u32) = match name {
        "hotspot" => (vec![(HOTSPOT_H, n)], n),
        "sgemm" => (vec![(SGEMM_N, n.isqrt())], n.isqrt() * n.isqrt()),
        // Counts of one-dimensional elements, found by the rule below.
        "vector_add" | "saxpy" | "reduce" | "nn" | "pathfinder" | "histogram" => {
            let counts =
                meta.args.iter().enumerate().filter(
                    |(_, a)| matches!(a, Arg::Scalar(v) if *v <= d.grid && v + d.wg > d.grid),
                );
            (counts.map(|(i, _)| (i, n)).collect(), n)
        }
        // The graph: its nodes (`n`) and the grid × N; its fixed-size buffers (the edges, the
        // results) grow below.
        "bfs" => (vec![(BFS_N, n)], n),
        // A layout that does not grow with the grid (fixed centres, a matrix step): the
        // default launch.
        _ => (Vec::new(), 1),
    };
    let mut args = meta.args.clone();
    if name == "bfs" {
        for a in &mut args {
            if let Arg::Buffer {
                dwords: Count::Fixed(d),
                ..
            } = a
            {
                *d = d.checked_mul(n).ok_or_else(too_big)?;
            }
        }
    }
    for (i, by) in grow {
        if let Some(Arg::Scalar(v)) = args.get_mut(i) {
            *v = v.checked_mul(by).ok_or_else(too_big)?;
        }
    }
    let grid = d.grid.checked_mul(grid_by).ok_or_else(too_big)?;
    Ok((Dims { grid, wg: d.wg }, args))
}

/// How global memory is timed in a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Memory {
    /// The hierarchy (else the fixed latency).
    pub hierarchy: bool,
    /// The reordering unit (hierarchy only).
    pub reorder: bool,
}

impl Memory {
    /// `fixed` or `hierarchy`.
    pub fn name(self) -> &'static str {
        if self.hierarchy {
            "hierarchy"
        } else {
            "fixed"
        }
    }
}

/// One run of the grid.
#[derive(Clone, Debug)]
pub struct Point {
    /// Index into the loaded kernels.
    pub kernel: usize,
    /// Split mode.
    pub mode: Mode,
    /// S.
    pub s: u32,
    /// Issue policy.
    pub sched: Policy,
    /// Memory timing.
    pub memory: Memory,
}

/// A suite kernel, loaded and sized.
pub struct Loaded {
    /// Its name (the `__kernel` function and the file's stem).
    pub name: String,
    /// Its source.
    pub path: PathBuf,
    /// Compiled and assembled.
    pub kernel: Kernel,
    /// The launch at the suite's size.
    pub dims: Dims,
    /// The arguments at the suite's size.
    pub args: Vec<Arg>,
}

/// One row of the result.
#[derive(Clone, Debug, Serialize)]
pub struct Row {
    /// Kernel name.
    pub kernel: String,
    /// Mode name.
    pub mode: &'static str,
    /// S.
    pub s: u32,
    /// Issue policy name.
    pub sched: &'static str,
    /// `fixed` or `hierarchy`.
    pub memory: &'static str,
    /// The reordering unit was on.
    pub reorder: bool,
    /// Launch dimensions.
    pub dims: Dims,
    /// `done`, the GPU's error, `timeout`, or `harness_error`.
    pub status: String,
    /// Cycles of the launch.
    pub cycles: u64,
    /// Instructions issued.
    pub instructions: u64,
    /// L1 misses (the hierarchy only).
    pub l1_misses: Option<u64>,
    /// Every counter of the launch, by name (the JSON's; the CSV keeps the columns above).
    #[serde(skip)]
    pub counters: Vec<(String, u64)>,
    /// The buffers equal the reference's (and the launch finished).
    pub passed: bool,
    /// FAILED: the first differing element, or why the launch did not finish.
    pub difference: String,
}

impl Row {
    /// A counter by name (0 if the run has none).
    pub fn get(&self, name: &str) -> u64 {
        self.counters
            .iter()
            .find(|(n, _)| n == name)
            .map_or(0, |(_, v)| *v)
    }

    /// `PASSED` or `FAILED`.
    pub fn verdict(&self) -> &'static str {
        if self.passed {
            "PASSED"
        } else {
            "FAILED"
        }
    }

    /// `nosplit`, `dws S=1`, `pws S=3`.
    pub fn mode_label(&self) -> String {
        match self.mode {
            "nosplit" => "nosplit".into(),
            m => format!("{m} S={}", self.s),
        }
    }

    /// `fixed`, `hier`, `hier+reorder`.
    pub fn memory_label(&self) -> &'static str {
        match (self.memory, self.reorder) {
            ("fixed", _) => "fixed",
            (_, false) => "hier",
            (_, true) => "hier+reorder",
        }
    }
}

/// The suite's kernel names whose NAME.cl is in `dir`, in the registry's order.
pub fn available(dir: &Path) -> Vec<&'static str> {
    REFERENCES
        .iter()
        .map(|r| r.name)
        .filter(|n| dir.join(format!("{n}.cl")).is_file())
        .collect()
}

/// The suite directory: `dir`, else firmware/suite under the current directory.
fn suite_dir(dir: Option<&Path>) -> Result<PathBuf, String> {
    let d = dir.map_or_else(|| PathBuf::from(SUITE_DIR), Path::to_path_buf);
    match (d.is_dir(), dir) {
        (true, _) => Ok(d),
        (false, Some(_)) => Err(format!("--suite-dir {}: not a directory", d.display())),
        (false, None) => Err(format!(
            "the suite is read from {SUITE_DIR}/ under the current directory, which has none: \
             run from the repository's root or pass --suite-dir DIR"
        )),
    }
}

/// The kernels to run, loaded and sized. `Err((2, …))` for bad input.
pub fn load(o: &SuiteOpts, cfg: &CuConfig) -> Result<Vec<Loaded>, (u8, String)> {
    let bad = |m: String| (2u8, m);
    let dir = suite_dir(o.suite_dir.as_deref()).map_err(bad)?;
    let have = available(&dir);
    let names: Vec<String> = match o.kernels.is_empty() {
        true => have.iter().map(|n| n.to_string()).collect(),
        false => o.kernels.clone(),
    };
    if names.is_empty() {
        return Err(bad(format!("no suite kernels in {}", dir.display())));
    }
    names
        .iter()
        .map(|name| {
            if !have.contains(&name.as_str()) {
                return Err(bad(format!(
                    "--kernels {name}: not a suite kernel in {} (there: {})",
                    dir.display(),
                    have.join(", ")
                )));
            }
            let path = dir.join(format!("{name}.cl"));
            let kernel = Kernel::load(&path)?;
            let (dims, args) = scaled(name, &kernel.meta, o.size).map_err(bad)?;
            check_launch(cfg, dims, kernel.meta.lds, &args)
                .map_err(|e| bad(format!("{name} at --size {}: {e}", o.size)))?;
            Ok(Loaded {
                name: name.clone(),
                path,
                kernel,
                dims,
                args,
            })
        })
        .collect()
}

/// The memory settings of the grid: fixed (reordering off), and the hierarchy with each
/// `--reorder` value.
fn memories(o: &SuiteOpts) -> Vec<Memory> {
    let mut v = Vec::new();
    for m in &o.memory {
        let hierarchy = m == "hierarchy";
        let reorders: &[bool] = if hierarchy { &o.reorder } else { &[false] };
        for &reorder in reorders {
            let mem = Memory { hierarchy, reorder };
            if !v.contains(&mem) {
                v.push(mem);
            }
        }
    }
    v
}

/// Every run of the grid, kernel by kernel, in order (mode and S, scheduler, memory).
pub fn plan(o: &SuiteOpts, kernels: usize) -> Result<Vec<Point>, String> {
    let axes = [
        ("--modes", o.modes.len()),
        ("--s", o.s.len()),
        ("--sched", o.sched.len()),
        ("--memory", o.memory.len()),
        ("--reorder", o.reorder.len()),
    ];
    if let Some((name, _)) = axes.iter().find(|(_, n)| *n == 0) {
        return Err(format!("{name}: no values"));
    }
    let mut v = Vec::new();
    for kernel in 0..kernels {
        for (mode, s) in mode_s(&o.modes, &o.s) {
            for &sched in &o.sched {
                for memory in memories(o) {
                    v.push(Point {
                        kernel,
                        mode,
                        s,
                        sched,
                        memory,
                    });
                }
            }
        }
    }
    Ok(v)
}

/// The `rtgpu run` options of a point (the kernel and its launch come from [`Loaded`]).
fn run_opts(o: &SuiteOpts, k: &Loaded, p: &Point) -> Result<RunOpts, String> {
    #[derive(clap::Parser)]
    struct Line {
        #[command(flatten)]
        o: RunOpts,
    }
    let mut line: Vec<String> = vec!["suite".into(), k.path.display().to_string()];
    for (flag, value) in [
        ("--mode", p.mode.name().to_string()),
        ("--s", p.s.to_string()),
        ("--sched", p.sched.name().to_string()),
        ("--memory", p.memory.name().to_string()),
        ("--seed", o.seed.to_string()),
        ("--timeout", o.timeout.to_string()),
    ] {
        line.extend([flag.to_string(), value]);
    }
    line.push("--check".into());
    if p.memory.reorder {
        line.push("--reorder".into());
    }
    <Line as clap::Parser>::try_parse_from(line)
        .map(|l| l.o)
        .map_err(|e| e.to_string())
}

/// Runs one point.
pub fn run_point(o: &SuiteOpts, cfg: CuConfig, k: &Loaded, p: &Point) -> Row {
    let run = catch_panic(|| {
        let opts = run_opts(o, k, p)?;
        super::run::run_loaded(&opts, &k.kernel, cfg, k.dims, &k.args).map_err(|e| e.1)
    });
    row(k, p, run)
}

fn row(k: &Loaded, p: &Point, run: Result<RunReport, String>) -> Row {
    let mut r = Row {
        kernel: k.name.clone(),
        mode: p.mode.name(),
        s: p.s,
        sched: p.sched.name(),
        memory: p.memory.name(),
        reorder: p.memory.reorder,
        dims: k.dims,
        status: "harness_error".into(),
        cycles: 0,
        instructions: 0,
        l1_misses: None,
        counters: Vec::new(),
        passed: false,
        difference: String::new(),
    };
    match run {
        Err(e) => r.difference = e,
        Ok(rep) => {
            r.status = rep.status.clone();
            r.cycles = rep.perf.get("cycles");
            r.instructions = rep.perf.get("instructions");
            r.l1_misses = p.memory.hierarchy.then(|| rep.perf.get("l1_misses"));
            r.counters = rep.perf.counters.clone();
            match (&rep.error, &rep.check) {
                (Some(e), _) => r.difference = e.clone(),
                (None, Some(c)) if c == "PASSED" => r.passed = true,
                (None, Some(c)) => {
                    r.difference = c.strip_prefix("FAILED: ").unwrap_or(c).to_string()
                }
                (None, None) => r.difference = "not checked".into(),
            }
        }
    }
    r
}

/// The CSV: a header, then one row per run.
pub fn csv(rows: &[Row]) -> String {
    let header = "kernel,mode,s,sched,memory,reorder,grid,wg,status,cycles,instructions,\
                  l1_misses,check,first_difference";
    let mut out = csv_line(&header.split(',').map(String::from).collect::<Vec<_>>());
    for r in rows {
        out += &csv_line(&[
            r.kernel.clone(),
            r.mode.into(),
            r.s.to_string(),
            r.sched.into(),
            r.memory.into(),
            on_off(r.reorder).into(),
            r.dims.grid.to_string(),
            r.dims.wg.to_string(),
            r.status.clone(),
            r.cycles.to_string(),
            r.instructions.to_string(),
            r.l1_misses.map_or(String::new(), |m| m.to_string()),
            r.verdict().into(),
            r.difference.clone(),
        ]);
    }
    out
}

/// `min–max` of `f` over `rows`.
fn span(rows: &[&Row], f: impl Fn(&Row) -> Option<u64>) -> String {
    let v: Vec<u64> = rows.iter().filter_map(|r| f(r)).collect();
    match (v.iter().min(), v.iter().max()) {
        (Some(a), Some(b)) if a == b => a.to_string(),
        (Some(a), Some(b)) => format!("{a}–{b}"),
        _ => "-".into(),
    }
}

/// The summary: one line per kernel × mode (S) × memory (the schedulers' cycles as a range),
/// the first failures, and the totals.
pub fn summary(rows: &[Row], csv: &Path) -> String {
    let mut out = format!(
        "{:<12} {:<9} {:<13} {:>4} {:>6} {:>13} {:>11} {:>9}\n",
        "kernel", "mode", "memory", "runs", "passed", "cycles", "instrs", "L1 misses"
    );
    let mut keys: Vec<(String, String, &str)> = Vec::new();
    for r in rows {
        let k = (r.kernel.clone(), r.mode_label(), r.memory_label());
        if !keys.contains(&k) {
            keys.push(k);
        }
    }
    for (kernel, mode, memory) in &keys {
        let g: Vec<&Row> = rows
            .iter()
            .filter(|r| {
                &r.kernel == kernel && &r.mode_label() == mode && r.memory_label() == *memory
            })
            .collect();
        let done = |f: fn(&Row) -> Option<u64>| {
            move |r: &Row| if r.status == "done" { f(r) } else { None }
        };
        out += &format!(
            "{kernel:<12} {mode:<9} {memory:<13} {:>4} {:>6} {:>13} {:>11} {:>9}\n",
            g.len(),
            g.iter().filter(|r| r.passed).count(),
            span(&g, done(|r| Some(r.cycles))),
            span(&g, done(|r| Some(r.instructions))),
            span(&g, done(|r| r.l1_misses)),
        );
    }
    let failed: Vec<&Row> = rows.iter().filter(|r| !r.passed).collect();
    for r in failed.iter().take(10) {
        out += &format!(
            "FAILED {} {} {} {}: {}: {}\n",
            r.kernel,
            r.mode_label(),
            r.sched,
            r.memory_label(),
            r.status,
            r.difference
        );
    }
    out + &format!(
        "total: {} runs, {} PASSED, {} FAILED; csv {}\n",
        rows.len(),
        rows.len() - failed.len(),
        failed.len(),
        csv.display()
    )
}

/// The JSON output.
#[derive(Serialize)]
pub struct SuiteReport<'a> {
    /// Every run.
    pub rows: &'a [Row],
    /// Runs that passed.
    pub passed: usize,
    /// Runs that failed.
    pub failed: usize,
    /// The CSV written.
    pub csv: String,
}

/// The configuration of the suite (`--config` or the default).
pub fn base_config(o: &SuiteOpts) -> Result<CuConfig, String> {
    let cfg = match &o.config {
        Some(p) => load_config(p)?,
        None => CuConfig::default(),
    };
    cfg.check()?;
    Ok(cfg)
}

/// Runs the grid: the kernels, the planned points, and `tick(label)` after each run (the
/// CLI's progress bar). `Err((2, …))` for bad input.
pub fn run_suite(
    o: &SuiteOpts,
    start: &dyn Fn(u64),
    tick: &(dyn Fn(&str) + Sync),
) -> Result<Vec<Row>, (u8, String)> {
    let cfg = base_config(o).map_err(|e| (2, e))?;
    let kernels = load(o, &cfg)?;
    let points = plan(o, kernels.len()).map_err(|e| (2, e))?;
    let jobs = super::sweep::jobs(o.jobs).map_err(|e| (2, e))?;
    start(points.len() as u64);
    Ok(parallel(
        &points,
        jobs,
        |p| run_point(o, cfg, &kernels[p.kernel], p),
        |_, _, r: &Row| {
            tick(&format!(
                "{} {} {} {}",
                r.kernel,
                r.mode_label(),
                r.sched,
                r.memory_label()
            ))
        },
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn meta(grid: u32, wg: u32, args: &[&str]) -> KernelMeta {
        KernelMeta {
            dims: Dims { grid, wg },
            lds: 0,
            args: args.iter().map(|a| Arg::parse(a).unwrap()).collect(),
            min_s: 1,
        }
    }

    /// The counts grow with the grid, floats and unrelated scalars do not; hotspot grows its
    /// rows, sgemm its side by the square root. Catches a `scaled` that leaves `n` behind (the
    /// kernel would then do the same work on an idle larger grid).
    #[test]
    fn size_scales_the_grid_and_the_counts() {
        let m = meta(1024, 256, &["float:grid", "f32:2.5", "u32:1000", "u32:7"]);
        let (d, a) = scaled("nn", &m, 4).unwrap();
        assert_eq!(
            d,
            Dims {
                grid: 4096,
                wg: 256
            }
        );
        assert!(matches!(a[1], Arg::Scalar(v) if v == 2.5f32.to_bits()));
        assert!(matches!(a[2], Arg::Scalar(4000)));
        assert!(matches!(a[3], Arg::Scalar(7)));
        let h = meta(
            1024,
            256,
            &["float:grid", "float:grid", "zero:grid", "u32:32", "u32:32"],
        );
        let (d, a) = scaled("hotspot", &h, 3).unwrap();
        assert_eq!(d.grid, 3072);
        assert!(matches!((a[3], a[4]), (Arg::Scalar(32), Arg::Scalar(96))));
        let g = meta(
            256,
            64,
            &["float:grid", "float:grid", "float:grid", "u32:16"],
        );
        let (d, a) = scaled("sgemm", &g, 5).unwrap();
        assert_eq!(d.grid, 1024);
        assert!(matches!(a[3], Arg::Scalar(32)));
    }

    /// bfs grows its graph: the nodes `n`, the grid, the edges and the result buffers × N,
    /// the level and the grid-sized buffers as the grid. Mutation caught: the fixed-size
    /// buffers left at their default (the edges of the new nodes would lie outside the graph).
    #[test]
    fn size_grows_bfs_graph() {
        let m = meta(
            256,
            64,
            &[
                "int:2304", "u32:256", "i32:3", "int:grid", "int:grid", "zero:512",
            ],
        );
        let (d, a) = scaled("bfs", &m, 16).unwrap();
        assert_eq!(d, Dims { grid: 4096, wg: 64 });
        let words = |i: usize| match a[i] {
            Arg::Buffer { dwords, .. } => dwords.resolve(d),
            Arg::Scalar(v) => v,
        };
        assert_eq!(
            (0..6).map(words).collect::<Vec<_>>(),
            [9 * 4096, 4096, 3, 4096, 4096, 2 * 4096]
        );
    }
}
