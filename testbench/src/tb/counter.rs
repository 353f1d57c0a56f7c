//! A 32-bit counter: the harness' speed reference (`rtgpu bench` measures it) and a second block
//! to prove the cosimulation flow is not specific to the decoder.

use super::{drive, BlockTb, TbError, TbOptions, TbRun, TB_PERIOD_PS};
use crate::bench::engines::{of_tb, EngineCycles};
use crate::bench::BenchRow;
use crate::sim::cosim::verilog_of;
use crate::sim::waves::{Format, Gtkw};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rust_hdl::prelude::*;
use std::path::Path;

/// A free-running 32-bit counter with an enable.
#[derive(LogicBlock, Default)]
pub struct Counter32 {
    /// Clock; the count advances on its rising edge.
    pub clock: Signal<In, Clock>,
    /// Count this cycle.
    pub enable: Signal<In, Bit>,
    /// The count (wraps at 2^32).
    pub count: Signal<Out, Bits<32>>,
    /// The counter register.
    value: DFF<Bits<32>>,
}

impl Logic for Counter32 {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, value);
        self.count.next = self.value.q.val();
        if self.enable.val() {
            self.value.d.next = self.value.q.val() + 1;
        }
    }
}

/// The `counter` testbench.
pub struct CounterTb;

impl BlockTb for CounterTb {
    fn bench(&self, n: EngineCycles, dir: &Path) -> Option<Result<Vec<BenchRow>, String>> {
        of_tb(self, Counter32::default, |u| &mut u.clock, n, dir)
    }

    fn name(&self) -> &'static str {
        "counter"
    }

    fn description(&self) -> &'static str {
        "32-bit counter (the harness benchmark block): random enables, count == model every cycle"
    }

    fn run(&self, opts: &TbOptions) -> Result<TbRun, TbError> {
        let mut rng = ChaCha8Rng::seed_from_u64(opts.seed);
        let mut expected: u32 = 0;
        let mut run = drive(
            Counter32::default(),
            self.name(),
            |u| &mut u.clock,
            opts,
            opts.cycles,
            |h, k| {
                let enable = rng.gen_ratio(3, 4);
                let got = h.cycle(|u| u.enable.next = enable, |u| u.count.val().index() as u32)?;
                if got != expected {
                    let detail = format!("count {got}, expected {expected}");
                    return Err(TbError::Mismatch {
                        cycle: k,
                        detail,
                        waves: None,
                    });
                }
                expected = expected.wrapping_add(u32::from(enable));
                Ok(None)
            },
            || {
                Gtkw::new("rtgpu counter: 32-bit counter")
                    .window(40 * TB_PERIOD_PS)
                    .group(
                        "counter",
                        &[
                            ("counter.clock", None),
                            ("counter.enable", None),
                            ("counter.count", Some(Format::Dec)),
                        ],
                    )
            },
        )?;
        run.summary = format!("{} cycles, count == model every cycle", opts.cycles);
        Ok(run)
    }

    fn verilog(&self) -> Result<String, String> {
        verilog_of(&mut Counter32::default())
    }
}
