//! Where rtgpu reads and writes its files: everything resolves from the current directory (or
//! an option naming another place), never from where the binary was built.
//!
//! - Waveforms: `waveforms/` under the current directory (`rtgpu tb --out DIR`,
//!   `rtgpu scenario --out DIR`, `rtgpu run --vcd FILE` choose others).
//! - Tool and cache directories: `target/` under the current directory (`target/cosim/NAME/`,
//!   `target/verilator/`, `target/bench/`), or the directory in the environment variable
//!   [`TARGET_ENV`]. The workspace's `.cargo/config.toml` sets it to the repository's
//!   `target/` for `cargo run` and `cargo test` (tests run in `testbench/`), so the Verilator
//!   cache and the cosimulation directories of a checkout stay in one place.
//! - Kernels: `firmware/kernels/` under the current directory, or `--kernel-dir DIR`.

use std::io;
use std::path::{Path, PathBuf};

/// The environment variable that, when set, replaces `./target` as the tool and cache
/// directory.
pub const TARGET_ENV: &str = "RTGPU_TARGET_DIR";

/// The repository's kernel directory, relative to the current directory.
pub const KERNEL_DIR: &str = "firmware/kernels";

/// The tool and cache directory: `$RTGPU_TARGET_DIR` if set, else `target/` under the current
/// directory.
pub fn target_dir() -> PathBuf {
    match std::env::var_os(TARGET_ENV) {
        Some(d) if !d.is_empty() => PathBuf::from(d),
        _ => PathBuf::from("target"),
    }
}

/// `target/cosim/NAME/`: the generated Verilog, testbench and Icarus' VCD of a block.
pub fn cosim_dir(name: &str) -> PathBuf {
    target_dir().join("cosim").join(name)
}

/// The kernel directory: `dir` if given (`--kernel-dir`), else `firmware/kernels/` under the
/// current directory. `Err((2, message))` when it is not a directory, naming the option.
pub fn kernel_dir(dir: Option<&Path>) -> Result<PathBuf, (u8, String)> {
    let d = dir.map_or_else(|| PathBuf::from(KERNEL_DIR), Path::to_path_buf);
    if d.is_dir() {
        return Ok(d);
    }
    let why = match dir {
        Some(_) => format!("--kernel-dir {}: not a directory", d.display()),
        None => format!(
            "the kernels are read from {KERNEL_DIR}/ under the current directory, which has \
             none: run from the repository's root or pass --kernel-dir DIR"
        ),
    };
    Err((2, why))
}

/// An I/O error that names the file it is about.
pub fn with_path(e: io::Error, path: &Path) -> io::Error {
    io::Error::new(e.kind(), format!("{}: {e}", path.display()))
}
