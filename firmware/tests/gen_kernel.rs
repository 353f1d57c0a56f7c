//! The random divergent kernel generator (`rtgpu_firmware::gen_kernel`): every kernel
//! assembles, runs on the reference interpreter, has a readable header and unique labels; the
//! output is deterministic in the seed; splits and divergent branches really occur.

use std::collections::HashSet;

use proptest::prelude::*;
use rtgpu_firmware::gen_kernel::{divergent_kernel, GenOptions};
use rtgpu_firmware::interp::{run_observed, InterpConfig, MemEvent};
use rtgpu_firmware::isa::{assemble, Op};
use rtgpu_firmware::launch::{Image, KernelMeta};
use rtgpu_firmware::pws_pass::Kstruct;

/// What one generated kernel did on the interpreter.
struct Outcome {
    /// `split` instructions in the program.
    splits: usize,
    /// `// @min-s`.
    min_s: u32,
    /// A FLAT access ran with some but not all lanes of a wave active.
    diverged: bool,
}

/// Generates, assembles and runs the kernel of `seed`; panics with the source on failure.
fn check(seed: u64, opts: &GenOptions) -> Outcome {
    let src = divergent_kernel(seed, opts);
    let program = assemble(&src, "gen").unwrap_or_else(|e| panic!("seed {seed}: {e}\n{src}"));
    let meta = KernelMeta::parse(&src).unwrap_or_else(|e| panic!("seed {seed}: {e:?}\n{src}"));
    assert_eq!(meta.dims.wg, 64);
    assert!(meta.min_s >= 1);
    let image = Image::build(&meta.args, meta.dims, seed);
    let mut mem = image.mem.clone();
    let (mut diverged, mut stored) = (false, false);
    let mut observe = |e: &MemEvent| {
        if let MemEvent::Flat(a) = e {
            diverged |= a.exec != 0 && a.exec != u64::MAX;
            stored |= a.store && a.exec != 0;
        }
    };
    run_observed(
        &program.words(),
        0,
        meta.dims,
        meta.lds,
        image.kernarg,
        &mut mem,
        &InterpConfig::default(),
        &mut observe,
    )
    .unwrap_or_else(|e| panic!("seed {seed}: {e}\n{src}"));
    // A store ran with lanes active (the values may all be 0: seed 18166906830784113205 at
    // depth 2 stores only zeros, which a check of the buffer's contents took for no store).
    assert!(stored, "seed {seed}: no store ran");
    let splits = program
        .items
        .iter()
        .filter(|l| l.insn.op == Op::Split)
        .count();
    let merges = program
        .items
        .iter()
        .filter(|l| l.insn.op == Op::Merge)
        .count();
    assert_eq!(splits, merges, "seed {seed}");
    assert!(splits == 0 || meta.min_s as usize <= splits, "seed {seed}");
    Outcome {
        splits,
        min_s: meta.min_s,
        diverged,
    }
}

/// Labels defined in `src` (lines `name:`) are unique.
fn labels_unique(src: &str) -> bool {
    let defs: Vec<&str> = src
        .lines()
        .filter_map(|l| l.trim().strip_suffix(':'))
        .collect();
    defs.iter().collect::<HashSet<_>>().len() == defs.len()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn generated_kernels_run(seed in any::<u64>(), depth in 0usize..5, p in 0.0f64..=1.0) {
        let opts = GenOptions { max_depth: depth, p_split: p, ..GenOptions::default() };
        check(seed, &opts);
        let src = divergent_kernel(seed, &opts);
        prop_assert!(labels_unique(&src));
        prop_assert_eq!(src, divergent_kernel(seed, &opts));
    }
}

#[test]
fn splits_and_divergence_occur() {
    let opts = GenOptions::default();
    let runs: Vec<Outcome> = (0..32).map(|s| check(s, &opts)).collect();
    assert!(runs.iter().any(|r| r.splits > 0), "no split in 32 seeds");
    assert!(
        runs.iter().any(|r| r.min_s >= 2),
        "no nested split in 32 seeds"
    );
    assert!(
        runs.iter().any(|r| r.diverged),
        "no divergent access in 32 seeds"
    );
    assert!(runs.iter().filter(|r| r.diverged).count() >= 8);
}

#[test]
fn seeds_differ_and_options_hold() {
    let opts = GenOptions::default();
    assert_ne!(divergent_kernel(1, &opts), divergent_kernel(2, &opts));
    // p_split 0: never a split; p_split 1: every two-armed if splits.
    let none = GenOptions {
        p_split: 0.0,
        ..opts
    };
    let all = GenOptions {
        p_split: 1.0,
        ..opts
    };
    for seed in 0..16 {
        assert_eq!(check(seed, &none).splits, 0);
        assert!(check(seed, &all).splits >= 1);
        let src = divergent_kernel(seed, &all);
        let pairs = src.matches("s_or_saveexec_b64").count();
        assert_eq!(src.matches("split vcc_lo, vcc_hi").count(), pairs);
    }
}

/// With `inputs`, the kernels take the ranged `levels` and `thresh` arguments, some loops run
/// `levels` times and some ifs test `thresh`; they still run on the interpreter.
#[test]
fn input_dependent_kernels_run() {
    let opts = GenOptions {
        inputs: true,
        ..GenOptions::default()
    };
    let (mut arg_loops, mut heavy) = (0, 0);
    for seed in 0..24 {
        check(seed, &opts);
        let src = divergent_kernel(seed, &opts);
        assert!(src.contains("// @range 2 0..4") && src.contains("// @range 3 0..120"));
        arg_loops += src.matches("s_cmp_ge_u32 s12, s14").count();
        heavy += src.matches("v_cmp_lt_i32 vcc, s15, v6").count();
    }
    assert!(arg_loops > 0 && heavy > 0, "{arg_loops} {heavy}");
}

#[test]
fn bad_options_do_not_panic() {
    for opts in [
        GenOptions {
            max_seq: 0,
            max_depth: 0,
            p_split: f64::NAN,
            loops: false,
            grid: 0,
            inputs: true,
        },
        GenOptions {
            max_seq: 3,
            max_depth: 100,
            p_split: 7.0,
            loops: true,
            grid: 100,
            inputs: false,
        },
        GenOptions {
            max_seq: 1,
            max_depth: 1,
            p_split: -1.0,
            loops: true,
            grid: u32::MAX,
            inputs: true,
        },
    ] {
        let src = divergent_kernel(3, &opts);
        assert!(assemble(&src, "gen").is_ok(), "{src}");
        assert!(KernelMeta::parse(&src).is_ok());
    }
    // The grid is rounded up to whole wavefronts.
    let src = divergent_kernel(
        3,
        &GenOptions {
            grid: 100,
            ..GenOptions::default()
        },
    );
    assert_eq!(KernelMeta::parse(&src).unwrap().dims.grid, 128);
}

#[test]
fn generated_kernels_have_a_structured_cfg() {
    // The PWS pass recognises every split if (loops are opaque), and the deepest chain of
    // nested split ifs is @min-s.
    let opts = GenOptions {
        p_split: 0.7,
        max_depth: 4,
        ..GenOptions::default()
    };
    for seed in 0..48 {
        let src = divergent_kernel(seed, &opts);
        let out = check(seed, &opts);
        let program = assemble(&src, "gen").unwrap();
        let k =
            Kstruct::parse(&program.words()).unwrap_or_else(|e| panic!("seed {seed}: {e}\n{src}"));
        let ifs = k.ifs();
        let marked: Vec<usize> = (0..ifs.len()).filter(|&i| ifs[i].split.is_some()).collect();
        assert_eq!(marked.len(), out.splits, "seed {seed}");
        let depth = |i: usize| {
            std::iter::successors(Some(i), |&j| ifs[j].parent)
                .filter(|&j| ifs[j].split.is_some())
                .count()
        };
        let deepest = marked.iter().map(|&i| depth(i)).max().unwrap_or(0);
        assert_eq!(deepest.max(1), out.min_s as usize, "seed {seed}\n{src}");
    }
}
