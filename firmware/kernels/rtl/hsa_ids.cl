// An OpenCL C kernel for the compute unit's RTL top: its wavefronts start with the HSA ABI,
// as clang compiles for (docs/opencl.md). It reads the dispatch packet's work-group size
// through the dispatch pointer and its output buffer through the kernel argument pointer
// (user SGPRs s[4:5] and s[6:7], after the private segment buffer's four), and the
// work-group id from s8 (the first system SGPR after the eight user ones).
// Per work-item of local id l in work-group g of size n:
//   out[g * n + l] = g << 16 | n << 8 | l
// The byte offset is computed in 32 bits so that the address needs no 64-bit shift
// (v_lshlrev_b64, which the RTL's VALU does not have yet).
// @grid 384
// @wg 128
// @args zero:grid
__kernel void hsa_ids(__global uint *out) {
    uint l = get_local_id(0);
    uint g = get_group_id(0);
    uint n = get_local_size(0);
    uint off = (g * n + l) << 2;
    *(__global uint *)((__global char *)out + off) = (g << 16) + (n << 8) + l;
}
