// merge_mismatch: the two halves of a split reach different `merge` instructions, so neither
// finds its partner (the two halves rendezvous only at one and the same merge PC). Under PWS or DWS
// the merge watchdog fires: merge_watchdog. (No-split runs it to the end: merge is a no-op.)
// @grid 64
// @wg 64
.text
    v_cmp_gt_u32 vcc, 32, v0              // lanes 0..31
    s_waitcnt 0
    split vcc_lo, vcc_hi
    s_and_saveexec_b64 s[6:7], vcc
    s_cbranch_execz other                 // the upper half skips the first merge
    s_waitcnt 0
    merge
    s_endpgm
other:
    s_waitcnt 0
    merge
    s_endpgm
