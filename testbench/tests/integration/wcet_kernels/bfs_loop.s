// bfs_loop: the PWS paper's bfs pattern, divergence inside the main loop. Per work-item i,
// with x = A[i], over `levels` iterations (argument 2, 0..=6 by its `@range`):
//
//   r = 0
//   for (l = 0; l < levels; l++) {
//       x = A[i]; y = x ^ (37 l)
//       if (y > 0) {                 // split/merge inside the loop (PWS, DWS)
//           r = ((r + A[i] * y) ^ A[i]) * 3      // the frontier's expansion: two loads
//       } else {
//           r = r + 1                            // already visited
//       }
//   }
//   out[i] = r
//
// The split follows the layout the PWS pass would give it (`s_waitcnt 0` before `split`
// and `merge`, an `s_cbranch_execz` over each arm). Which lanes take the heavy arm depends on
// the data and the level, and the trip count on the argument: the WCET analysis bounds the
// loop by the argument's range and each iteration by both arms plus e_split and e_merge.
// @grid 256
// @wg 64
// @args int:grid zero:grid 4
// @range 2 0..6
.text
    s_load_dwordx4 s[8:11], s[0:1], 0x0      // s[8:9] = A, s[10:11] = out
    s_load_dword s14, s[0:1], 0x10           // levels
    s_mul_i32 s5, s2, s3
    v_add_u32 v1, vcc, s5, v0                // i
    v_lshlrev_b32 v1, 2, v1                  // 4i
    s_waitcnt lgkmcnt(0)
    v_mov_b32 v3, s9
    v_add_u32 v2, vcc, s8, v1
    v_addc_u32 v3, vcc, 0, v3, vcc           // v[2:3] = &A[i]
    v_mov_b32 v5, s11
    v_add_u32 v4, vcc, s10, v1
    v_addc_u32 v5, vcc, 0, v5, vcc           // v[4:5] = &out[i]
    v_mov_b32 v8, 0                          // r
    s_mov_b32 s12, 0                         // l
level:
    s_cmp_ge_u32 s12, s14
    s_cbranch_scc1 done
    flat_load_dword v6, v[2:3]               // x
    s_waitcnt vmcnt(0)
    s_mul_i32 s13, s12, 37
    v_xor_b32 v7, s13, v6                    // y
    v_cmp_lt_i32 vcc, 0, v7                  // y > 0: in the frontier
    s_waitcnt 0
    split vcc_lo, vcc_hi
    s_and_saveexec_b64 s[6:7], vcc
    s_xor_b64 s[6:7], exec, s[6:7]
    s_cbranch_execz visited
    flat_load_dword v9, v[2:3]
    s_waitcnt vmcnt(0)
    v_mul_lo_u32 v9, v9, v7
    v_add_u32 v8, vcc, v8, v9
    flat_load_dword v10, v[2:3]
    s_waitcnt vmcnt(0)
    v_xor_b32 v8, v8, v10
    v_mul_lo_u32 v8, v8, 3
visited:
    s_or_saveexec_b64 s[6:7], s[6:7]
    s_xor_b64 exec, s[6:7], exec
    s_cbranch_execz next
    v_add_u32 v8, vcc, 1, v8
next:
    s_or_b64 exec, exec, s[6:7]
    s_waitcnt 0
    merge
    s_add_u32 s12, s12, 1
    s_branch level
done:
    flat_store_dword v[4:5], v8
    s_endpgm
