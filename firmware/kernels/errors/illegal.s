// illegal: branches into the literal dword (0xffffff00) of an s_mov_b32, which is no
// instruction. The GPU stops with illegal_instruction (ERROR_INFO = the word).
// @grid 64
// @wg 64
.text
    s_branch 1                        // to the next instruction's second dword
    s_mov_b32 s5, 0xffffff00           // a literal (not an inline constant)
    s_endpgm
