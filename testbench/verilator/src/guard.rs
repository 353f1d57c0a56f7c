//! A crash inside a model's evaluation (SIGSEGV, SIGBUS, SIGFPE, SIGILL) as an error of that
//! model instead of the death of the process.
//!
//! One handler per process, installed with the first [`crate::Model`]: `SA_SIGINFO |
//! SA_ONSTACK` (it runs on the thread's alternate signal stack when there is one: Rust gives
//! every thread it starts one, for its stack-overflow report), the handlers found before it
//! kept. [`Model::eval`](crate::Model::eval) marks the thread as inside the evaluation of an
//! instance (a thread-local pointer, two stores per evaluation); the shim's `rtv_eval` calls
//! the model's `eval()` in a C++ `try` block, free until it catches. On a crash the handler
//! calls the shim's `rtv_crash`, which throws: the exception unwinds through this handler
//! (`extern "C-unwind"`, nothing to drop), the kernel's signal frame and the model's frames
//! (compiled with `-fnon-call-exceptions`) to that block; the evaluation returns the error and
//! the instance stays dead. Per-evaluation jump targets (`sigsetjmp`, `__builtin_setjmp`) were
//! measured at 2 to 5 ns per evaluation, 3 to 7 % on the smallest blocks; the `try` block
//! costs nothing measurable. A crash anywhere else, or on a thread not inside an
//! evaluation, goes to the handler that was there before (Rust's stack-overflow report), or to
//! the default action: the process ends with the signal as it would have without this module.

use std::cell::Cell;
use std::ffi::{c_int, c_void};
use std::ptr::null_mut;
use std::sync::OnceLock;

/// The shim's `rtv_crash`: throws to the running `rtv_eval` of the instance (never
/// returns).
pub(crate) type CrashFn = unsafe extern "C-unwind" fn(*mut c_void, c_int) -> c_int;

/// The signals a crash in compiled code raises.
const SIGNALS: [c_int; 4] = [libc::SIGSEGV, libc::SIGBUS, libc::SIGFPE, libc::SIGILL];

thread_local! {
    /// The instance this thread is evaluating, and its library's `rtv_crash`.
    static INSIDE: Cell<(*mut c_void, Option<CrashFn>)> =
        const { Cell::new((null_mut(), None)) };
}

/// The handlers installed before ours, per signal of [`SIGNALS`].
static PREVIOUS: OnceLock<[libc::sigaction; 4]> = OnceLock::new();

/// Installs the handler (once per process).
pub(crate) fn install() {
    PREVIOUS.get_or_init(|| {
        // SAFETY: plain sigaction calls with zero-initialised, then filled, structures.
        unsafe {
            let mut previous: [libc::sigaction; 4] = std::mem::zeroed();
            let handler: extern "C-unwind" fn(c_int, *mut libc::siginfo_t, *mut c_void) = on_signal;
            for (sig, prev) in SIGNALS.iter().zip(previous.iter_mut()) {
                let mut act: libc::sigaction = std::mem::zeroed();
                act.sa_sigaction = handler as libc::sighandler_t;
                act.sa_flags = libc::SA_SIGINFO | libc::SA_ONSTACK;
                libc::sigemptyset(&mut act.sa_mask);
                libc::sigaction(*sig, &act, prev);
            }
            previous
        }
    });
}

/// Runs `eval` (one foreign evaluation of `sim`) marked as inside it.
#[inline(always)]
pub(crate) fn guarded<R>(sim: *mut c_void, crash: CrashFn, eval: impl FnOnce() -> R) -> R {
    INSIDE.set((sim, Some(crash)));
    let r = eval();
    INSIDE.set((null_mut(), None));
    r
}

extern "C-unwind" fn on_signal(sig: c_int, info: *mut libc::siginfo_t, ctx: *mut c_void) {
    // A const-initialised thread-local without a destructor: a plain TLS access, safe here.
    let (sim, crash) = INSIDE.get();
    if let (false, Some(crash)) = (sim.is_null(), crash) {
        INSIDE.set((null_mut(), None));
        // SAFETY: `sim` is the live instance whose `rtv_eval` this thread is in. This does not
        // return: it unwinds (a C++ exception) through this frame, which owns nothing to drop,
        // to the `try` block of `rtv_eval`.
        unsafe { crash(sim, sig) };
    }
    chain(sig, info, ctx);
}

/// Hands the signal to the handler installed before ours, or takes the default action.
fn chain(sig: c_int, info: *mut libc::siginfo_t, ctx: *mut c_void) {
    let prev = SIGNALS
        .iter()
        .position(|&s| s == sig)
        .zip(PREVIOUS.get())
        .map(|(i, p)| p[i]);
    match prev {
        Some(p) if p.sa_sigaction != libc::SIG_DFL && p.sa_sigaction != libc::SIG_IGN => {
            // SAFETY: the previous handler, called as the kernel would have called it.
            unsafe {
                if p.sa_flags & libc::SA_SIGINFO != 0 {
                    let f: extern "C" fn(c_int, *mut libc::siginfo_t, *mut c_void) =
                        std::mem::transmute(p.sa_sigaction);
                    f(sig, info, ctx);
                } else {
                    let f: extern "C" fn(c_int) = std::mem::transmute(p.sa_sigaction);
                    f(sig);
                }
            }
        }
        // SAFETY: restoring the default action and re-raising (delivered when this handler
        // returns) ends the process with the signal, as without a handler.
        _ => unsafe {
            let mut dfl: libc::sigaction = std::mem::zeroed();
            dfl.sa_sigaction = libc::SIG_DFL;
            libc::sigaction(sig, &dfl, null_mut());
            libc::raise(sig);
        },
    }
}
