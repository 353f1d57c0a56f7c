//! `reorder-example`: the path below the LD/ST unit ([`LdstPath`]: reordering unit, 4 slots ×
//! 4 entries, 8 trace entries; coalescer; L1 of 4 sets × 2 ways) driven by the system's warps
//! and memory, RTL == reference model every cycle.
//!
//! First the reordering paper's example ( Table 1's runtime map, Fig. 7's release order,
//! 12 misses of 16), then random episodes (1–4 warps, loops, stores, empty masks, random
//! slots, latency, jitter, search mode, load-use distance, in all three modes), each after a
//! reset; with reordering every episode's misses must equal the static estimate.

use super::rtl::rtl_path;
use super::system::{estimate_traffic, Geometry, Mode, SysConfig, System};
use super::traffic::{RandomTraffic, Traffic};
use crate::bench::engines::{of_tb, EngineCycles};
use crate::bench::BenchRow;
use crate::sim::cosim::{verilog_of, Waiver};
use crate::sim::lockstep::LockStep;
use crate::sim::waves::{as_refs, named, Format, Gtkw};
use crate::tb::{mismatch, run_cycles, tb_finish, tb_harness, BlockTb, TbError, TbOptions, TbRun};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rtgpu_hw::ldst::model::PathModel;
use rtgpu_hw::ldst::LdstPath;
use rtgpu_wcet::reorder::analyzer::analyze;
use rtgpu_wcet::reorder::kernels::BUILTIN;
use rtgpu_wcet::reorder::ptx::Kernel;
use std::path::Path;

/// Slots, entries per channel, trace entries.
const W: usize = 4;
const D: usize = 4;
const T: usize = 8;
/// L1 sets and ways.
const SETS: usize = 4;
const WAYS: usize = 2;

/// The block under test.
type Block = LdstPath<W, D, T, SETS, WAYS>;

/// The geometry of the block.
const GEOMETRY: Geometry = Geometry {
    slots: W,
    depth: D,
    sets: SETS,
    ways: WAYS,
};

/// The `reorder-example` testbench.
pub struct ReorderExampleTb;

/// The paper's example: its traffic and launch (Table 1: B1W0 → slot 0, B1W1 → 1,
/// B0W0 → 2, B0W1 → 3; memory latency 20).
fn paper() -> Result<(Traffic, SysConfig), String> {
    let l = BUILTIN[0];
    let k = Kernel::parse(l.source).map_err(|e| e.to_string())?;
    let a = analyze(&k, l.params, l.grid, l.block).map_err(|e| e.to_string())?;
    let c = SysConfig {
        mode: Mode::Reorder,
        slots: vec![2, 3, 0, 1],
        latency: 20,
        ..SysConfig::default()
    };
    Ok((Traffic::from_analysis(&a)?, c))
}

/// A random episode.
fn episode(rng: &mut ChaCha8Rng, n: u64) -> (Traffic, SysConfig) {
    let warps = rng.gen_range(1..=W);
    let p = RandomTraffic {
        warps,
        warps_per_block: 2,
        pcs: 4,
        iterations: 2,
        lines: 12,
        store_percent: 25,
    };
    let t = Traffic::random(rng, p);
    let mut slots: Vec<u8> = (0..W as u8).collect();
    slots.shuffle(rng);
    slots.truncate(warps);
    let c = SysConfig {
        mode: Mode::ALL[(n % 3) as usize],
        latency: rng.gen_range(4..=30),
        jitter: rng.gen_range(0..=20),
        gap: rng.gen_range(0..=4),
        parallel_search: rng.gen(),
        seed: rng.gen(),
        slots,
        load_use: rng.gen_range(0..=2),
        queue: rng.gen_range(1..=4),
        max_cycles: 20_000,
        ..SysConfig::default()
    };
    (t, c)
}

/// The episode running and what to check at its end.
struct Episode {
    sys: System,
    traffic: Traffic,
    mode: Mode,
    paper: bool,
}

impl Episode {
    fn new(t: Traffic, c: SysConfig, paper: bool) -> Result<Self, String> {
        let mode = c.mode;
        let sys = System::new(&t, c, W).map_err(|e| e.to_string())?;
        Ok(Episode {
            sys,
            traffic: t,
            mode,
            paper,
        })
    }

    /// The end-of-episode check; `Some(label)` for a marker.
    fn check(&self) -> Result<Option<String>, String> {
        let r = self.sys.result();
        if self.paper {
            let order = [(0, 0), (1, 0), (2, 0), (3, 0)];
            if r.releases != order || (r.accesses, r.misses) != (16, 12) {
                return Err(format!(
                    "paper example: releases {:?}, {} misses of {}; want Fig. 7's order, 12 of 16",
                    r.releases, r.misses, r.accesses
                ));
            }
            return Ok(Some("paper: Fig. 7 order, 12 misses of 16".into()));
        }
        if self.mode == Mode::Reorder {
            let e = estimate_traffic(&self.traffic, GEOMETRY)?;
            if (r.accesses, r.misses) != (e.accesses, e.misses) {
                return Err(format!(
                    "reorder: {} misses of {}, estimate {} of {}",
                    r.misses, r.accesses, e.misses, e.accesses
                ));
            }
        }
        Ok(None)
    }
}

impl BlockTb for ReorderExampleTb {
    fn bench(&self, n: EngineCycles, dir: &Path) -> Option<Result<Vec<BenchRow>, String>> {
        of_tb(self, Block::default, |u| &mut u.clock, n, dir)
    }

    fn name(&self) -> &'static str {
        "reorder-example"
    }

    fn description(&self) -> &'static str {
        "reordering unit 4x4 + coalescer + L1 4x2 under warps and memory: the paper's example (Fig. 7 order, 12 misses of 16), then random episodes in all modes, misses = estimate with reordering; RTL == model"
    }

    fn run(&self, opts: &TbOptions) -> Result<TbRun, TbError> {
        let (t, c) = paper().map_err(|e| mismatch(0, e))?;
        let mut ep = Episode::new(t, c, true).map_err(|e| mismatch(0, e))?;
        let model = PathModel::new(W, D, T, SETS, WAYS).map_err(|e| mismatch(0, e))?;
        let mut rng = ChaCha8Rng::seed_from_u64(opts.seed);
        let (mut episodes, mut paper_end) = (0u64, None);
        let cycles = opts.cycles.max(200);
        let name = self.name();
        let h = tb_harness(Block::default(), name, |u| &mut u.clock, opts)?;
        let mut path = LockStep::new(name, model, rtl_path(name, h));
        let ran = run_cycles(cycles, |k| {
            ep.sys
                .cycle(&mut path)
                .map_err(|e| mismatch(k, e.to_string()))?;
            if !ep.sys.finished() {
                return Ok(None);
            }
            let label = ep.check().map_err(|e| mismatch(k, e))?;
            if ep.paper {
                paper_end = Some(k);
            }
            episodes += 1;
            let (t, c) = episode(&mut rng, episodes);
            ep = Episode::new(t, c, false).map_err(|e| mismatch(k, e))?;
            Ok(label)
        });
        let (_, rtl) = path.into_parts();
        let run = tb_finish(rtl.into_harness(), name, opts, ran, || layout(name))?;
        let Some(end) = paper_end else {
            return Err(mismatch(
                cycles,
                "the paper's example did not finish".into(),
            ));
        };
        Ok(TbRun {
            summary: format!(
                "{cycles} cycles: the paper's example (Fig. 7 order, 12 misses of 16) by cycle {end}, then {} random episodes; RTL == model every cycle",
                episodes - 1
            ),
            ..run
        })
    }

    fn verilog(&self) -> Result<String, String> {
        verilog_of(&mut Block::default())
    }

    fn lint_waivers(&self) -> &'static [Waiver] {
        &WAIVERS
    }
}

/// rust-hdl emits the top's wiring as one `always @(*)`, which Verilator orders as a unit:
/// it reads the L1's `req_ready` and drives the coalescer's `advance`, reads the coalescer's
/// `busy` and drives `load` and the unit's `rel_ready`. No loop at signal level: the
/// coalescer's outputs come from its registers, and the L1's `req_ready` from the
/// coalescer's line and the store register.
const WAIVERS: [Waiver; 2] = [
    Waiver {
        rule: "UNOPTFLAT",
        signal: "top.l1$req_ready",
        why: "top always-block granularity: feeds the coalescer's next-state input only",
    },
    Waiver {
        rule: "UNOPTFLAT",
        signal: "top.coal$load",
        why: "top always-block granularity: the coalescer's outputs come from registers",
    },
];

/// The waveform: requests, channel occupancy per slot, the release pointer, the coalescer,
/// the L1's hits and victims, memory.
fn layout(n: &str) -> Gtkw {
    let p = |s: &str| format!("{n}.{s}");
    let group =
        |v: &[(&str, Option<Format>)]| v.iter().map(|&(s, f)| (p(s), f)).collect::<Vec<_>>();
    let dec = Some(Format::Dec);
    let req = group(&[
        ("reset", None),
        ("req_valid", None),
        ("req_slot", dec),
        ("req_seq", dec),
        ("req_pc_idx", dec),
        ("req_store", None),
        ("req_ready", None),
        ("free", Some(Format::Bin)),
    ]);
    let channels: Vec<(String, Option<Format>)> =
        (0..W).map(|w| (p(&format!("count${w}")), dec)).collect();
    let release = group(&[
        ("state", Some(Format::Named("state"))),
        ("target", dec),
        ("expect_seq", dec),
        ("rel_valid", None),
        ("rel_slot", dec),
        ("rel_tag", dec),
        ("rel_store", None),
        ("error", dec),
    ]);
    let l1 = group(&[
        ("coal_busy", None),
        ("line_valid", None),
        ("line", dec),
        ("l1_store", None),
        ("l1_ready", None),
        ("hit", None),
        ("way", dec),
        ("victim_valid", None),
        ("victim_line", dec),
        ("accesses", dec),
        ("misses", dec),
    ]);
    let mem = group(&[
        ("mem_req_valid", None),
        ("mem_req_line", dec),
        ("mem_req_store", None),
        ("mem_fill", None),
        ("mem_fill_line", dec),
    ]);
    Gtkw::new(&format!(
        "rtgpu {n}: reordering unit -> coalescer -> L1 (hw/src/ldst/), the reordering paper's Fig. 7"
    ))
    .window(48 * crate::tb::TB_PERIOD_PS)
    .names(
        "state",
        &named(&["IDLE", "SELECT", "SEARCH", "ISSUE", "DONE", "ERROR"]),
    )
    .group("LD/ST requests", &as_refs(&req))
    .group("channel occupancy per slot", &as_refs(&channels))
    .group("release (target = release pointer)", &as_refs(&release))
    .group("coalescer and L1", &as_refs(&l1))
    .group("memory", &as_refs(&mem))
}
