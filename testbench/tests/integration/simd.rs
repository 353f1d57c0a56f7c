//! Sim-D execution (`--exec simd`): the Sim-D kernels leave the interpreter's memory and a
//! DDR4-clean command trace; the phase rules hold on random programs (never two access phases
//! at once, one compute phase at a time under GTRR, each work-group's phases in program order,
//! pairwise admission); a 4 KiB aligned tile read costs the paper's LID of 318 cycles.

use proptest::prelude::*;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rtgpu_firmware::launch::{Dims, KernelMeta};
use rtgpu_hw::cu::CuConfig;
use rtgpu_hw::simd::sched::{Phase, PhaseKind};
use rtgpu_hw::simd::Exec;
use rtgpu_testbench::cu::simd::{run_simd, SimdOutcome};
use rtgpu_testbench::cu::simd_gen::SimdProgram;
use rtgpu_testbench::cu::system::load_kernel;
use std::path::Path;

fn kernel(name: &str) -> (Vec<u32>, KernelMeta) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../firmware/kernels/simd");
    load_kernel(&root.join(name)).expect("the kernel assembles")
}

fn run(k: &(Vec<u32>, KernelMeta), grid: u32, exec: Exec) -> SimdOutcome {
    let dims = Dims {
        grid,
        wg: k.1.dims.wg,
    };
    run_simd((&k.0, &k.1), dims, exec, &CuConfig::default(), 7).expect("the launch runs")
}

fn assert_clean(o: &SimdOutcome, what: &str) {
    assert_eq!(o.result, Ok(()), "{what}");
    assert_eq!(
        o.exact,
        Some(true),
        "{what}: buffers differ from the interpreter's"
    );
    assert!(o.ddr4.is_ok(), "{what}: DDR4 checker: {:?}", o.ddr4);
}

/// Both kernels under both schedulers equal the interpreter and pass the DDR4 checker; the
/// vector_add phases move 4 KiB tiles at the paper's ~80 % (≥ 70 % in-request bus use).
#[test]
fn simd_kernels_match_the_interpreter_and_the_ddr4_checker() {
    let va = kernel("vector_add.s");
    let st = kernel("stencil.s");
    for exec in [Exec::Simd, Exec::SimdFree] {
        let o = run(&va, 8192, exec);
        assert_clean(&o, "vector_add");
        assert_eq!(o.summary.access_phases, 3 * 8);
        assert!(
            o.summary.bus_utilisation_in_requests > 0.70,
            "{:?}",
            o.summary
        );
        let o = run(&st, 16 * 1024, exec);
        assert_clean(&o, "stencil");
        assert_eq!(o.summary.access_phases, 2 * 16);
    }
}

/// Sim-D vector_add at grid 65536: 192 tile requests instead of 6,144 line requests, and
/// the DRAM bus busy most of the launch (the hierarchy's run: 8.7 %).
#[test]
fn simd_vector_add_uses_the_bus() {
    let o = run(&kernel("vector_add.s"), 65536, Exec::Simd);
    assert_clean(&o, "vector_add 65536");
    assert_eq!(o.summary.requests, 192);
    assert!(o.summary.bus_utilisation > 0.6, "{:?}", o.summary);
}

/// The phases of one work-group, by start.
fn of_wg(log: &[Phase], wg: u32) -> Vec<Phase> {
    let mut v: Vec<Phase> = log.iter().filter(|p| p.wg == wg).copied().collect();
    v.sort_by_key(|p| p.start);
    v
}

/// No two phases of `kind` (of any work-groups) overlap.
fn exclusive(log: &[Phase], kind: PhaseKind) -> Result<(), String> {
    let mut v: Vec<&Phase> = log.iter().filter(|p| p.kind == kind).collect();
    v.sort_by_key(|p| p.start);
    match v.windows(2).find(|w| w[1].start < w[0].end) {
        Some(w) => Err(format!(
            "{kind:?} phases overlap: {:?} and {:?}",
            w[0], w[1]
        )),
        None => Ok(()),
    }
}

/// Each work-group's phases do not overlap, never two compute phases in a row, and it has
/// one access phase per transfer of the program.
fn in_program_order(log: &[Phase], groups: u32, transfers: usize) -> Result<(), String> {
    for wg in 0..groups {
        let v = of_wg(log, wg);
        let bad = v.windows(2).find(|w| {
            w[1].start < w[0].end || (w[0].kind == PhaseKind::Compute && w[0].kind == w[1].kind)
        });
        if let Some(w) = bad {
            return Err(format!("work-group {wg}: {:?} then {:?}", w[0], w[1]));
        }
        let n = v.iter().filter(|p| p.kind == PhaseKind::Access).count();
        if n != transfers {
            return Err(format!(
                "work-group {wg}: {n} access phases, {transfers} transfers"
            ));
        }
    }
    Ok(())
}

/// Pairwise: a work-group of pair k + 1 computes only after every work-group of pair k ended
/// its last compute phase (it has issued its final store).
fn pairwise(log: &[Phase], groups: u32) -> Result<(), String> {
    let last_compute = |wg| {
        of_wg(log, wg)
            .iter()
            .filter(|p| p.kind == PhaseKind::Compute)
            .map(|p| p.end)
            .max()
            .unwrap_or(0)
    };
    for wg in 2..groups {
        let first = of_wg(log, wg).first().map_or(u64::MAX, |p| p.start);
        for prev in [wg / 2 * 2 - 2, wg / 2 * 2 - 1] {
            if first < last_compute(prev) {
                return Err(format!(
                    "work-group {wg} starts at {first} before work-group {prev} \
                                    ends its compute at {}",
                    last_compute(prev)
                ));
            }
        }
    }
    Ok(())
}

/// Runs random program `p` and checks the interpreter, the DDR4 checker and the phase rules.
fn check_program(p: &SimdProgram, exec: Exec) -> Result<SimdOutcome, String> {
    let src = p.source();
    let (code, meta) = p.kernel()?;
    let o = run_simd((&code, &meta), meta.dims, exec, &CuConfig::default(), 3)?;
    if o.result.is_err() || o.exact != Some(true) || o.ddr4.is_err() {
        return Err(format!("{:?} {:?} {:?}\n{src}", o.result, o.exact, o.ddr4));
    }
    let log = &o.summary.phases;
    exclusive(log, PhaseKind::Access)?;
    in_program_order(log, p.groups, p.phases.len() + 1)?;
    if exec == Exec::Simd {
        exclusive(log, PhaseKind::Compute)?;
        if o.stray_issues > 0 {
            return Err(format!("{} issues outside a compute phase", o.stray_issues));
        }
        pairwise(log, p.groups)?;
    }
    Ok(o)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]
    /// The phase rules on random programs, tile shapes and alignments.
    #[test]
    fn phase_rules_hold_on_random_programs(seed in any::<u64>()) {
        let p = SimdProgram::random(&mut ChaCha8Rng::seed_from_u64(seed));
        for exec in [Exec::Simd, Exec::SimdFree] {
            if let Err(e) = check_program(&p, exec) {
                prop_assert!(false, "{exec:?}: {e}");
            }
        }
    }
}

/// Free scheduling lets the two slots compute at once (so the exclusivity check can fail).
#[test]
fn free_scheduling_overlaps_compute() {
    let p = SimdProgram::random(&mut ChaCha8Rng::seed_from_u64(11));
    let o = check_program(&p, Exec::SimdFree).expect("the program runs");
    assert!(exclusive(&o.summary.phases, PhaseKind::Compute).is_err());
}
