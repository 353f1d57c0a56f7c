//! The RTL blocks inside the running system: kernels with `--rtl all` (decode, schedulers,
//! split/merge units, coalescer, reordering unit, L1, DRAM controller, IDU dispatchers as RTL, each in
//! lock-step with its model) give zero mismatches and exactly the behavioural run's status,
//! cycles, counters and memory. A corrupted RTL output is caught and named.

use rtgpu_firmware::aging::experiment::Distribution;
use rtgpu_firmware::launch::Dims;
use rtgpu_hw::block::{BlockFault, BlockKind, Blocks, Clocked, DynBlock, FaultKind, Models};
use rtgpu_hw::cache::coal_model::{CoalescerIn, CoalescerModel, CoalescerOut, WAVE_LANES};
use rtgpu_hw::cache::model::{CacheIn, CacheModel, CacheOut};
use rtgpu_hw::cu::{CuConfig, Mode};
use rtgpu_hw::sched::model::Policy;
use rtgpu_testbench::cu::system::SysCase;
use rtgpu_testbench::sim::blocks::RtlBlocks;
use rtgpu_testbench::sim::lockstep::LockStep;
use rtgpu_testbench::sim::rtl::EngineChoice;
use rtgpu_testbench::sim::twin::{self, on_rtl_stack};
use rtgpu_testbench::sim::vl::Engine;
use std::path::PathBuf;
use std::sync::Arc;

/// Memory and VALU set-ups.
#[derive(Clone, Copy, Debug)]
enum Mem {
    Fixed,
    FixedIdu,
    Hierarchy,
    ReorderIdu,
}

fn launch(kernel: &str, (mode, s): (Mode, u32), mem: Mem) -> SysCase {
    let mut cfg = CuConfig::default();
    cfg.memory.hierarchy = matches!(mem, Mem::Hierarchy | Mem::ReorderIdu);
    SysCase {
        kernel: PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("../firmware/kernels")
            .join(kernel),
        cfg,
        mode,
        s,
        policy: Policy::Gto,
        reorder: matches!(mem, Mem::ReorderIdu),
        idu: matches!(mem, Mem::FixedIdu | Mem::ReorderIdu).then_some(Distribution::Idu),
        dims: None,
        seed: 1,
        timeout: 2_000_000,
    }
}

/// The launch with every block as RTL equals the behavioural launch.
fn assert_twin(l: &SysCase) {
    assert!(
        twin(l).is_ok_and(|same| same),
        "{}: no RTL instance",
        what(l)
    );
}

fn what(l: &SysCase) -> String {
    format!(
        "{} {:?} S={} reorder={}",
        l.kernel.display(),
        l.mode,
        l.s,
        l.reorder
    )
}

/// Runs `l` on the models and with every block as RTL; `Ok(false)`: a block has no RTL
/// instance of the launch's shape (the run stopped before its first cycle, saying so).
fn twin(l: &SysCase) -> Result<bool, String> {
    let what = what(l);
    let (model, rtl) = twin::twin(l, &BlockKind::ALL).map_err(|e| format!("{what}: {e}"))?;
    if let Some(f) = &rtl.fault {
        if f.to_string().contains("no RTL instance") && rtl.counters.get("cycles") == 0 {
            return Ok(false);
        }
        panic!("{what}: {f}");
    }
    assert_eq!(model.status, rtl.status, "{what}");
    assert_eq!(model.counters, rtl.counters, "{what}");
    assert_eq!(model.buffers, rtl.buffers, "{what}");
    Ok(true)
}

const NOSPLIT: (Mode, u32) = (Mode::NoSplit, 1);
const DWS1: (Mode, u32) = (Mode::Dws, 1);
const DWS3: (Mode, u32) = (Mode::Dws, 3);
const PWS1: (Mode, u32) = (Mode::Pws, 1);
const PWS3: (Mode, u32) = (Mode::Pws, 3);

/// Every kernel, every mode and every memory set-up at least once (the whole matrix is
/// `rtl_all_on_the_whole_matrix`, run with `--ignored`).
#[test]
fn rtl_all_equals_the_models_on_every_kernel_mode_and_memory() {
    let cases = [
        ("fig2_divergent.s", PWS1, Mem::ReorderIdu),
        ("fig5_nested.s", PWS3, Mem::Hierarchy),
        ("vector_add.s", NOSPLIT, Mem::FixedIdu),
        ("loop.s", DWS1, Mem::Fixed),
        ("lds_reduce.s", DWS3, Mem::Hierarchy),
        ("synthetic.s", PWS1, Mem::Fixed),
        ("errors/illegal.s", PWS1, Mem::Fixed),
        ("errors/merge_mismatch.s", DWS1, Mem::Fixed),
    ];
    for (k, m, mem) in cases {
        assert_twin(&launch(k, m, mem));
    }
}

/// Wavefronts refill slots, so that the scheduler's oldest wavefront is not its lowest slot:
/// GTO's age ranks reach the RTL.
#[test]
fn the_rtl_scheduler_follows_wavefront_ages_when_slots_refill() {
    let mut l = launch("vector_add.s", NOSPLIT, Mem::Fixed);
    l.dims = Some(Dims {
        grid: 4096,
        wg: 256,
    });
    let (model, rtl) = twin::twin(&l, &[BlockKind::Sched]).unwrap();
    assert!(
        rtl.fault.is_none(),
        "{:?}",
        rtl.fault.map(|f| f.to_string())
    );
    assert_eq!(model, rtl);
}

/// Every kernel × {no-split, DWS S=1/3, PWS S=1/3} × {fixed, fixed + IDU, hierarchy,
/// hierarchy + reordering + IDU} (150 launches: the error kernels have no reordering trace).
#[test]
#[ignore = "long: the whole matrix of kernels, modes and memories with --rtl all"]
fn rtl_all_on_the_whole_matrix() {
    let kernels = [
        "vector_add.s",
        "fig2_divergent.s",
        "fig5_nested.s",
        "loop.s",
        "lds_reduce.s",
        "synthetic.s",
        "errors/illegal.s",
        "errors/merge_mismatch.s",
    ];
    let mems = [Mem::Fixed, Mem::FixedIdu, Mem::Hierarchy, Mem::ReorderIdu];
    let cases: Vec<SysCase> = kernels
        .iter()
        .flat_map(|k| [NOSPLIT, DWS1, DWS3, PWS1, PWS3].map(|m| (k, m)))
        .flat_map(|(k, m)| mems.map(|mem| (k, m, mem)))
        // The driver cannot build the reordering trace of a kernel with an illegal word.
        .filter(|(k, _, mem)| !(k.starts_with("errors/") && matches!(mem, Mem::ReorderIdu)))
        .map(|(k, m, mem)| launch(k, m, mem))
        .collect();
    let next = std::sync::atomic::AtomicUsize::new(0);
    let skipped = std::sync::Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..std::thread::available_parallelism().map_or(1, |n| n.get()) {
            s.spawn(|| {
                while let Some(l) =
                    cases.get(next.fetch_add(1, std::sync::atomic::Ordering::Relaxed))
                {
                    if !twin(l).unwrap_or_else(|e| panic!("{e}")) {
                        skipped.lock().unwrap().push(what(l));
                    }
                }
            });
        }
    });
    let skipped = skipped.into_inner().unwrap();
    println!(
        "{} launches, {} without an RTL instance: {skipped:#?}",
        cases.len(),
        skipped.len()
    );
    // Only reordering with traces longer than the instantiated 16 entries may lack the RTL.
    assert!(
        skipped.iter().all(|w| w.contains("reorder=true")),
        "{skipped:?}"
    );
}

/// A block whose outputs are corrupted by `corrupt` from its cycle `from` on.
struct Wrong<U: Clocked> {
    inner: U,
    from: u64,
    cycle: u64,
    corrupt: fn(&mut U::Out),
}

impl<U: Clocked> Clocked for Wrong<U> {
    type In = U::In;
    type Out = U::Out;

    fn outputs(&self, i: &U::In) -> U::Out {
        let mut o = self.inner.outputs(i);
        if self.cycle >= self.from {
            (self.corrupt)(&mut o);
        }
        o
    }

    fn step(&mut self, i: &U::In) {
        self.cycle(i);
    }

    fn cycle(&mut self, i: &U::In) -> U::Out {
        let mut o = self.inner.cycle(i);
        if self.cycle >= self.from {
            (self.corrupt)(&mut o);
        }
        self.cycle += 1;
        o
    }
}

/// `inner` with `corrupt` applied from its cycle `from` on.
fn wrong<U: Clocked>(inner: U, from: u64, corrupt: fn(&mut U::Out)) -> Wrong<U> {
    Wrong {
        inner,
        from,
        cycle: 0,
        corrupt,
    }
}

/// The block a [`Mutant`] corrupts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Target {
    /// The L1's `hit`, from its cycle 200.
    L1,
    /// The coalescer's `first`, from its cycle 5.
    Coalesce,
}

/// The given blocks as RTL, plus the target block as RTL on `engine` with a wrong output.
struct Mutant(RtlBlocks, EngineChoice, Target);

impl Blocks for Mutant {
    fn decode(
        &self,
    ) -> Result<
        DynBlock<rtgpu_hw::isa::insn_model::InsnDecodeIn, rtgpu_hw::isa::insn_model::InsnDecodeOut>,
        String,
    > {
        self.0.decode()
    }
    fn sched(
        &self,
        n: &str,
        w: usize,
    ) -> Result<DynBlock<rtgpu_hw::sched::model::SchedIn, rtgpu_hw::sched::model::SchedOut>, String>
    {
        self.0.sched(n, w)
    }
    fn pws(
        &self,
        n: &str,
        c: rtgpu_hw::pws::model::ModelConfig,
    ) -> Result<DynBlock<rtgpu_hw::pws::model::PwsIn, rtgpu_hw::pws::model::GroupOut>, String> {
        self.0.pws(n, c)
    }
    fn reorder(
        &self,
        w: usize,
        d: usize,
        t: usize,
    ) -> Result<
        DynBlock<rtgpu_hw::reorder::model::ReorderIn, rtgpu_hw::reorder::model::ReorderOut>,
        String,
    > {
        self.0.reorder(w, d, t)
    }
    fn coalesce(&self) -> Result<DynBlock<CoalescerIn<WAVE_LANES>, CoalescerOut>, String> {
        if self.2 != Target::Coalesce {
            return self.0.coalesce();
        }
        let rtl = rtgpu_testbench::sim::blocks::coalesce_rtl(self.1)?;
        let bad = wrong(rtl, 5, |o: &mut CoalescerOut| o.first ^= 1);
        let model = CoalescerModel::<WAVE_LANES>::new();
        Ok(Box::new(LockStep::new("coalesce", model, bad)))
    }
    fn l1(&self, sets: usize, ways: usize) -> Result<DynBlock<CacheIn, CacheOut>, String> {
        if self.2 != Target::L1 {
            return self.0.l1(sets, ways);
        }
        let rtl = rtgpu_testbench::sim::blocks::l1_rtl(sets, ways, self.1)?;
        let bad = wrong(rtl, 200, |o: &mut CacheOut| o.hit ^= true);
        Ok(Box::new(LockStep::new(
            "l1",
            CacheModel::new(sets, ways)?,
            bad,
        )))
    }
    fn dram(
        &self,
        p: rtgpu_hw::dram::Part,
        r: u16,
    ) -> Result<DynBlock<rtgpu_hw::dram::model::DramIn, rtgpu_hw::dram::model::DramOut>, String>
    {
        self.0.dram(p, r)
    }
    fn idu(
        &self,
        n: &str,
        k: usize,
    ) -> Result<DynBlock<rtgpu_hw::idu::model::DispIn, rtgpu_hw::idu::model::DispOut>, String> {
        self.0.idu(n, k)
    }
    fn checked(&self) -> bool {
        true
    }
}

/// A run with a mutant L1 on `engine` stops at the mutation, naming block, cycle and port.
fn mutant_is_caught(kinds: &[BlockKind], engine: Engine) {
    let f = mutant_fault(kinds, engine, Target::L1);
    assert_eq!((f.block.as_str(), f.cycle), ("l1", 200), "{f}");
    assert_eq!(mismatch(&f).0, "hit");
}

/// The port, expected and got values of a mismatch (their values differ in bit 0 only).
fn mismatch(f: &BlockFault) -> (&str, u64, u64) {
    let FaultKind::Mismatch {
        port,
        expected,
        got,
    } = &f.kind
    else {
        panic!("{f}");
    };
    assert_eq!(expected ^ got, 1, "{f}");
    assert!(f.window.len() > 1 && f.window.last().unwrap().cycle == f.cycle);
    (port, *expected, *got)
}

/// The fault of vector_add on the hierarchy with `kinds` as RTL and `target` mutated on
/// `engine` (the run stops in `rtl_block`).
fn mutant_fault(kinds: &[BlockKind], engine: Engine, target: Target) -> BlockFault {
    let l = launch("vector_add.s", NOSPLIT, Mem::Hierarchy);
    let choice = EngineChoice {
        engine,
        ..EngineChoice::default()
    };
    let blocks = Arc::new(Mutant(RtlBlocks::new(kinds), choice, target));
    let ran = on_rtl_stack(|| twin::run(&l, blocks)).unwrap();
    assert_eq!(ran.status, "rtl_block");
    ran.fault.expect("a fault")
}

#[test]
fn a_wrong_rtl_output_stops_the_run_and_names_block_cycle_and_port() {
    mutant_is_caught(&BlockKind::ALL, Engine::Harness);
}

/// The coalescer's RTL giving a wrong `first` from its cycle 5 (the span of a FLAT
/// instruction's line) stops the run with `block coalesce, cycle 5, port first, expected …,
/// got …`.
#[test]
fn a_wrong_coalescer_output_is_caught_in_lock_step() {
    let f = mutant_fault(&BlockKind::ALL, Engine::Harness, Target::Coalesce);
    assert_eq!((f.block.as_str(), f.cycle), ("coalesce", 5), "{f}");
    let (_, expected, got) = mismatch(&f);
    assert_eq!(
        f.to_string(),
        format!("block coalesce, cycle 5, port first, expected {expected:#x}, got {got:#x}")
    );
}

/// The lock-step checks run unchanged on Verilated blocks: the memory hierarchy's L1 and DRAM
/// controller as Verilator models give the behavioural run's counters, and a wrong output is
/// caught at its cycle.
#[test]
fn verilated_memory_blocks_run_in_lock_step_and_a_mutant_is_caught() {
    let l = launch("vector_add.s", NOSPLIT, Mem::Hierarchy);
    let model = on_rtl_stack(|| twin::run(&l, Arc::new(Models))).unwrap();
    let kinds = [BlockKind::L1, BlockKind::Dram];
    let vl = RtlBlocks::new(&kinds).with_engine(Engine::Verilator, (0, u64::MAX));
    let rtl = on_rtl_stack(|| twin::run(&l, Arc::new(vl))).unwrap();
    assert_eq!(rtl.status, "done", "{:?}", rtl.fault);
    assert_eq!(
        (&rtl.counters, &rtl.buffers),
        (&model.counters, &model.buffers)
    );
    mutant_is_caught(&[], Engine::Verilator);
}

mod sched_ages {
    use proptest::prelude::*;
    use rtgpu_hw::block::Clocked;
    use rtgpu_hw::sched::model::{Policy, PolicyScheduler, SchedIn};
    use rtgpu_testbench::sim::blocks::sched_rtl;
    use rtgpu_testbench::sim::lockstep::LockStep;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(24))]
        /// The RTL scheduler equals the model under random eligible masks, random age ranks
        /// (ties included), both policies and resets.
        #[test]
        fn rtl_scheduler_equals_the_model_with_random_ages(
            cycles in proptest::collection::vec(
                (any::<u16>(), proptest::collection::vec(0u8..10, 10), any::<bool>(), 0u8..20),
                1..200,
            ),
        ) {
            let rtl = sched_rtl::<10>("sched", Default::default()).unwrap();
            let mut ls = LockStep::new("sched", PolicyScheduler::new(Policy::Gto, 10), rtl);
            for (elig, ages, gto, r) in cycles {
                let mut i = SchedIn {
                    reset: r == 0,
                    gto,
                    eligible: u64::from(elig) & 0x3FF,
                    ..SchedIn::default()
                };
                i.age[..10].copy_from_slice(&ages);
                ls.cycle(&i);
            }
            prop_assert!(ls.check().is_ok(), "{}", ls.check().unwrap_err());
        }
    }
}

use crate::common;

mod cli {
    use super::common::{read_vcd, rtgpu};

    fn counters(json: &str) -> serde_json::Value {
        let v: serde_json::Value = serde_json::from_str(json).expect("json");
        v["counters"].clone()
    }

    /// The issue's "done when": fig2 under PWS S = 1 with every block as RTL has the
    /// behavioural run's cycle count (and every other counter).
    #[test]
    fn rtl_all_gives_the_behavioural_counters() {
        let args = [
            "run",
            "firmware/kernels/fig2_divergent.s",
            "--mode",
            "pws",
            "--s",
            "1",
        ];
        let (code, model, err) = rtgpu(&[&args[..], &["--json"]].concat());
        assert_eq!(code, 0, "{err}");
        let (code, rtl, err) = rtgpu(&[&args[..], &["--rtl", "all", "--json"]].concat());
        assert_eq!(code, 0, "{err}");
        assert_eq!(counters(&model), counters(&rtl));
        assert_eq!(counters(&rtl)["cycles"], 288);
        // The same with every block Verilated.
        let on_vl = [
            &args[..],
            &["--rtl", "all", "--engine", "verilator", "--json"],
        ]
        .concat();
        let (code, vl, err) = rtgpu(&on_vl);
        assert_eq!(code, 0, "{err}");
        assert_eq!(counters(&model), counters(&vl));
    }

    /// With --vcd, each RTL block writes its own signals beside the system's waveform, and
    /// they are merged into it under `rtl.<instance>` on the system's time base: the RTL
    /// split/merge unit's copies fall on the split markers, and the scheduler's grants half a
    /// cycle after the compute unit's issues (the harness applies a cycle's inputs in its
    /// first half). On the blocks' own clocks the scheduler (stepped only when its unit looks
    /// for an issue) would be far off, which is what the merge maps away.
    #[test]
    fn rtl_blocks_waveforms_are_merged_into_the_systems_on_its_time_base() {
        let dir = tempfile::tempdir().unwrap();
        let vcd = dir.path().join("fig2.vcd");
        let k = "firmware/kernels/fig2_divergent.s";
        let v = vcd.to_str().unwrap();
        let (code, _, err) = rtgpu(&[
            "run",
            k,
            "--mode",
            "pws",
            "--s",
            "1",
            "--rtl",
            "pws,decode,sched",
            "--vcd",
            v,
        ]);
        assert_eq!(code, 0, "{err}");
        let pws = std::fs::read_to_string(dir.path().join("fig2.rtl/pws_g0.vcd")).unwrap();
        assert!(pws.contains(" cmd_mask "), "the split/merge unit's ports");
        assert!(dir.path().join("fig2.rtl/decode.vcd").exists());
        let w = read_vcd(&vcd);
        let rises = |name: &str| -> Vec<u64> {
            let changes = w.get(name).unwrap_or_else(|| panic!("{name} not merged"));
            let on = |v: &str| v.contains('1');
            changes
                .windows(2)
                .filter(|p| !on(&p[0].1) && on(&p[1].1))
                .map(|p| p[1].0)
                .collect()
        };
        let gtkw = std::fs::read_to_string(dir.path().join("fig2.gtkw")).unwrap();
        let zoom = gtkw.lines().find(|l| l.starts_with('*')).unwrap();
        let markers: Vec<u64> = zoom
            .split(' ')
            .skip(2)
            .filter_map(|m| m.parse().ok())
            .collect();
        let splits: Vec<u64> = markers.iter().step_by(2).copied().collect();
        assert_eq!(
            rises("rtl.pws_g0.copy_valid"),
            splits,
            "markers {markers:?}"
        );
        let issues = rises("cu.g0.simd.issue_ctx");
        let grants = rises("rtl.sched_g0_u0.grant_valid");
        assert!(issues.len() >= 6, "{issues:?}");
        let late: Vec<u64> = issues.iter().take(6).map(|t| t + 500).collect();
        assert_eq!(
            grants[..6],
            late[..],
            "grants {grants:?}, issues {issues:?}"
        );
        assert!(
            gtkw.contains("rtl.sched_g0_u0.grant_valid"),
            "the view shows the ports"
        );
    }

    #[test]
    fn bad_block_lists_and_shapes_without_rtl_are_clear_errors() {
        let k = "firmware/kernels/fig2_divergent.s";
        let (code, _, err) = rtgpu(&["run", k, "--rtl", "pws,alu"]);
        assert_eq!(code, 2, "{err}");
        assert!(err.contains("unknown block `alu`"), "{err}");
        let (code, out, err) = rtgpu(&["run", k, "--mode", "pws", "--s", "5", "--rtl", "pws"]);
        assert_eq!(code, 1, "{out}{err}");
        assert!(err.contains("--rtl pws: no RTL instance"), "{err}");
        assert!(out.contains("status: rtl_block"), "{out}");
    }
}
