//! The PWS pass on the real compute unit: the interpreter treats `split`/`merge` as no-ops, so
//! it cannot see a pairing error or a scalar value lost at a merge (docs/assumptions.md#A13).
//! Every kernel of `firmware/kernels/` and 32 generated divergent kernels are compiled with
//! PWS (S = 1, 2, 3; source marks and every two-armed if) and DWS (S = 1, 3), run on the
//! compute unit in the matching mode, and must finish with the buffers the reference
//! interpreter leaves on the original code.

use rtgpu_firmware::driver::{self, Driver, LaunchDesc};
use rtgpu_firmware::gen_kernel::{divergent_kernel, GenOptions};
use rtgpu_firmware::interp::{self, InterpConfig};
use rtgpu_firmware::isa::assemble;
use rtgpu_firmware::launch::{Image, KernelMeta};
use rtgpu_firmware::pws_pass::{compile, Marks, PassError, PassMode, PassOptions};
use rtgpu_hw::cu::{CuConfig, Mode};
use rtgpu_hw::gpu::Gpu;
use rtgpu_hw::sched::model::Policy;
use rtgpu_testbench::cu::sweep::kernels_in;
use rtgpu_testbench::cu::system::load_kernel;
use std::path::Path;

/// Cycles a launch may take.
const TIMEOUT: u64 = 5_000_000;

/// Seed of the input image.
const SEED: u64 = 11;

/// The pass options and the compute unit's mode for each configuration tested.
fn configs() -> Vec<(PassOptions, Mode)> {
    let mut v = Vec::new();
    for s in 1..=3 {
        for marks in [Marks::Source, Marks::All] {
            let mode = PassMode::Pws;
            v.push((PassOptions { mode, s, marks }, Mode::Pws));
        }
    }
    for s in [1, 3] {
        for marks in [Marks::Source, Marks::All] {
            let mode = PassMode::Dws;
            v.push((PassOptions { mode, s, marks }, Mode::Dws));
        }
    }
    v
}

/// The buffers the reference interpreter leaves running `code`.
fn interpreted(code: &[u32], meta: &KernelMeta, image: &Image) -> Vec<Vec<u32>> {
    interp::buffers(code, meta.dims, meta.lds, image, &InterpConfig::default())
        .unwrap_or_else(|e| panic!("interpreter: {e}"))
}

/// Runs `code` on the compute unit; the buffers, or the reason it did not finish.
fn on_cu(
    code: &[u32],
    meta: &KernelMeta,
    image: &Image,
    mode: Mode,
    s: u32,
) -> Result<Vec<Vec<u32>>, String> {
    let gpu = Gpu::new(CuConfig::default())?;
    let mut drv = Driver::new(gpu).map_err(|e| e.to_string())?;
    let desc = LaunchDesc::new(image.kernarg, meta.dims, meta.lds, mode, s, Policy::Lrr);
    let out = driver::run(&mut drv, code, image, desc, TIMEOUT).map_err(|e| e.to_string())?;
    out.result.map_err(|e| e.to_string())?;
    Ok(out.buffers)
}

/// Compiles `code` in every configuration (the pass must accept it) and checks the compute
/// unit against the interpreter; returns the number of runs.
fn check(what: &str, code: &[u32], meta: &KernelMeta) -> usize {
    let image = Image::build(&meta.args, meta.dims, SEED);
    let want = interpreted(code, meta, &image);
    let mut runs = 0;
    for (o, mode) in configs() {
        let c = compile(code, &o).unwrap_or_else(|e| panic!("{what} {o:?}: {e}"));
        let got = on_cu(&c.code, meta, &image, mode, o.s as u32)
            .unwrap_or_else(|e| panic!("{what} {o:?}: {e}"));
        assert!(
            got == want,
            "{what} {o:?}: the compute unit's buffers differ"
        );
        runs += 1;
    }
    runs
}

#[test]
fn every_kernel_compiled_runs_on_the_cu_as_interpreted() {
    let mut runs = 0;
    for path in kernels_in(Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../firmware/kernels"
    )))
    .unwrap()
    {
        let (code, meta) = load_kernel(&path).unwrap();
        runs += check(&path.display().to_string(), &code, &meta);
    }
    assert!(runs > 0);
}

#[test]
fn generated_kernels_compiled_run_on_the_cu_as_interpreted() {
    for seed in 0..32 {
        let text = divergent_kernel(seed, &GenOptions::default());
        let what = format!("generated seed {seed}");
        let code = assemble(&text, &what).unwrap().words();
        let meta = KernelMeta::parse(&text).unwrap();
        assert_eq!(check(&what, &code, &meta), configs().len(), "{what}");
    }
}

/// A kernel already in the compiled layout whose else-arm writes s20, read after the merge.
const LIVE_OUT: &str = "
// @grid 128
// @wg 64
// @args int:grid zero:grid
.text
    s_load_dwordx4 s[8:11], s[0:1], 0x0
    s_mul_i32 s5, s2, s3
    v_add_u32 v1, vcc, s5, v0
    v_lshlrev_b32 v1, 2, v1
    s_waitcnt lgkmcnt(0)
    v_mov_b32 v3, s9
    v_add_u32 v2, vcc, s8, v1
    v_addc_u32 v3, vcc, 0, v3, vcc
    flat_load_dword v6, v[2:3]
    v_mov_b32 v5, s11
    v_add_u32 v4, vcc, s10, v1
    v_addc_u32 v5, vcc, 0, v5, vcc
    s_waitcnt vmcnt(0)
    s_mov_b32 s20, 1
    v_and_b32 v9, 1, v0
    v_cmp_eq_u32 vcc, 1, v9
    s_waitcnt 0
    split vcc_lo, vcc_hi
    s_and_saveexec_b64 s[6:7], vcc
    s_xor_b64 s[6:7], exec, s[6:7]
    s_cbranch_execz else
    v_mul_lo_u32 v8, v6, 3
    s_waitcnt 0
else:
    s_or_saveexec_b64 s[6:7], s[6:7]
    s_xor_b64 exec, s[6:7], exec
    s_cbranch_execz join
    s_mov_b32 s20, 5
    v_mul_lo_u32 v8, v6, 5
    s_waitcnt 0
join:
    s_or_b64 exec, exec, s[6:7]
    s_waitcnt 0
    merge
    v_add_u32 v8, vcc, s20, v8
    flat_store_dword v[4:5], v8
    s_endpgm
";

/// What the A13 check (docs/assumptions.md#A13) guards against, seen on the compute unit: the
/// else-arm's s20 is lost at the merge when the wavefront splits, so the pass must reject this
/// kernel.
#[test]
fn a_scalar_live_across_the_merge_is_lost_on_the_cu() {
    let code = assemble(LIVE_OUT, "live_out").unwrap().words();
    let meta = KernelMeta::parse(LIVE_OUT).unwrap();
    let image = Image::build(&meta.args, meta.dims, SEED);
    let want = interpreted(&code, &meta, &image);
    let o = PassOptions {
        mode: PassMode::Pws,
        s: 1,
        marks: Marks::Source,
    };
    let err = compile(&code, &o).unwrap_err();
    assert!(
        matches!(err, PassError::ScalarLiveOut { ref reg, .. } if reg == "s20"),
        "{err}"
    );
    let serial = on_cu(&code, &meta, &image, Mode::NoSplit, 1).unwrap();
    assert!(serial == want, "serialized, the kernel is right");
    for mode in [Mode::Pws, Mode::Dws] {
        let split = on_cu(&code, &meta, &image, mode, 1).unwrap();
        assert!(
            split != want,
            "{mode:?}: the else-arm's s20 should be lost at the merge"
        );
    }
}
