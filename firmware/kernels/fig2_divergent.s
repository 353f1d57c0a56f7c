// fig2_divergent: the control flow of the paper's motivating example (the PWS paper's
// Fig. 2, docs/works/pws.md#fig-2), with integer work in every basic block. Per work-item i,
// with x = A[i] (all arithmetic is 32-bit two's complement, wrapping):
//
//   BB1:  if (x > 25) {                       // split #1 (PWS)
//   BB2:      t = 3x + 1
//             if (x is odd)                   // ordinary if/else (no split), execz skips
//   BB3:          r = ((t * x - 7) ^ (x << 2)) + 11
//             else
//   BB4:          r = t + 100
//   BB5:      r = r + 5
//         } else {
//   BB6:      r = (((x*x - 3x) ^ (x >> 1)) * 5 + 17) - 2x     (>> arithmetic)
//         }                                   // merge #1
//   BB7:  if (x > 50)                         // split #2 (PWS), reuses the SpSIMD of #1
//   BB8:      r = 2r + x - 3
//         else
//   BB9:      r = r - x
//                                             // merge #2
//   BB10: out[i] = r
//
// The splits are sequential (the second comes after the first merge), so one SpSIMD per
// SIMD suffices: S = 1. The arms of split #1 (BB2..BB5 and BB6) are of similar length, so
// under PWS the two SWFs' parallel arms take about half the serialized time (paper Fig. 2d).
//
// Kernel arguments: A (dwords 0-1), out (dwords 2-3). EXEC save registers: s[6:7] for the
// split branches, s[14:15] for the inner branch.
// @grid 256
// @wg 64
// @args int:grid zero:grid
.text
    s_load_dwordx4 s[8:11], s[0:1], 0x0      // s[8:9] = A, s[10:11] = out
    s_mul_i32 s5, s2, s3
    v_add_u32 v1, vcc, s5, v0                // i
    v_lshlrev_b32 v1, 2, v1                  // 4i
    s_waitcnt lgkmcnt(0)
    v_mov_b32 v3, s9
    v_add_u32 v2, vcc, s8, v1
    v_addc_u32 v3, vcc, 0, v3, vcc           // v[2:3] = &A[i]
    flat_load_dword v6, v[2:3]               // x
    v_mov_b32 v5, s11
    v_add_u32 v4, vcc, s10, v1
    v_addc_u32 v5, vcc, 0, v5, vcc           // v[4:5] = &out[i]
    s_waitcnt vmcnt(0)
// BB1
    v_cmp_lt_i32 vcc, 25, v6                 // x > 25
    s_waitcnt 0
    split vcc_lo, vcc_hi
    s_and_saveexec_b64 s[6:7], vcc
    s_xor_b64 s[6:7], exec, s[6:7]
    s_cbranch_execz bb6
// BB2
    v_mul_lo_u32 v7, v6, 3
    v_add_u32 v7, vcc, 1, v7                 // t = 3x + 1
    v_and_b32 v9, 1, v6
    v_cmp_eq_u32 vcc, 1, v9                  // x odd
    s_and_saveexec_b64 s[14:15], vcc
    s_xor_b64 s[14:15], exec, s[14:15]
    s_cbranch_execz bb4
// BB3
    v_mul_lo_u32 v8, v7, v6
    v_subrev_u32 v8, vcc, 7, v8              // t * x - 7
    v_lshlrev_b32 v9, 2, v6
    v_xor_b32 v8, v8, v9
    v_add_u32 v8, vcc, 11, v8
bb4:
    s_or_saveexec_b64 s[14:15], s[14:15]
    s_xor_b64 exec, s[14:15], exec
    s_cbranch_execz bb5
// BB4
    v_add_u32 v8, vcc, 0x64, v7              // t + 100
bb5:
    s_or_b64 exec, exec, s[14:15]
    v_add_u32 v8, vcc, 5, v8
bb6:
    s_or_saveexec_b64 s[6:7], s[6:7]
    s_xor_b64 exec, s[6:7], exec
    s_cbranch_execz bb7
// BB6
    v_mul_lo_u32 v8, v6, v6                  // x * x
    v_mul_lo_u32 v9, v6, 3
    v_sub_u32 v8, vcc, v8, v9                // - 3x
    v_ashrrev_i32 v10, 1, v6
    v_xor_b32 v8, v8, v10                    // ^ (x >> 1)
    v_mul_lo_u32 v8, v8, 5
    v_add_u32 v8, vcc, 17, v8                // * 5 + 17
    v_lshlrev_b32 v9, 1, v6
    v_sub_u32 v8, vcc, v8, v9                // - 2x
bb7:
    s_or_b64 exec, exec, s[6:7]
    s_waitcnt 0
    merge
// BB7
    v_cmp_lt_i32 vcc, 50, v6                 // x > 50
    s_waitcnt 0
    split vcc_lo, vcc_hi
    s_and_saveexec_b64 s[6:7], vcc
    s_xor_b64 s[6:7], exec, s[6:7]
    s_cbranch_execz bb9
// BB8
    v_lshlrev_b32 v8, 1, v8
    v_add_u32 v8, vcc, v8, v6
    v_subrev_u32 v8, vcc, 3, v8
bb9:
    s_or_saveexec_b64 s[6:7], s[6:7]
    s_xor_b64 exec, s[6:7], exec
    s_cbranch_execz bb10
// BB9
    v_sub_u32 v8, vcc, v8, v6
bb10:
    s_or_b64 exec, exec, s[6:7]
    s_waitcnt 0
    merge
// BB10
    flat_store_dword v[4:5], v8
    s_endpgm
