// Pathfinder (after Rodinia pathfinder): one row step of the dynamic program,
// next[i] = wall[i] + the least of prev[i - 1], prev[i], prev[i + 1] (inside the row).
// @grid 1024
// @wg 256
// @args int:grid int:grid zero:grid u32:1000
__kernel void pathfinder(__global const int *wall, __global const int *prev, __global int *next,
                         uint cols) {
  uint i = get_global_id(0);
  if (i >= cols) return;
  int best = prev[i];
  if (i > 0) best = min(best, prev[i - 1]);
  if (i + 1 < cols) best = min(best, prev[i + 1]);
  next[i] = wall[i] + best;
}
