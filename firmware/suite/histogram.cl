// 16-bin histogram of each work-group's slice of in (values taken mod 16): counts in local
// memory with atomic_inc, then row g of bins holds work-group g's counts.
// @grid 1024
// @wg 256
// @args int:grid zero:64
__kernel void histogram(__global const uint *in, __global uint *bins) {
  __local uint local_bins[16];
  uint l = get_local_id(0);
  if (l < 16) local_bins[l] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  atomic_inc(&local_bins[in[get_global_id(0)] & 15]);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (l < 16) bins[get_group_id(0) * 16 + l] = local_bins[l];
}
