//! The GPU side on the model: the behavioural GPU with N compute units behind the driver.
//! Every kernel kind is the spin kernel ([`SPIN`]) with its own loop count, one work-group
//! of one wavefront per compute unit at a time (it asks for the compute unit's whole LDS;
//! docs/assumptions.md#A80); E(K, n) is measured by running the kernel's whole grid on the
//! first n compute units.

use super::app::{AppSpec, Profile};
use super::engine::{Finished, GpuSide};
use super::state::Placed;
use crate::driver::{Bus, Driver, LaunchDesc, SubKernel};
use crate::isa::assemble;
use crate::launch::Dims;
use rtgpu_hw::cu::{CuConfig, Mode};
use rtgpu_hw::gpu::Gpu;
use rtgpu_hw::sched::model::Policy;

/// The spin kernel: each work-group counts to the dword at its kernel argument address in a
/// scalar loop and ends. Its time is affine in the count.
pub const SPIN: &str = "\
    s_load_dword s4, s[0:1], 0x0
    s_mov_b32 s5, 0
    s_waitcnt lgkmcnt(0)
spin:
    s_cmp_ge_u32 s5, s4
    s_cbranch_scc1 done
    s_add_u32 s5, s5, 1
    s_branch spin
done:
    s_endpgm
";

/// Where kind k's loop count lives in data memory.
fn count_addr(kind: usize) -> u64 {
    0x1000 + 4 * kind as u64
}

/// The most cycles a wait goes without a completion before it gives up.
const STUCK: u64 = 50_000_000;

/// The model GPU with the spin kernel loaded and one loop count per kernel kind.
pub struct ModelGpu {
    drv: Driver<Gpu>,
    lds: u32,
}

impl ModelGpu {
    /// `n` compute units of the default configuration; kind k spins `counts[k]` times.
    pub fn new(n: usize, counts: &[u32]) -> Result<Self, String> {
        let cfg = CuConfig::default();
        let gpu = Gpu::with_cus(cfg, n)?;
        let mut drv = Driver::new(gpu).map_err(|e| e.to_string())?;
        let code = assemble(SPIN, "spin.s").map_err(|e| e.to_string())?.words();
        drv.load_code(&code).map_err(|e| e.to_string())?;
        drv.write_mem(count_addr(0), counts)
            .map_err(|e| e.to_string())?;
        Ok(Self {
            drv,
            lds: cfg.lds_bytes,
        })
    }

    /// The launch of `tbs` work-groups of kind `kind`.
    fn desc(&self, kind: usize, tbs: u32) -> LaunchDesc {
        let dims = Dims {
            grid: 64 * tbs,
            wg: 64,
        };
        LaunchDesc::new(
            count_addr(kind),
            dims,
            self.lds,
            Mode::NoSplit,
            1,
            Policy::Gto,
        )
    }

    /// Runs `tbs` work-groups of kind `kind` on the first `n` compute units alone; its cycles.
    pub fn measure(&mut self, kind: usize, tbs: u32, n: u32) -> Result<u64, String> {
        let sub = SubKernel {
            first: 0,
            count: tbs,
            cus: (1u32 << n) - 1,
        };
        self.drv
            .enqueue(&self.desc(kind, tbs), sub)
            .map_err(|e| e.to_string())?;
        let f = self.wait(None)?;
        Ok(f.iter().map(|f| f.end - f.start).sum())
    }

    /// Sets kind `kind`'s spin count.
    pub fn set_count(&mut self, kind: usize, n: u32) -> Result<(), String> {
        self.drv
            .write_mem(count_addr(kind), &[n])
            .map_err(Self::err)
    }

    fn err(e: crate::driver::DriverError) -> String {
        e.to_string()
    }
}

/// E(K, n) for n = 1..=N of each kernel kind `(kind, |K|)` in `kinds`, on the model.
pub fn profile(gpu: &mut ModelGpu, kinds: &[u32], n_tot: u32) -> Result<Profile, String> {
    let times = (0..kinds.len())
        .map(|k| (1..=n_tot).map(|n| gpu.measure(k, kinds[k], n)).collect())
        .collect::<Result<_, _>>()?;
    Ok(Profile { times })
}

impl GpuSide for ModelGpu {
    fn now(&mut self) -> Result<u64, String> {
        self.drv.now().map_err(Self::err)
    }

    fn submit(&mut self, app: &AppSpec, p: &Placed) -> Result<u32, String> {
        let k = &app.kernels[p.kernel];
        let cus = p.cus.iter().fold(0u32, |m, &c| m | 1 << c);
        let sub = SubKernel {
            first: p.first,
            count: p.count,
            cus,
        };
        self.drv
            .enqueue(&self.desc(k.kind, k.tbs), sub)
            .map_err(Self::err)
    }

    fn wait(&mut self, until: Option<u64>) -> Result<Vec<Finished>, String> {
        let start = self.drv.now().map_err(Self::err)?;
        loop {
            let mut out = Vec::new();
            while let Some(c) = self.drv.pop_done().map_err(Self::err)? {
                if c.failed {
                    return Err(format!("sub-kernel {} failed on the GPU", c.tag));
                }
                out.push(Finished {
                    tag: c.tag,
                    start: c.start,
                    end: c.end,
                });
            }
            let now = self.drv.now().map_err(Self::err)?;
            if !out.is_empty() || until.is_some_and(|u| now >= u) {
                return Ok(out);
            }
            if now - start > STUCK {
                return Err(format!("no sub-kernel completed in {STUCK} cycles"));
            }
            self.drv.bus_mut().tick(1);
        }
    }
}

/// The spin count whose one work-group takes at most `cycles` on one compute unit, the
/// largest such (the time is affine in the count: two measurements, then checked). Uses kind
/// `kind`'s slot.
pub fn count_for(gpu: &mut ModelGpu, kind: usize, cycles: u64) -> Result<u32, String> {
    let mut time = |n: u32| -> Result<u64, String> {
        gpu.set_count(kind, n)?;
        gpu.measure(kind, 1, 1)
    };
    let (t0, t1) = (time(0)?, time(1000)?);
    let per = (t1 - t0).max(1);
    let mut n = (cycles.saturating_sub(t0) * 1000 / per) as u32;
    while n > 0 && time(n)? > cycles {
        n -= 1;
    }
    gpu.set_count(kind, n)?;
    Ok(n)
}
