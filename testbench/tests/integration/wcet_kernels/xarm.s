// xarm: the then-arm sets the count of the else-arm's uniform loop (a regression case):
// split halves do not share scalar registers, so with every if marked the pass must reject it.
// @grid 64
// @wg 64
// @args int:grid zero:grid
.text
    s_load_dwordx4 s[8:11], s[0:1], 0x0
    s_mul_i32 s5, s2, s3
    v_add_u32 v1, vcc, s5, v0
    v_lshlrev_b32 v1, 2, v1
    s_waitcnt lgkmcnt(0)
    v_mov_b32 v3, s9
    v_add_u32 v2, vcc, s8, v1
    v_addc_u32 v3, vcc, 0, v3, vcc
    flat_load_dword v6, v[2:3]
    v_mov_b32 v5, s11
    v_add_u32 v4, vcc, s10, v1
    v_addc_u32 v5, vcc, 0, v5, vcc
    s_waitcnt vmcnt(0)
    v_mov_b32 v8, 0
    s_movk_i32 s20, 0x60
    v_and_b32 v9, 1, v0
    v_cmp_ne_u32 vcc, 0, v9
    s_and_saveexec_b64 s[6:7], vcc
    s_xor_b64 s[6:7], exec, s[6:7]
    s_cbranch_execz e0
    s_mov_b32 s20, 1
    v_add_u32 v8, vcc, 1, v8
e0:
    s_or_saveexec_b64 s[6:7], s[6:7]
    s_xor_b64 exec, s[6:7], exec
    s_cbranch_execz j0
L1:
    s_sub_u32 s20, s20, 1
    v_add_u32 v8, vcc, 2, v8
    s_cmp_lg_u32 s20, 0
    s_cbranch_scc1 L1
j0:
    s_or_b64 exec, exec, s[6:7]
    flat_store_dword v[4:5], v8
    s_endpgm
