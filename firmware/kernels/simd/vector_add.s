// Sim-D vector_add: c[i] = a[i] + b[i] in f32, written as Sim-D phases (run with --exec simd).
// Each work-group of 1024 work-items: access phase (tile_ld a, tile_ld b: two 4 KiB tiles into
// the work-group's scratchpad, the LDS), compute phase (LDS reads, add, LDS write; no DRAM),
// access phase (tile_st c: one 4 KiB tile from the scratchpad).
//
// Tile descriptor s[n:n+3]: DRAM byte address, LDS byte address, words | rows << 16, period.
// Kernel arguments as vector_add.s: a, b, c (64-bit addresses; the low dwords are used).
// @grid 65536
// @wg 1024
// @lds 8192
// @args float:grid float:grid zero:grid
.text
    s_load_dwordx4 s[8:11], s[0:1], 0x0      // s8 = a, s10 = b
    s_load_dwordx2 s[12:13], s[0:1], 0x10    // s12 = c
    s_mul_i32 s5, s2, s3                     // first global id of the work-group
    s_lshl_b32 s5, s5, 2                     // its byte offset
    s_or_b32 s18, s3, 0x10000                // one row of wg words
    s_mov_b32 s19, s3                        // period (one row: unused)
    s_lshl_b32 s21, s3, 2                    // b's place in the LDS: after a
    s_waitcnt lgkmcnt(0)
    s_add_u32 s16, s8, s5
    s_mov_b32 s17, 0
    tile_ld s[16:19]                         // a -> LDS[0, 4 wg)
    s_add_u32 s20, s10, s5
    s_mov_b32 s22, s18
    s_mov_b32 s23, s3
    tile_ld s[20:23]                         // b -> LDS[4 wg, 8 wg)
    v_lshlrev_b32 v1, 2, v0                  // 4 * local id
    v_add_u32 v4, vcc, s21, v1
    ds_read_b32 v2, v1
    ds_read_b32 v3, v4
    s_waitcnt lgkmcnt(0)
    v_add_f32 v2, v2, v3
    ds_write_b32 v1, v2
    s_waitcnt lgkmcnt(0)
    s_add_u32 s24, s12, s5
    s_mov_b32 s25, 0
    s_mov_b32 s26, s18
    s_mov_b32 s27, s3
    tile_st s[24:27]                         // LDS[0, 4 wg) -> c
    s_endpgm
