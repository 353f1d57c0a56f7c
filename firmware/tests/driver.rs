//! The driver against the GPU model: a vector add end to end, and the launch-size error path.

use rtgpu_firmware::driver::{run, Driver, DriverError, LaunchDesc};
use rtgpu_firmware::isa::assemble;
use rtgpu_firmware::launch::{Image, KernelMeta};
use rtgpu_hw::cu::{CuConfig, CuError, Mode};
use rtgpu_hw::gpu::Gpu;
use rtgpu_hw::sched::model::Policy;

const VADD: &str = include_str!("../kernels/vector_add.s");

fn desc(meta: &KernelMeta, mode: Mode, s: u32) -> LaunchDesc {
    LaunchDesc::new(0, meta.dims, meta.lds, mode, s, Policy::Gto)
}

#[test]
fn vector_add_end_to_end() {
    let prog = assemble(VADD, "vadd.s").unwrap();
    let meta = KernelMeta::parse(VADD).unwrap();
    let image = Image::build(&meta.args, meta.dims, 7);
    let mut drv = Driver::new(Gpu::new(CuConfig::default()).unwrap()).unwrap();
    let out = run(
        &mut drv,
        &prog.words(),
        &image,
        desc(&meta, Mode::Pws, 1),
        1_000_000,
    )
    .unwrap();
    out.result.clone().unwrap();
    let (a, b) = (image.buffer(&image.mem, 0), image.buffer(&image.mem, 1));
    for i in 0..256 {
        let want = f32::from_bits(a[i]) + f32::from_bits(b[i]);
        assert_eq!(out.buffers[2][i], want.to_bits(), "lane {i}");
    }
    assert!(out.counters.get("cycles") > 64);
    eprintln!("{:?}", out.counters);
}

#[test]
fn bad_sizes_are_refused() {
    let prog = assemble(VADD, "vadd.s").unwrap();
    let mut drv = Driver::new(Gpu::new(CuConfig::default()).unwrap()).unwrap();
    drv.load_code(&prog.words()).unwrap();
    let base = desc(&KernelMeta::parse(VADD).unwrap(), Mode::Pws, 1);
    // (grid, wg, lds, S) and the check the GPU names in ERROR_INFO.
    let cases = [
        ((64, 0, 0, 1), 1),
        ((64, 2048, 0, 1), 1),
        ((100, 64, 0, 1), 2),
        ((0, 64, 0, 1), 2),
        ((64, 64, 1 << 20, 1), 4),
        ((64, 64, 0, 0), 5),
        ((1 << 25, 64, 0, 1), 2),
    ];
    for ((grid, wg, lds, s), check) in cases {
        let mut d = base;
        d.dims.grid = grid;
        d.dims.wg = wg;
        d.lds = lds;
        d.s = s;
        drv.launch(&d).unwrap();
        match drv.wait(1000, 1) {
            Err(e @ DriverError::Hardware { error, info, .. }) => {
                assert_eq!((error, info), (CuError::BadLaunch, check), "{e}");
                assert!(e.to_string().contains("bad_launch"), "{e}");
            }
            other => panic!("{grid} {wg} {lds} {s}: {other:?}"),
        }
    }
    let mut d = base;
    d.s = 9;
    assert!(matches!(drv.launch(&d), Err(DriverError::BadLaunch(_))));
    let mut d = base;
    d.entry_pc = 1 << 20;
    drv.launch(&d).unwrap();
    assert!(matches!(
        drv.wait(1000, 1),
        Err(DriverError::Hardware {
            error: CuError::BadLaunch,
            info: 6,
            ..
        })
    ));
}

/// One wavefront of fig2_divergent has two split/merge pairs on its critical path, so with
/// constant split and merge costs (E_SPLIT, E_MERGE) its finish cycle moves by exactly
/// 2·ΔE_SPLIT + 2·ΔE_MERGE.
#[test]
fn split_and_merge_cost_constant_cycles() {
    let src = include_str!("../kernels/fig2_divergent.s");
    let prog = assemble(src, "fig2_divergent.s").unwrap();
    let meta = KernelMeta::parse(src).unwrap();
    let dims = rtgpu_firmware::launch::Dims { grid: 64, wg: 64 };
    let finish = |e_split: u8, e_merge: u8| {
        let mut cfg = CuConfig::default();
        cfg.lat.e_split = e_split;
        cfg.lat.e_merge = e_merge;
        let image = Image::build(&meta.args, dims, 3);
        let mut drv = Driver::new(Gpu::new(cfg).unwrap()).unwrap();
        let d = LaunchDesc {
            dims,
            ..desc(&meta, Mode::Pws, 1)
        };
        let out = run(&mut drv, &prog.words(), &image, d, 100_000).unwrap();
        out.result.unwrap();
        assert_eq!(out.counters.get("splits"), 2);
        out.counters.wf[0].1 as i64
    };
    let base = finish(4, 2);
    assert_eq!(finish(9, 2) - base, 10);
    assert_eq!(finish(4, 7) - base, 10);
    assert_eq!(finish(1, 1) - base, -8);
}
