//! The compiler side of the warp-based load/store reordering (the
//! reordering paper's Algorithms 1–3 and its miss-rate estimate) for rtgpu's GCN3 kernels.
//!
//! [`analyze`] runs a launch on the reference interpreter ([`crate::interp::run_observed`])
//! and records, per wavefront, its global memory instances (FLAT loads and stores; SMEM and
//! DS are not global ld/st for the reordering unit) in the order that wavefront executes
//! them, as the PTX-side analyzer's output type [`Analysis`]. [`predict_l1`] turns one into
//! the static L1 miss count: the R1 release order (epoch-major) replayed through the LRU
//! estimator with write-evict/no-allocate stores.
//!
//! Mapping onto the PTX-side types (whose names speak CUDA):
//! - a *block* is a work-group, a *warp* a wavefront, `Analysis::grid` is
//!   `[work-groups, 1, 1]` (the CUDA grid counts blocks, `paper_format` unflattens block ids
//!   with it) and `Analysis::block` is `[work-group size, 1, 1]`;
//! - `Access::mask` is 32 bits wide but a wavefront has 64 lanes: it holds lanes 0..31 of
//!   EXEC (the full set of lanes is in `lines`, which cover every active lane);
//! - an instance executed with an empty EXEC touches nothing and is **not** recorded (the
//!   PTX analyzer keeps such zero-line instances);
//! - `epoch` counts the `s_barrier`s the wavefront executed before the instance.

use std::collections::HashMap;

use rtgpu_wcet::reorder::analyzer::{Access, Analysis, WarpTrace, LINE_SHIFT};
use rtgpu_wcet::reorder::estimator::{estimate, CacheConfig, Estimate, WritePolicy};
use rtgpu_wcet::reorder::order::{release_order, Rule};

use crate::interp::{run_observed, Abi, FlatAccess, InterpConfig, InterpError, MemEvent};
use crate::launch::Dims;
use rtgpu_hw::memsys::plan::{ReorderPlan, TraceEntry};

/// The most instances one wavefront's trace may hold (the reordering unit's trace depth).
pub const MAX_TRACE_DEPTH: usize = 256;

/// The most distinct global ld/st PCs a launch may record (`pc_idx` is 8 bits).
pub const MAX_LDST_PCS: usize = 255;

/// Bytes per L1 line (the estimator's only supported line size).
pub const LINE_BYTES: u32 = 1 << LINE_SHIFT;

/// One recorded instance before PCs are indexed.
struct Raw {
    pc: u32,
    is_store: bool,
    epoch: u32,
    lines: Vec<u32>,
    mask: u32,
}

/// One wavefront's trace while the launch runs.
#[derive(Default)]
struct WaveLog {
    epoch: u32,
    raws: Vec<Raw>,
}

/// Collects the observer's events per wavefront (index `group · waves_per_group + wave`).
struct Recorder {
    waves_per_group: u32,
    logs: Vec<WaveLog>,
    overflow: Option<String>,
}

impl Recorder {
    fn new(dims: Dims) -> Self {
        let waves = (dims.groups() * dims.waves_per_group()) as usize;
        Recorder {
            waves_per_group: dims.waves_per_group(),
            logs: (0..waves).map(|_| WaveLog::default()).collect(),
            overflow: None,
        }
    }

    fn log(&mut self, group: u32, wave: u32) -> &mut WaveLog {
        &mut self.logs[(group * self.waves_per_group + wave) as usize]
    }

    fn record(&mut self, e: &MemEvent) {
        match e {
            MemEvent::Barrier { at, .. } => self.log(at.group, at.wave).epoch += 1,
            MemEvent::Flat(f) if f.exec != 0 => self.flat(f),
            MemEvent::Flat(_) => {}
        }
    }

    fn flat(&mut self, f: &FlatAccess) {
        let log = self.log(f.at.group, f.at.wave);
        if log.raws.len() == MAX_TRACE_DEPTH {
            let why = format!(
                "work-group {} wave {} has more than {MAX_TRACE_DEPTH} global load/store \
                 instances (pc {:#x})",
                f.at.group, f.at.wave, f.pc
            );
            self.overflow.get_or_insert(why);
            return;
        }
        let raw = Raw {
            pc: f.pc,
            is_store: f.store,
            epoch: log.epoch,
            lines: lines_of(f),
            mask: f.exec as u32,
        };
        log.raws.push(raw);
    }
}

/// The distinct 128-byte line numbers of every dword `f` accesses, ascending.
fn lines_of(f: &FlatAccess) -> Vec<u32> {
    let mut lines: Vec<u32> = f
        .addrs
        .iter()
        .flat_map(|&a| (0..u64::from(f.dwords)).map(move |d| a + 4 * d))
        // The interpreter faults on addresses past data memory, so line numbers fit 32 bits.
        .map(|byte| (byte >> LINE_SHIFT) as u32)
        .collect();
    lines.sort_unstable();
    lines.dedup();
    lines
}

fn limit(why: String) -> InterpError {
    InterpError::TraceLimit(why)
}

/// The sorted distinct PCs of every recorded instance, at most [`MAX_LDST_PCS`].
fn ldst_pcs(logs: &[WaveLog]) -> Result<Vec<u32>, InterpError> {
    let mut pcs: Vec<u32> = logs
        .iter()
        .flat_map(|l| l.raws.iter().map(|r| r.pc))
        .collect();
    pcs.sort_unstable();
    pcs.dedup();
    if pcs.len() > MAX_LDST_PCS {
        return Err(limit(format!(
            "{} distinct global load/store PCs, at most {MAX_LDST_PCS}",
            pcs.len()
        )));
    }
    Ok(pcs)
}

/// One wavefront's [`WarpTrace`]: `k` counted per PC, PCs indexed through `index`.
fn warp_trace(
    log: WaveLog,
    block: u32,
    warp: u32,
    index: &HashMap<u32, u8>,
) -> Result<WarpTrace, InterpError> {
    let mut seen: HashMap<u32, u16> = HashMap::new();
    let mut accesses = Vec::with_capacity(log.raws.len());
    for r in log.raws {
        let k = seen.entry(r.pc).or_insert(0);
        let epoch = u8::try_from(r.epoch).map_err(|_| {
            limit(format!(
                "work-group {block} wave {warp}: a global load/store after {} barriers (at \
                 most 255)",
                r.epoch
            ))
        })?;
        accesses.push(Access {
            pc: r.pc,
            pc_idx: index[&r.pc],
            k: *k,
            epoch,
            is_store: r.is_store,
            lines: r.lines,
            mask: r.mask,
        });
        *k += 1;
    }
    Ok(WarpTrace {
        block,
        warp,
        accesses,
    })
}

/// Turns the recorded logs into the [`Analysis`].
fn finish(rec: Recorder, dims: Dims) -> Result<Analysis, InterpError> {
    if let Some(why) = rec.overflow {
        return Err(limit(why));
    }
    let ldst_pcs = ldst_pcs(&rec.logs)?;
    let index: HashMap<u32, u8> = (0..=u8::MAX)
        .zip(&ldst_pcs)
        .map(|(i, &pc)| (pc, i))
        .collect();
    let wpg = rec.waves_per_group;
    let warps = (0..)
        .zip(rec.logs)
        .map(|(i, log)| warp_trace(log, i / wpg, i % wpg, &index))
        .collect::<Result<_, _>>()?;
    Ok(Analysis {
        ldst_pcs,
        grid: [dims.groups(), 1, 1],
        block: [dims.wg, 1, 1],
        warps,
    })
}

/// Runs the launch on the reference interpreter (on a copy of `mem`; arguments as in
/// [`crate::interp::run`]) and returns every wavefront's ordered global load/store trace:
/// one [`WarpTrace`] per wavefront in (work-group, wave) order, FLAT instances with a
/// non-empty EXEC only (see the module documentation for the field mapping).
///
/// Errors: the interpreter's, or [`InterpError::TraceLimit`] when a wavefront records more
/// than [`MAX_TRACE_DEPTH`] instances, the launch more than [`MAX_LDST_PCS`] distinct PCs,
/// or an instance follows more than 255 barriers.
pub fn analyze(
    code: &[u32],
    entry_pc: u32,
    dims: Dims,
    lds_bytes: u32,
    abi: impl Into<Abi>,
    mem: &[u32],
    cfg: &InterpConfig,
) -> Result<Analysis, InterpError> {
    dims.check()
        .map_err(|e| InterpError::BadLaunch(e.to_string()))?;
    let mut rec = Recorder::new(dims);
    let mut mem = mem.to_vec();
    let mut observe = |e: &MemEvent| rec.record(e);
    run_observed(
        code,
        entry_pc,
        dims,
        lds_bytes,
        abi,
        &mut mem,
        cfg,
        &mut observe,
    )?;
    finish(rec, dims)
}

/// `a` with every instance's `k` replaced by its index in its wavefront's trace: R1's key
/// `(wave, epoch, k, pc_idx, block, warp)` then orders by (epoch, sequence number), which is
/// how the compute unit configures its reordering unit (sequence-major release,
/// docs/assumptions.md#A44). With per-PC `k`, a wavefront that enters a new loop has the
/// smallest key and runs the loop alone, each iteration paying its whole load-use latency.
pub fn sequence_major(a: &Analysis) -> Analysis {
    let mut s = a.clone();
    for w in &mut s.warps {
        for (i, x) in (0u16..).zip(&mut w.accesses) {
            x.k = i;
        }
    }
    s
}

/// The static L1 estimate of a launch whose work-groups run in rounds of `resident_wgs`
/// consecutive work-groups with the reordering unit on: the R1 release order (epoch-major,
/// sequence-major: [`sequence_major`]) replayed
/// through a cold LRU L1 of `sets` × `ways` 128-byte lines whose stores evict on a hit and allocate
/// nothing on a miss. Its `misses` is the count the hardware L1 must reproduce.
pub fn predict_l1(
    a: &Analysis,
    resident_wgs: usize,
    sets: u32,
    ways: u32,
) -> Result<Estimate, String> {
    let order = release_order(
        &sequence_major(a),
        Rule::R1 { epoch_major: true },
        resident_wgs,
    )
    .map_err(|e| e.to_string())?;
    let cfg = CacheConfig {
        sets,
        ways,
        line_bytes: LINE_BYTES,
        write: WritePolicy::EvictNoAllocate,
    };
    estimate(a, &order, cfg).map_err(|e| e.to_string())
}

/// The reordering unit's release configuration for analysis `a`: every wavefront's trace, by
/// global wavefront index (the analysis lists waves in (work-group, wave) order).
pub fn plan(a: &Analysis) -> ReorderPlan {
    let waves = a
        .warps
        .iter()
        .map(|w| {
            w.accesses
                .iter()
                .map(|x| TraceEntry {
                    pc: x.pc,
                    pc_idx: x.pc_idx,
                    epoch: x.epoch,
                    k: x.k,
                })
                .collect()
        })
        .collect();
    ReorderPlan { waves }
}
