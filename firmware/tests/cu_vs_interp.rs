//! Every kernel of `firmware/kernels/`, in every mode (no-split, DWS and PWS with S = 1 and 3)
//! and under both issue policies, leaves exactly the reference interpreter's memory on the GPU
//! model; a proptest does the same over random inputs, grid sizes, compute unit shapes and
//! latencies (results must not depend on timing).

use proptest::prelude::*;
use rtgpu_firmware::driver::{run, Driver, DriverError, LaunchDesc};
use rtgpu_firmware::interp::{self, InterpConfig};
use rtgpu_firmware::isa::assemble;
use rtgpu_firmware::launch::{Dims, Image, KernelMeta};
use rtgpu_hw::cu::{CuConfig, CuError, Mode};
use rtgpu_hw::gpu::Gpu;
use rtgpu_hw::sched::model::Policy;

const KERNELS: [&str; 6] = [
    "vector_add.s",
    "fig2_divergent.s",
    "fig5_nested.s",
    "loop.s",
    "lds_reduce.s",
    "synthetic.s",
];

const MODES: [(Mode, u32); 5] = [
    (Mode::NoSplit, 1),
    (Mode::Dws, 1),
    (Mode::Dws, 3),
    (Mode::Pws, 1),
    (Mode::Pws, 3),
];

/// One launch to compare.
#[derive(Clone, Copy, Debug)]
struct Case {
    cfg: CuConfig,
    kernel: &'static str,
    /// The kernel's own dimensions when `None`.
    dims: Option<Dims>,
    seed: u64,
    mode: Mode,
    s: u32,
    policy: Policy,
}

impl Case {
    fn new(kernel: &'static str, (mode, s): (Mode, u32), policy: Policy) -> Self {
        Case {
            cfg: CuConfig::default(),
            kernel,
            dims: None,
            seed: 1,
            mode,
            s,
            policy,
        }
    }
}

fn source(name: &str) -> String {
    let path = format!("{}/kernels/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The kernel's code and header.
fn kernel(name: &str) -> (Vec<u32>, KernelMeta) {
    let text = source(name);
    let prog = assemble(&text, name).unwrap_or_else(|e| panic!("{e}"));
    (prog.words(), KernelMeta::parse(&text).unwrap())
}

/// The buffers the interpreter leaves.
fn interpreted(code: &[u32], meta: &KernelMeta, image: &Image, dims: Dims) -> Vec<Vec<u32>> {
    interp::buffers(code, dims, meta.lds, image, &InterpConfig::default())
        .unwrap_or_else(|e| panic!("interpreter: {e}"))
}

/// Runs the case on the GPU model and compares; a PWS launch with S below the kernel's
/// `@min-s` must stop with split_overflow instead.
fn check(c: Case) {
    let (code, meta) = kernel(c.kernel);
    let dims = c.dims.unwrap_or(meta.dims);
    let image = Image::build(&meta.args, dims, c.seed);
    let mut drv = Driver::new(Gpu::new(c.cfg).unwrap()).unwrap();
    let desc = LaunchDesc::new(image.kernarg, dims, meta.lds, c.mode, c.s, c.policy);
    let got = run(&mut drv, &code, &image, desc, 2_000_000).unwrap();
    let what = format!("{c:?}");
    if c.mode == Mode::Pws && c.s < meta.min_s {
        match got.result {
            Err(DriverError::Hardware { error, .. }) => {
                assert_eq!(error, CuError::SplitOverflow, "{what}")
            }
            other => panic!("{what}: expected split_overflow, got {other:?}"),
        }
        return;
    }
    got.result.clone().unwrap_or_else(|e| panic!("{what}: {e}"));
    let want = interpreted(&code, &meta, &image, dims);
    for (i, (g, w)) in got.buffers.iter().zip(&want).enumerate() {
        if let Some(j) = (0..w.len()).find(|&j| g[j] != w[j]) {
            panic!(
                "{what}: buffer {i} dword {j}: GPU {:#x}, interpreter {:#x}",
                g[j], w[j]
            );
        }
    }
}

#[test]
fn every_kernel_every_mode_both_policies() {
    for name in KERNELS {
        for mode in MODES {
            for policy in [Policy::Gto, Policy::Lrr] {
                check(Case::new(name, mode, policy));
            }
        }
    }
}

/// Slots are reused: more work-groups than the compute unit holds at once, with wavefronts
/// that end while their stores are still in flight.
#[test]
fn more_work_groups_than_slots() {
    check(Case {
        dims: Some(Dims { grid: 4096, wg: 64 }),
        ..Case::new("vector_add.s", (Mode::Pws, 1), Policy::Gto)
    });
    check(Case {
        cfg: CuConfig {
            n_simd: 1,
            n_wfc: 4,
            ..CuConfig::default()
        },
        dims: Some(Dims {
            grid: 2048,
            wg: 256,
        }),
        ..Case::new("lds_reduce.s", (Mode::Dws, 3), Policy::Lrr)
    });
    // GTO by age: new wavefronts in low slots must not starve an older split pair, whose
    // child waits at the merge (with slot index as "age" this hit the watchdog).
    check(Case {
        cfg: CuConfig {
            watchdog: 2000,
            ..CuConfig::default()
        },
        dims: Some(Dims {
            grid: 16384,
            wg: 64,
        }),
        ..Case::new("fig2_divergent.s", (Mode::Pws, 1), Policy::Gto)
    });
}

/// A compute unit to draw: shape and latencies.
fn cu_config() -> impl Strategy<Value = CuConfig> {
    (
        (1usize..=4, 1usize..=6),
        (1u32..=200, 1u32..=8, 1u32..=6),
        (1u8..=9, 1u8..=9, 1u32..=16),
    )
        .prop_map(
            |((n_simd, n_wfc), (flat, valu, period), (e_split, e_merge, lds_period))| {
                let mut c = CuConfig {
                    n_simd,
                    n_wfc,
                    ..CuConfig::default()
                };
                c.lat.flat = flat;
                c.lat.smem = flat / 2 + 1;
                c.lat.valu = valu;
                c.lat.issue_period = period;
                c.lat.lds_period = lds_period;
                c.lat.e_split = e_split;
                c.lat.e_merge = e_merge;
                c
            },
        )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn random_inputs_grids_and_configs(
        k in 0..KERNELS.len(),
        m in 0..MODES.len(),
        gto in any::<bool>(),
        seed in any::<u64>(),
        groups in 1u32..=12,
        cfg in cu_config(),
    ) {
        let (_, meta) = kernel(KERNELS[k]);
        // The work-group must fit the compute unit.
        prop_assume!(meta.dims.wg.div_ceil(64) as usize <= cfg.n_simd * cfg.n_wfc);
        let policy = if gto { Policy::Gto } else { Policy::Lrr };
        check(Case {
            cfg,
            dims: Some(Dims { grid: meta.dims.wg * groups, wg: meta.dims.wg }),
            seed,
            ..Case::new(KERNELS[k], MODES[m], policy)
        });
    }
}
