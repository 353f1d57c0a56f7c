// Breadth-first search, one level expansion (after Rodinia bfs, kernel 1): every node v < n in
// the frontier (mask[v] > 0) leaves it and marks each unvisited neighbour u (visited[u] <= 0)
// with cost level + 1 and updating = 1. The graph is CSR with a fixed stride in one buffer:
// node v's degree is graph[v] & 7 and its edges are graph[n + 8v ..], each naming node
// graph[e] mod n; out holds cost[0..n) and updating[n..2n). The frontier test, the degree loop
// and the visited test all diverge. (The scalars come before the last three buffers so that
// clang loads the arguments with at most s_load_dwordx4.)
// @grid 256
// @wg 64
// @args int:2304 u32:256 i32:3 int:grid int:grid zero:512
__kernel void bfs(__global const int *graph, uint n, int level, __global int *mask,
                  __global const int *visited, __global int *out) {
  uint v = get_global_id(0);
  if (v >= n || mask[v] <= 0) return;
  mask[v] = 0;
  uint deg = graph[v] & 7;
  for (uint e = n + 8 * v; e < n + 8 * v + deg; e++) {
    uint u = (uint)graph[e] % n;
    if (visited[u] <= 0) {
      out[u] = level + 1;
      out[n + u] = 1;
    }
  }
}
