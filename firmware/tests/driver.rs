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
    let base = desc(&KernelMeta::parse(VADD).unwrap(), Mode::Pws, 1);
    // (grid, wg, lds, S) and the check the GPU names in ERROR_INFO.
    let cases = [
        ((64, 0, 0, 1), 1),
        ((64, 2048, 0, 1), 1),
        ((100, 64, 0, 1), 2),
        ((0, 64, 0, 1), 2),
        ((64, 64, 1 << 20, 1), 4),
        ((64, 64, 0, 0), 5),
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
