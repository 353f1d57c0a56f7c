//! Testbench of the dual-clock FIFO (`hw/src/cdc/`): a writer clock and a reader clock of any
//! periods (by default 1 ns and 0.625 ns, the compute unit's clock and a DDR4-3200
//! controller's, as the memory hierarchy has them), phases of filling and draining at random;
//! at every rising edge of either clock the RTL's outputs equal the behavioural model
//! `memsys::cdc::CdcFifo` (two synchronizer stages), which then takes the same push or pop.

use super::{mismatch, run_cycles, tb_finish, tb_harness_clocked, BlockTb, TbError, TbOptions};
use super::{TbRun, TB_PERIOD_PS};
use crate::sim::clock::Period;
use crate::sim::cosim::verilog_of;
use crate::sim::harness::{CycleStart, HarnessError};
use crate::sim::waves::{Format, Gtkw};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rtgpu_hw::cdc::CdcFifo;
use rtgpu_hw::memsys::cdc::{CdcFifo as Model, Clock};
use rust_hdl::core::prelude::*;

/// The `cdc` testbench.
pub struct CdcTb;

/// The testbench's FIFO: 4 places of 8 bits (pointers of 3 bits).
pub type CdcTbBlock = CdcFifo<8, 4, 3>;

/// Places of [`CdcTbBlock`].
pub const DEPTH: usize = 4;

/// Synchronizer flops each way.
pub const STAGES: u64 = 2;

/// One run of the FIFO.
#[derive(Clone, Copy, Debug)]
pub struct CdcRun {
    /// The writer's clock period, ps (its edges at k · period).
    pub wperiod_ps: u64,
    /// The reader's clock period, ps.
    pub rperiod_ps: u64,
    /// Chance of a push per writer cycle while filling, percent (draining: 100 minus it).
    pub push_pct: u32,
    /// Chance of a pop per reader cycle while draining, percent (filling: 100 minus it).
    pub pop_pct: u32,
    /// Seed of the stimulus.
    pub seed: u64,
}

/// What a run went through (the testbench's coverage).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CdcStats {
    /// Entries pushed.
    pub pushes: u64,
    /// Entries popped.
    pub pops: u64,
    /// Writer cycles that ended full with a push refused.
    pub refused: u64,
    /// Reader cycles with nothing seen.
    pub empty: u64,
}

/// Writer cycles per phase of filling or draining.
const PHASE: u64 = 40;

/// Drives the inputs of a cycle start: resets in each side's cycle 0, then pushes (writer)
/// or pops (reader) once both sides are out of reset (after `start` ps).
fn stimulus(u: &mut CdcTbBlock, ev: CycleStart, rng: &mut ChaCha8Rng, r: &CdcRun, start: u64) {
    let active = ev.ps > start;
    let filling = (ev.ps / (PHASE * r.wperiod_ps)).is_multiple_of(2);
    let pct = |p: u32, fill: bool| if fill { p } else { 100 - p.min(100) };
    if ev.domain == 0 {
        u.wreset.next = ev.cycle == 0;
        u.push.next = active && rng.gen_ratio(pct(r.push_pct, filling).min(100), 100);
        u.wdata.next = u64::from(rng.gen::<u8>()).to_bits();
    } else {
        u.rreset.next = ev.cycle == 0;
        u.pop.next = active && rng.gen_ratio(pct(r.pop_pct, !filling).min(100), 100);
    }
}

/// At the rising edge at `t` ps of domain `d` (0 writer, 1 reader): the RTL's outputs against
/// the model's, then the model takes the edge's push or pop.
fn check(
    u: &CdcTbBlock,
    d: usize,
    t: u64,
    model: &mut Model<u64>,
    stats: &mut CdcStats,
) -> Result<(), String> {
    if d == 0 {
        let rtl = (u.full.val(), u.wfree.val().index());
        let want = (!model.can_push(t), model.free_places(t));
        if rtl != want {
            return Err(format!(
                "writer edge at {t} ps: RTL (full, wfree) {rtl:?}, model {want:?}"
            ));
        }
        if u.push.val() && !rtl.0 {
            model.push(t, u.wdata.val().index() as u64);
            stats.pushes += 1;
        }
        stats.refused += u64::from(u.push.val() && rtl.0);
        return Ok(());
    }
    let rtl = (
        u.rvalid.val(),
        u.rdata.val().index() as u64,
        u.rcount.val().index(),
    );
    let head = model.peek(t).copied();
    let want = (head.is_some(), head.unwrap_or(0), model.seen(t));
    if rtl != want {
        return Err(format!(
            "reader edge at {t} ps: RTL (rvalid, rdata, rcount) {rtl:?}, model {want:?}"
        ));
    }
    if u.pop.val() && rtl.0 {
        model.pop(t);
        stats.pops += 1;
    }
    stats.empty += u64::from(!rtl.0);
    Ok(())
}

/// A clock period of `ps` picoseconds.
fn period(ps: u64) -> Result<Period, HarnessError> {
    Period::ps(ps).map_err(HarnessError::Setup)
}

/// Runs the FIFO for `cycles` writer cycles under `r`, RTL against the model at every edge.
pub fn run_fifo(r: &CdcRun, cycles: u64, opts: &TbOptions) -> Result<(TbRun, CdcStats), TbError> {
    let periods = [r.wperiod_ps, r.rperiod_ps];
    let mut h = tb_harness_clocked(CdcTbBlock::default(), "cdc", opts, |h| {
        h.add_clock_rising_at_period("wclk", period(periods[0])?, |u| &mut u.wclk)?;
        h.add_clock_rising_at_period("rclk", period(periods[1])?, |u| &mut u.rclk)?;
        Ok(())
    })?;
    let clock = |p| Clock { period: p };
    let mut model = Model::new(DEPTH, STAGES, clock(periods[0]), clock(periods[1]));
    let mut rng = ChaCha8Rng::seed_from_u64(r.seed);
    let (mut edges, mut stats) = ([0u64; 2], CdcStats::default());
    let start = periods[0].max(periods[1]);
    let ran = run_cycles(cycles, |k| {
        while edges[0] <= k {
            let mut failed = None;
            h.step_observed(
                &mut |u, ev| stimulus(u, ev, &mut rng, r, start),
                &mut |u, d| {
                    edges[d] += 1;
                    let t = edges[d] * periods[d];
                    if failed.is_none() {
                        failed = check(u, d, t, &mut model, &mut stats).err();
                    }
                },
            )?;
            if let Some(detail) = failed {
                return Err(mismatch(k, detail));
            }
        }
        Ok(None)
    });
    let mut run = tb_finish(h, "cdc", opts, ran, || layout(r))?;
    run.summary = format!(
        "{cycles} writer cycles ({} ps / {} ps), RTL == model at every edge of both clocks: \
         {} pushes, {} pops, {} pushes refused full, {} reader cycles empty",
        r.wperiod_ps, r.rperiod_ps, stats.pushes, stats.pops, stats.refused, stats.empty
    );
    Ok((run, stats))
}

/// The default run: the core's clock against a DDR4-3200 controller's.
pub const DEFAULT_RUN: CdcRun = CdcRun {
    wperiod_ps: TB_PERIOD_PS,
    rperiod_ps: 625,
    push_pct: 70,
    pop_pct: 70,
    seed: 1,
};

impl BlockTb for CdcTb {
    fn name(&self) -> &'static str {
        "cdc"
    }

    fn description(&self) -> &'static str {
        "dual-clock FIFO (hw/src/cdc), 4 places, Gray pointers, two-flop synchronizers: writer 1 ns, reader 0.625 ns, filling and draining at random; RTL == model at every edge of both clocks"
    }

    fn run(&self, opts: &TbOptions) -> Result<TbRun, TbError> {
        let r = CdcRun {
            seed: opts.seed,
            ..DEFAULT_RUN
        };
        run_fifo(&r, opts.cycles, opts).map(|(run, _)| run)
    }

    fn verilog(&self) -> Result<String, String> {
        verilog_of(&mut CdcTbBlock::default())
    }
}

fn layout(r: &CdcRun) -> Gtkw {
    let p = |s: &'static str| (s, None);
    let hex = |s: &'static str| (s, Some(Format::Hex));
    let dec = |s: &'static str| (s, Some(Format::Dec));
    Gtkw::new("rtgpu cdc: dual-clock FIFO, Gray pointers through two flops each way (hw/src/cdc/rtl/cdc_fifo.rs)")
        .window(PHASE * r.wperiod_ps)
        .group(
            "writer (wclk); r2w: read pointer synced",
            &[
                p("cdc.wclk"),
                p("cdc.wreset"),
                p("cdc.push"),
                hex("cdc.wdata"),
                p("cdc.full"),
                dec("cdc.wfree"),
                dec("cdc.wbin.q"),
                hex("cdc.wgray.q"),
                hex("cdc.r2w$0.q"),
                hex("cdc.r2w$1.q"),
                dec("cdc.rptr_w.b"),
            ],
        )
        .group(
            "reader (rclk); w2r: write pointer synced",
            &[
                p("cdc.rclk"),
                p("cdc.rreset"),
                p("cdc.pop"),
                p("cdc.rvalid"),
                hex("cdc.rdata"),
                dec("cdc.rcount"),
                dec("cdc.rbin.q"),
                hex("cdc.rgray.q"),
                hex("cdc.w2r$0.q"),
                hex("cdc.w2r$1.q"),
                dec("cdc.wptr_r.b"),
            ],
        )
}
