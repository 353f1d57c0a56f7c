// fig5_nested: nested split/merge as in the PWS paper's Fig. 5 (docs/works/pws.md#fig-5). Per
// work-item i with x = A[i] (32-bit two's complement, wrapping), the kernel records which arms the
// lane took as flag bits and computes a value in the innermost arms:
//
//   region (1):  f = 1
//   if (x > 0) {                        // split #1 (outer)
//       region (2): f |= 2
//       if (x > 50) {                   // split #2 (nested in the outer then-arm)
//           f |= 4;  v = 2x
//       } else {
//           f |= 8;  v = x + 1000
//       }                               // merge #2 (inner), before the outer else-arm
//       f |= 16
//   } else {
//       f |= 32;  v = -x
//   }                                   // merge #1 (outer)
//   f |= 64
//   out[i] = (v << 8) | f
//
// While the nested region runs, the original wavefront, its outer child and its inner child
// are all live: PWS needs S >= 2.
//
// Kernel arguments: A (dwords 0-1), out (dwords 2-3). EXEC save registers: s[6:7] outer,
// s[14:15] inner.
// @grid 256
// @wg 64
// @min-s 2
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
    v_mov_b32 v7, 1                          // region (1): f = 1
    s_waitcnt vmcnt(0)
    v_cmp_lt_i32 vcc, 0, v6                  // x > 0
    s_waitcnt 0
    split vcc_lo, vcc_hi                     // split #1
    s_and_saveexec_b64 s[6:7], vcc
    s_xor_b64 s[6:7], exec, s[6:7]
    s_cbranch_execz outer_else
// region (2)
    v_or_b32 v7, 2, v7
    v_cmp_lt_i32 vcc, 50, v6                 // x > 50
    s_waitcnt 0
    split vcc_lo, vcc_hi                     // split #2 (nested)
    s_and_saveexec_b64 s[14:15], vcc
    s_xor_b64 s[14:15], exec, s[14:15]
    s_cbranch_execz inner_else
// region (3), inner then-arm
    v_or_b32 v7, 4, v7
    v_lshlrev_b32 v8, 1, v6
inner_else:
    s_or_saveexec_b64 s[14:15], s[14:15]
    s_xor_b64 exec, s[14:15], exec
    s_cbranch_execz inner_join
    v_or_b32 v7, 8, v7
    v_add_u32 v8, vcc, 0x3e8, v6
inner_join:
    s_or_b64 exec, exec, s[14:15]
    s_waitcnt 0
    merge                                    // merge #2
    v_or_b32 v7, 16, v7
outer_else:
    s_or_saveexec_b64 s[6:7], s[6:7]
    s_xor_b64 exec, s[6:7], exec
    s_cbranch_execz outer_join
    v_or_b32 v7, 32, v7
    v_sub_u32 v8, vcc, 0, v6
outer_join:
    s_or_b64 exec, exec, s[6:7]
    s_waitcnt 0
    merge                                    // merge #1
    v_or_b32 v7, 64, v7
    v_lshlrev_b32 v8, 8, v8
    v_or_b32 v8, v8, v7
    flat_store_dword v[4:5], v8
    s_endpgm
