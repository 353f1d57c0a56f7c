// LU decomposition, perimeter step (after Rodinia lud_perimeter), in 1-D form: with the
// diagonal block of 4 x 4 at (o, o) of the n x n matrix a already factored, every work-item
// solves one column of the block row to its right (L's forward substitution) or one row of
// the block column below it (U's back division). Work-items come in groups of 32: the first
// 16 take columns, the other 16 rows, as Rodinia's two halves of a block's threads, so every
// wavefront runs both arms of the if/else. n - o - 4 must be a multiple of 16.
// @grid 128
// @wg 64
// @args float:4624 u32:68 u32:0
#define B 4
__kernel void lud(__global float *a, uint n, uint o) {
  uint t = get_global_id(0);
  uint m = n - o - B;
  if (t >= 2 * m) return;
  uint g = t / 32, h = t % 32;
  __global const float *dia = a + o * n + o;
  if (h < 16) {
    uint c = o + B + g * 16 + h;
    float r[B];
    for (int i = 0; i < B; i++) r[i] = a[(o + i) * n + c];
    for (int i = 1; i < B; i++)
      for (int j = 0; j < i; j++) r[i] -= dia[i * n + j] * r[j];
    for (int i = 1; i < B; i++) a[(o + i) * n + c] = r[i];
  } else {
    uint row = o + B + g * 16 + (h - 16);
    float v[B];
    for (int i = 0; i < B; i++) v[i] = a[row * n + o + i];
    for (int i = 0; i < B; i++) {
      for (int j = 0; j < i; j++) v[i] -= dia[j * n + i] * v[j];
      v[i] = v[i] / dia[i * n + i];
    }
    for (int i = 0; i < B; i++) a[row * n + o + i] = v[i];
  }
}
