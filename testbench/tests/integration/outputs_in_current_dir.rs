//! Where `rtgpu` reads and writes: under the current directory, whatever the build. A
//! testbench run from an empty directory writes its waveform there and nothing into the
//! repository; `sweep`, `reproduce` and `scenario` outside a checkout name `--kernel-dir`
//! (exit 2) and take their kernels from it.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::SystemTime;

/// Runs `rtgpu ARGS` in `dir`, without the checkout's target directory in the environment
/// (as a copied or installed binary runs).
fn rtgpu_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_rtgpu"))
        .current_dir(dir)
        .env_remove("RTGPU_TARGET_DIR")
        .args(args)
        .output()
        .expect("rtgpu runs")
}

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Modification time and length of `p`, if it exists.
fn stamp(p: &Path) -> Option<(SystemTime, u64)> {
    let m = std::fs::metadata(p).ok()?;
    Some((m.modified().ok()?, m.len()))
}

#[test]
fn tb_writes_its_waveform_under_the_current_directory_and_nothing_in_the_repository() {
    let dir = tempfile::tempdir().unwrap();
    let watched: Vec<PathBuf> = ["counter.vcd", "counter.gtkw", "counter.fst"]
        .iter()
        .map(|f| repo().join("waveforms").join(f))
        .chain([repo().join("target/cosim/counter")])
        .collect();
    let before: Vec<_> = watched.iter().map(|p| stamp(p)).collect();
    let out = rtgpu_in(dir.path(), &["tb", "counter", "--cycles", "50"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let waves = dir.path().join("waveforms");
    assert!(waves.join("counter.vcd").is_file() && waves.join("counter.gtkw").is_file());
    let gtkw = std::fs::read_to_string(waves.join("counter.gtkw")).unwrap();
    assert!(gtkw.contains("[dumpfile] \"counter.vcd\""), "{gtkw}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("wrote waveforms/counter.vcd"), "{stdout}");
    let after: Vec<_> = watched.iter().map(|p| stamp(p)).collect();
    assert_eq!(before, after, "rtgpu tb wrote into the repository");
    // --out names another directory, as `scenario --out` does.
    let other = dir.path().join("elsewhere");
    let out = rtgpu_in(
        dir.path(),
        &["tb", "counter", "--cycles", "50", "--out", "elsewhere"],
    );
    assert!(out.status.success());
    assert!(other.join("counter.gtkw").is_file());
}

#[test]
fn kernel_commands_outside_a_checkout_name_the_option_and_take_it() {
    let dir = tempfile::tempdir().unwrap();
    for args in [
        &["sweep", "--quiet", "--modes", "nosplit"][..],
        &["reproduce", "pws", "--n2", "1", "--scale", "1"],
        &["scenario", "system-pws"],
    ] {
        let out = rtgpu_in(dir.path(), args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(
            err.contains("--kernel-dir") && err.contains("firmware/kernels"),
            "{args:?}: {err}"
        );
    }
    let kernels = repo().join("firmware/kernels");
    let k = kernels.to_str().unwrap();
    let out = rtgpu_in(dir.path(), &["scenario", "system-pws", "--kernel-dir", k]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(dir.path().join("waveforms/system-pws.gtkw").is_file());
    let out = rtgpu_in(dir.path(), &["sweep", "--kernel-dir", "/no/such/dir"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--kernel-dir /no/such/dir"));
}
