//! Tests of the vulnerable-period tracker, Algorithm 1 and the BuildFromBottom pass.

use super::*;
use crate::gen_kernel::{divergent_kernel, GenOptions};
use crate::interp::{self, InterpConfig};
use crate::isa::{assemble, disassemble};
use crate::launch::{Image, KernelMeta};
use rtgpu_hw::cu::CuConfig;

/// A kernel's launch case from its source (seeded input image).
fn case(text: &str) -> Case {
    let code = assemble(text, "unit")
        .unwrap_or_else(|e| panic!("{e}"))
        .words();
    let meta = KernelMeta::parse(text).unwrap();
    let image = Image::build(&meta.args, meta.dims, 7);
    Case { code, meta, image }
}

/// The measured vulnerable periods of `c` on the default compute unit.
fn measured(c: &Case) -> Vulnerability {
    let mut tracker = None;
    let (out, mut gpu) = run_case(c, CuConfig::default(), 1_000_000, |cu| {
        cu.set_observer(Some(Box::new(Tracker::new(&c.code))));
    })
    .unwrap();
    out.result.unwrap();
    if let Some(o) = gpu.cu_mut().set_observer(None) {
        tracker = o.into_any().downcast::<Tracker>().ok();
    }
    tracker.expect("the tracker").finish()
}

/// The buffers the interpreter leaves.
fn interpreted(c: &Case, code: &[u32]) -> Vec<Vec<u32>> {
    let cfg = InterpConfig::default();
    interp::buffers(code, c.meta.dims, c.meta.lds, &c.image, &cfg).unwrap()
}

/// One wavefront; s20 written, then read five cycles later (s_mov issues at c, `s_nop 3` at
/// c+1 holds the wavefront to c+5); v1 written at c+6 (VALU latency 4, `s_nop 1` at c+10 holds
/// it to c+12) and read at c+12 in all 64 lanes; s20 is written again at the end (closing its
/// first value there). Nothing else written is read: s21, SCC, VCC, v2, the second s20 and
/// the ABI's SGPRs and v0 have a period of 0.
const TINY: &str = "
// @grid 64
// @wg 64
.text
    s_mov_b32 s20, 5
    s_nop 3
    s_add_u32 s21, s20, 1
    v_mov_b32 v1, 7
    s_nop 1
    v_add_u32 v2, vcc, v1, v1
    s_mov_b32 s20, 0
    s_endpgm
";

/// The measured vulnerable period of a tiny kernel equals the hand computation: SGPRs
/// 5 cycles × 32 bits, VGPRs 6 cycles × 32 bits × 64 lanes. Catches a value closed by a
/// rewrite dropped (SGPRs 0), reads recorded in the lanes outside EXEC (VGPRs 0) and the
/// compute unit's hook reporting the wrong event.
#[test]
fn tiny_kernel_measured_period_is_hand_computed() {
    let v = measured(&case(TINY));
    assert_eq!(v.sgpr, 5 * 32);
    assert_eq!(v.vgpr, 6 * 32 * 64);
    assert_eq!((v.vcc, v.scc, v.m0), (0, 0, 0));
}

/// Algorithm 1 on the same kernel: with one wavefront per SIMD, issue takes
/// `issue_period` = 4 cycles per instruction (Eq. 3.2); s_mov completes at 4 + 1, s_add starts
/// issuing at 8 (after s_nop): 3 cycles × 32 bits. v_mov issues from 12 to 16, done at 20,
/// v_add starts at 20 (the s_nop ends at 20 too): 0 cycles. Catches the issue latency left out
/// (0 + 1 → 1 cycle) and the completion measured from the issue start.
#[test]
fn algorithm_1_on_the_tiny_kernel() {
    let c = case(TINY);
    let path: Vec<u32> = (0..8).map(|i| i * 4).collect();
    let m = estimate::Model {
        n_warp: 1,
        issue_period: 4,
        salu: 1,
        valu: 4,
        branch: 2,
        flat: 64,
        smem: 16,
        lds: 8,
        slots: 64,
    };
    let e = estimate::estimate(&c.code, &[path], 64, &m);
    assert_eq!(e.sgpr, 3 * 32);
    assert_eq!(e.vgpr, 0);
}

/// A load of a[i] followed by a store to a[i] in one block: the load must keep reading the old
/// value (no register links them).
const LOAD_THEN_STORE: &str = "
// @grid 64
// @wg 64
// @args int:grid zero:grid
.text
    s_load_dwordx4 s[8:11], s[0:1], 0x0
    v_lshlrev_b32 v1, 2, v0
    s_waitcnt lgkmcnt(0)
    v_mov_b32 v3, s9
    v_add_u32 v2, vcc, s8, v1
    v_addc_u32 v3, vcc, 0, v3, vcc
    v_mov_b32 v5, s11
    v_add_u32 v4, vcc, s10, v1
    v_addc_u32 v5, vcc, 0, v5, vcc
    v_mov_b32 v7, 99
    flat_load_dword v6, v[2:3]
    flat_store_dword v[2:3], v7
    s_waitcnt 0
    flat_store_dword v[4:5], v6
    s_endpgm
";

/// Every kernel of firmware/kernels/, a load-then-store kernel and 48 generated divergent kernels (loops and nested
/// ifs) give the interpreter the same buffers after the pass, and the pass moved something.
/// Catches the write-after-read dependence left out (a producer then overwrites a register
/// before its last old read) and memory instructions left free to pass each other (the
/// load-then-store kernel's load then reads the stored value).
#[test]
fn pass_keeps_results_on_every_kernel() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/kernels");
    let mut texts: Vec<(String, String)> = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "s"))
        .map(|p| {
            (
                p.display().to_string(),
                std::fs::read_to_string(&p).unwrap(),
            )
        })
        .collect();
    texts.push(("load then store".into(), LOAD_THEN_STORE.into()));
    for seed in 0..48 {
        let opts = GenOptions {
            inputs: seed % 2 == 1,
            ..GenOptions::default()
        };
        texts.push((format!("generated {seed}"), divergent_kernel(seed, &opts)));
    }
    let mut moved = 0;
    for (what, text) in &texts {
        let c = case(text);
        let s = schedule(&c.code).unwrap_or_else(|e| panic!("{what}: {e}"));
        assert_eq!(s.code.len(), c.code.len(), "{what}");
        assert_eq!(interpreted(&c, &s.code), interpreted(&c, &c.code), "{what}");
        moved += s.moved;
    }
    assert!(moved > 100, "the pass moved only {moved} instructions");
}

/// The four producer/consumer pairs of the thesis' Fig. 3.4 on GCN3. v2 is produced before a
/// loop and read inside it (condition 3: it stays outside); v6 before an `s_barrier` and read
/// after it (condition 1: it stays above); v22 is read twice (condition 2: it moves only to just
/// above its first reader); v10 has one reader, three instructions further, and moves next to
/// it.
const FIG_3_4: &str = "
// @grid 64
// @wg 64
.text
    v_mov_b32 v2, 3
    s_mov_b32 s4, 4
loop:
    v_add_u32 v3, vcc, v2, v0
    s_sub_u32 s4, s4, 1
    s_cmp_lg_u32 s4, 0
    s_cbranch_scc1 loop
    v_mov_b32 v6, 5
    s_barrier
    v_mov_b32 v8, v6
    v_mov_b32 v22, 9
    v_mov_b32 v10, 11
    v_mov_b32 v11, v22
    v_mov_b32 v12, 1
    v_mov_b32 v13, v22
    v_mov_b32 v14, v10
    s_endpgm
";

/// The disassembled instruction texts of `code`.
fn texts(code: &[u32]) -> Vec<String> {
    disassemble(code)
        .unwrap()
        .into_iter()
        .map(|d| {
            d.to_string()
                .split(';')
                .next()
                .unwrap_or("")
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect()
}

/// Fig. 3.4's legality cases: only the legal moves happen. Catches the barrier not being a
/// fixed point (v6 would move below it), the producer placed before all its readers are
/// (v22 next to its last reader) and branch targets not ending a block.
#[test]
fn fig_3_4_only_the_legal_moves_happen() {
    let c = case(FIG_3_4);
    let s = schedule(&c.code).unwrap();
    let t = texts(&s.code);
    let at = |p: &str| {
        t.iter()
            .position(|x| x.starts_with(p))
            .unwrap_or_else(|| panic!("{p} in {t:?}"))
    };
    assert!(at("v_mov_b32_e32 v2, 3") < at("v_add_u32_e32 v3"));
    assert!(at("v_mov_b32_e32 v6, 5") < at("s_barrier"));
    assert_eq!(at("v_mov_b32_e32 v22, 9") + 1, at("v_mov_b32_e32 v11, v22"));
    assert_eq!(
        at("v_mov_b32_e32 v10, 11") + 1,
        at("v_mov_b32_e32 v14, v10")
    );
    assert_eq!(interpreted(&c, &s.code), interpreted(&c, &c.code));
}

/// The measured vulnerable period of the Fig. 3.4 kernel does not grow under the pass (it
/// shrinks: v10 and v22 wait less). Catches the candidate choice inverted (the earliest ready
/// instruction placed first from the bottom, which pushes producers up).
#[test]
fn fig_3_4_period_shrinks() {
    let c = case(FIG_3_4);
    let before = measured(&c);
    let after = measured(&Case {
        code: schedule(&c.code).unwrap().code,
        ..c
    });
    assert!(
        after.total() < before.total(),
        "{} -> {}",
        before.total(),
        after.total()
    );
}
