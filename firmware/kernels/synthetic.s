// synthetic: the synthetic divergence benchmark of Section 7 of the PWS paper, in three parts.
// Per work-item i with local id l, a = A[i] and the scalar arguments N1, N2, D
// (all arithmetic 32-bit two's complement, wrapping):
//
// (1) non-divergent work, all lanes, arithmetic and memory:
//       acc = a
//       for k in 0..N1: acc = ((acc ^ A[i]) * 3) + k      // A[i] reloaded every iteration
// (2) nested if/else on lane-id bits, a binary tree of three levels: the condition of level
//     j (0, 1, 2) is c_j = ((l >> j) & 1) when j < D, else 0 (uniform). D = 0: every lane
//     takes the same path (no divergence); D = 3: up to 8 distinct paths per wavefront.
//     The path index is p = c0 + 2 c1 + 4 c2; the "then" arm of each level is c_j = 1.
// (3) divergent work in each leaf p: N2 iterations of A[i] reloaded + leaf arithmetic:
//       leaf 0: acc = acc * 3 + a
//       leaf 1: acc = (acc ^ a) + 17
//       leaf 2: acc = (acc << 1) - a
//       leaf 3: acc = (acc * 5) ^ a
//       leaf 4: acc = (acc >> 1) + a (logical shift)
//       leaf 5: acc = acc - 2a
//       leaf 6: acc = (acc | 1) * a
//       leaf 7: acc = max_i32(acc, a) + 3
//     then out[i] = (acc << 3) | p.
//
// Only the root branch (level 0) carries split/merge (PWS, S = 1); levels 1 and 2 are
// ordinary if/else with execz skips, nested inside the split's arms.
//
// Kernel arguments: A (dwords 0-1), out (dwords 2-3), N1 (dword 4), N2 (dword 5), D (6).
// EXEC save registers: s[20:21] level 0, s[22:23] level 1, s[24:25] level 2.
// Flow facts for `rtgpu wcet` (argument ranges; the loop bounds are derived from them):
// @range 2 0..8
// @range 3 0..8
// @range 4 0..3
// @grid 256
// @wg 64
// @args int:grid zero:grid 4 8 3
.text
    s_load_dwordx4 s[8:11], s[0:1], 0x0      // s[8:9] = A, s[10:11] = out
    s_load_dwordx4 s[12:15], s[0:1], 0x10    // s12 = N1, s13 = N2, s14 = D
    s_mul_i32 s5, s2, s3
    v_add_u32 v1, vcc, s5, v0                // i
    v_lshlrev_b32 v1, 2, v1                  // 4i
    s_waitcnt lgkmcnt(0)
    v_mov_b32 v3, s9
    v_add_u32 v2, vcc, s8, v1
    v_addc_u32 v3, vcc, 0, v3, vcc           // v[2:3] = &A[i]
    flat_load_dword v6, v[2:3]               // a
    v_mov_b32 v5, s11
    v_add_u32 v4, vcc, s10, v1
    v_addc_u32 v5, vcc, 0, v5, vcc           // v[4:5] = &out[i]
    v_bfe_u32 v14, v0, 0, 1                 // bit 0 of the local id
    s_cmp_gt_u32 s14, 0                     // level 0 divergent iff D > 0
    s_cselect_b32 s16, -1, 0
    v_and_b32 v14, s16, v14                // c0
    v_bfe_u32 v15, v0, 1, 1                 // bit 1 of the local id
    s_cmp_gt_u32 s14, 1                     // level 1 divergent iff D > 1
    s_cselect_b32 s17, -1, 0
    v_and_b32 v15, s17, v15                // c1
    v_bfe_u32 v16, v0, 2, 1                 // bit 2 of the local id
    s_cmp_gt_u32 s14, 2                     // level 2 divergent iff D > 2
    s_cselect_b32 s18, -1, 0
    v_and_b32 v16, s18, v16                // c2
    v_lshlrev_b32 v17, 1, v15
    v_or_b32 v17, v17, v14
    v_lshlrev_b32 v18, 2, v16
    v_or_b32 v17, v17, v18                   // p = c0 + 2 c1 + 4 c2
// part (1)
    s_waitcnt vmcnt(0)
    v_mov_b32 v10, v6                        // acc = a
    s_mov_b32 s26, 0
part1:
    s_cmp_ge_u32 s26, s12
    s_cbranch_scc1 part1_done
    flat_load_dword v12, v[2:3]
    s_waitcnt vmcnt(0)
    v_xor_b32 v10, v10, v12
    v_mul_lo_u32 v10, v10, 3
    v_add_u32 v10, vcc, s26, v10
    s_add_u32 s26, s26, 1
    s_branch part1
part1_done:
// part (2) and (3)
// level 0 (root): split
    v_cmp_eq_u32 vcc, 1, v14              // c0
    s_waitcnt 0
    split vcc_lo, vcc_hi
    s_and_saveexec_b64 s[20:21], vcc
    s_xor_b64 s[20:21], exec, s[20:21]
    s_cbranch_execz n0_0_else
// level 1, path bits so far 1
    v_cmp_eq_u32 vcc, 1, v15              // c1
    s_and_saveexec_b64 s[22:23], vcc
    s_xor_b64 s[22:23], exec, s[22:23]
    s_cbranch_execz n1_1_else
// level 2, path bits so far 11
    v_cmp_eq_u32 vcc, 1, v16              // c2
    s_and_saveexec_b64 s[24:25], vcc
    s_xor_b64 s[24:25], exec, s[24:25]
    s_cbranch_execz n2_3_else
// leaf 7: acc = max_i32(acc, a) + 3, N2 times
    s_mov_b32 s26, 0
leaf7:
    s_cmp_ge_u32 s26, s13
    s_cbranch_scc1 leaf7_done
    flat_load_dword v12, v[2:3]
    s_waitcnt vmcnt(0)
    v_max_i32 v10, v10, v12
    v_add_u32 v10, vcc, 3, v10
    s_add_u32 s26, s26, 1
    s_branch leaf7
leaf7_done:
n2_3_else:
    s_or_saveexec_b64 s[24:25], s[24:25]
    s_xor_b64 exec, s[24:25], exec
    s_cbranch_execz n2_3_join
// leaf 3: acc = (acc * 5) ^ a, N2 times
    s_mov_b32 s26, 0
leaf3:
    s_cmp_ge_u32 s26, s13
    s_cbranch_scc1 leaf3_done
    flat_load_dword v12, v[2:3]
    s_waitcnt vmcnt(0)
    v_mul_lo_u32 v10, v10, 5
    v_xor_b32 v10, v10, v12
    s_add_u32 s26, s26, 1
    s_branch leaf3
leaf3_done:
n2_3_join:
    s_or_b64 exec, exec, s[24:25]
n1_1_else:
    s_or_saveexec_b64 s[22:23], s[22:23]
    s_xor_b64 exec, s[22:23], exec
    s_cbranch_execz n1_1_join
// level 2, path bits so far 01
    v_cmp_eq_u32 vcc, 1, v16              // c2
    s_and_saveexec_b64 s[24:25], vcc
    s_xor_b64 s[24:25], exec, s[24:25]
    s_cbranch_execz n2_1_else
// leaf 5: acc = acc - 2a, N2 times
    s_mov_b32 s26, 0
leaf5:
    s_cmp_ge_u32 s26, s13
    s_cbranch_scc1 leaf5_done
    flat_load_dword v12, v[2:3]
    s_waitcnt vmcnt(0)
    v_lshlrev_b32 v13, 1, v12
    v_sub_u32 v10, vcc, v10, v13
    s_add_u32 s26, s26, 1
    s_branch leaf5
leaf5_done:
n2_1_else:
    s_or_saveexec_b64 s[24:25], s[24:25]
    s_xor_b64 exec, s[24:25], exec
    s_cbranch_execz n2_1_join
// leaf 1: acc = (acc ^ a) + 17, N2 times
    s_mov_b32 s26, 0
leaf1:
    s_cmp_ge_u32 s26, s13
    s_cbranch_scc1 leaf1_done
    flat_load_dword v12, v[2:3]
    s_waitcnt vmcnt(0)
    v_xor_b32 v10, v10, v12
    v_add_u32 v10, vcc, 17, v10
    s_add_u32 s26, s26, 1
    s_branch leaf1
leaf1_done:
n2_1_join:
    s_or_b64 exec, exec, s[24:25]
n1_1_join:
    s_or_b64 exec, exec, s[22:23]
n0_0_else:
    s_or_saveexec_b64 s[20:21], s[20:21]
    s_xor_b64 exec, s[20:21], exec
    s_cbranch_execz n0_0_join
// level 1, path bits so far 0
    v_cmp_eq_u32 vcc, 1, v15              // c1
    s_and_saveexec_b64 s[22:23], vcc
    s_xor_b64 s[22:23], exec, s[22:23]
    s_cbranch_execz n1_0_else
// level 2, path bits so far 10
    v_cmp_eq_u32 vcc, 1, v16              // c2
    s_and_saveexec_b64 s[24:25], vcc
    s_xor_b64 s[24:25], exec, s[24:25]
    s_cbranch_execz n2_2_else
// leaf 6: acc = (acc | 1) * a, N2 times
    s_mov_b32 s26, 0
leaf6:
    s_cmp_ge_u32 s26, s13
    s_cbranch_scc1 leaf6_done
    flat_load_dword v12, v[2:3]
    s_waitcnt vmcnt(0)
    v_or_b32 v10, 1, v10
    v_mul_lo_u32 v10, v10, v12
    s_add_u32 s26, s26, 1
    s_branch leaf6
leaf6_done:
n2_2_else:
    s_or_saveexec_b64 s[24:25], s[24:25]
    s_xor_b64 exec, s[24:25], exec
    s_cbranch_execz n2_2_join
// leaf 2: acc = (acc << 1) - a, N2 times
    s_mov_b32 s26, 0
leaf2:
    s_cmp_ge_u32 s26, s13
    s_cbranch_scc1 leaf2_done
    flat_load_dword v12, v[2:3]
    s_waitcnt vmcnt(0)
    v_lshlrev_b32 v10, 1, v10
    v_sub_u32 v10, vcc, v10, v12
    s_add_u32 s26, s26, 1
    s_branch leaf2
leaf2_done:
n2_2_join:
    s_or_b64 exec, exec, s[24:25]
n1_0_else:
    s_or_saveexec_b64 s[22:23], s[22:23]
    s_xor_b64 exec, s[22:23], exec
    s_cbranch_execz n1_0_join
// level 2, path bits so far 00
    v_cmp_eq_u32 vcc, 1, v16              // c2
    s_and_saveexec_b64 s[24:25], vcc
    s_xor_b64 s[24:25], exec, s[24:25]
    s_cbranch_execz n2_0_else
// leaf 4: acc = (acc >> 1) + a (logical shift), N2 times
    s_mov_b32 s26, 0
leaf4:
    s_cmp_ge_u32 s26, s13
    s_cbranch_scc1 leaf4_done
    flat_load_dword v12, v[2:3]
    s_waitcnt vmcnt(0)
    v_lshrrev_b32 v10, 1, v10
    v_add_u32 v10, vcc, v10, v12
    s_add_u32 s26, s26, 1
    s_branch leaf4
leaf4_done:
n2_0_else:
    s_or_saveexec_b64 s[24:25], s[24:25]
    s_xor_b64 exec, s[24:25], exec
    s_cbranch_execz n2_0_join
// leaf 0: acc = acc * 3 + a, N2 times
    s_mov_b32 s26, 0
leaf0:
    s_cmp_ge_u32 s26, s13
    s_cbranch_scc1 leaf0_done
    flat_load_dword v12, v[2:3]
    s_waitcnt vmcnt(0)
    v_mul_lo_u32 v10, v10, 3
    v_add_u32 v10, vcc, v10, v12
    s_add_u32 s26, s26, 1
    s_branch leaf0
leaf0_done:
n2_0_join:
    s_or_b64 exec, exec, s[24:25]
n1_0_join:
    s_or_b64 exec, exec, s[22:23]
n0_0_join:
    s_or_b64 exec, exec, s[20:21]
    s_waitcnt 0
    merge
    v_lshlrev_b32 v10, 3, v10
    v_or_b32 v10, v10, v17                   // (acc << 3) | p
    flat_store_dword v[4:5], v10
    s_endpgm
