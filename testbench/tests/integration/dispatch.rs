//! The work-group dispatcher: its reference model (`rtgpu_hw::dispatch::model`) against the
//! behavioural compute unit's own dispatches in real kernels, cycle by cycle, and the RTL
//! (`hw/src/dispatch/rtl/`) against the model on random launches and wavefront-end timings.
//!
//! Mutations (each applied, the tests run, then restored):
//! - the RTL's round-robin pointer not advanced (`simd_r.d` kept at `simd_r.q`):
//!   `rtl_dispatch_equals_the_model` fails at cycle 2 (a wavefront starts in the wrong SIMD
//!   group);
//! - the model's admission ignoring the pending wavefronts (`free >= waves`):
//!   `rtl_dispatch_equals_the_model` fails (cycle 34 of the shrunk case) and so does the
//!   model's unit test `admission_counts_the_pending_wavefronts`; the kernels of
//!   `the_model_dispatches_as_the_compute_unit` do **not** catch it (their slots are never
//!   short while wavefronts are pending);
//! - the model's stride ignored (`next + 1`): its unit test `ids_step_by_the_stride_below_the_end`;
//! - the model's wavefront ends dropped: its unit test
//!   `an_entry_is_free_the_cycle_after_its_last_wavefront_ends`.

use proptest::prelude::*;
use rtgpu_firmware::launch::Dims;
use rtgpu_hw::block::Clocked;
use rtgpu_hw::cu::{CuConfig, DispatchRecord, Mode};
use rtgpu_hw::dispatch::model::DispatchModel;
use rtgpu_hw::dispatch::{DispatchIn, LaunchIn, Send, Shape};
use rtgpu_hw::sched::model::Policy;
use rtgpu_testbench::cu::system::SysCase;
use rtgpu_testbench::sim::clock::Period;
use rtgpu_testbench::sim::harness::Harness;
use rtgpu_testbench::tb::dispatch::{apply, read_outputs, DispatchTbBlock, Env};
use std::path::PathBuf;

/// A launch of `kernel` with `dims` on `n_simd` SIMD groups of `n_wfc` slots.
fn case(kernel: &str, dims: (u32, u32), (n_simd, n_wfc): (usize, usize)) -> SysCase {
    let mut cfg = CuConfig::default();
    (cfg.n_simd, cfg.n_wfc) = (n_simd, n_wfc);
    SysCase {
        kernel: PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("../firmware/kernels")
            .join(kernel),
        cfg,
        mode: Mode::NoSplit,
        s: 1,
        policy: Policy::Gto,
        reorder: false,
        idu: None,
        dims: Some(Dims {
            grid: dims.0,
            wg: dims.1,
        }),
        seed: 1,
        timeout: 2_000_000,
    }
}

/// The compute unit's dispatcher log of `c` (every cycle: idle-cycle skipping off).
fn cu_log(c: &SysCase) -> Vec<DispatchRecord> {
    let l = c
        .launch_set_up(|cu| {
            cu.set_skip_idle(false);
            cu.dispatch_log = Some(Vec::new());
        })
        .unwrap_or_else(|e| panic!("{}: {e}", c.kernel.display()));
    assert!(l.out.result.is_ok(), "{:?}", l.out.result);
    l.gpu.cu().dispatch_log.clone().expect("the log is on")
}

/// What the compute unit did in one cycle: the model's inputs and its expected outputs.
#[derive(Default)]
struct CuCycle {
    inputs: Option<DispatchIn>,
    sends: Vec<Send>,
    admitted: Vec<bool>,
}

/// The log cut into cycles, with the launch.
fn cycles(log: &[DispatchRecord], shape: Shape) -> (LaunchIn, Vec<CuCycle>) {
    let Some(DispatchRecord::Launch {
        first,
        end,
        stride,
        waves,
        max_resident,
    }) = log.first().cloned()
    else {
        panic!("the log starts with the launch");
    };
    let launch = LaunchIn {
        first,
        end,
        stride,
        waves: waves as u8,
        max_res: max_resident as u8,
    };
    let mut out: Vec<CuCycle> = Vec::new();
    let at = |out: &mut Vec<CuCycle>, c: u64| {
        while out.len() <= c as usize {
            out.push(CuCycle {
                sends: vec![Send::default(); shape.groups],
                admitted: vec![false; shape.resident],
                ..CuCycle::default()
            });
        }
        c as usize
    };
    for r in &log[1..] {
        match r {
            DispatchRecord::Inputs {
                cycle,
                limit,
                free,
                port_free,
            } => {
                let k = at(&mut out, *cycle);
                let ended = out[k].inputs.take().map(|i| i.ended);
                out[k].inputs = Some(DispatchIn {
                    limit: *limit,
                    free: free.clone(),
                    port_free: port_free.clone(),
                    ended: ended.unwrap_or_else(|| vec![0; shape.resident]),
                    ..DispatchIn::idle(shape)
                });
            }
            DispatchRecord::Admit { cycle, wi, .. } => {
                let k = at(&mut out, *cycle);
                out[k].admitted[*wi] = true;
            }
            DispatchRecord::Send {
                cycle,
                group,
                slot,
                wi,
                wave,
                wg,
            } => {
                let k = at(&mut out, *cycle);
                out[k].sends[*group] = Send {
                    valid: true,
                    slot: *slot as u8,
                    wi: *wi as u8,
                    wave: *wave as u8,
                    wg: *wg,
                };
            }
            DispatchRecord::End { cycle, wi } => {
                let k = at(&mut out, *cycle);
                let i = out[k].inputs.get_or_insert_with(|| DispatchIn::idle(shape));
                i.ended[*wi] += 1;
            }
            DispatchRecord::Launch { .. } => panic!("one launch per log"),
        }
    }
    (launch, out)
}

/// Runs the model on the compute unit's inputs; the wavefronts it started, or the first
/// cycle where it differs from the compute unit.
fn replay(log: &[DispatchRecord], shape: Shape) -> Result<usize, String> {
    let (launch, cus) = cycles(log, shape);
    let mut m = DispatchModel::new(shape);
    m.cycle(&DispatchIn {
        start: true,
        launch,
        ..DispatchIn::idle(shape)
    });
    let mut started = 0;
    for (c, cu) in cus.iter().enumerate() {
        let Some(i) = &cu.inputs else {
            return Err(format!("cycle {c}: the dispatcher did not run"));
        };
        let out = m.cycle(i);
        if (&out.send, &out.admitted) != (&cu.sends, &cu.admitted) {
            return Err(format!(
                "cycle {c}: model sends {:?} admits {:?}\ncompute unit sends {:?} admits {:?}",
                out.send, out.admitted, cu.sends, cu.admitted
            ));
        }
        started += out.send.iter().filter(|s| s.valid).count();
    }
    match m.cycle(&DispatchIn::idle(shape)).finished {
        true => Ok(started),
        false => Err("the model is not finished when the compute unit is".into()),
    }
}

/// The model equals the compute unit on `c`, which starts all of its wavefronts.
fn assert_same(c: &SysCase) {
    let shape = Shape {
        groups: c.cfg.n_simd,
        slots: c.cfg.n_wfc,
        resident: (c.cfg.n_simd * c.cfg.n_wfc).min(64),
    };
    let dims = c.dims.expect("dimensions given");
    let waves = (dims.grid / dims.wg * dims.wg.div_ceil(64)) as usize;
    let what = format!("{} {dims:?} {shape:?}", c.kernel.display());
    match replay(&cu_log(c), shape) {
        Ok(started) => assert_eq!(started, waves, "{what}"),
        Err(e) => panic!("{what}: {e}"),
    }
}

/// vector_add (1 and 4 wavefronts per work-group), fig2_divergent under PWS and DWS,
/// lds_reduce with 2 LDS partitions (the resident limit) and on one SIMD group, and
/// vector_add with reordering (its rounds move `limit`).
#[test]
fn the_model_dispatches_as_the_compute_unit() {
    assert_same(&case("vector_add.s", (256, 64), (4, 10)));
    assert_same(&case("vector_add.s", (4096, 256), (4, 10)));
    assert_same(&case("vector_add.s", (1152, 192), (2, 4)));
    for (mode, n_simd) in [(Mode::Pws, 2), (Mode::Dws, 4)] {
        let mut c = case("fig2_divergent.s", (1024, 128), (n_simd, 8));
        c.mode = mode;
        assert_same(&c);
    }
    let mut lds = case("lds_reduce.s", (2048, 256), (4, 10));
    lds.cfg.lds_bytes = 2048;
    assert_same(&lds);
    assert_same(&case("lds_reduce.s", (1024, 128), (1, 4)));
    let mut reorder = case("vector_add.s", (2048, 128), (4, 4));
    (reorder.reorder, reorder.cfg.memory.hierarchy) = (true, true);
    assert_same(&reorder);
}

/// Runs the RTL and the model on `cycles` cycles of the environment seeded with `seed`.
fn rtl_equals_model(seed: u64, cycles: u64) -> Result<(), String> {
    let mut h = Harness::new(DispatchTbBlock::default(), "dispatch").map_err(|e| e.to_string())?;
    h.add_clock("clock", Period::ps(1000)?, |u| &mut u.clock)
        .map_err(|e| e.to_string())?;
    let mut env = Env::new(Shape::TB, seed);
    let mut model = DispatchModel::new(Shape::TB);
    for k in 0..cycles {
        let inp = env.inputs();
        let got = h
            .cycle(|u| apply(u, &inp), read_outputs)
            .map_err(|e| e.to_string())?;
        let want = model.cycle(&inp);
        if got != want {
            return Err(format!(
                "cycle {k}: inputs {inp:?}\nRTL {got:?}\nmodel {want:?}"
            ));
        }
        env.observe(&want);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn rtl_dispatch_equals_the_model(seed in any::<u64>(), cycles in 50u64..600) {
        if let Err(e) = rtl_equals_model(seed, cycles) {
            prop_assert!(false, "{}", e);
        }
    }
}
