// A scalar-only kernel for the compute unit's RTL top: every wavefront sums a count that
// depends on its work-group id and wave index, then branches on the result and on an
// emptied EXEC. Data-dependent loop trip counts and branches make the issue sequence depend
// on the register values, so the RTL top and the behavioural compute unit agree on the
// cycles only if they compute the same values.
// grid 512, wg 128 (two wavefronts per work-group, four work-groups)
.text
    s_mov_b32 s10, 0                         // sum
    s_add_u32 s11, s2, s4                    // work-group id + wave index
    s_and_b32 s11, s11, 3
    s_add_u32 s11, s11, 2                    // n = 2..5
count:
    s_add_u32 s10, s10, s11
    s_sub_u32 s11, s11, 1
    s_cmp_eq_u32 s11, 0
    s_cbranch_scc0 count
    s_lshl_b32 s12, s10, 2
    s_cmp_gt_u32 s12, 40
    s_cbranch_scc1 big
    s_nop 3
    s_mul_i32 s13, s12, s3
big:
    s_mov_b64 s[30:31], exec
    s_mov_b64 exec, 0
    s_cbranch_execz empty
    s_nop 7
empty:
    s_mov_b64 exec, s[30:31]
    s_getpc_b64 s[20:21]
    s_add_u32 s20, s20, 16                   // past the `s_nop 0`
    s_addc_u32 s21, s21, 0
    s_setpc_b64 s[20:21]
    s_nop 0
    s_endpgm
