//! The LDS issue period on the behavioural compute unit (`Latencies::lds_period`,
//! docs/assumptions.md#A104): the RTL LDS takes a DS instruction's 64 lanes 16 per cycle, so a
//! DS instruction issued in cycle k keeps the LDS from every unit in k..k + `lds_period` − 1.
//!
//! Mutation caught (applied, the test run, restored): the LDS busy only in its issue cycle
//! (`lds_busy` without `lds_free`, the model before the period): `ds_instructions_are_lds_
//! period_apart` fails (DS instructions of different units closer than 4 cycles).

use rtgpu_firmware::isa::assemble;
use rtgpu_hw::cu::{CuConfig, Mode};
use rtgpu_hw::isa::insn_model::{decode_fields, unit};
use rtgpu_hw::sched::model::Policy;
use rtgpu_testbench::tb::issue::replay;

/// What one lds_reduce launch (no split, GTO, its default grid) showed.
struct Run {
    /// (cycle, group, unit) of every DS instruction's issue, in cycle order.
    ds: Vec<(u64, u8, u8)>,
    /// The launch's cycles.
    cycles: u64,
    /// Stall counts by reason (structural, dependency, waitcnt, barrier, split/merge, idle).
    stalls: [u64; 6],
}

/// lds_reduce on the default compute unit with `lds_period`, its issue log on.
fn lds_reduce(lds_period: u32) -> Run {
    let mut cfg = CuConfig::default();
    cfg.lat.lds_period = lds_period;
    let case = replay::Case {
        kernel: "lds_reduce",
        mode: Mode::NoSplit,
        s: 1,
        policy: Policy::Gto,
    };
    let gpu = replay::run(&case, cfg, &|cu| cu.issue_log = Some(Vec::new())).unwrap();
    let src = include_str!("../../../firmware/kernels/lds_reduce.s");
    let code = assemble(src, "lds_reduce").unwrap().words();
    let word = |pc: u32| code.get((pc / 4) as usize).copied().unwrap_or(0);
    let cu = gpu.cu();
    let ds = cu
        .issue_log
        .as_deref()
        .unwrap_or(&[])
        .iter()
        .filter(|r| decode_fields(word(r.pc), word(r.pc + 4)).unit == unit::LDS)
        .map(|r| (r.cycle, r.group, r.unit))
        .collect();
    let c = cu.counters();
    Run {
        ds,
        cycles: c.cycles,
        stalls: c.stalls,
    }
}

/// The gaps between consecutive DS issues of different units.
fn cross_unit_gaps(ds: &[(u64, u8, u8)]) -> Vec<u64> {
    ds.windows(2)
        .filter(|w| (w[0].1, w[0].2) != (w[1].1, w[1].2))
        .map(|w| w[1].0 - w[0].0)
        .collect()
}

/// At the default period 4 no two DS instructions issue closer than 4 cycles, and DS
/// instructions of different units meet the LDS back to back (some exactly 4 apart: the
/// period is what separates them); the waits are structural stalls.
#[test]
fn ds_instructions_are_lds_period_apart() {
    let r = lds_reduce(4);
    assert_eq!(r.ds.len(), 116, "lds_reduce's DS instructions");
    let gaps: Vec<u64> = r.ds.windows(2).map(|w| w[1].0 - w[0].0).collect();
    assert!(gaps.iter().all(|&g| g >= 4), "{gaps:?}");
    assert!(cross_unit_gaps(&r.ds).contains(&4), "{:?}", r.ds);
    let one = lds_reduce(1);
    assert!(
        r.stalls[0] > one.stalls[0],
        "{:?} {:?}",
        r.stalls,
        one.stalls
    );
}

/// With `lds_period` = 1 the compute unit is the one before the period existed: DS
/// instructions of different units issue in consecutive cycles, and the launch takes the
/// cycles and stalls the previous model counted (970 cycles; structural 343, dependency 335,
/// waitcnt 717, barrier 16, idle 281: `rtgpu run lds_reduce.s --mode nosplit` before the
/// change).
#[test]
fn lds_period_1_is_one_ds_instruction_per_cycle() {
    let r = lds_reduce(1);
    assert!(cross_unit_gaps(&r.ds).contains(&1), "{:?}", r.ds);
    assert_eq!(r.cycles, 970);
    assert_eq!(r.stalls, [343, 335, 717, 16, 0, 281]);
}
