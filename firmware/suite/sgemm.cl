// SGEMM: C = alpha A B + beta C for n x n row-major matrices, one element per work-item
// (the grid is n * n).
// @grid 256
// @wg 64
// @args float:grid float:grid float:grid u32:16 f32:1.5 f32:0.5
__kernel void sgemm(__global const float *a, __global const float *b, __global float *c,
                    uint n, float alpha, float beta) {
  uint i = get_global_id(0);
  uint row = i / n, col = i % n;
  float acc = 0.0f;
  for (uint k = 0; k < n; k++) acc += a[row * n + k] * b[k * n + col];
  c[i] = alpha * acc + beta * c[i];
}
