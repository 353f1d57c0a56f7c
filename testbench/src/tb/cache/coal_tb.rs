//! `coalescer`: the compute unit's coalescer, 64 lanes, on random FLAT instructions: exec
//! masks from empty to full, addresses clustered on a few lines (so that lines repeat and lanes
//! cross into the next line) or anywhere, 1 to 4 dwords per lane, a consumer that stalls at
//! random, loads presented while busy (ignored), and resets. Every cycle: RTL == reference
//! model; every instruction: the spans taken up to `last` == `memsys::coalesce`.

use super::rtl::{apply_coal, read_coal};
use crate::bench::engines::{of_tb, EngineCycles};
use crate::bench::BenchRow;
use crate::sim::cosim::verilog_of;
use crate::sim::waves::{as_refs, Format, Gtkw};
use crate::tb::{drive, mismatch, BlockTb, TbError, TbOptions, TbRun};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rtgpu_hw::cache::model::{CoalescerIn, CoalescerModel, CoalescerOut};
use rtgpu_hw::cache::Coalescer;
use rtgpu_hw::memsys::coalesce::{coalesce, LineSpan};
use std::path::Path;

/// Lanes of a wavefront.
const LANES: usize = 64;

/// The `coalescer` testbench.
pub struct CoalescerTb;

/// The stimulus and the oracle's bookkeeping.
struct Stim {
    rng: ChaCha8Rng,
    /// The instruction loaded: `coalesce` of its lanes, and the spans taken so far.
    current: Option<(Vec<LineSpan>, Vec<LineSpan>)>,
    /// Instructions checked against `coalesce`, and their lines.
    done: (u64, u64),
}

impl Stim {
    /// A random instruction: exec mask, addresses, size.
    fn instruction(&mut self) -> CoalescerIn<LANES> {
        let r = &mut self.rng;
        let mask = match r.gen_range(0..6) {
            0 => 0,
            1 => u64::MAX,
            2 => 1 << r.gen_range(0..64),
            _ => r.gen(),
        };
        let base = r.gen_range(0..1u32 << 20) * 128;
        let spread = r.gen_range(1..8u32);
        let addr = std::array::from_fn(|_| match r.gen_range(0..8) {
            0 => r.gen_range(0..u32::MAX - 128) & !3,
            _ => base + r.gen_range(0..spread) * 128 + 4 * r.gen_range(0..32u32),
        });
        CoalescerIn {
            size: r.gen_range(0..4),
            ..CoalescerIn::load(addr, mask)
        }
    }

    /// The inputs of cycle `k` given the outputs of the cycle (from the registers).
    fn input(&mut self, k: u64, out: &CoalescerOut) -> Result<CoalescerIn<LANES>, TbError> {
        if k == 0 || self.rng.gen_range(0..300) == 0 {
            self.current = None;
            return Ok(CoalescerIn {
                reset: true,
                ..CoalescerIn::default()
            });
        }
        if !out.busy {
            // An instruction ends at `last` (then `current` is gone) or has no line at all.
            if let Some((want, got)) = self.current.take().filter(|(w, _)| !w.is_empty()) {
                let detail = format!("idle after spans {got:?} of {want:?}");
                return Err(mismatch(k, detail));
            }
            let i = self.instruction();
            let active = (0..LANES).filter(|&l| i.mask >> l & 1 == 1);
            let want = coalesce(
                active.map(|l| u64::from(i.addr[l])),
                usize::from(i.size) + 1,
            );
            self.current = Some((want, Vec::new()));
            return Ok(i);
        }
        // Busy: the consumer takes the line or stalls; a load now is ignored.
        let mut i = match self.rng.gen_bool(0.2) {
            true => self.instruction(),
            false => CoalescerIn::default(),
        };
        i.next = self.rng.gen_bool(0.75);
        Ok(i)
    }

    /// After cycle `k` (inputs `i`, outputs `out`): the span taken, and at `last` the check
    /// against `coalesce`.
    fn observe(
        &mut self,
        k: u64,
        i: &CoalescerIn<LANES>,
        out: &CoalescerOut,
    ) -> Result<(), TbError> {
        let Some((want, got)) = &mut self.current else {
            return Ok(());
        };
        if !(out.busy && i.next) {
            return Ok(());
        }
        got.push(LineSpan {
            line: out.line,
            first: out.first,
            words: out.words,
        });
        if out.last {
            if got != want {
                return Err(mismatch(k, format!("spans {got:?}, coalesce {want:?}")));
            }
            self.done.0 += 1;
            self.done.1 += got.len() as u64;
            self.current = None;
        }
        Ok(())
    }
}

impl BlockTb for CoalescerTb {
    fn bench(&self, n: EngineCycles, dir: &Path) -> Option<Result<Vec<BenchRow>, String>> {
        of_tb(self, Coalescer::<LANES>::default, |u| &mut u.clock, n, dir)
    }

    fn name(&self) -> &'static str {
        "coalescer"
    }

    fn description(&self) -> &'static str {
        "coalescer, 64 lanes: random exec masks, clustered addresses, 1-4 dwords per lane, stalls and resets; RTL == model every cycle, spans == memsys::coalesce"
    }

    fn run(&self, opts: &TbOptions) -> Result<TbRun, TbError> {
        let mut stim = Stim {
            rng: ChaCha8Rng::seed_from_u64(opts.seed),
            current: None,
            done: (0, 0),
        };
        let mut model = CoalescerModel::<LANES>::new();
        let cycles = opts.cycles.max(100);
        let run = drive(
            Coalescer::<LANES>::default(),
            self.name(),
            |u| &mut u.clock,
            opts,
            cycles,
            |h, k| {
                let inp = stim.input(k, &model.outputs(&CoalescerIn::default()))?;
                let got = h.cycle(|u| apply_coal(u, &inp), read_coal)?;
                let want = model.step(&inp);
                if got != want {
                    return Err(mismatch(k, format!("RTL {got:?}, model {want:?}")));
                }
                let before = stim.done.0;
                stim.observe(k, &inp, &got)?;
                Ok((stim.done.0 > before && before < 3)
                    .then(|| format!("last line {:#x}", got.line)))
            },
            || layout(self.name()),
        )?;
        let (insns, lines) = stim.done;
        if insns == 0 {
            return Err(mismatch(cycles, "no instruction completed".into()));
        }
        Ok(TbRun {
            summary: format!(
                "{cycles} cycles, {insns} instructions ({lines} lines) == memsys::coalesce, RTL == model every cycle"
            ),
            ..run
        })
    }

    fn verilog(&self) -> Result<String, String> {
        verilog_of(&mut Coalescer::<LANES>::default())
    }
}

fn layout(n: &str) -> Gtkw {
    let p = |s: &str| format!("{n}.{s}");
    let input = [
        ("reset", None),
        ("load", None),
        ("mask", Some(Format::Hex)),
        ("size", Some(Format::Dec)),
        ("addr$0", Some(Format::Hex)),
        ("addr$1", Some(Format::Hex)),
        ("advance", None),
    ]
    .map(|(s, f)| (p(s), f));
    let out = [
        ("busy", None),
        ("line_valid", None),
        ("line", Some(Format::Hex)),
        ("first", Some(Format::Dec)),
        ("words", Some(Format::Dec)),
        ("last", None),
    ]
    .map(|(s, f)| (p(s), f));
    Gtkw::new(&format!(
        "rtgpu {n}: the coalescer (hw/src/cache/rtl/coalescer.rs), 64 lanes"
    ))
    .window(60 * crate::tb::TB_PERIOD_PS)
    .group("instruction", &as_refs(&input))
    .group("line out", &as_refs(&out))
}
