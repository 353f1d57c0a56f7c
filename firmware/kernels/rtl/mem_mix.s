// A memory kernel for the compute unit's RTL top: SMEM loads of one, two and four dwords
// (immediate and SGPR offsets) whose returns overlap, FLAT loads and stores under partial
// EXEC masks, a store read back by the same wavefront in the next instruction, and
// s_waitcnt with non-zero counts (vmcnt(1), lgkmcnt(2)), and an SMEM store through an SGPR
// offset, so that the RTL top's memory port must return its accesses in the cycles the
// behavioural compute unit retires them.
// Per work-item i, with x = A[i]:
//   out[i] = 7                       (stored, read back: y = 7)
//   out[i] = x + 7        (odd x)
//   A[i]   = (7x) ^ (x + 7) ^ g * wg  (x < 40, unsigned; g * wg is the store's SGPR, read
//            after its response)
// Per work-group g (every wavefront of the group stores the same word):
//   G[g]   = g * wg
// @grid 256
// @wg 64
// @args zero:groups int:grid zero:grid 7
.text
    s_load_dwordx4 s[8:11], s[0:1], 0x8      // s[8:9] = A, s[10:11] = out
    s_load_dword s12, s[0:1], 0x18           // 7
    s_mov_b32 s13, 0x18
    s_load_dword s14, s[0:1], s13            // 7 again, through an SGPR offset
    s_load_dwordx2 s[16:17], s[0:1], 0x10    // out again
    s_load_dwordx2 s[20:21], s[0:1], 0x0     // G
    s_mul_i32 s5, s2, s3
    v_add_u32 v1, vcc, s5, v0                // i
    v_lshlrev_b32 v1, 2, v1                  // 4i
    s_waitcnt lgkmcnt(2)                     // the first three loads are back
    v_mov_b32 v3, s9
    v_add_u32 v2, vcc, s8, v1
    v_addc_u32 v3, vcc, 0, v3, vcc           // v[2:3] = &A[i]
    flat_load_dword v6, v[2:3]               // x
    s_waitcnt lgkmcnt(0)
    s_lshl_b32 s22, s2, 2                    // 4g
    s_store_dword s5, s[20:21], s22          // G[g] = g * wg
    v_mov_b32 v5, s17
    v_add_u32 v4, vcc, s16, v1
    v_addc_u32 v5, vcc, 0, v5, vcc           // v[4:5] = &out[i]
    v_mov_b32 v7, s14
    flat_store_dword v[4:5], v7              // out[i] = 7
    flat_load_dword v8, v[4:5]               // y = out[i]: the store's 7
    s_waitcnt vmcnt(1)                       // x and the store are done
    v_add_u32 v9, vcc, s12, v6               // x + 7
    v_and_b32 v10, 1, v6
    v_cmp_eq_u32 vcc, 1, v10                 // odd x
    s_and_saveexec_b64 s[18:19], vcc
    s_cbranch_execz even
    flat_store_dword v[4:5], v9              // out[i] = x + 7
even:
    s_mov_b64 exec, s[18:19]
    s_waitcnt vmcnt(0)
    v_mul_lo_u32 v11, v8, v6                 // 7x
    v_xor_b32 v11, v11, v9
    v_xor_b32 v11, s5, v11
    v_cmp_gt_u32 vcc, 40, v6                 // x < 40
    s_and_saveexec_b64 s[18:19], vcc
    flat_store_dword v[2:3], v11             // A[i] = 7x ^ (x + 7)
    s_mov_b64 exec, s[18:19]
    s_endpgm
