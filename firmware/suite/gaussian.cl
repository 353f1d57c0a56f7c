// Gaussian elimination (after Rodinia gaussian), step t of Fan1 and Fan2 in one launch: the
// work-item of row i > t and column j in t..n (column n is the right-hand side b) computes
// the multiplier m = a[i][t] / a[t][t]; the one of column t stores it (Fan1), the others
// subtract m times row t from a[i][j] or from b[i] (Fan2). Column t of a stays, so no
// work-item writes what another reads.
// @grid 1024
// @wg 256
// @args float:1024 float:32 zero:1024 u32:32 u32:1
__kernel void gaussian(__global float *a, __global float *b, __global float *m, uint n,
                       uint t) {
  uint id = get_global_id(0), w = n - t + 1;
  uint i = t + 1 + id / w, j = t + id % w;
  if (i >= n) return;
  float f = a[i * n + t] / a[t * n + t];
  if (j == t) {
    m[i * n + t] = f;
  } else if (j == n) {
    b[i] -= f * b[t];
  } else {
    a[i * n + j] -= f * a[t * n + j];
  }
}
