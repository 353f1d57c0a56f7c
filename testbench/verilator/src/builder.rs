//! Verilate, compile and link a design into a shared library, cached by content.

use crate::{gen, split, Design, Layout};
use sha2::{Digest, Sha256};
use std::collections::HashMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Arc, Mutex, OnceLock};

/// The programs a build runs.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Tools {
    /// `verilator`.
    pub verilator: PathBuf,
    /// GNU `make` (runs the generated `Vvtop.mk`).
    pub make: PathBuf,
    /// The C++ compiler and linker.
    pub cxx: PathBuf,
}

impl Default for Tools {
    fn default() -> Self {
        Tools {
            verilator: "verilator".into(),
            make: "make".into(),
            cxx: "g++".into(),
        }
    }
}

/// How to build.
#[derive(Clone, Debug)]
pub struct BuildOptions {
    /// Built models live in `cache_dir/HASH/` (`NAME` inside says which design it was built
    /// for first).
    pub cache_dir: PathBuf,
    /// Build with `--trace` (the model can write a VCD).
    pub trace: bool,
    /// With `trace`: build with `--trace-fst` instead, the model writes FST (GTKWave's
    /// compressed format; the runtime links zlib).
    pub fst: bool,
    /// The programs to run.
    pub tools: Tools,
    /// Compile the model for build time rather than speed (`-O1`, once-only code `-O0`): a large
    /// design (the compute unit's top) builds about three times faster and runs slower.
    pub quick: bool,
}

/// A built (or cached) model, ready to instantiate with [`crate::Model::new`].
#[derive(Clone, Debug)]
pub struct Built {
    /// The design's name.
    pub name: String,
    /// The build directory (`librtv.so`, the generated sources, the logs).
    pub dir: PathBuf,
    /// Where the ports sit in the buses.
    pub layout: Layout,
    /// Built with `--trace`.
    pub trace: bool,
    /// The model was found in the cache: no tool ran.
    pub cached: bool,
    pub(crate) lib: Arc<libloading::Library>,
}

/// Why a build failed.
#[derive(Debug)]
pub enum BuildError {
    /// A tool is not installed.
    ToolMissing {
        /// Which.
        tool: String,
    },
    /// Verilator rejected the design.
    Verilate {
        /// The design's name.
        design: String,
        /// Verilator's first error message.
        message: String,
        /// The full log.
        log: PathBuf,
    },
    /// Compiling or linking the model failed.
    Compile {
        /// The design's name.
        design: String,
        /// The step (`make`, `link`).
        step: &'static str,
        /// The first error line of the compiler.
        message: String,
        /// The full log.
        log: PathBuf,
    },
    /// The design is not one the engine can take (no ports, a zero-width port).
    Design(String),
    /// A file could not be written or read.
    Io(std::io::Error),
    /// The built library could not be loaded.
    Load(String),
}

impl fmt::Display for BuildError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::ToolMissing { tool } => {
                write!(f, "`{tool}` was not found: run scripts/setup to install it")
            }
            Self::Verilate {
                design,
                message,
                log,
            } => write!(
                f,
                "{design}: Verilator rejected the Verilog: {message} (log: {})",
                log.display()
            ),
            Self::Compile {
                design,
                step,
                message,
                log,
            } => write!(
                f,
                "{design}: building the Verilated model failed ({step}): {message} (log: {})",
                log.display()
            ),
            Self::Design(m) => write!(f, "{m}"),
            Self::Io(e) => write!(f, "{e}"),
            Self::Load(m) => write!(f, "loading the Verilated model failed: {m}"),
        }
    }
}

impl std::error::Error for BuildError {}

impl From<std::io::Error> for BuildError {
    fn from(e: std::io::Error) -> Self {
        Self::Io(e)
    }
}

/// Flags of the engine build. `UNOPTFLAT` is waived here only (rust-hdl emits one
/// `always @(*)` per block; [`split`] removes the loops that makes, a design may have others),
/// and so is `WIDTH`: rust-hdl emits a width conversion
/// (`bit_cast`) as an AND with a mask of the target width, which Verilog extends or cuts as
/// intended but Verilator reports; `rtgpu cosim` lints with every warning on. Every variable starts
/// at 0, as in rust-hdl. `-fno-reorder` turns off the pass that reorders the statements of an
/// `always` block: on the compute unit's system before [`split`] that pass alone took 122 of
/// Verilator's 143 s; on the split blocks the translation takes 19 s with the flag and 18 s
/// without, and the model's speed was measured with it.
const VERILATOR_FLAGS: &[&str] = &[
    "--cc",
    "-O3",
    "-fno-reorder",
    "--x-assign",
    "0",
    "--x-initial",
    "0",
    "-Wno-UNOPTFLAT",
    "-Wno-WIDTH",
    "--timescale",
    "1ps/1ps",
    "--top-module",
    "vtop",
    "--prefix",
    "Vvtop",
];

/// Compiler optimisation of the model, the runtime and the shim (verilated.mk's defaults are
/// `-Os`); `-fnon-call-exceptions`: a crash in the model's code is thrown to the shim's
/// `rtv_eval` (module `guard`; no measurable cost).
const MAKE_VARS: &[&str] = &[
    "OPT_FAST=-O2",
    "OPT_SLOW=-O1",
    "OPT_GLOBAL=-O2",
    "USER_CPPFLAGS=-fPIC -fnon-call-exceptions -DVL_USER_STOP -DVL_USER_FINISH -DVL_USER_FATAL",
];

/// [`MAKE_VARS`] for a quick build: the model's code at `-O1`, its once-only code at `-O0`.
const QUICK_MAKE_VARS: &[&str] = &[
    "OPT_FAST=-O1",
    "OPT_SLOW=-O0",
    "OPT_GLOBAL=-O2",
    "USER_CPPFLAGS=-fPIC -fnon-call-exceptions -DVL_USER_STOP -DVL_USER_FINISH -DVL_USER_FATAL",
];

/// The make variables of a build with `opts`.
fn make_vars(opts: &BuildOptions) -> &'static [&'static str] {
    match opts.quick {
        true => QUICK_MAKE_VARS,
        false => MAKE_VARS,
    }
}

/// The lock of the model built in `dir`, one per directory in this process.
fn build_lock(dir: &Path) -> Arc<Mutex<()>> {
    static LOCKS: OnceLock<Mutex<HashMap<PathBuf, Arc<Mutex<()>>>>> = OnceLock::new();
    let mut locks = LOCKS
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    locks.entry(dir.to_path_buf()).or_default().clone()
}

/// Builds `design` (or finds it in the cache) and loads it.
pub fn build(design: &Design, opts: &BuildOptions) -> Result<Built, BuildError> {
    if design.ports.iter().any(|p| p.width == 0) || design.ports.is_empty() {
        return Err(BuildError::Design(format!(
            "{}: a design needs ports, each at least 1 bit wide",
            design.name
        )));
    }
    let layout = Layout::of(&design.ports);
    // Keyed by content only: instances of one block under different names share a model.
    let dir = opts.cache_dir.join(key(design, opts));
    let lib_path = dir.join("librtv.so");
    // Builds of one model run one at a time, in this process and across processes (a test
    // and the `rtgpu` it runs): a second waits for the first and finds its model in the cache,
    // so a large design is built once.
    let lock = build_lock(&dir);
    let guard = lock.lock().unwrap_or_else(|e| e.into_inner());
    let cached = lib_path.is_file() || built_by_other(design, &layout, opts, &dir)?;
    drop(guard);
    Ok(Built {
        name: design.name.clone(),
        lib: load(&lib_path)?,
        dir,
        layout,
        trace: opts.trace,
        cached,
    })
}

/// Under the build directory's file lock: `true` if another process built the model while this
/// one waited, else builds it here (`false`).
fn built_by_other(
    design: &Design,
    layout: &Layout,
    opts: &BuildOptions,
    dir: &Path,
) -> Result<bool, BuildError> {
    let _lock = lock_file(dir)?;
    if dir.join("librtv.so").is_file() {
        return Ok(true);
    }
    compile(design, layout, opts, dir)?;
    Ok(false)
}

/// Holds an exclusive lock on `dir.lock` (beside the build directory) until dropped: another
/// process building the same model waits here.
fn lock_file(dir: &Path) -> Result<std::fs::File, BuildError> {
    if let Some(parent) = dir.parent() {
        std::fs::create_dir_all(parent)?;
    }
    let f = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(dir.with_extension("lock"))?;
    f.lock()?;
    Ok(f)
}

/// Loads a library once per process.
fn load(path: &Path) -> Result<Arc<libloading::Library>, BuildError> {
    static LOADED: OnceLock<Mutex<HashMap<PathBuf, Arc<libloading::Library>>>> = OnceLock::new();
    let mut map = LOADED.get_or_init(Default::default).lock().unwrap();
    if let Some(lib) = map.get(path) {
        return Ok(lib.clone());
    }
    // SAFETY: the library is one this crate built from its own shim; loading runs only the
    // C++ static initialisers of Verilator's runtime.
    let lib = unsafe { libloading::Library::new(path) }
        .map_err(|e| BuildError::Load(format!("{}: {e}", path.display())))?;
    let lib = Arc::new(lib);
    map.insert(path.to_path_buf(), lib.clone());
    Ok(lib)
}

/// The `always` splitting's revision ([`split`]): part of the cache key, so that a build of the
/// same Verilog under an earlier split is not reused.
const SPLIT_VERSION: &str = "split-always 2";

/// The cache key: the Verilog, its split, the ports, the flags and the tools' identity.
fn key(design: &Design, opts: &BuildOptions) -> String {
    let mut h = Sha256::new();
    h.update(design.verilog.as_bytes());
    for p in &design.ports {
        h.update(format!("{}:{}:{:?};", p.name, p.width, p.dir).as_bytes());
    }
    h.update(VERILATOR_FLAGS.join(" ").as_bytes());
    h.update(SPLIT_VERSION.as_bytes());
    h.update(make_vars(opts).join(" ").as_bytes());
    h.update(gen::shim(design, &Layout::of(&design.ports), trace_code(opts)).as_bytes());
    h.update([trace_code(opts)]);
    let d = h.finalize();
    d.iter().take(8).map(|b| format!("{b:02x}")).collect()
}

/// Builds into a fresh directory beside `dir` and renames it into place, so concurrent
/// builds of one design (parallel tests, two processes) never see a half-built model.
fn compile(
    design: &Design,
    layout: &Layout,
    opts: &BuildOptions,
    dir: &Path,
) -> Result<(), BuildError> {
    let nonce = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.subsec_nanos())
        .unwrap_or(0);
    let tmp = dir.with_extension(format!("tmp{}-{nonce}", std::process::id()));
    std::fs::create_dir_all(tmp.join("obj"))?;
    std::fs::write(tmp.join("NAME"), format!("{}\n", design.name))?;
    std::fs::write(tmp.join("top.v"), split::split(&design.verilog))?;
    std::fs::write(tmp.join("vtop.v"), gen::wrapper(design, layout))?;
    std::fs::write(
        tmp.join("shim.cpp"),
        gen::shim(design, layout, trace_code(opts)),
    )?;
    let result = verilate(design, opts, &tmp)
        .and_then(|()| make(design, opts, &tmp))
        .and_then(|()| link(design, opts, &tmp));
    if let Err(e) = result {
        // Keep the failed build for inspection (the logs are named in the error).
        let failed = dir.with_extension("failed");
        let _ = std::fs::remove_dir_all(&failed);
        let _ = std::fs::rename(&tmp, &failed);
        return Err(relocate(e, &tmp, &failed));
    }
    match std::fs::rename(&tmp, dir) {
        Ok(()) => Ok(()),
        // Another build finished first: use its model.
        Err(_) if dir.join("librtv.so").is_file() => {
            let _ = std::fs::remove_dir_all(&tmp);
            Ok(())
        }
        Err(e) => Err(BuildError::Io(e)),
    }
}

/// The error's log path after the build directory moved from `from` to `to`.
fn relocate(e: BuildError, from: &Path, to: &Path) -> BuildError {
    let moved = |log: PathBuf| {
        log.strip_prefix(from)
            .map(|rel| to.join(rel))
            .unwrap_or(log)
    };
    match e {
        BuildError::Verilate {
            design,
            message,
            log,
        } => BuildError::Verilate {
            design,
            message,
            log: moved(log),
        },
        BuildError::Compile {
            design,
            step,
            message,
            log,
        } => BuildError::Compile {
            design,
            step,
            message,
            log: moved(log),
        },
        e => e,
    }
}

/// Runs `cmd` in `dir`, its output in `dir/LOG`. `Ok(false)`: it ran and failed.
fn run_logged(cmd: &mut Command, tool: &Path, log: &Path) -> Result<bool, BuildError> {
    let out = cmd.output().map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => BuildError::ToolMissing {
            tool: tool.display().to_string(),
        },
        _ => BuildError::Io(e),
    })?;
    let mut text = out.stdout;
    text.extend_from_slice(&out.stderr);
    std::fs::write(log, &text)?;
    Ok(out.status.success())
}

/// The first line of `log` that looks like an error (Verilator's closing "Exiting due to N
/// warning(s)" names none: the warning before it is the message).
fn first_error(log: &Path, markers: &[&str]) -> String {
    let text = std::fs::read_to_string(log).unwrap_or_default();
    let is_error =
        |l: &&str| markers.iter().any(|m| l.contains(m)) && !l.contains("Exiting due to");
    text.lines()
        .find(is_error)
        .or_else(|| text.lines().find(|l| !l.trim().is_empty()))
        .unwrap_or("(no output)")
        .trim()
        .to_string()
}

fn verilate(design: &Design, opts: &BuildOptions, dir: &Path) -> Result<(), BuildError> {
    let log = dir.join("verilator.log");
    let mut cmd = Command::new(&opts.tools.verilator);
    cmd.current_dir(dir).args(VERILATOR_FLAGS);
    match trace_code(opts) {
        1 => {
            cmd.arg("--trace");
        }
        2 => {
            cmd.arg("--trace-fst");
        }
        _ => {}
    }
    cmd.args(["-Mdir", "obj", "vtop.v", "top.v", "shim.cpp"]);
    if run_logged(&mut cmd, &opts.tools.verilator, &log)? {
        return Ok(());
    }
    Err(BuildError::Verilate {
        design: design.name.clone(),
        message: first_error(&log, &["%Error", "%Warning"]),
        log,
    })
}

/// What the model traces: 0 nothing, 1 VCD, 2 FST.
fn trace_code(opts: &BuildOptions) -> u8 {
    match (opts.trace, opts.fst) {
        (false, _) => 0,
        (true, false) => 1,
        (true, true) => 2,
    }
}

/// Verilator's runtime objects a model links (they depend on the flags, not on the design).
fn runtime_objs(trace: u8) -> &'static [&'static str] {
    match trace {
        0 => &["verilated.o", "verilated_threads.o"],
        1 => &["verilated.o", "verilated_threads.o", "verilated_vcd_c.o"],
        _ => &["verilated.o", "verilated_threads.o", "verilated_fst_c.o"],
    }
}

/// Where the runtime objects of the first build are kept for the next ones
/// (`cache_dir/runtime-HASH/`, keyed by the flags).
fn runtime_dir(opts: &BuildOptions) -> PathBuf {
    let mut h = Sha256::new();
    h.update(VERILATOR_FLAGS.join(" ").as_bytes());
    h.update(make_vars(opts).join(" ").as_bytes());
    h.update([trace_code(opts)]);
    let d = h.finalize();
    let hex: String = d.iter().take(6).map(|b| format!("{b:02x}")).collect();
    opts.cache_dir.join(format!("runtime-{hex}"))
}

fn make(design: &Design, opts: &BuildOptions, dir: &Path) -> Result<(), BuildError> {
    let log = dir.join("make.log");
    let jobs = std::thread::available_parallelism().map_or(1, |n| n.get());
    let runtime = runtime_dir(opts);
    let objs = runtime_objs(trace_code(opts));
    let have_runtime = objs.iter().all(|o| runtime.join(o).is_file());
    let mut cmd = Command::new(&opts.tools.make);
    cmd.current_dir(dir.join("obj"))
        .args(["-f", "Vvtop.mk", &format!("-j{jobs}")])
        .arg(format!("CXX={}", opts.tools.cxx.display()))
        .args(make_vars(opts))
        .args(["Vvtop__ALL.a", "shim.o"]);
    if !have_runtime {
        cmd.args(objs);
    }
    if !run_logged(&mut cmd, &opts.tools.make, &log)? {
        return Err(BuildError::Compile {
            design: design.name.clone(),
            step: "make",
            message: first_error(&log, &["error"]),
            log,
        });
    }
    if !have_runtime {
        keep_runtime(&dir.join("obj"), &runtime, objs)?;
    }
    Ok(())
}

/// Copies the runtime objects built in `obj` to `runtime` (renamed into place as a whole).
fn keep_runtime(obj: &Path, runtime: &Path, objs: &[&str]) -> Result<(), BuildError> {
    let tmp = runtime.with_extension(format!("tmp{}", std::process::id()));
    std::fs::create_dir_all(&tmp)?;
    for o in objs {
        std::fs::copy(obj.join(o), tmp.join(o))?;
    }
    if std::fs::rename(&tmp, runtime).is_err() {
        // Another build kept its copy first.
        let _ = std::fs::remove_dir_all(&tmp);
    }
    Ok(())
}

fn link(design: &Design, opts: &BuildOptions, dir: &Path) -> Result<(), BuildError> {
    let log = dir.join("link.log");
    // The linker runs in `obj/`: a relative cache directory must not reach it as such.
    let runtime = std::path::absolute(runtime_dir(opts))?;
    let mut cmd = Command::new(&opts.tools.cxx);
    cmd.current_dir(dir.join("obj"))
        .args(["-shared", "-o", "../librtv.so", "shim.o", "Vvtop__ALL.a"])
        .args(
            runtime_objs(trace_code(opts))
                .iter()
                .map(|o| runtime.join(o)),
        )
        // Each model keeps its own copy of Verilator's runtime: bind it inside the library.
        .args(["-Wl,-Bsymbolic", "-pthread", "-latomic"]);
    if trace_code(opts) == 2 {
        // The FST writer compresses with zlib.
        cmd.arg("-lz");
    }
    if run_logged(&mut cmd, &opts.tools.cxx, &log)? {
        return Ok(());
    }
    Err(BuildError::Compile {
        design: design.name.clone(),
        step: "link",
        message: first_error(&log, &["error"]),
        log,
    })
}
