// lds_burst: every work-item writes, adds to and reads back its own LDS slot in bursts of six
// DS instructions with no wait between them, four times. With every wavefront of the launch
// doing so at once, the LDS (one DS instruction every lds_period cycles) is the bottleneck:
// the WCET analyses must charge the other wavefronts' DS instructions (a regression case for
// docs/assumptions.md#A105). out[i] = 3·l (each round writes l to the slot and adds l twice).
// @grid 1024
// @wg 256
// @lds 1024
// @args int:grid zero:grid
.text
    s_load_dwordx4 s[8:11], s[0:1], 0x0      // s[10:11] = out
    v_lshlrev_b32 v1, 2, v0                  // LDS byte address of slot l
    s_movk_i32 s14, 0x4
burst:
    ds_write_b32 v1, v0
    ds_read_b32 v2, v1
    ds_add_u32 v1, v0
    ds_read_b32 v3, v1
    ds_add_u32 v1, v0
    ds_read_b32 v4, v1
    s_sub_u32 s14, s14, 1
    s_cmp_lg_u32 s14, 0
    s_cbranch_scc1 burst
    s_mul_i32 s5, s2, s3
    v_add_u32 v5, vcc, s5, v0                // global id
    v_lshlrev_b32 v5, 2, v5
    s_waitcnt lgkmcnt(0)
    v_mov_b32 v7, s11
    v_add_u32 v6, vcc, s10, v5
    v_addc_u32 v7, vcc, 0, v7, vcc           // &out[global id]
    flat_store_dword v[6:7], v4
    s_waitcnt 0
    s_endpgm
