//! Phase costs of the Sim-D program model, in core cycles.
//!
//! - **Compute phase**: the in-order compute unit's instruction-count bound of
//!   [`super::super::timing`] (each instruction's latency, the waits for its own loads, the
//!   VALU and the LDS, the shared SMEM pipe): T_j, the issue time of segment j's tile
//!   instruction after the previous one, of one wavefront alone; the work-group's k
//!   wavefronts per SIMD time-share it, so the phase takes at most k·(T_j + latency of the
//!   tile instruction) plus the hand-over, and the first phase the work-group's dispatch
//!   (docs/assumptions.md#A91); plus `lds_period` cycles per DS instruction of the segment
//!   of every other wavefront of the work-group, the only one computing
//!   (docs/assumptions.md#A105).
//! - **Access phase**: the transfer's worst LID over every placement (the DRAM controller
//!   model swept over [`MAP_STARTS`] start words, from the trigger, so the front-end is in it;
//!   docs/assumptions.md#A90) plus the two clock crossings (request: at most `stages + 1` DRAM
//!   periods; completion: at most `stages + 1` core periods), rounded up to core cycles, plus
//!   the core cycle the completion is taken in.

use super::super::timing::{is_ds, lds_interference, Rules};
use super::model::{Segment, TileShape};
use crate::tb::dram::sweep::{tile_sweep, MAP_STARTS};
use rtgpu_hw::cu::CuConfig;
use rtgpu_hw::dram::Part;
use std::sync::Mutex;

/// Cycles a compute phase may lose at its two ends: the slot's wavefronts wake one cycle after
/// the hand-over, and the submission is seen one cycle after the last wavefront's arrival
/// (docs/assumptions.md#A91).
pub const HANDOVER: u64 = 2;

/// Cycles the first compute phase of a work-group may lose to its dispatch: the dispatcher
/// places one wavefront per SIMD per cycle, plus two cycles to register the work-group
/// (docs/assumptions.md#A91).
pub fn dispatch(waves: u32, units: u64) -> u64 {
    u64::from(waves).div_ceil(units) + 2
}

/// The largest tile span the access cost covers: three bank pairs (48 KiB). Beyond it a tile
/// meets a bank pair again in another row and the swept placements no longer stand for every
/// state the previous request leaves (docs/assumptions.md#A90); such kernels are refused.
pub const MAX_SPAN_WORDS: u64 = 3 * 4096;

/// Each segment's compute phase bound for work-groups of `waves` wavefronts.
pub fn compute_costs(segs: &[Segment], cfg: &CuConfig, waves: u32) -> Vec<u64> {
    let units = cfg.n_simd as u64;
    let rules = Rules {
        lat: cfg.lat,
        pipe_wait: units - 1,
        vmem_wait: 0,
    };
    let path: Vec<_> = segs.iter().flat_map(|s| s.nodes.iter().copied()).collect();
    let t = rules.walk(&path);
    let k = u64::from(waves).div_ceil(units);
    let mut at = 0;
    let mut prev = 0;
    let mut first = dispatch(waves, units);
    segs.iter()
        .map(|s| {
            at += s.nodes.len();
            let tile = &path[at - 1];
            let own = t[at - 1] - prev;
            prev = t[at - 1];
            let ds = s.nodes.iter().filter(|n| is_ds(n)).count() as u64;
            let lds = lds_interference(&cfg.lat, u64::from(waves).saturating_sub(1), ds);
            k * (own + rules.latency(tile)) + lds + HANDOVER + std::mem::take(&mut first)
        })
        .collect()
}

/// The worst LID (DRAM cycles from the trigger) of `shape` over every placement; each shape
/// is swept once per process.
pub fn worst_lid(part: &Part, shape: &TileShape) -> Result<u32, String> {
    static CACHE: Mutex<Vec<((&'static str, TileShape), u32)>> = Mutex::new(Vec::new());
    if shape.span_words() > MAX_SPAN_WORDS {
        return Err(format!(
            "a {}-word by {}-row tile (period {}) spans {} KiB: above 48 KiB the swept \
             placements do not bound its LID (docs/assumptions.md#A90)",
            shape.words,
            shape.rows,
            shape.period,
            shape.span_words() * 4 / 1024
        ));
    }
    let key = (part.name, *shape);
    let lock = || {
        CACHE
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    };
    if let Some(&(_, l)) = lock().iter().find(|(k, _)| *k == key) {
        return Ok(l);
    }
    let rows = u16::try_from(shape.rows).map_err(|_| "more than 65,535 rows".to_string())?;
    let s = tile_sweep(
        part,
        shape.store,
        (shape.words, rows, shape.period),
        MAP_STARTS,
    )?;
    lock().push((key, s.max));
    Ok(s.max)
}

/// An access phase's bound in core cycles for a worst LID of `lid` DRAM cycles.
pub fn access_cost(cfg: &CuConfig, part: &Part, lid: u32) -> u64 {
    let m = &cfg.memory;
    let stages = u64::from(m.cdc_stages);
    let dram_ps = (stages + 1 + u64::from(lid)) * u64::from(part.tck_ps);
    dram_ps.div_ceil(u64::from(m.core_ps)) + stages + 2
}
