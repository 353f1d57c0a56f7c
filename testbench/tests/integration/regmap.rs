//! The RTL register map (`hw/src/gpu/regmap/rtl/`) against its reference model
//! (`rtgpu_hw::gpu::regmap::model`, itself checked against the behavioural GPU's
//! `Gpu::read`/`Gpu::write`) on random register traffic: every register, the holes,
//! unaligned offsets, runs of window accesses off the memories' ends, doorbells and resets
//! of a stand-in compute unit; every output every cycle.
//!
//! Mutations caught, each failing `rtl_regmap_equals_the_model` (run as listed, then
//! restored):
//! - the error registers read as themselves whatever the status (`faulted` = true in
//!   `RegRead`): `rdata` differs, shrunk to cycle 2;
//! - the code window's range check off by one (`<=` for `<` in `code_in`): the RTL requests
//!   the RAM past the end of the instruction memory, cycle 28.

use proptest::prelude::*;
use rtgpu_hw::gpu::regmap::model::RegMapModel;
use rtgpu_hw::gpu::regmap::traffic::{access, CuStandIn, Rams};
use rtgpu_hw::gpu::regmap::RegMap;
use rtgpu_testbench::sim::clock::Period;
use rtgpu_testbench::sim::harness::Harness;
use rtgpu_testbench::tb::regmap::{apply, read_outputs, CODE_BYTES, MEM_BYTES};

/// Runs the accesses of `seeds` (a power-on reset first) on the RTL and the model; the first
/// difference as an error.
fn rtl_equals_model(seeds: &[u64]) -> Result<(), String> {
    let mut h = Harness::new(RegMap::default(), "regmap").map_err(|e| e.to_string())?;
    h.add_clock("clock", Period::ps(1000)?, |u| &mut u.clock)
        .map_err(|e| e.to_string())?;
    let mut model = RegMapModel::new();
    let mut rams = Rams::new(CODE_BYTES, MEM_BYTES);
    let mut cu = CuStandIn::new(seeds.first().copied().unwrap_or(0));
    for (k, &seed) in seeds.iter().enumerate() {
        let mut inp = access(seed).input();
        inp.reset = k == 0;
        rams.drive(&mut inp);
        let want = model.outputs(&inp);
        cu.drive(&mut inp, want.cnt_idx, want.wf_sel);
        let want = model.outputs(&inp);
        let got = h
            .cycle(|u| apply(u, &inp), read_outputs)
            .map_err(|e| e.to_string())?;
        if got != want {
            return Err(format!(
                "cycle {k}: RTL {got:x?}, model {want:x?}, in {inp:x?}"
            ));
        }
        model.clock(&inp);
        rams.clock(&got);
        cu.clock(&got);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]

    #[test]
    fn rtl_regmap_equals_the_model(seeds in proptest::collection::vec(any::<u64>(), 1..300)) {
        if let Err(e) = rtl_equals_model(&seeds) {
            prop_assert!(false, "{}", e);
        }
    }
}
