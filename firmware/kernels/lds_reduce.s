// lds_reduce: per-work-group sum of an integer buffer through LDS, with the four wavefronts
// of a 256-item work-group cooperating across s_barrier. For group g with local ids
// l = 0..wg-1 and values a[l] = A[g * wg + l]:
//
//   LDS[l] = a[l]; barrier
//   for s = 128, 64, ..., 1:                      // tree reduction, a barrier after each step
//       if l < s: LDS[l] += LDS[l + s]            // ds_read_b32 the partner, ds_add_u32 it
//       barrier
//   sums[g] = LDS[0]                              // work-item 0
//   LDS[1] = 0 (work-item 0); barrier
//   if a[l] > 0: ds_add_u32 LDS[1] += 1           // every positive item, any order
//   barrier
//   positives[g] = LDS[1]                         // work-item 0
//
// Sums are 32-bit wrapping. The reduction's stride loop is written for wg = 256 (the LDS
// holds one dword per work-item: @lds 1024); ds_add_u32 both performs the reduction's adds
// and counts the positive values.
//
// Kernel arguments: A (dwords 0-1), sums (dwords 2-3), positives (dwords 4-5).
// @grid 1024
// @wg 256
// @lds 1024
// @args int:grid zero:groups zero:groups
.text
    s_load_dwordx4 s[8:11], s[0:1], 0x0      // s[8:9] = A, s[10:11] = sums
    s_load_dwordx2 s[12:13], s[0:1], 0x10    // s[12:13] = positives
    s_mul_i32 s5, s2, s3
    v_add_u32 v1, vcc, s5, v0                // global id
    v_lshlrev_b32 v1, 2, v1
    s_waitcnt lgkmcnt(0)
    v_mov_b32 v3, s9
    v_add_u32 v2, vcc, s8, v1
    v_addc_u32 v3, vcc, 0, v3, vcc           // v[2:3] = &A[global id]
    flat_load_dword v6, v[2:3]               // a[l]
    v_lshlrev_b32 v1, 2, v0                  // LDS byte address of slot l
    s_waitcnt vmcnt(0)
    ds_write_b32 v1, v6
    s_waitcnt lgkmcnt(0)
    s_barrier
    s_movk_i32 s14, 0x80                     // s = 128
step:
    s_lshl_b32 s15, s14, 2                   // 4s
    s_mov_b64 s[16:17], exec
    v_cmp_gt_u32 vcc, s14, v0                // l < s
    s_and_b64 exec, exec, vcc
    s_cbranch_execz step_done
    v_add_u32 v7, vcc, s15, v1               // address of slot l + s
    ds_read_b32 v8, v7
    s_waitcnt lgkmcnt(0)
    ds_add_u32 v1, v8                        // LDS[l] += LDS[l + s]
step_done:
    s_mov_b64 exec, s[16:17]
    s_waitcnt lgkmcnt(0)
    s_barrier
    s_lshr_b32 s14, s14, 1
    s_cmp_lg_u32 s14, 0
    s_cbranch_scc1 step
    s_lshl_b32 s18, s2, 2                    // 4g: byte offset of this group's outputs
    v_mov_b32 v9, 0                          // LDS address 0
    v_cmp_eq_u32 vcc, 0, v0
    s_and_b64 exec, exec, vcc                // work-item 0 only (wave 0, lane 0)
    s_cbranch_execz sum_done
    ds_read_b32 v10, v9                      // the sum
    ds_write_b32 v9, v9 offset:4             // LDS[1] = 0
    v_mov_b32 v12, s11
    v_mov_b32 v11, s10
    v_add_u32 v11, vcc, s18, v11
    v_addc_u32 v12, vcc, 0, v12, vcc         // &sums[g]
    s_waitcnt lgkmcnt(0)
    flat_store_dword v[11:12], v10
sum_done:
    s_mov_b64 exec, s[16:17]
    s_waitcnt 0
    s_barrier
    v_cmp_lt_i32 vcc, 0, v6                  // a[l] > 0
    s_and_b64 exec, exec, vcc
    s_cbranch_execz count_done
    v_mov_b32 v13, 1
    ds_add_u32 v9, v13 offset:4              // LDS[1] += 1
count_done:
    s_mov_b64 exec, s[16:17]
    s_waitcnt lgkmcnt(0)
    s_barrier
    v_cmp_eq_u32 vcc, 0, v0
    s_and_b64 exec, exec, vcc
    s_cbranch_execz end
    ds_read_b32 v10, v9 offset:4             // the count
    v_mov_b32 v12, s13
    v_mov_b32 v11, s12
    v_add_u32 v11, vcc, s18, v11
    v_addc_u32 v12, vcc, 0, v12, vcc         // &positives[g]
    s_waitcnt lgkmcnt(0)
    flat_store_dword v[11:12], v10
end:
    s_endpgm
