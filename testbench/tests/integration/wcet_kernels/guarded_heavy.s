// guarded_heavy: a heavy then-arm reached only for some inputs. Per work-item i with
// x = A[i] (an integer, -100..=100 for `int:` buffers) and the scalar argument T:
//
//   if x > T: x = x + A[i] + A[i] + A[i] + A[i] (four dependent reloads), then eight adds
//   out[i] = x
//
// With T above every x (the default 1000) no wavefront enters the then-arm, so a bound
// measured on that input alone charges it nothing; T = 0 enters it. The bound must hold for
// every T in the declared range.
//
// Kernel arguments: A (dwords 0-1), out (dwords 2-3), T (dword 4).
// @range 2 -200..1000
// @grid 256
// @wg 64
// @args int:grid zero:grid 1000
.text
    s_load_dwordx4 s[8:11], s[0:1], 0x0      // s[8:9] = A, s[10:11] = out
    s_load_dword s12, s[0:1], 0x10           // T
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
    v_cmp_lt_i32 vcc, s12, v6                // T < x
    s_and_saveexec_b64 s[20:21], vcc
    s_cbranch_execz join
    flat_load_dword v7, v[2:3]
    s_waitcnt vmcnt(0)
    v_add_u32 v6, vcc, v6, v7
    flat_load_dword v7, v[2:3]
    s_waitcnt vmcnt(0)
    v_add_u32 v6, vcc, v6, v7
    flat_load_dword v7, v[2:3]
    s_waitcnt vmcnt(0)
    v_add_u32 v6, vcc, v6, v7
    flat_load_dword v7, v[2:3]
    s_waitcnt vmcnt(0)
    v_add_u32 v6, vcc, v6, v7
    v_add_u32 v6, vcc, 1, v6
    v_add_u32 v6, vcc, 1, v6
    v_add_u32 v6, vcc, 1, v6
    v_add_u32 v6, vcc, 1, v6
    v_add_u32 v6, vcc, 1, v6
    v_add_u32 v6, vcc, 1, v6
    v_add_u32 v6, vcc, 1, v6
    v_add_u32 v6, vcc, 1, v6
join:
    s_or_b64 exec, exec, s[20:21]
    flat_store_dword v[4:5], v6
    s_endpgm
