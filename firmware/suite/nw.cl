// Needleman-Wunsch (after Rodinia nw), one anti-diagonal step: for the cells (i, j) with
// i + j = d inside the (n+1) x (n+1) score matrix (row and column 0 are the borders),
// score[i][j] = max(score[i-1][j-1] + sim[i][j], score[i-1][j] - penalty,
// score[i][j-1] - penalty). Work-item t takes row i = t + 1.
// @grid 64
// @wg 64
// @args int:4096 int:4096 u32:63 i32:10 u32:40
__kernel void nw(__global int *score, __global const int *sim, uint n, int penalty, uint d) {
  uint i = get_global_id(0) + 1;
  if (i > n || i >= d || d - i > n) return;
  uint j = d - i, w = n + 1;
  int diag = score[(i - 1) * w + j - 1] + sim[i * w + j];
  int up = score[(i - 1) * w + j] - penalty;
  int left = score[i * w + j - 1] - penalty;
  score[i * w + j] = max(diag, max(up, left));
}
