// The 64-bit vector operations for the compute unit's RTL top, in every operand shape the top
// reads with its three VGPR read ports: v_mad_u64_u32 whose 64-bit addend is a VGPR pair
// beside a scalar src0 and beside a scalar src1, or an SGPR pair (with clamp); v_lshlrev_b64
// of a VGPR pair by a VGPR and of an SGPR pair by a constant; v_cmp_{eq,ne}_u64 of a VGPR pair
// against an inline constant (0, and -1 widened to 64 ones), and against an SGPR pair in the
// _e64 form. The values are built from x = A[i] (random, half of them negative) sign-extended
// to 64 bits, so the high dwords vary from lane to lane. Per work-item i, out[8i..8i+7] holds
// the results and the carry and compare bits; the RTL top and the behavioural compute unit
// store the same words only if the pairs' second dwords take the right ports.
// @grid 256
// @wg 64
// @args int:grid zero:2048
.text
    s_load_dwordx4 s[8:11], s[0:1], 0x0      // s[8:9] = A, s[10:11] = out
    s_mul_i32 s5, s2, s3
    v_add_u32 v1, vcc, s5, v0                // i
    v_lshlrev_b32 v2, 2, v1                  // 4i
    s_mov_b32 s20, 0x9E3779B9
    s_mov_b32 s21, 0xFFFFFFF0                // s[20:21]: a 64-bit scalar addend
    s_mov_b32 s24, 1
    s_mov_b32 s25, -1                        // s[24:25] = (1, all ones)
    s_waitcnt lgkmcnt(0)
    v_mov_b32 v4, s9
    v_add_u32 v3, vcc, s8, v2
    v_addc_u32 v4, vcc, 0, v4, vcc           // v[3:4] = &A[i]
    flat_load_dword v5, v[3:4]               // x
    v_mov_b32 v9, s11
    v_mov_b32 v8, s10                        // v[8:9] = out
    v_mad_u64_u32 v[6:7], s[12:13], 32, v1, v[8:9]   // &out[8i]
    s_waitcnt vmcnt(0)
    v_ashrrev_i32 v11, 31, v5
    v_mov_b32 v10, v5                        // v[10:11] = (i64)x
    v_mad_u64_u32 v[12:13], s[14:15], s20, v5, v[10:11]   // src0 scalar: d from port a
    v_mad_u64_u32 v[14:15], s[16:17], v5, s20, v[12:13]   // src1 scalar: d from port b
    v_mad_u64_u32 v[16:17], s[18:19], v5, v1, s[20:21] clamp  // an SGPR pair addend
    v_and_b32 v20, 63, v5
    v_lshlrev_b64 v[18:19], v20, v[12:13]    // by a VGPR: d from port c
    v_and_b32 v20, 1, v5
    v_mov_b32 v21, v11                       // v[20:21] = (x & 1, sign of x)
    v_cmp_eq_u64 vcc, 0, v[20:21]            // x even and not negative
    v_cndmask_b32 v22, 0, 1, vcc
    v_cmp_ne_u64_e64 s[22:23], v[20:21], s[24:25]   // not (x odd and negative)
    v_cndmask_b32_e64 v23, 0, 2, s[22:23]
    v_or_b32 v22, v22, v23
    v_cmp_ne_u64 vcc, -1, v[10:11]           // x != -1
    v_cndmask_b32 v23, 0, 4, vcc
    v_or_b32 v22, v22, v23
    v_cndmask_b32_e64 v23, 0, 8, s[14:15]    // the carries
    v_or_b32 v22, v22, v23
    v_cndmask_b32_e64 v23, 0, 16, s[16:17]
    v_or_b32 v22, v22, v23
    v_cndmask_b32_e64 v23, 0, 32, s[18:19]
    v_or_b32 v22, v22, v23
    flat_store_dword v[6:7], v22             // out[8i] = the bits
    v_add_u32 v6, vcc, 4, v6
    v_addc_u32 v7, vcc, 0, v7, vcc
    flat_store_dword v[6:7], v13
    v_add_u32 v6, vcc, 4, v6
    v_addc_u32 v7, vcc, 0, v7, vcc
    flat_store_dword v[6:7], v14
    v_add_u32 v6, vcc, 4, v6
    v_addc_u32 v7, vcc, 0, v7, vcc
    flat_store_dword v[6:7], v15
    v_add_u32 v6, vcc, 4, v6
    v_addc_u32 v7, vcc, 0, v7, vcc
    flat_store_dword v[6:7], v16
    v_add_u32 v6, vcc, 4, v6
    v_addc_u32 v7, vcc, 0, v7, vcc
    flat_store_dword v[6:7], v17
    v_add_u32 v6, vcc, 4, v6
    v_addc_u32 v7, vcc, 0, v7, vcc
    flat_store_dword v[6:7], v18
    v_lshlrev_b64 v[18:19], 3, s[20:21]      // an SGPR pair by a constant
    v_add_u32 v6, vcc, 4, v6
    v_addc_u32 v7, vcc, 0, v7, vcc
    v_xor_b32 v19, v19, v12
    flat_store_dword v[6:7], v19
    s_endpgm
