//! The Verilator engine under the testbenches: the same testbenches pass on it as on the
//! harness, built models come from the cache, and a port list that does not match the
//! block's Verilog is a clear error naming the block.

use rtgpu_testbench::sim::vl::{Engine, VlEngine, VlOptions};
use rtgpu_testbench::tb::{self, TbOptions};
use rust_hdl::core::prelude::*;
use rust_hdl::widgets::prelude::DFF;

/// Small blocks (the big tops run through the CLI in scripts/test): the counter, the
/// split/merge decode stage, the 64-warp scheduler and the L1 give the harness's summary
/// line, i.e. the RTL equals the model every cycle on the same random stimulus.
#[test]
fn small_block_testbenches_pass_on_verilator_as_on_the_harness() {
    for name in ["counter", "decode", "sched", "l1-cache"] {
        let t = tb::find(name).unwrap();
        let harness = t.run(&TbOptions::default()).unwrap();
        let opts = TbOptions {
            engine: Engine::Verilator,
            ..TbOptions::default()
        };
        let vl = t.run(&opts).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(vl.summary, harness.summary, "{name}");
        assert_eq!(vl.cycles, harness.cycles, "{name}");
    }
}

/// A 64-bit accumulator, listed with one port missing.
#[derive(LogicBlock, Default)]
struct Acc {
    clock: Signal<In, Clock>,
    add: Signal<In, Bits<8>>,
    sum: Signal<Out, Bits<64>>,
    total: DFF<Bits<64>>,
}

impl Logic for Acc {
    #[hdl_gen]
    fn update(&mut self) {
        self.total.clock.next = self.clock.val();
        self.total.d.next = self.total.q.val() + bit_cast::<64, 8>(self.add.val());
        self.sum.next = self.total.q.val();
    }
}

rtgpu_testbench::vl_ports!([] Acc { clock, sum });

#[test]
fn a_port_list_that_misses_a_port_names_the_block_and_the_port() {
    let e = VlEngine::new(&mut Acc::default(), "acc", &VlOptions::default())
        .err()
        .expect("an error");
    assert!(e.starts_with("acc:"), "{e}");
    assert!(e.contains("not listed: [\"add\"]"), "{e}");
}

#[test]
fn a_second_build_of_a_block_comes_from_the_cache() {
    let opts = VlOptions::default();
    let first = VlEngine::new(&mut tb::Counter32::default(), "counter", &opts).unwrap();
    let second = VlEngine::new(&mut tb::Counter32::default(), "counter", &opts).unwrap();
    drop(first);
    assert!(second.cached(), "the second build reuses the model");
}

/// A block whose only difference from another is a constant's value.
#[derive(LogicBlock)]
struct Const {
    out: Signal<Out, Bits<8>>,
    value: Constant<Bits<8>>,
}

impl Const {
    fn new(v: u64) -> Self {
        Const {
            out: Default::default(),
            value: Constant::new(v.to_bits()),
        }
    }
}

impl Logic for Const {
    #[hdl_gen]
    fn update(&mut self) {
        self.out.next = self.value.val();
    }
}

/// The Verilog memo: a block seen before is read back, not emitted again, and is exactly the
/// generator's text; two blocks that differ only in a constant's value, or only in their
/// `hdl()` body, get fingerprints and texts of their own. Mutations caught: a fingerprint
/// without the signals' values (the two constants collide), or without the `hdl()` bodies
/// (the accumulator and its mutant collide).
#[test]
fn the_verilog_memo_returns_the_generators_text_per_block_structure() {
    use rtgpu_testbench::sim::cosim::verilog_of;
    use rtgpu_testbench::sim::vl::memo;
    let dir = tempfile::tempdir().unwrap();
    let emitted = |b: &mut Const| {
        let mut calls = 0;
        let text = memo::verilog(b, dir.path(), |b| {
            calls += 1;
            verilog_of(b)
        })
        .unwrap();
        (text, calls)
    };
    let (one, calls) = emitted(&mut Const::new(1));
    assert_eq!(calls, 1, "the first sight emits");
    assert_eq!(one, verilog_of(&mut Const::new(1)).unwrap());
    let (again, calls) = emitted(&mut Const::new(1));
    assert_eq!(
        (again.as_str(), calls),
        (one.as_str(), 0),
        "the second is read back"
    );
    let (two, calls) = emitted(&mut Const::new(2));
    assert_eq!(calls, 1, "another constant is another block");
    assert_ne!(one, two);
    assert_eq!(two, verilog_of(&mut Const::new(2)).unwrap());
    let (mut acc, mut mutant) = (Acc::default(), AccMutant::default());
    acc.connect_all();
    mutant.connect_all();
    assert_ne!(memo::fingerprint(&acc), memo::fingerprint(&mutant));
}

/// [`Acc`] with one operator changed: the same signals, another body.
#[derive(LogicBlock, Default)]
struct AccMutant {
    clock: Signal<In, Clock>,
    add: Signal<In, Bits<8>>,
    sum: Signal<Out, Bits<64>>,
    total: DFF<Bits<64>>,
}

impl Logic for AccMutant {
    #[hdl_gen]
    fn update(&mut self) {
        self.total.clock.next = self.clock.val();
        self.total.d.next = self.total.q.val() - bit_cast::<64, 8>(self.add.val());
        self.sum.next = self.total.q.val();
    }
}

/// A Verilator waveform keeps the window asked for, and the testbench's `.gtkw` view names
/// signals that are in it.
#[test]
fn a_verilator_waveform_keeps_its_window_and_its_gtkw_view() {
    let dir = tempfile::tempdir().unwrap();
    let opts = TbOptions {
        engine: Engine::Verilator,
        waves_dir: Some(dir.path().to_path_buf()),
        vcd_window: (100_000, 199_999),
        ..TbOptions::default()
    };
    let run = tb::find("counter").unwrap().run(&opts).unwrap();
    let vcd = std::fs::read_to_string(run.vcd.unwrap()).unwrap();
    let times: Vec<u64> = vcd
        .lines()
        .filter_map(|l| l.strip_prefix('#')?.parse().ok())
        .collect();
    assert!(!times.is_empty());
    assert!(
        times.iter().all(|t| (100_000..=199_999).contains(t)),
        "{times:?}"
    );
    let gtkw = std::fs::read_to_string(run.gtkw.unwrap()).unwrap();
    assert!(gtkw.contains("TOP.vtop.dut.count"), "{gtkw}");
}

/// Two clock domains with a path between them: `b` adds `a`'s count on its own clock.
#[derive(LogicBlock, Default)]
struct TwoClocks {
    clk_a: Signal<In, Clock>,
    clk_b: Signal<In, Clock>,
    step: Signal<In, Bits<32>>,
    out_a: Signal<Out, Bits<32>>,
    out_b: Signal<Out, Bits<32>>,
    a: DFF<Bits<32>>,
    b: DFF<Bits<32>>,
}

impl Logic for TwoClocks {
    #[hdl_gen]
    fn update(&mut self) {
        self.a.clock.next = self.clk_a.val();
        self.b.clock.next = self.clk_b.val();
        self.a.d.next = self.a.q.val() + self.step.val();
        self.b.d.next = self.b.q.val() + self.a.q.val();
        self.out_a.next = self.a.q.val();
        self.out_b.next = self.b.q.val();
    }
}

rtgpu_testbench::vl_ports!([] TwoClocks { clk_a, clk_b, step, out_a, out_b });

/// Every cycle start of both domains: (domain, cycle, out_a, out_b), with inputs applied at
/// domain 0's cycle starts.
fn two_clock_trace(engine: Engine) -> Vec<(usize, u64, u64, u64)> {
    use rtgpu_testbench::sim::clock::Period;
    use rtgpu_testbench::sim::harness::Harness;
    let mut h =
        Harness::with_engine(TwoClocks::default(), "two", engine, &VlOptions::default()).unwrap();
    h.add_clock("a", Period::mhz(1000).unwrap(), |u| &mut u.clk_a)
        .unwrap();
    h.add_clock("b", Period::mhz(1600).unwrap(), |u| &mut u.clk_b)
        .unwrap();
    let mut seen = Vec::new();
    while h.now_ps() < 50_000 {
        h.step(&mut |u, ev| {
            if ev.domain == 0 {
                u.step.next = ((ev.cycle * 7 + 3) as u32 & 0xff).to_bits();
            }
            seen.push((ev.domain, ev.cycle, 0, 0));
        })
        .unwrap();
        if let Some(last) = seen.last_mut() {
            last.2 = h.uut().out_a.val().to_u64();
            last.3 = h.uut().out_b.val().to_u64();
        }
    }
    seen
}

/// Edges of two rational clocks are applied in time order, one evaluation per edge, and the
/// Verilated block sees exactly what rust-hdl sees.
#[test]
fn two_clock_domains_run_alike_on_both_engines() {
    let harness = two_clock_trace(Engine::Harness);
    assert!(harness.len() > 100 && harness.iter().any(|s| s.3 > 0));
    assert_eq!(two_clock_trace(Engine::Verilator), harness);
}

/// The signal paths a waveform declares (its header, read with the `vcd` crate).
fn declared(path: &std::path::Path) -> Vec<String> {
    rtgpu_testbench::sim::vl::vcd_signals(path)
        .unwrap()
        .iter()
        .map(|s| s.path())
        .collect()
}

/// `--vcd-scope`: the counter's register sub-block alone, asked for in either engine's form,
/// on both engines; the `.gtkw` keeps what was recorded.
#[test]
fn a_waveform_scope_keeps_only_the_signals_under_it_on_both_engines() {
    let cases = [
        (Engine::Harness, "counter.value", "counter.value."),
        (Engine::Harness, "TOP.vtop.dut.value", "counter.value."),
        (Engine::Verilator, "counter.value", "TOP.vtop.dut.value."),
        (
            Engine::Verilator,
            "TOP.vtop.dut.value",
            "TOP.vtop.dut.value.",
        ),
    ];
    for (engine, scope, under) in cases {
        let dir = tempfile::tempdir().unwrap();
        let opts = TbOptions {
            engine,
            cycles: 20,
            waves_dir: Some(dir.path().to_path_buf()),
            vcd_scopes: vec![scope.to_string()],
            ..TbOptions::default()
        };
        let run = tb::find("counter").unwrap().run(&opts).unwrap();
        let paths = declared(&run.vcd.unwrap());
        assert!(!paths.is_empty(), "{engine:?} {scope}");
        assert!(
            paths.iter().all(|p| p.starts_with(under)),
            "{engine:?} {scope}: {paths:?}"
        );
        let gtkw = std::fs::read_to_string(run.gtkw.unwrap()).unwrap();
        assert!(!gtkw.contains("count["), "{gtkw}");
    }
}

/// `rtgpu ARGS` run in the repository's root: exit code and stderr.
fn rtgpu(args: &[&str]) -> (i32, String) {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/..");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_rtgpu"))
        .current_dir(root)
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stderr).into(),
    )
}

/// An unknown scope is bad input on either engine, naming the top-level scopes in the
/// engine's form.
#[test]
fn an_unknown_waveform_scope_is_exit_2_naming_the_top_level_scopes() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().to_str().unwrap();
    for (engine, listed) in [
        ("harness", "counter, counter.value"),
        (
            "verilator",
            "TOP, TOP.vtop, TOP.vtop.dut, TOP.vtop.dut.value",
        ),
    ] {
        let args = [
            "tb",
            "counter",
            "--out",
            out,
            "--engine",
            engine,
            "--vcd-scope",
            "counter.nope",
        ];
        let (code, err) = rtgpu(&args);
        assert_eq!(code, 2, "{engine}: {err}");
        assert!(
            err.contains("counter.nope") && err.contains(listed),
            "{engine}: {err}"
        );
    }
    let (code, err) = rtgpu(&["tb", "counter", "--no-vcd", "--vcd-scope", "x"]);
    assert_eq!(code, 2, "{err}");
}

/// `rtgpu run --vcd`: the compute unit's waveform and each RTL block's keep what is in the
/// scopes; a scope in none of them is exit 2 naming the top-level scopes of both.
#[test]
fn run_waveforms_keep_their_scopes_in_the_compute_unit_and_the_verilated_blocks() {
    let dir = tempfile::tempdir().unwrap();
    let vcd = dir.path().join("fig2.vcd");
    let run = |scopes: &str| {
        rtgpu(&[
            "run",
            "firmware/kernels/fig2_divergent.s",
            "--rtl",
            "decode",
            "--engine",
            "verilator",
            "--vcd",
            vcd.to_str().unwrap(),
            "--vcd-scope",
            scopes,
        ])
    };
    let (code, err) = run("cu.g0.simd,TOP.vtop.dut");
    assert_eq!(code, 0, "{err}");
    // The system's file: the compute unit's scope, and the RTL block's recording merged in
    // under rtl.decode (what its own file kept).
    let all = declared(&vcd);
    let (cu, merged): (Vec<_>, Vec<_>) = all.iter().partition(|p| p.starts_with("cu."));
    assert!(
        !cu.is_empty() && cu.iter().all(|p| p.starts_with("cu.g0.simd.")),
        "{cu:?}"
    );
    assert!(
        !merged.is_empty() && merged.iter().all(|p| p.starts_with("rtl.decode.")),
        "{merged:?}"
    );
    let block = declared(&dir.path().join("fig2.rtl/decode.vcd"));
    assert!(
        !block.is_empty(),
        "the decode stage's waveform records its signals"
    );
    assert!(
        block.iter().all(|p| p.starts_with("TOP.vtop.dut.")),
        "{block:?}"
    );
    let (code, err) = run("decode.nope");
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("decode.nope") && err.contains("cu.g0") && err.contains("TOP.vtop.dut"),
        "{err}"
    );
}
