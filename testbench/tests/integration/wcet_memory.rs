//! The WCET bound with the memory hierarchy on (`rtgpu wcet --memory hierarchy`): every
//! kernel of the input sweep and generated kernels with input-dependent timing, every mode,
//! S and scheduler, the bound computed once and random inputs simulated on the hierarchy;
//! and the mutations the runs catch.

use super::wcet::{all_kernels, case, generated, kernel_dir, sweep_case, Kernel, SWEEP};
use rtgpu_firmware::gen_kernel::GenOptions;
use rtgpu_firmware::isa::assemble;
use rtgpu_hw::cu::Mode;
use rtgpu_testbench::cu::wcet::graph::Graph;
use rtgpu_testbench::cu::wcet::inputs::run_inputs;
use rtgpu_testbench::cu::wcet::lanes::lines_per_access;
use rtgpu_testbench::cu::wcet::memory::CONFIG;
use rtgpu_testbench::cu::wcet::{analyze, analyze_mutated, load_with_facts, observe, WcetCase};

/// `k` in configuration `conf` with the hierarchy on.
fn hier_case(k: &Kernel, conf: (Mode, u32, rtgpu_hw::sched::model::Policy)) -> WcetCase {
    let mut c = sweep_case(k, conf);
    c.cfg.memory.hierarchy = true;
    c.seed = 2000;
    c
}

/// The kernels of the sweep and two generated kernels whose timing depends on the input.
pub(crate) fn kernels() -> Vec<(String, Kernel)> {
    let gen = GenOptions {
        inputs: true,
        ..GenOptions::default()
    };
    all_kernels()
        .into_iter()
        .chain((0..2).map(|s| (format!("generated {s}"), generated(300 + s, &gen))))
        .collect()
}

/// Every kernel × configuration, `n` random inputs each on the hierarchy: no violation.
/// Returns the largest tightness (bound / worst observed).
fn sweep_hierarchy(n: u64) -> f64 {
    let mut loosest: f64 = 0.0;
    for (name, k) in kernels() {
        for conf in SWEEP {
            let c = hier_case(&k, conf);
            let what = format!("{name} {:?} S={} {:?}", c.mode, c.s, c.policy);
            let a = analyze(&c).unwrap_or_else(|e| panic!("{what}: analysis: {e}"));
            let r = run_inputs(&c, &a, None, n, &|| {}).unwrap_or_else(|e| panic!("{what}: {e}"));
            assert!(
                r.violations.is_empty(),
                "{what}: bound {} exceeded: {:?}",
                a.wcet,
                r.violations
            );
            println!("{what}: bound {} worst {}", a.wcet, r.worst);
            loosest = loosest.max(r.tightness);
        }
    }
    loosest
}

/// Safety on the hierarchy, short: every kernel, mode, S and scheduler, 2 random inputs.
/// (Mutation: the access bound without the DRAM and the queueing, below, is exceeded.)
#[test]
fn wcet_bound_holds_on_the_memory_hierarchy() {
    let t = sweep_hierarchy(2);
    assert!(t >= 1.0, "{t}");
}

/// Safety on the hierarchy, long: 1,000 random inputs per kernel and configuration
/// (`cargo test --release -p rtgpu-testbench --test integration wcet_memory:: -- --ignored
/// --nocapture`).
#[test]
#[ignore]
fn wcet_memory_inputs_long() {
    println!("loosest tightness {:.2}", sweep_hierarchy(1000));
}

/// The mutations the runs on the hierarchy catch, on fig2 (954 cycles on the hierarchy):
/// the bound with fixed latencies (the hierarchy left out: 322), and the access bound without
/// the DRAM controller's worst case, the queueing behind the other wavefronts and refresh
/// (only the crossings, the controller's latency to `done` and the L1 kept).
#[test]
fn the_hierarchy_left_out_of_the_bound_is_caught() {
    let k = load_with_facts(&kernel_dir().join("fig2_divergent.s")).unwrap();
    let mut c = case(&k, k.1.dims, Mode::Pws, 1);
    let fixed = analyze(&c).unwrap();
    c.cfg.memory.hierarchy = true;
    let o = observe(&c, &fixed).unwrap();
    assert!(!o.within, "fixed-latency bound {} held: {o:?}", fixed.wcet);
    let no_dram = analyze_mutated(&c, &|_| {}, &|m| {
        m.access = m.fixed;
        m.accept = CONFIG;
    })
    .unwrap();
    let o = observe(&c, &no_dram).unwrap();
    assert!(!o.within, "bound {} without DRAM held: {o:?}", no_dram.wcet);
    let full = analyze(&c).unwrap();
    assert!(observe(&c, &full).unwrap().within);
}

fn lines(src: &str) -> Vec<u64> {
    let g = Graph::new(&assemble(src, "t").unwrap().words()).unwrap();
    lines_per_access(&g, 64)
        .into_iter()
        .filter(|&l| l > 0)
        .collect()
}

/// `base + 4 · v0` (fig2's addresses): 2 high halves × 2 runs × 3 lines; an address loaded
/// from memory, or computed after an EXEC change, is one line per lane. (Mutation: `Carry`
/// counted as one high half gives 6.)
#[test]
fn affine_addresses_are_a_few_lines_and_loaded_ones_one_per_lane() {
    let head = "v_lshlrev_b32 v1, 2, v0\nv_mov_b32 v3, s9\nv_add_u32 v2, vcc, s8, v1\n\
                v_addc_u32 v3, vcc, 0, v3, vcc\n";
    assert_eq!(
        lines(&format!("{head}flat_load_dword v6, v[2:3]\ns_endpgm\n")),
        [12]
    );
    let loaded = format!(
        "{head}flat_load_dword v2, v[2:3]\ns_waitcnt vmcnt(0)\n\
         flat_load_dword v6, v[2:3]\ns_endpgm\n"
    );
    assert_eq!(lines(&loaded), [12, 64]);
    let masked = format!(
        "v_cmp_gt_u32 vcc, 5, v0\ns_and_saveexec_b64 s[20:21], vcc\n{head}\
         flat_load_dword v6, v[2:3]\ns_endpgm\n"
    );
    assert_eq!(lines(&masked), [64]);
}
