// SGEMM with double buffering: C = alpha A B + beta C, row-major, one element of C per
// work-item, in one work-group: A and C are (grid / n) x n, B is n x n (n a multiple of 4,
// 4 n <= grid <= 1024). B passes through local memory in tiles of four rows held in two
// buffers: while the work-group multiplies with one tile, the loads of the next tile (and of
// the next four elements of the work-item's row of A) are in flight, and one barrier per tile
// hands the next buffer over. No branch: the last tile's "next" loads fetch the last tile again.
// @grid 256
// @wg 256
// @args float:grid float:grid float:grid u32:16 f32:1.5 f32:0.5
__kernel void sgemm_db(__global const float *a, __global const float *b, __global float *c,
                       uint n, float alpha, float beta) {
  __local float tile[2][1024];
  uint i = get_global_id(0), l = get_local_id(0);
  uint row = i / n, col = i % n;
  uint tn = 4 * n, tiles = n / 4;
  uint lt = min(l, tn - 1);
  const __global float *ar = a + row * n;
  tile[0][l] = b[lt];
  float a0 = ar[0], a1 = ar[1], a2 = ar[2], a3 = ar[3];
  barrier(CLK_LOCAL_MEM_FENCE);
  float acc = 0.0f;
  for (uint t = 0; t < tiles; t++) {
    uint nt = min(t + 1, tiles - 1);
    float nb = b[nt * tn + lt];
    const __global float *an = ar + 4 * nt;
    float n0 = an[0], n1 = an[1], n2 = an[2], n3 = an[3];
    __local const float *cur = tile[t & 1];
    acc += a0 * cur[col];
    acc += a1 * cur[n + col];
    acc += a2 * cur[2 * n + col];
    acc += a3 * cur[3 * n + col];
    tile[(t + 1) & 1][l] = nb;
    barrier(CLK_LOCAL_MEM_FENCE);
    a0 = n0;
    a1 = n1;
    a2 = n2;
    a3 = n3;
  }
  c[i] = alpha * acc + beta * c[i];
}
