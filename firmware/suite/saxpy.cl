// SAXPY: y[i] = a * x[i] + y[i] for i < n.
// @grid 1024
// @wg 256
// @args float:grid float:grid f32:2.5 u32:1024
__kernel void saxpy(__global const float *x, __global float *y, float a, uint n) {
  uint i = get_global_id(0);
  if (i < n) y[i] = a * x[i] + y[i];
}
