//! The RTL dual-clock FIFO (`hw/src/cdc/`) against the behavioural model of the memory
//! hierarchy's clock crossing (`rtgpu_hw::memsys::cdc::CdcFifo`, two stages) on two clocks of
//! random periods (100 ps to 5 ns each, so ratios from 1:50 to 50:1, phases drifting), with
//! phases of filling and draining: at every rising edge of either clock the writer's
//! `full`/`wfree` and the reader's `rvalid`/`rdata`/`rcount` equal the model's.
//!
//! Mutations caught (run as listed, then restored):
//! - the model with three synchronizer stages instead of two (`STAGES = 3`): the reader sees
//!   an entry one edge before the model (`the_core_and_dram_clocks_cross_as_the_model_says`
//!   and the proptest);
//! - the RTL's reader side synchronizing through one flop (`wptr_r.g` from `w2r[0]`);
//! - the RTL's free places computed from the unsynchronized read pointer (`rbin`).

use proptest::prelude::*;
use rtgpu_testbench::tb::cdc::{run_fifo, CdcRun, DEFAULT_RUN};
use rtgpu_testbench::tb::TbOptions;

/// The default clocks (the core's 1 ns, a DDR4-3200 controller's 0.625 ns): RTL == model
/// and the run reaches a full FIFO, an empty one, and moves entries both ways.
#[test]
fn the_core_and_dram_clocks_cross_as_the_model_says() {
    let (_, stats) = run_fifo(&DEFAULT_RUN, 600, &TbOptions::default()).unwrap();
    assert!(
        stats.pushes > 200 && stats.pops + 4 >= stats.pushes,
        "{stats:?}"
    );
    assert!(stats.refused > 0 && stats.empty > 0, "{stats:?}");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// Random clock periods and rates: RTL == model at every edge.
    #[test]
    fn rtl_cdc_fifo_equals_the_model(
        wperiod_ps in 100u64..=5000,
        rperiod_ps in 100u64..=5000,
        push_pct in 20u32..=100,
        pop_pct in 20u32..=100,
        seed in any::<u64>(),
    ) {
        let r = CdcRun { wperiod_ps, rperiod_ps, push_pct, pop_pct, seed };
        let cycles = 200 * (1 + wperiod_ps / rperiod_ps).min(4);
        let run = run_fifo(&r, cycles, &TbOptions::default());
        prop_assert!(run.is_ok(), "{r:?}: {}", run.err().map(|e| e.to_string()).unwrap_or_default());
    }
}
