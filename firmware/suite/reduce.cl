// Work-group sum (a tree in local memory with barriers): out[g] = the sum of in over
// work-group g's slice. The work-group size is a power of two, at most 256.
// @grid 1024
// @wg 256
// @args int:grid zero:groups
__kernel void reduce(__global const int *in, __global int *out) {
  __local int part[256];
  uint l = get_local_id(0);
  part[l] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint s = get_local_size(0) / 2; s > 0; s /= 2) {
    if (l < s) part[l] += part[l + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (l == 0) out[get_group_id(0)] = part[0];
}
