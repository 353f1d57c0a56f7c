//! Per-block WCETs measured on the model in isolation (the e_bb
//! inputs of Section 5 of the PWS paper, measured as its Section 7 describes):
//! run the launch with one wavefront per SIMD and one resident work-group, fixed memory
//! latencies and no splitting, record every issue, and charge each instruction the cycles
//! from its issue to its wavefront's next issue (the last one: to the wavefront's end).
//! A block's cost is the most any wavefront spent in one visit of it.
//!
//! Charging the gap *after* an instruction to that instruction keeps a block's cost local:
//! in this model a context's next issue waits for the previous instruction's class latency
//! (constant), for `s_waitcnt`, and for its unit's VALU (busy `issue_period` cycles after a
//! VALU issue). The compiler pass drains memory (`s_waitcnt 0`) before every split, at the end
//! of each split arm and before every merge, so no memory wait crosses a block boundary that
//! the pruned path can rearrange; the VALU's busy time can (when `issue_period` > `valu`), and
//! the bound adds `issue_period − valu` per block visit for it.

use rtgpu_firmware::driver::{self, Driver, LaunchDesc};
use rtgpu_firmware::launch::{Dims, Image};
use rtgpu_hw::cu::{CuConfig, IssueRecord, Mode};
use rtgpu_hw::gpu::Gpu;
use rtgpu_hw::isa::insn_model::{decode_fields, unit};
use rtgpu_hw::sched::model::Policy;

/// What one owner (a C_conv block or a BSB) cost in the isolated run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct OwnerCost {
    /// The most cycles one visit took.
    pub cycles: u64,
    /// The most memory instructions (global, scalar, LDS) one visit issued; each may wait up
    /// to (units − 1) cycles for its shared pipe in a full run (docs/assumptions.md#A30:
    /// round-robin over units).
    pub mem: u64,
    /// Some wavefront ran it.
    pub reached: bool,
}

/// The isolated run's measurements.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Measurement {
    /// Per owner index (the caller's numbering).
    pub owners: Vec<OwnerCost>,
    /// d: the most cycles from a wavefront's dispatch to its first issue.
    pub d: u64,
    /// Launch overhead outside every wavefront: from the launch to the first dispatch plus
    /// from the last wavefront's end to the end of the launch.
    pub overhead: u64,
    /// From the launch to the first dispatch (the same for every input).
    pub first_dispatch: u64,
    /// From the last wavefront's end to the end of the launch (its last accesses).
    pub tail: u64,
    /// Cycles of the isolated run.
    pub cycles: u64,
}

/// The isolation configuration of `cfg` for work-groups of `waves` wavefronts: one resident
/// work-group, one wavefront per SIMD (up to 8 SIMDs; a work-group of 9–16 wavefronts puts two
/// on some SIMDs, which only makes the measured costs larger), fixed latencies.
pub fn isolation_config(cfg: &CuConfig, waves: u32) -> CuConfig {
    let waves = waves.max(1) as usize;
    let mut c = *cfg;
    c.n_simd = waves.min(8);
    c.n_wfc = waves.div_ceil(8);
    c.memory.hierarchy = false;
    c
}

/// What the isolated run left.
#[derive(Clone, Debug, Default)]
pub struct IsolatedRun {
    /// Every issue.
    pub log: Vec<IssueRecord>,
    /// Per wavefront: (dispatch, end) cycles.
    pub wf: Vec<(u64, u64)>,
    /// Cycles of the launch.
    pub cycles: u64,
}

/// Runs `code` on `image` in the isolation configuration of `cfg`, without splitting.
pub fn isolated_run(
    code: &[u32],
    image: &Image,
    dims: Dims,
    lds: u32,
    cfg: &CuConfig,
    timeout: u64,
) -> Result<IsolatedRun, String> {
    let iso = isolation_config(cfg, dims.waves_per_group());
    let mut gpu = Gpu::new(iso)?;
    gpu.cu_mut().issue_log = Some(Vec::new());
    let mut drv = Driver::new(gpu).map_err(|e| e.to_string())?;
    let desc = LaunchDesc::new(image.abi, dims, lds, Mode::NoSplit, 1, Policy::Gto);
    let out = driver::run(&mut drv, code, image, desc, timeout).map_err(|e| e.to_string())?;
    out.result
        .map_err(|e| format!("the isolated measurement run failed: {e}"))?;
    let mut gpu = drv.into_bus();
    let log = gpu.cu_mut().issue_log.take().unwrap_or_default();
    let cycles = out.counters.get("cycles");
    Ok(IsolatedRun {
        log,
        wf: out.counters.wf,
        cycles,
    })
}

/// Whether the instruction at byte address `pc` of `code` uses a shared memory pipe.
pub fn is_memory(code: &[u32], pc: u32) -> bool {
    let i = (pc / 4) as usize;
    let f = decode_fields(
        code.get(i).copied().unwrap_or(0),
        code.get(i + 1).copied().unwrap_or(0),
    );
    matches!(f.unit, unit::VMEM | unit::SMEM | unit::LDS)
}

/// Charges the isolated run's issues to `n` owners (`owner(pc)`): each issue gets the
/// cycles to its wavefront's next issue (the last one: to the wavefront's end, `wf[w].1`);
/// an owner's cost is the largest sum over one visit (a maximal run of consecutive issues
/// it owns). `Err` when an issued instruction has no owner.
pub fn attribute(
    log: &[IssueRecord],
    wf: &[(u64, u64)],
    cycles: u64,
    n: usize,
    owner: impl Fn(u32) -> Option<usize>,
    memory: impl Fn(u32) -> bool,
) -> Result<Measurement, String> {
    let mut by_wave: Vec<Vec<&IssueRecord>> = vec![Vec::new(); wf.len()];
    for r in log {
        let w = by_wave
            .get_mut(r.wave as usize)
            .ok_or_else(|| format!("issue of unknown wavefront {}", r.wave))?;
        w.push(r);
    }
    let mut m = Measurement {
        owners: vec![OwnerCost::default(); n],
        cycles,
        ..Measurement::default()
    };
    for (w, issues) in by_wave.iter().enumerate() {
        let Some(first) = issues.first() else {
            continue;
        };
        m.d = m.d.max(first.cycle.saturating_sub(wf[w].0));
        charge_wave(issues, wf[w].1, &mut m.owners, &owner, &memory)?;
    }
    let first_dispatch = wf.iter().map(|w| w.0).min().unwrap_or(0);
    let last_end = wf.iter().map(|w| w.1).max().unwrap_or(0);
    m.first_dispatch = first_dispatch;
    m.tail = cycles.saturating_sub(last_end);
    m.overhead = first_dispatch + m.tail;
    Ok(m)
}

/// One wavefront's issues (in cycle order) charged to their owners' visits.
fn charge_wave(
    issues: &[&IssueRecord],
    end: u64,
    costs: &mut [OwnerCost],
    owner: &impl Fn(u32) -> Option<usize>,
    memory: &impl Fn(u32) -> bool,
) -> Result<(), String> {
    let mut visit: Option<(usize, u64, u64)> = None;
    for (i, r) in issues.iter().enumerate() {
        let o = owner(r.pc).ok_or_else(|| format!("{:#x}: issued but owned by no block", r.pc))?;
        let o = (o < costs.len())
            .then_some(o)
            .ok_or_else(|| format!("{:#x}: owner {o} out of range", r.pc))?;
        let next = issues.get(i + 1).map_or(end, |n| n.cycle);
        let gap = next.saturating_sub(r.cycle);
        let mem = u64::from(memory(r.pc));
        visit = match visit {
            Some((v, c, k)) if v == o => Some((v, c + gap, k + mem)),
            other => {
                if let Some(done) = other {
                    close(costs, done);
                }
                Some((o, gap, mem))
            }
        };
    }
    if let Some(done) = visit {
        close(costs, done);
    }
    Ok(())
}

fn close(costs: &mut [OwnerCost], (o, cycles, mem): (usize, u64, u64)) {
    let c = &mut costs[o];
    c.cycles = c.cycles.max(cycles);
    c.mem = c.mem.max(mem);
    c.reached = true;
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rec(cycle: u64, wave: u32, pc: u32) -> IssueRecord {
        IssueRecord {
            cycle,
            wave,
            group: 0,
            unit: 0,
            pc,
        }
    }

    #[test]
    fn visits_are_charged_the_gap_after_each_issue() {
        // Owner 0: pcs 0, 4; owner 1: pc 8; owner 0 again at 12 (a second visit).
        let owner = |pc: u32| Some(if pc == 8 { 1 } else { 0 });
        let log = [
            rec(3, 0, 0),
            rec(5, 0, 4),
            rec(9, 0, 8),
            rec(10, 0, 12),
            rec(4, 1, 0),
            rec(14, 1, 8),
        ];
        let wf = [(1, 20), (2, 30)];
        let m = attribute(&log, &wf, 32, 2, owner, |pc| pc == 4).unwrap();
        // Wave 0: owner 0 visits 6 (3→9) and 10 (10→20); owner 1: 1. Wave 1: owner 0 10,
        // owner 1 16 (14→30).
        assert_eq!(m.owners[0].cycles, 10);
        assert_eq!(m.owners[1].cycles, 16);
        assert_eq!(m.owners[0].mem, 1);
        assert_eq!(m.owners[1].mem, 0);
        assert_eq!(m.d, 2);
        assert_eq!(m.overhead, 1 + 2);
    }

    #[test]
    fn an_unowned_issue_is_an_error() {
        let r = attribute(&[rec(1, 0, 4)], &[(0, 5)], 6, 1, |_| None, |_| false);
        assert!(r.unwrap_err().contains("0x4"));
    }
}
