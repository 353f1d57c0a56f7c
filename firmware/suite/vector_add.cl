// Vector addition: c[i] = a[i] + b[i] for i < n.
// @grid 1024
// @wg 256
// @args float:grid float:grid zero:grid u32:1000
__kernel void vector_add(__global const float *a, __global const float *b, __global float *c,
                         uint n) {
  uint i = get_global_id(0);
  if (i < n) c[i] = a[i] + b[i];
}
