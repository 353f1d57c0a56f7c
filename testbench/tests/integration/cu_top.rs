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

/// `scalar_loop` (four work-groups of two wavefronts on four contexts, so work-groups wait
/// for slots; data-dependent loops and branches on SCC, EXEC and `s_setpc_b64`) under the
/// three policies: the RTL top issues what the behavioural unit issues, cycle for cycle.
#[test]
fn scalar_kernels_issue_as_the_behavioural_unit() {
    let code = kernel("scalar_loop");
    for policy in [Policy::Lrr, Policy::Rr, Policy::Gto] {
        for (grid, wg) in [(512, 128), (192, 64), (300, 100)] {
            let l = launch(grid, wg, policy);
            let b = run_behavioural(&code, &l, LIMIT).unwrap();
            let r = run_rtl(&code, &l, Engine::Verilator, LIMIT).unwrap();
            assert!(b.issues.len() > 80, "{policy:?}: {} issues", b.issues.len());
            if let Some(d) = first_difference(&b, &r) {
                panic!("{policy:?} grid {grid} wg {wg}: {d}");
            }
        }
    }
}
