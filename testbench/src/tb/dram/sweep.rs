//! LID sweeps over every word alignment of a request within one 16 KiB bank-pair span (the
//! authors derived Eq. 15 and 16 the same way, by exhaustive simulation), on the reference model
//! (cycle-equivalent to the RTL, checked by the testbenches), in parallel over the cores.

use super::bound::{tid, worst_bursts, FRONT_END};
use super::run::run;
use crate::cu::sweep::try_parallel;
use rtgpu_hw::dram::model::{DramModel, Request};
use rtgpu_hw::dram::Part;
use serde::Serialize;
use std::collections::BTreeMap;

/// Word alignments in a bank-pair span: 16 KiB / 4 bytes.
pub const ALIGNMENTS: u32 = 4096;

/// The result of a sweep.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Sweep {
    /// Words per request.
    pub words: u32,
    /// Write requests.
    pub write: bool,
    /// Smallest LID over the alignments (from the trigger).
    pub min: u32,
    /// Largest LID.
    pub max: u32,
    /// The start word of the first alignment reaching `max`.
    pub worst_addr: u32,
    /// Eq. 15 for the worst-case burst count, plus the front-end latency.
    pub bound: u32,
    /// Eq. 15 bounds every alignment (`max ≤ bound`); false above 48 KiB on DDR4-3200AA x16
    /// (112 KiB on x8), where rule 2 starves a pair's last CAS (docs/blocks/dram.md).
    pub bounded: bool,
}

/// The LID of one contiguous request from an idle controller (refresh phase 0: no refresh
/// falls due during one request).
pub fn lid(part: &Part, write: bool, addr: u32, words: u32) -> Result<u32, String> {
    let mut model = DramModel::new(*part, 0);
    let r = run(
        &mut model,
        part,
        0,
        &[Request::contiguous(write, addr, words)],
        0,
        1_000_000,
    )?;
    Ok(r.completions[0].lid)
}

/// Sweeps `words`-word requests over all [`ALIGNMENTS`] start words. The command stream
/// depends only on the bursts a request touches (the word masks only reach the data bus), so
/// alignments with the same first burst and burst count share one simulation.
pub fn sweep(part: &Part, write: bool, words: u32) -> Result<Sweep, String> {
    if words == 0 {
        return Err("a request needs at least one word".into());
    }
    let mut classes: BTreeMap<(u32, u32), u32> = BTreeMap::new();
    for a in 0..ALIGNMENTS {
        classes.entry(class(a, words)).or_insert(a);
    }
    let reps: Vec<(u32, u32)> = classes.iter().map(|(&k, &a)| (a, k.1)).collect();
    let lids = try_parallel(&reps, |&(addr, _)| lid(part, write, addr, words))?;
    let by_class: BTreeMap<(u32, u32), u32> = classes.keys().copied().zip(lids).collect();
    let mut out = Sweep {
        words,
        write,
        min: u32::MAX,
        max: 0,
        worst_addr: 0,
        bound: tid(part, write, worst_bursts(words)) + FRONT_END,
        bounded: true,
    };
    for a in 0..ALIGNMENTS {
        let l = by_class[&class(a, words)];
        out.min = out.min.min(l);
        if l > out.max {
            out.max = l;
            out.worst_addr = a;
        }
    }
    out.bounded = out.max <= out.bound;
    Ok(out)
}

/// (first burst, bursts touched) of a request starting at word `a`.
fn class(a: u32, words: u32) -> (u32, u32) {
    let first = a / 16;
    (first, (a + words - 1) / 16 - first + 1)
}

/// Sweeps of `b`-burst requests (16·b words) for every b in `bursts`.
pub fn table(part: &Part, write: bool, bursts: &[u32]) -> Result<Vec<Sweep>, String> {
    bursts.iter().map(|&b| sweep(part, write, 16 * b)).collect()
}

/// Start words of a [`tiles`] sweep: every word of the first 16 bursts (both banks of a
/// pair, every offset inside a burst).
pub const TILE_STARTS: u32 = 256;

/// A 2D tile shape's LID over the [`TILE_STARTS`] start words.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct TileSweep {
    /// Words per row.
    pub words: u32,
    /// Rows.
    pub rows: u16,
    /// Words from one row's start to the next.
    pub period: u32,
    /// Smallest LID (from the trigger).
    pub min: u32,
    /// Largest LID.
    pub max: u32,
    /// The first start word reaching `max`.
    pub worst_addr: u32,
    /// Data-bus use at the worst start: data cycles / LID.
    pub util: f64,
}

/// One tile request from an idle controller: (LID, data cycles).
fn tile_lid(part: &Part, req: &Request) -> Result<(u32, u64), String> {
    let mut model = DramModel::new(*part, 0);
    let r = run(
        &mut model,
        part,
        0,
        std::slice::from_ref(req),
        0,
        10_000_000,
    )?;
    Ok((r.completions[0].lid, r.dq_cycles))
}

/// Sweeps each `(words, rows, period)` shape over the [`TILE_STARTS`] start words; `tick` is
/// called after each shape.
pub fn tiles(
    part: &Part,
    write: bool,
    shapes: &[(u32, u16, u32)],
    tick: impl Fn(),
) -> Result<Vec<TileSweep>, String> {
    shapes
        .iter()
        .map(|&shape| {
            let s = tile_sweep(part, write, shape, TILE_STARTS)?;
            tick();
            Ok(s)
        })
        .collect()
}

/// Start words covering a tile's every placement in the address map: four bank pairs of
/// 16 KiB (64 KiB, after which only the row changes). From an idle controller whose current
/// pair is 0, a start shifted by k pairs is the same request with the current pair k pairs
/// back (the arbiter's distances are rotational), so these starts also cover whichever pair
/// the previous request left current (docs/assumptions.md#A90).
pub const MAP_STARTS: u32 = 16384;

/// One `(words, rows, period)` shape over start words `0..starts`. The command stream depends
/// only on the bursts the tile touches, so starts touching the same bursts share one run.
pub fn tile_sweep(
    part: &Part,
    write: bool,
    (words, rows, period): (u32, u16, u32),
    starts: u32,
) -> Result<TileSweep, String> {
    let mut classes: BTreeMap<(u32, Vec<u32>), u32> = BTreeMap::new();
    for a in 0..starts {
        classes.entry(touched(a, words, rows, period)).or_insert(a);
    }
    let reps: Vec<u32> = classes.values().copied().collect();
    let runs = try_parallel(&reps, |&a| {
        tile_lid(part, &Request::tile(write, a, words, period, rows))
    })?;
    let by_class: BTreeMap<&(u32, Vec<u32>), (u32, u64)> = classes.keys().zip(runs).collect();
    let mut out = TileSweep {
        words,
        rows,
        period,
        min: u32::MAX,
        max: 0,
        worst_addr: 0,
        util: 0.0,
    };
    for a in 0..starts {
        let (l, dq) = by_class[&touched(a, words, rows, period)];
        out.min = out.min.min(l);
        if l > out.max {
            (out.max, out.worst_addr) = (l, a);
            out.util = dq as f64 / f64::from(l.max(1));
        }
    }
    Ok(out)
}

/// (first burst, the touched bursts relative to it) of a tile starting at word `a`.
fn touched(a: u32, words: u32, rows: u16, period: u32) -> (u32, Vec<u32>) {
    let first = a / 16;
    let mut b: Vec<u32> = (0..u32::from(rows))
        .flat_map(|r| {
            let s = a + r * period;
            s / 16..=(s + words - 1) / 16
        })
        .map(|x| x - first)
        .collect();
    b.dedup();
    (first, b)
}
