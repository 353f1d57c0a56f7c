//! One instance of a built model, driven through the shim.

use crate::{Built, Layout};
use std::ffi::{c_char, c_int, c_void, CStr, CString};
use std::fmt;
use std::path::PathBuf;
use std::sync::Arc;

type NewFn = unsafe extern "C" fn() -> *mut c_void;
type TraceFn = unsafe extern "C" fn(*mut c_void, *const c_char, *const c_char) -> c_int;
type EvalFn = unsafe extern "C" fn(*mut c_void, *const u64, u64, *mut u64, u64, c_int) -> c_int;
type PtrFn = unsafe extern "C" fn(*mut c_void);
type MessageFn = unsafe extern "C" fn(*mut c_void) -> *const c_char;
type CycleFn = unsafe extern "C" fn(
    *mut c_void,
    *const u64,
    u64,
    u64,
    *mut u64,
    *mut u64,
    u64,
    u64,
    c_int,
) -> c_int;
type BenchFn = unsafe extern "C" fn(*mut c_void, *const u64, u64, u64, u64, *mut u64) -> u64;

/// The model stopped: a `$stop`, `$finish` or fatal error, with Verilator's message; or it
/// crashed: a signal in its evaluation, named.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ModelError {
    /// The design's name.
    pub design: String,
    /// What the model reported (`$stop at top.v:12`), or the signal that ended its
    /// evaluation (`SIGSEGV (invalid memory access) in its evaluation at time 1001`).
    pub message: String,
    /// A signal ended an evaluation (the instance's state is lost).
    pub crashed: bool,
}

impl fmt::Display for ModelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = if self.crashed { "crashed" } else { "stopped" };
        write!(
            f,
            "{}: the Verilated model {what}: {}",
            self.design, self.message
        )
    }
}

impl std::error::Error for ModelError {}

/// A waveform request: the VCD file, the time window dumped (inclusive, in the caller's time
/// unit, ps for rtgpu) and the scopes dumped.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Trace {
    /// The VCD written.
    pub path: PathBuf,
    /// First time dumped.
    pub from: u64,
    /// Last time dumped.
    pub to: u64,
    /// Dump only the signals in these scopes or below (Verilator's dotted names, the wrapper
    /// included: `TOP.vtop.dut.sub`; a signal's own name selects it alone); empty: every
    /// signal. Verilator declares the others not at all (its `dumpvars` filter).
    pub scopes: Vec<String>,
}

#[derive(Clone, Copy)]
struct Fns {
    eval: EvalFn,
    cycle: CycleFn,
    free: PtrFn,
    flush: PtrFn,
    message: MessageFn,
    bench: BenchFn,
    trace: TraceFn,
    crash: crate::guard::CrashFn,
}

/// An instance of a Verilated model: write the packed inputs, set the clock levels,
/// [`Model::eval`], read the packed outputs.
pub struct Model {
    name: String,
    sim: *mut c_void,
    fns: Fns,
    layout: Layout,
    input: Vec<u64>,
    output: Vec<u64>,
    clocks: u64,
    window: Option<(u64, u64)>,
    stopped: Option<ModelError>,
    traced: bool,
    _lib: Arc<libloading::Library>,
}

// SAFETY: an instance is used by one thread at a time (`&mut self` on every call that touches
// it); Verilator's context is re-selected for the calling thread on every call.
unsafe impl Send for Model {}

fn symbol<T: Copy>(lib: &libloading::Library, name: &[u8]) -> Result<T, String> {
    // SAFETY: the shim defines these symbols with exactly the signatures above.
    unsafe { lib.get::<T>(name) }
        .map(|s| *s)
        .map_err(|e| e.to_string())
}

impl Model {
    /// A new instance of `built` (every register at 0), writing a VCD when `trace` is given
    /// (the model must have been built with tracing).
    pub fn new(built: &Built, trace: Option<Trace>) -> Result<Model, String> {
        let lib = &built.lib;
        let fns = Fns {
            eval: symbol(lib, b"rtv_eval\0")?,
            cycle: symbol(lib, b"rtv_cycle\0")?,
            free: symbol(lib, b"rtv_free\0")?,
            flush: symbol(lib, b"rtv_flush\0")?,
            message: symbol(lib, b"rtv_message\0")?,
            bench: symbol(lib, b"rtv_bench\0")?,
            trace: symbol(lib, b"rtv_trace\0")?,
            crash: symbol(lib, b"rtv_crash\0")?,
        };
        crate::guard::install();
        let new: NewFn = symbol(lib, b"rtv_new\0")?;
        // SAFETY: `rtv_new` takes no arguments and returns a fresh instance.
        let sim = unsafe { new() };
        let l = built.layout.clone();
        Model {
            name: built.name.clone(),
            sim,
            fns,
            input: vec![0; l.in_words().max(1)],
            output: vec![0; l.out_words().max(1)],
            layout: l,
            clocks: 0,
            window: None,
            stopped: None,
            traced: built.trace,
            _lib: built.lib.clone(),
        }
        .with_trace(trace)
    }

    fn with_trace(mut self, trace: Option<Trace>) -> Result<Model, String> {
        match trace {
            Some(t) => self.trace_to(&t).map(|()| self),
            None => Ok(self),
        }
    }

    /// Starts writing a VCD (the model must be built with tracing); the state so far is kept.
    pub fn trace_to(&mut self, t: &Trace) -> Result<(), String> {
        if !self.traced {
            return Err(format!(
                "{}: a waveform needs a model built with tracing",
                self.name
            ));
        }
        if let Some(d) = t.path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(d).map_err(|e| format!("{}: {e}", d.display()))?;
        }
        let path = CString::new(t.path.to_string_lossy().as_bytes())
            .map_err(|_| format!("{}: a NUL in the path", t.path.display()))?;
        if let Some(bad) = t.scopes.iter().find(|s| s.contains(['\n', '\0'])) {
            return Err(format!(
                "{}: a line break or NUL in scope `{bad}`",
                self.name
            ));
        }
        let scopes = CString::new(t.scopes.join("\n")).unwrap_or_default();
        // SAFETY: a live instance and NUL-terminated strings.
        unsafe { (self.fns.trace)(self.sim, path.as_ptr(), scopes.as_ptr()) };
        self.window = Some((t.from, t.to));
        Ok(())
    }

    /// Where the ports sit in the buses.
    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    /// The packed inputs, applied at the next [`Model::eval`].
    #[inline]
    pub fn inputs_mut(&mut self) -> &mut [u64] {
        &mut self.input
    }

    /// The packed outputs of the last [`Model::eval`].
    #[inline]
    pub fn outputs(&self) -> &[u64] {
        &self.output
    }

    /// The packed outputs, writable (a caller packing its own values; the next
    /// [`Model::eval`] overwrites them).
    pub fn outputs_mut(&mut self) -> &mut [u64] {
        &mut self.output
    }

    /// Sets every clock input at once (bit i = clock i).
    #[inline]
    pub fn set_clocks(&mut self, mask: u64) {
        self.clocks = mask;
    }

    /// Sets clock input `i` (its index among the clocks) high or low for the next eval.
    pub fn set_clock(&mut self, i: usize, high: bool) {
        self.clocks = self.clocks & !(1 << i) | u64::from(high) << i;
    }

    /// Applies the inputs and clock levels, evaluates, reads the outputs; the waveform (if
    /// any) gets a sample at `time` when it lies in the window. A `$stop`, `$finish`, fatal
    /// error or crash (a signal such as SIGSEGV in the model's code) is an error, and every
    /// later call returns it again.
    #[inline]
    pub fn eval(&mut self, time: u64) -> Result<(), ModelError> {
        if let Some(e) = &self.stopped {
            return Err(e.clone());
        }
        let dump = self.window.is_some_and(|(a, b)| (a..=b).contains(&time));
        let (sim, eval) = (self.sim, self.fns.eval);
        let (input, output) = (self.input.as_ptr(), self.output.as_mut_ptr());
        // SAFETY: `input`/`output` hold the bus widths in 64-bit words (at least one each).
        let rc = crate::guard::guarded(sim, self.fns.crash, || unsafe {
            eval(sim, input, self.clocks, output, time, c_int::from(dump))
        });
        self.result(rc)
    }

    /// A whole cycle of a one-clock design in one foreign call (half the calls of two
    /// [`Model::eval`]s): the inputs with clock levels `low` evaluated at `times.0` (those
    /// outputs land in [`Model::outputs`]), then the same inputs with levels `high` at
    /// `times.1`, whose outputs go to `after` (at least the output bus's words) when given.
    /// Waveform samples and errors as [`Model::eval`].
    #[inline]
    pub fn cycle(
        &mut self,
        levels: (u64, u64),
        times: (u64, u64),
        after: Option<&mut [u64]>,
    ) -> Result<(), ModelError> {
        let input = self.input.as_ptr();
        self.cycle_from(input, levels, times, after)
    }

    /// [`Model::cycle`] with the packed inputs read from `input` (at least the input bus's
    /// words) instead of [`Model::inputs_mut`]: a caller that holds its stimulus packed
    /// already (a recorded row) saves the copy.
    #[inline]
    pub fn cycle_with(
        &mut self,
        input: &[u64],
        levels: (u64, u64),
        times: (u64, u64),
        after: Option<&mut [u64]>,
    ) -> Result<(), ModelError> {
        assert!(
            input.len() >= self.input.len(),
            "{} input words, a row of {}",
            self.input.len(),
            input.len()
        );
        self.cycle_from(input.as_ptr(), levels, times, after)
    }

    /// [`Model::cycle`] from `input`, a pointer to at least the input bus's words.
    #[inline(always)]
    fn cycle_from(
        &mut self,
        input: *const u64,
        (low, high): (u64, u64),
        times: (u64, u64),
        after: Option<&mut [u64]>,
    ) -> Result<(), ModelError> {
        if let Some(e) = &self.stopped {
            return Err(e.clone());
        }
        let words = self.output.len();
        let after = match after {
            Some(a) if a.len() >= words => a.as_mut_ptr(),
            Some(a) => panic!("{} output words, a buffer of {}", words, a.len()),
            None => std::ptr::null_mut(),
        };
        let dump = match self.window {
            None => 0,
            Some((a, b)) => {
                c_int::from((a..=b).contains(&times.0))
                    | c_int::from((a..=b).contains(&times.1)) << 1
            }
        };
        let (sim, cycle) = (self.sim, self.fns.cycle);
        let output = self.output.as_mut_ptr();
        // SAFETY: `input` and the buses hold their widths in 64-bit words, `after` at least
        // the output's.
        let rc = crate::guard::guarded(sim, self.fns.crash, || unsafe {
            cycle(sim, input, low, high, output, after, times.0, times.1, dump)
        });
        self.result(rc)
    }

    /// The outcome of a foreign evaluation's return code.
    #[inline(always)]
    fn result(&mut self, rc: c_int) -> Result<(), ModelError> {
        match rc {
            0 => Ok(()),
            _ => Err(self.stop(rc)),
        }
    }

    /// The model stopped (`rc` 1) or crashed (2): the error, kept for every later call.
    #[cold]
    fn stop(&mut self, rc: c_int) -> ModelError {
        // SAFETY: the message is a NUL-terminated string owned by the instance.
        let msg = unsafe { CStr::from_ptr((self.fns.message)(self.sim)) };
        let e = ModelError {
            design: self.name.clone(),
            message: msg.to_string_lossy().into_owned(),
            crashed: rc == 2,
        };
        self.stopped = Some(e.clone());
        e
    }

    /// Writes the buffered waveform to its file.
    pub fn flush(&mut self) {
        // SAFETY: a live instance.
        unsafe { (self.fns.flush)(self.sim) }
    }

    /// The benchmark's pure C++ driver on this instance: cycles `cycles.start..cycles.end`
    /// over `stim`, rows of packed inputs (repeated when it has fewer rows than cycles); clock
    /// 0 low at 1000·c, eval, read, high at 1000·c + 500, eval — in a C++ loop, dumping the
    /// waveform if one is open. Folds every output word into `acc` ([`fold`], continuing its
    /// value, so a run may come in pieces) and returns the nanoseconds spent. Unguarded, as a
    /// plain C++ testbench runs a model: a crash here ends the process.
    pub fn bench_native(
        &mut self,
        stim: &[u64],
        cycles: std::ops::Range<u64>,
        acc: &mut u64,
    ) -> u64 {
        let words = self.layout.in_words().max(1);
        let rows = (stim.len() / words) as u64;
        assert!(rows > 0, "a benchmark needs at least one stimulus row");
        let n = cycles.end.saturating_sub(cycles.start);
        // SAFETY: `stim` holds `rows` rows of `words` words.
        unsafe { (self.fns.bench)(self.sim, stim.as_ptr(), rows, cycles.start, n, acc) }
    }
}

/// The fold the benchmark applies to the output words of every cycle, in every driver.
#[inline]
pub fn fold(acc: u64, words: &[u64]) -> u64 {
    words
        .iter()
        .fold(acc, |a, &w| a.wrapping_mul(1_099_511_628_211) ^ w)
}

impl Drop for Model {
    fn drop(&mut self) {
        // SAFETY: a live instance, freed once.
        unsafe { (self.fns.free)(self.sim) }
    }
}
