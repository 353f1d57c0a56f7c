//! Unit tests of the interpreter, one group per semantic area. Snippets run on one wave
//! whose v0 holds the lane number; expected values come from the GCN3 definitions.

use super::control::Flow;
use super::mem::Memories;
use super::step::{self, Code};
use super::wave::{Wave, EXEC, VCC};
use super::*;
use crate::isa::assemble;

/// Runs `src` (then `s_endpgm`) on one wave with `exec`, v0 = lane, over `mem`.
fn run_wave_mem(src: &str, exec: u64, mem: &mut [u32]) -> Wave {
    let prog = assemble(&format!("{src}\ns_endpgm"), "test.s").unwrap();
    let words = prog.words();
    let mut code = Code::new(&words);
    let mut w = Wave::new(0);
    w.set_pair(EXEC, exec);
    for l in 0..64 {
        w.set_vgpr(0, l, l as u32);
    }
    let mut lds = vec![0u32; 64];
    let mut m = Memories {
        mem,
        lds: &mut lds,
        lds_bytes: 256,
    };
    for _ in 0..10_000 {
        if step::step(&mut w, &mut code, &mut m).unwrap() == Flow::End {
            return w;
        }
    }
    panic!("snippet did not end");
}

fn run_wave(src: &str, exec: u64) -> Wave {
    run_wave_mem(src, exec, &mut [0u32; 64])
}

fn s(w: &Wave, n: usize) -> u32 {
    w.s[n]
}

fn f(w: &Wave, reg: u32, lane: usize) -> f32 {
    f32::from_bits(w.vgpr(reg, lane))
}

#[test]
fn scc_of_scalar_arithmetic() {
    let cases = [
        ("s_mov_b32 s5, -1\ns_add_u32 s6, s5, 2", 1, true),
        ("s_mov_b32 s5, 7\ns_add_u32 s6, s5, 2", 9, false),
        ("s_mov_b32 s5, 1\ns_sub_u32 s6, s5, 2", u32::MAX, true),
        (
            "s_mov_b32 s5, 0x7fffffff\ns_add_i32 s6, s5, 1",
            0x8000_0000,
            true,
        ),
        (
            "s_mov_b32 s5, -5\ns_add_i32 s6, s5, 1",
            (-4i32) as u32,
            false,
        ),
        (
            "s_mov_b32 s5, 0x80000000\ns_sub_i32 s6, s5, 1",
            0x7fff_ffff,
            true,
        ),
        (
            "s_mov_b32 s5, -3\ns_min_i32 s6, s5, 2",
            (-3i32) as u32,
            true,
        ),
        ("s_mov_b32 s5, -3\ns_min_u32 s6, s5, 2", 2, false),
        ("s_mov_b32 s5, -3\ns_max_i32 s6, s5, 2", 2, false),
        ("s_mov_b32 s5, 0xf0\ns_and_b32 s6, s5, 15", 0, false),
        ("s_mov_b32 s5, 0x80000000\ns_lshl_b32 s6, s5, 1", 0, false),
        (
            "s_mov_b32 s5, 0x80000000\ns_ashr_i32 s6, s5, 4",
            0xf800_0000,
            true,
        ),
        ("s_mov_b32 s5, 0xabcd\ns_bfe_u32 s6, s5, 0x40004", 0xc, true),
        ("s_mov_b32 s5, 0xabcd\ns_bfe_u32 s6, s5, 0x40010", 0, false),
        ("s_movk_i32 s6, 0xfff0", (-16i32) as u32, false),
        (
            "s_movk_i32 s6, 0x7fff\ns_addk_i32 s6, 0x7fff",
            0xfffe,
            false,
        ),
        (
            "s_mov_b32 s6, 0x7fffffff\ns_addk_i32 s6, 1",
            0x8000_0000,
            true,
        ),
        (
            "s_mov_b32 s6, 3\ns_mulk_i32 s6, 0xfffe",
            (-6i32) as u32,
            false,
        ),
        ("s_mov_b32 s5, 0\ns_not_b32 s6, s5", u32::MAX, true),
    ];
    for (src, value, scc) in cases {
        let w = run_wave(src, 1);
        assert_eq!((s(&w, 6), w.scc), (value, scc), "{src}");
    }
}

#[test]
fn scc_of_64_bit_ops_and_compares() {
    let w = run_wave(
        "s_mov_b32 s6, 0\ns_mov_b32 s7, 1\ns_mov_b32 s8, 0\ns_mov_b32 s9, 2\ns_and_b64 s[10:11], s[6:7], s[8:9]",
        1,
    );
    assert_eq!((s(&w, 10), s(&w, 11), w.scc), (0, 0, false));
    let w = run_wave("s_mov_b32 s7, 1\ns_or_b64 s[10:11], s[6:7], 0", 1);
    assert_eq!((s(&w, 11), w.scc), (1, true));
    let w = run_wave("s_mov_b64 s[6:7], 1\ns_lshl_b64 s[10:11], s[6:7], 63", 1);
    assert_eq!((s(&w, 10), s(&w, 11), w.scc), (0, 0x8000_0000, true));
    let w = run_wave("s_mov_b64 s[6:7], -2\ns_ashr_i64 s[10:11], s[6:7], 1", 1);
    assert_eq!((s(&w, 10), s(&w, 11)), (u32::MAX, u32::MAX));
    let w = run_wave(
        "s_mov_b64 s[6:7], -1\ns_andn2_b64 s[10:11], s[6:7], s[6:7]\ns_not_b64 s[12:13], s[10:11]",
        1,
    );
    assert_eq!(
        (s(&w, 10), s(&w, 12), s(&w, 13), w.scc),
        (0, u32::MAX, u32::MAX, true)
    );
    for (src, scc) in [
        ("s_mov_b32 s5, -1\ns_cmp_lt_i32 s5, 0", true),
        ("s_mov_b32 s5, -1\ns_cmp_lt_u32 s5, 0", false),
        ("s_mov_b32 s5, 4\ns_cmp_eq_u32 s5, 4", true),
        ("s_mov_b32 s5, 4\ns_cmp_lg_i32 s5, 4", false),
        ("s_mov_b32 s5, -1\ns_cmpk_gt_i32 s5, 0xfffe", true),
        ("s_mov_b32 s5, -1\ns_cmpk_lt_u32 s5, 0xfffe", false),
    ] {
        assert_eq!(run_wave(src, 1).scc, scc, "{src}");
    }
}

#[test]
fn cselect_follows_scc() {
    let w = run_wave(
        "s_cmp_eq_u32 0, 0\ns_cselect_b32 s6, 5, 7\ns_cmp_eq_u32 0, 1\ns_cselect_b32 s7, 5, 7\ns_cselect_b64 s[8:9], -1, 3",
        1,
    );
    assert_eq!((s(&w, 6), s(&w, 7), s(&w, 8), s(&w, 9)), (5, 7, 3, 0));
    assert!(!w.scc, "s_cselect leaves SCC alone");
}

#[test]
fn saveexec_variants() {
    let exec = 0xffff_0000_0000_00ffu64;
    let w = run_wave(
        "s_mov_b32 s6, 0xf\ns_mov_b32 s7, 0\ns_and_saveexec_b64 s[8:9], s[6:7]",
        exec,
    );
    assert_eq!((w.pair(8), w.exec(), w.scc), (exec, 0xf, true));
    let w = run_wave(
        "s_mov_b64 s[6:7], 0\ns_and_saveexec_b64 s[8:9], s[6:7]",
        exec,
    );
    assert_eq!((w.pair(8), w.exec(), w.scc), (exec, 0, false));
    let w = run_wave(
        "s_mov_b64 s[6:7], 1\ns_or_saveexec_b64 s[8:9], s[6:7]",
        0x10,
    );
    assert_eq!((w.pair(8), w.exec()), (0x10, 0x11));
    let w = run_wave(
        "s_mov_b64 s[6:7], -1\ns_xor_saveexec_b64 s[8:9], s[6:7]",
        0x10,
    );
    assert_eq!((w.pair(8), w.exec()), (0x10, !0x10));
}

#[test]
fn canonical_if_else_lowering() {
    // Lanes below 10 take the then-arm (v1 = 1), the others the else-arm (v1 = 2).
    let src = "v_cmp_gt_u32 vcc, 10, v0
        s_and_saveexec_b64 s[6:7], vcc
        s_xor_b64 s[6:7], exec, s[6:7]
        s_cbranch_execz else
        v_mov_b32 v1, 1
    else:
        s_or_saveexec_b64 s[6:7], s[6:7]
        s_xor_b64 exec, s[6:7], exec
        s_cbranch_execz join
        v_mov_b32 v1, 2
    join:
        s_or_b64 exec, exec, s[6:7]";
    let w = run_wave(src, u64::MAX);
    assert_eq!(w.exec(), u64::MAX);
    for l in 0..64 {
        assert_eq!(w.vgpr(1, l), if l < 10 { 1 } else { 2 }, "lane {l}");
    }
}

#[test]
fn vector_carries_only_in_active_lanes() {
    // Every lane would carry: 0xffffffff + (lane + 1).
    let exec = 0x0000_0000_ffff_0f0fu64;
    let w = run_wave(
        "v_add_u32 v1, vcc, 1, v0\nv_mov_b32 v2, -1\nv_add_u32 v3, vcc, v2, v1",
        exec,
    );
    assert_eq!(w.vcc(), exec);
    assert_eq!(w.vgpr(3, 0), 0);
    assert_eq!(w.vgpr(3, 4), 0, "inactive lanes keep their VGPRs");
    let w = run_wave("v_sub_u32_e64 v1, s[6:7], 3, v0", u64::MAX);
    assert_eq!(w.pair(6), !0xf, "borrow where lane > 3");
    assert_eq!(w.vgpr(1, 5), (-2i32) as u32);
    let w = run_wave("v_subrev_u32 v1, vcc, 3, v0", u64::MAX);
    assert_eq!(w.vcc(), 0x7, "borrow where lane < 3");
    assert_eq!(w.vgpr(1, 5), 2);
}

#[test]
fn add_with_carry_in() {
    // 64-bit add: (lane, 0xffffffff) + (0xffffffff, 1) per lane.
    let w = run_wave(
        "v_mov_b32 v1, -1
         v_add_u32 v2, vcc, -1, v0
         v_addc_u32 v3, vcc, 1, v1, vcc
         v_mov_b32 v4, 0
         s_mov_b64 s[6:7], -1
         v_addc_u32_e64 v5, s[8:9], v4, v4, s[6:7]",
        u64::MAX,
    );
    assert_eq!((w.vgpr(2, 0), w.vgpr(3, 0)), (u32::MAX, 0));
    assert_eq!((w.vgpr(2, 3), w.vgpr(3, 3)), (2, 1));
    assert_eq!(w.vcc(), u64::MAX, "high word carries out in every lane");
    assert_eq!((w.vgpr(5, 9), w.pair(8)), (1, 0));
}

#[test]
fn vopc_writes_zero_for_inactive_lanes() {
    let exec = 0x00ff_00ff_00ff_00ffu64;
    let w = run_wave("v_cmp_le_u32 vcc, 0, v0", exec);
    assert_eq!(w.vcc(), exec);
    let w = run_wave("v_cmp_gt_i32_e64 s[6:7], 32, v0", exec);
    assert_eq!(w.pair(6), exec & 0xffff_ffff);
    let w = run_wave("v_mov_b32 v1, -1.0\nv_cmp_lt_f32 vcc, v1, 0", u64::MAX);
    assert_eq!(w.vcc(), u64::MAX);
    let w = run_wave(
        "v_mov_b32 v1, -1.0\nv_cmp_lt_f32_e64 s[6:7], |v1|, 0",
        u64::MAX,
    );
    assert_eq!(w.pair(6), 0, "|-1| < 0 is false");
}

#[test]
fn cmpx_writes_exec_and_the_mask() {
    let w = run_wave("v_cmpx_lt_u32 vcc, v0, 4\nv_mov_b32 v1, 9", 0xff);
    assert_eq!((w.exec(), w.vcc()), (0xf, 0xf));
    assert_eq!((w.vgpr(1, 3), w.vgpr(1, 4)), (9, 0));
    let w = run_wave("v_cmpx_ne_i32_e64 s[6:7], v0, 1", 0x3);
    assert_eq!((w.exec(), w.pair(6)), (0x1, 0x1));
    let w = run_wave(
        "v_cmpx_eq_u32 vcc, v0, 63\ns_cbranch_execz skip\ns_mov_b32 s9, 1\nskip:",
        0xff,
    );
    assert_eq!(
        (w.exec(), s(&w, 9)),
        (0, 0),
        "empty EXEC takes the execz branch"
    );
}

#[test]
fn float_ops_with_inline_constants() {
    let w = run_wave(
        "v_cvt_f32_u32 v1, v0
         v_add_f32 v2, 1.0, v1
         v_mul_f32 v3, 0.5, v1
         v_sub_f32 v4, v1, 4.0
         v_mad_f32 v5, v1, 2.0, -1.0
         v_fma_f32 v6, v1, v1, 0.5
         v_mov_b32 v7, 1.0
         v_mac_f32 v7, v1, -2.0
         v_min_f32 v8, v1, 4.0
         v_max_f32 v9, v1, -0.5
         v_rcp_f32 v10, v1
         v_sqrt_f32 v11, v1
         v_mul_f32 v12, 0.15915494, v1",
        u64::MAX,
    );
    for l in [0usize, 1, 5, 63] {
        let x = l as f32;
        assert_eq!(f(&w, 2, l), 1.0 + x);
        assert_eq!(f(&w, 3, l), 0.5 * x);
        assert_eq!(f(&w, 4, l), x - 4.0);
        assert_eq!(f(&w, 5, l), x * 2.0 - 1.0);
        assert_eq!(f(&w, 6, l), x.mul_add(x, 0.5));
        assert_eq!(f(&w, 7, l), x * -2.0 + 1.0);
        assert_eq!(f(&w, 8, l), x.min(4.0));
        assert_eq!(f(&w, 9, l), x.max(-0.5));
        assert_eq!(f(&w, 10, l), 1.0 / x);
        assert_eq!(f(&w, 11, l), x.sqrt());
        assert_eq!(f(&w, 12, l), f32::from_bits(0x3e22_f983) * x);
    }
    // Integer ops see the float constant's bit pattern.
    let w = run_wave("v_mov_b32 v1, 2.0\nv_or_b32 v2, 1.0, v0", 1);
    assert_eq!((w.vgpr(1, 0), w.vgpr(2, 0)), (0x4000_0000, 0x3f80_0000));
}

#[test]
fn conversions_saturate_and_truncate() {
    let w = run_wave(
        "v_mov_b32 v1, 0xc0400000
         v_cvt_i32_f32 v2, v1
         v_cvt_u32_f32 v3, v1
         v_mov_b32 v4, 0x7fc00000
         v_cvt_i32_f32 v5, v4
         v_mov_b32 v6, 0x4f800000
         v_cvt_u32_f32 v7, v6
         v_cvt_i32_f32 v8, v6
         v_mov_b32 v9, -7
         v_cvt_f32_i32 v10, v9",
        1,
    );
    assert_eq!(w.vgpr(2, 0), (-3i32) as u32);
    assert_eq!((w.vgpr(3, 0), w.vgpr(5, 0)), (0, 0));
    assert_eq!((w.vgpr(7, 0), w.vgpr(8, 0)), (u32::MAX, i32::MAX as u32));
    assert_eq!(f(&w, 10, 0), -7.0);
}

#[test]
fn source_and_output_modifiers() {
    let w = run_wave(
        "v_cvt_f32_u32 v1, v0
         v_add_f32_e64 v2, v1, 1.0 mul:2
         v_add_f32_e64 v3, v1, 1.0 div:2
         v_mul_f32_e64 v4, v1, 0.5 clamp
         v_sub_f32_e64 v5, -v1, |v1|
         v_add_f32_e64 v6, v1, -1.0 mul:4 clamp
         v_cvt_f32_i32_e64 v7, v0 mul:2",
        u64::MAX,
    );
    for l in [0usize, 1, 3, 40] {
        let x = l as f32;
        assert_eq!(f(&w, 2, l), (x + 1.0) * 2.0);
        assert_eq!(f(&w, 3, l), (x + 1.0) * 0.5);
        assert_eq!(f(&w, 4, l), (x * 0.5).clamp(0.0, 1.0));
        assert_eq!(f(&w, 5, l), -x - x);
        assert_eq!(f(&w, 6, l), ((x - 1.0) * 4.0).clamp(0.0, 1.0));
        assert_eq!(f(&w, 7, l), 2.0 * x);
    }
    assert_eq!(w.vgpr(6, 0), 0, "clamp gives +0.0");
}

#[test]
fn integer_clamp_saturates() {
    let w = run_wave(
        "v_mov_b32 v1, -1
         v_add_u32_e64 v2, s[6:7], v1, v0 clamp
         v_sub_u32_e64 v3, s[8:9], 0, v0 clamp",
        0x3,
    );
    assert_eq!((w.vgpr(2, 0), w.vgpr(2, 1)), (u32::MAX, u32::MAX));
    assert_eq!((w.vgpr(3, 0), w.vgpr(3, 1)), (0, 0));
    assert_eq!((w.pair(6), w.pair(8)), (0x2, 0x2));
}

#[test]
fn vector_integer_ops() {
    let w = run_wave(
        "v_mov_b32 v1, 0x1000001
         v_mul_u32_u24 v2, v1, v0
         v_mad_u32_u24 v3, v1, v0, 7
         v_mov_b32 v4, 0x80000000
         v_mul_lo_u32 v5, v4, v0
         v_mul_hi_u32 v6, v4, v0
         v_mov_b32 v16, 0x12345678
         v_bfe_u32 v7, v16, v0, 4
         v_lshlrev_b64 v[8:9], v0, 3
         v_ashrrev_i32 v10, 1, v4
         v_lshrrev_b32 v11, 1, v4
         v_min_i32 v12, -1, v0
         v_max_u32 v13, -1, v0
         v_xor_b32 v14, 5, v0
         v_not_b32 v15, v0",
        u64::MAX,
    );
    for l in [0usize, 3, 8, 33] {
        let x = l as u32;
        assert_eq!(w.vgpr(2, l), x, "24-bit operands drop bit 24");
        assert_eq!(w.vgpr(3, l), x + 7);
        assert_eq!(w.vgpr(5, l), 0x8000_0000u32.wrapping_mul(x));
        assert_eq!(w.vgpr(6, l), ((0x8000_0000u64 * x as u64) >> 32) as u32);
        assert_eq!(w.vgpr(7, l), (0x1234_5678u32 >> (x & 31)) & 0xf);
        let wide = 3u64 << (x & 63);
        assert_eq!(
            (w.vgpr(8, l), w.vgpr(9, l)),
            (wide as u32, (wide >> 32) as u32)
        );
        assert_eq!(w.vgpr(12, l), u32::MAX);
        assert_eq!(w.vgpr(13, l), u32::MAX);
        assert_eq!(w.vgpr(14, l), x ^ 5);
        assert_eq!(w.vgpr(15, l), !x);
    }
    assert_eq!((w.vgpr(10, 0), w.vgpr(11, 0)), (0xc000_0000, 0x4000_0000));
}

#[test]
fn cndmask_and_readfirstlane() {
    let w = run_wave(
        "v_cmp_lt_u32 vcc, 1, v0
         v_cndmask_b32 v1, 10, v0, vcc
         s_mov_b64 s[6:7], 1
         v_cndmask_b32_e64 v2, 10, -1.0, s[6:7]
         v_readfirstlane_b32 s8, v0
         v_cndmask_b32_e64 v3, -v0, |v0|, vcc",
        0xfc,
    );
    assert_eq!((w.vgpr(1, 2), w.vgpr(1, 7)), (2, 7));
    assert_eq!(w.vgpr(1, 0), 0, "inactive lane untouched");
    assert_eq!((w.vgpr(2, 2), w.vgpr(2, 0)), (10, 0), "lane 0 is inactive");
    assert_eq!(s(&w, 8), 2);
    assert_eq!(w.vgpr(3, 5), 5);
    let w = run_wave("v_readfirstlane_b32 s8, v0", 0);
    assert_eq!(s(&w, 8), 0);
}

#[test]
fn branches_and_pc_instructions() {
    // Loop: s6 counts 5 iterations, s7 sums 1..=5.
    let w = run_wave(
        "s_mov_b32 s6, 0
         s_mov_b32 s7, 0
     top:
         s_add_u32 s6, s6, 1
         s_add_u32 s7, s7, s6
         s_cmp_lt_u32 s6, 5
         s_cbranch_scc1 top",
        1,
    );
    assert_eq!((s(&w, 6), s(&w, 7)), (5, 15));
    // s_getpc gives the next instruction's address; s_swappc jumps and links.
    let w = run_wave(
        "s_getpc_b64 s[6:7]
         s_add_u32 s6, s6, 16
         s_swappc_b64 s[8:9], s[6:7]
         s_mov_b32 s10, 1
         s_endpgm
         s_mov_b32 s11, 2
         s_setpc_b64 s[8:9]",
        1,
    );
    assert_eq!((s(&w, 6), s(&w, 8), s(&w, 10), s(&w, 11)), (20, 12, 1, 2));
    let w = run_wave("v_mov_b32 v1, 0\nv_cmp_ne_u32 vcc, v1, 0\ns_cbranch_vccz z\ns_mov_b32 s6, 1\nz:\ns_cbranch_vccnz nz\ns_mov_b32 s7, 1\nnz:", u64::MAX);
    assert_eq!((s(&w, 6), s(&w, 7)), (0, 1));
    let w = run_wave("s_cmp_eq_u32 1, 1\ns_cbranch_scc0 a\ns_mov_b32 s6, 3\na:\ns_cbranch_execnz b\ns_mov_b32 s7, 3\nb:", 1);
    assert_eq!((s(&w, 6), s(&w, 7)), (3, 0));
}

#[test]
fn scalar_and_flat_memory() {
    let mut mem = vec![0u32; 256];
    mem[4..8].copy_from_slice(&[0x100, 0, 77, 88]);
    let w = run_wave_mem(
        "s_mov_b64 s[0:1], 16
         s_load_dwordx4 s[4:7], s[0:1], 0x0
         s_mov_b32 s8, 8
         s_load_dword s9, s[0:1], s8
         s_store_dword s9, s[0:1], 0x20
         v_lshlrev_b32 v1, 2, v0
         v_add_u32 v2, vcc, s4, v1
         v_mov_b32 v3, s5
         v_addc_u32 v3, vcc, 0, v3, vcc
         v_add_u32 v4, vcc, 7, v0
         v_mov_b32 v5, v0
         flat_store_dwordx2 v[2:3], v[4:5]
         flat_load_dword v6, v[2:3]
         flat_load_dwordx4 v[8:11], v[2:3]",
        0x3,
        &mut mem,
    );
    assert_eq!(
        (s(&w, 4), s(&w, 6), s(&w, 7), s(&w, 9)),
        (0x100, 77, 88, 77)
    );
    assert_eq!(mem[12], 77);
    // Lane 1 stores after lane 0 and overwrites its second dword.
    assert_eq!(&mem[64..67], &[7, 8, 1]);
    assert_eq!((w.vgpr(6, 0), w.vgpr(6, 1)), (7, 8));
    assert_eq!((w.vgpr(8, 1), w.vgpr(9, 1), w.vgpr(10, 1)), (8, 1, 0));
}

#[test]
fn lds_access() {
    let w = run_wave(
        "v_lshlrev_b32 v1, 2, v0
         ds_write_b32 v1, v0 offset:4
         ds_read_b32 v2, v1 offset:4
         ds_write2_b32 v1, v0, v0 offset0:16 offset1:32
         ds_read2_b32 v[3:4], v1 offset0:1 offset1:16
         v_mov_b32 v5, 0
         v_mov_b32 v6, 1
         ds_add_u32 v5, v6
         ds_read_b32 v7, v5",
        0xf,
    );
    for l in 0..4 {
        assert_eq!(w.vgpr(2, l), l as u32);
        assert_eq!((w.vgpr(3, l), w.vgpr(4, l)), (l as u32, l as u32));
    }
    assert_eq!(
        w.vgpr(7, 2),
        4,
        "four lanes each added 1 to LDS[0] (which lane 0 wrote as 0)"
    );
}

fn launch(src: &str, dims: Dims, lds: u32, mem: &mut [u32]) -> Result<InterpStats, InterpError> {
    let words = assemble(src, "test.s").unwrap().words();
    run(&words, 0, dims, lds, 0x1000, mem, &InterpConfig::default())
}

#[test]
fn initial_state_and_barrier_across_waves() {
    // wg = 100: wave 0 writes 64 lanes, wave 1 36 lanes; after the barrier each lane reads
    // the slot of local id (id + 64) % wg and stores it with the ABI registers.
    let src = "v_lshlrev_b32 v1, 2, v0
        ds_write_b32 v1, v0
        s_barrier
        v_add_u32 v2, vcc, 64, v0
        v_cmp_le_u32 vcc, s3, v2
        v_subrev_u32 v3, s[6:7], s3, v2
        v_cndmask_b32 v2, v2, v3, vcc
        v_lshlrev_b32 v2, 2, v2
        ds_read_b32 v4, v2
        s_mul_i32 s5, s2, s3
        v_add_u32 v5, vcc, s5, v0
        v_lshlrev_b32 v5, 2, v5
        v_mov_b32 v6, 0
        flat_store_dword v[5:6], v4
        s_endpgm";
    let dims = Dims { grid: 200, wg: 100 };
    let mut mem = vec![0u32; 200];
    let stats = launch(src, dims, 400, &mut mem).unwrap();
    assert_eq!(stats.waves, 4);
    for (g, got) in mem.iter().enumerate() {
        assert_eq!(*got, ((g % 100 + 64) % 100) as u32, "work-item {g}");
    }
}

#[test]
fn faults_and_bad_input() {
    let dims = Dims { grid: 64, wg: 64 };
    let mut mem = vec![0u32; 16];
    let e = launch(
        "v_mov_b32 v1, 64\nflat_load_dword v2, v[1:2]\ns_endpgm",
        dims,
        0,
        &mut mem,
    );
    assert_eq!(e, Err(InterpError::MemoryFault { pc: 4, addr: 64 }));
    let e = launch(
        "v_mov_b32 v1, 2\nflat_load_dword v2, v[1:2]\ns_endpgm",
        dims,
        0,
        &mut mem,
    );
    assert_eq!(e, Err(InterpError::MemoryFault { pc: 4, addr: 2 }));
    let e = launch("s_load_dword s5, s[0:1], 0x0\ns_endpgm", dims, 0, &mut mem);
    assert_eq!(
        e,
        Err(InterpError::MemoryFault {
            pc: 0,
            addr: 0x1000
        })
    );
    let e = launch(
        "v_lshlrev_b32 v1, 2, v0\nds_read_b32 v2, v1\ns_endpgm",
        dims,
        128,
        &mut mem,
    );
    assert_eq!(e, Err(InterpError::LdsFault { pc: 4, addr: 128 }));
    let e = launch("s_branch 5\ns_endpgm", dims, 0, &mut mem);
    assert_eq!(e, Err(InterpError::PcOutOfRange { pc: 24 }));
    let e = launch("s_nop 0", dims, 0, &mut mem);
    assert_eq!(e, Err(InterpError::PcOutOfRange { pc: 4 }));
    let e = run(
        &[0xffff_ffff],
        0,
        dims,
        0,
        0,
        &mut mem,
        &InterpConfig::default(),
    );
    assert_eq!(
        e,
        Err(InterpError::IllegalInstruction {
            pc: 0,
            word: 0xffff_ffff
        })
    );
    let vop3_missing_word = [0xd100_0000];
    let e = run(
        &vop3_missing_word,
        0,
        dims,
        0,
        0,
        &mut mem,
        &InterpConfig::default(),
    );
    assert!(
        matches!(e, Err(InterpError::IllegalInstruction { pc: 0, .. })),
        "{e:?}"
    );
    let cfg = InterpConfig { max_steps: 100 };
    let words = assemble("l: s_branch l", "t").unwrap().words();
    let e = run(&words, 0, dims, 0, 0, &mut mem, &cfg);
    assert_eq!(e, Err(InterpError::StepLimit { steps: 100 }));
    let e = run(&words, 0, Dims { grid: 65, wg: 64 }, 0, 0, &mut mem, &cfg);
    assert!(matches!(e, Err(InterpError::BadLaunch(_))));
    let e = run(&words, 0, dims, MAX_LDS + 4, 0, &mut mem, &cfg);
    assert!(matches!(e, Err(InterpError::BadLaunch(_))));
    assert!(InterpError::StepLimit { steps: 3 }
        .to_string()
        .contains('3'));
}

#[test]
fn split_and_merge_change_nothing() {
    let w = run_wave(
        "v_cmp_gt_u32 vcc, 3, v0\ns_waitcnt 0\nsplit vcc_lo, vcc_hi\ns_waitcnt 0\nmerge\ns_nop 1\ns_sleep 1",
        u64::MAX,
    );
    assert_eq!((w.vcc(), w.exec()), (0x7, u64::MAX));
    assert_eq!(w.s[VCC as usize], 7);
}

#[test]
fn random_code_never_panics() {
    use rand::{Rng, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(9);
    let dims = Dims { grid: 128, wg: 128 };
    let cfg = InterpConfig { max_steps: 2_000 };
    // Real instructions with random operand bits: mostly legal, some faulting.
    let seeds = assemble(
        "v_add_u32 v1, vcc, s5, v0\ns_load_dword s5, s[0:1], 0x0\nflat_load_dword v2, v[4:5]\nds_read2_b32 v[3:4], v1 offset0:1 offset1:2\ns_cbranch_scc1 -3\ns_setpc_b64 s[6:7]",
        "t",
    )
    .unwrap()
    .words();
    for _ in 0..3_000 {
        let n = rng.gen_range(1..12);
        let code: Vec<u32> = (0..n)
            .map(|_| match rng.gen_range(0..3) {
                0 => rng.gen(),
                _ => seeds[rng.gen_range(0..seeds.len())] ^ (1 << rng.gen_range(0..32)),
            })
            .collect();
        let mut mem = vec![0u32; 1024];
        let _ = run(&code, 0, dims, 64, 0x1000, &mut mem, &cfg);
    }
}
