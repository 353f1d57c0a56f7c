//! Every kernel of `firmware/kernels/`, in every mode (no-split, DWS and PWS with S = 1 and 3)
//! and under both issue policies, leaves exactly the reference interpreter's memory on the GPU
//! model; a proptest does the same over random inputs, grid sizes and configurations.

use proptest::prelude::*;
use rtgpu_firmware::driver::{run, Driver, DriverError, LaunchDesc, Outcome};
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
    let mut mem = image.mem.clone();
    interp::run(
        code,
        0,
        dims,
        meta.lds,
        image.kernarg,
        &mut mem,
        &InterpConfig::default(),
    )
    .unwrap_or_else(|e| panic!("interpreter: {e}"));
    (0..image.buffers.len())
        .map(|i| image.buffer(&mem, i).to_vec())
        .collect()
}

/// The launch on the GPU model.
fn on_gpu(
    code: &[u32],
    meta: &KernelMeta,
    image: &Image,
    dims: Dims,
    mode: Mode,
    s: u32,
    policy: Policy,
) -> Outcome {
    let mut drv = Driver::new(Gpu::new(CuConfig::default()).unwrap()).unwrap();
    let desc = LaunchDesc {
        entry_pc: 0,
        kernarg: image.kernarg,
        dims,
        lds: meta.lds,
        mode,
        s,
        policy,
    };
    run(&mut drv, code, image, desc, 20_000_000).unwrap()
}

/// Runs one configuration and compares; a PWS launch with S below the kernel's `@min-s` must
/// stop with split_overflow instead.
fn check(name: &str, dims: Option<Dims>, seed: u64, mode: Mode, s: u32, policy: Policy) {
    let (code, meta) = kernel(name);
    let dims = dims.unwrap_or(meta.dims);
    let image = Image::build(&meta.args, dims, seed);
    let got = on_gpu(&code, &meta, &image, dims, mode, s, policy);
    let what = format!(
        "{name} {mode:?} S={s} {policy:?} grid {} seed {seed}",
        dims.grid
    );
    if mode == Mode::Pws && s < meta.min_s {
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
        for (mode, s) in MODES {
            for policy in [Policy::Gto, Policy::Lrr] {
                check(name, None, 1, mode, s, policy);
            }
        }
    }
}

/// A configuration to draw: mode index, policy, seed, work-groups.
fn config() -> impl Strategy<Value = (usize, usize, bool, u64, u32)> {
    (
        0..KERNELS.len(),
        0..MODES.len(),
        any::<bool>(),
        any::<u64>(),
        1u32..=6,
    )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn random_inputs_and_grids((k, m, gto, seed, groups) in config()) {
        let (_, meta) = kernel(KERNELS[k]);
        let dims = Dims { grid: meta.dims.wg * groups, wg: meta.dims.wg };
        let (mode, s) = MODES[m];
        let policy = if gto { Policy::Gto } else { Policy::Lrr };
        check(KERNELS[k], Some(dims), seed, mode, s, policy);
    }
}
