// vector_add: c[i] = a[i] + b[i] in f32, one work-item per element, no divergence.
//
// Kernel arguments (s[0:1] points at them): a (dwords 0-1), b (dwords 2-3), c (dwords 4-5),
// each a 64-bit buffer address. The global id is i = s2 * s3 + v0 (work-group id times
// work-group size plus local id).
// @grid 256
// @wg 64
// @args float:grid float:grid zero:grid
.text
    s_load_dwordx4 s[8:11], s[0:1], 0x0      // s[8:9] = a, s[10:11] = b
    s_load_dwordx2 s[12:13], s[0:1], 0x10    // s[12:13] = c
    s_mul_i32 s5, s2, s3                     // first global id of the work-group
    v_add_u32 v1, vcc, s5, v0                // i
    v_lshlrev_b32 v1, 2, v1                  // byte offset 4i
    s_waitcnt lgkmcnt(0)
    v_mov_b32 v3, s9
    v_add_u32 v2, vcc, s8, v1
    v_addc_u32 v3, vcc, 0, v3, vcc           // v[2:3] = &a[i]
    v_mov_b32 v5, s11
    v_add_u32 v4, vcc, s10, v1
    v_addc_u32 v5, vcc, 0, v5, vcc           // v[4:5] = &b[i]
    flat_load_dword v6, v[2:3]
    flat_load_dword v7, v[4:5]
    v_mov_b32 v9, s13
    v_add_u32 v8, vcc, s12, v1
    v_addc_u32 v9, vcc, 0, v9, vcc           // v[8:9] = &c[i]
    s_waitcnt vmcnt(0)
    v_add_f32 v6, v6, v7
    flat_store_dword v[8:9], v6
    s_endpgm
