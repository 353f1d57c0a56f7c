//! Bad input to the `rtgpu` program, as a new user might type it: every case must end
//! quickly with exit code 2 and a message that says what is wrong (and the limit), never a
//! panic, an allocation failure or a run that does not stop. Each child runs with its address
//! space limited to 4 GB and is killed after 20 s, so a regression cannot take the machine
//! down. A closed standard output ends the program as SIGPIPE ends any Unix tool.

use std::io::Read;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The repository root (the CLI's relative paths start there).
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// `rtgpu` with its address space limited to 4 GB.
fn command(args: &[&str]) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_rtgpu"));
    c.args(args).current_dir(root());
    // SAFETY: setrlimit is async-signal-safe; the closure touches nothing else.
    unsafe {
        c.pre_exec(|| {
            let limit = libc::rlimit {
                rlim_cur: 4_000_000_000,
                rlim_max: 4_000_000_000,
            };
            libc::setrlimit(libc::RLIMIT_AS, &limit);
            Ok(())
        });
    }
    c
}

/// Runs `rtgpu args`, killing it after 20 s: (exit code, stderr, seconds).
fn run(args: &[&str]) -> (Option<i32>, String, f64) {
    let t0 = Instant::now();
    let mut child = command(args)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start rtgpu");
    let mut stderr = child.stderr.take().expect("piped stderr");
    let reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = stderr.read_to_string(&mut s);
        s
    });
    let status = loop {
        if let Some(s) = child.try_wait().expect("wait for rtgpu") {
            break s;
        }
        if t0.elapsed() > Duration::from_secs(20) {
            let _ = child.kill();
            break child.wait().expect("wait for the killed rtgpu");
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let err = reader.join().expect("stderr reader");
    (status.code(), err, t0.elapsed().as_secs_f64())
}

/// `rtgpu args` is bad input: exit code 2, a message containing `needle`, no panic, quick.
#[track_caller]
fn rejects(args: &[&str], needle: &str) {
    let (code, err, secs) = run(args);
    assert!(!err.contains("panicked"), "{args:?} panicked: {err}");
    assert_eq!(code, Some(2), "{args:?}: exit {code:?}, stderr: {err}");
    assert!(err.contains(needle), "{args:?}: `{needle}` not in: {err}");
    assert!(secs < 5.0, "{args:?} took {secs:.1} s");
}

/// A file holding `text` in a temporary directory (kept alive by the returned guard).
fn file(name: &str, text: impl AsRef<[u8]>) -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().expect("temporary directory");
    let path = dir.path().join(name);
    std::fs::write(&path, text).expect("write the input");
    let p = path.to_str().expect("UTF-8 path").to_string();
    (dir, p)
}

const K: &str = "firmware/kernels/fig2_divergent.s";

#[test]
fn huge_launches_are_refused_before_allocation() {
    rejects(&["run", K, "--grid", "4294967295"], "grid size 4294967295");
    rejects(
        &["run", K, "--grid", "1073741824", "--wg", "1024"],
        "mem_bytes = 16777216",
    );
    rejects(
        &["run", K, "--args", "zero:4000000000"],
        "raise mem_bytes with --config",
    );
    rejects(
        &["wcet", K, "--grid", "1073741824", "--wg", "1024"],
        "mem_bytes = 16777216",
    );
    rejects(
        &["sweep", K, "--grid", "1073741824", "--wg", "1024"],
        "mem_bytes = 16777216",
    );
    let many = vec!["7"; 15361];
    let mut args = vec!["run", K, "--args"];
    args.extend(many);
    rejects(&args, "the argument segment holds 15360");
}

#[test]
fn launch_sizes_out_of_range_are_bad_input() {
    rejects(&["run", K, "--grid", "0"], "grid size 0");
    rejects(&["run", K, "--wg", "7"], "work-group size 7");
    rejects(&["run", K, "--wg", "2048"], "outside 1..=1024");
    rejects(&["run", K, "--s", "99"], "1..=7");
    rejects(&["run", K, "--args", "f32:1e99"], "finite");
}

#[test]
fn counts_of_the_experiments_are_bounded() {
    rejects(
        &["reorder", "compare", "--random", "1000000"],
        "--random 1000000 is outside 1..=48",
    );
    rejects(
        &["reorder", "compare", "--latency", "18446744073709551615"],
        "--latency 18446744073709551615 is outside 0..=1000000",
    );
    rejects(
        &["reorder", "compare", "--seeds", "0"],
        "--seeds 0 is outside 1..=1000",
    );
    rejects(&["reorder", "compare", "--cache", "7"], "16, 32 or 64 kB");
    rejects(
        &["reorder", "compare", "--kernel", "no-such.ptx"],
        "built-in kernels: example",
    );
    rejects(
        &["aging", "--maps", "18446744073709551000"],
        "--maps 18446744073709551000 is outside 1..=10000",
    );
    rejects(&["scenario", "nope"], "known: system-");
    rejects(
        &["multiphase", "sgemm", "--mem-lat", "4294967295"],
        "use 1 to 100000 cycles",
    );
    rejects(&["reproduce", "pws", "--n2", "4294967295"], "1..=1024");
    rejects(&["reproduce", "pws", "--scale", "4294967295"], "1..=64");
    rejects(
        &["cosim", "counter", "--cycles", "2000000"],
        "use at most 1000000",
    );
    rejects(
        &["tb", "counter", "--cycles", "18446744073709551615"],
        "1..=100000000",
    );
    rejects(
        &["bench", "--cycles", "18446744073709551615"],
        "--cycles 18446744073709551615 is outside 1..=1000000000",
    );
    rejects(
        &["bench", "--engines-only", "--blocks", "counter,nope"],
        "--blocks: no engine benchmark \"nope\"",
    );
    rejects(&["fuzz", "--cases", "0"], "--cases 0 is outside");
}

#[test]
fn assembly_errors_say_what_was_written_and_why() {
    let cases = [
        (
            "s_mov_b32 s200200, 0\ns_endpgm\n",
            "register s200200 is out of range (SGPRs are s0..s101)",
        ),
        ("v_mov_b32 v300, 0\ns_endpgm\n", "VGPRs are v0..v255"),
        (
            "split 0x12345678, s1\ns_endpgm\n",
            "the literal 0x12345678 cannot be a split mask source",
        ),
        (
            "s_mov_b32 s0, -9223372036854775809\ns_endpgm\n",
            "-9223372036854775809 does not fit in 64 bits",
        ),
        (
            "s_mov_b32 s0, 0x1ffffffff\ns_endpgm\n",
            "0x1ffffffff does not fit in 32 bits",
        ),
        (
            "v_mov_b32 v0, 1e99999\ns_endpgm\n",
            "a float constant must be finite",
        ),
        ("v_mov_b32 v0, 1e39\ns_endpgm\n", "outside single precision"),
        ("", "the kernel has no instructions"),
        ("s_nop 0\n", "the kernel has no s_endpgm"),
    ];
    for (src, needle) in cases {
        let (_dir, path) = file("k.s", src);
        rejects(&["run", &path], needle);
        if !needle.starts_with("the kernel has no") {
            rejects(&["asm", &path], needle);
        }
    }
    for (src, needle) in cases {
        assert!(!needle.contains("Literal("), "{src}");
    }
}

#[test]
fn files_that_cannot_be_read_are_bad_input() {
    rejects(&["asm", "no-such-file.s"], "no-such-file.s");
    rejects(&["run", "/dev/zero"], "larger than 64 MiB");
    let (_dir, path) = file("odd.bin", "abc");
    rejects(&["disasm", &path], "not a whole number of dwords");
    let (_dir, path) = file("bad.bin", [0u8, 0, 0, 0xff]);
    rejects(&["disasm", &path], "illegal instruction word");
    let (_dir, cfg) = file("big.toml", "mem_bytes = 4294967296\n");
    rejects(
        &["run", K, "--config", &cfg],
        "mem_bytes = 4294967296 is outside 4..=1073741824",
    );
    let (_dir, cfg) = file("code.json", "{\"code_bytes\": 4000000000}");
    rejects(
        &["run", K, "--config", &cfg],
        "code_bytes = 4000000000 is outside",
    );
    let (_dir, cfg) = file("typo.toml", "n_simdd = 4\n");
    rejects(&["run", K, "--config", &cfg], "n_simdd");
}

#[test]
fn a_closed_stdout_ends_the_program_quietly() {
    // More output than a pipe buffers, so the writer meets the closed pipe.
    let src = "s_nop 0\n".repeat(20_000) + "s_endpgm\n";
    let (_dir, path) = file("long.s", &src);
    let mut child = command(&["asm", &path])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start rtgpu");
    drop(child.stdout.take());
    let out = child.wait_with_output().expect("wait for rtgpu");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!err.contains("panicked"), "{err}");
    assert_eq!(
        out.status.signal(),
        Some(libc::SIGPIPE),
        "{:?} {err}",
        out.status
    );
}
