//! The load/store trace analyzer (`rtgpu_firmware::ldst_trace`) on the kernels of
//! `firmware/kernels/` and small hand-written ones. Every expected trace, line set, epoch and
//! miss count is worked out by hand from the kernel source and the image layout of
//! `firmware/kernels/README.md` (buffers from 0x10000, 256-byte aligned; line = byte >> 7).

use rtgpu_firmware::interp::{run, run_observed, InterpConfig, InterpError, MemEvent};
use rtgpu_firmware::isa::{assemble, Op, Program};
use rtgpu_firmware::launch::{Arg, Image, KernelMeta, KERNARG_ADDR};
use rtgpu_firmware::ldst_trace::{analyze, predict_l1, MAX_LDST_PCS, MAX_TRACE_DEPTH};
use rtgpu_wcet::reorder::analyzer::{Access, Analysis};

/// Line number of the first buffer (0x10000 >> 7).
const BASE_LINE: u32 = 512;

/// A kernel's program, header and initial image (seed 1), with its scalar arguments replaced
/// by `scalars` in order when given.
struct Kernel {
    program: Program,
    meta: KernelMeta,
    image: Image,
}

impl Kernel {
    fn new(name: &str, text: &str, scalars: &[u32]) -> Kernel {
        let program = assemble(text, name).unwrap_or_else(|e| panic!("{e}"));
        let meta = KernelMeta::parse(text).unwrap();
        let mut given = scalars.iter();
        let args: Vec<Arg> = meta
            .args
            .iter()
            .map(|a| match (a, given.len()) {
                (Arg::Scalar(_), 1..) => Arg::Scalar(*given.next().unwrap()),
                _ => *a,
            })
            .collect();
        let image = Image::build(&args, meta.dims, 1);
        Kernel {
            program,
            meta,
            image,
        }
    }

    fn file(name: &str) -> Kernel {
        let path = format!("{}/kernels/{name}", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        Kernel::new(name, &text, &[])
    }

    /// The events of `run_observed`, after checking that it leaves the same memory and stats
    /// as `run`.
    fn events(&self) -> Vec<MemEvent> {
        let (words, d, cfg) = (
            self.program.words(),
            self.meta.dims,
            InterpConfig::default(),
        );
        let (kernarg, lds) = (self.image.kernarg, self.meta.lds);
        let mut plain = self.image.mem.clone();
        let stats = run(&words, 0, d, lds, kernarg, &mut plain, &cfg).unwrap();
        let mut seen = Vec::new();
        let mut mem = self.image.mem.clone();
        let mut push = |e: &MemEvent| seen.push(e.clone());
        let observed = run_observed(&words, 0, d, lds, kernarg, &mut mem, &cfg, &mut push);
        assert_eq!((observed.unwrap(), mem), (stats, plain));
        seen
    }

    fn try_analyze(&self) -> Result<Analysis, InterpError> {
        analyze(
            &self.program.words(),
            0,
            self.meta.dims,
            self.meta.lds,
            self.image.kernarg,
            &self.image.mem,
            &InterpConfig::default(),
        )
    }

    /// The analysis, checked against `Analysis::validate` and the one-trace-per-wave shape.
    fn analyze(&self) -> Analysis {
        let a = self.try_analyze().unwrap_or_else(|e| panic!("{e}"));
        a.validate().unwrap();
        let d = self.meta.dims;
        let ids: Vec<(u32, u32)> = a.warps.iter().map(|t| (t.block, t.warp)).collect();
        let want: Vec<(u32, u32)> = (0..d.groups())
            .flat_map(|g| (0..d.waves_per_group()).map(move |w| (g, w)))
            .collect();
        assert_eq!(ids, want);
        assert_eq!((a.grid, a.block), ([d.groups(), 1, 1], [d.wg, 1, 1]));
        a
    }

    /// Byte PCs of the instructions with opcode `op`, in address order.
    fn pcs(&self, op: Op) -> Vec<u32> {
        let items = self.program.items.iter();
        items.filter(|l| l.insn.op == op).map(|l| l.addr).collect()
    }
}

/// The access's (pc, k, epoch, is_store, lines, mask).
fn shape(a: &Access) -> (u32, u16, u8, bool, Vec<u32>, u32) {
    (a.pc, a.k, a.epoch, a.is_store, a.lines.clone(), a.mask)
}

/// pc_idx is the PC's index in ldst_pcs.
fn check_pc_idx(a: &Analysis) {
    for acc in a.warps.iter().flat_map(|t| &t.accesses) {
        assert_eq!(a.ldst_pcs[usize::from(acc.pc_idx)], acc.pc);
    }
}

/// vector_add, 4 work-groups of one wave: a at 0x10000, b at 0x10400, c at 0x10800 (256
/// dwords each); wave g reads a[64g..64g+63] = lines 512+2g, 513+2g, likewise b (520+) and c
/// (528+). Hand-counted PCs: two 8-byte SMEM loads then ten 4-byte instructions put the
/// loads at 56 and 64; three VOP2, s_waitcnt and v_add_f32 after them put the store at 92.
#[test]
fn vector_add_two_loads_then_a_store_per_wave() {
    let k = Kernel::file("vector_add.s");
    let a = k.analyze();
    assert_eq!(a.ldst_pcs, vec![56, 64, 92]);
    assert_eq!(k.pcs(Op::FlatLoadDword), vec![56, 64]);
    assert_eq!(k.pcs(Op::FlatStoreDword), vec![92]);
    for (g, t) in (0..).zip(&a.warps) {
        let two = |base: u32| vec![base + 2 * g, base + 2 * g + 1];
        let got: Vec<_> = t.accesses.iter().map(shape).collect();
        let full = u32::MAX;
        let want = vec![
            (56, 0, 0, false, two(BASE_LINE), full),
            (64, 0, 0, false, two(BASE_LINE + 8), full),
            (92, 0, 0, true, two(BASE_LINE + 16), full),
        ];
        assert_eq!(got, want, "wave {g}");
        let idx: Vec<u8> = t.accesses.iter().map(|x| x.pc_idx).collect();
        assert_eq!(idx, [0, 1, 2]);
    }
}

/// lds_reduce, 4 work-groups × 4 waves of 64: every wave loads its slice of A (bytes
/// 0x10000 + 1024g + 256w: lines 512+8g+2w, +1) before any barrier. Only wave 0 lane 0 stores:
/// sums[g] (0x11000 + 4g, line 544) after 1 + 8 barriers (one before the loop, one per stride
/// 128..1) and positives[g] (0x11100 + 4g, line 546) after two more. SMEM and DS are absent.
#[test]
fn lds_reduce_epochs_follow_the_barriers() {
    let k = Kernel::file("lds_reduce.s");
    let a = k.analyze();
    let load = k.pcs(Op::FlatLoadDword)[0];
    let stores = k.pcs(Op::FlatStoreDword);
    assert_eq!(a.ldst_pcs, vec![load, stores[0], stores[1]]);
    for t in &a.warps {
        let line = BASE_LINE + 8 * t.block + 2 * t.warp;
        let mut want = vec![(load, 0, 0, false, vec![line, line + 1], u32::MAX)];
        if t.warp == 0 {
            want.push((stores[0], 0, 9, true, vec![544], 1));
            want.push((stores[1], 0, 11, true, vec![546], 1));
        }
        let got: Vec<_> = t.accesses.iter().map(shape).collect();
        assert_eq!(got, want, "group {} wave {}", t.block, t.warp);
    }
    check_pc_idx(&a);
    let barriers = k
        .events()
        .iter()
        .filter(|e| matches!(e, MemEvent::Barrier { .. }))
        .count();
    assert_eq!(barriers, 4 * 4 * 11, "11 barriers per wave");
}

/// fig2_divergent: the load comes before the first branch and the store after the last merge,
/// so both carry the whole wave although the arms diverge; nothing inside an arm is a FLAT.
#[test]
fn fig2_divergent_reconverged_instances_are_full() {
    let k = Kernel::file("fig2_divergent.s");
    let a = k.analyze();
    let pcs = [k.pcs(Op::FlatLoadDword)[0], k.pcs(Op::FlatStoreDword)[0]];
    assert_eq!(a.ldst_pcs, pcs);
    for (g, t) in (0..).zip(&a.warps) {
        let got: Vec<_> = t
            .accesses
            .iter()
            .map(|x| (x.pc, x.mask, x.lines.clone()))
            .collect();
        let a_lines = vec![BASE_LINE + 2 * g, BASE_LINE + 2 * g + 1];
        let out_lines = vec![BASE_LINE + 8 + 2 * g, BASE_LINE + 9 + 2 * g];
        assert_eq!(
            got,
            [(pcs[0], u32::MAX, a_lines), (pcs[1], u32::MAX, out_lines)]
        );
    }
}

/// If/else on the global id i < 20, then a FLAT under an EXEC that is empty in every wave
/// (no `s_cbranch_execz` around it: it executes and touches nothing), then a full store.
const ARMS: &str = "// @grid 128
// @wg 64
// @args zero:grid
    s_load_dwordx2 s[8:9], s[0:1], 0x0
    s_mul_i32 s5, s2, s3
    v_add_u32 v1, vcc, s5, v0                // i
    v_lshlrev_b32 v6, 2, v1
    s_waitcnt lgkmcnt(0)
    v_mov_b32 v3, s9
    v_add_u32 v2, vcc, s8, v6
    v_addc_u32 v3, vcc, 0, v3, vcc           // v[2:3] = &out[i]
    v_cmp_gt_u32 vcc, 20, v1                 // i < 20
    s_and_saveexec_b64 s[6:7], vcc
    s_xor_b64 s[6:7], exec, s[6:7]
    s_cbranch_execz else_arm
    flat_store_dword v[2:3], v0              // then arm
else_arm:
    s_or_saveexec_b64 s[6:7], s[6:7]
    s_xor_b64 exec, s[6:7], exec
    s_cbranch_execz join
    flat_load_dword v4, v[2:3]               // else arm
join:
    s_or_b64 exec, exec, s[6:7]
    v_cmp_lt_u32 vcc, 1000, v1               // never
    s_and_saveexec_b64 s[6:7], vcc
    flat_load_dword v5, v[2:3]               // EXEC = 0
    s_mov_b64 exec, s[6:7]
    flat_store_dword v[2:3], v0
    s_endpgm
";

/// Group 0 (i = 0..63): the then-store carries lanes 0..19 (bytes 0x10000..0x1004f: line
/// 512), the else-load lanes 20..63 (0x10050..0x100ff: lines 512, 513). Group 1 (i = 64..127)
/// skips the then arm: no store there. The empty-EXEC load is in no trace and not in ldst_pcs.
#[test]
fn divergent_arms_carry_their_lanes_and_empty_instances_vanish() {
    let k = Kernel::new("arms.s", ARMS, &[]);
    let a = k.analyze();
    let stores = k.pcs(Op::FlatStoreDword);
    let loads = k.pcs(Op::FlatLoadDword);
    let (then_st, else_ld, last_st) = (stores[0], loads[0], stores[1]);
    assert_eq!(a.ldst_pcs, vec![then_st, else_ld, last_st]);
    let got = |g: usize| -> Vec<_> { a.warps[g].accesses.iter().map(shape).collect() };
    let all = u32::MAX;
    let g0 = vec![
        (then_st, 0, 0, true, vec![512], (1 << 20) - 1),
        (else_ld, 0, 0, false, vec![512, 513], all << 20),
        (last_st, 0, 0, true, vec![512, 513], all),
    ];
    let g1 = vec![
        (else_ld, 0, 0, false, vec![514, 515], all),
        (last_st, 0, 0, true, vec![514, 515], all),
    ];
    assert_eq!((got(0), got(1)), (g0, g1));
    check_pc_idx(&a);
    let empty: Vec<(u32, u32)> = k
        .events()
        .iter()
        .filter_map(|e| match e {
            MemEvent::Flat(f) if f.exec == 0 => Some((f.at.group, f.pc)),
            _ => None,
        })
        .collect();
    assert_eq!(
        empty,
        [(0, loads[1]), (1, loads[1])],
        "the FLAT did run with EXEC = 0"
    );
}

/// One load, then `N` (scalar argument) iterations of a `flat_load_dwordx2`, then a store, on
/// a 128-dword buffer. Lane l of the x2 reads dwords l and l+1: dwords 0..64, bytes
/// 0x10000..0x10103, lines 512, 513 and 514.
const REPEAT: &str = "// @grid 64
// @wg 64
// @args iota:128 5
    s_load_dwordx2 s[8:9], s[0:1], 0x0
    s_load_dword s12, s[0:1], 0x8            // N
    v_lshlrev_b32 v1, 2, v0
    s_waitcnt lgkmcnt(0)
    v_mov_b32 v3, s9
    v_add_u32 v2, vcc, s8, v1
    v_addc_u32 v3, vcc, 0, v3, vcc           // v[2:3] = &A[l]
    flat_load_dword v4, v[2:3]
    s_mov_b32 s13, 0
top:
    s_cmp_ge_u32 s13, s12
    s_cbranch_scc1 done
    flat_load_dwordx2 v[6:7], v[2:3]
    s_add_u32 s13, s13, 1
    s_branch top
done:
    flat_store_dword v[2:3], v4
    s_endpgm
";

#[test]
fn looped_pc_counts_k() {
    let k = Kernel::new("repeat.s", REPEAT, &[5]);
    let a = k.analyze();
    let (first, looped) = (k.pcs(Op::FlatLoadDword)[0], k.pcs(Op::FlatLoadDwordx2)[0]);
    let store = k.pcs(Op::FlatStoreDword)[0];
    let mut want = vec![(first, 0, 0, false, vec![512, 513], u32::MAX)];
    want.extend((0..5).map(|n| (looped, n, 0, false, vec![512, 513, 514], u32::MAX)));
    want.push((store, 0, 0, true, vec![512, 513], u32::MAX));
    let got: Vec<_> = a.warps[0].accesses.iter().map(shape).collect();
    assert_eq!(got, want);
    assert_eq!(a.ldst_pcs, vec![first, looped, store]);
}

/// loop.s: its loops hold no FLAT, so each wave has one load and one store, both k = 0.
#[test]
fn loop_kernel_has_k_zero_outside_its_loops() {
    let a = Kernel::file("loop.s").analyze();
    for t in &a.warps {
        let ks: Vec<(bool, u16)> = t.accesses.iter().map(|x| (x.is_store, x.k)).collect();
        assert_eq!(ks, [(false, 0), (true, 0)]);
    }
}

/// 1 + N + 1 instances: N = 254 fills the trace exactly; N = 255 and N = 300 overflow it.
#[test]
fn trace_depth_limit() {
    assert_eq!(MAX_TRACE_DEPTH, 256);
    let ok = Kernel::new("repeat.s", REPEAT, &[254]).analyze();
    assert_eq!(ok.warps[0].accesses.len(), 256);
    for n in [255, 300] {
        match Kernel::new("repeat.s", REPEAT, &[n]).try_analyze() {
            Err(InterpError::TraceLimit(why)) => assert!(why.contains("256"), "{why}"),
            other => panic!("N = {n}: {other:?}"),
        }
    }
}

/// A kernel of `n` straight-line loads of the same address: `n` distinct PCs.
fn many_pcs(n: usize) -> Kernel {
    let mut src = String::from(
        "// @args zero:64\n s_load_dwordx2 s[8:9], s[0:1], 0x0\n v_lshlrev_b32 v1, 2, v0\n \
         s_waitcnt lgkmcnt(0)\n v_mov_b32 v3, s9\n v_add_u32 v2, vcc, s8, v1\n \
         v_addc_u32 v3, vcc, 0, v3, vcc\n",
    );
    src += &" flat_load_dword v4, v[2:3]\n".repeat(n);
    src += " s_endpgm\n";
    Kernel::new("many.s", &src, &[])
}

#[test]
fn pc_list_limit() {
    assert_eq!(MAX_LDST_PCS, 255);
    let a = many_pcs(255).analyze();
    assert_eq!(a.ldst_pcs.len(), 255);
    assert_eq!(a.warps[0].accesses[254].pc_idx, 254);
    assert!(matches!(
        many_pcs(256).try_analyze(),
        Err(InterpError::TraceLimit(_))
    ));
}

/// vector_add: a, b and c are disjoint, so every load line (4 waves × 2 loads × 2 lines = 16)
/// is a cold miss and every store line (8) a no-allocate miss, whatever the cache and rounds.
#[test]
fn predict_l1_vector_add_all_cold() {
    let a = Kernel::file("vector_add.s").analyze();
    for (r, sets, ways) in [(1, 1, 1), (4, 2, 2), (2, 32, 4)] {
        let e = predict_l1(&a, r, sets, ways).unwrap();
        let got = (
            e.load_accesses,
            e.load_misses,
            e.store_accesses,
            e.store_misses,
        );
        assert_eq!(got, (16, 16, 8, 8), "r {r} sets {sets} ways {ways}");
    }
}

/// vector_add with b pointed at a: both loads of wave g read lines 512+2g, 513+2g. One set of
/// two ways: one work-group per round releases a_g, a_g again (2 hits), c_g: 8 load misses.
/// All four per round release the four first loads (8 lines, LRU keeps the last two), then the
/// four second loads from line 512 again: all 16 load lines miss. Eight ways keep all 8 lines:
/// 8 misses again. The 8 store lines always miss.
#[test]
fn predict_l1_vector_add_aliased_rounds() {
    let mut k = Kernel::file("vector_add.s");
    let kernarg = (KERNARG_ADDR / 4) as usize;
    k.image.mem[kernarg + 2] = k.image.mem[kernarg];
    let a = k.analyze();
    assert_eq!(a.warps[1].accesses[1].lines, [514, 515]);
    for (r, ways, load_misses) in [(1, 2, 8), (4, 2, 16), (4, 8, 8)] {
        let e = predict_l1(&a, r, 1, ways).unwrap();
        let got = (e.load_accesses, e.load_misses, e.store_misses, e.misses);
        let want = (16, load_misses, 8, load_misses + 8);
        assert_eq!(got, want, "r {r} ways {ways}");
    }
    assert!(predict_l1(&a, 0, 1, 1).is_err());
    assert!(predict_l1(&a, 1, 1, 0).is_err());
}
