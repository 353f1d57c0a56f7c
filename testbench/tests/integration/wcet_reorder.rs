//! The WCET bound with the reordering unit on (`rtgpu wcet --reorder`): every kernel of the
//! input sweep and the memory sweep's two generated kernels, every mode, S and scheduler, the
//! bound computed once and random inputs simulated with the unit releasing in its static
//! order; the input-dependence analysis that decides where the static L1 estimate replaces
//! all-miss; and the mutations the runs catch.

use super::wcet::{kernel_dir, once_then_inputs, sweep_case, Kernel, SWEEP};
use super::wcet_memory::kernels;
use rtgpu_firmware::isa::assemble;
use rtgpu_firmware::pws_pass::{compile, Marks, PassMode, PassOptions};
use rtgpu_hw::cu::Mode;
use rtgpu_hw::sched::model::Policy;
use rtgpu_testbench::cu::wcet::graph::Graph;
use rtgpu_testbench::cu::wcet::loops::Known;
use rtgpu_testbench::cu::wcet::taint::{dependence, Dependence};
use rtgpu_testbench::cu::wcet::{
    analyze, analyze_reorder_mutated, load_with_facts, observe, WcetCase,
};

/// `k` in configuration `conf`, reordering on.
fn reorder_case(k: &Kernel, conf: (Mode, u32, Policy)) -> WcetCase {
    let mut c = sweep_case(k, conf);
    c.cfg.memory.hierarchy = true;
    c.reorder = true;
    c.seed = 3000;
    c
}

/// Tightness (bound / worst observed over the short sweep's inputs, the largest over the
/// configurations) kept from regressing: 10 % above what it was when written down
/// (docs/results.md#wcet-tightness-with-reordering).
const TIGHTNESS: [(&str, f64); 10] = [
    ("fig2_divergent.s", 9.5),
    ("fig5_nested.s", 9.2),
    ("lds_reduce.s", 8.9),
    ("loop.s", 4.7),
    ("synthetic.s", 187.0),
    ("vector_add.s", 2.9),
    ("guarded_heavy.s", 23.4),
    ("bfs_loop.s", 61.4),
    ("generated 0", 55.1),
    ("generated 1", 3.75),
];

/// Every kernel × configuration, `n` random inputs each with reordering on: no violation.
/// Returns per kernel the largest tightness.
fn sweep_reorder(n: u64) -> Vec<(String, f64)> {
    let mut out = Vec::new();
    for (name, k) in kernels() {
        let mut loosest: f64 = 0.0;
        for conf in SWEEP {
            let c = reorder_case(&k, conf);
            let what = format!("{name} {:?} S={} {:?}", c.mode, c.s, c.policy);
            let (bound, worst) = once_then_inputs(&c, n, &what);
            let tightness = bound as f64 / worst.max(1) as f64;
            println!("{what}: bound {bound} worst {worst} tightness {tightness:.2}");
            loosest = loosest.max(tightness);
        }
        out.push((name, loosest));
    }
    out
}

/// Safety with reordering, short: every kernel, mode, S and scheduler, 2 random inputs; and
/// the tightness per kernel kept from regressing. (Mutations: below.)
#[test]
fn wcet_bound_holds_with_reordering() {
    for (name, t) in sweep_reorder(2) {
        let file = name.rsplit('/').next().unwrap_or(&name);
        let (_, most) = TIGHTNESS
            .iter()
            .find(|(k, _)| *k == file)
            .unwrap_or_else(|| panic!("{file}: no tightness written down"));
        assert!(t >= 1.0 && t <= *most, "{file}: tightness {t:.2} > {most}");
    }
}

/// Safety with reordering, long: 1,000 random inputs per kernel and configuration
/// (`cargo test --release -p rtgpu-testbench --test integration wcet_reorder:: -- --ignored
/// --nocapture`).
#[test]
#[ignore]
fn wcet_reorder_inputs_long() {
    for (name, t) in sweep_reorder(1000) {
        println!("{name}: loosest tightness {t:.2}");
    }
}

fn vector_add() -> WcetCase {
    let k = load_with_facts(&kernel_dir().join("vector_add.s")).unwrap();
    reorder_case(&k, (Mode::NoSplit, 1, Policy::Gto))
}

/// The mutations the runs with reordering catch, on vector_add (its accesses are
/// input-independent: the estimator's misses): the memory work and the refreshes left out,
/// and only the unit's release cycles kept (every access's path to DRAM and back, and every
/// line, left out).
#[test]
fn reordering_left_out_of_the_bound_is_caught() {
    let c = vector_add();
    let full = analyze(&c).unwrap();
    let r = full.reorder.as_ref().unwrap();
    assert!(r.estimated && r.misses > 0, "{r:?}");
    assert!(observe(&c, &full).unwrap().within);
    let no_memory = analyze_reorder_mutated(&c, &|b| {
        b.memory = 0;
        b.refresh = 0;
    })
    .unwrap();
    let o = observe(&c, &no_memory).unwrap();
    assert!(
        !o.within,
        "bound {} without memory held: {o:?}",
        no_memory.wcet
    );
    let releases_only = analyze_reorder_mutated(&c, &|b| {
        b.memory = b.accesses * 15;
        b.refresh = 0;
    })
    .unwrap();
    let o = observe(&c, &releases_only).unwrap();
    assert!(!o.within, "bound {} held: {o:?}", releases_only.wcet);
}

fn dep(src: &str) -> Dependence {
    let code = assemble(src, "t").unwrap().words();
    let opts = PassOptions {
        mode: PassMode::NoSplit,
        s: 1,
        marks: Marks::Source,
    };
    let compiled = compile(&code, &opts).unwrap();
    let g = Graph::new(&compiled.code).unwrap();
    let args = vec![rtgpu_firmware::launch::Arg::Scalar(0); 8];
    let dims = rtgpu_firmware::launch::Dims { grid: 64, wg: 64 };
    let known = Known::of(&args, dims, &[], &[]);
    dependence(&g, compiled.structure.insns(), &known)
}

const HEAD: &str = "s_load_dwordx2 s[8:9], s[0:1], 0x0\ns_waitcnt lgkmcnt(0)\n\
                    v_lshlrev_b32 v1, 2, v0\nv_mov_b32 v3, s9\n\
                    v_add_u32 v2, vcc, s8, v1\nv_addc_u32 v3, vcc, 0, v3, vcc\n";

/// An address from the arguments and the lane is independent; one loaded from memory is not,
/// nor is an access under a mask compared on loaded data; restoring EXEC from a saved
/// copy makes it independent again. (Mutations: FLAT loads not marking their destination
/// (the second case passes as independent); EXEC only ever gaining dependence (the last case
/// is reported dependent).)
#[test]
fn input_dependence_of_addresses_and_masks() {
    let plain = dep(&format!("{HEAD}flat_load_dword v6, v[2:3]\ns_endpgm\n"));
    assert!(plain.independent(), "{plain:?}");
    let loaded = dep(&format!(
        "{HEAD}flat_load_dword v2, v[2:3]\ns_waitcnt vmcnt(0)\n\
         flat_load_dword v6, v[2:3]\ns_endpgm\n"
    ));
    assert_eq!(loaded.accesses.len(), 1, "{loaded:?}");
    assert_eq!(loaded.accesses[0].why, "address");
    let masked = format!(
        "{HEAD}flat_load_dword v6, v[2:3]\ns_waitcnt vmcnt(0)\n\
         s_mov_b64 s[16:17], exec\nv_cmp_lt_i32 vcc, 0, v6\ns_and_b64 exec, exec, vcc\n"
    );
    let under = dep(&format!(
        "{masked}flat_store_dword v[2:3], v6\ns_mov_b64 exec, s[16:17]\ns_endpgm\n"
    ));
    assert_eq!(under.accesses.len(), 1, "{under:?}");
    assert_eq!(under.accesses[0].why, "exec");
    let restored = dep(&format!(
        "{masked}v_mov_b32 v7, 1\ns_mov_b64 exec, s[16:17]\n\
         flat_store_dword v[2:3], v6\ns_endpgm\n"
    ));
    assert!(restored.independent(), "{restored:?}");
}

/// A loop counted by a loaded value repeats an access whose address and EXEC are
/// independent: its branch is listed; a branch on loaded data that skips no global access is
/// not. (Mutations: `controls_access` always false (the first is reported independent) or
/// always true (the second is listed).)
#[test]
fn a_branch_on_loaded_data_around_an_access_is_dependent() {
    let counted = format!(
        "{HEAD}flat_load_dword v6, v[2:3]\ns_waitcnt vmcnt(0)\nv_readfirstlane_b32 s20, v6\n\
         again:\nflat_load_dword v7, v[2:3]\ns_sub_u32 s20, s20, 1\ns_cmp_lg_u32 s20, 0\n\
         s_cbranch_scc1 again\ns_endpgm\n"
    );
    let d = dep(&counted);
    assert!(d.accesses.is_empty(), "{d:?}");
    assert_eq!(d.branches.len(), 1, "{d:?}");
    let skips_alu = format!(
        "{HEAD}flat_load_dword v6, v[2:3]\ns_waitcnt vmcnt(0)\nv_readfirstlane_b32 s20, v6\n\
         s_cmp_lg_u32 s20, 0\ns_cbranch_scc1 over\nv_mov_b32 v8, 1\nover:\n\
         flat_store_dword v[2:3], v0\ns_endpgm\n"
    );
    let d = dep(&skips_alu);
    assert!(d.independent(), "{d:?}");
}

/// The kernels whose global accesses are the same for every input get the estimator's
/// misses; those with data-dependent control around an access fall back to all-miss and name
/// it.
#[test]
fn estimator_used_only_where_input_independent() {
    for (file, independent) in [
        ("vector_add.s", true),
        ("lds_reduce.s", true),
        ("loop.s", true),
        ("fig2_divergent.s", false),
        ("synthetic.s", false),
    ] {
        let k = load_with_facts(&kernel_dir().join(file)).unwrap();
        let a = analyze(&reorder_case(&k, (Mode::NoSplit, 1, Policy::Gto))).unwrap();
        let r = a.reorder.unwrap();
        assert_eq!(r.estimated, independent, "{file}: {:?}", r.dependent);
        assert_eq!(r.dependent.independent(), independent, "{file}");
        if !independent {
            assert_eq!(r.misses, r.lines, "{file}: all-miss");
        }
    }
}
