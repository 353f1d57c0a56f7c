// k-means (after Rodinia kmeans), the assignment step: every point (x, y) = (pts[2i],
// pts[2i+1]) gets the index of its nearest of the k centres (ctr[2c], ctr[2c+1]) by squared
// Euclidean distance, the first one on a tie.
// @grid 256
// @wg 64
// @args float:512 float:16 zero:grid u32:256 u32:8
__kernel void kmeans(__global const float *pts, __global const float *ctr,
                     __global int *member, uint n, uint k) {
  uint i = get_global_id(0);
  if (i >= n) return;
  float x = pts[2 * i], y = pts[2 * i + 1];
  float best = 0.0f;
  int idx = -1;
  for (uint c = 0; c < k; c++) {
    float dx = x - ctr[2 * c], dy = y - ctr[2 * c + 1];
    float dist = dx * dx + dy * dy;
    if (idx < 0 || dist < best) {
      best = dist;
      idx = c;
    }
  }
  member[i] = idx;
}
