// divergent_scale: out[i] = in[i] * 2.0 for lanes with in[i] > 0, else in[i] + 1.0.
// A PWS-style divergent kernel (spec/000-pws.md §3.10): the compare's lanes are split into
// two wavefronts that run the two sides in parallel, then merge after the post-dominator.
// Kernel arguments at s[0:1]: in pointer (dword 0-1), out pointer (dword 2-3).
.text
    s_load_dwordx4 s[4:7], s[0:1], 0x0        // s[4:5] = in, s[6:7] = out
    v_lshlrev_b32 v1, 2, v0                   // byte offset of this lane
    s_waitcnt lgkmcnt(0)
    v_mov_b32 v3, s5
    v_add_u32 v2, vcc, s4, v1                 // &in[i]
    v_addc_u32 v3, vcc, 0, v3, vcc
    flat_load_dword v4, v[2:3]
    s_waitcnt vmcnt(0)
    v_cmp_lt_f32 vcc, 0, v4                   // lanes with in[i] > 0
    split vcc_lo, vcc_hi
    s_cbranch_execz else                      // mandatory skip (A16)
    v_mul_f32 v4, 2.0, v4
    s_branch join
else:
    v_add_f32 v4, 1.0, v4
join:
    s_waitcnt 0
    merge
    v_mov_b32 v3, s7
    v_add_u32 v2, vcc, s6, v1                 // &out[i]
    v_addc_u32 v3, vcc, 0, v3, vcc
    flat_store_dword v[2:3], v4
    s_endpgm
