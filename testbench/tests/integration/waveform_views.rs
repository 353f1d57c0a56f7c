//! The waveforms explain themselves: instruction words through the disassembler filter,
//! named markers, a readable opening window, masks with lane 0 on the left (as the docs
//! write them), FST output read back by `fst2vcd`, and `--vcd-window` on the harness and the
//! behavioural model.

use crate::common;
use common::rtgpu;
use rtgpu_firmware::isa::{assemble, decode};
use rtgpu_testbench::tb::{self, TbOptions};
use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

fn kernel(name: &str) -> String {
    format!("{}/../firmware/kernels/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// The lines of `.gtkw` text starting with `prefix`.
fn lines<'a>(text: &'a str, prefix: &str) -> Vec<&'a str> {
    text.lines().filter(|l| l.starts_with(prefix)).collect()
}

/// (timestart, ps shown) of a `.gtkw`: GTKWave 3.3 at zoom z shows 2^-z / 200 ps a pixel
/// over a ~1050-pixel pane.
fn view(gtkw: &str) -> (u64, f64) {
    let start = lines(gtkw, "[timestart] ")[0][12..].parse().unwrap();
    let zoom: f64 = lines(gtkw, "*")[0][1..]
        .split(' ')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    (start, (-zoom).exp2() * 1050.0 / 200.0)
}

/// The named markers' times from the zoom line (`-1`: unset).
fn marker_times(gtkw: &str) -> Vec<i64> {
    let zl = lines(gtkw, "*")[0];
    zl.split(' ').skip(2).map(|t| t.parse().unwrap()).collect()
}

#[test]
fn the_gtkwave_filter_prints_what_the_disassembler_gives() {
    let src = std::fs::read_to_string(kernel("fig2_divergent.s")).unwrap();
    let words = assemble(&src, "fig2").unwrap().words();
    let mut child = Command::new(env!("CARGO_BIN_EXE_rtgpu"))
        // GTKWave passes everything after the program as one argument.
        .arg("disasm --gtkwave-filter")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = String::new();
    let mut expected = Vec::new();
    let mut at = 0;
    while at < words.len() {
        let (insn, len) = decode(&words[at..]).unwrap();
        input += &format!("{:08X}\n", words[at]);
        let text = insn.to_string();
        expected.push(match len {
            1 => text,
            _ => format!("{} …", text.split_whitespace().next().unwrap()),
        });
        at += len;
    }
    input += "XXXXXXXX\n";
    expected.push("XXXXXXXX".into());
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    let got: Vec<String> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(String::from)
        .collect();
    assert_eq!(got, expected);
    assert!(
        expected.iter().any(|t| t.starts_with("split ")),
        "{expected:?}"
    );
}

#[test]
fn gtkw_files_name_their_markers_run_the_filter_and_open_on_a_readable_window() {
    let dir = tempfile::tempdir().unwrap();
    // A long run: fig2 over 16 work-groups, markers in the first few hundred cycles.
    let vcd = dir.path().join("fig2.vcd");
    let (code, _, err) = rtgpu(&[
        "run",
        &kernel("fig2_divergent.s"),
        "--grid",
        "4096",
        "--vcd",
        vcd.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let gtkw = std::fs::read_to_string(dir.path().join("fig2.gtkw")).unwrap();
    let named = lines(&gtkw, "[markername] ");
    let times: Vec<i64> = marker_times(&gtkw)
        .into_iter()
        .filter(|t| *t >= 0)
        .collect();
    assert_eq!(named.len(), times.len());
    assert!(named.len() >= 4, "{gtkw}");
    assert!(named[0].starts_with("[markername] Asplit "), "{}", named[0]);
    let (start, shown) = view(&gtkw);
    let end = start + shown as u64;
    let inside = times
        .iter()
        .filter(|&&t| t as u64 >= start && (t as u64) < end);
    assert!(inside.count() >= 2, "{start} {shown} {times:?}");
    assert!(shown <= 1.05 * 60_000.0, "{shown} ps shown");
    let filter = lines(&gtkw, "^>1 ");
    assert!(!filter.is_empty() && filter[0].ends_with("rtgpu disasm --gtkwave-filter"));
    // A testbench: its markers are named too, and it opens on its own window.
    let run = tb::find("insn")
        .unwrap()
        .run(&TbOptions {
            waves_dir: Some(dir.path().to_path_buf()),
            ..TbOptions::default()
        })
        .unwrap();
    let gtkw = std::fs::read_to_string(run.gtkw.unwrap()).unwrap();
    assert!(lines(&gtkw, "[markername] A").len() == 1, "{gtkw}");
    assert!(view(&gtkw).1 < 100_000.0);
    assert!(gtkw.contains("^1 insn.format.txt") && gtkw.contains("^2 insn.unit.txt"));
    let formats = std::fs::read_to_string(dir.path().join("insn.format.txt")).unwrap();
    assert!(formats.contains("10 VOP3\n"), "{formats}");
}

#[test]
fn masks_are_drawn_with_lane_0_on_the_left_as_the_docs_write_them() {
    let dir = tempfile::tempdir().unwrap();
    let run = tb::find("pws-fig5")
        .unwrap()
        .run(&TbOptions {
            waves_dir: Some(dir.path().to_path_buf()),
            ..TbOptions::default()
        })
        .unwrap();
    // Fig. 5's first split (mask 1101 in the docs: lanes 0, 1 and 3) leaves SWF1 with those
    // lanes: the VCD (most significant bit first) holds 1011.
    let vcd = std::fs::read_to_string(run.vcd.unwrap()).unwrap();
    let id = vcd
        .lines()
        .find(|l| l.starts_with("$var") && l.contains(" spm$0 "))
        .and_then(|l| l.split(' ').nth(3))
        .unwrap()
        .to_string();
    let values: Vec<&str> = vcd
        .lines()
        .filter_map(|l| l.strip_suffix(&format!(" {id}")))
        .filter_map(|l| l.strip_prefix('b'))
        .collect();
    assert!(values.contains(&"1011"), "{values:?}");
    // The .gtkw draws it reversed, lane 0 first: 1101.
    let shown: String = "1011".chars().rev().collect();
    assert_eq!(shown, "1101");
    let gtkw = std::fs::read_to_string(run.gtkw.unwrap()).unwrap();
    let at = gtkw
        .find("spm$0(lane0:3)")
        .expect("the mask's name says where lane 0 is");
    let flags = gtkw[..at]
        .lines()
        .rev()
        .find(|l| l.starts_with('@'))
        .unwrap();
    let flags = u32::from_str_radix(&flags[1..], 16).unwrap();
    assert_eq!(
        flags & 0x80,
        0x80,
        "GTKWave's reversed bit order (lane 0 left)"
    );
    assert!(gtkw.contains("-masks: lane 0 on the left"));
}

/// `fst2vcd FILE` (ships with gtkwave).
fn fst2vcd(fst: &Path) -> String {
    let out = Command::new("fst2vcd").arg(fst).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// The `$var` names of a VCD text, sorted.
fn var_names(vcd: &str) -> Vec<String> {
    let mut v: Vec<String> = vcd
        .lines()
        .filter(|l| l.trim_start().starts_with("$var"))
        .filter_map(|l| l.split_whitespace().nth(4).map(String::from))
        .collect();
    v.sort();
    v
}

#[test]
fn fst_waveforms_are_written_and_read_back() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    let (code, _, err) = rtgpu(&["tb", "counter", "--cycles", "60", "--out", d, "--fst"]);
    assert_eq!(code, 0, "{err}");
    let fst = dir.path().join("counter.fst");
    assert!(fst.is_file() && !dir.path().join("counter.vcd").exists());
    let gtkw = std::fs::read_to_string(dir.path().join("counter.gtkw")).unwrap();
    assert!(gtkw.contains("[dumpfile] \"counter.fst\""));
    let vcd_dir = tempfile::tempdir().unwrap();
    let v = vcd_dir.path().to_str().unwrap();
    assert_eq!(rtgpu(&["tb", "counter", "--cycles", "60", "--out", v]).0, 0);
    let direct = std::fs::read_to_string(vcd_dir.path().join("counter.vcd")).unwrap();
    let back = fst2vcd(&fst);
    assert_eq!(var_names(&back), var_names(&direct));
    assert_eq!(last_change(&back), last_change(&direct));
    assert!(last_change(&back) >= 59_000, "every cycle is there");
    // The Verilator engine writes FST itself (--trace-fst): no VCD on the way.
    let vl = tempfile::tempdir().unwrap();
    let v = vl.path().to_str().unwrap();
    let args = [
        "tb",
        "counter",
        "--cycles",
        "60",
        "--out",
        v,
        "--fst",
        "--engine",
        "verilator",
    ];
    let (code, _, err) = rtgpu(&args);
    assert_eq!(code, 0, "{err}");
    let names: Vec<_> = std::fs::read_dir(vl.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    assert!(!names.iter().any(|n| n.ends_with(".vcd")), "{names:?}");
    let back = fst2vcd(&vl.path().join("counter.fst"));
    assert!(
        back.contains("$scope module vtop $end") && back.contains(" count "),
        "{back}"
    );
    let gtkw = std::fs::read_to_string(vl.path().join("counter.gtkw")).unwrap();
    assert!(gtkw.contains("[dumpfile] \"counter.fst\"") && gtkw.contains("dut.count"));
    // The behavioural model: a .fst name on --vcd.
    let run_fst = dir.path().join("fig2.fst");
    let (code, _, err) = rtgpu(&[
        "run",
        &kernel("fig2_divergent.s"),
        "--grid",
        "64",
        "--vcd",
        run_fst.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let back = fst2vcd(&run_fst);
    assert!(back.contains("issue_ctx") && back.contains("exec"));
    assert!(!dir.path().join("fig2.fst.vcd").exists());
}

/// The last timestamp of a VCD text that some value changes at.
fn last_change(vcd: &str) -> u64 {
    let mut now = 0;
    let mut last = 0;
    for l in vcd.lines().skip_while(|l| !l.contains("$enddefinitions")) {
        match l.strip_prefix('#') {
            Some(t) => now = t.trim().parse().unwrap(),
            None if !l.starts_with('$') && !l.trim().is_empty() => last = now,
            None => {}
        }
    }
    last
}

/// The timestamps of a VCD text.
fn times(vcd: &str) -> Vec<u64> {
    vcd.lines()
        .filter_map(|l| l.strip_prefix('#'))
        .filter_map(|t| t.parse().ok())
        .collect()
}

#[test]
fn vcd_window_limits_harness_and_behavioural_waveforms() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    let args = [
        "tb",
        "counter",
        "--cycles",
        "100",
        "--out",
        d,
        "--vcd-window",
        "20:30",
    ];
    let (code, _, err) = rtgpu(&args);
    assert_eq!(code, 0, "{err}");
    let t = times(&std::fs::read_to_string(dir.path().join("counter.vcd")).unwrap());
    assert_eq!(t.first(), Some(&20_000), "{t:?}");
    assert!(*t.last().unwrap() <= 31_000, "{t:?}");
    let (start, _) = view(&std::fs::read_to_string(dir.path().join("counter.gtkw")).unwrap());
    assert_eq!(start, 20_000);
    let vcd = dir.path().join("fig2.vcd");
    let (code, _, err) = rtgpu(&[
        "run",
        &kernel("fig2_divergent.s"),
        "--vcd",
        vcd.to_str().unwrap(),
        "--vcd-window",
        "100:150",
    ]);
    assert_eq!(code, 0, "{err}");
    let t = times(&std::fs::read_to_string(&vcd).unwrap());
    assert_eq!(t.first(), Some(&100_000), "{t:?}");
    assert!(*t.last().unwrap() <= 151_000, "{t:?}");
}
