// hazard: six marked ifs whose then-arms end in VALU work and whose else-arms are s_nop only
// (a regression case: with issue_period > valu the VALU stays busy into the next block on
// the pruned path).
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
    v_and_b32 v9, 1, v0
    v_cmp_ne_u32 vcc, 0, v9
    s_waitcnt 0
    split vcc_lo, vcc_hi
    s_and_saveexec_b64 s[6:7], vcc
    s_xor_b64 s[6:7], exec, s[6:7]
    s_cbranch_execz e0
    v_add_u32 v8, vcc, 1, v8
    v_add_u32 v8, vcc, 1, v8
    v_add_u32 v8, vcc, 1, v8
    v_add_u32 v8, vcc, 1, v8
e0:
    s_or_saveexec_b64 s[6:7], s[6:7]
    s_xor_b64 exec, s[6:7], exec
    s_cbranch_execz j0
    s_nop 15
    s_nop 15
    s_nop 15
    s_nop 15
    s_nop 15
j0:
    s_or_b64 exec, exec, s[6:7]
    s_waitcnt 0
    merge
    v_and_b32 v9, 1, v0
    v_cmp_ne_u32 vcc, 0, v9
    s_waitcnt 0
    split vcc_lo, vcc_hi
    s_and_saveexec_b64 s[6:7], vcc
    s_xor_b64 s[6:7], exec, s[6:7]
    s_cbranch_execz e1
    v_add_u32 v8, vcc, 1, v8
    v_add_u32 v8, vcc, 1, v8
    v_add_u32 v8, vcc, 1, v8
    v_add_u32 v8, vcc, 1, v8
e1:
    s_or_saveexec_b64 s[6:7], s[6:7]
    s_xor_b64 exec, s[6:7], exec
    s_cbranch_execz j1
    s_nop 15
    s_nop 15
    s_nop 15
    s_nop 15
    s_nop 15
j1:
    s_or_b64 exec, exec, s[6:7]
    s_waitcnt 0
    merge
    v_and_b32 v9, 1, v0
    v_cmp_ne_u32 vcc, 0, v9
    s_waitcnt 0
    split vcc_lo, vcc_hi
    s_and_saveexec_b64 s[6:7], vcc
    s_xor_b64 s[6:7], exec, s[6:7]
    s_cbranch_execz e2
    v_add_u32 v8, vcc, 1, v8
    v_add_u32 v8, vcc, 1, v8
    v_add_u32 v8, vcc, 1, v8
    v_add_u32 v8, vcc, 1, v8
e2:
    s_or_saveexec_b64 s[6:7], s[6:7]
    s_xor_b64 exec, s[6:7], exec
    s_cbranch_execz j2
    s_nop 15
    s_nop 15
    s_nop 15
    s_nop 15
    s_nop 15
j2:
    s_or_b64 exec, exec, s[6:7]
    s_waitcnt 0
    merge
    v_and_b32 v9, 1, v0
    v_cmp_ne_u32 vcc, 0, v9
    s_waitcnt 0
    split vcc_lo, vcc_hi
    s_and_saveexec_b64 s[6:7], vcc
    s_xor_b64 s[6:7], exec, s[6:7]
    s_cbranch_execz e3
    v_add_u32 v8, vcc, 1, v8
    v_add_u32 v8, vcc, 1, v8
    v_add_u32 v8, vcc, 1, v8
    v_add_u32 v8, vcc, 1, v8
e3:
    s_or_saveexec_b64 s[6:7], s[6:7]
    s_xor_b64 exec, s[6:7], exec
    s_cbranch_execz j3
    s_nop 15
    s_nop 15
    s_nop 15
    s_nop 15
    s_nop 15
j3:
    s_or_b64 exec, exec, s[6:7]
    s_waitcnt 0
    merge
    v_and_b32 v9, 1, v0
    v_cmp_ne_u32 vcc, 0, v9
    s_waitcnt 0
    split vcc_lo, vcc_hi
    s_and_saveexec_b64 s[6:7], vcc
    s_xor_b64 s[6:7], exec, s[6:7]
    s_cbranch_execz e4
    v_add_u32 v8, vcc, 1, v8
    v_add_u32 v8, vcc, 1, v8
    v_add_u32 v8, vcc, 1, v8
    v_add_u32 v8, vcc, 1, v8
e4:
    s_or_saveexec_b64 s[6:7], s[6:7]
    s_xor_b64 exec, s[6:7], exec
    s_cbranch_execz j4
    s_nop 15
    s_nop 15
    s_nop 15
    s_nop 15
    s_nop 15
j4:
    s_or_b64 exec, exec, s[6:7]
    s_waitcnt 0
    merge
    v_and_b32 v9, 1, v0
    v_cmp_ne_u32 vcc, 0, v9
    s_waitcnt 0
    split vcc_lo, vcc_hi
    s_and_saveexec_b64 s[6:7], vcc
    s_xor_b64 s[6:7], exec, s[6:7]
    s_cbranch_execz e5
    v_add_u32 v8, vcc, 1, v8
    v_add_u32 v8, vcc, 1, v8
    v_add_u32 v8, vcc, 1, v8
    v_add_u32 v8, vcc, 1, v8
e5:
    s_or_saveexec_b64 s[6:7], s[6:7]
    s_xor_b64 exec, s[6:7], exec
    s_cbranch_execz j5
    s_nop 15
    s_nop 15
    s_nop 15
    s_nop 15
    s_nop 15
j5:
    s_or_b64 exec, exec, s[6:7]
    s_waitcnt 0
    merge
    v_add_u32 v8, vcc, 1, v8
    flat_store_dword v[4:5], v8
    s_endpgm
