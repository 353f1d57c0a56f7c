// An fp32 kernel for the compute unit's RTL top: the three-source operations in each way
// their third source can come, so that the RTL's third VGPR read port, its scalar read and
// v_mac_f32's accumulator must agree with the behavioural compute unit:
//   v_mac_f32 (32-bit and _e64: the addend is the destination's old value),
//   v_mad_f32 with an inline float constant as src2 (read as 32 bits, not as a pair),
//   v_fma_f32 with an SGPR as src2, and with negated / absolute sources and an output
//   modifier.
// Per work-item i with x = a[i], y = b[i] (random floats):
//   p = x + 0.5 y              (v_mac_f32)
//   q = x y + 2.0              (v_mad_f32)
//   r = fma(x, y, 1.5)         (v_fma_f32, 1.5 from s20)
//   t = -q r - p               (v_mad_f32 with negations)
//   t = t + x y                (v_mac_f32_e64)
//   out[i] = 2 fma(|t|, 0.5, r)
// @grid 256
// @wg 64
// @args float:grid float:grid zero:grid
.text
    s_load_dwordx4 s[8:11], s[0:1], 0x0      // s[8:9] = a, s[10:11] = b
    s_load_dwordx2 s[12:13], s[0:1], 0x10    // s[12:13] = out
    s_mul_i32 s5, s2, s3
    v_add_u32 v1, vcc, s5, v0                // i
    v_lshlrev_b32 v1, 2, v1                  // 4i
    s_mov_b32 s20, 0x3fc00000                // 1.5
    s_waitcnt lgkmcnt(0)
    v_mov_b32 v3, s9
    v_add_u32 v2, vcc, s8, v1
    v_addc_u32 v3, vcc, 0, v3, vcc           // v[2:3] = &a[i]
    v_mov_b32 v5, s11
    v_add_u32 v4, vcc, s10, v1
    v_addc_u32 v5, vcc, 0, v5, vcc           // v[4:5] = &b[i]
    flat_load_dword v6, v[2:3]               // x
    flat_load_dword v7, v[4:5]               // y
    v_mov_b32 v9, s13
    v_add_u32 v8, vcc, s12, v1
    v_addc_u32 v9, vcc, 0, v9, vcc           // v[8:9] = &out[i]
    s_waitcnt vmcnt(0)
    v_mov_b32 v10, v6
    v_mac_f32 v10, 0.5, v7                   // p
    v_mad_f32 v11, v6, v7, 2.0               // q
    v_fma_f32 v12, v6, v7, s20               // r
    v_mad_f32 v13, -v11, v12, -v10           // t = -q r - p
    v_mac_f32_e64 v13, v6, v7                // t += x y
    v_fma_f32 v14, |v13|, 0.5, v12 mul:2
    flat_store_dword v[8:9], v14
    s_endpgm
