//! `l1-cache`: the L1 data cache, 32 sets × 4 ways (16 kB), on the reordering paper's
//! example (two warps load lines 0..3, two warps store lines 16..19; 16 accesses, 12 misses) with
//! a 20-cycle memory, then random loads, stores, fills (of outstanding misses and stray lines)
//! and resets. Every cycle: RTL == reference model.

use super::rtl::{apply_l1, read_l1};
use crate::bench::engines::{of_tb, EngineCycles};
use crate::bench::BenchRow;
use crate::sim::cosim::verilog_of;
use crate::sim::waves::{as_refs, Format, Gtkw};
use crate::tb::{drive, mismatch, BlockTb, TbError, TbOptions, TbRun};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rtgpu_hw::cache::model::{CacheIn, CacheModel};
use rtgpu_hw::cache::L1Cache;
use std::collections::VecDeque;
use std::path::Path;

/// Sets and ways of the testbench's cache (the paper's 16 kB configuration).
const SETS: usize = 32;
/// Ways.
const WAYS: usize = 4;
/// Memory latency of the directed part (cycles from the miss to its fill).
const LATENCY: u64 = 20;

/// The `l1-cache` testbench.
pub struct L1Tb;

/// The paper's release order as line accesses: (line, store).
fn paper() -> Vec<(u32, bool)> {
    let loads = (0..2).flat_map(|_| (0..4).map(|l| (l, false)));
    let stores = (0..2).flat_map(|_| (16..20).map(|l| (l, true)));
    loads.chain(stores).collect()
}

/// The stimulus: the paper's accesses one after the other (each presented until taken),
/// fills `LATENCY` cycles after their misses; then random traffic.
struct Stim {
    paper: VecDeque<(u32, bool)>,
    fills: VecDeque<(u64, u32)>,
    outstanding: Vec<u32>,
    rng: ChaCha8Rng,
}

impl Stim {
    fn input(&mut self, k: u64) -> CacheIn {
        if k == 0 {
            return CacheIn::RESET;
        }
        if !self.paper.is_empty() || !self.fills.is_empty() {
            let fill = match self.fills.front() {
                Some(&(at, line)) if at <= k => self.fills.pop_front().map(|_| line),
                _ => None,
            };
            return CacheIn::default()
                .with_req(self.paper.front().copied())
                .with_fill(fill);
        }
        self.random()
    }

    fn random(&mut self) -> CacheIn {
        let r = &mut self.rng;
        let req = r
            .gen_bool(0.7)
            .then(|| (r.gen_range(0..160u32) * 3, r.gen_bool(0.25)));
        let fill = match r.gen_range(0..3) {
            0 if !self.outstanding.is_empty() => {
                let i = r.gen_range(0..self.outstanding.len());
                Some(self.outstanding.swap_remove(i))
            }
            1 => Some(r.gen_range(0..160u32) * 3),
            _ => None,
        };
        CacheIn {
            reset: r.gen_range(0..400) == 0,
            ..CacheIn::default().with_req(req).with_fill(fill)
        }
    }

    /// Bookkeeping after the cycle: the paper's access taken, misses to fill.
    fn observe(&mut self, k: u64, inp: &CacheIn, ready: bool, miss_line: Option<u32>) {
        if inp.req_valid && ready && !self.paper.is_empty() {
            self.paper.pop_front();
        }
        if let Some(line) = miss_line {
            self.fills.push_back((k + LATENCY, line));
            self.outstanding.push(line);
        }
    }
}

impl BlockTb for L1Tb {
    fn bench(&self, n: EngineCycles, dir: &Path) -> Option<Result<Vec<BenchRow>, String>> {
        of_tb(
            self,
            L1Cache::<SETS, WAYS>::default,
            |u| &mut u.clock,
            n,
            dir,
        )
    }

    fn name(&self) -> &'static str {
        "l1-cache"
    }

    fn description(&self) -> &'static str {
        "L1 data cache 32 sets x 4 ways: the paper's example (16 accesses, 12 misses), then random loads, stores, fills and resets; RTL == model"
    }

    fn run(&self, opts: &TbOptions) -> Result<TbRun, TbError> {
        let mut stim = Stim {
            paper: paper().into(),
            fills: VecDeque::new(),
            outstanding: Vec::new(),
            rng: ChaCha8Rng::seed_from_u64(opts.seed),
        };
        let mut model = CacheModel::new(SETS, WAYS).map_err(|e| mismatch(0, e))?;
        let mut paper_done = false;
        let cycles = opts.cycles.max(80);
        let run = drive(
            L1Cache::<SETS, WAYS>::default(),
            self.name(),
            |u| &mut u.clock,
            opts,
            cycles,
            |h, k| {
                let inp = stim.input(k);
                let got = h.cycle(|u| apply_l1(u, &inp), read_l1)?;
                let want = model.step(&inp);
                if got != want {
                    return Err(mismatch(k, format!("{inp:?}: RTL {got:?}, model {want:?}")));
                }
                let load_miss = got.mem_req_valid && !got.mem_req_store && inp.req_valid;
                stim.observe(
                    k,
                    &inp,
                    got.req_ready,
                    load_miss.then_some(got.mem_req_line),
                );
                if !paper_done && stim.paper.is_empty() && stim.fills.is_empty() {
                    paper_done = true;
                    let seen = (model.accesses(), model.misses());
                    if seen != (16, 12) {
                        return Err(mismatch(
                            k,
                            format!("paper example: (accesses, misses) {seen:?}, want (16, 12)"),
                        ));
                    }
                    stim.outstanding.clear();
                    return Ok(Some("paper: 16 accesses, 12 misses".into()));
                }
                Ok(None)
            },
            || layout(self.name()),
        )?;
        if !paper_done {
            return Err(mismatch(
                cycles,
                "the paper's example did not finish".into(),
            ));
        }
        Ok(TbRun {
            summary: format!("{cycles} cycles, the paper's example 16 accesses / 12 misses, RTL == model every cycle"),
            ..run
        })
    }

    fn verilog(&self) -> Result<String, String> {
        verilog_of(&mut L1Cache::<SETS, WAYS>::default())
    }
}

fn layout(n: &str) -> Gtkw {
    let p = |s: &str| format!("{n}.{s}");
    let req = [
        ("reset", None),
        ("req_valid", None),
        ("req_line", Some(Format::Dec)),
        ("req_store", None),
        ("req_ready", None),
        ("hit", None),
        ("way", Some(Format::Dec)),
    ]
    .map(|(s, f)| (p(s), f));
    let victim = [
        ("victim", Some(Format::Dec)),
        ("victim_valid", None),
        ("victim_line", Some(Format::Dec)),
    ]
    .map(|(s, f)| (p(s), f));
    let mem = [
        ("mem_req_valid", None),
        ("mem_req_line", Some(Format::Dec)),
        ("mem_req_store", None),
        ("mem_fill", None),
        ("mem_fill_line", Some(Format::Dec)),
        ("accesses", Some(Format::Dec)),
        ("misses", Some(Format::Dec)),
    ]
    .map(|(s, f)| (p(s), f));
    Gtkw::new(&format!(
        "rtgpu {n}: the L1 data cache (hw/src/cache/l1.rs), the reordering paper"
    ))
    .window(80 * crate::tb::TB_PERIOD_PS)
    .group("access", &as_refs(&req))
    .group("victim", &as_refs(&victim))
    .group("memory and counters", &as_refs(&mem))
}
