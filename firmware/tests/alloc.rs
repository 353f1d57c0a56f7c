//! The compute unit's cycle allocates nothing: whole launches (dispatch, issue, split/merge,
//! memory, the end of every wavefront) are stepped under a counting allocator, and the heap
//! allocations made while the GPU runs are counted per simulated cycle. A buffer that grows
//! to its working size once is fine; an allocation per instruction, per access or per
//! wavefront is not. (This binary's own allocator; the other tests are unaffected.)

use rtgpu_firmware::driver::{Driver, LaunchDesc};
use rtgpu_firmware::isa::assemble;
use rtgpu_firmware::launch::{Dims, Image, KernelMeta};
use rtgpu_hw::cu::{CuConfig, Mode};
use rtgpu_hw::gpu::Gpu;
use rtgpu_hw::sched::model::Policy;
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicU64, Ordering};

/// The system allocator, counting allocations and reallocations.
struct Counting;

static ALLOCS: AtomicU64 = AtomicU64::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: forwarded unchanged to the system allocator.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: forwarded unchanged to the system allocator.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: forwarded unchanged to the system allocator.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Runs `kernel` at `grid` work-items in `mode` and returns (allocations while the GPU ran,
/// simulated cycles).
fn allocations(kernel: &str, grid: u32, (mode, s): (Mode, u32), hierarchy: bool) -> (u64, u64) {
    let path = format!("{}/kernels/{kernel}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let code = assemble(&text, kernel).unwrap().words();
    let meta = KernelMeta::parse(&text).unwrap();
    let dims = Dims { grid, ..meta.dims };
    let image = Image::build(&meta.args, dims, 1);
    let mut cfg = CuConfig::default();
    cfg.memory.hierarchy = hierarchy;
    let mut drv = Driver::new(Gpu::new(cfg).unwrap()).unwrap();
    drv.load_code(&code).unwrap();
    drv.write_mem(0, &image.mem).unwrap();
    let desc = LaunchDesc {
        abi: image.abi,
        ..LaunchDesc::new(image.kernarg, dims, meta.lds, mode, s, Policy::Gto)
    };
    drv.launch(&desc).unwrap();
    let before = ALLOCS.load(Ordering::Relaxed);
    drv.wait(50_000_000, 1024).unwrap();
    let made = ALLOCS.load(Ordering::Relaxed) - before;
    (made, drv.counters().unwrap().get("cycles"))
}

/// The two launch sizes compared: the larger one runs about four times the cycles.
const GRIDS: [u32; 2] = [16_384, 65_536];

/// fig2 under PWS (splits and merges every few cycles) and vector_add, with the fixed memory
/// latency and with the memory hierarchy (L1, DRAM controller, clock crossing): the larger
/// launch allocates no more than the smaller one (what is allocated is the buffers' growth to
/// their working size, once), and at most one allocation per 100 cycles. Catches an
/// allocation per access, per miss or per instruction: with the coalescer's line list cloned
/// for every global access (as it was) the hierarchy runs fail: 733 allocations at the
/// smaller size against 2,269 at the larger (fig2).
#[test]
fn launches_allocate_nothing_per_cycle() {
    let runs = [
        ("fig2_divergent.s", (Mode::Pws, 1), false),
        ("fig2_divergent.s", (Mode::Pws, 1), true),
        ("vector_add.s", (Mode::NoSplit, 1), false),
        ("vector_add.s", (Mode::NoSplit, 1), true),
    ];
    for (kernel, mode, hierarchy) in runs {
        let [(small, _), (made, cycles)] =
            GRIDS.map(|grid| allocations(kernel, grid, mode, hierarchy));
        let what = format!("{kernel} {mode:?} hierarchy={hierarchy}");
        println!(
            "{what}: {small} allocations at grid {}, {made} in {cycles} cycles at {}",
            GRIDS[0], GRIDS[1]
        );
        assert!(
            made <= small + small / 4 + 8,
            "{what}: {small} allocations, then {made}"
        );
        assert!(
            made * 100 <= cycles,
            "{what}: {made} allocations in {cycles} cycles"
        );
    }
}
