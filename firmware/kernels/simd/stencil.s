// Sim-D 2D stencil: out[y][x] = in[y][x] + its four neighbours (f32), over a 256 x 256 image
// stored with a one-pixel border (258 x 258 floats), written as Sim-D phases (--exec simd).
// Work-group g (1024 work-items) computes the 32 x 32 block (bx, by) = (g & 7, g >> 3):
// access phase: tile_ld of the 34 x 34 input block with its halo (34 words per row, period
// 258: a 2D tile through the stride sequencer) into the LDS; compute phase: five LDS reads,
// four adds, one LDS write per work-item; access phase: tile_st of the 32 x 32 result
// (period 256).
//
// Tile descriptor s[n:n+3]: DRAM byte address, LDS byte address, words | rows << 16, period.
// @grid 65536
// @wg 1024
// @lds 8720
// @args float:66564 zero:65536
.text
    s_load_dwordx4 s[8:11], s[0:1], 0x0      // s8 = in, s10 = out
    s_and_b32 s6, s2, 7                      // bx
    s_lshr_b32 s7, s2, 3                     // by
    s_mul_i32 s14, s7, 33024                 // by * 32 rows * 258 words * 4 bytes
    s_lshl_b32 s15, s6, 7                    // bx * 32 words * 4 bytes
    s_add_u32 s14, s14, s15                  // input block offset
    s_mul_i32 s20, s7, 32768                 // by * 32 rows * 256 words * 4 bytes
    s_add_u32 s20, s20, s15                  // output block offset
    s_waitcnt lgkmcnt(0)
    s_add_u32 s16, s8, s14
    s_mov_b32 s17, 0
    s_mov_b32 s18, 0x220022                  // 34 words, 34 rows
    s_movk_i32 s19, 258
    tile_ld s[16:19]                         // input block + halo -> LDS[0, 4624)
    v_lshrrev_b32 v1, 5, v0                  // ly
    v_and_b32 v2, 31, v0                     // lx
    v_lshlrev_b32 v3, 7, v1
    v_lshlrev_b32 v4, 3, v1
    v_add_u32 v3, vcc, v3, v4                // ly * 136
    v_lshlrev_b32 v4, 2, v2
    v_add_u32 v3, vcc, v3, v4                // byte address of (ly, lx) in the padded block
    ds_read_b32 v5, v3 offset:4              // north
    ds_read_b32 v6, v3 offset:136            // west
    ds_read_b32 v7, v3 offset:140            // centre
    ds_read_b32 v8, v3 offset:144            // east
    ds_read_b32 v9, v3 offset:276            // south
    s_waitcnt lgkmcnt(0)
    v_add_f32 v5, v5, v6
    v_add_f32 v5, v5, v7
    v_add_f32 v5, v5, v8
    v_add_f32 v5, v5, v9
    v_lshlrev_b32 v10, 2, v0
    ds_write_b32 v10, v5 offset:4624         // result block at LDS[4624, 8720)
    s_waitcnt lgkmcnt(0)
    s_add_u32 s24, s10, s20
    s_movk_i32 s25, 4624
    s_mov_b32 s26, 0x200020                  // 32 words, 32 rows
    s_movk_i32 s27, 256
    tile_st s[24:27]                         // result block -> out
    s_endpgm
