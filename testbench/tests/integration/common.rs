//! Shared by the integration tests that run the `rtgpu` program.

use std::process::Command;

/// Runs `rtgpu ARGS` in the repository's root, as a user of the checkout does (it reads
/// firmware/kernels/ and writes waveforms/ and target/ under the current directory): exit
/// code, stdout, stderr.
pub fn rtgpu(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_rtgpu"))
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
        .args(args)
        .output()
        .expect("rtgpu runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into(),
        String::from_utf8_lossy(&out.stderr).into(),
    )
}
