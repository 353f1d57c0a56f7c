// seq_empty: twenty sequential marked ifs with empty arms (a regression case: DWS splits at
// every divergent marked branch while fewer than S are live, so a path may split more than S
// times; the bound must charge each).
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
e0:
    s_or_saveexec_b64 s[6:7], s[6:7]
    s_xor_b64 exec, s[6:7], exec
    s_cbranch_execz j0
j0:
    s_or_b64 exec, exec, s[6:7]
    s_waitcnt 0
    merge
    v_and_b32 v9, 2, v0
    v_cmp_ne_u32 vcc, 0, v9
    s_waitcnt 0
    split vcc_lo, vcc_hi
    s_and_saveexec_b64 s[6:7], vcc
    s_xor_b64 s[6:7], exec, s[6:7]
    s_cbranch_execz e1
e1:
    s_or_saveexec_b64 s[6:7], s[6:7]
    s_xor_b64 exec, s[6:7], exec
    s_cbranch_execz j1
j1:
    s_or_b64 exec, exec, s[6:7]
    s_waitcnt 0
    merge
    v_and_b32 v9, 4, v0
    v_cmp_ne_u32 vcc, 0, v9
    s_waitcnt 0
    split vcc_lo, vcc_hi
    s_and_saveexec_b64 s[6:7], vcc
    s_xor_b64 s[6:7], exec, s[6:7]
    s_cbranch_execz e2
e2:
    s_or_saveexec_b64 s[6:7], s[6:7]
    s_xor_b64 exec, s[6:7], exec
    s_cbranch_execz j2
j2:
    s_or_b64 exec, exec, s[6:7]
    s_waitcnt 0
    merge
    v_and_b32 v9, 8, v0
    v_cmp_ne_u32 vcc, 0, v9
    s_waitcnt 0
    split vcc_lo, vcc_hi
    s_and_saveexec_b64 s[6:7], vcc
    s_xor_b64 s[6:7], exec, s[6:7]
    s_cbranch_execz e3
e3:
    s_or_saveexec_b64 s[6:7], s[6:7]
    s_xor_b64 exec, s[6:7], exec
    s_cbranch_execz j3
j3:
    s_or_b64 exec, exec, s[6:7]
    s_waitcnt 0
    merge
    v_and_b32 v9, 16, v0
    v_cmp_ne_u32 vcc, 0, v9
    s_waitcnt 0
    split vcc_lo, vcc_hi
    s_and_saveexec_b64 s[6:7], vcc
    s_xor_b64 s[6:7], exec, s[6:7]
    s_cbranch_execz e4
e4:
    s_or_saveexec_b64 s[6:7], s[6:7]
    s_xor_b64 exec, s[6:7], exec
    s_cbranch_execz j4
j4:
    s_or_b64 exec, exec, s[6:7]
    s_waitcnt 0
    merge
    v_and_b32 v9, 32, v0
    v_cmp_ne_u32 vcc, 0, v9
    s_waitcnt 0
    split vcc_lo, vcc_hi
    s_and_saveexec_b64 s[6:7], vcc
    s_xor_b64 s[6:7], exec, s[6:7]
    s_cbranch_execz e5
e5:
    s_or_saveexec_b64 s[6:7], s[6:7]
    s_xor_b64 exec, s[6:7], exec
    s_cbranch_execz j5
j5:
    s_or_b64 exec, exec, s[6:7]
    s_waitcnt 0
    merge
    v_and_b32 v9, 1, v0
    v_cmp_ne_u32 vcc, 0, v9
    s_waitcnt 0
    split vcc_lo, vcc_hi
    s_and_saveexec_b64 s[6:7], vcc
    s_xor_b64 s[6:7], exec, s[6:7]
    s_cbranch_execz e6
e6:
    s_or_saveexec_b64 s[6:7], s[6:7]
    s_xor_b64 exec, s[6:7], exec
    s_cbranch_execz j6
j6:
    s_or_b64 exec, exec, s[6:7]
    s_waitcnt 0
    merge
    v_and_b32 v9, 2, v0
    v_cmp_ne_u32 vcc, 0, v9
    s_waitcnt 0
    split vcc_lo, vcc_hi
    s_and_saveexec_b64 s[6:7], vcc
    s_xor_b64 s[6:7], exec, s[6:7]
    s_cbranch_execz e7
e7:
    s_or_saveexec_b64 s[6:7], s[6:7]
    s_xor_b64 exec, s[6:7], exec
    s_cbranch_execz j7
j7:
    s_or_b64 exec, exec, s[6:7]
    s_waitcnt 0
    merge
    v_and_b32 v9, 4, v0
    v_cmp_ne_u32 vcc, 0, v9
    s_waitcnt 0
    split vcc_lo, vcc_hi
    s_and_saveexec_b64 s[6:7], vcc
    s_xor_b64 s[6:7], exec, s[6:7]
    s_cbranch_execz e8
e8:
    s_or_saveexec_b64 s[6:7], s[6:7]
    s_xor_b64 exec, s[6:7], exec
    s_cbranch_execz j8
j8:
    s_or_b64 exec, exec, s[6:7]
    s_waitcnt 0
    merge
    v_and_b32 v9, 8, v0
    v_cmp_ne_u32 vcc, 0, v9
    s_waitcnt 0
    split vcc_lo, vcc_hi
    s_and_saveexec_b64 s[6:7], vcc
    s_xor_b64 s[6:7], exec, s[6:7]
    s_cbranch_execz e9
e9:
    s_or_saveexec_b64 s[6:7], s[6:7]
    s_xor_b64 exec, s[6:7], exec
    s_cbranch_execz j9
j9:
    s_or_b64 exec, exec, s[6:7]
    s_waitcnt 0
    merge
    v_and_b32 v9, 16, v0
    v_cmp_ne_u32 vcc, 0, v9
    s_waitcnt 0
    split vcc_lo, vcc_hi
    s_and_saveexec_b64 s[6:7], vcc
    s_xor_b64 s[6:7], exec, s[6:7]
    s_cbranch_execz e10
e10:
    s_or_saveexec_b64 s[6:7], s[6:7]
    s_xor_b64 exec, s[6:7], exec
    s_cbranch_execz j10
j10:
    s_or_b64 exec, exec, s[6:7]
    s_waitcnt 0
    merge
    v_and_b32 v9, 32, v0
    v_cmp_ne_u32 vcc, 0, v9
    s_waitcnt 0
    split vcc_lo, vcc_hi
    s_and_saveexec_b64 s[6:7], vcc
    s_xor_b64 s[6:7], exec, s[6:7]
    s_cbranch_execz e11
e11:
    s_or_saveexec_b64 s[6:7], s[6:7]
    s_xor_b64 exec, s[6:7], exec
    s_cbranch_execz j11
j11:
    s_or_b64 exec, exec, s[6:7]
    s_waitcnt 0
    merge
    v_and_b32 v9, 1, v0
    v_cmp_ne_u32 vcc, 0, v9
    s_waitcnt 0
    split vcc_lo, vcc_hi
    s_and_saveexec_b64 s[6:7], vcc
    s_xor_b64 s[6:7], exec, s[6:7]
    s_cbranch_execz e12
e12:
    s_or_saveexec_b64 s[6:7], s[6:7]
    s_xor_b64 exec, s[6:7], exec
    s_cbranch_execz j12
j12:
    s_or_b64 exec, exec, s[6:7]
    s_waitcnt 0
    merge
    v_and_b32 v9, 2, v0
    v_cmp_ne_u32 vcc, 0, v9
    s_waitcnt 0
    split vcc_lo, vcc_hi
    s_and_saveexec_b64 s[6:7], vcc
    s_xor_b64 s[6:7], exec, s[6:7]
    s_cbranch_execz e13
e13:
    s_or_saveexec_b64 s[6:7], s[6:7]
    s_xor_b64 exec, s[6:7], exec
    s_cbranch_execz j13
j13:
    s_or_b64 exec, exec, s[6:7]
    s_waitcnt 0
    merge
    v_and_b32 v9, 4, v0
    v_cmp_ne_u32 vcc, 0, v9
    s_waitcnt 0
    split vcc_lo, vcc_hi
    s_and_saveexec_b64 s[6:7], vcc
    s_xor_b64 s[6:7], exec, s[6:7]
    s_cbranch_execz e14
e14:
    s_or_saveexec_b64 s[6:7], s[6:7]
    s_xor_b64 exec, s[6:7], exec
    s_cbranch_execz j14
j14:
    s_or_b64 exec, exec, s[6:7]
    s_waitcnt 0
    merge
    v_and_b32 v9, 8, v0
    v_cmp_ne_u32 vcc, 0, v9
    s_waitcnt 0
    split vcc_lo, vcc_hi
    s_and_saveexec_b64 s[6:7], vcc
    s_xor_b64 s[6:7], exec, s[6:7]
    s_cbranch_execz e15
e15:
    s_or_saveexec_b64 s[6:7], s[6:7]
    s_xor_b64 exec, s[6:7], exec
    s_cbranch_execz j15
j15:
    s_or_b64 exec, exec, s[6:7]
    s_waitcnt 0
    merge
    v_and_b32 v9, 16, v0
    v_cmp_ne_u32 vcc, 0, v9
    s_waitcnt 0
    split vcc_lo, vcc_hi
    s_and_saveexec_b64 s[6:7], vcc
    s_xor_b64 s[6:7], exec, s[6:7]
    s_cbranch_execz e16
e16:
    s_or_saveexec_b64 s[6:7], s[6:7]
    s_xor_b64 exec, s[6:7], exec
    s_cbranch_execz j16
j16:
    s_or_b64 exec, exec, s[6:7]
    s_waitcnt 0
    merge
    v_and_b32 v9, 32, v0
    v_cmp_ne_u32 vcc, 0, v9
    s_waitcnt 0
    split vcc_lo, vcc_hi
    s_and_saveexec_b64 s[6:7], vcc
    s_xor_b64 s[6:7], exec, s[6:7]
    s_cbranch_execz e17
e17:
    s_or_saveexec_b64 s[6:7], s[6:7]
    s_xor_b64 exec, s[6:7], exec
    s_cbranch_execz j17
j17:
    s_or_b64 exec, exec, s[6:7]
    s_waitcnt 0
    merge
    v_and_b32 v9, 1, v0
    v_cmp_ne_u32 vcc, 0, v9
    s_waitcnt 0
    split vcc_lo, vcc_hi
    s_and_saveexec_b64 s[6:7], vcc
    s_xor_b64 s[6:7], exec, s[6:7]
    s_cbranch_execz e18
e18:
    s_or_saveexec_b64 s[6:7], s[6:7]
    s_xor_b64 exec, s[6:7], exec
    s_cbranch_execz j18
j18:
    s_or_b64 exec, exec, s[6:7]
    s_waitcnt 0
    merge
    v_and_b32 v9, 2, v0
    v_cmp_ne_u32 vcc, 0, v9
    s_waitcnt 0
    split vcc_lo, vcc_hi
    s_and_saveexec_b64 s[6:7], vcc
    s_xor_b64 s[6:7], exec, s[6:7]
    s_cbranch_execz e19
e19:
    s_or_saveexec_b64 s[6:7], s[6:7]
    s_xor_b64 exec, s[6:7], exec
    s_cbranch_execz j19
j19:
    s_or_b64 exec, exec, s[6:7]
    s_waitcnt 0
    merge
    flat_store_dword v[4:5], v8
    s_endpgm
