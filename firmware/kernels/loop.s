// loop: a uniform scalar loop and a divergent per-lane loop, no split. Per work-item i with
// a = A[i] (an integer) and N the scalar argument:
//
//   x = float(a); acc = 0.0
//   repeat N times: acc = acc * 0.5 + x          // uniform: s_cmp/s_cbranch_scc loop
//   m = a & 7                                    // per-lane trip count 0..7
//   p = 1
//   for j in 0..m: p = p * 3 + j; acc = acc + 0.5 // divergent: EXEC-masked loop
//   out[i] = bits of (acc + float(p))            // f32
//
// The f32 operations round one by one (v_mad_f32 rounds the product and the sum). The
// divergent loop keeps the lanes still iterating in EXEC (v_cmp, s_and_b64 exec,
// s_cbranch_execnz back to the top) and restores EXEC after it.
//
// Kernel arguments: A (dwords 0-1), out (dwords 2-3), N (dword 4).
// Flow facts for `rtgpu wcet`: N is at most 16, and the lane loop runs at most 7 times (m ≤ 7),
// so its branch back is taken at most 6 times; the uniform loop's bound is derived from N.
// @range 2 0..16
// @loop lane_loop 6
// @grid 256
// @wg 64
// @args int:grid zero:grid 10
.text
    s_load_dwordx4 s[8:11], s[0:1], 0x0      // s[8:9] = A, s[10:11] = out
    s_load_dword s12, s[0:1], 0x10           // N
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
    s_waitcnt vmcnt(0)
    v_cvt_f32_i32 v7, v6                     // x
    v_mov_b32 v8, 0                          // acc
    s_mov_b32 s13, 0                         // k
uniform_loop:
    s_cmp_ge_u32 s13, s12
    s_cbranch_scc1 uniform_done
    v_mad_f32 v8, v8, 0.5, v7                // acc = acc * 0.5 + x
    s_add_u32 s13, s13, 1
    s_branch uniform_loop
uniform_done:
    v_and_b32 v9, 7, v6                      // m
    v_mov_b32 v10, 0                         // j
    v_mov_b32 v11, 1                         // p
    s_mov_b64 s[16:17], exec                 // EXEC before the loop
    v_cmp_lt_u32 vcc, v10, v9                // lanes with j < m
    s_and_b64 exec, exec, vcc
    s_cbranch_execz lane_done
lane_loop:
    v_mul_lo_u32 v11, v11, 3
    v_add_u32 v11, vcc, v11, v10             // p = p * 3 + j
    v_add_f32 v8, 0.5, v8                    // acc = acc + 0.5
    v_add_u32 v10, vcc, 1, v10               // j += 1
    v_cmp_lt_u32 vcc, v10, v9
    s_and_b64 exec, exec, vcc                // drop the lanes that are done
    s_cbranch_execnz lane_loop
lane_done:
    s_mov_b64 exec, s[16:17]
    v_cvt_f32_u32 v12, v11
    v_add_f32 v8, v8, v12
    flat_store_dword v[4:5], v8
    s_endpgm
