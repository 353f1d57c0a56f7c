//! The engine on small hand-written designs: values through the buses, clocks, the cache,
//! and every failure as an error value.

use rtgpu_verilator::{build, BuildError, BuildOptions, Design, Dir, Model, Port, Tools, Trace};
use std::path::Path;

fn port(name: &str, width: usize, dir: Dir) -> Port {
    Port {
        name: name.into(),
        width,
        dir,
    }
}

/// An accumulator with a 70-bit output (a word-array port), a `$stop` on a magic input and
/// a `$`-named port as rust-hdl emits them.
fn accumulator() -> Design {
    let verilog = r#"
module top(clock, reset, add$0, stop, sum, wide, odd);
    input wire clock;
    input wire reset;
    input wire [15:0] add$0;
    input wire stop;
    output reg [31:0] sum;
    output wire [69:0] wide;
    output wire odd;
    assign wide = {6'b101010, 32'hdeadbeef, sum};
    assign odd = sum[0];
    always @(posedge clock) begin
        if (reset) sum <= 32'd0; else sum <= sum + {16'd0, add$0};
        if (stop) $stop;
    end
endmodule
"#;
    Design {
        name: "accumulator".into(),
        verilog: verilog.into(),
        ports: vec![
            port("clock", 1, Dir::Clock),
            port("reset", 1, Dir::In),
            port("add$0", 16, Dir::In),
            port("stop", 1, Dir::In),
            port("sum", 32, Dir::Out),
            port("wide", 70, Dir::Out),
            port("odd", 1, Dir::Out),
        ],
    }
}

fn opts(dir: &Path, trace: bool) -> BuildOptions {
    BuildOptions {
        cache_dir: dir.to_path_buf(),
        trace,
        fst: false,
        tools: Tools::default(),
        quick: false,
    }
}

/// `o` with tools that do not exist: a build that starts one fails with `ToolMissing`.
fn without_tools(o: BuildOptions) -> BuildOptions {
    BuildOptions {
        tools: Tools {
            verilator: "/nonexistent/verilator".into(),
            make: "/nonexistent/make".into(),
            cxx: "/nonexistent/g++".into(),
        },
        ..o
    }
}

/// One cycle: inputs with the clock low, eval, then the rising edge.
fn cycle(m: &mut Model, t: u64, add: u64, stop: bool) -> Result<(), rtgpu_verilator::ModelError> {
    let l = m.layout().clone();
    rtgpu_verilator::put_u64(m.inputs_mut(), l.offsets[1], 1, 0);
    rtgpu_verilator::put_u64(m.inputs_mut(), l.offsets[2], 16, add);
    rtgpu_verilator::put_u64(m.inputs_mut(), l.offsets[3], 1, u64::from(stop));
    m.set_clock(0, false);
    m.eval(2 * t)?;
    m.set_clock(0, true);
    m.eval(2 * t + 1)
}

#[test]
fn a_model_counts_reads_wide_ports_caches_and_stops_with_a_message() {
    let cache = tempfile::tempdir().unwrap();
    let built = build(&accumulator(), &opts(cache.path(), true)).unwrap();
    assert!(!built.cached);
    let vcd = cache.path().join("acc.vcd");
    let trace = Trace {
        path: vcd.clone(),
        from: 0,
        to: u64::MAX,
        scopes: Vec::new(),
    };
    let mut m = Model::new(&built, Some(trace)).unwrap();
    let l = m.layout().clone();
    let mut expect = 0u64;
    for t in 0..100 {
        cycle(&mut m, t, t * 7 + 1, false).unwrap();
        expect += t * 7 + 1;
        m.set_clock(0, false);
        m.eval(2 * t + 2).unwrap();
        let out = m.outputs();
        assert_eq!(rtgpu_verilator::get_u64(out, l.offsets[4], 32), expect);
        assert_eq!(
            rtgpu_verilator::get_u64(out, l.offsets[5] + 32, 32),
            0xdead_beef
        );
        assert_eq!(
            rtgpu_verilator::get_u64(out, l.offsets[5] + 64, 6),
            0b10_1010
        );
        assert_eq!(rtgpu_verilator::get_u64(out, l.offsets[6], 1), expect & 1);
    }
    // `$stop` ends the run with a message, and the model stays stopped.
    let e = cycle(&mut m, 100, 0, true).unwrap_err();
    assert!(e.message.contains("$stop"), "{e}");
    assert!(cycle(&mut m, 101, 0, false).is_err());
    drop(m);
    assert!(std::fs::read_to_string(&vcd).unwrap().contains("sum"));

    // The second build starts no tool: with tools that do not exist it still succeeds.
    let missing = without_tools(opts(cache.path(), true));
    let again = build(&accumulator(), &missing).unwrap();
    assert!(again.cached);
    // A new design with those tools: a clear error naming the tool and the fix.
    let mut other = accumulator();
    other.verilog.push_str("// another design\n");
    let e = build(&other, &missing).unwrap_err();
    assert!(matches!(e, BuildError::ToolMissing { .. }), "{e}");
    assert!(e.to_string().contains("run scripts/setup"), "{e}");
}

#[test]
fn verilog_that_does_not_verilate_names_the_design_and_the_first_message() {
    let cache = tempfile::tempdir().unwrap();
    let mut bad = accumulator();
    bad.name = "broken".into();
    bad.verilog = bad.verilog.replace("sum + {16'd0, add$0}", "sum + nosuch");
    let e = build(&bad, &opts(cache.path(), false)).unwrap_err();
    let text = e.to_string();
    assert!(matches!(e, BuildError::Verilate { .. }), "{text}");
    assert!(text.starts_with("broken:"), "{text}");
    assert!(text.contains("%Error") && text.contains("nosuch"), "{text}");
}

/// A counter whose evaluation crashes (Verilator's inline C++, `$c`) on the rising edge
/// where `crash` is not 0, with the signal it selects: 1 SIGSEGV (a store through a null
/// pointer), 2 SIGBUS (a read of a shared mapping past the end of its empty file), 3 SIGFPE
/// (an integer division by zero), 4 SIGILL (an undefined instruction, `ud2`).
fn crasher() -> Design {
    let verilog = r#"
module top(clock, crash, count);
    input wire clock;
    input wire [2:0] crash;
    output reg [31:0] count;
`systemc_imp_header
#include <sys/mman.h>
`verilog
    always @(posedge clock) begin
        count <= count + 32'd1;
        if (crash == 3'd1) $c("*(volatile int*)0 = 0;");
        if (crash == 3'd2) $c("{ volatile char* p = (volatile char*)mmap(nullptr, 4096, PROT_READ, MAP_SHARED, memfd_create(\"rtv\", 0), 0); (void)p[0]; }");
        if (crash == 3'd3) $c("{ volatile int z = 0; volatile int q = 1 / z; (void)q; }");
        if (crash == 3'd4) $c("__builtin_trap();");
    end
endmodule
"#;
    Design {
        name: "crasher".into(),
        verilog: verilog.into(),
        ports: vec![
            port("clock", 1, Dir::Clock),
            port("crash", 3, Dir::In),
            port("count", 32, Dir::Out),
        ],
    }
}

/// `cycles` rising edges with `crash` low, then one with `crash` as given (a SIGSEGV).
fn edges(m: &mut Model, cycles: u64, crash: bool) -> Result<u64, rtgpu_verilator::ModelError> {
    edges_then(m, cycles, u64::from(crash))
}

/// `cycles` rising edges with `crash` 0, then one with `crash` = `kind`.
fn edges_then(m: &mut Model, cycles: u64, kind: u64) -> Result<u64, rtgpu_verilator::ModelError> {
    let l = m.layout().clone();
    for t in 0..=cycles {
        let c = if t == cycles { kind } else { 0 };
        rtgpu_verilator::put_u64(m.inputs_mut(), l.offsets[1], 3, c);
        m.set_clock(0, false);
        m.eval(1000 * t)?;
        m.set_clock(0, true);
        m.eval(1000 * t + 500)?;
    }
    Ok(rtgpu_verilator::get_u64(m.outputs(), l.offsets[2], 32))
}

#[test]
fn a_crash_in_the_model_is_an_error_naming_the_signal_and_the_process_lives_on() {
    let cache = tempfile::tempdir().unwrap();
    let built = build(&crasher(), &opts(cache.path(), false)).unwrap();
    let mut first = Model::new(&built, None).unwrap();
    assert_eq!(edges(&mut first, 9, false).unwrap(), 10);
    let e = edges(&mut first, 3, true).unwrap_err();
    assert!(e.crashed, "{e}");
    let text = e.to_string();
    assert!(
        text.starts_with("crasher: the Verilated model crashed: SIGSEGV"),
        "{text}"
    );
    // The instance is dead: the same error again, without evaluating.
    assert_eq!(first.eval(99_000).unwrap_err(), e);
    // Other instances in the process still work, and a second crash is caught as well (the
    // signal was unblocked after the first).
    let mut second = Model::new(&built, None).unwrap();
    assert_eq!(edges(&mut second, 4, false).unwrap(), 5);
    assert!(edges(&mut second, 0, true).unwrap_err().crashed);
    let mut third = Model::new(&built, None).unwrap();
    assert_eq!(edges(&mut third, 6, false).unwrap(), 7);
    drop((first, second));
    assert_eq!(edges(&mut third, 0, false).unwrap(), 8);
}

/// SIGBUS, SIGFPE and SIGILL take the same path as SIGSEGV: each crash is an error of its
/// instance naming the signal, and the process (and a fresh instance) lives on. Mutation:
/// dropping a signal from the handler's list ends the test process with that signal.
#[test]
fn bus_errors_arithmetic_faults_and_illegal_instructions_are_errors_too() {
    let cache = tempfile::tempdir().unwrap();
    let built = build(&crasher(), &opts(cache.path(), false)).unwrap();
    for (kind, name) in [(2, "SIGBUS"), (3, "SIGFPE"), (4, "SIGILL")] {
        let mut m = Model::new(&built, None).unwrap();
        assert_eq!(edges_then(&mut m, 2, 0).unwrap(), 3);
        let e = edges_then(&mut m, 1, kind).unwrap_err();
        assert!(e.crashed, "{name}: {e}");
        assert!(e.message.starts_with(name), "{name}: {e}");
        let mut fresh = Model::new(&built, None).unwrap();
        assert_eq!(edges_then(&mut fresh, 4, 0).unwrap(), 5, "after {name}");
    }
}

/// Sets the accumulator's inputs (reset low).
fn drive(m: &mut Model, add: u64, stop: bool) {
    let l = m.layout().clone();
    rtgpu_verilator::put_u64(m.inputs_mut(), l.offsets[1], 1, 0);
    rtgpu_verilator::put_u64(m.inputs_mut(), l.offsets[2], 16, add);
    rtgpu_verilator::put_u64(m.inputs_mut(), l.offsets[3], 1, u64::from(stop));
}

/// `Model::cycle` is two evaluations in one foreign call: the outputs before the edge and
/// after it equal a second instance's driven edge by edge, and a `$stop` or a crash inside
/// it is the same error as from `eval`. (Mutation caught: `rtv_cycle` evaluating its second
/// edge with the `low` clock levels never adds, and the sums differ.)
#[test]
fn one_call_per_cycle_equals_two_evaluations() {
    let cache = tempfile::tempdir().unwrap();
    let built = build(&accumulator(), &opts(cache.path(), false)).unwrap();
    let (mut one, mut two) = (
        Model::new(&built, None).unwrap(),
        Model::new(&built, None).unwrap(),
    );
    let sum_at = one.layout().offsets[4];
    let mut after = vec![0; one.outputs().len()];
    let mut expect = 0;
    for t in 0..50 {
        let add = t * 13 + 5;
        drive(&mut one, add, false);
        drive(&mut two, add, false);
        one.cycle((0, 1), (2 * t, 2 * t + 1), Some(&mut after))
            .unwrap();
        two.set_clock(0, false);
        two.eval(2 * t).unwrap();
        assert_eq!(one.outputs(), two.outputs(), "before edge {t}");
        two.set_clock(0, true);
        two.eval(2 * t + 1).unwrap();
        assert_eq!(after, two.outputs(), "after edge {t}");
        expect += add;
        assert_eq!(rtgpu_verilator::get_u64(&after, sum_at, 32), expect);
    }
    drive(&mut one, 0, true);
    let e = one.cycle((0, 1), (100, 101), None).unwrap_err();
    assert!(e.message.contains("$stop") && !e.crashed, "{e}");
    assert_eq!(one.cycle((0, 1), (102, 103), None).unwrap_err(), e);

    let built = build(&crasher(), &opts(cache.path(), false)).unwrap();
    let mut m = Model::new(&built, None).unwrap();
    let crash_at = m.layout().offsets[1];
    rtgpu_verilator::put_u64(m.inputs_mut(), crash_at, 1, 1);
    let e = m.cycle((0, 1), (1000, 1500), None).unwrap_err();
    assert!(e.crashed && e.message.contains("SIGSEGV"), "{e}");
}

/// A build waits while another process holds the model's build lock (`HASH.lock` beside its
/// directory) and then uses the model that process built: with tools that do not exist it
/// succeeds, found in the cache. Without the lock it would start Verilator at once and fail
/// (`ToolMissing`), as two `rtgpu` processes used to build one large model twice.
#[test]
fn a_build_waits_for_another_process_building_the_same_model() {
    let first = tempfile::tempdir().unwrap();
    let built = build(&accumulator(), &opts(first.path(), false)).unwrap();
    let key = built.dir.file_name().unwrap().to_owned();
    let cache = tempfile::tempdir().unwrap();
    // "The other process": holds the lock while it builds.
    let lock = std::fs::File::create(cache.path().join(&key).with_extension("lock")).unwrap();
    lock.lock().unwrap();
    let missing = without_tools(opts(cache.path(), false));
    let waiter = std::thread::spawn(move || build(&accumulator(), &missing).map(|b| b.cached));
    std::thread::sleep(std::time::Duration::from_millis(500));
    assert!(!waiter.is_finished(), "the build did not wait for the lock");
    // The other process finishes its build and lets go.
    let status = std::process::Command::new("cp")
        .arg("-r")
        .arg(&built.dir)
        .arg(cache.path().join(&key))
        .status()
        .unwrap();
    assert!(status.success());
    drop(lock);
    assert!(waiter.join().unwrap().unwrap(), "found in the cache");
}
