//! The compute unit's RTL top (`hw/src/cu_top/`) against the behavioural compute unit: the
//! same kernel and launch on both, under the Verilator engine; every issue (cycle, wavefront,
//! PC), the launch's cycles and its end must be equal.

use rtgpu_firmware::isa::assemble;
use rtgpu_hw::sched::model::Policy;
use rtgpu_testbench::cu::rtl_top::{first_difference, run_behavioural, run_rtl, TopLaunch};
use rtgpu_testbench::sim::vl::Engine;

const LIMIT: u64 = 20_000;

fn kernel(name: &str) -> Vec<u32> {
    let path = format!(
        "{}/../firmware/kernels/rtl/{name}.s",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).unwrap();
    assemble(&text, name).unwrap().words()
}

fn launch(grid: u32, wg: u32, policy: Policy) -> TopLaunch {
    TopLaunch {
        grid,
        wg,
        kernarg: 0x1_0000_2000,
        policy,
    }
}

/// Runs `name` on both sides for every policy and grid; each run must issue at least `min`
/// instructions.
fn lock_step(name: &str, min: usize) {
    let code = kernel(name);
    for policy in [Policy::Lrr, Policy::Rr, Policy::Gto] {
        for (grid, wg) in [(512, 128), (192, 64), (300, 100)] {
            let l = launch(grid, wg, policy);
            let b = run_behavioural(&code, &l, LIMIT).unwrap();
            let r = run_rtl(&code, &l, Engine::Verilator, LIMIT).unwrap();
            assert!(
                b.issues.len() > min,
                "{policy:?}: {} issues",
                b.issues.len()
            );
            if let Some(d) = first_difference(&b, &r) {
                panic!("{name} {policy:?} grid {grid} wg {wg}: {d}");
            }
        }
    }
}

/// `scalar_loop` (four work-groups of two wavefronts on four contexts, so work-groups wait
/// for slots; data-dependent loops and branches on SCC, EXEC and `s_setpc_b64`) under the
/// three policies: the RTL top issues what the behavioural unit issues, cycle for cycle.
#[test]
fn scalar_kernels_issue_as_the_behavioural_unit() {
    lock_step("scalar_loop", 80);
}

/// `valu_mix`: vector instructions over the VALU's four quarters (VOP1/VOP2/VOP3/VOPC,
/// carries, `v_cndmask_b32` from VCC and a pair, `v_cmpx`, `v_readfirstlane_b32`, a
/// literal), whose results decide loop counts and branches: the same issues, cycle for cycle.
#[test]
fn vector_kernels_issue_as_the_behavioural_unit() {
    lock_step("valu_mix", 200);
}

/// Both kernels on rust-hdl's own simulation of the top (the cycle harness, not Verilator),
/// one work-group of two wavefronts: the same issues as the behavioural unit. The two
/// engines evaluate the same design independently; a Verilator build that settles the
/// top's combinational logic wrongly (one did, after a split of the top into more
/// sub-blocks: the dispatcher sent two wavefronts to one slot) disagrees here.
#[test]
fn the_harness_engine_agrees() {
    for name in ["scalar_loop", "valu_mix"] {
        let code = kernel(name);
        let l = launch(128, 128, Policy::Gto);
        let b = run_behavioural(&code, &l, LIMIT).unwrap();
        let r = run_rtl(&code, &l, Engine::Harness, LIMIT).unwrap();
        if let Some(d) = first_difference(&b, &r) {
            panic!("{name} on the harness engine: {d}");
        }
    }
}

/// `rtgpu tb cu_top`: the code load through the code port and one launch of `scalar_loop`,
/// every cycle of the RTL's launch against the behavioural unit's (issue and busy), with a
/// waveform whose markers name the launch, the eight dispatches and the end, and whose issue
/// group shows the instruction at the PC through the disassembler.
#[test]
fn the_testbench_launches_scalar_loop_as_the_behavioural_unit_runs_it() {
    use rtgpu_testbench::tb::{self, TbOptions};
    let dir = tempfile::tempdir().unwrap();
    let t = tb::find("cu_top").unwrap();
    let run = t
        .run(&TbOptions {
            waves_dir: Some(dir.path().to_path_buf()),
            ..TbOptions::default()
        })
        .unwrap_or_else(|e| panic!("{e}"));
    // 8 wavefronts of scalar_loop on 4 contexts: 254 cycles, 252 instructions.
    assert!(
        run.summary.contains("launch of 254 cycles") && run.summary.contains("(252 instructions)"),
        "{}",
        run.summary
    );
    let gtkw = std::fs::read_to_string(run.gtkw.unwrap()).unwrap();
    let markers: Vec<&str> = gtkw
        .lines()
        .filter_map(|l| l.strip_prefix("[markername] "))
        .collect();
    assert_eq!(
        markers.iter().filter(|m| m.contains("dispatch wg")).count(),
        8
    );
    assert!(markers.iter().any(|m| m.ends_with("launch")), "{markers:?}");
    assert!(
        markers.last().unwrap().ends_with("busy falls"),
        "{markers:?}"
    );
    let g_w0 = gtkw.find("cu_top.g_w0").unwrap();
    assert!(
        gtkw[..g_w0].ends_with("rtgpu disasm --gtkwave-filter\n"),
        "{gtkw}"
    );
}
