// An LDS kernel for the compute unit's RTL top: one-wavefront work-groups (wg 64), so that
// four work-groups hold LDS partitions at once on the top's four contexts and later ones
// reuse partitions that must be zeroed at admission; ds_write2_b32 / ds_read2_b32 pairs
// across lanes, a barrier, ds_add_u32 from the odd lanes only (a partial EXEC) into a word no
// lane wrote (it must start at 0), and the sum read back. Per work-item l of group g, with
// x = A[64g + l], l' = (l + 1) mod 64 and the neighbour's x' = A[64g + l']:
//   LDS[2l] = x, LDS[2l+1] = l + g                   (ds_write2_b32)
//   barrier
//   y = x' + l' + g                                  (ds_read2_b32 of the neighbour's pair)
//   LDS[128] += y for odd l                          (ds_add_u32)
//   barrier
//   out[64g + l] = LDS[128] ^ y
// The third argument (0) is added to the neighbour's LDS address: a launch that sets it to
// 1008 reads past the work-group's 1 KiB partition (lane 1's first address, 1024) and faults.
// @grid 512
// @wg 64
// @lds 1024
// @args int:grid zero:grid 0
.text
    s_load_dwordx4 s[8:11], s[0:1], 0x0      // s[8:9] = A, s[10:11] = out
    s_load_dword s12, s[0:1], 0x10           // the neighbour address's extra offset
    s_mul_i32 s5, s2, s3
    v_add_u32 v1, vcc, s5, v0                // i
    v_lshlrev_b32 v1, 2, v1                  // 4i
    s_waitcnt lgkmcnt(0)
    v_mov_b32 v3, s9
    v_add_u32 v2, vcc, s8, v1
    v_addc_u32 v3, vcc, 0, v3, vcc           // v[2:3] = &A[i]
    flat_load_dword v6, v[2:3]               // x
    v_lshlrev_b32 v4, 3, v0                  // 8l: the pair's byte address
    v_add_u32 v7, vcc, s2, v0                // l + g
    v_add_u32 v8, vcc, 8, v4
    v_and_b32 v8, 0x1F8, v8                  // 8l'
    v_add_u32 v8, vcc, s12, v8
    s_waitcnt vmcnt(0)
    ds_write2_b32 v4, v6, v7 offset1:1       // LDS[2l] = x, LDS[2l+1] = l + g
    s_waitcnt lgkmcnt(0)
    s_barrier
    ds_read2_b32 v[10:11], v8 offset1:1      // x', l' + g
    v_mov_b32 v12, 0
    s_mov_b64 s[16:17], exec
    s_waitcnt lgkmcnt(0)
    v_add_u32 v13, vcc, v10, v11             // y
    v_and_b32 v9, 1, v0
    v_cmp_eq_u32 vcc, 1, v9                  // odd lanes
    s_and_b64 exec, exec, vcc
    ds_add_u32 v12, v13 offset:512           // LDS[128] += y, odd lanes
    s_mov_b64 exec, s[16:17]
    s_waitcnt lgkmcnt(0)
    s_barrier
    ds_read_b32 v14, v12 offset:512          // the sum
    s_waitcnt lgkmcnt(0)
    v_xor_b32 v15, v14, v13
    v_mov_b32 v3, s11
    v_add_u32 v2, vcc, s10, v1
    v_addc_u32 v3, vcc, 0, v3, vcc           // v[2:3] = &out[i]
    flat_store_dword v[2:3], v15
    s_endpgm
