//! What several commands share: the exit-code error [`Fail`], the testbench [`Stimulus`] and
//! its [`options`], the block lookup [`find`], errors about a file ([`file_fail`]) and
//! [`print_json_or`] text.

use rtgpu_testbench::tb::{self, BlockTb, TbOptions};
use serde::Serialize;
use std::fmt::Display;
use std::path::Path;

/// A failure and its exit code.
pub struct Fail(
    /// The exit code: 1 a check or tool failed, 2 bad usage.
    pub u8,
    /// The message, printed after `rtgpu: `.
    pub String,
);

impl<E: Display> From<E> for Fail {
    /// Any other error: a failed check or tool (exit code 1).
    fn from(e: E) -> Self {
        Fail(1, e.to_string())
    }
}

impl Fail {
    /// The `(exit code, message)` error of the library's command functions.
    pub fn coded((code, msg): (u8, String)) -> Self {
        Fail(code, msg)
    }
}

/// Turns an error about the file `path` into `PATH: ERROR` with exit code `code`.
pub fn file_fail<E: Display>(code: u8, path: &Path) -> impl Fn(E) -> Fail + '_ {
    move |e| Fail(code, format!("{}: {e}", path.display()))
}

/// The random stimulus of a block testbench.
#[derive(clap::Args, Clone)]
pub struct Stimulus {
    /// Cycles to simulate, 1..=100000000 (a testbench's directed part may add some).
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..=100_000_000))]
    cycles: u64,
    /// Seed of the random stimulus.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

/// The most cycles `rtgpu cosim` records: it keeps every cycle's port vector in memory.
pub const MAX_COSIM_CYCLES: u64 = 1_000_000;

/// The cycles of `stim` (for the range checks of the commands).
pub fn cycles(stim: &Stimulus) -> u64 {
    stim.cycles
}

/// The testbench options of `stim`, everything else default.
pub fn options(stim: &Stimulus) -> TbOptions {
    TbOptions {
        seed: stim.seed,
        cycles: stim.cycles,
        ..TbOptions::default()
    }
}

/// The block testbench called `name` (exit code 2 if there is none).
pub fn find(name: &str) -> Result<&'static dyn BlockTb, Fail> {
    tb::find(name).map_err(|e| Fail(2, e))
}

/// Prints `value` as pretty JSON (one line break after) if `json`, else `text(value)` as is.
pub fn print_json_or<T: Serialize>(
    json: bool,
    value: &T,
    text: impl FnOnce(&T) -> String,
) -> Result<(), Fail> {
    if json {
        println!("{}", serde_json::to_string_pretty(value)?);
    } else {
        print!("{}", text(value));
    }
    Ok(())
}

/// A progress bar of `len` steps on stderr, drawn only when stderr is a terminal.
pub fn progress(len: u64, what: &str) -> indicatif::ProgressBar {
    let bar = indicatif::ProgressBar::new(len);
    let style = indicatif::ProgressStyle::with_template("{prefix} [{bar:30}] {pos}/{len} {msg}")
        .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar());
    bar.set_style(style);
    bar.set_prefix(what.to_string());
    bar
}

/// A spinner on stderr for a step of unknown length (`what`), drawn only when stderr is a
/// terminal.
pub fn spinner(what: &str) -> indicatif::ProgressBar {
    let bar = indicatif::ProgressBar::new_spinner();
    bar.set_message(what.to_string());
    bar.enable_steady_tick(std::time::Duration::from_millis(200));
    bar
}
