//! OpenCL C kernels: `rtgpu run KERNEL.cl` compiles the kernel with clang-14 for gfx803
//! (fiji) with rtgpu's device header (`firmware/include/rtgpu.h`, docs/opencl.md), then
//! assembles clang's output with rtgpu's own assembler.
//!
//! Compiled assembly is cached under `target/opencl/` ([`crate::paths::target_dir`]) by a
//! SHA-256 of the source, the header, the flags and clang's version, so a kernel compiles once.

use crate::paths::{target_dir, with_path};
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The compiler (Debian's `clang-14`, installed by `scripts/setup`).
pub const CLANG: &str = "clang-14";
/// rtgpu's device header, passed with `-include`.
pub const HEADER: &str = include_str!("../../firmware/include/rtgpu.h");
/// The flags: OpenCL C 1.2 for gfx803 without AMD's device library, optimised, to assembly.
pub const FLAGS: [&str; 8] = [
    "-cl-std=CL1.2",
    "-target",
    "amdgcn-amd-amdhsa",
    "-mcpu=fiji",
    "-nogpulib",
    "-O2",
    "-S",
    "-Wno-unused-command-line-argument",
];

/// The source is OpenCL C (its name ends in `.cl`).
pub fn is_opencl(path: &Path) -> bool {
    path.extension().is_some_and(|e| e == "cl")
}

/// clang's version line; `Err((1, …))` naming `scripts/setup` when clang-14 is missing.
fn clang_version() -> Result<String, (u8, String)> {
    match Command::new(CLANG).arg("--version").output() {
        Ok(out) if out.status.success() => Ok(String::from_utf8_lossy(&out.stdout).into_owned()),
        Ok(out) => Err((
            1,
            format!(
                "{CLANG} --version failed: {}",
                String::from_utf8_lossy(&out.stderr)
            ),
        )),
        Err(_) => Err((
            1,
            format!("{CLANG} not found: run scripts/setup (it installs clang-14)"),
        )),
    }
}

/// Compiles `path` (OpenCL C source `src`) and returns the path of the assembly, from the
/// cache when it is there. A compile error is `Err((2, clang's message))`.
pub fn compile(path: &Path, src: &str) -> Result<PathBuf, (u8, String)> {
    let version = clang_version()?;
    let mut h = Sha256::new();
    for part in [src, HEADER, &FLAGS.join(" "), &version] {
        h.update(part.as_bytes());
        h.update([0]);
    }
    let key: String = h.finalize().iter().map(|b| format!("{b:02x}")).collect();
    let dir = target_dir().join("opencl");
    let stem = path
        .file_stem()
        .map_or("kernel".into(), |s| s.to_string_lossy());
    let out = dir.join(format!("{stem}-{}.s", &key[..16]));
    if out.is_file() {
        return Ok(out);
    }
    let io = |e: std::io::Error, p: &Path| (1u8, with_path(e, p).to_string());
    std::fs::create_dir_all(&dir).map_err(|e| io(e, &dir))?;
    // The header and the output under names of this compilation alone: two threads or
    // processes compiling the same kernel at once must not remove each other's files.
    static N: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let unique = format!(
        "{}-{}-{}",
        &key[..16],
        std::process::id(),
        N.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
    );
    let header = dir.join(format!("rtgpu-{unique}.h"));
    std::fs::write(&header, HEADER).map_err(|e| io(e, &header))?;
    let tmp = dir.join(format!("{stem}-{unique}.s.tmp"));
    let result = Command::new(CLANG)
        .args(FLAGS)
        .arg("-include")
        .arg(&header)
        .arg(path)
        .arg("-o")
        .arg(&tmp)
        .output();
    let _ = std::fs::remove_file(&header);
    let result = result.map_err(|e| (1, format!("running {CLANG}: {e}")))?;
    if !result.status.success() {
        let _ = std::fs::remove_file(&tmp);
        return Err((
            2,
            format!(
                "{} does not compile:\n{}",
                path.display(),
                String::from_utf8_lossy(&result.stderr).trim_end()
            ),
        ));
    }
    std::fs::rename(&tmp, &out).map_err(|e| io(e, &out))?;
    Ok(out)
}
