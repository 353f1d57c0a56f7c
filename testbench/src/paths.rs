//! Where rtgpu writes its files.

use std::io;
use std::path::{Path, PathBuf};

/// The repository root: the workspace this binary was built from, if it is still there,
/// else the current directory.
pub fn repo_root() -> PathBuf {
    let built_in = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    if built_in.join("Cargo.toml").is_file() {
        built_in.canonicalize().unwrap_or(built_in)
    } else {
        PathBuf::from(".")
    }
}

/// `waveforms/`: VCDs (git-ignored) and `.gtkw` save files (committed).
pub fn waveforms_dir() -> PathBuf {
    repo_root().join("waveforms")
}

/// `target/cosim/NAME/`: the generated Verilog, testbench and Icarus' VCD of a block.
pub fn cosim_dir(name: &str) -> PathBuf {
    repo_root().join("target").join("cosim").join(name)
}

/// An I/O error that names the file it is about.
pub fn with_path(e: io::Error, path: &Path) -> io::Error {
    io::Error::new(e.kind(), format!("{}: {e}", path.display()))
}
