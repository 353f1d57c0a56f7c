//! Kernels launched as sub-kernels on a GPU of several compute units, through the driver and
//! the hardware queue: their memory equals the reference interpreter's, every compute unit of
//! a sub-kernel runs its share, and one compute unit through the queue takes the doorbell's
//! cycles.

use rtgpu_firmware::driver::{Driver, LaunchDesc, SubKernel};
use rtgpu_firmware::interp::{run, InterpConfig};
use rtgpu_firmware::isa::assemble;
use rtgpu_firmware::launch::{Image, KernelMeta};
use rtgpu_hw::cu::{CuConfig, Mode};
use rtgpu_hw::gpu::Gpu;
use rtgpu_hw::sched::model::Policy;

fn kernel(name: &str) -> (Vec<u32>, KernelMeta) {
    let path = format!("{}/kernels/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap();
    let words = assemble(&text, name).unwrap().words();
    (words, KernelMeta::parse(&text).unwrap())
}

/// A 4-compute-unit GPU with `code` and `image` loaded.
fn loaded(code: &[u32], image: &Image, n: usize) -> Driver<Gpu> {
    let mut drv = Driver::new(Gpu::with_cus(CuConfig::default(), n).unwrap()).unwrap();
    drv.load_code(code).unwrap();
    drv.write_mem(0, &image.mem).unwrap();
    drv
}

/// The work-groups of a grid of `groups` cut into three sub-kernels on the sets `masks`.
fn cuts(groups: u32, masks: [u32; 3]) -> Vec<SubKernel> {
    let (a, b) = (groups / 3, groups / 2);
    let bounds = [(0, a), (a, b), (b, groups)];
    bounds
        .iter()
        .zip(masks)
        .map(|(&(first, end), cus)| SubKernel {
            first,
            count: end - first,
            cus,
        })
        .collect()
}

/// Runs kernel `name` (grid 16 work-groups) as the sub-kernels on `masks` over four compute
/// units, checks that each completes once and that the data memory equals the reference
/// interpreter's; returns the driver and the launch's wavefronts.
fn run_cut(name: &str, masks: [u32; 3]) -> (Driver<Gpu>, usize) {
    let (code, meta) = kernel(name);
    let mut dims = meta.dims;
    dims.grid = dims.wg * 16;
    let image = Image::build(&meta.args, dims, 11);
    let mut want = image.mem.clone();
    run(
        &code,
        0,
        dims,
        meta.lds,
        image.abi,
        &mut want,
        &InterpConfig::default(),
    )
    .unwrap_or_else(|e| panic!("{name}: {e}"));
    let mut drv = loaded(&code, &image, 4);
    let desc = LaunchDesc::new(image.abi, dims, meta.lds, Mode::Pws, 1, Policy::Gto);
    let subs = cuts(dims.grid / dims.wg, masks);
    let tags: Vec<u32> = subs
        .iter()
        .map(|s| drv.enqueue(&desc, *s).unwrap())
        .collect();
    drv.wait(2_000_000, 64)
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    let mut done = Vec::new();
    while let Some(c) = drv.pop_done().unwrap() {
        assert!(!c.failed && c.end > c.start, "{name}: {c:?}");
        done.push(c.tag);
    }
    done.sort_unstable();
    assert_eq!(done, tags, "{name}: every sub-kernel completes once");
    let got = drv.read_mem(0, want.len()).unwrap();
    assert!(got == want, "{name}: memory differs from the interpreter");
    let waves = dims.grid / dims.wg * dims.wg.div_ceil(64);
    (drv, waves as usize)
}

const KERNELS: [&str; 4] = ["vector_add.s", "fig2_divergent.s", "loop.s", "lds_reduce.s"];

/// Every kernel cut into sub-kernels on overlapping sets of four compute units (the last on
/// all four, so that it waits for the others in the queue): the data memory afterwards equals
/// the reference interpreter's. (Fails when a compute unit other than 0 works on a memory of
/// its own instead of the shared one, or when the queue starts an entry on a busy compute
/// unit.)
#[test]
fn sub_kernels_on_overlapping_compute_units_equal_the_interpreter() {
    for name in KERNELS {
        run_cut(name, [0b0011, 0b0100, 0b1111]);
    }
}

/// On disjoint sets (so that each compute unit's counters hold its one part): the memory
/// equals the interpreter's, every wavefront finished on exactly one compute unit, and every
/// compute unit worked. (Fails when a compute unit's dispatcher steps one work-group at a
/// time instead of by the stride, running some twice.)
#[test]
fn every_work_group_runs_exactly_once_on_its_compute_units() {
    for name in KERNELS {
        let (mut drv, waves) = run_cut(name, [0b0011, 0b0100, 0b1000]);
        let mut ran = vec![0; waves];
        for cu in 0..4 {
            let c = drv.counters_of(cu).unwrap();
            assert!(c.get("instructions") > 0, "{name}: compute unit {cu} idle");
            for (w, &(_, finish)) in c.wf.iter().enumerate() {
                ran[w] += usize::from(finish > 0);
            }
        }
        assert!(
            ran.iter().all(|&n| n == 1),
            "{name}: runs per wavefront {ran:?}"
        );
    }
}

/// One compute unit: the whole launch as one queued sub-kernel takes exactly the doorbell's
/// cycles and leaves the same memory (fails if the queue adds a cycle at the start or the
/// end, or starts the compute unit with a different part).
#[test]
fn one_compute_unit_through_the_queue_equals_the_doorbell() {
    let (code, meta) = kernel("fig2_divergent.s");
    let image = Image::build(&meta.args, meta.dims, 3);
    let desc = LaunchDesc::new(image.abi, meta.dims, meta.lds, Mode::Pws, 1, Policy::Gto);
    let mut bell = loaded(&code, &image, 1);
    bell.launch(&desc).unwrap();
    bell.wait(1_000_000, 1).unwrap();
    let cycles = bell.counters().unwrap().get("cycles");
    let mut queued = loaded(&code, &image, 1);
    let t0 = queued.now().unwrap();
    queued.enqueue(&desc, SubKernel::ALL).unwrap();
    queued.wait(1_000_000, 1).unwrap();
    let c = queued.pop_done().unwrap().unwrap();
    assert_eq!((c.start, c.end - c.start), (t0, cycles));
    assert_eq!(queued.counters().unwrap().get("cycles"), cycles);
    let n = image.mem.len();
    assert_eq!(queued.read_mem(0, n).unwrap(), bell.read_mem(0, n).unwrap());
}
