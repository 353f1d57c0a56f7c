//! The RTL system (`hw/src/cu_system/`) against the behavioural GPU of the same shape
//! (`cu_system::config()`): the firmware driver's runs, faults and bad launches, and the
//! register bus's responses.

use super::common::rtgpu;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rtgpu_firmware::driver::{self, Bus, Driver, LaunchDesc, Outcome};
use rtgpu_firmware::isa::assemble;
use rtgpu_firmware::launch::{Dims, Image};
use rtgpu_hw::cu::{CuConfig, Mode};
use rtgpu_hw::cu_system::{self, CuSystem4Sim, CuSystemSim, CODE_BYTES, MEM_BYTES};
use rtgpu_hw::gpu::regs::addr;
use rtgpu_hw::gpu::Gpu;
use rtgpu_hw::sched::model::Policy;
use rtgpu_testbench::cu::rtl_bus::RtlBus;
use rtgpu_testbench::cu::rtl_run::{self, RtlRefusal};
use rtgpu_testbench::cu::{self, Kernel, RunOpts, RunReport};
use rtgpu_testbench::sim::twin::on_rtl_stack;
use rtgpu_testbench::sim::vl::VlOptions;
use std::path::Path;

const SCALAR_LOOP: &str = "firmware/kernels/rtl/scalar_loop.s";

fn repo(path: &str) -> String {
    format!("{}/../{path}", env!("CARGO_MANIFEST_DIR"))
}

/// `rtgpu run` with `args` (after the kernel) through the library on the behavioural GPU of
/// the system's shape.
fn behavioural(kernel: &str, args: &[&str]) -> RunReport {
    let mut line = vec![kernel, "--mode", "nosplit"];
    line.extend_from_slice(args);
    let o = RunOpts::from_args(&line).unwrap();
    let k = Kernel::load(Path::new(kernel)).unwrap();
    let (dims, a) = o.launch.resolve(&k.meta).unwrap();
    cu::run_loaded(&o, &k, cu_system::config(), dims, &a).unwrap()
}

/// `rtgpu run --top rtl` with `args` through the library.
fn rtl(kernel: &str, args: &[&str]) -> RunReport {
    let mut line = vec![kernel, "--top", "rtl"];
    line.extend_from_slice(args);
    cu::run(&RunOpts::from_args(&line).unwrap()).unwrap()
}

/// `scalar_loop` (data-dependent loops and branches; work-groups waiting for contexts) run by
/// the driver over the RTL system's bus reports the behavioural GPU's cycles and instruction
/// count under LRR, RR and GTO and two grids. Mutation caught: `SCHED` 1 and 2 swapped in
/// `CuSystem` (GTO ran as RR: 256 cycles against 254).
#[test]
fn rtl_run_reports_the_behavioural_cycles() {
    let k = repo(SCALAR_LOOP);
    for sched in ["lrr", "rr", "gto"] {
        for (grid, wg) in [("512", "128"), ("192", "64")] {
            let args = ["--sched", sched, "--grid", grid, "--wg", wg];
            let (b, r) = (behavioural(&k, &args), rtl(&k, &args));
            assert_eq!((b.status.as_str(), r.status.as_str()), ("done", "done"));
            assert_eq!((b.top, r.top), ("behavioural", "rtl"));
            for name in ["cycles", "instructions"] {
                assert_eq!(
                    b.perf.get(name),
                    r.perf.get(name),
                    "{sched} grid {grid}/{wg}: {name}"
                );
            }
            assert!(
                r.perf.get("cycles") > 80,
                "{sched}: {}",
                r.perf.get("cycles")
            );
        }
    }
}

/// A kernel with an instruction the top does not execute (a two-dword FLAT load) is refused
/// before the RTL is built, naming the instruction and its PC. Mutation caught: the FLAT
/// width check dropped from `cu_top::memory_supported`.
#[test]
fn a_wide_memory_instruction_is_unsupported_in_rtl() {
    refused(
        "v_mov_b32 v1, 0\nflat_load_dwordx2 v[2:3], v[0:1]\ns_endpgm\n",
        "vmem",
        "flat_load_dwordx2",
    );
}

/// The suite's `gaussian.cl`, compiled by clang, passes the ABI (the RTL takes the HSA ABI)
/// and is refused at its first instruction the top lacks: `v_rcp_iflag_f32` at PC 0x28, in
/// the VALU. Fails if compiled kernels are refused for their ABI again.
#[test]
fn a_compiled_kernel_is_refused_at_its_first_instruction_the_top_lacks() {
    let k = repo("firmware/suite/gaussian.cl");
    let o = RunOpts::from_args(&[k.as_str(), "--top", "rtl"]).unwrap();
    match rtl_run::prepare(&o) {
        Err(RtlRefusal::Unsupported(u)) => {
            assert_eq!((u.pc, u.unit), (0x28, "valu"));
            assert!(
                u.instruction.starts_with("v_rcp_iflag_f32"),
                "{}",
                u.instruction
            );
        }
        other => panic!("not refused by instruction: {:?}", other.map(|l| l.name)),
    }
}

/// The suite kernels the RTL runs whole (`vector_add`, `saxpy`, `histogram`, `pathfinder`:
/// 64-bit address arithmetic, `histogram`'s 64-bit compare and LDS atomics, `pathfinder`'s
/// LDS and barriers), compiled by clang, at their default launch: the RTL system gives the
/// behavioural GPU's status, cycles, instruction count and buffers; and `rtl/wide_mix`, the
/// 64-bit operations in every operand shape. Fails if the 64-bit path is broken (addresses
/// go wrong: a fault or other buffers).
#[test]
fn suite_kernels_run_as_on_the_behavioural_gpu() {
    for kernel in ["vector_add", "saxpy", "histogram", "pathfinder"] {
        runs_alike_with(&format!("firmware/suite/{kernel}.cl"), &[]);
    }
    runs_alike("firmware/kernels/rtl/wide_mix.s", "lrr");
}

/// A kernel whose work-groups need more LDS than the top's 1 KiB partition
/// (docs/assumptions.md#A126) is refused before the RTL is built (exit 2), one that needs
/// exactly 1 KiB is not. Fails if the RTL run drops the size check, or compares with `>=`.
#[test]
fn a_kernel_needing_more_lds_than_a_partition_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let run = |lds: u32| {
        let k = dir.path().join(format!("k{lds}.s"));
        std::fs::write(
            &k,
            format!("// @lds {lds}\nds_write_b32 v1, v0\ns_endpgm\n"),
        )
        .unwrap();
        rtl_run::prepare(&RunOpts::from_args(&[k.to_str().unwrap(), "--top", "rtl"]).unwrap())
    };
    match run(1028) {
        Err(RtlRefusal::Coded(2, m)) => assert!(m.contains("1028 bytes of LDS"), "{m}"),
        other => panic!("not refused: {:?}", other.map(|l| l.name)),
    }
    assert!(run(1024).is_ok());
}

/// Runs kernel `source` on the RTL system: it must be refused at PC 4 (unit `unit`,
/// instruction starting with `mnemonic`).
fn refused(source: &str, unit: &str, mnemonic: &str) {
    let dir = tempfile::tempdir().unwrap();
    let k = dir.path().join("k.s");
    std::fs::write(&k, source).unwrap();
    let o = RunOpts::from_args(&[k.to_str().unwrap(), "--top", "rtl"]).unwrap();
    match rtl_run::run(&o) {
        Err(RtlRefusal::Unsupported(u)) => {
            assert_eq!((u.error, u.pc, u.unit), ("unsupported_in_rtl", 4, unit));
            assert!(u.instruction.starts_with(mnemonic), "{}", u.instruction);
        }
        other => panic!("not refused: {other:?}"),
    }
}

/// `kernel` (with `args` after it) through the driver on the behavioural GPU of the system's
/// shape and on the RTL system: both outcomes (status, counters, buffers read back).
fn both_kernel(kernel: &str, args: &[&str]) -> (Outcome, Outcome) {
    let k = repo(kernel);
    let mut line = vec![k.as_str(), "--top", "rtl"];
    line.extend_from_slice(args);
    let o = RunOpts::from_args(&line).unwrap();
    let l = rtl_run::prepare(&o).unwrap_or_else(|e| panic!("{kernel}: {e:?}"));
    on_both(l.cfg, &l.code, &l.image, l.desc, o.timeout)
}

/// The same end on both systems: the status (error, PC and information), the instructions
/// and splits, and the cycles, the RTL's one more when the compute unit stopped on a fault
/// (its `busy` includes the faulting issue's cycle: docs/assumptions.md#A108; a `bad_launch`
/// never starts it).
fn assert_same_end(b: &Outcome, r: &Outcome, at: &str) {
    assert_eq!(b.result, r.result, "{at}");
    for name in ["instructions", "splits"] {
        assert_eq!(b.counters.get(name), r.counters.get(name), "{at}: {name}");
    }
    let fault = b.result.is_err() && cu::status_name(&b.result) != "bad_launch";
    let cycles = b.counters.get("cycles") + u64::from(fault);
    assert_eq!(cycles, r.counters.get("cycles"), "{at}: cycles");
}

/// `code` with `image` and `desc` through the driver on the behavioural GPU of `cfg` and on
/// the RTL system, at most `timeout` cycles each: both outcomes.
fn on_both(
    cfg: CuConfig,
    code: &[u32],
    image: &Image,
    desc: LaunchDesc,
    timeout: u64,
) -> (Outcome, Outcome) {
    let mut drv = Driver::new(Gpu::new(cfg).unwrap()).unwrap();
    let b = driver::run(&mut drv, code, image, desc, timeout).unwrap();
    let (r, _) = rtl_run::run_code(code, image, desc, timeout).unwrap();
    (b, r)
}

/// Kernels with FLAT loads and stores and SMEM loads (`fig2_divergent`, `vector_add`, `fig5_nested`,
/// `rtl/mem_mix`) run by the driver on the RTL system, whose compute unit's memory port is
/// served by the fixed-latency data memory: the behavioural GPU's status, cycles and
/// instruction count, and the same buffers read back, which the kernels wrote. Mutations
/// caught: the memory's vector latency `LAT_FLAT` instead of `LAT_FLAT` − 1 in `CuSystem`
/// (every load a cycle late: fig2 648 cycles against 647); the response's data lanes all
/// taken from lane 0.
#[test]
fn memory_kernels_run_as_on_the_behavioural_gpu() {
    let kernels = [
        ("firmware/kernels/fig2_divergent.s", "lrr"),
        ("firmware/kernels/vector_add.s", "gto"),
        ("firmware/kernels/fig5_nested.s", "rr"),
        ("firmware/kernels/rtl/mem_mix.s", "gto"),
    ];
    for (kernel, sched) in kernels {
        runs_alike(kernel, sched);
    }
}

/// The kernels with three-source VALU operations (`loop`: `v_mad_f32` with an inline
/// constant and a VGPR addend in a uniform loop, a divergent integer loop; `rtl/fp_mix`:
/// `v_mac_f32` in both encodings, `v_mad_f32` with an inline float constant addend,
/// `v_fma_f32` with an SGPR addend, negated and absolute sources, `mul:2`; `synthetic`:
/// `v_bfe_u32` with inline constants picks the bits of the local id that steer three levels
/// of nested branches) run by the driver on the RTL system: the behavioural GPU's status,
/// cycles, instruction count and buffers.
#[test]
fn three_source_kernels_run_as_on_the_behavioural_gpu() {
    runs_alike("firmware/kernels/loop.s", "gto");
    runs_alike("firmware/kernels/rtl/fp_mix.s", "lrr");
    runs_alike("firmware/kernels/synthetic.s", "rr");
}

/// An OpenCL C kernel (`rtl/hsa_ids.cl`, compiled by clang) whose wavefronts start with the
/// HSA ABI: eight user SGPRs (the dispatch and kernel argument pointers among them), the
/// work-group id after them. At three work-group sizes (three, one and a partial wavefront)
/// the RTL system gives the behavioural GPU's status, cycles, instructions and buffers, and
/// each word is `g << 16 | n << 8 | l`. Mutation caught: the work-group id SGPR placed one
/// SGPR late, where the info SGPR goes (every group ran as group 0: word 128 stayed 0, where
/// the behavioural GPU wrote 0x18000).
#[test]
fn an_hsa_kernel_runs_as_on_the_behavioural_gpu() {
    for (grid, wg) in [(384u32, 128u32), (192, 64), (96, 32)] {
        let args = ["--grid", &grid.to_string(), "--wg", &wg.to_string()].map(String::from);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let b = runs_alike_with("firmware/kernels/rtl/hsa_ids.cl", &args);
        let want: Vec<u32> = (0..grid)
            .map(|i| (i / wg) << 16 | wg << 8 | (i % wg))
            .collect();
        assert_eq!(b.buffers[0], want, "grid {grid} wg {wg}");
    }
}

/// `kernel` under `sched` through the driver on both systems: it finishes on the behavioural
/// GPU, having stored something, and the RTL system gives the same status, cycles,
/// instruction count and buffers.
fn runs_alike(kernel: &str, sched: &str) {
    runs_alike_with(kernel, &["--sched", sched]);
}

/// DWS and PWS (S = 1) through the driver on the RTL system: `fig2_divergent` (two
/// sequential splits) at grid 64 (one wavefront: both splits taken) and 256 (four wavefronts:
/// under DWS most splits find no free context and serialize; under PWS each takes its slot's
/// context on the second issue unit), `fig5_nested` (its nested split refused at S = 1 under
/// DWS; under PWS it ends in `split_overflow` on both): the behavioural GPU's status, cycles,
/// instruction count and buffers, with splits taken (the
/// `splits` counter equal on both); and `fig5_nested` under DWS at S = 3, its nested split
/// taken. The command lines of `rtgpu run KERNEL --mode pws --s 1 --top rtl`.
#[test]
fn split_kernels_run_as_on_the_behavioural_gpu() {
    for mode in ["dws", "pws"] {
        let mut splits = 0;
        for (kernel, sched, grid) in [
            ("firmware/kernels/fig2_divergent.s", "gto", "64"),
            ("firmware/kernels/fig2_divergent.s", "rr", "256"),
            ("firmware/kernels/fig5_nested.s", "lrr", "128"),
        ] {
            if mode == "pws" && kernel.contains("fig5") {
                // (Its nested split needs S = 2 under PWS: `split_overflow` on both, one
                // cycle more on the RTL, docs/assumptions.md#A108.)
                let args = ["--sched", sched, "--mode", mode, "--s", "1", "--grid", grid];
                let (b, r) = both_kernel(kernel, &args);
                assert_eq!(
                    cu::status_name(&b.result),
                    "split_overflow",
                    "{:?}",
                    b.result
                );
                assert_same_end(&b, &r, &format!("{kernel} pws"));
                continue;
            }
            let b = runs_alike_with(
                kernel,
                &["--sched", sched, "--mode", mode, "--s", "1", "--grid", grid],
            );
            splits += b.counters.get("splits");
        }
        assert!(splits >= 3, "{mode}: {splits} splits");
    }
    // DWS with S = 3: `fig5_nested`'s nested split is taken (S = 1 refuses it).
    let args = |s| ["--sched", "lrr", "--mode", "dws", "--s", s, "--grid", "64"];
    let fig5 = "firmware/kernels/fig5_nested.s";
    let s1 = runs_alike_with(fig5, &args("1")).counters.get("splits");
    let s3 = runs_alike_with(fig5, &args("3")).counters.get("splits");
    assert!(s3 > s1, "fig5_nested DWS splits: S = 1 {s1}, S = 3 {s3}");
}

/// The integer kernels that split at their own launches.
const SPLITTING: [&str; 3] = ["fig2_divergent", "fig5_nested", "synthetic"];

/// Every integer kernel of `firmware/kernels/` at its own launch, under DWS at S = 1 and 3 and
/// PWS at S = 1, under GTO and LRR, and the kernels that split under PWS at S = 3 (the
/// four-unit system, about 3.5 times slower) under GTO, through the driver on the RTL system:
/// the behavioural GPU's status, cycles, instruction count, splits and buffers
/// (`fig5_nested` under PWS at S = 1, below its
/// `@min-s` of 2, ends in `split_overflow` on both, one cycle later on the RTL:
/// docs/assumptions.md#A108). At their own launches (four wavefronts on the four contexts)
/// DWS' splits find no free context and serialize at any S, PWS' take a SpSIMD
/// (`fig2_divergent`, `synthetic`); the S = 3 difference at one wavefront is
/// [`split_kernels_run_as_on_the_behavioural_gpu`]'s.
#[test]
fn every_kernel_runs_as_on_the_behavioural_gpu_when_splitting() {
    let mut pws_splits = 0;
    for kernel in crate::common::INTEGER_KERNELS {
        let path = format!("firmware/kernels/{kernel}.s");
        for (mode, s) in [("dws", "1"), ("dws", "3"), ("pws", "1"), ("pws", "3")] {
            let scheds: &[&str] = match (mode, s) {
                ("pws", "3") if !SPLITTING.contains(&kernel) => &[],
                ("pws", "3") => &["gto"],
                _ => &["gto", "lrr"],
            };
            for &sched in scheds {
                let args = ["--sched", sched, "--mode", mode, "--s", s];
                let at = format!("{kernel} {mode} S={s} {sched}");
                let (b, r) = both_kernel(&path, &args);
                assert_eq!(b.result, r.result, "{at}");
                if b.result.is_err() {
                    assert_eq!(
                        (kernel, mode, s),
                        ("fig5_nested", "pws", "1"),
                        "{at}: {:?}",
                        b.result
                    );
                    assert_same_end(&b, &r, &at);
                    continue;
                }
                for name in ["cycles", "instructions", "splits"] {
                    assert_eq!(b.counters.get(name), r.counters.get(name), "{at}: {name}");
                }
                assert_eq!(first_differing_word(&b.buffers, &r.buffers), None, "{at}");
                if (mode, s) == ("pws", "3") {
                    pws_splits += b.counters.get("splits");
                }
            }
        }
    }
    assert!(pws_splits > 0, "PWS at S = 3: no split");
}

/// [`runs_alike`] with `args` after the kernel: the behavioural outcome.
fn runs_alike_with(kernel: &str, args: &[&str]) -> Outcome {
    let (b, r) = both_kernel(kernel, args);
    assert!(b.result.is_ok(), "{kernel}: {:?}", b.result);
    assert_eq!(b.result, r.result, "{kernel}");
    for name in ["cycles", "instructions", "splits"] {
        assert_eq!(
            b.counters.get(name),
            r.counters.get(name),
            "{kernel}: {name}"
        );
    }
    assert!(
        b.buffers.iter().flatten().any(|&w| w != 0),
        "{kernel} stores"
    );
    assert_eq!(
        first_differing_word(&b.buffers, &r.buffers),
        None,
        "{kernel}"
    );
    b
}

/// The first word where two runs' buffers differ: (buffer, word, behavioural, RTL), `None`
/// for the same buffers (a missing buffer or word reads `None`).
fn first_differing_word(
    b: &[Vec<u32>],
    r: &[Vec<u32>],
) -> Option<(usize, usize, Option<u32>, Option<u32>)> {
    (0..b.len().max(r.len())).find_map(|i| {
        let (x, y) = (b.get(i), r.get(i));
        let n = x.map_or(0, Vec::len).max(y.map_or(0, Vec::len));
        (0..n)
            .map(|w| {
                (
                    i,
                    w,
                    x.and_then(|v| v.get(w).copied()),
                    y.and_then(|v| v.get(w).copied()),
                )
            })
            .find(|(_, _, p, q)| p != q)
            .or_else(|| (x.is_none() != y.is_none()).then_some((i, 0, None, None)))
    })
}

/// The launch `code` on `grid`/`wg` with `lds` bytes of LDS per work-group through the
/// driver on both systems.
fn both(code: &[u32], grid: u32, wg: u32, lds: u32) -> (Outcome, Outcome) {
    both_in((Mode::NoSplit, 1), code, (grid, wg), lds)
}

/// [`both`] in splitting mode `mode` with S = `s`.
fn both_in(
    (mode, s): (Mode, u32),
    code: &[u32],
    (grid, wg): (u32, u32),
    lds: u32,
) -> (Outcome, Outcome) {
    let dims = Dims { grid, wg };
    let image = Image::build(&[], dims, 1);
    let desc = LaunchDesc::new(image.abi, dims, lds, mode, s, Policy::Gto);
    on_both(cu_system::config(), code, &image, desc, 10_000)
}

/// The LDS kernels (`lds_reduce`: a work-group of four wavefronts reducing through
/// `ds_add_u32` with barriers, 1 KiB per work-group; `rtl/lds_pairs`: four work-groups resident
/// at once, `ds_write2`/`ds_read2`) run by the driver on the RTL system, whose launch gives
/// the top its LDS size: the behavioural GPU's status, cycles, instruction count and
/// buffers.
#[test]
fn lds_kernels_run_as_on_the_behavioural_gpu() {
    for (kernel, sched) in [
        ("firmware/kernels/lds_reduce.s", "lrr"),
        ("firmware/kernels/rtl/lds_pairs.s", "gto"),
    ] {
        runs_alike(kernel, sched);
    }
}

fn words(src: &str) -> Vec<u32> {
    assemble(src, "t.s").unwrap().words()
}

/// An illegal instruction, a jump past the code, a store past the data memory (lane 4 of
/// `MEM_BYTES − 16 + 4 · lane` is at `MEM_BYTES`) and two bad launches (a grid that is not a
/// multiple of the work-group, five wavefronts per work-group on four contexts) end with
/// the behavioural GPU's error: the same `STATUS`, `ERROR`, `ERROR_PC` and `ERROR_INFO`. The
/// cycle count of a bad launch is the behavioural one; a fault's is one more (the RTL top's
/// `busy` includes the faulting issue's cycle, the behavioural unit does not count it:
/// docs/assumptions.md#A108). Mutations caught: the illegal and out-of-range codes swapped in
/// `CuSystem`; `ERROR_INFO` of an illegal instruction taken from the fault PC; `ERROR_INFO`
/// of a memory fault taken from the fault PC.
#[test]
fn faults_end_as_on_the_behavioural_gpu() {
    let mut illegal = words("s_mov_b32 s10, 1\ns_nop 0\ns_nop 0\ns_endpgm\n");
    illegal[2] = 0xFFFF_FFFF;
    let jump = words("s_mov_b32 s20, 0x800\ns_mov_b32 s21, 0\ns_setpc_b64 s[20:21]\ns_endpgm\n");
    let ok = words("s_nop 0\ns_endpgm\n");
    let past_memory = words(&format!(
        "v_lshlrev_b32 v1, 2, v0\nv_add_u32 v1, vcc, {:#x}, v1\nv_mov_b32 v2, 0\n\
         flat_store_dword v[1:2], v0\ns_endpgm\n",
        cu_system::MEM_BYTES - 16
    ));
    let cases = [
        (&illegal, 128, 64, "illegal_instruction"),
        (&jump, 64, 64, "pc_out_of_range"),
        (&past_memory, 64, 64, "memory_fault"),
        (&ok, 100, 64, "bad_launch"),
        (&ok, 320, 320, "bad_launch"),
    ];
    for (code, grid, wg, want) in cases {
        let (b, r) = both(code, grid, wg, 0);
        assert_same_end(&b, &r, &format!("{want} grid {grid} wg {wg}"));
        assert_eq!(cu::status_name(&r.result), want, "{:?}", r.result);
    }
}

/// The launch checks of the RTL systems (a launch written by the driver, not refused by the
/// command line): PWS above the top's SpSIMDs is a setting the system does not have,
/// `bad_launch` with `ERROR_INFO` 10 (S = 2 on the two-unit system, S = 4 on the four-unit
/// one), while the four-unit system runs a split at S = 2 and 3, and DWS at S = 7 (more than
/// the four contexts can hold) runs, as on the behavioural GPU (the same result, cycles and
/// splits). Mutations caught: the check's S test applied to DWS again; the four-unit system's
/// check at S = 1 (its runs refused).
#[test]
fn the_launch_check_takes_dws_at_any_s_and_pws_up_to_the_tops_spsimds() {
    let code = words("v_cmp_gt_u32 vcc, 32, v0\nsplit vcc_lo, vcc_hi\nmerge\ns_endpgm\n");
    let dims = Dims { grid: 64, wg: 64 };
    let image = Image::build(&[], dims, 1);
    let desc = |mode, s| LaunchDesc::new(image.abi, dims, 0, mode, s, Policy::Gto);
    let two = rtl_run::run_code_on::<CuSystemSim>(&code, &image, desc(Mode::Pws, 2), 10_000);
    let four = rtl_run::run_code_on::<CuSystem4Sim>(&code, &image, desc(Mode::Pws, 4), 10_000);
    for (r, at) in [(two, "two units, S = 2"), (four, "four units, S = 4")] {
        let r = r.unwrap().0.result;
        match &r {
            Err(driver::DriverError::Hardware { info, .. }) => {
                assert_eq!((cu::status_name(&r).as_str(), *info), ("bad_launch", 10))
            }
            other => panic!("PWS {at}: {other:?}"),
        }
    }
    for (mode, s) in [(Mode::Pws, 2), (Mode::Pws, 3), (Mode::Dws, 7)] {
        let (b, r) = both_in((mode, s), &code, (64, 64), 0);
        assert!(b.result.is_ok(), "{mode:?} S={s}: {:?}", b.result);
        assert_eq!(b.result, r.result, "{mode:?} S={s}");
        for name in ["cycles", "splits"] {
            assert_eq!(b.counters.get(name), r.counters.get(name), "{mode:?} S={s}");
        }
        assert_eq!(r.counters.get("splits"), 1, "{mode:?} S={s}");
    }
}

/// The errors of splitting under DWS at S = 1 and 3 (and the same kernels under PWS) end as
/// on the behavioural GPU (`STATUS`, `ERROR`,
/// `ERROR_PC`, `ERROR_INFO`; one cycle more, docs/assumptions.md#A108): `s_endpgm` by both
/// halves of a split (`end_live_splits`, found by the split/merge unit the cycle after,
/// `ERROR_INFO` its context: the parent's, or the child's when the child ends first, which
/// under DWS at S = 3 the behavioural unit numbers 4, slot 1 of a four-unit group, and the
/// two-unit top must renumber from its 2), a split with a load outstanding (`split_pending_memory`,
/// `ERROR_INFO` the count), and 65 splits without a merge (each serialized: its mask does not
/// diverge; the 65th overflows the 64-deep stack: `split_overflow`). Mutations caught: the
/// split/merge unit's error code taken as is (`end_live_splits` read as `merge_watchdog`);
/// the overflow at a depth of 63; the child's context reported in the top's numbering.
#[test]
fn split_faults_end_as_on_the_behavioural_gpu() {
    let live = words("v_cmp_gt_u32 vcc, 32, v0\nsplit vcc_lo, vcc_hi\ns_endpgm\n");
    // (The child, without lanes under VCC & SpM, ends first: `ERROR_INFO` names it.)
    let child = words(
        "v_cmp_gt_u32 vcc, 32, v0\nsplit vcc_lo, vcc_hi\ns_cbranch_vccz end\ns_nop 7\n\
         s_nop 7\nend:\ns_endpgm\n",
    );
    let pending = words(
        "v_mov_b32 v1, 0\nv_mov_b32 v2, 0\nflat_load_dword v3, v[1:2]\n\
         split vcc_lo, vcc_hi\ns_endpgm\n",
    );
    let deep = words(
        "s_mov_b32 s10, 65\nloop:\nsplit exec_lo, exec_hi\ns_sub_u32 s10, s10, 1\n\
         s_cmp_lg_u32 s10, 0\ns_cbranch_scc1 loop\ns_endpgm\n",
    );
    for (code, want) in [
        (&live, "end_live_splits"),
        (&child, "end_live_splits"),
        (&pending, "split_pending_memory"),
        (&deep, "split_overflow"),
    ] {
        for (mode, s) in [(Mode::Dws, 1), (Mode::Dws, 3), (Mode::Pws, 1)] {
            let (b, r) = both_in((mode, s), code, (64, 64), 0);
            if mode == Mode::Dws {
                assert_eq!(cu::status_name(&b.result), want, "{:?}", b.result);
            }
            assert_same_end(&b, &r, &format!("{want} {mode:?} S={s}"));
        }
    }
}

/// Splits nested three deep (at lanes 32, 16 and 8) under PWS at S = 2 and 3 on the
/// four-unit system: the split that finds no free SpSIMD ends the launch in `split_overflow`
/// at its PC, as on the behavioural GPU, with the same instructions (7 at S = 2; 12 at S = 3,
/// where the fourth unit has issued) and splits. The only driver-level run that issues on
/// unit 3; mutation caught: `LaunchCtl` without unit 3's count (10 instructions against 12).
#[test]
fn splits_nested_deeper_than_s_overflow_as_on_the_behavioural_gpu() {
    let level = |lanes| format!("v_cmp_gt_u32 vcc, {lanes}, v0\nsplit vcc_lo, vcc_hi\n");
    let (a, b, c) = (level(32), level(16), level(8));
    let code = words(&format!("{a}{b}{c}merge\nmerge\nmerge\ns_endpgm\n"));
    for (s, instructions) in [(2, 7), (3, 12)] {
        let (b, r) = both_in((Mode::Pws, s), &code, (64, 64), 0);
        assert_eq!(cu::status_name(&b.result), "split_overflow", "S={s}");
        assert_same_end(&b, &r, &format!("PWS S={s}"));
        let got = (r.counters.get("instructions"), r.counters.get("splits"));
        assert_eq!(got, (instructions, s.into()), "S={s}: instructions, splits");
    }
}

/// A split's half without lanes under VCC goes straight to the common `merge`; the other
/// half sleeps (`s_sleep 127`: 8,128 cycles each) before it. With nine sleeps (73,152
/// cycles) the first half waits in MERGE_WAIT past the split/merge unit's watchdog (65,535
/// cycles) and the launch ends in `merge_watchdog`, under DWS and PWS at S = 1, with the
/// behavioural GPU's error, PC and information, one cycle more on the RTL
/// (docs/assumptions.md#A108); with eight (65,024 cycles) they merge in time and both end in
/// `done` after the same cycles (about 65,040). Mutation caught: the top's watchdog bound
/// 32,768 instead of 65,535 (the RTL's launch stops at cycle 32,786).
#[test]
fn a_merge_watchdog_ends_as_on_the_behavioural_gpu() {
    for (sleeps, want) in [(9, "merge_watchdog"), (8, "done")] {
        let code = words(&format!(
            "v_cmp_gt_u32 vcc, 32, v0\nsplit vcc_lo, vcc_hi\ns_and_saveexec_b64 s[6:7], vcc\n\
             s_cbranch_execz join\n{}join:\ns_mov_b64 exec, s[6:7]\nmerge\ns_endpgm\n",
            "s_sleep 127\n".repeat(sleeps)
        ));
        let dims = Dims { grid: 64, wg: 64 };
        let image = Image::build(&[], dims, 1);
        for (mode, s) in [(Mode::Dws, 1), (Mode::Pws, 1)] {
            let desc = LaunchDesc::new(image.abi, dims, 0, mode, s, Policy::Gto);
            let (b, r) = on_both(cu_system::config(), &code, &image, desc, 200_000);
            assert_eq!(cu::status_name(&b.result), want, "{mode:?}: {:?}", b.result);
            assert_same_end(&b, &r, &format!("{want} {mode:?}"));
            let cycles = r.counters.get("cycles");
            assert!(cycles > 65_000, "{want} {mode:?}: {cycles} cycles");
        }
    }
}

/// The generator's seed 161558 at two wavefronts under PWS at S = 1 (GTO) through the driver:
/// a child's `split_overflow` stops the launch in the cycle the other wavefront's split issues,
/// whose copy comes after the compute unit's `busy` fell. The system's `splits` counter counts
/// the top's `copy` probe, which shows copies only while the unit is busy: 1 on both, the same
/// error and PC, one cycle more on the RTL (docs/assumptions.md#A108). Mutation caught: the
/// probe ungated (2).
#[test]
fn a_split_in_the_fault_cycle_is_not_counted_by_the_system() {
    let (text, code) = crate::common::random_kernel(161_558).unwrap();
    let meta = rtgpu_firmware::launch::KernelMeta::parse(&text).unwrap();
    let dims = Dims { grid: 128, wg: 64 };
    let image = Image::build(&meta.args, dims, 161_558);
    let desc = LaunchDesc::new(image.abi, dims, 0, Mode::Pws, 1, Policy::Gto);
    let (b, r) = on_both(cu_system::config(), &code, &image, desc, 10_000);
    assert_eq!(
        cu::status_name(&b.result),
        "split_overflow",
        "{:?}",
        b.result
    );
    assert_same_end(&b, &r, "seed 161558");
    assert_eq!((b.counters.get("splits"), r.counters.get("splits")), (1, 1));
}

/// An LDS store past the launch's 128 bytes per work-group (lane 32's `4 · lane`) ends with
/// the behavioural GPU's `lds_fault`, `ERROR_INFO` the byte address 128, one cycle more
/// (docs/assumptions.md#A108); within 256 bytes it finishes alike. Mutation caught: the
/// system's `lds_words` in bytes instead of dwords (no fault at byte 128).
#[test]
fn an_lds_fault_ends_as_on_the_behavioural_gpu() {
    let store = words("v_lshlrev_b32 v1, 2, v0\nds_write_b32 v1, v0\ns_endpgm\n");
    for (lds, want) in [(128, "lds_fault"), (256, "done")] {
        let (b, r) = both(&store, 128, 64, lds);
        assert_same_end(&b, &r, &format!("lds {lds}"));
        assert_eq!(cu::status_name(&r.result), want, "{:?}", r.result);
    }
}

/// A random register access of the registers both systems hold (no doorbell).
fn access(rng: &mut ChaCha8Rng) -> (bool, u32, u32) {
    const REGS: [u32; 16] = [
        addr::ID,
        addr::VERSION,
        addr::CTRL,
        addr::STATUS,
        addr::ERROR,
        addr::CODE_DATA,
        addr::MEM_DATA,
        addr::CODE_SIZE,
        addr::MEM_SIZE_LO,
        addr::WG_FIRST,
        addr::CU_MASK,
        addr::GRID,
        addr::ABI,
        addr::WF_SEL,
        0x01C,
        0x041,
    ];
    let write = rng.gen_bool(0.4);
    let a = match rng.gen_range(0..8) {
        0 => addr::CODE_ADDR,
        1 => addr::MEM_ADDR_LO,
        2 => addr::MEM_ADDR_HI,
        3 => addr::COUNTERS + 4 * rng.gen_range(0..80),
        4 => addr::USER_DATA + 4 * rng.gen_range(0..16),
        _ => REGS[rng.gen_range(0..REGS.len())],
    };
    let v = match a {
        addr::CODE_ADDR => rng.gen_range(CODE_BYTES - 12..=CODE_BYTES + 4) & !3,
        addr::MEM_ADDR_LO => (MEM_BYTES as u32 - rng.gen_range(0..5) * 4) % MEM_BYTES as u32,
        addr::MEM_ADDR_HI => u32::from(rng.gen_bool(0.1)),
        _ => rng.gen(),
    };
    (write && a != addr::CTRL, a, v)
}

/// The system's register bus answers as the behavioural GPU's `read`/`write` do, access by
/// access, over 3,000 random accesses: the windows (writes, reads back through the code
/// memory and the data RAM, refusals at their ends), the launch and sub-kernel registers,
/// read-only and unmapped offsets, counters 0 before a launch. Mutation caught: the
/// sub-kernel registers' read data left 0.
#[test]
fn the_bus_answers_as_the_behavioural_gpu() {
    let mut gpu = Gpu::new(cu_system::config()).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let trace: Vec<(bool, u32, u32)> = (0..3000).map(|_| access(&mut rng)).collect();
    let want: Vec<Result<u32, _>> = trace.iter().map(|&a| apply(&mut gpu, a)).collect();
    let t = trace.clone();
    let got = on_rtl_stack(move || {
        let opts = VlOptions {
            quick: true,
            ..VlOptions::default()
        };
        let mut bus: RtlBus = RtlBus::new(&opts)?;
        Ok(t.iter().map(|&a| apply(&mut bus, a)).collect::<Vec<_>>())
    })
    .unwrap();
    for (i, (w, g)) in want.iter().zip(&got).enumerate() {
        assert_eq!(w, g, "access {i}: {:?}", trace[i]);
    }
}

fn apply<B: Bus>(bus: &mut B, (write, a, v): (bool, u32, u32)) -> Result<u32, String> {
    match write {
        true => bus.write(a, v).map(|()| 0),
        false => bus.read(a),
    }
    .map_err(|e| e.to_string())
}

/// `rtgpu run --top rtl --json` prints the behavioural run's report shape with the RTL's
/// cycles; a switch the RTL does not have is a usage error (exit 2) (PWS with S = 4), DWS
/// with S = 2 runs.
#[test]
fn cli_top_rtl() {
    let (code, out, err) = rtgpu(&[
        "run",
        SCALAR_LOOP,
        "--top",
        "rtl",
        "--grid",
        "192",
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let j: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        (j["top"].as_str(), j["status"].as_str()),
        (Some("rtl"), Some("done"))
    );
    assert!(j["counters"]["cycles"].as_u64().unwrap() > 50, "{out}");
    let (code, _, err) = rtgpu(&[
        "run",
        SCALAR_LOOP,
        "--top",
        "rtl",
        "--mode",
        "pws",
        "--s",
        "4",
    ]);
    assert_eq!(code, 2, "pws with S = 4: {err}");
    assert!(err.contains("above 3"), "{err}");
    let (code, out, err) = rtgpu(&[
        "run",
        SCALAR_LOOP,
        "--top",
        "rtl",
        "--mode",
        "dws",
        "--s",
        "2",
        "--json",
    ]);
    assert_eq!(code, 0, "dws with S = 2: {err}");
    assert!(out_status_done(&out), "{out}");
    // `--dump` writes the buffers the RTL run read back (word 129: group 1, lane 1 of 128).
    let dir = tempfile::tempdir().unwrap();
    let dump = dir.path().join("out");
    let k = "firmware/kernels/rtl/hsa_ids.cl";
    let (code, _, err) = rtgpu(&["run", k, "--top", "rtl", "--dump", dump.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let hex = std::fs::read_to_string(dump.join("arg0.hex")).unwrap();
    assert_eq!(hex.lines().nth(129), Some("00018001"), "{hex:.200}");
}

/// The report's status is `done`.
fn out_status_done(out: &str) -> bool {
    let j: serde_json::Value = serde_json::from_str(out).unwrap_or_default();
    j["status"].as_str() == Some("done")
}
