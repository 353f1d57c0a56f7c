// A vector kernel without memory for the compute unit's RTL top: every lane computes from
// its work-item id (v0), its work-group id and its wave index, and the values decide the
// control flow: a loop runs until no lane's count is left (v_cmp into VCC, EXEC from it,
// s_cbranch_execz), v_readfirstlane_b32 gives scalar trip counts, v_cmpx narrows EXEC and
// v_cndmask_b32 (VCC and an SGPR pair) selects. The RTL top and the behavioural compute unit
// issue the same instructions in the same cycles only if their vector results agree.
// grid 512, wg 128 (two wavefronts per work-group, four work-groups)
.text
    v_mov_b32 v1, s2                         // work-group id
    v_add_u32 v2, vcc, s4, v0                // wave index + work-item id
    v_mul_lo_u32 v3, v2, v2                  // VOP3
    v_xor_b32 v3, v3, v1
    s_mov_b32 s12, 0x9E3779B9                // a literal
    v_mul_hi_u32 v6, v3, s12
    v_lshrrev_b32 v4, 3, v3
    v_and_b32 v4, 7, v4                      // per-lane count 0..7
    v_mov_b32 v5, 0
    s_mov_b64 s[20:21], exec
count:
    v_cmp_ne_u32 vcc, 0, v4                  // lanes still counting
    s_and_b64 exec, s[20:21], vcc
    s_cbranch_execz counted
    v_subrev_u32 v4, vcc, 1, v4              // v4 - 1
    v_add_u32 v5, vcc, v5, v3
    v_addc_u32 v7, vcc, v6, v6, vcc          // carry in and out
    s_branch count
counted:
    s_mov_b64 exec, s[20:21]
    v_readfirstlane_b32 s10, v5
    s_and_b32 s10, s10, 3
    s_add_u32 s10, s10, 1                    // 1..4
spin:
    s_sub_u32 s10, s10, 1
    s_cmp_eq_u32 s10, 0
    s_cbranch_scc0 spin
    v_cmp_gt_i32_e64 s[22:23], 32, v0        // lanes below 32, into a pair
    v_cndmask_b32_e64 v8, v5, v7, s[22:23]
    v_ashrrev_i32 v9, 2, v8
    v_min_i32 v9, v9, v3
    v_cmpx_lt_u32 vcc, 100, v9               // EXEC: lanes above 100
    s_cbranch_execz none
    v_readfirstlane_b32 s11, v9
    s_and_b32 s11, s11, 7
    s_cmp_gt_u32 s11, 3
    s_cbranch_scc1 none
    s_nop 5
none:
    s_mov_b64 exec, s[20:21]
    v_sub_u32_e64 v10, s[24:25], v3, v9      // borrow into a pair
    s_or_b32 s26, s24, s25                   // SCC: a lane borrowed
    s_cbranch_scc0 end
    v_cndmask_b32 v11, 0, v10, vcc
    v_cmp_eq_u32 vcc, v11, v10
    s_cbranch_vccz end
    s_nop 2
end:
    s_endpgm
