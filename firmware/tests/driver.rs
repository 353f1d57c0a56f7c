//! The driver against the GPU model: a vector add end to end, and the launch-size error path.

use rtgpu_firmware::driver::{run, Driver, DriverError, LaunchDesc};
use rtgpu_firmware::isa::assemble;
use rtgpu_firmware::launch::{Image, KernelMeta};
use rtgpu_hw::cu::{CuConfig, CuError, Mode};
use rtgpu_hw::gpu::Gpu;
use rtgpu_hw::sched::model::Policy;

const VADD: &str = include_str!("../kernels/vector_add.s");

fn desc(meta: &KernelMeta, mode: Mode, s: u32) -> LaunchDesc {
    LaunchDesc {
        entry_pc: 0,
        kernarg: 0,
        dims: meta.dims,
        lds: meta.lds,
        mode,
        s,
        policy: Policy::Gto,
    }
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
    let mut d = desc(&KernelMeta::parse(VADD).unwrap(), Mode::Pws, 1);
    d.dims.grid = 100;
    assert!(matches!(drv.launch(&d), Err(DriverError::BadLaunch(_))));
    // The hardware refuses what the driver's own check lets through: S = 0.
    d.dims.grid = 64;
    d.s = 0;
    drv.launch(&d).unwrap();
    match drv.wait(1000, 1) {
        Err(DriverError::Hardware { error, .. }) => assert_eq!(error, CuError::BadLaunch),
        other => panic!("{other:?}"),
    }
}
